/*
 * sweep.h - `vtasim sweep`: a design-space sweep over config keys, run options, workload
 * parameters and plan choices (docs/sweep.md). The pieces, in the order a sweep uses them:
 *
 *   sweep_file.c    the sweep YAML: base config, workload, fixed values, axes, zips, lets,
 *                   constraints; every value checked as the command line would check it
 *   sweep_points.c  the product of the axes: each point's config (keys set, then derived),
 *                   options, lets, constraint, and the key naming its results
 *   sweep_point.c   one point in a child process: its layers through the pipeline, the
 *                   record (run report + status) written atomically
 *   sweep_model.c   the same for a model as the workload: the whole model, its reference
 *                   run once into the golden cache
 *   sweep_jobs.c    child processes, -j at a time, with deadlines and interruption
 *   sweep_results.c records -> results.csv / results.json
 *   sweep_metrics.c the file's metrics: their names and types checked against the columns
 *                   the report writers make, then evaluated on every row of the results
 *   sweep_plot.c    gnuplot plots and index.html
 *   sweep_emit.c    Slurm array scripts, GNU parallel job lists, merging shards
 *   cli/cmd_sweep.c the command (in the CLI): options, phases, progress
 */
#ifndef VTASIM_SWEEP_H
#define VTASIM_SWEEP_H

#include <jansson.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "emit_layer.h"
#include "golden_cache.h"
#include "quant.h"
#include "report_diff.h"
#include "sha256.h"
#include "sweep_expr.h"
#include "tflite_model.h"
#include "tiling.h"
#include "vta_config.h"
#include "workload.h"

#define SW_NAME_MAX 64
#define SW_PATH_MAX 1024
#define SW_MAX_POINTS 100000

/* What a name of the sweep file sets. */
typedef enum sw_kind {
	SW_CONFIG,     /* a config key (sram_kib.inp), as --set takes it */
	SW_THREADS,    /* run options */
	SW_MODE,
	SW_DECOMPRESS, /* hw, host or auto */
	SW_LUT_BITS,   /* workload parameters: LUT index width of the constants, 0 = plain */
	SW_LAYERS,     /* which layers run: names joined by ',' or "all" */
	SW_PLAN,       /* plan.FIELD: a choice of every CONV2D's plan held fixed */
	SW_HOST_OPS    /* a model's op classes run on the host: "depthwise,fc", "none" */
} sw_kind;

/* A name the sweep fixes or varies, with its values as text. */
typedef struct sw_param {
	char name[SW_NAME_MAX];
	sw_kind kind;
	int line, col;   /* where it is named */
	bool axis;
	size_t dim;      /* axes: the product dimension (zipped axes share one) */
	size_t n_values; /* 1 for a fixed value */
	char **values;
} sw_param;

typedef struct sw_let {
	char name[SW_NAME_MAX];
	sw_expr *expr;
} sw_let;

/* A derived column of the results (docs/sweep.md "Metrics"): an expression over a row's
 * columns, evaluated on every row once the points have run. */
typedef struct sw_metric {
	char name[SW_NAME_MAX];
	sw_expr *expr;
	int line, col; /* of the expression, for the messages of a later evaluation */
	sw_type type;  /* what it holds, as far as is known before it runs */
} sw_metric;

typedef struct sweep {
	char path[SW_PATH_MAX];  /* the sweep file, absolute */
	char name[SW_NAME_MAX];
	char config_path[SW_PATH_MAX], workload_path[SW_PATH_MAX]; /* absolute */
	double timeout_s;
	sw_param *params;
	size_t n_params;
	size_t n_dims, *dim_size; /* the product's dimensions, first slowest */
	sw_let *lets;
	size_t n_lets;
	sw_expr **constraints;
	size_t n_constraints;
	sw_metric *metrics;
	size_t n_metrics;
	json_t *columns;          /* the columns a point's record brings: name -> sw_type */
	vta_config base;          /* the config file, derived */
	vta_workload wl;          /* wl.is_model: the workload is a model (wl.model) */
	vta_tfl_model model;      /* that model, read */
	char wl_hash[VTA_SHA256_HEX]; /* the workload file and its data files (or model) */
} sweep;

/* Names expressions may read besides the parameters, the options and the config keys:
 * values derived from a point's config (sweep_points.c gives them), NULL-terminated. */
extern const char *const sweep_derived_names[];

/* Read and check a sweep file; errors are "FILE:LINE:COL: problem". */
vta_status sweep_load(const char *path, sweep *sw, vta_error *err);
void sweep_free(sweep *sw);

/* One point of the product, resolved. */
typedef struct sw_point {
	size_t index;          /* in the product, first dimension slowest */
	const char **value;    /* per parameter: its text here */
	bool refused;          /* the point cannot run (its config does not derive, its options
				* do not suit the config): error says why */
	char error[VTA_ERROR_DETAIL_MAX];
	bool cfg_ok;           /* the config derived */
	vta_config cfg;        /* derived (when cfg_ok) */
	vta_config raw;        /* the keys as set, not derived: what expressions read */
	vta_arith_mode mode;
	unsigned threads;
	const char *decompress; /* "hw", "host" (resolved), or "auto" when refused */
	int lut_bits;           /* -1: as the workload says */
	unsigned host_classes;  /* a model's: VTA_MODEL_CLASS_* on the host (the workload's
				 * unless the sweep sets host_ops) */
	bool *layer_on;         /* per workload layer */
	sw_value *let_values;   /* per let; SW_STR "" when it has no value (refused config) */
	char **let_text;
	char key[VTA_SHA256_HEX]; /* "" when refused */
} sw_point;

/* Every point the constraints keep, in product order (*skipped counts the others).
 * Errors in expressions are sweep-file errors. */
vta_status sweep_points(const sweep *sw, sw_point **points, size_t *n, size_t *skipped,
			vta_error *err);
void sweep_points_free(const sweep *sw, sw_point *points, size_t n);
/* The manifest: everything results, plots and merges need to know of the points. */
json_t *sweep_manifest(const sweep *sw, const sw_point *points, size_t n, size_t skipped);
/* An expression's value as a cell of the results (a whole number as an integer). */
json_t *sweep_value_json(const sw_value *v);
/* "sram_kib.inp=32 arch.log_block_in=3" (the axes' values), for progress lines. */
void sweep_point_label(const sweep *sw, const sw_point *p, char *out, size_t size);

/* Run point p here (in a child process): write DIR_RECORDS/KEY.json atomically. Returns the
 * process exit status: 0 when the record was written, whatever the point's outcome. */
int sweep_point_run(const sweep *sw, const sw_point *p, const char *records,
		    vta_golden_cache *gc);
/* The layers point p runs, as the pipeline takes them (lut_bits and pins applied): a copy
 * of the workload's layer specs, n_out of them. Free with free(). */
vta_wl_layer *sweep_point_layers(const sweep *sw, const sw_point *p, size_t *n_out,
				 vta_error *err);
#define SW_RECORD_FORMAT "vtasim sweep point 2"
#define SW_BUILD_MAX 160
/* A point's record: its key, status, one-line error and seconds; the caller adds the rest
 * ("layers": sweep_record_layer entries, "total": the report's total), then seals it. */
json_t *sweep_record_new(const char *key, const char *status, const char *error,
			 double seconds);
/* One entry of a record's "layers": a layer's (or a model operator's) name, status, error
 * and report (NULL when it produced none; the entry takes the reference). */
json_t *sweep_record_layer(const char *name, const char *status, const char *error,
			   json_t *report);
/* Seal a finished record: the workload's digest, this vtasim's build, and the digest of
 * all of it. */
void sweep_record_seal(json_t *rec, const char *workload_digest);
/* Can a record read back be trusted as point `key`'s of this workload and build, unchanged
 * and whole? If not, false and why (a phrase). */
bool sweep_record_check(const json_t *rec, const char *key, const char *workload_digest,
			char *why, size_t size);
/* A record written by the parent for a point that left none (timeout, crash). */
vta_status sweep_record_failure(const char *records, const char *key,
				const char *workload_digest, const char *status,
				const char *error, double seconds, vta_error *err);
/* Write a JSON value to path through a temporary file and a rename. */
vta_status sweep_write_json_atomic(const json_t *v, const char *path, vta_error *err);
/* Create a folder and its parents. */
vta_status sweep_mkdir_p(const char *dir, vta_error *err);

/* ---- a model as the workload (sweep_model.c) ---- */

/* The record of point p of a model sweep: the model run on p's config (in the point's own
 * process), an entry per operator under "layers", the model's totals under "total". */
json_t *sweep_model_record(const sweep *sw, const sw_point *p, vta_golden_cache *gc);
/* A model report (model_report_json) as a point's record holds it: an entry per operator
 * under "layers", the model's totals under "total". */
void sweep_model_record_fill(json_t *rec, const json_t *report);
/* The model's all-host reference into the cache (the golden phase's child): exit status 0
 * when it was there, 1 when it was computed, 2 when it failed (after saying why). */
int sweep_model_reference(const sweep *sw, vta_golden_cache *gc);

/* ---- child processes (sweep_jobs.c) ---- */

typedef struct sw_job_end {
	int exit_status;  /* when it exited */
	int signal;       /* when a signal ended it, 0 otherwise */
	bool timed_out;   /* killed at its deadline */
	bool interrupted; /* killed because the sweep stops */
	double seconds;
	long pid;
} sw_job_end;

typedef struct sw_jobs {
	int jobs;           /* at most this many at once */
	double timeout_s;   /* per item */
	/* In the child: do item i, return the exit status. */
	int (*run)(void *ctx, size_t item);
	/* In the parent, when item i ended (in completion order). */
	void (*done)(void *ctx, size_t item, const sw_job_end *end);
	/* In the parent, about every 200 ms while jobs run (progress), may be NULL. */
	void (*tick)(void *ctx);
	void *ctx;
	volatile sig_atomic_t *stop; /* set by a signal handler: kill the children, return */
} sw_jobs;

/* Run items[0..n) in child processes. Returns how many ended on their own (not killed by a
 * stop); every started item gets its done() call. */
size_t sweep_jobs_run(const sw_jobs *j, const size_t *items, size_t n);

/* ---- results (sweep_results.c) ---- */

/* The table of results: one row per point and layer plus the point's total row. */
typedef struct sw_table {
	size_t n_cols, n_rows;
	char **cols;
	json_t **rows; /* objects: column -> value (absent: empty) */
} sw_table;

typedef struct sw_summary {
	size_t points, ok, failed, pending;
	/* metric cells left empty because their expression had no value there (division by
	 * zero, a string where a number is needed; not a missing column), and the first such
	 * problem, "FILE:LINE:COL: metric NAME: problem (point P, layer L)" */
	size_t metric_cells_empty;
	char metric_problem[VTA_ERROR_DETAIL_MAX];
} sw_summary;

/* Build the table from the manifest and the records under the folders `records`
 * (the first holding a point's record wins); sweep_table_metrics then adds the metrics. */
vta_status sweep_table_build(const json_t *manifest, const char *const *records, size_t n_dirs,
			     sw_table *t, sw_summary *sum, vta_error *err);
void sweep_table_free(sw_table *t);
/* DIR/results.csv and DIR/results.json. */
vta_status sweep_table_write(const sw_table *t, const json_t *manifest, const char *dir,
			     vta_error *err);
/* The rows one record makes, without reading any folder: point `pt` of the manifest with
 * record `rec` (sweep_metrics.c learns the columns from a sample). */
vta_status sweep_table_of_record(const json_t *manifest, const json_t *pt, const json_t *rec,
				 sw_table *t, vta_error *err);
/* Add a column at the end, unless the table has it. */
vta_status sweep_table_add_column(sw_table *t, const char *name, vta_error *err);
/* The value of a cell as text ("" when absent), as the CSV writes it. */
void sweep_cell_text(const json_t *v, char *out, size_t size);

/* ---- metrics (sweep_metrics.c) ---- */

/* The columns a point's record brings to the results and what they hold (name -> sw_type):
 * learnt from a sample record made by the same report writers as a point's (every
 * optional section present) and the same table builder. NULL when out of memory. */
json_t *sweep_record_columns(const sweep *sw, vta_error *err);
/* Check metric m (the file's metrics before it are checked): its names are columns a row
 * can have or metrics before it, its operators get the types they need. Errors are the
 * sweep file's, at the token. */
vta_status sweep_metric_check(const sweep *sw, const sw_metric *m, vta_error *err);
/* Is `name` a column of the results (or one the results keep for themselves)? */
bool sweep_is_column(const sweep *sw, const char *name);
/* Evaluate the manifest's metrics (its "metrics", in order) on every row of t, each a
 * column after the others; *sum says what could not be computed. */
vta_status sweep_table_metrics(sw_table *t, const json_t *manifest, sw_summary *sum,
			       vta_error *err);

/* ---- plots (sweep_plot.c) ---- */

/* Plots of the total rows that apply to the sweep's axes, PNG and SVG under DIR/plots (when
 * gnuplot is installed), and DIR/index.html with them and the table. *n_plots: how many. */
vta_status sweep_plots_write(const sw_table *t, const json_t *manifest, const char *dir,
			     bool plots, size_t *n_plots, vta_error *err);

/* ---- beyond one machine (sweep_emit.c) ---- */

#define SW_MAX_SBATCH_ARGS 16
/* At most this many shards, and what a shard aims to hold when none is asked for. */
#define SW_MAX_SHARDS 1000
#define SW_SHARD_MINUTES 10.0

typedef struct sw_emit {
	const char *kind;   /* "slurm" or "parallel" */
	const char *self;   /* this vtasim, absolute */
	const char *dir;    /* absolute */
	size_t shards;
	int jobs;           /* per shard */
	double timeout_s;
	const char *const *sbatch_args; /* slurm: more #SBATCH options (--partition=P, ...) */
	size_t n_sbatch_args;
} sw_emit;

/* How many shards n points make when a point takes about point_s seconds and a shard, -j
 * jobs at a time, should take about shard_minutes: at least one, at most one per point and
 * SW_MAX_SHARDS. */
size_t sweep_emit_shards(size_t n, double point_s, double shard_minutes, int jobs);

/* Can the sweep's values (its name, file, the folder, this vtasim) go into a job script?
 * Every value is quoted for its reader; a control byte cannot be and is a usage error. */
vta_status sweep_emit_check(const sweep *sw, const sw_emit *e, vta_error *err);
/* DIR/sweep.sbatch (an array job, one task per shard) with DIR/merge.sbatch (the merge) and
 * DIR/submit.sh (submits both, the merge after the array), or DIR/jobs.txt (one line per
 * shard), each shard `vtasim sweep FILE --shard K/N` into DIR/shards/K. `script` gets the
 * array job's or the job list's path. */
vta_status sweep_emit_write(const sweep *sw, size_t n_points, const sw_emit *e, char *script,
			    size_t size, vta_error *err);

/* ---- two sweeps point by point (sweep_compare.c) ---- */

typedef struct sw_compare {
	char axes[1024];            /* the names both vary, sorted, joined by ',' */
	const char *const *metrics; /* the total rows' columns compared (metric_list) */
	size_t n_metrics;
	const char *metric_list[REPORT_DIFF_MAX_METRICS];
	char metric_names[REPORT_DIFF_MAX_METRICS][SW_NAME_MAX]; /* the sweep files' metrics */
	report_diff_row *rows;      /* a row per point ("name=value ..."), A's order, then B's own */
	size_t n_rows;
} sw_compare;

/* Match the points of the sweeps in dir_a and dir_b (each run or merged: sweep.json and
 * results.json) by their axes' values. Sweeps of other axes are VTA_E_USAGE. */
vta_status sweep_compare(const char *dir_a, const char *dir_b, sw_compare *out, vta_error *err);
void sweep_compare_free(sw_compare *c);

#endif /* VTASIM_SWEEP_H */
