/* op_reshape.c - RESHAPE on the host: the bytes as they are, whatever their type. */
#include <string.h>

#include "op_env.h"
#include "op_registry.h"
#include "op_shape.h"

static vta_status reshape_run(vta_op_env *env, const vta_tfl_op *op, vta_error *err)
{
	const vta_tfl_model *m = vta_op_env_model(env);
	int32_t oi = op->outputs[0];
	/* the bytes as they are, whatever their type */
	const vta_tfl_tensor *ti = &m->tensors[op->inputs[0]], *to = &m->tensors[oi];
	if (ti->type != to->type || ti->count != to->count)
		return vta_fail(err, VTA_E_DATA,
				"RESHAPE of %zu %s elements into %zu %s elements",
				ti->count, vta_tfl_type_name(ti->type), to->count,
				vta_tfl_type_name(to->type));
	const void *v = vta_op_env_value(env, op->inputs[0], err);
	void *o = v ? vta_op_env_output(env, oi, err) : NULL;
	if (!o)
		return err->status;
	memcpy(o, v, vta_op_tensor_bytes(to));
	return VTA_OK;
}

const vta_op_desc vta_op_reshape = {
	.name = "RESHAPE",
	.builtin = VTA_TFL_OP_RESHAPE,
	.place = VTA_OP_HOST,
	.run_host = reshape_run,
	.derive = vta_op_derive_same,
};
