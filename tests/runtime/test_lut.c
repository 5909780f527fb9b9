/*
 * test_lut.c - LUT decoding: the TFLM documents' vectors, both channel axes, every type and
 * width against a bit-by-bit reference decoder written here, the int8 fast paths at awkward
 * alignments, and one negative test per malformed-input diagnostic.
 */
#include "rt_test.h"

#include <stdlib.h>

#include "lut.h"

/* ---- reference: read one bit at a time, assemble table values from little-endian bytes ---- */

static unsigned ref_index(const uint8_t *s, size_t i, unsigned bw)
{
	unsigned v = 0;
	for (unsigned b = 0; b < bw; b++) {
		size_t bit = i * bw + b;
		v = (v << 1) | ((s[bit / 8] >> (7 - bit % 8)) & 1u);
	}
	return v;
}

static void ref_decode(const vta_lut_tensor *t, uint8_t *out)
{
	size_t esz = vta_lut_type_size(t->type);
	const uint8_t *tab = t->value_table;
	for (size_t e = 0; e < t->count; e++) {
		size_t c = t->channels == 1 ? 0
			 : t->axis_last	    ? e % t->channels
					    : e / (t->count / t->channels);
		unsigned idx = ref_index(t->indices, e, t->bitwidth);
		uint64_t v = 0;
		for (size_t b = 0; b < esz; b++)
			v |= (uint64_t)tab[(c * t->value_table_stride + idx) * esz + b] << (8 * b);
		switch (esz) {
		case 1: out[e] = (uint8_t)v; break;
		case 2: { uint16_t x = (uint16_t)v; memcpy(out + 2 * e, &x, 2); break; }
		case 4: { uint32_t x = (uint32_t)v; memcpy(out + 4 * e, &x, 4); break; }
		default: memcpy(out + 8 * e, &v, 8); break;
		}
	}
}

/* Decode through the identity table 0..127, so the output is the raw indices. */
static void decode_identity(const uint8_t *bytes, size_t nbytes, unsigned bw, size_t count,
			    int8_t *out)
{
	int8_t identity[128];
	for (int i = 0; i < 128; i++)
		identity[i] = (int8_t)i;
	vta_lut_tensor t = {
		.type = VTA_LUT_INT8, .bitwidth = bw, .count = count, .channels = 1,
		.value_table = identity, .value_table_bytes = sizeof(identity),
		.value_table_stride = (size_t)1 << bw, .indices = bytes, .indices_bytes = nbytes,
	};
	vta_error err = {0};
	assert_int_equal(vta_lut_decode(&t, out, count, &err), VTA_OK);
}

static void test_packing_vectors(void **state)
{
	(void)state;
	int8_t out[16];
	struct {
		unsigned bw;
		size_t n;
		uint8_t bytes[4];
		size_t nbytes;
		int8_t idx[8];
	} v[] = {
		/* the compression doc: 111 000 011 010 -> 7, 0, 3, 2 */
		{3, 4, {0xE1, 0xA0}, 2, {7, 0, 3, 2}},
		/* tflite-micro lut_test.py */
		{4, 4, {0x12, 0x30}, 2, {1, 2, 3, 0}},
		{2, 4, {0x1B}, 1, {0, 1, 2, 3}},
		{3, 8, {0x05, 0x39, 0x77}, 3, {0, 1, 2, 3, 4, 5, 6, 7}},
		{1, 8, {0x5A}, 1, {0, 1, 0, 1, 1, 0, 1, 0}},
		{4, 4, {0x01, 0x23}, 2, {0, 1, 2, 3}},
		/* legacy compress_test.py */
		{3, 4, {0x2E, 0xF0}, 2, {1, 3, 5, 7}},
		{5, 4, {0x08, 0xA1, 0xF0}, 3, {1, 2, 16, 31}},
		{7, 4, {0x03, 0x03, 0xFA, 0x00}, 4, {1, 64, 127, 32}},
		{1, 6, {0xB4}, 1, {1, 0, 1, 1, 0, 1}},
	};
	for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++) {
		decode_identity(v[k].bytes, v[k].nbytes, v[k].bw, v[k].n, out);
		assert_memory_equal(out, v[k].idx, v[k].n);
	}
}

/* The compression doc's INT16 examples, per tensor and per channel (with padding). */
static void test_doc_int16(void **state)
{
	(void)state;
	const int16_t want[10] = {2, 4, 4, 10, 1, 7, 99, 10, 2, 4};
	int16_t out[10];
	vta_error err = {0};

	const int16_t tab1[6] = {99, 2, 10, 4, 1, 7};
	const uint8_t idx1[4] = {0x2D, 0xA9, 0x42, 0x2C}; /* 00101101101010010100001000101100 */
	vta_lut_tensor t = {
		.type = VTA_LUT_INT16, .bitwidth = 3, .count = 10, .channels = 1,
		.value_table = tab1, .value_table_bytes = sizeof(tab1), .value_table_stride = 6,
		.indices = idx1, .indices_bytes = sizeof(idx1),
	};
	assert_int_equal(vta_lut_decode(&t, out, sizeof(out), &err), VTA_OK);
	assert_memory_equal(out, want, sizeof(want));

	const int16_t tab2[10] = {1, 10, 2, 4, 0, 99, 10, 2, 7, 4}; /* channel 0 padded with 0 */
	const uint8_t idx2[4] = {0x4D, 0x90, 0xC1, 0x50}; /* 01001101100100001100000101010000 */
	const uint8_t counts[2] = {4, 5};
	t.value_table = tab2;
	t.value_table_bytes = sizeof(tab2);
	t.value_table_stride = 5;
	t.channels = 2;
	t.indices = idx2;
	memset(out, 0, sizeof(out));
	assert_int_equal(vta_lut_decode(&t, out, sizeof(out), &err), VTA_OK);
	assert_memory_equal(out, want, sizeof(want));
	t.channel_counts = counts; /* channel 0 never uses its padding entry */
	assert_int_equal(vta_lut_decode(&t, out, sizeof(out), &err), VTA_OK);
	assert_memory_equal(out, want, sizeof(want));
}

/* DECODE kernel test vectors and the legacy mock model (tflite-micro decode_test.cc,
 * test_helpers.cc). */
static void test_decode_vectors(void **state)
{
	(void)state;
	vta_error err = {0};
	const uint8_t enc[2] = {0x1B, 0xE4};
	const int8_t tab8[4] = {1, 2, 3, 4};
	int8_t out8[8];
	const int8_t want8[8] = {1, 2, 3, 4, 4, 3, 2, 1};
	vta_lut_tensor t = {
		.type = VTA_LUT_INT8, .bitwidth = 2, .count = 8, .channels = 1,
		.value_table = tab8, .value_table_bytes = 4, .value_table_stride = 4,
		.indices = enc, .indices_bytes = 2,
	};
	assert_int_equal(vta_lut_decode(&t, out8, sizeof(out8), &err), VTA_OK);
	assert_memory_equal(out8, want8, 8);

	const int16_t tab16[4] = {5, 6, 7, 8};
	int16_t out16[8];
	const int16_t want16[8] = {5, 6, 7, 8, 8, 7, 6, 5};
	t.type = VTA_LUT_INT16;
	t.value_table = tab16;
	t.value_table_bytes = sizeof(tab16);
	assert_int_equal(vta_lut_decode(&t, out16, sizeof(out16), &err), VTA_OK);
	assert_memory_equal(out16, want16, sizeof(want16));

	const uint8_t legacy[8] = {0x01, 0x23, 0x45, 0x98, 0x76, 0x01, 0x23, 0x40};
	const int16_t ltab[10] = {1, 2, 3, 4, 5, -1, -5, -4, -3, -2};
	const int16_t lwant[15] = {1, 2, 3, 4, 5, -1, -2, -3, -4, -5, 1, 2, 3, 4, 5};
	int16_t lout[15];
	vta_lut_tensor l = {
		.type = VTA_LUT_INT16, .bitwidth = 4, .count = 15, .channels = 1,
		.value_table = ltab, .value_table_bytes = sizeof(ltab), .value_table_stride = 10,
		.indices = legacy, .indices_bytes = sizeof(legacy),
	};
	assert_int_equal(vta_lut_decode(&l, lout, sizeof(lout), &err), VTA_OK);
	assert_memory_equal(lout, lwant, sizeof(lwant));
}

/* The doc's channel maps: [4,2,2,1] axis first is 0000 1111 ..., [1,2,2,4] axis last 0123 ... */
static void test_channel_axes(void **state)
{
	(void)state;
	int8_t tab[4 * 2];
	for (int c = 0; c < 4; c++) {
		tab[2 * c] = (int8_t)(10 * c);
		tab[2 * c + 1] = (int8_t)(10 * c + 1);
	}
	uint8_t idx[2] = {0x00, 0x00}; /* all index 0: the output is the channel map itself */
	int8_t out[16];
	vta_error err = {0};
	vta_lut_tensor t = {
		.type = VTA_LUT_INT8, .bitwidth = 1, .count = 16, .channels = 4,
		.value_table = tab, .value_table_bytes = sizeof(tab), .value_table_stride = 2,
		.indices = idx, .indices_bytes = 2,
	};
	assert_int_equal(vta_lut_decode(&t, out, sizeof(out), &err), VTA_OK);
	for (int e = 0; e < 16; e++)
		assert_int_equal(out[e], 10 * (e / 4));
	t.axis_last = true;
	assert_int_equal(vta_lut_decode(&t, out, sizeof(out), &err), VTA_OK);
	for (int e = 0; e < 16; e++)
		assert_int_equal(out[e], 10 * (e % 4));
}

/* Random descriptors of every type, width, axis and table layout against the reference. */
static void check_against_reference(rt_rng *r, vta_lut_type type, unsigned bw, size_t channels,
				    size_t epc, bool axis_last, bool with_counts)
{
	size_t esz = vta_lut_type_size(type);
	size_t count = channels * epc;
	size_t stride = rt_rng_below(r, 2) ? ((size_t)1 << bw) : 1 + rt_rng_below(r, (size_t)1 << bw);
	size_t tbytes = channels * stride * esz;
	uint8_t *tab = malloc(tbytes);
	uint8_t counts[64];
	for (size_t b = 0; b < tbytes; b++)
		tab[b] = (uint8_t)rt_rng_next(r);
	for (size_t c = 0; c < channels; c++)
		counts[c] = (uint8_t)(with_counts ? 1 + rt_rng_below(r, stride) : stride);
	size_t nbytes = vta_lut_indices_bytes(count, bw);
	uint8_t *idx = calloc(nbytes + 1, 1);
	for (size_t e = 0; e < count; e++) {
		size_t c = axis_last ? e % channels : e / epc;
		unsigned v = (unsigned)rt_rng_below(r, counts[c]);
		for (unsigned b = 0; b < bw; b++) {
			size_t bit = e * bw + b;
			if ((v >> (bw - 1 - b)) & 1)
				idx[bit / 8] |= (uint8_t)(0x80 >> (bit % 8));
		}
	}
	vta_lut_tensor t = {
		.type = type, .bitwidth = bw, .count = count, .channels = channels,
		.axis_last = axis_last, .value_table = tab, .value_table_bytes = tbytes,
		.value_table_stride = stride, .channel_counts = with_counts ? counts : NULL,
		.indices = idx, .indices_bytes = nbytes,
	};
	uint8_t *got = malloc(count * esz), *want = malloc(count * esz);
	ref_decode(&t, want);
	vta_error err = {0};
	assert_int_equal(vta_lut_decode(&t, got, count * esz, &err), VTA_OK);
	assert_memory_equal(got, want, count * esz);
	free(tab);
	free(idx);
	free(got);
	free(want);
}

static void test_random_vs_reference(void **state)
{
	(void)state;
	rt_rng r;
	rt_rng_seed(&r, 42);
	const size_t epcs[] = {1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 31, 33, 63, 64, 65, 127, 129, 256};
	for (int type = 0; type < VTA_LUT_TYPE_COUNT; type++)
		for (unsigned bw = 1; bw <= 7; bw++)
			for (size_t k = 0; k < sizeof(epcs) / sizeof(epcs[0]); k++)
				for (int axis = 0; axis < 2; axis++) {
					size_t ch = 1 + rt_rng_below(&r, 5);
					check_against_reference(&r, (vta_lut_type)type, bw, ch,
								epcs[k], axis, k % 2);
				}
}

/* The int8 fast paths: long channels whose starts fall on every alignment of the groups. */
static void test_int8_fast_paths(void **state)
{
	(void)state;
	rt_rng r;
	rt_rng_seed(&r, 7);
	for (unsigned bw = 2; bw <= 4; bw++)
		for (size_t epc = 64; epc < 64 + 17; epc++)
			for (int counts = 0; counts < 2; counts++)
				check_against_reference(&r, VTA_LUT_INT8, bw, 3, epc, false,
							counts);
	check_against_reference(&r, VTA_LUT_INT8, 4, 1, 100000, false, false);
	check_against_reference(&r, VTA_LUT_INT8, 3, 2, 50001, false, true);
	check_against_reference(&r, VTA_LUT_INT8, 2, 5, 20003, false, false);
}

/* Random, often malformed descriptors over buffers allocated exactly as claimed: every call
 * either fails cleanly or matches the reference (under ASan an over-read would abort). */
static void test_random_descriptors(void **state)
{
	(void)state;
	rt_rng r;
	rt_rng_seed(&r, 1234);
	for (int iter = 0; iter < 3000; iter++) {
		vta_lut_type type = (vta_lut_type)rt_rng_below(&r, VTA_LUT_TYPE_COUNT + 1);
		size_t esz = vta_lut_type_size(type) ? vta_lut_type_size(type) : 1;
		unsigned bw = (unsigned)rt_rng_below(&r, 9);
		size_t channels = rt_rng_below(&r, 6);
		size_t count = rt_rng_below(&r, 300);
		size_t stride = rt_rng_below(&r, 131);
		size_t tbytes = rt_rng_below(&r, 2) ? channels * stride * esz : rt_rng_below(&r, 64);
		size_t ibytes = bw >= 1 && bw <= 7 && rt_rng_below(&r, 4)
					? vta_lut_indices_bytes(count, bw)
					: rt_rng_below(&r, 200);
		uint8_t *tab = malloc(tbytes ? tbytes : 1), *idx = malloc(ibytes ? ibytes : 1);
		uint8_t counts[8];
		for (size_t i = 0; i < tbytes; i++)
			tab[i] = (uint8_t)rt_rng_next(&r);
		for (size_t i = 0; i < ibytes; i++)
			idx[i] = (uint8_t)(rt_rng_below(&r, 3) ? 0 : rt_rng_next(&r)); /* mostly valid */
		for (size_t c = 0; c < 8; c++)
			counts[c] = (uint8_t)rt_rng_below(&r, stride + 2);
		vta_lut_tensor t = {
			.type = type, .bitwidth = bw, .count = count, .channels = channels,
			.axis_last = rt_rng_below(&r, 2), .value_table = tab,
			.value_table_bytes = tbytes, .value_table_stride = stride,
			.channel_counts = rt_rng_below(&r, 3) ? NULL : counts, .indices = idx,
			.indices_bytes = ibytes,
		};
		size_t obytes = count * esz;
		uint8_t *out = malloc(obytes ? obytes : 1), *want = malloc(obytes ? obytes : 1);
		vta_error err = {0};
		vta_status st = vta_lut_decode(&t, out, obytes, &err);
		if (st == VTA_OK) {
			ref_decode(&t, want);
			assert_memory_equal(out, want, obytes);
		} else {
			assert_true(st == VTA_E_DATA || st == VTA_E_USAGE);
			assert_true(strncmp(err.detail, "LUT ", 4) == 0);
		}
		free(tab);
		free(idx);
		free(out);
		free(want);
	}
}

/* ---- malformed input ---- */

typedef struct bad_case {
	vta_lut_tensor t;
	int8_t tab[256];
	uint8_t idx[64];
	uint8_t counts[4];
} bad_case;

static void bad_setup(bad_case *b)
{
	memset(b, 0, sizeof(*b));
	for (int i = 0; i < 256; i++)
		b->tab[i] = (int8_t)i;
	b->t = (vta_lut_tensor){
		.type = VTA_LUT_INT8, .bitwidth = 3, .count = 10, .channels = 2,
		.value_table = b->tab, .value_table_bytes = 10, .value_table_stride = 5,
		.indices = b->idx, .indices_bytes = vta_lut_indices_bytes(10, 3),
	};
}

static void expect_bad(bad_case *b, vta_status st, const char *needle)
{
	int8_t out[256];
	vta_error err = {0};
	assert_int_equal(vta_lut_decode(&b->t, out, sizeof(out), &err), st);
	rt_assert_error(&err, st, needle);
}

static void test_bad_bitwidth(void **state)
{
	(void)state;
	bad_case b;
	bad_setup(&b);
	b.t.bitwidth = 0;
	expect_bad(&b, VTA_E_DATA, "bit width 0 is outside 1..7");
	b.t.bitwidth = 8;
	expect_bad(&b, VTA_E_DATA, "bit width 8 is outside 1..7");
}

static void test_bad_short_indices(void **state)
{
	(void)state;
	bad_case b;
	bad_setup(&b);
	b.t.indices_bytes = 3; /* 10 x 3 bits need 4 bytes */
	expect_bad(&b, VTA_E_DATA, "index string has 3 bytes, 10 elements at 3 bits need 4");
	b.t.indices = NULL;
	b.t.indices_bytes = 0;
	expect_bad(&b, VTA_E_DATA, "index string has 0 bytes");
}

static void test_bad_index_beyond_stride(void **state)
{
	(void)state;
	bad_case b;
	bad_setup(&b);
	/* element 2 (channel 0) gets index 6 > stride 5: bits 6..8 */
	b.idx[0] = 0x03; /* ......11 */
	b.idx[1] = 0x00; /* 0....... -> 110 = 6 */
	expect_bad(&b, VTA_E_DATA, "element 2 (channel 0) has index 6, beyond the value table "
				   "stride 5");
}

static void test_bad_index_beyond_channel_count(void **state)
{
	(void)state;
	bad_case b;
	bad_setup(&b);
	b.counts[0] = 5;
	b.counts[1] = 2;
	b.t.channel_counts = b.counts;
	/* element 7 (channel 1) gets index 3: bits 21..23 = 011 */
	b.idx[2] = 0x03;
	expect_bad(&b, VTA_E_DATA, "element 7 (channel 1) has index 3, but the channel's table "
				   "holds 2 values");
	b.counts[1] = 0;
	expect_bad(&b, VTA_E_DATA, "channel 1 claims 0 table entries");
	b.counts[1] = 6;
	expect_bad(&b, VTA_E_DATA, "channel 1 claims 6 table entries, outside 1..stride 5");
}

static void test_bad_fast_path_index(void **state)
{
	(void)state;
	/* A long int8 channel (fast path) with one bad index deep inside its aligned body. */
	for (unsigned bw = 2; bw <= 4; bw++) {
		size_t count = 300;
		uint8_t idx[300] = {0};
		int8_t tab[16] = {0};
		size_t bad_at = 201;
		unsigned bad_value = (1u << bw) - 1;
		for (unsigned b = 0; b < bw; b++) {
			size_t bit = bad_at * bw + b;
			idx[bit / 8] |= (uint8_t)(0x80 >> (bit % 8));
		}
		vta_lut_tensor t = {
			.type = VTA_LUT_INT8, .bitwidth = bw, .count = count, .channels = 1,
			.value_table = tab, .value_table_bytes = sizeof(tab),
			.value_table_stride = bad_value, /* the largest index is one too many */
			.indices = idx, .indices_bytes = vta_lut_indices_bytes(count, bw),
		};
		int8_t out[300];
		vta_error err = {0};
		char needle[96];
		snprintf(needle, sizeof(needle), "element 201 (channel 0) has index %u", bad_value);
		assert_int_equal(vta_lut_decode(&t, out, sizeof(out), &err), VTA_E_DATA);
		rt_assert_error(&err, VTA_E_DATA, needle);
	}
}

static void test_bad_channels(void **state)
{
	(void)state;
	bad_case b;
	bad_setup(&b);
	b.t.channels = 3;
	b.t.value_table_bytes = 15;
	expect_bad(&b, VTA_E_DATA, "channel count 3 does not divide element count 10");
	b.t.channels = 0;
	expect_bad(&b, VTA_E_DATA, "channel count is 0");
}

static void test_bad_stride(void **state)
{
	(void)state;
	bad_case b;
	bad_setup(&b);
	b.t.value_table_stride = 129;
	b.t.value_table_bytes = 256;
	b.t.channels = 1;
	expect_bad(&b, VTA_E_DATA, "value table stride 129 is outside 1..128");
	b.t.value_table_stride = 0;
	expect_bad(&b, VTA_E_DATA, "value table stride 0 is outside 1..128");
}

static void test_bad_table_and_output(void **state)
{
	(void)state;
	bad_case b;
	bad_setup(&b);
	b.t.value_table_bytes = 9; /* 2 channels x stride 5 need 10 */
	expect_bad(&b, VTA_E_DATA, "value table has 9 bytes, 2 channels x stride 5");
	bad_setup(&b);
	b.t.type = (vta_lut_type)17;
	expect_bad(&b, VTA_E_DATA, "unsupported element type 17");
	bad_setup(&b);
	int8_t out[4];
	vta_error err = {0};
	assert_int_equal(vta_lut_decode(&b.t, out, sizeof(out), &err), VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "output buffer of 4 bytes is smaller than 10 int8");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_packing_vectors),
		cmocka_unit_test(test_doc_int16),
		cmocka_unit_test(test_decode_vectors),
		cmocka_unit_test(test_channel_axes),
		cmocka_unit_test(test_random_vs_reference),
		cmocka_unit_test(test_int8_fast_paths),
		cmocka_unit_test(test_random_descriptors),
		cmocka_unit_test(test_bad_bitwidth),
		cmocka_unit_test(test_bad_short_indices),
		cmocka_unit_test(test_bad_index_beyond_stride),
		cmocka_unit_test(test_bad_index_beyond_channel_count),
		cmocka_unit_test(test_bad_fast_path_index),
		cmocka_unit_test(test_bad_channels),
		cmocka_unit_test(test_bad_stride),
		cmocka_unit_test(test_bad_table_and_output),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
