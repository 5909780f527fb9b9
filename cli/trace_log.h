/*
 * trace_log.h - the per-instruction log (`--log`): text, a section per run, one line per
 * instruction in program order with its cycles, stalls and disassembly. Format:
 * docs/cli.md.
 */
#ifndef VTASIM_TRACE_LOG_H
#define VTASIM_TRACE_LOG_H

#include <stdio.h>

#include "trace_walk.h"

/* The log's heading, what it comes from and how to read it. */
void trace_log_start(FILE *f, const vta_config *cfg, const char *title);

/* A run's heading line at TRACE_RUN_BEGIN, an instruction's line at TRACE_INSN. */
void trace_log_step(FILE *f, const trace_step *s);

#endif /* VTASIM_TRACE_LOG_H */
