/*
 * test_lut_compress.c - LUT compression (TFLM compressor vectors, both stride conventions, width
 * selection, round trips over every type, width and axis) and binning.
 */
#include "rt_test.h"

#include <math.h>
#include <stdlib.h>

#include "lut.h"

static void test_min_bitwidth(void **state)
{
	(void)state;
	/* lut_test.py: 3 or 4 unique -> 2 bits, 5 -> 3 bits, 1 value -> 1 bit */
	assert_int_equal(vta_lut_min_bitwidth(1), 1);
	assert_int_equal(vta_lut_min_bitwidth(2), 1);
	assert_int_equal(vta_lut_min_bitwidth(3), 2);
	assert_int_equal(vta_lut_min_bitwidth(4), 2);
	assert_int_equal(vta_lut_min_bitwidth(5), 3);
	assert_int_equal(vta_lut_min_bitwidth(128), 7);
}

/* Packing vectors from lut_test.py whose values are exactly 0..n-1 (so indices = values). */
static void test_pack_vectors(void **state)
{
	(void)state;
	struct {
		unsigned bw;
		size_t n;
		int8_t data[8];
		uint8_t bytes[3];
	} v[] = {
		{4, 4, {1, 2, 3, 0}, {0x12, 0x30}},
		{2, 4, {0, 1, 2, 3}, {0x1B}},
		{3, 8, {0, 1, 2, 3, 4, 5, 6, 7}, {0x05, 0x39, 0x77}},
		{1, 8, {0, 1, 0, 1, 1, 0, 1, 0}, {0x5A}},
		{4, 4, {0, 1, 2, 3}, {0x01, 0x23}},
	};
	for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++) {
		vta_lut_buffer b;
		vta_error err = {0};
		assert_int_equal(vta_lut_compress(VTA_LUT_INT8, v[k].data, v[k].n, 1, false, v[k].bw,
						  VTA_LUT_STRIDE_POW2, &b, &err),
				 VTA_OK);
		assert_int_equal(b.tensor.bitwidth, v[k].bw);
		assert_int_equal(b.tensor.indices_bytes, vta_lut_indices_bytes(v[k].n, v[k].bw));
		assert_memory_equal(b.indices, v[k].bytes, b.tensor.indices_bytes);
		vta_lut_buffer_free(&b);
	}
}

/* Table packing: [[1,2],[3,4]] at stride 4 -> 01 02 00 00 03 04 00 00; int16 little-endian. */
static void test_table_vectors(void **state)
{
	(void)state;
	vta_lut_buffer b;
	vta_error err = {0};
	const int8_t d[4] = {2, 1, 4, 3};
	assert_int_equal(vta_lut_compress(VTA_LUT_INT8, d, 4, 2, false, 2, VTA_LUT_STRIDE_POW2, &b,
					  &err),
			 VTA_OK);
	const uint8_t want[8] = {1, 2, 0, 0, 3, 4, 0, 0};
	assert_int_equal(b.tensor.value_table_stride, 4);
	assert_int_equal(b.tensor.value_table_bytes, 8);
	assert_memory_equal(b.table, want, 8);
	assert_int_equal(b.indices[0], 0x44); /* 01 00 01 00 */
	vta_lut_buffer_free(&b);

	const int16_t d16[2] = {0x5678, 0x1234};
	assert_int_equal(vta_lut_compress(VTA_LUT_INT16, d16, 2, 1, false, 0,
					  VTA_LUT_STRIDE_MAX_UNIQUE, &b, &err),
			 VTA_OK);
	const uint8_t want16[4] = {0x34, 0x12, 0x78, 0x56};
	assert_int_equal(b.tensor.value_table_bytes, 4);
	assert_memory_equal(b.table, want16, 4);
	vta_lut_buffer_free(&b);
}

/* 3 unique values at 4 bits: stride 3 for DECODE ("NOT 16"), 16 for the legacy compressor. */
static void test_stride_conventions(void **state)
{
	(void)state;
	const int8_t d[6] = {5, -3, 5, 9, 9, -3};
	vta_lut_buffer b;
	vta_error err = {0};
	assert_int_equal(vta_lut_compress(VTA_LUT_INT8, d, 6, 1, false, 4,
					  VTA_LUT_STRIDE_MAX_UNIQUE, &b, &err),
			 VTA_OK);
	assert_int_equal(b.tensor.value_table_stride, 3);
	const int8_t sorted[3] = {-3, 5, 9};
	assert_memory_equal(b.table, sorted, 3);
	vta_lut_buffer_free(&b);
	assert_int_equal(vta_lut_compress(VTA_LUT_INT8, d, 6, 1, false, 4, VTA_LUT_STRIDE_POW2, &b,
					  &err),
			 VTA_OK);
	assert_int_equal(b.tensor.value_table_stride, 16);
	assert_memory_equal(b.table, sorted, 3);
	for (int k = 3; k < 16; k++)
		assert_int_equal(b.table[k], 0);
	vta_lut_buffer_free(&b);

	/* Per channel with unequal counts: the stride is the largest count, tables padded. */
	const int16_t pc[10] = {2, 4, 4, 10, 1, 7, 99, 10, 2, 4};
	assert_int_equal(vta_lut_compress(VTA_LUT_INT16, pc, 10, 2, false, 3,
					  VTA_LUT_STRIDE_MAX_UNIQUE, &b, &err),
			 VTA_OK);
	const int16_t tab[10] = {1, 2, 4, 10, 0, 2, 4, 7, 10, 99};
	assert_int_equal(b.tensor.value_table_stride, 5);
	assert_memory_equal(b.table, tab, sizeof(tab));
	assert_int_equal(b.counts[0], 4);
	assert_int_equal(b.counts[1], 5);
	vta_lut_buffer_free(&b);
}

static void test_compress_errors(void **state)
{
	(void)state;
	vta_lut_buffer b;
	vta_error err = {0};
	const int8_t d[5] = {1, 2, 3, 4, 5};
	assert_int_equal(vta_lut_compress(VTA_LUT_INT8, d, 5, 1, false, 2, VTA_LUT_STRIDE_POW2, &b,
					  &err),
			 VTA_E_DATA);
	rt_assert_error(&err, VTA_E_DATA, "5 distinct values need 3-bit indices, 2 requested");
	assert_null(b.table);
	assert_int_equal(vta_lut_compress(VTA_LUT_INT8, d, 5, 1, false, 8, VTA_LUT_STRIDE_POW2, &b,
					  &err),
			 VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "index bit width 8 is above 7");
	assert_int_equal(vta_lut_compress(VTA_LUT_INT8, d, 5, 2, false, 0, VTA_LUT_STRIDE_POW2, &b,
					  &err),
			 VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "2 channels do not divide 5 elements");

	int16_t many[200];
	for (int i = 0; i < 200; i++)
		many[i] = (int16_t)(i * 3);
	assert_int_equal(vta_lut_compress(VTA_LUT_INT16, many, 200, 1, false, 0,
					  VTA_LUT_STRIDE_POW2, &b, &err),
			 VTA_E_DATA);
	rt_assert_error(&err, VTA_E_DATA, "channel 0 has more than 128 distinct values");

	float f[3] = {1.0f, NAN, 2.0f};
	assert_int_equal(vta_lut_compress(VTA_LUT_FLOAT32, f, 3, 1, false, 0, VTA_LUT_STRIDE_POW2,
					  &b, &err),
			 VTA_E_DATA);
	rt_assert_error(&err, VTA_E_DATA, "element 1 is NaN");
}

/* Random values of a type: a pool of `k` distinct raw patterns per channel. */
static void fill_pool(rt_rng *r, vta_lut_type type, uint8_t *pool, size_t k)
{
	size_t esz = vta_lut_type_size(type);
	size_t n = 0;
	while (n < k) {
		uint64_t raw = rt_rng_next(r);
		if (type == VTA_LUT_BOOL)
			raw &= 1;
		if (type == VTA_LUT_FLOAT32) {
			float f = (float)((int64_t)(raw % 20001) - 10000) / 64.0f;
			if (raw % 7 == 0)
				f = (raw & 8) ? -0.0f : 0.0f;
			uint32_t u;
			memcpy(&u, &f, 4);
			raw = u;
		}
		bool dup = false;
		for (size_t i = 0; i < n; i++)
			if (memcmp(pool + i * esz, &raw, esz) == 0)
				dup = true;
		if (dup)
			continue;
		memcpy(pool + n * esz, &raw, esz); /* little-endian host: low bytes first */
		n++;
	}
}

/* Does channel c's table read as ascending values of the type? */
static double value_of(vta_lut_type type, const uint8_t *p)
{
	switch (type) {
	case VTA_LUT_BOOL: return p[0];
	case VTA_LUT_INT8: return (int8_t)p[0];
	case VTA_LUT_INT16: { int16_t v; memcpy(&v, p, 2); return v; }
	case VTA_LUT_INT32: { int32_t v; memcpy(&v, p, 4); return v; }
	case VTA_LUT_INT64: { int64_t v; memcpy(&v, p, 8); return (double)v; }
	default: {
		float v;
		memcpy(&v, p, 4);
		return v == 0 ? (signbit(v) ? -1e-300 : 0) : v; /* -0.0 sorts below +0.0 */
	}
	}
}

static void round_trip(rt_rng *r, vta_lut_type type, unsigned bw, size_t channels, size_t epc,
		       bool axis_last, vta_lut_stride_mode mode, bool request)
{
	size_t esz = vta_lut_type_size(type);
	size_t count = channels * epc;
	size_t maxk = (size_t)1 << bw;
	if (type == VTA_LUT_BOOL && maxk > 2)
		maxk = 2;
	uint8_t *data = malloc(count * esz);
	uint8_t pool[128 * 8];
	for (size_t c = 0; c < channels; c++) {
		size_t k = 1 + rt_rng_below(r, maxk);
		fill_pool(r, type, pool, k);
		for (size_t q = 0; q < epc; q++) {
			size_t e = axis_last ? q * channels + c : c * epc + q;
			memcpy(data + e * esz, pool + rt_rng_below(r, k) * esz, esz);
		}
	}
	vta_lut_buffer b;
	vta_error err = {0};
	assert_int_equal(vta_lut_compress(type, data, count, channels, axis_last, request ? bw : 0,
					  mode, &b, &err),
			 VTA_OK);
	if (request)
		assert_int_equal(b.tensor.bitwidth, bw);
	else
		assert_true(b.tensor.bitwidth <= bw);
	size_t stride = b.tensor.value_table_stride;
	if (mode == VTA_LUT_STRIDE_POW2)
		assert_int_equal(stride, (size_t)1 << b.tensor.bitwidth);
	for (size_t c = 0; c < channels; c++) {
		assert_true(b.counts[c] >= 1 && b.counts[c] <= stride);
		for (size_t k = 1; k < b.counts[c]; k++)
			assert_true(value_of(type, b.table + (c * stride + k - 1) * esz) <
				    value_of(type, b.table + (c * stride + k) * esz));
		for (size_t k = b.counts[c]; k < stride; k++)
			for (size_t q = 0; q < esz; q++)
				assert_int_equal(b.table[(c * stride + k) * esz + q], 0);
	}
	uint8_t *back = malloc(count * esz);
	assert_int_equal(vta_lut_decode(&b.tensor, back, count * esz, &err), VTA_OK);
	assert_memory_equal(back, data, count * esz);
	vta_lut_buffer_free(&b);
	free(data);
	free(back);
}

static void test_round_trip(void **state)
{
	(void)state;
	rt_rng r;
	rt_rng_seed(&r, 2024);
	const size_t shapes[][2] = {{1, 1}, {1, 37}, {3, 1}, {3, 70}, {4, 65}, {7, 9}, {2, 300}};
	for (int type = 0; type < VTA_LUT_TYPE_COUNT; type++)
		for (unsigned bw = 1; bw <= 7; bw++)
			for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++)
				for (int axis = 0; axis < 2; axis++)
					for (int mode = 0; mode < 2; mode++)
						round_trip(&r, (vta_lut_type)type, bw, shapes[s][0],
							   shapes[s][1], axis,
							   (vta_lut_stride_mode)mode, (s + mode) % 2);
}

/* ---- binning ---- */

static void test_binning_small_case(void **state)
{
	(void)state;
	/* Two clusters from {0 x3, 10 x3, 100}: the quantile split puts 0 and 10 together (mean
	 * 5) and 100 alone; Lloyd's keeps it. */
	const float in[7] = {0, 10, 0, 100, 10, 0, 10};
	float out[7];
	vta_lut_bin_report rep;
	vta_error err = {0};
	assert_int_equal(vta_lut_bin_f32(in, out, 7, 1, false, 1, VTA_LUT_BIN_KMEANS, &rep, &err),
			 VTA_OK);
	const float want[7] = {5, 5, 5, 100, 5, 5, 5};
	assert_memory_equal(out, want, sizeof(want));
	assert_true(rep.max_abs_error == 5.0);
	assert_true(fabs(rep.rms_error - sqrt(6 * 25.0 / 7)) < 1e-12);
	assert_int_equal(rep.max_values, 2);
	assert_int_equal(rep.changed, 6);
}

static void test_binning_int8(void **state)
{
	(void)state;
	rt_rng r;
	rt_rng_seed(&r, 99);
	enum { C = 8, E = 576 };
	int8_t w[C * E], a[C * E], q[C * E];
	for (int i = 0; i < C * E; i++) {
		/* roughly bell-shaped weights */
		int s = 0;
		for (int k = 0; k < 4; k++)
			s += rt_rng_range(&r, -40, 40);
		w[i] = (int8_t)(s / 2);
	}
	for (unsigned bits = 1; bits <= 5; bits++) {
		vta_lut_bin_report rk, rq;
		vta_error err = {0};
		assert_int_equal(vta_lut_bin_i8(w, a, C * E, C, false, bits, VTA_LUT_BIN_KMEANS,
						&rk, &err),
				 VTA_OK);
		assert_int_equal(vta_lut_bin_i8(w, q, C * E, C, false, bits, VTA_LUT_BIN_QUANTILE,
						&rq, &err),
				 VTA_OK);
		assert_true(rk.max_values <= (1u << bits));
		assert_true(rq.max_values <= (1u << bits));
		/* Recompute the report independently. */
		double mx = 0, ss = 0;
		for (int i = 0; i < C * E; i++) {
			double d = fabs((double)a[i] - w[i]);
			mx = d > mx ? d : mx;
			ss += d * d;
		}
		assert_true(mx == rk.max_abs_error);
		assert_true(fabs(sqrt(ss / (C * E)) - rk.rms_error) < 1e-9);
		/* Lloyd's refines the quantile start (up to integer rounding of centroids). */
		assert_true(rk.rms_error <= rq.rms_error + 0.5);
		/* Binned data compresses at `bits`, and decodes back exactly. */
		vta_lut_buffer b;
		assert_int_equal(vta_lut_compress(VTA_LUT_INT8, a, C * E, C, false, bits,
						  VTA_LUT_STRIDE_POW2, &b, &err),
				 VTA_OK);
		int8_t back[C * E];
		assert_int_equal(vta_lut_decode(&b.tensor, back, sizeof(back), &err), VTA_OK);
		assert_memory_equal(back, a, sizeof(back));
		vta_lut_buffer_free(&b);
		/* Deterministic: same input, same output, also in place. */
		int8_t again[C * E];
		memcpy(again, w, sizeof(again));
		assert_int_equal(vta_lut_bin_i8(again, again, C * E, C, false, bits,
						VTA_LUT_BIN_KMEANS, NULL, &err),
				 VTA_OK);
		assert_memory_equal(again, a, sizeof(again));
	}
}

static void test_binning_axis_last_and_identity(void **state)
{
	(void)state;
	/* Channel c = e % 3; each channel already has <= 2 values: unchanged at 1 bit. */
	const float in[6] = {1, -0.0f, 7, 2, -0.0f, 7};
	float out[6];
	vta_lut_bin_report rep;
	vta_error err = {0};
	assert_int_equal(vta_lut_bin_f32(in, out, 6, 3, true, 1, VTA_LUT_BIN_QUANTILE, &rep, &err),
			 VTA_OK);
	assert_memory_equal(out, in, sizeof(in));
	assert_true(rep.max_abs_error == 0 && rep.rms_error == 0 && rep.changed == 0);
	/* Channel 0 of {1, 2, 3} in 3 channels interleaved, 1 bit: channels stay separate. */
	const int8_t ii[9] = {1, 50, -9, 2, 50, -9, 3, 51, -9};
	int8_t io[9];
	assert_int_equal(vta_lut_bin_i8(ii, io, 9, 3, true, 1, VTA_LUT_BIN_KMEANS, &rep, &err),
			 VTA_OK);
	for (int e = 1; e < 9; e += 3)
		assert_true(io[e] == 50 || io[e] == 51);
	for (int e = 2; e < 9; e += 3)
		assert_int_equal(io[e], -9);
	assert_true(io[0] != io[6]);
	assert_true(rep.max_values == 2);
}

static void test_binning_errors(void **state)
{
	(void)state;
	float f[4] = {1, 2, INFINITY, 3};
	float o[4];
	vta_error err = {0};
	assert_int_equal(vta_lut_bin_f32(f, o, 4, 1, false, 1, VTA_LUT_BIN_KMEANS, NULL, &err),
			 VTA_E_DATA);
	rt_assert_error(&err, VTA_E_DATA, "element 2 is not finite");
	assert_int_equal(vta_lut_bin_f32(f, o, 4, 1, false, 0, VTA_LUT_BIN_KMEANS, NULL, &err),
			 VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "0 bits is outside 1..7");
	assert_int_equal(vta_lut_bin_f32(f, o, 4, 3, false, 2, VTA_LUT_BIN_KMEANS, NULL, &err),
			 VTA_E_USAGE);
	rt_assert_error(&err, VTA_E_USAGE, "3 channels do not divide 4 elements");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_min_bitwidth),
		cmocka_unit_test(test_pack_vectors),
		cmocka_unit_test(test_table_vectors),
		cmocka_unit_test(test_stride_conventions),
		cmocka_unit_test(test_compress_errors),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_binning_small_case),
		cmocka_unit_test(test_binning_int8),
		cmocka_unit_test(test_binning_axis_last_and_identity),
		cmocka_unit_test(test_binning_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
