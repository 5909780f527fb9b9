/* op_concat.c - CONCATENATION on the host (host_shape.c), without a fused activation. */
#include "host_ops.h"
#include "op_env.h"
#include "op_registry.h"
#include "op_shape.h"

static vta_status concat_run(vta_op_env *env, const vta_tfl_op *op, vta_error *err)
{
	int32_t oi = op->outputs[0];
	vta_host_tensor out;
	vta_status st;
	vta_host_tensor ins[16];
	const vta_host_tensor *pins[16];
	if (op->n_inputs > 16)
		return vta_fail(err, VTA_E_UNSUPPORTED, "CONCATENATION of %zu inputs",
				op->n_inputs);
	for (size_t i = 0; i < op->n_inputs; i++) {
		if ((st = vta_op_host_in(env, op->inputs[i], &ins[i], err)))
			return st;
		pins[i] = &ins[i];
	}
	if ((st = vta_op_host_out(env, oi, &out, err)))
		return st;
	if (op->opt.concat.activation != VTA_ACT_NONE)
		return vta_fail(err, VTA_E_UNSUPPORTED,
				"CONCATENATION with a fused activation");
	return vta_host_concat(pins, (int)op->n_inputs, op->opt.concat.axis, &out, err);
}

static vta_status concat_derive(vta_op_shape *c, uint64_t *want, bool *known)
{
	const vta_tfl_op *op = c->op;
	const vta_tfl_tensor *a = vta_op_shape_input(c, 0), *b;
	*known = true;
	if (!a)
		return c->err->status;
	uint64_t n = 0;
	for (size_t k = 0; k < op->n_inputs; k++) {
		if (!(b = vta_op_shape_input(c, k)))
			return c->err->status;
		n = vta_op_sat_add(n, b->count);
	}
	*want = n;
	return VTA_OK;
}

const vta_op_desc vta_op_concat = {
	.name = "CONCATENATION",
	.builtin = VTA_TFL_OP_CONCATENATION,
	.place = VTA_OP_HOST,
	.run_host = concat_run,
	.derive = concat_derive,
};
