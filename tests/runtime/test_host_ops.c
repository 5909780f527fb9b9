/*
 * test_host_ops.c - the host kernels against hand-computed cases (rounding ties, the window
 * clamped at the borders, MEAN's double rounding, saturation, negative values,
 * zero points) and vectors TFLite's reference kernels produced (the CMSIS-NN unit tests'
 * AVERAGE_POOL_2D, MAX_POOL_2D and SOFTMAX data, which the CMSIS-NN kernels match bit for
 * bit); shapes and every diagnostic.
 */
#include "rt_test.h"

#include <math.h>
#include <stdlib.h>

#include "host_ops.h"
#include "op_support.h"

static vta_host_tensor t4(int32_t n, int32_t h, int32_t w, int32_t c, float scale, int32_t zp,
			  int8_t *data)
{
	return (vta_host_tensor){4, {n, h, w, c}, scale, zp, data};
}

static void ok(vta_status st, const vta_error *err)
{
	if (st != VTA_OK) {
		print_error("status %d: %s\n", (int)st, err->detail);
		fail();
	}
}

/* ---- pooling ---- */

/* TFLite-generated (CMSIS-NN avgpooling_2 / maxpooling_2): 1x1x12x5, 1x3 window, stride
 * (2, 1), SAME. */
static const int8_t pool_in_avg[60] = {
	-82, -104, 10,  -28, -52, -51, -66, 52,   124, -74, -21, 4,   37,   -7,  -33,
	102, 110,  24,  52,  121, 13,  -55, -79,  -92, -35, -103, 86, 95,   46,  32,
	-24, -123, 120, 29,  -77, -97, -69, -68,  58,  38,  3,   3,   79,   -47, 112,
	-52, -113, -46, 107, 68,  83,  -70, 91,   14,  113, 74,  73,  -103, -98, 25};
static const int8_t pool_ref_avg[60] = {
	-67, -85, 31,  48,  -63, -51, -55, 33,  30, -53, 10,  16,  38,  56, 5,
	31,  20,  -6,  -16, 18,  4,   47,  13,  2,  39,  -38, -31, 45,  -6, -27,
	-75, -35, 49,  44,  -2,  -39, -63, 44,  13, 24,  -49, -60, -12, 39, 73,
	11,  -60, 41,  25,  98,  35,  -37, -19, 8,  69,  79,  2,   -6,  -42, 69};
static const int8_t pool_in_max[60] = {
	75,  -52,  -42,  -30, 56,  64,   106, -36, 120, -3,  34,   -105, 69,   75,  -39,
	15,  93,   -71,  39,  34,  -11,  65,  22,  59,  106, 105,  45,   -116, -75, 123,
	-65, 75,   -61,  13,  -25, -123, 59,  110, -65, 86,  -108, -107, -17,  38,  27,
	-1,  -115, -123, 75,  -75, 68,   52,  12,  -35, 116, -68,  22,   15,   76,  -81};
static const int8_t pool_ref_max[60] = {
	75,  106, -36, 120, 56,  75,  106, 69,  120, 56,  64, 106, 69,  120, 34,
	34,  93,  69,  75,  106, 105, 93,  22,  59,  123, 105, 75, 22,  59,  123,
	105, 75,  110, 13,  123, -65, 75,  110, 38,  86,  -1, 59,  110, 75,  86,
	68,  52,  12,  75,  116, 68,  52,  15,  76,  116, 68, 52,  15,  76,  116};

static void test_pool_tflite_vectors(void **state)
{
	(void)state;
	int8_t out[60];
	vta_error err = {0};
	const vta_pool_params p = {1, 3, 2, 1, VTA_PADDING_SAME, VTA_ACT_NONE};
	vta_host_tensor in = t4(1, 1, 12, 5, 0.1f, 3, (int8_t *)pool_in_avg);
	vta_host_tensor o = t4(1, 1, 12, 5, 0.1f, 3, out);
	ok(vta_host_avg_pool(&in, &p, &o, &err), &err);
	assert_memory_equal(out, pool_ref_avg, 60);
	in.data = (int8_t *)pool_in_max;
	ok(vta_host_max_pool(&in, &p, &o, &err), &err);
	assert_memory_equal(out, pool_ref_max, 60);
}

static void test_pool_hand(void **state)
{
	(void)state;
	int8_t x[4] = {1, 2, -1, -2}, out[4];
	vta_error err = {0};
	vta_pool_params p = {1, 2, 1, 1, VTA_PADDING_VALID, VTA_ACT_NONE};
	vta_host_tensor in = t4(1, 1, 4, 1, 1.0f, 0, x), o = t4(1, 1, 3, 1, 1.0f, 0, out);
	/* windows {1,2} 1.5, {2,-1} 0.5, {-1,-2} -1.5: ties away from zero */
	ok(vta_host_avg_pool(&in, &p, &o, &err), &err);
	const int8_t avg[3] = {2, 1, -2};
	assert_memory_equal(out, avg, 3);
	ok(vta_host_max_pool(&in, &p, &o, &err), &err);
	const int8_t mx[3] = {2, 2, -1};
	assert_memory_equal(out, mx, 3);
	/* SAME: the last window holds only {-2} (padding never counts) */
	p.padding = VTA_PADDING_SAME;
	o.dims[2] = 4;
	ok(vta_host_avg_pool(&in, &p, &o, &err), &err);
	const int8_t same[4] = {2, 1, -2, -2};
	assert_memory_equal(out, same, 4);
	/* RELU on zero point 0 clamps at 0; RELU6 at scale 0.5 tops at 12 */
	p.activation = VTA_ACT_RELU;
	ok(vta_host_avg_pool(&in, &p, &o, &err), &err);
	const int8_t relu[4] = {2, 1, 0, 0};
	assert_memory_equal(out, relu, 4);
	int8_t big[4] = {100, 20, 30, 127};
	in.data = big;
	in.scale = o.scale = 0.5f;
	p.activation = VTA_ACT_RELU6;
	ok(vta_host_max_pool(&in, &p, &o, &err), &err);
	const int8_t r6[4] = {12, 12, 12, 12};
	assert_memory_equal(out, r6, 4);
	/* errors */
	o.zero_point = 1;
	assert_int_equal(vta_host_max_pool(&in, &p, &o, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "MAX_POOL_2D: input (scale 0.5, zero point 0) and "
					   "output (scale 0.5, zero point 1) must share");
	o.zero_point = 0;
	o.dims[2] = 3;
	assert_int_equal(vta_host_avg_pool(&in, &p, &o, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "AVERAGE_POOL_2D output shape [1, 1, 3, 1] should be "
					   "[1, 1, 4, 1]");
	vta_host_tensor flat = {2, {4, 1}, 1.0f, 0, x};
	assert_int_equal(vta_host_avg_pool(&flat, &p, &o, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "POOL_2D: the input has rank 2, not 4");
	p.filter_w = 5;
	p.padding = VTA_PADDING_VALID;
	assert_int_equal(vta_host_avg_pool(&in, &p, &o, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "leaves no output");
}

/* ---- softmax ---- */

static void test_softmax(void **state)
{
	(void)state;
	vta_error err = {0};
	/* TFLite-generated (CMSIS-NN softmax): input scale 1/255, beta 1 give the multiplier
	 * 1077952640, left shift 19 and diff_min -3968 of that test */
	int8_t x[10] = {101, 49, 6, -34, -75, -79, -38, 120, -55, 115}, y[10];
	const int8_t ref[10] = {-57, -70, -79, -86, -92, -94, -88, -54, -91, -56};
	vta_host_tensor in = {2, {2, 5}, 1.0f / 255, 0, x};
	vta_host_tensor out = {2, {2, 5}, 1.0f / 256, -128, y};
	ok(vta_host_softmax(&in, 1.0f, &out, &err), &err);
	assert_memory_equal(y, ref, 10);
	/* one value: probability 1 saturates at 127; two equal: 0.5 -> 0 */
	vta_host_tensor one = {1, {1}, 0.1f, 0, x}, o1 = {1, {1}, 1.0f / 256, -128, y};
	ok(vta_host_softmax(&one, 1.0f, &o1, &err), &err);
	assert_int_equal(y[0], 127);
	int8_t eq[2] = {-7, -7};
	vta_host_tensor two = {1, {2}, 0.1f, 0, eq}, o2 = {1, {2}, 1.0f / 256, -128, y};
	ok(vta_host_softmax(&two, 1.0f, &o2, &err), &err);
	assert_int_equal(y[0], 0);
	assert_int_equal(y[1], 0);
	/* scale 1: multiplier 2^30, shift 27, diff_min -15; a difference of -16 is skipped
	 * (-128) and the maximum takes everything */
	int8_t far[2] = {0, -16};
	two.data = far;
	two.scale = 1.0f;
	ok(vta_host_softmax(&two, 1.0f, &o2, &err), &err);
	assert_int_equal(y[0], 127);
	assert_int_equal(y[1], -128);
	/* a row of 5 against the float softmax: within one step (TFLM's test tolerance) */
	int8_t r[5] = {10, 20, 30, 40, 50};
	vta_host_tensor in5 = {1, {5}, 0.1f, 0, r}, o5 = {1, {5}, 1.0f / 256, -128, y};
	ok(vta_host_softmax(&in5, 1.0f, &o5, &err), &err);
	double s = 0;
	for (int i = 0; i < 5; i++)
		s += exp(r[i] * 0.1);
	for (int i = 0; i < 5; i++) {
		double want = exp(r[i] * 0.1) / s * 256 - 128;
		assert_true(fabs(y[i] - want) <= 1.0);
	}
	/* 511 equal values are the most TFLite's shift allows; 512 are refused */
	int8_t *zeros = calloc(512, 1), *res = malloc(512);
	vta_host_tensor iz = {1, {511}, 0.1f, 0, zeros}, oz = {1, {511}, 1.0f / 256, -128, res};
	ok(vta_host_softmax(&iz, 1.0f, &oz, &err), &err);
	assert_int_equal(res[0], -127); /* 256 / 511 = 0.501 rounds to 1, - 128 */
	iz.dims[0] = oz.dims[0] = 512;
	assert_int_equal(vta_host_softmax(&iz, 1.0f, &oz, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "row 0 of 512 values sums its exponentials beyond");
	free(zeros);
	free(res);
	/* errors */
	o5.zero_point = 0;
	assert_int_equal(vta_host_softmax(&in5, 1.0f, &o5, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "must have scale 1/256 and zero point -128");
	o5.zero_point = -128;
	in5.scale = 1e-9f;
	assert_int_equal(vta_host_softmax(&in5, 1.0f, &o5, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "too small for TFLite's int8 kernel");
	in5.scale = 0.1f;
	o5.dims[0] = 4;
	assert_int_equal(vta_host_softmax(&in5, 1.0f, &o5, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "SOFTMAX output shape [4] should be [5]");
}

/* ---- data movement ---- */

static void test_reshape_pad_transpose(void **state)
{
	(void)state;
	vta_error err = {0};
	int8_t x[6] = {1, 2, 3, 4, 5, 6}, y[32];
	vta_host_tensor in = {2, {2, 3}, 0.5f, -3, x};
	vta_host_tensor r = {3, {3, 1, 2}, 0.5f, -3, y};
	ok(vta_host_reshape(&in, &r, &err), &err);
	assert_memory_equal(y, x, 6);
	r.dims[0] = 2;
	assert_int_equal(vta_host_reshape(&in, &r, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "RESHAPE: the output holds 4 elements, the input 6");

	/* PAD [2, 3] by (1, 0) and (0, 2): the new elements hold the output's zero point */
	const int32_t pads[2][2] = {{1, 0}, {0, 2}};
	vta_host_tensor p = {0};
	ok(vta_host_pad_shape(&in, pads, &p, &err), &err);
	assert_int_equal(p.rank, 2);
	assert_int_equal(p.dims[0], 3);
	assert_int_equal(p.dims[1], 5);
	p.scale = 0.5f;
	p.zero_point = -3;
	p.data = y;
	ok(vta_host_pad(&in, pads, NULL, &p, &err), &err);
	const int8_t padded[15] = {-3, -3, -3, -3, -3, 1, 2, 3, -3, -3, 4, 5, 6, -3, -3};
	assert_memory_equal(y, padded, 15);
	/* PADV2: an explicit value */
	const int8_t v = 77;
	ok(vta_host_pad(&in, pads, &v, &p, &err), &err);
	assert_int_equal(y[0], 77);
	assert_int_equal(y[14], 77);
	assert_int_equal(y[5], 1);
	/* rank 4, padding H and W by one on each side (as a SAME 3x3 conv would) */
	int8_t img[4] = {1, 2, 3, 4};
	vta_host_tensor i4 = t4(1, 2, 2, 1, 1.0f, 9, img);
	const int32_t p4[4][2] = {{0, 0}, {1, 1}, {1, 1}, {0, 0}};
	vta_host_tensor o4 = t4(1, 4, 4, 1, 1.0f, 9, y);
	ok(vta_host_pad(&i4, p4, NULL, &o4, &err), &err);
	const int8_t ring[16] = {9, 9, 9, 9, 9, 1, 2, 9, 9, 3, 4, 9, 9, 9, 9, 9};
	assert_memory_equal(y, ring, 16);
	const int32_t neg[2][2] = {{0, -1}, {0, 0}};
	assert_int_equal(vta_host_pad_shape(&in, neg, &p, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "PAD: paddings (0, -1) of dimension 0 must be >= 0");

	/* TRANSPOSE [2, 3] -> [3, 2]; a 3-D permutation */
	const int32_t perm2[2] = {1, 0};
	vta_host_tensor t = {0};
	ok(vta_host_transpose_shape(&in, perm2, &t, &err), &err);
	t.scale = 0.5f;
	t.zero_point = -3;
	t.data = y;
	ok(vta_host_transpose(&in, perm2, &t, &err), &err);
	const int8_t tr[6] = {1, 4, 2, 5, 3, 6};
	assert_memory_equal(y, tr, 6);
	int8_t c3[24];
	for (int i = 0; i < 24; i++)
		c3[i] = (int8_t)i;
	vta_host_tensor in3 = {3, {2, 3, 4}, 1.0f, 0, c3};
	const int32_t perm3[3] = {2, 0, 1};
	vta_host_tensor o3 = {3, {4, 2, 3}, 1.0f, 0, y};
	ok(vta_host_transpose(&in3, perm3, &o3, &err), &err);
	/* out[k][i][j] = in[i][j][k] = 12 i + 4 j + k */
	for (int k = 0; k < 4; k++)
		for (int i = 0; i < 2; i++)
			for (int j = 0; j < 3; j++)
				assert_int_equal(y[(k * 2 + i) * 3 + j], 12 * i + 4 * j + k);
	const int32_t bad[3] = {2, 0, 2};
	assert_int_equal(vta_host_transpose(&in3, bad, &o3, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "perm[2] = 2 does not make a permutation of 0..2");
}

static void test_concat(void **state)
{
	(void)state;
	vta_error err = {0};
	int8_t a[4] = {1, 2, 3, 4}, b[2] = {5, 6}, y[8];
	vta_host_tensor ta = {2, {2, 2}, 0.5f, 0, a}, tb = {2, {2, 1}, 0.5f, 0, b};
	const vta_host_tensor *ins[2] = {&ta, &tb};
	vta_host_tensor o = {0};
	ok(vta_host_concat_shape(ins, 2, -1, &o, &err), &err);
	assert_int_equal(o.dims[0], 2);
	assert_int_equal(o.dims[1], 3);
	o.data = y;
	ok(vta_host_concat(ins, 2, 1, &o, &err), &err);
	const int8_t cat1[6] = {1, 2, 5, 3, 4, 6};
	assert_memory_equal(y, cat1, 6);
	/* axis 0 */
	tb.dims[0] = 1;
	tb.dims[1] = 2;
	vta_host_tensor o0 = {2, {3, 2}, 0.5f, 0, y};
	ok(vta_host_concat(ins, 2, 0, &o0, &err), &err);
	const int8_t cat0[6] = {1, 2, 3, 4, 5, 6};
	assert_memory_equal(y, cat0, 6);
	/* b at scale 1, zero point 2 into an output at scale 0.5, zero point -1: TFLM copies
	 * its bytes unchanged (no requantization) */
	int8_t b2[2] = {5, 100};
	tb.data = b2;
	tb.scale = 1.0f;
	tb.zero_point = 2;
	o0.zero_point = -1;
	ta.zero_point = -1;
	ok(vta_host_concat(ins, 2, 0, &o0, &err), &err);
	const int8_t req[6] = {1, 2, 3, 4, 5, 100};
	assert_memory_equal(y, req, 6);
	tb.dims[1] = 3;
	assert_int_equal(vta_host_concat(ins, 2, 0, &o0, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "input 1 differs from input 0 outside axis 0");
	assert_int_equal(vta_host_concat(ins, 2, 2, &o0, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "axis 2 is outside rank 2");
}

/* ---- arithmetic ---- */

static void test_quantize(void **state)
{
	(void)state;
	vta_error err = {0};
	/* int8 -> int8 at half the scale: MBQM(q, 0.5) rounds half up (SRDHM), then zp_out */
	int8_t x[6] = {3, -3, 1, -1, 127, -128}, y[6];
	vta_host_tensor in = {1, {6}, 0.5f, 0, x}, out = {1, {6}, 1.0f, 4, y};
	ok(vta_host_requantize(&in, &out, &err), &err);
	const int8_t half[6] = {2 + 4, -1 + 4, 1 + 4, 0 + 4, 64 + 4, -64 + 4};
	assert_memory_equal(y, half, 6);
	/* saturation: 100 times larger */
	out.scale = 0.005f;
	out.zero_point = 0;
	ok(vta_host_requantize(&in, &out, &err), &err);
	const int8_t sat[6] = {127, -128, 100, -100, 127, -128};
	assert_memory_equal(y, sat, 6);
	/* the same scale and zero points: the identity */
	out.scale = 0.5f;
	ok(vta_host_requantize(&in, &out, &err), &err);
	assert_memory_equal(y, x, 6);
	/* uint8 image data, zero point 128 at the same scale: q - 128 */
	const uint8_t u[3] = {0, 128, 255};
	vta_host_tensor o3 = {1, {3}, 0.5f, 0, y};
	ok(vta_host_requantize_u8(u, 3, 0.5f, 128, &o3, &err), &err);
	assert_int_equal(y[0], -128);
	assert_int_equal(y[1], 0);
	assert_int_equal(y[2], 127);
	/* float: round half away from zero of x / scale, then clamp */
	const float f[6] = {0.5f, -0.5f, 2.5f, -2.5f, 1000.0f, -0.24f};
	vta_host_tensor of = {1, {6}, 1.0f, 0, y};
	ok(vta_host_quantize_f32(f, 6, &of, &err), &err);
	const int8_t fq[6] = {1, -1, 3, -3, 127, 0};
	assert_memory_equal(y, fq, 6);
	of.zero_point = -10;
	of.scale = 0.25f;
	ok(vta_host_quantize_f32(f, 6, &of, &err), &err);
	const int8_t fq2[6] = {-8, -12, 0, -20, 127, -11};
	assert_memory_equal(y, fq2, 6);
	const float nan[1] = {NAN};
	of.dims[0] = 1;
	assert_int_equal(vta_host_quantize_f32(nan, 1, &of, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "QUANTIZE: input 0 is NaN");
	assert_int_equal(vta_host_requantize(&in, &of, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "QUANTIZE: the output holds 1 elements, the input 6");
	assert_int_equal(vta_host_requantize_u8(u, 1, 0.5f, 300, &of, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "uint8 input zero point 300 is outside 0..255");
}

/* RELU requantizes and clamps at the output's zero; RELU6 clamps the input's codes only. */
static void test_relu(void **state)
{
	(void)state;
	vta_error err = {0};
	/* ratio 0.5: MBQM rounds half up (x = -1 -> 0, 3 -> 2, 124 -> 62), then zp_out -5 and
	 * the clamp at -5 */
	int8_t x[7] = {-128, 0, 2, 4, 6, 127, -11}, y[7];
	vta_host_tensor in = {1, {7}, 0.1f, 3, x}, out = {1, {7}, 0.2f, -5, y};
	ok(vta_host_relu(&in, &out, &err), &err);
	const int8_t relu[7] = {-5, -5, -5, -4, -3, 57, -5};
	assert_memory_equal(y, relu, 7);
	/* 6 / 0.05 = 120: [-10, 110] on the input's codes; the output's 0.2 and -5 unread */
	in.scale = 0.05f;
	in.zero_point = -10;
	ok(vta_host_relu6(&in, &out, &err), &err);
	const int8_t relu6[7] = {-10, 0, 2, 4, 6, 110, -10};
	assert_memory_equal(y, relu6, 7);
	/* a 6 beyond the range clamps at 127 */
	in.scale = 0.01f;
	ok(vta_host_relu6(&in, &out, &err), &err);
	const int8_t wide[7] = {-10, 0, 2, 4, 6, 127, -10};
	assert_memory_equal(y, wide, 7);
	/* the diagnostics */
	vta_host_tensor bad = {1, {6}, 0.2f, -5, y};
	assert_int_equal(vta_host_relu(&in, &bad, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "RELU output shape [6] should be [7]");
	in.scale = 0.0f;
	assert_int_equal(vta_host_relu(&in, &out, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "RELU input: scale 0 must be finite and positive");
	in.scale = 0.1f;
	out.zero_point = 200;
	assert_int_equal(vta_host_relu6(&in, &out, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE,
			"RELU6 output: zero point 200 is outside the int8 range");
}

static void test_mean(void **state)
{
	(void)state;
	vta_error err = {0};
	int8_t y[8];
	const int32_t hw[2] = {1, 2};
	/* equal quantization takes the same path as any other (TFLM): (M, s) = (2^30, 1), count
	 * 4 folds to (2^30, -1), so the mean is SRDHM (half up) then RDBPOT (half away):
	 * -2.75 -> -3, -0.75 -> -1, and 0.25 -> 1 (SRDHM(1) = 1 first, then 0.5 -> 1) */
	int8_t x[8] = {-3, 0, -3, 0, -3, 0, -2, 1};
	vta_host_tensor in = t4(1, 2, 2, 2, 0.1f, 0, x), out = t4(1, 1, 1, 2, 0.1f, 0, y);
	ok(vta_host_mean(&in, hw, 2, true, &out, &err), &err);
	assert_int_equal(y[0], -3);
	assert_int_equal(y[1], 1);
	int8_t x2[8] = {0, 0, 0, 0, -1, -1, -2, -2};
	in.data = x2;
	ok(vta_host_mean(&in, hw, 2, true, &out, &err), &err);
	assert_int_equal(y[0], -1);
	assert_int_equal(y[1], -1);
	/* scale 1 -> 2: (M, s) = (2^30, 0), count 4: M' = 2^30, s' = -2;
	 * {1,2,3,4}: MBQM(10) = RDBPOT(SRDHM(10, 2^30) = 5, 2) = 1 (1.25) */
	int8_t v[4] = {1, 2, 3, 4};
	vta_host_tensor i1 = t4(1, 2, 2, 1, 1.0f, 0, v), o1 = t4(1, 1, 1, 1, 2.0f, 0, y);
	ok(vta_host_mean(&i1, hw, 2, true, &o1, &err), &err);
	assert_int_equal(y[0], 1);
	/* zero points: (5 - 3) * 1 / 2 = 1, + zp_out -1 = 0 */
	int8_t five[4] = {5, 5, 5, 5};
	i1.data = five;
	i1.zero_point = 3;
	o1.zero_point = -1;
	ok(vta_host_mean(&i1, hw, 2, true, &o1, &err), &err);
	assert_int_equal(y[0], 0);
	/* three elements: k = 1, M' = (2^30 << 1) / 3 = 715827882, s' = -1; {1, 2, 4}:
	 * SRDHM(7, 715827882) = 2, RDBPOT(2, 1) = 1 (7 / 3 / 2 = 1.17) */
	int8_t t3[3] = {1, 2, 4};
	vta_host_tensor i3 = {1, {3}, 1.0f, 0, t3}, o3 = {1, {1}, 2.0f, 0, y};
	const int32_t ax0[1] = {0};
	ok(vta_host_mean(&i3, ax0, 1, false, &o3, &err), &err);
	assert_int_equal(y[0], 1);
	/* negative values and saturation: scale 1 -> 0.01 */
	int8_t neg[3] = {-100, -120, -128};
	i3.data = neg;
	o3.scale = 0.01f;
	ok(vta_host_mean(&i3, ax0, 1, false, &o3, &err), &err);
	assert_int_equal(y[0], -128);
	/* shapes: keep_dims, dropped dims, negative and repeated axes, everything */
	vta_host_tensor s = {0};
	const int32_t rep[3] = {-1, 3, 1};
	ok(vta_host_mean_shape(&in, rep, 3, false, &s, &err), &err);
	assert_int_equal(s.rank, 2);
	assert_int_equal(s.dims[0], 1);
	assert_int_equal(s.dims[1], 2);
	ok(vta_host_mean_shape(&in, hw, 2, false, &s, &err), &err);
	assert_int_equal(s.rank, 2);
	assert_int_equal(s.dims[1], 2);
	const int32_t all[4] = {0, 1, 2, 3};
	ok(vta_host_mean_shape(&in, all, 4, false, &s, &err), &err);
	assert_int_equal(s.rank, 1);
	assert_int_equal(s.dims[0], 1);
	const int32_t far[1] = {4};
	assert_int_equal(vta_host_mean_shape(&in, far, 1, true, &s, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "MEAN: axis 4 is outside rank 4");
	assert_int_equal(vta_host_mean(&in, hw, 2, false, &out, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "MEAN output shape [1, 1, 1, 2] should be [1, 2]");
}

static void test_tensor_checks(void **state)
{
	(void)state;
	vta_error err = {0};
	int8_t x[2] = {0, 0};
	vta_host_tensor t = {7, {1}, 1.0f, 0, x};
	assert_int_equal(vta_host_tensor_check(&t, "T", &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "T: rank 7 is not 1..6");
	t.rank = 1;
	t.dims[0] = 0;
	assert_int_equal(vta_host_tensor_check(&t, "T", &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "T: a dimension is below 1");
	t.dims[0] = 2;
	t.scale = 0;
	assert_int_equal(vta_host_tensor_check(&t, "T", &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "T: scale 0 must be finite and positive");
	t.scale = 1;
	t.zero_point = 200;
	assert_int_equal(vta_host_tensor_check(&t, "T", &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "T: zero point 200 is outside the int8 range");
	t.zero_point = 0;
	t.data = NULL;
	assert_int_equal(vta_host_tensor_check(&t, "T", &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "T: no data");
	vta_tensor_i8 n = {{1, 2, 3, 4}, 0.5f, 7, x};
	vta_host_tensor v = vta_host_tensor_of(&n);
	assert_int_equal(v.rank, 4);
	assert_int_equal(vta_host_tensor_count(&v), 24);
	assert_int_equal(v.zero_point, 7);
}

/* Which op runs where, and the messages of those that do not. */
static void test_op_support(void **state)
{
	(void)state;
	const char *name;
	assert_int_equal(vta_op_where(VTA_TFL_DEPTHWISE_CONV_2D, &name), VTA_OP_ACCEL);
	assert_string_equal(name, "DEPTHWISE_CONV_2D");
	assert_int_equal(vta_op_where(VTA_TFL_FULLY_CONNECTED, NULL), VTA_OP_ACCEL);
	assert_int_equal(vta_op_where(VTA_TFL_SOFTMAX, &name), VTA_OP_HOST);
	assert_int_equal(vta_op_where(VTA_TFL_QUANTIZE, NULL), VTA_OP_HOST);
	assert_int_equal(vta_op_where(VTA_TFL_SVDF, &name), VTA_OP_HOST);
	assert_string_equal(name, "SVDF");
	vta_error err = {0};
	assert_int_equal(vta_op_check(VTA_TFL_MEAN, &err), VTA_OK);
	assert_int_equal(vta_op_check(VTA_TFL_SVDF, &err), VTA_OK);
	assert_int_equal(vta_op_check(18, &err), VTA_E_UNSUPPORTED);
	rt_assert_error(&err, VTA_E_UNSUPPORTED, "TFLite builtin op 18 is not supported");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pool_tflite_vectors),
		cmocka_unit_test(test_pool_hand),
		cmocka_unit_test(test_softmax),
		cmocka_unit_test(test_reshape_pad_transpose),
		cmocka_unit_test(test_concat),
		cmocka_unit_test(test_quantize),
		cmocka_unit_test(test_mean),
		cmocka_unit_test(test_tensor_checks),
		cmocka_unit_test(test_op_support),
		cmocka_unit_test(test_relu),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
