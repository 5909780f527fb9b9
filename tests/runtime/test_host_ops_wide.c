/*
 * test_host_ops_wide.c - the host kernels on wider types (host_ops_wide.h).
 *
 * QUANTIZE between integer types: every pair TFLM takes against a reference written here
 * (exact rational rounding with __int128 instead of the gemmlowp primitives) over edge
 * values of each type and random scales, ties included; the pairs TFLM refuses.
 *
 * SOFTMAX int8 -> int16: values worked out by hand where the fixed point is exact (a lone
 * maximum saturates to 32767, differences below the input radius give -32768, equal
 * values share 2^16 / n), TFLM's own softmax test rows held to the float softmax within
 * 3 LSB, and the output quantization TFLM requires.
 */
#include "rt_test.h"

#include <math.h>
#include <stdlib.h>

#include "host_ops_wide.h"
#include "prng.h"

/* ---- QUANTIZE ---- */

/* round(x * M / 2^31) with halves up (the doubling high multiply), then a division by
 * 2^right rounded half away from zero: TFLM's double rounding, in exact arithmetic */
static int64_t ref_mbqm(int64_t x, double real)
{
	int e;
	double f = frexp(real, &e);
	int64_t m = llround(f * 2147483648.0);
	if (m == (1ll << 31)) {
		m /= 2;
		e++;
	}
	int left = e > 0 ? e : 0, right = e > 0 ? 0 : -e;
	__int128 a = (__int128)(int32_t)(uint32_t)(uint64_t)(x * (1ll << left));
	__int128 p = a * m + ((__int128)1 << 30);
	__int128 h = p >= 0 ? p >> 31 : -((-p + ((__int128)1 << 31) - 1) >> 31);
	if (right == 0)
		return (int64_t)h;
	__int128 mag = h < 0 ? -h : h;
	__int128 r = (mag + ((__int128)1 << (right - 1))) >> right;
	return (int64_t)(h < 0 ? -r : r);
}

static const struct {
	vta_host_int_type t;
	int64_t lo, hi;
	size_t size;
} types[] = {{VTA_HOST_INT8, -128, 127, 1}, {VTA_HOST_UINT8, 0, 255, 1},
	     {VTA_HOST_INT16, -32768, 32767, 2}, {VTA_HOST_INT32, INT32_MIN, INT32_MAX, 4}};

static bool pair_ok(int a, int b)
{
	static const bool ok[4][4] = {{1, 1, 1, 1}, {1, 0, 0, 0}, {1, 0, 1, 1}, {1, 0, 1, 0}};
	return ok[a][b];
}

static int64_t get(int t, const void *v, size_t i)
{
	switch (t) {
	case 0: return ((const int8_t *)v)[i];
	case 1: return ((const uint8_t *)v)[i];
	case 2: return ((const int16_t *)v)[i];
	default: return ((const int32_t *)v)[i];
	}
}

static void put(int t, void *v, size_t i, int64_t x)
{
	switch (t) {
	case 0: ((int8_t *)v)[i] = (int8_t)x; break;
	case 1: ((uint8_t *)v)[i] = (uint8_t)x; break;
	case 2: ((int16_t *)v)[i] = (int16_t)x; break;
	default: ((int32_t *)v)[i] = (int32_t)x; break;
	}
}

static void test_requantize_pairs(void **state)
{
	(void)state;
	vta_prng rng;
	vta_prng_seed(&rng, 99);
	int32_t in_buf[64], out_buf[64];
	for (int a = 0; a < 4; a++)
		for (int b = 0; b < 4; b++) {
			vta_host_quantized in = {types[a].t, in_buf, 0.5f, 0};
			vta_host_quantized out = {types[b].t, out_buf, 1.0f, 0};
			vta_error err = {0};
			if (!pair_ok(a, b)) {
				assert_int_equal(vta_host_requantize_int(&in, &out, 1, &err),
						 VTA_E_USAGE);
				assert_non_null(strstr(err.detail, "TFLM's kernel has no such"));
				continue;
			}
			for (int k = 0; k < 40; k++) {
				/* halves and quarters make ties; random scales the rest */
				static const float ratios[] = {0.5f, 0.25f, 2.0f, 1.0f};
				in.scale = k < 4 ? ratios[k] : (float)vta_prng_uniform(&rng, 1e-4, 4.0);
				out.scale = 1.0f;
				if (k >= 4 && k % 2)
					out.scale = (float)vta_prng_uniform(&rng, 1e-3, 2.0);
				int64_t span = types[a].hi - types[a].lo;
				in.zero_point = (int32_t)(types[a].t == VTA_HOST_INT32
					? vta_prng_range(&rng, -1000, 1000)
					: types[a].lo + vta_prng_range(&rng, 0, span));
				out.zero_point = (int32_t)(types[b].t == VTA_HOST_INT32
					? vta_prng_range(&rng, -1000, 1000)
					: types[b].lo + vta_prng_range(&rng, 0, types[b].hi - types[b].lo));
				for (size_t i = 0; i < 64; i++) {
					int64_t v = i < 4 ? (i & 1 ? types[a].hi : types[a].lo)
						    : (int64_t)vta_prng_range(&rng, types[a].t == VTA_HOST_INT32 ? -100000 : types[a].lo,
									     types[a].t == VTA_HOST_INT32 ? 100000 : types[a].hi);
					put(a, in_buf, i, v);
				}
				assert_int_equal(vta_host_requantize_int(&in, &out, 64, &err), VTA_OK);
				double real = (double)in.scale / (double)out.scale;
				for (size_t i = 0; i < 64; i++) {
					int64_t x = get(a, in_buf, i) - in.zero_point;
					if (x < INT32_MIN || x > INT32_MAX)
						continue; /* int32 input edges: TFLM's int32 wraps */
					int64_t y = ref_mbqm(x, real) + out.zero_point;
					y = y < types[b].lo ? types[b].lo : y > types[b].hi ? types[b].hi : y;
					if (get(b, out_buf, i) != y) {
						print_error("%d -> %d, scale %g: element %zu = %lld: "
							    "%lld, reference %lld\n", a, b, real, i,
							    (long long)get(a, in_buf, i),
							    (long long)get(b, out_buf, i), (long long)y);
						fail();
					}
				}
			}
		}
}

/* int16 -> int8 by hand: scale 1/2 ties round up in the high multiply, away from zero
 * after a right shift. */
static void test_requantize_by_hand(void **state)
{
	(void)state;
	int16_t in[6] = {3, -3, 5, -5, 300, -300};
	int8_t out[6];
	vta_host_quantized a = {VTA_HOST_INT16, in, 0.5f, 0}, b = {VTA_HOST_INT8, out, 1.0f, 0};
	vta_error err = {0};
	assert_int_equal(vta_host_requantize_int(&a, &b, 6, &err), VTA_OK);
	const int8_t want_half[6] = {2, -1, 3, -2, 127, -128};
	assert_memory_equal(out, want_half, 6);
	a.scale = 0.25f; /* M = 2^30, right shift 1: 5/4 -> 2.5 -> 3 -> 1.5 -> 2 */
	assert_int_equal(vta_host_requantize_int(&a, &b, 6, &err), VTA_OK);
	const int8_t want_quarter[6] = {1, -1, 2, -1, 75, -75};
	assert_memory_equal(out, want_quarter, 6);
}

static void test_requantize_errors(void **state)
{
	(void)state;
	int16_t in[1] = {0};
	int8_t out[1];
	vta_host_quantized a = {VTA_HOST_INT16, in, 0.0f, 0}, b = {VTA_HOST_INT8, out, 1.0f, 0};
	vta_error err = {0};
	assert_int_equal(vta_host_requantize_int(&a, &b, 1, &err), VTA_E_USAGE);
	assert_string_equal(err.detail, "QUANTIZE: scales 0 -> 1 must be positive and finite");
	a.scale = 1.0f;
	b.zero_point = 200;
	assert_int_equal(vta_host_requantize_int(&a, &b, 1, &err), VTA_E_USAGE);
	assert_string_equal(err.detail,
			    "QUANTIZE: zero points 0 (int16) -> 200 (int8) outside their types");
	b.zero_point = 0;
	b.data = NULL;
	assert_int_equal(vta_host_requantize_int(&a, &b, 1, &err), VTA_E_USAGE);
	assert_string_equal(err.detail, "QUANTIZE: no data");
	b.data = out;
	a.type = VTA_HOST_UINT8;
	b.type = VTA_HOST_INT16;
	assert_int_equal(vta_host_requantize_int(&a, &b, 1, &err), VTA_E_USAGE);
	assert_string_equal(err.detail,
			    "QUANTIZE from uint8 to int16: TFLM's kernel has no such requantization");
}

/* ---- SOFTMAX into int16 ---- */

static vta_host_tensor row(int8_t *data, int32_t n, float scale)
{
	return (vta_host_tensor){2, {1, n}, scale, 0, data};
}

static void test_softmax_i16_by_hand(void **state)
{
	(void)state;
	int16_t y[5];
	vta_error err = {0};
	/* one value far above the others: exp 1 against exps below the radius */
	int8_t lone[5] = {127, -128, -128, -128, -128};
	vta_host_tensor in = row(lone, 5, 1.0f);
	assert_int_equal(vta_host_softmax_i16(&in, 1.0f, 1.0f / 65536, -32768, y, &err), VTA_OK);
	const int16_t want_lone[5] = {32767, -32768, -32768, -32768, -32768};
	assert_memory_equal(y, want_lone, sizeof(y));
	/* four equal values: 1/4 each, exactly 16384 above the zero point */
	int8_t four[4] = {9, 9, 9, 9};
	in = row(four, 4, 0.1f);
	assert_int_equal(vta_host_softmax_i16(&in, 1.0f, 1.0f / 65536, -32768, y, &err), VTA_OK);
	for (int i = 0; i < 4; i++)
		assert_int_equal(y[i], 16384 - 32768);
	/* beta · s_in caps the Q5.26 multiplier (its shift reaches 32): only the maximum counts */
	int8_t far[2] = {5, 4};
	in = row(far, 2, 1000.0f);
	assert_int_equal(vta_host_softmax_i16(&in, 1.0f, 1.0f / 65536, -32768, y, &err), VTA_OK);
	assert_int_equal(y[0], 32767);
	assert_int_equal(y[1], -32768);
	/* two equal values: 1/2 each */
	in = row(four, 2, 0.3f);
	assert_int_equal(vta_host_softmax_i16(&in, 1.0f, 1.0f / 65536, -32768, y, &err), VTA_OK);
	assert_int_equal(y[0], 0);
	assert_int_equal(y[1], 0);
}

/* TFLM's softmax_test rows (input scale 0.1, inputs 1..5 and their negatives, 3-d data):
 * within 3 LSB of the float softmax at 1/65536. */
static void test_softmax_i16_near_float(void **state)
{
	(void)state;
	static const float data[] = {1, 2, 3, 4, 5, -1, -2, -3, -4, -5, 3, 6, -5, 4, -9,
				     -10, -10, -8, 2, 2, 8, -5, -8, 5, -6, -8, 6, 1, -10, -8};
	const int n = (int)(sizeof(data) / sizeof(data[0]));
	int8_t q[30];
	int16_t y[30];
	for (int i = 0; i < n; i++)
		q[i] = (int8_t)lrintf(data[i] / 0.1f);
	vta_host_tensor in = {2, {n / 5, 5}, 0.1f, 0, q};
	vta_error err = {0};
	assert_int_equal(vta_host_softmax_i16(&in, 1.0f, 1.0f / 65536, -32768, y, &err), VTA_OK);
	for (int r = 0; r < n / 5; r++) {
		double max = -1e9, sum = 0;
		for (int c = 0; c < 5; c++)
			max = fmax(max, q[r * 5 + c] * 0.1);
		for (int c = 0; c < 5; c++)
			sum += exp(q[r * 5 + c] * 0.1 - max);
		for (int c = 0; c < 5; c++) {
			double p = exp(q[r * 5 + c] * 0.1 - max) / sum;
			double want = fmin(p * 65536.0 - 32768.0, 32767.0);
			if (fabs(y[r * 5 + c] - want) > 3.0) {
				print_error("row %d col %d: %d, float %.2f\n", r, c, y[r * 5 + c], want);
				fail();
			}
		}
	}
}

static void test_softmax_i16_errors(void **state)
{
	(void)state;
	int8_t x[2] = {1, 2};
	int16_t y[2];
	vta_host_tensor in = row(x, 2, 0.1f);
	vta_error err = {0};
	assert_int_equal(vta_host_softmax_i16(&in, 1.0f, 1.0f / 32768, -32768, y, &err),
			 VTA_E_USAGE);
	assert_non_null(strstr(err.detail, "int16 output must have scale 1/65536 and zero "
					   "point -32768, not 3.05176e-05 and -32768"));
	assert_int_equal(vta_host_softmax_i16(&in, 1.0f, 1.0f / 65536, 0, y, &err), VTA_E_USAGE);
	/* within TFLM's 0.1% of 1/65536 is taken */
	assert_int_equal(vta_host_softmax_i16(&in, 1.0f, 1.0005f / 65536, -32768, y, &err),
			 VTA_OK);
	in.scale = 1e-9f;
	assert_int_equal(vta_host_softmax_i16(&in, 1.0f, 1.0f / 65536, -32768, y, &err),
			 VTA_E_USAGE);
	assert_non_null(strstr(err.detail, "is too small for TFLite's int8 kernel"));
	assert_int_equal(vta_host_softmax_i16(&in, 1.0f, 1.0f / 65536, -32768, NULL, &err),
			 VTA_E_USAGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_requantize_pairs),
		cmocka_unit_test(test_requantize_by_hand),
		cmocka_unit_test(test_requantize_errors),
		cmocka_unit_test(test_softmax_i16_by_hand),
		cmocka_unit_test(test_softmax_i16_near_float),
		cmocka_unit_test(test_softmax_i16_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
