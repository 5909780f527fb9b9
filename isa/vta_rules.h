/*
 * vta_rules.h - the legality rules of LOAD, STORE, GEMM and ALU operands: what the
 * reference executor, the SystemC model and the stream builder each check, written once.
 * The rules: docs/isa.md "Execution semantics" and "LUT decompression" ("Checks").
 *
 * Every check returns a vta_status and a detail with no instruction prefix: callers add
 * "insn N (<disassembly>): " (and the stream builder its "layer L: "). NOPs (x_size 0)
 * are not checked: callers skip them.
 */
#ifndef VTA_RULES_H
#define VTA_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "vta_config.h"
#include "vta_insn.h"
#include "vta_limits.h"
#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Check a non-NOP LOAD: VTA_E_STREAM (memory type, padding, LUT fields), VTA_E_OOB
 * (SRAM or table memory, DRAM) or VTA_E_UNSUPPORTED (LUT without a decoder). */
vta_status vta_load_check(const vta_config *cfg, const vta_mem_insn *m, uint64_t dram_size,
			  vta_error *err);
/* Check a non-NOP STORE likewise. */
vta_status vta_store_check(const vta_config *cfg, const vta_mem_insn *m, uint64_t dram_size,
			   vta_error *err);
/* The first DRAM byte above the rows a STORE writes (its last row ends highest; 0 for a NOP:
 * it writes none). */
uint64_t vta_store_dram_end(const vta_config *cfg, const vta_mem_insn *m);
/* SRAM rows a LOAD writes, padding included: [sram_base, sram_base + this). */
uint64_t vta_load_sram_rows(const vta_mem_insn *m);

/* ----- LUT decompression ----- */

/* the limits (widths, strides, descriptors) are vta_limits.h's */

/* A table descriptor, as set by a table load. */
typedef struct vta_lut_desc {
	bool set;          /* by a table load of this run */
	uint32_t base;     /* first entry of channel 0's table */
	uint32_t stride;   /* entries per table (the largest index + 1) */
	uint32_t channels; /* tables; 1: one table for every lane (per tensor) */
	uint32_t width;    /* 8 (lut) or 32 (lut32) */
} vta_lut_desc;

/* Lanes of one SRAM row of mem: WGT block_out*block_in, INP batch*block_in, ACC
 * batch*block_out (0 for the other types). */
uint32_t vta_lut_lanes(const vta_config *cfg, vta_mem mem);
/* Channels one row spans: WGT and ACC block_out, INP block_in. */
uint32_t vta_lut_row_channels(const vta_config *cfg, vta_mem mem);
/* Channel blocks a decompressing load spans: ceil(y_size / lut_run), or 1 (lut_run 0). */
uint32_t vta_lut_run_blocks(const vta_mem_insn *m);
/* The table channel of the first lanes of the load's row y (y < y_size): lut_chan, plus
 * one row's channels for every lut_run rows before it. */
uint64_t vta_lut_row_chan(const vta_config *cfg, const vta_mem_insn *m, uint64_t y);
/* Bytes of one packed DRAM element: ceil(lanes * bw / 8). */
uint32_t vta_lut_packed_bytes(const vta_config *cfg, vta_mem mem, uint32_t bw);
/* Lanes of a row of decompressing load m that its DRAM element holds indices for, which
 * the decoder decodes: block_out * lut_group with zero-lane fill, else vta_lut_lanes. */
uint32_t vta_lut_real_lanes(const vta_config *cfg, const vta_mem_insn *m);
/* Zero-lane fill (lut_group != 0): whether lane L of a WGT row whose first lanes have
 * table channel `chan` (vta_lut_row_chan) holds a real index, and then its place among the
 * row's real lanes (*real: output lane o's lut_group lanes, o by o). Without fill every
 * lane is real, at its own place. */
bool vta_lut_fill_lane(const vta_config *cfg, const vta_mem_insn *m, uint64_t chan,
		       uint32_t lane, uint32_t *real);
/* DRAM bytes of one element of a LOAD or STORE: packed for a decompressing load. */
uint32_t vta_load_elem_bytes(const vta_config *cfg, const vta_mem_insn *m);
/* The descriptor a checked table load sets. */
vta_lut_desc vta_lut_desc_of(const vta_mem_insn *m);
/* A checked decompressing load against the descriptor its lut_slot names: VTA_E_STREAM
 * (never set, set by a table load of no rows, wrong width) or VTA_E_OOB (its channel block
 * beyond the tables). */
vta_status vta_lut_use_check(const vta_config *cfg, const vta_mem_insn *m,
			     const vta_lut_desc *slot, vta_error *err);
/* VTA_E_DATA: index `index` of decoded element `element` (counted over the load's lanes,
 * row-major) lies beyond its table of `stride` entries. */
vta_status vta_lut_index_fail(uint32_t index, uint64_t element, uint32_t stride,
			      vta_error *err);

/* The checks of a GEMM/ALU made once, before its first uop (VTA_E_STREAM, VTA_E_OOB,
 * VTA_E_UNSUPPORTED). */
vta_status vta_loop_check(const vta_config *cfg, const vta_insn *insn, vta_error *err);

/* Every rule one instruction and the config decide alone, without running anything: its
 * dependency flags on its module (vta_insn_check_flags), a non-NOP LOAD's or STORE's checks
 * against a DRAM of dram_size bytes, a GEMM/ALU's vta_loop_check. What depends on the run
 * (micro-ops in the UOP SRAM, LUT descriptors set by earlier loads, DRAM contents, ordering)
 * is left to the engines and the stream checks. */
vta_status vta_insn_check_static(const vta_config *cfg, const vta_insn *insn, uint64_t dram_size,
				 vta_error *err);

/* The work budget of a run (timing.uop_budget), the same rule in the reference executor,
 * the SystemC model and the stream checks: a GEMM/ALU whose uops would take the run's
 * count beyond the budget fails before its first uop, VTA_E_NO_FINISH (the simulated
 * cycles bound a run's length, not the host's work: a legal stream of large GEMMs would
 * otherwise run for hours). *done holds the uops of the run's earlier GEMM/ALUs and grows
 * by this one's when it passes. */
vta_status vta_uop_budget_check(const vta_config *cfg, const vta_insn *insn, uint64_t *done,
				vta_error *err);

/* The other budgets of a run, the same rule in the reference executor, the SystemC model and
 * the stream checks, checked as an instruction is about to execute (VTA_E_NO_FINISH):
 * - timing.insn_budget: the instruction at index idx >= the budget fails. By index, not by
 *   count, so both engines name the same instruction whatever their order of execution;
 *   a stream runs its first insn_budget instructions at most.
 * - timing.host_seconds (0: no limit): the run fails once more host time than this has
 *   passed since `started` (vta_host_now() at the run's start). Also checked between the
 *   uops of a long GEMM/ALU where an engine executes them one by one. */
vta_status vta_work_budget_check(const vta_config *cfg, uint64_t idx, double started,
				 vta_error *err);

/* Host monotonic time in seconds: timing.host_seconds and every host-time figure. */
double vta_host_now(void);

/* The SRAM depth each uop index of one GEMM/ALU must stay below; UINT64_MAX for an
 * index the instruction does not read. */
/* Whether an ALU uop with an immediate takes its first operand from ACC[src] rather than
 * ACC[dst] (the config's alu.imm_operand: src, VTA's Chisel RTL): it then reads ACC[src]
 * and not ACC[dst]. False for any other instruction. */
static inline bool vta_alu_imm_reads_src(const vta_config *cfg, const vta_insn *insn)
{
	return insn->opcode == VTA_OP_ALU && insn->alu.use_imm &&
	       cfg->alu_imm_operand == VTA_IMM_OPERAND_SRC;
}

typedef struct vta_uop_bounds {
	uint64_t acc_depth, src_depth, wgt_depth;
	const char *src_name; /* "inp" (GEMM) or "src acc" (ALU) */
} vta_uop_bounds;

void vta_uop_bounds_of(const vta_config *cfg, const vta_insn *insn, vta_uop_bounds *b);

/* A uop's indices (loop offsets added) lie within their SRAMs: a few compares, for the
 * model's uop loop. */
static inline bool vta_uop_in_bounds(const vta_uop_bounds *b, uint64_t dst, uint64_t src,
				     uint64_t wgt)
{
	return dst < b->acc_depth && src < b->src_depth && wgt < b->wgt_depth;
}

/* The first index out of bounds, in the order dst, src, wgt. */
typedef struct vta_uop_oob {
	const char *what; /* "acc", "inp", "src acc" or "wgt" */
	uint64_t index, depth;
} vta_uop_oob;

bool vta_uop_find_oob(const vta_uop_bounds *b, uint64_t dst, uint64_t src, uint64_t wgt,
		      vta_uop_oob *oob);

/* VTA_E_OOB for uop upc of iteration (it_out, it_in) whose indices are out of bounds. */
vta_status vta_uop_oob_fail(const vta_uop_bounds *b, uint32_t upc, uint32_t it_out,
			    uint32_t it_in, uint64_t dst, uint64_t src, uint64_t wgt,
			    vta_error *err);

/* The hazard rule (VTA's VerifyDep): a write of an ACC row `gap` uops after the same
 * instruction last wrote it (gap 0: it has not) breaks the pipeline's write-after-write
 * distance; distance 0 disables it. */
static inline bool vta_acc_hazard(uint64_t gap, uint64_t distance)
{
	return gap >= 1 && gap <= distance;
}

/* Whether no uop of loop nest l can break the hazard rule, decided from its kernel and
 * factors rather than uop by uop: an ACC row written again `distance` uops or fewer later
 * is looked for within the kernel and a few iterations on (the row offsets of iterations m
 * apart take at most two values). dst[k * stride] is the dst of the kernel's uop k. True:
 * none can; false: one does, which a walk uop by uop finds and words. */
bool vta_nest_acc_clear(const vta_loop *l, const uint32_t *dst, size_t stride,
			uint64_t distance);

/* VTA_E_HAZARD for uop upc of iteration (it_out, it_in) writing ACC row `row` `gap` uops
 * after its previous write. */
vta_status vta_acc_hazard_fail(uint64_t row, uint64_t gap, uint32_t distance, uint32_t upc,
			       uint32_t it_out, uint32_t it_in, vta_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VTA_RULES_H */
