/*
 * trace_vcd.c - one run's waveform as VCD (see trace_walk.h): what each module does and on
 * which instruction, the depth of every queue, the SRAMs' live bytes and who holds the
 * DRAM port, all from the walk's steps. The steps are kept (spans as intervals, counters as
 * values) and written when the run is over, in time order: memory and time stay
 * proportional to the run's instructions and events, never to its cycles.
 *
 * A module's state is the most specific span covering the time: a wait (for a token, the
 * DRAM port or room in a queue) inside an execution or a burst wins over busy, busy over
 * idle. An instruction signal holds an index over its intervals, which never overlap, and
 * z (nothing driven) outside them. Values are those during the run's cycles: what changes at its end (a
 * FINISH retiring, the spans a failed run cuts) is left out, and a last time stamp marks
 * the end.
 *
 * A token queue's pops show half a cycle after its pushes: the model hands a token over in
 * the very cycle it is pushed when its consumer was waiting, and a count that rose and fell
 * at one time stamp would never leave 0 in a viewer. So every change is kept in half cycles:
 * everything on whole cycles, a cycle's pops of tokens at its middle.
 */
#include "trace_walk.h"

#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define NONE VTASIM_CYCLE_NONE
#define Z LONG_MIN /* no value (no instruction): written as z */

/* A module's state, from the least to the most specific. */
enum { ST_IDLE, ST_BUSY, ST_WAIT_TOKEN, ST_WAIT_PORT, ST_WAIT_ROOM, ST_COUNT };
static const char *const STATE_NAMES[ST_COUNT] = {"idle", "busy", "wait_token", "wait_port",
						  "wait_room"};
static const char *const OWNER_NAMES[VTA_STATS_MODULES + 1] = {"none", "fetch", "load",
							       "compute", "store"};

/* The signals, in the order they are declared. */
enum {
	SIG_STATE = 0,                             /* per module */
	SIG_INSN = SIG_STATE + VTA_STATS_MODULES,  /* per module */
	SIG_TOKENS = SIG_INSN + VTA_STATS_MODULES, /* per token queue */
	SIG_INSN_Q = SIG_TOKENS + VTA_QUEUE_COUNT, /* per instruction queue */
	SIG_LIVE = SIG_INSN_Q + TRACE_INSN_QUEUES, /* per SRAM */
	SIG_OWNER = SIG_LIVE + VTA_STATS_SRAMS, /* the read channel's client */
	SIG_PORT_INSN,                          /* ... and its instruction */
	SIG_WRITE_INSN,                         /* the write channel's STORE */
	SIG_COUNT
};

/* A value a signal holds over [start, end) (states: a state that is active then). */
typedef struct interval {
	uint64_t start, end;
	int sig;
	long value;
} interval;

/* A signal takes `value` at t; seq orders changes made at the same time. */
typedef struct change {
	uint64_t t;
	size_t seq;
	int sig;
	long value;
} change;

struct trace_vcd {
	FILE *f;
	const vta_config *cfg;
	char *title;
	const trace_run *run;
	int number;
	interval *iv;
	size_t n_iv, cap_iv;
	size_t last_iv[SIG_COUNT]; /* per signal, its last interval + 1 (0: none yet) */
	change *ch;
	size_t n_ch, cap_ch;
	int failed; /* out of memory */
};

uint64_t trace_vcd_period_ps(const vta_config *cfg)
{
	double ps = 1e6 / cfg->clock_mhz;
	uint64_t even = 2 * (uint64_t)(ps / 2 + 0.5);
	return even < 2 ? 2 : even;
}

trace_vcd *trace_vcd_open(FILE *f, const vta_config *cfg, const char *title)
{
	trace_vcd *v = calloc(1, sizeof(*v));
	if (v && !(v->title = strdup(title))) {
		free(v);
		return NULL;
	}
	if (v) {
		v->f = f;
		v->cfg = cfg;
	}
	return v;
}

static void *grow(void *p, size_t *cap, size_t size, int *failed)
{
	size_t c = *cap ? 2 * *cap : 256;
	void *q = realloc(p, c * size);
	if (!q) {
		*failed = 1;
		return NULL;
	}
	*cap = c;
	return q;
}

static void add_interval(trace_vcd *v, int sig, uint64_t start, uint64_t end, long value)
{
	if (start >= end || v->failed)
		return;
	/* one that goes on where the signal's last one ends, with its value, extends it (the
	 * bursts of one transfer, a module busy from one instruction to the next) */
	interval *last = v->last_iv[sig] ? &v->iv[v->last_iv[sig] - 1] : NULL;
	if (last && last->end == start && last->value == value) {
		last->end = end;
		return;
	}
	if (v->n_iv == v->cap_iv) {
		interval *p = grow(v->iv, &v->cap_iv, sizeof(*p), &v->failed);
		if (!p)
			return;
		v->iv = p;
	}
	v->iv[v->n_iv++] = (interval){start, end, sig, value};
	v->last_iv[sig] = v->n_iv;
}

/* add_change takes half cycles: cycle c starts at HALF(c), its middle is HALF(c) + 1. */
#define HALF(c) (2 * (c))

static void add_change(trace_vcd *v, int sig, uint64_t t, long value)
{
	if (v->failed)
		return;
	if (v->n_ch == v->cap_ch) {
		change *p = grow(v->ch, &v->cap_ch, sizeof(*p), &v->failed);
		if (!p)
			return;
		v->ch = p;
	}
	v->ch[v->n_ch] = (change){t, v->n_ch, sig, value};
	v->n_ch++;
}

/* The instruction FETCH brings in: from its burst's request for the port (the first of a
 * burst) or the dispatch before it, to its own dispatch; an instruction FETCH could not
 * dispatch in a failed run holds it to the end. */
static void fetch_insn(trace_vcd *v, const trace_step *s)
{
	const trace_run *r = s->run;
	const vtasim_insn_record *rec = s->rec, *prev = s->insn ? rec - 1 : NULL;
	const uint64_t end = r->stats->cycles;
	const int prev_in = prev && prev->stage >= VTASIM_STAGE_QUEUED;
	if (rec->stage >= VTASIM_STAGE_QUEUED) {
		const int first = !prev_in || prev->fetch_cycle != rec->fetch_cycle;
		const uint64_t from = first ? rec->fetch_cycle - rec->fetch_port_cycles
					    : prev->dispatch_cycle;
		add_interval(v, SIG_INSN + VTA_STATS_FETCH, from,
			     rec->dispatch_cycle < end ? rec->dispatch_cycle : end, (long)s->insn);
	} else if (r->err && rec->fetch_room_cycles && (prev_in || !s->insn)) {
		add_interval(v, SIG_INSN + VTA_STATS_FETCH, end - rec->fetch_room_cycles, end,
			     (long)s->insn);
	}
}

static void state_span(trace_vcd *v, const trace_step *s, int state)
{
	add_interval(v, SIG_STATE + s->track, s->start, s->end, state);
}

void trace_vcd_step(trace_vcd *v, const trace_step *s)
{
	const uint64_t end = s->run->stats->cycles;
	switch (s->kind) {
	case TRACE_RUN_BEGIN:
		v->run = s->run;
		v->number = s->number;
		break;
	case TRACE_INSN: {
		const vtasim_insn_record *rec = s->rec;
		fetch_insn(v, s);
		if (rec->wait_cycle != NONE && rec->wait_cycle <= end)
			add_interval(v, SIG_INSN + rec->module, rec->wait_cycle,
				     rec->retire_cycle != NONE && rec->retire_cycle < end
					     ? rec->retire_cycle
					     : end,
				     (long)s->insn);
		break;
	}
	case TRACE_FETCH_PORT: state_span(v, s, ST_WAIT_PORT); break;
	case TRACE_FETCH_BURST: state_span(v, s, ST_BUSY); break;
	case TRACE_FETCH_ROOM: state_span(v, s, ST_WAIT_ROOM); break;
	case TRACE_POP_WAIT: state_span(v, s, ST_WAIT_TOKEN); break;
	case TRACE_EXEC: state_span(v, s, ST_BUSY); break;
	case TRACE_PORT_WAIT: state_span(v, s, ST_WAIT_PORT); break;
	case TRACE_PUSH_ROOM: state_span(v, s, ST_WAIT_ROOM); break;
	case TRACE_POP:
	case TRACE_PUSH: break; /* the counters show them */
	case TRACE_PORT_BURST:
		if (s->track == VTA_STATS_STORE) { /* a channel of its own */
			add_interval(v, SIG_WRITE_INSN, s->start, s->end, (long)s->insn);
			break;
		}
		add_interval(v, SIG_OWNER, s->start, s->end, s->track + 1);
		add_interval(v, SIG_PORT_INSN, s->start, s->end, (long)s->insn);
		break;
	case TRACE_COUNTS:
		for (int q = 0; s->tokens_changed && q < VTA_QUEUE_COUNT; q++) {
			/* the pushes at the cycle's start, the pops at its middle */
			add_change(v, SIG_TOKENS + q, HALF(s->start), s->tokens_peak[q]);
			if (s->tokens_peak[q] != s->tokens[q])
				add_change(v, SIG_TOKENS + q, HALF(s->start) + 1, s->tokens[q]);
		}
		for (int q = 0; s->queues_changed && q < TRACE_INSN_QUEUES; q++)
			add_change(v, SIG_INSN_Q + q, HALF(s->start), s->insn_queues[q]);
		for (int m = 0; s->live_changed && m < VTA_STATS_SRAMS; m++)
			add_change(v, SIG_LIVE + m, HALF(s->start), s->live[m]);
		break;
	case TRACE_RUN_END: break;
	}
}

/* ----- writing ----- */

typedef struct edge {
	uint64_t t;
	int sig, open; /* open: the interval starts here, else it ends */
	long value;
} edge;

static int edge_order(const void *a, const void *b)
{
	const edge *x = a, *y = b;
	if (x->sig != y->sig)
		return x->sig < y->sig ? -1 : 1;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->open - y->open; /* ends first */
}

static int change_order(const void *a, const void *b)
{
	const change *x = a, *y = b;
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int is_state(int sig)
{
	return sig >= SIG_STATE && sig < SIG_STATE + VTA_STATS_MODULES;
}

/* What an interval signal holds when no interval covers the time. */
static long rest_value(int sig)
{
	return is_state(sig) ? ST_IDLE : sig == SIG_OWNER ? 0 : Z;
}

/* What a signal holds at a time when `active` intervals of each state (a state signal), or
 * `open` intervals the last of which began with `last` (the others), cover it. */
static long held(int sig, const long active[ST_COUNT], long open, long last)
{
	if (!is_state(sig))
		return open > 0 ? last : rest_value(sig);
	for (int st = ST_COUNT - 1; st > ST_IDLE; st--)
		if (active[st] > 0)
			return st;
	return ST_IDLE;
}

/* The intervals as value changes: per signal, sweep its edges in time order. */
static void sweep(trace_vcd *v)
{
	const size_t n = 2 * v->n_iv;
	edge *e = malloc((n + 1) * sizeof(*e));
	if (!e) {
		v->failed = 1;
		return;
	}
	for (size_t k = 0; k < v->n_iv; k++) {
		const interval *i = &v->iv[k];
		e[2 * k] = (edge){i->start, i->sig, 1, i->value};
		e[2 * k + 1] = (edge){i->end, i->sig, 0, i->value};
	}
	qsort(e, n, sizeof(*e), edge_order);
	for (size_t k = 0; k < n;) {
		const int sig = e[k].sig;
		long active[ST_COUNT] = {0}, open = 0, last = Z;
		while (k < n && e[k].sig == sig) {
			const uint64_t t = e[k].t;
			for (; k < n && e[k].sig == sig && e[k].t == t; k++) {
				const long d = e[k].open ? 1 : -1;
				if (is_state(sig))
					active[e[k].value] += d;
				open += d;
				if (e[k].open)
					last = e[k].value;
			}
			add_change(v, sig, HALF(t), held(sig, active, open, last));
		}
	}
	free(e);
}

/* A short identifier code per signal (its name beside it adds an 's'). */
static void sig_id(int sig, char id[3])
{
	id[0] = (char)('!' + sig % 90);
	id[1] = (char)('!' + sig / 90);
	id[2] = 0;
}

static void var(FILE *f, const char *type, int width, int sig, const char *suffix,
		const char *name)
{
	char id[3];
	sig_id(sig, id);
	fprintf(f, "$var %s %d %s%s %s $end\n", type, width, id, suffix, name);
}

void trace_vcd_comment(const vta_config *cfg, char *buf, size_t size)
{
	const uint64_t p = trace_vcd_period_ps(cfg);
	snprintf(buf, size,
		 "one cycle of the run is %" PRIu64 " ps (%s at %g MHz): cycle c at c x %" PRIu64
		 " ps. The model's signals (scope vta) come from its instruction records and "
		 "events: state 0 idle, 1 busy, 2 wait_token, 3 wait_port, 4 wait_room; owner 0 "
		 "none, 1 fetch, 2 load, 3 compute, 4 store. See docs/cli.md.",
		 p, cfg->name, cfg->clock_mhz, p);
}

static void header(trace_vcd *v)
{
	FILE *f = v->f;
	const trace_run *r = v->run;
	char comment[1024];
	trace_vcd_comment(v->cfg, comment, sizeof(comment));
	fprintf(f, "$version vtasim %s: run %d, %s $end\n", v->title, v->number,
		r ? r->name : "?");
	fprintf(f, "$timescale 1ps $end\n$comment %s $end\n", comment);
	fprintf(f, "$scope module vta $end\n");
	for (int m = 0; m < VTA_STATS_MODULES; m++) {
		fprintf(f, "$scope module %s $end\n", trace_module_name(m));
		var(f, "wire", 3, SIG_STATE + m, "", "state");
		var(f, "string", 1, SIG_STATE + m, "s", "state_name");
		var(f, "integer", 32, SIG_INSN + m, "", "insn");
		fprintf(f, "$upscope $end\n");
	}
	fprintf(f, "$scope module tokens $end\n");
	for (int q = 0; q < VTA_QUEUE_COUNT; q++)
		var(f, "integer", 32, SIG_TOKENS + q, "", vta_queue_name(q));
	fprintf(f, "$upscope $end\n$scope module insn_queues $end\n");
	for (int q = 0; q < TRACE_INSN_QUEUES; q++)
		var(f, "integer", 32, SIG_INSN_Q + q, "", trace_module_name(VTA_STATS_LOAD + q));
	fprintf(f, "$upscope $end\n$scope module sram_live $end\n");
	for (int m = 0; m < VTA_STATS_SRAMS; m++)
		var(f, "integer", 32, SIG_LIVE + m, "", vta_stats_slot_name(m));
	fprintf(f, "$upscope $end\n$scope module dram_port $end\n");
	var(f, "wire", 3, SIG_OWNER, "", "owner");
	var(f, "string", 1, SIG_OWNER, "s", "owner_name");
	var(f, "integer", 32, SIG_PORT_INSN, "", "insn");
	var(f, "integer", 32, SIG_WRITE_INSN, "", "write_insn");
	fprintf(f, "$upscope $end\n$upscope $end\n$enddefinitions $end\n");
}

/* One value change (and the name beside a state or an owner). */
static void value(FILE *f, int sig, long val)
{
	char id[3];
	sig_id(sig, id);
	if (val == Z) {
		fprintf(f, "bz %s\n", id);
		return;
	}
	char bits[72];
	int n = 0;
	unsigned long u = (unsigned long)val;
	do {
		bits[n++] = (char)('0' + (u & 1));
		u >>= 1;
	} while (u);
	fputc('b', f);
	while (n)
		fputc(bits[--n], f);
	fprintf(f, " %s\n", id);
	if (is_state(sig))
		fprintf(f, "s%s %ss\n", STATE_NAMES[val], id);
	else if (sig == SIG_OWNER)
		fprintf(f, "s%s %ss\n", OWNER_NAMES[val], id);
}

static void write_changes(trace_vcd *v)
{
	FILE *f = v->f;
	const uint64_t p = trace_vcd_period_ps(v->cfg);
	const change *ch = v->ch;
	const size_t n = v->n_ch;
	long cur[SIG_COUNT], written[SIG_COUNT];
	for (int sig = 0; sig < SIG_COUNT; sig++)
		cur[sig] = sig >= SIG_TOKENS && sig < SIG_OWNER ? 0 : rest_value(sig);
	qsort(v->ch, n, sizeof(*v->ch), change_order);
	/* the initial values, with whatever changes at the launch; then, at each time, the
	 * signals whose value moved (the last change made at a time wins) */
	size_t k = 0;
	for (; k < n && ch[k].t == 0; k++)
		cur[ch[k].sig] = ch[k].value;
	fprintf(f, "#0\n");
	for (int sig = 0; sig < SIG_COUNT; sig++)
		value(f, sig, written[sig] = cur[sig]);
	uint64_t last = 0;
	const uint64_t end = HALF(v->run ? v->run->stats->cycles : 0);
	while (k < n && ch[k].t < end) { /* values during the run's cycles */
		const uint64_t t = ch[k].t;
		for (; k < n && ch[k].t == t; k++)
			cur[ch[k].sig] = ch[k].value;
		int stamped = 0;
		for (int sig = 0; sig < SIG_COUNT; sig++) {
			if (cur[sig] == written[sig])
				continue;
			if (!stamped++)
				fprintf(f, "#%" PRIu64 "\n", t * (p / 2)); /* p is even */
			value(f, sig, written[sig] = cur[sig]);
		}
		if (stamped)
			last = t;
	}
	/* the end of the run, for the viewer's time axis */
	if (end > last)
		fprintf(f, "#%" PRIu64 "\n", end * (p / 2));
}

int trace_vcd_close(trace_vcd *v)
{
	if (!v)
		return 0;
	sweep(v);
	int failed = v->failed;
	if (!failed) {
		header(v);
		write_changes(v);
	}
	failed |= ferror(v->f) != 0;
	free(v->iv);
	free(v->ch);
	free(v->title);
	free(v);
	return failed;
}
