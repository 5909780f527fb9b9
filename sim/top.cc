/*
 * top.cc - elaboration of the accelerator and the run loop (see top.h).
 */
#include "top.h"

#include "vta_sched.h"

namespace vtasim {

namespace {

static_assert(VTA_STATS_LOAD == VTA_MODULE_LOAD + 1 &&
		      VTA_STATS_COMPUTE == VTA_MODULE_COMPUTE + 1 &&
		      VTA_STATS_STORE == VTA_MODULE_STORE + 1,
	      "records map vta_module to VTA_STATS_* by adding one");

/* No wait may reach past t0 + budget; keep kernel time far from overflowing. */
constexpr uint64_t max_budget = uint64_t{1} << 60;

} // namespace

/* One SRAM module per SRAM row of the memory table, named and sized by it. GEMM and ALU
 * write ACC and OUT rows in place; the other SRAMs are written by loads alone. */
static std::array<std::unique_ptr<sram>, VTA_SRAM_COUNT> make_srams(const vta_config &cfg)
{
	std::array<std::unique_ptr<sram>, VTA_SRAM_COUNT> srams;
	for (unsigned m = 0; m < VTA_SRAM_COUNT; m++)
		srams[m] = std::make_unique<sram>(vta_mem_name((vta_mem)m), cfg.sram[m].depth,
						  cfg.sram[m].elem_bytes, m == VTA_MEM_UOP);
	return srams;
}

top::top(sc_core::sc_module_name name, const vta_config &cfg, rtl_datapath *rtl)
    : sc_core::sc_module(name), ctl_(cfg), srams_(make_srams(cfg)), port_("dram_port", ctl_),
      l2g_("l2g", ctl_, VTA_QUEUE_L2G), g2l_("g2l", ctl_, VTA_QUEUE_G2L),
      g2s_("g2s", ctl_, VTA_QUEUE_G2S), s2g_("s2g", ctl_, VTA_QUEUE_S2G),
      load_q_("load_queue", ctl_, cfg.insn_depth),
      compute_q_("compute_queue", ctl_, cfg.insn_depth),
      store_q_("store_queue", ctl_, cfg.insn_depth),
      fetch_("fetch", ctl_, port_, load_q_, compute_q_, store_q_),
      load_("load", VTA_MODULE_LOAD, ctl_, hw_, load_q_, {&l2g_, &g2l_, &g2s_, &s2g_}),
      compute_("compute", ctl_, hw_, compute_q_, {&l2g_, &g2l_, &g2s_, &s2g_}),
      store_("store", VTA_MODULE_STORE, ctl_, hw_, store_q_, {&l2g_, &g2l_, &g2s_, &s2g_})
{
	/* each memory type to the SRAM a LOAD of it writes (ACC_8BIT: ACC); the value tables
	 * go to the LUT decoder's table memory, not an SRAM of the ISA's layouts */
	for (unsigned m = 0; m < VTA_MEM_COUNT; m++) {
		unsigned space = vta_mem_info_of(m)->space;
		if (vta_mem_is_sram(space))
			hw_.mem[m] = srams_[space].get();
	}
	hw_.port = &port_;
	rtl_.reset(rtl);
	hw_.rtl = rtl;
}

vta_status top::prepare(const vta_program *prog, vta_error *err)
{
	const vta_config &cfg = ctl_.cfg;
	vta_status st = vta_geometry_check(&cfg, &prog->geometry, err);
	if (st != VTA_OK)
		return st;
	if (prog->n_insns > UINT32_MAX)
		return vta_fail(err, VTA_E_STREAM, "the stream has %zu instructions, more than %u",
				prog->n_insns, UINT32_MAX);
	insns_.resize(prog->n_insns);
	module_of_.resize(prog->n_insns);
	/* decode and check the flags of the whole stream first, as the reference does */
	if ((st = vta_sched_decode(prog, &cfg, insns_.data(), err)) != VTA_OK)
		return st;
	for (size_t i = 0; i < prog->n_insns; i++)
		module_of_[i] = (uint8_t)vta_insn_module(&insns_[i]);
	return VTA_OK;
}

void top::reset_all()
{
	const vta_config &cfg = ctl_.cfg;
	for (auto &s : srams_)
		s->reset();
	port_.reset();
	for (token_queue *q : {&l2g_, &g2l_, &g2s_, &s2g_})
		q->reset(cfg.dep_depth);
	for (insn_queue *q : {&load_q_, &compute_q_, &store_q_})
		q->reset();
	fetch_.reset();
	for (unit_base *u : units())
		u->reset();
	compute_.reset_compute();
	hw_.reset_counters();
	hw_.lut.reset(cfg);
}

vta_status top::run(const vta_program *prog, vta_dram *dram, vta_run_stats *stats,
		    vta_error *err, std::vector<vtasim_insn_record> *records, run_events *events)
{
	vta_status st = launch(prog, dram, err, records, events, nullptr);
	if (st != VTA_OK)
		return st;
	advance(VTASIM_CYCLE_NONE);
	return finish_run(stats, err);
}

vta_status top::launch(const vta_program *prog, vta_dram *dram, vta_error *err,
		       std::vector<vtasim_insn_record> *records, run_events *events, watcher *w)
{
	if (in_run_) /* a stepped run left unfinished */
		finish_run(nullptr, nullptr);
	launched_by_ = nullptr;
	host_start_ = std::chrono::steady_clock::now();
	if (records)
		records->clear();
	if (events)
		events->clear();
	if (!records)
		events = nullptr; /* events go with the records */
	vta_status st = prepare(prog, err);
	if (st != VTA_OK)
		return st;

	reset_all();
	if (rtl_ && (st = rtl_->begin_run(err)) != VTA_OK)
		return st;
	if (records)
		open_records(*records);
	budget_out_ = false;
	budget_ = ctl_.cfg.cycle_budget < max_budget ? ctl_.cfg.cycle_budget : max_budget;
	ctl_.begin(&insns_, &module_of_, dram, budget_);
	ctl_.records = records;
	ctl_.events = events;
	ctl_.watch = w;
	launched_by_ = w;
	ctl_.run_ev.notify(sc_core::SC_ZERO_TIME);
	in_run_ = true;
	return VTA_OK;
}

bool top::advance(uint64_t until)
{
	const uint64_t now = run_ctl::now();
	const uint64_t stop = until < budget_ ? ctl_.t0 + until : ctl_.deadline;
	ctl_.step_paused = false;
	if (stop > now)
		sc_core::sc_start(sc_core::sc_time::from_value(stop - now),
				  sc_core::SC_EXIT_ON_STARVATION);
	if (ctl_.stopped)
		return true;
	if (ctl_.step_paused)
		return false;
	/* starved (deadlock, no FINISH), or stopped at the budget */
	return !sc_core::sc_pending_activity() || stop == ctl_.deadline;
}

vta_status top::finish_run(vta_run_stats *stats, vta_error *err)
{
	in_run_ = false;
	ctl_.watch = nullptr;
	port_.settle(); /* the bursts asked for by the end, on the record and in the stats */
	vta_status st = conclude(err);
	vta_error vcd_err{};
	if (rtl_ && rtl_->end_run(&vcd_err) != VTA_OK && st == VTA_OK) {
		st = vcd_err.status;
		if (err)
			*err = vcd_err;
	}
	if (ctl_.records && !ctl_.finished) {
		const uint64_t end = ctl_.t0 + run_cycles();
		fetch_.close_record(end);
		for (unit_base *u : units())
			u->close_record(end);
	}
	ctl_.records = nullptr; /* the records belong to the caller from here on */
	run_events *events = ctl_.events;
	ctl_.events = nullptr;
	end_cycles_ = run_cycles();
	collect(stats);
	if (events) { /* collect() closed the SRAMs' live intervals */
		const std::vector<int64_t> *deltas[VTA_STATS_SRAMS];
		for (unsigned i = 0; i < VTA_STATS_SRAMS; i++)
			deltas[i] = &srams_[vta_mem_of_stats_slot(i)]->live_deltas();
		events->make_live(deltas);
	}
	if (stats) /* stats arrive zeroed */
		stats->host_seconds = std::chrono::duration<double>(
					      std::chrono::steady_clock::now() - host_start_)
					      .count();
	return st;
}

vta_status top::conclude(vta_error *err)
{
	if (ctl_.finished)
		return VTA_OK;
	if (ctl_.stopped)
		return vta_fail(err, ctl_.err.status, "%s", ctl_.err.detail);
	if (sc_core::sc_pending_activity()) {
		/* the kernel stops at its last event before the end: the budget was used up */
		budget_out_ = true;
		return vta_fail(err, VTA_E_NO_FINISH, "%s", budget_detail().c_str());
	}
	bool drained = fetch_.dispatched() == insns_.size() && load_q_.empty() &&
		       compute_q_.empty() && store_q_.empty();
	if (drained)
		return vta_fail(err, VTA_E_NO_FINISH,
				"the stream's %zu instructions executed without a FINISH (load %llu, "
				"compute %llu, store %llu)",
				insns_.size(), (unsigned long long)load_.stats().insns,
				(unsigned long long)compute_.stats().insns,
				(unsigned long long)store_.stats().insns);
	return vta_fail(err, VTA_E_DEADLOCK, "%s", deadlock_detail().c_str());
}

/* head, what each module waits on, tail: a detail must stay one line that fits, so the
 * disassemblies are shortened until it does. */
std::string top::modules_detail(const std::string &head, const std::string &tail) const
{
	for (size_t cut = 256;; cut -= 16) {
		std::string s = head + load_.describe(cut) + "; " + compute_.describe(cut) + "; " +
				store_.describe(cut) + tail;
		if (s.size() < VTA_ERROR_DETAIL_MAX || cut <= 24)
			return s;
	}
}

std::string top::deadlock_detail() const
{
	std::string fetch_part;
	const module_state &fs = fetch_.state();
	if (fs.what == activity::insn_room)
		fetch_part = "; fetch stalled at insn " + std::to_string(fs.insn) + ": " +
			     vta_module_name((vta_module)fs.queue) + " queue full (" +
			     std::to_string(ctl_.cfg.insn_depth) + " insns)";
	return modules_detail("deadlock: ", fetch_part);
}

std::string top::budget_detail() const
{
	return modules_detail("no FINISH within the cycle budget of " + std::to_string(budget_) +
				      " cycles: ",
			      "; fetch dispatched " + std::to_string(fetch_.dispatched()) + " of " +
				      std::to_string(insns_.size()) + " insns");
}

uint64_t top::run_cycles() const
{
	return ctl_.finished ? ctl_.finish_cycles : budget_out_ ? budget_ : ctl_.cycles();
}

void top::open_records(std::vector<vtasim_insn_record> &records)
{
	vtasim_insn_record blank{};
	blank.fetch_cycle = blank.arrive_cycle = blank.dispatch_cycle = VTASIM_CYCLE_NONE;
	blank.wait_cycle = VTASIM_CYCLE_NONE;
	blank.start_cycle = blank.end_cycle = blank.retire_cycle = VTASIM_CYCLE_NONE;
	records.assign(insns_.size(), blank);
	for (size_t i = 0; i < insns_.size(); i++) {
		vtasim_insn_record &r = records[i];
		r.index = i;
		r.module = (uint8_t)(module_of_[i] + 1); /* vta_module -> VTA_STATS_* */
		vta_queue pops[2], pushes[2];
		vta_insn_queues(&insns_[i], (vta_module)module_of_[i], pops, pushes);
		for (int k = 0; k < 2; k++) {
			r.pops |= pops[k] >= 0 ? (uint8_t)(1u << pops[k]) : 0;
			r.pushes |= pushes[k] >= 0 ? (uint8_t)(1u << pushes[k]) : 0;
		}
	}
}

void top::collect(vta_run_stats *stats)
{
	const vta_config &cfg = ctl_.cfg;
	sram *by_index[VTA_STATS_SRAMS]; /* by statistics slot */
	for (unsigned i = 0; i < VTA_STATS_SRAMS; i++)
		by_index[i] = srams_[vta_mem_of_stats_slot(i)].get();
	uint64_t peaks[VTA_STATS_SRAMS];
	for (int i = 0; i < VTA_STATS_SRAMS; i++)
		peaks[i] = by_index[i]->finish_peak(); /* closes the run's live intervals */
	if (!stats)
		return;
	uint64_t cycles = run_cycles();
	stats->cycles = cycles;
	stats->time_us = (double)cycles / cfg.clock_mhz;
	stats->gemm_uops = hw_.gemm_uops;
	stats->alu_uops = hw_.alu_uops;
	stats->alu_imm_uops = hw_.alu_imm_uops;
	uint64_t mac_uops = hw_.gemm_uops - hw_.gemm_reset_uops;
	stats->macs = mac_uops * cfg.batch * cfg.block_in * cfg.block_out;
	stats->gemm_utilization = cycles ? (double)mac_uops * cfg.gemm_ii / (double)cycles : 0.0;
	stats->module[VTA_STATS_FETCH] = fetch_.stats();
	stats->module[VTA_STATS_LOAD] = load_.stats();
	stats->module[VTA_STATS_COMPUTE] = compute_.stats();
	stats->module[VTA_STATS_STORE] = store_.stats();
	for (int i = 0; i < VTA_STATS_SRAMS; i++) {
		stats->sram[i].capacity_bytes = by_index[i]->size_bytes();
		stats->sram[i].peak_bytes = peaks[i];
		stats->sram[i].reads = by_index[i]->reads();
		stats->sram[i].writes = by_index[i]->writes();
	}
	for (int m = 0; m < VTA_MEM_COUNT; m++)
		stats->dram_read_bytes[m] = hw_.dram_read_bytes[m];
	stats->dram_insn_bytes = fetch_.insn_bytes();
	stats->dram_write_bytes = hw_.dram_write_bytes;
	stats->dram_busy_cycles = port_.busy_cycles();
	stats->decoder = hw_.lut.st;
}

const uint8_t *top::sram_bytes(vta_mem mem, uint64_t *size) const
{
	/* ACC_8BIT is ACC's SRAM; the LUT table memories (no hw_.mem entry) are not SRAMs of
	 * the ISA's layouts */
	const sram *s = (unsigned)mem < VTA_MEM_COUNT ? hw_.mem[mem] : nullptr;
	if (!s) {
		if (size)
			*size = 0;
		return nullptr;
	}
	if (size)
		*size = s->size_bytes();
	return s->bytes();
}

namespace {

vtasim_activity activity_of(activity a)
{
	switch (a) {
	case activity::idle: return VTASIM_ACT_IDLE;
	case activity::pop: return VTASIM_ACT_POP;
	case activity::room: return VTASIM_ACT_ROOM;
	case activity::insn_room: return VTASIM_ACT_INSN_ROOM;
	case activity::port: return VTASIM_ACT_PORT;
	case activity::arriving: return VTASIM_ACT_ARRIVING;
	case activity::busy: break;
	}
	return VTASIM_ACT_BUSY;
}

} // namespace

vtasim_module_view top::module_view(int m) const
{
	const module_state &s = m == VTA_STATS_FETCH ? fetch_.state() : units()[m - 1]->state();
	vtasim_module_view v{};
	v.activity = (uint8_t)activity_of(s.what);
	v.queue = (int8_t)s.queue;
	v.insn = s.insn;
	if (m != VTA_STATS_FETCH && ctl_.finished) {
		/* FINISH ended the run: nothing more executes (the FINISH keeps its slot) */
		v.activity = VTASIM_ACT_IDLE;
		v.insn = -1;
	}
	if (m == VTA_STATS_FETCH) {
		/* FETCH holds the next instruction to dispatch until there is none */
		const bool done = fetch_.dispatched() >= insns_.size();
		v.insn = done ? -1 : (int64_t)fetch_.dispatched();
		if (done)
			v.activity = VTASIM_ACT_IDLE;
	}
	if (v.activity != VTASIM_ACT_POP && v.activity != VTASIM_ACT_ROOM &&
	    v.activity != VTASIM_ACT_INSN_ROOM)
		v.queue = -1;
	return v;
}

void top::queue_view(vtasim_queue_view &v) const
{
	const token_queue *const tq[VTA_QUEUE_COUNT] = {&l2g_, &g2l_, &g2s_, &s2g_};
	for (int q = 0; q < VTA_QUEUE_COUNT; q++)
		v.tokens[q] = tq[q]->count();
	v.dep_depth = ctl_.cfg.dep_depth;
	v.insn_depth = ctl_.cfg.insn_depth;
	for (int m = 0; m < VTA_MODULE_COUNT; m++)
		v.queued[m] = insn_queue_of(m).size();
}

} // namespace vtasim
