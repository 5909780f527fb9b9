/*
 * sweep_check.c - read a sweep's results for the shell tests (the scripts of tests/sweep):
 *
 *   sweep_check rows DIR                  one line per row: point, layer, status, cycles
 *   sweep_check get DIR POINT LAYER COL   one cell
 *   sweep_check args DIR POINT            the `vtasim run` options of a point (--set, ...)
 *   sweep_check match DIR POINT RUN.json  the point's rows against a `vtasim run` report:
 *                                         every layer's cycles, plan and tiling, and the
 *                                         total's cycles, equal
 *   sweep_check same DIR1 DIR2            the same rows and cells, host times aside
 *   sweep_check json FILE PATH            the value at a dotted path of any JSON file
 *                                         (layers.0.dram.read_bytes.total): for tests
 *                                         elsewhere that read a report
 *
 * Exit status 0 when the check holds, 1 with a line saying what differs, 2 on bad use.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *load(const char *path)
{
	json_error_t je;
	json_t *v = json_load_file(path, 0, &je);
	if (!v) {
		fprintf(stderr, "sweep_check: %s: %s\n", path, je.text);
		exit(2);
	}
	return v;
}

static json_t *results(const char *dir)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/results.json", dir);
	return load(path);
}

static void cell(const json_t *v, char *out, size_t size)
{
	if (json_is_string(v))
		snprintf(out, size, "%s", json_string_value(v));
	else if (json_is_integer(v))
		snprintf(out, size, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		snprintf(out, size, "%.10g", json_real_value(v));
	else if (json_is_boolean(v))
		snprintf(out, size, "%s", json_is_true(v) ? "true" : "false");
	else
		snprintf(out, size, "-");
}

static const json_t *row_of(const json_t *res, long point, const char *layer)
{
	size_t i;
	json_t *r;
	json_array_foreach(json_object_get(res, "rows"), i, r)
	{
		if (json_integer_value(json_object_get(r, "point")) == point &&
		    !strcmp(json_string_value(json_object_get(r, "layer")), layer))
			return r;
	}
	return NULL;
}

static int rows(const char *dir)
{
	json_t *res = results(dir);
	size_t i;
	json_t *r;
	json_array_foreach(json_object_get(res, "rows"), i, r)
	{
		char p[32], l[128], s[32], c[32];
		cell(json_object_get(r, "point"), p, sizeof(p));
		cell(json_object_get(r, "layer"), l, sizeof(l));
		cell(json_object_get(r, "status"), s, sizeof(s));
		cell(json_object_get(r, "cycles"), c, sizeof(c));
		printf("%s %s %s %s\n", p, l, s, c);
	}
	json_decref(res);
	return 0;
}

static int get(const char *dir, const char *point, const char *layer, const char *col)
{
	json_t *res = results(dir);
	const json_t *r = row_of(res, atol(point), layer);
	if (!r) {
		fprintf(stderr, "sweep_check: no row for point %s layer %s\n", point, layer);
		return 1;
	}
	char out[4096];
	cell(json_object_get(r, col), out, sizeof(out));
	printf("%s\n", out);
	json_decref(res);
	return 0;
}

/* The manifest's point `index`. */
static const json_t *manifest_point(const json_t *m, long index)
{
	size_t i;
	json_t *p;
	json_array_foreach(json_object_get(m, "points"), i, p)
	{
		if (json_integer_value(json_object_get(p, "index")) == index)
			return p;
	}
	return NULL;
}

static int args(const char *dir, const char *point)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/sweep.json", dir);
	json_t *m = load(path);
	const json_t *p = manifest_point(m, atol(point));
	if (!p) {
		fprintf(stderr, "sweep_check: no point %s\n", point);
		return 1;
	}
	size_t i;
	json_t *q;
	json_array_foreach(json_object_get(m, "params"), i, q)
	{
		const char *name = json_string_value(json_object_get(q, "name"));
		const char *kind = json_string_value(json_object_get(q, "kind"));
		const char *v = json_string_value(json_object_get(json_object_get(p, "values"), name));
		if (!strcmp(kind, "config"))
			printf(" --set %s=%s", name, v);
	}
	printf(" --threads %lld --mode %s --decompress %s\n",
	       (long long)json_integer_value(json_object_get(p, "threads")),
	       json_string_value(json_object_get(p, "mode")),
	       json_string_value(json_object_get(p, "decompress")));
	json_decref(m);
	return 0;
}

static int differ(const char *what, const char *a, const char *b)
{
	printf("sweep_check: %s: sweep %s, run %s\n", what, a, b);
	return 1;
}

static int match(const char *dir, const char *point, const char *report)
{
	json_t *res = results(dir), *rep = load(report);
	long pt = atol(point);
	int bad = 0;
	size_t i;
	json_t *l;
	json_array_foreach(json_object_get(rep, "layers"), i, l)
	{
		const char *name = json_string_value(json_object_get(l, "name"));
		const json_t *r = row_of(res, pt, name);
		if (!r) {
			printf("sweep_check: point %ld has no row for layer %s\n", pt, name);
			bad = 1;
			continue;
		}
		static const char *const keys[] = {"cycles", "plan", "insns", "gemm_uops", "alu_uops",
						   NULL};
		for (size_t k = 0; keys[k]; k++) {
			char a[512], b[512], what[256];
			cell(json_object_get(r, keys[k]), a, sizeof(a));
			cell(json_object_get(l, keys[k]), b, sizeof(b));
			snprintf(what, sizeof(what), "point %ld layer %s %s", pt, name, keys[k]);
			if (strcmp(a, b))
				bad |= differ(what, a, b);
		}
		const char *key;
		json_t *v;
		json_object_foreach(json_object_get(l, "tiling"), key, v)
		{
			char col[128], a[64], b[64], what[256];
			snprintf(col, sizeof(col), "tiling.%s", key);
			cell(json_object_get(r, col), a, sizeof(a));
			cell(v, b, sizeof(b));
			snprintf(what, sizeof(what), "point %ld layer %s %s", pt, name, col);
			if (strcmp(a, b))
				bad |= differ(what, a, b);
		}
	}
	char a[64], b[64];
	const json_t *t = row_of(res, pt, "total");
	cell(t ? json_object_get(t, "cycles") : NULL, a, sizeof(a));
	cell(json_object_get(json_object_get(rep, "total"), "cycles"), b, sizeof(b));
	if (strcmp(a, b))
		bad |= differ("total cycles", a, b);
	json_decref(res);
	json_decref(rep);
	return bad;
}

/* Host time differs from run to run: wall seconds, rates, the golden's and emit's time. */
static int host_column(const char *col)
{
	return !strncmp(col, "host.", 5) || !strcmp(col, "point_seconds") ||
	       /* a model's rows: its host kernels, its reference run and the whole run, the
		* host's staging and the relayouts between ops, the host time per phase */
	       !strncmp(col, "host_phases.", 12) ||
	       !strcmp(col, "host_seconds") || !strcmp(col, "reference_seconds") ||
	       !strcmp(col, "run_wall_seconds") || !strcmp(col, "staging_seconds") ||
	       !strcmp(col, "relayout_seconds");
}

static int same(const char *d1, const char *d2)
{
	json_t *a = results(d1), *b = results(d2);
	json_t *ra = json_object_get(a, "rows"), *rb = json_object_get(b, "rows");
	if (json_array_size(ra) != json_array_size(rb)) {
		printf("sweep_check: %zu rows against %zu\n", json_array_size(ra),
		       json_array_size(rb));
		return 1;
	}
	if (!json_equal(json_object_get(a, "columns"), json_object_get(b, "columns"))) {
		printf("sweep_check: the columns differ\n");
		return 1;
	}
	int bad = 0;
	for (size_t i = 0; i < json_array_size(ra) && !bad; i++) {
		const char *col;
		json_t *v;
		json_object_foreach(json_array_get(ra, i), col, v)
		{
			json_t *w = json_object_get(json_array_get(rb, i), col);
			if (host_column(col) || json_equal(v, w))
				continue;
			char x[512], y[512];
			cell(v, x, sizeof(x));
			cell(w, y, sizeof(y));
			printf("sweep_check: row %zu column %s: %s against %s\n", i, col, x, y);
			bad = 1;
			break;
		}
	}
	json_decref(a);
	json_decref(b);
	return bad;
}

static int json_at(const char *file, const char *path)
{
	json_t *root = load(file);
	const json_t *v = root;
	for (const char *p = path; v && *p;) {
		const size_t n = strcspn(p, ".");
		char part[256];
		snprintf(part, sizeof(part), "%.*s", (int)n, p);
		/* a list's element by its index ("layers.0.cycles") */
		v = json_is_array(v) ? json_array_get(v, strtoul(part, NULL, 10))
				     : json_object_get(v, part);
		p += n + (p[n] == '.');
	}
	char out[256];
	cell(v, out, sizeof(out));
	printf("%s\n", out);
	json_decref(root);
	return v ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "json"))
		return json_at(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "rows"))
		return rows(argv[2]);
	if (argc == 6 && !strcmp(argv[1], "get"))
		return get(argv[2], argv[3], argv[4], argv[5]);
	if (argc == 4 && !strcmp(argv[1], "args"))
		return args(argv[2], argv[3]);
	if (argc == 5 && !strcmp(argv[1], "match"))
		return match(argv[2], argv[3], argv[4]);
	if (argc == 4 && !strcmp(argv[1], "same"))
		return same(argv[2], argv[3]);
	fprintf(stderr, "usage: sweep_check rows DIR | get DIR POINT LAYER COL | args DIR POINT | "
			"match DIR POINT RUN.json | same DIR1 DIR2 | json FILE PATH\n");
	return 2;
}
