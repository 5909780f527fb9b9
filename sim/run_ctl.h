/*
 * run_ctl.h - what every module shares during a run: the config, the decoded stream, the
 * DRAM, the run's first error, and the reset protocol that lets one elaboration run many
 * programs.
 *
 * Reset protocol. SystemC elaborates once per process and sc_stop() would end simulation
 * for good, so a run never stops the kernel: it ends with sc_pause() (FINISH or an error),
 * by starvation (deadlock) or at the cycle budget, leaving threads parked in waits. Each
 * run bumps a generation counter and notifies `run_ev`; every wait in every module also
 * listens to `run_ev`, and after each wait a module checks it is still in the current,
 * unstopped run (wait_*() return false otherwise) and unwinds to its top loop, which starts
 * the new run. Within a run only immediate notifications are used (the launch's run_ev is
 * the one delta notification), so nothing of an old run stays scheduled in the kernel: a
 * timed wait parked at the end of a run is cancelled when run_ev wakes its thread.
 *
 * Time. One simulated time unit (the kernel's resolution) is one accelerator cycle; a run's
 * cycles are counted from its launch.
 *
 * Records. When the run is recorded, `records` holds one entry per instruction; the
 * modules stamp an instruction's stages in its entry as they pass them (a few stores per
 * instruction, no waits), so recording cannot change what happens or when. `events`
 * (run_events.h) is set with them and filled the same way.
 *
 * Events. Where an instruction starts and ends, the modules also tell the run's watcher, if
 * any (a stepped run's stepper.h); it may ask for a pause, which stops the kernel at the
 * end of the delta cycle (sc_pause) without changing what happens next.
 */
#ifndef VTASIM_RUN_CTL_H
#define VTASIM_RUN_CTL_H

#include <systemc>

#include <cstdint>
#include <string>
#include <vector>

#include "vta_config.h"
#include "vta_dram.h"
#include "vta_insn.h"
#include "vta_status.h"
#include "run_events.h"
#include "vtasim_api.h"

namespace vtasim {

/* What a module is doing, for deadlock and budget diagnostics. */
enum class activity {
	idle,       /* waiting for its instruction queue (fetch: finished dispatching) */
	pop,        /* waiting for a token to pop from `queue` */
	room,       /* waiting for room to push into `queue` */
	insn_room,  /* fetch: waiting for room in module `queue`'s instruction queue */
	port,       /* waiting for / using the DRAM port */
	arriving,   /* waiting for its instruction's bytes to arrive from DRAM */
	busy        /* executing */
};

struct module_state {
	activity what = activity::idle;
	int queue = -1; /* a vta_queue, or the module of fetch's insn_room */
	int64_t insn = -1; /* instruction index, -1 for none */
};

/* Who is told of the instruction events of a run. */
class watcher {
public:
	/* True: pause the kernel after this delta cycle. */
	virtual bool on_event(const vtasim_event &ev) = 0;

protected:
	~watcher() = default;
};

class run_ctl {
public:
	/* ----- fixed at elaboration ----- */
	explicit run_ctl(const vta_config &cfg) : cfg(cfg)
	{
		sim_ = sc_core::sc_get_curr_simcontext();
	}
	const vta_config cfg;
	sc_core::sc_event run_ev; /* a new run started: everyone unwinds */

	/* ----- per run ----- */
	uint64_t gen = 0;            /* run generation */
	const std::vector<vta_insn> *insns = nullptr;
	const std::vector<uint8_t> *module_of = nullptr; /* vta_module per instruction */
	vta_dram *dram = nullptr;
	uint64_t t0 = 0;             /* kernel time of the launch */
	double host_t0 = 0;          /* vta_host_now() at the launch (timing.host_seconds) */
	uint64_t deadline = 0;       /* t0 + cycle budget: no wait needs to reach past it */
	bool stopped = false;        /* FINISH retired or an error: nothing more may happen */
	bool finished = false;
	uint64_t finish_cycles = 0;
	vta_error err{};
	/* one record per instruction when recording (vtasim_api.h), else nullptr */
	std::vector<vtasim_insn_record> *records = nullptr;
	/* the events kept beside them (run_events.h), or nullptr */
	run_events *events = nullptr;
	/* told of every instruction event, else nullptr (the one test a plain run pays) */
	watcher *watch = nullptr;
	bool step_paused = false; /* the watcher paused the kernel in the last slice */

	/* Start a new run at the current kernel time. */
	void begin(const std::vector<vta_insn> *stream, const std::vector<uint8_t> *modules,
		   vta_dram *d, uint64_t budget);

	/* The kernel time, read inline (sc_time_stamp() is a call into the kernel, and the
	 * modules read the time several times per wait). */
	static uint64_t now() { return sim_->time_stamp().value(); }
	uint64_t cycles() const { return now() - t0; }
	bool current(uint64_t g) const { return g == gen && !stopped; }
	/* Instruction idx's record, or nullptr when not recording. */
	vtasim_insn_record *record(uint64_t idx) const
	{
		return records ? &(*records)[idx] : nullptr;
	}

	/* Instruction idx of module m reached event kind: tell the watcher. */
	void event(vtasim_event_kind kind, uint64_t idx, vta_module m)
	{
		if (__builtin_expect(watch != nullptr, 0))
			tell(kind, idx, m);
	}

	/* Record the run's first error and stop the run at the end of this delta cycle. */
	void fail(vta_status st, const std::string &detail);
	/* Same, worded "insn N (<disassembly>): what"; false, for `return ctl_.fail_insn(...)`. */
	bool fail_insn(uint64_t idx, vta_status st, const std::string &what);
	/* FINISH retired. */
	void finish();

	/* A module thread's idle wait: until a run newer than generation g starts; returns its
	 * generation. */
	uint64_t next_run(uint64_t g)
	{
		while (g == gen)
			sc_core::wait(run_ev);
		return gen;
	}

	/* Wait `n` cycles (or until the run is reset); add the waited cycles to *acc. A wait
	 * reaching past the deadline is cut there: the budget has run out by then. */
	bool wait_cycles(uint64_t n, uint64_t g, uint64_t *acc);
	/* Wait for one of the events of `list` (which must include run_ev). */
	bool wait_list(const sc_core::sc_event_or_list &list, uint64_t g, uint64_t *acc);

	/* Epoch for SRAM liveness (sram_live.h): a new number for each new time. */
	uint32_t epoch()
	{
		uint64_t t = now();
		if (t != epoch_time_ || !epoch_valid_) {
			epoch_time_ = t;
			epoch_valid_ = true;
			epoch_++;
			if (events)
				events->epoch_cycles.push_back(t - t0);
		}
		return epoch_;
	}

private:
	static inline sc_core::sc_simcontext *sim_ = nullptr; /* the one simulation context */

	void tell(vtasim_event_kind kind, uint64_t idx, vta_module m);

	uint32_t epoch_ = 0;
	uint64_t epoch_time_ = 0;
	bool epoch_valid_ = false;
};

} // namespace vtasim

#endif /* VTASIM_RUN_CTL_H */
