/*
 * vta_insn.h - VTA's task instructions and micro-ops: the decoded form, and explicit
 * encode/decode against the loaded config's field widths and encoding.
 *
 * Layouts: docs/isa.md "Instruction formats" and "The wide encoding" (the field tables:
 * vta_insn_fields.c, one column per encoding). Encoding range-checks every field
 * (VTA_E_ENCODE naming field, value and width): a value that does not fit is an error, never
 * truncated. Decoding rejects (VTA_E_STREAM) unknown opcodes, memory types, ALU ops and
 * non-zero unused bits, so decode/encode is lossless.
 */
#ifndef VTA_INSN_H
#define VTA_INSN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vta_alu_ops.h"
#include "vta_config.h"
#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A vta128 instruction and micro-op. A config's own sizes are cfg->insn_bytes and
 * cfg->sram[VTA_MEM_UOP].elem_bytes; the MAX sizes hold one of any encoding. */
#define VTA_INSN_BYTES 16
#define VTA_UOP_BYTES 4
#define VTA_INSN_MAX_BYTES 32
#define VTA_UOP_MAX_BYTES 8
#define VTA_INSN_MAX_WORDS 4

typedef enum vta_opcode {
	VTA_OP_LOAD = 0,
	VTA_OP_STORE = 1,
	VTA_OP_GEMM = 2,
	VTA_OP_FINISH = 3,
	VTA_OP_ALU = 4
} vta_opcode;

/* The four dependency flags. */
typedef struct vta_deps {
	bool pop_prev, pop_next, push_prev, push_next;
} vta_deps;

typedef struct vta_mem_insn {
	uint32_t mem_type; /* vta_mem; kept wide so malformed values survive decoding errors */
	uint32_t sram_base, dram_base;
	uint32_t y_size, x_size, x_stride;
	uint32_t y_pad_0, y_pad_1, x_pad_0, x_pad_1;
	/* LUT decompression (docs/isa.md "LUT decompression"): lut_bw 1..7 makes a LOAD of
	 * WGT/INP/ACC read packed indices of that width and decode them through descriptor
	 * lut_slot, lut_chan being the channel of its first lanes (in the pads' bits, so a
	 * decompressing load has no padding); a LOAD of lut/lut32 sets descriptor lut_slot. */
	uint32_t lut_bw, lut_slot, lut_chan;
	/* Wide encoding only: a multi-block decompressing load advances its tables by one
	 * channel block every lut_run rows of y (0: the whole load is one block). */
	uint32_t lut_run;
	/* Wide encoding only, zero-lane fill of a block-diagonal WGT row: the DRAM holds only
	 * lut_group input lanes per output channel (0: every lane), those of group
	 * ((channel / lut_period) mod (block_in / lut_group)); the decoder writes the other
	 * lanes 0 (vta_lut_fill_lane). */
	uint32_t lut_group, lut_period;
} vta_mem_insn;

/* GEMM and ALU share the loop header. */
typedef struct vta_loop {
	bool reset;
	uint32_t uop_bgn, uop_end; /* [bgn, end) in the UOP SRAM */
	uint32_t iter_out, iter_in;
	uint32_t dst_factor_out, dst_factor_in;
	uint32_t src_factor_out, src_factor_in;
	uint32_t wgt_factor_out, wgt_factor_in; /* GEMM only */
} vta_loop;

typedef struct vta_alu_fields {
	uint32_t op;      /* vta_alu_op */
	bool use_imm;
	int32_t imm;      /* signed, alu_imm bits */
} vta_alu_fields;

/* One decoded instruction. Only the part matching opcode is meaningful. */
typedef struct vta_insn {
	vta_opcode opcode;
	vta_deps deps;
	vta_mem_insn mem;   /* LOAD, STORE */
	vta_loop loop;      /* GEMM, ALU */
	vta_alu_fields alu; /* ALU */
} vta_insn;

/* One decoded micro-op. */
typedef struct vta_uop {
	uint32_t dst, src, wgt;
} vta_uop;

/* Encode into cfg->insn_bytes little-endian bytes (word k in bytes 8k..8k+7). */
vta_status vta_insn_encode(const vta_config *cfg, const vta_insn *insn, uint8_t *out,
			   vta_error *err);
/* Rewrite only the head (opcode and dependence flags, the low bits of word 0) of encoded
 * bytes, e.g. after a flag was set; the rest stays as encoded. */
vta_status vta_insn_encode_head(const vta_config *cfg, const vta_insn *insn, uint8_t *bytes,
				vta_error *err);
/* Decode cfg->insn_bytes bytes. Rejects unknown opcodes/memory types/ALU ops and set unused
 * bits. */
vta_status vta_insn_decode(const vta_config *cfg, const uint8_t *in, vta_insn *insn,
			   vta_error *err);
/* Decode the head alone (opcode and dependence flags; the rest of *insn zero): for a walk
 * that decodes only some instructions whole. Rejects an unknown opcode. */
vta_status vta_insn_decode_head(const vta_config *cfg, const uint8_t *in, vta_insn *insn,
				vta_error *err);
/* The opcode alone, as vta_insn_decode_head finds it (and fails as it does): for a walk
 * that looks for some instructions among many. */
vta_status vta_insn_peek_opcode(const vta_config *cfg, const uint8_t *in, vta_opcode *op,
				vta_error *err);

/* A micro-op is cfg->sram[VTA_MEM_UOP].elem_bytes little-endian bytes. */
vta_status vta_uop_encode(const vta_config *cfg, const vta_uop *uop, uint8_t *out,
			  vta_error *err);
vta_status vta_uop_decode(const vta_config *cfg, const uint8_t *in, vta_uop *uop,
			  vta_error *err);

/* Which module executes an instruction (FETCH's dispatch rule). */
typedef enum vta_module {
	VTA_MODULE_LOAD = 0,
	VTA_MODULE_COMPUTE = 1,
	VTA_MODULE_STORE = 2,
	VTA_MODULE_COUNT = 3
} vta_module;

vta_module vta_insn_module(const vta_insn *insn);
const char *vta_module_name(vta_module module);   /* "load", "compute", "store" */
const char *vta_opcode_name(vta_opcode op);      /* "load", "store", "gemm", "finish", "alu" */

/* One instruction or micro-op on one line in the assembly syntax (docs/isa.md), no
 * newline, for the disassembler, logs and diagnostics. Return buf. */
char *vta_disasm_insn(const vta_insn *insn, char *buf, size_t size);
char *vta_disasm_uop(const vta_uop *uop, char *buf, size_t size);

/* Fail with "[layer L: ]insn N (<disassembly>): <message>" (layer NULL: no layer prefix),
 * the form every diagnostic about one instruction of a stream takes. */
vta_status vta_insn_fail(vta_error *err, vta_status st, const char *layer, size_t idx,
			 const vta_insn *insn, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 6, 7)))
#endif
	;

/* True for a LOAD/STORE with x_size 0: moves nothing, only pops/pushes tokens. */
bool vta_insn_is_nop(const vta_insn *insn);

/* Uops a GEMM/ALU instruction executes, resets included (0 when uop_end < uop_bgn). */
uint64_t vta_loop_uops(const vta_loop *loop);

/* Whether the instruction zeroes its ACC rows: a GEMM with reset set. An ALU's reset bit is
 * encoded but has no effect, as in every VTA (HLS, Chisel, fsim): the ALU op runs
 * (docs/isa.md "GEMM and ALU: the loop nest"). */
static inline bool vta_insn_resets(const vta_insn *insn)
{
	return insn->opcode == VTA_OP_GEMM && insn->loop.reset;
}

/* Check the dependency flags are legal for the executing module (load: no *_prev;
 * store: no *_next). Returns VTA_E_FLAGS with a detail naming the flag. */
vta_status vta_insn_check_flags(const vta_insn *insn, vta_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VTA_INSN_H */
