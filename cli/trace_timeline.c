/*
 * trace_timeline.c - the timeline as a picture (`--timeline T.svg|T.png`, see trace_walk.h):
 * the walk's steps collected, then drawn by gnuplot (the plotting tool the sweeps use) as one
 * script of inline data blocks, its svg or pngcairo terminal chosen by the file's extension.
 *
 * Two levels, so that a long run stays a readable, bounded picture: while the window (the
 * whole of the runs, or --timeline-window A:B) holds at most TL_DETAIL_MAX spans and token
 * arrows, every instruction is a box and every token an arrow (detail); beyond that the
 * window is cut into TL_BINS columns and each column shows, per module, the share of its
 * cycles in each state, stacked (summary). The summary is kept all along in columns whose
 * width doubles as the runs grow, so memory and the picture's size are bounded whatever
 * the length of the runs.
 */
#include "trace_walk.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vta_text.h"

/* What a span of a lane shows: an instruction by kind, or a stall by cause. */
enum {
	K_FETCH,        /* FETCH reads a burst of instructions */
	K_LOAD,         /* LOAD's loads (inp, wgt) */
	K_LOAD_COMPUTE, /* COMPUTE's loads (uop, acc, LUT tables) */
	K_GEMM,
	K_ALU,
	K_STORE,
	K_OTHER,      /* nop, finish, an instruction that does not decode */
	K_WAIT_TOKEN, /* for a token to pop */
	K_WAIT_PORT,  /* for the DRAM port */
	K_WAIT_ROOM,  /* for room in a token queue (FETCH: in an instruction queue) */
	K_COUNT
};

static const char *const KIND_NAMES[K_COUNT] = {
	"fetch burst", "load (inp, wgt)", "load (uop, acc, lut)", "gemm", "alu", "store",
	"nop, finish", "waiting on a token", "waiting on the DRAM port", "waiting for room"};
static const char *const KIND_COLOURS[K_COUNT] = {"#9c9c9c", "#4e79a7", "#76b7b2", "#f28e2b",
						  "#59a14f", "#b07aa1", "#cfc6c0", "#e15759",
						  "#edc948", "#ff9da7"};
static const char *const QUEUE_COLOURS[VTA_QUEUE_COUNT] = {"#1f3b73", "#8c2d04", "#006d2c",
							   "#54278f"};

#define TL_LANES VTA_STATS_MODULES
#define TL_DETAIL_MAX 4000 /* spans (and, apart, arrows) drawn one by one, at most */
#define TL_PLOT_PX 1020    /* the lanes' width in pixels, to tell which labels fit */
#define TL_CHAR_PX 6.5     /* a label character's width in pixels (sans, 8 pt) */
#define TL_RUNS_MAX 24     /* runs in the window up to which each is marked and named */
#define TL_BINS 600        /* the summary's columns */
#define TL_TEXT 120        /* bytes of a tooltip or a run's name kept */
/* every panel's legend at the same place, right of the plots */
#define KEY "set key at screen 0.815, graph 1 left top Left reverse samplen 1.5 spacing 1.1"

typedef struct tl_span {
	uint64_t start, end; /* on the time axis */
	uint8_t lane, kind, nested;
	size_t text;   /* the tooltip (an instruction's): index into texts, or 0 for none */
	char label[24]; /* written on the box when it fits: "4 gemm", "3 waits l2g" */
} tl_span;

typedef struct tl_arrow {
	uint64_t from, to;
	uint8_t lane_from, lane_to, queue;
} tl_arrow;

typedef struct tl_tokens {
	uint64_t t;
	long n[VTA_QUEUE_COUNT];
} tl_tokens;

typedef struct tl_burst {
	uint64_t start, end, bytes;
	uint8_t write;
} tl_burst;

typedef struct tl_run {
	uint64_t start, end;
	char name[TL_TEXT];
	char stopped[TL_TEXT]; /* why it failed, or "" */
} tl_run;

/* One summary column: cycles per lane in each state, most tokens per queue, DRAM bytes. */
typedef struct tl_bin {
	double cycles[TL_LANES][K_COUNT];
	long tokens[VTA_QUEUE_COUNT];
	double read_bytes, write_bytes;
} tl_bin;

/* A growable array of n items of `size` bytes. */
typedef struct tl_vec {
	void *items;
	size_t n, cap;
} tl_vec;

struct trace_timeline {
	char title[TL_TEXT * 2];
	uint64_t from, to; /* the window; to == 0: up to the end of the runs */
	uint64_t end;      /* the end of the last run */
	int failed;        /* out of memory */
	/* detail, each kind dropped (its _over set) once it would exceed its bound: the lanes
	 * then show the summary, the token and DRAM tracks their columns */
	tl_vec spans, arrows, tokens, bursts, texts;
	int spans_over, arrows_over, tokens_over, bursts_over;
	size_t insns;        /* instructions executing in the window */
	size_t insns_runs;   /* instructions of the runs the window shows */
	size_t arrows_total; /* tokens handed over in the window */
	tl_vec runs;
	size_t runs_in_window;
	/* summary */
	tl_bin *bins;
	uint64_t bin_width;
	long tok_now[VTA_QUEUE_COUNT];
	uint64_t tok_since;
	long tok_before[VTA_QUEUE_COUNT]; /* the tokens as the window opens */
};

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

/* ---- drawing ---- */

/* gnuplot's single-quoted string: nothing in it is expanded; a quote is doubled. Control
 * bytes become '?' (the text is escaped already where it quotes input). */
static void gp_string(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("''", f);
		else
			fputc((unsigned char)*s < 0x20 ? '?' : *s, f);
	}
	fputc('\'', f);
}

/* Lanes top to bottom: fetch, load, compute, store. */
static double lane_y(int lane)
{
	return (double)(TL_LANES - lane);
}

/* Data block $kK: the boxes of kind K, "x0 x1 y0 y1". Returns the boxes written. */
static size_t detail_boxes(FILE *f, const trace_timeline *t, int kind)
{
	const tl_span *sp = t->spans.items;
	size_t n = 0;
	fprintf(f, "$k%d << EOD\n", kind);
	for (size_t i = 0; i < t->spans.n; i++) {
		if (sp[i].kind != kind)
			continue;
		/* executions fill the lane, stalls a little less, a wait inside an execution
		 * is a band across its middle */
		const double h = sp[i].nested ? 0.12 : sp[i].kind >= K_WAIT_TOKEN ? 0.28 : 0.38;
		const double y = lane_y(sp[i].lane);
		/* a zero-cycle span still shows, as a hairline */
		const double x1 = sp[i].end > sp[i].start ? (double)sp[i].end
							  : (double)sp[i].start + 0.05;
		fprintf(f, "%" PRIu64 " %.2f %.2f %.2f\n", sp[i].start, x1, y - h, y + h);
		n++;
	}
	fprintf(f, "EOD\n");
	return n;
}

/* Data block $kK in the summary: per column and lane, the share of kind K stacked over
 * the kinds before it. */
static size_t summary_boxes(FILE *f, const trace_timeline *t, int kind, uint64_t to)
{
	size_t n = 0;
	fprintf(f, "$k%d << EOD\n", kind);
	for (uint64_t j = 0; j < TL_BINS; j++) {
		const uint64_t x0 = t->from + j * t->bin_width;
		if (x0 >= to)
			break;
		const uint64_t x1 = x0 + t->bin_width < to ? x0 + t->bin_width : to;
		for (int l = 0; l < TL_LANES; l++) {
			const double *c = t->bins[j].cycles[l];
			if (c[kind] < 0.5)
				continue;
			double below = 0;
			for (int k = 0; k < kind; k++)
				below += c[k] > 0 ? c[k] : 0;
			const double w = (double)(x1 - x0), y0 = lane_y(l) - 0.4;
			fprintf(f, "%" PRIu64 " %" PRIu64 " %.4f %.4f\n", x0, x1,
				y0 + 0.8 * below / w, y0 + 0.8 * (below + c[kind]) / w);
			n++;
		}
	}
	fprintf(f, "EOD\n");
	return n;
}

static void write_lanes(FILE *f, const trace_timeline *t, uint64_t to, int svg)
{
	const int detail = !t->spans_over;
	size_t boxes[K_COUNT];
	for (int k = 0; k < K_COUNT; k++)
		boxes[k] = detail ? detail_boxes(f, t, k) : summary_boxes(f, t, k, to);
	const int arrows = detail && !t->arrows_over && t->arrows.n;
	if (arrows) {
		const tl_arrow *a = t->arrows.items;
		for (int q = 0; q < VTA_QUEUE_COUNT; q++) {
			fprintf(f, "$a%d << EOD\n", q);
			for (size_t i = 0; i < t->arrows.n; i++)
				if (a[i].queue == q)
					fprintf(f, "%" PRIu64 " %.2f %" PRIu64 " %.2f\n", a[i].from,
						lane_y(a[i].lane_from), a[i].to - a[i].from,
						lane_y(a[i].lane_to) - lane_y(a[i].lane_from));
			fprintf(f, "EOD\n");
		}
	}
	/* labels on the boxes they fit (else the instruction's number, if that fits), and
	 * in svg a tooltip on every instruction */
	size_t labels = 0, tips = 0;
	if (detail) {
		const tl_span *sp = t->spans.items;
		const char(*texts)[TL_TEXT] = t->texts.items;
		const double px = TL_PLOT_PX / (double)(to - t->from);
		fprintf(f, "$labels << EOD\n");
		for (size_t i = 0; i < t->spans.n; i++) {
			const double w = (double)(sp[i].end - sp[i].start) * px - 4;
			const size_t full = strlen(sp[i].label), number = strcspn(sp[i].label, " ");
			const size_t n = (double)full * TL_CHAR_PX <= w	    ? full
					 : (double)number * TL_CHAR_PX <= w ? number
									    : 0;
			if (!n || sp[i].nested)
				continue;
			fprintf(f, "%.2f %.2f \"%.*s\"\n",
				((double)sp[i].start + (double)sp[i].end) / 2, lane_y(sp[i].lane),
				(int)n, sp[i].label);
			labels++;
		}
		fprintf(f, "EOD\n$tips << EOD\n");
		for (size_t i = 0; svg && i < t->spans.n; i++)
			if (sp[i].text) {
				fprintf(f, "%.2f %.2f \"%s\"\n",
					((double)sp[i].start + (double)sp[i].end) / 2,
					lane_y(sp[i].lane) - 0.3, texts[sp[i].text]);
				tips++;
			}
		fprintf(f, "EOD\n");
	}
	fprintf(f, "set yrange [0.45:%d.55]\n", TL_LANES);
	fprintf(f, "set ytics (");
	for (int l = 0; l < TL_LANES; l++)
		fprintf(f, "%s'%s' %g", l ? ", " : "", trace_module_name(l), lane_y(l));
	fprintf(f, ")\nset ylabel ''\n%s\n", KEY);
	fprintf(f, "plot ");
	int first = 1;
	for (int k = 0; k < K_COUNT; k++) {
		if (!boxes[k])
			continue;
		fprintf(f, "%s$k%d using (($1+$2)/2):(($3+$4)/2):1:2:3:4 with boxxyerror fs solid "
			   "1.0 noborder lc rgb '%s' title '%s'",
			first ? "" : ", \\\n     ", k, KIND_COLOURS[k], KIND_NAMES[k]);
		first = 0;
	}
	if (arrows) {
		const tl_arrow *a = t->arrows.items;
		for (int q = 0; q < VTA_QUEUE_COUNT; q++) {
			int any = 0;
			for (size_t i = 0; i < t->arrows.n && !any; i++)
				any = a[i].queue == q;
			if (!any)
				continue;
			fprintf(f, "%s$a%d using 1:2:3:4 with vectors head filled size screen "
				   "0.006,20 lw 1.2 lc rgb '%s' title '%s token'",
				first ? "" : ", \\\n     ", q, QUEUE_COLOURS[q], vta_queue_name(q));
			first = 0;
		}
	}
	if (labels) {
		fprintf(f, "%s$labels using 1:2:3 with labels font ',8' tc rgb '#000000' notitle",
			first ? "" : ", \\\n     ");
		first = 0;
	}
	if (tips) {
		fprintf(f, "%s$tips using 1:2:3 with labels hypertext point pt 7 ps 0.3 "
			   "lc rgb '#303030' notitle",
			first ? "" : ", \\\n     ");
		first = 0;
	}
	if (first)
		fprintf(f, "NaN notitle"); /* nothing in the window: an empty frame */
	fprintf(f, "\n");
}

static void write_tokens(FILE *f, const trace_timeline *t, uint64_t to)
{
	long most = 0;
	fprintf(f, "$tok << EOD\n");
	if (!t->tokens_over) {
		const tl_tokens *k = t->tokens.items;
		long last[VTA_QUEUE_COUNT];
		memcpy(last, t->tok_before, sizeof(last));
		fprintf(f, "%" PRIu64 " %ld %ld %ld %ld\n", t->from, last[0], last[1], last[2],
			last[3]);
		for (int q = 0; q < VTA_QUEUE_COUNT; q++)
			most = last[q] > most ? last[q] : most;
		for (size_t i = 0; i < t->tokens.n; i++) {
			fprintf(f, "%" PRIu64, k[i].t);
			for (int q = 0; q < VTA_QUEUE_COUNT; q++) {
				fprintf(f, " %ld", k[i].n[q]);
				most = k[i].n[q] > most ? k[i].n[q] : most;
			}
			fprintf(f, "\n");
			memcpy(last, k[i].n, sizeof(last));
		}
		fprintf(f, "%" PRIu64 " %ld %ld %ld %ld\n", to, last[0], last[1], last[2], last[3]);
	} else {
		for (uint64_t j = 0; j < TL_BINS && t->from + j * t->bin_width < to; j++) {
			fprintf(f, "%" PRIu64, t->from + j * t->bin_width);
			for (int q = 0; q < VTA_QUEUE_COUNT; q++) {
				fprintf(f, " %ld", t->bins[j].tokens[q]);
				if (t->bins[j].tokens[q] > most)
					most = t->bins[j].tokens[q];
			}
			fprintf(f, "\n");
		}
		fprintf(f, "%" PRIu64 " 0 0 0 0\n", to);
	}
	fprintf(f, "EOD\n");
	fprintf(f, "set yrange [0:%ld.3]\nset ytics %s\nset ylabel '%s'\n", most > 0 ? most : 1,
		most <= 8 ? "1" : "autofreq", !t->tokens_over ? "tokens" : "tokens (most per column)");
	fprintf(f, "%s\nplot ", KEY);
	for (int q = 0; q < VTA_QUEUE_COUNT; q++)
		fprintf(f, "%s$tok using 1:%d with steps lw 1.5 lc rgb '%s' title '%s'",
			q ? ", " : "", q + 2, QUEUE_COLOURS[q], vta_queue_name(q));
	fprintf(f, "\n");
}

static void write_dram(FILE *f, const trace_timeline *t, uint64_t to)
{
	/* reads above the axis, writes below: they have channels of their own */
	fprintf(f, "$dram << EOD\n");
	if (!t->bursts_over) {
		const tl_burst *b = t->bursts.items;
		for (size_t i = 0; i < t->bursts.n; i++) {
			const double rate = (double)b[i].bytes / (double)(b[i].end - b[i].start);
			fprintf(f, "%" PRIu64 " %" PRIu64 " %.3f\n", b[i].start, b[i].end,
				b[i].write ? -rate : rate);
		}
	} else {
		for (uint64_t j = 0; j < TL_BINS && t->from + j * t->bin_width < to; j++) {
			const uint64_t x0 = t->from + j * t->bin_width;
			const uint64_t x1 = x0 + t->bin_width < to ? x0 + t->bin_width : to;
			const double w = (double)(x1 - x0);
			if (t->bins[j].read_bytes > 0)
				fprintf(f, "%" PRIu64 " %" PRIu64 " %.3f\n", x0, x1,
					t->bins[j].read_bytes / w);
			if (t->bins[j].write_bytes > 0)
				fprintf(f, "%" PRIu64 " %" PRIu64 " %.3f\n", x0, x1,
					-t->bins[j].write_bytes / w);
		}
	}
	fprintf(f, "EOD\n");
	fprintf(f, "set yrange [*:*]\nset ytics autofreq\nset ylabel 'DRAM B/cycle'\nset xlabel 'cycle'\n"
		   "set format x '%%.0f'\nset xtics\n" KEY "\n"
		   "plot 0 with lines lc rgb '#808080' notitle");
	fprintf(f, ", $dram using (($1+$2)/2):($3 > 0 ? $3/2 : NaN):1:2:(0):3 with boxxyerror "
		   "fs solid 0.8 noborder lc rgb '#4e79a7' title 'read'");
	fprintf(f, ", $dram using (($1+$2)/2):($3 < 0 ? $3/2 : NaN):1:2:3:(0) with boxxyerror "
		   "fs solid 0.8 noborder lc rgb '#b07aa1' title 'write'\n");
}

/* Marks on every panel: where each run starts (named, when there are few) and where a
 * failed run stopped. */
static void write_marks(FILE *f, const trace_timeline *t, uint64_t to, int named)
{
	const tl_run *r = t->runs.items;
	int tag = 1;
	fprintf(f, "unset arrow\nunset label\n");
	if (t->runs_in_window > TL_RUNS_MAX)
		return;
	for (size_t i = 0; i < t->runs.n; i++) {
		if (r[i].end <= t->from || r[i].start >= to)
			continue;
		if (t->runs.n > 1 && r[i].start > t->from)
			fprintf(f, "set arrow %d from %" PRIu64 ", graph 0 to %" PRIu64
				   ", graph 1 nohead dt 2 lc rgb '#606060'\n",
				tag++, r[i].start, r[i].start);
		if (named && t->runs.n > 1) {
			fprintf(f, "set label %d ", tag++);
			gp_string(f, r[i].name);
			fprintf(f, " at %" PRIu64 ", graph 1.02 left font ',8'\n",
				r[i].start > t->from ? r[i].start : t->from);
		}
		if (r[i].stopped[0] && r[i].end <= to) {
			fprintf(f, "set arrow %d from %" PRIu64 ", graph 0 to %" PRIu64
				   ", graph 1 nohead lw 2 lc rgb '#d00000'\n",
				tag++, r[i].end, r[i].end);
			if (named) {
				char text[TL_TEXT + 16];
				snprintf(text, sizeof(text), "stopped: %s", r[i].stopped);
				fprintf(f, "set label %d ", tag++);
				gp_string(f, text);
				fprintf(f, " at %" PRIu64 ", graph 1.02 right font ',9' "
					   "tc rgb '#d00000' front\n", r[i].end);
			}
		}
	}
}

/* The whole script: three panels sharing the time axis. */
static void write_script(FILE *f, const trace_timeline *t, const char *path, int svg)
{
	const uint64_t to = t->to ? t->to : (t->end > t->from ? t->end : t->from + 1);
	fprintf(f, "# vtasim --timeline: %s\n", t->title);
	if (svg)
		fprintf(f, "set terminal svg size 1400,780 noenhanced font 'sans,10' "
			   "background '#ffffff'\n");
	else
		fprintf(f, "set terminal pngcairo size 1400,780 noenhanced font 'sans,10'\n");
	fprintf(f, "set output ");
	gp_string(f, path);
	char what[512];
	if (!t->spans_over)
		snprintf(what, sizeof(what),
			 "cycles %" PRIu64 "-%" PRIu64 ", %zu of %zu instructions executing, "
			 "every one a box%s",
			 t->from, to, t->insns, t->insns_runs,
			 t->arrows_over ? "; too many tokens to draw as arrows" : "");
	else
		snprintf(what, sizeof(what),
			 "cycles %" PRIu64 "-%" PRIu64 ", %zu instructions executing: summary, each column "
			 "%" PRIu64 " cycles, the share of each state (--timeline-window A:B "
			 "for every instruction)",
			 t->from, to, t->insns, t->bin_width);
	fprintf(f, "\nset multiplot title ");
	gp_string(f, t->title);
	fprintf(f, ".\"\\n\".");
	gp_string(f, what);
	fprintf(f, "\n");
	fprintf(f, "set lmargin at screen 0.07\nset rmargin at screen 0.80\n"
		   "set xrange [%" PRIu64 ":%" PRIu64 "]\nset grid xtics lc rgb '#e0e0e0'\n"
		   "set format x ''\nset xlabel ''\nset border lc rgb '#404040'\n",
		t->from, to);
	fprintf(f, "set tmargin at screen 0.90\nset bmargin at screen 0.40\n");
	write_marks(f, t, to, 1);
	write_lanes(f, t, to, svg);
	fprintf(f, "set tmargin at screen 0.38\nset bmargin at screen 0.24\n");
	write_marks(f, t, to, 0);
	write_tokens(f, t, to);
	fprintf(f, "set tmargin at screen 0.22\nset bmargin at screen 0.07\n");
	write_marks(f, t, to, 0);
	write_dram(f, t, to);
	fprintf(f, "unset multiplot\nset output\n");
}

/* Run gnuplot on `script`; a failure is one line naming its first complaint. */
static vta_status run_gnuplot(const char *script, const char *path, vta_error *err)
{
	FILE *log = tmpfile();
	if (!log)
		return vta_fail(err, VTA_E_IO, "--timeline: cannot make a temporary file (%s)",
				strerror(errno));
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		fclose(log);
		return vta_fail(err, VTA_E_IO, "--timeline: cannot start gnuplot (%s)",
				strerror(errno));
	}
	if (pid == 0) {
		dup2(fileno(log), 1);
		dup2(fileno(log), 2);
		execlp("gnuplot", "gnuplot", script, (char *)NULL);
		_exit(127);
	}
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	char line[256] = "";
	rewind(log);
	while (fgets(line, sizeof(line), log)) /* the last line names the problem */
		if (line[strspn(line, " \t\r\n")] && !strstr(line, "^"))
			break;
	fclose(log);
	line[strcspn(line, "\r\n")] = 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return vta_fail(err, VTA_E_IO,
				"--timeline %s: gnuplot is not installed (Debian: gnuplot-nox)",
				VTA_QPATH(path));
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return vta_fail(err, VTA_E_IO, "--timeline %s: gnuplot failed: %s",
				VTA_QPATH(path), line);
	return VTA_OK;
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
		const char *dir = getenv("TMPDIR");
		char script[4096];
		snprintf(script, sizeof(script), "%s/vtasim-timeline-XXXXXX",
			 dir && *dir ? dir : "/tmp");
		const int fd = mkstemp(script);
		FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
		if (!f) {
			if (fd >= 0)
				close(fd);
			st = vta_fail(err, VTA_E_IO, "--timeline: cannot make a temporary file (%s)",
				      strerror(errno));
		} else {
			const size_t n = strlen(path);
			const int svg = n >= 4 && !strcmp(path + n - 4, ".svg");
			write_script(f, t, path, svg);
			const int bad = ferror(f);
			if (fclose(f) != 0 || bad)
				st = vta_fail(err, VTA_E_IO, "--timeline: cannot write its script");
			if (!st)
				st = run_gnuplot(script, path, err);
			remove(script);
		}
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
