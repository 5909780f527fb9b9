/*
 * vta_rules.h - the legality rules of LOAD, STORE, GEMM and ALU operands: what the
 * reference executor, the SystemC model and the stream builder each check, written once
 * (docs/isa.md "Execution semantics" states them for readers).
 *
 * Every check returns a vta_status and a detail with no instruction prefix: callers add
 * "insn N (<disassembly>): " (and the stream builder its "layer L: ").
 *
 * LOAD: memory type (OUT is illegal), no padding on UOP/WGT, SRAM rows
 * [sram_base, sram_base + rows*W) within the memory's depth, every DRAM row within the
 * DRAM. STORE: memory type OUT only, no padding, OUT rows and DRAM rows likewise. NOPs
 * (x_size 0) are not checked: callers skip them.
 *
 * GEMM/ALU, before the first uop: uop_bgn <= uop_end, uop_end <= UOP depth, the ALU op is
 * known and the config has its feature. Per uop: dst within ACC, src within INP (GEMM) or
 * ACC (ALU) when it is read, wgt within WGT when it is read; a reset uop reads nothing and
 * an ALU uop with an immediate reads no src. The ACC write-after-write hazard: uop t of an
 * instruction (counted over its whole loop nest) may not write an ACC row that uop t - gap
 * wrote, for 1 <= gap <= acc_dep_distance (VTA's VerifyDep); 0 disables it.
 */
#ifndef VTA_RULES_H
#define VTA_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "vta_config.h"
#include "vta_insn.h"
#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Check a non-NOP LOAD: VTA_E_STREAM (memory type, padding) or VTA_E_OOB (SRAM, DRAM). */
vta_status vta_load_check(const vta_config *cfg, const vta_mem_insn *m, uint64_t dram_size,
			  vta_error *err);
/* Check a non-NOP STORE likewise. */
vta_status vta_store_check(const vta_config *cfg, const vta_mem_insn *m, uint64_t dram_size,
			   vta_error *err);
/* SRAM rows a LOAD writes, padding included: [sram_base, sram_base + this). */
uint64_t vta_load_sram_rows(const vta_mem_insn *m);

/* The checks of a GEMM/ALU made once, before its first uop (VTA_E_STREAM, VTA_E_OOB,
 * VTA_E_UNSUPPORTED). */
vta_status vta_loop_check(const vta_config *cfg, const vta_insn *insn, vta_error *err);

/* The SRAM depth each uop index of one GEMM/ALU must stay below; UINT64_MAX for an
 * index the instruction does not read. */
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

/* The hazard rule: a write of an ACC row `gap` uops after the same instruction last wrote
 * it (gap 0: it has not) breaks the pipeline's write-after-write distance. */
static inline bool vta_acc_hazard(uint64_t gap, uint64_t distance)
{
	return gap >= 1 && gap <= distance;
}

/* VTA_E_HAZARD for uop upc of iteration (it_out, it_in) writing ACC row `row` `gap` uops
 * after its previous write. */
vta_status vta_acc_hazard_fail(uint64_t row, uint64_t gap, uint32_t distance, uint32_t upc,
			       uint32_t it_out, uint32_t it_in, vta_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VTA_RULES_H */
