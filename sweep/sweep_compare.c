/*
 * sweep_compare.c - two sweeps point by point (`vtasim sweep --compare DIR1 DIR2`): the
 * total rows of their results, matched by the values of the names the sweeps vary (so two
 * sweeps of the same axes over another workload, build or base config line up), on the
 * metrics a design is compared by. The cells and changes are those of `vtasim diff`
 * (report_diff.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"
#include "sweep.h"
#include "vta_text.h"

/* The total rows' columns compared, in this order, those either sweep has; then the
 * metrics both sweep files name (docs/sweep.md "Metrics"), as many as a row holds. */
static const char *const METRICS[] = {"cycles", "dram.read_bytes.total", "dram.write_bytes.total",
				      "gemm_utilization", "inferences_per_second",
				      "energy.total_pj", "energy.edp_uj_us", "area.total_mm2"};
#define N_METRICS (sizeof(METRICS) / sizeof(METRICS[0]))
_Static_assert(N_METRICS <= REPORT_DIFF_MAX_METRICS, "a row holds every metric");

/* Does the manifest name metric `name`? */
static bool names_metric(const json_t *manifest, const char *name)
{
	size_t i;
	json_t *m;
	json_array_foreach(json_object_get(manifest, "metrics"), i, m)
	{
		const char *n = json_string_value(json_object_get(m, "name"));
		if (n && !strcmp(n, name))
			return true;
	}
	return false;
}

/* The compared columns: the built-in ones, then the metrics of A that B names too. */
static void compared(sw_compare *out, const json_t *ma, const json_t *mb)
{
	for (size_t m = 0; m < N_METRICS; m++)
		out->metric_list[out->n_metrics++] = METRICS[m];
	size_t i;
	json_t *m;
	json_array_foreach(json_object_get(ma, "metrics"), i, m)
	{
		const char *n = json_string_value(json_object_get(m, "name"));
		if (!n || !names_metric(mb, n) || out->n_metrics == REPORT_DIFF_MAX_METRICS)
			continue;
		char *slot = out->metric_names[out->n_metrics];
		snprintf(slot, SW_NAME_MAX, "%s", n);
		out->metric_list[out->n_metrics++] = slot;
	}
	out->metrics = out->metric_list;
}

typedef struct side {
	json_t *manifest, *results;
} side;

static vta_status load_side(const char *dir, side *s, vta_error *err)
{
	char path[SW_PATH_MAX + 32];
	vta_quoted_path q;
	snprintf(path, sizeof(path), "%s/sweep.json", dir);
	if (!(s->manifest = report_json_load(path, err)))
		return err->status;
	snprintf(path, sizeof(path), "%s/results.json", dir);
	if (!(s->results = report_json_load(path, err)))
		return err->status;
	if (!json_is_array(json_object_get(s->manifest, "params")) ||
	    !json_is_array(json_object_get(s->results, "rows")))
		return vta_fail(err, VTA_E_USAGE, "%s: not a sweep's results (no params or rows; "
				"run the sweep or --merge it first)", vta_quote_path(&q, dir));
	return VTA_OK;
}

/* The names a sweep varies (its axes), sorted, joined by ','; false if they do not fit. */
static bool axes_of(const json_t *manifest, char *out, size_t size)
{
	const char *names[64];
	size_t n = 0, i;
	json_t *p;
	json_array_foreach(json_object_get(manifest, "params"), i, p)
	{
		const char *name = json_string_value(json_object_get(p, "name"));
		if (name && json_is_true(json_object_get(p, "axis")) && n < 64)
			names[n++] = name;
	}
	for (size_t a = 1; a < n; a++) /* a few names: insertion sort */
		for (size_t b = a; b > 0 && strcmp(names[b - 1], names[b]) > 0; b--) {
			const char *t = names[b];
			names[b] = names[b - 1];
			names[b - 1] = t;
		}
	size_t len = 0;
	out[0] = '\0';
	for (size_t k = 0; k < n; k++) {
		int w = snprintf(out + len, size - len, "%s%s", k ? "," : "", names[k]);
		if (w < 0 || (size_t)w >= size - len)
			return false;
		len += (size_t)w;
	}
	return true;
}

/* A point's label: "name=value name=value" over the axes (sorted), from the manifest. */
static void point_label(const json_t *point, const char *axes, char *out, size_t size)
{
	const json_t *values = json_object_get(point, "values");
	size_t len = 0;
	out[0] = '\0';
	const char *p = axes;
	while (*p) {
		const size_t n = strcspn(p, ",");
		char name[SW_NAME_MAX];
		snprintf(name, sizeof(name), "%.*s", (int)n, p);
		const char *v = json_string_value(json_object_get(values, name));
		vta_quoted q;
		int w = snprintf(out + len, size - len, "%s%s=%s", len ? " " : "", name,
				 v ? vta_quote(&q, v) : "?");
		if (w < 0 || (size_t)w >= size - len)
			break;
		len += (size_t)w;
		p += n + (p[n] == ',');
	}
}

/* The total row of point index `point` in results, or NULL. */
static const json_t *total_row(const json_t *results, json_int_t point)
{
	size_t i;
	json_t *r;
	json_array_foreach(json_object_get(results, "rows"), i, r)
	{
		const char *layer = json_string_value(json_object_get(r, "layer"));
		if (layer && !strcmp(layer, "total") &&
		    json_integer_value(json_object_get(r, "point")) == point)
			return r;
	}
	return NULL;
}

static void fill(const sw_compare *c, report_diff_row *row, const json_t *total, bool side_b)
{
	for (size_t m = 0; m < c->n_metrics; m++) {
		const json_t *v = json_object_get(total, c->metrics[m]);
		report_diff_cell *c = &row->cells[m];
		if (!json_is_number(v))
			continue;
		if (side_b) {
			c->in_b = true;
			c->b = json_number_value(v);
		} else {
			c->in_a = true;
			c->a = json_number_value(v);
		}
	}
}

vta_status sweep_compare(const char *dir_a, const char *dir_b, sw_compare *out, vta_error *err)
{
	memset(out, 0, sizeof(*out));
	side a = {0}, b = {0};
	vta_status st;
	char axes_a[1024], axes_b[1024];
	vta_quoted_path qa, qb;
	vta_quoted q1, q2;
	if ((st = load_side(dir_a, &a, err)) || (st = load_side(dir_b, &b, err)))
		goto done;
	if (!axes_of(a.manifest, axes_a, sizeof(axes_a)) ||
	    !axes_of(b.manifest, axes_b, sizeof(axes_b))) {
		st = vta_fail(err, VTA_E_USAGE, "--compare: too many axes to match points by");
		goto done;
	}
	if (strcmp(axes_a, axes_b)) {
		st = vta_fail(err, VTA_E_USAGE, "--compare: %s varies %s and %s varies %s: "
			      "compare sweeps of the same axes", vta_quote_path(&qa, dir_a),
			      vta_quote(&q1, axes_a), vta_quote_path(&qb, dir_b),
			      vta_quote(&q2, axes_b));
		goto done;
	}
	compared(out, a.manifest, b.manifest);
	const json_t *pa = json_object_get(a.manifest, "points");
	const json_t *pb = json_object_get(b.manifest, "points");
	const size_t na = json_array_size(pa), nb = json_array_size(pb);
	out->rows = calloc(na + nb + 1, sizeof(*out->rows));
	bool *taken = calloc(nb + 1, sizeof(*taken));
	if (!out->rows || !taken) {
		free(taken);
		st = vta_fail(err, VTA_E_NOMEM, "--compare: out of memory for %zu points", na + nb);
		goto done;
	}
	for (size_t i = 0; i < na + nb; i++) {
		const bool from_b = i >= na;
		const json_t *pt = json_array_get(from_b ? pb : pa, from_b ? i - na : i);
		if (from_b && taken[i - na])
			continue;
		report_diff_row *row = &out->rows[out->n_rows++];
		point_label(pt, axes_a, row->name, sizeof(row->name));
		const json_t *res = from_b ? b.results : a.results;
		const json_t *t = total_row(res, json_integer_value(json_object_get(pt, "index")));
		if (from_b) {
			row->in_b = true;
			fill(out, row, t, true);
			continue;
		}
		row->in_a = true;
		fill(out, row, t, false);
		for (size_t j = 0; j < nb; j++) {
			char label[REPORT_DIFF_NAME_MAX];
			const json_t *ptb = json_array_get(pb, j);
			point_label(ptb, axes_b, label, sizeof(label));
			if (!taken[j] && !strcmp(label, row->name)) {
				taken[j] = true;
				row->in_b = true;
				fill(out, row, total_row(b.results,
						    json_integer_value(json_object_get(ptb, "index"))),
				     true);
				break;
			}
		}
	}
	free(taken);
	snprintf(out->axes, sizeof(out->axes), "%s", axes_a);
	st = VTA_OK;
done:
	json_decref(a.manifest);
	json_decref(a.results);
	json_decref(b.manifest);
	json_decref(b.results);
	if (st)
		sweep_compare_free(out);
	return st;
}

void sweep_compare_free(sw_compare *c)
{
	free(c->rows);
	memset(c, 0, sizeof(*c));
}
