/*
 * trace_timeline.c - the timeline as a picture (`--timeline T.svg|T.png`, see trace_walk.h):
 * the walk's steps collected here, then drawn by gnuplot (timeline_plot.c).
 *
 * Two levels, so that a long run stays a readable, bounded picture: while the window (the
 * whole of the runs, or --timeline-window A:B) holds at most TL_DETAIL_MAX spans (and, each
 * bounded apart, token arrows, DRAM bursts and token changes), every one is kept and drawn
 * (detail); beyond that the window's TL_BINS columns show, per module, the share of its
 * cycles in each state, stacked (summary). The summary is kept all along in columns whose
 * width doubles as the runs grow, so memory and the picture's size are bounded whatever the
 * length of the runs.
 */
#include "timeline.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static int vec_push(trace_timeline *t, tl_vec *v, const void *item, size_t size)
{
	if (v->n == v->cap) {
		size_t cap = v->cap ? 2 * v->cap : 64;
		void *p = realloc(v->items, cap * size);
		if (!p) {
			t->failed = 1;
			return -1;
		}
		v->items = p;
		v->cap = cap;
	}
	memcpy((char *)v->items + v->n++ * size, item, size);
	return 0;
}

static void vec_free(tl_vec *v)
{
	free(v->items);
	*v = (tl_vec){0};
}

trace_timeline *trace_timeline_open(const char *title, uint64_t from, uint64_t to)
{
	trace_timeline *t = calloc(1, sizeof(*t));
	if (!t || !(t->bins = calloc(TL_BINS, sizeof(tl_bin)))) {
		free(t);
		return NULL;
	}
	snprintf(t->title, sizeof(t->title), "%s", title);
	t->from = from;
	t->to = to;
	/* a fixed window has fixed columns; an open one starts at a cycle each and grows */
	t->bin_width = to ? (to - from + TL_BINS - 1) / TL_BINS : 1;
	/* texts[0] stands for "no tooltip" */
	char none[TL_TEXT] = "";
	if (vec_push(t, &t->texts, none, sizeof(none))) {
		free(t->bins);
		free(t);
		return NULL;
	}
	return t;
}

/* [s, e) cut to the window; 0 when nothing of it is left. */
static int clip(const trace_timeline *t, uint64_t *s, uint64_t *e)
{
	if (*s < t->from)
		*s = t->from;
	if (t->to && *e > t->to)
		*e = t->to;
	return *s < *e || (*s == *e && *s >= t->from && (!t->to || *s < t->to));
}

/* An open window's columns cover [from, from + TL_BINS x width): double the width, merging
 * columns in pairs, until `end` fits. */
static void bins_reach(trace_timeline *t, uint64_t end)
{
	if (t->to)
		return;
	while (end > t->from + TL_BINS * t->bin_width) {
		for (size_t j = 0; j < TL_BINS / 2; j++) {
			tl_bin *a = &t->bins[2 * j], *b = &t->bins[2 * j + 1], m = *a;
			for (int l = 0; l < TL_LANES; l++)
				for (int k = 0; k < K_COUNT; k++)
					m.cycles[l][k] += b->cycles[l][k];
			for (int q = 0; q < VTA_QUEUE_COUNT; q++)
				if (b->tokens[q] > m.tokens[q])
					m.tokens[q] = b->tokens[q];
			m.read_bytes += b->read_bytes;
			m.write_bytes += b->write_bytes;
			t->bins[j] = m;
		}
		memset(t->bins + TL_BINS / 2, 0, TL_BINS / 2 * sizeof(tl_bin));
		t->bin_width *= 2;
	}
}

/* Loop j over the columns [s, e) touches (already cut to the window), `overlap` the cycles
 * of [s, e) in column j. */
#define FOR_BINS(t, s, e, j, overlap)                                                      \
	for (uint64_t j = ((s) - (t)->from) / (t)->bin_width, overlap = 0;                 \
	     j < TL_BINS && (t)->from + j * (t)->bin_width < (e) &&                        \
	     ((overlap = bin_overlap(t, j, s, e)), 1);                                     \
	     j++)

static uint64_t bin_overlap(const trace_timeline *t, uint64_t j, uint64_t s, uint64_t e)
{
	const uint64_t lo = t->from + j * t->bin_width, hi = lo + t->bin_width;
	return (e < hi ? e : hi) - (s > lo ? s : lo);
}

/* A span of a lane into the columns; a nested one (a wait inside an execution or a burst)
 * moves its cycles from the state around it, `outer`. */
static void bin_span(trace_timeline *t, int lane, int kind, int outer, uint64_t s, uint64_t e)
{
	bins_reach(t, e);
	FOR_BINS(t, s, e, j, ov)
	{
		t->bins[j].cycles[lane][kind] += (double)ov;
		if (outer >= 0)
			t->bins[j].cycles[lane][outer] -= (double)ov;
	}
}

/* Tokens held from tok_since to `until`, as each column's most. */
static void bin_tokens_until(trace_timeline *t, uint64_t until)
{
	uint64_t s = t->tok_since, e = until;
	if (e <= s || !clip(t, &s, &e) || s == e)
		return;
	bins_reach(t, e);
	FOR_BINS(t, s, e, j, ov)
	{
		(void)ov;
		for (int q = 0; q < VTA_QUEUE_COUNT; q++)
			if (t->tok_now[q] > t->bins[j].tokens[q])
				t->bins[j].tokens[q] = t->tok_now[q];
	}
}

static int kind_of(const trace_step *s)
{
	if (!s->in)
		return K_OTHER;
	if (vta_insn_is_nop(s->in))
		return K_OTHER;
	switch (s->in->opcode) {
	case VTA_OP_LOAD: return s->track == VTA_STATS_COMPUTE ? K_LOAD_COMPUTE : K_LOAD;
	case VTA_OP_GEMM: return K_GEMM;
	case VTA_OP_ALU: return K_ALU;
	case VTA_OP_STORE: return K_STORE;
	default: return K_OTHER;
	}
}

/* An instruction's tooltip, kept as gnuplot will read it and as the svg's script quotes
 * it: no quotes, backslashes or control bytes. */
static size_t keep_text(trace_timeline *t, const trace_step *s)
{
	char text[TL_TEXT];
	snprintf(text, sizeof(text), "%s insn %zu: %s", s->run->name, s->insn, s->text);
	for (char *p = text; *p; p++)
		if (*p == '"' || *p == '\'' || *p == '\\' || (unsigned char)*p < 0x20 ||
		    (unsigned char)*p >= 0x7f)
			*p = '?';
	if (vec_push(t, &t->texts, text, sizeof(text)))
		return 0;
	return t->texts.n - 1;
}

/* A span's label: the instruction and what it does or waits for. */
static void span_label(const trace_step *s, char *buf, size_t size)
{
	switch (s->kind) {
	case TRACE_EXEC:
		if (s->in && s->in->opcode == VTA_OP_LOAD && !vta_insn_is_nop(s->in))
			snprintf(buf, size, "%zu load %s", s->insn,
				 vta_mem_name((vta_mem)s->in->mem.mem_type));
		else if (s->in && s->in->opcode == VTA_OP_ALU && vta_alu_op_name(s->in->alu.op))
			snprintf(buf, size, "%zu alu %s", s->insn, vta_alu_op_name(s->in->alu.op));
		else
			snprintf(buf, size, "%zu %.*s", s->insn, (int)strcspn(s->text, " "),
				 s->text);
		break;
	case TRACE_FETCH_BURST: snprintf(buf, size, "fetch %zu-%zu", s->insn, s->last); break;
	case TRACE_POP_WAIT:
		snprintf(buf, size, "%zu waits %s", s->insn, vta_queue_name(s->queue));
		break;
	case TRACE_PUSH_ROOM:
		snprintf(buf, size, "%zu room %s", s->insn, vta_queue_name(s->queue));
		break;
	default: buf[0] = 0;
	}
}

/* Too many items of one kind for detail: drop them (`over` set) and keep the columns. */
static void drop_detail(tl_vec *v, int *over)
{
	*over = 1;
	vec_free(v);
}

static void add_span(trace_timeline *t, const trace_step *s, int kind, int outer)
{
	uint64_t a = s->run->offset + s->start, b = s->run->offset + s->end;
	if (!clip(t, &a, &b))
		return;
	if (a < b)
		bin_span(t, s->track, kind, outer, a, b);
	if (s->kind == TRACE_EXEC)
		t->insns++;
	if (t->spans_over)
		return;
	if (t->spans.n >= TL_DETAIL_MAX) {
		drop_detail(&t->spans, &t->spans_over);
		drop_detail(&t->arrows, &t->arrows_over); /* no arrows over a summary */
		return;
	}
	tl_span sp = {.start = a, .end = b, .lane = (uint8_t)s->track, .kind = (uint8_t)kind,
		      .nested = outer >= 0,
		      .text = s->kind == TRACE_EXEC ? keep_text(t, s) : 0};
	span_label(s, sp.label, sizeof(sp.label));
	vec_push(t, &t->spans, &sp, sizeof(sp));
}

/* A token handed over: an arrow from its push to its pop, when both lie in the window. */
static void add_arrow(trace_timeline *t, const trace_step *s)
{
	if (s->partner == TRACE_NO_INSN)
		return;
	const uint64_t from = s->run->offset + s->start,
		       to = s->run->offset + s->partner_cycle;
	if (from < t->from || to < t->from || (t->to && (from >= t->to || to >= t->to)))
		return;
	t->arrows_total++;
	if (t->arrows_over)
		return;
	if (t->arrows.n >= TL_DETAIL_MAX) {
		t->arrows_over = 1;
		vec_free(&t->arrows);
		return;
	}
	tl_arrow a = {.from = from, .to = to, .lane_from = (uint8_t)s->track,
		      .lane_to = s->run->recs[s->partner].module, .queue = (uint8_t)s->queue};
	vec_push(t, &t->arrows, &a, sizeof(a));
}

static void add_tokens(trace_timeline *t, uint64_t at, const long *n)
{
	bin_tokens_until(t, at);
	t->tok_since = at;
	memcpy(t->tok_now, n, sizeof(t->tok_now));
	if (at <= t->from)
		memcpy(t->tok_before, n, sizeof(t->tok_before));
	if (t->tokens_over || at <= t->from || (t->to && at >= t->to))
		return;
	if (t->tokens.n >= 4 * TL_DETAIL_MAX) {
		drop_detail(&t->tokens, &t->tokens_over);
		return;
	}
	tl_tokens k = {.t = at};
	memcpy(k.n, n, sizeof(k.n));
	vec_push(t, &t->tokens, &k, sizeof(k));
}

static void add_burst(trace_timeline *t, const trace_step *s)
{
	uint64_t a = s->run->offset + s->start, b = s->run->offset + s->end;
	const int write = s->track == VTA_STATS_STORE;
	const uint64_t full = b - a;
	if (!clip(t, &a, &b))
		return;
	/* a burst cut by the window keeps the bytes of its part in it */
	const double bytes = full ? (double)s->bytes * (double)(b - a) / (double)full
				  : (double)s->bytes;
	if (a < b) {
		bins_reach(t, b);
		FOR_BINS(t, a, b, j, ov)
		{
			double part = bytes * (double)ov / (double)(b - a);
			*(write ? &t->bins[j].write_bytes : &t->bins[j].read_bytes) += part;
		}
	}
	if (t->bursts_over || a == b)
		return;
	if (t->bursts.n >= TL_DETAIL_MAX) {
		drop_detail(&t->bursts, &t->bursts_over);
		return;
	}
	tl_burst bu = {.start = a, .end = b, .bytes = (uint64_t)(bytes + 0.5),
		       .write = (uint8_t)write};
	vec_push(t, &t->bursts, &bu, sizeof(bu));
}

static void run_edge(trace_timeline *t, const trace_step *s, int begin)
{
	const trace_run *r = s->run;
	if (begin) {
		tl_run run = {.start = r->offset, .end = r->offset + r->stats->cycles};
		snprintf(run.name, sizeof(run.name), "%s", r->name);
		if (r->err)
			snprintf(run.stopped, sizeof(run.stopped), "%s", r->err->detail);
		if (t->end < run.end)
			t->end = run.end;
		if (run.end > t->from && (!t->to || run.start < t->to)) {
			t->runs_in_window++;
			t->insns_runs += r->n;
		}
		vec_push(t, &t->runs, &run, sizeof(run));
		t->tok_since = r->offset;
		memset(t->tok_now, 0, sizeof(t->tok_now));
		return;
	}
	/* the tokens' last values hold to the end of the run; the next starts empty */
	const uint64_t end = r->offset + r->stats->cycles;
	bin_tokens_until(t, end);
	static const long zero[VTA_QUEUE_COUNT];
	add_tokens(t, end, zero);
}

void trace_timeline_step(trace_timeline *t, const trace_step *s)
{
	switch (s->kind) {
	case TRACE_RUN_BEGIN: run_edge(t, s, 1); break;
	case TRACE_RUN_END: run_edge(t, s, 0); break;
	case TRACE_FETCH_BURST: add_span(t, s, K_FETCH, -1); break;
	case TRACE_FETCH_PORT: add_span(t, s, K_WAIT_PORT, -1); break;
	case TRACE_FETCH_ROOM: add_span(t, s, K_WAIT_ROOM, K_FETCH); break;
	case TRACE_POP_WAIT: add_span(t, s, K_WAIT_TOKEN, -1); break;
	case TRACE_EXEC: add_span(t, s, kind_of(s), -1); break;
	case TRACE_PORT_WAIT: add_span(t, s, K_WAIT_PORT, kind_of(s)); break;
	case TRACE_PUSH_ROOM: add_span(t, s, K_WAIT_ROOM, -1); break;
	case TRACE_PUSH: add_arrow(t, s); break;
	case TRACE_PORT_BURST: add_burst(t, s); break;
	case TRACE_COUNTS:
		if (s->tokens_changed)
			add_tokens(t, s->run->offset + s->start, s->tokens);
		break;
	case TRACE_INSN:
	case TRACE_POP: break;
	}
}

vta_status trace_timeline_close(trace_timeline *t, const char *path, vta_error *err)
{
	if (!t)
		return VTA_OK;
	vta_status st = VTA_OK;
	if (t->failed)
		st = vta_fail(err, VTA_E_NOMEM, "out of memory");
	if (!path)
		st = VTA_E_USAGE; /* only freeing */
	else if (!st && t->to && t->end <= t->from)
		st = vta_fail(err, VTA_E_USAGE,
			      "--timeline-window %" PRIu64 ":%" PRIu64
			      ": the runs end at cycle %" PRIu64 ", before the window",
			      t->from, t->to, t->end);
	if (!st) {
		bin_tokens_until(t, t->end);
		st = timeline_plot(t, path, err);
	}
	vec_free(&t->spans);
	vec_free(&t->arrows);
	vec_free(&t->tokens);
	vec_free(&t->bursts);
	vec_free(&t->texts);
	vec_free(&t->runs);
	free(t->bins);
	free(t);
	return st;
}
