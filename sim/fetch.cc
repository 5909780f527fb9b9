/*
 * fetch.cc - the FETCH module (see fetch.h).
 */
#include "fetch.h"

#include <algorithm>

#include "vta_cost.h"

namespace vtasim {

fetch::fetch(sc_core::sc_module_name name, run_ctl &ctl, dram_port &port, insn_queue &load_q,
	     insn_queue &compute_q, insn_queue &store_q)
    : sc_core::sc_module(name), ctl_(ctl), port_(port), queues_{&load_q, &compute_q, &store_q}
{
	SC_THREAD(main_thread);
	set_stack_size(512 * 1024);
}

void fetch::reset()
{
	st_ = vta_module_stats{};
	state_ = module_state{};
	room_since_ = 0;
	room_open_ = false;
	next_ = 0;
	insn_bytes_ = 0;
}

void fetch::main_thread()
{
	for (uint64_t g = 0;;)
		run(g = ctl_.next_run(g));
}

void fetch::run(uint64_t g)
{
	const vta_config &cfg = ctl_.cfg;
	const uint64_t n = ctl_.insns->size();
	const uint64_t per_burst = vta_cost_fetch_burst_insns(&cfg);
	/* the launch: the host's start reaches FETCH (the run's fixed cost, FINISH's included) */
	if (next_ == 0 && cfg.launch_cycles && !ctl_.wait_cycles(cfg.launch_cycles, g, &st_.busy_cycles))
		return;
	while (next_ < n) {
		const uint64_t count = std::min(per_burst, n - next_);
		const uint64_t asked = run_ctl::now();
		state_ = module_state{activity::port, -1, (int64_t)next_};
		const uint64_t first = port_.fetch_burst(vta_cost_beats(&cfg, count * cfg.insn_bytes),
							  count * cfg.insn_bytes, next_);
		/* on an idle port the first beat comes `latency` after the request */
		const uint64_t start = std::max(first, asked + cfg.dram_latency_cycles) -
				       cfg.dram_latency_cycles;
		insn_bytes_ += count * cfg.insn_bytes;
		st_.stall_mem_cycles += start - asked;
		st_.busy_cycles += vta_cost_fetch_arrival(&cfg, count - 1);
		uint64_t dispatched = 0; /* the last dispatch of this burst */
		for (uint64_t j = 0; j < count; j++) {
			const int m = (*ctl_.module_of)[next_];
			insn_queue &q = *queues_[m];
			const uint64_t room0 = st_.stall_mem_cycles;
			room_since_ = run_ctl::now();
			room_open_ = true;
			while (q.full()) {
				state_ = module_state{activity::insn_room, m, (int64_t)next_};
				if (!ctl_.wait_list(q.read_or_run(), g, &st_.stall_mem_cycles))
					return;
			}
			room_open_ = false;
			if (!ctl_.current(g))
				return;
			uint64_t ready = start + vta_cost_fetch_ready(&cfg, j, count);
			if (cfg.fetch_dispatch == VTA_FETCH_BURST && j > 0) /* one per cycle */
				ready = std::max(ready, dispatched + 1);
			dispatched = std::max(ready, run_ctl::now());
			q.push((uint32_t)next_, ready);
			if (vtasim_insn_record *rec = ctl_.record(next_)) {
				rec->fetch_cycle = start - ctl_.t0;
				rec->arrive_cycle = start + vta_cost_fetch_arrival(&cfg, j) - ctl_.t0;
				rec->dispatch_cycle = dispatched - ctl_.t0;
				rec->fetch_port_cycles = j == 0 ? start - asked : 0;
				rec->fetch_room_cycles = st_.stall_mem_cycles - room0;
				rec->stage = VTASIM_STAGE_QUEUED;
			}
			next_++;
			st_.insns++;
		}
		/* the next burst is requested once this one has arrived (stream), or once all
		 * its instructions are dispatched (burst) */
		const uint64_t last = cfg.fetch_dispatch == VTA_FETCH_BURST
					      ? dispatched
					      : start + vta_cost_fetch_arrival(&cfg, count - 1);
		const uint64_t t = run_ctl::now();
		if (last > t && !ctl_.wait_cycles(last - t, g, nullptr))
			return;
	}
	state_ = module_state{};
}

void fetch::close_record(uint64_t end)
{
	if (!room_open_ || end < room_since_)
		return;
	if (vtasim_insn_record *rec = ctl_.record(next_))
		rec->fetch_room_cycles = end - room_since_;
}

} // namespace vtasim
