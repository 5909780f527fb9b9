/*
 * stepper.cc - a run advanced in steps (see stepper.h).
 */
#include "stepper.h"

namespace vtasim {

vta_status stepper::begin(const vta_program *prog, vta_dram *dram,
			  std::vector<vtasim_insn_record> *records, run_events *events,
			  vta_error *err)
{
	pending_.clear();
	over_ = false;
	cycle_ = 0;
	return model_.launch(prog, dram, err, records, events, this);
}

vta_status stepper::next(uint64_t until, vtasim_stop &stop, vtasim_event *ev, vta_error *err)
{
	if (!active())
		return vta_fail(err, VTA_E_USAGE,
				"no stepped run: it was not begun, has ended, or another run on "
				"the model replaced it");
	if (pending_.empty() && !over_) {
		if (until != VTASIM_CYCLE_NONE && until <= cycle_) {
			stop = VTASIM_STOP_CYCLE;
			return VTA_OK;
		}
		over_ = model_.advance(until);
		if (pending_.empty()) {
			/* not paused for an event: over, or the slice reached `until` */
			stop = over_ ? VTASIM_STOP_OVER : VTASIM_STOP_CYCLE;
			cycle_ = over_ ? model_.run_cycle() : until;
			return VTA_OK;
		}
	}
	if (pending_.empty()) {
		stop = VTASIM_STOP_OVER;
		return VTA_OK;
	}
	stop = VTASIM_STOP_EVENT;
	cycle_ = pending_.front().cycle;
	if (ev)
		*ev = pending_.front();
	pending_.pop_front();
	return VTA_OK;
}

vta_status stepper::end(vta_run_stats *stats, vta_error *err)
{
	if (!active())
		return vta_fail(err, VTA_E_USAGE,
				"no stepped run: it was not begun, has ended, or another run on "
				"the model replaced it");
	pending_.clear();
	model_.unwatch(); /* the rest runs as a plain run does: in one slice */
	if (!over_)
		model_.advance(VTASIM_CYCLE_NONE);
	over_ = true;
	vta_status st = model_.finish_run(stats, err);
	cycle_ = model_.end_cycle();
	return st;
}

} // namespace vtasim
