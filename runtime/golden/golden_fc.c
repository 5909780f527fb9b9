/*
 * golden_fc.c - the golden int8 FULLY_CONNECTED (TFLM reference_integer_ops FullyConnected and
 * FullyConnectedPerChannel), in tflite or vta16 requantization.
 *
 * The input is read as [batches][K], the filter is [O][K] (zero point 0, so TFLite's
 * per-tensor weights_offset term vanishes), the output [batches][O]. One filter scale
 * requantizes every channel with the same multiplier ((double)s_in * (double)s_w /
 * (double)s_out, as GetQuantizedConvolutionMultipler computes it), O scales one each: the
 * per-channel CONV2D arithmetic either way (docs/arithmetic.md 2.3, 3.3).
 */
#include "golden.h"

#include <stdlib.h>

#include "golden_dot.h"

vta_status vta_golden_fc_shape(const vta_fully_connected *f, int32_t *batches, vta_error *err)
{
	if (!f)
		return vta_fail(err, VTA_E_USAGE, "FULLY_CONNECTED: no layer");
	vta_status st = vta_tensor_i8_check(f->input, "FULLY_CONNECTED input", err);
	if (st != VTA_OK)
		return st;
	const int32_t o = f->filter_shape[0], k = f->filter_shape[1];
	if (o < 1 || k < 1)
		return vta_fail(err, VTA_E_USAGE,
				"FULLY_CONNECTED: filter shape [%d, %d] is not a valid [O, K] shape",
				(int)o, (int)k);
	size_t n = vta_tensor_i8_count(f->input);
	if (n % (size_t)k != 0)
		return vta_fail(err, VTA_E_USAGE,
				"FULLY_CONNECTED: %zu input elements are not a multiple of K = %d",
				n, (int)k);
	if (n / (size_t)k > INT32_MAX)
		return vta_fail(err, VTA_E_USAGE, "FULLY_CONNECTED: too many batches");
	if (batches)
		*batches = (int32_t)(n / (size_t)k);
	return VTA_OK;
}

vta_status vta_golden_fc(const vta_fully_connected *f, vta_arith_mode mode, vta_tensor_i8 *out,
			 vta_golden_stats *stats, vta_error *err)
{
	int32_t batches;
	vta_status st = vta_golden_fc_shape(f, &batches, err);
	if (st == VTA_OK)
		st = vta_tensor_i8_check(out, "FULLY_CONNECTED output", err);
	if (st != VTA_OK)
		return st;
	const int32_t O = f->filter_shape[0], K = f->filter_shape[1];
	if (out->shape[3] != O || vta_tensor_i8_count(out) != (size_t)batches * (size_t)O)
		return vta_fail(err, VTA_E_USAGE,
				"FULLY_CONNECTED output shape [%d, %d, %d, %d] should hold %d x %d "
				"elements with %d last",
				(int)out->shape[0], (int)out->shape[1], (int)out->shape[2],
				(int)out->shape[3], (int)batches, (int)O, (int)O);
	if (!f->filter)
		return vta_fail(err, VTA_E_USAGE, "FULLY_CONNECTED: no filter data");
	if (mode != VTA_ARITH_TFLITE && mode != VTA_ARITH_VTA16)
		return vta_fail(err, VTA_E_USAGE, "FULLY_CONNECTED: unknown arithmetic mode %d",
				(int)mode);
	const vta_tensor_i8 *in = f->input;
	vta_golden_requant rq;
	st = vta_golden_requant_init(&rq, "FULLY_CONNECTED", mode, in->scale, f->filter_scales,
				     f->filter_scale_count, (size_t)O, out, f->activation, err);
	if (st != VTA_OK)
		return st;
	/* sum w (x - zp_in) = sum w (x + 128) - (zp_in + 128) sum w: the zero point out of the
	 * inner loop, which is then the unsigned-by-signed byte product of golden_dot.h */
	uint8_t *xb = malloc((size_t)K);
	int64_t *dot = malloc((size_t)O * sizeof(*dot));
	int64_t *wsum = malloc((size_t)O * sizeof(*wsum));
	if (!xb || !dot || !wsum) {
		free(xb);
		free(dot);
		free(wsum);
		vta_golden_requant_done(&rq, NULL);
		return vta_fail(err, VTA_E_NOMEM, "FULLY_CONNECTED: out of memory");
	}
	for (int32_t oc = 0; oc < O; oc++) {
		const int8_t *w = f->filter + (size_t)oc * (size_t)K;
		int64_t s = 0;
		for (int32_t k = 0; k < K; k++)
			s += w[k];
		wsum[oc] = s;
	}
	const vta_golden_dot_fn dot_rows = vta_golden_dot_pick();
	const int64_t zp_biased = (int64_t)in->zero_point + 128;
	for (int32_t b = 0; b < batches; b++) {
		const int8_t *x = in->data + (size_t)b * (size_t)K;
		for (int32_t k = 0; k < K; k++)
			xb[k] = (uint8_t)(x[k] + 128);
		dot_rows(xb, f->filter, (size_t)K, (size_t)O, (size_t)K, dot);
		for (int32_t oc = 0; oc < O; oc++)
			out->data[(size_t)b * (size_t)O + (size_t)oc] = vta_golden_requant_out(
				&rq, (size_t)oc, dot[oc] - zp_biased * wsum[oc],
				f->bias ? f->bias[oc] : 0);
	}
	free(xb);
	free(dot);
	free(wsum);
	vta_golden_requant_done(&rq, stats);
	return VTA_OK;
}

vta_status vta_golden_fc_decode(const vta_fully_connected *f, const vta_lut_tensor *filter_lut,
				const vta_lut_tensor *bias_lut, vta_fully_connected *plain,
				void *owned[2], vta_error *err)
{
	owned[0] = owned[1] = NULL;
	*plain = *f;
	vta_status st = vta_golden_fc_shape(f, NULL, err);
	if (st != VTA_OK)
		return st;
	const size_t o = (size_t)f->filter_shape[0];
	return vta_golden_decode_consts("FULLY_CONNECTED", filter_lut, o * (size_t)f->filter_shape[1],
					bias_lut, o, &plain->filter, &plain->bias, owned, err);
}
