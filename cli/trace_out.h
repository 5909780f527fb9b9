/*
 * trace_out.h - what a firmware developer reads after a run: the per-instruction log
 * (`--log`), the timeline (`--trace`) and the waveform (`--vcd`), all made from the
 * simulator's instruction records and events by the same walk (trace_walk.h). Formats:
 * docs/cli.md.
 *
 * Several runs (the layers of `vtasim run`) go into the same log and trace one after
 * another: a section each in the log, a process each in the trace, placed on one time
 * axis. A waveform is one file per run.
 */
#ifndef VTASIM_TRACE_OUT_H
#define VTASIM_TRACE_OUT_H

#include "vta_config.h"
#include "vta_status.h"
#include "trace_walk.h"

typedef struct trace_out trace_out;

/* Create log_path and/or trace_path (either may be NULL) and make `sim` record its runs.
 * `title` names what runs ("exec prog.s", "run workload.yaml") in each file's first line. */
vta_status trace_out_open(const char *log_path, const char *trace_path, const vta_config *cfg,
			  const char *title, vtasim_sim *sim, trace_out **out, vta_error *err);

/* Write the waveform of the next runs to `path` (each run rewrites it; NULL: none), and
 * with `datapath: rtl` the RTL units' signals into it too (vtasim_sim_set_vcd). Fails
 * (VTA_E_IO) at once when the file cannot be written. */
vta_status trace_out_set_vcd(trace_out *t, const char *path, vta_error *err);

/* The --timeline PATH and --timeline-window WINDOW options (WINDOW may be NULL): PATH must
 * end .svg or .png, WINDOW be "A:B", cycles A < B of the time axis. VTA_E_USAGE naming the
 * option otherwise. */
vta_status trace_out_timeline_check(const char *path, const char *window, uint64_t *from,
				    uint64_t *to, vta_error *err);

/* Draw the runs' timeline, cycles [from, to) of the time axis (to == 0: all of it), into
 * `path` when t is closed (trace_walk.h trace_timeline_*). Fails (VTA_E_IO) at once when the
 * file cannot be written. */
vta_status trace_out_set_timeline(trace_out *t, const char *path, uint64_t from, uint64_t to,
				  vta_error *err);

/* Append sim's last run, named `name`, of `prog`, with its statistics and the error it failed
 * with (NULL if it completed): a section of the log and a process of the trace, starting
 * where the run before ended, and its waveform. A failed run too: its records up to the
 * failure diagnose it; a run without records adds nothing. */
vta_status trace_out_add(trace_out *t, const char *name, const vta_program *prog,
			 const vta_run_stats *stats, const vta_error *run_err, vta_error *err);

/* Work done on the host between runs, named `name` (a model's host operator): a line of the
 * log and an instant of the trace's "host" process where the last run ended. The time axis
 * counts accelerator cycles only: the host's seconds are in the entry, not on the axis. */
vta_status trace_out_host(trace_out *t, const char *name, double host_seconds, vta_error *err);

/* Finish and close both files, free t (NULL is fine). VTA_E_IO if a write failed. */
vta_status trace_out_close(trace_out *t, vta_error *err);

#endif /* VTASIM_TRACE_OUT_H */
