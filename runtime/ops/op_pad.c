/*
 * op_pad.c - PAD and PADV2 on the host (host_shape.c): one kernel, two TFLite codes; PADV2's
 * value must be one int8 quantized as the output.
 */
#include "host_ops.h"
#include "op_env.h"
#include "op_registry.h"
#include "op_shape.h"
#include "vta_text.h"

static vta_status pad_run(vta_op_env *env, const vta_tfl_op *op, vta_error *err)
{
	const vta_tfl_model *m = vta_op_env_model(env);
	int32_t oi = op->outputs[0];
	vta_host_tensor in, out;
	vta_status st;
	int32_t pads[VTA_HOST_MAX_DIMS][2];
	size_t n;
	if ((st = vta_op_host_in(env, op->inputs[0], &in, err)) ||
	    (st = vta_op_const_i32(env, op->inputs[1], &pads[0][0], 2 * VTA_HOST_MAX_DIMS, &n,
				   err)))
		return st;
	if (n != 2 * (size_t)in.rank)
		return vta_fail(err, VTA_E_DATA, "PAD: %zu paddings for rank %d", n,
				in.rank);
	const int8_t *value = NULL;
	if ((st = vta_op_host_out(env, oi, &out, err)))
		return st;
	if (op->builtin == VTA_TFL_OP_PADV2 && op->n_inputs > 2 && op->inputs[2] >= 0) {
		/* TFLite pads with the value's bytes as they are, so it must be one int8
		 * quantized as the output */
		int32_t vi = op->inputs[2];
		const vta_tfl_tensor *vt = &m->tensors[vi];
		if (vt->type != VTA_TFL_INT8 || vt->count != 1 ||
		    vta_op_scale(vt) != out.scale || vta_op_zero_point(vt) != out.zero_point)
			return vta_fail(err, VTA_E_UNSUPPORTED,
					"the pad value, tensor %d '%s', is %s of %zu "
					"elements (scale %g, zero point %d); TFLite takes one "
					"int8 quantized as the output (scale %g, zero point %d)",
					vi, VTA_Q(vt->name), vta_tfl_type_name(vt->type),
					vt->count,
					(double)vta_op_scale(vt), (int)vta_op_zero_point(vt),
					(double)out.scale, (int)out.zero_point);
		if (!(value = vta_op_env_value(env, vi, err)))
			return err->status;
	}
	return vta_host_pad(&in, (const int32_t(*)[2])pads, value, &out, err);
}

static vta_status pad_derive(vta_op_shape *c, uint64_t *want, bool *known)
{
	const vta_tfl_tensor *a = vta_op_shape_input(c, 0), *b;
	*known = true;
	if (!a)
		return c->err->status;
	const uint8_t *p;
	if (!(b = vta_op_shape_input(c, 1)))
		return c->err->status;
	if (!(p = vta_op_shape_const_i32(b, 2 * (size_t)a->rank))) {
		*known = false;
		*want = UINT64_MAX; /* no bound but the memory limit */
		return VTA_OK;
	}
	uint64_t n = 1;
	for (int i = 0; i < a->rank; i++) {
		int64_t lo = vta_op_shape_i32_at(p, 2 * (size_t)i);
		int64_t hi = vta_op_shape_i32_at(p, 2 * (size_t)i + 1);
		if (lo < 0 || hi < 0)
			return vta_op_shape_fail(c, "paddings of dimension %d are %lld and %lld, "
				       "expected non-negative", i, (long long)lo,
				       (long long)hi);
		n = vta_op_sat_mul(n, (uint64_t)(a->shape[i] + lo + hi));
	}
	*want = n;
	return VTA_OK;
}

const vta_op_desc vta_op_pad = {
	.name = "PAD",
	.builtin = VTA_TFL_OP_PAD,
	.place = VTA_OP_HOST,
	.run_host = pad_run,
	.derive = pad_derive,
};

const vta_op_desc vta_op_padv2 = {
	.name = "PADV2",
	.builtin = VTA_TFL_OP_PADV2,
	.place = VTA_OP_HOST,
	.run_host = pad_run,
	.derive = pad_derive,
};
