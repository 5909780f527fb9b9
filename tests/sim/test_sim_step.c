/*
 * test_sim_step.c - stepped runs of the SystemC model (vtasim_api.h "Stepping"): a run
 * stepped event by event, or in slices of cycles, or both, to its end gives the statistics,
 * records and the events beside them, status, SRAMs and DRAM of the plain run; its events match the records; what the
 * module and queue views say at chosen events; abandoning a stepped run; the API's edges.
 * Built four times: default config, tiny queues (FETCH and pushes wait for room), the RTL
 * datapath (cycles from the verilated units), and a cycle budget most random programs
 * run out of.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_randprog.h"
#include "sim_testutil.h"

#define BUDGET 1500
#ifdef STEP_RTL_CONFIG
#define PROGRAMS 12
#else
#define PROGRAMS 60
#endif

static void make_config(vta_config *cfg)
{
	vta_config_default(cfg);
	/* the cycles written below: no launch cost, no read pipeline, FETCH dispatching each
	 * instruction as it arrives */
	cfg->launch_cycles = 0;
	cfg->dram_read_pipeline_cycles = 0;
	cfg->fetch_dispatch = VTA_FETCH_STREAM;
#ifdef STEP_SMALL_CONFIG
	snprintf(cfg->name, sizeof(cfg->name), "%s", "step-small");
	cfg->insn_depth = 2;
	cfg->dep_depth = 1;
	cfg->dram_max_burst_bytes = 64;
#endif
#ifdef STEP_RTL_CONFIG
	cfg->datapath = VTA_DATAPATH_RTL;
#endif
#ifdef STEP_BUDGET_CONFIG
	cfg->cycle_budget = BUDGET;
#endif
	vta_error err = {0};
	if (vta_config_derive(cfg, &err) != VTA_OK)
		fail_msg("config: %s", err.detail);
}

static int setup(void **state)
{
	static simt t; /* cmocka state; one model per process */
	vta_config cfg;
	make_config(&cfg);
	simt_init(&t, &cfg);
	vta_error err = {0};
	if (vtasim_sim_set_recording(t.sim, 1, &err) != VTA_OK)
		fail_msg("set_recording: %s", err.detail);
	*state = &t;
	return 0;
}

static int teardown(void **state)
{
	simt_fini(*state);
	return 0;
}

/* What a run leaves: status, detail, statistics, records, SRAMs, DRAM. */
typedef struct outcome {
	vta_status st;
	vta_error err;
	vta_run_stats stats;
	vtasim_insn_record *records;
	size_t n_records;
	vtasim_port_burst *bursts;
	size_t n_bursts;
	vtasim_live_step *live;
	size_t n_live;
	vtasim_alu_wrap *wraps;
	size_t n_wraps;
	uint8_t *sram[VTA_MEM_OUT + 1];
	uint64_t sram_size[VTA_MEM_OUT + 1];
	vta_dram dram;
} outcome;

static const vta_mem SRAMS[] = {VTA_MEM_UOP, VTA_MEM_WGT, VTA_MEM_INP, VTA_MEM_ACC,
				VTA_MEM_OUT};

static void *copy(const void *from, size_t n)
{
	void *to = malloc(n + 1);
	assert_non_null(to);
	if (n)
		memcpy(to, from, n);
	return to;
}

static void keep(simt *t, outcome *o)
{
	const vtasim_insn_record *r = vtasim_sim_records(t->sim, &o->n_records);
	o->records = malloc((o->n_records + 1) * sizeof(*r));
	assert_non_null(o->records);
	if (o->n_records)
		memcpy(o->records, r, o->n_records * sizeof(*r));
	vtasim_run_events ev;
	vtasim_sim_events(t->sim, &ev);
	o->n_bursts = ev.n_bursts;
	o->n_live = ev.n_live;
	o->n_wraps = ev.n_wraps;
	o->bursts = copy(ev.bursts, ev.n_bursts * sizeof(*ev.bursts));
	o->live = copy(ev.live, ev.n_live * sizeof(*ev.live));
	o->wraps = copy(ev.wraps, ev.n_wraps * sizeof(*ev.wraps));
	for (size_t i = 0; i < sizeof(SRAMS) / sizeof(SRAMS[0]); i++) {
		const uint8_t *b = vtasim_sim_sram(t->sim, SRAMS[i], &o->sram_size[SRAMS[i]]);
		o->sram[SRAMS[i]] = malloc(o->sram_size[SRAMS[i]]);
		assert_non_null(o->sram[SRAMS[i]]);
		memcpy(o->sram[SRAMS[i]], b, o->sram_size[SRAMS[i]]);
	}
	o->stats.host_seconds = 0;
}

static void drop(outcome *o)
{
	free(o->records);
	free(o->bursts);
	free(o->live);
	free(o->wraps);
	for (size_t i = 0; i < sizeof(SRAMS) / sizeof(SRAMS[0]); i++)
		free(o->sram[SRAMS[i]]);
	vta_dram_free(&o->dram);
}

static void plain_run(simt *t, const vta_program *prog, outcome *o)
{
	memset(o, 0, sizeof(*o));
	simt_dram(prog, &o->dram);
	o->st = vtasim_sim_run(t->sim, prog, &o->dram, &o->stats, &o->err);
	keep(t, o);
}

/* How a stepped run advances: every event, slices of `slice` cycles (0: none), or events
 * until `events` have been seen and then straight to the end. */
typedef struct how {
	int every_event;
	uint64_t slice;
	size_t events;
} how;

/* Step prog to its end; check its events against its records as it goes. */
static void stepped_run(simt *t, const vta_program *prog, how h, outcome *o)
{
	memset(o, 0, sizeof(*o));
	simt_dram(prog, &o->dram);
	vta_error err = {0};
	vta_status st = vtasim_step_begin(t->sim, prog, &o->dram, &err);
	if (st != VTA_OK) { /* rejected before launch: as the plain run */
		o->st = st;
		o->err = err;
		keep(t, o);
		return;
	}
	assert_int_equal(vtasim_step_cycle(t->sim), 0);
	vtasim_event *events = calloc(2 * prog->n_insns + 1, sizeof(*events));
	assert_non_null(events);
	size_t n = 0;
	uint64_t last = 0, until = h.slice ? h.slice : VTASIM_CYCLE_NONE;
	for (;;) {
		if (h.events && n >= h.events)
			break;
		vtasim_stop stop;
		vtasim_event ev;
		if (vtasim_step_next(t->sim, until, &stop, &ev, &err) != VTA_OK)
			fail_msg("step: %s", err.detail);
		if (stop == VTASIM_STOP_OVER)
			break;
		if (stop == VTASIM_STOP_CYCLE) {
			assert_int_equal(vtasim_step_cycle(t->sim), until);
			assert_true(until >= last);
			last = until;
			until += h.slice;
			continue;
		}
		assert_int_equal(stop, VTASIM_STOP_EVENT);
		assert_true(n < 2 * prog->n_insns);
		assert_true(ev.cycle >= last);
		assert_true(until == VTASIM_CYCLE_NONE || ev.cycle < until);
		assert_int_equal(vtasim_step_cycle(t->sim), ev.cycle);
		last = ev.cycle;
		events[n++] = ev;
	}
	o->st = vtasim_step_end(t->sim, &o->stats, &o->err);
	keep(t, o);
	if (h.events)
		goto out;
	/* every instruction that started or ended has its event, at its record's cycle */
	size_t want = 0;
	for (size_t i = 0; i < o->n_records; i++) {
		const vtasim_insn_record *r = &o->records[i];
		want += (r->start_cycle != VTASIM_CYCLE_NONE) + (r->end_cycle != VTASIM_CYCLE_NONE);
	}
	assert_int_equal(n, want);
	for (size_t k = 0; k < n; k++) {
		assert_true(events[k].index < o->n_records);
		const vtasim_insn_record *r = &o->records[events[k].index];
		assert_int_equal(events[k].module, r->module);
		assert_int_equal(events[k].cycle, events[k].kind == VTASIM_EVENT_START
							  ? r->start_cycle
							  : r->end_cycle);
	}
out:
	free(events);
}

static void same(const outcome *a, const outcome *b, const char *what)
{
	if (a->st != b->st)
		fail_msg("%s: status %d (%s) vs %d (%s)", what, a->st, a->err.detail, b->st,
			 b->err.detail);
	assert_string_equal(a->err.detail, b->err.detail);
	if (memcmp(&a->stats, &b->stats, sizeof(a->stats)) != 0)
		fail_msg("%s: statistics differ (cycles %llu vs %llu)", what,
			 (unsigned long long)a->stats.cycles, (unsigned long long)b->stats.cycles);
	assert_int_equal(a->n_records, b->n_records);
	if (a->n_records && memcmp(a->records, b->records, a->n_records * sizeof(*a->records)))
		fail_msg("%s: records differ", what);
	/* the events kept beside the records, field by field (no padding compared) */
	assert_int_equal(a->n_bursts, b->n_bursts);
	for (size_t i = 0; i < a->n_bursts; i++) {
		const vtasim_port_burst *x = &a->bursts[i], *y = &b->bursts[i];
		if (x->insn != y->insn || x->ask_cycle != y->ask_cycle ||
		    x->start_cycle != y->start_cycle || x->beats != y->beats ||
		    x->bytes != y->bytes || x->module != y->module)
			fail_msg("%s: DRAM port burst %zu differs", what, i);
	}
	assert_int_equal(a->n_live, b->n_live);
	if (a->n_live && memcmp(a->live, b->live, a->n_live * sizeof(*a->live)))
		fail_msg("%s: live-bytes steps differ", what);
	assert_int_equal(a->n_wraps, b->n_wraps);
	if (a->n_wraps && memcmp(a->wraps, b->wraps, a->n_wraps * sizeof(*a->wraps)))
		fail_msg("%s: ALU wraps differ", what);
	for (size_t i = 0; i < sizeof(SRAMS) / sizeof(SRAMS[0]); i++) {
		vta_mem m = SRAMS[i];
		assert_int_equal(a->sram_size[m], b->sram_size[m]);
		if (memcmp(a->sram[m], b->sram[m], a->sram_size[m]))
			fail_msg("%s: %s SRAM differs", what, vta_mem_name(m));
	}
	assert_int_equal(a->dram.size, b->dram.size);
	if (memcmp(a->dram.bytes, b->dram.bytes, a->dram.size))
		fail_msg("%s: DRAM differs", what);
}

/* The plain run of prog against the stepped runs of every kind. */
static vta_status check_program(simt *t, const vta_program *prog, uint32_t seed)
{
	outcome plain, stepped;
	plain_run(t, prog, &plain);
	const vta_status st = plain.st;
	assert_true(plain.n_bursts > 0); /* recorded: FETCH's bursts at least */
	const how hows[] = {
		{1, 0, 0},                      /* every event */
		{0, 1 + seed % 97, 0},          /* events and slices */
		{0, 50000, 0},                  /* slices longer than most runs */
		{0, 0, 1 + seed % 7},           /* a few events, then the rest at once */
	};
	for (size_t i = 0; i < sizeof(hows) / sizeof(hows[0]); i++) {
		char what[64];
		snprintf(what, sizeof(what), "program %u, stepping %zu", seed, i);
		stepped_run(t, prog, hows[i], &stepped);
		same(&plain, &stepped, what);
		drop(&stepped);
	}
	drop(&plain);
	return st;
}

static void test_random_programs(void **state)
{
	simt *t = *state;
	int budget_out = 0;
	for (uint32_t seed = 1; seed <= PROGRAMS; seed++) {
		vta_program prog;
		vta_program_init(&prog, &t->cfg);
		rp_generate(&t->cfg, seed * 2654435761u, &prog);
		budget_out += check_program(t, &prog, seed) == VTA_E_NO_FINISH;
		vta_program_free(&prog);
	}
#ifdef STEP_BUDGET_CONFIG
	assert_true(budget_out > PROGRAMS / 4);
#else
	assert_int_equal(budget_out, 0);
#endif
}

/* Failed runs step to the same failure: a deadlock, an out-of-bounds GEMM, the budget. */
static void test_failed_runs(void **state)
{
	simt *t = *state;
	static const char *const progs[] = {
		".uops 0x1000\nuop dst=0 src=0 wgt=0\n.text\n"
		"load mem=uop sram=0 dram=0x400 y=1 x=1 stride=1\n"
		"load mem=inp sram=0 dram=0x200 y=1 x=1 stride=1\n"
		"gemm reset=0 uop=0,1 iter=1,1 dst=0,0 src=0,0 wgt=0,0 deps=pop_prev\n"
		"finish\n",
		"load mem=uop sram=0 dram=0 y=1 x=1 stride=1\n"
		"gemm reset=1 uop=0,1 iter=1,1 dst=0,0 src=0,0 wgt=0,0\n"
		"gemm reset=1 uop=0,1 iter=3,1 dst=1500,0 src=0,0 wgt=0,0\n"
		"finish\n",
		"load mem=inp sram=0 dram=0 y=1 x=8 stride=8\n", /* no FINISH */
	};
	for (size_t i = 0; i < sizeof(progs) / sizeof(progs[0]); i++) {
		vta_program prog;
		simt_asm(t, progs[i], &prog);
		check_program(t, &prog, (uint32_t)i);
		vta_program_free(&prog);
	}
}

#if !defined(STEP_SMALL_CONFIG) && !defined(STEP_RTL_CONFIG) && !defined(STEP_BUDGET_CONFIG)
#define STEP_VIEWS

/* A LOAD that pushes l2g and a GEMM that pops it (test_sim_records.c has the cycles):
 * what the views say along the way. */
static void test_views(void **state)
{
	simt *t = *state;
	vta_program prog;
	vta_dram dram;
	vta_error err = {0};
	simt_asm(t,
		 "load mem=uop sram=0 dram=0 y=1 x=16 stride=16\n"               /* 0 compute */
		 "load mem=inp sram=0 dram=0x10 y=1 x=16 stride=16 deps=push_next\n" /* 1 load */
		 "gemm reset=0 uop=0,1 iter=1,1 dst=0,0 src=0,0 wgt=0,0 deps=pop_prev\n"
		 "finish\n",
		 &prog);
	simt_dram(&prog, &dram);
	assert_int_equal(vtasim_step_begin(t->sim, &prog, &dram, &err), VTA_OK);

	/* before cycle 0: everything empty, FETCH about to read insn 0 */
	vtasim_module_view v;
	vtasim_queue_view q;
	assert_int_equal(vtasim_step_module(t->sim, VTA_STATS_FETCH, &v, &err), VTA_OK);
	assert_int_equal(v.activity, VTASIM_ACT_IDLE);
	assert_int_equal(vtasim_step_queue(t->sim, &q, &err), VTA_OK);
	assert_int_equal(q.queued[VTA_MODULE_COMPUTE], 0);
	assert_int_equal(q.insn_depth, t->cfg.insn_depth);
	assert_int_equal(q.dep_depth, t->cfg.dep_depth);

	/* cycle 10: FETCH's burst is on its way, every instruction queued ahead of it */
	vtasim_stop stop;
	vtasim_event ev;
	assert_int_equal(vtasim_step_next(t->sim, 10, &stop, &ev, &err), VTA_OK);
	assert_int_equal(stop, VTASIM_STOP_CYCLE);
	assert_int_equal(vtasim_step_cycle(t->sim), 10);
	assert_int_equal(vtasim_step_queue(t->sim, &q, &err), VTA_OK);
	assert_int_equal(q.queued[VTA_MODULE_COMPUTE], 3);
	assert_int_equal(q.queued[VTA_MODULE_LOAD], 1);
	vtasim_queued e;
	assert_int_equal(vtasim_step_queued(t->sim, VTA_MODULE_COMPUTE, 1, &e, &err), VTA_OK);
	assert_int_equal(e.index, 2);
	assert_int_equal(e.arrive_cycle, 66 + 2 * 2);
	assert_int_equal(vtasim_step_queued(t->sim, VTA_MODULE_COMPUTE, 3, &e, &err),
			 VTA_E_USAGE);
	assert_int_equal(vtasim_step_module(t->sim, VTA_STATS_COMPUTE, &v, &err), VTA_OK);
	assert_int_equal(v.activity, VTASIM_ACT_ARRIVING);
	assert_int_equal(v.insn, 0);

	/* insn 0 starts at 66; 1 at 68 */
	assert_int_equal(vtasim_step_next(t->sim, VTASIM_CYCLE_NONE, &stop, &ev, &err), VTA_OK);
	assert_int_equal(stop, VTASIM_STOP_EVENT);
	assert_int_equal(ev.index, 0);
	assert_int_equal(ev.kind, VTASIM_EVENT_START);
	assert_int_equal(ev.module, VTA_STATS_COMPUTE);
	assert_int_equal(ev.cycle, 66);
	assert_int_equal(vtasim_step_next(t->sim, VTASIM_CYCLE_NONE, &stop, &ev, &err), VTA_OK);
	assert_int_equal(ev.index, 1);
	assert_int_equal(ev.cycle, 68);
	assert_int_equal(vtasim_step_module(t->sim, VTA_STATS_LOAD, &v, &err), VTA_OK);
	assert_int_equal(v.activity, VTASIM_ACT_BUSY);
	assert_int_equal(v.insn, 1);

	/* insn 0 ends (LOAD UOP), and the GEMM waits for l2g behind it */
	assert_int_equal(vtasim_step_next(t->sim, VTASIM_CYCLE_NONE, &stop, &ev, &err), VTA_OK);
	assert_int_equal(ev.index, 0);
	assert_int_equal(ev.kind, VTASIM_EVENT_END);
	assert_int_equal(vtasim_step_module(t->sim, VTA_STATS_COMPUTE, &v, &err), VTA_OK);
	assert_int_equal(v.activity, VTASIM_ACT_POP);
	assert_int_equal(v.queue, VTA_QUEUE_L2G);
	assert_int_equal(v.insn, 2);
	assert_int_equal(vtasim_step_module(t->sim, VTA_STATS_FETCH, &v, &err), VTA_OK);
	assert_int_equal(v.activity, VTASIM_ACT_IDLE);
	assert_int_equal(v.insn, -1);

	/* insn 1 ends: its INP row is in the SRAM, its token not pushed yet */
	assert_int_equal(vtasim_step_next(t->sim, VTASIM_CYCLE_NONE, &stop, &ev, &err), VTA_OK);
	assert_int_equal(ev.index, 1);
	assert_int_equal(ev.kind, VTASIM_EVENT_END);
	uint64_t size = 0;
	const uint8_t *inp = vtasim_sim_sram(t->sim, VTA_MEM_INP, &size);
	assert_memory_equal(inp, dram.bytes + 0x10 * 16, 16);

	/* the GEMM starts the same delta cycle the token is pushed: one event each */
	assert_int_equal(vtasim_step_next(t->sim, VTASIM_CYCLE_NONE, &stop, &ev, &err), VTA_OK);
	assert_int_equal(ev.index, 2);
	assert_int_equal(ev.kind, VTASIM_EVENT_START);
	assert_int_equal(vtasim_step_queue(t->sim, &q, &err), VTA_OK);
	assert_int_equal(q.tokens[VTA_QUEUE_L2G], 0);
	assert_int_equal(q.queued[VTA_MODULE_LOAD], 0);

	/* up to an earlier cycle than now: nothing happens */
	const uint64_t now = vtasim_step_cycle(t->sim);
	assert_int_equal(vtasim_step_next(t->sim, now, &stop, &ev, &err), VTA_OK);
	assert_int_equal(stop, VTASIM_STOP_CYCLE);
	assert_int_equal(vtasim_step_cycle(t->sim), now);

	/* to the end: GEMM end, FINISH start and end, then over */
	int events = 0;
	for (;;) {
		assert_int_equal(vtasim_step_next(t->sim, VTASIM_CYCLE_NONE, &stop, &ev, &err),
				 VTA_OK);
		if (stop == VTASIM_STOP_OVER)
			break;
		events++;
	}
	assert_int_equal(events, 3);
	assert_int_equal(vtasim_step_next(t->sim, VTASIM_CYCLE_NONE, &stop, &ev, &err), VTA_OK);
	assert_int_equal(stop, VTASIM_STOP_OVER);
	vta_run_stats s;
	assert_int_equal(vtasim_step_end(t->sim, &s, &err), VTA_OK);
	assert_int_equal(s.cycles, 187);
	assert_int_equal(vtasim_step_cycle(t->sim), 187);
	/* ended, the views still show where it stopped */
	assert_int_equal(vtasim_step_next(t->sim, VTASIM_CYCLE_NONE, &stop, &ev, &err), VTA_E_USAGE);
	assert_int_equal(vtasim_step_queue(t->sim, &q, &err), VTA_OK);
	assert_int_equal(q.queued[VTA_MODULE_LOAD], 0);
	assert_int_equal(vtasim_step_module(t->sim, VTA_STATS_LOAD, &v, &err), VTA_OK);
	assert_int_equal(v.activity, VTASIM_ACT_IDLE);
	vta_dram_free(&dram);
	vta_program_free(&prog);
}

#endif

#ifdef STEP_VIEWS

/* The decoder's descriptors: unset at cycle 0, set when the table load ends. */
static void test_lut_slots(void **state)
{
	simt *t = *state;
	vta_program prog;
	vta_dram dram;
	vta_error err = {0};
	simt_asm(t,
		 "load mem=lut sram=8 dram=0x100 y=4 x=3 stride=3 slot=2 deps=push_next\n"
		 "finish deps=pop_prev\n",
		 &prog);
	simt_dram(&prog, &dram);
	assert_int_equal(vtasim_step_begin(t->sim, &prog, &dram, &err), VTA_OK);
	vta_lut_desc slots[VTA_LUT_SLOTS];
	assert_int_equal(vtasim_step_lut_slots(t->sim, slots, &err), VTA_OK);
	for (int i = 0; i < VTA_LUT_SLOTS; i++)
		assert_false(slots[i].set);
	vtasim_stop stop;
	vtasim_event ev;
	do
		assert_int_equal(vtasim_step_next(t->sim, VTASIM_CYCLE_NONE, &stop, &ev, &err),
				 VTA_OK);
	while (stop == VTASIM_STOP_EVENT && !(ev.index == 0 && ev.kind == VTASIM_EVENT_END));
	assert_int_equal(stop, VTASIM_STOP_EVENT);
	assert_int_equal(vtasim_step_lut_slots(t->sim, slots, &err), VTA_OK);
	assert_true(slots[2].set);
	assert_int_equal(slots[2].base, 8);
	assert_int_equal(slots[2].stride, 3);
	assert_int_equal(slots[2].channels, 4);
	assert_int_equal(slots[2].width, 8);
	assert_false(slots[1].set);
	assert_int_equal(vtasim_step_end(t->sim, NULL, &err), VTA_OK);
	assert_int_equal(vtasim_step_lut_slots(NULL, slots, &err), VTA_E_USAGE);
	vta_dram_free(&dram);
	vta_program_free(&prog);
}

#endif

/* Another run on the model abandons a stepped one; the API's edges. */
static void test_abandon_and_edges(void **state)
{
	simt *t = *state;
	vta_error err = {0};
	vtasim_stop stop;
	vtasim_module_view v;
	vtasim_queue_view q;
	vtasim_queued e;
	assert_int_equal(vtasim_step_next(NULL, 0, &stop, NULL, &err), VTA_E_USAGE);
	assert_int_equal(vtasim_step_begin(NULL, NULL, NULL, &err), VTA_E_USAGE);
	assert_int_equal(vtasim_step_end(NULL, NULL, &err), VTA_E_USAGE);
	assert_int_equal(vtasim_step_cycle(NULL), 0);

	vta_program prog;
	vta_program_init(&prog, &t->cfg);
	rp_generate(&t->cfg, 12345u, &prog);
	outcome plain, again;
	plain_run(t, &prog, &plain);
	/* the last run was a plain one: no stepped run to step or look at */
	assert_int_equal(vtasim_step_next(t->sim, 0, &stop, NULL, &err), VTA_E_USAGE);
	simt_expect_detail(err.detail, "no stepped run", NULL);
	assert_int_equal(vtasim_step_module(t->sim, VTA_STATS_LOAD, &v, &err), VTA_E_USAGE);
	assert_int_equal(vtasim_step_queue(t->sim, &q, &err), VTA_E_USAGE);
	assert_int_equal(vtasim_step_queued(t->sim, 0, 0, &e, &err), VTA_E_USAGE);

	/* a few events, then a plain run replaces the stepped one and is unaffected */
	vta_dram dram;
	simt_dram(&prog, &dram);
	assert_int_equal(vtasim_step_begin(t->sim, &prog, &dram, &err), VTA_OK);
	assert_int_equal(vtasim_step_module(t->sim, 9, &v, &err), VTA_E_USAGE);
	for (int i = 0; i < 5; i++)
		assert_int_equal(vtasim_step_next(t->sim, VTASIM_CYCLE_NONE, &stop, NULL, &err),
				 VTA_OK);
	plain_run(t, &prog, &again);
	same(&plain, &again, "after an abandoned stepped run");
	drop(&again);
	assert_int_equal(vtasim_step_next(t->sim, VTASIM_CYCLE_NONE, &stop, NULL, &err),
			 VTA_E_USAGE);
	assert_int_equal(vtasim_step_end(t->sim, NULL, &err), VTA_E_USAGE);
	assert_int_equal(vtasim_step_queue(t->sim, &q, &err), VTA_E_USAGE);
	vta_dram_free(&dram);

	/* a stepped run begun again while one is under way starts over */
	for (int k = 0; k < 2; k++) {
		simt_dram(&prog, &dram);
		assert_int_equal(vtasim_step_begin(t->sim, &prog, &dram, &err), VTA_OK);
		for (int i = 0; i < 7; i++)
			assert_int_equal(vtasim_step_next(t->sim, 300, &stop, NULL, &err), VTA_OK);
		vta_dram_free(&dram);
	}
	memset(&again, 0, sizeof(again));
	simt_dram(&prog, &again.dram);
	assert_int_equal(vtasim_step_begin(t->sim, &prog, &again.dram, &err), VTA_OK);
	again.st = vtasim_step_end(t->sim, &again.stats, &again.err);
	keep(t, &again);
	same(&plain, &again, "stepped after two abandoned stepped runs");
	drop(&again);
	drop(&plain);

	/* a stream rejected before launch: no stepped run */
	vta_program bad;
	simt_asm(t, "finish\n", &bad);
	vta_insn in = {.opcode = VTA_OP_LOAD};
	in.mem.mem_type = VTA_MEM_INP;
	in.deps.pop_prev = true;
	if (vta_insn_encode(&t->cfg, &in, bad.insns, &err) != VTA_OK)
		fail_msg("%s", err.detail);
	simt_dram(&bad, &dram);
	assert_int_equal(vtasim_step_begin(t->sim, &bad, &dram, &err), VTA_E_FLAGS);
	assert_int_equal(vtasim_step_next(t->sim, VTASIM_CYCLE_NONE, &stop, NULL, &err),
			 VTA_E_USAGE);
	vta_dram_free(&dram);
	vta_program_free(&bad);
	vta_program_free(&prog);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_programs),
		cmocka_unit_test(test_failed_runs),
#ifdef STEP_VIEWS
		cmocka_unit_test(test_views),
		cmocka_unit_test(test_lut_slots),
#endif
		cmocka_unit_test(test_abandon_and_edges),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
