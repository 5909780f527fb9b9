/*
 * test_host_reference.c - every host kernel against a reference written here, separately
 * and plainly from TFLM's rules (docs/arithmetic.md section 5): int64 arithmetic, floor
 * division, loops over indices, no code shared with runtime/ but the kernels' entry points.
 * Random shapes, quantizations and values are drawn so that every rounding path TFLM has for
 * an op is taken (ties of both signs, double rounding, saturation, the clamps of MEAN's
 * folded shift, SOFTMAX's cut-off), and MEAN is pinned to values TFLM's own interpreter
 * computed (tests/fidelity/tflm/mobilenet_v2_random0).
 */
#include "rt_test.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "host_ops.h"

/* ---- reference arithmetic (gemmlowp and TFLite's definitions, written out) ---- */

static int64_t r_floor_div(int64_t a, int64_t b) /* b > 0 */
{
	int64_t q = a / b;
	return (a % b != 0 && a < 0) ? q - 1 : q;
}

static int32_t r_wrap(int64_t v)
{
	return (int32_t)(uint32_t)(uint64_t)v;
}

static int32_t r_clamp32(int64_t v)
{
	return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
}

/* SaturatingRoundingDoublingHighMul: a*b / 2^31 rounded half up; the one overflow saturates. */
static int32_t r_srdhm(int32_t a, int32_t b)
{
	if (a == INT32_MIN && b == INT32_MIN)
		return INT32_MAX;
	return (int32_t)r_floor_div((int64_t)a * b + (1ll << 30), 1ll << 31);
}

/* RoundingDivideByPOT: x / 2^e rounded half away from zero. */
static int32_t r_rdbpot(int32_t x, int e)
{
	if (e == 0)
		return x;
	int64_t mag = x < 0 ? -(int64_t)x : x;
	int64_t q = (mag + (1ll << (e - 1))) >> e;
	return (int32_t)(x < 0 ? -q : q);
}

typedef struct r_mult {
	int32_t m;
	int shift;
} r_mult;

/* QuantizeMultiplier: d = q * 2^shift with q in [0.5, 1), m = q * 2^31 rounded half away. */
static r_mult r_quantize_multiplier(double d)
{
	r_mult r = {0, 0};
	if (d == 0.0)
		return r;
	int e = 0;
	while (d >= 1.0) {
		d /= 2.0;
		e++;
	}
	while (d < 0.5) {
		d *= 2.0;
		e--;
	}
	int64_t m = (int64_t)floor(d * 2147483648.0 + 0.5);
	if (m == (1ll << 31)) {
		m /= 2;
		e++;
	}
	if (e < -31)
		return r;
	r.m = (int32_t)m;
	r.shift = e;
	return r;
}

/* MultiplyByQuantizedMultiplier, double rounding: a wrapping left shift, SRDHM, RDBPOT. */
static int32_t r_mbqm(int32_t x, r_mult m)
{
	int32_t xs = m.shift > 0 ? r_wrap((int64_t)x * (1ll << m.shift)) : x;
	return r_rdbpot(r_srdhm(xs, m.m), m.shift > 0 ? 0 : -m.shift);
}

static int32_t r_clamp8(int64_t v)
{
	return v < -128 ? -128 : v > 127 ? 127 : (int32_t)v;
}

/* CalculateActivationRangeQuantized: zp + round(f / scale) (float division) per bound. */
static void r_act_range(vta_activation act, float scale, int32_t zp, int32_t *lo, int32_t *hi)
{
	*lo = -128;
	*hi = 127;
	if (act == VTA_ACT_NONE)
		return;
	const float fl = act == VTA_ACT_RELU_N1_TO_1 ? -1.0f : 0.0f;
	const float fh = act == VTA_ACT_RELU6 ? 6.0f : 1.0f;
	double ql = zp + round((double)(fl / scale));
	*lo = ql > -128 ? (int32_t)fmin(ql, 127) : -128;
	if (act != VTA_ACT_RELU) {
		double qh = zp + round((double)(fh / scale));
		*hi = qh < 127 ? (int32_t)fmax(qh, -128) : 127;
	}
}

static void fill(rt_rng *rng, int8_t *x, size_t n, int32_t lo, int32_t hi)
{
	for (size_t i = 0; i < n; i++)
		x[i] = (int8_t)rt_rng_range(rng, lo, hi);
}

/* A scale 2^e * u, e in [lo, hi], u in [1, 2). */
static float draw_scale(rt_rng *rng, int lo, int hi)
{
	return ldexpf(1.0f + (float)rt_rng_below(rng, 1u << 20) / (float)(1u << 20),
		      rt_rng_range(rng, lo, hi));
}

static void ok(vta_status st, const vta_error *err)
{
	if (st != VTA_OK) {
		print_error("status %d: %s\n", (int)st, err->detail);
		fail();
	}
}

/* ---- MEAN ---- */

/* TFLM's QuantizedMeanOrSum over the axes in `reduce` of a rank-4 tensor, keep_dims. */
static void r_mean(const int8_t *x, const int32_t d[4], const bool reduce[4], float s_in,
		   int32_t zp_in, float s_out, int32_t zp_out, int8_t *y)
{
	int64_t count = 1;
	int32_t od[4];
	for (int i = 0; i < 4; i++) {
		od[i] = reduce[i] ? 1 : d[i];
		count *= reduce[i] ? d[i] : 1;
	}
	r_mult m = r_quantize_multiplier((double)s_in / (double)s_out);
	int k = 0;
	while ((2ll << k) <= count)
		k++; /* floor(log2 count) */
	if (k > 32)
		k = 32;
	if (k > 31 + m.shift)
		k = 31 + m.shift;
	r_mult folded = {(int32_t)(((int64_t)m.m << k) / count), m.shift - k};
	for (int32_t a = 0; a < od[0]; a++)
		for (int32_t b = 0; b < od[1]; b++)
			for (int32_t c = 0; c < od[2]; c++)
				for (int32_t e = 0; e < od[3]; e++) {
					int64_t sum = 0;
					for (int32_t i = 0; i < d[0]; i++)
						for (int32_t j = 0; j < d[1]; j++)
							for (int32_t l = 0; l < d[2]; l++)
								for (int32_t n = 0; n < d[3]; n++) {
									if ((!reduce[0] && i != a) ||
									    (!reduce[1] && j != b) ||
									    (!reduce[2] && l != c) ||
									    (!reduce[3] && n != e))
										continue;
									sum += x[((i * d[1] + j) * d[2] + l) *
										     d[3] + n];
								}
					int32_t v = r_mbqm(r_wrap(sum - zp_in * count), folded);
					y[((a * od[1] + b) * od[2] + c) * od[3] + e] =
						(int8_t)r_clamp8((int64_t)v + zp_out);
				}
}

static void test_mean_random(void **state)
{
	(void)state;
	rt_rng rng;
	rt_rng_seed(&rng, 41);
	static int8_t x[1 << 14], y[1 << 14], want[1 << 14];
	vta_error err = {0};
	for (int trial = 0; trial < 600; trial++) {
		int32_t d[4];
		size_t n = 1;
		for (int i = 0; i < 4; i++) {
			d[i] = rt_rng_range(&rng, 1, trial % 7 == 0 ? 24 : 7);
			n *= (size_t)d[i];
		}
		if (n > sizeof(x))
			continue;
		bool reduce[4];
		int32_t axes[4];
		int n_axes = 0;
		for (int i = 0; i < 4; i++)
			if ((reduce[i] = rt_rng_below(&rng, 2)))
				axes[n_axes++] = rt_rng_below(&rng, 2) ? i : i - 4; /* negative too */
		/* the scale ratio: equal (MobileNet's), near 1, up to 2^6 either way, or tiny
		 * (the fold's shift clamps at 31 + s) */
		float s_in = draw_scale(&rng, -10, -2), s_out = s_in;
		int32_t zp_in = rt_rng_range(&rng, -128, 127), zp_out = zp_in;
		switch (trial % 4) {
		case 0: break;
		case 1: s_out = s_in * (0.5f + (float)rt_rng_below(&rng, 1000) / 1000.0f); break;
		case 2: s_out = ldexpf(s_in, rt_rng_range(&rng, -6, 6)) * 1.37f; break;
		default: s_out = ldexpf(s_in, 26 + (int)rt_rng_below(&rng, 5)); break;
		}
		if (trial % 4)
			zp_out = rt_rng_range(&rng, -128, 127);
		fill(&rng, x, n, trial % 5 == 0 ? -128 : -20, trial % 5 == 0 ? 127 : 20);
		vta_host_tensor in = {4, {d[0], d[1], d[2], d[3]}, s_in, zp_in, x}, out = {0};
		ok(vta_host_mean_shape(&in, axes, n_axes, true, &out, &err), &err);
		out.scale = s_out;
		out.zero_point = zp_out;
		out.data = y;
		ok(vta_host_mean(&in, axes, n_axes, true, &out, &err), &err);
		r_mean(x, d, reduce, s_in, zp_in, s_out, zp_out, want);
		size_t m = vta_host_tensor_count(&out);
		for (size_t i = 0; i < m; i++)
			if (y[i] != want[i])
				fail_msg("trial %d, output %zu: got %d, want %d", trial, i, y[i],
					 want[i]);
	}
}

/* A count of 4096 with ratios near 2^-26..2^-28: QuantizeMultiplier's shift is -26..-28, so
 * the fold stops at k = 31 + s (5..3) instead of floor(log2 count) = 12, keeping the final
 * right shift at 31. Means this small round to the output's zero point: the case pins that
 * the path runs and lands there, not a rounding. */
static void test_mean_shift_clamp(void **state)
{
	(void)state;
	static int8_t x[64 * 64 * 2];
	int8_t y[2], want[2];
	rt_rng rng;
	rt_rng_seed(&rng, 7);
	vta_error err = {0};
	const int32_t d[4] = {1, 64, 64, 2}, hw[2] = {1, 2};
	const bool reduce[4] = {false, true, true, false};
	for (int trial = 0; trial < 20; trial++) {
		fill(&rng, x, sizeof(x), 100, 127);
		float s_in = 1.0f, s_out = ldexpf(1.0f, 26 + trial % 3) * 1.01f;
		vta_host_tensor in = {4, {1, 64, 64, 2}, s_in, -128, x};
		vta_host_tensor out = {4, {1, 1, 1, 2}, s_out, (int32_t)(trial - 10), y};
		ok(vta_host_mean(&in, hw, 2, true, &out, &err), &err);
		r_mean(x, d, reduce, s_in, -128, s_out, trial - 10, want);
		assert_memory_equal(y, want, 2);
	}
}

/* TFLM's own MEAN of MobileNet v2 (operator 81, 7x7 -> 1, input and output at scale
 * 0.0705479, zero point -9): four channels of its input and what TFLM wrote. Channel 0's
 * truncating division would give -8; channel 33's reference_integer_ops::Mean (round after
 * the sum) -4. */
static const int8_t mv2_ch[4][49] = {
	{-9, -9, -9, -6, -9, -9, -9, -9, -9, -9, -9, -9, -9, -9, -9, -9, -9, -9, -9, -9, -9,
	 -8, -9, -9, -9, -9, -9, -9, -5, -9, -9, -9, -9, -9, -9, -9, -9, -9, -9, -9, -9, -9,
	 -9, -9, -9, -9, -9, -9, -9},
	{-9, -9, -7, -2, -2, -6, -6, -7, -4, -7, -4, 0, 0, -4, -9, -1, -9, -6, 5, -2, 0,
	 -4, -4, -9, -9, -3, -1, 0, -3, -4, -9, -9, 1, 3, 3, -2, -1, -9, -9, -1, 6, 5,
	 -5, -4, -7, -9, -1, 2, 0},
	{-7, -7, -2, -2, -7, -4, -9, -9, -9, -9, -5, -8, -9, -9, -9, -9, -7, -3, -9, -9, -9,
	 -9, -9, -9, -9, -9, -9, -9, -9, -9, -9, -6, -9, -9, -9, -9, -9, -9, -2, -8, -9, -9,
	 -9, -9, -9, 2, -1, -4, -9},
	{-9, -9, -9, -9, -9, -9, -9, -8, -9, -9, -9, -9, -9, -9, -3, -6, -6, -9, -9, -9, -9,
	 -9, -9, -9, -9, -9, -9, -9, -9, -9, -9, -9, -9, -9, -9, -7, -9, -9, -9, -6, -9, -9,
	 -6, -9, -9, -9, -7, -9, -9}};
static const int8_t mv2_tflm[4] = {-9, -3, -7, -8};

static void test_mean_tflm_vectors(void **state)
{
	(void)state;
	int8_t x[49 * 4], y[4];
	for (int p = 0; p < 49; p++)
		for (int c = 0; c < 4; c++)
			x[p * 4 + c] = mv2_ch[c][p];
	vta_error err = {0};
	const int32_t hw[2] = {1, 2};
	vta_host_tensor in = {4, {1, 7, 7, 4}, 0.0705479f, -9, x};
	vta_host_tensor out = {4, {1, 1, 1, 4}, 0.0705479f, -9, y};
	ok(vta_host_mean(&in, hw, 2, true, &out, &err), &err);
	assert_memory_equal(y, mv2_tflm, 4);
}

/* ---- pooling ---- */

/* TFLite's padding: the output size, and the padding before (the odd pixel goes after). */
static void r_padding(int32_t in, int32_t f, int32_t s, vta_padding p, int32_t *out,
		      int32_t *before)
{
	*out = p == VTA_PADDING_SAME ? (in + s - 1) / s : (in - f + s) / s;
	int32_t total = (*out - 1) * s + f - in;
	*before = total > 0 ? total / 2 : 0;
}

static void test_pool_random(void **state)
{
	(void)state;
	rt_rng rng;
	rt_rng_seed(&rng, 17);
	static int8_t x[4096], y[4096], want[4096];
	vta_error err = {0};
	const vta_activation acts[4] = {VTA_ACT_NONE, VTA_ACT_RELU, VTA_ACT_RELU6,
					VTA_ACT_RELU_N1_TO_1};
	for (int trial = 0; trial < 800; trial++) {
		int32_t N = rt_rng_range(&rng, 1, 2), H = rt_rng_range(&rng, 1, 12),
			W = rt_rng_range(&rng, 1, 12), C = rt_rng_range(&rng, 1, 5);
		vta_pool_params p = {rt_rng_range(&rng, 1, 5), rt_rng_range(&rng, 1, 5),
				     rt_rng_range(&rng, 1, 3), rt_rng_range(&rng, 1, 3),
				     rt_rng_below(&rng, 2) ? VTA_PADDING_SAME : VTA_PADDING_VALID,
				     acts[rt_rng_below(&rng, 4)]};
		int32_t Ho, Wo, pt, pl;
		r_padding(H, p.filter_h, p.stride_h, p.padding, &Ho, &pt);
		r_padding(W, p.filter_w, p.stride_w, p.padding, &Wo, &pl);
		if (Ho < 1 || Wo < 1)
			continue;
		float scale = draw_scale(&rng, -8, 0);
		int32_t zp = rt_rng_range(&rng, -128, 127);
		/* small values make ties (sums of half a window) common */
		fill(&rng, x, (size_t)(N * H * W * C), trial % 3 ? -3 : -128, trial % 3 ? 3 : 127);
		vta_host_tensor in = {4, {N, H, W, C}, scale, zp, x};
		vta_host_tensor out = {4, {N, Ho, Wo, C}, scale, zp, y};
		int32_t lo, hi;
		r_act_range(p.activation, scale, zp, &lo, &hi);
		for (int avg = 0; avg < 2; avg++) {
			ok(avg ? vta_host_avg_pool(&in, &p, &out, &err)
			       : vta_host_max_pool(&in, &p, &out, &err),
			   &err);
			for (int32_t n = 0; n < N; n++)
				for (int32_t oy = 0; oy < Ho; oy++)
					for (int32_t ox = 0; ox < Wo; ox++)
						for (int32_t c = 0; c < C; c++) {
							int64_t sum = 0, count = 0, mx = -128;
							for (int32_t fy = 0; fy < p.filter_h; fy++)
								for (int32_t fx = 0; fx < p.filter_w;
								     fx++) {
									int32_t iy = oy * p.stride_h - pt + fy,
										ix = ox * p.stride_w - pl + fx;
									if (iy < 0 || iy >= H || ix < 0 ||
									    ix >= W)
										continue;
									int64_t v = x[((n * H + iy) * W +
										       ix) * C + c];
									sum += v;
									count++;
									mx = v > mx ? v : mx;
								}
							int64_t v = mx;
							if (avg) { /* to nearest, half away from 0 */
								int64_t mag = sum < 0 ? -sum : sum;
								int64_t q = (mag + count / 2) / count;
								v = sum < 0 ? -q : q;
							}
							v = v < lo ? lo : v > hi ? hi : v;
							want[((n * Ho + oy) * Wo + ox) * C + c] =
								(int8_t)v;
						}
			assert_memory_equal(y, want, (size_t)(N * Ho * Wo * C));
		}
	}
}

/* ---- SOFTMAX ---- */

static int32_t r_sat_shl(int32_t x, int e)
{
	return r_clamp32((int64_t)x * (1ll << e));
}

/* gemmlowp exp_on_negative_values for Q5.26 a <= 0, Q0.31 result. */
static int32_t r_exp_neg(int32_t a)
{
	if (a == 0)
		return INT32_MAX;
	const int32_t quarter = 1 << 24;
	const int32_t amod = r_wrap((int64_t)(a & (quarter - 1)) - quarter);
	/* exp on [-1/4, 0): Taylor around -1/8 */
	const int32_t c = 1895147668, third = 715827883;
	const int32_t t = r_wrap((int64_t)r_sat_shl(amod, 5) + (1 << 28));
	const int32_t t2 = r_srdhm(t, t), t3 = r_srdhm(t2, t), t4 = r_srdhm(t2, t2);
	const int32_t poly = r_rdbpot(
		r_wrap((int64_t)r_srdhm(r_wrap((int64_t)r_rdbpot(t4, 2) + t3), third) + t2), 1);
	int32_t result = r_wrap((int64_t)c + r_srdhm(c, r_wrap((int64_t)t + poly)));
	const int32_t rem = r_wrap((int64_t)amod - a);
	const int32_t mult[7] = {1672461947, 1302514674, 790015084, 290630308,
				 39332535,   720401,     242};
	for (int k = 0; k < 7; k++) /* exp(-2^(k-2)) for each bit 24..30 of the remainder */
		if ((rem >> (24 + k)) & 1)
			result = r_srdhm(result, mult[k]);
	return result;
}

/* gemmlowp one_over_one_plus_x_for_x_in_0_1, Q0.31 in and out. */
static int32_t r_reciprocal(int32_t a)
{
	int64_t s = (int64_t)a + INT32_MAX;
	const int32_t half = (int32_t)((s + (s >= 0 ? 1 : -1)) / 2);
	int32_t x = r_wrap(1515870810ll + r_srdhm(half, -1010580540));
	for (int i = 0; i < 3; i++) {
		int32_t one_minus = r_wrap((1ll << 29) - r_srdhm(half, x));
		x = r_wrap((int64_t)x + r_sat_shl(r_srdhm(x, one_minus), 2));
	}
	return r_sat_shl(x, 1);
}

/* TFLite's int8 Softmax of one row; false when it refuses the row (shift out of 0..31). */
static bool r_softmax_row(const int8_t *x, int depth, float s_in, float beta, int8_t *y)
{
	double real = fmin((double)beta * (double)s_in * (double)(1 << 26), 2147483647.0);
	r_mult m = r_quantize_multiplier(real);
	const int32_t diff_min = -(int32_t)floor(31.0 * (double)(1 << 26) / ldexp(1.0, m.shift));
	int32_t mx = -128;
	for (int c = 0; c < depth; c++)
		mx = x[c] > mx ? x[c] : mx;
	int32_t sum = 0;
	for (int c = 0; c < depth; c++)
		if (x[c] - mx >= diff_min)
			sum = r_wrap((int64_t)sum +
				     r_rdbpot(r_exp_neg(r_srdhm((x[c] - mx) * (1 << m.shift), m.m)),
					      12));
	int h = 0;
	while (h < 32 && !((uint32_t)sum & (0x80000000u >> h)))
		h++;
	const int32_t scale = r_reciprocal(r_wrap(((int64_t)(uint32_t)sum << h) - (1ll << 31)));
	const int e = (12 - h) + 31 - 8;
	if (e < 0 || e > 31)
		return false;
	for (int c = 0; c < depth; c++) {
		int32_t d = x[c] - mx;
		y[c] = d < diff_min ? -128
				    : (int8_t)r_clamp8(
					      (int64_t)r_rdbpot(
						      r_srdhm(scale, r_exp_neg(r_srdhm(
									     d * (1 << m.shift), m.m))),
						      e) -
					      128);
	}
	return true;
}

static void test_softmax_random(void **state)
{
	(void)state;
	rt_rng rng;
	rt_rng_seed(&rng, 29);
	static int8_t x[4096], y[4096], want[4096];
	vta_error err = {0};
	for (int trial = 0; trial < 400; trial++) {
		int depth = trial % 10 == 0 ? rt_rng_range(&rng, 200, 700) : rt_rng_range(&rng, 1, 40);
		int rows = rt_rng_range(&rng, 1, 4);
		/* input scales from 1/2048 to 1 and betas 0.25..4: multipliers from just above 1
		 * to the 2^31 - 1 cap, so diff_min from -4 to far below -255 */
		float s_in = draw_scale(&rng, -11, 0), beta = ldexpf(1.0f, rt_rng_range(&rng, -2, 2));
		if ((double)beta * s_in * (1 << 26) <= 1.0)
			continue;
		int spread = trial % 3 == 0 ? 255 : trial % 3 == 1 ? 8 : 0;
		for (int i = 0; i < rows * depth; i++)
			x[i] = (int8_t)rt_rng_range(&rng, 127 - spread, 127) -
			       (spread == 255 ? 0 : (int8_t)rt_rng_below(&rng, 2) * 100);
		vta_host_tensor in = {2, {rows, depth}, s_in, rt_rng_range(&rng, -128, 127), x};
		vta_host_tensor out = {2, {rows, depth}, 1.0f / 256, -128, y};
		bool accepted = true;
		for (int r = 0; r < rows; r++)
			accepted &= r_softmax_row(x + r * depth, depth, s_in, beta, want + r * depth);
		vta_status st = vta_host_softmax(&in, beta, &out, &err);
		if (!accepted) {
			assert_int_equal(st, VTA_E_USAGE);
			rt_assert_error(&err, VTA_E_USAGE, "Q12.19 accumulator");
			continue;
		}
		ok(st, &err);
		for (int i = 0; i < rows * depth; i++)
			if (y[i] != want[i])
				fail_msg("trial %d (depth %d, scale %g, beta %g), element %d: got %d, "
					 "want %d",
					 trial, depth, (double)s_in, (double)beta, i, y[i], want[i]);
	}
}

/* ---- QUANTIZE ---- */

static void test_quantize_random(void **state)
{
	(void)state;
	rt_rng rng;
	rt_rng_seed(&rng, 3);
	int8_t x[256], y[256];
	uint8_t u[256];
	for (int i = 0; i < 256; i++) {
		x[i] = (int8_t)(i - 128);
		u[i] = (uint8_t)i;
	}
	vta_error err = {0};
	for (int trial = 0; trial < 500; trial++) {
		/* ratios 2^-9..2^9: left shifts, right shifts, halves and saturation */
		float s_in = draw_scale(&rng, -9, 0),
		      s_out = trial % 5 ? draw_scale(&rng, -9, 0) : ldexpf(s_in, rt_rng_range(&rng, -3, 3));
		int32_t zi = rt_rng_range(&rng, -128, 127), zo = rt_rng_range(&rng, -128, 127);
		r_mult m = r_quantize_multiplier((double)s_in / (double)s_out);
		vta_host_tensor in = {1, {256}, s_in, zi, x}, out = {1, {256}, s_out, zo, y};
		ok(vta_host_requantize(&in, &out, &err), &err);
		for (int i = 0; i < 256; i++)
			assert_int_equal(y[i], r_clamp8((int64_t)r_mbqm(x[i] - zi, m) + zo));
		int32_t zu = rt_rng_range(&rng, 0, 255);
		ok(vta_host_requantize_u8(u, 256, s_in, zu, &out, &err), &err);
		for (int i = 0; i < 256; i++)
			assert_int_equal(y[i], r_clamp8((int64_t)r_mbqm(u[i] - zu, m) + zo));
	}
	/* float: x / scale in float, then half away from zero (exact in double), + zp, clamp;
	 * values on the ties and next to them */
	float f[512];
	for (int trial = 0; trial < 200; trial++) {
		float s = trial % 2 ? ldexpf(1.0f, rt_rng_range(&rng, -6, 2))
				    : draw_scale(&rng, -8, 0);
		int32_t zp = rt_rng_range(&rng, -128, 127);
		for (int i = 0; i < 512; i++) {
			float k = (float)rt_rng_range(&rng, -300, 300) + 0.5f * (float)(i % 2);
			f[i] = k * s;
			if (i % 7 == 0)
				f[i] = nextafterf(f[i], i % 14 ? INFINITY : -INFINITY);
		}
		vta_host_tensor out = {1, {512}, s, zp, (int8_t[512]){0}};
		ok(vta_host_quantize_f32(f, 512, &out, &err), &err);
		for (int i = 0; i < 512; i++) {
			double r = (double)(f[i] / s);
			double q = r >= 0 ? floor(r + 0.5) : ceil(r - 0.5);
			assert_int_equal(out.data[i], r_clamp8((int64_t)q + zp));
		}
	}
}

/* ---- RELU, RELU6 ---- */

/* TFLM's standalone RELU (CalculateReluOpData, ReluQuantized): requantized into the output,
 * clamped to [max(-128, zp_out + round(0 / s_out)), 127]. */
static int32_t r_relu(int32_t q, float s_in, int32_t zi, float s_out, int32_t zo)
{
	r_mult m = r_quantize_multiplier((double)s_in / (double)s_out);
	int64_t lo = zo + (int64_t)round((double)(0.0f / s_out));
	if (lo < -128)
		lo = -128;
	int64_t v = (int64_t)r_mbqm(q - zi, m) + zo;
	return v < lo ? (int32_t)lo : v > 127 ? 127 : (int32_t)v;
}

/* TFLM's RELU6 (Relu6Prepare, Relu6Quantized): the input's codes between its zero point and
 * FloatToQuantizedType(6, s_in, zp_in); the output's quantization is not read. */
static int32_t r_relu6(int32_t q, float s_in, int32_t zi)
{
	int32_t six = r_clamp8(zi + (int64_t)round((double)(6.0f / s_in)));
	return q > six ? six : q < zi ? zi : q;
}

static void relu_check(const int8_t *x, float s_in, int32_t zi, float s_out, int32_t zo)
{
	int8_t y[256];
	vta_error err = {0};
	vta_host_tensor in = {2, {16, 16}, s_in, zi, (int8_t *)x}, out = {2, {16, 16}, s_out, zo, y};
	ok(vta_host_relu(&in, &out, &err), &err);
	for (int i = 0; i < 256; i++)
		if (y[i] != r_relu(x[i], s_in, zi, s_out, zo))
			fail_msg("RELU of %d, in %g zp %d, out %g zp %d: %d, expected %d", x[i],
				 (double)s_in, zi, (double)s_out, zo, y[i],
				 r_relu(x[i], s_in, zi, s_out, zo));
	ok(vta_host_relu6(&in, &out, &err), &err);
	for (int i = 0; i < 256; i++)
		if (y[i] != r_relu6(x[i], s_in, zi))
			fail_msg("RELU6 of %d, in %g zp %d: %d, expected %d", x[i], (double)s_in, zi,
				 y[i], r_relu6(x[i], s_in, zi));
}

/* Every int8 input under fixed quantizations (scale ratios above, at and below 1, a 6 above
 * and inside the int8 range, zero points at both ends) and random ones. */
static void test_relu_random(void **state)
{
	(void)state;
	int8_t x[256];
	for (int i = 0; i < 256; i++)
		x[i] = (int8_t)(i - 128);
	static const struct {
		float s_in;
		int32_t zi;
		float s_out;
		int32_t zo;
	} fixed[] = {
		{0.05f, 3, 0.03f, -20},       /* ratio 5/3: a left shift */
		{0.02f, -128, 0.1f, -128},    /* ratio 1/5, 6 beyond the range */
		{0.1f, 0, 0.1f, 0},           /* ratio 1 */
		{0.0235294f, 10, 0.0235294f, 10},
		{0.5f, 100, 0.0039f, -128},   /* ratio 128: saturates */
		{0.25f, -60, 2.0f, 127},      /* ratio 1/8: halves; the output's zero at the top */
		{0.047244f, -128, 0.047244f, -128}, /* 6 at 127 */
	};
	for (size_t k = 0; k < sizeof(fixed) / sizeof(fixed[0]); k++)
		relu_check(x, fixed[k].s_in, fixed[k].zi, fixed[k].s_out, fixed[k].zo);
	rt_rng rng;
	rt_rng_seed(&rng, 19);
	for (int trial = 0; trial < 300; trial++) {
		float s_in = draw_scale(&rng, -9, 0);
		float s_out = trial % 3 ? draw_scale(&rng, -9, 0)
					: ldexpf(s_in, rt_rng_range(&rng, -2, 2));
		int32_t zi = rt_rng_range(&rng, -128, 127), zo = rt_rng_range(&rng, -128, 127);
		relu_check(x, s_in, zi, s_out, zo);
	}
}

/* ---- data movement ---- */

static void test_movement_random(void **state)
{
	(void)state;
	rt_rng rng;
	rt_rng_seed(&rng, 5);
	static int8_t x[4096], x2[4096], y[16384];
	vta_error err = {0};
	for (int trial = 0; trial < 300; trial++) {
		int rank = rt_rng_range(&rng, 1, 4);
		int32_t d[4] = {1, 1, 1, 1}, st[4];
		size_t n = 1;
		for (int i = 0; i < rank; i++) {
			d[i] = rt_rng_range(&rng, 1, 6);
			n *= (size_t)d[i];
		}
		st[rank - 1] = 1;
		for (int i = rank - 2; i >= 0; i--)
			st[i] = st[i + 1] * d[i + 1];
		fill(&rng, x, n, -128, 127);
		float scale = draw_scale(&rng, -8, 0);
		int32_t zp = rt_rng_range(&rng, -128, 127);
		vta_host_tensor in = {rank, {d[0], d[1], d[2], d[3]}, scale, zp, x};
		/* PAD (the output's zero point) and PADV2 (a value) */
		int32_t pads[VTA_HOST_MAX_DIMS][2] = {{0}};
		for (int i = 0; i < rank; i++) {
			pads[i][0] = rt_rng_range(&rng, 0, 2);
			pads[i][1] = rt_rng_range(&rng, 0, 2);
		}
		vta_host_tensor out = {0};
		ok(vta_host_pad_shape(&in, (const int32_t(*)[2])pads, &out, &err), &err);
		out.scale = scale;
		out.zero_point = zp;
		out.data = y;
		const int8_t value = (int8_t)rt_rng_range(&rng, -128, 127);
		for (int v2 = 0; v2 < 2; v2++) {
			ok(vta_host_pad(&in, (const int32_t(*)[2])pads, v2 ? &value : NULL, &out, &err),
			   &err);
			int32_t od[4] = {1, 1, 1, 1};
			for (int i = 0; i < rank; i++)
				od[i] = out.dims[i];
			size_t k = 0;
			for (int32_t a = 0; a < od[0]; a++)
				for (int32_t b = 0; b < od[1]; b++)
					for (int32_t c = 0; c < od[2]; c++)
						for (int32_t e = 0; e < od[3]; e++, k++) {
							int32_t idx[4] = {a, b, c, e};
							int64_t src = 0;
							bool inside = true;
							for (int i = 0; i < rank; i++) {
								int32_t j = idx[i] - pads[i][0];
								inside &= j >= 0 && j < d[i];
								src += (int64_t)j * st[i];
							}
							int8_t want = inside ? x[src]
									     : v2 ? value : (int8_t)zp;
							assert_int_equal(y[k], want);
						}
		}
		/* TRANSPOSE: out dim i is in dim perm[i] */
		int32_t perm[4] = {0, 1, 2, 3};
		for (int i = rank - 1; i > 0; i--) {
			int j = (int)rt_rng_below(&rng, (uint64_t)i + 1), t = perm[i];
			perm[i] = perm[j];
			perm[j] = t;
		}
		vta_host_tensor tr = {0};
		ok(vta_host_transpose_shape(&in, perm, &tr, &err), &err);
		tr.scale = scale;
		tr.zero_point = zp;
		tr.data = y;
		ok(vta_host_transpose(&in, perm, &tr, &err), &err);
		int32_t td[4] = {1, 1, 1, 1};
		for (int i = 0; i < rank; i++)
			td[i] = tr.dims[i];
		size_t k = 0;
		for (int32_t a = 0; a < td[0]; a++)
			for (int32_t b = 0; b < td[1]; b++)
				for (int32_t c = 0; c < td[2]; c++)
					for (int32_t e = 0; e < td[3]; e++, k++) {
						int32_t idx[4] = {a, b, c, e};
						int64_t src = 0;
						for (int i = 0; i < rank; i++)
							src += (int64_t)idx[i] * st[perm[i]];
						assert_int_equal(y[k], x[src]);
					}
		/* CONCATENATION: the second input quantized otherwise, copied all the same */
		int axis = (int)rt_rng_below(&rng, (uint64_t)rank);
		int32_t extra = rt_rng_range(&rng, 1, 3);
		vta_host_tensor in2 = in;
		in2.dims[axis] = extra;
		in2.data = x2;
		in2.scale = scale * 3.0f;
		in2.zero_point = rt_rng_range(&rng, -128, 127);
		fill(&rng, x2, vta_host_tensor_count(&in2), -128, 127);
		const vta_host_tensor *ins[2] = {&in, &in2};
		vta_host_tensor cat = {0};
		ok(vta_host_concat_shape(ins, 2, axis - (trial % 2 ? rank : 0), &cat, &err), &err);
		cat.data = y;
		ok(vta_host_concat(ins, 2, axis, &cat, &err), &err);
		size_t outer = 1, inner = 1;
		for (int i = 0; i < axis; i++)
			outer *= (size_t)d[i];
		for (int i = axis + 1; i < rank; i++)
			inner *= (size_t)d[i];
		k = 0;
		for (size_t o = 0; o < outer; o++) {
			for (size_t i = 0; i < (size_t)d[axis] * inner; i++)
				assert_int_equal(y[k++], x[o * (size_t)d[axis] * inner + i]);
			for (size_t i = 0; i < (size_t)extra * inner; i++)
				assert_int_equal(y[k++], x2[o * (size_t)extra * inner + i]);
		}
		/* RESHAPE: the same bytes */
		vta_host_tensor flat = {1, {(int32_t)n}, scale, zp, y};
		ok(vta_host_reshape(&in, &flat, &err), &err);
		assert_memory_equal(y, x, n);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mean_random),
		cmocka_unit_test(test_mean_shift_clamp),
		cmocka_unit_test(test_mean_tflm_vectors),
		cmocka_unit_test(test_pool_random),
		cmocka_unit_test(test_softmax_random),
		cmocka_unit_test(test_quantize_random),
		cmocka_unit_test(test_relu_random),
		cmocka_unit_test(test_movement_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
