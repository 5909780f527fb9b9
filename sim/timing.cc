/*
 * timing.cc - the cost functions of the timing model (the formulas are in timing.h).
 * Everything saturates instead of wrapping: a legal GEMM may ask for ~2^44 uops.
 */
#include "timing.h"

namespace {

uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

uint64_t sat_mul(uint64_t a, uint64_t b)
{
	return a != 0 && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

} // namespace

extern "C" uint32_t vtasim_bus_bytes(const vta_config *cfg)
{
	return cfg->dram_bus_bits / 8;
}

extern "C" uint64_t vtasim_beats(const vta_config *cfg, uint64_t bytes)
{
	uint64_t bus = vtasim_bus_bytes(cfg);
	return bytes / bus + (bytes % bus != 0);
}

extern "C" uint64_t vtasim_loop_uops(const vta_loop *loop)
{
	if (loop->uop_end < loop->uop_bgn)
		return 0;
	return (uint64_t)loop->iter_out * loop->iter_in * (loop->uop_end - loop->uop_bgn);
}

extern "C" uint64_t vtasim_compute_cycles(const vta_config *cfg, const vta_insn *insn)
{
	uint64_t ii = cfg->gemm_ii;
	if (insn->opcode == VTA_OP_ALU)
		ii = insn->alu.use_imm ? cfg->alu_imm_ii : cfg->alu_ii;
	uint64_t fixed = (uint64_t)cfg->insn_overhead_cycles + cfg->pipeline_fill_cycles;
	return sat_add(fixed, sat_mul(vtasim_loop_uops(&insn->loop), ii));
}

extern "C" vtasim_dma_plan vtasim_dma_plan_of(const vta_mem_insn *mem, uint32_t elem_bytes)
{
	vtasim_dma_plan p = {0, 0};
	uint64_t row = (uint64_t)mem->x_size * elem_bytes;
	if (row == 0 || mem->y_size == 0)
		return p;
	if (mem->y_size == 1 || mem->x_stride == mem->x_size) {
		p.runs = 1;
		p.run_bytes = row * mem->y_size; /* rows adjacent in DRAM: one run */
	} else {
		p.runs = mem->y_size;
		p.run_bytes = row;
	}
	return p;
}

extern "C" uint64_t vtasim_dma_bursts(const vta_config *cfg, const vtasim_dma_plan *plan)
{
	uint64_t mb = cfg->dram_max_burst_bytes;
	return plan->runs * (plan->run_bytes / mb + (plan->run_bytes % mb != 0));
}

extern "C" uint64_t vtasim_dma_beats(const vta_config *cfg, const vtasim_dma_plan *plan)
{
	uint64_t mb = cfg->dram_max_burst_bytes;
	uint64_t full = plan->run_bytes / mb, rest = plan->run_bytes % mb;
	uint64_t per_run = full * vtasim_beats(cfg, mb) + (rest ? vtasim_beats(cfg, rest) : 0);
	return plan->runs * per_run;
}

extern "C" uint64_t vtasim_dma_idle_cycles(const vta_config *cfg, const vtasim_dma_plan *plan)
{
	uint64_t c = cfg->insn_overhead_cycles;
	if (plan->runs == 0)
		return c;
	return c + cfg->dram_latency_cycles + vtasim_dma_beats(cfg, plan);
}

extern "C" uint64_t vtasim_fetch_arrival(const vta_config *cfg, uint64_t j)
{
	return cfg->dram_latency_cycles + vtasim_beats(cfg, (j + 1) * VTA_INSN_BYTES);
}
