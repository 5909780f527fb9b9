/*
 * regress_case.h - one golden regression case (docs/regression.md): its case.yaml (config,
 * program, DRAM image, expected outputs or expected diagnosis) and its stats.yaml (expected
 * statistics, written only by `vtasim regress --update`).
 *
 * Reading a case checks everything a run needs (keys, types, files present, expected output
 * files of the stated length) and reports problems as "FILE:LINE:COL: problem" with
 * VTA_E_PARSE, so a malformed case is refused before anything runs.
 */
#ifndef VTASIM_REGRESS_CASE_H
#define VTASIM_REGRESS_CASE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "vta_status.h"

#define REGRESS_PATH_MAX 1024
#define REGRESS_MAX_OUTPUTS 16 /* `vtasim exec` takes at most 16 --dump-dram options */
#define REGRESS_STAT_KEY_MAX 96

/* One expected DRAM region: `len` bytes at `addr` must equal the file's bytes. */
typedef struct regress_output {
	uint64_t addr, len;
	char file[REGRESS_PATH_MAX]; /* absolute path */
} regress_output;

/* One expected statistic: a dotted key into the report's "total" object. */
typedef struct regress_stat {
	char key[REGRESS_STAT_KEY_MAX];
	int64_t value;
} regress_stat;

typedef struct regress_stats {
	regress_stat *items;
	size_t count, cap;
} regress_stats;

typedef struct regress_case {
	char name[256];             /* the folder's name */
	char dir[REGRESS_PATH_MAX]; /* the folder, absolute */
	char intent[512];
	char config[REGRESS_PATH_MAX], program[REGRESS_PATH_MAX];
	char dram[REGRESS_PATH_MAX]; /* empty: no DRAM image */
	char stats_path[REGRESS_PATH_MAX];
	int expect_status;          /* exit status of `vtasim exec`: 0, or 1 for a diagnosis */
	char expect_error[512];     /* substring of the diagnosis when expect_status != 0 */
	regress_output outputs[REGRESS_MAX_OUTPUTS];
	size_t n_outputs;
	int has_stats;              /* stats.yaml exists */
	regress_stats stats;
} regress_case;

/* Read DIR/case.yaml and, when present, DIR/stats.yaml. `dir` may be relative. */
vta_status regress_case_load(const char *dir, regress_case *c, vta_error *err);
void regress_case_free(regress_case *c);

/* Statistics lists, empty when zeroed. */
void regress_stats_free(regress_stats *s);
vta_status regress_stats_add(regress_stats *s, const char *key, int64_t value, vta_error *err);
const regress_stat *regress_stats_find(const regress_stats *s, const char *key);

/* Read a stats file (a flat YAML mapping of dotted keys to integers). */
vta_status regress_stats_load(const char *path, regress_stats *s, vta_error *err);
/* Write a stats file atomically (temp file + rename), with its generated-file header. */
vta_status regress_stats_write(const char *path, const char *case_name, const regress_stats *s,
			       vta_error *err);

#endif /* VTASIM_REGRESS_CASE_H */
