/*
 * unit_base.cc - the in-order instruction loop, the dependency protocol and the 2D LOAD
 * shared by the LOAD, COMPUTE and STORE modules (see unit_base.h).
 */
#include "unit_base.h"

#include "dma.h"
#include "timing.h"

namespace vtasim {

unit_base::unit_base(sc_core::sc_module_name name, run_ctl &ctl, shared_hw &hw,
		     insn_queue &queue, token_map tokens)
    : sc_core::sc_module(name), ctl_(ctl), hw_(hw), queue_(queue), tokens_(tokens)
{
}

void unit_base::reset()
{
	st_ = vtasim_module_stats{};
	state_ = module_state{};
}

void unit_base::thread_main()
{
	uint64_t g = 0;
	for (;;) {
		while (g == ctl_.gen)
			wait(ctl_.run_ev);
		g = ctl_.gen;
		run(g);
	}
}

void unit_base::run(uint64_t g)
{
	for (;;) {
		state_ = module_state{};
		while (queue_.empty())
			if (!ctl_.wait_list(queue_.written_or_run(), g, nullptr))
				return;
		if (!ctl_.current(g))
			return;
		uint64_t idx = queue_.front();
		const vta_insn &insn = (*ctl_.insns)[idx];
		state_.insn = (int64_t)idx;
		if (!acquire(insn, g))
			return;
		state_.what = activity::busy;
		state_.queue = -1;
		if (!execute(idx, insn, g))
			return;
		release(insn);
		st_.insns++;
		queue_.pop();
		if (insn.opcode == VTA_OP_FINISH) {
			ctl_.finish();
			return;
		}
	}
}

bool unit_base::acquire(const vta_insn &insn, uint64_t g)
{
	token_queue *pops[2] = {insn.deps.pop_prev ? tokens_.pop_prev : nullptr,
				insn.deps.pop_next ? tokens_.pop_next : nullptr};
	token_queue *pushes[2] = {insn.deps.push_prev ? tokens_.push_prev : nullptr,
				  insn.deps.push_next ? tokens_.push_next : nullptr};
	/* tokens only arrive and room only appears while we wait (we alone pop and push
	 * these ends), so waiting for each missing condition in turn is enough */
	for (;;) {
		if (!ctl_.current(g))
			return false;
		token_queue *wait_pop = nullptr, *wait_room = nullptr;
		for (token_queue *q : pops)
			if (q && !q->can_pop() && !wait_pop)
				wait_pop = q;
		for (token_queue *q : pushes)
			if (q && !q->can_push() && !wait_room)
				wait_room = q;
		if (wait_pop) {
			state_.what = activity::pop;
			state_.queue = wait_pop->id();
			if (!ctl_.wait_list(wait_pop->pushed_or_run(), g, &st_.stall_dep_cycles))
				return false;
		} else if (wait_room) {
			state_.what = activity::room;
			state_.queue = wait_room->id();
			if (!ctl_.wait_list(wait_room->popped_or_run(), g, &st_.stall_dep_cycles))
				return false;
		} else {
			break;
		}
	}
	for (token_queue *q : pops)
		if (q)
			q->pop();
	return true;
}

void unit_base::release(const vta_insn &insn)
{
	if (insn.deps.push_prev && tokens_.push_prev)
		tokens_.push_prev->push();
	if (insn.deps.push_next && tokens_.push_next)
		tokens_.push_next->push();
}

std::string unit_base::describe(size_t cut) const
{
	std::string s = basename();
	if (queue_.empty())
		return s + " idle";
	uint64_t idx = queue_.front();
	const vta_insn &insn = (*ctl_.insns)[idx];
	std::string text = disasm_of(ctl_, idx);
	if (text.size() > cut && cut >= 3)
		text = text.substr(0, cut - 3) + "...";
	s += " insn " + std::to_string(idx) + " (" + text + ")";
	std::string waits;
	auto add = [&](const std::string &w) { waits += (waits.empty() ? " " : " and ") + w; };
	token_queue *pops[2] = {insn.deps.pop_prev ? tokens_.pop_prev : nullptr,
				insn.deps.pop_next ? tokens_.pop_next : nullptr};
	token_queue *pushes[2] = {insn.deps.push_prev ? tokens_.push_prev : nullptr,
				  insn.deps.push_next ? tokens_.push_next : nullptr};
	for (token_queue *q : pops)
		if (q && !q->can_pop())
			add(std::string(token_name(q->id())) + " (0 tokens)");
	for (token_queue *q : pushes)
		if (q && !q->can_push())
			add("room in " + std::string(token_name(q->id())) + " (full, " +
			    std::to_string(q->count()) + " tokens)");
	if (!waits.empty())
		return s + " waits on" + waits;
	return s + (state_.what == activity::port ? " on the DRAM port" : " executing");
}

bool unit_base::do_load(uint64_t idx, const vta_insn &insn, uint64_t g)
{
	const vta_config &cfg = ctl_.cfg;
	const vta_mem_insn &m = insn.mem;
	if (vta_insn_is_nop(&insn))
		return ctl_.wait_cycles(cfg.insn_overhead_cycles, g, &st_.busy_cycles);
	vta_error sub{};
	if (vtasim_load_check(&cfg, &m, ctl_.dram, &sub) != VTA_OK) {
		ctl_.fail_insn(idx, sub.status, sub.detail);
		return false;
	}
	if (!ctl_.wait_cycles(cfg.insn_overhead_cycles, g, &st_.busy_cycles))
		return false;
	vta_mem mem = (vta_mem)m.mem_type;
	vtasim_dma_plan plan = vtasim_dma_plan_of(&m, vta_config_dram_elem_bytes(&cfg, mem));
	state_.what = activity::port;
	if (!hw_.port->transfer(plan, g, st_))
		return false;

	vta_mem target = mem == VTA_MEM_ACC_8BIT ? VTA_MEM_ACC : mem;
	sram &s = *hw_.mem[target];
	vtasim_load_exec(&cfg, &m, ctl_.dram, s.bytes());
	uint64_t rows = vtasim_load_rows(&m);
	s.note_write_range(m.sram_base, rows, ctl_.epoch());
	if (mem == VTA_MEM_UOP) {
		/* decode once here, so GEMM/ALU never decode in their loops */
		auto &uops = s.uops();
		for (uint64_t r = m.sram_base; r < m.sram_base + rows; r++) {
			vta_uop u{};
			bool ok = vta_uop_decode(&cfg, s.bytes() + r * VTA_UOP_BYTES, &u, nullptr) ==
				  VTA_OK;
			uops[r] = sram::decoded_uop{u.dst, u.src, u.wgt, ok};
		}
	}
	hw_.dram_read_bytes[mem] += vtasim_dma_bytes(&cfg, &m);
	return true;
}

} // namespace vtasim
