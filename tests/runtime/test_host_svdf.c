/*
 * test_host_svdf.c - the SVDF host kernel against a straightforward reference written here
 * from TFLM's integer SVDF (its own rounding primitives, floor and half-away formulas rather
 * than gemmlowp's nudges; the state kept as [batch][filter][memory] rows shifted one by
 * one): rounding ties of both requantizations (double rounding included), saturation of
 * the state and the output, a non-zero int8 state zero point (whose sum wraps as TFLM's
 * store does), rank > 1, batches, no bias, several invocations in a row, random cases; and
 * every diagnostic of prepare.
 */
#include "rt_test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "host_svdf.h"
#include "prng.h"

/* ---- the reference ---- */

/* floor((a*b + 2^30) / 2^31), saturating the one overflow (INT32_MIN * INT32_MIN) */
static int32_t ref_high_mul(int32_t a, int32_t b)
{
	if (a == INT32_MIN && b == INT32_MIN)
		return INT32_MAX;
	__int128 p = (__int128)a * b + ((__int128)1 << 30);
	__int128 d = (__int128)1 << 31;
	__int128 q = p / d;
	if (p % d != 0 && p < 0)
		q -= 1;
	return (int32_t)q;
}

/* x / 2^e rounded half away from zero */
static int32_t ref_round_shift(int32_t x, int e)
{
	if (e == 0)
		return x;
	int64_t half = (int64_t)1 << (e - 1);
	int64_t m = x < 0 ? -(int64_t)x : x;
	int64_t r = (m + half) >> e;
	return (int32_t)(x < 0 ? -r : r);
}

typedef struct ref_mul {
	int32_t m;
	int shift;
} ref_mul;

static ref_mul ref_quantize(double d)
{
	ref_mul r = {0, 0};
	if (d == 0)
		return r;
	int e;
	double f = frexp(d, &e);
	int64_t q = llround(f * 2147483648.0);
	if (q == ((int64_t)1 << 31)) {
		q /= 2;
		e++;
	}
	if (e < -31)
		return r;
	r.m = (int32_t)q;
	r.shift = e;
	return r;
}

static int32_t ref_apply(int32_t x, ref_mul m)
{
	int64_t xs = (int64_t)x * ((int64_t)1 << (m.shift > 0 ? m.shift : 0));
	int32_t w = (int32_t)(uint32_t)(uint64_t)xs;
	return ref_round_shift(ref_high_mul(w, m.m), m.shift > 0 ? 0 : -m.shift);
}

static int32_t clampi(int64_t v, int32_t lo, int32_t hi)
{
	return (int32_t)(v < lo ? lo : v > hi ? hi : v);
}

/* The state as [b][f][m] int32, weights and data in plain arrays. */
typedef struct ref_svdf {
	int nb, ni, nf, nm, rank;
	bool int16;
	const int8_t *x, *wf;
	const int32_t *wt, *bias;
	int32_t *state; /* nb * nf * nm */
	float sx, swf, swt, sst, sy;
	int32_t zx, zst, zy;
} ref_svdf;

static void ref_run(const ref_svdf *r, int8_t *y)
{
	ref_mul m1 = ref_quantize((double)(float)(r->sx * r->swf / r->sst));
	ref_mul m2 = ref_quantize((double)(float)(r->sst * r->swt / r->sy));
	int32_t lo = r->int16 ? -32768 : -128, hi = r->int16 ? 32767 : 127;
	for (int b = 0; b < r->nb; b++)
		for (int f = 0; f < r->nf; f++) {
			int32_t *row = r->state + ((size_t)b * r->nf + f) * r->nm;
			for (int k = 0; k + 1 < r->nm; k++)
				row[k] = row[k + 1];
			int64_t dot = 0;
			for (int c = 0; c < r->ni; c++)
				dot += r->wf[f * r->ni + c] * (r->x[b * r->ni + c] - r->zx);
			/* TFLM: clamp, add the zero point, store into the state's type */
			int64_t v = (int64_t)clampi(ref_apply((int32_t)dot, m1), lo, hi) + r->zst;
			int64_t span = (int64_t)hi - lo + 1;
			row[r->nm - 1] = (int32_t)((((v - lo) % span) + span) % span + lo);
		}
	int units = r->nf / r->rank;
	for (int b = 0; b < r->nb; b++)
		for (int u = 0; u < units; u++) {
			int64_t acc = r->bias ? r->bias[u] : 0;
			for (int k = 0; k < r->rank; k++) {
				int f = u * r->rank + k;
				for (int j = 0; j < r->nm; j++)
					acc += (int64_t)r->wt[f * r->nm + j] *
					       (r->state[((size_t)b * r->nf + f) * r->nm + j] - r->zst);
			}
			y[b * units + u] =
				(int8_t)clampi((int64_t)ref_apply((int32_t)acc, m2) + r->zy, -128, 127);
		}
}

/* ---- one case through both ---- */

typedef struct svdf_case {
	int nb, ni, nf, nm, rank;
	bool int16, with_bias;
	float sx, swf, swt, sst, sy;
	int32_t zx, zst, zy;
	int8_t x[64], wf[256];
	int32_t wt[256], bias[32];
} svdf_case;

/* Runs `calls` invocations (the input negated every other call) through both and compares
 * the outputs and the state after each. */
static void check_case(const svdf_case *c, int calls)
{
	size_t ns = (size_t)c->nb * c->nf * c->nm, units = (size_t)(c->nf / c->rank);
	int32_t ref_state[1024];
	int16_t st16[1024], wt16[256];
	int8_t st8[1024], wt8[256], x[64], y[64], ry[64];
	assert_true(ns <= 1024 && (size_t)c->nf * c->nm <= 256);
	for (size_t i = 0; i < (size_t)c->nf * c->nm; i++) {
		wt16[i] = (int16_t)c->wt[i];
		wt8[i] = (int8_t)c->wt[i];
	}
	for (size_t i = 0; i < ns; i++)
		ref_state[i] = c->int16 ? 0 : c->zst;
	memcpy(x, c->x, sizeof(x));
	vta_svdf s = {
		.batches = c->nb, .input_size = c->ni, .filters = c->nf, .memory = c->nm,
		.rank = c->rank, .state_int16 = c->int16, .input = x, .weights_feature = c->wf,
		.weights_time = c->int16 ? (const void *)wt16 : (const void *)wt8,
		.bias = c->with_bias ? c->bias : NULL,
		.state = c->int16 ? (void *)st16 : (void *)st8, .output = y,
		.input_scale = c->sx, .weights_feature_scale = c->swf, .weights_time_scale = c->swt,
		.state_scale = c->sst, .output_scale = c->sy, .bias_scale = c->sst * c->swt,
		.input_zero_point = c->zx, .state_zero_point = c->zst, .output_zero_point = c->zy,
	};
	ref_svdf r = {c->nb, c->ni, c->nf, c->nm, c->rank, c->int16, x, c->wf, c->wt,
		      c->with_bias ? c->bias : NULL, ref_state, c->sx, c->swf, c->swt, c->sst,
		      c->sy, c->zx, c->zst, c->zy};
	vta_host_svdf_reset(&s);
	for (int call = 0; call < calls; call++) {
		vta_error err = {0};
		vta_status st = vta_host_svdf(&s, &err);
		if (st != VTA_OK)
			print_error("%s\n", err.detail);
		assert_int_equal(st, VTA_OK);
		ref_run(&r, ry);
		for (size_t i = 0; i < (size_t)c->nb * units; i++)
			if (y[i] != ry[i]) {
				print_error("call %d output %zu: %d, reference %d\n", call, i, y[i], ry[i]);
				fail();
			}
		for (size_t i = 0; i < ns; i++) {
			int32_t v = c->int16 ? st16[i] : st8[i];
			if (v != ref_state[i]) {
				print_error("call %d state %zu: %d, reference %d\n", call, i, v,
					    ref_state[i]);
				fail();
			}
		}
		for (int i = 0; i < c->nb * c->ni; i++) /* the next call sees another input */
			x[i] = (int8_t)(x[i] == -128 ? 127 : -x[i]);
	}
}

/* Every feature product an odd multiple of 1/2 at the state: ties both ways. */
static void test_feature_ties(void **state)
{
	(void)state;
	svdf_case c = {.nb = 1, .ni = 1, .nf = 8, .nm = 2, .rank = 1, .int16 = true,
		       .with_bias = true, .sx = 0.5f, .swf = 1.0f, .swt = 1.0f, .sst = 1.0f,
		       .sy = 1.0f};
	c.x[0] = 1;
	for (int f = 0; f < 8; f++) {
		c.wf[f] = (int8_t)(2 * f - 7); /* -7, -5, ..., 7: each x/2 a tie */
		c.wt[f * 2 + 1] = 1;
	}
	check_case(&c, 3);
	/* the kernel itself on known values. Scale 1/2 (M = 2^30, no shift): the doubling high
	 * multiply rounds halves up, -3.5 -> -3, 3.5 -> 4 */
	int16_t st16[16] = {0}, wt16[16] = {0};
	int8_t y[8], x[1] = {1};
	for (int f = 0; f < 8; f++)
		wt16[f * 2 + 1] = 1;
	vta_svdf s = {.batches = 1, .input_size = 1, .filters = 8, .memory = 2, .rank = 1,
		      .state_int16 = true, .input = x, .weights_feature = c.wf, .weights_time = wt16,
		      .state = st16, .output = y, .input_scale = 0.5f, .weights_feature_scale = 1,
		      .weights_time_scale = 1, .state_scale = 1, .output_scale = 1};
	vta_error err = {0};
	assert_int_equal(vta_host_svdf(&s, &err), VTA_OK);
	const int8_t want_half[8] = {-3, -2, -1, 0, 1, 2, 3, 4};
	assert_memory_equal(y, want_half, 8);
	/* scale 1/4 (M = 2^30, right shift 1): two roundings, the second half away from zero;
	 * 5/4 becomes 2 (2.5 -> 3, then 1.5 -> 2) */
	const int8_t wf2[8] = {-6, -2, 2, 6, -5, 5, -7, 7};
	const int8_t want_quarter[8] = {-2, -1, 1, 2, -1, 2, -2, 2};
	memset(st16, 0, sizeof(st16));
	s.weights_feature = wf2;
	s.input_scale = 0.25f;
	assert_int_equal(vta_host_svdf(&s, &err), VTA_OK);
	assert_memory_equal(y, want_quarter, 8);
	memcpy(c.wf, wf2, 8);
	c.sx = 0.25f;
	check_case(&c, 2);
}

/* An int8 state whose zero point pushes the clamped value past 127: the store wraps. */
static void test_int8_state_wraps(void **state)
{
	(void)state;
	int8_t st8[2] = {0}, wt8[2] = {0, 1}, x[1] = {100}, wf[1] = {100}, y[1];
	vta_svdf s = {.batches = 1, .input_size = 1, .filters = 1, .memory = 2, .rank = 1,
		      .input = x, .weights_feature = wf, .weights_time = wt8, .state = st8,
		      .output = y, .input_scale = 1, .weights_feature_scale = 1,
		      .weights_time_scale = 1, .state_scale = 1, .output_scale = 1,
		      .state_zero_point = 37};
	vta_host_svdf_reset(&s);
	assert_int_equal(st8[0], 37);
	vta_error err = {0};
	assert_int_equal(vta_host_svdf(&s, &err), VTA_OK);
	/* 10000 clamps to 127, + 37 = 164 stored as -92; the time sum reads -92 - 37 */
	assert_int_equal(st8[1], -92);
	assert_int_equal(st8[0], 37);
	assert_int_equal(y[0], -128);
}

/* The output requantization on ties (scale 1/2 of odd sums) and bias. */
static void test_output_ties(void **state)
{
	(void)state;
	svdf_case c = {.nb = 1, .ni = 2, .nf = 6, .nm = 3, .rank = 2, .int16 = true,
		       .with_bias = true, .sx = 1.0f, .swf = 1.0f, .swt = 0.5f, .sst = 1.0f,
		       .sy = 1.0f, .zy = 3};
	c.x[0] = 3;
	c.x[1] = -2;
	for (int i = 0; i < 12; i++)
		c.wf[i] = (int8_t)(i * 7 % 11 - 5);
	for (int i = 0; i < 18; i++)
		c.wt[i] = i * 5 % 7 - 3;
	c.bias[0] = 1;
	c.bias[1] = -3;
	c.bias[2] = 5;
	check_case(&c, 4);
}

/* The int16 state and the int8 output saturate. */
static void test_saturation(void **state)
{
	(void)state;
	svdf_case c = {.nb = 2, .ni = 4, .nf = 2, .nm = 2, .rank = 1, .int16 = true,
		       .with_bias = true, .sx = 1.0f, .swf = 1.0f, .swt = 1.0f, .sst = 0.01f,
		       .sy = 0.001f, .zy = -5};
	for (int i = 0; i < 8; i++)
		c.x[i] = (int8_t)(i < 4 ? 127 : -128);
	for (int i = 0; i < 8; i++)
		c.wf[i] = (int8_t)(i & 1 ? -128 : 127);
	for (int i = 0; i < 4; i++)
		c.wt[i] = i & 1 ? 32767 : -32768;
	c.bias[0] = 1000;
	c.bias[1] = -1000;
	check_case(&c, 3);
}

/* An int8 state with a zero point: added before the clamp, subtracted in the time sum. */
static void test_int8_state_zero_point(void **state)
{
	(void)state;
	svdf_case c = {.nb = 1, .ni = 3, .nf = 4, .nm = 4, .rank = 2, .int16 = false,
		       .with_bias = true, .sx = 0.02f, .swf = 0.01f, .swt = 0.05f, .sst = 0.001f,
		       .sy = 0.003f, .zx = -7, .zst = 100, .zy = 2};
	for (int i = 0; i < 3; i++)
		c.x[i] = (int8_t)(40 * i - 50);
	for (int i = 0; i < 12; i++)
		c.wf[i] = (int8_t)(i * 37 % 255 - 127);
	for (int i = 0; i < 16; i++)
		c.wt[i] = i * 29 % 255 - 127;
	c.bias[0] = 77;
	c.bias[1] = -123;
	check_case(&c, 5);
}

static void test_no_bias(void **state)
{
	(void)state;
	svdf_case c = {.nb = 1, .ni = 2, .nf = 2, .nm = 3, .rank = 1, .int16 = true,
		       .sx = 0.1f, .swf = 0.2f, .swt = 0.3f, .sst = 0.05f, .sy = 0.07f, .zx = 1};
	c.x[0] = 11;
	c.x[1] = -13;
	c.wf[0] = 5, c.wf[1] = -6, c.wf[2] = 7, c.wf[3] = 8;
	for (int i = 0; i < 6; i++)
		c.wt[i] = 100 * i - 250;
	check_case(&c, 4);
}

static void test_random(void **state)
{
	(void)state;
	vta_prng rng;
	vta_prng_seed(&rng, 1234);
	for (int k = 0; k < 300; k++) {
		svdf_case c = {0};
		c.nb = (int)vta_prng_range(&rng, 1, 3);
		c.ni = (int)vta_prng_range(&rng, 1, 16);
		c.rank = (int)vta_prng_range(&rng, 1, 3);
		c.nf = c.rank * (int)vta_prng_range(&rng, 1, 8);
		c.nm = (int)vta_prng_range(&rng, 1, 10);
		if (c.nf * c.nm > 256 || c.nb * c.nf * c.nm > 1024 || c.nb * c.ni > 64 ||
		    c.nf * c.ni > 256)
			continue;
		c.int16 = vta_prng_range(&rng, 0, 3) != 0;
		c.with_bias = vta_prng_range(&rng, 0, 3) != 0;
		c.sx = (float)vta_prng_uniform(&rng, 0.001, 0.1);
		c.swf = (float)vta_prng_uniform(&rng, 0.001, 0.1);
		c.swt = (float)vta_prng_uniform(&rng, 0.00001, 0.01);
		c.sst = (float)vta_prng_uniform(&rng, 0.0001, 0.1);
		c.sy = (float)vta_prng_uniform(&rng, 0.001, 0.1);
		c.zx = (int32_t)vta_prng_range(&rng, -128, 127);
		c.zy = (int32_t)vta_prng_range(&rng, -128, 127);
		c.zst = c.int16 ? 0 : (int32_t)vta_prng_range(&rng, -128, 127);
		for (int i = 0; i < c.nb * c.ni; i++)
			c.x[i] = (int8_t)vta_prng_range(&rng, -128, 127);
		for (int i = 0; i < c.nf * c.ni; i++)
			c.wf[i] = (int8_t)vta_prng_range(&rng, -127, 127);
		for (int i = 0; i < c.nf * c.nm; i++)
			c.wt[i] = c.int16 ? (int32_t)vta_prng_range(&rng, -32767, 32767)
					  : (int32_t)vta_prng_range(&rng, -127, 127);
		for (int i = 0; i < c.nf / c.rank; i++)
			c.bias[i] = (int32_t)vta_prng_range(&rng, -100000, 100000);
		check_case(&c, 3);
	}
}

/* ---- diagnostics ---- */

static void expect_prepare_error(const vta_svdf *s, const char *needle)
{
	vta_svdf_quant q;
	vta_error err = {0};
	assert_int_equal(vta_host_svdf_prepare(s, &q, &err), VTA_E_USAGE);
	if (!strstr(err.detail, needle)) {
		print_error("'%s' lacks '%s'\n", err.detail, needle);
		fail();
	}
	assert_null(strchr(err.detail, '\n'));
}

static void test_errors(void **state)
{
	(void)state;
	int16_t st16[8] = {0}, wt16[8] = {0};
	int8_t x[2] = {0}, wf[8] = {0}, y[2];
	int32_t bias[2] = {0};
	const vta_svdf good = {
		.batches = 1, .input_size = 2, .filters = 4, .memory = 2, .rank = 2,
		.state_int16 = true, .input = x, .weights_feature = wf, .weights_time = wt16,
		.bias = bias, .state = st16, .output = y, .input_scale = 0.1f,
		.weights_feature_scale = 0.1f, .weights_time_scale = 0.5f, .state_scale = 0.25f,
		.output_scale = 0.1f, .bias_scale = 0.125f};
	vta_svdf_quant q;
	vta_error err = {0};
	assert_int_equal(vta_host_svdf_prepare(&good, &q, &err), VTA_OK);
	vta_svdf s = good;
	s.rank = 3;
	expect_prepare_error(&s, "SVDF: rank 3 does not divide the 4 filters");
	s = good;
	s.rank = 0;
	expect_prepare_error(&s, "rank 0 does not divide");
	s = good;
	s.memory = 0;
	expect_prepare_error(&s, "memory 0: each must be at least 1");
	s = good;
	s.state_scale = 0;
	expect_prepare_error(&s, "each must be positive and finite");
	s = good;
	s.output_scale = NAN;
	expect_prepare_error(&s, "each must be positive and finite");
	s = good;
	s.bias_scale = 0.126f;
	expect_prepare_error(&s, "bias scale 0.126, expected state scale x time weights scale = 0.125");
	s = good;
	s.output_zero_point = 128;
	expect_prepare_error(&s, "outside their types' ranges");
	s = good;
	s.state_int16 = false;
	s.state_zero_point = -129;
	expect_prepare_error(&s, "zero points input 0, state -129");
	s = good;
	s.filters = 1 << 20;
	s.memory = 1 << 12;
	s.rank = 1;
	expect_prepare_error(&s, "above 2^31 elements");
	s = good;
	s.state = NULL;
	assert_int_equal(vta_host_svdf(&s, &err), VTA_E_USAGE);
	assert_string_equal(err.detail, "SVDF: a tensor without data");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_feature_ties),
		cmocka_unit_test(test_int8_state_wraps),
		cmocka_unit_test(test_output_ties),
		cmocka_unit_test(test_saturation),
		cmocka_unit_test(test_int8_state_zero_point),
		cmocka_unit_test(test_no_bias),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
