/*
 * host_mean.c - MEAN on int8 as TFLM computes it (reduce_common.cc EvalIntegerMean, which
 * always calls reference_ops::QuantizedMeanOrSum for int8, whatever the axes and whether or
 * not input and output share their quantization): the int32 sum of the raw values over the
 * reduced axes (wrapping), (M, s) = QuantizeMultiplier((double)s_in / (double)s_out) with
 * 1/count folded in as M' = (M << k) / count, s' = s - k, k = min(floor(log2 count), 32,
 * 31 + s), then out = clamp(MBQM(sum - zp_in * count, M', s') + zp_out). Older TFLM (and
 * TFLite's builtin kernel) divided the raw sum with C's truncation when the quantization was
 * equal, or took reference_integer_ops::Mean for 4-D means over H and W; TFLM no longer does,
 * and neither does this kernel (docs/arithmetic.md 5.3).
 */
#include "host_ops.h"

#include <stdlib.h>
#include <string.h>

/* Resolve axes into a mask of reduced dims (negative from the end, duplicates once). */
static vta_status hm_axes(const vta_host_tensor *in, const int32_t *axes, int n_axes,
			  bool reduced[VTA_HOST_MAX_DIMS], vta_error *err)
{
	memset(reduced, 0, VTA_HOST_MAX_DIMS * sizeof(bool));
	if (n_axes < 0 || (n_axes > 0 && !axes))
		return vta_fail(err, VTA_E_USAGE, "MEAN: no axes");
	for (int i = 0; i < n_axes; i++) {
		int32_t a = axes[i] < 0 ? axes[i] + in->rank : axes[i];
		if (a < 0 || a >= in->rank)
			return vta_fail(err, VTA_E_USAGE, "MEAN: axis %d is outside rank %d",
					(int)axes[i], in->rank);
		reduced[a] = true;
	}
	return VTA_OK;
}

vta_status vta_host_mean_shape(const vta_host_tensor *in, const int32_t *axes, int n_axes,
			       bool keep_dims, vta_host_tensor *out, vta_error *err)
{
	bool red[VTA_HOST_MAX_DIMS];
	vta_status st = vta_host_tensor_check(in, "MEAN input", err);
	if (st == VTA_OK)
		st = hm_axes(in, axes, n_axes, red, err);
	if (st != VTA_OK)
		return st;
	if (!out)
		return vta_fail(err, VTA_E_USAGE, "MEAN: no output");
	int r = 0;
	for (int i = 0; i < in->rank; i++)
		if (!red[i])
			out->dims[r++] = in->dims[i];
		else if (keep_dims)
			out->dims[r++] = 1;
	if (r == 0) /* everything reduced away: one value */
		out->dims[r++] = 1;
	out->rank = r;
	return VTA_OK;
}

vta_status vta_host_mean(const vta_host_tensor *in, const int32_t *axes, int n_axes,
			 bool keep_dims, vta_host_tensor *out, vta_error *err)
{
	vta_host_tensor want = {0};
	bool red[VTA_HOST_MAX_DIMS];
	vta_status st = vta_host_mean_shape(in, axes, n_axes, keep_dims, &want, err);
	if (st == VTA_OK)
		st = vta_host_tensor_check(out, "MEAN output", err);
	if (st == VTA_OK)
		st = vta_host_expect_dims(out, &want, "MEAN", err);
	if (st == VTA_OK)
		st = hm_axes(in, axes, n_axes, red, err);
	if (st != VTA_OK)
		return st;
	/* output strides over the input's dims (0 along reduced ones) */
	size_t ostride[VTA_HOST_MAX_DIMS], s = 1;
	int64_t count = 1;
	for (int i = in->rank - 1; i >= 0; i--) {
		ostride[i] = red[i] ? 0 : s;
		if (red[i])
			count *= in->dims[i];
		else
			s *= (size_t)in->dims[i];
	}
	const size_t nout = s, nin = vta_host_tensor_count(in);
	int32_t *sum = calloc(nout, sizeof(*sum));
	if (!sum)
		return vta_fail(err, VTA_E_NOMEM, "MEAN: out of memory");
	int32_t idx[VTA_HOST_MAX_DIMS] = {0};
	for (size_t i = 0; i < nin; i++) {
		size_t o = 0;
		for (int d = 0; d < in->rank; d++)
			o += (size_t)idx[d] * ostride[d];
		sum[o] = vta_wrap32((int64_t)sum[o] + in->data[i]);
		for (int d = in->rank - 1; d >= 0 && ++idx[d] == in->dims[d]; d--)
			idx[d] = 0;
	}
	vta_qmul m;
	st = vta_quant_requant_params(in->scale, out->scale, &m, err);
	if (st != VTA_OK) {
		free(sum);
		return st;
	}
	int k = 63 - __builtin_clzll((unsigned long long)count);
	if (k > 32)
		k = 32;
	if (k > 31 + m.shift)
		k = 31 + m.shift;
	m.multiplier = (int32_t)(((int64_t)m.multiplier << k) / count);
	m.shift -= k;
	for (size_t o = 0; o < nout; o++) {
		int32_t x = vta_wrap32((int64_t)sum[o] - (int64_t)in->zero_point * count);
		int32_t y = vta_wrap32((int64_t)vta_quant_mbqm(x, m) + out->zero_point);
		out->data[o] = (int8_t)(y < -128 ? -128 : y > 127 ? 127 : y);
	}
	free(sum);
	return VTA_OK;
}
