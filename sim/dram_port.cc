/*
 * dram_port.cc - the shared DRAM port (see dram_port.h).
 */
#include "dram_port.h"

#include <algorithm>

namespace vtasim {

dram_port::dram_port(sc_core::sc_module_name name, run_ctl &ctl)
    : sc_core::sc_module(name), ctl_(ctl)
{
	for (flight &f : flights_) {
		f.wake_or_run |= f.wake;
		f.wake_or_run |= ctl.run_ev;
	}
}

void dram_port::reset()
{
	free_at_ = run_ctl::now();
	busy_ = 0;
	for (flight &f : flights_) {
		f.active = false;
		f.wake.cancel(); /* a transfer cut off by the end of the last run */
	}
}

uint64_t dram_port::flight::beats_between(uint64_t a, uint64_t b) const
{
	/* every burst of a run is full but its last */
	const uint64_t run_beats = (per_run - 1) * full_beats + last_beats;
	auto before = [&](uint64_t j) { return j / per_run * run_beats + j % per_run * full_beats; };
	return before(b) - before(a);
}

void dram_port::record(uint64_t ask, uint64_t start, uint64_t beats, uint64_t bytes, int module,
			uint64_t insn)
{
	vtasim_port_burst pb{};
	pb.insn = insn;
	pb.ask_cycle = ask - ctl_.t0;
	pb.start_cycle = start - ctl_.t0;
	pb.beats = beats;
	pb.bytes = bytes;
	pb.module = (uint8_t)module;
	ctl_.events->bursts.push_back(pb);
}

bool dram_port::before(int a, uint64_t ask_a, bool new_a, int b, uint64_t ask_b, bool new_b)
{
	if (ask_a != ask_b)
		return ask_a < ask_b;
	if (new_a != new_b)
		return !new_a; /* a transfer's next burst before a new request */
	/* then COMPUTE (its UOP/ACC loads hold the datapath), STORE (draining frees OUT),
	 * LOAD (it fetches ahead); FETCH is served as it asks, so before them all */
	static constexpr int rank[VTA_STATS_MODULES] = {3, 0, 2, 1};
	return rank[a] > rank[b];
}

void dram_port::serve_run(flight &f, int module, uint64_t limit)
{
	const uint64_t k0 = f.next, start = std::max(f.ask_at, free_at_);
	/* the bursts after the first follow back to back, burst k0 + i asked for at start plus
	 * the beats before it: the last one asked for by `limit`, found by bisection */
	uint64_t lo = 0, hi = f.total - k0 - 1;
	while (lo < hi) {
		const uint64_t mid = lo + (hi - lo + 1) / 2;
		if (start + f.beats_between(k0, k0 + mid) <= limit)
			lo = mid;
		else
			hi = mid - 1;
	}
	const uint64_t beats = f.beats_between(k0, k0 + lo + 1);
	if (ctl_.events) /* a recorded run keeps every burst */
		for (uint64_t k = k0, at = start; k <= k0 + lo; at += f.beats(k++))
			record(k == k0 ? f.ask_at : at, at, f.beats(k),
			       f.last_of_run(k) ? f.last_bytes : f.full_bytes, module, f.insn);
	if (k0 == 0 && f.first_beat)
		*f.first_beat = start;
	free_at_ = start + beats;
	busy_ += beats;
	f.st->stall_mem_cycles += start - f.ask_at;
	f.st->busy_cycles += beats;
	f.next += lo + 1;
	f.ask_at = start + beats;
	if (f.next == f.total)
		f.st->busy_cycles += ctl_.cfg.dram_latency_cycles;
}

void dram_port::serve(uint64_t until, bool all)
{
	for (;;) {
		int m = -1, c = -1; /* the first request to serve, and the one after it */
		for (int i = 0; i < VTA_STATS_MODULES; i++) {
			const flight &f = flights_[i];
			if (!f.active || f.next == f.total || f.ask_at > until ||
			    (f.ask_at == until && f.next == 0 && !all))
				continue;
			if (m < 0 || before(i, f.ask_at, f.next == 0, m, flights_[m].ask_at,
					    flights_[m].next == 0)) {
				c = m;
				m = i;
			} else if (c < 0 || before(i, f.ask_at, f.next == 0, c, flights_[c].ask_at,
						   flights_[c].next == 0)) {
				c = i;
			}
		}
		if (m < 0)
			return;
		/* m's bursts until c's request comes first, in one step */
		uint64_t limit = until;
		if (c >= 0) {
			const uint64_t ask = flights_[c].ask_at;
			const uint64_t last = before(m, ask, false, c, ask, flights_[c].next == 0)
						      ? ask
						      : ask ? ask - 1 : 0;
			limit = std::min(limit, last);
		}
		serve_run(flights_[m], m, limit);
	}
}

void dram_port::project()
{
	uint64_t next[VTA_STATS_MODULES], ask[VTA_STATS_MODULES], end[VTA_STATS_MODULES];
	uint64_t free = free_at_;
	int pending = 0;
	for (int i = 0; i < VTA_STATS_MODULES; i++) {
		const flight &f = flights_[i];
		next[i] = f.next;
		ask[i] = f.ask_at;
		end[i] = f.end_at;
		pending += f.active && f.next < f.total;
	}
	/* several in flight: their bursts interleave, served one by one as serve() would */
	while (pending > 1) {
		int m = -1;
		for (int i = 0; i < VTA_STATS_MODULES; i++)
			if (flights_[i].active && next[i] < flights_[i].total &&
			    (m < 0 || before(i, ask[i], next[i] == 0, m, ask[m], next[m] == 0)))
				m = i;
		const flight &f = flights_[m];
		free = std::max(ask[m], free) + f.beats(next[m]);
		ask[m] = free;
		if (++next[m] == f.total) {
			end[m] = free + ctl_.cfg.dram_latency_cycles;
			pending--;
		}
	}
	/* one left: the rest of its bursts follow each other */
	for (int i = 0; i < VTA_STATS_MODULES; i++) {
		const flight &f = flights_[i];
		if (f.active && next[i] < f.total)
			end[i] = std::max(ask[i], free) + f.beats_between(next[i], f.total) +
				 ctl_.cfg.dram_latency_cycles;
	}
	const uint64_t now = run_ctl::now(), cut = ctl_.deadline + 1;
	for (int i = 0; i < VTA_STATS_MODULES; i++) {
		flight &f = flights_[i];
		if (!f.active || end[i] == f.end_at)
			continue;
		f.end_at = end[i];
		/* no wait needs to reach past the budget (run_ctl::wait_cycles) */
		const uint64_t at = std::min(f.end_at, cut);
		f.wake.cancel();
		f.wake.notify(sc_core::sc_time::from_value(at > now ? at - now : 0));
	}
}

uint64_t dram_port::reserve(uint64_t beats, uint64_t bytes, int module, uint64_t insn)
{
	const uint64_t now = run_ctl::now();
	serve(now, false); /* the bursts that go first */
	const uint64_t start = std::max(now, free_at_);
	free_at_ = start + beats;
	busy_ += beats;
	if (ctl_.events)
		record(now, start, beats, bytes, module, insn);
	project();
	return start;
}

bool dram_port::transfer(const vta_dma_plan &plan, uint64_t g, vta_module_stats &st,
			 int module, uint64_t insn, uint64_t *first_beat)
{
	const vta_config &cfg = ctl_.cfg;
	if (plan.runs == 0 || plan.run_bytes == 0)
		return ctl_.current(g);
	const uint64_t mb = cfg.dram_max_burst_bytes;
	flight &f = flights_[module];
	const uint64_t now = run_ctl::now();
	serve(now, false);
	f.active = true;
	f.next = 0;
	f.per_run = (plan.run_bytes + mb - 1) / mb;
	f.total = plan.runs * f.per_run;
	f.full_bytes = mb;
	f.last_bytes = plan.run_bytes - (f.per_run - 1) * mb;
	f.full_beats = vta_cost_beats(&cfg, mb);
	f.last_beats = f.last_bytes == mb ? f.full_beats : vta_cost_beats(&cfg, f.last_bytes);
	f.ask_at = now;
	f.end_at = UINT64_MAX; /* not projected yet */
	f.insn = insn;
	f.st = &st;
	f.first_beat = first_beat;
	project();
	/* wait for the end; a later request may move it, and re-notifies the wake-up */
	while (ctl_.current(g)) {
		const uint64_t t = run_ctl::now();
		if (t >= f.end_at) {
			f.active = false;
			return true;
		}
		if (t > ctl_.deadline) /* the budget ran out meanwhile */
			return true;
		sc_core::wait(f.wake_or_run);
		if (g == ctl_.gen)
			serve(run_ctl::now(), false);
	}
	if (g == ctl_.gen) /* stopped: what settle() serves later no longer reaches the caller */
		f.first_beat = nullptr;
	return false;
}

} // namespace vtasim
