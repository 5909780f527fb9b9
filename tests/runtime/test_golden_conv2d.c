/*
 * test_golden_conv2d.c - the golden CONV2D: hand-computed cases (SAME/VALID, stride 2,
 * dilation 2, zp_in at the borders, groups, bias/per-channel scale/activation), TFLite's pad
 * placement, random layers against a deliberately different formulation (input explicitly
 * padded with zp_in, then an unguarded VALID loop) by both paths to the sums (along the patch
 * and across output channels) and by the one the rule picks, LUT-fed filter and bias,
 * overflow counts, and the argument errors.
 */
#include "rt_test.h"

#include <math.h>
#include <stdlib.h>

#include "golden.h"

static const float one_scale[1] = {1.0f};
static const int8_t ones9[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};

/* A layer with scale-1 tensors, so that requantization is the identity in both modes. */
static vta_conv2d unit_layer(const vta_tensor_i8 *in, const int8_t *filter, int32_t o,
			     int32_t kh, int32_t kw, int32_t i_f)
{
	return (vta_conv2d){
		.input = in, .filter = filter, .filter_shape = {o, kh, kw, i_f},
		.filter_scales = one_scale, .filter_scale_count = 1,
		.stride_h = 1, .stride_w = 1, .dilation_h = 1, .dilation_w = 1,
		.padding = VTA_PADDING_SAME, .activation = VTA_ACT_NONE,
	};
}

/* Run in both modes, expect the same literal output. */
static void expect_out(const vta_conv2d *c, int32_t ho, int32_t wo, int32_t co, const int8_t *want)
{
	int8_t got[256];
	for (int mode = 0; mode < 2; mode++) {
		vta_tensor_i8 out = {{c->input->shape[0], ho, wo, co}, 1.0f, 0, got};
		vta_golden_stats st = {0};
		vta_error err = {0};
		vta_status s = vta_golden_conv2d(c, (vta_arith_mode)mode, &out, &st, &err);
		if (s != VTA_OK) {
			print_error("conv failed: %s\n", err.detail);
			fail();
		}
		assert_memory_equal(got, want, (size_t)(c->input->shape[0] * ho * wo * co));
		assert_int_equal(st.alu_overflows, 0);
	}
}

static void test_3x3_cases(void **state)
{
	(void)state;
	int8_t x[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
	vta_tensor_i8 in = {{1, 3, 3, 1}, 1.0f, 0, x};
	vta_conv2d c = unit_layer(&in, ones9, 1, 3, 3, 1);
	/* SAME, stride 1: sums of the in-image 3x3 neighbourhoods */
	const int8_t same[9] = {12, 21, 16, 27, 45, 33, 24, 39, 28};
	expect_out(&c, 3, 3, 1, same);
	/* VALID: the one full window */
	c.padding = VTA_PADDING_VALID;
	const int8_t valid[1] = {45};
	expect_out(&c, 1, 1, 1, valid);
	/* SAME, stride 2: out 2x2, pad 1 before; windows centred on the corners */
	c.padding = VTA_PADDING_SAME;
	c.stride_h = c.stride_w = 2;
	const int8_t s2[4] = {12, 16, 24, 28};
	expect_out(&c, 2, 2, 1, s2);
	/* zp_in = 2: every in-image tap contributes x - 2, out-of-image taps nothing (they are
	 * the real zero), so corners lose 4*2, edges 6*2, the centre 9*2. */
	c.stride_h = c.stride_w = 1;
	in.zero_point = 2;
	const int8_t zp[9] = {4, 9, 8, 15, 27, 21, 16, 27, 20};
	expect_out(&c, 3, 3, 1, zp);
}

static void test_dilation(void **state)
{
	(void)state;
	int8_t x[25];
	for (int i = 0; i < 25; i++)
		x[i] = (int8_t)(i + 1);
	vta_tensor_i8 in = {{1, 5, 5, 1}, 1.0f, 0, x};
	vta_conv2d c = unit_layer(&in, ones9, 1, 3, 3, 1);
	c.dilation_h = c.dilation_w = 2; /* effective 5x5, SAME pad 2 */
	int8_t got[25];
	vta_tensor_i8 out = {{1, 5, 5, 1}, 1.0f, 0, got};
	vta_error err = {0};
	assert_int_equal(vta_golden_conv2d(&c, VTA_ARITH_TFLITE, &out, NULL, &err), VTA_OK);
	assert_int_equal(got[0], 1 + 3 + 11 + 13);            /* (0,0): rows 0,2 cols 0,2 */
	assert_int_equal(got[1], 2 + 4 + 12 + 14);            /* (0,1): cols 1,3 */
	assert_int_equal(got[12], 9 + 39 + 69);               /* centre: rows/cols 0,2,4 */
	assert_int_equal(got[24], 13 + 15 + 23 + 25);         /* (4,4) */
	c.padding = VTA_PADDING_VALID;
	vta_tensor_i8 o1 = {{1, 1, 1, 1}, 1.0f, 0, got};
	assert_int_equal(vta_golden_conv2d(&c, VTA_ARITH_VTA16, &o1, NULL, &err), VTA_OK);
	assert_int_equal(got[0], 117);
}

static void test_padding_placement(void **state)
{
	(void)state;
	int32_t o, b, a;
	vta_error err = {0};
	/* in 5, k 3, s 2, SAME: out 3, pad 1 + 1 */
	assert_int_equal(vta_golden_conv2d_padding(5, 3, 2, 1, VTA_PADDING_SAME, &o, &b, &a, &err),
			 VTA_OK);
	assert_true(o == 3 && b == 1 && a == 1);
	/* in 6, k 3, s 2, SAME: out 3, pad 0 before, 1 after */
	assert_int_equal(vta_golden_conv2d_padding(6, 3, 2, 1, VTA_PADDING_SAME, &o, &b, &a, &err),
			 VTA_OK);
	assert_true(o == 3 && b == 0 && a == 1);
	/* in 4, k 4, SAME, s 1: total 3, 1 before, 2 after (the extra goes after) */
	assert_int_equal(vta_golden_conv2d_padding(4, 4, 1, 1, VTA_PADDING_SAME, &o, &b, &a, &err),
			 VTA_OK);
	assert_true(o == 4 && b == 1 && a == 2);
	/* VALID never pads: in 7, k 3, d 2 (eff 5), s 2 -> out 2 */
	assert_int_equal(vta_golden_conv2d_padding(7, 3, 2, 2, VTA_PADDING_VALID, &o, &b, &a, &err),
			 VTA_OK);
	assert_true(o == 2 && b == 0 && a == 0);
	assert_int_equal(vta_golden_conv2d_padding(2, 3, 1, 1, VTA_PADDING_VALID, &o, &b, &a, &err),
			 VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "VALID padding with input size 2 and dilated kernel 3");
	assert_int_equal(vta_golden_conv2d_padding(2, 3, 0, 1, VTA_PADDING_SAME, &o, &b, &a, &err),
			 VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "stride 0");
	/* Bottom/right padding really is on the far side: in 6, s 2, SAME, a 1-wide impulse at the
	 * last column is seen by the last output only. */
	int8_t x[6] = {0, 0, 0, 0, 0, 9};
	vta_tensor_i8 in = {{1, 1, 6, 1}, 1.0f, 0, x};
	int8_t k3[3] = {1, 2, 3};
	vta_conv2d c = unit_layer(&in, k3, 1, 1, 3, 1);
	c.stride_w = 2;
	/* pad 0 before: windows [0..2], [2..4], [4..6); x[5] meets weight 2 (27 if the pad were
	 * placed before) */
	const int8_t want[3] = {0, 0, 18};
	expect_out(&c, 1, 3, 1, want);
}

static void test_grouped_bias_activation(void **state)
{
	(void)state;
	/* groups: input channels 4, filter depth 2 -> 2 groups of one output channel each */
	int8_t x[4] = {1, 2, 3, 4};
	vta_tensor_i8 in = {{1, 1, 1, 4}, 1.0f, 0, x};
	int8_t f[4] = {1, 1, 1, -1};
	vta_conv2d c = unit_layer(&in, f, 2, 1, 1, 2);
	const int8_t g[2] = {3, -1};
	expect_out(&c, 1, 1, 2, g);
	/* 4 groups of 2 output channels each, depthwise-like with multiplier 2 */
	int8_t f8[8] = {1, 2, 1, 2, 1, 2, 1, 2};
	c = unit_layer(&in, f8, 8, 1, 1, 1);
	const int8_t g8[8] = {1, 2, 2, 4, 3, 6, 4, 8};
	expect_out(&c, 1, 1, 8, g8);

	/* bias, per-channel scales and RELU: 10 * {1, 0.5, 1} + {5, 0, -20}, clamp at 0 */
	int8_t x1[1] = {10};
	vta_tensor_i8 in1 = {{1, 1, 1, 1}, 1.0f, 0, x1};
	int8_t f3[3] = {1, 1, 1};
	const float sc[3] = {1.0f, 0.5f, 1.0f};
	const int32_t bias[3] = {5, 0, -20};
	c = unit_layer(&in1, f3, 3, 1, 1, 1);
	c.filter_scales = sc;
	c.filter_scale_count = 3;
	c.bias = bias;
	c.activation = VTA_ACT_RELU;
	const int8_t b3[3] = {15, 5, 0};
	expect_out(&c, 1, 1, 3, b3);
}

/* ---- random layers against explicit padding + VALID ---- */

typedef struct rand_layer {
	vta_tensor_i8 in;
	int8_t *x, *f;
	float *scales;
	int32_t *bias;
	vta_conv2d c;
	int32_t os[4];
	float out_scale;
	int32_t out_zp;
} rand_layer;

/* A random layer; wide ones have up to 40 input and 70 output channels per group, so the
 * across-channel path's blocks of 16 channels and groups of 4 inputs both get tails. */
static void make_layer(rt_rng *r, rand_layer *L, int wide)
{
	int32_t groups = rt_rng_range(r, 1, wide ? 2 : 3);
	int32_t i_f = rt_rng_range(r, 1, wide ? 40 : 4);
	int32_t C = groups * i_f;
	int32_t O = groups * rt_rng_range(r, 1, wide ? 70 : 3);
	int32_t N = rt_rng_range(r, 1, 2), H = rt_rng_range(r, 1, 9), W = rt_rng_range(r, 1, 9);
	int32_t KH = rt_rng_range(r, 1, 3), KW = rt_rng_range(r, 1, 3);
	memset(L, 0, sizeof(*L));
	L->c.stride_h = rt_rng_range(r, 1, 3);
	L->c.stride_w = rt_rng_range(r, 1, 3);
	L->c.dilation_h = rt_rng_range(r, 1, 2);
	L->c.dilation_w = rt_rng_range(r, 1, 2);
	L->c.padding = rt_rng_below(r, 2) ? VTA_PADDING_SAME : VTA_PADDING_VALID;
	if (L->c.padding == VTA_PADDING_VALID) { /* keep VALID legal */
		while ((KH - 1) * L->c.dilation_h + 1 > H)
			H++;
		while ((KW - 1) * L->c.dilation_w + 1 > W)
			W++;
	}
	L->c.activation = (vta_activation)rt_rng_range(r, 0, 3);
	size_t nx = (size_t)(N * H * W * C), nf = (size_t)(O * KH * KW * i_f);
	L->x = malloc(nx);
	L->f = malloc(nf);
	L->scales = malloc((size_t)O * sizeof(float));
	L->bias = malloc((size_t)O * sizeof(int32_t));
	for (size_t i = 0; i < nx; i++)
		L->x[i] = (int8_t)rt_rng_range(r, -128, 127);
	for (size_t i = 0; i < nf; i++)
		L->f[i] = (int8_t)rt_rng_range(r, -127, 127);
	for (int32_t o = 0; o < O; o++) {
		L->scales[o] = (float)(0.002 + 0.01 * (double)rt_rng_below(r, 1000) / 1000.0);
		L->bias[o] = rt_rng_range(r, -3000, 3000);
	}
	L->in = (vta_tensor_i8){{N, H, W, C}, 0.02f + 0.001f * (float)rt_rng_below(r, 20),
				rt_rng_range(r, -128, 127), L->x};
	L->c.input = &L->in;
	L->c.filter = L->f;
	L->c.filter_shape[0] = O;
	L->c.filter_shape[1] = KH;
	L->c.filter_shape[2] = KW;
	L->c.filter_shape[3] = i_f;
	L->c.filter_scales = L->scales;
	L->c.filter_scale_count = rt_rng_below(r, 4) ? (size_t)O : 1;
	L->c.bias = rt_rng_below(r, 3) ? L->bias : NULL;
	L->out_scale = 0.05f + 0.01f * (float)rt_rng_below(r, 30);
	L->out_zp = rt_rng_range(r, -20, 20);
	vta_error err = {0};
	assert_int_equal(vta_golden_conv2d_shape(&L->c, L->os, &err), VTA_OK);
}

static void free_layer(rand_layer *L)
{
	free(L->x);
	free(L->f);
	free(L->scales);
	free(L->bias);
}

/* The other formulation: materialise the padded input (filled with zp_in), then a VALID
 * convolution without bounds checks. Returns the raw int32 accumulators. */
static void explicit_pad_conv(const rand_layer *L, int32_t *acc)
{
	const vta_conv2d *c = &L->c;
	int32_t N = L->in.shape[0], H = L->in.shape[1], W = L->in.shape[2], C = L->in.shape[3];
	int32_t O = c->filter_shape[0], KH = c->filter_shape[1], KW = c->filter_shape[2];
	int32_t IF = c->filter_shape[3];
	/* pad sizes from the textbook formula, written out again here */
	int32_t eh = (KH - 1) * c->dilation_h + 1, ew = (KW - 1) * c->dilation_w + 1;
	int32_t ho = L->os[1], wo = L->os[2];
	int32_t th = (ho - 1) * c->stride_h + eh - H, tw = (wo - 1) * c->stride_w + ew - W;
	th = th < 0 ? 0 : th;
	tw = tw < 0 ? 0 : tw;
	int32_t pt = th / 2, pl = tw / 2;
	int32_t HP = H + th, WP = W + tw;
	int8_t *xp = malloc((size_t)(N * HP * WP * C));
	memset(xp, (uint8_t)L->in.zero_point, (size_t)(N * HP * WP * C));
	for (int32_t n = 0; n < N; n++)
		for (int32_t y = 0; y < H; y++)
			memcpy(xp + ((n * HP + y + pt) * WP + pl) * C, L->x + ((n * H + y) * W) * C,
			       (size_t)(W * C));
	int32_t per_group = O / (C / IF);
	for (int32_t n = 0; n < N; n++)
		for (int32_t oy = 0; oy < ho; oy++)
			for (int32_t ox = 0; ox < wo; ox++)
				for (int32_t oc = 0; oc < O; oc++) {
					int32_t s = 0, g = oc / per_group;
					for (int32_t fy = 0; fy < KH; fy++)
						for (int32_t fx = 0; fx < KW; fx++)
							for (int32_t i = 0; i < IF; i++) {
								int32_t py = oy * c->stride_h +
									     fy * c->dilation_h;
								int32_t px = ox * c->stride_w +
									     fx * c->dilation_w;
								int32_t xv =
									xp[((n * HP + py) * WP + px) * C +
									   g * IF + i];
								int32_t wv =
									c->filter[((oc * KH + fy) * KW +
										   fx) * IF + i];
								s += wv * (xv - L->in.zero_point);
							}
					*acc++ = s;
				}
	free(xp);
}

static void test_random_layers(void **state)
{
	(void)state;
	rt_rng r;
	rt_rng_seed(&r, 777);
	size_t total = 0, off_by_one = 0;
	for (int iter = 0; iter < 300; iter++) {
		rand_layer L;
		const int wide = iter % 3 == 0;
		make_layer(&r, &L, wide);
		size_t n = (size_t)L.os[0] * L.os[1] * L.os[2] * L.os[3];
		int32_t *acc = malloc(n * sizeof(int32_t));
		int8_t *got = malloc(n), *got16 = malloc(n);
		explicit_pad_conv(&L, acc);
		int32_t O = L.os[3], lo, hi;
		vta_error err = {0};
		assert_int_equal(vta_quant_activation_range(L.c.activation, L.out_scale, L.out_zp,
							     &lo, &hi, &err),
				 VTA_OK);
		vta_qmul *m = malloc((size_t)O * sizeof(*m));
		vta_q15 *q = malloc((size_t)O * sizeof(*q));
		assert_non_null(m);
		assert_non_null(q);
		assert_int_equal(vta_quant_conv_tflite_params(L.in.scale, L.scales,
							      L.c.filter_scale_count, (size_t)O,
							      L.out_scale, m, &err),
				 VTA_OK);
		assert_int_equal(vta_quant_conv_vta16_params(L.in.scale, L.scales,
							     L.c.filter_scale_count, (size_t)O,
							     L.out_scale, q, &err),
				 VTA_OK);
		vta_tensor_i8 out = {{L.os[0], L.os[1], L.os[2], L.os[3]}, L.out_scale, L.out_zp, got};
		vta_tensor_i8 out16 = out;
		out16.data = got16;
		/* each path, then the one the rule picks, give the same outputs and wrap counts;
		 * the checks below hold them to the other formulation */
		vta_golden_stats st = {0};
		int8_t *by = malloc(n), *by16 = malloc(n);
		for (int path = VTA_GOLDEN_CONV2D_ACROSS; path >= VTA_GOLDEN_CONV2D_AUTO; path--) {
			const int first = path == VTA_GOLDEN_CONV2D_ACROSS;
			vta_tensor_i8 o8 = out, o16 = out16;
			if (!first) {
				o8.data = by;
				o16.data = by16;
			}
			vta_golden_stats s16 = {0};
			assert_int_equal(vta_golden_conv2d_by(&L.c, VTA_ARITH_TFLITE,
							      (vta_golden_conv2d_path)path, &o8,
							      NULL, &err),
					 VTA_OK);
			assert_int_equal(vta_golden_conv2d_by(&L.c, VTA_ARITH_VTA16,
							      (vta_golden_conv2d_path)path, &o16,
							      &s16, &err),
					 VTA_OK);
			if (first) {
				st = s16;
				continue;
			}
			assert_memory_equal(got, by, n);
			assert_memory_equal(got16, by16, n);
			assert_int_equal(s16.acc_overflows, st.acc_overflows);
			assert_int_equal(s16.alu_overflows, st.alu_overflows);
		}
		free(by);
		free(by16);
		for (size_t i = 0; i < n; i++) {
			int32_t oc = (int32_t)(i % (size_t)O);
			int32_t b = L.c.bias ? L.bias[oc] : 0;
			int32_t want = vta_quant_conv_tflite_apply(acc[i], b, m[oc], L.out_zp, lo,
								   hi, NULL);
			int32_t want16 = vta_quant_conv_vta16_apply(acc[i], b, q[oc], L.out_zp, lo,
								    hi, NULL);
			assert_int_equal(got[i], want);
			assert_int_equal(got16[i], want16);
			/* and tflite is the real-number result to within one LSB */
			double sw = L.scales[L.c.filter_scale_count == 1 ? 0 : oc];
			double ideal = (double)(acc[i] + b) * L.in.scale * sw / L.out_scale + L.out_zp;
			ideal = ideal < lo ? lo : ideal > hi ? hi : ideal;
			assert_true(fabs(got[i] - ideal) <= 1.0);
			if (!wide) { /* the closeness of vta16 below holds for small sums */
				total++;
				off_by_one += got[i] != got16[i];
			}
		}
		assert_int_equal(st.acc_overflows, 0);
		free(m);
		free(q);
		free(acc);
		free(got);
		free(got16);
		free_layer(&L);
	}
	/* small accumulators: vta16 with rounding stays close to tflite */
	assert_true(total > 5000);
	assert_true(off_by_one * 50 < total);
}

static void test_lut_filter_and_bias(void **state)
{
	(void)state;
	rt_rng r;
	rt_rng_seed(&r, 31);
	enum { O = 6, K = 3, I = 5, NF = O * K * K * I };
	int8_t raw[NF], f[NF], x[1 * 7 * 7 * I], got[7 * 7 * O], want[7 * 7 * O];
	for (int i = 0; i < NF; i++)
		raw[i] = (int8_t)rt_rng_range(&r, -127, 127);
	for (size_t i = 0; i < sizeof(x); i++)
		x[i] = (int8_t)rt_rng_range(&r, -128, 127);
	vta_error err = {0};
	vta_lut_bin_report rep;
	assert_int_equal(vta_lut_bin_i8(raw, f, NF, O, false, 4, VTA_LUT_BIN_KMEANS, &rep, &err),
			 VTA_OK);
	assert_true(rep.max_values <= 16);
	int32_t bias[O] = {100, -100, 100, 7, 7, -100}; /* 3 distinct values */
	float sc[O] = {0.01f, 0.02f, 0.015f, 0.01f, 0.03f, 0.005f};
	vta_lut_buffer fl, bl;
	assert_int_equal(vta_lut_compress(VTA_LUT_INT8, f, NF, O, false, 4, VTA_LUT_STRIDE_POW2,
					  &fl, &err),
			 VTA_OK);
	assert_int_equal(vta_lut_compress(VTA_LUT_INT32, bias, O, 1, false, 0,
					  VTA_LUT_STRIDE_MAX_UNIQUE, &bl, &err),
			 VTA_OK);
	vta_tensor_i8 in = {{1, 7, 7, I}, 0.05f, -3, x};
	vta_conv2d c = {
		.input = &in, .filter = f, .filter_shape = {O, K, K, I}, .filter_scales = sc,
		.filter_scale_count = O, .bias = bias, .stride_h = 1, .stride_w = 1,
		.dilation_h = 1, .dilation_w = 1, .padding = VTA_PADDING_SAME,
		.activation = VTA_ACT_RELU6,
	};
	vta_tensor_i8 ow = {{1, 7, 7, O}, 0.1f, -5, want};
	vta_tensor_i8 og = {{1, 7, 7, O}, 0.1f, -5, got};
	for (int mode = 0; mode < 2; mode++) {
		assert_int_equal(vta_golden_conv2d(&c, (vta_arith_mode)mode, &ow, NULL, &err),
				 VTA_OK);
		vta_conv2d cl = c;
		cl.filter = NULL; /* must come from the LUT */
		cl.bias = NULL;
		memset(got, 0, sizeof(got));
		assert_int_equal(vta_golden_conv2d_lut(&cl, &fl.tensor, &bl.tensor,
						       (vta_arith_mode)mode, &og, NULL, &err),
				 VTA_OK);
		assert_memory_equal(got, want, sizeof(got));
	}
	/* A bias LUT of the wrong type is refused. */
	bl.tensor.type = VTA_LUT_INT16;
	assert_int_equal(vta_golden_conv2d_lut(&c, NULL, &bl.tensor, VTA_ARITH_TFLITE, &og, NULL,
					       &err),
			 VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "CONV2D bias: LUT tensor holds 6 int16 values");
	vta_lut_buffer_free(&fl);
	vta_lut_buffer_free(&bl);
}

/* Large accumulators: vta16's 32-bit MUL overflows and is counted, tflite does not. */
static void test_overflow_counts(void **state)
{
	(void)state;
	enum { C = 8, O = 2 };
	int8_t x[3 * 3 * C], f[O * 3 * 3 * C];
	memset(x, 127, sizeof(x));
	memset(f, 127, sizeof(f));
	vta_tensor_i8 in = {{1, 3, 3, C}, 0.02f, -128, x};
	const float sc[1] = {0.005f};
	vta_conv2d c = {
		.input = &in, .filter = f, .filter_shape = {O, 3, 3, C}, .filter_scales = sc,
		.filter_scale_count = 1, .stride_h = 1, .stride_w = 1, .dilation_h = 1,
		.dilation_w = 1, .padding = VTA_PADDING_VALID, .activation = VTA_ACT_NONE,
	};
	int8_t o[O];
	vta_tensor_i8 out = {{1, 1, 1, O}, 4.0f, 0, o};
	vta_golden_stats st = {0};
	vta_error err = {0};
	/* acc = 72 * 127 * 255 = 2331720; * 0.02 * 0.005 / 4 = 58.29 */
	assert_int_equal(vta_golden_conv2d(&c, VTA_ARITH_TFLITE, &out, &st, &err), VTA_OK);
	assert_int_equal(o[0], 58);
	assert_int_equal(o[1], 58);
	assert_int_equal(st.alu_overflows, 0);
	/* vta16: Q15 of 2.5e-5 is about 26844 * 2^-30; 2331720 * 26844 wraps */
	assert_int_equal(vta_golden_conv2d(&c, VTA_ARITH_VTA16, &out, &st, &err), VTA_OK);
	assert_int_equal(st.alu_overflows, O); /* one wrapped MUL per output */
	assert_int_equal(st.acc_overflows, 0);
	assert_true(o[0] != 58);
}

/* Patches long enough for 64-bit sums: 33,000 input channels (past the patch lengths whose
 * sums stay in int32) and 70,000 (the int32 accumulator wraps at these extremes and the
 * wrap is counted), both paths, both modes, against the sums written out and requantized
 * one output at a time. */
static void test_long_patches(void **state)
{
	(void)state;
	static const int32_t ks[] = {33000, 70000};
	for (size_t k = 0; k < sizeof(ks) / sizeof(ks[0]); k++) {
		const int32_t K = ks[k];
		enum { O = 2 };
		int8_t *x = malloc((size_t)K), *f = malloc((size_t)O * K);
		for (int32_t i = 0; i < K; i++)
			x[i] = i % 97 == 0 ? -128 : 127;
		for (int32_t i = 0; i < O * K; i++)
			f[i] = i % 89 == 0 ? 3 : i < K ? 127 : -127;
		vta_tensor_i8 in = {{1, 1, 1, K}, 0.02f, -128, x};
		const float sc[O] = {0.0001f, 0.0003f};
		const int32_t bias[O] = {7, -7};
		vta_conv2d c = {
			.input = &in, .filter = f, .filter_shape = {O, 1, 1, K}, .filter_scales = sc,
			.filter_scale_count = O, .bias = bias, .stride_h = 1, .stride_w = 1,
			.dilation_h = 1, .dilation_w = 1, .padding = VTA_PADDING_VALID,
			.activation = VTA_ACT_NONE,
		};
		for (int mode = 0; mode < 2; mode++) {
			int8_t want[O], got[O];
			vta_tensor_i8 out = {{1, 1, 1, O}, 0.7f, 3, want};
			vta_golden_requant rq;
			vta_golden_stats ws = {0};
			vta_error err = {0};
			assert_int_equal(vta_golden_requant_init(&rq, "c", (vta_arith_mode)mode,
								 in.scale, sc, O, O, &out,
								 VTA_ACT_NONE, &err),
					 VTA_OK);
			for (int32_t oc = 0; oc < O; oc++) {
				int64_t acc = 0;
				for (int32_t i = 0; i < K; i++)
					acc += (int64_t)f[(size_t)oc * K + i] * (x[i] - in.zero_point);
				want[oc] = vta_golden_requant_out(&rq, (size_t)oc, acc, bias[oc]);
			}
			vta_golden_requant_done(&rq, &ws);
			if (K > 65536)
				assert_true(ws.acc_overflows > 0);
			for (int path = VTA_GOLDEN_CONV2D_ACROSS; path >= VTA_GOLDEN_CONV2D_AUTO;
			     path--) {
				vta_tensor_i8 o = out;
				o.data = got;
				vta_golden_stats gs = {0};
				assert_int_equal(vta_golden_conv2d_by(&c, (vta_arith_mode)mode,
								      (vta_golden_conv2d_path)path, &o,
								      &gs, &err),
						 VTA_OK);
				assert_memory_equal(got, want, O);
				assert_int_equal(gs.acc_overflows, ws.acc_overflows);
				assert_int_equal(gs.alu_overflows, ws.alu_overflows);
			}
		}
		free(x);
		free(f);
	}
}

static void test_errors(void **state)
{
	(void)state;
	int8_t x[16] = {0}, o[64];
	vta_tensor_i8 in = {{1, 2, 2, 4}, 1.0f, 0, x};
	vta_conv2d c = unit_layer(&in, ones9, 1, 1, 1, 3);
	vta_tensor_i8 out = {{1, 2, 2, 1}, 1.0f, 0, o};
	vta_error err = {0};
	assert_int_equal(vta_golden_conv2d(&c, VTA_ARITH_TFLITE, &out, NULL, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "filter depth 3 does not divide input channels 4");
	c = unit_layer(&in, ones9, 3, 1, 1, 2); /* 2 groups, 3 outputs */
	assert_int_equal(vta_golden_conv2d(&c, VTA_ARITH_TFLITE, &out, NULL, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "2 groups do not divide 3 output channels");
	c = unit_layer(&in, ones9, 1, 1, 1, 4);
	out.shape[1] = 3;
	assert_int_equal(vta_golden_conv2d(&c, VTA_ARITH_TFLITE, &out, NULL, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "output shape [1, 3, 2, 1] should be [1, 2, 2, 1]");
	out.shape[1] = 2;
	c.stride_h = 0;
	assert_int_equal(vta_golden_conv2d(&c, VTA_ARITH_TFLITE, &out, NULL, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "stride 0");
	c.stride_h = 1;
	c.filter_scale_count = 2;
	assert_int_equal(vta_golden_conv2d(&c, VTA_ARITH_TFLITE, &out, NULL, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "2 scales for 1 output channels");
	c.filter_scale_count = 1;
	c.filter_shape[1] = 0;
	assert_int_equal(vta_golden_conv2d(&c, VTA_ARITH_TFLITE, &out, NULL, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "filter shape [1, 0, 1, 4] is not a valid OHWI shape");
	c.filter_shape[1] = 1;
	c.activation = (vta_activation)9;
	assert_int_equal(vta_golden_conv2d(&c, VTA_ARITH_TFLITE, &out, NULL, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "unsupported fused activation 9");
	c.activation = VTA_ACT_NONE;
	in.zero_point = -200;
	assert_int_equal(vta_golden_conv2d(&c, VTA_ARITH_TFLITE, &out, NULL, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "CONV2D input: zero point -200");
	in.zero_point = 0;
	assert_int_equal(vta_golden_conv2d_by(&c, VTA_ARITH_TFLITE, (vta_golden_conv2d_path)7,
					      &out, NULL, &err),
			 VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "CONV2D: unknown golden path 7");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_3x3_cases),
		cmocka_unit_test(test_dilation),
		cmocka_unit_test(test_padding_placement),
		cmocka_unit_test(test_grouped_bias_activation),
		cmocka_unit_test(test_random_layers),
		cmocka_unit_test(test_lut_filter_and_bias),
		cmocka_unit_test(test_overflow_counts),
		cmocka_unit_test(test_long_patches),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
