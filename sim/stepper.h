/*
 * stepper.h - a run advanced in steps (vtasim_api.h "Stepping"), for a debugger.
 *
 * The stepper is the run's watcher (run_ctl.h): the modules tell it each instruction's
 * start and end, it queues the event and has the kernel pause at the end of that delta
 * cycle. A step hands out the oldest queued event and simulates only when none is left,
 * so events that happen in one delta cycle come out one by one, in order. Stepping to a
 * cycle is a slice of simulated time (top.h "Steps"). Neither changes what the model does.
 */
#ifndef VTASIM_STEPPER_H
#define VTASIM_STEPPER_H

#include <deque>
#include <vector>

#include "top.h"

namespace vtasim {

class stepper final : public watcher {
public:
	explicit stepper(top &model) : model_(model) {}

	vta_status begin(const vta_program *prog, vta_dram *dram,
			 std::vector<vtasim_insn_record> *records, run_events *events,
			 vta_error *err);
	vta_status next(uint64_t until, vtasim_stop &stop, vtasim_event *ev, vta_error *err);
	vta_status end(vta_run_stats *stats, vta_error *err);
	/* Its run is the model's run in progress (no other run replaced it). */
	bool active() const { return model_.watched_by() == this; }
	/* The model's state is still that of its run: in progress, or ended and not replaced. */
	bool viewable() const { return model_.launched_by() == this; }
	uint64_t cycle() const { return cycle_; }

	bool on_event(const vtasim_event &ev) override
	{
		pending_.push_back(ev);
		return true;
	}

private:
	top &model_;
	std::deque<vtasim_event> pending_;
	bool over_ = false;
	uint64_t cycle_ = 0;
};

} // namespace vtasim

#endif /* VTASIM_STEPPER_H */
