/*
 * dram_port.h - the DRAM port that FETCH, LOAD, COMPUTE (UOP/ACC loads) and STORE share: an
 * AXI master as VTA's memory engine drives it.
 *
 * Models (the channels' rules are vta_cost.h's, vta_read_chan and vta_write_chan):
 *  - reads: each row of a transfer is its own bursts (split at dram.burst_boundary_bytes and
 *    dram.max_burst_bytes); a client issues its bursts one after another without waiting
 *    for data; one address handshake per cycle over all clients, and at most
 *    dram.max_read_bursts bursts in flight, a burst's tag freed by its last beat; data
 *    dram.latency_cycles after the request at the earliest, whole bursts in request order
 *    over one data channel. Same-cycle requests go FETCH, COMPUTE's UOP loads, LOAD,
 *    COMPUTE's ACC loads (VTA's fixed priority: fetch, uop, inp, wgt, acc).
 *  - writes (STORE only): a data channel of its own; a burst's address waits until fewer
 *    than dram.max_write_bursts await their response, which comes dram.latency_cycles
 *    (plus dram.write_ack_cycles of handshakes) after its last beat. STORE feeds the beats
 *    at its own rate (timing.store_read_cycles per OUT element read).
 *  - a LOAD with padding ends no earlier than its SRAM has taken every data beat and every
 *    padded element (timing.pad_elem_cycles each), which VTA writes while no data arrives.
 * A read burst whose data comes later than the latency after its request and after the
 * transfer's previous burst waited for the port: those cycles are its client's stall_mem, the
 * rest of the transfer busy (a STORE's waits for responses are its time on an idle port).
 * Approximates: no DRAM banks, pages, refresh or read/write turnaround, and no shared data
 * bus behind the two channels; a client's requests are ready one cycle apart.
 *
 * Host cost: per burst, never per cycle. Reads are served lazily: whenever a client arrives
 * or wakes, the port issues the requests of the transfers in flight up to the current time,
 * in the order above, and projects when each transfer will end if no new request comes; a
 * transfer's thread waits once, for its projected end, and is woken again at a new end when
 * a later request moves it. The projection keeps the requests it foresaw and the port's state
 * after them: serving them later, when no request came between, takes that state instead of
 * walking the bursts a second time (the same calls made them, so the same times). A STORE,
 * the write channel's one client, is scheduled whole when it starts.
 */
#ifndef VTASIM_DRAM_PORT_H
#define VTASIM_DRAM_PORT_H

#include <systemc>

#include <cstdint>
#include <vector>

#include "run_ctl.h"
#include "vta_cost.h"
#include "vta_engine.h"
#include "vtasim_api.h"

namespace vtasim {

class dram_port : public sc_core::sc_module {
public:
	dram_port(sc_core::sc_module_name name, run_ctl &ctl);

	void reset();

	/* FETCH reads `bytes` in one burst of `beats`, asked for now; returns the kernel time
	 * of its first data beat. */
	uint64_t fetch_burst(uint64_t beats, uint64_t bytes, uint64_t insn);

	/* Move a planned 2D transfer of instruction insn of `module` (VTA_STATS_LOAD, _COMPUTE
	 * or _STORE; one transfer per module at a time) of memory type `mem`. Charges st (stall_mem:
	 * its bursts' waits for the port; busy: the rest). Returns false when the
	 * run stopped or was reset meanwhile. first_beat receives the kernel time of the first
	 * data beat (the LUT decoder starts from it). */
	bool transfer(const vta_dma_plan &plan, uint64_t g, vta_module_stats &st, int module,
		      vta_mem mem, uint64_t insn, uint64_t *first_beat = nullptr);

	/* Issue the requests made up to now (the end of a run: its record and statistics then
	 * hold every burst asked for, in time order). */
	void settle();

	/* Cycles the data channels were busy, both together. */
	uint64_t busy_cycles() const { return busy_; }

private:
	/* Where a read transfer's bursts are: what project() copies. */
	struct cursor {
		vta_burst_walk walk{};
		uint64_t next_bytes = 0; /* the next burst's bytes; 0: all issued */
		uint64_t ask_at = 0;     /* kernel time the next burst is asked for */
		uint64_t data_end = 0;   /* the last issued burst's last beat */
	};
	/* A read transfer in flight: its bursts, its next request, its end. */
	struct flight {
		bool active = false;
		vta_dma_plan plan{};
		cursor cur;
		uint64_t fill_end = 0;   /* the SRAM's padding fill */
		uint64_t waited = 0;     /* its bursts' data later than the latency allows */
		uint64_t end_at = 0;     /* projected end, its wake-up's time */
		int rank = 0;            /* same-cycle order: lower first */
		uint64_t insn = 0;
		bool first = true;
		uint64_t *first_beat = nullptr;
		sc_core::sc_event wake;
		sc_core::sc_event_or_list wake_or_run;
	};

	/* A request project() foresaw: its flight, ask, address handshake (the earliest, which
	 * rises request by request), bytes, earliest data by the latency and its times. */
	struct foreseen {
		int m;
		uint64_t ask, ready, bytes, due;
		vta_burst_time t;
	};
	/* The flight whose request goes next, by cursors cur (-1: none pending). */
	int next_of(const cursor *cur) const;
	/* Whether flight m is the only one with requests pending at cursors cur. */
	bool alone_pending(const cursor *cur, int m) const;
	/* Issue, in order, the requests whose address handshake comes before `until`, or at
	 * `until` too when `all` (no request can come at `until` any more). */
	void serve(uint64_t until, bool all);
	/* The bookkeeping of one request served: wait, busy beats, record, first beat. */
	void served(const foreseen &r);
	/* Issue the next burst of flight m at cursor c on channel ch, its address handshake
	 * at `ready` at the earliest (vta_read_chan_ready's), and move c past it. */
	foreseen request(vta_read_chan &ch, int m, cursor &c, uint64_t ready) const;
	/* Project every read transfer's end as if no request came after now, and move the
	 * wake-ups of those whose end changed. */
	void project();
	bool read_transfer(flight &f, uint64_t g);
	bool write_transfer(const vta_dma_plan &plan, uint64_t g, vta_module_stats &st,
			    uint64_t insn);
	/* A burst on the run's record (run_events.h). */
	void record(uint64_t ask, uint64_t start, uint64_t cycles, uint64_t bytes, int module,
		    uint64_t insn);

	run_ctl &ctl_;
	vta_read_chan rd_{};
	vta_write_chan wr_{};
	vta_read_chan scratch_{}; /* project()'s copy of rd_ */
	uint64_t busy_ = 0;
	flight flights_[VTA_STATS_MODULES];
	/* The last projection: its requests from the state it started from (seen_at_ of them
	 * served since), the channel and cursors after the last; void once a flight ends with
	 * requests left (a budget ran out) or the port resets. */
	std::vector<foreseen> seen_;
	size_t seen_at_ = 0;
	bool seen_valid_ = false;
	vta_read_chan seen_rd_{};
	cursor seen_cur_[VTA_STATS_MODULES];
};

} // namespace vtasim

#endif /* VTASIM_DRAM_PORT_H */
