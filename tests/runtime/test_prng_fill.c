/*
 * test_prng_fill.c - many draws at once (vta_prng_fill_i8, prng.h) give the values and leave
 * the state that one draw at a time does: int8 and narrower ranges, lengths around the
 * vector widths, and a stream continued after a fill.
 */
#include <stdlib.h>

#include "prng.h"
#include "rt_test.h"

static void test_fill_equals_draws(void **state)
{
	(void)state;
	static const int64_t ranges[][2] = {{-128, 127}, {-127, 127}, {0, 0}, {-5, 9}, {1, 3}};
	static const size_t counts[] = {0, 1, 7, 8, 15, 16, 17, 63, 64, 65, 1000, 4099};
	int8_t *got = malloc(4099), *want = malloc(4099);
	assert_non_null(got);
	assert_non_null(want);
	for (size_t ri = 0; ri < sizeof(ranges) / sizeof(ranges[0]); ri++)
		for (size_t ci = 0; ci < sizeof(counts) / sizeof(counts[0]); ci++) {
			const int64_t lo = ranges[ri][0], hi = ranges[ri][1];
			const size_t n = counts[ci];
			vta_prng a, b;
			vta_prng_seed(&a, 100 + ri * 31 + ci);
			b = a;
			vta_prng_fill_i8(&a, lo, hi, got, n);
			for (size_t e = 0; e < n; e++)
				want[e] = (int8_t)vta_prng_range(&b, lo, hi);
			assert_memory_equal(got, want, n);
			assert_true(a.state == b.state); /* the stream goes on alike */
			assert_true(vta_prng_next(&a) == vta_prng_next(&b));
		}
	free(got);
	free(want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fill_equals_draws),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
