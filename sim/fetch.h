/*
 * fetch.h - VTA's FETCH module: reads the instruction stream from DRAM and dispatches each
 * instruction, in program order, to the load, compute or store instruction queue.
 *
 * Models: dispatch by opcode and memory type (vta_insn_module: STORE -> store, LOAD
 * INP/WGT -> load, everything else -> compute); a full target queue stalls FETCH, and with
 * it every later instruction. The stream was decoded and its dependency flags checked
 * before launch (as the reference executor does), so FETCH never fails.
 * Timing: the stream is read through the shared DRAM port in bursts of up to
 * max_burst_bytes (vta_cost_fetch_burst_insns instructions of cfg.insn_bytes: 16, 32 in
 * the wide encoding), each instruction arriving as vta_cost_fetch_arrival says; it is
 * dispatched then, or when its queue has room (insn_queue.h: FETCH enqueues it early,
 * stamped with its arrival). The next burst is requested once the previous one has
 * arrived and been dispatched. Busy: latency + beats per burst; stall_mem: waiting for
 * the port or for room in a full queue.
 * Approximates: no prefetch of the next burst while dispatching; decode costs no time.
 * Records (vtasim_api.h): an instruction's fetch_cycle is its burst's start on the port,
 * its dispatch_cycle the later of its arrival and its entry into the queue.
 */
#ifndef VTASIM_FETCH_H
#define VTASIM_FETCH_H

#include <systemc>

#include "dram_port.h"
#include "insn_queue.h"
#include "run_ctl.h"
#include "vtasim_api.h"

namespace vtasim {

class fetch : public sc_core::sc_module {
public:
	SC_HAS_PROCESS(fetch);
	fetch(sc_core::sc_module_name name, run_ctl &ctl, dram_port &port, insn_queue &load_q,
	      insn_queue &compute_q, insn_queue &store_q);

	void reset();
	const vta_module_stats &stats() const { return st_; }
	const module_state &state() const { return state_; }
	uint64_t dispatched() const { return next_; }
	uint64_t insn_bytes() const { return insn_bytes_; }
	/* A failed run ended while FETCH waited for room: charge the wait, up to `end`
	 * (kernel time), to the waiting instruction's record. */
	void close_record(uint64_t end);

private:
	void main_thread();
	void run(uint64_t g);

	run_ctl &ctl_;
	dram_port &port_;
	insn_queue *queues_[VTA_MODULE_COUNT];
	vta_module_stats st_{};
	module_state state_;
	uint64_t next_ = 0; /* next instruction to dispatch */
	uint64_t insn_bytes_ = 0;
	uint64_t room_since_ = 0; /* kernel time FETCH began waiting to dispatch next_ */
	bool room_open_ = false;  /* still waiting to dispatch next_ */
};

} // namespace vtasim

#endif /* VTASIM_FETCH_H */
