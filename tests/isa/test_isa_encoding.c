/*
 * test_isa_encoding.c - both instruction encodings (vta128, wide), driven by the field table:
 * every field of every format at its extreme values round-trips and sets exactly its own
 * bits, at the position the table's order gives, on VTA's default config, a small one, and
 * wide configs of SRAMs 8x the default at BLOCK 8, 16 and 32; the table's consistency (words
 * inside the instruction, no overlap, lut_chan over the pads); the wide layout's documented
 * positions; unused words; 64-bit micro-ops; the config checks that name isa.encoding; and
 * the stream header's encoding byte, through programs and the assembler, and the examples of
 * docs/examples/wide/ on configs/wide.yaml.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vta_asm.h"
#include "vta_bytes.h"
#include "vta_insn.h"
#include "vta_insn_fields.h"
#include "vta_program.h"

/* ---------- configs ---------- */

static void derive(vta_config *cfg)
{
	vta_error err = {0};
	if (vta_config_derive(cfg, &err) != VTA_OK)
		fail_msg("config: %s", err.detail);
}

/* The default's SRAMs times `scale` at BLOCK 2^lb, in an encoding. */
static void scaled(vta_config *cfg, unsigned lb, uint32_t scale, vta_encoding enc)
{
	vta_config_default(cfg);
	cfg->log_block_in = lb;
	cfg->log_block_out = lb;
	cfg->sram[VTA_MEM_UOP].kib *= scale;
	cfg->sram[VTA_MEM_INP].kib *= scale;
	cfg->sram[VTA_MEM_WGT].kib *= scale;
	cfg->sram[VTA_MEM_ACC].kib *= scale;
	cfg->isa_encoding = enc;
}

/* BLOCK 4 and 1 KiB SRAMs: fields narrower than the default's. */
static void small(vta_config *cfg, vta_encoding enc)
{
	vta_config_default(cfg);
	cfg->log_block_in = 2;
	cfg->log_block_out = 2;
	cfg->sram[VTA_MEM_UOP].kib = cfg->sram[VTA_MEM_INP].kib = cfg->sram[VTA_MEM_WGT].kib =
		cfg->sram[VTA_MEM_ACC].kib = 1;
	cfg->isa_encoding = enc;
	derive(cfg);
}

#define N_CONFIGS 7
/* default and small (vta128); default, small and 8x at BLOCK 8, 16, 32 (wide) */
static void config_n(int i, vta_config *cfg)
{
	switch (i) {
	case 0: vta_config_default(cfg); return;
	case 1: small(cfg, VTA_ENC_VTA128); return;
	case 2: scaled(cfg, 4, 1, VTA_ENC_WIDE); break;
	case 3: small(cfg, VTA_ENC_WIDE); return;
	case 4: scaled(cfg, 3, 8, VTA_ENC_WIDE); break;
	case 5: scaled(cfg, 4, 8, VTA_ENC_WIDE); break;
	default: scaled(cfg, 5, 8, VTA_ENC_WIDE); break;
	}
	derive(cfg);
}

/* ---------- the table's own layout ---------- */

/* Bit position of field j of fmt in its word: the head first in word 0, then the format's
 * fields in table order; a LUT-only field sits on the plain fields just before it. */
static unsigned position(const vta_insn_format *fmt, size_t j, const vta_field_widths *fw,
			 bool uop)
{
	const vta_insn_field *f = &fmt->fields[j];
	unsigned word = vta_field_word(f, fw);
	unsigned pos = 0;
	if (word == 0 && !uop && fmt != vta_insn_head())
		pos = vta_format_bits(vta_insn_head(), fw, 0);
	size_t upto = j;
	if (f->presence == VTA_PRESENT_LUT)
		while (upto > 0 && fmt->fields[upto - 1].presence == VTA_PRESENT_PLAIN)
			upto--;
	for (size_t k = 0; k < upto; k++) {
		if (vta_field_word(&fmt->fields[k], fw) == word &&
		    fmt->fields[k].presence != VTA_PRESENT_LUT)
			pos += vta_field_width(&fmt->fields[k], fw);
		if (vta_field_high_width(&fmt->fields[k], fw) &&
		    vta_field_high_word(&fmt->fields[k], fw) == word) /* memory_type's fourth bit */
			pos += vta_field_high_width(&fmt->fields[k], fw);
	}
	return pos;
}

static vta_opcode opcode_of(const vta_insn_format *fmt)
{
	for (int op = 0; op <= VTA_OP_ALU; op++)
		if (vta_insn_format_of((vta_opcode)op) == fmt)
			return (vta_opcode)op;
	return VTA_OP_FINISH; /* the head: any opcode carries it */
}

/* Every field's word lies inside the instruction, fields of a word do not overlap and fit in
 * 64 bits, lut_chan covers exactly the pads, and the micro-op fits its word. */
static void test_table_consistent(void **state)
{
	(void)state;
	size_t nf;
	const vta_insn_format *const *formats = vta_insn_formats(&nf);
	for (int c = 0; c < N_CONFIGS; c++) {
		vta_config cfg;
		config_n(c, &cfg);
		const vta_field_widths *fw = &cfg.fw;
		assert_int_equal(fw->insn_words * 8, cfg.insn_bytes);
		assert_int_equal(fw->uop_word_bits, cfg.sram[VTA_MEM_UOP].elem_bytes * 8);
		for (size_t i = 0; i < nf; i++) {
			const vta_insn_format *fmt = formats[i];
			bool uop = fmt == vta_uop_format();
			uint64_t used[VTA_INSN_MAX_WORDS] = {0}, plain = 0, lut = 0;
			for (size_t j = 0; j < fmt->n_fields; j++) {
				const vta_insn_field *f = &fmt->fields[j];
				unsigned w = vta_field_word(f, fw), width = vta_field_width(f, fw);
				unsigned pos = position(fmt, j, fw, uop);
				if (width == 0 && fw->encoding == VTA_ENC_VTA128 &&
				    (!strcmp(f->name, "lut_run") || !strcmp(f->name, "lut_group") ||
				     !strcmp(f->name, "lut_period")))
					continue; /* a wide-only field has no bits in vta128 */
				assert_true(w < (uop ? 1 : fw->insn_words));
				assert_true(width >= 1 && pos + width <= (uop ? fw->uop_word_bits : 64));
				uint64_t m = (width >= 64 ? ~0ull : (1ull << width) - 1) << pos;
				if (f->presence == VTA_PRESENT_LUT) {
					lut |= m;
					continue;
				}
				if (f->presence == VTA_PRESENT_PLAIN)
					plain |= m;
				if (used[w] & m)
					fail_msg("%s: %s overlaps in word %u (%s)", fmt->name, f->name, w,
						 vta_encoding_name(fw->encoding));
				used[w] |= m;
			}
			assert_true(plain == lut); /* both 0 outside load/store */
			if (fmt != vta_insn_head() && !uop)
				assert_int_equal(used[0] >> vta_format_bits(vta_insn_head(), fw, 0) <<
							 vta_format_bits(vta_insn_head(), fw, 0),
						 used[0]); /* the head's bits are free */
		}
	}
}

/* ---------- every field at its extremes ---------- */

static vta_insn blank_insn(vta_opcode op, bool lut)
{
	vta_insn in;
	memset(&in, 0, sizeof(in));
	in.opcode = op;
	if (lut)
		in.mem.lut_bw = 1;
	return in;
}

static int64_t max_of(const vta_insn_field *f, unsigned width)
{
	if (f->type == VTA_FIELD_FLAG)
		return 1;
	if (f->defined)
		return f->defined - 1;
	if (f->type == VTA_FIELD_SIGNED)
		return (1ll << (width - 1)) - 1;
	return (int64_t)((1ull << width) - 1);
}

/* The field at `v` encodes, decodes back, re-encodes to the same bytes, and differs from the
 * blank instruction exactly in its own bits. */
static void field_value(const vta_config *cfg, const vta_insn_format *fmt, size_t j, int64_t v)
{
	const vta_insn_field *f = &fmt->fields[j];
	const vta_field_widths *fw = &cfg->fw;
	bool lut = f->presence == VTA_PRESENT_LUT || !strcmp(f->name, "lut_bw");
	vta_insn base = blank_insn(opcode_of(fmt), lut && strcmp(f->name, "lut_bw"));
	vta_insn in = base, out;
	vta_field_set(f, &in, v);
	uint8_t b0[VTA_INSN_MAX_BYTES], b[VTA_INSN_MAX_BYTES], b2[VTA_INSN_MAX_BYTES];
	vta_error err = {0};
	if (vta_insn_encode(cfg, &base, b0, &err) || vta_insn_encode(cfg, &in, b, &err))
		fail_msg("%s %s = %lld (%s): %s", fmt->name, f->name, (long long)v,
			 vta_encoding_name(fw->encoding), err.detail);
	assert_int_equal(vta_insn_decode(cfg, b, &out, &err), VTA_OK);
	assert_int_equal(vta_field_get(f, &out), v);
	assert_int_equal(vta_insn_encode(cfg, &out, b2, &err), VTA_OK);
	assert_memory_equal(b, b2, cfg->insn_bytes);
	unsigned width = vta_field_width(f, fw), word = vta_field_word(f, fw);
	uint64_t bits = (uint64_t)v & (width >= 64 ? ~0ull : (1ull << width) - 1);
	for (unsigned k = 0; k < fw->insn_words; k++) {
		uint64_t diff = vta_le64_get(b + 8 * k) ^ vta_le64_get(b0 + 8 * k);
		uint64_t want = k == word ? bits << position(fmt, j, fw, false) : 0;
		if (diff != want)
			fail_msg("%s %s = %lld (%s): word %u changed by 0x%llx, expected 0x%llx",
				 fmt->name, f->name, (long long)v, vta_encoding_name(fw->encoding),
				 k, (unsigned long long)diff, (unsigned long long)want);
	}
}

static void test_fields_at_extremes(void **state)
{
	(void)state;
	size_t nf;
	const vta_insn_format *const *formats = vta_insn_formats(&nf);
	for (int c = 0; c < N_CONFIGS; c++) {
		vta_config cfg;
		config_n(c, &cfg);
		for (size_t i = 0; i < nf; i++) {
			const vta_insn_format *fmt = formats[i];
			if (fmt == vta_uop_format())
				continue;
			for (size_t j = 0; j < fmt->n_fields; j++) {
				const vta_insn_field *f = &fmt->fields[j];
				if (f->type == VTA_FIELD_OPCODE)
					continue; /* the format is the opcode */
				unsigned w = vta_field_width(f, &cfg.fw);
				if (w == 0)
					continue; /* wide-only: lut_run in vta128 */
				field_value(&cfg, fmt, j, max_of(f, w));
				if (f->type == VTA_FIELD_SIGNED)
					field_value(&cfg, fmt, j, -(1ll << (w - 1)));
				else if (f->type == VTA_FIELD_UNSIGNED && max_of(f, w) > 2)
					field_value(&cfg, fmt, j, max_of(f, w) / 3);
			}
		}
	}
}

/* One more than the maximum is refused, naming the field, in both encodings. */
static void test_fields_out_of_range(void **state)
{
	(void)state;
	const vta_insn_format *gemm = vta_insn_format_of(VTA_OP_GEMM);
	for (int c = 0; c < N_CONFIGS; c++) {
		vta_config cfg;
		config_n(c, &cfg);
		for (size_t j = 0; j < gemm->n_fields; j++) {
			const vta_insn_field *f = &gemm->fields[j];
			if (f->type != VTA_FIELD_UNSIGNED)
				continue;
			vta_insn in = blank_insn(VTA_OP_GEMM, false);
			vta_field_set(f, &in, max_of(f, vta_field_width(f, &cfg.fw)) + 1);
			uint8_t b[VTA_INSN_MAX_BYTES];
			vta_error err = {0};
			assert_int_equal(vta_insn_encode(&cfg, &in, b, &err), VTA_E_ENCODE);
			assert_non_null(strstr(err.detail, f->name));
			assert_non_null(strstr(err.detail, "does not fit"));
		}
	}
}

/* ---------- the wide layout ---------- */

static const vta_insn_field *field_named(const vta_insn_format *fmt, const char *name)
{
	for (size_t j = 0; j < fmt->n_fields; j++)
		if (!strcmp(fmt->fields[j].name, name))
			return &fmt->fields[j];
	fail_msg("no field %s in %s", name, fmt->name);
	return NULL;
}

/* docs/isa.md "The wide encoding": each group starts its own word. */
static void test_wide_positions(void **state)
{
	(void)state;
	vta_config cfg;
	scaled(&cfg, 4, 8, VTA_ENC_WIDE); /* Lu 15, La 14, Li 14, Lw 13 */
	derive(&cfg);
	const vta_field_widths *fw = &cfg.fw;
	assert_int_equal(fw->insn_words, 4);
	assert_int_equal(cfg.insn_bytes, 32);
	assert_int_equal(cfg.sram[VTA_MEM_UOP].elem_bytes, 8);
	assert_int_equal(cfg.sram[VTA_MEM_UOP].depth, 32768); /* 256 KiB of 8-byte micro-ops */
	assert_int_equal(fw->loop_iter, 15);    /* the deepest data SRAM, 16384 rows, + 1 */
	const struct {
		vta_opcode op;
		const char *name;
		unsigned word, pos, width;
	} want[] = {
		{VTA_OP_GEMM, "reset", 0, 7, 1},
		{VTA_OP_GEMM, "uop_bgn", 0, 8, 15},
		{VTA_OP_GEMM, "uop_end", 0, 23, 16},
		{VTA_OP_GEMM, "iter_out", 1, 0, 15},
		{VTA_OP_GEMM, "iter_in", 1, 15, 15},
		{VTA_OP_GEMM, "dst_factor_out", 2, 0, 14},
		{VTA_OP_GEMM, "src_factor_in", 2, 42, 14},
		{VTA_OP_GEMM, "wgt_factor_out", 3, 0, 13},
		{VTA_OP_GEMM, "wgt_factor_in", 3, 13, 13},
		{VTA_OP_ALU, "src_factor_in", 2, 42, 14},
		{VTA_OP_ALU, "alu_opcode", 3, 0, 3},
		{VTA_OP_ALU, "use_imm", 3, 3, 1},
		{VTA_OP_ALU, "imm", 3, 4, 16},
		{VTA_OP_LOAD, "dram_base", 0, 26, 32},
		{VTA_OP_LOAD, "x_pad_1", 1, 60, 4},
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const vta_insn_format *fmt = vta_insn_format_of(want[i].op);
		const vta_insn_field *f = field_named(fmt, want[i].name);
		assert_int_equal(vta_field_word(f, fw), want[i].word);
		assert_int_equal(position(fmt, (size_t)(f - fmt->fields), fw, false), want[i].pos);
		assert_int_equal(vta_field_width(f, fw), want[i].width);
	}
	const vta_insn_format *u = vta_uop_format();
	assert_int_equal(vta_format_bits(u, fw, 0), 14 + 14 + 13);
}

/* A wide memory instruction is the vta128 one followed by two zero words. */
static void test_wide_memory_is_vta128(void **state)
{
	(void)state;
	vta_config narrow, wide;
	vta_config_default(&narrow);
	scaled(&wide, 4, 1, VTA_ENC_WIDE);
	derive(&wide);
	uint64_t s = 0x9e3779b97f4a7c15ull;
	for (int i = 0; i < 500; i++) {
		s ^= s << 13, s ^= s >> 7, s ^= s << 17;
		vta_insn in = blank_insn(i % 2 ? VTA_OP_STORE : VTA_OP_LOAD, (s >> 60) & 1);
		in.mem.mem_type = (uint32_t)(s & 7);
		in.mem.sram_base = (uint32_t)(s >> 3) & 0xffff;
		in.mem.dram_base = (uint32_t)(s >> 19);
		in.mem.y_size = (uint32_t)(s >> 7) & 0xffff;
		in.mem.x_size = (uint32_t)(s >> 23) & 0xffff;
		in.mem.x_stride = (uint32_t)(s >> 39) & 0xffff;
		if (in.mem.lut_bw) {
			in.mem.lut_bw = 1 + (uint32_t)(s >> 61) % 7;
			in.mem.lut_chan = (uint32_t)(s >> 11) & 0xffff;
			in.mem.lut_slot = (uint32_t)(s >> 5) & 7;
		} else {
			in.mem.y_pad_0 = (uint32_t)(s >> 2) & 15;
			in.mem.x_pad_1 = (uint32_t)(s >> 45) & 15;
		}
		uint8_t a[VTA_INSN_MAX_BYTES], b[VTA_INSN_MAX_BYTES];
		vta_error err = {0};
		assert_int_equal(vta_insn_encode(&narrow, &in, a, &err), VTA_OK);
		assert_int_equal(vta_insn_encode(&wide, &in, b, &err), VTA_OK);
		assert_memory_equal(a, b, 16);
		static const uint8_t zero[16];
		assert_memory_equal(b + 16, zero, 16);
	}
}

/* A set bit in any unused word or above the last field is refused, in every word. */
static void test_wide_unused_bits(void **state)
{
	(void)state;
	vta_config cfg;
	scaled(&cfg, 3, 8, VTA_ENC_WIDE);
	derive(&cfg);
	const vta_opcode ops[] = {VTA_OP_LOAD, VTA_OP_GEMM, VTA_OP_ALU, VTA_OP_FINISH};
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		const vta_insn_format *fmt = vta_insn_format_of(ops[i]);
		for (unsigned w = 0; w < 4; w++) {
			unsigned used = vta_format_bits(fmt, &cfg.fw, w) +
					(w == 0 ? vta_format_bits(vta_insn_head(), &cfg.fw, 0) : 0);
			for (unsigned bit = used; bit < 64; bit++) {
				vta_insn in = blank_insn(ops[i], false), out;
				uint8_t b[VTA_INSN_MAX_BYTES];
				vta_error err = {0};
				assert_int_equal(vta_insn_encode(&cfg, &in, b, &err), VTA_OK);
				b[8 * w + bit / 8] |= (uint8_t)(1u << (bit % 8));
				assert_int_equal(vta_insn_decode(&cfg, b, &out, &err), VTA_E_STREAM);
				char want[48];
				snprintf(want, sizeof(want), "unused bits %u..63 of word %u", used, w);
				assert_non_null(strstr(err.detail, want));
			}
		}
	}
}

/* ---------- micro-ops ---------- */

static void test_uops_both_encodings(void **state)
{
	(void)state;
	for (int c = 0; c < N_CONFIGS; c++) {
		vta_config cfg;
		config_n(c, &cfg);
		const vta_field_widths *fw = &cfg.fw;
		vta_uop u = {(1u << fw->uop_dst) - 1, (1u << fw->uop_src) - 1,
			     (1u << fw->uop_wgt) - 1},
			v;
		uint8_t b[VTA_UOP_MAX_BYTES], b2[VTA_UOP_MAX_BYTES];
		vta_error err = {0};
		assert_int_equal(vta_uop_encode(&cfg, &u, b, &err), VTA_OK);
		assert_int_equal(vta_uop_decode(&cfg, b, &v, &err), VTA_OK);
		assert_int_equal(v.dst, u.dst);
		assert_int_equal(v.src, u.src);
		assert_int_equal(v.wgt, u.wgt);
		assert_int_equal(vta_uop_encode(&cfg, &v, b2, &err), VTA_OK);
		assert_memory_equal(b, b2, cfg.sram[VTA_MEM_UOP].elem_bytes);
		uint64_t word =
			cfg.sram[VTA_MEM_UOP].elem_bytes == 8 ? vta_le64_get(b) : vta_le32_get(b);
		assert_int_equal(word, (uint64_t)u.dst | (uint64_t)u.src << fw->uop_dst |
					       (uint64_t)u.wgt << (fw->uop_dst + fw->uop_src));
		/* one past each field's maximum is refused */
		vta_uop big = u;
		big.wgt++;
		assert_int_equal(vta_uop_encode(&cfg, &big, b2, &err), VTA_E_ENCODE);
		assert_non_null(strstr(err.detail, "uop wgt"));
		/* every unused bit of the micro-op's word is refused */
		for (unsigned bit = fw->uop_bits; bit < fw->uop_word_bits; bit++) {
			uint8_t c2[VTA_UOP_MAX_BYTES];
			memcpy(c2, b, sizeof(c2));
			c2[bit / 8] |= (uint8_t)(1u << (bit % 8));
			assert_int_equal(vta_uop_decode(&cfg, c2, &v, &err), VTA_E_STREAM);
			assert_non_null(strstr(err.detail, "of a micro-op are not zero"));
		}
	}
}

/* ---------- configs that need the wide encoding ---------- */

/* Every SRAM up to 8x the default at BLOCK 8, 16, 32 derives in the wide encoding; vta128
 * refuses all but the default sizes at BLOCK 16 and 32, naming the key. */
static void test_config_needs_wide(void **state)
{
	(void)state;
	for (unsigned lb = 3; lb <= 5; lb++)
		for (uint32_t scale = 1; scale <= 8; scale *= 2) {
			vta_config cfg;
			vta_error err = {0};
			scaled(&cfg, lb, scale, VTA_ENC_WIDE);
			if (vta_config_derive(&cfg, &err) != VTA_OK)
				fail_msg("BLOCK %u x%u wide: %s", 1u << lb, scale, err.detail);
			scaled(&cfg, lb, scale, VTA_ENC_VTA128);
			vta_status st = vta_config_derive(&cfg, &err);
			if (scale == 1 && lb >= 4) {
				assert_int_equal(st, VTA_OK);
				continue;
			}
			assert_int_equal(st, VTA_E_CONFIG);
			size_t n = strlen(err.detail), k = strlen("; set isa.encoding: wide");
			assert_true(n > k);
			assert_string_equal(err.detail + n - k, "; set isa.encoding: wide");
		}
	/* the key takes names, and another encoding is another model */
	vta_config a, b;
	vta_config_default(&a);
	vta_config_default(&b);
	vta_error err = {0};
	assert_int_equal(vta_config_set(&b, "isa.encoding", "wide", &err), VTA_OK);
	assert_int_equal(b.isa_encoding, VTA_ENC_WIDE);
	assert_false(vta_config_same(&a, &b));
	assert_int_equal(vta_config_set(&b, "isa.encoding", "vta256", &err), VTA_E_CONFIG);
	assert_string_equal(err.detail, "isa.encoding: expected vta128 or wide, got 'vta256'");
}

/* ---------- stream files and assembly ---------- */

static const char WIDE_TEXT[] =
	"load mem=uop sram=0 dram=0x200 y=1 x=2 stride=2\n"
	"load mem=inp sram=16383 dram=0xffffffff y=65535 x=65535 stride=65535 ypad=15,15 "
	"xpad=15,15 deps=push_next\n"
	"load mem=wgt sram=8191 dram=0x30 bw=7 slot=7 y=1 x=1 stride=1 chan=65535\n"
	"gemm reset=1 uop=32767,32768 iter=32767,32767 dst=16383,16383 src=16383,16383 "
	"wgt=8191,8191 deps=pop_prev,pop_next,push_prev,push_next\n"
	"alu op=rshr reset=0 uop=0,1 iter=1,4 dst=16383,1 src=0,16383 use_imm=1 imm=-32768\n"
	"finish deps=pop_next\n"
	".uops 0x1000\n"
	"uop dst=16383 src=16383 wgt=8191\n"
	"uop dst=1 src=2 wgt=3\n"
	".data 0x2000\n"
	".byte 1, 2, 3\n";

static char *disasm_text(const vta_program *p, const vta_config *cfg)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	vta_error err = {0};
	vta_status st = vta_disasm_program(p, cfg, f, &err);
	fclose(f);
	if (st)
		fail_msg("disasm: %s", err.detail);
	return text;
}

/* Text -> binary -> text -> binary gives the same bytes; the stream file records the
 * encoding and a reader of the other encoding refuses it. */
static void test_wide_asm_and_stream(void **state)
{
	(void)state;
	vta_config cfg, narrow;
	scaled(&cfg, 4, 8, VTA_ENC_WIDE);
	derive(&cfg);
	vta_config_default(&narrow);
	vta_program p, q, r;
	vta_error err = {0};
	if (vta_asm_parse(WIDE_TEXT, sizeof(WIDE_TEXT) - 1, "w.s", &cfg, &p, &err))
		fail_msg("asm: %s", err.detail);
	assert_int_equal(p.n_insns, 6);
	assert_int_equal(p.segments[0].size, 2 * 8);
	char *text = disasm_text(&p, &cfg);
	assert_non_null(strstr(text, "; encoding: wide (32-byte instructions, 8-byte micro-ops)\n"));
	assert_non_null(strstr(text, "iter=32767,32767"));
	assert_non_null(strstr(text, "uop    dst=16383 src=16383 wgt=8191"));
	if (vta_asm_parse(text, strlen(text), "d.s", &cfg, &q, &err))
		fail_msg("re-asm: %s", err.detail);
	free(text);
	uint8_t *a, *b;
	size_t alen, blen;
	assert_int_equal(vta_program_serialize(&p, &a, &alen, &err), VTA_OK);
	assert_int_equal(vta_program_serialize(&q, &b, &blen, &err), VTA_OK);
	assert_int_equal(alen, blen);
	assert_memory_equal(a, b, alen);
	assert_int_equal(alen, 40 + 6 * 32 + 16 + 16 + 16 + 3);
	assert_int_equal(a[26], VTA_ENC_WIDE);
	/* parsed back on its config; refused on the other encoding, before the geometry */
	assert_int_equal(vta_program_parse(a, alen, &cfg, &r, &err), VTA_OK);
	assert_int_equal(r.n_insns, 6);
	vta_program_free(&r);
	assert_int_equal(vta_program_parse(a, alen, &narrow, &r, &err), VTA_E_STREAM);
	assert_string_equal(err.detail, "stream encoding wide != config vta128 (isa.encoding)");
	vta_config wide_default;
	scaled(&wide_default, 4, 1, VTA_ENC_WIDE);
	derive(&wide_default);
	uint8_t *c;
	size_t clen;
	vta_program s;
	vta_program_init(&s, &narrow);
	assert_int_equal(vta_program_push(&s, &narrow, &(vta_insn){.opcode = VTA_OP_FINISH}, &err),
			 VTA_OK);
	assert_int_equal(vta_program_serialize(&s, &c, &clen, &err), VTA_OK);
	assert_int_equal(c[26], VTA_ENC_VTA128);
	assert_int_equal(vta_program_parse(c, clen, &wide_default, &r, &err), VTA_E_STREAM);
	assert_string_equal(err.detail, "stream encoding vta128 != config wide (isa.encoding)");
	/* an undefined encoding byte */
	a[26] = 2;
	assert_int_equal(vta_program_parse(a, alen, &cfg, &r, &err), VTA_E_STREAM);
	assert_string_equal(err.detail,
			    "byte offset 26: stream encoding 2 is not defined (0 vta128, 1 wide)");
	/* the config a header alone implies is the same wide model */
	a[26] = VTA_ENC_WIDE;
	vta_config from;
	assert_int_equal(vta_config_from_geometry(&p.geometry, &from, &err), VTA_OK);
	assert_int_equal(from.isa_encoding, VTA_ENC_WIDE);
	assert_int_equal(from.sram[VTA_MEM_UOP].depth, cfg.sram[VTA_MEM_UOP].depth);
	assert_int_equal(from.sram[VTA_MEM_ACC].depth, cfg.sram[VTA_MEM_ACC].depth);
	free(a);
	free(b);
	free(c);
	vta_program_free(&p);
	vta_program_free(&q);
	vta_program_free(&s);
}

/* The assembler's micro-op address and range rules follow the encoding. */
static void test_wide_asm_errors(void **state)
{
	(void)state;
	vta_config cfg;
	scaled(&cfg, 4, 8, VTA_ENC_WIDE);
	derive(&cfg);
	const struct {
		const char *text, *want;
	} cases[] = {
		{".uops 0x1004\n", "t.s:1:7: .uops address 0x1004 is not a multiple of 8"},
		{".uops 0x1000\nuop dst=16384 src=0\n", "t.s:2:9: uop dst 16384 does not fit in 14 bits"},
		{"gemm uop=0,1 iter=32768,1 dst=0,0 src=0,0 wgt=0,0\n",
		 "t.s:1:19: iter_out 32768 does not fit in 15 bits"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		vta_program p;
		vta_error err = {0};
		assert_int_not_equal(vta_asm_parse(cases[i].text, strlen(cases[i].text), "t.s",
						   &cfg, &p, &err),
				     VTA_OK);
		if (strncmp(err.detail, cases[i].want, strlen(cases[i].want)))
			fail_msg("got '%s', want '%s'", err.detail, cases[i].want);
		vta_program_free(&p);
	}
}

/* docs/examples/wide/: each assembles on configs/wide.yaml (not on the default) and
 * binary -> text -> binary is byte-identical. */
static void test_wide_examples(void **state)
{
	(void)state;
	vta_config cfg, narrow;
	vta_error err = {0};
	if (vta_config_load("configs/wide.yaml", &cfg, &err) != VTA_OK)
		fail_msg("%s", err.detail);
	assert_int_equal(cfg.isa_encoding, VTA_ENC_WIDE);
	vta_config_default(&narrow);
	glob_t g;
	assert_int_equal(glob("docs/examples/wide/*.s", 0, NULL, &g), 0);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		vta_program p, q;
		if (vta_asm_file(g.gl_pathv[i], &cfg, &p, &err) != VTA_OK)
			fail_msg("%s", err.detail);
		assert_int_not_equal(vta_asm_file(g.gl_pathv[i], &narrow, &q, &err), VTA_OK);
		char *text = disasm_text(&p, &cfg);
		if (vta_asm_parse(text, strlen(text), g.gl_pathv[i], &cfg, &q, &err) != VTA_OK)
			fail_msg("%s: disassembly does not assemble: %s", g.gl_pathv[i], err.detail);
		uint8_t *a, *b;
		size_t alen, blen;
		assert_int_equal(vta_program_serialize(&p, &a, &alen, &err), VTA_OK);
		assert_int_equal(vta_program_serialize(&q, &b, &blen, &err), VTA_OK);
		assert_int_equal(alen, blen);
		assert_memory_equal(a, b, alen);
		free(a);
		free(b);
		free(text);
		vta_program_free(&p);
		vta_program_free(&q);
	}
	globfree(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_consistent),
		cmocka_unit_test(test_fields_at_extremes),
		cmocka_unit_test(test_fields_out_of_range),
		cmocka_unit_test(test_wide_positions),
		cmocka_unit_test(test_wide_memory_is_vta128),
		cmocka_unit_test(test_wide_unused_bits),
		cmocka_unit_test(test_uops_both_encodings),
		cmocka_unit_test(test_config_needs_wide),
		cmocka_unit_test(test_wide_asm_and_stream),
		cmocka_unit_test(test_wide_asm_errors),
		cmocka_unit_test(test_wide_examples),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
