/*
 * vta_cost.c - the cost formulas of the timing model (the formulas are in vta_cost.h).
 */
#include "vta_cost.h"

#include "vta_rules.h"

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	return a != 0 && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

uint32_t vta_cost_bus_bytes(const vta_config *cfg)
{
	return cfg->dram_bus_bits / 8;
}

uint64_t vta_cost_beats(const vta_config *cfg, uint64_t bytes)
{
	uint64_t bus = vta_cost_bus_bytes(cfg);
	return bytes / bus + (bytes % bus != 0);
}

uint32_t vta_cost_uop_ii(const vta_config *cfg, const vta_insn *insn)
{
	/* an ALU runs its op whatever its reset bit (vta_insn_resets) */
	if (insn->opcode == VTA_OP_ALU)
		return insn->alu.use_imm ? cfg->alu_imm_ii : cfg->alu_ii;
	return cfg->gemm_ii;
}

uint64_t vta_cost_uop_cycles(const vta_config *cfg, const vta_insn *insn)
{
	return sat_mul(vta_loop_uops(&insn->loop), vta_cost_uop_ii(cfg, insn));
}

uint64_t vta_cost_loop_cycles(const vta_config *cfg, uint64_t uops, uint64_t ii)
{
	uint64_t fixed = (uint64_t)cfg->insn_overhead_cycles + cfg->pipeline_fill_cycles;
	return sat_add(fixed, sat_mul(uops, ii));
}

uint64_t vta_cost_compute_cycles(const vta_config *cfg, const vta_insn *insn)
{
	return vta_cost_loop_cycles(cfg, vta_loop_uops(&insn->loop),
				    vta_cost_uop_ii(cfg, insn));
}

uint64_t vta_cost_dma_bytes(const vta_config *cfg, const vta_mem_insn *mem)
{
	return (uint64_t)mem->x_size * mem->y_size * vta_load_elem_bytes(cfg, mem);
}

uint64_t vta_cost_lut_elements(const vta_config *cfg, const vta_mem_insn *mem)
{
	if (!mem->lut_bw || mem->mem_type >= VTA_MEM_COUNT)
		return 0;
	return (uint64_t)mem->x_size * mem->y_size * vta_lut_lanes(cfg, (vta_mem)mem->mem_type);
}

uint64_t vta_cost_lut_decode_cycles(const vta_config *cfg, const vta_mem_insn *mem)
{
	if (!mem->lut_bw)
		return 0;
	/* rate = min(ipc, bus_bits / bw) indices per cycle, the second one fractional (12.8 at
	 * 5 bits on 64): ceil(E / rate) = max(ceil(E / ipc), ceil(E * bw / bus_bits)) */
	uint64_t n = vta_cost_lut_elements(cfg, mem);
	uint64_t ipc = cfg->decomp_indices_per_cycle, bus = cfg->dram_bus_bits;
	uint64_t lanes = n / ipc + (n % ipc != 0);
	uint64_t bits = sat_mul(n, mem->lut_bw);
	uint64_t words = bits / bus + (bits % bus != 0);
	return sat_add(lanes > words ? lanes : words, VTA_COST_LUT_FIXED_CYCLES);
}

uint64_t vta_cost_load_idle_cycles(const vta_config *cfg, const vta_mem_insn *mem)
{
	vta_dma_plan plan = vta_cost_dma_plan_of(mem, vta_load_elem_bytes(cfg, mem));
	uint64_t beats = vta_cost_dma_beats(cfg, &plan);
	uint64_t decode = vta_cost_lut_decode_cycles(cfg, mem);
	if (plan.runs == 0)
		return cfg->insn_overhead_cycles;
	return (uint64_t)cfg->insn_overhead_cycles + cfg->dram_latency_cycles +
	       (beats > decode ? beats : decode);
}

vta_dma_plan vta_cost_dma_plan_of(const vta_mem_insn *mem, uint32_t elem_bytes)
{
	uint64_t row = (uint64_t)mem->x_size * elem_bytes;
	if (row == 0 || mem->y_size == 0)
		return vta_cost_dma_plan_bytes(0);
	if (mem->y_size == 1 || mem->x_stride == mem->x_size)
		return vta_cost_dma_plan_bytes(row * mem->y_size); /* rows adjacent: one run */
	vta_dma_plan p = {mem->y_size, row};
	return p;
}

vta_dma_plan vta_cost_dma_plan_bytes(uint64_t bytes)
{
	vta_dma_plan p = {bytes ? 1 : 0, bytes};
	return p;
}

uint64_t vta_cost_dma_beats(const vta_config *cfg, const vta_dma_plan *plan)
{
	uint64_t mb = cfg->dram_max_burst_bytes;
	uint64_t full = plan->run_bytes / mb, rest = plan->run_bytes % mb;
	uint64_t per_run = full * vta_cost_beats(cfg, mb) + (rest ? vta_cost_beats(cfg, rest) : 0);
	return plan->runs * per_run;
}

uint64_t vta_cost_dma_idle_cycles(const vta_config *cfg, const vta_dma_plan *plan)
{
	uint64_t c = cfg->insn_overhead_cycles;
	if (plan->runs == 0)
		return c;
	return c + cfg->dram_latency_cycles + vta_cost_dma_beats(cfg, plan);
}

uint64_t vta_cost_fetch_burst_insns(const vta_config *cfg)
{
	uint64_t n = cfg->dram_max_burst_bytes / cfg->insn_bytes;
	return n ? n : 1;
}

uint64_t vta_cost_fetch_arrival(const vta_config *cfg, uint64_t j)
{
	return cfg->dram_latency_cycles + vta_cost_beats(cfg, (j + 1) * cfg->insn_bytes);
}

static vta_bound roofline_bound(const vta_roofline *r)
{
	if (r->dram_cycles > r->compute_cycles)
		return VTA_BOUND_DRAM;
	return r->alu_cycles > r->gemm_cycles ? VTA_BOUND_ALU : VTA_BOUND_GEMM;
}

vta_roofline vta_cost_roofline(const vta_config *cfg, const vta_roofline_work *w)
{
	vta_roofline r;
	uint64_t per_uop = (uint64_t)cfg->batch * cfg->block_in * cfg->block_out;
	r.gemm_cycles = sat_mul(w->macs / per_uop + (w->macs % per_uop != 0), cfg->gemm_ii);
	r.alu_cycles = sat_add(sat_mul(w->alu_tensor_uops, cfg->alu_ii), sat_mul(w->alu_imm_uops, cfg->alu_imm_ii));
	r.compute_cycles = sat_add(r.gemm_cycles, r.alu_cycles);
	r.dram_cycles = vta_cost_beats(cfg, w->dram_bytes);
	r.roofline_cycles = r.compute_cycles > r.dram_cycles ? r.compute_cycles : r.dram_cycles;
	r.bound = roofline_bound(&r);
	return r;
}

void vta_cost_roofline_add(vta_roofline *sum, const vta_roofline *r)
{
	sum->gemm_cycles += r->gemm_cycles;
	sum->alu_cycles += r->alu_cycles;
	sum->compute_cycles += r->compute_cycles;
	sum->dram_cycles += r->dram_cycles;
	sum->roofline_cycles += r->roofline_cycles;
	sum->bound = roofline_bound(sum);
}

const char *vta_bound_name(vta_bound b)
{
	switch (b) {
	case VTA_BOUND_ALU:
		return "alu";
	case VTA_BOUND_DRAM:
		return "dram";
	case VTA_BOUND_GEMM:
		break;
	}
	return "gemm";
}
