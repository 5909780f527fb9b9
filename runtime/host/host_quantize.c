/*
 * host_quantize.c - QUANTIZE into int8 (TFLM quantize_common.cc): int8 or uint8 inputs are
 * requantized with reference_ops::Requantize's integer arithmetic (quant.h), float inputs
 * with reference_ops::AffineQuantize (round half away from zero of x / scale in float).
 */
#include "host_ops.h"

#include <math.h>

static vta_status hq_out(const vta_host_tensor *out, size_t count, vta_error *err)
{
	vta_status st = vta_host_tensor_check(out, "QUANTIZE output", err);
	if (st == VTA_OK && vta_host_tensor_count(out) != count)
		st = vta_fail(err, VTA_E_USAGE,
			      "QUANTIZE: the output holds %zu elements, the input %zu",
			      vta_host_tensor_count(out), count);
	return st;
}

vta_status vta_host_requantize(const vta_host_tensor *in, vta_host_tensor *out, vta_error *err)
{
	vta_status st = vta_host_tensor_check(in, "QUANTIZE input", err);
	if (st != VTA_OK)
		return st;
	const size_t n = vta_host_tensor_count(in);
	vta_qmul m;
	if ((st = hq_out(out, n, err)) ||
	    (st = vta_quant_requant_params(in->scale, out->scale, &m, err)))
		return st;
	for (size_t i = 0; i < n; i++)
		out->data[i] = (int8_t)vta_quant_requant_apply(in->data[i], in->zero_point, m,
							       out->zero_point);
	return VTA_OK;
}

vta_status vta_host_requantize_u8(const uint8_t *in, size_t count, float scale,
				  int32_t zero_point, vta_host_tensor *out, vta_error *err)
{
	if (!in)
		return vta_fail(err, VTA_E_USAGE, "QUANTIZE: no input data");
	if (zero_point < 0 || zero_point > 255)
		return vta_fail(err, VTA_E_USAGE,
				"QUANTIZE: uint8 input zero point %d is outside 0..255",
				(int)zero_point);
	vta_qmul m;
	vta_status st = hq_out(out, count, err);
	if (st == VTA_OK)
		st = vta_quant_requant_params(scale, out->scale, &m, err);
	if (st != VTA_OK)
		return st;
	for (size_t i = 0; i < count; i++)
		out->data[i] = (int8_t)vta_quant_requant_apply(in[i], zero_point, m,
							       out->zero_point);
	return VTA_OK;
}

vta_status vta_host_quantize_f32(const float *in, size_t count, vta_host_tensor *out,
				 vta_error *err)
{
	if (!in)
		return vta_fail(err, VTA_E_USAGE, "QUANTIZE: no input data");
	vta_status st = hq_out(out, count, err);
	if (st != VTA_OK)
		return st;
	for (size_t i = 0; i < count; i++) {
		if (isnan(in[i]))
			return vta_fail(err, VTA_E_USAGE, "QUANTIZE: input %zu is NaN", i);
		/* TfLiteRound(x / (float)scale) in float; bounded before the conversion to
		 * int32 (TFLite's cast of a huge value is undefined, its clamp would saturate) */
		float r = roundf(in[i] / out->scale);
		int32_t q = r > 65536.0f ? 65536 : r < -65536.0f ? -65536 : (int32_t)r;
		q += out->zero_point;
		out->data[i] = (int8_t)(q < -128 ? -128 : q > 127 ? 127 : q);
	}
	return VTA_OK;
}
