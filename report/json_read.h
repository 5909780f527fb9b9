/*
 * json_read.h - reading back a JSON file (a report of regress's runs, a sweep's records and
 * manifest) within the size limit of a JSON input (VTA_LIMIT_JSON, isa/vta_file.h): a
 * directory, a device or a file beyond the limit is an error, not a parse of it.
 */
#ifndef VTASIM_JSON_READ_H
#define VTASIM_JSON_READ_H

#include <jansson.h>

#include "vta_status.h"

/* The file's JSON value (json_decref'd by the caller), or NULL with err set:
 * "FILE: problem" or "FILE:LINE:COL: what the JSON parser found". */
json_t *report_json_load(const char *path, vta_error *err);

#endif /* VTASIM_JSON_READ_H */
