/*
 * trace_walk.c - the steps of a run's timeline from its instruction records (see
 * trace_walk.h). Steps are handed over as they are made: memory stays proportional to the
 * run's instructions (the counter changes), whatever the format.
 */
#include "trace_walk.h"

#include <stdio.h>
#include <stdlib.h>

#define NONE VTASIM_CYCLE_NONE

/* Counter series: the token queues, then the instruction queues. */
enum { SERIES_INSN_Q = VTA_QUEUE_COUNT, SERIES_COUNT = SERIES_INSN_Q + TRACE_INSN_QUEUES };

/* The most counter changes one instruction makes: dispatch, retirement, pops, pushes. */
#define CHANGES_MAX (2 + 2 * VTA_QUEUE_COUNT)

typedef struct change {
	uint64_t t;
	int series, delta;
} change;

typedef struct walk {
	trace_step s; /* the step being made: its run, number and instruction already set */
	trace_visit *visit;
	void *writer;
} walk;

static const char *const MODULE_NAMES[VTA_STATS_MODULES] = {"fetch", "load", "compute",
							      "store"};
static const char *const STAGE_NAMES[] = {"fetch", "queued", "waiting", "executing",
					  "pushing", "retired"};

const char *trace_module_name(int module)
{
	return module >= 0 && module < VTA_STATS_MODULES ? MODULE_NAMES[module] : "?";
}

const char *trace_stage_name(int stage)
{
	return stage >= 0 && stage <= VTASIM_STAGE_RETIRED ? STAGE_NAMES[stage] : "?";
}

static void step(walk *w, trace_step_kind kind)
{
	w->s.kind = kind;
	w->visit(w->writer, &w->s);
}

/* A span [start, end) of instruction i on a module's track, cut at the run's end (and
 * dropped if it starts past it). */
static void span(walk *w, trace_step_kind kind, int track, size_t i, int queue,
		 uint64_t start, uint64_t end)
{
	const uint64_t run_end = w->s.run->stats->cycles;
	w->s.insn = i;
	w->s.rec = &w->s.run->recs[i];
	w->s.track = track;
	w->s.queue = queue;
	w->s.start = start;
	w->s.end = end > run_end ? run_end : end;
	if (start <= w->s.end)
		step(w, kind);
}

/* FETCH's track: each burst with its wait for the port before it, then the waits for room
 * in an instruction queue inside it (each from the later of the instruction's arrival and
 * the previous dispatch to its own dispatch). */
static void fetch_track(walk *w)
{
	const trace_run *r = w->s.run;
	const vtasim_insn_record *rec = r->recs;
	const int fetch = VTA_STATS_FETCH;
	size_t i = 0;
	while (i < r->n && rec[i].stage >= VTASIM_STAGE_QUEUED) {
		size_t j = i;
		while (j + 1 < r->n && rec[j + 1].stage >= VTASIM_STAGE_QUEUED &&
		       rec[j + 1].fetch_cycle == rec[i].fetch_cycle)
			j++;
		const uint64_t bs = rec[i].fetch_cycle;
		if (rec[i].fetch_port_cycles)
			span(w, TRACE_FETCH_PORT, fetch, i, 0, bs - rec[i].fetch_port_cycles, bs);
		w->s.last = j;
		span(w, TRACE_FETCH_BURST, fetch, i, 0, bs, rec[j].dispatch_cycle);
		uint64_t prev = bs;
		for (size_t k = i; k <= j; k++) {
			uint64_t lo = rec[k].arrive_cycle > prev ? rec[k].arrive_cycle : prev;
			if (rec[k].dispatch_cycle > lo)
				span(w, TRACE_FETCH_ROOM, fetch, k, rec[k].module, lo,
				     rec[k].dispatch_cycle);
			prev = rec[k].dispatch_cycle;
		}
		i = j + 1;
	}
	/* a failed run may end with FETCH waiting for room to dispatch instruction i */
	const uint64_t end = r->stats->cycles;
	if (i < r->n && rec[i].fetch_room_cycles && r->err)
		span(w, TRACE_FETCH_ROOM, fetch, i, rec[i].module, end - rec[i].fetch_room_cycles,
		     end);
}

/* On instruction i's module track: its waits for tokens, its execution and its waits for
 * room to push. */
static void module_spans(walk *w, size_t i)
{
	const vtasim_insn_record *rec = &w->s.run->recs[i];
	if (rec->wait_cycle == NONE || !w->s.in)
		return;
	uint64_t c = rec->wait_cycle;
	for (int q = 0; q < VTA_QUEUE_COUNT; q++) {
		if (!(rec->pops & (1u << q)) || !rec->pop_cycles[q])
			continue;
		span(w, TRACE_POP_WAIT, rec->module, i, q, c, c + rec->pop_cycles[q]);
		c += rec->pop_cycles[q];
	}
	if (rec->start_cycle == NONE)
		return;
	span(w, TRACE_EXEC, rec->module, i, 0, rec->start_cycle,
	     rec->end_cycle == NONE ? w->s.run->stats->cycles : rec->end_cycle);
	if (rec->end_cycle == NONE)
		return;
	c = rec->end_cycle;
	for (int q = 0; q < VTA_QUEUE_COUNT; q++) {
		if (!(rec->pushes & (1u << q)) || !rec->push_cycles[q])
			continue;
		span(w, TRACE_PUSH_ROOM, rec->module, i, q, c, c + rec->push_cycles[q]);
		c += rec->push_cycles[q];
	}
}

/* What instruction i does to the counters: it is in its module's queue from dispatch to
 * retirement, pops its tokens at its start and pushes each after its wait for room
 * (FINISH pushes nothing). Returns the changes added at ch. */
static size_t count_changes(const walk *w, size_t i, change *ch)
{
	const vtasim_insn_record *rec = &w->s.run->recs[i];
	const uint64_t run_end = w->s.run->stats->cycles;
	const int iq = SERIES_INSN_Q + rec->module - VTA_STATS_LOAD;
	size_t n = 0;
	if (rec->stage >= VTASIM_STAGE_QUEUED && rec->dispatch_cycle <= run_end)
		ch[n++] = (change){rec->dispatch_cycle, iq, +1};
	if (rec->stage == VTASIM_STAGE_RETIRED)
		ch[n++] = (change){rec->retire_cycle, iq, -1};
	if (rec->stage >= VTASIM_STAGE_EXECUTING)
		for (int q = 0; q < VTA_QUEUE_COUNT; q++)
			if (rec->pops & (1u << q))
				ch[n++] = (change){rec->start_cycle, q, -1};
	if (rec->stage < VTASIM_STAGE_PUSHING || !rec->pushes || !w->s.in ||
	    w->s.in->opcode == VTA_OP_FINISH)
		return n;
	uint64_t c = rec->end_cycle;
	for (int q = 0; q < VTA_QUEUE_COUNT; q++) {
		if (!(rec->pushes & (1u << q)))
			continue;
		c += rec->push_cycles[q];
		/* a push still waiting when a failed run ended never happened */
		if (rec->stage == VTASIM_STAGE_RETIRED || c < run_end)
			ch[n++] = (change){c, q, +1};
	}
	return n;
}

static int by_time(const void *a, const void *b)
{
	const change *x = a, *y = b;
	return x->t < y->t ? -1 : x->t > y->t;
}

/* The counters: zeros at the launch unless something changes then, then the values at
 * each time something changes, saying which group (tokens, instruction queues) did. */
static void counters(walk *w, change *ch, size_t n)
{
	long value[SERIES_COUNT] = {0};
	qsort(ch, n, sizeof(*ch), by_time);
	w->s.tokens = value;
	w->s.insn_queues = value + SERIES_INSN_Q;
	w->s.start = 0;
	w->s.tokens_changed = w->s.queues_changed = n == 0 || ch[0].t > 0;
	if (w->s.tokens_changed)
		step(w, TRACE_COUNTS);
	for (size_t k = 0; k < n;) {
		w->s.start = ch[k].t;
		w->s.tokens_changed = w->s.queues_changed = 0;
		for (; k < n && ch[k].t == w->s.start; k++) {
			value[ch[k].series] += ch[k].delta;
			if (ch[k].series < SERIES_INSN_Q)
				w->s.tokens_changed = 1;
			else
				w->s.queues_changed = 1;
		}
		step(w, TRACE_COUNTS);
	}
}

vta_status trace_walk(const trace_run *run, int number, const vta_config *cfg,
		      trace_visit *visit, void *writer, vta_error *err)
{
	change *ch = malloc((run->n * CHANGES_MAX + 1) * sizeof(*ch));
	if (!ch)
		return vta_fail(err, VTA_E_NOMEM, "out of memory");
	walk w = {.s = {.run = run, .number = number}, .visit = visit, .writer = writer};
	step(&w, TRACE_RUN_BEGIN);
	fetch_track(&w);
	size_t nch = 0;
	vta_insn in;
	char text[256];
	for (size_t i = 0; i < run->n; i++) {
		vta_error sub = {0};
		w.s.in = NULL;
		w.s.text = text;
		if (vta_program_insn(run->prog, cfg, i, &in, &sub) == VTA_OK) {
			w.s.in = &in;
			vta_disasm_insn(&in, text, sizeof(text));
		} else {
			snprintf(text, sizeof(text), "? (%s)", sub.detail);
		}
		w.s.insn = i;
		w.s.rec = &run->recs[i];
		w.s.track = run->recs[i].module;
		step(&w, TRACE_INSN);
		nch += count_changes(&w, i, ch + nch);
		module_spans(&w, i);
	}
	w.s.in = NULL;
	w.s.text = NULL;
	w.s.rec = NULL;
	counters(&w, ch, nch);
	step(&w, TRACE_RUN_END);
	free(ch);
	return VTA_OK;
}
