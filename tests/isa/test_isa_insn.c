/*
 * test_isa_insn.c - instruction and micro-op encoding: every field at its limits, every
 * out-of-range value, the bit positions of VTA's default layout, unused bits, undefined
 * opcodes / memory types / ALU ops, dispatch, NOPs and dependency-flag legality, and a
 * random round-trip property test, on the default config and on a small one whose field
 * widths differ.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "vta_insn.h"
#include "vta_insn_fields.h"

/* ---------- configs ---------- */

/* BLOCK 4 and 1 KiB SRAMs: uop 256 (8 bits), inp 256 (8), wgt 64 (6), acc 64 (6). */
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

static void test_configs_differ(void **state)
{
	(void)state;
	vta_config d, s;
	vta_config_default(&d);
	small_config(&s);
	/* the widths this file relies on (VTA's default layout, vta-facts 1.2) */
	assert_int_equal(d.fw.uop_bgn, 13);
	assert_int_equal(d.fw.uop_end, 14);
	assert_int_equal(d.fw.gemm_dst_factor, 11);
	assert_int_equal(d.fw.gemm_src_factor, 11);
	assert_int_equal(d.fw.gemm_wgt_factor, 10);
	assert_int_equal(s.fw.uop_bgn, 8);
	assert_int_equal(s.fw.uop_end, 9);
	assert_int_equal(s.fw.gemm_dst_factor, 6);
	assert_int_equal(s.fw.gemm_src_factor, 8);
	assert_int_equal(s.fw.gemm_wgt_factor, 6);
	assert_int_equal(s.fw.uop_src, 8);
}

/* ---------- field table ---------- */

typedef enum fid {
	F_POP_PREV, F_POP_NEXT, F_PUSH_PREV, F_PUSH_NEXT,
	F_MEM_TYPE, F_SRAM, F_DRAM, F_Y_SIZE, F_X_SIZE, F_X_STRIDE, F_Y_PAD_0, F_Y_PAD_1,
	F_X_PAD_0, F_X_PAD_1,
	F_RESET, F_UOP_BGN, F_UOP_END, F_ITER_OUT, F_ITER_IN, F_DST_OUT, F_DST_IN, F_SRC_OUT,
	F_SRC_IN, F_WGT_OUT, F_WGT_IN, F_ALU_OP, F_USE_IMM, F_IMM
} fid;

typedef struct field {
	fid id;
	const char *name;
	vta_opcode op;
	size_t width; /* offset in vta_field_widths */
	int is_signed;
	int is_bool;
	unsigned default_lsb; /* bit position on the default config (vta-facts 1.2) */
} field;

#define FW(f) offsetof(vta_field_widths, f)

static const field fields[] = {
	{F_POP_PREV, "pop_prev", VTA_OP_GEMM, FW(dep_flag), 0, 1, 3},
	{F_POP_NEXT, "pop_next", VTA_OP_GEMM, FW(dep_flag), 0, 1, 4},
	{F_PUSH_PREV, "push_prev", VTA_OP_GEMM, FW(dep_flag), 0, 1, 5},
	{F_PUSH_NEXT, "push_next", VTA_OP_GEMM, FW(dep_flag), 0, 1, 6},
	{F_MEM_TYPE, "memory_type", VTA_OP_LOAD, FW(memop_id), 0, 0, 7},
	{F_SRAM, "sram_base", VTA_OP_LOAD, FW(memop_sram), 0, 0, 10},
	{F_DRAM, "dram_base", VTA_OP_STORE, FW(memop_dram), 0, 0, 26},
	{F_Y_SIZE, "y_size", VTA_OP_LOAD, FW(memop_size), 0, 0, 64},
	{F_X_SIZE, "x_size", VTA_OP_STORE, FW(memop_size), 0, 0, 80},
	{F_X_STRIDE, "x_stride", VTA_OP_LOAD, FW(memop_stride), 0, 0, 96},
	{F_Y_PAD_0, "y_pad_0", VTA_OP_LOAD, FW(memop_pad), 0, 0, 112},
	{F_Y_PAD_1, "y_pad_1", VTA_OP_LOAD, FW(memop_pad), 0, 0, 116},
	{F_X_PAD_0, "x_pad_0", VTA_OP_LOAD, FW(memop_pad), 0, 0, 120},
	{F_X_PAD_1, "x_pad_1", VTA_OP_LOAD, FW(memop_pad), 0, 0, 124},
	{F_RESET, "reset", VTA_OP_GEMM, FW(reset), 0, 1, 7},
	{F_UOP_BGN, "uop_bgn", VTA_OP_GEMM, FW(uop_bgn), 0, 0, 8},
	{F_UOP_END, "uop_end", VTA_OP_GEMM, FW(uop_end), 0, 0, 21},
	{F_ITER_OUT, "iter_out", VTA_OP_GEMM, FW(loop_iter), 0, 0, 35},
	{F_ITER_IN, "iter_in", VTA_OP_GEMM, FW(loop_iter), 0, 0, 49},
	{F_DST_OUT, "dst_factor_out", VTA_OP_GEMM, FW(gemm_dst_factor), 0, 0, 64},
	{F_DST_IN, "dst_factor_in", VTA_OP_GEMM, FW(gemm_dst_factor), 0, 0, 75},
	{F_SRC_OUT, "src_factor_out", VTA_OP_GEMM, FW(gemm_src_factor), 0, 0, 86},
	{F_SRC_IN, "src_factor_in", VTA_OP_GEMM, FW(gemm_src_factor), 0, 0, 97},
	{F_WGT_OUT, "wgt_factor_out", VTA_OP_GEMM, FW(gemm_wgt_factor), 0, 0, 108},
	{F_WGT_IN, "wgt_factor_in", VTA_OP_GEMM, FW(gemm_wgt_factor), 0, 0, 118},
	/* the same loop fields on ALU, whose factors all index ACC */
	{F_RESET, "reset", VTA_OP_ALU, FW(reset), 0, 1, 7},
	{F_UOP_BGN, "uop_bgn", VTA_OP_ALU, FW(uop_bgn), 0, 0, 8},
	{F_UOP_END, "uop_end", VTA_OP_ALU, FW(uop_end), 0, 0, 21},
	{F_ITER_OUT, "iter_out", VTA_OP_ALU, FW(loop_iter), 0, 0, 35},
	{F_ITER_IN, "iter_in", VTA_OP_ALU, FW(loop_iter), 0, 0, 49},
	{F_DST_OUT, "dst_factor_out", VTA_OP_ALU, FW(alu_dst_factor), 0, 0, 64},
	{F_DST_IN, "dst_factor_in", VTA_OP_ALU, FW(alu_dst_factor), 0, 0, 75},
	{F_SRC_OUT, "src_factor_out", VTA_OP_ALU, FW(alu_src_factor), 0, 0, 86},
	{F_SRC_IN, "src_factor_in", VTA_OP_ALU, FW(alu_src_factor), 0, 0, 97},
	{F_ALU_OP, "alu_opcode", VTA_OP_ALU, FW(alu_opcode), 0, 0, 108},
	{F_USE_IMM, "use_imm", VTA_OP_ALU, FW(alu_use_imm), 0, 1, 111},
	{F_IMM, "imm", VTA_OP_ALU, FW(alu_imm), 1, 0, 112},
	/* flags on the other opcodes */
	{F_POP_PREV, "pop_prev", VTA_OP_FINISH, FW(dep_flag), 0, 1, 3},
	{F_PUSH_NEXT, "push_next", VTA_OP_FINISH, FW(dep_flag), 0, 1, 6},
	{F_POP_NEXT, "pop_next", VTA_OP_STORE, FW(dep_flag), 0, 1, 4},
	{F_PUSH_PREV, "push_prev", VTA_OP_ALU, FW(dep_flag), 0, 1, 5},
};
#define N_FIELDS (sizeof(fields) / sizeof(fields[0]))

static unsigned width_of(const vta_config *cfg, const field *f)
{
	unsigned w;
	memcpy(&w, (const char *)&cfg->fw + f->width, sizeof(w));
	return w;
}

static void set_field(vta_insn *in, fid id, int64_t v)
{
	switch (id) {
	case F_POP_PREV: in->deps.pop_prev = v != 0; break;
	case F_POP_NEXT: in->deps.pop_next = v != 0; break;
	case F_PUSH_PREV: in->deps.push_prev = v != 0; break;
	case F_PUSH_NEXT: in->deps.push_next = v != 0; break;
	case F_MEM_TYPE: in->mem.mem_type = (uint32_t)v; break;
	case F_SRAM: in->mem.sram_base = (uint32_t)v; break;
	case F_DRAM: in->mem.dram_base = (uint32_t)v; break;
	case F_Y_SIZE: in->mem.y_size = (uint32_t)v; break;
	case F_X_SIZE: in->mem.x_size = (uint32_t)v; break;
	case F_X_STRIDE: in->mem.x_stride = (uint32_t)v; break;
	case F_Y_PAD_0: in->mem.y_pad_0 = (uint32_t)v; break;
	case F_Y_PAD_1: in->mem.y_pad_1 = (uint32_t)v; break;
	case F_X_PAD_0: in->mem.x_pad_0 = (uint32_t)v; break;
	case F_X_PAD_1: in->mem.x_pad_1 = (uint32_t)v; break;
	case F_RESET: in->loop.reset = v != 0; break;
	case F_UOP_BGN: in->loop.uop_bgn = (uint32_t)v; break;
	case F_UOP_END: in->loop.uop_end = (uint32_t)v; break;
	case F_ITER_OUT: in->loop.iter_out = (uint32_t)v; break;
	case F_ITER_IN: in->loop.iter_in = (uint32_t)v; break;
	case F_DST_OUT: in->loop.dst_factor_out = (uint32_t)v; break;
	case F_DST_IN: in->loop.dst_factor_in = (uint32_t)v; break;
	case F_SRC_OUT: in->loop.src_factor_out = (uint32_t)v; break;
	case F_SRC_IN: in->loop.src_factor_in = (uint32_t)v; break;
	case F_WGT_OUT: in->loop.wgt_factor_out = (uint32_t)v; break;
	case F_WGT_IN: in->loop.wgt_factor_in = (uint32_t)v; break;
	case F_ALU_OP: in->alu.op = (uint32_t)v; break;
	case F_USE_IMM: in->alu.use_imm = v != 0; break;
	case F_IMM: in->alu.imm = (int32_t)v; break;
	}
}

/* Field-by-field equality of the part of two instructions their opcode defines. */
static void assert_insn_equal(const vta_insn *a, const vta_insn *b)
{
	assert_int_equal(a->opcode, b->opcode);
	assert_int_equal(a->deps.pop_prev, b->deps.pop_prev);
	assert_int_equal(a->deps.pop_next, b->deps.pop_next);
	assert_int_equal(a->deps.push_prev, b->deps.push_prev);
	assert_int_equal(a->deps.push_next, b->deps.push_next);
	if (a->opcode == VTA_OP_LOAD || a->opcode == VTA_OP_STORE) {
		assert_int_equal(a->mem.mem_type, b->mem.mem_type);
		assert_int_equal(a->mem.sram_base, b->mem.sram_base);
		assert_int_equal(a->mem.dram_base, b->mem.dram_base);
		assert_int_equal(a->mem.y_size, b->mem.y_size);
		assert_int_equal(a->mem.x_size, b->mem.x_size);
		assert_int_equal(a->mem.x_stride, b->mem.x_stride);
		assert_int_equal(a->mem.y_pad_0, b->mem.y_pad_0);
		assert_int_equal(a->mem.y_pad_1, b->mem.y_pad_1);
		assert_int_equal(a->mem.x_pad_0, b->mem.x_pad_0);
		assert_int_equal(a->mem.x_pad_1, b->mem.x_pad_1);
	}
	if (a->opcode == VTA_OP_GEMM || a->opcode == VTA_OP_ALU) {
		assert_int_equal(a->loop.reset, b->loop.reset);
		assert_int_equal(a->loop.uop_bgn, b->loop.uop_bgn);
		assert_int_equal(a->loop.uop_end, b->loop.uop_end);
		assert_int_equal(a->loop.iter_out, b->loop.iter_out);
		assert_int_equal(a->loop.iter_in, b->loop.iter_in);
		assert_int_equal(a->loop.dst_factor_out, b->loop.dst_factor_out);
		assert_int_equal(a->loop.dst_factor_in, b->loop.dst_factor_in);
		assert_int_equal(a->loop.src_factor_out, b->loop.src_factor_out);
		assert_int_equal(a->loop.src_factor_in, b->loop.src_factor_in);
	}
	if (a->opcode == VTA_OP_GEMM) {
		assert_int_equal(a->loop.wgt_factor_out, b->loop.wgt_factor_out);
		assert_int_equal(a->loop.wgt_factor_in, b->loop.wgt_factor_in);
	}
	if (a->opcode == VTA_OP_ALU) {
		assert_int_equal(a->alu.op, b->alu.op);
		assert_int_equal(a->alu.use_imm, b->alu.use_imm);
		assert_int_equal(a->alu.imm, b->alu.imm);
	}
}

static vta_insn blank(vta_opcode op)
{
	vta_insn in;
	memset(&in, 0, sizeof(in));
	in.opcode = op;
	if (op == VTA_OP_LOAD)
		in.mem.mem_type = VTA_MEM_INP;
	if (op == VTA_OP_STORE)
		in.mem.mem_type = VTA_MEM_OUT;
	return in;
}

static int64_t field_max(const vta_config *cfg, const field *f)
{
	unsigned w = width_of(cfg, f);
	if (f->id == F_MEM_TYPE)
		return VTA_MEM_COUNT - 1; /* 3 bits, all 0..7 defined */
	if (f->id == F_ALU_OP)
		return VTA_ALU_OP_COUNT - 1;
	if (f->is_signed)
		return (1ll << (w - 1)) - 1;
	return (int64_t)((1ull << w) - 1);
}

static int64_t field_min(const vta_config *cfg, const field *f)
{
	return f->is_signed ? -(1ll << (width_of(cfg, f) - 1)) : 0;
}

static void round_trip_value(const vta_config *cfg, const field *f, int64_t v)
{
	vta_insn in = blank(f->op), out;
	uint8_t b[VTA_INSN_BYTES], b2[VTA_INSN_BYTES];
	vta_error err = {0};
	set_field(&in, f->id, v);
	if (vta_insn_encode(cfg, &in, b, &err) != VTA_OK)
		fail_msg("%s = %lld on %s: %s", f->name, (long long)v, vta_opcode_name(f->op),
			 err.detail);
	assert_int_equal(vta_insn_decode(cfg, b, &out, &err), VTA_OK);
	assert_insn_equal(&in, &out);
	assert_int_equal(vta_insn_encode(cfg, &out, b2, &err), VTA_OK);
	assert_memory_equal(b, b2, VTA_INSN_BYTES);
}

static void field_limits(const vta_config *cfg)
{
	for (size_t i = 0; i < N_FIELDS; i++) {
		const field *f = &fields[i];
		round_trip_value(cfg, f, field_min(cfg, f));
		round_trip_value(cfg, f, field_max(cfg, f));
		if (!f->is_bool && f->id != F_MEM_TYPE && f->id != F_ALU_OP)
			round_trip_value(cfg, f, field_max(cfg, f) / 3);
	}
}

static void test_field_limits_default(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	field_limits(&cfg);
}

static void test_field_limits_small(void **state)
{
	(void)state;
	vta_config cfg;
	small_config(&cfg);
	field_limits(&cfg);
}

/* A field at its maximum sets exactly `width` bits, starting at VTA's position. */
static void test_default_bit_positions(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	for (size_t i = 0; i < N_FIELDS; i++) {
		const field *f = &fields[i];
		if (f->id == F_MEM_TYPE || f->id == F_ALU_OP)
			continue; /* their maximum is not all ones */
		vta_insn in = blank(f->op);
		uint8_t b[VTA_INSN_BYTES], base[VTA_INSN_BYTES];
		vta_error err = {0};
		assert_int_equal(vta_insn_encode(&cfg, &in, base, &err), VTA_OK);
		set_field(&in, f->id, f->is_signed ? -1 : field_max(&cfg, f));
		assert_int_equal(vta_insn_encode(&cfg, &in, b, &err), VTA_OK);
		unsigned w = width_of(&cfg, f);
		for (unsigned bit = 0; bit < 128; bit++) {
			int was = (base[bit / 8] >> (bit % 8)) & 1;
			int is = (b[bit / 8] >> (bit % 8)) & 1;
			int in_field = bit >= f->default_lsb && bit < f->default_lsb + w;
			if (is != (was | in_field))
				fail_msg("%s on %s: bit %u is %d", f->name, vta_opcode_name(f->op),
					 bit, is);
		}
	}
	/* and the opcode sits in bits 2:0 of byte 0 */
	vta_insn in = blank(VTA_OP_ALU);
	uint8_t b[VTA_INSN_BYTES];
	vta_error err = {0};
	assert_int_equal(vta_insn_encode(&cfg, &in, b, &err), VTA_OK);
	assert_int_equal(b[0], VTA_OP_ALU);
	in = blank(VTA_OP_STORE);
	assert_int_equal(vta_insn_encode(&cfg, &in, b, &err), VTA_OK);
	assert_int_equal(b[0] & 7, VTA_OP_STORE);
	assert_int_equal((b[0] >> 7) | ((b[1] & 3) << 1), VTA_MEM_OUT);
}

static void out_of_range(const vta_config *cfg)
{
	for (size_t i = 0; i < N_FIELDS; i++) {
		const field *f = &fields[i];
		if (f->is_bool || f->id == F_MEM_TYPE || f->id == F_ALU_OP)
			continue; /* bools cannot overflow; undefined enums are tested apart */
		unsigned w = width_of(cfg, f);
		int64_t bad[2] = {field_max(cfg, f) + 1, f->is_signed ? field_min(cfg, f) - 1 : -1};
		for (int k = 0; k < 2; k++) {
			if (!f->is_signed && (k == 1 || bad[k] > UINT32_MAX))
				continue; /* the struct field cannot hold it */
			vta_insn in = blank(f->op);
			uint8_t b[VTA_INSN_BYTES];
			vta_error err = {0};
			set_field(&in, f->id, bad[k]);
			assert_int_equal(vta_insn_encode(cfg, &in, b, &err), VTA_E_ENCODE);
			char want[128];
			snprintf(want, sizeof(want), "%s %lld does not fit in %u bits", f->name,
				 (long long)bad[k], w);
			if (strstr(err.detail, want) != err.detail)
				fail_msg("expected '%s...', got '%s'", want, err.detail);
		}
	}
}

static void test_out_of_range_default(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	out_of_range(&cfg);
	/* the example of the contract, verbatim */
	vta_insn in = blank(VTA_OP_LOAD);
	in.mem.x_size = 70000;
	uint8_t b[VTA_INSN_BYTES];
	vta_error err = {0};
	assert_int_equal(vta_insn_encode(&cfg, &in, b, &err), VTA_E_ENCODE);
	assert_string_equal(err.detail, "x_size 70000 does not fit in 16 bits");
	in = blank(VTA_OP_ALU);
	in.alu.imm = -32769;
	assert_int_equal(vta_insn_encode(&cfg, &in, b, &err), VTA_E_ENCODE);
	assert_string_equal(err.detail, "imm -32769 does not fit in 16 bits (signed, -32768..32767)");
}

static void test_out_of_range_small(void **state)
{
	(void)state;
	vta_config cfg, def;
	small_config(&cfg);
	vta_config_default(&def);
	out_of_range(&cfg);
	/* a value the default config takes is refused by the small one */
	vta_insn in = blank(VTA_OP_GEMM);
	in.loop.uop_bgn = 300;
	uint8_t b[VTA_INSN_BYTES];
	vta_error err = {0};
	assert_int_equal(vta_insn_encode(&def, &in, b, &err), VTA_OK);
	assert_int_equal(vta_insn_encode(&cfg, &in, b, &err), VTA_E_ENCODE);
	assert_string_equal(err.detail, "uop_bgn 300 does not fit in 8 bits");
}

static void test_encode_undefined_values(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	uint8_t b[VTA_INSN_BYTES];
	vta_error err = {0};
	vta_insn in = blank(VTA_OP_LOAD);
	in.opcode = (vta_opcode)5;
	assert_int_equal(vta_insn_encode(&cfg, &in, b, &err), VTA_E_ENCODE);
	assert_non_null(strstr(err.detail, "opcode 5"));
	in = blank(VTA_OP_LOAD);
	in.mem.mem_type = 8;
	assert_int_equal(vta_insn_encode(&cfg, &in, b, &err), VTA_E_ENCODE);
	assert_non_null(strstr(err.detail, "memory_type 8"));
	in = blank(VTA_OP_ALU);
	in.alu.op = 7;
	assert_int_equal(vta_insn_encode(&cfg, &in, b, &err), VTA_E_ENCODE);
	assert_non_null(strstr(err.detail, "alu_opcode 7"));
}

/* ---------- decoding malformed words ---------- */

static void set_bit(uint8_t *b, unsigned bit)
{
	b[bit / 8] |= (uint8_t)(1u << (bit % 8));
}

/* Every bit above the defined fields of each word is rejected, for each opcode. */
static void unused_bits(const vta_config *cfg)
{
	const vta_field_widths *fw = &cfg->fw;
	const struct {
		vta_opcode op;
		unsigned w0, w1;
	} shapes[] = {
		{VTA_OP_LOAD, fw->mem_word0_bits, fw->mem_word1_bits},
		{VTA_OP_STORE, fw->mem_word0_bits, fw->mem_word1_bits},
		{VTA_OP_GEMM, fw->gemm_word0_bits, fw->gemm_word1_bits},
		{VTA_OP_ALU, fw->gemm_word0_bits, fw->alu_word1_bits},
		{VTA_OP_FINISH, 7, 0},
	};
	for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
		unsigned checked = 0;
		for (unsigned bit = 0; bit < 128; bit++) {
			unsigned used = bit < 64 ? shapes[s].w0 : shapes[s].w1;
			if ((bit % 64) < used)
				continue;
			vta_insn in = blank(shapes[s].op), out;
			uint8_t b[VTA_INSN_BYTES];
			vta_error err = {0};
			assert_int_equal(vta_insn_encode(cfg, &in, b, &err), VTA_OK);
			set_bit(b, bit);
			if (vta_insn_decode(cfg, b, &out, &err) != VTA_E_STREAM)
				fail_msg("%s: unused bit %u accepted", vta_opcode_name(shapes[s].op),
					 bit);
			char want[64];
			snprintf(want, sizeof(want), "unused bits %u..63 of word %u", used, bit / 64);
			if (!strstr(err.detail, want))
				fail_msg("expected '%s' in '%s'", want, err.detail);
			checked++;
		}
		/* LUT fields fill memory word 0, and the pads word 1 */
		assert_true(checked > 0 || shapes[s].op == VTA_OP_LOAD || shapes[s].op == VTA_OP_STORE);
		if (shapes[s].op == VTA_OP_FINISH)
			assert_int_equal(checked, 128 - 7);
	}
}

static void test_unused_bits_default(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	/* VTA's 6 bits of padding on top of memory word 0 hold lut_bw and lut_slot; 1 bit on
	 * top of GEMM/ALU word 0 */
	assert_int_equal(cfg.fw.mem_word0_bits, 64);
	assert_int_equal(cfg.fw.gemm_word0_bits, 63);
	assert_int_equal(cfg.fw.mem_word1_bits, 64);
	unused_bits(&cfg);
}

static void test_unused_bits_small(void **state)
{
	(void)state;
	vta_config cfg;
	small_config(&cfg);
	unused_bits(&cfg);
}

static void test_decode_undefined(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	vta_insn out;
	vta_error err = {0};
	for (unsigned op = 5; op <= 7; op++) {
		uint8_t b[VTA_INSN_BYTES] = {0};
		b[0] = (uint8_t)op;
		assert_int_equal(vta_insn_decode(&cfg, b, &out, &err), VTA_E_STREAM);
		char want[32];
		snprintf(want, sizeof(want), "opcode %u is not defined", op);
		assert_non_null(strstr(err.detail, want));
		assert_int_equal(vta_insn_decode_head(&cfg, b, &out, &err), VTA_E_STREAM);
		assert_non_null(strstr(err.detail, want));
	}
	/* memory types 6 and 7 (lut, lut32) are defined */
	for (unsigned m = 6; m <= 7; m++) {
		for (unsigned op = VTA_OP_LOAD; op <= VTA_OP_STORE; op++) {
			uint8_t b[VTA_INSN_BYTES] = {0};
			b[0] = (uint8_t)(op | (m & 1) << 7);
			b[1] = (uint8_t)(m >> 1);
			assert_int_equal(vta_insn_decode(&cfg, b, &out, &err), VTA_OK);
			assert_int_equal(out.mem.mem_type, m);
		}
	}
	/* ALU opcode 7 at bits 110:108 */
	uint8_t b[VTA_INSN_BYTES] = {0};
	b[0] = VTA_OP_ALU;
	b[13] = 7 << 4;
	assert_int_equal(vta_insn_decode(&cfg, b, &out, &err), VTA_E_STREAM);
	assert_non_null(strstr(err.detail, "alu_opcode 7 is not defined"));
	/* opcode 6 in the GEMM position of bits: still an undefined opcode, not a GEMM */
	b[13] = 0;
	b[0] = 6 | 1 << 3;
	assert_int_equal(vta_insn_decode(&cfg, b, &out, &err), VTA_E_STREAM);
}

static void test_decode_known_bytes(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	/* LOAD INP, push_next, sram 3, dram 0x100, y 4, x 4, stride 16, pads 1,1,1,1 */
	uint64_t w0 = 0 | 1ull << 6 | 2ull << 7 | 3ull << 10 | 0x100ull << 26;
	uint64_t w1 = 4ull | 4ull << 16 | 16ull << 32 | 1ull << 48 | 1ull << 52 | 1ull << 56 |
		      1ull << 60;
	uint8_t b[VTA_INSN_BYTES];
	for (int i = 0; i < 8; i++) {
		b[i] = (uint8_t)(w0 >> (8 * i));
		b[8 + i] = (uint8_t)(w1 >> (8 * i));
	}
	vta_insn in;
	vta_error err = {0};
	assert_int_equal(vta_insn_decode(&cfg, b, &in, &err), VTA_OK);
	assert_int_equal(in.opcode, VTA_OP_LOAD);
	assert_true(in.deps.push_next);
	assert_false(in.deps.pop_prev || in.deps.pop_next || in.deps.push_prev);
	assert_int_equal(in.mem.mem_type, VTA_MEM_INP);
	assert_int_equal(in.mem.sram_base, 3);
	assert_int_equal(in.mem.dram_base, 0x100);
	assert_int_equal(in.mem.y_size, 4);
	assert_int_equal(in.mem.x_size, 4);
	assert_int_equal(in.mem.x_stride, 16);
	assert_int_equal(in.mem.y_pad_0 + in.mem.y_pad_1 + in.mem.x_pad_0 + in.mem.x_pad_1, 4);
	/* ALU with imm -1: all 16 top bits set, sign-extended */
	memset(b, 0, sizeof(b));
	b[0] = VTA_OP_ALU;
	b[13] = (uint8_t)(VTA_ALU_SHR << 4 | 1 << 7);
	b[14] = b[15] = 0xff;
	assert_int_equal(vta_insn_decode(&cfg, b, &in, &err), VTA_OK);
	assert_int_equal(in.alu.op, VTA_ALU_SHR);
	assert_true(in.alu.use_imm);
	assert_int_equal(in.alu.imm, -1);
	b[15] = 0x80;
	b[14] = 0;
	assert_int_equal(vta_insn_decode(&cfg, b, &in, &err), VTA_OK);
	assert_int_equal(in.alu.imm, -32768);
}

/* ---------- micro-ops ---------- */

static void uop_fields(const vta_config *cfg)
{
	const vta_field_widths *fw = &cfg->fw;
	uint32_t max[3] = {(1u << fw->uop_dst) - 1, (1u << fw->uop_src) - 1,
			   (1u << fw->uop_wgt) - 1};
	const char *names[3] = {"uop dst", "uop src", "uop wgt"};
	for (int f = 0; f < 3; f++) {
		for (int k = 0; k < 3; k++) {
			uint32_t v = k == 0 ? 0 : k == 1 ? max[f] : max[f] + 1;
			vta_uop u = {0, 0, 0}, d;
			if (f == 0) u.dst = v;
			if (f == 1) u.src = v;
			if (f == 2) u.wgt = v;
			uint8_t b[VTA_UOP_BYTES], b2[VTA_UOP_BYTES];
			vta_error err = {0};
			vta_status st = vta_uop_encode(cfg, &u, b, &err);
			if (k < 2) {
				assert_int_equal(st, VTA_OK);
				assert_int_equal(vta_uop_decode(cfg, b, &d, &err), VTA_OK);
				assert_int_equal(d.dst, u.dst);
				assert_int_equal(d.src, u.src);
				assert_int_equal(d.wgt, u.wgt);
				assert_int_equal(vta_uop_encode(cfg, &d, b2, &err), VTA_OK);
				assert_memory_equal(b, b2, VTA_UOP_BYTES);
			} else {
				assert_int_equal(st, VTA_E_ENCODE);
				char want[64];
				snprintf(want, sizeof(want), "%s %u does not fit in", names[f], v);
				assert_non_null(strstr(err.detail, want));
			}
		}
	}
	/* unused bits on top of the uop */
	for (unsigned bit = fw->uop_bits; bit < 32; bit++) {
		uint8_t b[VTA_UOP_BYTES] = {0};
		vta_uop d;
		vta_error err = {0};
		set_bit(b, bit);
		assert_int_equal(vta_uop_decode(cfg, b, &d, &err), VTA_E_STREAM);
		assert_non_null(strstr(err.detail, "unused bits"));
	}
}

static void test_uops(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	assert_int_equal(cfg.fw.uop_bits, 32); /* 11 + 11 + 10: no unused bits */
	uop_fields(&cfg);
	/* VTA's layout: dst [10:0], src [21:11], wgt [31:22] */
	vta_uop u = {1, 2, 3};
	uint8_t b[VTA_UOP_BYTES];
	vta_error err = {0};
	assert_int_equal(vta_uop_encode(&cfg, &u, b, &err), VTA_OK);
	uint32_t w = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
		     (uint32_t)b[3] << 24;
	assert_int_equal(w, 1u | 2u << 11 | 3u << 22);
	small_config(&cfg);
	assert_int_equal(cfg.fw.uop_bits, 20);
	uop_fields(&cfg);
}

/* ---------- dispatch, names, NOPs, flags ---------- */

static void test_dispatch(void **state)
{
	(void)state;
	vta_insn in = blank(VTA_OP_LOAD);
	const vta_module by_mem[VTA_MEM_COUNT] = {
		VTA_MODULE_COMPUTE, VTA_MODULE_LOAD,	VTA_MODULE_LOAD,
		VTA_MODULE_COMPUTE, VTA_MODULE_COMPUTE, VTA_MODULE_COMPUTE,
		VTA_MODULE_LOAD,    VTA_MODULE_COMPUTE}; /* lut feeds WGT/INP, lut32 ACC */
	for (unsigned m = 0; m < VTA_MEM_COUNT; m++) {
		in.mem.mem_type = m;
		assert_int_equal(vta_insn_module(&in), by_mem[m]);
	}
	in = blank(VTA_OP_STORE);
	for (unsigned m = 0; m < VTA_MEM_COUNT; m++) {
		in.mem.mem_type = m;
		assert_int_equal(vta_insn_module(&in), VTA_MODULE_STORE);
	}
	in = blank(VTA_OP_GEMM);
	assert_int_equal(vta_insn_module(&in), VTA_MODULE_COMPUTE);
	in = blank(VTA_OP_ALU);
	assert_int_equal(vta_insn_module(&in), VTA_MODULE_COMPUTE);
	in = blank(VTA_OP_FINISH);
	assert_int_equal(vta_insn_module(&in), VTA_MODULE_COMPUTE);
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(vta_module_name(VTA_MODULE_LOAD), "load");
	assert_string_equal(vta_module_name(VTA_MODULE_COMPUTE), "compute");
	assert_string_equal(vta_module_name(VTA_MODULE_STORE), "store");
	assert_string_equal(vta_opcode_name(VTA_OP_LOAD), "load");
	assert_string_equal(vta_opcode_name(VTA_OP_STORE), "store");
	assert_string_equal(vta_opcode_name(VTA_OP_GEMM), "gemm");
	assert_string_equal(vta_opcode_name(VTA_OP_FINISH), "finish");
	assert_string_equal(vta_opcode_name(VTA_OP_ALU), "alu");
	const char *ops[] = {"min", "max", "add", "shr", "mul", "srdhm", "rshr"};
	for (unsigned i = 0; i < 7; i++)
		assert_string_equal(vta_alu_op_name(i), ops[i]);
	assert_null(vta_alu_op_name(7));
	assert_null(vta_alu_op_name(1000));
}

static void test_nop(void **state)
{
	(void)state;
	vta_insn in = blank(VTA_OP_LOAD);
	assert_true(vta_insn_is_nop(&in));
	in.mem.x_size = 1;
	assert_false(vta_insn_is_nop(&in));
	in = blank(VTA_OP_STORE);
	in.mem.y_size = 3; /* rows of nothing are still nothing */
	assert_true(vta_insn_is_nop(&in));
	in = blank(VTA_OP_GEMM);
	assert_false(vta_insn_is_nop(&in));
	in = blank(VTA_OP_FINISH);
	assert_false(vta_insn_is_nop(&in));
}

static void test_check_flags(void **state)
{
	(void)state;
	vta_error err = {0};
	/* load module: *_prev are illegal */
	for (unsigned m = VTA_MEM_WGT; m <= VTA_MEM_INP; m++) {
		vta_insn in = blank(VTA_OP_LOAD);
		in.mem.mem_type = m;
		in.deps.pop_next = in.deps.push_next = true;
		assert_int_equal(vta_insn_check_flags(&in, &err), VTA_OK);
		in.deps.pop_prev = true;
		assert_int_equal(vta_insn_check_flags(&in, &err), VTA_E_FLAGS);
		assert_non_null(strstr(err.detail, "pop_prev"));
		assert_non_null(strstr(err.detail, "load module"));
		in.deps.pop_prev = false;
		in.deps.push_prev = true;
		assert_int_equal(vta_insn_check_flags(&in, &err), VTA_E_FLAGS);
		assert_non_null(strstr(err.detail, "push_prev"));
	}
	/* store module: *_next are illegal */
	vta_insn in = blank(VTA_OP_STORE);
	in.deps.pop_prev = in.deps.push_prev = true;
	assert_int_equal(vta_insn_check_flags(&in, &err), VTA_OK);
	in.deps.pop_next = true;
	assert_int_equal(vta_insn_check_flags(&in, &err), VTA_E_FLAGS);
	assert_non_null(strstr(err.detail, "pop_next"));
	assert_non_null(strstr(err.detail, "store module"));
	in.deps.pop_next = false;
	in.deps.push_next = true;
	assert_int_equal(vta_insn_check_flags(&in, &err), VTA_E_FLAGS);
	assert_non_null(strstr(err.detail, "push_next"));
	/* compute module: all four are fine, LOAD UOP/ACC/ACC_8BIT included */
	const vta_opcode ops[] = {VTA_OP_GEMM, VTA_OP_ALU, VTA_OP_FINISH};
	for (size_t i = 0; i < 3 + 3; i++) {
		vta_insn c = blank(i < 3 ? ops[i] : VTA_OP_LOAD);
		if (i >= 3)
			c.mem.mem_type = i == 3 ? VTA_MEM_UOP : i == 4 ? VTA_MEM_ACC : VTA_MEM_ACC_8BIT;
		c.deps.pop_prev = c.deps.pop_next = c.deps.push_prev = c.deps.push_next = true;
		assert_int_equal(vta_insn_check_flags(&c, &err), VTA_OK);
	}
}

/* ---------- random property tests ---------- */

static uint64_t rng_next(uint64_t *s)
{
	/* splitmix64: a fixed seed keeps failures reproducible */
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint32_t rnd_bits(uint64_t *s, unsigned w)
{
	return w == 0 ? 0 : (uint32_t)(rng_next(s) & ((w >= 32) ? 0xffffffffull : ((1ull << w) - 1)));
}

static vta_insn random_insn(const vta_config *cfg, uint64_t *s)
{
	const vta_field_widths *fw = &cfg->fw;
	vta_insn in;
	memset(&in, 0, sizeof(in));
	in.opcode = (vta_opcode)(rng_next(s) % 5);
	in.deps.pop_prev = rng_next(s) & 1;
	in.deps.pop_next = rng_next(s) & 1;
	in.deps.push_prev = rng_next(s) & 1;
	in.deps.push_next = rng_next(s) & 1;
	switch (in.opcode) {
	case VTA_OP_LOAD:
	case VTA_OP_STORE:
		in.mem.mem_type = (uint32_t)(rng_next(s) % VTA_MEM_COUNT);
		in.mem.sram_base = rnd_bits(s, fw->memop_sram);
		in.mem.dram_base = rnd_bits(s, fw->memop_dram);
		in.mem.y_size = rnd_bits(s, fw->memop_size);
		in.mem.x_size = rnd_bits(s, fw->memop_size);
		in.mem.x_stride = rnd_bits(s, fw->memop_stride);
		in.mem.y_pad_0 = rnd_bits(s, fw->memop_pad);
		in.mem.y_pad_1 = rnd_bits(s, fw->memop_pad);
		in.mem.x_pad_0 = rnd_bits(s, fw->memop_pad);
		in.mem.x_pad_1 = rnd_bits(s, fw->memop_pad);
		break;
	case VTA_OP_GEMM:
	case VTA_OP_ALU: {
		int alu = in.opcode == VTA_OP_ALU;
		in.loop.reset = rng_next(s) & 1;
		in.loop.uop_bgn = rnd_bits(s, fw->uop_bgn);
		in.loop.uop_end = rnd_bits(s, fw->uop_end);
		in.loop.iter_out = rnd_bits(s, fw->loop_iter);
		in.loop.iter_in = rnd_bits(s, fw->loop_iter);
		unsigned dw = alu ? fw->alu_dst_factor : fw->gemm_dst_factor;
		unsigned sw = alu ? fw->alu_src_factor : fw->gemm_src_factor;
		in.loop.dst_factor_out = rnd_bits(s, dw);
		in.loop.dst_factor_in = rnd_bits(s, dw);
		in.loop.src_factor_out = rnd_bits(s, sw);
		in.loop.src_factor_in = rnd_bits(s, sw);
		if (!alu) {
			in.loop.wgt_factor_out = rnd_bits(s, fw->gemm_wgt_factor);
			in.loop.wgt_factor_in = rnd_bits(s, fw->gemm_wgt_factor);
		} else {
			in.alu.op = (uint32_t)(rng_next(s) % VTA_ALU_OP_COUNT);
			in.alu.use_imm = rng_next(s) & 1;
			in.alu.imm = (int16_t)rnd_bits(s, 16);
		}
		break;
	}
	case VTA_OP_FINISH:
		break;
	}
	return in;
}

static void random_round_trip(const vta_config *cfg, uint64_t seed)
{
	uint64_t s = seed;
	for (int i = 0; i < 20000; i++) {
		vta_insn in = random_insn(cfg, &s), out;
		uint8_t b[VTA_INSN_BYTES], b2[VTA_INSN_BYTES];
		vta_error err = {0};
		if (vta_insn_encode(cfg, &in, b, &err) != VTA_OK)
			fail_msg("random insn %d: %s", i, err.detail);
		assert_int_equal(vta_insn_decode(cfg, b, &out, &err), VTA_OK);
		assert_insn_equal(&in, &out);
		assert_int_equal(vta_insn_encode(cfg, &out, b2, &err), VTA_OK);
		assert_memory_equal(b, b2, VTA_INSN_BYTES);
		/* the head alone: the opcode and flags, nothing else */
		vta_insn head, want;
		memset(&want, 0, sizeof(want));
		want.opcode = in.opcode;
		want.deps = in.deps;
		assert_int_equal(vta_insn_decode_head(cfg, b, &head, &err), VTA_OK);
		assert_memory_equal(&head, &want, sizeof(want));
		/* flags changed and only the head rewritten: the whole encoding's bytes */
		vta_insn flipped = in;
		flipped.deps.push_prev = !in.deps.push_prev;
		flipped.deps.pop_next = !in.deps.pop_next;
		assert_int_equal(vta_insn_encode(cfg, &flipped, b2, &err), VTA_OK);
		assert_int_equal(vta_insn_encode_head(cfg, &flipped, b, &err), VTA_OK);
		assert_memory_equal(b, b2, VTA_INSN_BYTES);
	}
}

/* Random bytes: whatever decodes must re-encode to the very same bytes. */
static void random_bytes(const vta_config *cfg, uint64_t seed)
{
	uint64_t s = seed;
	int accepted = 0;
	for (int i = 0; i < 200000; i++) {
		uint8_t b[VTA_INSN_BYTES], b2[VTA_INSN_BYTES];
		uint64_t w0 = rng_next(&s), w1 = rng_next(&s);
		/* bias towards few set bits above the fields, or nothing would ever decode */
		w0 &= rng_next(&s) | ~(~0ull << 58);
		w0 &= rng_next(&s) | ~(~0ull << 40);
		if (i & 1)
			w1 = 0;
		for (int k = 0; k < 8; k++) {
			b[k] = (uint8_t)(w0 >> (8 * k));
			b[8 + k] = (uint8_t)(w1 >> (8 * k));
		}
		vta_insn in;
		vta_error err = {0};
		vta_status st = vta_insn_decode(cfg, b, &in, &err);
		if (st != VTA_OK) {
			assert_int_equal(st, VTA_E_STREAM);
			continue;
		}
		accepted++;
		assert_int_equal(vta_insn_encode(cfg, &in, b2, &err), VTA_OK);
		assert_memory_equal(b, b2, VTA_INSN_BYTES);
	}
	assert_true(accepted > 100);
}

static void test_random_default(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	random_round_trip(&cfg, 1);
	random_bytes(&cfg, 2);
}

static void test_random_small(void **state)
{
	(void)state;
	vta_config cfg;
	small_config(&cfg);
	random_round_trip(&cfg, 3);
	random_bytes(&cfg, 4);
}

/* ---------- the compiled layout against the table walk ---------- */

/* A value of about `w` bits: in range, at the limit, one past it, or anything. */
static uint32_t rnd_near(uint64_t *s, unsigned w)
{
	const uint64_t r = rng_next(s);
	const uint64_t lim = w >= 32 ? 0xffffffffull : (1ull << w) - 1;
	switch (r % 8) {
	case 0: return 0;
	case 1: return (uint32_t)lim;
	case 2: return (uint32_t)(lim + 1);
	case 3: return (uint32_t)(r >> 16);
	default: return (uint32_t)((r >> 8) & lim);
	}
}

/* Every member the tables name, near its widths, in any opcode, LUT fields included:
 * most encode, some are refused. */
static vta_insn rough_insn(const vta_config *cfg, uint64_t *s)
{
	const vta_field_widths *fw = &cfg->fw;
	vta_insn in;
	memset(&in, 0, sizeof(in));
	const uint64_t r = rng_next(s);
	in.opcode = (vta_opcode)(r % 6); /* 5: undefined */
	in.deps.pop_prev = (r >> 8) & 1;
	in.deps.pop_next = (r >> 9) & 1;
	in.deps.push_prev = (r >> 10) & 1;
	in.deps.push_next = (r >> 11) & 1;
	const bool few = (r >> 12) % 4 != 0; /* mostly the fields of the opcode only */
	if (!few || in.opcode == VTA_OP_LOAD || in.opcode == VTA_OP_STORE) {
		vta_mem_insn *m = &in.mem;
		m->mem_type = (uint32_t)(rng_next(s) % (VTA_MEM_COUNT + 1));
		m->sram_base = rnd_near(s, fw->memop_sram);
		m->dram_base = rnd_near(s, fw->memop_dram);
		m->y_size = rnd_near(s, fw->memop_size);
		m->x_size = rnd_near(s, fw->memop_size);
		m->x_stride = rnd_near(s, fw->memop_stride);
		const bool lut = rng_next(s) & 1;
		m->lut_bw = lut ? rnd_near(s, fw->memop_lut_bw) : 0;
		m->lut_slot = rnd_near(s, fw->memop_lut_slot);
		if (lut || rng_next(s) % 8 == 0)
			m->lut_chan = rnd_near(s, fw->memop_lut_chan);
		if (!lut || rng_next(s) % 8 == 0) {
			m->y_pad_0 = rnd_near(s, fw->memop_pad);
			m->y_pad_1 = rnd_near(s, fw->memop_pad);
			m->x_pad_0 = rnd_near(s, fw->memop_pad);
			m->x_pad_1 = rnd_near(s, fw->memop_pad);
		}
		m->lut_run = rnd_near(s, fw->memop_lut_run);
		m->lut_group = rnd_near(s, fw->memop_lut_group);
		m->lut_period = rnd_near(s, fw->memop_lut_period);
	}
	if (!few || in.opcode == VTA_OP_GEMM || in.opcode == VTA_OP_ALU) {
		const bool alu = in.opcode == VTA_OP_ALU;
		vta_loop *l = &in.loop;
		l->reset = rng_next(s) & 1;
		l->uop_bgn = rnd_near(s, fw->uop_bgn);
		l->uop_end = rnd_near(s, fw->uop_end);
		l->iter_out = rnd_near(s, fw->loop_iter);
		l->iter_in = rnd_near(s, fw->loop_iter);
		const unsigned dw = alu ? fw->alu_dst_factor : fw->gemm_dst_factor;
		const unsigned sw = alu ? fw->alu_src_factor : fw->gemm_src_factor;
		l->dst_factor_out = rnd_near(s, dw);
		l->dst_factor_in = rnd_near(s, dw);
		l->src_factor_out = rnd_near(s, sw);
		l->src_factor_in = rnd_near(s, sw);
		l->wgt_factor_out = rnd_near(s, fw->gemm_wgt_factor);
		l->wgt_factor_in = rnd_near(s, fw->gemm_wgt_factor);
	}
	if (!few || in.opcode == VTA_OP_ALU) {
		in.alu.op = (uint32_t)(rng_next(s) % (VTA_ALU_OP_COUNT + 1));
		in.alu.use_imm = rng_next(s) & 1;
		const uint64_t v = rng_next(s);
		in.alu.imm = (int32_t)(v % 4 == 0 ? (int64_t)(v >> 40) - (1 << 23)
						  : (int16_t)(v >> 16));
	}
	return in;
}

/* Bytes with few bits set above the fields, or nothing would decode. */
static void rough_bytes(const vta_config *cfg, uint64_t *s, uint8_t *b)
{
	const unsigned words = cfg->insn_bytes / 8;
	for (unsigned k = 0; k < words; k++) {
		uint64_t w = rng_next(s);
		w &= rng_next(s) | ~(~0ull << 58);
		w &= rng_next(s) | ~(~0ull << 40);
		if (k > 0 && rng_next(s) % 2)
			w = 0;
		for (int i = 0; i < 8; i++)
			b[8 * k + i] = (uint8_t)(w >> (8 * i));
	}
}

static void same_result(vta_status a, const vta_error *ea, vta_status b, const vta_error *eb)
{
	assert_int_equal(a, b);
	if (a != VTA_OK)
		assert_string_equal(ea->detail, eb->detail);
}

/* The compiled layout and the table walk (a copy of cfg without the layout) give the same
 * bytes, the same instructions and the same refusals, word for word. */
static void layout_like_walk(const vta_config *cfg, uint64_t seed)
{
	vta_config walk = *cfg;
	walk.layout.built = false;
	assert_true(cfg->layout.built);
	for (int k = 0; k < VTA_LAYOUT_COUNT; k++)
		assert_true(cfg->layout.formats[k].fast);
	uint64_t s = seed;
	int encoded = 0, decoded = 0;
	for (int i = 0; i < 40000; i++) {
		const vta_insn in = rough_insn(cfg, &s);
		uint8_t a[VTA_INSN_MAX_BYTES], b[VTA_INSN_MAX_BYTES];
		memset(a, 0x5a, sizeof(a));
		memset(b, 0x5a, sizeof(b));
		vta_error ea = {0}, eb = {0};
		vta_status sa = vta_insn_encode(cfg, &in, a, &ea);
		vta_status sb = vta_insn_encode(&walk, &in, b, &eb);
		same_result(sa, &ea, sb, &eb);
		if (sa == VTA_OK) {
			assert_memory_equal(a, b, sizeof(a));
			encoded++;
		}
		sa = vta_insn_encode_head(cfg, &in, a, &ea);
		sb = vta_insn_encode_head(&walk, &in, b, &eb);
		same_result(sa, &ea, sb, &eb);
		assert_memory_equal(a, b, sizeof(a));

		rough_bytes(cfg, &s, a);
		vta_insn da, db;
		memset(&da, 0x77, sizeof(da));
		memset(&db, 0x77, sizeof(db));
		sa = vta_insn_decode(cfg, a, &da, &ea);
		sb = vta_insn_decode(&walk, a, &db, &eb);
		same_result(sa, &ea, sb, &eb);
		assert_memory_equal(&da, &db, sizeof(da));
		decoded += sa == VTA_OK;
		sa = vta_insn_decode_head(cfg, a, &da, &ea);
		sb = vta_insn_decode_head(&walk, a, &db, &eb);
		same_result(sa, &ea, sb, &eb);
		assert_memory_equal(&da, &db, sizeof(da));
		/* the opcode alone: the head's, or the head's error */
		vta_opcode op = (vta_opcode)99;
		sb = vta_insn_peek_opcode(cfg, a, &op, &eb);
		same_result(sa, &ea, sb, &eb);
		if (sa == VTA_OK)
			assert_int_equal(op, da.opcode);
		sb = vta_insn_peek_opcode(&walk, a, &op, &eb);
		same_result(sa, &ea, sb, &eb);
		if (sa == VTA_OK)
			assert_int_equal(op, da.opcode);

		const vta_field_widths *fw = &cfg->fw;
		const vta_uop u = {rnd_near(&s, fw->uop_dst), rnd_near(&s, fw->uop_src),
				   rnd_near(&s, fw->uop_wgt)};
		memset(a, 0x5a, sizeof(a));
		memset(b, 0x5a, sizeof(b));
		sa = vta_uop_encode(cfg, &u, a, &ea);
		sb = vta_uop_encode(&walk, &u, b, &eb);
		same_result(sa, &ea, sb, &eb);
		assert_memory_equal(a, b, sizeof(a));
		vta_uop ua, ub;
		memset(&ua, 0x77, sizeof(ua));
		memset(&ub, 0x77, sizeof(ub));
		sa = vta_uop_decode(cfg, a + 8, &ua, &ea);
		sb = vta_uop_decode(&walk, a + 8, &ub, &eb);
		same_result(sa, &ea, sb, &eb);
		assert_memory_equal(&ua, &ub, sizeof(ua));
	}
	/* both outcomes are common enough to mean something */
	assert_true(encoded > 4000 && encoded < 36000);
	assert_true(decoded > 400);
}

static void test_layout_like_walk(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	layout_like_walk(&cfg, 5);
	small_config(&cfg);
	layout_like_walk(&cfg, 6);
	vta_error err = {0};
	assert_int_equal(vta_config_set(&cfg, "isa.encoding", "wide", &err), VTA_OK);
	layout_like_walk(&cfg, 7);
	vta_config_default(&cfg);
	assert_int_equal(vta_config_set(&cfg, "isa.encoding", "wide", &err), VTA_OK);
	layout_like_walk(&cfg, 8);
}

/* The field tables hold together: every assembly key names one field, a pair or the
 * dependency list, every field is written under a listed key, and the word sizes the config
 * checks are the tables' sums. */
static void test_field_tables(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	size_t n;
	const vta_insn_format *const *formats = vta_insn_formats(&n);
	assert_int_equal(n, 6);
	for (size_t i = 0; i < n; i++) {
		const vta_insn_format *fmt = formats[i];
		if (fmt == vta_insn_head())
			continue; /* the mnemonic and "deps" */
		for (const char *const *key = fmt->asm_keys; *key; key++) {
			size_t uses = 0;
			for (size_t j = 0; j < fmt->n_fields; j++)
				uses += !strcmp(fmt->fields[j].asm_key, *key);
			if (strcmp(*key, "deps") ? uses < 1 || uses > 2 : uses != 0)
				fail_msg("%s: key %s names %zu fields", fmt->name, *key, uses);
		}
		for (size_t j = 0; j < fmt->n_fields; j++) {
			const char *const *key = fmt->asm_keys;
			while (*key && strcmp(*key, fmt->fields[j].asm_key))
				key++;
			if (!*key)
				fail_msg("%s: field %s has no key", fmt->name, fmt->fields[j].name);
		}
	}
	const vta_field_widths *fw = &cfg.fw;
	unsigned head = vta_format_bits(vta_insn_head(), fw, 0);
	assert_int_equal(head, 7);
	assert_int_equal(head + vta_format_bits(vta_insn_format_of(VTA_OP_LOAD), fw, 0),
			 fw->mem_word0_bits);
	assert_int_equal(vta_format_bits(vta_insn_format_of(VTA_OP_ALU), fw, 1), fw->alu_word1_bits);
	assert_int_equal(vta_format_bits(vta_uop_format(), fw, 0), fw->uop_bits);
	assert_null(vta_insn_format_of((vta_opcode)7));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_configs_differ),
		cmocka_unit_test(test_field_limits_default),
		cmocka_unit_test(test_field_limits_small),
		cmocka_unit_test(test_default_bit_positions),
		cmocka_unit_test(test_out_of_range_default),
		cmocka_unit_test(test_out_of_range_small),
		cmocka_unit_test(test_encode_undefined_values),
		cmocka_unit_test(test_unused_bits_default),
		cmocka_unit_test(test_unused_bits_small),
		cmocka_unit_test(test_decode_undefined),
		cmocka_unit_test(test_decode_known_bytes),
		cmocka_unit_test(test_uops),
		cmocka_unit_test(test_dispatch),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_nop),
		cmocka_unit_test(test_check_flags),
		cmocka_unit_test(test_random_default),
		cmocka_unit_test(test_random_small),
		cmocka_unit_test(test_field_tables),
		cmocka_unit_test(test_layout_like_walk),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
