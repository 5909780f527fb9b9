/*
 * trace_out.h - what a firmware developer reads after a run: the per-instruction log
 * (`--log`, text, one line per instruction in program order) and the timeline (`--trace`,
 * Chrome trace-event JSON for chrome://tracing or ui.perfetto.dev), both made from the
 * simulator's instruction records (vtasim_api.h). Formats: docs/cli.md.
 *
 * Several runs (the layers of `vtasim run`) go into the same files one after another: a
 * section each in the log, a process each in the trace, placed on one time axis.
 */
#ifndef VTASIM_TRACE_OUT_H
#define VTASIM_TRACE_OUT_H

#include <stddef.h>
#include <stdint.h>

#include "vta_config.h"
#include "vta_program.h"
#include "vta_status.h"
#include "vtasim_api.h"

/* One simulated run and its records. */
typedef struct trace_run {
	const char *name;                /* shown as the trace's process and the log's section */
	const vta_program *prog;         /* the stream the records describe */
	const vtasim_insn_record *recs;  /* record i is instruction i */
	size_t n;
	const vtasim_stats *stats;       /* its statistics; stats->cycles ends the run */
	const vta_error *err;            /* why the run failed, or NULL if it completed */
	uint64_t offset;                 /* cycle the run starts at on the trace's time axis */
} trace_run;

typedef struct trace_out trace_out;

/* Create log_path and/or trace_path (either may be NULL). `title` names what runs
 * ("exec prog.s", "run workload.yaml") in each file's first line. */
vta_status trace_out_open(const char *log_path, const char *trace_path, const vta_config *cfg,
			  const char *title, trace_out **out, vta_error *err);

/* Append one run: a section of the log and a process of the trace. */
vta_status trace_out_add(trace_out *t, const trace_run *run, vta_error *err);

/* Finish and close both files, free t (NULL is fine). VTA_E_IO if a write failed. */
vta_status trace_out_close(trace_out *t, vta_error *err);

#endif /* VTASIM_TRACE_OUT_H */
