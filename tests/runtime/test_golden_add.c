/*
 * test_golden_add.c - the golden ADD in both modes (the worked example, broadcasting checked
 * against an explicitly expanded operand, LUT-fed constants, errors) and the compare function.
 */
#include "rt_test.h"

#include <stdlib.h>
#include <string.h>

#include "golden.h"

static vta_tensor_i8 tensor(int32_t n, int32_t h, int32_t w, int32_t c, float scale, int32_t zp,
			    int8_t *data)
{
	return (vta_tensor_i8){{n, h, w, c}, scale, zp, data};
}

static void test_worked_example(void **state)
{
	(void)state;
	int8_t ad[2] = {50, 0}, bd[2] = {-20, 0}, od[2];
	vta_tensor_i8 a = tensor(1, 1, 1, 2, 0.02f, 5, ad);
	vta_tensor_i8 b = tensor(1, 1, 1, 2, 0.01f, -3, bd);
	vta_tensor_i8 o = tensor(1, 1, 1, 2, 0.03f, -10, od);
	vta_golden_stats st = {0};
	vta_error err = {0};
	assert_int_equal(vta_golden_add(&a, &b, VTA_ACT_NONE, VTA_ARITH_TFLITE, &o, &st, &err),
			 VTA_OK);
	assert_int_equal(od[0], 14);
	assert_int_equal(od[1], -12);
	assert_int_equal(vta_golden_add(&a, &b, VTA_ACT_NONE, VTA_ARITH_VTA16, &o, &st, &err),
			 VTA_OK);
	assert_int_equal(od[0], 14);
	assert_int_equal(od[1], -13);
	assert_int_equal(st.alu_overflows, 0);
	/* ADD is symmetric bit for bit: swapping the operands changes nothing. */
	int8_t sw[2];
	vta_tensor_i8 os = tensor(1, 1, 1, 2, 0.03f, -10, sw);
	assert_int_equal(vta_golden_add(&b, &a, VTA_ACT_NONE, VTA_ARITH_VTA16, &os, NULL, &err),
			 VTA_OK);
	assert_memory_equal(sw, od, 2);
}

static void fill(rt_rng *r, int8_t *d, size_t n)
{
	for (size_t i = 0; i < n; i++)
		d[i] = (int8_t)rt_rng_range(r, -128, 127);
}

static void test_broadcast(void **state)
{
	(void)state;
	rt_rng r;
	rt_rng_seed(&r, 5);
	enum { N = 2, H = 3, W = 4, C = 5, E = N * H * W * C };
	int8_t ad[E], bc[C], bs[1], bfull[E], got[E], want[E];
	fill(&r, ad, E);
	fill(&r, bc, C);
	fill(&r, bs, 1);
	vta_tensor_i8 a = tensor(N, H, W, C, 0.05f, 3, ad);
	vta_error err = {0};
	for (int mode = 0; mode < 2; mode++) {
		for (int scalar = 0; scalar < 2; scalar++) {
			vta_tensor_i8 b = scalar ? tensor(1, 1, 1, 1, 0.02f, -7, bs)
						 : tensor(1, 1, 1, C, 0.02f, -7, bc);
			for (int i = 0; i < E; i++)
				bfull[i] = scalar ? bs[0] : bc[i % C];
			vta_tensor_i8 bf = tensor(N, H, W, C, 0.02f, -7, bfull);
			vta_tensor_i8 og = tensor(N, H, W, C, 0.04f, 1, got);
			vta_tensor_i8 ow = tensor(N, H, W, C, 0.04f, 1, want);
			assert_int_equal(vta_golden_add(&a, &b, VTA_ACT_RELU6, (vta_arith_mode)mode,
							&og, NULL, &err),
					 VTA_OK);
			assert_int_equal(vta_golden_add(&a, &bf, VTA_ACT_RELU6,
							(vta_arith_mode)mode, &ow, NULL, &err),
					 VTA_OK);
			assert_memory_equal(got, want, E);
		}
	}
	/* A shape that neither matches nor broadcasts. */
	vta_tensor_i8 bad = tensor(1, 1, W, C, 0.02f, -7, bfull);
	vta_tensor_i8 o = tensor(N, H, W, C, 0.04f, 1, got);
	assert_int_equal(vta_golden_add(&a, &bad, VTA_ACT_NONE, VTA_ARITH_TFLITE, &o, NULL, &err),
			 VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "ADD input 2 shape [1, 1, 4, 5] neither matches");
	vta_tensor_i8 o2 = tensor(N, H, W, 1, 0.04f, 1, got);
	assert_int_equal(vta_golden_add(&a, &a, VTA_ACT_NONE, VTA_ARITH_TFLITE, &o2, NULL, &err),
			 VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "ADD output shape [2, 3, 4, 1] differs");
	vta_tensor_i8 bz = tensor(N, H, W, C, 0.02f, 200, bfull);
	assert_int_equal(vta_golden_add(&a, &bz, VTA_ACT_NONE, VTA_ARITH_TFLITE, &o, NULL, &err),
			 VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "ADD input 2: zero point 200");
}

/* tflite mode element by element against vta_quant_add_tflite_apply, the definition, over
 * random scales, zero points, activations and broadcasts: the golden kernel tabulates each
 * input's stage, which must not change a bit. */
static void test_tflite_like_apply(void **state)
{
	(void)state;
	rt_rng r;
	rt_rng_seed(&r, 23);
	enum { N = 1, H = 3, W = 5, C = 7, E = N * H * W * C };
	static const vta_activation acts[] = {VTA_ACT_NONE, VTA_ACT_RELU, VTA_ACT_RELU6,
					      VTA_ACT_RELU_N1_TO_1};
	int8_t ad[E], bd[E], got[E];
	vta_error err = {0};
	for (int rep = 0; rep < 400; rep++) {
		/* scales over four decades; some cases the parameters refuse are skipped */
		const float s1 = 0.0005f * (float)rt_rng_range(&r, 1, 2000);
		const float s2 = 0.0005f * (float)rt_rng_range(&r, 1, 2000);
		const float so = 0.0005f * (float)rt_rng_range(&r, 1, 4000);
		const int32_t z1 = rt_rng_range(&r, -128, 127), z2 = rt_rng_range(&r, -128, 127);
		const int32_t zo = rt_rng_range(&r, -128, 127);
		const vta_activation act = acts[rt_rng_range(&r, 0, 3)];
		const int kind = rt_rng_range(&r, 0, 2); /* b: full, per channel, scalar */
		fill(&r, ad, E);
		fill(&r, bd, E);
		if (rep == 0) { /* the extremes */
			memset(ad, 0x80, E);
			memset(bd, 0x7f, E);
		}
		vta_tensor_i8 a = tensor(N, H, W, C, s1, z1, ad);
		vta_tensor_i8 b = kind == 0 ? tensor(N, H, W, C, s2, z2, bd)
				  : kind == 1 ? tensor(1, 1, 1, C, s2, z2, bd)
					      : tensor(1, 1, 1, 1, s2, z2, bd);
		vta_tensor_i8 o = tensor(N, H, W, C, so, zo, got);
		vta_add_tflite_params p;
		if (vta_quant_add_tflite_params(s1, z1, s2, z2, so, zo, act, &p, &err) != VTA_OK)
			continue;
		assert_int_equal(vta_golden_add(&a, &b, act, VTA_ARITH_TFLITE, &o, NULL, &err),
				 VTA_OK);
		for (int i = 0; i < E; i++) {
			const int j = kind == 0 ? i : kind == 1 ? i % C : 0;
			if (got[i] != (int8_t)vta_quant_add_tflite_apply(&p, ad[i], bd[j]))
				fail_msg("rep %d element %d: %d, the definition %d", rep, i,
					 got[i], vta_quant_add_tflite_apply(&p, ad[i], bd[j]));
		}
	}
}

/* Both modes against the real-number result: tflite within 1 LSB of ideal rounding, vta16
 * within 1 LSB of tflite (the alkali tests' own tolerance). */
static void test_modes_distance(void **state)
{
	(void)state;
	rt_rng r;
	rt_rng_seed(&r, 11);
	enum { E = 4096 };
	int8_t *ad = malloc(E), *bd = malloc(E), *t = malloc(E), *v = malloc(E);
	fill(&r, ad, E);
	fill(&r, bd, E);
	vta_tensor_i8 a = tensor(1, 1, 1, E, 0.021f, 4, ad);
	vta_tensor_i8 b = tensor(1, 1, 1, E, 0.013f, -9, bd);
	vta_tensor_i8 ot = tensor(1, 1, 1, E, 0.037f, -2, t);
	vta_tensor_i8 ov = tensor(1, 1, 1, E, 0.037f, -2, v);
	vta_error err = {0};
	vta_golden_stats st = {0};
	assert_int_equal(vta_golden_add(&a, &b, VTA_ACT_NONE, VTA_ARITH_TFLITE, &ot, NULL, &err),
			 VTA_OK);
	assert_int_equal(vta_golden_add(&a, &b, VTA_ACT_NONE, VTA_ARITH_VTA16, &ov, &st, &err),
			 VTA_OK);
	for (int i = 0; i < E; i++) {
		double real = (ad[i] - 4) * 0.021 + (bd[i] + 9) * 0.013;
		double ideal = real / 0.037 - 2;
		ideal = ideal < -128 ? -128 : ideal > 127 ? 127 : ideal;
		assert_true(t[i] - ideal <= 1.0 && ideal - t[i] <= 1.0);
	}
	vta_compare cmp;
	assert_int_equal(vta_golden_compare(&ot, &ov, &cmp, &err), VTA_OK);
	assert_true(cmp.max_abs_diff <= 1);
	assert_true(cmp.mismatches > 0); /* the biased floors do show */
	assert_int_equal(st.alu_overflows, 0);
	free(ad);
	free(bd);
	free(t);
	free(v);
}

static void test_lut_operand(void **state)
{
	(void)state;
	rt_rng r;
	rt_rng_seed(&r, 12);
	enum { C = 8, E = 4 * 4 * C };
	int8_t ad[E], bd[E], got[E], want[E];
	fill(&r, ad, E);
	for (int i = 0; i < E; i++)
		bd[i] = (int8_t)(rt_rng_range(&r, -3, 3) * 11); /* 7 values: 3 bits */
	vta_lut_buffer lb;
	vta_error err = {0};
	assert_int_equal(vta_lut_compress(VTA_LUT_INT8, bd, E, 1, false, 3, VTA_LUT_STRIDE_POW2,
					  &lb, &err),
			 VTA_OK);
	vta_tensor_i8 a = tensor(1, 4, 4, C, 0.03f, 0, ad);
	vta_tensor_i8 b = tensor(1, 4, 4, C, 0.06f, 2, bd);
	vta_tensor_i8 bl = tensor(1, 4, 4, C, 0.06f, 2, NULL); /* data comes from the LUT */
	vta_tensor_i8 og = tensor(1, 4, 4, C, 0.05f, 0, got);
	vta_tensor_i8 ow = tensor(1, 4, 4, C, 0.05f, 0, want);
	for (int mode = 0; mode < 2; mode++) {
		assert_int_equal(vta_golden_add(&a, &b, VTA_ACT_NONE, (vta_arith_mode)mode, &ow,
						NULL, &err),
				 VTA_OK);
		memset(got, 0, sizeof(got));
		assert_int_equal(vta_golden_add_lut(&a, &bl, &lb.tensor, VTA_ACT_NONE,
						    (vta_arith_mode)mode, &og, NULL, &err),
				 VTA_OK);
		assert_memory_equal(got, want, E);
	}
	/* A LUT of the wrong type or size is refused; a malformed one reports the decoder. */
	lb.tensor.type = VTA_LUT_INT16;
	assert_int_equal(vta_golden_add_lut(&a, &bl, &lb.tensor, VTA_ACT_NONE, VTA_ARITH_TFLITE,
					    &og, NULL, &err),
			 VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "LUT tensor holds 128 int16 values, the operand needs "
					   "128 int8");
	lb.tensor.type = VTA_LUT_INT8;
	lb.tensor.bitwidth = 0;
	assert_int_equal(vta_golden_add_lut(&a, &bl, &lb.tensor, VTA_ACT_NONE, VTA_ARITH_TFLITE,
					    &og, NULL, &err),
			 VTA_E_DATA);
	rt_assert_error(&err, VTA_E_DATA, "bit width 0");
	vta_lut_buffer_free(&lb);
}

static void test_compare(void **state)
{
	(void)state;
	int8_t e[12], g[12];
	for (int i = 0; i < 12; i++)
		e[i] = g[i] = (int8_t)(i * 3 - 10);
	g[4] += 1;
	g[7] -= 2;
	g[10] += 5;
	g[11] = (int8_t)(e[11] - 4);
	vta_tensor_i8 te = tensor(1, 2, 2, 3, 1.0f, 0, e);
	vta_tensor_i8 tg = tensor(1, 2, 2, 3, 1.0f, 0, g);
	vta_compare c;
	vta_error err = {0};
	assert_int_equal(vta_golden_compare(&te, &tg, &c, &err), VTA_OK);
	assert_int_equal(c.count, 12);
	assert_int_equal(c.mismatches, 4);
	assert_false(c.bit_exact);
	assert_int_equal(c.first_index, 4);
	const int32_t nhwc[4] = {0, 0, 1, 1}; /* 4 = w 1, c 1 with C = 3 */
	assert_memory_equal(c.first_nhwc, nhwc, sizeof(nhwc));
	assert_int_equal(c.expected, 2);
	assert_int_equal(c.got, 3);
	assert_int_equal(c.max_abs_diff, 5);
	const uint64_t hist[VTA_COMPARE_HIST_BINS] = {1, 0, 1, 0, 8, 1, 0, 0, 1};
	assert_memory_equal(c.hist, hist, sizeof(hist));
	assert_int_equal(vta_golden_compare_bin(-3), 1);
	assert_int_equal(vta_golden_compare_bin(3), 7);
	assert_int_equal(vta_golden_compare(&te, &te, &c, &err), VTA_OK);
	assert_true(c.bit_exact && c.mismatches == 0 && c.hist[4] == 12);
	vta_tensor_i8 other = tensor(1, 2, 3, 2, 1.0f, 0, g);
	assert_int_equal(vta_golden_compare(&te, &other, &c, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "shapes differ (expected [1, 2, 2, 3], got [1, 2, 3, 2])");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_worked_example),
		cmocka_unit_test(test_broadcast),
		cmocka_unit_test(test_tflite_like_apply),
		cmocka_unit_test(test_modes_distance),
		cmocka_unit_test(test_lut_operand),
		cmocka_unit_test(test_compare),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
