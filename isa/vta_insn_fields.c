/*
 * vta_insn_fields.c - the tables of instruction and micro-op fields (vta_insn_fields.h), in
 * VTA's packing order (docs/isa.md), and the accessors that read and write them.
 *
 * Each field names its word in both encodings. The wide one keeps VTA's order and widths
 * and gives each group its own word: the memory fields stay in words 0 and 1 (a wide LOAD
 * or STORE is the vta128 one followed by two zero words); GEMM/ALU keep the micro-op range
 * in word 0 and put the loop counts in word 1, the dst and src factors in word 2 and the
 * third operand (GEMM's wgt factors, the ALU's op and immediate) in word 3.
 */
#include "vta_insn_fields.h"

#include <string.h>

#define FW(w) offsetof(vta_field_widths, w)
#define IN(m) offsetof(vta_insn, m)
#define UOP(m) offsetof(vta_uop, m)
/* The word of a field in each encoding: vta128, wide. */
#define W(narrow, wide) {narrow, wide}
/* name, assembly key, words, width, member, type, required */
#define FIELD(name, key, words, width, member, type, req) \
	{name, key, words, FW(width), member, VTA_FIELD_##type, 0, VTA_NAMES_NONE, req, false, \
	 VTA_PRESENT_ALWAYS, false, 0, W(0, 0)}
/* The pads, which a decompressing load uses for lut_chan. */
#define PAD(name, key, member) \
	{name, key, W(1, 1), FW(memop_pad), IN(mem.member), VTA_FIELD_UNSIGNED, 0, \
	 VTA_NAMES_NONE, false, false, VTA_PRESENT_PLAIN, false, 0, W(0, 0)}

static const vta_insn_field HEAD[] = {
	{"opcode", NULL, W(0, 0), FW(opcode), IN(opcode), VTA_FIELD_OPCODE, VTA_OP_ALU + 1,
	 VTA_NAMES_NONE, false, false, VTA_PRESENT_ALWAYS, false, 0, W(0, 0)},
	FIELD("pop_prev", "deps", W(0, 0), dep_flag, IN(deps.pop_prev), FLAG, false),
	FIELD("pop_next", "deps", W(0, 0), dep_flag, IN(deps.pop_next), FLAG, false),
	FIELD("push_prev", "deps", W(0, 0), dep_flag, IN(deps.push_prev), FLAG, false),
	FIELD("push_next", "deps", W(0, 0), dep_flag, IN(deps.push_next), FLAG, false),
};

static const vta_insn_field MEM[] = {
	/* vta128's three bits are all used; the wide encoding has a fourth in word 2 */
	{"memory_type", "mem", W(0, 0), FW(memop_id), IN(mem.mem_type), VTA_FIELD_UNSIGNED,
	 VTA_MEM_COUNT, VTA_NAMES_MEM, true, false, VTA_PRESENT_ALWAYS, false,
	 FW(memop_id_high), W(0, 2)},
	FIELD("sram_base", "sram", W(0, 0), memop_sram, IN(mem.sram_base), UNSIGNED, true),
	{"dram_base", "dram", W(0, 0), FW(memop_dram), IN(mem.dram_base), VTA_FIELD_UNSIGNED, 0,
	 VTA_NAMES_NONE, true, true, VTA_PRESENT_ALWAYS, false, 0, W(0, 0)},
	{"lut_bw", "bw", W(0, 0), FW(memop_lut_bw), IN(mem.lut_bw), VTA_FIELD_UNSIGNED, 0,
	 VTA_NAMES_NONE, false, false, VTA_PRESENT_ALWAYS, true, 0, W(0, 0)},
	{"lut_slot", "slot", W(0, 0), FW(memop_lut_slot), IN(mem.lut_slot), VTA_FIELD_UNSIGNED, 0,
	 VTA_NAMES_NONE, false, false, VTA_PRESENT_ALWAYS, true, 0, W(0, 0)},
	FIELD("y_size", "y", W(1, 1), memop_size, IN(mem.y_size), UNSIGNED, true),
	FIELD("x_size", "x", W(1, 1), memop_size, IN(mem.x_size), UNSIGNED, true),
	FIELD("x_stride", "stride", W(1, 1), memop_stride, IN(mem.x_stride), UNSIGNED, true),
	PAD("y_pad_0", "ypad", y_pad_0),
	PAD("y_pad_1", "ypad", y_pad_1),
	PAD("x_pad_0", "xpad", x_pad_0),
	PAD("x_pad_1", "xpad", x_pad_1),
	{"lut_chan", "chan", W(1, 1), FW(memop_lut_chan), IN(mem.lut_chan), VTA_FIELD_UNSIGNED, 0,
	 VTA_NAMES_NONE, false, false, VTA_PRESENT_LUT, false, 0, W(0, 0)},
	/* wide only (no bits in vta128): after memory_type's fourth bit in word 2 */
	{"lut_run", "run", W(1, 2), FW(memop_lut_run), IN(mem.lut_run), VTA_FIELD_UNSIGNED, 0,
	 VTA_NAMES_NONE, false, false, VTA_PRESENT_ALWAYS, true, 0, W(0, 0)},
	/* wide only: zero-lane fill of a block-diagonal WGT row, after lut_run */
	{"lut_group", "group", W(1, 2), FW(memop_lut_group), IN(mem.lut_group),
	 VTA_FIELD_UNSIGNED, 0, VTA_NAMES_NONE, false, false, VTA_PRESENT_ALWAYS, true, 0, W(0, 0)},
	{"lut_period", "period", W(1, 2), FW(memop_lut_period), IN(mem.lut_period),
	 VTA_FIELD_UNSIGNED, 0, VTA_NAMES_NONE, false, false, VTA_PRESENT_ALWAYS, true, 0, W(0, 0)},
};

/* GEMM and ALU share word 0 (and, wide, word 1) and continue with their dst and src
 * factors. */
#define LOOP_HEAD                                                                            \
	FIELD("reset", "reset", W(0, 0), reset, IN(loop.reset), FLAG, false),                \
	FIELD("uop_bgn", "uop", W(0, 0), uop_bgn, IN(loop.uop_bgn), UNSIGNED, true),         \
	FIELD("uop_end", "uop", W(0, 0), uop_end, IN(loop.uop_end), UNSIGNED, true),         \
	FIELD("iter_out", "iter", W(0, 1), loop_iter, IN(loop.iter_out), UNSIGNED, true),    \
	FIELD("iter_in", "iter", W(0, 1), loop_iter, IN(loop.iter_in), UNSIGNED, true)
#define FACTORS(unit, a, b)                                                                  \
	FIELD(#a "_factor_out", #a, W(1, 2), unit##_##a##_factor, IN(loop.a##_factor_out),   \
	      UNSIGNED, true),                                                               \
	FIELD(#a "_factor_in", #a, W(1, 2), unit##_##a##_factor, IN(loop.a##_factor_in),     \
	      UNSIGNED, true),                                                               \
	FIELD(#b "_factor_out", #b, W(1, 2), unit##_##b##_factor, IN(loop.b##_factor_out),   \
	      UNSIGNED, true),                                                               \
	FIELD(#b "_factor_in", #b, W(1, 2), unit##_##b##_factor, IN(loop.b##_factor_in),     \
	      UNSIGNED, true)

static const vta_insn_field GEMM[] = {
	LOOP_HEAD,
	FACTORS(gemm, dst, src),
	FIELD("wgt_factor_out", "wgt", W(1, 3), gemm_wgt_factor, IN(loop.wgt_factor_out),
	      UNSIGNED, true),
	FIELD("wgt_factor_in", "wgt", W(1, 3), gemm_wgt_factor, IN(loop.wgt_factor_in),
	      UNSIGNED, true),
};

static const vta_insn_field ALU[] = {
	LOOP_HEAD,
	FACTORS(alu, dst, src),
	{"alu_opcode", "op", W(1, 3), FW(alu_opcode), IN(alu.op), VTA_FIELD_UNSIGNED,
	 VTA_ALU_OP_COUNT, VTA_NAMES_ALU_OP, true, false, VTA_PRESENT_ALWAYS, false, 0, W(0, 0)},
	FIELD("use_imm", "use_imm", W(1, 3), alu_use_imm, IN(alu.use_imm), FLAG, true),
	FIELD("imm", "imm", W(1, 3), alu_imm, IN(alu.imm), SIGNED, false),
};

/* one word of 32 (vta128) or 64 (wide) bits */
static const vta_insn_field UOP_FIELDS[] = {
	FIELD("dst", "dst", W(0, 0), uop_dst, UOP(dst), UNSIGNED, true),
	FIELD("src", "src", W(0, 0), uop_src, UOP(src), UNSIGNED, true),
	FIELD("wgt", "wgt", W(0, 0), uop_wgt, UOP(wgt), UNSIGNED, false),
};
#undef FIELD
#undef PAD
#undef FACTORS
#undef LOOP_HEAD
#undef W

static const char *const HEAD_KEYS[] = {"deps", NULL};
static const char *const MEM_KEYS[] = {"mem",    "sram", "dram", "bw",   "slot", "y", "x",
				       "stride", "ypad", "xpad", "chan", "run",  "group",
				       "period", "deps", NULL};
static const char *const GEMM_KEYS[] = {"reset", "uop", "iter", "dst",
					"src",   "wgt", "deps", NULL};
static const char *const ALU_KEYS[] = {"op",  "reset",   "uop", "iter", "dst",
				       "src", "use_imm", "imm", "deps", NULL};
static const char *const UOP_KEYS[] = {"dst", "src", "wgt", NULL};

#define N(a) (sizeof(a) / sizeof(a[0]))
static const vta_insn_format F_HEAD = {"head", "", HEAD, N(HEAD), HEAD_KEYS};
static const vta_insn_format F_MEM = {"load/store", "", MEM, N(MEM), MEM_KEYS};
static const vta_insn_format F_GEMM = {"gemm", "", GEMM, N(GEMM), GEMM_KEYS};
static const vta_insn_format F_ALU = {"alu", "", ALU, N(ALU), ALU_KEYS};
static const vta_insn_format F_FINISH = {"finish", "", NULL, 0, HEAD_KEYS};
static const vta_insn_format F_UOP = {"uop", "uop ", UOP_FIELDS, N(UOP_FIELDS), UOP_KEYS};

const vta_insn_format *vta_insn_head(void)
{
	return &F_HEAD;
}

const vta_insn_format *vta_insn_format_of(vta_opcode op)
{
	switch (op) {
	case VTA_OP_LOAD:
	case VTA_OP_STORE: return &F_MEM;
	case VTA_OP_GEMM: return &F_GEMM;
	case VTA_OP_ALU: return &F_ALU;
	case VTA_OP_FINISH: return &F_FINISH;
	}
	return NULL;
}

const vta_insn_format *vta_uop_format(void)
{
	return &F_UOP;
}

const vta_insn_format *const *vta_insn_formats(size_t *count)
{
	static const vta_insn_format *const ALL[] = {&F_HEAD, &F_MEM,    &F_GEMM,
						     &F_ALU,  &F_FINISH, &F_UOP};
	*count = N(ALL);
	return ALL;
}

unsigned vta_format_bits(const vta_insn_format *fmt, const vta_field_widths *fw, unsigned word)
{
	unsigned bits = 0;
	for (size_t i = 0; i < fmt->n_fields; i++) {
		const vta_insn_field *f = &fmt->fields[i];
		if (vta_field_word(f, fw) == word && f->presence != VTA_PRESENT_LUT)
			bits += vta_field_width(f, fw);
		if (vta_field_high_word(f, fw) == word)
			bits += vta_field_high_width(f, fw);
	}
	return bits;
}

const char *vta_field_value_name(const vta_insn_field *f, uint32_t value)
{
	switch (f->names) {
	case VTA_NAMES_MEM: return value < VTA_MEM_COUNT ? vta_mem_name((vta_mem)value) : NULL;
	case VTA_NAMES_ALU_OP: return vta_alu_op_name(value);
	case VTA_NAMES_NONE: break;
	}
	return NULL;
}
