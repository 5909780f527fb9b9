/*
 * trace_walk.c - the steps of a run's timeline from its instruction records and events
 * (see trace_walk.h). Steps are handed over as they are made: memory stays proportional to
 * the run's instructions and events (the counter changes, who pushed and popped each
 * token), whatever the format.
 */
#include "trace_walk.h"

#include <stdio.h>
#include <stdlib.h>

#define NONE VTASIM_CYCLE_NONE

/* Counter series: the token queues, the instruction queues, the SRAMs' live bytes. */
enum {
	SERIES_INSN_Q = VTA_QUEUE_COUNT,
	SERIES_LIVE = SERIES_INSN_Q + TRACE_INSN_QUEUES,
	SERIES_COUNT = SERIES_LIVE + VTA_STATS_SRAMS
};

/* The most counter changes one instruction makes: dispatch, retirement, pops, pushes. */
#define CHANGES_MAX (2 + 2 * VTA_QUEUE_COUNT)

typedef struct change {
	uint64_t t;
	int series;
	long delta;
} change;

/* The pushes (or the pops) of one token queue that happened, in order: who and when. */
typedef struct token_ends {
	size_t *insn;
	uint64_t *at;
	size_t n;    /* that happened */
	size_t next; /* handed out so far by the walk */
} token_ends;

typedef struct walk {
	trace_step s; /* the step being made: its run, number and instruction already set */
	trace_visit *visit;
	void *writer;
	token_ends push[VTA_QUEUE_COUNT], pop[VTA_QUEUE_COUNT];
	size_t burst_at[VTA_STATS_MODULES]; /* per client, its next burst in run->ev.bursts */
	size_t wrap_at;                     /* the next lane in run->ev.wraps */
	uint64_t latency;                   /* the DRAM's: a read's data comes no earlier */
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

/* Whether instruction rec (a FINISH if finish) pushed a token into q in the run, and when:
 * pushes go in queue order, each after its own wait for room; FINISH pushes nothing, and a
 * push still waiting when a failed run ended never happened. */
static int pushed(const trace_run *r, const vtasim_insn_record *rec, int finish, int q,
		  uint64_t *at)
{
	if (rec->stage < VTASIM_STAGE_PUSHING || finish || !(rec->pushes & (1u << q)))
		return 0;
	uint64_t c = rec->end_cycle;
	for (int p = 0; p <= q; p++)
		if (rec->pushes & (1u << p))
			c += rec->push_cycles[p];
	*at = c;
	return rec->stage == VTASIM_STAGE_RETIRED || c < r->stats->cycles;
}

/* Whether it popped a token of q, and when (its start). */
static int popped(const vtasim_insn_record *rec, int q, uint64_t *at)
{
	*at = rec->start_cycle;
	return rec->stage >= VTASIM_STAGE_EXECUTING && (rec->pops & (1u << q));
}

/* Instruction i pushes or pops a token of q at `at`: the token's number and the other end. */
static void token_step(walk *w, trace_step_kind kind, size_t i, int q, uint64_t at)
{
	token_ends *mine = kind == TRACE_PUSH ? &w->push[q] : &w->pop[q];
	const token_ends *other = kind == TRACE_PUSH ? &w->pop[q] : &w->push[q];
	const uint64_t k = mine->next++;
	w->s.insn = i;
	w->s.rec = &w->s.run->recs[i];
	w->s.track = w->s.rec->module;
	w->s.queue = q;
	w->s.start = w->s.end = at;
	w->s.token = k;
	w->s.partner = k < other->n ? other->insn[k] : TRACE_NO_INSN;
	w->s.partner_cycle = k < other->n ? other->at[k] : NONE;
	step(w, kind);
}

/* On instruction i's module track: its waits for tokens, its execution, its pops, its
 * waits for the DRAM port, and its waits for room with its pushes. */
static void module_spans(walk *w, size_t i)
{
	const vtasim_insn_record *rec = &w->s.run->recs[i];
	const vtasim_run_events *ev = &w->s.run->ev;
	if (rec->wait_cycle == NONE || !w->s.in)
		return;
	uint64_t c = rec->wait_cycle, at;
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
	for (int q = 0; q < VTA_QUEUE_COUNT; q++)
		if (popped(rec, q, &at))
			token_step(w, TRACE_POP, i, q, at);
	/* its bursts: this client's next ones (one module's come in its program order) */
	size_t *b = &w->burst_at[rec->module];
	while (*b < ev->n_bursts &&
	       (ev->bursts[*b].module != rec->module || ev->bursts[*b].insn < i))
		++*b;
	/* a read burst waits for the port when its data comes later than the latency after its
	 * request and after the transfer's previous burst; STORE's waits for responses are its
	 * time on an idle port */
	uint64_t prev_end = 0;
	for (; *b < ev->n_bursts && ev->bursts[*b].insn == i; ++*b) {
		const vtasim_port_burst *pb = &ev->bursts[*b];
		uint64_t from = pb->ask_cycle + w->latency;
		if (from < prev_end)
			from = prev_end;
		if (rec->module != VTA_STATS_STORE && from < pb->start_cycle)
			span(w, TRACE_PORT_WAIT, rec->module, i, 0, from, pb->start_cycle);
		prev_end = pb->start_cycle + pb->beats;
		while (*b + 1 < ev->n_bursts && ev->bursts[*b + 1].module != rec->module)
			++*b;
	}
	if (rec->end_cycle == NONE)
		return;
	c = rec->end_cycle;
	const int finish = w->s.in->opcode == VTA_OP_FINISH;
	for (int q = 0; q < VTA_QUEUE_COUNT; q++) {
		if (!(rec->pushes & (1u << q)))
			continue;
		if (rec->push_cycles[q])
			span(w, TRACE_PUSH_ROOM, rec->module, i, q, c, c + rec->push_cycles[q]);
		c += rec->push_cycles[q];
		if (pushed(w->s.run, rec, finish, q, &at))
			token_step(w, TRACE_PUSH, i, q, at);
	}
}

/* Who pushed and popped each token queue, and when, before the walk hands out tokens.
 * Returns nonzero when out of memory. */
static int index_tokens(walk *w, const vta_config *cfg)
{
	const trace_run *r = w->s.run;
	for (int q = 0; q < VTA_QUEUE_COUNT; q++) {
		token_ends *e[2] = {&w->push[q], &w->pop[q]};
		for (int k = 0; k < 2; k++) {
			e[k]->insn = malloc((r->n + 1) * sizeof(size_t));
			e[k]->at = malloc((r->n + 1) * sizeof(uint64_t));
			if (!e[k]->insn || !e[k]->at)
				return 1;
		}
	}
	for (size_t i = 0; i < r->n; i++) {
		const vtasim_insn_record *rec = &r->recs[i];
		vta_insn in;
		vta_error sub = {0};
		const int finish = vta_program_insn(r->prog, cfg, i, &in, &sub) == VTA_OK &&
				   in.opcode == VTA_OP_FINISH;
		for (int q = 0; q < VTA_QUEUE_COUNT; q++) {
			uint64_t at;
			token_ends *e = &w->push[q];
			if (pushed(r, rec, finish, q, &at)) {
				e->insn[e->n] = i;
				e->at[e->n++] = at;
			}
			e = &w->pop[q];
			if (popped(rec, q, &at)) {
				e->insn[e->n] = i;
				e->at[e->n++] = at;
			}
		}
	}
	/* one module pushes (pops) a queue, in its program order: already in time order */
	return 0;
}

static void free_tokens(walk *w)
{
	for (int q = 0; q < VTA_QUEUE_COUNT; q++) {
		free(w->push[q].insn);
		free(w->push[q].at);
		free(w->pop[q].insn);
		free(w->pop[q].at);
	}
}

/* The DRAM port's bursts, in time order. */
static void port_bursts(walk *w)
{
	const vtasim_run_events *ev = &w->s.run->ev;
	for (size_t k = 0; k < ev->n_bursts; k++) {
		const vtasim_port_burst *b = &ev->bursts[k];
		w->s.bytes = b->bytes;
		span(w, TRACE_PORT_BURST, b->module, (size_t)b->insn, 0, b->start_cycle,
		     b->start_cycle + b->beats);
	}
}

/* What instruction i does to the counters: it is in its module's queue from dispatch to
 * retirement, pops its tokens at its start and pushes each after its wait for room
 * (pushed()). Returns the changes added at ch. */
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
	for (int q = 0; q < VTA_QUEUE_COUNT; q++) {
		uint64_t at;
		if (popped(rec, q, &at))
			ch[n++] = (change){at, q, -1};
		if (w->s.in && pushed(w->s.run, rec, w->s.in->opcode == VTA_OP_FINISH, q, &at))
			ch[n++] = (change){at, q, +1};
	}
	return n;
}

static int by_time(const void *a, const void *b)
{
	const change *x = a, *y = b;
	return x->t < y->t ? -1 : x->t > y->t;
}

/* The SRAMs' live-bytes steps as changes of their series. */
static size_t live_changes(const trace_run *r, change *ch)
{
	uint64_t last[VTA_STATS_SRAMS] = {0};
	size_t n = 0;
	for (size_t k = 0; k < r->ev.n_live; k++) {
		const vtasim_live_step *l = &r->ev.live[k];
		if (l->cycle > r->stats->cycles)
			continue;
		for (int m = 0; m < VTA_STATS_SRAMS; m++)
			if (l->bytes[m] != last[m]) {
				ch[n++] = (change){l->cycle, SERIES_LIVE + m,
						   (long)l->bytes[m] - (long)last[m]};
				last[m] = l->bytes[m];
			}
	}
	return n;
}

/* The counters: zeros at the launch unless something changes then, then the values at
 * each time something changes, saying which group (tokens, instruction queues, live
 * bytes) did. */
static void counters(walk *w, change *ch, size_t n)
{
	long value[SERIES_COUNT] = {0}, peak[VTA_QUEUE_COUNT] = {0};
	qsort(ch, n, sizeof(*ch), by_time);
	w->s.tokens = value;
	w->s.tokens_peak = peak;
	w->s.insn_queues = value + SERIES_INSN_Q;
	w->s.live = value + SERIES_LIVE;
	w->s.start = 0;
	w->s.tokens_changed = w->s.queues_changed = w->s.live_changed = n == 0 || ch[0].t > 0;
	if (w->s.tokens_changed)
		step(w, TRACE_COUNTS);
	for (size_t k = 0; k < n;) {
		w->s.start = ch[k].t;
		w->s.tokens_changed = w->s.queues_changed = w->s.live_changed = 0;
		long popped[VTA_QUEUE_COUNT] = {0};
		for (; k < n && ch[k].t == w->s.start; k++) {
			value[ch[k].series] += ch[k].delta;
			if (ch[k].series < SERIES_INSN_Q) {
				w->s.tokens_changed = 1;
				if (ch[k].delta < 0)
					popped[ch[k].series] -= ch[k].delta;
			} else if (ch[k].series < SERIES_LIVE) {
				w->s.queues_changed = 1;
			} else {
				w->s.live_changed = 1;
			}
		}
		for (int q = 0; q < VTA_QUEUE_COUNT; q++)
			peak[q] = value[q] + popped[q];
		step(w, TRACE_COUNTS);
	}
}

vta_status trace_walk(const trace_run *run, int number, const vta_config *cfg,
		      trace_visit *visit, void *writer, vta_error *err)
{
	change *ch = malloc((run->n * CHANGES_MAX + run->ev.n_live * VTA_STATS_SRAMS + 1) *
			    sizeof(*ch));
	walk w = {.s = {.run = run, .number = number}, .visit = visit, .writer = writer,
		  .latency = cfg->dram_latency_cycles};
	if (!ch || index_tokens(&w, cfg)) {
		free(ch);
		free_tokens(&w);
		return vta_fail(err, VTA_E_NOMEM, "out of memory");
	}
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
		while (w.wrap_at < run->ev.n_wraps && run->ev.wraps[w.wrap_at].insn < i)
			w.wrap_at++;
		w.s.wraps = run->ev.wraps + w.wrap_at;
		for (w.s.n_wraps = 0; w.wrap_at < run->ev.n_wraps &&
				      run->ev.wraps[w.wrap_at].insn == i;
		     w.wrap_at++)
			w.s.n_wraps++;
		step(&w, TRACE_INSN);
		w.s.wraps = NULL;
		w.s.n_wraps = 0;
		nch += count_changes(&w, i, ch + nch);
		module_spans(&w, i);
	}
	w.s.in = NULL;
	w.s.text = NULL;
	w.s.rec = NULL;
	port_bursts(&w);
	nch += live_changes(run, ch + nch);
	counters(&w, ch, nch);
	step(&w, TRACE_RUN_END);
	free(ch);
	free_tokens(&w);
	return VTA_OK;
}
