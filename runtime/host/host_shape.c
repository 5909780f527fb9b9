/*
 * host_shape.c - the int8 ops that only move data: RESHAPE, PAD/PADV2, TRANSPOSE and
 * CONCATENATION (TFLM reference_ops Pad, Transpose, Concatenation; RESHAPE is a copy).
 * Values are copied as they are: TFLM's int8 CONCATENATION copies an input quantized unlike
 * the output unchanged too (docs/arithmetic.md 5.5).
 */
#include "host_ops.h"

#include <stdio.h>
#include <string.h>

/* Row-major strides of t (elements). */
static void hs_strides(const vta_host_tensor *t, size_t st[VTA_HOST_MAX_DIMS])
{
	size_t s = 1;
	for (int i = t->rank - 1; i >= 0; i--) {
		st[i] = s;
		s *= (size_t)t->dims[i];
	}
}

/* Step the row-major index idx of dims, false past the end. */
static bool hs_next(const vta_host_tensor *t, int32_t idx[VTA_HOST_MAX_DIMS])
{
	for (int i = t->rank - 1; i >= 0; i--) {
		if (++idx[i] < t->dims[i])
			return true;
		idx[i] = 0;
	}
	return false;
}

vta_status vta_host_reshape(const vta_host_tensor *in, vta_host_tensor *out, vta_error *err)
{
	vta_status st = vta_host_tensor_check(in, "RESHAPE input", err);
	if (st == VTA_OK)
		st = vta_host_tensor_check(out, "RESHAPE output", err);
	if (st != VTA_OK)
		return st;
	const size_t n = vta_host_tensor_count(in);
	if (vta_host_tensor_count(out) != n)
		return vta_fail(err, VTA_E_USAGE,
				"RESHAPE: the output holds %zu elements, the input %zu",
				vta_host_tensor_count(out), n);
	if (out->data != in->data)
		memmove(out->data, in->data, n);
	return VTA_OK;
}

/* ---- PAD ---- */

vta_status vta_host_pad_shape(const vta_host_tensor *in, const int32_t (*pads)[2],
			      vta_host_tensor *out, vta_error *err)
{
	vta_status st = vta_host_tensor_check(in, "PAD input", err);
	if (st != VTA_OK)
		return st;
	if (!pads || !out)
		return vta_fail(err, VTA_E_USAGE, "PAD: no paddings or output");
	out->rank = in->rank;
	for (int i = 0; i < in->rank; i++) {
		if (pads[i][0] < 0 || pads[i][1] < 0)
			return vta_fail(err, VTA_E_USAGE,
					"PAD: paddings (%d, %d) of dimension %d must be >= 0",
					(int)pads[i][0], (int)pads[i][1], i);
		int64_t d = (int64_t)in->dims[i] + pads[i][0] + pads[i][1];
		if (d > INT32_MAX)
			return vta_fail(err, VTA_E_USAGE, "PAD: dimension %d grows past int32", i);
		out->dims[i] = (int32_t)d;
	}
	return VTA_OK;
}

vta_status vta_host_pad(const vta_host_tensor *in, const int32_t (*pads)[2], const int8_t *value,
			vta_host_tensor *out, vta_error *err)
{
	vta_host_tensor want = {0};
	vta_status st = vta_host_pad_shape(in, pads, &want, err);
	if (st == VTA_OK)
		st = vta_host_tensor_check(out, "PAD output", err);
	if (st == VTA_OK)
		st = vta_host_expect_dims(out, &want, "PAD", err);
	if (st != VTA_OK)
		return st;
	if (out->data == in->data)
		return vta_fail(err, VTA_E_USAGE, "PAD: the output overlaps the input");
	/* PAD pads with the real zero: the output's zero point (TFLM's pad_value) */
	const uint8_t fill = value ? (uint8_t)*value : (uint8_t)(int8_t)out->zero_point;
	const size_t total = vta_host_tensor_count(out);
	if (vta_host_tensor_count(in) == 0) {
		memset(out->data, fill, total);
		return VTA_OK;
	}
	/* The dimensions inside the innermost padded one, p, are as wide in the output as in
	 * the input: every run along p with them is contiguous in both (an NHWC tensor padded
	 * in H and W copies W x C bytes at a time, not C). */
	int p = in->rank - 1;
	while (p > 0 && !pads[p][0] && !pads[p][1])
		p--;
	size_t so[VTA_HOST_MAX_DIMS];
	hs_strides(out, so);
	const size_t run = (size_t)in->dims[p] * so[p];
	int32_t idx[VTA_HOST_MAX_DIMS] = {0};
	size_t src = 0, done = 0; /* the runs come in output order: the pad is what lies between */
	for (;;) {
		size_t dst = (size_t)pads[p][0] * so[p];
		for (int i = 0; i < p; i++)
			dst += ((size_t)idx[i] + (size_t)pads[i][0]) * so[i];
		memset(out->data + done, fill, dst - done);
		memcpy(out->data + dst, in->data + src, run);
		done = dst + run;
		src += run;
		int i = p - 1; /* the next run: dimensions 0..p-1 step as a row-major index */
		while (i >= 0 && ++idx[i] == in->dims[i])
			idx[i--] = 0;
		if (i < 0) {
			memset(out->data + done, fill, total - done);
			return VTA_OK;
		}
	}
}

/* ---- TRANSPOSE ---- */

vta_status vta_host_transpose_shape(const vta_host_tensor *in, const int32_t *perm,
				    vta_host_tensor *out, vta_error *err)
{
	vta_status st = vta_host_tensor_check(in, "TRANSPOSE input", err);
	if (st != VTA_OK)
		return st;
	if (!perm || !out)
		return vta_fail(err, VTA_E_USAGE, "TRANSPOSE: no permutation or output");
	bool seen[VTA_HOST_MAX_DIMS] = {false};
	for (int i = 0; i < in->rank; i++) {
		if (perm[i] < 0 || perm[i] >= in->rank || seen[perm[i]])
			return vta_fail(err, VTA_E_USAGE,
					"TRANSPOSE: perm[%d] = %d does not make a permutation of "
					"0..%d",
					i, (int)perm[i], in->rank - 1);
		seen[perm[i]] = true;
		out->dims[i] = in->dims[perm[i]];
	}
	out->rank = in->rank;
	return VTA_OK;
}

vta_status vta_host_transpose(const vta_host_tensor *in, const int32_t *perm,
			      vta_host_tensor *out, vta_error *err)
{
	vta_host_tensor want = {0};
	vta_status st = vta_host_transpose_shape(in, perm, &want, err);
	if (st == VTA_OK)
		st = vta_host_tensor_check(out, "TRANSPOSE output", err);
	if (st == VTA_OK)
		st = vta_host_expect_dims(out, &want, "TRANSPOSE", err);
	if (st != VTA_OK)
		return st;
	if (out->data == in->data)
		return vta_fail(err, VTA_E_USAGE, "TRANSPOSE: the output overlaps the input");
	size_t si[VTA_HOST_MAX_DIMS];
	hs_strides(in, si);
	/* the output's last two dimensions strided runs of the input's, walked whole (a short
	 * last one, as NCHW to NHWC's channels, is not a walk of the index per run) */
	const int last = out->rank - 1, inner = last > 0 ? last - 1 : last;
	const size_t run = (size_t)out->dims[last], step = si[perm[last]];
	const size_t rows = last > 0 ? (size_t)out->dims[inner] : 1;
	const size_t row_step = last > 0 ? si[perm[inner]] : 0;
	int32_t idx[VTA_HOST_MAX_DIMS] = {0}; /* output index */
	size_t o = 0;
	do {
		size_t src = 0;
		for (int i = 0; i < inner; i++)
			src += (size_t)idx[i] * si[perm[i]];
		for (size_t r = 0; r < rows; r++, src += row_step)
			for (size_t j = 0; j < run; j++)
				out->data[o++] = in->data[src + j * step];
		/* the steps carry into the outer dimensions */
		idx[last] = out->dims[last] - 1;
		idx[inner] = out->dims[inner] - 1;
	} while (hs_next(out, idx));
	return VTA_OK;
}

/* ---- CONCATENATION ---- */

vta_status vta_host_concat_shape(const vta_host_tensor *const *ins, int n, int axis,
				 vta_host_tensor *out, vta_error *err)
{
	if (!ins || n < 1 || !out)
		return vta_fail(err, VTA_E_USAGE, "CONCATENATION: no inputs or output");
	vta_status st = vta_host_tensor_check(ins[0], "CONCATENATION input 0", err);
	if (st != VTA_OK)
		return st;
	const int rank = ins[0]->rank;
	const int a = axis < 0 ? axis + rank : axis;
	if (a < 0 || a >= rank)
		return vta_fail(err, VTA_E_USAGE, "CONCATENATION: axis %d is outside rank %d", axis,
				rank);
	*out = *ins[0];
	int64_t total = 0;
	for (int k = 0; k < n; k++) {
		char what[40];
		snprintf(what, sizeof(what), "CONCATENATION input %d", k);
		if ((st = vta_host_tensor_check(ins[k], what, err)))
			return st;
		bool ok = ins[k]->rank == rank;
		for (int i = 0; ok && i < rank; i++)
			ok = i == a || ins[k]->dims[i] == ins[0]->dims[i];
		if (!ok)
			return vta_fail(err, VTA_E_USAGE,
					"CONCATENATION: input %d differs from input 0 outside axis %d",
					k, a);
		total += ins[k]->dims[a];
	}
	if (total > INT32_MAX)
		return vta_fail(err, VTA_E_USAGE, "CONCATENATION: axis %d grows past int32", a);
	out->dims[a] = (int32_t)total;
	out->data = NULL;
	return VTA_OK;
}

vta_status vta_host_concat(const vta_host_tensor *const *ins, int n, int axis,
			   vta_host_tensor *out, vta_error *err)
{
	vta_host_tensor want;
	vta_status st = vta_host_concat_shape(ins, n, axis, &want, err);
	if (st == VTA_OK)
		st = vta_host_tensor_check(out, "CONCATENATION output", err);
	if (st == VTA_OK)
		st = vta_host_expect_dims(out, &want, "CONCATENATION", err);
	if (st != VTA_OK)
		return st;
	const int rank = out->rank, a = axis < 0 ? axis + rank : axis;
	size_t outer = 1, inner = 1;
	for (int i = 0; i < a; i++)
		outer *= (size_t)out->dims[i];
	for (int i = a + 1; i < rank; i++)
		inner *= (size_t)out->dims[i];
	/* TFLM copies every input's bytes as they are, whatever its quantization */
	for (int k = 0; k < n; k++)
		if (ins[k]->data == out->data)
			return vta_fail(err, VTA_E_USAGE,
					"CONCATENATION: the output overlaps input %d", k);
	int8_t *dst = out->data;
	for (size_t o = 0; o < outer; o++)
		for (int k = 0; k < n; k++) {
			const size_t len = (size_t)ins[k]->dims[a] * inner;
			memcpy(dst, ins[k]->data + o * len, len);
			dst += len;
		}
	return VTA_OK;
}
