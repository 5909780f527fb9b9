/*
 * run_ctl.cc - run control shared by the modules (see run_ctl.h).
 */
#include "run_ctl.h"

#include "vta_rules.h"

namespace vtasim {

void run_ctl::begin(const std::vector<vta_insn> *stream, const std::vector<uint8_t> *modules,
		    vta_dram *d, uint64_t budget)
{
	gen++;
	insns = stream;
	module_of = modules;
	dram = d;
	t0 = now();
	host_t0 = vta_host_now();
	deadline = t0 + budget;
	stopped = finished = false;
	finish_cycles = 0;
	vta_error_clear(&err);
	epoch_ = 0;
	epoch_valid_ = false;
}

void run_ctl::fail(vta_status st, const std::string &detail)
{
	if (stopped)
		return;
	vta_fail(&err, st, "%s", detail.c_str());
	stopped = true;
	sc_core::sc_pause();
}

bool run_ctl::fail_insn(uint64_t idx, vta_status st, const std::string &what)
{
	vta_error e{};
	vta_insn_fail(&e, st, nullptr, idx, &(*insns)[idx], "%s", what.c_str());
	fail(st, e.detail);
	return false;
}

void run_ctl::finish()
{
	if (stopped)
		return;
	finished = true;
	finish_cycles = cycles();
	stopped = true;
	sc_core::sc_pause();
}

bool run_ctl::wait_cycles(uint64_t n, uint64_t g, uint64_t *acc)
{
	const uint64_t t = now();
	uint64_t target = n > deadline + 1 - t ? deadline + 1 : t + n;
	/* run_ev also fires at a launch: loop until the time has really passed */
	uint64_t at = t;
	while (at < target && current(g)) {
		sc_core::wait(sc_core::sc_time::from_value(target - at), run_ev);
		at = now();
	}
	if (acc && g == gen) /* a reset must not charge the new run */
		*acc += at - t;
	return current(g);
}

bool run_ctl::wait_list(const sc_core::sc_event_or_list &list, uint64_t g, uint64_t *acc)
{
	uint64_t t = now();
	sc_core::wait(list);
	if (acc && g == gen) /* a reset must not charge the new run */
		*acc += now() - t;
	return current(g);
}

void run_ctl::tell(vtasim_event_kind kind, uint64_t idx, vta_module m)
{
	const vtasim_event ev{idx, cycles(), (uint8_t)(m + 1), (uint8_t)kind};
	if (watch->on_event(ev) && !step_paused) {
		step_paused = true;
		sc_core::sc_pause();
	}
}

} // namespace vtasim
