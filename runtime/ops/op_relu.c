/*
 * op_relu.c - standalone RELU and RELU6 on the host (host_relu.c): int8 in, int8 out, one
 * kernel each; no options.
 */
#include "host_ops.h"
#include "op_env.h"
#include "op_registry.h"
#include "op_shape.h"
#include "vta_text.h"

/* The input and output as host tensors; a tensor without quantization is refused, where
 * TFLM would read scale 0. */
static vta_status relu_tensors(vta_op_env *env, const vta_tfl_op *op, vta_host_tensor *in,
			       vta_host_tensor *out, vta_error *err)
{
	const vta_tfl_model *m = vta_op_env_model(env);
	int32_t ii = op->inputs[0], oi = op->outputs[0];
	const vta_tfl_tensor *ti = &m->tensors[ii], *to = &m->tensors[oi];
	if (!ti->quant.count)
		return vta_fail(err, VTA_E_DATA, "the input, tensor %d '%s', is not quantized", ii,
				VTA_Q(ti->name));
	if (!to->quant.count)
		return vta_fail(err, VTA_E_DATA, "the output, tensor %d '%s', is not quantized",
				oi, VTA_Q(to->name));
	vta_status st = vta_op_host_in(env, ii, in, err);
	return st ? st : vta_op_host_out(env, oi, out, err);
}

static vta_status relu_run(vta_op_env *env, const vta_tfl_op *op, vta_error *err)
{
	vta_host_tensor in, out;
	vta_status st = relu_tensors(env, op, &in, &out, err);
	return st ? st : vta_host_relu(&in, &out, err);
}

static vta_status relu6_run(vta_op_env *env, const vta_tfl_op *op, vta_error *err)
{
	vta_host_tensor in, out;
	vta_status st = relu_tensors(env, op, &in, &out, err);
	return st ? st : vta_host_relu6(&in, &out, err);
}

const vta_op_desc vta_op_relu = {
	.name = "RELU",
	.builtin = VTA_TFL_OP_RELU,
	.place = VTA_OP_HOST,
	.run_host = relu_run,
	.derive = vta_op_derive_same,
};

const vta_op_desc vta_op_relu6 = {
	.name = "RELU6",
	.builtin = VTA_TFL_OP_RELU6,
	.place = VTA_OP_HOST,
	.run_host = relu6_run,
	.derive = vta_op_derive_same,
};
