/*
 * sweep_plot.c - the plots of a sweep and DIR/index.html (sweep.h, docs/sweep.md "Plots").
 * Each plot is a data file, a gnuplot script that writes it as PNG and SVG, and a run of
 * gnuplot; which plots there are follows from the axes:
 *
 *   cycles_vs_<sram key>   every swept SRAM size: total cycles, one line per block shape
 *                          (the arch.* axes), the fewest over the other axes
 *   cycles_vs_<axis>       every other numeric axis, one line per combination of the rest
 *                          when there are few, else the fewest
 *   inferences_per_second_vs_<axis>  beside each cycles_vs_* of a model's sweep: its
 *                          inferences per second, the most over the others
 *   energy.total_pj_vs_<axis>, dram_bytes_vs_<axis>  beside each cycles_vs_*: the energy
 *                          (docs/energy.md) and the DRAM bytes, the fewest over the others
 *   utilization_heatmap    the first two axes (of different dimensions): GEMM utilization
 *   pareto_sram_cycles     total SRAM KiB against cycles, every point and the front; and
 *   pareto_energy_cycles,  likewise energy and area against cycles
 *   pareto_area_cycles
 *   lut_bits               DRAM bytes and cycles against the LUT index width
 *   <metric>_by_<axis>     every axis whose values are not numbers: grouped bars, a bar
 *                          per value, a group per combination of the other axes
 *
 * Only points whose total is "ok" are plotted. Without gnuplot the scripts and data are
 * still written and index.html says what to install.
 */
#define _DEFAULT_SOURCE /* realpath */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sweep.h"
#include "vta_text.h"

#define MAX_PLOTS 64
#define MAX_SERIES 6 /* more combinations than this: the fewest over them */
#define MAX_METRICS 12 /* the built-in plotted metrics and the first of the file's */

typedef struct axis_info {
	const char *name, *kind;
	size_t dim;
	bool numeric;
	size_t n_values;
} axis_info;

typedef struct plot_ctx {
	const sw_table *t;
	const json_t *manifest;
	axis_info axes[64];
	size_t n_axes;
	const json_t **ok; /* the total rows that are ok */
	size_t n_ok;
	char dir[SW_PATH_MAX + 16]; /* DIR/plots */
	bool render, have_gnuplot;
	size_t n;
	char name[MAX_PLOTS][96], title[MAX_PLOTS][256], failure[MAX_PLOTS][256];
	vta_error *err;
	struct plot_metric *metrics[MAX_METRICS]; /* what the plots show: the built-in ones,
						   * then the sweep file's metrics */
	size_t n_metrics;
} plot_ctx;

/* ---------- reading the table ---------- */

static bool num(const json_t *row, const char *col, double *out)
{
	const json_t *v = json_object_get(row, col);
	if (json_is_number(v)) {
		*out = json_number_value(v);
		return true;
	}
	if (json_is_string(v)) {
		char *end;
		*out = strtod(json_string_value(v), &end);
		return json_string_value(v)[0] && !*end;
	}
	return false;
}

/* A metric of a row: a column, or "dram_bytes", the report's reads and writes together. */
static bool metric(const json_t *row, const char *col, double *out)
{
	if (strcmp(col, "dram_bytes"))
		return num(row, col, out);
	double rd, wr;
	if (!num(row, "dram.read_bytes.total", &rd) || !num(row, "dram.write_bytes.total", &wr))
		return false;
	*out = rd + wr;
	return true;
}

static void text(const json_t *row, const char *col, char *out, size_t size)
{
	sweep_cell_text(json_object_get(row, col), out, size);
}

/* "a=1 b=2" of the given axes: which line a row belongs to. */
static void series_key(const json_t *row, const axis_info *const *s, size_t n, char *out,
		       size_t size)
{
	size_t len = 0;
	out[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		char v[128];
		text(row, s[i]->name, v, sizeof(v));
		vta_appendf(out, size, &len, "%s%s=%s", i ? " " : "", s[i]->name, v);
	}
}

/* The label of a line: block shapes read "block 8x8", the rest "name=value". */
static void series_label(const json_t *row, const axis_info *const *s, size_t n, char *out,
			 size_t size)
{
	double bi = -1, bo = -1, b = -1;
	size_t len = 0, other = 0;
	out[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		double v;
		if (!strcmp(s[i]->name, "arch.log_block_in") && num(row, s[i]->name, &v))
			bi = exp2(v);
		else if (!strcmp(s[i]->name, "arch.log_block_out") && num(row, s[i]->name, &v))
			bo = exp2(v);
		else if (!strcmp(s[i]->name, "arch.log_batch") && num(row, s[i]->name, &v))
			b = exp2(v);
		else
			other++;
	}
	if (bi > 0 && bo > 0)
		vta_appendf(out, size, &len, "block %.0fx%.0f", bi, bo);
	else if (bi > 0)
		vta_appendf(out, size, &len, "block_in %.0f", bi);
	else if (bo > 0)
		vta_appendf(out, size, &len, "block_out %.0f", bo);
	if (b > 0)
		vta_appendf(out, size, &len, "%sbatch %.0f", len ? ", " : "", b);
	for (size_t i = 0; other && i < n; i++) {
		if (!strncmp(s[i]->name, "arch.log_b", 10))
			continue;
		char v[128];
		text(row, s[i]->name, v, sizeof(v));
		vta_appendf(out, size, &len, "%s%s=%s", len ? ", " : "", s[i]->name, v);
	}
	if (!len)
		snprintf(out, size, "all points");
}

/* ---------- writing and rendering ---------- */

static FILE *open_file(plot_ctx *c, const char *name, const char *ext)
{
	char path[SW_PATH_MAX + 200];
	snprintf(path, sizeof(path), "%s/%s.%s", c->dir, name, ext);
	FILE *f = fopen(path, "w");
	if (!f)
		vta_fail(c->err, VTA_E_IO, "%s: cannot write: %s", path, strerror(errno));
	return f;
}

/* gnuplot's single-quoted string, into out: the one form in which gnuplot neither runs
 * `commands` (it does anywhere else on a line, double quotes included) nor reads backslash
 * escapes; a quote is doubled, and control bytes show escaped (a line break would end the
 * command). Every text a plot shows that comes from the sweep (values, labels) goes
 * through here. */
static void gp_str(char *out, size_t size, const char *s)
{
	const size_t n = strlen(s);
	char *shown = malloc(4 * n + 1);
	if (shown)
		vta_escape(shown, 4 * n + 1, s, n);
	size_t len = 0;
	out[0] = '\0';
	vta_appendf(out, size, &len, "'");
	for (const char *c = shown ? shown : ""; *c && len + 4 < size; c++)
		vta_appendf(out, size, &len, *c == '\'' ? "''" : "%c", *c);
	vta_appendf(out, size, &len, "'");
	free(shown);
}

static void gp_quote(FILE *f, const char *s)
{
	char q[1024];
	gp_str(q, sizeof(q), s);
	fputs(q, f);
}

/* Run gnuplot on NAME.gp in the plots folder; a failure is noted for index.html. */
static void render(plot_ctx *c, size_t k)
{
	if (!c->have_gnuplot)
		return;
	char log[SW_PATH_MAX + 200], script[128], log_name[128];
	snprintf(log, sizeof(log), "%s/%s.log", c->dir, c->name[k]);
	snprintf(script, sizeof(script), "%s.gp", c->name[k]);
	snprintf(log_name, sizeof(log_name), "%s.log", c->name[k]);
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid == 0) {
		if (chdir(c->dir) != 0 || !freopen(log_name, "w", stderr) ||
		    !freopen("/dev/null", "w", stdout))
			_exit(126);
		execlp("gnuplot", "gnuplot", script, (char *)NULL);
		_exit(127);
	}
	int ws = 0;
	while (pid > 0 && waitpid(pid, &ws, 0) < 0 && errno == EINTR)
		;
	if (pid > 0 && WIFEXITED(ws) && WEXITSTATUS(ws) == 0) {
		unlink(log);
		return;
	}
	if (pid > 0 && WIFEXITED(ws) && WEXITSTATUS(ws) == 127) {
		c->have_gnuplot = false;
		snprintf(c->failure[k], sizeof(c->failure[k]),
			 "gnuplot is not installed (Debian: gnuplot-nox)");
		return;
	}
	char line[200] = "";
	FILE *f = fopen(log, "r");
	while (f && fgets(line, sizeof(line), f) && strspn(line, " \t\n^") == strlen(line))
		;
	if (f)
		fclose(f);
	line[strcspn(line, "\n")] = '\0';
	snprintf(c->failure[k], sizeof(c->failure[k]), "gnuplot failed: %s", line);
}

/* Start plot NAME: its data file (returned) and its slot. NULL when it cannot. */
static FILE *plot_begin(plot_ctx *c, const char *name, const char *title, size_t *k)
{
	if (c->n == MAX_PLOTS)
		return NULL;
	*k = c->n;
	snprintf(c->name[*k], sizeof(c->name[*k]), "%s", name);
	for (char *s = c->name[*k]; *s; s++)
		if (*s == '.' || *s == '/')
			*s = '_';
	snprintf(c->title[*k], sizeof(c->title[*k]), "%s", title);
	c->failure[*k][0] = '\0';
	FILE *f = open_file(c, c->name[*k], "dat");
	if (f)
		fprintf(f, "# Generated by vtasim sweep: the data of %s.gp\n", c->name[*k]);
	return f;
}

/* Write NAME.gp: both terminals around `body`, then render it. */
static vta_status plot_end(plot_ctx *c, size_t k, const char *body)
{
	FILE *g = open_file(c, c->name[k], "gp");
	if (!g)
		return c->err->status;
	fprintf(g, "# Generated by vtasim sweep: %s (gnuplot %s.gp writes %s.png and %s.svg)\n",
		c->title[k], c->name[k], c->name[k], c->name[k]);
	fprintf(g, "set terminal pngcairo size 960,600 noenhanced font \"sans,10\"\n");
	fprintf(g, "set output \"%s.png\"\nset title ", c->name[k]);
	gp_quote(g, c->title[k]);
	fprintf(g, "\nset grid\nset key outside right top\n%s", body);
	fprintf(g, "set terminal svg size 960,600 noenhanced font \"sans,10\" background "
		   "\"white\"\nset output \"%s.svg\"\nreplot\n",
		c->name[k]);
	fclose(g);
	c->n++;
	render(c, k);
	return VTA_OK;
}

/* ---------- the plots ---------- */

/* One (series, x) cell: the fewest of y (max: the most), and what a second column holds. */
typedef struct cell {
	char series[256], label[256];
	size_t rank; /* of its series: lines in the order of the points, so of the axes */
	double x, y, y2;
} cell;

static int cell_cmp(const void *a, const void *b)
{
	const cell *p = a, *q = b;
	if (p->rank != q->rank)
		return (p->rank > q->rank) - (p->rank < q->rank);
	return (p->x > q->x) - (p->x < q->x);
}

/* The rank of series `key` among cells[0..n): an earlier one's, or the next. */
static size_t rank_of(const cell *cells, size_t n, const char *key)
{
	size_t next = 0;
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(cells[i].series, key))
			return cells[i].rank;
		next = cells[i].rank + 1 > next ? cells[i].rank + 1 : next;
	}
	return next;
}

/* Group the ok rows by (series, x): y the fewest of ycol (y2 that row's y2col). */
static size_t gather(plot_ctx *c, const char *xcol, const char *ycol, const char *y2col,
		     const axis_info *const *s, size_t ns, bool most, cell *cells)
{
	size_t n = 0;
	for (size_t r = 0; r < c->n_ok; r++) {
		const json_t *row = c->ok[r];
		double x, y, y2 = 0;
		if (!num(row, xcol, &x) || !metric(row, ycol, &y) ||
		    (y2col && !metric(row, y2col, &y2)))
			continue;
		cell k;
		series_key(row, s, ns, k.series, sizeof(k.series));
		size_t i = 0;
		while (i < n && (strcmp(cells[i].series, k.series) || cells[i].x != x))
			i++;
		if (i == n) {
			k.rank = rank_of(cells, n, k.series);
			series_label(row, s, ns, k.label, sizeof(k.label));
			k.x = x;
			k.y = y;
			k.y2 = y2;
			cells[n++] = k;
		} else if (most ? y > cells[i].y : y < cells[i].y) {
			cells[i].y = y;
			cells[i].y2 = y2;
		}
	}
	qsort(cells, n, sizeof(*cells), cell_cmp);
	return n;
}

/* The axes other than `x` (and other than those in `skip`, of x's dimension) that vary. */
static size_t others(const plot_ctx *c, const axis_info *x, const axis_info **out,
		     bool (*take)(const axis_info *))
{
	size_t n = 0;
	for (size_t i = 0; i < c->n_axes; i++) {
		const axis_info *a = &c->axes[i];
		if (a != x && (!x || a->dim != x->dim) && a->n_values > 1 && take(a))
			out[n++] = a;
	}
	return n;
}

static bool is_block(const axis_info *a)
{
	return !strncmp(a->name, "arch.log_b", 10);
}

static bool any_axis(const axis_info *a)
{
	(void)a;
	return true;
}

/* Do series a and b (cells [a0, a1) and [b0, b1)) hold the same points? */
static bool same_series(const cell *cells, size_t a0, size_t a1, size_t b0, size_t b1)
{
	if (a1 - a0 != b1 - b0)
		return false;
	for (size_t i = 0; i < a1 - a0; i++) {
		const cell *p = &cells[a0 + i], *q = &cells[b0 + i];
		if (p->x != q->x || p->y != q->y || p->y2 != q->y2)
			return false;
	}
	return true;
}

/* Part q of a label "a=1, b=2" into out; false when it has fewer parts. */
static bool label_part(const char *label, size_t q, char *out, size_t size)
{
	for (size_t i = 0; i < q; i++) {
		label = strstr(label, ", ");
		if (!label)
			return false;
		label += 2;
	}
	snprintf(out, size, "%.*s", (int)strcspn(label, ","), label);
	return true;
}

static size_t label_parts(const char *label)
{
	size_t n = 1;
	for (const char *c = label; (c = strstr(c, ", ")); c += 2)
		n++;
	return n;
}

/* The legend of series drawn as one because their points are the same. When the labels
 * ("a=1, b=2") are every combination of some values of each part, each part reads
 * "name=v1|v2"; other sets are listed, the first three and how many more. */
static void merged_label(const char *const *labels, size_t n, char *out, size_t size)
{
	size_t len = 0;
	out[0] = '\0';
	const size_t np = label_parts(labels[0]);
	bool product = n > 1 && np <= 16;
	for (size_t i = 1; product && i < n; i++)
		product = label_parts(labels[i]) == np;
	/* per part, its distinct values; the same name in every label */
	char text[16][512];
	size_t count = 1;
	for (size_t q = 0; product && q < np; q++) {
		char a[128];
		label_part(labels[0], q, a, sizeof(a));
		const size_t name = strcspn(a, "=");
		size_t tl = 0, distinct = 0;
		text[q][0] = '\0';
		for (size_t i = 0; product && i < n; i++) {
			char b[128];
			label_part(labels[i], q, b, sizeof(b));
			product = a[name] && !strncmp(a, b, name + 1);
			bool seen = false;
			for (size_t j = 0; j < i && !seen; j++) {
				char e[128];
				label_part(labels[j], q, e, sizeof(e));
				seen = !strcmp(e, b);
			}
			if (product && !seen) {
				vta_appendf(text[q], sizeof(text[q]), &tl, "%s%s",
					    distinct ? "|" : "", distinct ? b + name + 1 : b);
				distinct++;
			}
		}
		count *= distinct;
	}
	if (product && count == n) {
		for (size_t q = 0; q < np; q++)
			vta_appendf(out, size, &len, "%s%s", q ? ", " : "", text[q]);
		return;
	}
	for (size_t i = 0; i < n && i < 3; i++)
		vta_appendf(out, size, &len, "%s%s", i ? "; " : "", labels[i]);
	if (n > 3)
		vta_appendf(out, size, &len, "; and %zu more", n - 3);
}

/* A line per series of `cells` into dat (blocks separated for gnuplot's `index`), and the
 * plot command; series with the same points are one line with a merged legend. */
static void lines(FILE *dat, char *body, size_t size, const cell *cells, size_t n,
		  const char *name, bool two_y, const char *y1_title, const char *y2_title)
{
	/* the series: their first cells, and which earlier one each repeats */
	size_t *first = calloc(n + 1, sizeof(*first)), *same = calloc(n + 1, sizeof(*same));
	const char **labels = calloc(n + 1, sizeof(*labels));
	size_t ns = 0, len = strlen(body), idx = 0;
	if (!first || !same || !labels)
		goto out;
	for (size_t i = 0; i < n; i++)
		if (i == 0 || strcmp(cells[i].series, cells[i - 1].series))
			first[ns++] = i;
	first[ns] = n;
	for (size_t j = 0; j < ns; j++) {
		same[j] = j;
		for (size_t i = 0; i < j && same[j] == j; i++)
			if (same[i] == i && same_series(cells, first[i], first[i + 1], first[j],
							first[j + 1]))
				same[j] = i;
	}
	vta_appendf(body, size, &len, "plot ");
	for (size_t j = 0; j < ns; j++) {
		if (same[j] != j)
			continue;
		size_t nl = 0;
		for (size_t k = j; k < ns; k++)
			if (same[k] == j)
				labels[nl++] = cells[first[k]].label;
		char label[512], t[600], t2[600];
		merged_label(labels, nl, label, sizeof(label));
		if (idx)
			fprintf(dat, "\n\n");
		fprintf(dat, "# %s\n", label);
		for (size_t i = first[j]; i < first[j + 1]; i++)
			fprintf(dat, "%.10g %.10g %.10g\n", cells[i].x, cells[i].y, cells[i].y2);
		if (two_y) {
			char a[600], b[600];
			snprintf(a, sizeof(a), "%s: %s", y1_title, label);
			snprintf(b, sizeof(b), "%s: %s", y2_title, label);
			gp_str(t, sizeof(t), a);
			gp_str(t2, sizeof(t2), b);
			vta_appendf(body, size, &len,
				    "%s\"%s.dat\" index %zu using 1:2 axes x1y1 with linespoints lw 2 "
				    "pt 7 lc %zu title %s, \"%s.dat\" index %zu using 1:3 axes x1y2 "
				    "with linespoints dt 2 lw 2 pt 6 lc %zu title %s",
				    idx ? ", " : "", name, idx, idx + 1, t, name, idx, idx + 1, t2);
		} else {
			gp_str(t, sizeof(t), label);
			vta_appendf(body, size, &len,
				    "%s\"%s.dat\" index %zu using 1:2 with linespoints lw 2 pt 7 "
				    "title %s",
				    idx ? ", " : "", name, idx, t);
		}
		idx++;
	}
	vta_appendf(body, size, &len, "\n");
out:
	free(first);
	free(same);
	free(labels);
}

/* Tick labels that tell the ticks apart: as many decimals as a tick step of about a fifth
 * of [lo, hi] needs, SI prefixes (3.07M) from 10^4 up; on a log scale, ticks at 1, 2 and 5
 * of a decade need none. */
static void axis_format(char *body, size_t size, size_t *len, const char *axis, double lo,
			double hi, bool log_scale)
{
	const double big = fmax(fabs(lo), fabs(hi));
	double step = (hi - lo) / 5;
	if (!(step > 0))
		step = big > 0 ? big / 10 : 1;
	double unit = 1;
	if (big >= 1e4)
		unit = pow(1000, floor(log10(big) / 3));
	int dec = (int)ceil(-log10(step / unit) - 1e-9);
	if (log_scale) /* 1, 2, 5 of a decade: whole in SI units, else the smallest's digits */
		dec = big >= 1e4 ? 0 : (int)ceil(-log10(fmin(fabs(lo), fabs(hi)) / 1.5) - 1e-9);
	dec = dec < 0 ? 0 : dec > 6 ? 6 : dec;
	if (big >= 1e4)
		vta_appendf(body, size, len, "set format %s \"%%.%ds%%c\"\n", axis, dec);
	else
		vta_appendf(body, size, len, "set format %s \"%%.%df\"\n", axis, dec);
}

/* The different x of the cells into xs, at most max of them; returns how many, or max + 1
 * when there are more (then it stops: a sweep may have 100,000 points). */
static size_t distinct_x(const cell *cells, size_t n, double *xs, size_t max)
{
	size_t nx = 0;
	for (size_t i = 0; i < n; i++) {
		size_t j = 0;
		while (j < nx && xs[j] != cells[i].x)
			j++;
		if (j == nx && nx == max)
			return max + 1;
		if (j == nx)
			xs[nx++] = cells[i].x;
	}
	return nx;
}

static void x_tics(char *body, size_t size, size_t *len, const cell *cells, size_t n)
{
	double xs[16];
	const size_t nx = distinct_x(cells, n, xs, 16);
	if (nx > 16)
		return; /* many: gnuplot's own */
	vta_appendf(body, size, len, "set xtics (");
	for (size_t j = 0; j < nx; j++)
		vta_appendf(body, size, len, "%s%.10g", j ? ", " : "", xs[j]);
	vta_appendf(body, size, len, ")\n");
}

/* Cycles that span more than 4x read better on a log scale; plain numbers either way. */
static void y_scale(char *body, size_t size, size_t *len, const cell *cells, size_t n)
{
	double lo = INFINITY, hi = 0;
	for (size_t i = 0; i < n; i++) {
		lo = fmin(lo, cells[i].y);
		hi = fmax(hi, cells[i].y);
	}
	const bool log_scale = lo > 0 && hi > 4 * lo;
	axis_format(body, size, len, "y", lo, hi, log_scale);
	vta_appendf(body, size, len,
		    "set autoscale fix\nset offsets graph 0.04, graph 0.04, graph 0.08, graph "
		    "0.08\n");
	if (!log_scale)
		return;
	/* a log scale, labelled at 1, 2 and 5 of each decade in range */
	vta_appendf(body, size, len, "set logscale y\nset ytics (");
	size_t nt = 0;
	for (double d = pow(10, floor(log10(lo))); d <= hi * 10; d *= 10)
		for (int m = 0; m < 3; m++) {
			const double t = d * (m == 0 ? 1 : m == 1 ? 2 : 5);
			if (t >= lo / 1.5 && t <= hi * 1.5)
				vta_appendf(body, size, len, "%s%.10g", nt++ ? ", " : "", t);
		}
	vta_appendf(body, size, len, ")\n");
}

/* A metric of the total rows plotted against an axis: its column, its words, and whether
 * more is better (then a cell over the other axes keeps the most, else the fewest). */
typedef struct plot_metric {
	const char *col, *label, *title;
	bool most;
} plot_metric;

static const plot_metric CYCLES = {"cycles", "cycles", "total cycles", false};
/* a model's rows (sweep_model.c): nothing gathers for layer workloads, so no plot */
static const plot_metric INFERENCES = {"inferences_per_second", "inferences/s",
				       "inferences per second", true};

/* Metric m against axis x, a line per `series` combination. */
static vta_status metric_vs(plot_ctx *c, const plot_metric *m, const axis_info *x,
			    const axis_info *const *s, size_t ns, bool over_others)
{
	cell *cells = calloc(c->n_ok + 1, sizeof(*cells));
	if (!cells)
		return vta_fail(c->err, VTA_E_NOMEM, "out of memory");
	size_t n = gather(c, x->name, m->col, NULL, s, ns, m->most, cells);
	if (n < 2) {
		free(cells);
		return VTA_OK;
	}
	char name[96], title[256];
	snprintf(name, sizeof(name), "%s_vs_%s", m->col, x->name);
	snprintf(title, sizeof(title), "%s vs %s%s", m->title, x->name,
		 !over_others ? "" : m->most ? " (the most over the other axes)"
					     : " (the fewest over the other axes)");
	size_t k;
	FILE *dat = plot_begin(c, name, title, &k);
	if (!dat) {
		free(cells);
		return c->n == MAX_PLOTS ? VTA_OK : c->err->status;
	}
	char body[8192];
	bool pow2 = true;
	for (size_t i = 0; i < n; i++)
		pow2 = pow2 && cells[i].x > 0 && exp2(round(log2(cells[i].x))) == cells[i].x;
	size_t len = 0;
	body[0] = '\0';
	vta_appendf(body, sizeof(body), &len, "set xlabel \"%s\"\nset ylabel \"%s\"\n%s",
		    x->name, m->label, pow2 ? "set logscale x 2\n" : "");
	x_tics(body, sizeof(body), &len, cells, n);
	y_scale(body, sizeof(body), &len, cells, n);
	lines(dat, body, sizeof(body), cells, n, c->name[k], false, NULL, NULL);
	fclose(dat);
	free(cells);
	return plot_end(c, k, body);
}

/* The run's energy (docs/energy.md) and its DRAM traffic: the price of what cycles show. */
static const plot_metric ENERGY = {"energy.total_pj", "energy (pJ)", "total energy", false};
static const plot_metric DRAM_BYTES = {"dram_bytes", "DRAM bytes", "DRAM bytes read and written",
				       false};

/* Cycles against x and, for a model, inferences per second too; energy, DRAM bytes and
 * the sweep file's numeric metrics. */
static vta_status cycles_vs(plot_ctx *c, const axis_info *x, const axis_info *const *s,
			    size_t ns, bool over_others)
{
	vta_status st = VTA_OK;
	for (size_t i = 0; !st && i < c->n_metrics; i++)
		st = metric_vs(c, c->metrics[i], x, s, ns, over_others);
	return st;
}

static vta_status sram_plots(plot_ctx *c)
{
	for (size_t i = 0; i < c->n_axes; i++) {
		const axis_info *x = &c->axes[i];
		if (strncmp(x->name, "sram_kib.", 9) || x->n_values < 2 || !x->numeric)
			continue;
		const axis_info *s[64], *all[64];
		size_t ns = others(c, x, s, is_block);
		size_t na = others(c, x, all, any_axis);
		vta_status st = cycles_vs(c, x, s, ns, na > ns);
		if (st)
			return st;
	}
	return VTA_OK;
}

/* Cycles against every other numeric axis, a line per combination of the rest (few). */
static vta_status other_plots(plot_ctx *c)
{
	for (size_t i = 0; i < c->n_axes; i++) {
		const axis_info *x = &c->axes[i];
		if (!strncmp(x->name, "sram_kib.", 9) || !strcmp(x->name, "lut_bits") ||
		    x->n_values < 2 || !x->numeric)
			continue;
		bool first_of_dim = true; /* a zipped axis is plotted once */
		for (size_t j = 0; j < i; j++)
			first_of_dim = first_of_dim && c->axes[j].dim != x->dim;
		if (!first_of_dim)
			continue;
		const axis_info *s[64];
		size_t ns = others(c, x, s, any_axis);
		size_t combos = 1;
		for (size_t j = 0; j < ns; j++)
			combos *= s[j]->n_values;
		vta_status st = cycles_vs(c, x, s, combos <= MAX_SERIES ? ns : 0,
					  ns && combos > MAX_SERIES);
		if (st)
			return st;
	}
	return VTA_OK;
}

/* ---------- text and yes/no axes: grouped bars ---------- */

#define MAX_GROUPS 12 /* more combinations of the other axes than this: one group */

typedef struct bar_group {
	char key[256], label[256];
	double *y; /* per value of the axis; NAN where no point has it */
} bar_group;

/* A label for a data file's quoted column, which gnuplot reads with backslash escapes:
 * escaped, no double quote left, a line per "name=value" part. */
static void dat_text(const char *s, char *out, size_t size)
{
	char *shown = malloc(4 * strlen(s) + 1);
	size_t len = 0;
	out[0] = '\0';
	if (!shown)
		return;
	vta_escape(shown, 4 * strlen(s) + 1, s, strlen(s));
	for (const char *q = shown; *q; q++) {
		if (q[0] == ',' && q[1] == ' ') {
			vta_appendf(out, size, &len, "\\n");
			q++;
		} else {
			vta_appendf(out, size, &len, "%c", *q == '"' ? '\'' : *q);
		}
	}
	free(shown);
}

/* Metric m of the ok points, a bar per value of the text axis x, grouped by the combination
 * of the other axes (the fewest, or the most, over them when they make too many groups). */
static vta_status bars_by(plot_ctx *c, const plot_metric *m, const axis_info *x,
			  const json_t *values)
{
	const size_t nv = json_array_size(values);
	const axis_info *s[64];
	size_t ns = others(c, x, s, any_axis), combos = 1;
	for (size_t j = 0; j < ns; j++)
		combos *= s[j]->n_values;
	const bool over_others = ns && combos > MAX_GROUPS;
	if (over_others)
		ns = 0;
	bar_group *g = calloc(c->n_ok + 1, sizeof(*g));
	double *ys = malloc((c->n_ok + 1) * nv * sizeof(*ys));
	if (!g || !ys) {
		free(g);
		free(ys);
		return vta_fail(c->err, VTA_E_NOMEM, "out of memory");
	}
	size_t ng = 0, filled = 0;
	double hi = 0;
	for (size_t r = 0; r < c->n_ok; r++) {
		double y;
		char v[256];
		if (!metric(c->ok[r], m->col, &y))
			continue;
		text(c->ok[r], x->name, v, sizeof(v));
		size_t vi = 0;
		while (vi < nv && strcmp(json_string_value(json_array_get(values, vi)), v))
			vi++;
		if (vi == nv)
			continue;
		char key[256];
		series_key(c->ok[r], s, ns, key, sizeof(key));
		size_t i = 0;
		while (i < ng && strcmp(g[i].key, key))
			i++;
		if (i == ng) {
			snprintf(g[i].key, sizeof(g[i].key), "%s", key);
			/* the other axes' values, one line each; the x label names them */
			size_t ll = 0;
			g[i].label[0] = '\0';
			for (size_t j = 0; j < ns; j++) {
				char v2[128];
				text(c->ok[r], s[j]->name, v2, sizeof(v2));
				vta_appendf(g[i].label, sizeof(g[i].label), &ll, "%s%s",
					    j ? ", " : "", v2);
			}
			if (!ns)
				snprintf(g[i].label, sizeof(g[i].label), "all points");
			g[i].y = ys + ng * nv;
			for (size_t j = 0; j < nv; j++)
				g[i].y[j] = NAN;
			ng++;
		}
		double *cell = &g[i].y[vi];
		if (isnan(*cell) || (m->most ? y > *cell : y < *cell)) {
			filled += isnan(*cell);
			*cell = y;
			hi = fmax(hi, y);
		}
	}
	char name[96], title[256];
	snprintf(name, sizeof(name), "%s_by_%s", m->col, x->name);
	snprintf(title, sizeof(title), "%s by %s%s", m->title, x->name,
		 !over_others ? "" : m->most ? " (the most over the other axes)"
					     : " (the fewest over the other axes)");
	size_t k;
	FILE *dat = filled >= 2 ? plot_begin(c, name, title, &k) : NULL;
	if (!dat) {
		free(g);
		free(ys);
		return filled < 2 || c->n == MAX_PLOTS ? VTA_OK : c->err->status;
	}
	fprintf(dat, "# group");
	for (size_t j = 0; j < nv; j++)
		fprintf(dat, " %s=%s", x->name, json_string_value(json_array_get(values, j)));
	fprintf(dat, "\n");
	for (size_t i = 0; i < ng; i++) {
		char t[1024];
		dat_text(g[i].label, t, sizeof(t));
		fprintf(dat, "\"%s\"", t);
		for (size_t j = 0; j < nv; j++)
			fprintf(dat, isnan(g[i].y[j]) ? " ?" : " %.10g", g[i].y[j]);
		fprintf(dat, "\n");
	}
	fclose(dat);
	free(g);
	free(ys);
	char body[8192];
	size_t len = 0;
	body[0] = '\0';
	vta_appendf(body, sizeof(body), &len,
		    "set ylabel \"%s\"\nset style data histograms\nset style histogram clustered "
		    "gap 1\nset style fill solid 0.8 border -1\nset datafile missing \"?\"\n"
		    "set yrange [0:*]\nset offsets 0, 0, graph 0.08, 0\n",
		    m->label);
	if (ns) { /* a line of each group's label per other axis, named below */
		char names[512], q[700];
		size_t nl = 0;
		names[0] = '\0';
		for (size_t j = 0; j < ns; j++)
			vta_appendf(names, sizeof(names), &nl, "%s%s", j ? " / " : "", s[j]->name);
		gp_str(q, sizeof(q), names);
		vta_appendf(body, sizeof(body), &len, "set xlabel %s offset 0,-%zu\nset bmargin %zu\n",
			    q, ns - 1, ns + 4);
	}
	axis_format(body, sizeof(body), &len, "y", 0, hi, false);
	vta_appendf(body, sizeof(body), &len, "plot ");
	for (size_t j = 0; j < nv; j++) {
		char v[300], t[700];
		snprintf(v, sizeof(v), "%s=%s", x->name, json_string_value(json_array_get(values, j)));
		gp_str(t, sizeof(t), v);
		if (j == 0)
			vta_appendf(body, sizeof(body), &len, "\"%s.dat\" using 2:xtic(1) title %s",
				    c->name[k], t);
		else
			vta_appendf(body, sizeof(body), &len, ", \"\" using %zu title %s", j + 2, t);
	}
	vta_appendf(body, sizeof(body), &len, "\n");
	return plot_end(c, k, body);
}

/* Every axis whose values are not numbers (yes/no keys, decompress, datapath, layers): the
 * metrics of cycles_vs as grouped bars, a bar per value. */
static vta_status bar_plots(plot_ctx *c)
{
	size_t i;
	json_t *q;
	json_array_foreach(json_object_get(c->manifest, "params"), i, q)
	{
		const char *nm = json_string_value(json_object_get(q, "name"));
		const axis_info *x = NULL;
		for (size_t a = 0; a < c->n_axes; a++)
			if (!strcmp(c->axes[a].name, nm))
				x = &c->axes[a];
		if (!x || x->numeric || x->n_values < 2)
			continue;
		for (size_t m = 0; m < c->n_metrics; m++) {
			vta_status st = bars_by(c, c->metrics[m], x, json_object_get(q, "values"));
			if (st)
				return st;
		}
	}
	return VTA_OK;
}

static vta_status lut_plot(plot_ctx *c)
{
	const axis_info *x = NULL;
	for (size_t i = 0; i < c->n_axes; i++)
		if (!strcmp(c->axes[i].name, "lut_bits") && c->axes[i].n_values > 1)
			x = &c->axes[i];
	if (!x)
		return VTA_OK;
	const axis_info *s[64];
	size_t ns = others(c, x, s, any_axis), combos = 1;
	for (size_t j = 0; j < ns; j++)
		combos *= s[j]->n_values;
	if (combos > MAX_SERIES)
		ns = 0;
	cell *cells = calloc(c->n_ok + 1, sizeof(*cells));
	if (!cells)
		return vta_fail(c->err, VTA_E_NOMEM, "out of memory");
	size_t n = gather(c, "lut_bits", "dram_bytes", "cycles", s, ns, false, cells);
	size_t k;
	FILE *dat = n >= 2 ? plot_begin(c, "lut_bits", "DRAM bytes and cycles vs LUT index width "
					"(0: plain constants)", &k)
			   : NULL;
	if (!dat) {
		free(cells);
		return n < 2 || c->n == MAX_PLOTS ? VTA_OK : c->err->status;
	}
	char body[8192];
	size_t len = 0;
	double hi = 0, hi2 = 0;
	for (size_t i = 0; i < n; i++) {
		hi = fmax(hi, cells[i].y);
		hi2 = fmax(hi2, cells[i].y2);
	}
	body[0] = '\0';
	vta_appendf(body, sizeof(body), &len,
		    "set xlabel \"lut_bits\"\nset ylabel \"DRAM bytes (solid)\"\n"
		    "set y2label \"cycles (dashed)\"\nset ytics nomirror\nset y2tics\nset xtics 1\n"
		    "set key top center box opaque\nset yrange [0:*]\nset y2range [0:*]\n");
	axis_format(body, sizeof(body), &len, "y", 0, hi, false);
	axis_format(body, sizeof(body), &len, "y2", 0, hi2, false);
	lines(dat, body, sizeof(body), cells, n, c->name[k], true, "DRAM bytes", "cycles");
	fclose(dat);
	free(cells);
	return plot_end(c, k, body);
}

static vta_status heatmap(plot_ctx *c)
{
	const axis_info *a = NULL, *b = NULL;
	for (size_t i = 0; i < c->n_axes && !b; i++) {
		const axis_info *x = &c->axes[i];
		if (x->n_values < 2)
			continue;
		if (!a)
			a = x;
		else if (x->dim != a->dim)
			b = x;
	}
	if (!b)
		return VTA_OK;
	/* cells by value index; the most utilization over the other axes */
	const size_t na = a->n_values, nb = b->n_values;
	double *z = malloc(na * nb * sizeof(*z));
	if (!z)
		return vta_fail(c->err, VTA_E_NOMEM, "out of memory");
	for (size_t i = 0; i < na * nb; i++)
		z[i] = -1;
	const json_t *pa = NULL, *pb = NULL;
	size_t i;
	json_t *q;
	json_array_foreach(json_object_get(c->manifest, "params"), i, q)
	{
		const char *nm = json_string_value(json_object_get(q, "name"));
		if (!strcmp(nm, a->name))
			pa = json_object_get(q, "values");
		if (!strcmp(nm, b->name))
			pb = json_object_get(q, "values");
	}
	size_t filled = 0;
	for (size_t r = 0; r < c->n_ok; r++) {
		char va[128], vb[128];
		double u;
		text(c->ok[r], a->name, va, sizeof(va));
		text(c->ok[r], b->name, vb, sizeof(vb));
		if (!num(c->ok[r], "gemm_utilization", &u))
			continue;
		size_t ia = na, ib = nb;
		for (size_t j = 0; j < na; j++)
			if (!strcmp(json_string_value(json_array_get(pa, j)), va) ||
			    (strtod(va, NULL) == strtod(json_string_value(json_array_get(pa, j)), NULL) &&
			     a->numeric))
				ia = j;
		for (size_t j = 0; j < nb; j++)
			if (!strcmp(json_string_value(json_array_get(pb, j)), vb) ||
			    (strtod(vb, NULL) == strtod(json_string_value(json_array_get(pb, j)), NULL) &&
			     b->numeric))
				ib = j;
		if (ia < na && ib < nb && u > z[ia * nb + ib]) {
			filled += z[ia * nb + ib] < 0;
			z[ia * nb + ib] = u;
		}
	}
	size_t k;
	char title[256];
	snprintf(title, sizeof(title), "GEMM utilization over %s and %s%s", a->name, b->name,
		 c->n_axes > 2 ? " (the most over the other axes)" : "");
	FILE *dat = filled ? plot_begin(c, "utilization_heatmap", title, &k) : NULL;
	if (!dat) {
		free(z);
		return !filled || c->n == MAX_PLOTS ? VTA_OK : c->err->status;
	}
	for (size_t ia = 0; ia < na; ia++)
		for (size_t ib = 0; ib < nb; ib++)
			if (z[ia * nb + ib] >= 0)
				fprintf(dat, "%zu %zu %.6f\n", ia, ib, z[ia * nb + ib]);
	fclose(dat);
	free(z);
	char body[16384];
	size_t len = 0;
	body[0] = '\0';
	vta_appendf(body, sizeof(body), &len,
		    "set xlabel \"%s\"\nset ylabel \"%s\"\nunset grid\nset cbrange [0:1]\n"
		    "set cblabel \"GEMM utilization\"\nset palette defined (0 \"#2c3e91\", 0.5 "
		    "\"#3fb58f\", 1 \"#f4e04d\")\nset xrange [-0.5:%zu.5]\nset yrange "
		    "[-0.5:%zu.5]\nset xtics (",
		    a->name, b->name, na - 1, nb - 1);
	for (size_t j = 0; j < na; j++) {
		char q[300];
		gp_str(q, sizeof(q), json_string_value(json_array_get(pa, j)));
		vta_appendf(body, sizeof(body), &len, "%s%s %zu", j ? ", " : "", q, j);
	}
	vta_appendf(body, sizeof(body), &len, ")\nset ytics (");
	for (size_t j = 0; j < nb; j++) {
		char q[300];
		gp_str(q, sizeof(q), json_string_value(json_array_get(pb, j)));
		vta_appendf(body, sizeof(body), &len, "%s%s %zu", j ? ", " : "", q, j);
	}
	vta_appendf(body, sizeof(body), &len,
		    ")\nset key off\nplot \"%s.dat\" using 1:2:(0.5):(0.5):3 with boxxyerror fs "
		    "solid 1.0 noborder lc palette, \"%s.dat\" using 1:2:(sprintf(\"%%.0f%%%%\", "
		    "100*$3)) with labels textcolor \"black\"\n",
		    c->name[k], c->name[k]);
	return plot_end(c, k, body);
}

static int xy_cmp(const void *a, const void *b)
{
	const double *p = a, *q = b;
	if (p[0] != q[0])
		return (p[0] > q[0]) - (p[0] < q[0]);
	return (p[1] > q[1]) - (p[1] < q[1]);
}

/* A Pareto plot: cycles against a cost column of the total rows. */
typedef struct pareto_spec {
	const char *col, *xlabel, *name, *title;
	bool log2_x;
} pareto_spec;

static const pareto_spec PARETOS[] = {
	{"sram_kib.total", "total SRAM KiB (uop + inp + wgt + acc)", "pareto_sram_cycles",
	 "total SRAM KiB against cycles: every point and the Pareto front", true},
	{"energy.total_pj", "energy (pJ, docs/energy.md)", "pareto_energy_cycles",
	 "energy against cycles: every point and the Pareto front", false},
	{"area.total_mm2", "area (mm^2, docs/energy.md)", "pareto_area_cycles",
	 "area against cycles: every point and the Pareto front", false},
};

static vta_status pareto(plot_ctx *c, const pareto_spec *p)
{
	/* the points, a colour per block shape, then the front over all of them */
	const axis_info *s[64];
	size_t ns = others(c, NULL, s, is_block);
	cell *cells = calloc(c->n_ok + 1, sizeof(*cells));
	double *xy = calloc(2 * c->n_ok + 2, sizeof(*xy));
	if (!cells || !xy) {
		free(cells);
		free(xy);
		return vta_fail(c->err, VTA_E_NOMEM, "out of memory");
	}
	size_t n = 0;
	double lo = INFINITY, hi = -INFINITY;
	for (size_t r = 0; r < c->n_ok; r++) {
		cell *e = &cells[n];
		if (!num(c->ok[r], p->col, &e->x) || !num(c->ok[r], "cycles", &e->y))
			continue;
		series_key(c->ok[r], s, ns, e->series, sizeof(e->series));
		e->rank = rank_of(cells, n, e->series);
		series_label(c->ok[r], s, ns, e->label, sizeof(e->label));
		xy[2 * n] = e->x;
		xy[2 * n + 1] = e->y;
		lo = fmin(lo, e->x);
		hi = fmax(hi, e->x);
		n++;
	}
	size_t k;
	FILE *dat = n >= 2 && hi > lo ? plot_begin(c, p->name, p->title, &k) : NULL;
	if (!dat) {
		free(cells);
		free(xy);
		return n < 2 || hi <= lo || c->n == MAX_PLOTS ? VTA_OK : c->err->status;
	}
	qsort(cells, n, sizeof(*cells), cell_cmp);
	char body[8192];
	size_t len = 0, idx = 0;
	body[0] = '\0';
	/* a log scale only where it spreads the points: over a narrow range it has no tick */
	const bool log_x = p->log2_x && lo > 0 && hi >= 4 * lo;
	vta_appendf(body, sizeof(body), &len, "set xlabel \"%s\"\nset ylabel \"cycles\"\n%s",
		    p->xlabel, log_x ? "set logscale x 2\n" : "");
	/* a tick at each value when there are few; small ones read as they are */
	double xs[8];
	const bool at_values = distinct_x(cells, n, xs, 8) <= 8;
	if (at_values)
		x_tics(body, sizeof(body), &len, cells, n);
	if (!at_values || fmax(fabs(lo), fabs(hi)) >= 1e4)
		axis_format(body, sizeof(body), &len, "x", lo, hi, false);
	y_scale(body, sizeof(body), &len, cells, n);
	vta_appendf(body, sizeof(body), &len, "plot ");
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || strcmp(cells[i].series, cells[i - 1].series)) {
			if (i)
				fprintf(dat, "\n\n");
			fprintf(dat, "# %s: %s cycles\n", cells[i].label, p->col);
			char t[600];
			gp_str(t, sizeof(t), cells[i].label);
			vta_appendf(body, sizeof(body), &len,
				    "\"%s.dat\" index %zu using 1:2 with points pt 7 ps 0.9 title "
				    "%s, ",
				    c->name[k], idx++, t);
		}
		fprintf(dat, "%.10g %.10g\n", cells[i].x, cells[i].y);
	}
	/* the front: by cost ascending, each point faster than every cheaper one */
	qsort(xy, n, 2 * sizeof(*xy), xy_cmp);
	fprintf(dat, "\n\n# the Pareto front\n");
	double best = INFINITY;
	for (size_t i = 0; i < n; i++)
		if (xy[2 * i + 1] < best) {
			best = xy[2 * i + 1];
			fprintf(dat, "%.10g %.10g\n", xy[2 * i], xy[2 * i + 1]);
		}
	fclose(dat);
	free(cells);
	free(xy);
	vta_appendf(body, sizeof(body), &len,
		    "\"%s.dat\" index %zu using 1:2 with steps lw 2 lc rgb \"#c0392b\" title "
		    "\"Pareto front\", \"%s.dat\" index %zu using 1:2 with points pt 6 ps 1.6 lw 2 "
		    "lc rgb \"#c0392b\" notitle\n",
		    c->name[k], idx, c->name[k], idx);
	return plot_end(c, k, body);
}

/* ---------- index.html ---------- */

static void html_text(FILE *f, const char *s)
{
	/* control bytes and bytes that are not UTF-8 show escaped, as in every message */
	const size_t n = strlen(s);
	char *shown = malloc(4 * n + 1);
	if (shown)
		vta_escape(shown, 4 * n + 1, s, n);
	for (const char *c = shown ? shown : ""; *c; c++) {
		if (*c == '<')
			fputs("&lt;", f);
		else if (*c == '>')
			fputs("&gt;", f);
		else if (*c == '&')
			fputs("&amp;", f);
		else if (*c == '"')
			fputs("&quot;", f);
		else if (*c == '\'')
			fputs("&#39;", f);
		else
			fputc(*c, f);
	}
	free(shown);
}

/* A whole number with thousands separators: "1234567" -> "1,234,567". */
static void with_separators(long long v, char *out, size_t size)
{
	char digits[32];
	snprintf(digits, sizeof(digits), "%llu",
		 v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v);
	size_t n = strlen(digits), k = 0;
	if (v < 0 && k + 1 < size)
		out[k++] = '-';
	for (size_t i = 0; i < n && k + 2 < size; i++) {
		if (i && (n - i) % 3 == 0)
			out[k++] = ',';
		out[k++] = digits[i];
	}
	out[k] = '\0';
}

/* A cell as a reader takes it in: whole numbers with separators, byte counts in KiB/MiB/GiB,
 * other numbers to four significant digits. *exact says whether the shown text is the cell
 * itself (else the cell goes in a tooltip). Text stays as it is. */
static void cell_shown(const char *col, const char *cell, char *out, size_t size, bool *exact)
{
	*exact = true;
	snprintf(out, size, "%s", cell);
	if (!cell[0])
		return;
	char *end;
	errno = 0;
	long long v = strtoll(cell, &end, 10);
	if (!*end && !errno) {
		double a = fabs((double)v);
		if (strstr(col, "bytes") && a >= 1024) {
			static const char *const units[] = {"KiB", "MiB", "GiB", "TiB"};
			int u = 0;
			for (a /= 1024; a >= 1024 && u < 3; a /= 1024)
				u++;
			snprintf(out, size, "%s%.3g %s", v < 0 ? "-" : "", a, units[u]);
			*exact = false;
		} else if (a >= 10000) {
			with_separators(v, out, size);
		}
		return;
	}
	double d = strtod(cell, &end);
	if (*end || !isfinite(d))
		return;
	if (fabs(d) >= 1e5) {
		with_separators(llround(d), out, size);
		*exact = false;
	} else {
		snprintf(out, size, "%.4g", d);
		*exact = !strcmp(out, cell);
	}
}

/* `path` as seen from the sweep folder `dir` (both resolved): "../configs/x.yaml", so the
 * page shows no machine's folders; the path as given when either cannot be resolved. */
static void path_from(const char *dir, const char *path, char *out, size_t size)
{
	snprintf(out, size, "%s", path);
	char *d = realpath(dir, NULL), *p = realpath(path, NULL);
	if (d && p && !strcmp(d, "/")) {
		snprintf(out, size, "%s", p[1] ? p + 1 : ".");
	} else if (d && p) {
		/* the common folders: up to a '/' both share, or all of d when p is inside it */
		size_t i = 0;
		while (d[i] && d[i] == p[i])
			i++;
		size_t common = i; /* p is inside d */
		if (d[i] || (p[i] && p[i] != '/')) {
			while (i > 0 && d[i - 1] != '/')
				i--;
			common = i ? i - 1 : 0; /* at the shared '/' */
		}
		size_t len = 0;
		out[0] = '\0';
		for (const char *c = d + common; *c; c++)
			if (*c == '/' && len + 4 < size) {
				memcpy(out + len, "../", 4);
				len += 3;
			}
		const char *rest = p + common;
		while (*rest == '/')
			rest++;
		snprintf(out + len, size - len, "%s", rest[0] ? rest : ".");
	}
	free(d);
	free(p);
}

/* A column name that may break after its dots and underscores only ("sram.wgt.<wbr>..."),
 * so narrow columns keep the table within the page without cutting words. */
static void html_header(FILE *f, const char *col)
{
	char part[256];
	size_t n = 0;
	for (const char *c = col; *c; c++) {
		if (n + 1 < sizeof(part))
			part[n++] = *c;
		if ((*c == '.' || *c == '_') && c[1]) {
			part[n] = '\0';
			html_text(f, part);
			fputs("<wbr>", f);
			n = 0;
		}
	}
	part[n] = '\0';
	html_text(f, part);
}

/* The table's columns index.html shows: the point's, then the headline metrics. */
static bool shown(const char *col, const json_t *manifest)
{
	static const char *const metrics[] = {
		"point", "layer", "status", "cycles", "time_us", "roofline_ratio",
		"gemm_utilization", "dram.read_bytes.total", "dram.write_bytes.total",
		"sram.inp.peak_bytes", "sram.wgt.peak_bytes", "sram.acc.peak_bytes",
		"decompression.mode", "tiling.rows",
		/* a model's (sweep_model.c) */
		"where", "accel_ops", "host_ops", "inferences_per_second",
		"point_seconds", "error", NULL};
	for (size_t i = 0; metrics[i]; i++)
		if (!strcmp(col, metrics[i]))
			return true;
	size_t i;
	json_t *q;
	json_array_foreach(json_object_get(manifest, "params"), i, q)
	{
		if (json_is_true(json_object_get(q, "axis")) &&
		    !strcmp(json_string_value(json_object_get(q, "name")), col))
			return true;
	}
	json_array_foreach(json_object_get(manifest, "lets"), i, q)
	{
		if (!strcmp(json_string_value(q), col))
			return true;
	}
	return false;
}

static void html_rows(FILE *f, const sw_table *t, const json_t *manifest, bool totals)
{
	fputs("<div class=\"scroll\"><table>\n<tr>", f);
	for (size_t j = 0; j < t->n_cols; j++)
		if (shown(t->cols[j], manifest)) {
			fputs("<th>", f);
			html_header(f, t->cols[j]);
			fputs("</th>", f);
		}
	fputs("</tr>\n", f);
	for (size_t r = 0; r < t->n_rows; r++) {
		char layer[128], status[32];
		text(t->rows[r], "layer", layer, sizeof(layer));
		text(t->rows[r], "status", status, sizeof(status));
		if (totals != !strcmp(layer, "total"))
			continue;
		fputs("<tr class=\"", f);
		html_text(f, status);
		fputs("\">", f);
		for (size_t j = 0; j < t->n_cols; j++) {
			if (!shown(t->cols[j], manifest))
				continue;
			char cell[VTA_ERROR_DETAIL_MAX], show[VTA_ERROR_DETAIL_MAX];
			bool exact;
			text(t->rows[r], t->cols[j], cell, sizeof(cell));
			cell_shown(t->cols[j], cell, show, sizeof(show), &exact);
			if (exact) {
				fputs("<td>", f);
			} else {
				fputs("<td title=\"", f);
				html_text(f, cell);
				fputs("\">", f);
			}
			html_text(f, show);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table></div>\n", f);
}

static vta_status write_index(plot_ctx *c, const char *dir)
{
	char path[SW_PATH_MAX + 32], tmp[SW_PATH_MAX + 64];
	snprintf(path, sizeof(path), "%s/index.html", dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
	FILE *f = fopen(tmp, "w");
	if (!f)
		return vta_fail(c->err, VTA_E_IO, "%s: cannot write: %s", tmp, strerror(errno));
	const char *name = json_string_value(json_object_get(c->manifest, "name"));
	fputs("<!DOCTYPE html>\n<!-- Generated by vtasim sweep: the plots and the results of "
	      "this folder -->\n<html><head><meta charset=\"utf-8\"><title>sweep ", f);
	html_text(f, name ? name : "");
	/* a laptop's width: the page at most 1280 px, wide tables scroll inside it */
	fputs("</title>\n<style>body{font-family:sans-serif;margin:1.5em auto;padding:0 1em;"
	      "max-width:1280px}table{border-collapse:collapse;font-size:12px}td,th{border:1px "
	      "solid #ccc;padding:2px 6px;text-align:right;white-space:nowrap}th{background:#eee;"
	      "position:sticky;top:0;white-space:normal;max-width:7em}"
	      ".scroll{overflow:auto;max-width:100%;max-height:80vh;margin:0.5em 0}code{"
	      "word-break:break-all}tr.error td,tr.timeout td,tr.crash td,tr.mismatch td{"
	      "background:#fde2e2}tr.pending td{color:#999}img{max-width:100%;border:1px solid "
	      "#ddd;margin:0.5em 0}</style></head><body>\n<h1>sweep ",
	      f);
	html_text(f, name ? name : "");
	fputs("</h1>\n<p>", f);
	static const char *const facts[] = {"sweep", "config", "workload"};
	for (size_t i = 0; i < 3; i++) {
		const char *given = json_string_value(json_object_get(c->manifest, facts[i]));
		char rel[SW_PATH_MAX];
		path_from(dir, given ? given : "", rel, sizeof(rel));
		fprintf(f, "%s: <code>", facts[i]);
		html_text(f, rel);
		fputs("</code><br>\n", f);
	}
	fputs("The whole table: <a href=\"results.csv\">results.csv</a>, <a href=\"results.json\">"
	      "results.json</a> (columns in docs/sweep.md).</p>\n<h2>Plots</h2>\n",
	      f);
	if (!c->n)
		fputs("<p>No plot applies to these axes, or no point finished.</p>\n", f);
	for (size_t k = 0; k < c->n; k++) {
		fputs("<h3>", f);
		html_text(f, c->title[k]);
		fputs("</h3>\n", f);
		if (c->failure[k][0] || !c->render) {
			fputs("<p>Not drawn: ", f);
			html_text(f, c->failure[k][0] ? c->failure[k] : "plots were not asked for");
			fprintf(f, ". The script is <code>plots/%s.gp</code>.</p>\n", c->name[k]);
		} else {
			fprintf(f, "<a href=\"plots/%s.png\"><img src=\"plots/%s.svg\" alt=\"", c->name[k],
				c->name[k]);
			html_text(f, c->title[k]);
			fputs("\"></a>\n", f);
		}
	}
	fputs("<h2>Points</h2>\n", f);
	html_rows(f, c->t, c->manifest, true);
	fputs("<details><summary>Every layer</summary>\n", f);
	html_rows(f, c->t, c->manifest, false);
	fputs("</details>\n</body></html>\n", f);
	if (fclose(f) != 0 || rename(tmp, path) != 0) {
		int e = errno;
		unlink(tmp);
		return vta_fail(c->err, VTA_E_IO, "%s: cannot write: %s", path, strerror(e));
	}
	return VTA_OK;
}

vta_status sweep_plots_write(const sw_table *t, const json_t *manifest, const char *dir,
			     bool plots, size_t *n_plots, vta_error *err)
{
	plot_ctx *c = calloc(1, sizeof(*c));
	if (!c)
		return vta_fail(err, VTA_E_NOMEM, "out of memory");
	c->t = t;
	c->manifest = manifest;
	c->err = err;
	c->render = c->have_gnuplot = plots;
	snprintf(c->dir, sizeof(c->dir), "%s/plots", dir);
	size_t i;
	json_t *q;
	json_array_foreach(json_object_get(manifest, "params"), i, q)
	{
		if (!json_is_true(json_object_get(q, "axis")) || c->n_axes == 64)
			continue;
		axis_info *a = &c->axes[c->n_axes++];
		a->name = json_string_value(json_object_get(q, "name"));
		a->kind = json_string_value(json_object_get(q, "kind"));
		a->dim = (size_t)json_integer_value(json_object_get(q, "dim"));
		json_t *vals = json_object_get(q, "values"), *v;
		size_t j;
		a->n_values = json_array_size(vals);
		a->numeric = true;
		json_array_foreach(vals, j, v)
		{
			char *end;
			strtod(json_string_value(v), &end);
			a->numeric = a->numeric && *json_string_value(v) && !*end;
		}
	}
	static const plot_metric *const builtin[] = {&CYCLES, &INFERENCES, &ENERGY, &DRAM_BYTES};
	for (size_t m = 0; m < sizeof(builtin) / sizeof(builtin[0]); m++)
		c->metrics[c->n_metrics++] = (plot_metric *)builtin[m];
	/* the file's metrics, by their own names; a text one gathers no number, so no plot */
	plot_metric user[MAX_METRICS];
	json_array_foreach(json_object_get(manifest, "metrics"), i, q)
	{
		const char *nm = json_string_value(json_object_get(q, "name"));
		if (!nm || !sw_is_name(nm, SW_NAME_MAX) || c->n_metrics == MAX_METRICS)
			continue;
		plot_metric *m = &user[c->n_metrics];
		*m = (plot_metric){nm, nm, nm, false};
		c->metrics[c->n_metrics++] = m;
	}
	c->ok = calloc(t->n_rows + 1, sizeof(*c->ok));
	vta_status st = c->ok ? sweep_mkdir_p(c->dir, err)
			      : vta_fail(err, VTA_E_NOMEM, "out of memory");
	for (size_t r = 0; !st && r < t->n_rows; r++) {
		char layer[128], status[32];
		text(t->rows[r], "layer", layer, sizeof(layer));
		text(t->rows[r], "status", status, sizeof(status));
		if (!strcmp(layer, "total") && !strcmp(status, "ok"))
			c->ok[c->n_ok++] = t->rows[r];
	}
	if (!st)
		st = sram_plots(c);
	if (!st)
		st = heatmap(c);
	for (size_t i = 0; !st && i < sizeof(PARETOS) / sizeof(PARETOS[0]); i++)
		st = pareto(c, &PARETOS[i]);
	if (!st)
		st = lut_plot(c);
	if (!st)
		st = other_plots(c);
	if (!st)
		st = bar_plots(c);
	if (!st)
		st = write_index(c, dir);
	*n_plots = c->n;
	free(c->ok);
	free(c);
	return st;
}
