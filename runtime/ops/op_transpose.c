/* op_transpose.c - TRANSPOSE on the host (host_shape.c), by a constant permutation. */
#include "host_ops.h"
#include "op_env.h"
#include "op_registry.h"
#include "op_shape.h"

static vta_status transpose_run(vta_op_env *env, const vta_tfl_op *op, vta_error *err)
{
	int32_t oi = op->outputs[0];
	vta_host_tensor in, out;
	vta_status st;
	int32_t perm[VTA_HOST_MAX_DIMS];
	size_t n;
	if ((st = vta_op_host_in(env, op->inputs[0], &in, err)) ||
	    (st = vta_op_const_i32(env, op->inputs[1], perm, VTA_HOST_MAX_DIMS, &n, err)) ||
	    (st = vta_op_host_out(env, oi, &out, err)))
		return st;
	if (n != (size_t)in.rank)
		return vta_fail(err, VTA_E_DATA, "TRANSPOSE: %zu perm entries for rank %d",
				n, in.rank);
	return vta_host_transpose(&in, perm, &out, err);
}

const vta_op_desc vta_op_transpose = {
	.name = "TRANSPOSE",
	.builtin = VTA_TFL_OP_TRANSPOSE,
	.place = VTA_OP_HOST,
	.run_host = transpose_run,
	.derive = vta_op_derive_same,
};
