/*
 * sweep_results.c - the results table of a sweep (sweep.h, docs/sweep.md "Results"): one
 * row per point and layer and a total row per point, from the manifest (what the points
 * are) and the points' records (what they did). The metrics are the run report's JSON keys
 * (docs/cli.md "Report keys") flattened with dots, not derived again; the table adds only
 * the point's values, its status and error, roofline_ratio and point_seconds.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json_read.h"
#include "report_table.h"
#include "sweep.h"
#include "vta_text.h"

typedef struct builder {
	sw_table *t;
	json_t *index; /* column -> its position */
	vta_error *err;
} builder;

static vta_status add_col(builder *b, const char *name)
{
	if (json_object_get(b->index, name))
		return VTA_OK;
	vta_status st = sweep_table_add_column(b->t, name, b->err);
	if (!st)
		json_object_set_new(b->index, name, json_integer((json_int_t)b->t->n_cols - 1));
	return st;
}

static vta_status set_cell(builder *b, json_t *row, const char *col, json_t *v)
{
	vta_status st = add_col(b, col);
	if (st) {
		json_decref(v);
		return st;
	}
	json_object_set_new(row, col, v);
	return VTA_OK;
}

/* An array of numbers as one cell: a shape [1, 56, 56, 64] reads "1x56x56x64". */
static json_t *array_cell(const json_t *a)
{
	char text[256];
	size_t len = 0, i;
	json_t *v;
	text[0] = '\0';
	json_array_foreach(a, i, v)
	{
		char cell[64];
		sweep_cell_text(v, cell, sizeof(cell));
		vta_appendf(text, sizeof(text), &len, "%s%s", i ? "x" : "", cell);
	}
	return json_string(text);
}

/* The report object o under `prefix` ("" at the top): every scalar a column. */
static vta_status flatten(builder *b, json_t *row, const char *prefix, const json_t *o)
{
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)o, key, v)
	{
		if (!*prefix && !strcmp(key, "name"))
			continue; /* the row's layer column */
		char col[256];
		snprintf(col, sizeof(col), "%s%s%s", prefix, *prefix ? "." : "", key);
		vta_status st;
		if (json_is_object(v))
			st = flatten(b, row, col, v);
		else if (json_is_array(v))
			st = set_cell(b, row, col, array_cell(v));
		else
			st = set_cell(b, row, col, json_copy(v));
		if (st)
			return st;
		if (!*prefix && !strcmp(key, "roofline_cycles")) {
			/* how far from its roofline the run is: the report's own two numbers */
			json_t *c = json_object_get(o, "cycles");
			const double r = json_number_value(v);
			if (c && r > 0 &&
			    (st = set_cell(b, row, "roofline_ratio",
					   json_real(json_number_value(c) / r))))
				return st;
		}
	}
	return VTA_OK;
}

static vta_status add_row(builder *b, json_t *row)
{
	json_t **rows = realloc(b->t->rows, (b->t->n_rows + 1) * sizeof(*rows));
	if (!rows) {
		json_decref(row);
		return vta_fail(b->err, VTA_E_NOMEM, "out of memory");
	}
	b->t->rows = rows;
	rows[b->t->n_rows++] = row;
	return VTA_OK;
}

/* The cells every row of a point starts with: the point, its values, its lets. */
static vta_status point_cells(builder *b, const json_t *manifest, const json_t *pt, json_t *row)
{
	vta_status st = set_cell(b, row, "point", json_copy(json_object_get(pt, "index")));
	if (!st)
		st = set_cell(b, row, "key", json_copy(json_object_get(pt, "key")));
	size_t i;
	json_t *q;
	json_t *vals = json_object_get(pt, "values");
	json_array_foreach(json_object_get(manifest, "params"), i, q)
	{
		if (st || !json_is_true(json_object_get(q, "axis")))
			continue;
		const char *name = json_string_value(json_object_get(q, "name"));
		const char *text = json_string_value(json_object_get(vals, name));
		/* a number as a number, so the JSON and the plots read it as one */
		char *end;
		double d = text ? strtod(text, &end) : 0;
		json_t *cell = text && *text && !*end
				       ? (d == floor(d) && fabs(d) < 9e15 ? json_integer((json_int_t)d)
									  : json_real(d))
				       : json_string(text ? text : "");
		st = set_cell(b, row, name, cell);
	}
	const char *name;
	json_t *v;
	json_object_foreach(json_object_get(pt, "lets"), name, v)
	{
		if (!st)
			st = set_cell(b, row, name, json_copy(v));
	}
	static const char *const always[] = {"sram_kib.total", "mode", "threads", "decompress"};
	for (size_t k = 0; k < sizeof(always) / sizeof(always[0]) && !st; k++)
		st = set_cell(b, row, always[k], json_copy(json_object_get(pt, always[k])));
	return st;
}

/* A point's record, from the first folder that holds one that checks (NULL: none does). */
static json_t *load_record(const char *const *dirs, size_t n_dirs, const char *key,
			   const char *workload_digest)
{
	for (size_t i = 0; i < n_dirs; i++) {
		char path[SW_PATH_MAX + 80], why[128];
		snprintf(path, sizeof(path), "%s/%s.json", dirs[i], key);
		if (access(path, R_OK) != 0)
			continue;
		vta_error e = {0};
		json_t *r = report_json_load(path, &e);
		if (r && sweep_record_check(r, key, workload_digest, why, sizeof(why)))
			return r;
		json_decref(r);
	}
	return NULL;
}

static vta_status point_rows(builder *b, const json_t *manifest, const json_t *pt,
			     const json_t *rec, sw_summary *sum)
{
	vta_status st = VTA_OK;
	const char *status = "pending", *error = "";
	if (json_object_get(pt, "error")) {
		status = "error";
		error = json_string_value(json_object_get(pt, "error"));
	} else if (rec) {
		status = json_string_value(json_object_get(rec, "status"));
		error = json_string_value(json_object_get(rec, "error"));
	}
	sum->points++;
	if (!strcmp(status, "ok"))
		sum->ok++;
	else if (!strcmp(status, "pending"))
		sum->pending++;
	else
		sum->failed++;
	size_t i;
	json_t *l;
	json_array_foreach(rec ? json_object_get(rec, "layers") : NULL, i, l)
	{
		json_t *row = json_object();
		if ((st = point_cells(b, manifest, pt, row)) ||
		    (st = set_cell(b, row, "layer", json_copy(json_object_get(l, "name")))) ||
		    (st = set_cell(b, row, "status", json_copy(json_object_get(l, "status")))) ||
		    (st = set_cell(b, row, "error", json_copy(json_object_get(l, "error")))) ||
		    (json_object_get(l, "report") &&
		     (st = flatten(b, row, "", json_object_get(l, "report")))) ||
		    (st = add_row(b, row))) {
			json_decref(row);
			return st;
		}
	}
	json_t *row = json_object();
	json_t *total = rec ? json_object_get(rec, "total") : NULL;
	if ((st = point_cells(b, manifest, pt, row)) ||
	    (st = set_cell(b, row, "layer", json_string("total"))) ||
	    (st = set_cell(b, row, "status", json_string(status))) ||
	    (st = set_cell(b, row, "error", json_string(error ? error : ""))) ||
	    (total && (st = flatten(b, row, "", total))) ||
	    (rec && (st = set_cell(b, row, "point_seconds",
				   json_copy(json_object_get(rec, "seconds"))))) ||
	    (st = add_row(b, row))) {
		json_decref(row);
		return st;
	}
	return VTA_OK;
}

vta_status sweep_table_build(const json_t *manifest, const char *const *records, size_t n_dirs,
			     sw_table *t, sw_summary *sum, vta_error *err)
{
	memset(t, 0, sizeof(*t));
	memset(sum, 0, sizeof(*sum));
	builder b = {t, json_object(), err};
	/* the leading columns, always in this order */
	static const char *const head[] = {"point", "key"};
	vta_status st = VTA_OK;
	for (size_t i = 0; i < 2 && !st; i++)
		st = add_col(&b, head[i]);
	size_t i;
	json_t *pt;
	json_array_foreach(json_object_get(manifest, "points"), i, pt)
	{
		if (st)
			break;
		const char *key = json_string_value(json_object_get(pt, "key"));
		const char *digest =
			json_string_value(json_object_get(manifest, "workload_digest"));
		json_t *rec = key && *key && digest ? load_record(records, n_dirs, key, digest)
						    : NULL;
		st = point_rows(&b, manifest, pt, rec, sum);
		json_decref(rec);
	}
	json_decref(b.index);
	if (st)
		sweep_table_free(t);
	return st;
}

vta_status sweep_table_of_record(const json_t *manifest, const json_t *pt, const json_t *rec,
				 sw_table *t, vta_error *err)
{
	memset(t, 0, sizeof(*t));
	sw_summary sum = {0};
	builder b = {t, json_object(), err};
	vta_status st = point_rows(&b, manifest, pt, rec, &sum);
	json_decref(b.index);
	if (st)
		sweep_table_free(t);
	return st;
}

vta_status sweep_table_add_column(sw_table *t, const char *name, vta_error *err)
{
	for (size_t c = 0; c < t->n_cols; c++)
		if (!strcmp(t->cols[c], name))
			return VTA_OK;
	char **cols = realloc(t->cols, (t->n_cols + 1) * sizeof(*cols));
	if (!cols)
		return vta_fail(err, VTA_E_NOMEM, "out of memory");
	t->cols = cols;
	if (!(cols[t->n_cols] = strdup(name)))
		return vta_fail(err, VTA_E_NOMEM, "out of memory");
	t->n_cols++;
	return VTA_OK;
}

void sweep_table_free(sw_table *t)
{
	for (size_t i = 0; i < t->n_cols; i++)
		free(t->cols[i]);
	free(t->cols);
	for (size_t i = 0; i < t->n_rows; i++)
		json_decref(t->rows[i]);
	free(t->rows);
	memset(t, 0, sizeof(*t));
}

void sweep_cell_text(const json_t *v, char *out, size_t size)
{
	if (!v || json_is_null(v))
		snprintf(out, size, "%s", "");
	else if (json_is_string(v))
		snprintf(out, size, "%s", json_string_value(v));
	else if (json_is_integer(v))
		snprintf(out, size, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		snprintf(out, size, "%.10g", json_real_value(v));
	else if (json_is_boolean(v))
		snprintf(out, size, "%s", json_is_true(v) ? "true" : "false");
	else
		snprintf(out, size, "%s", "");
}

static vta_status write_csv(const sw_table *t, const char *path, vta_error *err)
{
	char tmp[SW_PATH_MAX + 64];
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
	FILE *f = fopen(tmp, "w");
	if (!f)
		return vta_fail(err, VTA_E_IO, "%s: cannot write: %s", tmp, strerror(errno));
	for (size_t c = 0; c < t->n_cols; c++) {
		if (c)
			fputc(',', f);
		report_csv_field(f, t->cols[c]);
	}
	fputc('\n', f);
	char *cell = malloc(VTA_ERROR_DETAIL_MAX * 2);
	for (size_t r = 0; cell && r < t->n_rows; r++) {
		for (size_t c = 0; c < t->n_cols; c++) {
			if (c)
				fputc(',', f);
			sweep_cell_text(json_object_get(t->rows[r], t->cols[c]), cell,
					VTA_ERROR_DETAIL_MAX * 2);
			report_csv_field(f, cell);
		}
		fputc('\n', f);
	}
	free(cell);
	if (fclose(f) != 0 || rename(tmp, path) != 0) {
		int e = errno;
		unlink(tmp);
		return vta_fail(err, VTA_E_IO, "%s: cannot write: %s", path, strerror(e));
	}
	return VTA_OK;
}

vta_status sweep_table_write(const sw_table *t, const json_t *manifest, const char *dir,
			     vta_error *err)
{
	char path[SW_PATH_MAX + 32];
	snprintf(path, sizeof(path), "%s/results.csv", dir);
	vta_status st = write_csv(t, path, err);
	if (st)
		return st;
	json_t *root = json_object();
	json_object_set_new(root, "format", json_string("vtasim sweep results 1"));
	json_object_set(root, "name", json_object_get(manifest, "name"));
	json_object_set(root, "sweep", json_object_get(manifest, "sweep"));
	json_t *cols = json_array(), *rows = json_array();
	for (size_t c = 0; c < t->n_cols; c++)
		json_array_append_new(cols, json_string(t->cols[c]));
	for (size_t r = 0; r < t->n_rows; r++) {
		/* every column in every row, in the columns' order (null when empty) */
		json_t *o = json_object();
		for (size_t c = 0; c < t->n_cols; c++) {
			json_t *v = json_object_get(t->rows[r], t->cols[c]);
			json_object_set_new(o, t->cols[c], v ? json_copy(v) : json_null());
		}
		json_array_append_new(rows, o);
	}
	json_object_set_new(root, "columns", cols);
	json_object_set_new(root, "rows", rows);
	snprintf(path, sizeof(path), "%s/results.json", dir);
	st = sweep_write_json_atomic(root, path, err);
	json_decref(root);
	return st;
}
