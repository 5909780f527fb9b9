/*
 * top.h - the accelerator: FETCH, LOAD, COMPUTE and STORE with their instruction queues,
 * the four dependency token queues (l2g, g2l, g2s, s2g), the five SRAMs and the shared
 * DRAM port, elaborated once from a config, and the run loop that drives them.
 *
 *            +-------+  load q   +------+  l2g ->  +---------+  g2s ->  +-------+
 *   DRAM --> | fetch |---------> | load | <- g2l   | compute | <- s2g   | store |
 *    port    +-------+  compute q, store q ------> +---------+          +-------+
 *
 * A run: the stream is decoded and its flags checked (the reference executor's up-front
 * pass), every module and memory is reset, the run generation is bumped (run_ctl.h), and
 * the kernel runs until FINISH retires (sc_pause), an error stops the run, the kernel
 * starves (deadlock, or a stream without FINISH) or the cycle budget runs out.
 * Timing: cycles count from the launch to FINISH retiring.
 * Records: a recorded run starts with one blank record per instruction (its module and
 * tokens filled in, every stage VTASIM_CYCLE_NONE); the modules stamp them as they go,
 * and a failed run closes the open token and queue waits at its end. The events are logged
 * as they happen, the live-bytes steps made when the run is over.
 *
 * Steps: run() is launch(), advance() to the end and finish_run(). A stepped run calls
 * advance() in slices, each up to a cycle or until the watcher pauses the kernel; since a
 * slice ends exactly where the kernel would have gone on (SystemC holds back what is due at
 * the slice's end time for the next sc_start, and resumes a pause at the next delta cycle),
 * the slices add up to the plain run.
 */
#ifndef VTASIM_TOP_H
#define VTASIM_TOP_H

#include <systemc>

#include <array>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "compute_unit.h"
#include "dram_port.h"
#include "fetch.h"
#include "insn_queue.h"
#include "rtl_datapath.h"
#include "run_ctl.h"
#include "run_events.h"
#include "sram.h"
#include "token_queue.h"
#include "vtasim_api.h"

namespace vtasim {

class top : public sc_core::sc_module {
public:
	/* rtl: the RTL units for `datapath: rtl` (the model owns them), else nullptr. */
	top(sc_core::sc_module_name name, const vta_config &cfg, rtl_datapath *rtl);

	rtl_datapath *rtl() const { return rtl_.get(); }

	const vta_config &config() const { return ctl_.cfg; }

	/* Run one program (see vtasim_sim_run). stats may be NULL. With records, keep one
	 * record per instruction there (vtasim_api.h), and with events too the run's events
	 * (run_events.h); without, record nothing. */
	vta_status run(const vta_program *prog, vta_dram *dram, vta_run_stats *stats,
		       vta_error *err, std::vector<vtasim_insn_record> *records = nullptr,
		       run_events *events = nullptr);

	/* The run in pieces. launch: set it up (records and events as for run()), `w` (may
	 * be nullptr) told of its instruction events;
	 * advance: let it run up to run cycle `until` (nothing at `until` happens; CYCLE_NONE:
	 * no limit) or until the watcher pauses it, true when the run is over; finish_run:
	 * conclude it (an unfinished run is abandoned), as run() returns. Launching abandons a
	 * run still in progress. */
	vta_status launch(const vta_program *prog, vta_dram *dram, vta_error *err,
			  std::vector<vtasim_insn_record> *records, run_events *events, watcher *w);
	bool advance(uint64_t until);
	vta_status finish_run(vta_run_stats *stats, vta_error *err);
	bool in_run() const { return in_run_; }
	const watcher *watched_by() const { return in_run_ ? ctl_.watch : nullptr; }
	/* The watcher the last run was launched with, finished or not. */
	const watcher *launched_by() const { return launched_by_; }
	void unwatch() { ctl_.watch = nullptr; }
	/* The run's cycle now, and the kernel time of its launch. */
	uint64_t run_cycle() const { return ctl_.cycles(); }
	uint64_t run_t0() const { return ctl_.t0; }
	/* The end of the last finished run (its stats->cycles). */
	uint64_t end_cycle() const { return end_cycles_; }

	/* SRAM contents after the last run, or as they are during a run (ACC_8BIT is ACC). */
	const uint8_t *sram_bytes(vta_mem mem, uint64_t *size) const;

	/* What module m (VTA_STATS_*) does, and the queues, for a stepped run's observer. */
	vtasim_module_view module_view(int m) const;
	void queue_view(vtasim_queue_view &v) const;
	const vta_lut_desc *lut_slots() const { return hw_.lut.slots; }
	const insn_queue &insn_queue_of(int m) const
	{
		return m == VTA_MODULE_LOAD ? load_q_ : m == VTA_MODULE_COMPUTE ? compute_q_ : store_q_;
	}

private:
	vta_status prepare(const vta_program *prog, vta_error *err);
	void reset_all();
	vta_status conclude(vta_error *err);
	void collect(vta_run_stats *stats);
	uint64_t run_cycles() const;
	void open_records(std::vector<vtasim_insn_record> &records);
	std::array<unit_base *, 3> units() { return {&load_, &compute_, &store_}; }
	std::array<const unit_base *, 3> units() const { return {&load_, &compute_, &store_}; }
	std::string deadlock_detail() const;
	std::string budget_detail() const;
	std::string modules_detail(const std::string &head, const std::string &tail) const;

	run_ctl ctl_;
	shared_hw hw_;
	/* the SRAMs by vta_mem, sized by the config's array (the memory table's SRAM rows) */
	std::array<std::unique_ptr<sram>, VTA_SRAM_COUNT> srams_;
	dram_port port_;
	token_queue l2g_, g2l_, g2s_, s2g_;
	insn_queue load_q_, compute_q_, store_q_;
	fetch fetch_;
	unit_base load_;
	compute_unit compute_;
	unit_base store_;

	std::unique_ptr<rtl_datapath> rtl_;
	std::vector<vta_insn> insns_;
	std::vector<uint8_t> module_of_;
	uint64_t budget_ = 0;
	bool budget_out_ = false;
	bool in_run_ = false; /* launched, not finished */
	const watcher *launched_by_ = nullptr;
	uint64_t end_cycles_ = 0;
	std::chrono::steady_clock::time_point host_start_;
};

} // namespace vtasim

#endif /* VTASIM_TOP_H */
