/*
 * trace_chrome.h - the timeline (`--trace`) as Chrome trace-event JSON, for
 * chrome://tracing or ui.perfetto.dev: a process per run, a thread per module, counters for
 * the queues. Format: docs/cli.md.
 */
#ifndef VTASIM_TRACE_CHROME_H
#define VTASIM_TRACE_CHROME_H

#include <stdio.h>

#include "trace_walk.h"

typedef struct trace_chrome trace_chrome;

/* Start the timeline in f (which stays the caller's); NULL when out of memory. */
trace_chrome *trace_chrome_open(FILE *f, const vta_config *cfg, const char *title);

void trace_chrome_step(trace_chrome *c, const trace_step *s);

/* End the timeline and free c; nonzero if an event could not be made or written. */
int trace_chrome_close(trace_chrome *c);

#endif /* VTASIM_TRACE_CHROME_H */
