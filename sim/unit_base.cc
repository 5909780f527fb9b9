/*
 * unit_base.cc - the in-order instruction loop and the dependency protocol of the LOAD,
 * COMPUTE and STORE modules, and the 2D LOAD and STORE (see unit_base.h).
 */
#include "unit_base.h"

#include "dma.h"
#include "vta_cost.h"
#include "vta_rules.h"

namespace vtasim {

unit_base::unit_base(sc_core::sc_module_name name, vta_module module, run_ctl &ctl,
		     shared_hw &hw, insn_queue &queue, token_map tokens)
    : sc_core::sc_module(name), ctl_(ctl), hw_(hw), queue_(queue), tokens_(tokens),
      module_(module)
{
	SC_THREAD(thread_main);
	set_stack_size(512 * 1024);
}

void unit_base::reset()
{
	st_ = vta_module_stats{};
	state_ = module_state{};
	wait_open_ = false;
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
		/* the head stays queued (holding its slot) until its pushes are done */
		const insn_queue::entry head = queue_.front();
		const uint64_t idx = head.idx;
		const vta_insn &insn = (*ctl_.insns)[idx];
		state_.insn = (int64_t)idx;
		if (head.ready > run_ctl::now()) { /* its bytes are still on the way */
			state_.what = activity::arriving;
			if (!ctl_.wait_cycles(head.ready - run_ctl::now(), g, nullptr))
				return;
		}
		vtasim_insn_record *rec = ctl_.record(idx);
		/* stamp rec (when recording) with the stage the instruction reaches now */
		auto reached = [&](uint64_t vtasim_insn_record::*at, vtasim_insn_stage stage) {
			if (rec) {
				rec->*at = ctl_.cycles();
				rec->stage = stage;
			}
		};
		reached(&vtasim_insn_record::wait_cycle, VTASIM_STAGE_WAITING);
		if (!acquire(insn, g, rec))
			return;
		state_.what = activity::busy;
		state_.queue = -1;
		const uint64_t port0 = st_.stall_mem_cycles; /* only the port charges it here */
		reached(&vtasim_insn_record::start_cycle, VTASIM_STAGE_EXECUTING);
		ctl_.event(VTASIM_EVENT_START, idx, module_);
		vta_error why;
		vta_error_clear(&why);
		if (vta_work_budget_check(&ctl_.cfg, idx, ctl_.host_t0, &why) != VTA_OK) {
			ctl_.fail_insn(idx, why.status, why.detail);
			return;
		}
		if (!execute(idx, insn, g))
			return;
		st_.insns++;
		reached(&vtasim_insn_record::end_cycle, VTASIM_STAGE_PUSHING);
		ctl_.event(VTASIM_EVENT_END, idx, module_);
		if (rec)
			rec->port_cycles = st_.stall_mem_cycles - port0;
		if (insn.opcode == VTA_OP_FINISH) {
			reached(&vtasim_insn_record::retire_cycle, VTASIM_STAGE_RETIRED);
			ctl_.finish(); /* VTA signals done at FINISH: its pushes are moot */
			return;
		}
		if (!release(insn, g, rec))
			return;
		reached(&vtasim_insn_record::retire_cycle, VTASIM_STAGE_RETIRED);
		queue_.pop();
	}
}

bool unit_base::acquire(const vta_insn &insn, uint64_t g, vtasim_insn_record *rec)
{
	token_queue *pops[2], *pushes[2];
	queues_of(insn, pops, pushes);
	/* only this module pops these queues, so a token seen stays until taken */
	for (token_queue *q : pops)
		if (q && !wait_token(*q, true, g, rec))
			return false;
	if (!ctl_.current(g))
		return false;
	for (token_queue *q : pops)
		if (q)
			q->pop();
	return true;
}

bool unit_base::release(const vta_insn &insn, uint64_t g, vtasim_insn_record *rec)
{
	/* blocking FIFO writes, in the order push_prev, push_next */
	token_queue *pops[2], *pushes[2];
	queues_of(insn, pops, pushes);
	for (token_queue *q : pushes) {
		if (!q)
			continue;
		if (!wait_token(*q, false, g, rec) || !ctl_.current(g))
			return false;
		q->push();
	}
	return true;
}

bool unit_base::wait_token(token_queue &q, bool pop, uint64_t g, vtasim_insn_record *rec)
{
	uint64_t &stall = pop ? st_.stall_dep_cycles : st_.stall_mem_cycles;
	while (pop ? !q.can_pop() : !q.can_push()) {
		state_.what = pop ? activity::pop : activity::room;
		state_.queue = q.id();
		const uint64_t before = stall;
		wait_since_ = run_ctl::now();
		wait_open_ = true;
		const bool on = ctl_.wait_list(pop ? q.pushed_or_run() : q.popped_or_run(), g, &stall);
		wait_open_ = false;
		/* what the statistic was charged, even if the run stopped (not if it was reset:
		 * rec belongs to that old run) */
		if (rec && g == ctl_.gen)
			(pop ? rec->pop_cycles : rec->push_cycles)[q.id()] += stall - before;
		if (!on)
			return false;
	}
	return true;
}

void unit_base::close_record(uint64_t end)
{
	if (!wait_open_ || state_.insn < 0 || end < wait_since_)
		return;
	vtasim_insn_record *rec = ctl_.record((uint64_t)state_.insn);
	if (!rec || state_.queue < 0 || state_.queue >= VTA_QUEUE_COUNT)
		return;
	if (state_.what == activity::pop)
		rec->pop_cycles[state_.queue] += end - wait_since_;
	else if (state_.what == activity::room)
		rec->push_cycles[state_.queue] += end - wait_since_;
}

std::string unit_base::describe(size_t cut) const
{
	std::string s = basename();
	if (queue_.empty())
		return s + " idle";
	uint64_t idx = queue_.front().idx;
	const vta_insn &insn = (*ctl_.insns)[idx];
	char buf[256];
	std::string text = vta_disasm_insn(&insn, buf, sizeof(buf));
	if (text.size() > cut && cut >= 3)
		text = text.substr(0, cut - 3) + "...";
	s += " insn " + std::to_string(idx) + " (" + text + ")";
	switch (state_.what) {
	case activity::pop: {
		std::string waits;
		token_queue *pops[2], *pushes[2];
		queues_of(insn, pops, pushes);
		for (token_queue *q : pops)
			if (q && !q->can_pop())
				waits += std::string(waits.empty() ? " waits on " : " and ") +
					 vta_queue_name(q->id()) + " (0 tokens)";
		return s + waits;
	}
	case activity::room: {
		const token_queue *q = state_.queue >= 0 ? tokens_[state_.queue] : nullptr;
		return s + " executed, waits for room in " + vta_queue_name(state_.queue) +
		       " (full, " + std::to_string(q ? q->count() : 0) + " tokens)";
	}
	case activity::port: return s + " on the DRAM port";
	case activity::arriving: return s + " being fetched";
	default: return s + " executing";
	}
}

bool unit_base::do_load(uint64_t idx, const vta_insn &insn, uint64_t g)
{
	const vta_config &cfg = ctl_.cfg;
	const vta_mem_insn &m = insn.mem;
	if (vta_insn_is_nop(&insn))
		return ctl_.wait_cycles(cfg.insn_overhead_cycles, g, &st_.busy_cycles);
	vta_error sub{};
	if (vta_load_check(&cfg, &m, ctl_.dram->size, &sub) != VTA_OK ||
	    (m.lut_bw && vta_lut_use_check(&cfg, &m, &hw_.lut.slots[m.lut_slot], &sub) != VTA_OK))
		return ctl_.fail_insn(idx, sub.status, sub.detail);
	if (!ctl_.wait_cycles(cfg.insn_overhead_cycles, g, &st_.busy_cycles))
		return false;
	vta_mem mem = (vta_mem)m.mem_type;
	vta_dma_plan plan = vta_cost_dma_plan_of(&m, vta_load_elem_bytes(&cfg, &m), false);
	state_.what = activity::port;
	uint64_t first_beat = run_ctl::now();
	if (!hw_.port->transfer(plan, g, st_, module_ + 1, mem, idx, &first_beat))
		return false;
	hw_.dram_read_bytes[mem] += vta_cost_dma_bytes(&cfg, &m);
	if (vta_mem_is_table(mem)) {
		hw_.lut.table_load(m, *ctl_.dram);
		return true;
	}
	if (m.lut_bw)
		return decode_load(idx, m, g, first_beat);

	sram &s = *hw_.mem[mem]; /* the SRAM it writes: ACC_8BIT's is ACC */
	vtasim_load_exec(&cfg, &m, ctl_.dram, s.bytes());
	uint64_t rows = vta_load_sram_rows(&m);
	s.note_write_range(m.sram_base, rows, ctl_.epoch());
	if (mem == VTA_MEM_UOP) {
		/* decode once here, so GEMM/ALU never decode in their loops */
		auto &uops = s.uops();
		for (uint64_t r = m.sram_base; r < m.sram_base + rows; r++) {
			vta_uop u{};
			bool ok = vta_uop_decode(&cfg,
						 s.bytes() + r * cfg.sram[VTA_MEM_UOP].elem_bytes,
						 &u, nullptr) == VTA_OK;
			uops[r] = sram::decoded_uop{u.dst, u.src, u.wgt, ok};
		}
	}
	return true;
}

bool unit_base::do_store(uint64_t idx, const vta_insn &insn, uint64_t g)
{
	const vta_config &cfg = ctl_.cfg;
	const vta_mem_insn &m = insn.mem;
	if (vta_insn_is_nop(&insn))
		return ctl_.wait_cycles(cfg.insn_overhead_cycles, g, &st_.busy_cycles);
	vta_error sub{};
	if (vta_store_check(&cfg, &m, ctl_.dram->size, &sub) != VTA_OK)
		return ctl_.fail_insn(idx, sub.status, sub.detail);
	if (!ctl_.wait_cycles(cfg.insn_overhead_cycles, g, &st_.busy_cycles))
		return false;
	vta_dma_plan plan = vta_cost_dma_plan_of(&m, cfg.sram[VTA_MEM_OUT].elem_bytes, true);
	state_.what = activity::port;
	if (!hw_.port->transfer(plan, g, st_, module_ + 1, VTA_MEM_OUT, idx))
		return false;
	sram &out = *hw_.mem[VTA_MEM_OUT];
	vtasim_store_exec(&cfg, &m, out.bytes(), ctl_.dram);
	out.note_read_range(m.sram_base, (uint64_t)m.y_size * m.x_size, ctl_.epoch());
	hw_.dram_write_bytes += vta_cost_dma_bytes(&cfg, &m);
	return true;
}

bool unit_base::decode_load(uint64_t idx, const vta_mem_insn &m, uint64_t g,
			    uint64_t first_beat)
{
	/* the decoder starts on the first data and cannot end before the last */
	const vta_config &cfg = ctl_.cfg;
	const uint64_t data_from = first_beat, now = run_ctl::now();
	vta_rtl_lut *rtl = hw_.rtl ? hw_.rtl->lut() : nullptr;
	std::vector<uint8_t> &rows = lut_rows_;
	vta_error why{};
	uint64_t decode = 0;
	bool ok = true;
	if (rtl) /* the RTL's handshakes decide the cycles: run it first */
		ok = hw_.lut.decode_rtl(cfg, m, *ctl_.dram, rtl, data_from - ctl_.t0, rows, &decode,
					why);
	else
		decode = vta_cost_lut_decode_cycles(&cfg, &m);
	const uint64_t span = now > data_from ? now - data_from : 0;
	hw_.lut.st.busy_cycles += decode;
	hw_.lut.st.stall_cycles += span > decode ? span - decode : 0;
	if (vtasim_insn_record *r = ctl_.record(idx))
		r->unit_cycles = decode;
	state_.what = activity::busy;
	if (data_from + decode > now &&
	    !ctl_.wait_cycles(data_from + decode - now, g, &st_.busy_cycles))
		return false;
	if (!rtl)
		ok = hw_.lut.decode(cfg, m, *ctl_.dram, rows, why);
	if (!ok)
		return ctl_.fail_insn(idx, why.status, why.detail);
	sram &s = *hw_.mem[(vta_mem)m.mem_type];
	hw_.lut.commit(cfg, m, rows, s.bytes());
	s.note_write_range(m.sram_base, vta_load_sram_rows(&m), ctl_.epoch());
	return true;
}

} // namespace vtasim
