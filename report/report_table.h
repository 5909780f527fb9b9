/*
 * report_table.h - a run as a table: one row per layer (a layer workload) or operator (a
 * model) and a total row, with the columns a spreadsheet or a per-op summary reads: output
 * shape, useful MACs, cycles and their share of the total, GEMM utilization, bound, DRAM
 * bytes by memory type, energy and its share (docs/cli.md "Tables"). `vtasim run -o X.csv`
 * writes it; the columns are a contract, as the JSON keys are.
 */
#ifndef VTASIM_REPORT_TABLE_H
#define VTASIM_REPORT_TABLE_H

#include <stdio.h>

#include "layer_run.h"
#include "vta_config.h"

/* One layer or operator of a run. */
typedef struct report_row {
	char name[96];                 /* the layer's name, or "INDEX OP" of a model */
	const char *op;                /* the operator */
	const char *where;             /* "accel", "host" or "skipped" */
	const vta_layer_result *layer; /* the accelerator's result ("accel"), else NULL */
	double host_seconds;           /* a host operator's kernel */
} report_row;

/* Write the rows and their total as CSV to path (through a temporary file and a rename).
 * Shares are of the total of the accelerated rows. */
vta_status report_table_write_csv(const vta_config *cfg, const report_row *rows, size_t n,
				  const char *path, vta_error *err);

/* One CSV field: control bytes and bytes that are not UTF-8 escaped (as in every message),
 * then quoted when it holds a comma or a quote. */
void report_csv_field(FILE *f, const char *raw);

/* Does path name a CSV file (ends in .csv)? */
bool report_path_is_csv(const char *path);

#endif /* VTASIM_REPORT_TABLE_H */
