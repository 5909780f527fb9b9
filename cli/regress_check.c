/* regress_check.c - outputs and statistics of one run against a case (regress_check.h). */
#include "regress_check.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "json_read.h"
#include "vta_file.h"

static vta_status flatten(const json_t *obj, const char *prefix, regress_stats *out,
			  vta_error *err)
{
	const char *key;
	json_t *v;
	json_object_foreach((json_t *)obj, key, v) {
		char path[REGRESS_STAT_KEY_MAX * 2];
		snprintf(path, sizeof(path), "%s%s%s", prefix, *prefix ? "." : "", key);
		if (!*prefix && !strcmp(key, "host"))
			continue; /* wall time and speed vary from host to host */
		vta_status st = VTA_OK;
		if (json_is_object(v))
			st = flatten(v, path, out, err);
		else if (json_is_integer(v))
			st = regress_stats_add(out, path, (int64_t)json_integer_value(v), err);
		if (st)
			return st;
	}
	return VTA_OK;
}

vta_status regress_report_stats(const char *json_path, regress_stats *out, vta_error *err)
{
	json_t *root = report_json_load(json_path, err);
	if (!root)
		return err->status;
	json_t *total = json_object_get(root, "total");
	vta_status st;
	if (!json_is_object(total))
		st = vta_fail(err, VTA_E_DATA, "%s: no \"total\" object", json_path);
	else
		st = flatten(total, "", out, err);
	json_decref(root);
	return st;
}

int64_t regress_report_warnings(const char *json_path)
{
	vta_error e = {0};
	json_t *root = report_json_load(json_path, &e);
	json_t *w = json_object_get(json_object_get(root, "checks"), "warnings");
	int64_t n = json_is_integer(w) ? (int64_t)json_integer_value(w) : -1;
	json_decref(root);
	return n;
}

int regress_compare_output(const regress_output *o, const char *got_path, char *msg,
			   size_t size)
{
	/* the case's file was checked when the case was read; it is read within its limit again,
	 * as it may have changed since */
	FILE *fe = NULL, *fg = NULL;
	uint64_t bytes;
	vta_error e = {0};
	vta_file_open(o->file, "file of expected bytes", VTA_LIMIT_EXPECTED, &fe, &bytes, &e);
	if (fe)
		vta_file_open(got_path, "DRAM dump", VTA_LIMIT_EXPECTED, &fg, &bytes, &e);
	int differ = 0;
	if (!fe || !fg) {
		snprintf(msg, size, "output 0x%" PRIx64 "+%" PRIu64 ": %s", o->addr, o->len,
			 !fe ? "cannot read the expected bytes" : "no DRAM dump written");
		differ = 1;
		goto out;
	}
	uint64_t ndiff = 0, first = 0;
	int first_e = 0, first_g = 0;
	for (uint64_t i = 0; i < o->len; i++) {
		int e = fgetc(fe), g = fgetc(fg);
		if (e == EOF || g == EOF) {
			snprintf(msg, size,
				 "output 0x%" PRIx64 "+%" PRIu64 ": %s ends at byte %" PRIu64,
				 o->addr, o->len, e == EOF ? "the expected file" : "the DRAM dump",
				 i);
			differ = 1;
			goto out;
		}
		if (e != g && ndiff++ == 0) {
			first = i;
			first_e = e;
			first_g = g;
		}
	}
	if (ndiff) {
		snprintf(msg, size,
			 "output 0x%" PRIx64 "+%" PRIu64 ": first difference at DRAM 0x%" PRIx64
			 ": expected 0x%02x, got 0x%02x (%" PRIu64 " byte%s differ%s)",
			 o->addr, o->len, o->addr + first, first_e, first_g, ndiff,
			 ndiff == 1 ? "" : "s", ndiff == 1 ? "s" : "");
		differ = 1;
	}
out:
	if (fe)
		fclose(fe);
	if (fg)
		fclose(fg);
	return differ;
}

void regress_format_change(int64_t from, int64_t to, char *out, size_t size)
{
	if (from == to)
		snprintf(out, size, "(same)");
	else if (from == 0)
		snprintf(out, size, "(from 0)");
	else
		snprintf(out, size, "(%+.1f%%)",
			 100.0 * ((double)to - (double)from) / (double)(from < 0 ? -from : from));
}

int regress_compare_stats(const regress_stats *expected, const regress_stats *got, FILE *out)
{
	int n = 0;
	for (size_t i = 0; i < expected->count; i++) {
		const regress_stat *e = &expected->items[i];
		const regress_stat *g = regress_stats_find(got, e->key);
		if (g && g->value == e->value)
			continue;
		fprintf(out, "%s", n++ ? "; " : "");
		if (!g) {
			fprintf(out, "%s: expected %" PRId64 ", missing from the report", e->key,
				e->value);
			continue;
		}
		char change[32];
		regress_format_change(e->value, g->value, change, sizeof(change));
		fprintf(out, "%s: expected %" PRId64 ", got %" PRId64 " %s", e->key, e->value,
			g->value, change);
	}
	return n;
}
