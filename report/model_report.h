/* model_report.h - text and JSON reports of `vtasim run -m` (docs/cli.md "Report keys"). */
#ifndef VTA_MODEL_REPORT_H
#define VTA_MODEL_REPORT_H

#include <jansson.h>
#include <stdio.h>

#include "model_run.h"

typedef struct model_report {
	const vta_config *cfg;
	const char *model;
	const vta_model_run *run;
	unsigned threads;
	const char *engine;
	const char *decompress;   /* hw or host */
	double wall_seconds;      /* vta_model_run_model */
	double read_seconds;      /* loading the model and its inputs, before the run */
} model_report;

void model_report_text(FILE *out, const model_report *rep);
/* The JSON report (-o): the run, "ops" one object per operator, "total". */
json_t *model_report_json(const model_report *rep);
vta_status model_report_write_json(const model_report *rep, const char *path, vta_error *err);
/* The table of the operators and their total as CSV (report_table.h). */
vta_status model_report_write_csv(const model_report *rep, const char *path, vta_error *err);

#endif /* VTA_MODEL_REPORT_H */
