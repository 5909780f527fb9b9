/*
 * dma.h - the 2D DMA of LOAD and STORE as plain functions: the data movement between the
 * flat DRAM and an SRAM (no checks here: vta_rules.h, which every instruction passes
 * first; no timing: vta_cost.h; no SystemC: the header is C-compatible for tests).
 *
 * LOAD (docs/isa.md, VTA's load_pad_2d): W = x_pad_0 + x_size + x_pad_1 and
 * rows = y_pad_0 + y_size + y_pad_1; SRAM rows [sram_base, sram_base + rows*W) are
 * written, zero-padded; DRAM row r starts at element dram_base + r*x_stride. LOAD OUT is
 * illegal, UOP and WGT must not pad, ACC_8BIT sign-extends int8 lanes into int32 lanes.
 * STORE: y_size rows of x_size OUT rows, SRAM side contiguous, DRAM stride x_stride; only
 * memory type OUT, no padding. NOPs (x_size 0) are never moved.
 */
#ifndef VTASIM_DMA_H
#define VTASIM_DMA_H

#include <stdint.h>

#include "vta_config.h"
#include "vta_dram.h"
#include "vta_insn.h"
#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Move a checked LOAD's data into `sram` (the target memory's rows; ACC for ACC_8BIT). */
void vtasim_load_exec(const vta_config *cfg, const vta_mem_insn *mem, const vta_dram *dram,
		      uint8_t *sram);

/* Move a checked STORE's OUT rows from `out` into DRAM. */
void vtasim_store_exec(const vta_config *cfg, const vta_mem_insn *mem, const uint8_t *out,
		       vta_dram *dram);

#ifdef __cplusplus
}
#endif

#endif /* VTASIM_DMA_H */
