/*
 * run_events.h - what a recorded run keeps beside its instruction records (vtasim_api.h):
 * the bursts on the DRAM port, the live bytes of the SRAMs, and the ALU lanes that
 * wrapped. The modules append to it only while run_ctl::events is set (a recorded run),
 * a few stores per event and never a wait, so recording cannot change what happens or
 * when.
 *
 * Live bytes are known only once the run is over (a value becomes live when a later
 * instruction reads it), so the run logs the time of every SRAM epoch (sram_live.h) and
 * turns the SRAMs' per-epoch differences into steps at the end.
 */
#ifndef VTASIM_RUN_EVENTS_H
#define VTASIM_RUN_EVENTS_H

#include <cstdint>
#include <vector>

#include "vtasim_api.h"

namespace vtasim {

struct run_events {
	std::vector<vtasim_port_burst> bursts;
	std::vector<vtasim_live_step> live;
	std::vector<vtasim_alu_wrap> wraps;
	std::vector<uint64_t> epoch_cycles; /* the cycle of SRAM epoch e is epoch_cycles[e - 1] */

	void clear()
	{
		bursts.clear();
		live.clear();
		wraps.clear();
		epoch_cycles.clear();
	}

	/* The live steps from each SRAM's per-epoch differences (sram_live::deltas(), by
	 * VTA_STATS_UOP .. _OUT). */
	void make_live(const std::vector<int64_t> *const deltas[VTA_STATS_SRAMS])
	{
		live.clear();
		int64_t bytes[VTA_STATS_SRAMS] = {};
		for (size_t e = 1; e <= epoch_cycles.size(); e++) {
			bool moved = false;
			for (int s = 0; s < VTA_STATS_SRAMS; s++)
				if (e < deltas[s]->size() && (*deltas[s])[e]) {
					bytes[s] += (*deltas[s])[e];
					moved = true;
				}
			if (!moved)
				continue;
			vtasim_live_step step{};
			step.cycle = epoch_cycles[e - 1];
			for (int s = 0; s < VTA_STATS_SRAMS; s++)
				step.bytes[s] = (uint64_t)bytes[s];
			live.push_back(step);
		}
	}
};

} // namespace vtasim

#endif /* VTASIM_RUN_EVENTS_H */
