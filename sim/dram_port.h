/*
 * dram_port.h - the one DRAM port that FETCH, LOAD, COMPUTE (UOP/ACC loads) and STORE share.
 *
 * Models: a pipelined memory port with bandwidth bus_bits/8 bytes per cycle and a fixed
 * latency. The port is a resource with a next-free time; requests are served first-come
 * first-served in simulated-time order, one burst at a time. A transfer asks for its next
 * burst when its previous one ends, so a long transfer lets other clients in between its
 * bursts.
 * Same-cycle requests, a fixed rule (not the kernel's order of equal-time wake-ups): a
 * transfer's next burst, asked for at cycle t, goes before a new request made at t; new
 * requests made at the same cycle go FETCH, COMPUTE, STORE, LOAD.
 * Timing: vta_cost.h's (a transfer pays the latency once: its requests are pipelined).
 * Waiting for the port is the client's stall_mem.
 * Approximates: no DRAM banks, pages, refresh or read/write turnaround; latency does not
 * occupy the port (outstanding requests overlap).
 *
 * Host cost: a transfer's bursts are not waited for one by one. The port serves the
 * requests of the transfers in flight lazily, in the order above, up to the current time
 * whenever a client arrives or wakes, and projects when each transfer in flight will end if
 * no new request comes; a transfer's thread waits once, for its projected end, and is woken
 * again at a new end when a later request moves it. Alone on the port (the usual case) a
 * transfer costs one wait, whatever its number of bursts.
 */
#ifndef VTASIM_DRAM_PORT_H
#define VTASIM_DRAM_PORT_H

#include <systemc>

#include <cstdint>

#include "run_ctl.h"
#include "vta_cost.h"
#include "vta_engine.h"
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

	/* Move a planned 2D transfer of instruction insn of `module` (one transfer per module
	 * at a time): bursts in order, then the latency. Charges the waits to st (busy: beats
	 * and latency; stall_mem: waiting for the port). Returns false when the run stopped
	 * or was reset meanwhile. first_beat receives the kernel time the first burst started
	 * on the port (the LUT decoder starts from it). */
	bool transfer(const vta_dma_plan &plan, uint64_t g, vta_module_stats &st, int module,
		      uint64_t insn, uint64_t *first_beat = nullptr);

	/* Serve the requests made up to now (the end of a run: its record and statistics
	 * then hold every burst asked for). */
	void settle() { serve(run_ctl::now(), true); }

	uint64_t busy_cycles() const { return busy_; }

private:
	/* A transfer in flight: its bursts, the next one's request time, its projected end. */
	struct flight {
		bool active = false;
		uint64_t next = 0, total = 0; /* bursts served, bursts in all */
		uint64_t per_run = 0;         /* bursts per run */
		uint64_t full_beats = 0, last_beats = 0; /* a run's full bursts and its last */
		uint64_t full_bytes = 0, last_bytes = 0;
		uint64_t ask_at = 0; /* kernel time the next burst is asked for */
		uint64_t end_at = 0; /* projected end (last beat + latency), its wake-up's time */
		uint64_t insn = 0;
		vta_module_stats *st = nullptr;
		uint64_t *first_beat = nullptr; /* receives the first burst's start */
		sc_core::sc_event wake;           /* at the projected end */
		sc_core::sc_event_or_list wake_or_run;

		bool last_of_run(uint64_t k) const { return k % per_run == per_run - 1; }
		uint64_t beats(uint64_t k) const { return last_of_run(k) ? last_beats : full_beats; }
		/* beats of bursts [a, b) */
		uint64_t beats_between(uint64_t a, uint64_t b) const;
	};

	/* Whether module a's request at ask_a (a new one: new_a) goes before b's. */
	static bool before(int a, uint64_t ask_a, bool new_a, int b, uint64_t ask_b, bool new_b);
	/* Serve, in that order, the requests asked for before `until`, and those at `until`
	 * that are sure to go first (a transfer's next burst), or all of them when `all` (no
	 * request can come at `until` any more). A new request at `until` waits: another
	 * client may still ask at `until` and go before it. */
	void serve(uint64_t until, bool all);
	/* Give the port the burst f asks for next (asked for at f.ask_at) and, back to back,
	 * the next ones f asks for by `limit`, in one step. */
	void serve_run(flight &f, int module, uint64_t limit);
	/* Project every transfer's end as if no request came after now, and move the wake-ups
	 * of those whose end changed. */
	void project();
	/* A burst on the run's record (run_events.h). */
	void record(uint64_t ask, uint64_t start, uint64_t beats, uint64_t bytes, int module,
		    uint64_t insn);

	run_ctl &ctl_;
	uint64_t free_at_ = 0; /* kernel time at which the port is next free */
	uint64_t busy_ = 0;
	flight flights_[VTA_STATS_MODULES];
};

} // namespace vtasim

#endif /* VTASIM_DRAM_PORT_H */
