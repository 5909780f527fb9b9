/*
 * store_unit.cc - the STORE module (see store_unit.h).
 */
#include "store_unit.h"

#include "dma.h"
#include "vta_cost.h"
#include "vta_rules.h"

namespace vtasim {

store_unit::store_unit(sc_core::sc_module_name name, run_ctl &ctl, shared_hw &hw,
		       insn_queue &queue, token_map tokens)
    : unit_base(name, VTA_MODULE_STORE, ctl, hw, queue, tokens)
{
}

bool store_unit::execute(uint64_t idx, const vta_insn &insn, uint64_t g)
{
	const vta_config &cfg = ctl_.cfg;
	const vta_mem_insn &m = insn.mem;
	if (vta_insn_is_nop(&insn))
		return ctl_.wait_cycles(cfg.insn_overhead_cycles, g, &st_.busy_cycles);
	vta_error sub{};
	if (vta_store_check(&cfg, &m, ctl_.dram->size, &sub) != VTA_OK) {
		ctl_.fail_insn(idx, sub.status, sub.detail);
		return false;
	}
	if (!ctl_.wait_cycles(cfg.insn_overhead_cycles, g, &st_.busy_cycles))
		return false;
	vta_dma_plan plan = vta_cost_dma_plan_of(&m, cfg.out_elem_bytes);
	state_.what = activity::port;
	if (!hw_.port->transfer(plan, g, st_))
		return false;
	sram &out = *hw_.mem[VTA_MEM_OUT];
	vtasim_store_exec(&cfg, &m, out.bytes(), ctl_.dram);
	out.note_read_range(m.sram_base, (uint64_t)m.y_size * m.x_size, ctl_.epoch());
	hw_.dram_write_bytes += vta_cost_dma_bytes(&cfg, &m);
	return true;
}

} // namespace vtasim
