/*
 * op_pool.c - AVERAGE_POOL_2D and MAX_POOL_2D on the host (host_pool.c): one kernel pair,
 * two TFLite codes.
 */
#include "golden.h"
#include "host_ops.h"
#include "op_env.h"
#include "op_registry.h"
#include "op_shape.h"
#include "vta_text.h"

static vta_status pool_run(vta_op_env *env, const vta_tfl_op *op, vta_error *err)
{
	int32_t oi = op->outputs[0];
	vta_host_tensor in, out;
	vta_status st;
	const vta_tfl_pool_options *po = &op->opt.pool;
	vta_pool_params p = {po->filter_h, po->filter_w, po->stride_h, po->stride_w,
			     po->padding, po->activation};
	if ((st = vta_op_host_in(env, op->inputs[0], &in, err)) ||
	    (st = vta_op_host_out(env, oi, &out, err)))
		return st;
	return op->builtin == VTA_TFL_OP_MAX_POOL_2D ? vta_host_max_pool(&in, &p, &out, err)
						      : vta_host_avg_pool(&in, &p, &out, err);
}

static vta_status pool_derive(vta_op_shape *c, uint64_t *want, bool *known)
{
	const vta_tfl_op *op = c->op;
	const vta_tfl_tensor *a = vta_op_shape_input(c, 0);
	vta_error e = {0};
	*known = true;
	if (!a)
		return c->err->status;
	const vta_tfl_pool_options *po = &op->opt.pool;
	int32_t oh, ow;
	if (a->rank != 4)
		return vta_op_shape_fail(c, "input '%s' of rank %d, expected 4", VTA_Q(a->name),
			       a->rank);
	if (vta_golden_conv2d_padding(a->shape[1], po->filter_h, po->stride_h, 1,
				      po->padding, &oh, NULL, NULL, &e) ||
	    vta_golden_conv2d_padding(a->shape[2], po->filter_w, po->stride_w, 1,
				      po->padding, &ow, NULL, NULL, &e))
		return vta_op_shape_fail(c, "%s", e.detail);
	int32_t d[4] = {a->shape[0], oh, ow, a->shape[3]};
	*want = vta_op_dims_count(d, 4);
	return VTA_OK;
}

const vta_op_desc vta_op_avg_pool = {
	.name = "AVERAGE_POOL_2D",
	.builtin = VTA_TFL_OP_AVERAGE_POOL_2D,
	.place = VTA_OP_HOST,
	.run_host = pool_run,
	.derive = pool_derive,
};

const vta_op_desc vta_op_max_pool = {
	.name = "MAX_POOL_2D",
	.builtin = VTA_TFL_OP_MAX_POOL_2D,
	.place = VTA_OP_HOST,
	.run_host = pool_run,
	.derive = pool_derive,
};
