/*
 * host_relu.c - standalone RELU and RELU6 on int8 (TFLM activations_common.cc): RELU
 * requantizes into the output's quantization and clamps at its zero; RELU6 clamps the input's
 * codes between the input's zero and the input's quantized 6 and requantizes nothing, as
 * TFLM's kernel does (docs/arithmetic.md section 5.6).
 */
#include "host_ops.h"

#include <stdio.h>

static vta_status relu_shapes(const vta_host_tensor *in, const vta_host_tensor *out,
			      const char *op, vta_error *err)
{
	char what[32];
	snprintf(what, sizeof(what), "%s input", op);
	vta_status st = vta_host_tensor_check(in, what, err);
	if (st != VTA_OK)
		return st;
	snprintf(what, sizeof(what), "%s output", op);
	if ((st = vta_host_tensor_check(out, what, err)))
		return st;
	return vta_host_expect_dims(out, in, op, err);
}

vta_status vta_host_relu(const vta_host_tensor *in, vta_host_tensor *out, vta_error *err)
{
	vta_status st = relu_shapes(in, out, "RELU", err);
	vta_qmul m;
	int32_t lo, hi;
	/* CalculateReluOpData: QuantizeMultiplier((double)s_in / (double)s_out); the range is
	 * [max(-128, zp_out + round(0 / s_out)), 127], which is the fused RELU's */
	if (st == VTA_OK)
		st = vta_quant_multiplier((double)in->scale / (double)out->scale, &m, err);
	if (st == VTA_OK)
		st = vta_quant_activation_range(VTA_ACT_RELU, out->scale, out->zero_point, &lo,
						&hi, err);
	if (st != VTA_OK)
		return st;
	const size_t n = vta_host_tensor_count(in);
	for (size_t i = 0; i < n; i++) {
		int32_t v = vta_quant_mbqm(in->data[i] - in->zero_point, m);
		v = vta_wrap32((int64_t)v + out->zero_point); /* TFLM's int32 sum */
		out->data[i] = (int8_t)(v < lo ? lo : v > hi ? hi : v);
	}
	return VTA_OK;
}

vta_status vta_host_relu6(const vta_host_tensor *in, vta_host_tensor *out, vta_error *err)
{
	vta_status st = relu_shapes(in, out, "RELU6", err);
	int32_t zero, six;
	/* Relu6Prepare: zero = zp_in, six = FloatToQuantizedType<int8>(6, s_in, zp_in), the
	 * input's quantization only: the same bounds as a fused RELU6 on the input's */
	if (st == VTA_OK)
		st = vta_quant_activation_range(VTA_ACT_RELU6, in->scale, in->zero_point, &zero,
						&six, err);
	if (st != VTA_OK)
		return st;
	const size_t n = vta_host_tensor_count(in);
	for (size_t i = 0; i < n; i++) {
		int32_t v = in->data[i];
		out->data[i] = (int8_t)(v > six ? six : v < zero ? zero : v);
	}
	return VTA_OK;
}
