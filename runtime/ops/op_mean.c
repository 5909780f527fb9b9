/* op_mean.c - MEAN on the host (host_mean.c) over constant axes. */
#include "host_ops.h"
#include "op_env.h"
#include "op_registry.h"
#include "op_shape.h"
#include "vta_text.h"

static vta_status mean_run(vta_op_env *env, const vta_tfl_op *op, vta_error *err)
{
	int32_t oi = op->outputs[0];
	vta_host_tensor in, out;
	vta_status st;
	int32_t axes[VTA_HOST_MAX_DIMS];
	size_t n;
	if ((st = vta_op_host_in(env, op->inputs[0], &in, err)) ||
	    (st = vta_op_const_i32(env, op->inputs[1], axes, VTA_HOST_MAX_DIMS, &n, err)) ||
	    (st = vta_op_host_out(env, oi, &out, err)))
		return st;
	return vta_host_mean(&in, axes, (int)n, op->opt.mean.keep_dims, &out, err);
}

static vta_status mean_derive(vta_op_shape *c, uint64_t *want, bool *known)
{
	const vta_tfl_tensor *a = vta_op_shape_input(c, 0), *b;
	*known = true;
	if (!a)
		return c->err->status;
	const uint8_t *p;
	if (!(b = vta_op_shape_input(c, 1)))
		return c->err->status;
	if (!(p = vta_op_shape_const_i32(b, b->count)) || a->rank > VTA_TFL_MAX_RANK) {
		*known = false;
		*want = a->count; /* at most the input's */
		return VTA_OK;
	}
	bool reduced[VTA_TFL_MAX_RANK] = {false};
	for (size_t i = 0; i < b->count; i++) {
		int32_t ax = vta_op_shape_i32_at(p, i);
		if (ax < 0)
			ax += a->rank;
		if (ax < 0 || ax >= a->rank)
			return vta_op_shape_fail(c, "axis %d of a rank-%d input",
						 (int)vta_op_shape_i32_at(p, i), a->rank);
		reduced[ax] = true;
	}
	uint64_t n = 1;
	for (int i = 0; i < a->rank; i++)
		if (!reduced[i])
			n = vta_op_sat_mul(n, (uint64_t)a->shape[i]);
	*want = n;
	return VTA_OK;
}

const vta_op_desc vta_op_mean = {
	.name = "MEAN",
	.builtin = VTA_TFL_OP_MEAN,
	.place = VTA_OP_HOST,
	.run_host = mean_run,
	.derive = mean_derive,
};
