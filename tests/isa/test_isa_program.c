/*
 * test_isa_program.c - programs and binary stream files: building, the exact file layout,
 * serialise/parse round trips, geometry checks, and one test per malformed-stream
 * diagnostic (with the byte offset it names), plus truncation and bit-flip sweeps that
 * must fail cleanly and never read out of bounds.
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

#include "vta_program.h"

static void small_config(vta_config *cfg)
{
	vta_config_default(cfg);
	cfg->log_block_in = 2;
	cfg->log_block_out = 2;
	cfg->sram[VTA_MEM_UOP].kib = 1;
	cfg->sram[VTA_MEM_INP].kib = 1;
	cfg->sram[VTA_MEM_WGT].kib = 1;
	cfg->sram[VTA_MEM_ACC].kib = 1;
	vta_error err = {0};
	assert_int_equal(vta_config_derive(cfg, &err), VTA_OK);
}

static vta_insn mk(vta_opcode op)
{
	vta_insn in;
	memset(&in, 0, sizeof(in));
	in.opcode = op;
	return in;
}

/* A program with every opcode, a uop segment, a data segment and an empty segment. */
static void sample_program(const vta_config *cfg, vta_program *p)
{
	vta_error err = {0};
	vta_program_init(p, cfg);
	vta_insn in = mk(VTA_OP_LOAD);
	in.mem.mem_type = VTA_MEM_UOP;
	in.mem.dram_base = 0x400;
	in.mem.y_size = 1;
	in.mem.x_size = 2;
	in.mem.x_stride = 2;
	assert_int_equal(vta_program_push(p, cfg, &in, &err), VTA_OK);
	in = mk(VTA_OP_GEMM);
	in.loop.uop_end = 2;
	in.loop.iter_out = in.loop.iter_in = 1;
	in.deps.pop_prev = true;
	assert_int_equal(vta_program_push(p, cfg, &in, &err), VTA_OK);
	in = mk(VTA_OP_ALU);
	in.alu.op = VTA_ALU_SHR;
	in.alu.use_imm = true;
	in.alu.imm = -3;
	in.loop.uop_end = 1;
	in.loop.iter_in = 4;
	in.loop.iter_out = 1;
	in.deps.push_next = true;
	assert_int_equal(vta_program_push(p, cfg, &in, &err), VTA_OK);
	in = mk(VTA_OP_STORE);
	in.mem.mem_type = VTA_MEM_OUT;
	in.mem.x_size = 4;
	in.mem.y_size = 1;
	in.deps.pop_prev = in.deps.push_prev = true;
	assert_int_equal(vta_program_push(p, cfg, &in, &err), VTA_OK);
	in = mk(VTA_OP_FINISH);
	in.deps.pop_next = true;
	assert_int_equal(vta_program_push(p, cfg, &in, &err), VTA_OK);
	uint8_t uops[8] = {1, 0, 0, 0, 2, 0, 0, 0};
	uint8_t data[5] = {9, 8, 7, 6, 5};
	assert_int_equal(vta_program_add_segment(p, VTA_SEG_UOP, 0x1000, uops, 8, &err), VTA_OK);
	assert_int_equal(vta_program_add_segment(p, VTA_SEG_DATA, 0x2001, data, 5, &err), VTA_OK);
	assert_int_equal(vta_program_add_segment(p, VTA_SEG_DATA, 0x3000, NULL, 0, &err), VTA_OK);
}

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void wr32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* Serialised sample: 40 header + 5*16 insns + (16+8) + (16+5) + 16 segments = 181 bytes. */
#define SAMPLE_LEN 181
#define SEG0 (40 + 5 * 16)
#define SEG1 (SEG0 + 16 + 8)
#define SEG2 (SEG1 + 16 + 5)

static uint8_t *sample_bytes(const vta_config *cfg, size_t *len)
{
	vta_program p;
	sample_program(cfg, &p);
	uint8_t *buf;
	vta_error err = {0};
	assert_int_equal(vta_program_serialize(&p, &buf, len, &err), VTA_OK);
	vta_program_free(&p);
	return buf;
}

/* ---------- building ---------- */

static void test_build(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	vta_program p;
	vta_error err = {0};
	vta_program_init(&p, &cfg);
	assert_int_equal(p.n_insns, 0);
	assert_int_equal(p.geometry.log_block_out, 4);
	/* many pushes: the array grows */
	for (int i = 0; i < 1000; i++) {
		vta_insn in = mk(VTA_OP_GEMM);
		in.loop.uop_bgn = (uint32_t)i;
		assert_int_equal(vta_program_push(&p, &cfg, &in, &err), VTA_OK);
	}
	assert_int_equal(p.n_insns, 1000);
	vta_insn out;
	assert_int_equal(vta_program_insn(&p, &cfg, 777, &out, &err), VTA_OK);
	assert_int_equal(out.opcode, VTA_OP_GEMM);
	assert_int_equal(out.loop.uop_bgn, 777);
	/* out-of-range index */
	assert_int_equal(vta_program_insn(&p, &cfg, 1000, &out, &err), VTA_E_USAGE);
	assert_non_null(strstr(err.detail, "insn 1000"));
	/* a push that does not fit names the index it would have had */
	vta_insn bad = mk(VTA_OP_LOAD);
	bad.mem.y_size = 65536;
	assert_int_equal(vta_program_push(&p, &cfg, &bad, &err), VTA_E_ENCODE);
	assert_string_equal(err.detail, "insn 1000 (load   mem=uop sram=0 dram=0x0 y=65536 x=0 "
					"stride=0 ypad=0,0 xpad=0,0 deps=none): y_size 65536 does "
					"not fit in 16 bits");
	assert_int_equal(p.n_insns, 1000);
	/* raw bytes are not checked on push, but are on decode */
	uint8_t raw[VTA_INSN_BYTES] = {7};
	assert_int_equal(vta_program_push_raw(&p, raw, &err), VTA_OK);
	assert_int_equal(vta_program_insn(&p, &cfg, 1000, &out, &err), VTA_E_STREAM);
	assert_string_equal(err.detail, "insn 1000: opcode 7 is not defined (0..4)");
	vta_program_free(&p);
	assert_null(p.insns);
	assert_int_equal(p.n_insns, 0);
	vta_program_free(&p); /* twice is harmless */
}

static void test_segments(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	vta_program p;
	vta_error err = {0};
	vta_program_init(&p, &cfg);
	uint8_t b[6] = {1, 2, 3, 4, 5, 6};
	assert_int_equal(vta_program_add_segment(&p, VTA_SEG_UOP, 0, b, 6, &err), VTA_E_USAGE);
	assert_non_null(strstr(err.detail, "not a multiple of 4"));
	assert_int_equal(vta_program_add_segment(&p, (vta_segment_kind)2, 0, b, 4, &err),
			 VTA_E_USAGE);
	assert_non_null(strstr(err.detail, "kind 2"));
	assert_int_equal(vta_program_add_segment(&p, VTA_SEG_DATA, 0, NULL, 3, &err), VTA_E_USAGE);
	assert_int_equal(p.n_segments, 0);
	for (int i = 0; i < 100; i++)
		assert_int_equal(vta_program_add_segment(&p, VTA_SEG_DATA, (uint64_t)i, b, 6, &err),
				 VTA_OK);
	b[0] = 99; /* the program holds a copy */
	assert_int_equal(p.segments[42].bytes[0], 1);
	assert_int_equal(p.segments[42].dram_addr, 42);
	vta_program_free(&p);
}

/* ---------- the file layout and round trips ---------- */

static void test_layout(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	size_t len;
	uint8_t *b = sample_bytes(&cfg, &len);
	assert_int_equal(len, SAMPLE_LEN);
	assert_memory_equal(b, "VTASTRM\0", 8);
	assert_int_equal(rd32(b + 8), 1);
	assert_int_equal(rd32(b + 12), 16);
	/* geometry of the default config: 0,4,4, 3,3,5, 13,11,10,11, six zeros */
	const uint8_t geo[16] = {0, 4, 4, 3, 3, 5, 13, 11, 10, 11, 0, 0, 0, 0, 0, 0};
	assert_memory_equal(b + 16, geo, 16);
	assert_int_equal(rd32(b + 32), 5);
	assert_int_equal(rd32(b + 36), 3);
	assert_int_equal(b[40] & 7, VTA_OP_LOAD);
	assert_int_equal(b[40 + 16] & 7, VTA_OP_GEMM);
	assert_int_equal(b[40 + 64] & 7, VTA_OP_FINISH);
	/* segment 0: kind 1, length 8, address 0x1000, the bytes */
	assert_int_equal(b[SEG0], 1);
	assert_int_equal(b[SEG0 + 1] | b[SEG0 + 2] | b[SEG0 + 3], 0);
	assert_int_equal(rd32(b + SEG0 + 4), 8);
	assert_int_equal(rd32(b + SEG0 + 8), 0x1000);
	assert_int_equal(rd32(b + SEG0 + 12), 0);
	assert_int_equal(b[SEG0 + 16], 1);
	assert_int_equal(b[SEG0 + 20], 2);
	assert_int_equal(b[SEG1], 0);
	assert_int_equal(rd32(b + SEG1 + 4), 5);
	assert_int_equal(rd32(b + SEG1 + 8), 0x2001);
	assert_int_equal(b[SEG1 + 16], 9);
	assert_int_equal(rd32(b + SEG2 + 4), 0);
	assert_true(vta_program_is_binary(b, len));
	assert_false(vta_program_is_binary(b, 7));
	assert_false(vta_program_is_binary((const uint8_t *)"load mem=inp", 12));
	free(b);
}

static void round_trip(const vta_config *cfg)
{
	size_t len, len2;
	uint8_t *b = sample_bytes(cfg, &len), *b2;
	vta_program p;
	vta_error err = {0};
	assert_int_equal(vta_program_parse(b, len, cfg, &p, &err), VTA_OK);
	assert_int_equal(p.n_insns, 5);
	assert_int_equal(p.n_segments, 3);
	assert_int_equal(p.segments[0].kind, VTA_SEG_UOP);
	assert_int_equal(p.segments[1].size, 5);
	assert_int_equal(p.segments[1].dram_addr, 0x2001);
	assert_int_equal(p.segments[2].size, 0);
	vta_insn in;
	assert_int_equal(vta_program_insn(&p, cfg, 2, &in, &err), VTA_OK);
	assert_int_equal(in.alu.imm, -3);
	assert_int_equal(vta_program_serialize(&p, &b2, &len2, &err), VTA_OK);
	assert_int_equal(len, len2);
	assert_memory_equal(b, b2, len);
	free(b);
	free(b2);
	vta_program_free(&p);
}

static void test_round_trip_default(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	round_trip(&cfg);
}

static void test_round_trip_small(void **state)
{
	(void)state;
	vta_config cfg;
	small_config(&cfg);
	round_trip(&cfg);
}

static void test_empty_program(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	vta_program p, q;
	vta_error err = {0};
	vta_program_init(&p, &cfg);
	uint8_t *b;
	size_t len;
	assert_int_equal(vta_program_serialize(&p, &b, &len, &err), VTA_OK);
	assert_int_equal(len, 40);
	assert_int_equal(vta_program_parse(b, len, &cfg, &q, &err), VTA_OK);
	assert_int_equal(q.n_insns, 0);
	assert_int_equal(q.n_segments, 0);
	free(b);
	vta_program_free(&p);
	vta_program_free(&q);
}

/* ---------- malformed streams: one test per diagnostic ---------- */

/* Parse buf and expect VTA_E_STREAM with `want` in the detail; prog must come back empty. */
static void expect_stream_error(const uint8_t *buf, size_t len, const char *want)
{
	vta_config cfg;
	vta_config_default(&cfg);
	vta_program p;
	vta_error err = {0};
	vta_status st = vta_program_parse(buf, len, &cfg, &p, &err);
	if (st != VTA_E_STREAM || !strstr(err.detail, want))
		fail_msg("status %d, detail '%s', expected '%s'", st, err.detail, want);
	assert_int_equal(p.n_insns, 0);
	assert_int_equal(p.n_segments, 0);
	vta_program_free(&p);
}

static uint8_t *default_sample(size_t *len)
{
	vta_config cfg;
	vta_config_default(&cfg);
	return sample_bytes(&cfg, len);
}

static void test_err_truncated_magic(void **state)
{
	(void)state;
	expect_stream_error((const uint8_t *)"VTAS", 4,
			    "byte offset 0: truncated header (magic) (needs 8 bytes, 4 left)");
	expect_stream_error(NULL, 0, "byte offset 0: truncated header (magic)");
}

static void test_err_bad_magic(void **state)
{
	(void)state;
	size_t len;
	uint8_t *b = default_sample(&len);
	b[3] = 'X';
	expect_stream_error(b, len, "byte offset 0: not a stream file (bad magic)");
	free(b);
}

static void test_err_truncated_version(void **state)
{
	(void)state;
	size_t len;
	uint8_t *b = default_sample(&len);
	expect_stream_error(b, 11, "byte offset 8: truncated header (version, geometry size)");
	free(b);
}

static void test_err_bad_version(void **state)
{
	(void)state;
	size_t len;
	uint8_t *b = default_sample(&len);
	wr32(b + 8, 2);
	expect_stream_error(b, len, "byte offset 8: stream version 2, expected 1");
	free(b);
}

static void test_err_geometry_size(void **state)
{
	(void)state;
	size_t len;
	uint8_t *b = default_sample(&len);
	wr32(b + 12, 17);
	expect_stream_error(b, len, "byte offset 12: geometry size 17, expected 16");
	free(b);
}

static void test_err_truncated_geometry(void **state)
{
	(void)state;
	size_t len;
	uint8_t *b = default_sample(&len);
	expect_stream_error(b, 20, "byte offset 16: truncated header (geometry) (needs 16 bytes, 4 left)");
	free(b);
}

static void test_err_geometry_reserved(void **state)
{
	(void)state;
	size_t len;
	uint8_t *b = default_sample(&len);
	b[16 + 12] = 1;
	expect_stream_error(b, len, "byte offset 28: geometry reserved byte is 1, not 0");
	free(b);
}

/* Each geometry parameter in turn: the detail names it and both values. */
static void test_err_geometry_mismatch(void **state)
{
	(void)state;
	const char *names[10] = {"log_batch",	  "log_block_in",  "log_block_out",
				 "log_inp_bits",  "log_wgt_bits",  "log_acc_bits",
				 "log_uop_depth", "log_inp_depth", "log_wgt_depth",
				 "log_acc_depth"};
	const unsigned def[10] = {0, 4, 4, 3, 3, 5, 13, 11, 10, 11};
	for (int i = 0; i < 10; i++) {
		size_t len;
		uint8_t *b = default_sample(&len);
		b[16 + i] = (uint8_t)(def[i] + 1);
		char want[96];
		snprintf(want, sizeof(want), "stream geometry %s %u != config %u", names[i],
			 def[i] + 1, def[i]);
		expect_stream_error(b, len, want);
		free(b);
	}
	/* a whole stream from the small config on the default one */
	vta_config small, def_cfg;
	small_config(&small);
	vta_config_default(&def_cfg);
	size_t len;
	uint8_t *b = sample_bytes(&small, &len);
	vta_program p;
	vta_error err = {0};
	assert_int_equal(vta_program_parse(b, len, &def_cfg, &p, &err), VTA_E_STREAM);
	assert_string_equal(err.detail, "stream geometry log_block_in 2 != config 4");
	free(b);
	vta_geometry g;
	vta_geometry_from_config(&small, &g);
	assert_int_equal(vta_geometry_check(&small, &g, &err), VTA_OK);
	assert_int_equal(vta_geometry_check(&def_cfg, &g, &err), VTA_E_STREAM);
	g.reserved[5] = 3;
	assert_int_equal(vta_geometry_check(&small, &g, &err), VTA_E_STREAM);
	assert_non_null(strstr(err.detail, "reserved byte 5"));
}

static void test_err_truncated_counts(void **state)
{
	(void)state;
	size_t len;
	uint8_t *b = default_sample(&len);
	expect_stream_error(b, 36, "byte offset 32: truncated header (counts) (needs 8 bytes, 4 left)");
	free(b);
}

static void test_err_insn_count(void **state)
{
	(void)state;
	size_t len;
	uint8_t *b = default_sample(&len);
	wr32(b + 32, 0xffffffffu); /* would need 64 GiB: refused before allocating */
	expect_stream_error(b, len, "byte offset 32: 4294967295 instructions need");
	wr32(b + 32, 9); /* 144 bytes, 141 left */
	expect_stream_error(b, len, "byte offset 32: 9 instructions need 144 bytes, only 141 left");
	free(b);
}

static void test_err_bad_insn(void **state)
{
	(void)state;
	size_t len;
	uint8_t *b = default_sample(&len);
	b[40 + 2 * 16] = (uint8_t)((b[40 + 2 * 16] & ~7) | 6);
	expect_stream_error(b, len, "insn 2 (byte offset 72): opcode 6 is not defined");
	free(b);
	b = default_sample(&len);
	b[40 + 4 * 16 + 15] = 0x80; /* FINISH with a stray bit in word 1 */
	expect_stream_error(b, len, "insn 4 (byte offset 104): unused bits 0..63 of word 1");
	free(b);
}

static void test_err_segment_count(void **state)
{
	(void)state;
	size_t len;
	uint8_t *b = default_sample(&len);
	wr32(b + 36, 0xffffffffu);
	expect_stream_error(b, len, "byte offset 36: 4294967295 segments need at least");
	free(b);
}

static void test_err_truncated_segment_header(void **state)
{
	(void)state;
	size_t len;
	uint8_t *b = default_sample(&len);
	/* drop the last (empty) segment's header but for 8 bytes: the count check passes
	 * (3 headers fit in what is left), the third header does not */
	expect_stream_error(b, SEG2 + 8,
			    "byte offset 165: truncated segment header (needs 16 bytes, 8 left)");
	free(b);
}

static void test_err_segment_kind(void **state)
{
	(void)state;
	size_t len;
	uint8_t *b = default_sample(&len);
	b[SEG1] = 7;
	expect_stream_error(b, len, "segment 1 (byte offset 144): unknown kind 7");
	free(b);
}

static void test_err_segment_reserved(void **state)
{
	(void)state;
	size_t len;
	uint8_t *b = default_sample(&len);
	b[SEG0 + 2] = 1;
	expect_stream_error(b, len, "segment 0 (byte offset 120): reserved header bytes are not zero");
	free(b);
}

static void test_err_segment_length(void **state)
{
	(void)state;
	size_t len;
	uint8_t *b = default_sample(&len);
	wr32(b + SEG1 + 4, 0xfffffff0u);
	expect_stream_error(b, len,
			    "segment 1 (byte offset 144): length 4294967280 runs past the end of "
			    "the file (21 bytes left)");
	free(b);
}

static void test_err_uop_length(void **state)
{
	(void)state;
	size_t len;
	uint8_t *b = default_sample(&len);
	/* make the data segment a uop segment of 5 bytes */
	b[SEG1] = 1;
	expect_stream_error(b, len,
			    "segment 1 (byte offset 144): uop segment length 5 is not a multiple of 4");
	free(b);
}

static void test_err_bad_uop(void **state)
{
	(void)state;
	vta_config cfg;
	small_config(&cfg); /* 20-bit uops: bits 20..31 unused */
	size_t len;
	uint8_t *b = sample_bytes(&cfg, &len);
	b[SEG0 + 16 + 4 + 3] = 0x10; /* uop 1, bit 28 */
	vta_program p;
	vta_error err = {0};
	assert_int_equal(vta_program_parse(b, len, &cfg, &p, &err), VTA_E_STREAM);
	assert_non_null(strstr(err.detail, "segment 0 uop 1 (byte offset 140): unused bits 20..31"));
	free(b);
}

static void test_err_trailing(void **state)
{
	(void)state;
	size_t len;
	uint8_t *b = default_sample(&len);
	uint8_t *big = calloc(len + 3, 1);
	memcpy(big, b, len);
	expect_stream_error(big, len + 3, "byte offset 181: 3 trailing bytes after the last segment");
	free(big);
	free(b);
}

/* Segments whose DRAM bytes overlap: refused naming both; touching ones are fine. */
static void test_err_segment_overlap(void **state)
{
	(void)state;
	size_t len;
	uint8_t *b = default_sample(&len);
	/* the data segment (5 bytes at 0x2001) moved onto the uop segment's last uop */
	wr32(b + SEG1 + 8, 0x1004);
	expect_stream_error(b, len, "segment 1 (byte offset 144): DRAM 0x1004+5 overlaps "
				    "segment 0 (byte offset 120) at 0x1000+8");
	/* right after it: accepted */
	wr32(b + SEG1 + 8, 0x1008);
	vta_config cfg;
	vta_config_default(&cfg);
	vta_program p;
	vta_error err = {0};
	assert_int_equal(vta_program_parse(b, len, &cfg, &p, &err), VTA_OK);
	/* the empty segment lies inside nothing and overlaps nothing, wherever it is */
	p.segments[2].dram_addr = 0x1002;
	int found = 1;
	size_t e = 9, l = 9;
	assert_int_equal(vta_program_overlap(&p, &found, &e, &l, &err), VTA_OK);
	assert_int_equal(found, 0);
	/* a segment ending at 2^64 against one starting just below it */
	p.segments[0].dram_addr = UINT64_MAX - 3;
	p.segments[1].dram_addr = UINT64_MAX - 5;
	assert_int_equal(vta_program_overlap(&p, &found, &e, &l, &err), VTA_OK);
	assert_int_equal(found, 1);
	assert_int_equal(e, 0);
	assert_int_equal(l, 1);
	vta_program_free(&p);
	free(b);
}

/* Every strict prefix of a valid stream fails cleanly (ASan watches the reads). */
static void test_every_truncation(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	size_t len;
	uint8_t *b = default_sample(&len);
	for (size_t n = 0; n < len; n++) {
		uint8_t *copy = malloc(n ? n : 1); /* exact size so overreads are caught */
		memcpy(copy, b, n);
		vta_program p;
		vta_error err = {0};
		vta_status st = vta_program_parse(copy, n, &cfg, &p, &err);
		if (st != VTA_E_STREAM)
			fail_msg("prefix of %zu bytes: status %d (%s)", n, st, err.detail);
		assert_non_null(strstr(err.detail, "byte offset"));
		vta_program_free(&p);
		free(copy);
	}
	free(b);
}

/* Flipping any single bit either still parses or fails with VTA_E_STREAM. */
static void test_every_bit_flip(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	size_t len;
	uint8_t *b = default_sample(&len);
	int failed = 0;
	for (size_t bit = 0; bit < len * 8; bit++) {
		uint8_t *copy = malloc(len);
		memcpy(copy, b, len);
		copy[bit / 8] ^= (uint8_t)(1u << (bit % 8));
		vta_program p;
		vta_error err = {0};
		vta_status st = vta_program_parse(copy, len, &cfg, &p, &err);
		if (st != VTA_OK && st != VTA_E_STREAM)
			fail_msg("bit %zu: status %d (%s)", bit, st, err.detail);
		failed += st != VTA_OK;
		vta_program_free(&p);
		free(copy);
	}
	assert_true(failed > 100);
	free(b);
}

/* ---------- files ---------- */

static void test_files(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	char dir[] = "/tmp/vta_isa_test_XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[256], missing[256];
	snprintf(path, sizeof(path), "%s/p.bin", dir);
	snprintf(missing, sizeof(missing), "%s/nope/p.bin", dir);
	vta_program p, q;
	vta_error err = {0};
	sample_program(&cfg, &p);
	assert_int_equal(vta_program_write(&p, path, &err), VTA_OK);
	assert_int_equal(vta_program_read(path, &cfg, &q, &err), VTA_OK);
	assert_int_equal(q.n_insns, 5);
	assert_int_equal(q.n_segments, 3);
	assert_memory_equal(p.insns, q.insns, 5 * VTA_INSN_BYTES);
	vta_program_free(&q);
	uint8_t *buf;
	size_t len;
	assert_int_equal(vta_read_file(path, "program", VTA_LIMIT_PROGRAM, &buf, &len, &err), VTA_OK);
	assert_int_equal(len, SAMPLE_LEN);
	free(buf);
	/* errors name the path */
	assert_int_equal(vta_program_write(&p, missing, &err), VTA_E_IO);
	assert_non_null(strstr(err.detail, missing));
	assert_int_equal(vta_program_read(missing, &cfg, &q, &err), VTA_E_IO);
	assert_non_null(strstr(err.detail, missing));
	vta_program_free(&q);
	assert_int_equal(vta_read_file(missing, "program", VTA_LIMIT_PROGRAM, &buf, &len, &err),
			 VTA_E_IO);
	/* a malformed file: the detail is "PATH: byte offset ..." */
	FILE *f = fopen(path, "wb");
	fwrite("VTASTRM", 1, 8, f);
	fclose(f);
	assert_int_equal(vta_program_read(path, &cfg, &q, &err), VTA_E_STREAM);
	char want[300];
	snprintf(want, sizeof(want), "%s: byte offset 8: truncated header", path);
	assert_non_null(strstr(err.detail, want));
	vta_program_free(&q);
	/* on a config with another geometry */
	vta_config small;
	small_config(&small);
	assert_int_equal(vta_program_write(&p, path, &err), VTA_OK);
	assert_int_equal(vta_program_read(path, &small, &q, &err), VTA_E_STREAM);
	assert_non_null(strstr(err.detail, "stream geometry log_block_in 4 != config 2"));
	vta_program_free(&q);
	vta_program_free(&p);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build),
		cmocka_unit_test(test_segments),
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_round_trip_default),
		cmocka_unit_test(test_round_trip_small),
		cmocka_unit_test(test_empty_program),
		cmocka_unit_test(test_err_truncated_magic),
		cmocka_unit_test(test_err_bad_magic),
		cmocka_unit_test(test_err_truncated_version),
		cmocka_unit_test(test_err_bad_version),
		cmocka_unit_test(test_err_geometry_size),
		cmocka_unit_test(test_err_truncated_geometry),
		cmocka_unit_test(test_err_geometry_reserved),
		cmocka_unit_test(test_err_geometry_mismatch),
		cmocka_unit_test(test_err_truncated_counts),
		cmocka_unit_test(test_err_insn_count),
		cmocka_unit_test(test_err_bad_insn),
		cmocka_unit_test(test_err_segment_count),
		cmocka_unit_test(test_err_truncated_segment_header),
		cmocka_unit_test(test_err_segment_kind),
		cmocka_unit_test(test_err_segment_reserved),
		cmocka_unit_test(test_err_segment_length),
		cmocka_unit_test(test_err_uop_length),
		cmocka_unit_test(test_err_bad_uop),
		cmocka_unit_test(test_err_trailing),
		cmocka_unit_test(test_err_segment_overlap),
		cmocka_unit_test(test_every_truncation),
		cmocka_unit_test(test_every_bit_flip),
		cmocka_unit_test(test_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
