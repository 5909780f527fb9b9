/*
 * sweep_record.c - the files a sweep writes: a point's record (its key, status, error and
 * seconds, to which the point adds its run report), written through a temporary file and a
 * rename so a reader never sees half of one, and the folders they go in; a model point's
 * record holds its model report as a layer point's holds its run report.
 *
 * A record is read back later (a resumed sweep, a merge of shards), by then it may be
 * another point's record copied over it, one of another workload or another vtasim build,
 * or edited. So it is sealed: it names its point (key), the workload's digest and the
 * build that wrote it, and ends with the SHA-256 of all the rest (canonical JSON: sorted
 * keys, compact). A reader trusts only a record that checks (sweep_record_check); any
 * other runs again.
 */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build_id.h"
#include "sweep.h"

vta_status sweep_mkdir_p(const char *dir, vta_error *err)
{
	char path[SW_PATH_MAX];
	snprintf(path, sizeof(path), "%s", dir);
	for (char *p = path + 1;; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		const char c = *p;
		*p = '\0';
		if (mkdir(path, 0777) != 0 && errno != EEXIST)
			return vta_fail(err, VTA_E_IO, "%s: cannot create the folder: %s", path,
					strerror(errno));
		*p = c;
		if (!c)
			break;
	}
	struct stat sb;
	if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
		return vta_fail(err, VTA_E_IO, "%s: not a folder", dir);
	return VTA_OK;
}

vta_status sweep_write_json_atomic(const json_t *v, const char *path, vta_error *err)
{
	char tmp[SW_PATH_MAX + 64];
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
	if (json_dump_file(v, tmp, JSON_INDENT(1) | JSON_PRESERVE_ORDER) == 0 &&
	    rename(tmp, path) == 0)
		return VTA_OK;
	int e = errno;
	unlink(tmp);
	return vta_fail(err, VTA_E_IO, "%s: cannot write: %s", path, strerror(e));
}

json_t *sweep_record_new(const char *key, const char *status, const char *error,
			  double seconds)
{
	json_t *r = json_object();
	json_object_set_new(r, "format", json_string(SW_RECORD_FORMAT));
	json_object_set_new(r, "key", json_string(key));
	json_object_set_new(r, "status", json_string(status));
	json_object_set_new(r, "error", json_string(error ? error : ""));
	json_object_set_new(r, "seconds", json_real(seconds));
	return r;
}

json_t *sweep_record_layer(const char *name, const char *status, const char *error,
			   json_t *report)
{
	json_t *o = json_object();
	json_object_set_new(o, "name", json_string(name));
	json_object_set_new(o, "status", json_string(status));
	json_object_set_new(o, "error", json_string(error ? error : ""));
	if (report)
		json_object_set_new(o, "report", report);
	return o;
}

/* SHA-256 of the record without its "digest", in canonical JSON; false if it cannot dump. */
static bool record_digest(const json_t *rec, char hex[VTA_SHA256_HEX])
{
	json_t *copy = json_copy((json_t *)rec);
	if (!copy)
		return false;
	json_object_del(copy, "digest");
	char *text = json_dumps(copy, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENSURE_ASCII);
	json_decref(copy);
	if (!text)
		return false;
	vta_sha256 h;
	vta_sha256_init(&h);
	vta_sha256_update(&h, text, strlen(text));
	vta_sha256_final_hex(&h, hex);
	free(text);
	return true;
}

void sweep_record_seal(json_t *rec, const char *workload_digest)
{
	char build[SW_BUILD_MAX], hex[VTA_SHA256_HEX];
	vtasim_build_id(build, sizeof(build));
	json_object_set_new(rec, "workload", json_string(workload_digest));
	json_object_set_new(rec, "build", json_string(build));
	json_object_del(rec, "digest");
	if (record_digest(rec, hex))
		json_object_set_new(rec, "digest", json_string(hex));
}

static bool fail_check(char *why, size_t size, const char *what)
{
	snprintf(why, size, "%s", what);
	return false;
}

static bool is_string(const json_t *o, const char *name)
{
	return json_is_string(json_object_get(o, name));
}

/* The shape a reader relies on: a known status, its error text, and for a run that gave
 * results, every layer an entry and the point's total with its cycles. */
static bool record_shape(const json_t *rec, char *why, size_t size)
{
	static const char *const statuses[] = {"ok", "mismatch", "error", "timeout", "crash"};
	const char *status = json_string_value(json_object_get(rec, "status"));
	bool known = false;
	for (size_t i = 0; status && i < sizeof(statuses) / sizeof(statuses[0]); i++)
		known |= !strcmp(status, statuses[i]);
	if (!known)
		return fail_check(why, size, "its status is not one a point has");
	if (!is_string(rec, "error") || !json_is_number(json_object_get(rec, "seconds")))
		return fail_check(why, size, "it lacks its error or its seconds");
	const json_t *layers = json_object_get(rec, "layers");
	if (layers && !json_is_array(layers))
		return fail_check(why, size, "its layers are not a list");
	size_t i;
	json_t *l;
	json_array_foreach(layers, i, l)
	{
		const json_t *report = json_object_get(l, "report");
		if (!json_is_object(l) || !is_string(l, "name") || !is_string(l, "status") ||
		    (report && !json_is_object(report)))
			return fail_check(why, size, "a layer's entry is malformed");
	}
	if (strcmp(status, "ok"))
		return true;
	const json_t *total = json_object_get(rec, "total");
	const json_t *cycles = json_object_get(total, "cycles");
	if (!json_array_size(layers) || !json_is_object(total) || !json_is_integer(cycles) ||
	    json_integer_value(cycles) < 0)
		return fail_check(why, size, "it says ok but holds no layers or no total cycles");
	json_array_foreach(layers, i, l)
	{
		if (!json_is_object(json_object_get(l, "report")))
			return fail_check(why, size, "it says ok but a layer has no report");
	}
	return true;
}

bool sweep_record_check(const json_t *rec, const char *key, const char *workload_digest,
			char *why, size_t size)
{
	char build[SW_BUILD_MAX], hex[VTA_SHA256_HEX];
	const char *format = json_string_value(json_object_get(rec, "format"));
	if (!json_is_object(rec) || !format || strcmp(format, SW_RECORD_FORMAT))
		return fail_check(why, size, "not a record of this vtasim's format");
	const char *k = json_string_value(json_object_get(rec, "key"));
	if (!k || strcmp(k, key))
		return fail_check(why, size, "the record of another point");
	const char *wl = json_string_value(json_object_get(rec, "workload"));
	if (!wl || strcmp(wl, workload_digest))
		return fail_check(why, size, "a record of another workload");
	vtasim_build_id(build, sizeof(build));
	const char *b = json_string_value(json_object_get(rec, "build"));
	if (!b || strcmp(b, build))
		return fail_check(why, size, "written by another vtasim build");
	const char *digest = json_string_value(json_object_get(rec, "digest"));
	if (!digest || !record_digest(rec, hex) || strcmp(digest, hex))
		return fail_check(why, size, "its contents do not match its digest (changed "
					     "since it was written)");
	return record_shape(rec, why, size);
}

vta_status sweep_record_failure(const char *records, const char *key,
				const char *workload_digest, const char *status,
				const char *error, double seconds, vta_error *err)
{
	char path[SW_PATH_MAX + 80];
	snprintf(path, sizeof(path), "%s/%s.json", records, key);
	json_t *r = sweep_record_new(key, status, error, seconds);
	sweep_record_seal(r, workload_digest);
	vta_status st = sweep_write_json_atomic(r, path, err);
	json_decref(r);
	return st;
}

/* ---------- a model point's record ---------- */

/* The sweep's columns speak of DRAM bytes as the layer reports do (the plots read them). */
static void rename_dram(json_t *o)
{
	json_t *rd = json_object_get(o, "dram_read_bytes");
	json_t *wr = json_object_get(o, "dram_write_bytes");
	if (!rd || !wr)
		return;
	json_t *d = json_pack("{s:{s:O}, s:{s:O}}", "read_bytes", "total", rd, "write_bytes",
			      "total", wr);
	json_object_del(o, "dram_read_bytes");
	json_object_del(o, "dram_write_bytes");
	json_object_set_new(o, "dram", d);
}

/* One entry per operator, as sweep_point.c writes a layer's. */
static json_t *op_entries(json_t *ops)
{
	json_t *ls = json_array();
	size_t i;
	json_t *op;
	json_array_foreach(ops, i, op)
	{
		char name[96];
		snprintf(name, sizeof(name), "%lld %s",
			 (long long)json_integer_value(json_object_get(op, "index")),
			 json_string_value(json_object_get(op, "op")));
		json_t *bx = json_object_get(op, "bit_exact");
		const bool bad = bx && !json_is_true(bx);
		json_t *rep = json_deep_copy(op);
		rename_dram(rep);
		json_array_append_new(ls, sweep_record_layer(name, bad ? "mismatch" : "ok",
							     bad ? "not bit-exact" : "", rep));
	}
	return ls;
}

void sweep_model_record_fill(json_t *rec, const json_t *report)
{
	json_object_set_new(rec, "layers", op_entries(json_object_get(report, "ops")));
	json_t *tot = json_deep_copy(json_object_get(report, "total"));
	/* the accelerator's cycles are the point's cycles, as a layer workload's are */
	json_object_set(tot, "cycles", json_object_get(tot, "accel_cycles"));
	json_object_del(tot, "accel_cycles");
	rename_dram(tot);
	json_object_set_new(rec, "total", tot);
}
