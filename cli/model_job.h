/*
 * model_job.h - one run of a .tflite model as `vtasim run` makes it, whether the command line
 * names the model (`-m MODEL.tflite`) or a workload YAML does (`model:`, docs/workload.md):
 * what to run, with which inputs and options, and where its report, tensors, log, trace and
 * waveforms go. cmd_run_model.c runs it.
 */
#ifndef CLI_MODEL_JOB_H
#define CLI_MODEL_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model_inputs.h"
#include "run_common.h"
#include "tflite_model.h"


typedef struct model_job {
	const run_common *c;         /* config, engine, threads, decompression, checks */
	const char *model;
	const char *const *inputs;   /* .npy per model input, or none (seeded random) */
	size_t n_inputs;
	uint64_t seed;
	unsigned host_classes;       /* VTA_MODEL_CLASS_* moved to the host */
	bool host_staging;           /* every tensor through the host between ops, to compare */
	const char *report;          /* -o REPORT.json, or NULL */
	const char *output, *dump;   /* the model's output .npy; every tensor's folder */
	const char *expect;          /* reference tensor_N.npy files to compare, or NULL */
	const char *log, *trace;     /* per-instruction log, timeline */
	const char *vcd;             /* waveforms: one per accelerated op */
	const char *timeline;        /* the timeline's picture, or NULL */
	uint64_t timeline_from, timeline_to; /* its window (0, 0: all of it) */
	const char *title;           /* what the log and trace say ran */
} model_job;

/* Run the job on cfg (loaded from j->c): the report on stdout; the exit status. */
int model_job_run(const model_job *j, const vta_config *cfg, vta_decompress dec);

#endif /* CLI_MODEL_JOB_H */
