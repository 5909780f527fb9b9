/*
 * dma.h - the 2D DMA of LOAD and STORE as plain functions: the data movement between the
 * flat DRAM and an SRAM (no checks here: vta_rules.h, which every instruction passes
 * first; no timing: vta_cost.h; no SystemC: the header is C-compatible for tests).
 * The transfers: docs/isa.md "LOAD: a 2D transfer with zero padding" (VTA's load_pad_2d) and
 * "STORE". NOPs (x_size 0) are never moved.
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
