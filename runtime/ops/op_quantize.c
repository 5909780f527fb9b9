/*
 * op_quantize.c - QUANTIZE on the host: into int8 from int8, uint8 or float32
 * (host_quantize.c, host_requantize.c), and between other integer types (host_ops_wide.h).
 */
#include <stdlib.h>
#include <string.h>

#include "host_ops.h"
#include "host_ops_wide.h"
#include "op_env.h"
#include "op_registry.h"
#include "op_shape.h"
#include "vta_text.h"

/* QUANTIZE between integer types other than into int8 from int8 or uint8 (host_ops_wide.h). */
static bool int_type_of(vta_tfl_type t, vta_host_int_type *out)
{
	switch (t) {
	case VTA_TFL_INT8: *out = VTA_HOST_INT8; return true;
	case VTA_TFL_UINT8: *out = VTA_HOST_UINT8; return true;
	case VTA_TFL_INT16: *out = VTA_HOST_INT16; return true;
	case VTA_TFL_INT32: *out = VTA_HOST_INT32; return true;
	default: return false;
	}
}

static vta_status run_quantize_int(vta_op_env *env, const vta_tfl_op *op, vta_error *err)
{
	int32_t ii = op->inputs[0], oi = op->outputs[0];
	const vta_tfl_model *m = vta_op_env_model(env);
	const vta_tfl_tensor *ti = &m->tensors[ii], *to = &m->tensors[oi];
	vta_host_quantized in, out;
	if (!int_type_of(ti->type, &in.type) || !int_type_of(to->type, &out.type))
		return vta_fail(err, VTA_E_UNSUPPORTED, "QUANTIZE from %s to %s",
				vta_tfl_type_name(ti->type), vta_tfl_type_name(to->type));
	if (ti->count != to->count)
		return vta_fail(err, VTA_E_DATA, "QUANTIZE of %zu elements into %zu", ti->count,
				to->count);
	if (to->quant.count != 1)
		return vta_fail(err, VTA_E_DATA,
				"the output, tensor %d '%s', has %zu scales; QUANTIZE takes one",
				oi, VTA_Q(to->name), to->quant.count);
	/* TFLM reads a tensor without quantization as scale 0: refused below */
	in.scale = ti->quant.count ? ti->quant.scale[0] : 0.0f;
	in.zero_point = vta_op_zero_point(ti);
	out.scale = vta_op_scale(to);
	out.zero_point = vta_op_zero_point(to);
	const void *v = vta_op_env_value(env, ii, err);
	if (!v || !(out.data = vta_op_env_output(env, oi, err)))
		return err->status;
	size_t n = vta_op_tensor_bytes(ti);
	void *copy = malloc(n ? n : 1); /* a constant in the image may be unaligned */
	if (!copy)
		return vta_fail(err, VTA_E_NOMEM, "out of memory");
	memcpy(copy, v, n);
	in.data = copy;
	vta_status st = vta_host_requantize_int(&in, &out, ti->count, err);
	free(copy);
	return st;
}

static vta_status quantize_run(vta_op_env *env, const vta_tfl_op *op, vta_error *err)
{
	const vta_tfl_model *m = vta_op_env_model(env);
	int32_t oi = op->outputs[0];
	vta_host_tensor in, out;
	vta_status st;
	const vta_tfl_tensor *ti = &m->tensors[op->inputs[0]];
	if (m->tensors[oi].type != VTA_TFL_INT8 ||
	    (ti->type != VTA_TFL_INT8 && ti->type != VTA_TFL_UINT8 &&
	     ti->type != VTA_TFL_FLOAT32))
		return run_quantize_int(env, op, err);
	if ((st = vta_op_host_out(env, oi, &out, err)))
		return st;
	const void *v = vta_op_env_value(env, op->inputs[0], err);
	if (!v)
		return err->status;
	if (ti->type == VTA_TFL_INT8) {
		if ((st = vta_op_host_tensor(env, op->inputs[0], (int8_t *)v, &in, err)))
			return st;
		return vta_host_requantize(&in, &out, err);
	}
	if (ti->type == VTA_TFL_UINT8)
		return vta_host_requantize_u8(v, ti->count, vta_op_scale(ti), vta_op_zero_point(ti),
					      &out, err);
	if (ti->type == VTA_TFL_FLOAT32)
		return vta_host_quantize_f32(v, ti->count, &out, err);
	return vta_fail(err, VTA_E_UNSUPPORTED, "QUANTIZE from %s to int8",
			vta_tfl_type_name(ti->type));
}

const vta_op_desc vta_op_quantize = {
	.name = "QUANTIZE",
	.builtin = VTA_TFL_OP_QUANTIZE,
	.place = VTA_OP_HOST,
	.run_host = quantize_run,
	.derive = vta_op_derive_same,
};
