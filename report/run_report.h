/*
 * run_report.h - the report of `vtasim run`: per layer and in total, as text and as JSON.
 * The JSON keys are a contract (docs/cli.md lists them): extend, never rename.
 */
#ifndef VTASIM_RUN_REPORT_H
#define VTASIM_RUN_REPORT_H

#include <stdio.h>

#include "layer_run.h"
#include "quant.h"
#include "report.h"
#include "vta_config.h"
#include "workload.h"

typedef struct run_report {
	const vta_config *cfg;
	const char *workload;
	vta_arith_mode mode;
	unsigned threads;
	const char *engine;
	const char *datapath; /* the timed model's: "c" or "rtl"; NULL for the reference */
	const vta_layer_result *layers;
	size_t n_layers;
	double wall_seconds;
} run_report;

void run_report_text(FILE *out, const run_report *rep);
/* The JSON report as a value (the caller owns it), and written to a file. */
json_t *run_report_json(const run_report *rep);
vta_status run_report_write_json(const run_report *rep, const char *path, vta_error *err);
/* The table of the layers and their total as CSV (report_table.h). */
vta_status run_report_write_csv(const run_report *rep, const char *path, vta_error *err);

#endif /* VTASIM_RUN_REPORT_H */
