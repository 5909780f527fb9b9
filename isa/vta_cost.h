/*
 * vta_cost.h - the cost formulas of the timing model, written once: the SystemC model waits
 * for these figures (adding only its waits for tokens, queues and the DRAM port), the
 * reference executor bounds a run's work with them, and the runtime's plan chooser prices
 * candidate schedules with them. The formulas: docs/architecture.md "The timing model"
 * (decompressing loads: docs/isa.md "Timing and statistics"; FETCH's instruction size:
 * docs/isa.md "The wide encoding").
 * Everything saturates instead of wrapping: a legal GEMM may ask for ~2^44 uops.
 */
#ifndef VTA_COST_H
#define VTA_COST_H

#include <stdbool.h>
#include <stdint.h>

#include "vta_config.h"
#include "vta_insn.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes the DRAM port moves per cycle. */
uint32_t vta_cost_bus_bytes(const vta_config *cfg);

/* Port cycles (beats) of one burst of `bytes`. */
uint64_t vta_cost_beats(const vta_config *cfg, uint64_t bytes);

/* Cycles per uop of a GEMM or ALU instruction: gemm_ii, alu_ii or alu_imm_ii. */
uint32_t vta_cost_uop_ii(const vta_config *cfg, const vta_insn *insn);

/* Cycles of the uops alone (U * ii, no fixed costs): the work a GEMM/ALU asks for. */
uint64_t vta_cost_uop_cycles(const vta_config *cfg, const vta_insn *insn);

/* Cycles of a GEMM/ALU instruction of `uops` uops at `ii` cycles each:
 * insn_overhead + pipeline_fill + uops * ii. */
uint64_t vta_cost_loop_cycles(const vta_config *cfg, uint64_t uops, uint64_t ii);

/* Cycles of a GEMM or ALU instruction. */
uint64_t vta_cost_compute_cycles(const vta_config *cfg, const vta_insn *insn);

/*
 * A 2D transfer as the DRAM sees it: `runs` rows of `run_bytes` each, `stride` bytes apart
 * from the byte address `addr`. Each row is its own bursts, split so that none crosses a
 * multiple of dram.burst_boundary_bytes and none exceeds dram.max_burst_bytes (VTA's load
 * and store engines walk rows one by one; AXI forbids crossing the boundary). A LOAD's
 * SRAM also takes `pad_elems` zero-padded elements; a STORE (`write`) reads its OUT
 * elements of `elem_bytes` between its beats. Plans made without an address (the
 * tiler's) start aligned.
 */
typedef struct vta_dma_plan {
	uint64_t runs;
	uint64_t run_bytes;
	uint64_t addr, stride;
	uint64_t pad_elems;
	uint32_t elem_bytes;
	bool write;
} vta_dma_plan;

/* Where a walk over a plan's bursts is: the row and the offset in it. */
typedef struct vta_burst_walk {
	uint64_t row, off;
} vta_burst_walk;

/* Bytes of the plan's next burst, advancing w; 0 when none is left. */
uint64_t vta_cost_next_burst(const vta_config *cfg, const vta_dma_plan *plan, vta_burst_walk *w);

/* Bursts of a plan. */
uint64_t vta_cost_dma_bursts(const vta_config *cfg, const vta_dma_plan *plan);

/* Cycles a STORE burst of `bytes` holds the write data channel: its beats, and
 * store_read_cycles reading the next OUT element after each element but the last. */
uint64_t vta_cost_write_burst_cycles(const vta_config *cfg, const vta_dma_plan *plan,
				     uint64_t bytes);

/* Cycles the SRAM write port of a LOAD is busy: a write per data beat, and pad_elem_cycles
 * per zero-padded element (VTA fills padding in the cycles no data arrives). */
uint64_t vta_cost_pad_fill_cycles(const vta_config *cfg, const vta_dma_plan *plan);

/* When one burst happens: its request's address handshake, its first data cycle, and its
 * end (reads: after the last beat; writes: the response, handshakes included). */
typedef struct vta_burst_time {
	uint64_t req, first, end;
} vta_burst_time;

/*
 * The read channel (AXI AR + R): one address handshake per cycle; at most
 * dram.max_read_bursts bursts in flight over all clients, a burst's tag freed by its last
 * beat; data at the earliest dram.latency_cycles after the request, bursts returned whole
 * in request order over one data channel of one beat per cycle.
 */
typedef struct vta_read_chan {
	uint64_t addr_free, data_free;
	uint64_t n; /* bursts issued */
	uint64_t tag_free[VTA_MAX_BURSTS_IN_FLIGHT]; /* [n % max]: when burst n - max ended */
} vta_read_chan;

void vta_read_chan_reset(vta_read_chan *c, uint64_t t);
/* The earliest address handshake of a request made at `ask`. */
uint64_t vta_read_chan_ready(const vta_config *cfg, const vta_read_chan *c, uint64_t ask);
/* Issue a burst of `beats` asked for at `ask`. */
vta_burst_time vta_read_chan_issue(const vta_config *cfg, vta_read_chan *c, uint64_t ask,
				   uint64_t beats);

/*
 * The write channel (AXI AW + W + B): at most dram.max_write_bursts bursts waiting for
 * their response, the next one's address only after one comes; data one burst after
 * another; the response dram.latency_cycles after the last beat, plus
 * dram.write_ack_cycles of address and response handshakes.
 */
typedef struct vta_write_chan {
	uint64_t data_free;
	uint64_t n;
	uint64_t resp[VTA_MAX_BURSTS_IN_FLIGHT]; /* [n % max]: burst n - max's response */
} vta_write_chan;

void vta_write_chan_reset(vta_write_chan *c, uint64_t t);
/* Issue a write burst holding the data channel `cycles`, asked for at `ask`. */
vta_burst_time vta_write_chan_issue(const vta_config *cfg, vta_write_chan *c, uint64_t ask,
				    uint64_t cycles);

/* Cycles of a plan on an idle DRAM, from the first request to its end (reads: the later of
 * the last beat and the SRAM's padding fill; writes: the last response). 0 if nothing moves. */
uint64_t vta_cost_dma_cycles(const vta_config *cfg, const vta_dma_plan *plan);

/* DRAM bytes a LOAD/STORE moves (padding excluded), as counted in the statistics. */
uint64_t vta_cost_dma_bytes(const vta_config *cfg, const vta_mem_insn *mem);

/* The LUT decoder's fixed cycles per instruction (pipeline fill of the RTL). */
#define VTA_COST_LUT_FIXED_CYCLES 3

/* Elements a decompressing load decodes: y_size * x_size * the lanes its DRAM rows hold
 * (vta_lut_real_lanes: a zero-lane fill load's groups only; 0 for a plain load). */
uint64_t vta_cost_lut_elements(const vta_config *cfg, const vta_mem_insn *mem);
/* The decoder's cycles for a decompressing load (0 for a plain load). */
uint64_t vta_cost_lut_decode_cycles(const vta_config *cfg, const vta_mem_insn *mem);
/* Cycles of a LOAD on an idle port: overhead + max(its DMA, latency + decode cycles). */
uint64_t vta_cost_load_idle_cycles(const vta_config *cfg, const vta_mem_insn *mem);

/* Plan a LOAD or STORE whose DRAM elements are `elem_bytes` wide. */
vta_dma_plan vta_cost_dma_plan_of(const vta_mem_insn *mem, uint32_t elem_bytes, bool write);

/* A plan of one row of `bytes` (0 bytes: nothing moves). */
vta_dma_plan vta_cost_dma_plan_bytes(uint64_t bytes);

/* Beats of a plan. */
uint64_t vta_cost_dma_beats(const vta_config *cfg, const vta_dma_plan *plan);

/* Cycles of a LOAD/STORE on an idle port: overhead + vta_cost_dma_cycles. */
uint64_t vta_cost_dma_idle_cycles(const vta_config *cfg, const vta_dma_plan *plan);

/* Instructions in one FETCH burst: max_burst_bytes / insn_bytes, at least one. */
uint64_t vta_cost_fetch_burst_insns(const vta_config *cfg);
/* Cycle (from the burst's start on the port) at which FETCH has instruction j of a burst:
 * latency + ceil(insn_bytes (j + 1) / bus_bytes), insn_bytes 16 (vta128) or 32 (wide). */
uint64_t vta_cost_fetch_arrival(const vta_config *cfg, uint64_t j);
/* Cycle (from the request of a burst of `count` instructions, on an idle port) from which
 * FETCH may dispatch instruction j of it: its arrival (timing.fetch_dispatch stream), or
 * the whole burst's arrival plus one cycle per instruction before it (burst). */
uint64_t vta_cost_fetch_ready(const vta_config *cfg, uint64_t j, uint64_t count);

/* The roofline: the one definition `vtasim run`, `vtasim exec`, the benchmarks and the docs
 * use (docs/runtime.md "The roofline"). The work a run cannot avoid, priced at each
 * resource's peak:
 *   gemm:  `macs` multiply-accumulates, one uop of batch x block_in x block_out per gemm_ii
 *          (rounded up);
 *   alu:   `alu_tensor_uops` tensor-tensor uops at alu_ii and `alu_imm_uops` immediate uops at
 *          alu_imm_ii (the requantization a layer's arithmetic needs);
 *   dram:  `dram_bytes` over the DRAM port, bus_bytes per beat.
 * GEMM and ALU instructions share the compute module, which runs one at a time, so the
 * compute term is their sum; the roofline is max(compute, dram), and `bound` names the term
 * that sets it: DRAM, or the larger share of the compute module (GEMM or ALU). */
typedef struct vta_roofline_work {
	uint64_t macs;
	uint64_t alu_tensor_uops, alu_imm_uops;
	uint64_t dram_bytes;
} vta_roofline_work;

typedef enum vta_bound { VTA_BOUND_GEMM = 0, VTA_BOUND_ALU, VTA_BOUND_DRAM } vta_bound;

typedef struct vta_roofline {
	uint64_t gemm_cycles, alu_cycles;
	uint64_t compute_cycles; /* gemm_cycles + alu_cycles */
	uint64_t dram_cycles;
	uint64_t roofline_cycles;
	vta_bound bound;
} vta_roofline;

vta_roofline vta_cost_roofline(const vta_config *cfg, const vta_roofline_work *w);

/* Rooflines summed term by term (a run of several layers); the bound of the sum is the
 * term that dominates the summed cycles. */
void vta_cost_roofline_add(vta_roofline *sum, const vta_roofline *r);

/* "gemm", "alu", "dram". */
const char *vta_bound_name(vta_bound b);

#ifdef __cplusplus
}
#endif

#endif /* VTA_COST_H */
