/* report_diff.c - two run reports matched row by row (report_diff.h). */
#include "report_diff.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vta_text.h"

/* What a layer run report holds per layer and in total (report.c, run_report.c). */
static const report_diff_metric LAYER_METRICS[] = {
	{"cycles", "cycles"},
	{"dram_read_bytes", "dram.read_bytes.total"},
	{"dram_write_bytes", "dram.write_bytes.total"},
	{"gemm_utilization", "gemm_utilization"},
	{"energy_pj", "energy.total_pj"},
};

/* What a model run report holds per operator (model_report.c); its total names cycles
 * "accel_cycles" and carries inferences per second. */
static const report_diff_metric MODEL_METRICS[] = {
	{"cycles", "cycles"},
	{"dram_read_bytes", "dram_read_bytes"},
	{"dram_write_bytes", "dram_write_bytes"},
	{"energy_pj", "energy.total_pj"},
};
static const report_diff_metric MODEL_TOTAL_METRICS[] = {
	{"cycles", "accel_cycles"},
	{"dram_read_bytes", "dram_read_bytes"},
	{"dram_write_bytes", "dram_write_bytes"},
	{"energy_pj", "energy.total_pj"},
	{"inferences_per_second", "inferences_per_second"},
};
_Static_assert(sizeof(LAYER_METRICS) / sizeof(LAYER_METRICS[0]) <= REPORT_DIFF_MAX_METRICS &&
		       sizeof(MODEL_TOTAL_METRICS) / sizeof(MODEL_TOTAL_METRICS[0]) <=
			       REPORT_DIFF_MAX_METRICS,
	       "a row holds every metric");
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* The number at a dotted path of o, if there is one. */
static bool number_at(const json_t *o, const char *path, double *v)
{
	char part[64];
	const char *p = path;
	while (o && *p) {
		const size_t n = strcspn(p, ".");
		snprintf(part, sizeof(part), "%.*s", (int)n, p);
		o = json_object_get(o, part);
		p += n + (p[n] == '.');
	}
	if (!json_is_number(o))
		return false;
	*v = json_number_value(o);
	return true;
}

typedef enum report_kind { KIND_NONE, KIND_LAYER, KIND_MODEL } report_kind;

static report_kind kind_of(const json_t *r)
{
	if (json_is_array(json_object_get(r, "layers")) && json_is_object(json_object_get(r, "total")))
		return KIND_LAYER;
	if (json_is_array(json_object_get(r, "ops")) && json_is_object(json_object_get(r, "total")))
		return KIND_MODEL;
	return KIND_NONE;
}

static const char *kind_name(report_kind k)
{
	return k == KIND_LAYER ? "layer run" : k == KIND_MODEL ? "model run" : "no run";
}

/* A row's name: a layer's "name", a model operator's "op INDEX KIND". */
static void row_name(const json_t *row, report_kind k, char *out, size_t size)
{
	vta_quoted q;
	if (k == KIND_LAYER) {
		const char *name = json_string_value(json_object_get(row, "name"));
		snprintf(out, size, "%s", name ? vta_quote(&q, name) : "?");
	} else {
		const char *op = json_string_value(json_object_get(row, "op"));
		snprintf(out, size, "op %lld %s",
			 (long long)json_integer_value(json_object_get(row, "index")),
			 op ? vta_quote(&q, op) : "?");
	}
}

static void fill(report_diff_row *r, const json_t *row, bool side_b,
		 const report_diff_metric *m, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		report_diff_cell *c = &r->cells[i];
		if (side_b)
			c->in_b = number_at(row, m[i].path, &c->b);
		else
			c->in_a = number_at(row, m[i].path, &c->a);
	}
}

vta_status report_diff_build(const json_t *a, const json_t *b, const char *name_a,
			     const char *name_b, report_diff *out, vta_error *err)
{
	memset(out, 0, sizeof(*out));
	vta_quoted_path qa, qb;
	const report_kind ka = kind_of(a), kb = kind_of(b);
	if (ka == KIND_NONE || kb == KIND_NONE)
		return vta_fail(err, VTA_E_USAGE, "%s: not a run report of vtasim run -o (no layers or "
				"ops with a total)", vta_quote_path(&qa, ka == KIND_NONE ? name_a : name_b));
	if (ka != kb)
		return vta_fail(err, VTA_E_USAGE, "%s is a %s report and %s a %s report: compare "
				"reports of the same kind", vta_quote_path(&qa, name_a),
				kind_name(ka), vta_quote_path(&qb, name_b), kind_name(kb));
	const char *list = ka == KIND_LAYER ? "layers" : "ops";
	const json_t *la = json_object_get(a, list), *lb = json_object_get(b, list);
	const size_t na = json_array_size(la), nb = json_array_size(lb);
	out->kind = kind_name(ka);
	out->metrics = ka == KIND_LAYER ? LAYER_METRICS : MODEL_METRICS;
	out->n_metrics = ka == KIND_LAYER ? COUNT(LAYER_METRICS) : COUNT(MODEL_METRICS);
	out->rows = calloc(na + nb + 1, sizeof(*out->rows));
	bool *matched = calloc(nb + 1, sizeof(*matched));
	if (!out->rows || !matched) {
		free(matched);
		report_diff_free(out);
		return vta_fail(err, VTA_E_NOMEM, "diff: out of memory for %zu rows", na + nb + 1);
	}
	/* A's rows in order, each with B's row of the same name (the first not yet taken) */
	for (size_t i = 0; i < na; i++) {
		report_diff_row *r = &out->rows[out->n_rows++];
		const json_t *ra = json_array_get(la, i);
		row_name(ra, ka, r->name, sizeof(r->name));
		r->in_a = true;
		fill(r, ra, false, out->metrics, out->n_metrics);
		for (size_t j = 0; j < nb; j++) {
			char nm[REPORT_DIFF_NAME_MAX];
			row_name(json_array_get(lb, j), kb, nm, sizeof(nm));
			if (!matched[j] && !strcmp(nm, r->name)) {
				matched[j] = true;
				r->in_b = true;
				fill(r, json_array_get(lb, j), true, out->metrics, out->n_metrics);
				break;
			}
		}
	}
	for (size_t j = 0; j < nb; j++) {
		if (matched[j])
			continue;
		report_diff_row *r = &out->rows[out->n_rows++];
		row_name(json_array_get(lb, j), kb, r->name, sizeof(r->name));
		r->in_b = true;
		fill(r, json_array_get(lb, j), true, out->metrics, out->n_metrics);
	}
	free(matched);
	/* the total: a model's names some metrics otherwise, in the same positions */
	report_diff_row *t = &out->rows[out->n_rows++];
	snprintf(t->name, sizeof(t->name), "total");
	t->in_a = t->in_b = true;
	const report_diff_metric *tm = ka == KIND_LAYER ? LAYER_METRICS : MODEL_TOTAL_METRICS;
	const size_t tn = ka == KIND_LAYER ? COUNT(LAYER_METRICS) : COUNT(MODEL_TOTAL_METRICS);
	if (ka == KIND_MODEL) {
		out->metrics = MODEL_TOTAL_METRICS; /* a superset, in the same order */
		out->n_metrics = tn;
	}
	fill(t, json_object_get(a, "total"), false, tm, tn);
	fill(t, json_object_get(b, "total"), true, tm, tn);
	return VTA_OK;
}

void report_diff_free(report_diff *d)
{
	free(d->rows);
	memset(d, 0, sizeof(*d));
}

double report_diff_change(const report_diff_cell *c)
{
	if (c->a == c->b)
		return 0;
	if (c->a == 0)
		return c->b > 0 ? INFINITY : -INFINITY;
	return (c->b - c->a) / fabs(c->a) * 100.0;
}

void report_diff_value_text(const report_diff_cell *c, bool side_b, char *out, size_t size)
{
	const bool in = side_b ? c->in_b : c->in_a;
	const double v = side_b ? c->b : c->a;
	if (!in)
		snprintf(out, size, "-");
	else if (v == floor(v) && fabs(v) < 1e15)
		snprintf(out, size, "%.0f", v);
	else
		snprintf(out, size, "%.6g", v);
}

void report_diff_change_text(const report_diff_cell *c, char *out, size_t size)
{
	const double ch = report_diff_change(c);
	if (!c->in_a || !c->in_b)
		snprintf(out, size, "-");
	else if (ch == 0)
		snprintf(out, size, "=");
	else if (isinf(ch))
		snprintf(out, size, "%s", ch > 0 ? "+inf" : "-inf");
	else
		snprintf(out, size, "%+.2f%%", ch);
}
