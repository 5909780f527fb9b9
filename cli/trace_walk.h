/*
 * trace_walk.h - the inside of trace_out.h: one run's instruction records (vtasim_api.h)
 * and its events walked in a fixed order and turned into the steps every trace format
 * draws: the instructions, the spans of each module's track, the tokens pushed and popped,
 * the bursts on the DRAM port and the values of the counters (queues, SRAM live bytes). The
 * rules of the timeline (where a burst, a wait or an execution starts and ends, what fills
 * and drains a queue, which push a pop consumes) live here once; the writers declared at
 * the end (trace_log.c, trace_chrome.c, trace_vcd.c) only render steps in their format.
 *
 * The order: TRACE_RUN_BEGIN; FETCH's spans, burst by burst; for each instruction in program
 * order, TRACE_INSN then what happens on its module's track, in time order (its waits for
 * tokens, its execution, its pops, its waits for the DRAM port, then for each queue it
 * pushes its wait for room and its push); the DRAM port's bursts in time order; the counter
 * steps in time order; TRACE_RUN_END.
 */
#ifndef VTASIM_TRACE_WALK_H
#define VTASIM_TRACE_WALK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "vta_config.h"
#include "vta_insn.h"
#include "vta_program.h"
#include "vta_status.h"
#include "vtasim_api.h"

/* One simulated run and its records. */
typedef struct trace_run {
	const char *name;                /* shown as the trace's process and the log's section */
	const vta_program *prog;         /* the stream the records describe */
	const vtasim_insn_record *recs;  /* record i is instruction i */
	size_t n;
	const vta_run_stats *stats;       /* its statistics; stats->cycles ends the run */
	const vta_error *err;            /* why the run failed, or NULL if it completed */
	uint64_t offset;                 /* cycle the run starts at on the trace's time axis */
	vtasim_run_events ev;            /* its events (all empty if none were kept) */
} trace_run;

typedef enum trace_step_kind {
	TRACE_RUN_BEGIN,
	TRACE_INSN,        /* an instruction, whatever stage it reached */
	TRACE_FETCH_PORT,  /* FETCH waits for the DRAM port before a burst */
	TRACE_FETCH_BURST, /* FETCH reads instructions insn..last */
	TRACE_FETCH_ROOM,  /* FETCH waits for room in the queue of module `queue` */
	TRACE_POP_WAIT,    /* the instruction waits for a token of token queue `queue` */
	TRACE_EXEC,        /* the instruction executes */
	TRACE_POP,         /* at `start` it pops token `token` of `queue` (see below) */
	TRACE_PORT_WAIT,   /* inside its execution, it waits for the DRAM port for a burst */
	TRACE_PUSH_ROOM,   /* the instruction waits for room in token queue `queue` */
	TRACE_PUSH,        /* at `start` it pushes token `token` into `queue` */
	TRACE_PORT_BURST,  /* a burst holds the DRAM port: client `track`, for insn, `bytes` */
	TRACE_COUNTS,      /* the counters change at `start` */
	TRACE_RUN_END
} trace_step_kind;

/* Instruction queues counted by TRACE_COUNTS: those of LOAD, COMPUTE and STORE. */
#define TRACE_INSN_QUEUES (VTA_STATS_MODULES - VTA_STATS_LOAD)

/* No instruction: a token whose push or pop did not happen in the run. */
#define TRACE_NO_INSN ((size_t)-1)

typedef struct trace_step {
	trace_step_kind kind;
	const trace_run *run;
	int number;                    /* the run's number in the files, from 1 */
	size_t insn, last;             /* the instruction (a burst: its first and last) */
	const vtasim_insn_record *rec; /* insn's record */
	const vta_insn *in;            /* TRACE_INSN, module spans: insn decoded, or NULL */
	const char *text;              /* ... its disassembly, or why it does not decode */
	int track;                     /* spans: the module drawing it, VTA_STATS_* */
	int queue;                     /* the queue a wait, a push or a pop is for */
	uint64_t start, end;           /* cycles from the run's launch, cut at its end */
	/* TRACE_PUSH, TRACE_POP: the token's number in its queue, from 0. The k-th push into a
	 * queue is consumed by its k-th pop (one module pushes it, one pops it, in order);
	 * `partner` is the instruction at the other end and partner_cycle when it pushed or
	 * popped, or TRACE_NO_INSN when that did not happen in the run. */
	uint64_t token;
	size_t partner;
	uint64_t partner_cycle;
	uint64_t bytes;                /* TRACE_PORT_BURST */
	/* TRACE_INSN: the ALU lanes of the instruction that wrapped (n_wraps of them) */
	const vtasim_alu_wrap *wraps;
	size_t n_wraps;
	/* TRACE_COUNTS: tokens in each token queue, instructions in each instruction queue,
	 * live bytes of each SRAM (VTA_STATS_UOP .. _OUT), and which group changed */
	const long *tokens, *insn_queues, *live;
	int tokens_changed, queues_changed, live_changed;
	/* ... and the tokens in each queue after that time's pushes, before its pops: a token
	 * pushed and popped in one cycle (a consumer that waited for it) counts here only */
	const long *tokens_peak;
} trace_step;

/* Receives each step in turn; the step is valid during the call only. */
typedef void trace_visit(void *writer, const trace_step *s);

/* Walk `run`, the number-th run of the files, handing every step to visit(writer, step).
 * VTA_E_NOMEM is the only failure. */
vta_status trace_walk(const trace_run *run, int number, const vta_config *cfg,
		      trace_visit *visit, void *writer, vta_error *err);

/* "fetch", "load", "compute", "store" ("?" out of range). */
const char *trace_module_name(int module);

/* "fetch", "queued", "waiting", "executing", "pushing", "retired" ("?" out of range). */
const char *trace_stage_name(int stage);

/* The per-instruction log (`--log`): text, a section per run, one line per instruction in
 * program order with its cycles, stalls and disassembly. Format: docs/cli.md. */

/* The log's heading, what it comes from and how to read it. */
void trace_log_start(FILE *f, const vta_config *cfg, const char *title);

/* A run's heading line at TRACE_RUN_BEGIN, an instruction's line at TRACE_INSN. */
void trace_log_step(FILE *f, const trace_step *s);

/* A line for work done on the host between runs (an operator of a model the accelerator
 * does not run), `at` the cycle of the time axis where it happened. */
void trace_log_host(FILE *f, const char *name, uint64_t at, double host_seconds);

/* The timeline (`--trace`) as Chrome trace-event JSON, for chrome://tracing or
 * ui.perfetto.dev: a process per run, a thread per module, flows from each token's push to
 * its pop, counters for the queues, the SRAMs' live bytes and the DRAM port's bandwidth.
 * Format: docs/cli.md. */
typedef struct trace_chrome trace_chrome;

/* Start the timeline in f (which stays the caller's); NULL when out of memory. */
trace_chrome *trace_chrome_open(FILE *f, const vta_config *cfg, const char *title);

void trace_chrome_step(trace_chrome *c, const trace_step *s);

/* Work done on the host between runs: an instant event of the process "host" at cycle
 * `at`, its measured host seconds in its args (the time axis counts accelerator cycles
 * only, so it takes none of it). */
void trace_chrome_host(trace_chrome *c, const char *name, uint64_t at, double host_seconds);

/* End the timeline and free c; nonzero if an event could not be made or written. */
int trace_chrome_close(trace_chrome *c);

/* The waveform (`--vcd`) of one run as VCD: per module its state and instruction, the
 * depth of every queue, the SRAMs' live bytes and the DRAM port's owner, one cycle being
 * the clock's period (trace_vcd_period_ps). Format: docs/cli.md. */
typedef struct trace_vcd trace_vcd;

/* One cycle of cfg's clock in ps: its period rounded to an even number (so that the RTL
 * units' half cycles land on whole ps), at least 2. */
uint64_t trace_vcd_period_ps(const vta_config *cfg);

/* The waveform's header comment for cfg (its time unit and the meaning of the codes):
 * at most `size` bytes, in buf. */
void trace_vcd_comment(const vta_config *cfg, char *buf, size_t size);

/* Start a waveform to be written to f (which stays the caller's) when it is closed; NULL
 * when out of memory. */
trace_vcd *trace_vcd_open(FILE *f, const vta_config *cfg, const char *title);

void trace_vcd_step(trace_vcd *v, const trace_step *s);

/* Write the waveform and free v; nonzero if memory ran out or a write failed. */
int trace_vcd_close(trace_vcd *v);

/* The timeline as a picture (`--timeline`): the modules as lanes of boxes (instructions by
 * kind, stalls by cause), the tokens as arrows between lanes, the token queues and the DRAM
 * port's bandwidth as tracks below, drawn by gnuplot as SVG or PNG; beyond a bounded number
 * of boxes, a summary of each module's states per column. Format: docs/cli.md. */
typedef struct trace_timeline trace_timeline;

/* Collect the steps of cycles [from, to) of the time axis (to == 0: to the end of the
 * runs); NULL when out of memory. */
trace_timeline *trace_timeline_open(const char *title, uint64_t from, uint64_t to);

void trace_timeline_step(trace_timeline *t, const trace_step *s);

/* Draw the picture into `path` (SVG if it ends ".svg", else PNG) and free t (NULL is fine):
 * a NULL path only frees; VTA_E_USAGE when the window begins after the runs ended, VTA_E_IO when gnuplot is
 * missing or fails. */
vta_status trace_timeline_close(trace_timeline *t, const char *path, vta_error *err);

#endif /* VTASIM_TRACE_WALK_H */
