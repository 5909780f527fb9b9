/*
 * report_cmp.c - two run reports side by side (report_cmp.h).
 */
#include "report_cmp.h"

#include <jansson.h>
#include <string.h>

/* A top-level setting as text: a string or an integer ("-" when absent). */
static void setting_text(json_t *v, char *buf, size_t size)
{
	if (json_is_string(v))
		snprintf(buf, size, "%s", json_string_value(v));
	else if (json_is_integer(v))
		snprintf(buf, size, "%lld", (long long)json_integer_value(v));
	else
		snprintf(buf, size, "-");
}

static double num(json_t *o, const char *path)
{
	char key[64];
	const char *p = path;
	while (o && *p) {
		size_t n = strcspn(p, ".");
		snprintf(key, sizeof(key), "%.*s", (int)n, p);
		o = json_object_get(o, key);
		p += n + (p[n] == '.');
	}
	return json_is_number(o) ? json_number_value(o) : 0.0;
}

static const char *str(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_string(v) ? json_string_value(v) : "-";
}

/* The settings that differ, one "key A -> B" each; how many. */
static int settings_diff(json_t *a, json_t *b, FILE *out)
{
	int n = 0;
	const char *key;
	json_t *v;
	for (int side = 0; side < 2; side++) {
		json_object_foreach(side ? b : a, key, v) {
			if (json_is_object(v) || json_is_array(v))
				continue;
			if (side && json_object_get(a, key)) /* seen from a's side */
				continue;
			char ta[256], tb[256];
			setting_text(json_object_get(a, key), ta, sizeof(ta));
			setting_text(json_object_get(b, key), tb, sizeof(tb));
			if (strcmp(ta, tb))
				fprintf(out, "%s  %-10s %s -> %s\n", n++ ? "" : "differs:\n", key, ta,
					tb);
		}
	}
	return n;
}

/* Per-layer text that differs (decompression, plan): counted, the first shown. */
static int layer_diff(json_t *la, json_t *lb, const char *what, const char *key, FILE *out)
{
	int n = 0;
	for (size_t i = 0; i < json_array_size(la); i++) {
		json_t *x = json_array_get(la, i), *y = json_array_get(lb, i);
		const char *sa = strcmp(key, "mode") ? str(x, key)
						     : str(json_object_get(x, "decompression"), key);
		const char *sb = strcmp(key, "mode") ? str(y, key)
						     : str(json_object_get(y, "decompression"), key);
		if (!strcmp(sa, sb))
			continue;
		if (n++)
			continue;
		/* a long text (a plan) goes on lines of its own, A above B */
		fprintf(out, "  %-10s layer %s:", what, str(x, "name"));
		if (strlen(sa) + strlen(sb) > 40)
			fprintf(out, "\n    A %s\n    B %s", sa, sb);
		else
			fprintf(out, " %s -> %s", sa, sb);
	}
	if (n > 1)
		fprintf(out, " (and %d more layer%s)", n - 1, n > 2 ? "s" : "");
	if (n)
		fputc('\n', out);
	return n;
}

static void row(FILE *out, int width, const char *name, json_t *x, json_t *y)
{
	double ca = num(x, "cycles"), cb = num(y, "cycles");
	double da = num(x, "dram.read_bytes.total") + num(x, "dram.write_bytes.total");
	double db = num(y, "dram.read_bytes.total") + num(y, "dram.write_bytes.total");
	fprintf(out, "%-*s %12.0f %12.0f %6.3f %12.0f %12.0f %6.1f%% %6.1f%%\n", width, name, ca, cb,
		ca > 0 ? cb / ca : 0.0, da, db, 100.0 * num(x, "gemm_utilization"),
		100.0 * num(y, "gemm_utilization"));
}

int report_cmp(const char *a, const char *b, FILE *out)
{
	json_error_t je;
	json_t *ra = json_load_file(a, 0, &je), *rb = NULL;
	const char *bad = ra ? b : a;
	if (ra)
		rb = json_load_file(b, 0, &je);
	json_t *la = json_object_get(ra, "layers"), *lb = json_object_get(rb, "layers");
	int rc = 0;
	if (!ra || !rb) {
		fprintf(stderr, "bench_resnet_table: %s: %s\n", bad, je.text);
		rc = 2;
	} else if (!json_is_array(la) || !json_is_array(lb) ||
		   !json_is_object(json_object_get(ra, "total")) ||
		   !json_is_object(json_object_get(rb, "total"))) {
		fprintf(stderr, "bench_resnet_table: %s: not a vtasim run report (no layers "
				"and total)\n", json_is_array(la) ? b : a);
		rc = 2;
	} else if (json_array_size(la) != json_array_size(lb)) {
		fprintf(stderr, "bench_resnet_table: %s has %zu layers, %s %zu: not the same "
				"workload\n", a, json_array_size(la), b, json_array_size(lb));
		rc = 2;
	}
	for (size_t i = 0; !rc && i < json_array_size(la); i++)
		if (strcmp(str(json_array_get(la, i), "name"), str(json_array_get(lb, i), "name"))) {
			fprintf(stderr, "bench_resnet_table: layer %zu is '%s' in %s, '%s' in %s: "
					"not the same workload\n", i, str(json_array_get(la, i), "name"),
				a, str(json_array_get(lb, i), "name"), b);
			rc = 2;
		}
	if (!rc) {
		fprintf(out, "A: %s\nB: %s\n", a, b);
		int n = settings_diff(ra, rb, out);
		if (!n)
			fprintf(out, "differs:\n");
		n += layer_diff(la, lb, "decompress", "mode", out);
		n += layer_diff(la, lb, "plan", "plan", out);
		if (!n)
			fprintf(out, "  nothing: the same settings (cycles may still differ if a "
				     "config changed under the same name)\n");
		int w = 16;
		for (size_t i = 0; i < json_array_size(la); i++)
			if ((int)strlen(str(json_array_get(la, i), "name")) > w)
				w = (int)strlen(str(json_array_get(la, i), "name"));
		fprintf(out, "\n%-*s %12s %12s %6s %12s %12s %7s %7s\n", w, "layer", "cycles_A",
			"cycles_B", "B/A", "dram_A", "dram_B", "util_A", "util_B");
		for (size_t i = 0; i < json_array_size(la); i++)
			row(out, w, str(json_array_get(la, i), "name"), json_array_get(la, i),
			    json_array_get(lb, i));
		row(out, w, "total", json_object_get(ra, "total"), json_object_get(rb, "total"));
	}
	json_decref(ra);
	json_decref(rb);
	return rc;
}
