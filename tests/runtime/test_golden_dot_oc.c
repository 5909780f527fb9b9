/*
 * test_golden_dot_oc.c - the golden CONV2D's inner products across output channels
 * (golden_dot_oc.h): every variant the host runs, fed weights packed by
 * vta_golden_dot_oc_pack, gives the exact sums of a plain loop over the unpacked rows, for
 * random shapes (lengths not a multiple of 4, row counts not a multiple of 16 nor of the
 * 64-row tiles, pixel counts around the 2- and 6-pixel blocks, row and output strides with
 * slack), with the extreme products (255 * -128) and past the 2^16 products where its int32
 * partial sums stop; nothing outside the results is written; the pick runs here.
 */
#include <stdlib.h>
#include <string.h>

#include "golden_dot_oc.h"
#include "rt_test.h"

#define SENTINEL ((int64_t)0x5a5a5a5a5a5a5a5aLL)

static void plain(const uint8_t *x, size_t x_stride, size_t pixels, const int8_t *w, size_t n,
		  size_t rows, size_t w_stride, int64_t *out, size_t out_stride)
{
	for (size_t p = 0; p < pixels; p++)
		for (size_t r = 0; r < rows; r++) {
			int64_t s = 0;
			for (size_t i = 0; i < n; i++)
				s += (int64_t)w[r * w_stride + i] * x[p * x_stride + i];
			out[p * out_stride + r] = s;
		}
}

static void check_case(const vta_golden_dot_oc_variant *v, size_t n, size_t rows,
		       size_t pixels, int extreme, rt_rng *rng)
{
	const size_t x_stride = vta_golden_dot_oc_padded(n) + (size_t)rt_rng_below(rng, 3) * 4;
	const size_t w_stride = n + (size_t)rt_rng_below(rng, 3);
	const size_t out_stride = rows + (size_t)rt_rng_below(rng, 3);
	const size_t xn = pixels * x_stride, wn = rows * w_stride, on = pixels * out_stride + 1;
	uint8_t *x = malloc(xn ? xn : 1);
	int8_t *w = malloc(wn ? wn : 1);
	int8_t *packed = malloc(vta_golden_dot_oc_packed_size(n, rows) + 1);
	int64_t *want = malloc(on * sizeof(*want)), *got = malloc(on * sizeof(*got));
	assert_non_null(x);
	assert_non_null(w);
	assert_non_null(packed);
	assert_non_null(want);
	assert_non_null(got);
	/* the bytes past n in each row are whatever: they meet zero weights */
	for (size_t i = 0; i < xn; i++)
		x[i] = extreme ? 255 : (uint8_t)rt_rng_next(rng);
	for (size_t i = 0; i < wn; i++)
		w[i] = extreme ? -128 : (int8_t)rt_rng_next(rng);
	for (size_t i = 0; i < on; i++)
		want[i] = got[i] = SENTINEL;
	plain(x, x_stride, pixels, w, n, rows, w_stride, want, out_stride);
	vta_golden_dot_oc_pack(w, n, rows, w_stride, packed);
	v->fn(x, x_stride, pixels, packed, n, rows, got, out_stride);
	for (size_t i = 0; i < on; i++)
		if (got[i] != want[i])
			fail_msg("%s: n %zu, rows %zu, pixels %zu, strides %zu/%zu: pixel %zu row "
				 "%zu: %lld, expected %lld",
				 v->name, n, rows, pixels, x_stride, out_stride, i / out_stride,
				 i % out_stride, (long long)got[i], (long long)want[i]);
	free(x);
	free(w);
	free(packed);
	free(want);
	free(got);
}

static void test_pack_layout(void **state)
{
	(void)state;
	/* 17 rows of 5: two blocks of 16 lanes, two groups of 4 inputs */
	int8_t w[17 * 5], packed[2 * 2 * 64];
	for (int i = 0; i < 17 * 5; i++)
		w[i] = (int8_t)(i + 1);
	assert_int_equal(vta_golden_dot_oc_padded(5), 8);
	assert_int_equal(vta_golden_dot_oc_padded(8), 8);
	assert_int_equal(vta_golden_dot_oc_packed_size(5, 17), sizeof(packed));
	vta_golden_dot_oc_pack(w, 5, 17, 5, packed);
	for (int r = 0; r < 32; r++)
		for (int i = 0; i < 8; i++) {
			int8_t want = r < 17 && i < 5 ? w[r * 5 + i] : 0;
			size_t at = (size_t)((r / 16) * 128 + (i / 4) * 64 + (r % 16) * 4 + i % 4);
			assert_int_equal(packed[at], want);
		}
}

static void test_variants_exact(void **state)
{
	(void)state;
	vta_golden_dot_oc_variant v[VTA_GOLDEN_DOT_OC_MAX_VARIANTS];
	size_t k = vta_golden_dot_oc_variants(v);
	assert_true(k >= 1);
	assert_string_equal(v[0].name, "generic");
	assert_true(v[0].runs_here);
	rt_rng rng;
	rt_rng_seed(&rng, 31);
	static const size_t lengths[] = {0, 1, 3, 4, 5, 16, 17, 24, 63, 96, 161, 320};
	static const size_t row_counts[] = {1, 3, 15, 16, 17, 33, 48, 64, 65, 97, 130};
	for (size_t j = 0; j < k; j++) {
		if (!v[j].runs_here)
			continue;
		for (size_t li = 0; li < sizeof(lengths) / sizeof(lengths[0]); li++)
			for (size_t ri = 0; ri < sizeof(row_counts) / sizeof(row_counts[0]); ri++)
				check_case(&v[j], lengths[li], row_counts[ri],
					   1 + (size_t)rt_rng_below(&rng, 13), 0, &rng);
		/* random shapes */
		for (int it = 0; it < 200; it++)
			check_case(&v[j], (size_t)rt_rng_below(&rng, 200),
				   1 + (size_t)rt_rng_below(&rng, 150),
				   1 + (size_t)rt_rng_below(&rng, 20), 0, &rng);
		/* the extremes within one chunk, and past it: 2^16 + 5 extreme products would
		 * wrap an int32 sum */
		check_case(&v[j], 999, 70, 7, 1, &rng);
		check_case(&v[j], 65541, 17, 7, 1, &rng);
		check_case(&v[j], 131072 + 17, 3, 2, 1, &rng);
	}
}

static void test_pick_runs_here(void **state)
{
	(void)state;
	vta_golden_dot_oc_variant v[VTA_GOLDEN_DOT_OC_MAX_VARIANTS];
	size_t k = vta_golden_dot_oc_variants(v);
	const char *name = NULL;
	vta_golden_dot_oc_fn f = vta_golden_dot_oc_pick(&name);
	int found = 0;
	for (size_t j = 0; j < k; j++)
		if (v[j].fn == f) {
			found = 1;
			assert_true(v[j].runs_here);
			assert_string_equal(v[j].name, name);
			for (size_t m = j + 1; m < k; m++)
				assert_false(v[m].runs_here); /* the widest that runs */
		}
	assert_true(found);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pack_layout),
		cmocka_unit_test(test_variants_exact),
		cmocka_unit_test(test_pick_runs_here),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
