/*
 * test_golden_fc.c - the golden FULLY_CONNECTED: hand-computed cases (zp_in, bias, batches, a
 * rank-4 input flattened, requantization ties, saturation, per-tensor against per-channel
 * scales), random layers against the CONV2D golden as a 1x1 convolution over the batch rows
 * (a different formulation of the same definition), LUT-fed constants, and the errors.
 */
#include "rt_test.h"

#include <stdlib.h>

#include "golden.h"
#include "lut.h"

static const float one_scale[1] = {1.0f};

static void expect_fc(const vta_fully_connected *f, int32_t batches, const int8_t *want)
{
	int8_t got[64];
	const int32_t o = f->filter_shape[0];
	for (int mode = 0; mode < 2; mode++) {
		vta_tensor_i8 out = {{1, 1, batches, o}, 1.0f, 0, got};
		vta_error err = {0};
		vta_status st = vta_golden_fc(f, (vta_arith_mode)mode, &out, NULL, &err);
		if (st != VTA_OK) {
			print_error("fc failed: %s\n", err.detail);
			fail();
		}
		assert_memory_equal(got, want, (size_t)(batches * o));
	}
}

static void test_hand_cases(void **state)
{
	(void)state;
	int8_t x[6] = {1, 2, 3, 4, 5, 6};
	vta_tensor_i8 in = {{1, 1, 1, 3}, 1.0f, 0, x};
	const int8_t w[6] = {1, 1, 1, 1, -1, 2};
	vta_fully_connected f = {&in, w, {2, 3}, one_scale, 1, NULL, VTA_ACT_NONE};
	const int8_t plain[2] = {6, 5};
	expect_fc(&f, 1, plain);
	in.zero_point = 1; /* x - 1 = {0, 1, 2} */
	const int8_t zp[2] = {3, 3};
	expect_fc(&f, 1, zp);
	const int32_t bias[2] = {10, -2};
	f.bias = bias;
	const int8_t b[2] = {13, 1};
	expect_fc(&f, 1, b);
	/* two batch rows: the second {4, 5, 6} - 1 = {3, 4, 5} -> 12 + 10, 3 - 4 + 10 - 2 */
	in.shape[3] = 6;
	in.shape[2] = 1;
	const int8_t two[4] = {13, 1, 22, 7};
	expect_fc(&f, 2, two);
	/* a rank-4 input [1, 2, 1, 3] is read as [2, 3] too */
	in.shape[2] = 2;
	in.shape[3] = 3;
	expect_fc(&f, 2, two);
}

static void test_requantize(void **state)
{
	(void)state;
	/* acc = 7 * 3 = 21, scale 0.5: 10.5 -> SRDHM rounds half up -> 11 (+ zp 0) */
	int8_t x[1] = {7};
	vta_tensor_i8 in = {{1, 1, 1, 1}, 0.5f, 0, x};
	const int8_t w[2] = {3, -3};
	vta_fully_connected f = {&in, w, {2, 1}, one_scale, 1, NULL, VTA_ACT_NONE};
	int8_t got[2];
	vta_tensor_i8 out = {{1, 1, 1, 2}, 1.0f, 0, got};
	vta_error err = {0};
	assert_int_equal(vta_golden_fc(&f, VTA_ARITH_TFLITE, &out, NULL, &err), VTA_OK);
	assert_int_equal(got[0], 11);
	assert_int_equal(got[1], -10); /* -10.5: SRDHM rounds half up too */
	/* saturation: 127 * 127 * 0.5 = 8064.5 clamps to 127, the negative to -128 */
	x[0] = 127;
	const int8_t big[2] = {127, -127};
	f.filter = big;
	assert_int_equal(vta_golden_fc(&f, VTA_ARITH_TFLITE, &out, NULL, &err), VTA_OK);
	assert_int_equal(got[0], 127);
	assert_int_equal(got[1], -128);
	/* one scale for all channels equals the same scale given per channel */
	const float two[2] = {0.25f, 0.25f}, one[1] = {0.25f};
	f.filter_scales = one;
	int8_t a[2], b[2];
	out.data = a;
	assert_int_equal(vta_golden_fc(&f, VTA_ARITH_TFLITE, &out, NULL, &err), VTA_OK);
	f.filter_scales = two;
	f.filter_scale_count = 2;
	out.data = b;
	assert_int_equal(vta_golden_fc(&f, VTA_ARITH_TFLITE, &out, NULL, &err), VTA_OK);
	assert_memory_equal(a, b, 2);
	assert_int_equal(a[0], 127); /* 127 * 127 / 4 = 4032.25 clamps */
	assert_int_equal(a[1], -128);
}

/* A TFLite-generated case (the CMSIS-NN fully_connected_mve_0 test): 16 -> 9, input
 * offset 128, output offset -26, per-tensor; the float scales give its multiplier
 * 1244038257 and shift -9 exactly. */
static void test_tflite_vector(void **state)
{
	(void)state;
	int8_t x[16] = {-43, 68, 79, -12, -119, -56, -102, -46, 107, -65, -109, -7, 92, -99, -80, -29};
	const int8_t w[144] = {
		37,   -46,  75,   -33,  -52, -82,  -94, 64,   71,  65,   64,  16,   -66, -5,   -65,
		-44,  82,   42,   84,   105, 18,   79,  -103, -75, -95,  65,  87,   103, 43,   -25,
		-66,  75,   125,  40,   -34, 24,   9,   -79,  4,   73,   98,  -75,  42,  81,   18,
		-58,  -119, 92,   0,    -72, 48,   23,  -69,  11,  -95,  -103, 66, 117, 107,  -96,
		114,  -29,  75,   -93,  118, 66,   -19, 83,   -14, 86,   -110, 44, 37,  -9,   17,
		-107, 50,   -116, -116, -27, -84,  -126, -108, -127, -71, 8,  81,  108,  -61, 126,
		69,   -45,  37,   -78,  -102, -55, 116, 112,  -111, -89, -57, 82,  -47, 22,   125,
		-84,  97,   -9,   88,   74,  -15,  118, -95,  112, 89,   44,  -17,  -112, -71, -94,
		1,    -117, 112,  -92,  52,  57,   -22, 80,   -60, 95,   -106, -1,  -27, 105,  6,
		123,  6,    96,   126,  -65, -29,  103, 19,   -45};
	const int32_t bias[9] = {11295, -30752, -3196, 10489, -5120, 18598, 27393, 29746, 22967};
	const float sw[1] = {0.006727615371346474f};
	const int8_t ref[9] = {-9, -3, 26, 8, 3, -88, 75, 34, 5};
	vta_tensor_i8 in = {{1, 1, 1, 16}, 0.007750511169433594f, -128, x};
	vta_fully_connected f = {&in, w, {9, 16}, sw, 1, bias, VTA_ACT_NONE};
	int8_t got[9];
	vta_tensor_i8 out = {{1, 1, 1, 9}, 0.04608478769659996f, -26, got};
	vta_error err = {0};
	vta_qmul m;
	assert_int_equal(vta_quant_multiplier((double)in.scale * (double)sw[0] / (double)out.scale,
					      &m, &err),
			 VTA_OK);
	assert_int_equal(m.multiplier, 1244038257);
	assert_int_equal(m.shift, -9);
	assert_int_equal(vta_golden_fc(&f, VTA_ARITH_TFLITE, &out, NULL, &err), VTA_OK);
	assert_memory_equal(got, ref, 9);
}

/* Random layers: the CONV2D golden, 1x1 over [1, batches, 1, K]. */
static void test_against_conv(void **state)
{
	(void)state;
	rt_rng r;
	rt_rng_seed(&r, 7);
	for (int iter = 0; iter < 40; iter++) {
		const int32_t bt = 1 + (int32_t)rt_rng_below(&r, 5), k = 1 + (int32_t)rt_rng_below(&r, 70);
		const int32_t o = 1 + (int32_t)rt_rng_below(&r, 40);
		int8_t *x = malloc((size_t)bt * k), *w = malloc((size_t)o * k);
		float *sw = malloc((size_t)o * sizeof(float));
		int32_t *bias = malloc((size_t)o * sizeof(int32_t));
		for (int32_t i = 0; i < bt * k; i++)
			x[i] = (int8_t)rt_rng_range(&r, -128, 127);
		for (int32_t i = 0; i < o * k; i++)
			w[i] = (int8_t)rt_rng_range(&r, -127, 127);
		for (int32_t i = 0; i < o; i++) {
			sw[i] = 0.0005f * (float)(1 + rt_rng_below(&r, 20));
			bias[i] = rt_rng_range(&r, -9000, 9000);
		}
		const size_t nsc = rt_rng_below(&r, 2) ? (size_t)o : 1;
		vta_tensor_i8 in = {{1, 1, bt, k}, 0.04f, rt_rng_range(&r, -128, 127), x};
		vta_tensor_i8 in4 = {{1, bt, 1, k}, in.scale, in.zero_point, x};
		vta_fully_connected f = {&in, w, {o, k}, sw, nsc, bias,
					 (vta_activation)rt_rng_below(&r, 4)};
		vta_conv2d cv = {&in4, w, {o, 1, 1, k}, sw, nsc, bias, 1, 1, 1, 1,
				 VTA_PADDING_VALID, f.activation};
		int8_t *a = malloc((size_t)bt * o), *b = malloc((size_t)bt * o);
		vta_error err = {0};
		for (int mode = 0; mode < 2; mode++) {
			vta_tensor_i8 oa = {{1, 1, bt, o}, 0.06f, 5, a};
			vta_tensor_i8 ob = {{1, bt, 1, o}, 0.06f, 5, b};
			assert_int_equal(vta_golden_fc(&f, (vta_arith_mode)mode, &oa, NULL, &err), VTA_OK);
			assert_int_equal(vta_golden_conv2d(&cv, (vta_arith_mode)mode, &ob, NULL, &err),
					 VTA_OK);
			assert_memory_equal(a, b, (size_t)bt * o);
		}
		free(a);
		free(b);
		free(x);
		free(w);
		free(sw);
		free(bias);
	}
}

static void test_lut_and_errors(void **state)
{
	(void)state;
	int8_t x[3] = {1, 2, 3};
	vta_tensor_i8 in = {{1, 1, 1, 3}, 1.0f, 0, x};
	const int8_t w[6] = {1, 1, 1, 1, -1, 2};
	const int32_t bias[2] = {10, -2};
	vta_fully_connected f = {&in, NULL, {2, 3}, one_scale, 1, NULL, VTA_ACT_NONE};
	vta_lut_buffer lw, lb;
	vta_error err = {0};
	assert_int_equal(vta_lut_compress(VTA_LUT_INT8, w, 6, 2, false, 2, VTA_LUT_STRIDE_POW2, &lw,
					  &err),
			 VTA_OK);
	assert_int_equal(vta_lut_compress(VTA_LUT_INT32, bias, 2, 1, false, 1, VTA_LUT_STRIDE_POW2,
					  &lb, &err),
			 VTA_OK);
	vta_fully_connected plain;
	void *owned[2];
	assert_int_equal(vta_golden_fc_decode(&f, &lw.tensor, &lb.tensor, &plain, owned, &err),
			 VTA_OK);
	const int8_t want[2] = {16, 3};
	expect_fc(&plain, 1, want);
	free(owned[0]);
	free(owned[1]);
	/* a LUT of the wrong element count */
	f.filter_shape[0] = 3;
	f.filter_shape[1] = 1;
	assert_int_equal(vta_golden_fc_decode(&f, &lb.tensor, NULL, &plain, owned, &err),
			 VTA_E_USAGE);
	vta_lut_buffer_free(&lw);
	vta_lut_buffer_free(&lb);

	f.filter = w;
	f.filter_shape[0] = 2;
	f.filter_shape[1] = 2;
	int8_t got[4];
	vta_tensor_i8 out = {{1, 1, 1, 2}, 1.0f, 0, got};
	assert_int_equal(vta_golden_fc(&f, VTA_ARITH_TFLITE, &out, NULL, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "3 input elements are not a multiple of K = 2");
	f.filter_shape[1] = 3;
	out.shape[3] = 1;
	out.shape[2] = 2;
	assert_int_equal(vta_golden_fc(&f, VTA_ARITH_TFLITE, &out, NULL, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "should hold 1 x 2 elements with 2 last");
	f.filter_shape[0] = 0;
	assert_int_equal(vta_golden_fc(&f, VTA_ARITH_TFLITE, &out, NULL, &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "filter shape [0, 3] is not a valid [O, K] shape");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand_cases),
		cmocka_unit_test(test_requantize),
		cmocka_unit_test(test_tflite_vector),
		cmocka_unit_test(test_against_conv),
		cmocka_unit_test(test_lut_and_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
