/* op_support.c - which ops run where (op_support.h). */
#include "op_support.h"

#include <stddef.h>

typedef struct op_entry {
	int code;
	const char *name;
	vta_op_place place;
} op_entry;

static const op_entry OPS[] = {
	{VTA_TFL_ADD, "ADD", VTA_OP_ACCEL},
	{VTA_TFL_AVERAGE_POOL_2D, "AVERAGE_POOL_2D", VTA_OP_HOST},
	{VTA_TFL_CONCATENATION, "CONCATENATION", VTA_OP_HOST},
	{VTA_TFL_CONV_2D, "CONV_2D", VTA_OP_ACCEL},
	{VTA_TFL_DEPTHWISE_CONV_2D, "DEPTHWISE_CONV_2D", VTA_OP_ACCEL},
	{VTA_TFL_FULLY_CONNECTED, "FULLY_CONNECTED", VTA_OP_ACCEL},
	{VTA_TFL_MAX_POOL_2D, "MAX_POOL_2D", VTA_OP_HOST},
	{VTA_TFL_RESHAPE, "RESHAPE", VTA_OP_HOST},
	{VTA_TFL_SOFTMAX, "SOFTMAX", VTA_OP_HOST},
	{VTA_TFL_SVDF, "SVDF", VTA_OP_HOST},
	{VTA_TFL_PAD, "PAD", VTA_OP_HOST},
	{VTA_TFL_TRANSPOSE, "TRANSPOSE", VTA_OP_HOST},
	{VTA_TFL_MEAN, "MEAN", VTA_OP_HOST},
	{VTA_TFL_PADV2, "PADV2", VTA_OP_HOST},
	{VTA_TFL_QUANTIZE, "QUANTIZE", VTA_OP_HOST},
};

static const op_entry *op_find(int code)
{
	for (size_t i = 0; i < sizeof(OPS) / sizeof(OPS[0]); i++)
		if (OPS[i].code == code)
			return &OPS[i];
	return NULL;
}

vta_op_place vta_op_where(int builtin_code, const char **name)
{
	const op_entry *e = op_find(builtin_code);
	if (name)
		*name = e ? e->name : "op";
	return e ? e->place : VTA_OP_UNSUPPORTED;
}

vta_status vta_op_check(int builtin_code, vta_error *err)
{
	const op_entry *e = op_find(builtin_code);
	if (e && e->place != VTA_OP_UNSUPPORTED)
		return VTA_OK;
	return vta_fail(err, VTA_E_UNSUPPORTED,
			"TFLite builtin op %d is not supported (int8 ops that run: CONV_2D, "
			"DEPTHWISE_CONV_2D, FULLY_CONNECTED and ADD on the accelerator; "
			"AVERAGE_POOL_2D, MAX_POOL_2D, RESHAPE, SOFTMAX, PAD, PADV2, TRANSPOSE, "
			"MEAN, QUANTIZE, CONCATENATION and SVDF on the host)",
			builtin_code);
}
