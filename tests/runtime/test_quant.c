/*
 * test_quant.c - requantization arithmetic: gemmlowp primitives, QuantizeMultiplier, double vs
 * single rounding, ADD parameters and the worked example, activation ranges, the Q15 scheme,
 * the alkali ADD bit by bit, and the vta16 CONV2D sequence with its overflow count; every
 * variant of the n-channel CONV2D requantization (quant_n.h) against the per-element one.
 */
#include "rt_test.h"

#include <math.h>
#include <stdlib.h>

#include "quant.h"
#include "quant_n.h"

static void expect_qm(double d, int32_t m, int32_t shift)
{
	vta_qmul q;
	vta_error err = {0};
	assert_int_equal(vta_quant_multiplier(d, &q, &err), VTA_OK);
	if (q.multiplier != m || q.shift != shift) {
		print_error("QuantizeMultiplier(%.17g) = (%d, %d), want (%d, %d)\n", d,
			    (int)q.multiplier, (int)q.shift, (int)m, (int)shift);
		fail();
	}
}

static void test_quantize_multiplier(void **state)
{
	(void)state;
	expect_qm(0.5, 1073741824, 0);
	expect_qm(0.75, 1610612736, 0);
	expect_qm(0.1, 1717986918, -3);
	expect_qm(1.0 / 3.0, 1431655765, -1);
	expect_qm(1.0, 1073741824, 1);
	expect_qm(3.0, 1610612736, 2);
	expect_qm(1.0 - ldexp(1.0, -33), 1 << 30, 1); /* rounds to 2^31: renormalised */
	expect_qm(ldexp(1.0, -32), 1 << 30, -31);     /* the smallest kept */
	expect_qm(ldexp(1.0, -33), 0, 0);             /* below 2^-32: flushed */
	expect_qm(1e-12, 0, 0);
	expect_qm(0.0, 0, 0);
	expect_qm(-0.5, -1073741824, 0);
	/* The seed's 0.012: the float scale widened to double gives 1649267456 (0.768 * 2^31 of
	 * 0.012f); the double 0.012 gives 1649267442. */
	expect_qm((double)0.012f, 1649267456, -6);
	expect_qm(0.012, 1649267442, -6);

	vta_qmul q;
	vta_error err = {0};
	assert_int_equal(vta_quant_multiplier(INFINITY, &q, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "is not finite");
	assert_int_equal(vta_quant_multiplier_smaller_than_one(1.0, &q, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "is not in (0, 1)");
	assert_int_equal(vta_quant_multiplier_smaller_than_one(1.0 - ldexp(1.0, -40), &q, &err),
			 VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "rounds to 1.0");
	assert_int_equal(vta_quant_multiplier_smaller_than_one(0.1, &q, &err), VTA_OK);
	assert_int_equal(q.multiplier, 1717986918);
}

static void test_srdhm_rdbpot(void **state)
{
	(void)state;
	assert_int_equal(vta_quant_srdhm(INT32_MIN, INT32_MIN), INT32_MAX);
	assert_int_equal(vta_quant_srdhm(1, 1 << 30), 1);   /* 0.5 rounds up */
	assert_int_equal(vta_quant_srdhm(-1, 1 << 30), 0);  /* -0.5 rounds up too */
	assert_int_equal(vta_quant_srdhm(3, 1 << 30), 2);   /* 1.5 */
	assert_int_equal(vta_quant_srdhm(-3, 1 << 30), -1); /* -1.5 */
	assert_int_equal(vta_quant_srdhm(INT32_MAX, INT32_MAX), INT32_MAX - 1);
	assert_int_equal(vta_quant_srdhm(INT32_MIN, INT32_MAX), -INT32_MAX);
	assert_int_equal(vta_quant_rdbpot(5, 1), 3);
	assert_int_equal(vta_quant_rdbpot(-5, 1), -3);
	assert_int_equal(vta_quant_rdbpot(6, 2), 2);
	assert_int_equal(vta_quant_rdbpot(-6, 2), -2);
	assert_int_equal(vta_quant_rdbpot(-7, 2), -2);
	assert_int_equal(vta_quant_rdbpot(4, 0), 4);
	assert_int_equal(vta_quant_rdbpot(INT32_MIN, 31), -1);
	assert_int_equal(vta_quant_rdbpot(INT32_MAX, 31), 1);
	/* The seed's integer example: 100 * 0.012f = 100 * 1649267456 * 2^-31 * 2^-6:
	 * SRDHM gives 77 (76.8 rounded), then 77 / 64 -> 1. */
	assert_int_equal(vta_quant_srdhm(100, 1649267456), 77);
	assert_int_equal(vta_quant_rdbpot(77, 6), 1);
	assert_int_equal(vta_quant_mbqm(100, (vta_qmul){1649267456, -6}), 1);
}

static void test_double_vs_single_rounding(void **state)
{
	(void)state;
	/* x = 5, M = 2^30 (0.5), shift = -1: exact 1.25. Double rounding: SRDHM -> 3 (2.5 up),
	 * RDBPOT(3, 1) -> 2. Single rounding: 1. */
	vta_qmul m = {1 << 30, -1};
	assert_int_equal(vta_quant_mbqm(5, m), 2);
	assert_int_equal(vta_quant_mbqm_single(5, m), 1);
	assert_int_equal(vta_quant_mbqm_smaller_than_one(5, m), 2);
	/* A left shift: 1000 * 0.75 * 2^3 = 6000 both ways. */
	vta_qmul big = {1610612736, 3};
	assert_int_equal(vta_quant_mbqm(1000, big), 6000);
	assert_int_equal(vta_quant_mbqm_single(1000, big), 6000);
	/* The conv example: 1000 * 0.1 = 100. */
	assert_int_equal(vta_quant_mbqm(1000, (vta_qmul){1717986918, -3}), 100);
	assert_int_equal(vta_quant_mbqm(-1000, (vta_qmul){1717986918, -3}), -100);
}

static void test_activation_range(void **state)
{
	(void)state;
	int32_t lo, hi;
	vta_error err = {0};
	assert_int_equal(vta_quant_activation_range(VTA_ACT_NONE, 0.05f, 3, &lo, &hi, &err), VTA_OK);
	assert_true(lo == -128 && hi == 127);
	assert_int_equal(vta_quant_activation_range(VTA_ACT_RELU, 0.05f, 3, &lo, &hi, &err), VTA_OK);
	assert_true(lo == 3 && hi == 127);
	assert_int_equal(vta_quant_activation_range(VTA_ACT_RELU6, 0.05f, 3, &lo, &hi, &err),
			 VTA_OK);
	assert_true(lo == 3 && hi == 123); /* 6 / 0.05f = 119.99999 -> 120 */
	assert_int_equal(vta_quant_activation_range(VTA_ACT_RELU_N1_TO_1, 0.05f, 3, &lo, &hi, &err),
			 VTA_OK);
	assert_true(lo == -17 && hi == 23);
	assert_int_equal(vta_quant_activation_range(VTA_ACT_RELU6, 0.1f, -128, &lo, &hi, &err),
			 VTA_OK);
	assert_true(lo == -128 && hi == -68);
	assert_int_equal(vta_quant_activation_range(VTA_ACT_RELU6, 1e-30f, 0, &lo, &hi, &err),
			 VTA_OK);
	assert_true(lo == 0 && hi == 127);
	assert_int_equal(vta_quant_activation_range((vta_activation)4, 0.1f, 0, &lo, &hi, &err),
			 VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "unsupported fused activation 4");
	assert_int_equal(vta_quant_activation_range(VTA_ACT_NONE, 0.0f, 0, &lo, &hi, &err),
			 VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "scale 0 must be finite and positive");
	assert_int_equal(vta_quant_activation_range(VTA_ACT_NONE, 0.1f, 128, &lo, &hi, &err),
			 VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "zero point 128 is outside the int8 range");
}

/* s1 = 0.02, s2 = 0.01, s_out = 0.03, zero points 5, -3, -10. */
static void test_add_tflite_worked_example(void **state)
{
	(void)state;
	vta_add_tflite_params p;
	vta_error err = {0};
	assert_int_equal(vta_quant_add_tflite_params(0.02f, 5, 0.01f, -3, 0.03f, -10, VTA_ACT_NONE,
						     &p, &err),
			 VTA_OK);
	assert_int_equal(p.left_shift, 20);
	assert_true(p.input1.multiplier == 1 << 30 && p.input1.shift == 0);
	assert_true(p.input2.multiplier == 1 << 30 && p.input2.shift == -1);
	assert_true(p.output.multiplier == 1431655765 && p.output.shift == -19);
	assert_true(p.act_min == -128 && p.act_max == 127);
	assert_int_equal(vta_quant_add_tflite_apply(&p, 50, -20), 14);
	assert_int_equal(vta_quant_add_tflite_apply(&p, 0, 0), -12);
	/* The intermediate terms of the first case. */
	assert_int_equal(vta_quant_mbqm_smaller_than_one(45 << 20, p.input1), 23592960);
	assert_int_equal(vta_quant_mbqm_smaller_than_one(-17 * (1 << 20), p.input2), -4456448);
	/* RELU clamps at the output zero point. */
	assert_int_equal(vta_quant_add_tflite_params(0.02f, 5, 0.01f, -3, 0.03f, -10, VTA_ACT_RELU,
						     &p, &err),
			 VTA_OK);
	assert_int_equal(vta_quant_add_tflite_apply(&p, 0, 0), -10);
	/* An output scale so small that the output multiplier reaches 1 is refused. */
	assert_int_equal(vta_quant_add_tflite_params(1.0f, 0, 1.0f, 0, 1e-7f, 0, VTA_ACT_NONE, &p,
						     &err),
			 VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "ADD output scale");
}

static void test_q15(void **state)
{
	(void)state;
	struct {
		double s;
		int m, e;
	} v[] = {
		{0.5, 16384, 0},       {0.1, 26214, -3},  {1.0 / 3.0, 21845, -1},
		{1e-7, 0, 0},          {ldexp(1, -17), 0, 0}, /* above 1e-6 but e = -16 */
		{ldexp(1, -16), 16384, -15}, {1 - ldexp(1, -20), 16384, 1}, /* renormalised */
		{0.0, 0, 0},           {3.0, 24576, 2},
	};
	for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++) {
		vta_q15 q;
		vta_error err = {0};
		assert_int_equal(vta_quant_q15(v[k].s, &q, &err), VTA_OK);
		if (q.multiplier != v[k].m || q.shift != v[k].e) {
			print_error("q15(%g) = (%d, %d), want (%d, %d)\n", v[k].s, q.multiplier,
				    q.shift, v[k].m, v[k].e);
			fail();
		}
	}
	vta_q15 q;
	vta_error err = {0};
	assert_int_equal(vta_quant_q15(-0.5, &q, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "must be finite and not negative");
}

/* The alkali delegate's ADD, facts §3.4 / §4.1: same scales as the TFLite example. */
static void test_add_vta16_alkali(void **state)
{
	(void)state;
	vta_add_vta16_params p;
	vta_error err = {0};
	assert_int_equal(vta_quant_add_vta16_params(0.02f, 5, 0.01f, -3, 0.03f, -10, VTA_ACT_NONE,
						    &p, &err),
			 VTA_OK);
	assert_int_equal(p.left_shift, 7);
	assert_true(p.input1.multiplier == 16384 && p.input1.shift == 0);
	assert_true(p.input2.multiplier == 16384 && p.input2.shift == -1);
	assert_true(p.output.multiplier == 21845 && p.output.shift == -6);
	assert_int_equal(p.out_shr, 21);
	/* Host stage: a1 = 2880, a2 = -545 (exact -544: the nudge is biased down). */
	assert_int_equal(vta_quant_vta16_input(50, p.input1_offset, p.input1), 2880);
	assert_int_equal(vta_quant_vta16_input(-20, p.input2_offset, p.input2), -545);
	assert_int_equal(vta_quant_vta16_input(0, p.input1_offset, p.input1), -321);
	assert_int_equal(vta_quant_vta16_input(0, p.input2_offset, p.input2), 96);
	/* q = -1, zp = 0, M = 16384, e = 0 gives -65 (exact -64); q = +1 gives 64. */
	vta_q15 half = {16384, 0};
	assert_int_equal(vta_quant_vta16_input(-1, 0, half), -65);
	assert_int_equal(vta_quant_vta16_input(1, 0, half), 64);
	uint64_t ovf = 0;
	assert_int_equal(vta_quant_add_vta16_apply(&p, 50, -20, &ovf), 14);  /* 2335*21845 >> 21 */
	assert_int_equal(vta_quant_add_vta16_apply(&p, 0, 0, &ovf), -13);    /* TFLite: -12 */
	assert_int_equal(vta_quant_add_vta16_alu(&p, 2880, -545, &ovf), 14);
	assert_int_equal(ovf, 0);
	/* The extremes of int8 inputs stay inside int32 (no overflow possible for ADD). */
	for (int q1 = -128; q1 <= 127; q1 += 255)
		for (int q2 = -128; q2 <= 127; q2 += 255)
			(void)vta_quant_add_vta16_apply(&p, q1, q2, &ovf);
	assert_int_equal(ovf, 0);
	/* The clamp follows the fused activation (alkali always clamps to int8). */
	assert_int_equal(vta_quant_add_vta16_params(0.02f, 5, 0.01f, -3, 0.03f, -10, VTA_ACT_RELU,
						    &p, &err),
			 VTA_OK);
	assert_int_equal(vta_quant_add_vta16_apply(&p, 0, 0, NULL), -10);
}

static void test_conv_params(void **state)
{
	(void)state;
	const float sw[3] = {0.5f, 0.25f, 0.0f};
	vta_qmul m[3];
	vta_q15 q[3];
	vta_error err = {0};
	assert_int_equal(vta_quant_conv_tflite_params(0.5f, sw, 3, 3, 0.25f, m, &err), VTA_OK);
	assert_true(m[0].multiplier == 1 << 30 && m[0].shift == 1);  /* 1.0 */
	assert_true(m[1].multiplier == 1 << 30 && m[1].shift == 0);  /* 0.5 */
	assert_true(m[2].multiplier == 0 && m[2].shift == 0);
	assert_int_equal(vta_quant_conv_vta16_params(0.5f, sw, 3, 3, 0.25f, q, &err), VTA_OK);
	assert_true(q[0].multiplier == 16384 && q[0].shift == 1);
	assert_true(q[1].multiplier == 16384 && q[1].shift == 0);
	/* One scale broadcasts; a wrong count is refused. */
	assert_int_equal(vta_quant_conv_tflite_params(0.5f, sw, 1, 3, 0.25f, m, &err), VTA_OK);
	assert_true(m[2].multiplier == 1 << 30 && m[2].shift == 1);
	assert_int_equal(vta_quant_conv_tflite_params(0.5f, sw, 2, 3, 0.25f, m, &err),
			 VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "2 scales for 3 output channels");
	const float huge[1] = {1e6f};
	assert_int_equal(vta_quant_conv_vta16_params(1.0f, huge, 1, 1, 1.0f, q, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "2^15 or more");
	/* The float scales are widened before multiplying: (double)0.1f, not 0.1. */
	const float tenth[1] = {0.1f};
	assert_int_equal(vta_quant_conv_tflite_params(1.0f, tenth, 1, 1, 1.0f, m, &err), VTA_OK);
	vta_qmul direct;
	vta_quant_multiplier((double)0.1f, &direct, &err);
	assert_true(m[0].multiplier == direct.multiplier && direct.multiplier != 1717986918);
}

static void test_conv_apply(void **state)
{
	(void)state;
	uint64_t ovf = 0;
	/* tflite: 1000 * 0.1 = 100, + bias, + zp, clamp. */
	vta_qmul m = {1717986918, -3};
	assert_int_equal(vta_quant_conv_tflite_apply(1000, 0, m, 0, -128, 127, &ovf), 100);
	assert_int_equal(vta_quant_conv_tflite_apply(900, 100, m, 5, -128, 127, &ovf), 105);
	assert_int_equal(vta_quant_conv_tflite_apply(5000, 0, m, 0, -128, 127, &ovf), 127);
	assert_int_equal(vta_quant_conv_tflite_apply(-1000, 0, m, 0, 0, 127, &ovf), 0);
	assert_int_equal(ovf, 0);
	assert_int_equal(vta_quant_conv_tflite_apply(INT32_MAX, 1, m, 0, -128, 127, &ovf), -128);
	assert_int_equal(ovf, 1); /* the bias ADD wrapped */

	/* vta16, q15(0.1) = (26214, -3): SHR 18 with rounding addend 2^17. */
	vta_q15 q = {26214, -3};
	assert_int_equal(vta_quant_vta16_shr(q), 18);
	assert_int_equal(vta_quant_vta16_round(q), 1 << 17);
	ovf = 0;
	/* (1000*26214 + 131072) >> 18 = 26345072 >> 18 = 100 */
	assert_int_equal(vta_quant_conv_vta16_apply(1000, 0, q, 0, -128, 127, &ovf), 100);
	/* (-26214000 + 131072) >> 18 = floor(-99.498) = -100 */
	assert_int_equal(vta_quant_conv_vta16_apply(-1000, 0, q, 0, -128, 127, &ovf), -100);
	/* 5 * 0.1 = 0.5 rounds half up: (131070 + 131072) >> 18 = 0 (26214 < 0.1 * 2^18) */
	assert_int_equal(vta_quant_conv_vta16_apply(5, 0, q, 0, -128, 127, &ovf), 0);
	assert_int_equal(vta_quant_conv_vta16_apply(6, 0, q, 7, -128, 127, &ovf), 8);
	assert_int_equal(ovf, 0);
	/* 100000 * 26214 = 2621400000 > 2^31 - 1: wraps to -1673567296; + 2^17 >> 18 = -6384,
	 * clamped to -128. One overflow counted (the MUL). */
	assert_int_equal(vta_quant_conv_vta16_apply(100000, 0, q, 0, -128, 127, &ovf), -128);
	assert_int_equal(ovf, 1);
	/* An identity requantization (scale 1.0 = (16384, 1): SHR 14, addend 2^13). */
	vta_q15 one = {16384, 1};
	ovf = 0;
	for (int32_t x = -200; x <= 200; x++)
		assert_int_equal(vta_quant_conv_vta16_apply(x, 0, one, 0, -1000, 1000, &ovf), x);
	assert_int_equal(ovf, 0);
}

/* ---- n channels at once (quant_n.h) against the per-element definition ---- */

static const int32_t qn_edge_values[] = {
	INT32_MIN, INT32_MIN + 1, -(1 << 30) - 1, -(1 << 30), -65536, -12345, -2, -1,
	0,         1,             2,              12345,      65535,  1 << 30, INT32_MAX - 1,
	INT32_MAX,
};
#define QN_EDGES (sizeof(qn_edge_values) / sizeof(qn_edge_values[0]))

/* Output ranges: int8, a ReLU, a narrow one, and an inverted one (where the order of the two
 * clamps shows). Zero points: int8's, and two whose ADD wraps. */
static const int32_t qn_ranges[][2] = {{-128, 127}, {0, 127}, {-5, 5}, {5, -5}};
static const int32_t qn_zero_points[] = {-128, -1, 0, 1, 127, INT32_MIN, INT32_MAX};

typedef struct qn_case {
	size_t n;
	int32_t *acc, *bias;
	vta_qmul *m32;
	vta_q15 *m16;
	vta_qmul_lanes l32; /* of m32 and m16, once filled */
	vta_q15_lanes l16;
	int8_t *got;
} qn_case;

static void qn_case_alloc(qn_case *c, size_t n)
{
	c->n = n;
	c->acc = calloc(n + 1, sizeof(*c->acc));
	c->bias = calloc(n + 1, sizeof(*c->bias));
	c->m32 = calloc(n + 1, sizeof(*c->m32));
	c->m16 = calloc(n + 1, sizeof(*c->m16));
	c->got = calloc(n + 2, 1);
	assert_non_null(c->acc);
	assert_non_null(c->bias);
	assert_non_null(c->m32);
	assert_non_null(c->m16);
	assert_non_null(c->got);
}

static void qn_case_prepare(qn_case *c)
{
	vta_error err = {0};
	assert_int_equal(vta_qmul_lanes_init(&c->l32, c->m32, c->n, &err), VTA_OK);
	assert_int_equal(vta_q15_lanes_init(&c->l16, c->m16, c->n, &err), VTA_OK);
}

static void qn_case_free(qn_case *c)
{
	vta_qmul_lanes_free(&c->l32);
	vta_q15_lanes_free(&c->l16);
	free(c->acc);
	free(c->bias);
	free(c->m32);
	free(c->m16);
	free(c->got);
}

/* Elements [off, off + n) of c through variant v in both modes, with and without the bias,
 * against vta_quant_conv_*_apply: every output and the summed overflow count. */
static void qn_check(const vta_quant_n_variant *v, const qn_case *c, size_t off, size_t n,
		     int32_t zp, int32_t lo, int32_t hi)
{
	const vta_qmul_lanes l32 = {c->l32.multiplier + off, c->l32.left_shift + off,
				    c->l32.right_shift + off};
	const vta_q15_lanes l16 = {c->l16.multiplier + off, c->l16.mul_lo + off,
				   c->l16.mul_hi + off,     c->l16.round + off,
				   c->l16.right_shift + off, c->l16.left_shift + off};
	for (int mode = 0; mode < 2; mode++)
		for (int with_bias = 0; with_bias < 2; with_bias++) {
			const int32_t *bias = with_bias ? c->bias + off : NULL;
			uint64_t want_ovf = 7, got_ovf = 7; /* added to, not set */
			c->got[n] = 42;
			if (mode == 0)
				v->tflite(c->acc + off, bias, &l32, n, zp, lo, hi, c->got,
					  &got_ovf);
			else
				v->vta16(c->acc + off, bias, &l16, n, zp, lo, hi, c->got,
					 &got_ovf);
			assert_int_equal(c->got[n], 42); /* nothing past n */
			for (size_t i = 0; i < n; i++) {
				int32_t b = with_bias ? c->bias[off + i] : 0;
				int32_t want =
					mode == 0 ? vta_quant_conv_tflite_apply(
							    c->acc[off + i], b, c->m32[off + i], zp,
							    lo, hi, &want_ovf)
						  : vta_quant_conv_vta16_apply(
							    c->acc[off + i], b, c->m16[off + i], zp,
							    lo, hi, &want_ovf);
				if ((int8_t)want != c->got[i]) {
					print_error("%s %s: acc %d bias %d m (%d, %d) q15 (%d, "
						    "%d) zp %d range %d..%d: %d, want %d\n",
						    v->name, mode ? "vta16" : "tflite",
						    (int)c->acc[off + i], (int)b,
						    (int)c->m32[off + i].multiplier,
						    (int)c->m32[off + i].shift,
						    (int)c->m16[off + i].multiplier,
						    (int)c->m16[off + i].shift, (int)zp, (int)lo,
						    (int)hi, (int)c->got[i], (int)(int8_t)want);
					fail();
				}
			}
			if (got_ovf != want_ovf) {
				print_error("%s %s: %llu overflows, want %llu (n %zu)\n", v->name,
					    mode ? "vta16" : "tflite",
					    (unsigned long long)got_ovf - 7,
					    (unsigned long long)want_ovf - 7, n);
				fail();
			}
			/* no count pointer */
			if (mode == 0)
				v->tflite(c->acc + off, bias, &l32, n, zp, lo, hi, c->got, NULL);
			else
				v->vta16(c->acc + off, bias, &l16, n, zp, lo, hi, c->got, NULL);
		}
}

/* Accumulators where a wrap starts: of tflite's left shift by 1..31 and of vta16's MUL by
 * each of mul16. Returns their count (at most QN_BOUNDS). */
#define QN_BOUNDS (31 * 4 + 8 * 6)
static size_t qn_boundaries(const int16_t mul16[8], int32_t out[QN_BOUNDS])
{
	size_t k = 0;
	for (int l = 1; l <= 31; l++) {
		int64_t p = (int64_t)1 << (31 - l);
		const int64_t v[4] = {p - 1, p, -p, -p - 1};
		for (int i = 0; i < 4; i++)
			if (v[i] >= INT32_MIN && v[i] <= INT32_MAX)
				out[k++] = (int32_t)v[i];
	}
	for (int i = 0; i < 8; i++)
		for (int d = -1; d <= 1 && mul16[i] != 0; d++) {
			int64_t hi = (int64_t)INT32_MAX / mul16[i] + d;
			int64_t lo = (int64_t)INT32_MIN / mul16[i] + d;
			if (hi >= INT32_MIN && hi <= INT32_MAX)
				out[k++] = (int32_t)hi;
			if (lo >= INT32_MIN && lo <= INT32_MAX)
				out[k++] = (int32_t)lo;
		}
	return k;
}

/* The edge values crossed (accumulators x biases x multipliers x shifts, one channel each),
 * then the wrap boundaries with biases 0 and +-1. */
static void qn_edge_case(qn_case *c)
{
	static const int32_t mul32[] = {0,       1,  -1, INT32_MAX, INT32_MIN, 1 << 30,
					-(1 << 30), 1717986918};
	static const int16_t mul16[] = {0, 1, -1, 16384, 26214, 32767, -32768, -16384};
	static const int32_t small_bias[] = {0, 1, -1};
	int32_t shifts[2 * 40 + 1 + 6];
	size_t ns = 0;
	for (int32_t s = -40; s <= 40; s++)
		shifts[ns++] = s;
	shifts[ns++] = -1000;
	shifts[ns++] = 1000;
	shifts[ns++] = INT16_MIN;
	shifts[ns++] = INT16_MAX;
	shifts[ns++] = INT16_MIN + 15; /* the SHR amount 2^15 + 30 */
	shifts[ns++] = -(1 << 20);     /* tflite only: far right */
	int32_t bounds[QN_BOUNDS];
	size_t nb = qn_boundaries(mul16, bounds);
	qn_case_alloc(c, (QN_EDGES * QN_EDGES + nb * 3) * 8 * ns);
	size_t k = 0;
	for (size_t a = 0; a < QN_EDGES + nb; a++)
		for (size_t b = 0; b < (a < QN_EDGES ? QN_EDGES : 3); b++)
			for (size_t mi = 0; mi < 8; mi++)
				for (size_t si = 0; si < ns; si++, k++) {
					c->acc[k] = a < QN_EDGES ? qn_edge_values[a]
								 : bounds[a - QN_EDGES];
					c->bias[k] = a < QN_EDGES ? qn_edge_values[b]
								  : small_bias[b];
					c->m32[k] = (vta_qmul){mul32[mi], shifts[si]};
					int32_t s16 = shifts[si] < INT16_MIN ? 0 : shifts[si];
					c->m16[k] = (vta_q15){mul16[mi], (int16_t)s16};
				}
	assert_int_equal(k, c->n);
	qn_case_prepare(c);
}

static void test_conv_apply_n_edges(void **state)
{
	(void)state;
	vta_quant_n_variant v[VTA_QUANT_N_MAX_VARIANTS];
	size_t nv = vta_quant_n_variants(v);
	assert_true(nv >= 1);
	assert_string_equal(v[0].name, "generic");
	assert_true(v[0].runs_here);
	qn_case c;
	qn_edge_case(&c);
	for (size_t j = 0; j < nv; j++) {
		if (!v[j].runs_here)
			continue;
		/* the whole cross product per zero point, the ranges in turn */
		const size_t nz = sizeof(qn_zero_points) / sizeof(qn_zero_points[0]);
		const size_t nr = sizeof(qn_ranges) / sizeof(qn_ranges[0]);
		for (size_t z = 0; z < nz; z++) {
			const int32_t *r = qn_ranges[z % nr];
			qn_check(&v[j], &c, 0, c.n, qn_zero_points[z], r[0], r[1]);
		}
		/* each element alone: its own overflow count, not only the sum */
		for (size_t i = 0; i < c.n; i++)
			qn_check(&v[j], &c, i, 1, i & 1 ? INT32_MAX : -3, -128, 127);
	}
	qn_case_free(&c);
}

static int32_t qn_random_value(rt_rng *rng)
{
	switch (rt_rng_below(rng, 4)) {
	case 0: return vta_wrap32((int64_t)(uint32_t)rt_rng_next(rng)); /* anywhere */
	case 1: return qn_edge_values[rt_rng_below(rng, QN_EDGES)];
	default: return rt_rng_range(rng, -(1 << 20), 1 << 20); /* an accumulator's size */
	}
}

static void test_conv_apply_n_random(void **state)
{
	(void)state;
	vta_quant_n_variant v[VTA_QUANT_N_MAX_VARIANTS];
	size_t nv = vta_quant_n_variants(v);
	rt_rng rng;
	rt_rng_seed(&rng, 11);
	qn_case c;
	qn_case_alloc(&c, 200000);
	vta_error err = {0};
	for (size_t i = 0; i < c.n; i++) {
		c.acc[i] = qn_random_value(&rng);
		c.bias[i] = qn_random_value(&rng);
		/* mostly the multipliers of real scales, some raw */
		double scale = ldexp((double)(rt_rng_next(&rng) >> 11) / 9007199254740992.0,
				     rt_rng_range(&rng, -40, 20));
		assert_int_equal(vta_quant_multiplier(scale, &c.m32[i], &err), VTA_OK);
		assert_int_equal(vta_quant_q15(scale, &c.m16[i], &err), VTA_OK);
		if (rt_rng_below(&rng, 4) == 0) {
			c.m32[i] = (vta_qmul){qn_random_value(&rng), rt_rng_range(&rng, -40, 40)};
			c.m16[i] = (vta_q15){(int16_t)rt_rng_range(&rng, INT16_MIN, INT16_MAX),
					     (int16_t)rt_rng_range(&rng, -40, 40)};
		}
	}
	qn_case_prepare(&c);
	for (size_t j = 0; j < nv; j++) {
		if (!v[j].runs_here)
			continue;
		qn_check(&v[j], &c, 0, c.n, -7, -128, 127);
		qn_check(&v[j], &c, 1, c.n - 1, 3, 0, 127); /* unaligned */
		/* every tail length around the vector widths, at several offsets */
		for (size_t n = 0; n <= 70; n++)
			for (size_t off = 0; off < 4; off++)
				qn_check(&v[j], &c, off * 1000 + off, n, (int32_t)off - 2, -128,
					 127);
	}
	qn_case_free(&c);
}

static void test_conv_apply_n_wrap(void **state)
{
	(void)state;
	vta_quant_n_variant v[VTA_QUANT_N_MAX_VARIANTS];
	size_t nv = vta_quant_n_variants(v);
	static const int64_t edges[] = {
		INT64_MIN, INT64_MIN + 1, -((int64_t)1 << 32) - 1, -((int64_t)1 << 32),
		-((int64_t)1 << 31) - 1, -((int64_t)1 << 31), -((int64_t)1 << 31) + 1, -1, 0, 1,
		((int64_t)1 << 31) - 2, ((int64_t)1 << 31) - 1, (int64_t)1 << 31,
		((int64_t)1 << 31) + 1, (int64_t)1 << 32, ((int64_t)1 << 32) + 5, INT64_MAX - 1,
		INT64_MAX,
	};
	const size_t ne = sizeof(edges) / sizeof(edges[0]);
	const size_t n = 10000;
	int64_t *acc = malloc(n * sizeof(*acc));
	int32_t *got = malloc((n + 1) * sizeof(*got));
	assert_non_null(acc);
	assert_non_null(got);
	rt_rng rng;
	rt_rng_seed(&rng, 5);
	uint64_t want = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t r = rt_rng_next(&rng);
		if (i < ne)
			acc[i] = edges[i];
		else if (r & 1) /* near int32, past it by 1 at most */
			acc[i] = (int64_t)vta_wrap32((int64_t)(uint32_t)rt_rng_next(&rng)) +
				 (int64_t)(r >> 62) - 1;
		else
			acc[i] = (int64_t)(r >> 1) * (r & 2 ? -1 : 1);
		want += (int64_t)vta_wrap32(acc[i]) != acc[i];
	}
	for (size_t j = 0; j < nv; j++) {
		if (!v[j].runs_here)
			continue;
		for (size_t len = 0; len <= n; len = len < 70 ? len + 1 : len + n) {
			uint64_t w = 0;
			for (size_t i = 0; i < len; i++)
				w += (int64_t)vta_wrap32(acc[i]) != acc[i];
			got[len] = 42;
			assert_int_equal(v[j].wrap(acc, len, got), len == n ? want : w);
			assert_int_equal(got[len], 42);
			for (size_t i = 0; i < len; i++)
				assert_int_equal(got[i], vta_wrap32(acc[i]));
		}
	}
	free(acc);
	free(got);
}

static void test_conv_apply_n_pick(void **state)
{
	(void)state;
	vta_quant_n_variant v[VTA_QUANT_N_MAX_VARIANTS];
	size_t k = vta_quant_n_variants(v);
	vta_quant_n_variant p = vta_quant_n_pick();
	int found = 0;
	for (size_t j = 0; j < k; j++)
		if (v[j].tflite == p.tflite) {
			found = 1;
			assert_true(v[j].runs_here);
			assert_true(v[j].vta16 == p.vta16 && v[j].wrap == p.wrap);
			for (size_t m = j + 1; m < k; m++)
				assert_false(v[m].runs_here); /* the widest that runs */
		}
	assert_true(found);
	/* no channels: nothing to allocate, nothing written */
	vta_qmul_lanes l32;
	vta_error err = {0};
	assert_int_equal(vta_qmul_lanes_init(&l32, NULL, 0, &err), VTA_OK);
	uint64_t ovf = 0;
	p.tflite(NULL, NULL, &l32, 0, 0, -128, 127, NULL, &ovf);
	assert_int_equal(ovf, 0);
	vta_qmul_lanes_free(&l32);
	vta_qmul_lanes_free(&l32); /* twice is fine */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quantize_multiplier),
		cmocka_unit_test(test_srdhm_rdbpot),
		cmocka_unit_test(test_double_vs_single_rounding),
		cmocka_unit_test(test_activation_range),
		cmocka_unit_test(test_add_tflite_worked_example),
		cmocka_unit_test(test_q15),
		cmocka_unit_test(test_add_vta16_alkali),
		cmocka_unit_test(test_conv_params),
		cmocka_unit_test(test_conv_apply),
		cmocka_unit_test(test_conv_apply_n_edges),
		cmocka_unit_test(test_conv_apply_n_random),
		cmocka_unit_test(test_conv_apply_n_wrap),
		cmocka_unit_test(test_conv_apply_n_pick),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
