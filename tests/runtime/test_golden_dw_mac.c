/*
 * test_golden_dw_mac.c - the golden depthwise kernel's per-channel products (golden_dw_mac.h):
 * every variant the host runs gives the sums of a plain loop, for channel counts around its
 * blocks and vector widths, with zero to many taps, taps sharing a row, the extreme products
 * (-128 * -128 and -128 * 127) and sums that start from nonzero values; nothing past the
 * channels is written; and the picked variant is the widest the host runs.
 */
#include <stdlib.h>

#include "golden_dw_mac.h"
#include "rt_test.h"

static void plain(const int8_t *const *x, const int8_t *const *w, size_t taps, size_t n,
		  int32_t *acc)
{
	for (size_t c = 0; c < n; c++) {
		int64_t s = acc[c];
		for (size_t t = 0; t < taps; t++)
			s += (int64_t)w[t][c] * x[t][c];
		acc[c] = (int32_t)s;
	}
}

/* edge: 0 random, 1 every product -128 * -128, 2 every product -128 * 127 */
static void check_case(const vta_golden_dw_mac_variant *v, size_t taps, size_t n, int edge,
		       rt_rng *rng)
{
	int8_t *data = malloc(2 * (taps + 1) * (n + 1));
	const int8_t **x = malloc((taps + 1) * sizeof(*x)), **w = malloc((taps + 1) * sizeof(*w));
	int32_t *want = malloc((n + 1) * sizeof(*want)), *got = malloc((n + 1) * sizeof(*got));
	assert_non_null(data);
	for (size_t i = 0; i < 2 * (taps + 1) * (n + 1); i++)
		data[i] = edge ? -128 : (int8_t)rt_rng_next(rng);
	for (size_t t = 0; t < taps; t++) {
		/* every third tap reads the row before it again (a padding row shared by taps) */
		x[t] = data + (t % 3 == 2 ? t - 1 : t) * (n + 1);
		w[t] = data + (taps + 1 + t) * (n + 1);
	}
	if (edge == 2)
		for (size_t i = (taps + 1) * (n + 1); i < 2 * (taps + 1) * (n + 1); i++)
			data[i] = 127;
	for (size_t c = 0; c < n; c++)
		want[c] = got[c] = edge ? 0 : rt_rng_range(rng, -1000000, 1000000);
	got[n] = 12345;
	plain(x, w, taps, n, want);
	v->fn(x, w, taps, n, got);
	for (size_t c = 0; c < n; c++)
		if (got[c] != want[c])
			fail_msg("%s: taps %zu, channels %zu, channel %zu: %d, expected %d", v->name,
				 taps, n, c, got[c], want[c]);
	assert_int_equal(got[n], 12345);
	free(data);
	free(x);
	free(w);
	free(want);
	free(got);
}

static void test_variants_exact(void **state)
{
	(void)state;
	vta_golden_dw_mac_variant v[VTA_GOLDEN_DW_MAC_MAX_VARIANTS];
	size_t k = vta_golden_dw_mac_variants(v);
	assert_true(k >= 1);
	assert_string_equal(v[0].name, "generic");
	assert_true(v[0].runs_here);
	rt_rng rng;
	rt_rng_seed(&rng, 11);
	static const size_t channels[] = {0, 1, 7, 8, 15, 16, 17, 31, 32, 63, 64, 65, 96, 129, 960};
	static const size_t taps[] = {0, 1, 2, 9, 25};
	for (size_t j = 0; j < k; j++) {
		if (!v[j].runs_here)
			continue;
		for (size_t ci = 0; ci < sizeof(channels) / sizeof(channels[0]); ci++)
			for (size_t ti = 0; ti < sizeof(taps) / sizeof(taps[0]); ti++)
				check_case(&v[j], taps[ti], channels[ci], 0, &rng);
		/* the largest products, as many taps as a sum may take: no int32 wrap */
		check_case(&v[j], VTA_GOLDEN_DW_MAC_MAX_TAPS, 70, 1, &rng);
		check_case(&v[j], VTA_GOLDEN_DW_MAC_MAX_TAPS, 70, 2, &rng);
	}
}

static void test_pick_runs_here(void **state)
{
	(void)state;
	vta_golden_dw_mac_variant v[VTA_GOLDEN_DW_MAC_MAX_VARIANTS];
	size_t k = vta_golden_dw_mac_variants(v);
	vta_golden_dw_mac_fn f = vta_golden_dw_mac_pick();
	int found = 0;
	for (size_t j = 0; j < k; j++)
		if (v[j].fn == f) {
			found = 1;
			assert_true(v[j].runs_here);
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
