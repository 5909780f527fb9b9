/*
 * test_isa_lut.c - LUT decompression in the ISA: the encoding of lut_bw, lut_slot and
 * lut_chan (bit positions, round trips through encode/decode and asm/disasm), every
 * diagnostic of the rulebook, the decode cost, and the reference executor's decoding of
 * every index width, per tensor and per channel, for WGT, INP and ACC.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "../lut_progs.h"
#include "vta_asm.h"
#include "vta_cost.h"
#include "vta_dram.h"
#include "vta_insn.h"
#include "vta_ref.h"
#include "vta_rules.h"

static vta_mem_insn mem_of(vta_mem mem, uint32_t sram, uint32_t dram, uint32_t y, uint32_t x,
			   uint32_t bw, uint32_t slot, uint32_t chan)
{
	return (vta_mem_insn){mem, sram, dram, y, x, x, 0, 0, 0, 0, bw, slot, chan, 0, 0, 0};
}

static uint64_t word(const uint8_t *b, int w)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | b[8 * w + i];
	return v;
}

static void test_encoding(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	vta_insn in, out;
	memset(&in, 0, sizeof(in));
	in.opcode = VTA_OP_LOAD;
	in.mem = mem_of(VTA_MEM_WGT, 1, 0x20, 1, 4, 5, 6, 0xabcd);
	uint8_t b[VTA_INSN_BYTES], b2[VTA_INSN_BYTES];
	vta_error err = {0};
	assert_int_equal(vta_insn_encode(&cfg, &in, b, &err), VTA_OK);
	assert_int_equal(word(b, 0) >> 58 & 7, 5);    /* lut_bw: bits 60:58 */
	assert_int_equal(word(b, 0) >> 61 & 7, 6);    /* lut_slot: bits 63:61 */
	assert_int_equal(word(b, 1) >> 48, 0xabcd);   /* lut_chan: word 1 bits 63:48 */
	assert_int_equal(vta_insn_decode(&cfg, b, &out, &err), VTA_OK);
	assert_memory_equal(&in.mem, &out.mem, sizeof(in.mem));

	char text[256];
	vta_disasm_insn(&in, text, sizeof(text));
	assert_string_equal(text, "load   mem=wgt sram=1 dram=0x20 bw=5 slot=6 y=1 x=4 stride=4 "
				  "chan=43981 deps=none");
	vta_program prog;
	vta_program_init(&prog, &cfg);
	assert_int_equal(vta_asm_parse(text, strlen(text), "t.s", &cfg, &prog, &err), VTA_OK);
	memcpy(b2, prog.insns, VTA_INSN_BYTES);
	assert_memory_equal(b, b2, VTA_INSN_BYTES);
	vta_program_free(&prog);

	/* a table load: slot only; a plain load shows no LUT key */
	in.mem = mem_of(VTA_MEM_LUT32, 64, 0x10, 16, 8, 0, 5, 0);
	vta_disasm_insn(&in, text, sizeof(text));
	assert_string_equal(text, "load   mem=lut32 sram=64 dram=0x10 slot=5 y=16 x=8 stride=8 "
				  "ypad=0,0 xpad=0,0 deps=none");
	assert_int_equal(vta_insn_encode(&cfg, &in, b, &err), VTA_OK);
	assert_int_equal(vta_insn_decode(&cfg, b, &out, &err), VTA_OK);
	assert_memory_equal(&in.mem, &out.mem, sizeof(in.mem));

	/* the shared bits hold one or the other, never both */
	in.mem = mem_of(VTA_MEM_INP, 0, 0, 1, 1, 2, 0, 0);
	in.mem.x_pad_0 = 1;
	assert_int_equal(vta_insn_encode(&cfg, &in, b, &err), VTA_E_ENCODE);
	assert_string_equal(err.detail, "x_pad_0 1 must be 0 in a decompressing load (its bits "
					"hold lut_chan)");
	in.mem = mem_of(VTA_MEM_INP, 0, 0, 1, 1, 0, 0, 3);
	assert_int_equal(vta_insn_encode(&cfg, &in, b, &err), VTA_E_ENCODE);
	assert_string_equal(err.detail, "lut_chan 3 must be 0 in a plain load (its bits hold the "
					"pads)");
	in.mem = mem_of(VTA_MEM_INP, 0, 0, 1, 1, 8, 0, 0);
	assert_int_equal(vta_insn_encode(&cfg, &in, b, &err), VTA_E_ENCODE);
}

static void expect_asm(const char *text, const char *want)
{
	vta_config cfg;
	vta_config_default(&cfg);
	vta_program prog;
	vta_program_init(&prog, &cfg);
	vta_error err = {0};
	assert_int_equal(vta_asm_parse(text, strlen(text), "t.s", &cfg, &prog, &err), VTA_E_PARSE);
	assert_string_equal(err.detail, want);
	vta_program_free(&prog);
}

static void test_asm_errors(void **state)
{
	(void)state;
	expect_asm("load mem=inp sram=0 dram=0 bw=2 y=1 x=1 stride=1 xpad=1,1",
		   "t.s:1:50: key 'xpad' is not allowed in a decompressing load (its bits hold "
		   "chan)");
	expect_asm("load mem=inp sram=0 dram=0 y=1 x=1 stride=1 chan=4",
		   "t.s:1:45: key 'chan' is not allowed in a plain load (its bits hold ypad and "
		   "xpad)");
}

static void expect(vta_status got, const vta_error *err, vta_status st, const char *want)
{
	assert_int_equal(got, st);
	assert_string_equal(err->detail, want);
}

static void test_rules(void **state)
{
	(void)state;
	vta_config cfg, off;
	vta_config_default(&cfg);
	off = cfg;
	off.decomp_enabled = false;
	vta_error err = {0};
	const uint64_t dram = 1 << 20;
	vta_mem_insn m = mem_of(VTA_MEM_LUT, 0, 0, 2, 8, 0, 1, 0);
	assert_int_equal(vta_load_check(&cfg, &m, dram, &err), VTA_OK);
	expect(vta_load_check(&off, &m, dram, &err), &err, VTA_E_UNSUPPORTED,
	       "a LUT table load needs decompressor.enabled in the config");
	m.lut_bw = 2;
	expect(vta_load_check(&cfg, &m, dram, &err), &err, VTA_E_STREAM,
	       "a lut table load cannot be decompressing (lut_bw 2)");
	m = mem_of(VTA_MEM_LUT32, 0, 0, 2, 8, 0, 1, 0);
	m.y_pad_0 = 1;
	expect(vta_load_check(&cfg, &m, dram, &err), &err, VTA_E_STREAM,
	       "padding not supported for lut32");
	m = mem_of(VTA_MEM_LUT, cfg.lut_depth - 8, 0, 2, 8, 0, 1, 0);
	expect(vta_load_check(&cfg, &m, dram, &err), &err, VTA_E_OOB,
	       "table memory entries [8184, 8200) beyond depth 8192");
	m = mem_of(VTA_MEM_WGT, 0, 0, 1, 1, 3, 0, 0);
	expect(vta_load_check(&off, &m, dram, &err), &err, VTA_E_UNSUPPORTED,
	       "a decompressing load needs decompressor.enabled in the config");
	const vta_mem bad[] = {VTA_MEM_UOP, VTA_MEM_OUT, VTA_MEM_ACC_8BIT};
	for (size_t i = 0; i < 3; i++) {
		m = mem_of(bad[i], 0, 0, 1, 1, 3, 0, 0);
		assert_int_equal(vta_load_check(&cfg, &m, dram, &err), VTA_E_STREAM);
		assert_non_null(strstr(err.detail, "decompressing load of memory type"));
	}
	m = mem_of(VTA_MEM_INP, 0, 0, 1, 1, 3, 0, 0);
	m.y_pad_1 = 1;
	expect(vta_load_check(&cfg, &m, dram, &err), &err, VTA_E_STREAM,
	       "padding not supported for a decompressing load");
	/* WGT rows of 256 lanes x 3 bits: 96 packed bytes */
	m = mem_of(VTA_MEM_WGT, 0, dram / 96, 1, 1, 3, 0, 0);
	expect(vta_load_check(&cfg, &m, dram, &err), &err, VTA_E_OOB,
	       "DRAM packed index read of row 0 at [0xfffc0, 0x100020) beyond the DRAM "
	       "(0x100000 bytes)");
	m.dram_base = dram / 96 - 1;
	assert_int_equal(vta_load_check(&cfg, &m, dram, &err), VTA_OK);
	m = mem_of(VTA_MEM_OUT, 0, 0, 1, 1, 2, 0, 0);
	expect(vta_store_check(&cfg, &m, dram, &err), &err, VTA_E_STREAM,
	       "a store has no LUT fields (lut_bw 2, lut_slot 0)");

	/* the descriptor a load uses */
	vta_lut_desc none = {0}, i8 = {true, 0, 8, 16, 8}, i32 = {true, 0, 8, 16, 32};
	m = mem_of(VTA_MEM_WGT, 0, 0, 1, 1, 3, 4, 0);
	expect(vta_lut_use_check(&cfg, &m, &none, &err), &err, VTA_E_STREAM,
	       "LUT slot 4 was never set in this run (load lut or lut32 first)");
	expect(vta_lut_use_check(&cfg, &m, &i32, &err), &err, VTA_E_STREAM,
	       "LUT slot 4 holds int32 tables (lut32), a load of wgt needs int8 ones (lut)");
	assert_int_equal(vta_lut_use_check(&cfg, &m, &i8, &err), VTA_OK);
	m.lut_chan = 1;
	expect(vta_lut_use_check(&cfg, &m, &i8, &err), &err, VTA_E_OOB,
	       "channels [1, 17) beyond the 16 tables of LUT slot 4");
	i8.channels = 1; /* per tensor: lut_chan is not used */
	assert_int_equal(vta_lut_use_check(&cfg, &m, &i8, &err), VTA_OK);
	/* a table load of no rows (y_size 0) set a slot of no table, whose one table a
	 * per-tensor reading would take beyond the LUT memory */
	vta_lut_desc empty = {true, 0, 26880, 0, 8};
	expect(vta_lut_use_check(&cfg, &m, &empty, &err), &err, VTA_E_STREAM,
	       "LUT slot 4 holds no table (its table load had y_size 0)");
	m = mem_of(VTA_MEM_ACC, 0, 0, 1, 1, 3, 4, 0);
	expect(vta_lut_use_check(&cfg, &m, &i8, &err), &err, VTA_E_STREAM,
	       "LUT slot 4 holds int8 tables (lut), a load of acc needs int32 ones (lut32)");
	expect(vta_lut_index_fail(9, 17, 8, &err), &err, VTA_E_OOB,
	       "LUT index 9 of element 17 beyond its table of 8 entries");
}

/* Multi-block loads: lut_run in the wide encoding's word 2, its rules and channels. */
static void test_multi_block(void **state)
{
	(void)state;
	vta_config narrow, cfg;
	vta_config_default(&narrow);
	vta_config_default(&cfg);
	vta_error err = {0};
	assert_int_equal(vta_config_set(&cfg, "isa.encoding", "wide", &err), VTA_OK);
	assert_int_equal(vta_config_set(&cfg, "sram_kib.uop", "64", &err), VTA_OK);
	assert_int_equal(vta_config_set(&cfg, "decompressor.multi_block", "true", &err), VTA_OK);
	vta_insn in, out;
	memset(&in, 0, sizeof(in));
	in.opcode = VTA_OP_LOAD;
	in.mem = mem_of(VTA_MEM_WGT, 0, 0x20, 6, 2, 4, 1, 16);
	in.mem.lut_run = 3;
	uint8_t b[VTA_INSN_MAX_BYTES];
	assert_int_equal(vta_insn_encode(&cfg, &in, b, &err), VTA_OK);
	assert_int_equal(word(b, 2), 3u << 1); /* after memory_type's fourth bit */
	assert_int_equal(vta_insn_decode(&cfg, b, &out, &err), VTA_OK);
	assert_memory_equal(&in.mem, &out.mem, sizeof(in.mem));
	char text[256];
	vta_disasm_insn(&in, text, sizeof(text));
	assert_string_equal(text, "load   mem=wgt sram=0 dram=0x20 bw=4 slot=1 y=6 x=2 stride=2 "
				  "chan=16 run=3 deps=none");
	/* VTA's 128-bit words have no room for it */
	expect(vta_insn_encode(&narrow, &in, b, &err), &err, VTA_E_ENCODE,
	       "lut_run 3: the field exists only in the wide encoding (isa.encoding: wide)");
	/* rules: two blocks of channels from 16, within 48 tables; not on a plain load */
	const uint64_t dram = 1u << 20;
	assert_int_equal(vta_load_check(&cfg, &in.mem, dram, &err), VTA_OK);
	assert_int_equal(vta_lut_run_blocks(&in.mem), 2);
	assert_int_equal(vta_lut_row_chan(&cfg, &in.mem, 2), 16);
	assert_int_equal(vta_lut_row_chan(&cfg, &in.mem, 3), 32);
	vta_lut_desc d48 = {true, 0, 16, 48, 8}, d40 = {true, 0, 16, 40, 8};
	assert_int_equal(vta_lut_use_check(&cfg, &in.mem, &d48, &err), VTA_OK);
	expect(vta_lut_use_check(&cfg, &in.mem, &d40, &err), &err, VTA_E_OOB,
	       "channels [16, 48) beyond the 40 tables of LUT slot 1 (a run of several channel "
	       "blocks)");
	vta_mem_insn plain = mem_of(VTA_MEM_WGT, 0, 0, 2, 1, 0, 0, 0);
	plain.lut_run = 1;
	expect(vta_load_check(&cfg, &plain, dram, &err), &err, VTA_E_STREAM,
	       "lut_run 1 on a load that does not decompress (only a decompressing load spans "
	       "channel blocks)");
	vta_mem_insn beyond = in.mem;
	beyond.y_size = 600; /* 1200 rows past the 1024-row WGT SRAM */
	expect(vta_load_check(&cfg, &beyond, dram, &err), &err, VTA_E_OOB,
	       "wgt SRAM rows [0, 1200) beyond depth 1024");
	assert_int_equal(vta_config_set(&cfg, "decompressor.multi_block", "false", &err), VTA_OK);
	expect(vta_load_check(&cfg, &in.mem, dram, &err), &err, VTA_E_UNSUPPORTED,
	       "a multi-block decompressing load (lut_run 3) needs decompressor.multi_block in "
	       "the config");
	expect(vta_config_set(&narrow, "decompressor.multi_block", "true", &err), &err,
	       VTA_E_CONFIG,
	       "decompressor.multi_block: a multi-block load's lut_run has no bits in VTA's "
	       "128-bit memory instruction; set isa.encoding: wide");
}

/* Zero-lane fill: lut_group and lut_period after lut_run in word 2, the compact element, the
 * lanes the decoder fills, the cost of the real lanes and every rule. */
static void test_zero_fill(void **state)
{
	(void)state;
	vta_config narrow, cfg;
	vta_config_default(&narrow);
	vta_config_default(&cfg);
	vta_error err = {0};
	assert_int_equal(vta_config_set(&cfg, "isa.encoding", "wide", &err), VTA_OK);
	assert_int_equal(vta_config_set(&cfg, "sram_kib.uop", "64", &err), VTA_OK);
	assert_int_equal(vta_config_set(&cfg, "decompressor.zero_fill", "true", &err), VTA_OK);
	vta_insn in, out;
	memset(&in, 0, sizeof(in));
	in.opcode = VTA_OP_LOAD;
	in.mem = mem_of(VTA_MEM_WGT, 0, 0x20, 9, 1, 4, 1, 32);
	in.mem.lut_group = 4;
	in.mem.lut_period = 3;
	uint8_t b[VTA_INSN_MAX_BYTES];
	assert_int_equal(vta_insn_encode(&cfg, &in, b, &err), VTA_OK);
	assert_int_equal(word(b, 2), (4u << 17) | (3ull << 25)); /* lut_run 0 before them */
	assert_int_equal(vta_insn_decode(&cfg, b, &out, &err), VTA_OK);
	assert_memory_equal(&in.mem, &out.mem, sizeof(in.mem));
	char text[256];
	vta_disasm_insn(&in, text, sizeof(text));
	assert_string_equal(text, "load   mem=wgt sram=0 dram=0x20 bw=4 slot=1 y=9 x=1 stride=1 "
				  "chan=32 group=4 period=3 deps=none");
	expect(vta_insn_encode(&narrow, &in, b, &err), &err, VTA_E_ENCODE,
	       "lut_group 4: the field exists only in the wide encoding (isa.encoding: wide)");
	/* the element holds 16 x 4 lanes of 4 bits; E counts them */
	assert_int_equal(vta_lut_real_lanes(&cfg, &in.mem), 64);
	assert_int_equal(vta_load_elem_bytes(&cfg, &in.mem), 32);
	assert_int_equal(vta_cost_lut_elements(&cfg, &in.mem), 9 * 64);
	assert_int_equal(vta_cost_dma_bytes(&cfg, &in.mem), 9 * 32);
	/* output lane o of channel 32 + o: group ((32 + o) / 3) % 4 at input lanes 4g..4g+3 */
	for (uint32_t o = 0; o < 16; o++)
		for (uint32_t i = 0; i < 16; i++) {
			uint32_t real = 99;
			const uint32_t g = (32 + o) / 3 % 4;
			const bool want = i / 4 == g;
			assert_int_equal(vta_lut_fill_lane(&cfg, &in.mem, 32, o * 16 + i, &real), want);
			if (want)
				assert_int_equal(real, o * 4 + i % 4);
		}
	const uint64_t dram = 1u << 20;
	assert_int_equal(vta_load_check(&cfg, &in.mem, dram, &err), VTA_OK);
	vta_mem_insn m = in.mem;
	m.lut_group = 3;
	expect(vta_load_check(&cfg, &m, dram, &err), &err, VTA_E_STREAM,
	       "lut_group 3 does not divide block_in 16 (a row holds whole groups of input lanes)");
	m.lut_group = 32;
	expect(vta_load_check(&cfg, &m, dram, &err), &err, VTA_E_STREAM,
	       "lut_group 32 does not divide block_in 16 (a row holds whole groups of input "
	       "lanes)");
	m.lut_group = 4;
	m.lut_period = 0;
	expect(vta_load_check(&cfg, &m, dram, &err), &err, VTA_E_STREAM,
	       "lut_group 4 with lut_period 0: zero-lane fill needs both (a group width and its "
	       "output channels), or neither");
	m = in.mem;
	m.mem_type = VTA_MEM_INP;
	expect(vta_load_check(&cfg, &m, dram, &err), &err, VTA_E_STREAM,
	       "lut_group 4 on a decompressing load of inp (only WGT rows are block-diagonal)");
	m = in.mem;
	m.lut_bw = 0;
	expect(vta_load_check(&cfg, &m, dram, &err), &err, VTA_E_STREAM,
	       "lut_group 4, lut_period 3 on a load that does not decompress (only a "
	       "decompressing WGT load fills zero lanes)");
	vta_mem_insn st = mem_of(VTA_MEM_OUT, 0, 0, 1, 1, 0, 0, 0);
	st.lut_period = 2;
	expect(vta_store_check(&cfg, &st, dram, &err), &err, VTA_E_STREAM,
	       "a store has no LUT fields (lut_run 0, lut_group 0, lut_period 2)");
	assert_int_equal(vta_config_set(&cfg, "decompressor.zero_fill", "false", &err), VTA_OK);
	expect(vta_load_check(&cfg, &in.mem, dram, &err), &err, VTA_E_UNSUPPORTED,
	       "a zero-lane fill load (lut_group 4) needs decompressor.zero_fill in the config");
	expect(vta_config_set(&narrow, "decompressor.zero_fill", "true", &err), &err, VTA_E_CONFIG,
	       "decompressor.zero_fill: a zero-lane fill load's lut_group and lut_period have no "
	       "bits in VTA's 128-bit memory instruction; set isa.encoding: wide");
}

static void test_cost(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg); /* 64-bit bus, 16 indices per cycle */
	vta_mem_insn m = mem_of(VTA_MEM_WGT, 0, 0, 1, 2, 3, 0, 0);
	assert_int_equal(vta_cost_lut_elements(&cfg, &m), 512);
	assert_int_equal(vta_cost_lut_decode_cycles(&cfg, &m), 512 / 16 + 3);
	assert_int_equal(vta_cost_dma_bytes(&cfg, &m), 2 * 96);
	/* 192 bytes: 24 beats (and the read pipeline), under the decoder's 35 cycles */
	const uint64_t ovh = cfg.insn_overhead_cycles, P = cfg.dram_read_pipeline_cycles;
	assert_true(24 + P < 35);
	assert_int_equal(vta_cost_load_idle_cycles(&cfg, &m), ovh + 64 + 35);
	m.lut_bw = 5; /* rate min(16, 64 / 5 = 12.8): 512 * 5 bits / 64 = 40 bus words */
	assert_int_equal(vta_cost_lut_decode_cycles(&cfg, &m), 40 + 3);
	m.lut_bw = 7; /* rate 9.14: 56 words, the 2 x 224 bytes' 56 beats */
	assert_int_equal(vta_cost_lut_decode_cycles(&cfg, &m), 56 + 3);
	assert_int_equal(vta_cost_load_idle_cycles(&cfg, &m), ovh + 64 + (56 + P > 59 ? 56 + P : 59));
	cfg.decomp_indices_per_cycle = 4; /* lane-bound: 128 cycles */
	assert_int_equal(vta_cost_lut_decode_cycles(&cfg, &m), 128 + 3);
	cfg.decomp_indices_per_cycle = 64;
	m.lut_bw = 1; /* rate 64: 8 + 3 cycles, 2 x 32 bytes = 8 beats and the read pipeline */
	assert_int_equal(vta_cost_load_idle_cycles(&cfg, &m), ovh + 64 + (8 + P > 11 ? 8 + P : 11));
	m.lut_bw = 0;
	assert_int_equal(vta_cost_lut_decode_cycles(&cfg, &m), 0);
}

/* The reference executor against the straightforward decoder of lut_progs.h. */
static void test_ref_decode(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	vta_ref *ref;
	vta_error err = {0};
	assert_int_equal(vta_ref_create(&cfg, &ref, &err), VTA_OK);
	const vta_mem mems[] = {VTA_MEM_WGT, VTA_MEM_INP, VTA_MEM_ACC};
	uint32_t seed = 7;
	for (size_t k = 0; k < 3; k++) {
		for (uint32_t bw = 1; bw <= 7; bw++) {
			for (int per_channel = 0; per_channel < 2; per_channel++) {
				lutp p = {mems[k], bw, per_channel ? 20 : 1,
					  (1u << bw) - (bw > 1), per_channel ? 3 : 0, 3, NULL, 0};
				if (p.mem == VTA_MEM_INP && per_channel)
					p.channels = 16 + p.chan;
				vta_program prog;
				lutp_build(&cfg, &p, seed++, &prog);
				vta_dram dram;
				assert_int_equal(vta_dram_init(&dram, 1 << 20, &err), VTA_OK);
				assert_int_equal(vta_dram_place_segments(&dram, &prog, &err), VTA_OK);
				if (vta_ref_run(ref, &prog, &dram, &err) != VTA_OK)
					fail_msg("%s bw %u: %s", vta_mem_name(p.mem), bw, err.detail);
				size_t size;
				const uint8_t *s = vta_ref_sram(ref, p.mem, &size);
				size_t row = p.expect_bytes / p.rows;
				assert_memory_equal(s + 2 * row, p.expect, p.expect_bytes);
				const vta_ref_counters *c = vta_ref_counters_get(ref);
				assert_int_equal(c->lut_elements,
						 (uint64_t)p.rows * vta_lut_lanes(&cfg, p.mem));
				assert_int_equal(c->lut_table_loads, 1);
				assert_int_equal(c->lut_index_bytes,
						 p.rows * vta_lut_packed_bytes(&cfg, p.mem, bw));
				free(p.expect);
				vta_dram_free(&dram);
				vta_program_free(&prog);
			}
		}
	}
	vta_ref_destroy(ref);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_encoding),
		cmocka_unit_test(test_asm_errors),
		cmocka_unit_test(test_rules),
		cmocka_unit_test(test_multi_block),
		cmocka_unit_test(test_zero_fill),
		cmocka_unit_test(test_cost),
		cmocka_unit_test(test_ref_decode),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
