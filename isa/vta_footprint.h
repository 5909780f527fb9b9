/*
 * vta_footprint.h - what one instruction reads and writes: rows of the UOP, WGT, INP, ACC
 * and OUT SRAMs, entries of the LUT decoder's table memory, its descriptor slots, and DRAM
 * bytes. docs/isa.md "Execution semantics" and "LUT decompression" define each instruction;
 * this is the one place that turns those definitions into sets of rows, for the stream
 * checks (vta_race.h) and any tool that asks "which instruction writes row R?".
 *
 * Pure: nothing moves. What an instruction touches can depend on state the caller owns: a
 * GEMM/ALU on the micro-ops in the UOP SRAM, a decompressing load on the descriptor its
 * slot names (vta_fp_state).
 *
 * The accesses, in the order the instruction makes them:
 *   LOAD               read its DRAM rows; write SRAM rows [sram_base, sram_base + R*W) of
 *                      its SRAM (ACC for acc8), padding included
 *   table load         read its DRAM rows; write table entries [sram_base, + y_size*x_size);
 *                      write descriptor slot lut_slot
 *   decompressing load read descriptor slot lut_slot; read every entry of the tables it
 *                      decodes through (the descriptor's tables of channels lut_chan ..
 *                      lut_chan + channels of a row x blocks of its run - 1, or its one
 *                      table: which entries the
 *                      indices pick is data, not the instruction); read its packed DRAM rows;
 *                      write its SRAM rows
 *   STORE              read OUT rows [sram_base, + y_size*x_size); write its DRAM rows
 *   GEMM/ALU           read UOP rows [uop_bgn, uop_end) once; then for every uop execution,
 *                      in loop order: read INP[src] and WGT[wgt] (GEMM), ACC[src] (ALU with a
 *                      tensor operand, or with an immediate under alu.imm_operand src),
 *                      ACC[dst] (GEMM accumulate, ALU but the latter); write ACC[dst] and
 *                      OUT[dst]. A GEMM reset reads nothing but the uop.
 *   FINISH, NOPs       nothing
 * DRAM rows of one transfer that touch or overlap are merged into one range; those that do
 * not are one access each, or one strided access when the caller asks (dram_runs).
 */
#ifndef VTA_FOOTPRINT_H
#define VTA_FOOTPRINT_H

#include <stdbool.h>
#include <stdint.h>

#include "vta_config.h"
#include "vta_insn.h"
#include "vta_rules.h"
#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where an access lands is a vta_space, declared with the memory table (vta_mem.h). */

/* "uop", "wgt", "inp", "acc", "out", "lut table", "lut slot", "dram" ("?" out of range). */
const char *vta_space_name(vta_space s);
/* Rows of an SRAM, entries of the table memory, slots; 0 for DRAM (its size is the DRAM's). */
uint64_t vta_space_rows(const vta_config *cfg, vta_space s);

#define VTA_FP_NO_UOP UINT32_MAX

/* One access: [lo, hi) of a space, and with rows > 1 (the DRAM rows of a transfer, only
 * when vta_fp_state.dram_runs asks for them so) [lo + k * stride, hi + k * stride) for
 * 0 < k < rows as well. */
typedef struct vta_access {
	vta_space space;
	bool write;
	uint64_t lo, hi;
	/* GEMM/ALU: the uop (its UOP row) and loop iteration whose execution makes the access;
	 * uop is VTA_FP_NO_UOP for any other access (the UOP read of a GEMM/ALU included) */
	uint32_t uop, it_out, it_in;
	uint64_t rows, stride; /* 0 or 1 row: [lo, hi) alone */
} vta_access;

/* The state an instruction's footprint depends on. */
typedef struct vta_fp_state {
	const uint8_t *uop_sram;   /* the UOP SRAM: its depth in encoded micro-ops of its
				      elem_bytes each (GEMM, ALU) */
	const vta_lut_desc *slots; /* VTA_LUT_SLOTS descriptors (decompressing loads) */
	uint64_t dram_size;        /* bytes: LOAD and STORE rows are checked against it */
	bool dram_runs;            /* a transfer's DRAM rows that do not touch come as one
				      access of `rows` rows `stride` bytes apart (else one
				      access per row) */
} vta_fp_state;

/* Called per access; a status other than VTA_OK stops the walk and is returned. */
typedef vta_status (*vta_access_fn)(void *ctx, const vta_access *a);

/* Every access insn makes, in order. The instruction is checked first with the rules of
 * vta_rules.h (operands, bounds, the descriptor a decompressing load uses) and each uop as
 * it comes (it decodes, its indices lie within their SRAMs): a failure is returned with the
 * rule's detail, without an instruction prefix, after the accesses of the uops before it.
 * NOPs and FINISH make none; nothing is checked for them. */
vta_status vta_footprint(const vta_config *cfg, const vta_insn *insn, const vta_fp_state *st,
			 vta_access_fn fn, void *ctx, vta_error *err);

/* ----- GEMM/ALU uop by uop: the same walk without one call per access ----- */

/* What every uop execution of a GEMM/ALU touches besides UOP[uop]: it writes ACC[dst] and
 * OUT[dst], and reads what these say. */
typedef struct vta_uop_roles {
	bool reads_dst;      /* ACC[dst]: GEMM accumulate, ALU (but an immediate op reading
				its source row, vta_alu_imm_reads_src) */
	vta_space src_space; /* INP (GEMM accumulate), ACC (ALU with a tensor operand, or an
				immediate op reading its source row), or VTA_SPACE_COUNT: src is
				not read */
	bool reads_wgt;      /* WGT[wgt]: GEMM accumulate */
} vta_uop_roles;

void vta_uop_roles_of(const vta_config *cfg, const vta_insn *insn, vta_uop_roles *r);

/* One uop execution: the uop, its iteration and its indices with the loop offsets added. */
typedef struct vta_uop_exec {
	uint32_t uop, it_out, it_in;
	uint64_t dst, src, wgt;
} vta_uop_exec;

typedef vta_status (*vta_uop_fn)(void *ctx, const vta_uop_exec *u);

/* The accesses of one uop execution, in order, into out; returns their count (2 to 5).
 * Inline: it runs once per uop. */
#define VTA_UOP_ACCESSES_MAX 5
static inline unsigned vta_uop_accesses(const vta_uop_roles *r, const vta_uop_exec *u,
					vta_access out[VTA_UOP_ACCESSES_MAX])
{
	unsigned n = 0;
	if (r->src_space != VTA_SPACE_COUNT)
		out[n++] = (vta_access){r->src_space, false, u->src, u->src + 1, u->uop,
					u->it_out, u->it_in, 1, 0};
	if (r->reads_wgt)
		out[n++] = (vta_access){VTA_SPACE_WGT, false, u->wgt, u->wgt + 1, u->uop,
					u->it_out, u->it_in, 1, 0};
	if (r->reads_dst)
		out[n++] = (vta_access){VTA_SPACE_ACC, false, u->dst, u->dst + 1, u->uop,
					u->it_out, u->it_in, 1, 0};
	out[n++] = (vta_access){VTA_SPACE_ACC, true, u->dst, u->dst + 1, u->uop, u->it_out,
				u->it_in, 1, 0};
	out[n++] = (vta_access){VTA_SPACE_OUT, true, u->dst, u->dst + 1, u->uop, u->it_out,
				u->it_in, 1, 0};
	return n;
}

/* The uop executions of a GEMM/ALU in loop order, with vta_footprint's checks (the
 * instruction's, then each uop's: those its roles read, and dst). */
vta_status vta_footprint_uops(const vta_config *cfg, const vta_insn *insn,
			      const uint8_t *uop_sram, vta_uop_fn fn, void *ctx, vta_error *err);

/* ----- without state ----- */

/* The spaces insn may read and write (bit 1 << vta_space each), from its opcode and
 * memory type alone: for "which instructions could touch INP at all?". */
void vta_footprint_spaces(const vta_insn *insn, uint32_t *reads, uint32_t *writes);

#ifdef __cplusplus
}
#endif

#endif /* VTA_FOOTPRINT_H */
