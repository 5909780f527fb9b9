/* model_report.h - text and JSON reports of `vtasim run -m` (docs/cli.md "Report keys"). */
#ifndef VTA_MODEL_REPORT_H
#define VTA_MODEL_REPORT_H

#include <stdio.h>

#include "model_run.h"

typedef struct model_report {
	const vta_config *cfg;
	const char *model;
	const vta_model_run *run;
	unsigned threads;
	const char *engine;
	const char *decompress;   /* hw or host */
	double wall_seconds;
} model_report;

void model_report_text(FILE *out, const model_report *rep);
int model_report_write_json(const model_report *rep, const char *path);

#endif /* VTA_MODEL_REPORT_H */
