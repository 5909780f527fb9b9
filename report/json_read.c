/* json_read.c - JSON files read within their limit (json_read.h). */
#include "json_read.h"

#include <stdlib.h>

#include "vta_file.h"

json_t *report_json_load(const char *path, vta_error *err)
{
	uint8_t *buf;
	size_t len;
	if (vta_read_file(path, "JSON file", VTA_LIMIT_JSON, &buf, &len, err))
		return NULL;
	json_error_t je;
	json_t *v = json_loadb((const char *)buf, len, 0, &je);
	free(buf);
	if (!v)
		vta_fail(err, VTA_E_PARSE, "%s:%d:%d: %s", path, je.line, je.column, je.text);
	return v;
}
