/*
 * dram_port.cc - the DRAM port (see dram_port.h).
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
	const uint64_t now = run_ctl::now();
	vta_read_chan_reset(&rd_, now);
	vta_write_chan_reset(&wr_, now);
	busy_ = 0;
	seen_.clear();
	seen_at_ = 0;
	seen_valid_ = false;
	for (flight &f : flights_) {
		f.active = false;
		f.wake.cancel(); /* a transfer cut off by the end of the last run */
	}
}

void dram_port::record(uint64_t ask, uint64_t start, uint64_t cycles, uint64_t bytes,
		       int module, uint64_t insn)
{
	vtasim_port_burst pb{};
	pb.insn = insn;
	pb.ask_cycle = ask - ctl_.t0;
	pb.start_cycle = start - ctl_.t0;
	pb.beats = cycles;
	pb.bytes = bytes;
	pb.module = (uint8_t)module;
	ctl_.events->bursts.push_back(pb);
}

int dram_port::next_of(const cursor *cur) const
{
	int m = -1;
	for (int i = 0; i < VTA_STATS_MODULES; i++) {
		if (!flights_[i].active || !cur[i].next_bytes)
			continue;
		if (m < 0 || cur[i].ask_at < cur[m].ask_at ||
		    (cur[i].ask_at == cur[m].ask_at && flights_[i].rank < flights_[m].rank))
			m = i;
	}
	return m;
}

bool dram_port::alone_pending(const cursor *cur, int m) const
{
	for (int i = 0; i < VTA_STATS_MODULES; i++)
		if (i != m && flights_[i].active && cur[i].next_bytes)
			return false;
	return true;
}

dram_port::foreseen dram_port::request(vta_read_chan &ch, int m, cursor &c, uint64_t ready) const
{
	const vta_config &cfg = ctl_.cfg;
	foreseen r{m, c.ask_at, ready, c.next_bytes,
		   std::max(c.ask_at + cfg.dram_latency_cycles, c.data_end), {}};
	r.t = vta_read_chan_issue(&cfg, &ch, c.ask_at, vta_cost_beats(&cfg, c.next_bytes));
	c.data_end = r.t.end;
	c.ask_at = r.t.req + 1; /* the client's next request, ready at once */
	c.next_bytes = vta_cost_next_burst(&cfg, &flights_[m].plan, &c.walk);
	return r;
}

void dram_port::served(const foreseen &r)
{
	flight &f = flights_[r.m];
	f.waited += r.t.first > r.due ? r.t.first - r.due : 0;
	const uint64_t beats = r.t.end - r.t.first;
	busy_ += beats;
	if (ctl_.events) /* a recorded run keeps every burst */
		record(r.ask, r.t.first, beats, r.bytes, r.m, f.insn);
	if (f.first_beat && f.first)
		*f.first_beat = r.t.first;
	f.first = false;
}

void dram_port::serve(uint64_t until, bool all)
{
	/* a request at `until` waits: another client may still ask at `until` and go first */
	const auto waits = [&](uint64_t ready) { return ready > until || (ready == until && !all); };
	if (seen_valid_ && seen_at_ < seen_.size() && !waits(seen_.back().ready)) {
		/* every request foreseen and not yet served goes now: the projection's state */
		for (; seen_at_ < seen_.size(); seen_at_++)
			served(seen_[seen_at_]);
		rd_ = seen_rd_;
		for (int i = 0; i < VTA_STATS_MODULES; i++)
			flights_[i].cur = seen_cur_[i];
		return;
	}
	cursor cur[VTA_STATS_MODULES];
	for (int i = 0; i < VTA_STATS_MODULES; i++)
		cur[i] = flights_[i].cur;
	for (int m; (m = next_of(cur)) >= 0;) {
		flight &f = flights_[m];
		const uint64_t ready = vta_read_chan_ready(&ctl_.cfg, &rd_, f.cur.ask_at);
		if (waits(ready))
			return;
		const foreseen r = request(rd_, m, f.cur, ready);
		cur[m] = f.cur;
		served(r);
		seen_at_++; /* the same request the projection foresaw next */
	}
}

void dram_port::project()
{
	cursor cur[VTA_STATS_MODULES];
	for (int i = 0; i < VTA_STATS_MODULES; i++)
		cur[i] = flights_[i].cur;
	scratch_ = rd_;
	seen_.clear();
	seen_at_ = 0;
	for (int m; (m = next_of(cur)) >= 0;) {
		/* a flight with no other pending is next until its last request: no choosing
		 * per burst then */
		const bool alone = alone_pending(cur, m);
		cursor &c = cur[m];
		do {
			const uint64_t ready = vta_read_chan_ready(&ctl_.cfg, &scratch_, c.ask_at);
			seen_.push_back(request(scratch_, m, c, ready));
		} while (alone && c.next_bytes);
	}
	seen_rd_ = scratch_;
	std::copy(cur, cur + VTA_STATS_MODULES, seen_cur_);
	seen_valid_ = true;
	const uint64_t now = run_ctl::now(), cut = ctl_.deadline + 1;
	for (int i = 0; i < VTA_STATS_MODULES; i++) {
		flight &f = flights_[i];
		const uint64_t end =
			std::max(cur[i].data_end + ctl_.cfg.dram_read_pipeline_cycles, f.fill_end);
		if (!f.active || end == f.end_at)
			continue;
		f.end_at = end;
		/* no wait needs to reach past the budget (run_ctl::wait_cycles) */
		const uint64_t at = std::min(f.end_at, cut);
		f.wake.cancel();
		f.wake.notify(sc_core::sc_time::from_value(at > now ? at - now : 0));
	}
}

uint64_t dram_port::fetch_burst(uint64_t beats, uint64_t bytes, uint64_t insn)
{
	const uint64_t now = run_ctl::now();
	serve(now, false); /* the requests that go first */
	const vta_burst_time t = vta_read_chan_issue(&ctl_.cfg, &rd_, now, beats);
	busy_ += beats;
	if (ctl_.events)
		record(now, t.first, beats, bytes, VTA_STATS_FETCH, insn);
	project();
	return t.first;
}

void dram_port::settle()
{
	serve(run_ctl::now(), true);
	if (ctl_.events) /* reads and writes were issued on their own channels */
		std::stable_sort(ctl_.events->bursts.begin(), ctl_.events->bursts.end(),
				 [](const vtasim_port_burst &a, const vtasim_port_burst &b) {
					 return a.start_cycle < b.start_cycle;
				 });
}

/* The time a transfer took, split into its waits for the port and the rest. */
static void charge(vta_module_stats &st, uint64_t took, uint64_t waited)
{
	const uint64_t stall = std::min(took, waited);
	st.stall_mem_cycles += stall;
	st.busy_cycles += took - stall;
}

bool dram_port::transfer(const vta_dma_plan &plan, uint64_t g, vta_module_stats &st,
			 int module, vta_mem mem, uint64_t insn, uint64_t *first_beat)
{
	if (plan.runs == 0 || plan.run_bytes == 0)
		return ctl_.current(g);
	if (plan.write)
		return write_transfer(plan, g, st, insn);
	const uint64_t now = run_ctl::now();
	serve(now, false);
	flight &f = flights_[module];
	f.active = true;
	f.plan = plan;
	f.cur = cursor{};
	f.cur.next_bytes = vta_cost_next_burst(&ctl_.cfg, &f.plan, &f.cur.walk);
	f.cur.ask_at = f.cur.data_end = now;
	f.fill_end = now + vta_cost_pad_fill_cycles(&ctl_.cfg, &plan);
	f.end_at = UINT64_MAX; /* not projected yet */
	f.rank = module != VTA_STATS_COMPUTE ? 1 : mem == VTA_MEM_UOP ? 0 : 2;
	f.insn = insn;
	f.first = true;
	f.first_beat = first_beat;
	f.waited = 0;
	project();
	const bool done = read_transfer(f, g);
	if (done)
		charge(st, run_ctl::now() - now, f.waited);
	return done;
}

bool dram_port::read_transfer(flight &f, uint64_t g)
{
	/* wait for the end; a later request may move it, and re-notifies the wake-up */
	while (ctl_.current(g)) {
		const uint64_t t = run_ctl::now();
		if (t >= f.end_at || t > ctl_.deadline) { /* done, or the budget ran out */
			f.active = false;
			if (f.cur.next_bytes) /* requests left that the projection counted on */
				seen_valid_ = false;
			return true;
		}
		sc_core::wait(f.wake_or_run);
		if (g == ctl_.gen)
			serve(run_ctl::now(), false);
	}
	if (g == ctl_.gen) /* stopped: what settle() serves later no longer reaches the caller */
		f.first_beat = nullptr;
	return false;
}

bool dram_port::write_transfer(const vta_dma_plan &plan, uint64_t g, vta_module_stats &st,
			       uint64_t insn)
{
	/* the write channel's one client: its bursts are known now */
	const vta_config &cfg = ctl_.cfg;
	const uint64_t now = run_ctl::now();
	vta_burst_walk w{};
	uint64_t ask = now, end = now;
	for (uint64_t bytes; (bytes = vta_cost_next_burst(&cfg, &plan, &w)) != 0;) {
		const uint64_t cycles = vta_cost_write_burst_cycles(&cfg, &plan, bytes);
		const vta_burst_time t = vta_write_chan_issue(&cfg, &wr_, ask, cycles);
		busy_ += cycles;
		if (ctl_.events)
			record(ask, t.first, cycles, bytes, VTA_STATS_STORE, insn);
		ask = t.req + 1;
		end = t.end;
	}
	if (!ctl_.wait_cycles(end - now, g, nullptr))
		return false;
	charge(st, run_ctl::now() - now, 0);
	return true;
}

} // namespace vtasim
