/*
 * dram_port.h - the one DRAM port that FETCH, LOAD, COMPUTE (UOP/ACC loads) and STORE share.
 *
 * Models: a pipelined memory port with bandwidth bus_bits/8 bytes per cycle and a fixed
 * latency. The port is a resource with a next-free time; clients queue first-come
 * first-served in simulated-time order, one burst at a time, so a long transfer lets
 * other clients in between its bursts.
 * Timing: vta_cost.h's (a transfer pays the latency once: its requests are pipelined).
 * Waiting for the port is the client's stall_mem.
 * Approximates: no DRAM banks, pages, refresh or read/write turnaround; latency does not
 * occupy the port (outstanding requests overlap).
 */
#ifndef VTASIM_DRAM_PORT_H
#define VTASIM_DRAM_PORT_H

#include <systemc>

#include <cstdint>

#include "run_ctl.h"
#include "vta_cost.h"
#include "vtasim_api.h"

namespace vtasim {

class dram_port : public sc_core::sc_module {
public:
	dram_port(sc_core::sc_module_name name, run_ctl &ctl);

	void reset();

	/* Reserve the port for `beats` cycles for a request made now; returns the start. The
	 * burst moves `bytes` for instruction insn of `module` (VTA_STATS_*), which a
	 * recorded run keeps (run_events.h). */
	uint64_t reserve(uint64_t beats, uint64_t bytes, int module, uint64_t insn);

	/* Move a planned 2D transfer of instruction insn of `module`: bursts in order, then
	 * the latency. Charges the waits to st (busy: beats and latency; stall_mem: waiting
	 * for the port). Returns false when the run stopped or was reset meanwhile.
	 * first_beat receives the kernel time the first burst started on the port (the LUT
	 * decoder starts from it). */
	bool transfer(const vta_dma_plan &plan, uint64_t g, vta_module_stats &st, int module,
		      uint64_t insn, uint64_t *first_beat = nullptr);

	uint64_t busy_cycles() const { return busy_; }

private:
	run_ctl &ctl_;
	uint64_t free_at_ = 0; /* kernel time at which the port is next free */
	uint64_t busy_ = 0;
};

} // namespace vtasim

#endif /* VTASIM_DRAM_PORT_H */
