/*
 * test_lut_group.c - depthwise and grouped LUT filters for the hardware decoder. Random int8
 * filters are compressed (widths 1..7, per tensor and per channel); the reordered and the
 * spread tensors are decoded with the TFLM decoder and must equal the plain filter moved the
 * same way (the spread one with zeros between the groups, as the CONV2D emitter lays out
 * plain weights). Then the table growth rule and one negative test per diagnostic.
 */
#include "rt_test.h"

#include <stdlib.h>

#include "lut.h"
#include "lut_group.h"

/* A random filter of `count` values with at most 2^bw distinct ones per channel, some zero
 * free when `no_zero`. */
static void rand_filter(rt_rng *rng, int8_t *f, size_t count, unsigned bw, bool no_zero)
{
	int8_t vals[128];
	size_t n = (size_t)1 << bw;
	for (size_t k = 0; k < n; k++) {
		vals[k] = (int8_t)rt_rng_range(rng, -128, 127);
		if (no_zero && vals[k] == 0)
			vals[k] = 1;
	}
	for (size_t e = 0; e < count; e++)
		f[e] = vals[rt_rng_below(rng, n)];
}

static void compress(const int8_t *f, size_t count, size_t channels, bool axis_last,
		     unsigned bw, vta_lut_buffer *b)
{
	vta_error err = {0};
	if (vta_lut_compress(VTA_LUT_INT8, f, count, channels, axis_last, bw, VTA_LUT_STRIDE_POW2,
			     b, &err) != VTA_OK) {
		print_error("compress: %s\n", err.detail);
		fail();
	}
}

static void decode(const vta_lut_tensor *t, int8_t *out, size_t count)
{
	vta_error err = {0};
	if (vta_lut_decode(t, out, count, &err) != VTA_OK) {
		print_error("decode: %s\n", err.detail);
		fail();
	}
}

static void test_depthwise(void **state)
{
	(void)state;
	rt_rng rng;
	rt_rng_seed(&rng, 11);
	for (unsigned bw = 1; bw <= 7; bw++)
		for (int per_channel = 0; per_channel < 2; per_channel++) {
			const size_t taps = 1 + rt_rng_below(&rng, 25), O = 1 + rt_rng_below(&rng, 40);
			int8_t *f = malloc(taps * O), *got = malloc(taps * O);
			rand_filter(&rng, f, taps * O, bw, false);
			vta_lut_buffer b, t;
			compress(f, taps * O, per_channel ? O : 1, true, bw, &b);
			vta_error err = {0};
			assert_int_equal(vta_lut_depthwise_ohwi(&b.tensor, taps, O, &t, &err), VTA_OK);
			assert_int_equal(t.tensor.bitwidth, bw);
			decode(&t.tensor, got, taps * O);
			for (size_t o = 0; o < O; o++)
				for (size_t k = 0; k < taps; k++)
					assert_int_equal(got[o * taps + k], f[k * O + o]);
			vta_lut_buffer_free(&t);
			vta_lut_buffer_free(&b);
			free(f);
			free(got);
		}
}

/* Spread [O][taps][in_g] into [O][taps][uc] and compare with the plain spread. */
static void check_spread(rt_rng *rng, size_t O, size_t taps, size_t in_g, size_t out_g,
			 size_t uc, unsigned bw, bool per_channel, bool no_zero,
			 unsigned want_bw, size_t want_stride)
{
	const size_t n = O * taps * in_g, m = O * taps * uc;
	int8_t *f = malloc(n), *got = malloc(m);
	rand_filter(rng, f, n, bw, no_zero);
	vta_lut_buffer b, s;
	compress(f, n, per_channel ? O : 1, false, bw, &b);
	vta_error err = {0};
	assert_int_equal(vta_lut_spread_groups(&b.tensor, O, taps, in_g, out_g, uc, &s, &err),
			 VTA_OK);
	if (want_bw) {
		assert_int_equal(s.tensor.bitwidth, want_bw);
		assert_int_equal(s.tensor.value_table_stride, want_stride);
	}
	decode(&s.tensor, got, m);
	const size_t per_unit = uc / in_g;
	for (size_t o = 0; o < O; o++) {
		const size_t at = (o / out_g % per_unit) * in_g;
		for (size_t k = 0; k < taps; k++)
			for (size_t i = 0; i < uc; i++) {
				int8_t want = i >= at && i < at + in_g
						      ? f[(o * taps + k) * in_g + i - at]
						      : 0;
				assert_int_equal(got[(o * taps + k) * uc + i], want);
			}
	}
	vta_lut_buffer_free(&s);
	vta_lut_buffer_free(&b);
	free(f);
	free(got);
}

static void test_spread(void **state)
{
	(void)state;
	rt_rng rng;
	rt_rng_seed(&rng, 12);
	for (unsigned bw = 1; bw <= 7; bw++)
		for (int pc = 0; pc < 2; pc++) {
			check_spread(&rng, 32, 9, 1, 1, 16, bw, pc, false, 0, 0); /* depthwise */
			check_spread(&rng, 40, 9, 1, 2, 16, bw, pc, false, 0, 0); /* multiplier 2 */
			check_spread(&rng, 8, 9, 6, 2, 32, bw, pc, false, 0, 0);  /* one unit */
			check_spread(&rng, 12, 1, 8, 4, 8, bw, pc, false, 0, 0);  /* no zero lane */
		}
	/* 1-bit tables of two nonzero values: a third entry, 2-bit indices */
	check_spread(&rng, 16, 9, 1, 1, 4, 1, true, true, 2, 3);
	/* 2-bit tables of four nonzero values: a fifth entry, 3-bit indices */
	check_spread(&rng, 16, 9, 1, 1, 4, 2, false, true, 3, 5);
	/* no lane between the groups: nothing added */
	check_spread(&rng, 16, 9, 4, 4, 4, 1, true, true, 1, 2);
}

/* Index `lane` of a packed row, MSB first: read here bit by bit, apart from the packer. */
static unsigned row_index(const uint8_t *row, size_t lane, unsigned bw)
{
	unsigned v = 0;
	for (unsigned k = 0; k < bw; k++) {
		size_t bit = lane * bw + k;
		v = v << 1 | ((row[bit / 8] >> (7 - bit % 8)) & 1u);
	}
	return v;
}

/* Zero-lane fill's compact rows: row (o0, k) holds output channel o0*BO + o's in_g indices
 * at lanes o*in_g.., each reading its channel's table back to the plain filter's value;
 * lanes of channels beyond O and the pad bits are 0; then the packer's refusals. */
static void test_group_rows(void **state)
{
	(void)state;
	rt_rng rng;
	rt_rng_seed(&rng, 30);
	vta_config cfg;
	vta_config_default(&cfg);
	const size_t BO = cfg.block_out, groups[] = {1, 2, 4, 8};
	for (unsigned bw = 1; bw <= 7; bw++)
		for (size_t gi = 0; gi < 4; gi++) {
			const size_t in_g = groups[gi], taps = 1 + rt_rng_below(&rng, 9);
			const size_t O = 1 + rt_rng_below(&rng, 40), n = O * taps * in_g;
			int8_t *f = malloc(n);
			rand_filter(&rng, f, n, bw, false);
			vta_lut_buffer b;
			compress(f, n, O, false, bw, &b);
			const size_t rb = (BO * in_g * bw + 7) / 8, ob = (O + BO - 1) / BO;
			const uint64_t bytes = vta_lut_pack_group_rows_bytes(&cfg, O, taps, in_g, bw);
			assert_int_equal(bytes, ob * taps * rb);
			uint8_t *rows = malloc(bytes);
			memset(rows, 0xa5, bytes);
			vta_error err = {0};
			assert_int_equal(vta_lut_pack_group_rows(&cfg, &b.tensor, O, taps, in_g, rows,
								 bytes, &err),
					 VTA_OK);
			const int8_t *table = b.tensor.value_table;
			const size_t stride = b.tensor.value_table_stride;
			for (size_t o0 = 0; o0 < ob; o0++)
				for (size_t k = 0; k < taps; k++) {
					const uint8_t *row = rows + (o0 * taps + k) * rb;
					for (size_t l = 0; l < BO * in_g; l++) {
						const size_t o = o0 * BO + l / in_g, i = l % in_g;
						const unsigned idx = row_index(row, l, bw);
						if (o >= O)
							assert_int_equal(idx, 0);
						else
							assert_int_equal(table[o * stride + idx],
									 f[(o * taps + k) * in_g + i]);
					}
					for (size_t bit = BO * in_g * bw; bit < rb * 8; bit++)
						assert_int_equal((row[bit / 8] >> (7 - bit % 8)) & 1u, 0);
				}
			if (bw == 4 && in_g == 2) {
				assert_int_equal(vta_lut_pack_group_rows(&cfg, &b.tensor, O, taps,
									 in_g, rows, bytes - 1, &err),
						 VTA_E_USAGE);
				rt_assert_error(&err, VTA_E_USAGE, "the packed image needs");
			}
			free(rows);
			free(f);
			vta_lut_buffer_free(&b);
		}
	int8_t f[3 * 2] = {1, 2, 3, 4, 5, 6};
	vta_lut_buffer b;
	compress(f, 6, 2, false, 3, &b);
	uint8_t rows[64];
	vta_error err = {0};
	assert_int_equal(vta_lut_pack_group_rows(&cfg, &b.tensor, 2, 1, 3, rows, sizeof(rows),
						 &err),
			 VTA_E_UNSUPPORTED);
	rt_assert_error(&err, VTA_E_UNSUPPORTED, "groups of 3 input channels do not divide "
			"block_in 16");
	vta_lut_buffer_free(&b);
}

static void test_errors(void **state)
{
	(void)state;
	rt_rng rng;
	rt_rng_seed(&rng, 13);
	vta_error err = {0};
	vta_lut_buffer b, s;
	int8_t f[9 * 8];
	rand_filter(&rng, f, sizeof(f), 3, false);
	/* depthwise tables on the first axis */
	compress(f, sizeof(f), 8, false, 3, &b);
	vta_lut_depthwise_ohwi(&b.tensor, 9, 8, &s, &err);
	rt_assert_error(&err, VTA_E_UNSUPPORTED, "one per output channel along the last axis");
	vta_lut_buffer_free(&s);
	/* grouped tables on the last axis */
	vta_lut_buffer_free(&b);
	compress(f, sizeof(f), 8, true, 3, &b);
	vta_lut_spread_groups(&b.tensor, 8, 9, 1, 1, 4, &s, &err);
	rt_assert_error(&err, VTA_E_UNSUPPORTED, "one per output channel along the first axis");
	vta_lut_buffer_free(&s);
	vta_lut_buffer_free(&b);
	/* a shape that does not hold the tensor */
	compress(f, sizeof(f), 1, false, 3, &b);
	vta_lut_depthwise_ohwi(&b.tensor, 9, 9, &s, &err);
	rt_assert_error(&err, VTA_E_USAGE, "filter");
	vta_lut_buffer_free(&s);
	vta_lut_buffer_free(&b);
	/* 7-bit tables full of nonzero values: no room for the zero entry */
	int8_t g[128 * 4];
	for (size_t e = 0; e < sizeof(g); e++)
		g[e] = (int8_t)(e % 128 + 1);
	compress(g, sizeof(g), 1, false, 7, &b);
	vta_lut_spread_groups(&b.tensor, 4, 1, 128, 1, 256, &s, &err);
	rt_assert_error(&err, VTA_E_UNSUPPORTED, "has no zero and no room for one (7-bit indices)");
	vta_lut_buffer_free(&s);
	vta_lut_buffer_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_depthwise),
		cmocka_unit_test(test_spread),
		cmocka_unit_test(test_group_rows),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
