/*
 * vta_yaml.h - a thin, checked layer over libyaml's document API, shared by every YAML
 * reader in vtasim (hardware configs, workloads, sweeps, compression specs).
 *
 * Every error it produces is one line "FILE:LINE:COL: problem" (1-based line and column of
 * the offending node), with status VTA_E_PARSE; the text it quotes from the file goes through
 * vta_quote. A file is read within VTA_LIMIT_YAML bytes and its collections nest at most
 * VTA_LIMIT_YAML_DEPTH deep (vta_file.h), both checked before the document is built.
 */
#ifndef VTA_YAML_H
#define VTA_YAML_H

#include <stdbool.h>
#include <stdint.h>
#include <yaml.h>

#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vta_yaml {
	yaml_document_t doc;
	bool loaded;
	char path[512]; /* the file's name as messages show it (vta_quote_path) */
} vta_yaml;

/* Parse a whole file. An empty file gives an empty document (root NULL). */
vta_status vta_yaml_load_file(const char *path, vta_yaml *y, vta_error *err);
/* Parse a string (for tests); `name` stands in for the path in errors. */
vta_status vta_yaml_load_string(const char *text, const char *name, vta_yaml *y, vta_error *err);
void vta_yaml_free(vta_yaml *y);

yaml_node_t *vta_yaml_root(vta_yaml *y);
yaml_node_t *vta_yaml_node(vta_yaml *y, int id);

/* "FILE:LINE:COL: <message>" at node (node may be NULL: "FILE: <message>"). */
vta_status vta_yaml_fail(const vta_yaml *y, const yaml_node_t *node, vta_status status,
			 vta_error *err, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 5, 6)))
#endif
	;

/* Type checks: `what` names the key in the message ("arch.log_batch"). */
vta_status vta_yaml_expect_mapping(const vta_yaml *y, const yaml_node_t *node, const char *what,
				   vta_error *err);
vta_status vta_yaml_expect_sequence(const vta_yaml *y, const yaml_node_t *node,
				    const char *what, vta_error *err);
/* Reject duplicate keys and non-scalar keys in a mapping. */
vta_status vta_yaml_check_keys(vta_yaml *y, const yaml_node_t *map, const char *what,
			       vta_error *err);
/* The same checks, then the first key not in `allowed` (NULL-terminated) in *unknown, or
 * NULL when every key is known: the caller words that error, each reader its own way. */
vta_status vta_yaml_unknown_key(vta_yaml *y, const yaml_node_t *map, const char *what,
				const char *const *allowed, yaml_node_t **unknown, vta_error *err);
/* `keys` (NULL-terminated) joined by ", " into out, for "expected ..." messages. */
const char *vta_yaml_key_list(const char *const *keys, char *out, size_t size);

/* Scalar readers: errors for wrong type and for values outside [min, max]. */
vta_status vta_yaml_int(const vta_yaml *y, const yaml_node_t *node, const char *what,
			int64_t min, int64_t max, int64_t *out, vta_error *err);
vta_status vta_yaml_u32(const vta_yaml *y, const yaml_node_t *node, const char *what,
			uint32_t min, uint32_t max, uint32_t *out, vta_error *err);
vta_status vta_yaml_double(const vta_yaml *y, const yaml_node_t *node, const char *what,
			   double min, double max, double *out, vta_error *err);
vta_status vta_yaml_bool(const vta_yaml *y, const yaml_node_t *node, const char *what, bool *out,
			 vta_error *err);
/* Copies a scalar string (error if it does not fit in size). */
vta_status vta_yaml_string(const vta_yaml *y, const yaml_node_t *node, const char *what,
			   char *out, size_t size, vta_error *err);
/* The same scalar readers on plain text (NULL: not a scalar), for values that come from
 * elsewhere than a file (vta_config_set): "what: problem" without a position. */
vta_status vta_text_int(const char *s, const char *what, int64_t min, int64_t max, int64_t *out,
			vta_error *err);
vta_status vta_text_double(const char *s, const char *what, double min, double max, double *out,
			   vta_error *err);
vta_status vta_text_bool(const char *s, const char *what, bool *out, vta_error *err);
vta_status vta_text_string(const char *s, const char *what, char *out, size_t size,
			   vta_error *err);
/* Scalar text or NULL if the node is not a scalar. */
const char *vta_yaml_scalar(const yaml_node_t *node);

/* Look up key in a mapping (NULL if absent). */
yaml_node_t *vta_yaml_get(vta_yaml *y, const yaml_node_t *map, const char *key);

#ifdef __cplusplus
}
#endif

#endif /* VTA_YAML_H */
