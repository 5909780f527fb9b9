/*
 * test_rtl_lut.c - the verilated LUT decoders (rtl_models/vta_lut_decoder.v, every built
 * variant; 32-bit table entries: the int8 values widened, the low bytes compared) against
 * runtime/lut/lut.h's vta_lut_decode, bit for bit: every bit width 1..7 with
 * random value tables and random index strings (pad bits too), per-tensor and per-channel
 * tables with the channel axis first and last, one-element channels, tensors whose tables
 * exceed the decoder's table (decoded in channel groups that start mid-byte), strides below
 * 2^bitwidth with an index out of range (same error, same element), the job checks, jobs
 * with an explicit run_len (the LOAD path's channel runs: test_rtl_lut_load.c), and the
 * steady-state throughput of min(indices_per_cycle, in_bits / bitwidth) indices per cycle.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lut.h"
#include "prng.h"
#include "rtl_check.h"
#include "rtl_lut.h"

/* A random int8 LUT tensor and the buffers it owns. */
typedef struct lut_case {
	vta_lut_tensor t;
	vta_rtl_lut_job job;
	int8_t *table;
	uint8_t *indices;
} lut_case;

static void put_index(uint8_t *s, size_t e, unsigned bw, unsigned v)
{
	for (unsigned k = 0; k < bw; k++) {
		size_t bit = e * bw + k;
		uint8_t m = (uint8_t)(0x80u >> (bit % 8));
		if ((v >> (bw - 1 - k)) & 1u)
			s[bit / 8] |= m;
		else
			s[bit / 8] &= (uint8_t)~m;
	}
}

/* Tables and indices at random; indices below the stride (then any pattern is valid when the
 * stride reaches 2^bw); bad >= 0 plants one index at or beyond the stride there. */
static void make_case(lut_case *c, vta_prng *r, unsigned bw, size_t count, size_t channels,
		      bool axis_last, size_t stride, long bad)
{
	memset(c, 0, sizeof(*c));
	size_t tbytes = channels * stride;
	size_t ibytes = vta_lut_indices_bytes(count, bw);
	c->table = malloc(tbytes);
	c->indices = malloc(ibytes ? ibytes : 1);
	assert_non_null(c->table);
	assert_non_null(c->indices);
	for (size_t i = 0; i < tbytes; i++)
		c->table[i] = (int8_t)vta_prng_range(r, -128, 127);
	for (size_t i = 0; i < ibytes; i++) /* random bits everywhere, pad bits included */
		c->indices[i] = (uint8_t)vta_prng_next(r);
	if (stride < (1u << bw))
		for (size_t e = 0; e < count; e++)
			put_index(c->indices, e, bw, (unsigned)vta_prng_range(r, 0, (int64_t)stride - 1));
	if (bad >= 0)
		put_index(c->indices, (size_t)bad, bw,
			  (unsigned)vta_prng_range(r, (int64_t)stride, (1 << bw) - 1));

	c->t.type = VTA_LUT_INT8;
	c->t.bitwidth = bw;
	c->t.count = count;
	c->t.channels = channels;
	c->t.axis_last = axis_last;
	c->t.value_table = c->table;
	c->t.value_table_bytes = tbytes;
	c->t.value_table_stride = stride;
	c->t.indices = c->indices;
	c->t.indices_bytes = ibytes;

	c->job.bitwidth = bw;
	c->job.count = count;
	c->job.channels = channels;
	c->job.axis_last = axis_last;
	c->job.table = c->table;
	c->job.stride = stride;
	c->job.indices = c->indices;
	c->job.indices_bytes = ibytes;
}

static void free_case(lut_case *c)
{
	free(c->table);
	free(c->indices);
}

/* Decode with both; they must agree on status, message (after the prefix) and every value. */
static void compare(vta_rtl_lut *dec, const lut_case *c, const char *what)
{
	size_t n = c->t.count ? c->t.count : 1;
	int8_t *want = malloc(n), *got = malloc(n);
	assert_non_null(want);
	assert_non_null(got);
	vta_error ec = {0}, ev = {0};
	vta_status sc = vta_lut_decode(&c->t, want, c->t.count, &ec);
	vta_status sv = vta_rtl_lut_decode(dec, &c->job, got, c->t.count, NULL, &ev);
	if (sc != sv)
		fail_msg("%s: C status %d (%s), RTL status %d (%s)", what, sc, ec.detail, sv,
			 ev.detail);
	if (sc != VTA_OK) {
		const char *mc = strchr(ec.detail, ':'), *mv = strchr(ev.detail, ':');
		assert_non_null(mc);
		assert_non_null(mv);
		if (strcmp(mc, mv) != 0)
			fail_msg("%s: C says \"%s\", RTL says \"%s\"", what, ec.detail, ev.detail);
	} else {
		long bad = rtl_first_diff_i8(want, got, c->t.count);
		if (bad >= 0)
			fail_msg("%s: element %ld: RTL %d, C %d", what, bad, got[bad], want[bad]);
	}
	free(want);
	free(got);
}

static vta_rtl_lut *make_decoder(unsigned in_bits, unsigned ipc)
{
	vta_rtl_lut *dec = NULL;
	vta_error err = {0};
	if (vta_rtl_lut_create(&dec, in_bits, ipc, &err) != VTA_OK)
		fail_msg("%s", err.detail);
	return dec;
}

/* Every variant x every width: the shapes described at the top. */
static void test_lut_random(void **state)
{
	(void)state;
	unsigned variants[32][2];
	size_t nv = vta_rtl_lut_variants(variants, 32);
	assert_true(nv <= 32);
	assert_true(nv >= 1);
	vta_prng r;
	vta_prng_seed(&r, 99);
	char what[160];
	for (size_t v = 0; v < nv; v++) {
		vta_rtl_lut *dec = make_decoder(variants[v][0], variants[v][1]);
		size_t entries = vta_rtl_lut_table_entries(dec);
		for (unsigned bw = 1; bw <= 7; bw++) {
			size_t full = (size_t)1 << bw;
			lut_case c;
			for (int rep = 0; rep < 12; rep++) {
				/* per-tensor, odd lengths */
				size_t count = (size_t)vta_prng_range(&r, 1, 3000);
				make_case(&c, &r, bw, count, 1, false, full, -1);
				snprintf(what, sizeof(what), "%ux%u bw %u per-tensor n %zu",
					 variants[v][0], variants[v][1], bw, count);
				compare(dec, &c, what);
				free_case(&c);

				/* channel axis first, stride 2^bw or a smaller unique count */
				size_t C = (size_t)vta_prng_range(&r, 1, 20);
				size_t epc = (size_t)vta_prng_range(&r, 1, 200);
				size_t stride = rep % 2 ? (size_t)vta_prng_range(&r, 1, (int64_t)full)
							: full;
				make_case(&c, &r, bw, C * epc, C, false, stride, -1);
				snprintf(what, sizeof(what), "%ux%u bw %u C %zu x %zu stride %zu",
					 variants[v][0], variants[v][1], bw, C, epc, stride);
				compare(dec, &c, what);
				free_case(&c);

				/* channel axis last */
				C = (size_t)vta_prng_range(&r, 2, 16);
				epc = (size_t)vta_prng_range(&r, 1, 100);
				make_case(&c, &r, bw, C * epc, C, true, stride, -1);
				snprintf(what, sizeof(what), "%ux%u bw %u axis-last C %zu x %zu",
					 variants[v][0], variants[v][1], bw, C, epc);
				compare(dec, &c, what);
				free_case(&c);
			}
			/* one element per channel (a per-channel bias), both axes */
			make_case(&c, &r, bw, 64, 64, false, full, -1);
			compare(dec, &c, "bias, axis first");
			free_case(&c);
			make_case(&c, &r, bw, 64, 8, true, full, -1);
			compare(dec, &c, "axis last, one row");
			free_case(&c);

			/* tables larger than the decoder's: channel groups whose indices start
			 * mid-byte and whose tables start mid-word */
			size_t gstride = 100 + bw, C = entries / gstride + 7;
			make_case(&c, &r, bw, C * 37, C, false, gstride, -1);
			snprintf(what, sizeof(what), "%ux%u bw %u grouped C %zu stride %zu",
				 variants[v][0], variants[v][1], bw, C, gstride);
			compare(dec, &c, what);
			free_case(&c);
		}
		vta_rtl_lut_destroy(dec);
	}
}

/* An index at or beyond the stride: both decoders refuse with the same element and index,
 * in every position class (first, last, inside a later channel group, axis last). */
static void test_lut_bad_index(void **state)
{
	(void)state;
	vta_rtl_lut *dec = make_decoder(64, 16);
	vta_prng r;
	vta_prng_seed(&r, 5);
	lut_case c;
	char what[96];
	for (unsigned bw = 1; bw <= 7; bw++) {
		size_t stride = ((size_t)1 << bw) - 1; /* the top index is out of range */
		if (stride == 0)
			continue;
		const long spots[] = {0, 599, 377, 200};
		for (size_t s = 0; s < sizeof(spots) / sizeof(spots[0]); s++) {
			make_case(&c, &r, bw, 600, 6, s == 3, stride, spots[s]);
			snprintf(what, sizeof(what), "bw %u bad element %ld", bw, spots[s]);
			compare(dec, &c, what);
			free_case(&c);
		}
	}
	/* inside the third channel group of a tensor too large for one table */
	make_case(&c, &r, 7, 40 * 37, 40, false, 127, 33 * 37 + 5);
	compare(dec, &c, "grouped, bad element in group 3");
	free_case(&c);
	/* two bad elements: the first one is named */
	make_case(&c, &r, 3, 1000, 10, false, 5, 700);
	put_index(c.indices, 650, 3, 7);
	compare(dec, &c, "two bad elements");
	vta_error err = {0};
	int8_t out[1000];
	assert_int_equal(vta_rtl_lut_decode(dec, &c.job, out, 1000, NULL, &err), VTA_E_DATA);
	assert_non_null(strstr(err.detail, "element 650 (channel 6) has index 7"));
	free_case(&c);
	vta_rtl_lut_destroy(dec);
}

/* Every job check, each with its diagnostic; and count 0. */
static void test_lut_job_checks(void **state)
{
	(void)state;
	vta_rtl_lut *dec = make_decoder(64, 16);
	vta_prng r;
	vta_prng_seed(&r, 11);
	lut_case c;
	make_case(&c, &r, 4, 64, 4, false, 16, -1);
	int8_t out[64];
	vta_error err = {0};
	vta_rtl_lut_job j;

#define EXPECT(status, text)                                                               \
	do {                                                                               \
		memset(&err, 0, sizeof(err));                                              \
		assert_int_equal(vta_rtl_lut_decode(dec, &j, out, 64, NULL, &err), status); \
		if (!strstr(err.detail, text))                                            \
			fail_msg("expected \"%s\" in \"%s\"", text, err.detail);          \
	} while (0)

	j = c.job; j.bitwidth = 0;
	EXPECT(VTA_E_DATA, "index bit width 0 is outside 1..7");
	j = c.job; j.bitwidth = 8;
	EXPECT(VTA_E_DATA, "index bit width 8 is outside 1..7");
	j = c.job; j.stride = 0;
	EXPECT(VTA_E_DATA, "stride 0 is outside 1..128");
	j = c.job; j.stride = 129;
	EXPECT(VTA_E_DATA, "stride 129 is outside 1..128");
	j = c.job; j.channels = 0;
	EXPECT(VTA_E_DATA, "channel count 0 does not divide element count 64");
	j = c.job; j.channels = 5;
	EXPECT(VTA_E_DATA, "channel count 5 does not divide element count 64");
	j = c.job; j.table = NULL;
	EXPECT(VTA_E_DATA, "no value table");
	j = c.job; j.indices_bytes = 31;
	EXPECT(VTA_E_DATA, "index string has 31 bytes, 64 elements at 4 bits need 32");
	j = c.job; j.indices = NULL;
	EXPECT(VTA_E_DATA, "index string has 0 bytes");
	j = c.job; j.count = (size_t)1 << 32; j.channels = 1;
	EXPECT(VTA_E_UNSUPPORTED, "exceed the 32-bit element counter");
	j = c.job; j.axis_last = true; j.count = 33; j.channels = 33; j.stride = 128;
	EXPECT(VTA_E_UNSUPPORTED, "channel axis last needs all 33 tables (4224 entries)");
	j = c.job;
	memset(&err, 0, sizeof(err));
	assert_int_equal(vta_rtl_lut_decode(dec, &j, out, 63, NULL, &err), VTA_E_USAGE);
	assert_non_null(strstr(err.detail, "output holds 63 values, the tensor has 64"));
	assert_int_equal(vta_rtl_lut_decode(dec, NULL, out, 64, NULL, &err), VTA_E_USAGE);
#undef EXPECT

	/* nothing to decode: fine, and nothing is written */
	j = c.job; j.count = 0;
	memset(out, 0x5a, sizeof(out));
	vta_rtl_lut_stats st = {0, 0, 0, 0};
	assert_int_equal(vta_rtl_lut_decode(dec, &j, out, 0, &st, &err), VTA_OK);
	assert_int_equal(out[0], 0x5a);
	assert_int_equal(st.jobs, 0);

	/* the decoder is still usable after refusing jobs */
	compare(dec, &c, "after the refusals");
	free_case(&c);
	vta_rtl_lut_destroy(dec);
}

/* The channel groups of a tensor too large for one table: how many jobs, how many table
 * words (two 32-bit entries per 64-bit word, tables starting wherever the previous group
 * ended) and index words (groups starting mid-byte). */
static void test_lut_groups(void **state)
{
	(void)state;
	vta_rtl_lut *dec = make_decoder(64, 16);
	assert_int_equal(vta_rtl_lut_table_entries(dec), 4096);
	vta_prng r;
	vta_prng_seed(&r, 17);
	lut_case c;
	/* 80 channels x stride 117: 35 channels (4095 entries, 4096 with the alignment offset
	 * of a group starting mid-word) per group -> 35, 35, 10 */
	enum { C = 80, EPC = 37, N = C * EPC };
	make_case(&c, &r, 7, N, C, false, 117, -1);
	int8_t *want = malloc(N), *got = malloc(N);
	assert_non_null(want);
	assert_non_null(got);
	vta_error err = {0};
	vta_rtl_lut_stats st = {0, 0, 0, 0};
	assert_int_equal(vta_lut_decode(&c.t, want, N, &err), VTA_OK);
	assert_int_equal(vta_rtl_lut_decode(dec, &c.job, got, N, &st, &err), VTA_OK);
	assert_memory_equal(want, got, N);
	assert_int_equal(st.jobs, 3);
	/* entries [0, 4095), [4094, 8190) from the aligned-down entry, [8190, 9360) */
	assert_int_equal(st.table_cycles, 2048 + 2048 + 585);
	/* index words per group: ceil(ceil((skip + channels * 37 * 7) / 8) / 8), skips 0, 1, 2 */
	assert_int_equal(st.words, 142 + 142 + 41);
	/* stats accumulate over calls */
	assert_int_equal(vta_rtl_lut_decode(dec, &c.job, got, N, &st, &err), VTA_OK);
	assert_int_equal(st.jobs, 6);
	free(want);
	free(got);
	free_case(&c);
	vta_rtl_lut_destroy(dec);
}

/* An explicit run_len: element i reads table (i / run_len) % channels, channels need not
 * divide count; a bad index names its channel by that rule; the tables must fit at once. */
static void test_lut_run_len(void **state)
{
	(void)state;
	vta_rtl_lut *dec = make_decoder(64, 16);
	vta_prng r;
	vta_prng_seed(&r, 21);
	enum { N = 70, RUN = 4, CH = 3, STRIDE = 5, BW = 3 };
	int8_t table[CH * STRIDE], out[N];
	uint8_t idx[(N * BW + 7) / 8] = {0};
	unsigned v[N];
	for (size_t i = 0; i < CH * STRIDE; i++)
		table[i] = (int8_t)vta_prng_range(&r, -128, 127);
	for (size_t e = 0; e < N; e++) {
		v[e] = (unsigned)vta_prng_range(&r, 0, STRIDE - 1);
		put_index(idx, e, BW, v[e]);
	}
	vta_rtl_lut_job j = {BW, N, CH, true, table, STRIDE, idx, sizeof(idx), RUN};
	vta_error err = {0};
	vta_rtl_lut_stats st = {0, 0, 0, 0};
	assert_int_equal(vta_rtl_lut_decode(dec, &j, out, N, &st, &err), VTA_OK);
	for (size_t e = 0; e < N; e++)
		assert_int_equal(out[e], table[e / RUN % CH * STRIDE + v[e]]);
	assert_int_equal(st.jobs, 1);

	put_index(idx, 33, BW, 6); /* run 8: channel 2 */
	assert_int_equal(vta_rtl_lut_decode(dec, &j, out, N, NULL, &err), VTA_E_DATA);
	assert_string_equal(err.detail, "LUT decoder: element 33 (channel 2) has index 6, beyond "
					"the value table stride 5");

	j.channels = 33; /* 33 x 128 entries: beyond the 4096 */
	j.stride = 128;
	int8_t big[33 * 128] = {0};
	j.table = big;
	assert_int_equal(vta_rtl_lut_decode(dec, &j, out, N, NULL, &err), VTA_E_UNSUPPORTED);
	assert_string_equal(err.detail, "LUT decoder: a run length needs all 33 tables (4224 "
					"entries) at once; the decoder holds 4096");
	vta_rtl_lut_destroy(dec);
}

/* A pair that is not built: one line naming it, the built ones, and the cmake line that adds
 * it to them. */
static void test_lut_variants(void **state)
{
	(void)state;
	unsigned v[16][2];
	size_t nv = vta_rtl_lut_variants(v, 16);
	assert_true(nv <= 16);
	unsigned ipc = 8; /* 128 x 8, or the first of 128 x 9, 10, ... not built */
	for (size_t i = 0; i < nv; i++)
		if (v[i][0] == 128 && v[i][1] == ipc) {
			ipc++;
			i = (size_t)-1;
		}
	char built[256] = "", list[256] = "", want[600];
	for (size_t i = 0; i < nv; i++) {
		size_t b = strlen(built), l = strlen(list);
		snprintf(built + b, sizeof(built) - b, "%s%ux%u", i ? ", " : "", v[i][0], v[i][1]);
		snprintf(list + l, sizeof(list) - l, "%ux%u;", v[i][0], v[i][1]);
	}
	snprintf(want, sizeof(want),
		 "datapath rtl: no RTL build of the LUT decoder for a 128-bit bus with %u indices "
		 "per cycle (built: %s); add it with cmake -DVTASIM_RTL_DECODERS=\"%s128x%u\" and "
		 "rebuild (docs/rtl.md)",
		 ipc, built, list, ipc);
	vta_rtl_lut *dec = (vta_rtl_lut *)&state;
	vta_error err = {0};
	assert_int_equal(vta_rtl_lut_create(&dec, 128, ipc, &err), VTA_E_UNSUPPORTED);
	assert_null(dec);
	assert_string_equal(err.detail, want);
	/* the default build's line, as docs/rtl.md shows it */
	if (ipc == 8 && strcmp(list, "64x16;32x4;256x64;16x16;") == 0)
		assert_string_equal(err.detail,
				    "datapath rtl: no RTL build of the LUT decoder for a 128-bit bus "
				    "with 8 indices per cycle (built: 64x16, 32x4, 256x64, 16x16); "
				    "add it with cmake "
				    "-DVTASIM_RTL_DECODERS=\"64x16;32x4;256x64;16x16;128x8\" and "
				    "rebuild (docs/rtl.md)");
	/* an 8-bit bus (traces/src/configs/starved.yaml) reads as one */
	if (vta_rtl_lut_create(&dec, 8, 5, &err) == VTA_E_UNSUPPORTED)
		assert_non_null(strstr(err.detail, "for an 8-bit bus with 5 indices per cycle"));
	vta_rtl_lut_destroy(dec);
	vta_rtl_lut_destroy(NULL);
}

/* Steady state: one channel, a long string; the decoder is limited by its lanes or by the
 * bus, whichever is lower: cycles = N / min(IPC, in_bits / bw) plus a fixed latency. */
static void test_lut_throughput(void **state)
{
	(void)state;
	unsigned variants[32][2];
	size_t nv = vta_rtl_lut_variants(variants, 32);
	assert_true(nv <= 32);
	vta_prng r;
	vta_prng_seed(&r, 3);
	for (size_t v = 0; v < nv; v++) {
		unsigned in_bits = variants[v][0], ipc = variants[v][1];
		vta_rtl_lut *dec = make_decoder(in_bits, ipc);
		size_t n = (size_t)ipc * 1024;
		print_message("decoder %u-bit words x %u lanes, %zu indices:\n", in_bits, ipc, n);
		for (unsigned bw = 1; bw <= 7; bw++) {
			lut_case c;
			make_case(&c, &r, bw, n, 1, false, (size_t)1 << bw, -1);
			int8_t *want = malloc(n), *got = malloc(n);
			assert_non_null(want);
			assert_non_null(got);
			vta_error err = {0};
			vta_rtl_lut_stats st = {0, 0, 0, 0};
			assert_int_equal(vta_lut_decode(&c.t, want, n, &err), VTA_OK);
			assert_int_equal(vta_rtl_lut_decode(dec, &c.job, got, n, &st, &err), VTA_OK);
			assert_memory_equal(want, got, n);
			/* ideal: lane-bound N / IPC or bus-bound N * bw / in_bits cycles */
			double rate = (double)in_bits / bw < ipc ? (double)in_bits / bw : ipc;
			double ideal = (double)n / rate;
			print_message("  bw %u: %llu cycles, %.4f cycles/index (ideal %.4f), "
				      "%.2f indices/cycle\n",
				      bw, (unsigned long long)st.decode_cycles,
				      (double)st.decode_cycles / n, 1.0 / rate,
				      (double)n / st.decode_cycles);
			if (st.decode_cycles < ideal || st.decode_cycles > ideal + 4)
				fail_msg("%u x %u bw %u: %llu cycles, expected %.1f .. %.1f", in_bits,
					 ipc, bw, (unsigned long long)st.decode_cycles, ideal,
					 ideal + 4);
			assert_int_equal(st.jobs, 1);
			assert_int_equal(st.words, (n * bw + in_bits - 1) / in_bits);
			free(want);
			free(got);
			free_case(&c);
		}
		vta_rtl_lut_destroy(dec);
	}
}

static void test_lut_trace(void **state)
{
	(void)state;
	vta_rtl_lut *dec = make_decoder(32, 4);
	vta_prng r;
	vta_prng_seed(&r, 1);
	char path[] = "/tmp/vtasim_rtl_lut_XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	vta_error err = {0};
	assert_int_equal(vta_rtl_lut_trace(dec, path, &err), VTA_OK);
	lut_case c;
	make_case(&c, &r, 3, 40, 2, false, 8, -1);
	compare(dec, &c, "traced");
	free_case(&c);
	vta_rtl_lut_destroy(dec);
	assert_true(rtl_file_contains(path, "out_values"));
	assert_true(rtl_file_contains(path, "in_ready"));
	unlink(path);

	dec = make_decoder(32, 4);
	assert_int_equal(vta_rtl_lut_trace(dec, "/nonexistent-dir/l.vcd", &err), VTA_E_IO);
	vta_rtl_lut_destroy(dec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lut_random),
		cmocka_unit_test(test_lut_bad_index),
		cmocka_unit_test(test_lut_job_checks),
		cmocka_unit_test(test_lut_groups),
		cmocka_unit_test(test_lut_run_len),
		cmocka_unit_test(test_lut_variants),
		cmocka_unit_test(test_lut_throughput),
		cmocka_unit_test(test_lut_trace),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
