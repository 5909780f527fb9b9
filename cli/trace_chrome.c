/*
 * trace_chrome.c - the timeline as Chrome trace events (see trace_walk.h). Streamed:
 * each event is one jansson object dumped as it is made. Timestamps are cycles (the
 * trace-event format's microsecond field carries cycles), each run's shifted by its offset.
 */
#include "trace_walk.h"

#include <jansson.h>
#include <stdlib.h>

struct trace_chrome {
	FILE *f;
	size_t events; /* events written */
	int failed;    /* an event could not be made or written */
	/* the DRAM port's counters, one per channel (0 read, 1 write): a burst's rate until
	 * port_end, unless the channel's next one starts */
	uint64_t port_end[2];
	int port_open[2], port_seen[2];
	double port_rate[2]; /* the rate last written */
	int host_named;               /* the host's process has its name */
};

/* The process of host work: after any run's number, listed first. */
#define HOST_PID 1000000

trace_chrome *trace_chrome_open(FILE *f, const vta_config *cfg, const char *title)
{
	trace_chrome *c = calloc(1, sizeof(*c));
	json_t *meta = json_pack(
		"{s:s, s:s, s:s, s:f, s:s}", "generator", "vtasim", "title", title, "config",
		cfg->name, "clock_mhz", cfg->clock_mhz, "time_unit",
		"ts and dur count accelerator cycles: read the viewer's microseconds as cycles");
	char *text = meta ? json_dumps(meta, JSON_COMPACT) : NULL;
	json_decref(meta);
	if (!c || !text) {
		free(c);
		free(text);
		return NULL;
	}
	c->f = f;
	fprintf(f, "{\"otherData\":%s,\n\"traceEvents\":[\n", text);
	free(text);
	return c;
}

static void emit(trace_chrome *c, json_t *ev)
{
	if (!ev) {
		c->failed = 1;
		return;
	}
	if (c->events++ && fputs(",\n", c->f) == EOF)
		c->failed = 1;
	if (json_dumpf(ev, c->f, JSON_COMPACT) != 0)
		c->failed = 1;
	json_decref(ev);
}

/* An event; a NULL cat or args is left out, args is taken. */
static json_t *event(const char *name, const char *cat, const char *ph, uint64_t ts, int pid,
		     int tid, json_t *args)
{
	return json_pack("{s:s, s:s*, s:s, s:I, s:i, s:i, s:o*}", "name", name, "cat", cat, "ph",
			 ph, "ts", (json_int_t)ts, "pid", pid, "tid", tid, "args", args);
}

static void metadata(trace_chrome *c, const char *what, int pid, int tid, json_t *args)
{
	emit(c, json_pack("{s:s, s:s, s:i, s:i, s:o}", "name", what, "ph", "M", "pid", pid, "tid",
			  tid, "args", args));
}

/* A span as a complete slice on its module's track; args (taken) may be NULL. */
static void slice(trace_chrome *c, const trace_step *s, const char *name, const char *cat,
		  json_t *args)
{
	json_t *ev = event(name, cat, "X", s->run->offset + s->start, s->number, s->track, NULL);
	json_object_set_new(ev, "dur", json_integer((json_int_t)(s->end - s->start)));
	if (args) /* after dur: the key order is part of the output */
		json_object_set_new(ev, "args", args);
	emit(c, ev);
}

static json_t *insn_args(size_t insn)
{
	return json_pack("{s:I}", "insn", (json_int_t)insn);
}

static json_t *cycle_json(uint64_t c)
{
	return c == VTASIM_CYCLE_NONE ? json_null() : json_integer((json_int_t)c);
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

static void exec_slice(trace_chrome *c, const trace_step *s)
{
	const vtasim_insn_record *rec = s->rec;
	char name[64];
	short_name(s->in, name, sizeof(name));
	slice(c, s, name, "insn",
	      json_pack("{s:I, s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:I}", "insn",
			(json_int_t)s->insn, "asm", s->text, "stage", trace_stage_name(rec->stage),
			"dispatch", cycle_json(rec->dispatch_cycle), "wait",
			cycle_json(rec->wait_cycle), "start", cycle_json(rec->start_cycle), "end",
			cycle_json(rec->end_cycle), "retire", cycle_json(rec->retire_cycle),
			"port_wait", (json_int_t)rec->port_cycles));
}

/* A counter event for one group of series. */
static void counter(trace_chrome *c, const trace_step *s, const char *name, const long *value,
		    int tokens)
{
	json_t *args = json_object();
	for (int q = 0; q < (tokens ? VTA_QUEUE_COUNT : TRACE_INSN_QUEUES); q++)
		json_object_set_new(args,
				    tokens ? vta_queue_name(q)
					   : trace_module_name(VTA_STATS_LOAD + q),
				    json_integer(value[q]));
	emit(c, event(name, NULL, "C", s->run->offset + s->start, s->number, 0, args));
}

/* The SRAMs' live bytes. */
static void live_counter(trace_chrome *c, const trace_step *s)
{
	json_t *args = json_object();
	for (int m = 0; m < VTA_STATS_SRAMS; m++)
		json_object_set_new(args, vta_stats_slot_name(m), json_integer(s->live[m]));
	emit(c, event("SRAM live bytes", NULL, "C", s->run->offset + s->start, s->number, 0,
		      args));
}

static const char *const PORT_COUNTERS[2] = {"DRAM read bytes per cycle",
					     "DRAM write bytes per cycle"};

/* A DRAM channel's bandwidth at cycle t (0 reads, 1 writes). */
static void port_counter(trace_chrome *c, const trace_step *s, int ch, uint64_t t, double rate)
{
	emit(c, event(PORT_COUNTERS[ch], NULL, "C", s->run->offset + t, s->number, 0,
		      json_pack("{s:f}", "bytes", rate)));
}

/* A burst holds its channel [start, end) (STORE's bursts the write channel, every other
 * the read channel): its rate from start, 0 after it unless another burst of the channel
 * follows at once (a channel's bursts come in time order and never overlap). A burst that
 * goes on at the rate of the one it follows at once changes nothing. */
static void port_burst(trace_chrome *c, const trace_step *s)
{
	const double rate = s->end > s->start ? (double)s->bytes / (double)(s->end - s->start) : 0;
	const int ch = s->track == VTA_STATS_STORE;
	if (c->port_open[ch] && c->port_end[ch] == s->start && c->port_rate[ch] == rate) {
		c->port_end[ch] = s->end;
		return;
	}
	if (c->port_open[ch] && c->port_end[ch] < s->start)
		port_counter(c, s, ch, c->port_end[ch], 0);
	else if (!c->port_seen[ch] && s->start > 0)
		port_counter(c, s, ch, 0, 0);
	port_counter(c, s, ch, s->start, rate);
	c->port_rate[ch] = rate;
	c->port_end[ch] = s->end;
	c->port_open[ch] = c->port_seen[ch] = 1;
}

/* Whether a token's flow can bind at both ends (docs/cli.md): the push is drawn half a
 * cycle before it happens, inside the slice that ends with it (its execution, or its wait
 * for room), the pop at the start of the popping instruction's execution; both slices
 * must last. */
static int flow_binds(const trace_run *r, size_t pusher, uint64_t push_at, size_t popper)
{
	if (pusher == TRACE_NO_INSN || popper == TRACE_NO_INSN)
		return 0;
	const vtasim_insn_record *p = &r->recs[pusher], *q = &r->recs[popper];
	const uint64_t q_end = q->end_cycle == VTASIM_CYCLE_NONE || q->end_cycle > r->stats->cycles
				       ? r->stats->cycles
				       : q->end_cycle;
	return (push_at > p->end_cycle || p->end_cycle > p->start_cycle) && q_end > q->start_cycle;
}

/* One end of a token's flow: "s" at its push, "f" at its pop, bound to the enclosing
 * slice ("bp": "e"); the k-th push of a queue and its k-th pop share an id. */
static void flow_end(trace_chrome *c, const trace_step *s)
{
	const int push = s->kind == TRACE_PUSH;
	const size_t pusher = push ? s->insn : s->partner, popper = push ? s->partner : s->insn;
	const uint64_t push_at = push ? s->start : s->partner_cycle;
	if (!flow_binds(s->run, pusher, push_at, popper))
		return;
	const json_int_t id =
		(json_int_t)((((uint64_t)s->number * VTA_QUEUE_COUNT + (uint64_t)s->queue) << 32) +
			     s->token);
	const double ts = (double)(s->run->offset + s->start) - (push ? 0.5 : 0.0);
	emit(c, json_pack("{s:s, s:s, s:s, s:f, s:i, s:i, s:I, s:s, s:{s:I, s:I}}", "name",
			  vta_queue_name(s->queue), "cat", "token", "ph", push ? "s" : "f", "ts",
			  ts, "pid", s->number, "tid", s->track, "id", id, "bp", "e", "args",
			  "push", (json_int_t)pusher, "pop", (json_int_t)popper));
}

static void run_begin(trace_chrome *c, const trace_step *s)
{
	for (int ch = 0; ch < 2; ch++)
		c->port_open[ch] = c->port_seen[ch] = 0;
	const int pid = s->number;
	char name[VTA_ERROR_DETAIL_MAX + 64];
	snprintf(name, sizeof(name), "%s", s->run->name);
	metadata(c, "process_name", pid, 0, json_pack("{s:s}", "name", name));
	metadata(c, "process_sort_index", pid, 0, json_pack("{s:i}", "sort_index", pid));
	for (int m = 0; m < VTA_STATS_MODULES; m++) {
		metadata(c, "thread_name", pid, m, json_pack("{s:s}", "name", trace_module_name(m)));
		metadata(c, "thread_sort_index", pid, m, json_pack("{s:i}", "sort_index", m));
	}
}

void trace_chrome_step(trace_chrome *c, const trace_step *s)
{
	char name[VTA_ERROR_DETAIL_MAX + 64];
	switch (s->kind) {
	case TRACE_RUN_BEGIN: run_begin(c, s); break;
	case TRACE_INSN: break;
	case TRACE_FETCH_PORT: slice(c, s, "waiting on the DRAM port", "stall", NULL); break;
	case TRACE_FETCH_BURST:
		snprintf(name, sizeof(name), "fetch insns %zu-%zu", s->insn, s->last);
		slice(c, s, name, "fetch",
		      json_pack("{s:I, s:I, s:I}", "first", (json_int_t)s->insn, "count",
				(json_int_t)(s->last - s->insn + 1), "port_wait",
				(json_int_t)s->rec->fetch_port_cycles));
		break;
	case TRACE_FETCH_ROOM:
		snprintf(name, sizeof(name), "waiting for room in the %s queue",
			 trace_module_name(s->queue));
		slice(c, s, name, "stall", NULL);
		break;
	case TRACE_POP_WAIT:
		snprintf(name, sizeof(name), "waiting on %s", vta_queue_name(s->queue));
		slice(c, s, name, "stall", insn_args(s->insn));
		break;
	case TRACE_EXEC: exec_slice(c, s); break;
	case TRACE_PUSH_ROOM:
		snprintf(name, sizeof(name), "waiting for room in %s", vta_queue_name(s->queue));
		slice(c, s, name, "stall", insn_args(s->insn));
		break;
	case TRACE_PORT_WAIT:
		slice(c, s, "waiting on the DRAM port", "stall", insn_args(s->insn));
		break;
	case TRACE_POP:
	case TRACE_PUSH: flow_end(c, s); break;
	case TRACE_PORT_BURST: port_burst(c, s); break;
	case TRACE_COUNTS:
		if (s->tokens_changed)
			counter(c, s, "tokens", s->tokens, 1);
		if (s->queues_changed)
			counter(c, s, "instruction queues", s->insn_queues, 0);
		if (s->live_changed)
			live_counter(c, s);
		break;
	case TRACE_RUN_END:
		for (int ch = 0; ch < 2; ch++)
			if (c->port_open[ch])
				port_counter(c, s, ch, c->port_end[ch], 0);
		if (s->run->err) {
			/* where and why the run stopped, as a process-wide marker */
			snprintf(name, sizeof(name), "stopped: %s", s->run->err->detail);
			json_t *ev = event(name, "error", "i", s->run->offset + s->run->stats->cycles,
					   s->number, 0, NULL);
			json_object_set_new(ev, "s", json_string("p"));
			emit(c, ev);
		}
		break;
	}
}

void trace_chrome_host(trace_chrome *c, const char *name, uint64_t at, double host_seconds)
{
	if (!c->host_named) {
		c->host_named = 1;
		metadata(c, "process_name", HOST_PID, 0, json_pack("{s:s}", "name", "host"));
		metadata(c, "process_sort_index", HOST_PID, 0, json_pack("{s:i}", "sort_index", 0));
		metadata(c, "thread_name", HOST_PID, 0, json_pack("{s:s}", "name", "host ops"));
	}
	json_t *ev = event(name, "host", "i", at, HOST_PID, 0,
			   json_pack("{s:f}", "host_seconds", host_seconds));
	if (ev)
		json_object_set_new(ev, "s", json_string("p"));
	emit(c, ev);
}

int trace_chrome_close(trace_chrome *c)
{
	fputs("\n]}\n", c->f);
	const int failed = c->failed;
	free(c);
	return failed;
}
