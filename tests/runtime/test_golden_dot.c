/*
 * test_golden_dot.c - the golden kernels' inner product (golden_dot.h): every variant the host
 * runs gives the exact sums of a plain loop, for row counts around its blocking of four, for
 * short and odd lengths, with the extreme products (255 * -128) and past the 2^16-product
 * chunk where its int32 partial sums stop, alone and two vectors at once; and the picked
 * variant is one the host runs.
 */
#include <stdlib.h>

#include "golden_dot.h"
#include "rt_test.h"

static void plain(const uint8_t *x, const int8_t *w, size_t n, size_t rows, size_t stride,
		  int64_t *out)
{
	for (size_t r = 0; r < rows; r++) {
		int64_t s = 0;
		for (size_t i = 0; i < n; i++)
			s += (int64_t)w[r * stride + i] * x[i];
		out[r] = s;
	}
}

static void check_case(const vta_golden_dot_variant *v, size_t n, size_t rows, size_t stride,
		       int extreme, rt_rng *rng)
{
	uint8_t *x = malloc(n ? n : 1);
	int8_t *w = malloc(rows * stride + 1);
	int64_t *want = malloc((rows + 1) * sizeof(*want)), *got = malloc((rows + 1) * sizeof(*got));
	assert_non_null(x);
	assert_non_null(w);
	for (size_t i = 0; i < n; i++)
		x[i] = extreme ? 255 : (uint8_t)rt_rng_next(rng);
	for (size_t i = 0; i < rows * stride; i++)
		w[i] = extreme ? -128 : (int8_t)rt_rng_next(rng);
	plain(x, w, n, rows, stride, want);
	got[rows] = 12345; /* nothing past the rows is written */
	v->fn(x, w, n, rows, stride, got);
	for (size_t r = 0; r < rows; r++)
		if (got[r] != want[r])
			fail_msg("%s: n %zu, rows %zu, row %zu: %lld, expected %lld", v->name, n,
				 rows, r, (long long)got[r], (long long)want[r]);
	assert_int_equal(got[rows], 12345);

	/* two vectors at once: x and its reverse, each as alone */
	uint8_t *y = malloc(n ? n : 1);
	int64_t *want1 = malloc((rows + 1) * sizeof(*want1));
	int64_t *got1 = malloc((rows + 1) * sizeof(*got1));
	assert_non_null(y);
	assert_non_null(want1);
	assert_non_null(got1);
	for (size_t i = 0; i < n; i++)
		y[i] = x[n - 1 - i];
	plain(y, w, n, rows, stride, want1);
	got[rows] = got1[rows] = 12345;
	v->fn2(x, y, w, n, rows, stride, got, got1);
	for (size_t r = 0; r < rows; r++)
		if (got[r] != want[r] || got1[r] != want1[r])
			fail_msg("%s (two vectors): n %zu, rows %zu, row %zu: %lld %lld, expected "
				 "%lld %lld", v->name, n, rows, r, (long long)got[r],
				 (long long)got1[r], (long long)want[r], (long long)want1[r]);
	assert_int_equal(got[rows], 12345);
	assert_int_equal(got1[rows], 12345);
	free(y);
	free(want1);
	free(got1);
	free(x);
	free(w);
	free(want);
	free(got);
}

static void test_variants_exact(void **state)
{
	(void)state;
	vta_golden_dot_variant v[VTA_GOLDEN_DOT_MAX_VARIANTS];
	size_t k = vta_golden_dot_variants(v);
	assert_true(k >= 1);
	assert_string_equal(v[0].name, "generic");
	assert_true(v[0].runs_here);
	rt_rng rng;
	rt_rng_seed(&rng, 7);
	static const size_t lengths[] = {0, 1, 3, 16, 63, 64, 65, 576, 4608};
	for (size_t j = 0; j < k; j++) {
		if (!v[j].runs_here)
			continue;
		for (size_t li = 0; li < sizeof(lengths) / sizeof(lengths[0]); li++)
			for (size_t rows = 0; rows <= 9; rows++)
				check_case(&v[j], lengths[li], rows, lengths[li] + (rows & 1),
					   0, &rng);
		/* past one chunk: 2^16 + 5 extreme products would wrap an int32 sum */
		check_case(&v[j], 65541, 5, 65541, 1, &rng);
		check_case(&v[j], 131072 + 17, 1, 131072 + 17, 1, &rng);
	}
}

static void test_pick_runs_here(void **state)
{
	(void)state;
	vta_golden_dot_variant v[VTA_GOLDEN_DOT_MAX_VARIANTS];
	size_t k = vta_golden_dot_variants(v);
	vta_golden_dot_fn f = vta_golden_dot_pick();
	int found = 0;
	for (size_t j = 0; j < k; j++)
		if (v[j].fn == f) {
			found = 1;
			assert_true(v[j].runs_here);
			assert_true(v[j].fn2 == vta_golden_dot2_pick()); /* the same variant */
			for (size_t m = j + 1; m < k; m++)
				assert_false(v[m].runs_here); /* the widest that runs */
		}
	assert_true(found);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_variants_exact),
		cmocka_unit_test(test_pick_runs_here),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
