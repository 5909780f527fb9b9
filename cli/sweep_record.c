/*
 * sweep_record.c - the files a sweep writes: a point's record (its key, status, error and
 * seconds, to which the point adds its run report), written through a temporary file and a
 * rename so a reader never sees half of one, and the folders they go in.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
	json_object_set_new(r, "format", json_string("vtasim sweep point 1"));
	json_object_set_new(r, "key", json_string(key));
	json_object_set_new(r, "status", json_string(status));
	json_object_set_new(r, "error", json_string(error ? error : ""));
	json_object_set_new(r, "seconds", json_real(seconds));
	return r;
}

vta_status sweep_record_failure(const char *records, const char *key, const char *status,
				const char *error, double seconds, vta_error *err)
{
	char path[SW_PATH_MAX + 80];
	snprintf(path, sizeof(path), "%s/%s.json", records, key);
	json_t *r = sweep_record_new(key, status, error, seconds);
	vta_status st = sweep_write_json_atomic(r, path, err);
	json_decref(r);
	return st;
}
