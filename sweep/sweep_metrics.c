/*
 * sweep_metrics.c - derived columns of a sweep's results (docs/sweep.md "Metrics"): a
 * metric is an expression over the columns of one row, evaluated on every row once the
 * points have run.
 *
 * Its names and types are checked when the file is read, against the columns a row can
 * have. Those come from the code that makes them, not from a list kept beside it: a sample
 * record is written by the same report writers as a point's record (a layer's or a model
 * operator's, with every optional section present) and read by the same table builder.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_report.h"
#include "run_report.h"
#include "sweep.h"
#include "vta_text.h"

/* ---------- the columns a record brings ---------- */

/* A layer result with every optional part of its report present. */
static void sample_layer(vta_layer_result *r)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "sample");
	r->op = VTA_WL_CONV2D;
	r->timed = true;
	r->has_conv_plan = true;
	r->has_lut = true;
	r->compressed_bytes = 1;
	r->decompressed_bytes = 2;
	r->decompress = VTA_DECOMPRESS_HW;
	r->binning.changed = 1;
	r->check.count = 1;
	r->check.mismatches = 1;
	r->has_vs_tflite = true;
	r->checks_run = true;
	r->stats.cycles = 1;
}

static json_t *sample_record(const sweep *sw)
{
	json_t *rec = sweep_record_new("", "ok", "", 0);
	vta_layer_result layer;
	sample_layer(&layer);
	if (sw->wl.is_model) {
		/* an accelerated operator, a host one and a skipped one */
		vta_model_op_result ops[3];
		memset(ops, 0, sizeof(ops));
		snprintf(ops[0].name, sizeof(ops[0].name), "CONV_2D");
		ops[0].place = VTA_OP_ACCEL;
		ops[0].layer = layer;
		ops[0].expect_checked = true;
		ops[0].expect_differing = 1;
		ops[1].index = 1;
		snprintf(ops[1].name, sizeof(ops[1].name), "MEAN");
		ops[1].place = VTA_OP_HOST;
		ops[2].index = 2;
		snprintf(ops[2].name, sizeof(ops[2].name), "DECODE");
		ops[2].skipped = true;
		vta_model_run run;
		memset(&run, 0, sizeof(run));
		run.n_ops = 3;
		run.ops = ops;
		run.first_tensor = -1;
		run.expect_first_tensor = -1;
		model_report rep = {.cfg = &sw->base, .model = "sample", .run = &run, .threads = 1,
				    .engine = "sim", .decompress = "hw"};
		json_t *report = model_report_json(&rep);
		sweep_model_record_fill(rec, report);
		json_decref(report);
		return rec;
	}
	run_report rep = {.cfg = &sw->base, .workload = "sample", .mode = VTA_ARITH_TFLITE,
			  .threads = 1, .engine = "sim", .datapath = "c", .layers = &layer,
			  .n_layers = 1};
	json_t *report = run_report_json(&rep);
	json_t *ls = json_array();
	json_array_append_new(ls, sweep_record_layer("sample", "ok", "",
						     json_incref(json_array_get(
							     json_object_get(report, "layers"), 0))));
	json_object_set_new(rec, "layers", ls);
	json_object_set(rec, "total", json_object_get(report, "total"));
	json_decref(report);
	return rec;
}

static sw_type type_of_cell(const json_t *v)
{
	return json_is_string(v) ? SW_TYPE_STR : SW_TYPE_NUM;
}

json_t *sweep_record_columns(const sweep *sw, vta_error *err)
{
	/* a point of a sweep without parameters or lets: the record's columns and the cells
	 * every row has */
	json_t *manifest = json_pack("{s:[], s:[]}", "params", "lets");
	json_t *pt = json_pack("{s:i, s:s, s:{}, s:{}, s:i, s:s, s:i, s:s}", "index", 0, "key", "",
			       "values", "lets", "sram_kib.total", 0, "mode", "tflite", "threads",
			       1, "decompress", "hw");
	json_t *rec = sample_record(sw);
	json_t *cols = json_object();
	sw_table t;
	vta_status st = manifest && pt && rec && cols
				? sweep_table_of_record(manifest, pt, rec, &t, err)
				: vta_fail(err, VTA_E_NOMEM, "out of memory");
	json_decref(manifest);
	json_decref(pt);
	json_decref(rec);
	if (st) {
		json_decref(cols);
		return NULL;
	}
	for (size_t r = 0; r < t.n_rows; r++) {
		const char *name;
		json_t *v;
		json_object_foreach(t.rows[r], name, v)
		{
			if (json_is_null(v))
				continue;
			json_t *seen = json_object_get(cols, name);
			sw_type ty = type_of_cell(v);
			if (seen && json_integer_value(seen) != (json_int_t)ty)
				ty = SW_TYPE_ANY; /* a number in one row, a string in another */
			json_object_set_new(cols, name, json_integer(ty));
		}
	}
	sweep_table_free(&t);
	return cols;
}

/* ---------- checking a metric ---------- */

static const sw_param *axis_named(const sweep *sw, const char *name)
{
	for (size_t i = 0; i < sw->n_params; i++)
		if (sw->params[i].axis && !strcmp(sw->params[i].name, name))
			return &sw->params[i];
	return NULL;
}

static bool is_let(const sweep *sw, const char *name)
{
	for (size_t i = 0; i < sw->n_lets; i++)
		if (!strcmp(sw->lets[i].name, name))
			return true;
	return false;
}

bool sweep_is_column(const sweep *sw, const char *name)
{
	return json_object_get(sw->columns, name) || axis_named(sw, name) || is_let(sw, name);
}

/* What metric m may read: the columns and the metrics before it. */
typedef struct metric_scope {
	const sweep *sw;
	const sw_metric *m;
} metric_scope;

static const sw_metric *earlier_metric(const metric_scope *s, const char *name)
{
	for (const sw_metric *q = s->sw->metrics; q < s->m; q++)
		if (!strcmp(q->name, name))
			return q;
	return NULL;
}

static bool metric_known(void *ctx, const char *name)
{
	const metric_scope *s = ctx;
	return sweep_is_column(s->sw, name) || earlier_metric(s, name);
}

/* An axis holds numbers when every value of it reads as one. */
static sw_type axis_type(const sw_param *q)
{
	size_t numbers = 0;
	for (size_t i = 0; i < q->n_values; i++) {
		char *end;
		(void)strtod(q->values[i], &end);
		numbers += *q->values[i] && !*end;
	}
	return numbers == q->n_values ? SW_TYPE_NUM : numbers ? SW_TYPE_ANY : SW_TYPE_STR;
}

static sw_type metric_type_of(void *ctx, const char *name)
{
	const metric_scope *s = ctx;
	const sw_metric *q = earlier_metric(s, name);
	const sw_param *axis = axis_named(s->sw, name);
	const json_t *col = json_object_get(s->sw->columns, name);
	if (q)
		return q->type;
	if (axis)
		return axis_type(axis);
	if (col)
		return (sw_type)json_integer_value(col);
	return SW_TYPE_ANY; /* a let: its value is the point's */
}

vta_status sweep_metric_check(const sweep *sw, const sw_metric *m, vta_error *err)
{
	metric_scope s = {sw, m};
	vta_status st = sw_expr_check_names(m->expr, metric_known, &s, err);
	sw_type ty;
	if (!st)
		st = sw_expr_check_types(m->expr, metric_type_of, &s, &ty, err);
	if (!st)
		((sw_metric *)m)->type = ty;
	return st;
}

/* ---------- evaluating the metrics ---------- */

typedef struct row_scope {
	const json_t *row;
	bool missing; /* a name had no value in the row */
} row_scope;

static bool row_lookup(void *ctx, const char *name, sw_value *out, bool *failed,
		       vta_error *err)
{
	row_scope *s = ctx;
	const json_t *v = json_object_get(s->row, name);
	if (json_is_string(v))
		*out = (sw_value){SW_STR, 0, json_string_value(v)};
	else if (json_is_number(v))
		*out = (sw_value){SW_NUM, json_number_value(v), NULL};
	else if (json_is_boolean(v))
		*out = (sw_value){SW_NUM, json_is_true(v), NULL};
	else {
		s->missing = true;
		*failed = true;
		vta_fail(err, VTA_E_DATA, "no value in this row");
		return false;
	}
	return true;
}

/* The manifest's metrics, parsed again (a merge has only the manifest), with their
 * positions in the sweep file. */
static vta_status parse_metric(const json_t *manifest, const json_t *m, sw_expr **e,
			       const char **name, vta_error *err)
{
	*name = json_string_value(json_object_get(m, "name"));
	const char *text = json_string_value(json_object_get(m, "expr"));
	const char *file = json_string_value(json_object_get(manifest, "sweep"));
	if (!*name || !text)
		return vta_fail(err, VTA_E_DATA, "sweep.json: a metric without a name or an "
						 "expression");
	if (!sw_is_name(*name, SW_NAME_MAX)) /* an edited manifest: the name becomes a column and a plot */
		return vta_fail(err, VTA_E_DATA, "sweep.json: metric '%s' is not a name",
				VTA_Q(*name));
	char what[SW_NAME_MAX + 16];
	snprintf(what, sizeof(what), "metric %s", *name);
	sw_where w = {file ? file : "sweep.json",
		      (int)json_integer_value(json_object_get(m, "line")),
		      (int)json_integer_value(json_object_get(m, "col")), what};
	return sw_expr_parse(text, &w, e, err);
}

static void note_problem(sw_summary *sum, const json_t *row, const vta_error *e)
{
	if (sum->metric_cells_empty++)
		return;
	char layer[128];
	sweep_cell_text(json_object_get(row, "layer"), layer, sizeof(layer));
	snprintf(sum->metric_problem, sizeof(sum->metric_problem), "%s (point %lld, layer %s)",
		 e->detail, (long long)json_integer_value(json_object_get(row, "point")), layer);
}

vta_status sweep_table_metrics(sw_table *t, const json_t *manifest, sw_summary *sum,
			       vta_error *err)
{
	size_t i;
	json_t *m;
	json_array_foreach(json_object_get(manifest, "metrics"), i, m)
	{
		sw_expr *e = NULL;
		const char *name;
		vta_status st = parse_metric(manifest, m, &e, &name, err);
		if (!st)
			st = sweep_table_add_column(t, name, err);
		for (size_t r = 0; !st && r < t->n_rows; r++) {
			row_scope s = {t->rows[r], false};
			sw_value v;
			vta_error ee = {0};
			if (!sw_expr_eval(e, row_lookup, &s, &v, &ee))
				json_object_set_new(t->rows[r], name, sweep_value_json(&v));
			else if (!s.missing) /* a row that lacks a column (a failed point's) is
					      * empty without a word, as its other cells are */
				note_problem(sum, t->rows[r], &ee);
		}
		sw_expr_free(e);
		if (st)
			return st;
	}
	return VTA_OK;
}
