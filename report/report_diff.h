/*
 * report_diff.h - two run reports side by side (`vtasim diff`): the same kind of report (two
 * layer runs, or two model runs), matched row by row (layers by name, a model's operators by
 * index) and in total, on the metrics an architect compares: cycles, DRAM bytes, SRAM peak,
 * utilization, and any energy the reports carry. Host times are left out: they are noise,
 * not the design.
 */
#ifndef VTASIM_REPORT_DIFF_H
#define VTASIM_REPORT_DIFF_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "vta_status.h"

#define REPORT_DIFF_MAX_METRICS 16
#define REPORT_DIFF_NAME_MAX 96

/* A metric: what the table calls it and where a row holds it ("dram.read_bytes.total"). */
typedef struct report_diff_metric {
	const char *name;
	const char *path;
} report_diff_metric;

typedef struct report_diff_cell {
	bool in_a, in_b; /* the report has the value */
	double a, b;
} report_diff_cell;

typedef struct report_diff_row {
	char name[REPORT_DIFF_NAME_MAX]; /* the layer's name, "op N KIND", or "total" */
	bool in_a, in_b;                 /* the row is in the report */
	report_diff_cell cells[REPORT_DIFF_MAX_METRICS];
} report_diff_row;

typedef struct report_diff {
	const char *kind; /* "layer run" or "model run" */
	const report_diff_metric *metrics;
	size_t n_metrics;
	report_diff_row *rows; /* the rows in A's order, then those only in B, then the total */
	size_t n_rows;
} report_diff;

/* Match the rows of reports a and b (named name_a, name_b in errors). Two reports of
 * different kinds, or a JSON value that is no run report, are VTA_E_USAGE naming it. */
vta_status report_diff_build(const json_t *a, const json_t *b, const char *name_a,
			     const char *name_b, report_diff *out, vta_error *err);
void report_diff_free(report_diff *d);

/* The signed change from a to b in percent of a: 0 when both are 0, +-INFINITY when only
 * a is 0. */
double report_diff_change(const report_diff_cell *c);

/* A cell's value as the tables show it ("-" when absent; integers whole, the rest to 6
 * significant digits), and its change ("=", "+1.25%", "+inf", "-" when a side lacks it). */
void report_diff_value_text(const report_diff_cell *c, bool side_b, char *out, size_t size);
void report_diff_change_text(const report_diff_cell *c, char *out, size_t size);

#endif /* VTASIM_REPORT_DIFF_H */
