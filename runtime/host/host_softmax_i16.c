/*
 * host_softmax_i16.c - SOFTMAX int8 -> int16 (host_ops.h), as TFLM runs it: softmax_common.cc
 * takes an int16 output of scale 1/65536 (within 0.1%) and zero point -32768, and
 * reference_ops::Softmax<int8_t, int16_t> computes exactly what its int8 output does but for
 * the last step, which keeps 16 bits instead of 8. docs/arithmetic.md "SOFTMAX into int16"
 * spells out each step; every primitive below is gemmlowp's fixed-point one (fixedpoint.h),
 * int32 adds wrapping as the reference's do.
 */
#include "host_ops.h"

#include <math.h>

#define SX_DIFF_BITS 5   /* integer bits of the scaled differences: Q5.26 */
#define SX_ACCUM_BITS 12 /* integer bits of the sum of exponentials: Q12.19 */

static int32_t sx_add(int32_t a, int32_t b)
{
	return vta_wrap32((int64_t)a + b);
}

static int32_t sx_sub(int32_t a, int32_t b)
{
	return vta_wrap32((int64_t)a - b);
}

/* x * 2^e, saturating, e > 0 (SaturatingRoundingMultiplyByPOT) */
static int32_t sx_shl_sat(int32_t x, int e)
{
	int64_t v = (int64_t)x * ((int64_t)1 << e);
	return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
}

/* exp(x) for x in [-1/4, 0), Q0.31 (exp_on_interval_between_negative_one_quarter_and_0_excl):
 * a fourth-order Taylor polynomial around -1/8 */
static int32_t sx_exp_small(int32_t x)
{
	const int32_t exp_minus_eighth = 1895147668, third = 715827883;
	int32_t t = sx_add(x, 1 << 28);
	int32_t t2 = vta_quant_srdhm(t, t);
	int32_t t3 = vta_quant_srdhm(t2, t);
	int32_t t4 = vta_quant_srdhm(t2, t2);
	int32_t t4_quarter = vta_quant_rdbpot(t4, 2);
	int32_t poly = vta_quant_rdbpot(
		sx_add(vta_quant_srdhm(sx_add(t4_quarter, t3), third), t2), 1);
	return sx_add(exp_minus_eighth, vta_quant_srdhm(exp_minus_eighth, sx_add(t, poly)));
}

/* exp(x) for x <= 0 given in Q5.26, Q0.31 out (exp_on_negative_values): the part of x in
 * [-1/4, 0) by the polynomial, each further power-of-two bit by its constant factor */
static int32_t sx_exp(int32_t x)
{
	const int frac_bits = 31 - SX_DIFF_BITS;
	const int32_t quarter = 1 << (frac_bits - 2);
	int32_t in_range = sx_sub((int32_t)((uint32_t)x & (uint32_t)(quarter - 1)), quarter);
	int32_t result = sx_exp_small(sx_shl_sat(in_range, SX_DIFF_BITS));
	int32_t rest = sx_sub(in_range, x);
	/* exp(-1/4), exp(-1/2), exp(-1), exp(-2), exp(-4), exp(-8), exp(-16) in Q0.31 */
	static const int32_t factor[7] = {1672461947, 1302514674, 790015084, 290630308,
					  39332535,   720401,     242};
	for (int k = 0; k < 7; k++)
		if ((uint32_t)rest & (1u << (frac_bits - 2 + k)))
			result = vta_quant_srdhm(result, factor[k]);
	return x == 0 ? INT32_MAX : result;
}

/* d · 2^shift for a difference d >= diff_min: it fits int32 (that is what diff_min is for);
 * the shift reaches 32 when beta · s_in caps the multiplier */
static int32_t sx_scale_diff(int32_t d, int shift)
{
	return vta_wrap32((int64_t)d * ((int64_t)1 << shift));
}

/* 1 / (1 + x) for x in [0, 1), Q0.31 (one_over_one_plus_x_for_x_in_0_1): three Newton-Raphson
 * steps in Q2.29 from 48/17 - 32/17 d, d = (1 + x) / 2 */
static int32_t sx_reciprocal(int32_t x)
{
	int64_t s = (int64_t)x + INT32_MAX;
	int32_t d = (int32_t)((s + (s >= 0 ? 1 : -1)) / 2); /* RoundingHalfSum */
	int32_t r = sx_add(1515870810, vta_quant_srdhm(d, -1010580540));
	for (int i = 0; i < 3; i++) {
		int32_t err = sx_sub(1 << 29, vta_quant_srdhm(d, r));
		r = sx_add(r, sx_shl_sat(vta_quant_srdhm(r, err), 2));
	}
	return sx_shl_sat(r, 1);
}

vta_status vta_host_softmax_i16(const vta_host_tensor *in, float beta, float out_scale,
				int32_t out_zero_point, int16_t *out, vta_error *err)
{
	vta_status st = vta_host_tensor_check(in, "SOFTMAX input", err);
	if (st != VTA_OK)
		return st;
	if (!out)
		return vta_fail(err, VTA_E_USAGE, "SOFTMAX: no output data");
	const float want = 1.0f / 65536;
	if (out_zero_point != -32768 || !(fabsf(out_scale - want) <= 0.001f * want))
		return vta_fail(err, VTA_E_USAGE,
				"SOFTMAX: an int16 output must have scale 1/65536 and zero point "
				"-32768, not %g and %d",
				(double)out_scale, (int)out_zero_point);
	/* PreprocessSoftmaxScaling: beta * s_in in Q5.26, capped below 2^31 */
	double real = (double)beta * (double)in->scale * (double)(1 << (31 - SX_DIFF_BITS));
	real = real < 2147483647.0 ? real : 2147483647.0;
	vta_qmul m;
	if (!(real > 1.0) || !isfinite(real))
		return vta_fail(err, VTA_E_USAGE,
				"SOFTMAX: beta %g times input scale %g is too small for TFLite's "
				"int8 kernel (its Q5.26 multiplier must exceed 1)",
				(double)beta, (double)in->scale);
	if ((st = vta_quant_multiplier(real, &m, err)))
		return st;
	/* CalculateInputRadius: differences below -radius give exp 0 */
	const int diff_min = -(int)floor(((1 << SX_DIFF_BITS) - 1) *
					 (double)(1ll << (31 - SX_DIFF_BITS)) /
					 (double)(1ll << m.shift));
	const size_t depth = (size_t)in->dims[in->rank - 1];
	const size_t rows = vta_host_tensor_count(in) / depth;
	for (size_t r = 0; r < rows; r++) {
		const int8_t *x = in->data + r * depth;
		int16_t *y = out + r * depth;
		int32_t max = INT8_MIN;
		for (size_t c = 0; c < depth; c++)
			max = x[c] > max ? x[c] : max;
		int32_t sum = 0; /* Q12.19 */
		for (size_t c = 0; c < depth; c++) {
			int32_t diff = x[c] - max;
			if (diff >= diff_min)
				sum = sx_add(sum, vta_quant_rdbpot(
						 sx_exp(vta_quant_srdhm(
							 sx_scale_diff(diff, m.shift), m.multiplier)),
						 SX_ACCUM_BITS));
		}
		/* GetReciprocal(sum, 12) */
		const int lead = sum ? __builtin_clz((uint32_t)sum) : 32;
		const int bits_over_unit = SX_ACCUM_BITS - lead;
		const int32_t scale = sx_reciprocal(
			(int32_t)(((uint32_t)sum << (lead & 31)) - (1u << 31)));
		const int exponent = bits_over_unit + 31 - 16;
		if (lead == 32 || exponent < 0 || exponent > 31)
			return vta_fail(err, VTA_E_USAGE,
					"SOFTMAX: row %zu of %zu values sums its exponentials beyond "
					"the kernel's Q12.19 accumulator",
					r, depth);
		for (size_t c = 0; c < depth; c++) {
			int32_t diff = x[c] - max;
			int32_t v = INT16_MIN;
			if (diff >= diff_min) {
				int32_t e = sx_exp(vta_quant_srdhm(sx_scale_diff(diff, m.shift),
								   m.multiplier));
				int64_t u = (int64_t)vta_quant_rdbpot(vta_quant_srdhm(scale, e), exponent) +
					    INT16_MIN;
				v = (int32_t)(u < INT16_MIN ? INT16_MIN : u > INT16_MAX ? INT16_MAX : u);
			}
			y[c] = (int16_t)v;
		}
	}
	return VTA_OK;
}
