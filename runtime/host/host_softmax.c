/*
 * host_softmax.c - SOFTMAX int8 -> int8 (TFLM softmax_common.cc and reference_ops::Softmax
 * for int8): per row of the last dim, the differences from the row's maximum are scaled by
 * beta * s_in into Q5.26, exponentiated with gemmlowp's fixed-point exp_on_negative_values,
 * summed in Q12.19, and each exp is multiplied by the Newton-Raphson reciprocal of the sum
 * (GetReciprocal) and shifted to 8 bits. Differences below diff_min give -128. Every
 * constant and rounding below is gemmlowp's (fixedpoint.h); int32 adds wrap as the
 * reference's do for the inputs it accepts.
 */
#include "host_ops.h"

#include <math.h>

#define HS_DIFF_INT_BITS 5  /* kScaledDiffIntegerBits: Q5.26 */
#define HS_ACCUM_INT_BITS 12 /* kAccumulationIntegerBits: Q12.19 */

/* diff * 2^shift wrapped to 32 bits as TFLM's int32 arithmetic does; the shift reaches 32
 * when beta * s_in caps the multiplier, where a plain shift is undefined */
static int32_t hs_scale_diff(int32_t diff, int shift)
{
	return vta_wrap32((int64_t)diff * ((int64_t)1 << shift));
}

static int32_t hs_add(int32_t a, int32_t b)
{
	return vta_wrap32((int64_t)a + b);
}

/* FixedPoint multiplication: SaturatingRoundingDoublingHighMul. */
static int32_t hs_mul(int32_t a, int32_t b)
{
	return vta_quant_srdhm(a, b);
}

/* SaturatingRoundingMultiplyByPOT<e> for e > 0: a saturating left shift. */
static int32_t hs_sat_shl(int32_t x, int e)
{
	const int32_t threshold = (int32_t)((1u << (31 - e)) - 1);
	if (x > threshold)
		return INT32_MAX;
	if (x < -threshold)
		return INT32_MIN;
	return (int32_t)((uint32_t)x << e);
}

/* gemmlowp RoundingHalfSum for int32. */
static int32_t hs_half_sum(int32_t a, int32_t b)
{
	int64_t sum = (int64_t)a + b;
	return (int32_t)((sum + (sum >= 0 ? 1 : -1)) / 2);
}

/* exp(a) for a in [-1/4, 0), Q0.31 in and out. */
static int32_t hs_exp_quarter(int32_t a)
{
	const int32_t constant_term = 1895147668;     /* exp(-1/8) */
	const int32_t constant_1_over_3 = 715827883;
	const int32_t x = hs_add(a, 1 << 28);         /* a + 1/8 */
	const int32_t x2 = hs_mul(x, x), x3 = hs_mul(x2, x), x4 = hs_mul(x2, x2);
	const int32_t x4_over_4 = vta_quant_rdbpot(x4, 2);
	const int32_t poly = vta_quant_rdbpot(hs_add(hs_mul(hs_add(x4_over_4, x3),
							     constant_1_over_3),
						      x2),
					      1);
	return hs_add(constant_term, hs_mul(constant_term, hs_add(x, poly)));
}

/* exp(a) for a <= 0 in Q5.26, result in Q0.31 (gemmlowp exp_on_negative_values). */
static int32_t hs_exp_negative(int32_t a)
{
	const int frac = 31 - HS_DIFF_INT_BITS;            /* 26 */
	const int32_t one_quarter = 1 << (frac - 2);
	const int32_t mask = one_quarter - 1;
	const int32_t a_mod = hs_add((int32_t)((uint32_t)a & (uint32_t)mask), -one_quarter);
	int32_t result = hs_exp_quarter(hs_sat_shl(a_mod, HS_DIFF_INT_BITS)); /* Rescale<0> */
	const int32_t remainder = hs_add(a_mod, -a);
	/* exp(-2^k) for k = -2..4, applied per bit of the remainder */
	static const int32_t mult[7] = {1672461947, 1302514674, 790015084, 290630308,
					39332535,   720401,     242};
	for (int k = -2; k <= 4; k++)
		if ((uint32_t)remainder & (1u << (frac + k)))
			result = hs_mul(result, mult[k + 2]);
	return a == 0 ? INT32_MAX : result;
}

/* 1 / (1 + a) for a in [0, 1), Q0.31 in and out (gemmlowp one_over_one_plus_x_for_x_in_0_1). */
static int32_t hs_one_over_one_plus(int32_t a)
{
	const int32_t half_denominator = hs_half_sum(a, INT32_MAX);
	const int32_t one_q2 = 1 << 29;
	int32_t x = hs_add(1515870810, hs_mul(half_denominator, -1010580540)); /* Q2: 48/17 - 32/17 d */
	for (int i = 0; i < 3; i++) {
		int32_t one_minus = vta_wrap32((int64_t)one_q2 - hs_mul(half_denominator, x));
		x = hs_add(x, hs_sat_shl(hs_mul(x, one_minus), 2)); /* Rescale<2> of Q4 */
	}
	return hs_sat_shl(x, 1); /* Rescale<0>(ExactMulByPot<-1>(x)) */
}

vta_status vta_host_softmax(const vta_host_tensor *in, float beta, vta_host_tensor *out,
			    vta_error *err)
{
	vta_status st = vta_host_tensor_check(in, "SOFTMAX input", err);
	if (st == VTA_OK)
		st = vta_host_tensor_check(out, "SOFTMAX output", err);
	if (st == VTA_OK)
		st = vta_host_expect_dims(out, in, "SOFTMAX", err);
	if (st != VTA_OK)
		return st;
	if (out->zero_point != -128 || out->scale != 1.0f / 256)
		return vta_fail(err, VTA_E_USAGE,
				"SOFTMAX: an int8 output must have scale 1/256 and zero point -128, "
				"not %g and %d",
				(double)out->scale, (int)out->zero_point);
	/* PreprocessSoftmaxScaling: beta * s_in in Q5.26, capped, as a multiplier > 1 */
	double real = (double)beta * (double)in->scale * (double)(1 << (31 - HS_DIFF_INT_BITS));
	if (real > (double)INT32_MAX)
		real = (double)INT32_MAX;
	vta_qmul m;
	if (!(real > 1.0) || !isfinite(real))
		return vta_fail(err, VTA_E_USAGE,
				"SOFTMAX: beta %g times input scale %g is too small for TFLite's "
				"int8 kernel (its Q5.26 multiplier must exceed 1)",
				(double)beta, (double)in->scale);
	if ((st = vta_quant_multiplier(real, &m, err)))
		return st;
	/* CalculateInputRadius: the largest |difference| whose rescaling stays in int32 */
	const int diff_min = -(int)floor(1.0 * ((1 << HS_DIFF_INT_BITS) - 1) *
					 (double)(1ll << (31 - HS_DIFF_INT_BITS)) /
					 (double)(1ll << m.shift));
	const size_t depth = (size_t)in->dims[in->rank - 1];
	const size_t rows = vta_host_tensor_count(in) / depth;
	for (size_t r = 0; r < rows; r++) {
		const int8_t *x = in->data + r * depth;
		int8_t *y = out->data + r * depth;
		int32_t max = -128;
		for (size_t c = 0; c < depth; c++)
			max = x[c] > max ? x[c] : max;
		int32_t sum = 0; /* Q12.19 */
		for (size_t c = 0; c < depth; c++) {
			int32_t diff = x[c] - max;
			if (diff >= diff_min) {
				int32_t e = hs_exp_negative(
					hs_mul(hs_scale_diff(diff, m.shift), m.multiplier));
				sum = hs_add(sum, vta_quant_rdbpot(e, HS_ACCUM_INT_BITS)); /* Rescale<12> */
			}
		}
		/* GetReciprocal(sum, 12): 1 / sum as a Q0.31 scale and a shift; TFLite checks
		 * the shift (a row of a few thousand equal maxima leaves it) */
		const int headroom_plus_one = sum ? __builtin_clz((uint32_t)sum) : 32;
		const int bits_over_unit = HS_ACCUM_INT_BITS - headroom_plus_one;
		const int32_t shifted_sum_minus_one =
			(int32_t)(((uint32_t)sum << headroom_plus_one) - (1u << 31));
		const int32_t scale = hs_one_over_one_plus(shifted_sum_minus_one);
		const int exponent = bits_over_unit + 31 - 8;
		if (exponent < 0 || exponent > 31)
			return vta_fail(err, VTA_E_USAGE,
					"SOFTMAX: row %zu of %zu values sums its exponentials beyond "
					"the int8 kernel's Q12.19 accumulator",
					r, depth);
		for (size_t c = 0; c < depth; c++) {
			int32_t diff = x[c] - max;
			int32_t v = -128;
			if (diff >= diff_min) {
				int32_t e = hs_exp_negative(
					hs_mul(hs_scale_diff(diff, m.shift), m.multiplier));
				v = vta_quant_rdbpot(hs_mul(scale, e), exponent) - 128;
				v = v < -128 ? -128 : v > 127 ? 127 : v;
			}
			y[c] = (int8_t)v;
		}
	}
	return VTA_OK;
}
