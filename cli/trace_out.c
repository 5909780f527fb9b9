/*
 * trace_out.c - the per-instruction log and the Chrome trace-event timeline (see
 * trace_out.h; formats in docs/cli.md). The trace is streamed: each event is one jansson
 * object dumped as it is made, so memory stays proportional to one run's instructions.
 * Timestamps are cycles (the trace-event format's microsecond field carries cycles).
 */
#include "trace_out.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vta_asm.h"
#include "vta_insn.h"

#define NONE VTASIM_CYCLE_NONE

/* Counter series of the trace: the four token queues, then the three instruction queues. */
enum { SERIES_TOKENS = 0, SERIES_INSN_Q = VTASIM_TOKEN_COUNT, SERIES_COUNT = SERIES_INSN_Q + 3 };

struct trace_out {
	const vta_config *cfg;
	FILE *log, *trace;
	char *log_path, *trace_path;
	int runs;         /* runs added so far: the next run's pid */
	size_t events;    /* trace events written */
	int failed;       /* a write failed (reported at close) */
};

static const char *const MODULE_NAMES[VTASIM_MODULE_COUNT] = {"fetch", "load", "compute",
							      "store"};
static const char *const STAGE_NAMES[] = {"fetch", "queued", "waiting", "executing",
					  "pushing", "retired"};

static const char *stage_name(uint8_t stage)
{
	return stage <= VTASIM_STAGE_RETIRED ? STAGE_NAMES[stage] : "?";
}

static const char *module_name(uint8_t m)
{
	return m < VTASIM_MODULE_COUNT ? MODULE_NAMES[m] : "?";
}

static char *dup_str(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

static vta_status open_file(const char *path, FILE **f, vta_error *err)
{
	*f = fopen(path, "w");
	if (!*f)
		return vta_fail(err, VTA_E_IO, "cannot create '%s': %s", path, strerror(errno));
	return VTA_OK;
}

/* ----- the trace: one event per call ----- */

static void emit(trace_out *t, json_t *ev)
{
	if (!ev) {
		t->failed = 1;
		return;
	}
	if (t->events++ && fputs(",\n", t->trace) == EOF)
		t->failed = 1;
	if (json_dumpf(ev, t->trace, JSON_COMPACT) != 0)
		t->failed = 1;
	json_decref(ev);
}

static json_t *event(const char *name, const char *cat, const char *ph, uint64_t ts, int pid,
		     int tid)
{
	json_t *ev = json_object();
	json_object_set_new(ev, "name", json_string(name));
	if (cat)
		json_object_set_new(ev, "cat", json_string(cat));
	json_object_set_new(ev, "ph", json_string(ph));
	json_object_set_new(ev, "ts", json_integer((json_int_t)ts));
	json_object_set_new(ev, "pid", json_integer(pid));
	json_object_set_new(ev, "tid", json_integer(tid));
	return ev;
}

static void metadata(trace_out *t, const char *what, int pid, int tid, json_t *args)
{
	json_t *ev = json_object();
	json_object_set_new(ev, "name", json_string(what));
	json_object_set_new(ev, "ph", json_string("M"));
	json_object_set_new(ev, "pid", json_integer(pid));
	json_object_set_new(ev, "tid", json_integer(tid));
	json_object_set_new(ev, "args", args);
	emit(t, ev);
}

/* A complete slice [ts, te) on a module's track, cut at the run's end; args is taken. */
static void slice(trace_out *t, const char *name, const char *cat, uint64_t ts, uint64_t te,
		  uint64_t end, int pid, int tid, json_t *args)
{
	if (te > end)
		te = end;
	if (ts > te) {
		json_decref(args);
		return;
	}
	json_t *ev = event(name, cat, "X", ts, pid, tid);
	json_object_set_new(ev, "dur", json_integer((json_int_t)(te - ts)));
	if (args)
		json_object_set_new(ev, "args", args);
	emit(t, ev);
}

static json_t *cycle_json(uint64_t c)
{
	return c == NONE ? json_null() : json_integer((json_int_t)c);
}

/* The slice name of an instruction: "load inp", "gemm", "alu add", "nop", ... */
static void short_name(const vta_insn *in, char *buf, size_t size)
{
	switch (in->opcode) {
	case VTA_OP_LOAD:
		if (vta_insn_is_nop(in))
			snprintf(buf, size, "nop");
		else
			snprintf(buf, size, "load %s", vta_mem_name((vta_mem)in->mem.mem_type));
		return;
	case VTA_OP_STORE: snprintf(buf, size, vta_insn_is_nop(in) ? "nop" : "store"); return;
	case VTA_OP_GEMM: snprintf(buf, size, in->loop.reset ? "gemm reset" : "gemm"); return;
	case VTA_OP_ALU: {
		const char *op = vta_alu_op_name(in->alu.op);
		snprintf(buf, size, "alu %s", op ? op : "?");
		return;
	}
	case VTA_OP_FINISH: snprintf(buf, size, "finish"); return;
	}
	snprintf(buf, size, "?");
}

/* FETCH's track: one slice per burst, its wait for the port before it, and its waits for
 * room in an instruction queue inside it (each from the later of the instruction's
 * arrival and the previous dispatch to its own dispatch). */
static void fetch_track(trace_out *t, const trace_run *r, int pid, uint64_t off, uint64_t end)
{
	const vtasim_insn_record *rec = r->recs;
	char name[64];
	size_t i = 0;
	while (i < r->n && rec[i].stage >= VTASIM_STAGE_QUEUED) {
		size_t j = i;
		while (j + 1 < r->n && rec[j + 1].stage >= VTASIM_STAGE_QUEUED &&
		       rec[j + 1].fetch_cycle == rec[i].fetch_cycle)
			j++;
		const uint64_t bs = rec[i].fetch_cycle;
		if (rec[i].fetch_port_cycles)
			slice(t, "waiting on the DRAM port", "stall",
			      off + bs - rec[i].fetch_port_cycles, off + bs, end, pid,
			      VTASIM_MODULE_FETCH, NULL);
		snprintf(name, sizeof(name), "fetch insns %zu-%zu", i, j);
		json_t *args = json_object();
		json_object_set_new(args, "first", json_integer((json_int_t)i));
		json_object_set_new(args, "count", json_integer((json_int_t)(j - i + 1)));
		json_object_set_new(args, "port_wait", json_integer((json_int_t)
								     rec[i].fetch_port_cycles));
		slice(t, name, "fetch", off + bs, off + rec[j].dispatch_cycle, end, pid,
		      VTASIM_MODULE_FETCH, args);
		uint64_t prev = bs;
		for (size_t k = i; k <= j; k++) {
			uint64_t lo = rec[k].arrive_cycle > prev ? rec[k].arrive_cycle : prev;
			if (rec[k].dispatch_cycle > lo) {
				snprintf(name, sizeof(name), "waiting for room in the %s queue",
					 module_name(rec[k].module));
				slice(t, name, "stall", off + lo, off + rec[k].dispatch_cycle, end,
				      pid, VTASIM_MODULE_FETCH, NULL);
			}
			prev = rec[k].dispatch_cycle;
		}
		i = j + 1;
	}
	/* a failed run may end with FETCH waiting for room to dispatch instruction i */
	if (i < r->n && rec[i].fetch_room_cycles && r->err) {
		snprintf(name, sizeof(name), "waiting for room in the %s queue",
			 module_name(rec[i].module));
		slice(t, name, "stall", end - rec[i].fetch_room_cycles, end, end, pid,
		      VTASIM_MODULE_FETCH, NULL);
	}
}

/* One instruction on its module's track: its token waits, its execution, its waits for
 * room to push. */
static void insn_slices(trace_out *t, const trace_run *r, const vta_config *cfg, size_t i,
			int pid, uint64_t off, uint64_t end)
{
	const vtasim_insn_record *rec = &r->recs[i];
	if (rec->wait_cycle == NONE)
		return;
	char name[64], text[256];
	vta_insn in;
	vta_error sub = {0};
	if (vta_program_insn(r->prog, cfg, i, &in, &sub) != VTA_OK)
		return; /* the simulator decoded it: cannot happen */
	uint64_t c = rec->wait_cycle;
	for (int q = 0; q < VTASIM_TOKEN_COUNT; q++) {
		if (!(rec->pops & (1u << q)) || !rec->pop_cycles[q])
			continue;
		snprintf(name, sizeof(name), "waiting on %s", vtasim_token_name(q));
		json_t *args = json_object();
		json_object_set_new(args, "insn", json_integer((json_int_t)i));
		slice(t, name, "stall", off + c, off + c + rec->pop_cycles[q], end, pid, rec->module,
		      args);
		c += rec->pop_cycles[q];
	}
	if (rec->start_cycle == NONE)
		return;
	short_name(&in, name, sizeof(name));
	vta_disasm_insn(&in, text, sizeof(text));
	json_t *args = json_object();
	json_object_set_new(args, "insn", json_integer((json_int_t)i));
	json_object_set_new(args, "asm", json_string(text));
	json_object_set_new(args, "stage", json_string(stage_name(rec->stage)));
	json_object_set_new(args, "dispatch", cycle_json(rec->dispatch_cycle));
	json_object_set_new(args, "wait", cycle_json(rec->wait_cycle));
	json_object_set_new(args, "start", cycle_json(rec->start_cycle));
	json_object_set_new(args, "end", cycle_json(rec->end_cycle));
	json_object_set_new(args, "retire", cycle_json(rec->retire_cycle));
	json_object_set_new(args, "port_wait", json_integer((json_int_t)rec->port_cycles));
	uint64_t stop = rec->end_cycle == NONE ? end - off : rec->end_cycle;
	slice(t, name, "insn", off + rec->start_cycle, off + stop, end, pid, rec->module, args);
	if (rec->end_cycle == NONE)
		return;
	c = rec->end_cycle;
	for (int q = 0; q < VTASIM_TOKEN_COUNT; q++) {
		if (!(rec->pushes & (1u << q)) || !rec->push_cycles[q])
			continue;
		snprintf(name, sizeof(name), "waiting for room in %s", vtasim_token_name(q));
		json_t *a = json_object();
		json_object_set_new(a, "insn", json_integer((json_int_t)i));
		slice(t, name, "stall", off + c, off + c + rec->push_cycles[q], end, pid, rec->module,
		      a);
		c += rec->push_cycles[q];
	}
}

static void counter(trace_out *t, const char *name, uint64_t ts, int pid, const long *value,
		    int first, int count)
{
	static const char *const iq_names[3] = {"load", "compute", "store"};
	json_t *ev = event(name, NULL, "C", ts, pid, 0);
	json_t *a = json_object();
	for (int q = 0; q < count; q++)
		json_object_set_new(a,
				    first == SERIES_INSN_Q ? iq_names[q] : vtasim_token_name(q),
				    json_integer(value[first + q]));
	json_object_set_new(ev, "args", a);
	emit(t, ev);
}

typedef struct change {
	uint64_t t;
	int series, delta;
} change;

static int by_time(const void *a, const void *b)
{
	const change *x = a, *y = b;
	return x->t < y->t ? -1 : x->t > y->t;
}

/* Counter tracks derived from the records: tokens in each token queue (a pop at an
 * instruction's start, its pushes in order after its waits for room; FINISH pushes
 * nothing) and instructions in each module's queue (dispatch to retirement). */
static void counters(trace_out *t, const trace_run *r, const vta_config *cfg, int pid,
		     uint64_t off, uint64_t run_end)
{
	change *ch = malloc((r->n * 6 + 1) * sizeof(*ch));
	if (!ch) {
		t->failed = 1;
		return;
	}
	size_t n = 0;
	for (size_t i = 0; i < r->n; i++) {
		const vtasim_insn_record *rec = &r->recs[i];
		const int iq = SERIES_INSN_Q + rec->module - VTASIM_MODULE_LOAD;
		if (rec->stage >= VTASIM_STAGE_QUEUED && rec->dispatch_cycle <= run_end)
			ch[n++] = (change){rec->dispatch_cycle, iq, +1};
		if (rec->stage == VTASIM_STAGE_RETIRED)
			ch[n++] = (change){rec->retire_cycle, iq, -1};
		if (rec->stage >= VTASIM_STAGE_EXECUTING)
			for (int q = 0; q < VTASIM_TOKEN_COUNT; q++)
				if (rec->pops & (1u << q))
					ch[n++] = (change){rec->start_cycle, q, -1};
		if (rec->stage < VTASIM_STAGE_PUSHING || !rec->pushes)
			continue;
		vta_insn in;
		vta_error sub = {0};
		if (vta_program_insn(r->prog, cfg, i, &in, &sub) != VTA_OK ||
		    in.opcode == VTA_OP_FINISH)
			continue;
		uint64_t c = rec->end_cycle;
		for (int q = 0; q < VTASIM_TOKEN_COUNT; q++) {
			if (!(rec->pushes & (1u << q)))
				continue;
			c += rec->push_cycles[q];
			/* a push still waiting when a failed run ended never happened */
			if (rec->stage == VTASIM_STAGE_RETIRED || c < run_end)
				ch[n++] = (change){c, q, +1};
		}
	}
	qsort(ch, n, sizeof(*ch), by_time);
	long value[SERIES_COUNT] = {0};
	/* zeros at the launch, unless something changes then; then one counter event per
	 * group that changed, at each time something did */
	int changed[2] = {n == 0 || ch[0].t > 0, n == 0 || ch[0].t > 0};
	for (size_t k = 0;;) {
		const uint64_t at = k > 0 && k <= n ? ch[k - 1].t : 0;
		if (changed[0])
			counter(t, "tokens", off + at, pid, value, 0, VTASIM_TOKEN_COUNT);
		if (changed[1])
			counter(t, "instruction queues", off + at, pid, value, SERIES_INSN_Q, 3);
		if (k == n)
			break;
		changed[0] = changed[1] = 0;
		const uint64_t next = ch[k].t;
		while (k < n && ch[k].t == next) {
			value[ch[k].series] += ch[k].delta;
			changed[ch[k].series >= SERIES_INSN_Q] = 1;
			k++;
		}
	}
	free(ch);
}

static void trace_run_events(trace_out *t, const trace_run *r, int pid)
{
	const uint64_t off = r->offset, run_end = r->stats->cycles, end = off + run_end;
	char name[VTA_ERROR_DETAIL_MAX + 64];
	snprintf(name, sizeof(name), "%s", r->name);
	metadata(t, "process_name", pid, 0, json_pack("{s:s}", "name", name));
	metadata(t, "process_sort_index", pid, 0, json_pack("{s:i}", "sort_index", pid));
	for (int m = 0; m < VTASIM_MODULE_COUNT; m++) {
		metadata(t, "thread_name", pid, m, json_pack("{s:s}", "name", MODULE_NAMES[m]));
		metadata(t, "thread_sort_index", pid, m, json_pack("{s:i}", "sort_index", m));
	}
	fetch_track(t, r, pid, off, end);
	for (size_t i = 0; i < r->n; i++)
		insn_slices(t, r, t->cfg, i, pid, off, end);
	counters(t, r, t->cfg, pid, off, run_end);
	if (r->err) {
		/* where and why the run stopped, as a process-wide marker */
		snprintf(name, sizeof(name), "stopped: %s", r->err->detail);
		json_t *ev = event(name, "error", "i", end, pid, 0);
		json_object_set_new(ev, "s", json_string("p"));
		emit(t, ev);
	}
}

/* ----- the log ----- */

static const char *cycle_str(uint64_t c, char *buf, size_t size)
{
	if (c == NONE)
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%" PRIu64, c);
	return buf;
}

static void append(char *buf, size_t size, size_t *len, const char *fmt, const char *what,
		   uint64_t n)
{
	if (!n || *len >= size)
		return;
	int k = snprintf(buf + *len, size - *len, "%s", *len ? "," : "");
	*len += (size_t)k;
	if (*len >= size)
		return;
	k = snprintf(buf + *len, size - *len, fmt, what, n);
	*len += k > 0 ? (size_t)k : 0;
}

/* "wait:l2g=30,port=6,room:g2s=2" or "-" */
static void stalls_str(const vtasim_insn_record *r, char *buf, size_t size)
{
	size_t len = 0;
	buf[0] = 0;
	append(buf, size, &len, "%s=%" PRIu64, "fetch:port", r->fetch_port_cycles);
	append(buf, size, &len, "%s=%" PRIu64, "fetch:room", r->fetch_room_cycles);
	for (int q = 0; q < VTASIM_TOKEN_COUNT; q++)
		append(buf, size, &len, "wait:%s=%" PRIu64, vtasim_token_name(q), r->pop_cycles[q]);
	append(buf, size, &len, "%s=%" PRIu64, "port", r->port_cycles);
	for (int q = 0; q < VTASIM_TOKEN_COUNT; q++)
		append(buf, size, &len, "room:%s=%" PRIu64, vtasim_token_name(q), r->push_cycles[q]);
	if (!buf[0])
		snprintf(buf, size, "-");
}

static void log_run(trace_out *t, const trace_run *r, int number)
{
	FILE *f = t->log;
	fprintf(f, "\n# run %d: %s: %zu instructions, ", number, r->name, r->n);
	if (r->err)
		fprintf(f, "stopped at cycle %" PRIu64 ": %s\n", r->stats->cycles, r->err->detail);
	else
		fprintf(f, "%" PRIu64 " cycles, completed\n", r->stats->cycles);
	fprintf(f, "#%5s %-8s %-9s %8s %8s %8s %8s %8s  %-24s %s\n", "insn", "module", "stage",
		"dispatch", "wait", "start", "end", "retire", "stalls", "disassembly");
	char c[5][24], stalls[256], text[256];
	for (size_t i = 0; i < r->n; i++) {
		const vtasim_insn_record *rec = &r->recs[i];
		vta_insn in;
		vta_error sub = {0};
		if (vta_program_insn(r->prog, t->cfg, i, &in, &sub) == VTA_OK)
			vta_disasm_insn(&in, text, sizeof(text));
		else
			snprintf(text, sizeof(text), "? (%s)", sub.detail);
		stalls_str(rec, stalls, sizeof(stalls));
		fprintf(f, "%6zu %-8s %-9s %8s %8s %8s %8s %8s  %-24s %s\n", i,
			module_name(rec->module), stage_name(rec->stage),
			cycle_str(rec->dispatch_cycle, c[0], sizeof(c[0])),
			cycle_str(rec->wait_cycle, c[1], sizeof(c[1])),
			cycle_str(rec->start_cycle, c[2], sizeof(c[2])),
			cycle_str(rec->end_cycle, c[3], sizeof(c[3])),
			cycle_str(rec->retire_cycle, c[4], sizeof(c[4])), stalls, text);
	}
}

/* ----- the API ----- */

vta_status trace_out_open(const char *log_path, const char *trace_path, const vta_config *cfg,
			  const char *title, trace_out **out, vta_error *err)
{
	*out = NULL;
	trace_out *t = calloc(1, sizeof(*t));
	if (!t)
		return vta_fail(err, VTA_E_NOMEM, "out of memory");
	t->cfg = cfg;
	vta_status st = VTA_OK;
	if (log_path && !(t->log_path = dup_str(log_path)))
		st = vta_fail(err, VTA_E_NOMEM, "out of memory");
	if (!st && trace_path && !(t->trace_path = dup_str(trace_path)))
		st = vta_fail(err, VTA_E_NOMEM, "out of memory");
	if (!st && log_path)
		st = open_file(log_path, &t->log, err);
	if (!st && trace_path)
		st = open_file(trace_path, &t->trace, err);
	if (st) {
		trace_out_close(t, NULL);
		return st;
	}
	if (t->log) {
		fprintf(t->log, "# vtasim per-instruction log, generated by vtasim %s on %s\n", title,
			cfg->name);
		fprintf(t->log,
			"# one line per instruction in program order; cycles count from the run's "
			"launch, '-' where the\n"
			"# instruction never got there. stage: how far it got (fetch, queued, "
			"waiting, executing,\n"
			"# pushing, retired). stalls, in cycles: wait:Q waiting for a token in "
			"queue Q; port waiting\n"
			"# for the DRAM port; room:Q waiting for room in Q; fetch:port and "
			"fetch:room FETCH waiting\n"
			"# for the port or for room in the instruction queue. See docs/cli.md.\n");
	}
	if (t->trace) {
		json_t *meta = json_pack(
			"{s:s, s:s, s:s, s:f, s:s}", "generator", "vtasim", "title", title, "config",
			cfg->name, "clock_mhz", cfg->clock_mhz, "time_unit",
			"ts and dur count accelerator cycles: read the viewer's microseconds as "
			"cycles");
		char *text = meta ? json_dumps(meta, JSON_COMPACT) : NULL;
		json_decref(meta);
		if (!text) {
			trace_out_close(t, NULL);
			return vta_fail(err, VTA_E_NOMEM, "out of memory");
		}
		fprintf(t->trace, "{\"otherData\":%s,\n\"traceEvents\":[\n", text);
		free(text);
	}
	*out = t;
	return VTA_OK;
}

vta_status trace_out_add(trace_out *t, const trace_run *run, vta_error *err)
{
	if (!t || !run || !run->stats || (!run->recs && run->n))
		return vta_fail(err, VTA_E_USAGE, "trace_out_add: NULL argument");
	const int number = ++t->runs;
	if (t->log)
		log_run(t, run, number);
	if (t->trace)
		trace_run_events(t, run, number);
	return VTA_OK;
}

static vta_status finish_file(FILE *f, const char *path, int failed, vta_status st,
			      vta_error *err)
{
	if (!f)
		return st;
	int bad = failed || ferror(f);
	if (fclose(f) != 0)
		bad = 1;
	if (bad && !st)
		st = vta_fail(err, VTA_E_IO, "cannot write '%s'", path);
	return st;
}

vta_status trace_out_close(trace_out *t, vta_error *err)
{
	if (!t)
		return VTA_OK;
	vta_status st = VTA_OK;
	if (t->trace)
		fputs("\n]}\n", t->trace);
	st = finish_file(t->log, t->log_path, 0, st, err);
	st = finish_file(t->trace, t->trace_path, t->failed, st, err);
	free(t->log_path);
	free(t->trace_path);
	free(t);
	return st;
}
