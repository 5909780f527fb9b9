/*
 * op_softmax.c - SOFTMAX on the host: int8 into int8 (host_softmax.c) or into int16
 * (host_softmax_i16.c), by the output's type.
 */
#include <string.h>

#include "host_ops.h"
#include "host_ops_wide.h"
#include "op_env.h"
#include "op_registry.h"
#include "op_shape.h"
#include "vta_text.h"

/* SOFTMAX of int8 into int16 (host_ops_wide.h). */
static vta_status run_softmax_i16(vta_op_env *env, const vta_tfl_op *op, vta_error *err)
{
	int32_t oi = op->outputs[0];
	const vta_tfl_model *m = vta_op_env_model(env);
	const vta_tfl_tensor *ti = &m->tensors[op->inputs[0]], *to = &m->tensors[oi];
	vta_host_tensor in;
	vta_status st = vta_op_host_in(env, op->inputs[0], &in, err);
	if (st)
		return st;
	if (to->rank != ti->rank ||
	    memcmp(to->shape, ti->shape, (size_t)ti->rank * sizeof(int32_t)))
		return vta_fail(err, VTA_E_DATA, "SOFTMAX: the output, tensor %d '%s', is not "
				"shaped as the input", oi, VTA_Q(to->name));
	void *o = vta_op_env_output(env, oi, err);
	if (!o)
		return err->status;
	return vta_host_softmax_i16(&in, op->opt.softmax.beta, vta_op_scale(to),
				    vta_op_zero_point(to), o, err);
}

static vta_status softmax_run(vta_op_env *env, const vta_tfl_op *op, vta_error *err)
{
	const vta_tfl_model *m = vta_op_env_model(env);
	int32_t oi = op->outputs[0];
	vta_host_tensor in, out;
	vta_status st;
	if (m->tensors[oi].type == VTA_TFL_INT16)
		return run_softmax_i16(env, op, err);
	if ((st = vta_op_host_in(env, op->inputs[0], &in, err)) ||
	    (st = vta_op_host_out(env, oi, &out, err)))
		return st;
	return vta_host_softmax(&in, op->opt.softmax.beta, &out, err);
}

const vta_op_desc vta_op_softmax = {
	.name = "SOFTMAX",
	.builtin = VTA_TFL_OP_SOFTMAX,
	.place = VTA_OP_HOST,
	.run_host = softmax_run,
	.derive = vta_op_derive_same,
};
