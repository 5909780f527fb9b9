/*
 * dram_port.cc - the shared DRAM port (see dram_port.h).
 */
#include "dram_port.h"

#include <algorithm>

namespace vtasim {

dram_port::dram_port(sc_core::sc_module_name name, run_ctl &ctl)
    : sc_core::sc_module(name), ctl_(ctl)
{
}

void dram_port::reset()
{
	free_at_ = run_ctl::now();
	busy_ = 0;
}

uint64_t dram_port::reserve(uint64_t beats, uint64_t bytes, int module, uint64_t insn)
{
	const uint64_t now = run_ctl::now();
	uint64_t start = std::max(now, free_at_);
	free_at_ = start + beats;
	busy_ += beats;
	if (ctl_.events) {
		vtasim_port_burst b{};
		b.insn = insn;
		b.ask_cycle = now - ctl_.t0;
		b.start_cycle = start - ctl_.t0;
		b.beats = beats;
		b.bytes = bytes;
		b.module = (uint8_t)module;
		ctl_.events->bursts.push_back(b);
	}
	return start;
}

bool dram_port::transfer(const vta_dma_plan &plan, uint64_t g, vta_module_stats &st,
			 int module, uint64_t insn, uint64_t *first_beat)
{
	const vta_config &cfg = ctl_.cfg;
	if (plan.runs == 0)
		return ctl_.current(g);
	const uint64_t mb = cfg.dram_max_burst_bytes;
	/* every burst of a run is full but its last: two burst lengths per transfer */
	const uint64_t full_beats = vta_cost_beats(&cfg, mb);
	const uint64_t rest = plan.run_bytes % mb;
	const uint64_t rest_beats = rest ? vta_cost_beats(&cfg, rest) : full_beats;
	for (uint64_t run = 0; run < plan.runs; run++) {
		for (uint64_t done = 0; done < plan.run_bytes; done += mb) {
			bool last = run + 1 == plan.runs && done + mb >= plan.run_bytes;
			const uint64_t bytes = std::min(mb, plan.run_bytes - done);
			const uint64_t beats = bytes == mb ? full_beats : rest_beats;
			uint64_t t = run_ctl::now();
			uint64_t start = reserve(beats, bytes, module, insn);
			if (first_beat && run == 0 && done == 0)
				*first_beat = start;
			/* the latency follows the last beat: one wait for both */
			uint64_t tail = last ? cfg.dram_latency_cycles : 0;
			if (!ctl_.wait_cycles(start + beats + tail - t, g, nullptr))
				return false;
			st.stall_mem_cycles += start - t;
			st.busy_cycles += beats + tail;
		}
	}
	return true;
}

} // namespace vtasim
