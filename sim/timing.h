/*
 * timing.h - the cost functions of the timing model, as plain functions of the config and
 * an instruction (no SystemC; the header is C-compatible so tests call it directly). The
 * modules only add waiting for tokens, queues and the DRAM port to these figures.
 *
 * Per instruction (cycles; docs/architecture.md "Timing model"):
 *   GEMM       insn_overhead + pipeline_fill + U * gemm_ii
 *   ALU        insn_overhead + pipeline_fill + U * (use_imm ? alu_imm_ii : alu_ii)
 *              U = iter_out * iter_in * (uop_end - uop_bgn), reset uops included
 *   LOAD/STORE insn_overhead, then the DMA: the DRAM rows are cut into bursts (a burst is
 *              at most max_burst_bytes of contiguous DRAM; rows that are adjacent in DRAM,
 *              x_stride == x_size, form one run); each burst holds the shared port for
 *              ceil(bytes / bus_bytes) beats, bursts queue first-come first-served with
 *              the other clients, and the instruction pays latency_cycles once, after its
 *              last beat (its requests are pipelined). Padding moves no DRAM bytes and
 *              costs nothing extra. On an idle port:
 *              insn_overhead + latency + sum over bursts of ceil(burst / bus_bytes).
 *   NOP (x_size 0) and FINISH: insn_overhead.
 *   FETCH      reads the stream in bursts of up to max_burst_bytes (16 B per instruction);
 *              instruction j of a burst that starts at s is dispatched at
 *              s + latency + ceil(16 (j + 1) / bus_bytes).
 */
#ifndef VTASIM_TIMING_H
#define VTASIM_TIMING_H

#include <stdint.h>

#include "vta_config.h"
#include "vta_insn.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes the DRAM port moves per cycle. */
uint32_t vtasim_bus_bytes(const vta_config *cfg);

/* Port cycles (beats) of one burst of `bytes`. */
uint64_t vtasim_beats(const vta_config *cfg, uint64_t bytes);

/* Uops a GEMM/ALU instruction executes (0 when uop_end < uop_bgn). */
uint64_t vtasim_loop_uops(const vta_loop *loop);

/* Cycles of a GEMM or ALU instruction (saturates at UINT64_MAX). */
uint64_t vtasim_compute_cycles(const vta_config *cfg, const vta_insn *insn);

/* The contiguous DRAM runs of a 2D transfer: `runs` runs of `run_bytes` each. */
typedef struct vtasim_dma_plan {
	uint64_t runs;
	uint64_t run_bytes;
} vtasim_dma_plan;

/* Plan a LOAD or STORE whose DRAM elements are `elem_bytes` wide (padding excluded). */
vtasim_dma_plan vtasim_dma_plan_of(const vta_mem_insn *mem, uint32_t elem_bytes);

/* Bursts and beats of a plan. */
uint64_t vtasim_dma_bursts(const vta_config *cfg, const vtasim_dma_plan *plan);
uint64_t vtasim_dma_beats(const vta_config *cfg, const vtasim_dma_plan *plan);

/* Cycles of a LOAD/STORE on an idle port: overhead + latency + beats (overhead alone when
 * no DRAM byte moves). */
uint64_t vtasim_dma_idle_cycles(const vta_config *cfg, const vtasim_dma_plan *plan);

/* Cycle (from the burst's start on the port) at which FETCH has instruction j of a burst. */
uint64_t vtasim_fetch_arrival(const vta_config *cfg, uint64_t j);

#ifdef __cplusplus
}
#endif

#endif /* VTASIM_TIMING_H */
