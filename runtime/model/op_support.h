/*
 * op_support.h - where each TFLite builtin op of an int8 model runs: on the accelerator
 * (an emitter and a golden kernel), on the host (host_ops.h), or nowhere, with the one-line
 * reason a model runner reports. Keyed by TFLite's BuiltinOperator codes (schema.fbs), so a
 * .tflite reader can ask directly; the answers come from the operator registry
 * (runtime/ops/op_registry.h).
 */
#ifndef VTA_OP_SUPPORT_H
#define VTA_OP_SUPPORT_H

#include "op.h"
#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* TFLite BuiltinOperator codes under the names callers of this header use. */
enum {
	VTA_TFL_ADD = 0,
	VTA_TFL_AVERAGE_POOL_2D = 1,
	VTA_TFL_CONCATENATION = 2,
	VTA_TFL_CONV_2D = 3,
	VTA_TFL_DEPTHWISE_CONV_2D = 4,
	VTA_TFL_FULLY_CONNECTED = 9,
	VTA_TFL_MAX_POOL_2D = 17,
	VTA_TFL_RESHAPE = 22,
	VTA_TFL_SOFTMAX = 25,
	VTA_TFL_SVDF = 27,
	VTA_TFL_PAD = 34,
	VTA_TFL_TRANSPOSE = 39,
	VTA_TFL_MEAN = 40,
	VTA_TFL_PADV2 = 60,
	VTA_TFL_QUANTIZE = 114
};

/* Where `builtin_code` runs; *name (may be NULL) gets TFLite's op name, or "op N". */
vta_op_place vta_op_where(int builtin_code, const char **name);

/* VTA_OK for an op that runs somewhere, else VTA_E_UNSUPPORTED with the reason. */
vta_status vta_op_check(int builtin_code, vta_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VTA_OP_SUPPORT_H */
