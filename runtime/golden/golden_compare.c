/*
 * golden_compare.c - comparing a produced int8 tensor with the expected one: the numbers behind
 * the report's `check` section (bit-exactness, first mismatch, LSB distance histogram).
 */
#include "golden.h"

#include <string.h>

size_t vta_golden_compare_bin(int32_t diff)
{
	if (diff < -VTA_COMPARE_HIST_RADIUS)
		return 0;
	if (diff > VTA_COMPARE_HIST_RADIUS)
		return VTA_COMPARE_HIST_BINS - 1;
	return (size_t)(diff + VTA_COMPARE_HIST_RADIUS + 1);
}

vta_status vta_golden_compare(const vta_tensor_i8 *expected, const vta_tensor_i8 *got,
			      vta_compare *out, vta_error *err)
{
	if (!out)
		return vta_fail(err, VTA_E_USAGE, "compare: no output");
	memset(out, 0, sizeof(*out));
	size_t n = vta_tensor_i8_count(expected);
	if (n == 0 || !expected->data)
		return vta_fail(err, VTA_E_USAGE, "compare: expected tensor has no valid shape "
				"or data");
	if (!got || !got->data || memcmp(expected->shape, got->shape, sizeof(got->shape)) != 0)
		return vta_fail(err, VTA_E_USAGE,
				"compare: shapes differ (expected [%d, %d, %d, %d], got [%d, %d, "
				"%d, %d])",
				(int)expected->shape[0], (int)expected->shape[1],
				(int)expected->shape[2], (int)expected->shape[3],
				got ? (int)got->shape[0] : 0, got ? (int)got->shape[1] : 0,
				got ? (int)got->shape[2] : 0, got ? (int)got->shape[3] : 0);
	out->count = n;
	if (memcmp(expected->data, got->data, n) == 0) {
		/* the usual verdict, without a pass element by element */
		out->hist[vta_golden_compare_bin(0)] = n;
		out->bit_exact = true;
		return VTA_OK;
	}
	for (size_t i = 0; i < n; i++) {
		int32_t e = expected->data[i], g = got->data[i];
		int32_t d = g - e;
		out->hist[vta_golden_compare_bin(d)]++;
		if (d == 0)
			continue;
		if (out->mismatches++ == 0) {
			out->first_index = i;
			vta_tensor_i8_coords(expected, i, out->first_nhwc);
			out->expected = e;
			out->got = g;
		}
		int32_t a = d < 0 ? -d : d;
		if (a > out->max_abs_diff)
			out->max_abs_diff = a;
	}
	out->bit_exact = out->mismatches == 0;
	return VTA_OK;
}
