/*
 * test_golden_depthwise.c - the golden DEPTHWISE_CONV_2D: hand-computed cases (per-channel
 * filters, depth multiplier 2, zp_in at the borders, stride 2, requantization with bias and
 * an activation), random layers against the grouped CONV2D golden with the filter transposed
 * (a different formulation of the same definition) and against the definition written out
 * element by element (wide layers, edge values, wrapping biases), LUT-fed constants, and the
 * errors.
 */
#include "rt_test.h"

#include <stdlib.h>

#include "golden.h"
#include "lut.h"

static const float one_scale[1] = {1.0f};

static vta_depthwise_conv2d unit_dw(const vta_tensor_i8 *in, const int8_t *filter, int32_t kh,
				    int32_t kw, int32_t o)
{
	return (vta_depthwise_conv2d){
		.input = in, .filter = filter, .filter_shape = {1, kh, kw, o},
		.filter_scales = one_scale, .filter_scale_count = 1,
		.stride_h = 1, .stride_w = 1, .dilation_h = 1, .dilation_w = 1,
		.padding = VTA_PADDING_SAME, .activation = VTA_ACT_NONE,
	};
}

/* Both modes give the literal output (scale-1 tensors: requantization is the identity). */
static void expect_dw(const vta_depthwise_conv2d *d, int32_t ho, int32_t wo, const int8_t *want)
{
	int8_t got[256];
	for (int mode = 0; mode < 2; mode++) {
		vta_tensor_i8 out = {{d->input->shape[0], ho, wo, d->filter_shape[3]}, 1.0f, 0, got};
		vta_error err = {0};
		vta_status st = vta_golden_depthwise(d, (vta_arith_mode)mode, &out, NULL, &err);
		if (st != VTA_OK) {
			print_error("depthwise failed: %s\n", err.detail);
			fail();
		}
		assert_memory_equal(got, want, vta_tensor_i8_count(&out));
	}
}

static void test_per_channel_filters(void **state)
{
	(void)state;
	/* two channels interleaved: channel 0 = 1..9, channel 1 = -1..-9 */
	int8_t x[18];
	for (int i = 0; i < 9; i++) {
		x[2 * i] = (int8_t)(i + 1);
		x[2 * i + 1] = (int8_t)-(i + 1);
	}
	vta_tensor_i8 in = {{1, 3, 3, 2}, 1.0f, 0, x};
	/* [1][3][3][2]: channel 0 all ones, channel 1 twice the centre tap */
	int8_t f[18] = {0};
	for (int t = 0; t < 9; t++)
		f[2 * t] = 1;
	f[2 * 4 + 1] = 2;
	vta_depthwise_conv2d d = unit_dw(&in, f, 3, 3, 2);
	const int8_t same[18] = {12, -2, 21, -4, 16, -6, 27, -8, 45, -10,
				 33, -12, 24, -14, 39, -16, 28, -18};
	expect_dw(&d, 3, 3, same);
	/* zp_in 2: in-image taps see x - 2, out-of-image taps nothing (corners lose 4 x 2) */
	in.zero_point = 2;
	const int8_t zp[18] = {4, -6, 9, -8, 8, -10, 15, -12, 27, -14,
			       21, -16, 16, -18, 27, -20, 20, -22};
	expect_dw(&d, 3, 3, zp);
	/* stride 2: the corners */
	in.zero_point = 0;
	d.stride_h = d.stride_w = 2;
	const int8_t s2[8] = {12, -2, 16, -6, 24, -14, 28, -18};
	expect_dw(&d, 2, 2, s2);
}

static void test_depth_multiplier(void **state)
{
	(void)state;
	/* one input channel, M = 2: output channel 0 = 3x, channel 1 = -x (1x1 filter) */
	int8_t x[4] = {1, 2, 3, 4};
	vta_tensor_i8 in = {{1, 2, 2, 1}, 1.0f, 0, x};
	const int8_t f[2] = {3, -1};
	vta_depthwise_conv2d d = unit_dw(&in, f, 1, 1, 2);
	d.depth_multiplier = 2;
	const int8_t want[8] = {3, -1, 6, -2, 9, -3, 12, -4};
	expect_dw(&d, 2, 2, want);
	/* two input channels, M = 2: output 2c+m reads input c */
	int8_t x2[2] = {5, -7};
	vta_tensor_i8 in2 = {{1, 1, 1, 2}, 1.0f, 0, x2};
	const int8_t f2[4] = {1, 2, 3, -1};
	d = unit_dw(&in2, f2, 1, 1, 4);
	const int8_t want2[4] = {5, 10, -21, 7};
	expect_dw(&d, 1, 1, want2);
}

static void test_requantize(void **state)
{
	(void)state;
	/* acc = 10 * 10 = 100, + bias 20 = 120; scale 0.5 * 1 / 1 = 0.5 -> 60, + zp 3 = 63;
	 * channel 1: acc = -100 - 20 = -120 -> -60 + 3 = -57, clamped by RELU at zp 3 */
	int8_t x[1] = {10};
	vta_tensor_i8 in = {{1, 1, 1, 1}, 0.5f, 0, x};
	const int8_t f[2] = {10, -10};
	const float sw[2] = {1.0f, 1.0f};
	const int32_t bias[2] = {20, -20};
	vta_depthwise_conv2d d = unit_dw(&in, f, 1, 1, 2);
	d.filter_scales = sw;
	d.filter_scale_count = 2;
	d.bias = bias;
	int8_t got[2];
	vta_tensor_i8 out = {{1, 1, 1, 2}, 1.0f, 3, got};
	vta_error err = {0};
	assert_int_equal(vta_golden_depthwise(&d, VTA_ARITH_TFLITE, &out, NULL, &err), VTA_OK);
	assert_int_equal(got[0], 63);
	assert_int_equal(got[1], -57);
	d.activation = VTA_ACT_RELU;
	assert_int_equal(vta_golden_depthwise(&d, VTA_ARITH_TFLITE, &out, NULL, &err), VTA_OK);
	assert_int_equal(got[0], 63);
	assert_int_equal(got[1], 3);
	/* a tie: 121 * 0.5 = 60.5 rounds up (SRDHM half up, then no right shift left) */
	x[0] = 11;
	const int8_t f1[2] = {11, 0};
	d.filter = f1;
	d.activation = VTA_ACT_NONE;
	const int32_t nob[2] = {0, 0};
	d.bias = nob;
	assert_int_equal(vta_golden_depthwise(&d, VTA_ARITH_TFLITE, &out, NULL, &err), VTA_OK);
	assert_int_equal(got[0], 61 + 3);
}

/* A TFLite-generated case (the CMSIS-NN stride2pad1 depthwise test, which its kernel
 * matches bit for bit): 7x7x1, 3x3, stride 2, SAME, input offset 128, output offset -20;
 * the three float scales give its multiplier 2033801520 and shift -8 exactly. */
static void test_tflite_vector(void **state)
{
	(void)state;
	int8_t x[49] = {-91, -30, -57, -76, 32,  -13, 14,   -96, 108, -4,  41,  48,  107,
			-68, -101, 30, 95,  95,  91,  -66,  -80, 114, -49, 7,   -67, -35,
			-1,  -88, -77, -56, -103, 5,  -39,  -118, -24, -32, 67, 11,  38,
			-16, -124, 44, -46, -92, -24, 108, 80,  -29, -3};
	const int8_t w[9] = {-54, 57, -19, -127, 87, 70, 74, -110, 66};
	const int32_t bias[1] = {-9794};
	const float sw[1] = {0.022577062249183655f};
	const int8_t ref[16] = {26, -11, 33, -25, -96, -52, -78, -86,
				33, -2,  -88, -113, -14, 0, -84, -27};
	vta_tensor_i8 in = {{1, 7, 7, 1}, 0.02308656834065914f, -128, x};
	vta_depthwise_conv2d d = unit_dw(&in, w, 3, 3, 1);
	d.filter_scales = sw;
	d.bias = bias;
	d.stride_h = d.stride_w = 2;
	int8_t got[16];
	vta_tensor_i8 out = {{1, 4, 4, 1}, 0.14089256525039673f, -20, got};
	vta_error err = {0};
	vta_qmul m;
	assert_int_equal(vta_quant_multiplier((double)in.scale * (double)sw[0] / (double)out.scale,
					      &m, &err),
			 VTA_OK);
	assert_int_equal(m.multiplier, 2033801520);
	assert_int_equal(m.shift, -8);
	assert_int_equal(vta_golden_depthwise(&d, VTA_ARITH_TFLITE, &out, NULL, &err), VTA_OK);
	assert_memory_equal(got, ref, 16);
}

/* Random layers: the grouped CONV2D golden with the filter transposed to OHWI. */
static void test_against_grouped_conv(void **state)
{
	(void)state;
	rt_rng r;
	rt_rng_seed(&r, 42);
	for (int iter = 0; iter < 40; iter++) {
		const int32_t n = 1 + (int32_t)rt_rng_below(&r, 2), h = 1 + (int32_t)rt_rng_below(&r, 9);
		const int32_t w = 1 + (int32_t)rt_rng_below(&r, 9), c = 1 + (int32_t)rt_rng_below(&r, 7);
		const int32_t m = 1 + (int32_t)rt_rng_below(&r, 3), o = c * m;
		const int32_t kh = 1 + (int32_t)rt_rng_below(&r, 3), kw = 1 + (int32_t)rt_rng_below(&r, 3);
		size_t ni = (size_t)n * h * w * c, nf = (size_t)kh * kw * o;
		int8_t *x = malloc(ni), *f = malloc(nf), *ohwi = malloc(nf);
		float *sw = malloc((size_t)o * sizeof(float));
		int32_t *bias = malloc((size_t)o * sizeof(int32_t));
		for (size_t i = 0; i < ni; i++)
			x[i] = (int8_t)rt_rng_range(&r, -128, 127);
		for (size_t i = 0; i < nf; i++)
			f[i] = (int8_t)rt_rng_range(&r, -127, 127);
		for (int32_t i = 0; i < o; i++) {
			sw[i] = 0.001f * (float)(1 + rt_rng_below(&r, 20));
			bias[i] = rt_rng_range(&r, -5000, 5000);
		}
		for (int32_t oc = 0; oc < o; oc++)
			for (int32_t t = 0; t < kh * kw; t++)
				ohwi[oc * kh * kw + t] = f[t * o + oc];
		vta_tensor_i8 in = {{n, h, w, c}, 0.05f, rt_rng_range(&r, -128, 127), x};
		vta_depthwise_conv2d d = {&in, f, {1, kh, kw, o}, m, sw, (size_t)o, bias,
					  1 + (int32_t)rt_rng_below(&r, 2),
					  1 + (int32_t)rt_rng_below(&r, 2),
					  1 + (int32_t)rt_rng_below(&r, 2),
					  1 + (int32_t)rt_rng_below(&r, 2),
					  rt_rng_below(&r, 2) ? VTA_PADDING_SAME : VTA_PADDING_VALID,
					  (vta_activation)rt_rng_below(&r, 4)};
		vta_conv2d cv = {&in, ohwi, {o, kh, kw, 1}, sw, (size_t)o, bias, d.stride_h,
				 d.stride_w, d.dilation_h, d.dilation_w, d.padding, d.activation};
		int32_t os[4], oc4[4];
		vta_error err = {0};
		vta_status st = vta_golden_depthwise_shape(&d, os, &err);
		if (st != VTA_OK) { /* VALID with a kernel larger than the image */
			rt_assert_error(&err, VTA_E_USAGE, "leaves no output");
		} else {
			assert_int_equal(vta_golden_conv2d_shape(&cv, oc4, &err), VTA_OK);
			assert_memory_equal(os, oc4, sizeof(os));
			size_t no = (size_t)os[0] * os[1] * os[2] * os[3];
			int8_t *a = malloc(no), *b = malloc(no);
			for (int mode = 0; mode < 2; mode++) {
				vta_tensor_i8 oa = {{os[0], os[1], os[2], os[3]}, 0.07f, -3, a};
				vta_tensor_i8 ob = oa;
				ob.data = b;
				vta_golden_stats sa = {0}, sb = {0};
				assert_int_equal(vta_golden_depthwise(&d, (vta_arith_mode)mode, &oa,
								      &sa, &err),
						 VTA_OK);
				assert_int_equal(vta_golden_conv2d(&cv, (vta_arith_mode)mode, &ob,
								   &sb, &err),
						 VTA_OK);
				assert_memory_equal(a, b, no);
				assert_int_equal(sa.alu_overflows, sb.alu_overflows);
			}
			free(a);
			free(b);
		}
		free(x);
		free(f);
		free(ohwi);
		free(sw);
		free(bias);
	}
}

/* The definition written out element by element: every output channel's sum of (x - zp_in) w
 * over its in-image taps in 64 bits, requantized one output at a time
 * (vta_golden_requant_out). */
static void scalar_dw(const vta_depthwise_conv2d *d, vta_arith_mode mode, vta_tensor_i8 *out,
		      vta_golden_stats *stats)
{
	const vta_tensor_i8 *in = d->input;
	const int32_t H = in->shape[1], W = in->shape[2], C = in->shape[3];
	const int32_t KH = d->filter_shape[1], KW = d->filter_shape[2], O = d->filter_shape[3];
	int32_t ph, pw;
	vta_error err = {0};
	assert_int_equal(vta_golden_conv2d_padding(H, KH, d->stride_h, d->dilation_h, d->padding,
						   NULL, &ph, NULL, &err), VTA_OK);
	assert_int_equal(vta_golden_conv2d_padding(W, KW, d->stride_w, d->dilation_w, d->padding,
						   NULL, &pw, NULL, &err), VTA_OK);
	vta_golden_requant rq;
	assert_int_equal(vta_golden_requant_init(&rq, "dw", mode, in->scale, d->filter_scales,
						 d->filter_scale_count, (size_t)O, out,
						 d->activation, &err), VTA_OK);
	int8_t *o = out->data;
	for (int32_t n = 0; n < out->shape[0]; n++)
		for (int32_t oy = 0; oy < out->shape[1]; oy++)
			for (int32_t ox = 0; ox < out->shape[2]; ox++)
				for (int32_t oc = 0; oc < O; oc++) {
					int64_t acc = 0;
					for (int32_t fy = 0; fy < KH; fy++)
						for (int32_t fx = 0; fx < KW; fx++) {
							int64_t iy = (int64_t)oy * d->stride_h - ph +
								     (int64_t)fy * d->dilation_h;
							int64_t ix = (int64_t)ox * d->stride_w - pw +
								     (int64_t)fx * d->dilation_w;
							if (iy < 0 || iy >= H || ix < 0 || ix >= W)
								continue;
							int32_t x = in->data[((n * H + iy) * W + ix) * C +
									     oc / (O / C)];
							int32_t w = d->filter[(fy * KW + fx) * O + oc];
							acc += (int64_t)(x - in->zero_point) * w;
						}
					*o++ = vta_golden_requant_out(&rq, (size_t)oc, acc,
								      d->bias ? d->bias[oc] : 0);
				}
	vta_golden_requant_done(&rq, stats);
}

/* A random layer of n x h x w x c inputs, depth multiplier m and a kh x kw kernel, strides
 * and dilations from 1 to `steps`; with `edge`, inputs, weights and the zero point at -128
 * and 127 and biases near the int32 limits (so the requantization's ALU steps wrap), and
 * per-channel or per-layer scales: the kernel gives the definition's outputs and overflow
 * counts in both modes. */
static void check_random_layer(rt_rng *r, bool edge, int32_t n, int32_t h, int32_t w, int32_t c,
			       int32_t m, int32_t kh, int32_t kw, uint32_t steps)
{
	const int32_t o = c * m;
	const size_t ni = (size_t)n * h * w * c, nf = (size_t)kh * kw * o;
	int8_t *x = malloc(ni), *f = malloc(nf);
	float *sw = malloc((size_t)o * sizeof(float));
	int32_t *bias = malloc((size_t)o * sizeof(int32_t));
	for (size_t i = 0; i < ni; i++)
		x[i] = edge ? (int8_t)(rt_rng_below(r, 2) ? 127 : -128)
			    : (int8_t)rt_rng_range(r, -128, 127);
	for (size_t i = 0; i < nf; i++)
		f[i] = edge ? (int8_t)(rt_rng_below(r, 2) ? 127 : -128)
			    : (int8_t)rt_rng_range(r, -128, 127);
	for (int32_t i = 0; i < o; i++) {
		sw[i] = 0.0005f * (float)(1 + rt_rng_below(r, 40));
		bias[i] = edge && rt_rng_below(r, 2)
				  ? (rt_rng_below(r, 2) ? INT32_MAX - (int32_t)rt_rng_below(r, 9)
							: INT32_MIN + (int32_t)rt_rng_below(r, 9))
				  : rt_rng_range(r, -20000, 20000);
	}
	const int32_t zp = edge ? (rt_rng_below(r, 2) ? 127 : -128) : rt_rng_range(r, -128, 127);
	vta_tensor_i8 in = {{n, h, w, c}, 0.02f + 0.01f * (float)rt_rng_below(r, 5), zp, x};
	/* the multiplier given, or 0: taken from the shapes */
	vta_depthwise_conv2d d = {&in, f, {1, kh, kw, o}, rt_rng_below(r, 4) ? m : 0, sw,
				  rt_rng_below(r, 4) ? (size_t)o : 1, bias,
				  1 + (int32_t)rt_rng_below(r, steps),
				  1 + (int32_t)rt_rng_below(r, steps),
				  1 + (int32_t)rt_rng_below(r, steps),
				  1 + (int32_t)rt_rng_below(r, steps),
				  rt_rng_below(r, 2) ? VTA_PADDING_SAME : VTA_PADDING_VALID,
				  (vta_activation)rt_rng_below(r, 4)};
	int32_t os[4];
	vta_error err = {0};
	if (vta_golden_depthwise_shape(&d, os, &err) == VTA_OK) {
		const size_t no = (size_t)os[0] * os[1] * os[2] * os[3];
		int8_t *a = malloc(no), *b = malloc(no);
		for (int mode = 0; mode < 2; mode++) {
			vta_tensor_i8 oa = {{os[0], os[1], os[2], os[3]}, 0.05f,
					    rt_rng_range(r, -128, 127), a};
			vta_tensor_i8 ob = oa;
			ob.data = b;
			vta_golden_stats sa = {0}, sb = {0};
			assert_int_equal(vta_golden_depthwise(&d, (vta_arith_mode)mode, &oa, &sa,
							      &err),
					 VTA_OK);
			scalar_dw(&d, (vta_arith_mode)mode, &ob, &sb);
			assert_memory_equal(a, b, no);
			assert_int_equal(sa.alu_overflows, sb.alu_overflows);
			assert_int_equal(sa.acc_overflows, sb.acc_overflows);
		}
		free(a);
		free(b);
	}
	free(x);
	free(f);
	free(sw);
	free(bias);
}

/* Random layers, wide enough for every vector width and its tails, with edge values and
 * depth multipliers (check_random_layer). */
static void test_against_scalar_definition(void **state)
{
	(void)state;
	rt_rng r;
	rt_rng_seed(&r, 2024);
	for (int iter = 0; iter < 60; iter++) {
		const int32_t n = 1 + (int32_t)rt_rng_below(&r, 2), h = 1 + (int32_t)rt_rng_below(&r, 7);
		const int32_t w = 1 + (int32_t)rt_rng_below(&r, 7);
		const int32_t c = 1 + (int32_t)rt_rng_below(&r, 100);
		const int32_t m = iter % 4 == 3 ? 1 + (int32_t)rt_rng_below(&r, 3) : 1;
		const int32_t kh = 1 + (int32_t)rt_rng_below(&r, 5), kw = 1 + (int32_t)rt_rng_below(&r, 5);
		check_random_layer(&r, iter % 3 == 2, n, h, w, c, m, kh, kw, 2);
	}
}

/* One input channel (micro_speech's first layer: 8 channels of a 10 x 8 kernel), computed as
 * a CONV2D of that channel past 16 taps: depth multipliers 1 to 40, kernels of 1 to 80 taps,
 * some wider and taller than their images, strides and dilations up to 3. */
static void test_one_input_channel(void **state)
{
	(void)state;
	rt_rng r;
	rt_rng_seed(&r, 77);
	for (int iter = 0; iter < 80; iter++) {
		const int32_t n = 1 + (int32_t)rt_rng_below(&r, 2), h = 1 + (int32_t)rt_rng_below(&r, 12);
		const int32_t w = 1 + (int32_t)rt_rng_below(&r, 12), m = 1 + (int32_t)rt_rng_below(&r, 40);
		const int32_t kh = 1 + (int32_t)rt_rng_below(&r, 10), kw = 1 + (int32_t)rt_rng_below(&r, 8);
		check_random_layer(&r, iter % 4 == 3, n, h, w, 1, m, kh, kw, 3);
	}
}

/* Kernels long enough for the sums in 64 bits: one row of 33,000 taps (past the taps whose
 * sums stay in int32, one chunk of the kernel) and of 70,000 (two chunks; at the extremes
 * the int32 accumulator wraps and the wrap is counted), each against the definition. */
static void test_long_kernels(void **state)
{
	(void)state;
	static const int32_t kws[] = {33000, 70000};
	for (size_t k = 0; k < sizeof(kws) / sizeof(kws[0]); k++) {
		const int32_t kw = kws[k], w = kw + 2, c = 2;
		int8_t *x = malloc((size_t)w * c), *f = malloc((size_t)kw * c);
		for (int32_t i = 0; i < w * c; i++)
			x[i] = i % 97 == 0 ? -128 : 127;
		for (int32_t i = 0; i < kw * c; i++)
			f[i] = i % 89 == 0 ? 3 : 127;
		float sw[2] = {0.0001f, 0.0002f};
		int32_t bias[2] = {5, -5};
		vta_tensor_i8 in = {{1, 1, w, c}, 0.02f, -128, x};
		vta_depthwise_conv2d d = {&in, f, {1, 1, kw, c}, 1, sw, 2, bias, 1, 1, 1, 1,
					  VTA_PADDING_VALID, VTA_ACT_NONE};
		int32_t os[4];
		vta_error err = {0};
		assert_int_equal(vta_golden_depthwise_shape(&d, os, &err), VTA_OK);
		assert_int_equal(os[2], 3);
		int8_t a[6], b[6];
		for (int mode = 0; mode < 2; mode++) {
			vta_tensor_i8 oa = {{1, 1, 3, c}, 0.5f, 3, a}, ob = oa;
			ob.data = b;
			vta_golden_stats sa = {0}, sb = {0};
			assert_int_equal(vta_golden_depthwise(&d, (vta_arith_mode)mode, &oa, &sa, &err),
					 VTA_OK);
			scalar_dw(&d, (vta_arith_mode)mode, &ob, &sb);
			assert_memory_equal(a, b, sizeof(a));
			assert_int_equal(sa.alu_overflows, sb.alu_overflows);
			assert_int_equal(sa.acc_overflows, sb.acc_overflows);
			if (kw > 65536)
				assert_true(sa.acc_overflows > 0);
		}
		free(x);
		free(f);
	}
}

static void test_lut_and_errors(void **state)
{
	(void)state;
	int8_t x[4] = {1, 2, 3, 4};
	vta_tensor_i8 in = {{1, 2, 2, 1}, 1.0f, 0, x};
	const int8_t f[2] = {3, -1};
	vta_depthwise_conv2d d = unit_dw(&in, f, 1, 1, 2);
	/* the filter from a LUT tensor, one table per channel along the last axis */
	vta_lut_buffer lb;
	vta_error err = {0};
	assert_int_equal(vta_lut_compress(VTA_LUT_INT8, f, 2, 2, true, 1, VTA_LUT_STRIDE_POW2, &lb,
					  &err),
			 VTA_OK);
	vta_depthwise_conv2d plain;
	void *owned[2];
	d.filter = NULL;
	assert_int_equal(vta_golden_depthwise_decode(&d, &lb.tensor, NULL, &plain, owned, &err),
			 VTA_OK);
	const int8_t want[8] = {3, -1, 6, -2, 9, -3, 12, -4};
	expect_dw(&plain, 2, 2, want);
	free(owned[0]);
	free(owned[1]);
	vta_lut_buffer_free(&lb);
	d.filter = f;

	int8_t got[8];
	vta_tensor_i8 out = {{1, 2, 2, 2}, 1.0f, 0, got};
	d.filter_shape[0] = 2;
	assert_int_equal(vta_golden_depthwise(&d, VTA_ARITH_TFLITE, &out, NULL, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "filter shape [2, 1, 1, 2] is not [1, KH, KW, O]");
	d.filter_shape[0] = 1;
	in.shape[3] = 3;
	assert_int_equal(vta_golden_depthwise(&d, VTA_ARITH_TFLITE, &out, NULL, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "2 output channels are not a multiple of the input's 3");
	in.shape[3] = 1;
	d.depth_multiplier = 3;
	assert_int_equal(vta_golden_depthwise(&d, VTA_ARITH_TFLITE, &out, NULL, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "depth multiplier 3, but 1 input channels make 2");
	d.depth_multiplier = 0;
	out.shape[2] = 1;
	assert_int_equal(vta_golden_depthwise(&d, VTA_ARITH_TFLITE, &out, NULL, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "output shape [1, 2, 1, 2] should be [1, 2, 2, 2]");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_per_channel_filters),
		cmocka_unit_test(test_depth_multiplier),
		cmocka_unit_test(test_requantize),
		cmocka_unit_test(test_tflite_vector),
		cmocka_unit_test(test_against_grouped_conv),
		cmocka_unit_test(test_against_scalar_definition),
		cmocka_unit_test(test_one_input_channel),
		cmocka_unit_test(test_long_kernels),
		cmocka_unit_test(test_lut_and_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
