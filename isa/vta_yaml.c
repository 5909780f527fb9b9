/* vta_yaml.c - checked access to libyaml documents with FILE:LINE:COL errors. */
#include "vta_yaml.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vta_file.h"
#include "vta_text.h"

static vta_status parser_fail(yaml_parser_t *parser, const char *path, vta_error *err)
{
	return vta_fail(err, VTA_E_PARSE, "%s:%zu:%zu: %s%s%s", path,
			parser->problem_mark.line + 1, parser->problem_mark.column + 1,
			parser->problem ? parser->problem : "YAML syntax error",
			parser->context ? " " : "", parser->context ? parser->context : "");
}

/* A first pass over the events, before the document is built: collections nested deeper
 * than VTA_LIMIT_YAML_DEPTH are refused where the first too deep one opens. libyaml's
 * scanner slows down with every open flow collection (a file of `[[[[...` takes minutes),
 * so the pass stops there, after a few dozen events. */
static vta_status check_depth(const unsigned char *text, size_t len, const char *path,
			      vta_error *err)
{
	yaml_parser_t parser;
	if (!yaml_parser_initialize(&parser))
		return vta_fail(err, VTA_E_NOMEM, "%s: cannot initialise the YAML parser", path);
	yaml_parser_set_input_string(&parser, text, len);
	vta_status st = VTA_OK;
	unsigned depth = 0;
	for (;;) {
		yaml_event_t ev;
		if (!yaml_parser_parse(&parser, &ev)) {
			st = parser_fail(&parser, path, err);
			break;
		}
		yaml_event_type_t type = ev.type;
		yaml_mark_t at = ev.start_mark;
		yaml_event_delete(&ev);
		if (type == YAML_SEQUENCE_START_EVENT || type == YAML_MAPPING_START_EVENT) {
			if (++depth > VTA_LIMIT_YAML_DEPTH) {
				st = vta_fail(err, VTA_E_PARSE,
					      "%s:%zu:%zu: collections nested more than %d deep",
					      path, at.line + 1, at.column + 1,
					      VTA_LIMIT_YAML_DEPTH);
				break;
			}
		} else if (type == YAML_SEQUENCE_END_EVENT || type == YAML_MAPPING_END_EVENT) {
			depth--;
		} else if (type == YAML_STREAM_END_EVENT) {
			break;
		}
	}
	yaml_parser_delete(&parser);
	return st;
}

static vta_status load_text(const unsigned char *text, size_t len, vta_yaml *y, vta_error *err)
{
	vta_status st = check_depth(text, len, y->path, err);
	if (st)
		return st;
	yaml_parser_t parser;
	if (!yaml_parser_initialize(&parser))
		return vta_fail(err, VTA_E_NOMEM, "%s: cannot initialise the YAML parser",
				y->path);
	yaml_parser_set_input_string(&parser, text, len);
	if (!yaml_parser_load(&parser, &y->doc))
		st = parser_fail(&parser, y->path, err);
	else
		y->loaded = true;
	yaml_parser_delete(&parser);
	return st;
}

vta_status vta_yaml_load_file(const char *path, vta_yaml *y, vta_error *err)
{
	memset(y, 0, sizeof(*y));
	vta_quoted_path qp; /* the name messages show (vta_text.h) */
	snprintf(y->path, sizeof(y->path), "%s", vta_quote_path(&qp, path));
	uint8_t *text;
	size_t len;
	vta_status st = vta_read_file(path, "YAML file", VTA_LIMIT_YAML, &text, &len, err);
	if (st)
		return st;
	st = load_text(text, len, y, err);
	free(text);
	return st;
}

vta_status vta_yaml_load_string(const char *text, const char *name, vta_yaml *y, vta_error *err)
{
	memset(y, 0, sizeof(*y));
	vta_quoted_path qp; /* the name messages show (vta_text.h) */
	snprintf(y->path, sizeof(y->path), "%s", vta_quote_path(&qp, name));
	return load_text((const unsigned char *)text, strlen(text), y, err);
}

void vta_yaml_free(vta_yaml *y)
{
	if (y->loaded)
		yaml_document_delete(&y->doc);
	y->loaded = false;
}

yaml_node_t *vta_yaml_root(vta_yaml *y)
{
	return y->loaded ? yaml_document_get_root_node(&y->doc) : NULL;
}

yaml_node_t *vta_yaml_node(vta_yaml *y, int id)
{
	return yaml_document_get_node(&y->doc, id);
}

vta_status vta_yaml_fail(const vta_yaml *y, const yaml_node_t *node, vta_status status,
			 vta_error *err, const char *fmt, ...)
{
	char msg[VTA_ERROR_DETAIL_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (node)
		return vta_fail(err, status, "%s:%zu:%zu: %s", y->path, node->start_mark.line + 1,
				node->start_mark.column + 1, msg);
	return vta_fail(err, status, "%s: %s", y->path, msg);
}

const char *vta_yaml_scalar(const yaml_node_t *node)
{
	if (!node || node->type != YAML_SCALAR_NODE)
		return NULL;
	return (const char *)node->data.scalar.value;
}

vta_status vta_yaml_expect_mapping(const vta_yaml *y, const yaml_node_t *node, const char *what,
				   vta_error *err)
{
	if (!node || node->type != YAML_MAPPING_NODE)
		return vta_yaml_fail(y, node, VTA_E_PARSE, err, "%s: expected a mapping", what);
	return VTA_OK;
}

vta_status vta_yaml_expect_sequence(const vta_yaml *y, const yaml_node_t *node,
				    const char *what, vta_error *err)
{
	if (!node || node->type != YAML_SEQUENCE_NODE)
		return vta_yaml_fail(y, node, VTA_E_PARSE, err, "%s: expected a list", what);
	return VTA_OK;
}

vta_status vta_yaml_check_keys(vta_yaml *y, const yaml_node_t *map, const char *what,
			       vta_error *err)
{
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = vta_yaml_node(y, p->key);
		const char *ks = vta_yaml_scalar(k);
		if (!ks)
			return vta_yaml_fail(y, k, VTA_E_PARSE, err, "%s: keys must be plain words",
					     what);
		for (yaml_node_pair_t *q = map->data.mapping.pairs.start; q < p; q++) {
			const char *qs = vta_yaml_scalar(vta_yaml_node(y, q->key));
			vta_quoted q;
			if (qs && strcmp(qs, ks) == 0)
				return vta_yaml_fail(y, k, VTA_E_PARSE, err,
						     "%s: duplicate key '%s'", what,
						     vta_quote(&q, ks));
		}
	}
	return VTA_OK;
}

vta_status vta_yaml_unknown_key(vta_yaml *y, const yaml_node_t *map, const char *what,
				const char *const *allowed, yaml_node_t **unknown, vta_error *err)
{
	*unknown = NULL;
	vta_status st = vta_yaml_check_keys(y, map, what, err);
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start;
	     st == VTA_OK && p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *k = vta_yaml_node(y, p->key);
		const char *const *a = allowed;
		while (*a && strcmp(*a, vta_yaml_scalar(k)) != 0)
			a++;
		if (!*a) {
			*unknown = k;
			break;
		}
	}
	return st;
}

const char *vta_yaml_key_list(const char *const *keys, char *out, size_t size)
{
	out[0] = '\0';
	for (const char *const *a = keys; *a; a++) {
		if (a != keys)
			strncat(out, ", ", size - strlen(out) - 1);
		strncat(out, *a, size - strlen(out) - 1);
	}
	return out;
}

yaml_node_t *vta_yaml_get(vta_yaml *y, const yaml_node_t *map, const char *key)
{
	if (!map || map->type != YAML_MAPPING_NODE)
		return NULL;
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
	     p++) {
		const char *ks = vta_yaml_scalar(vta_yaml_node(y, p->key));
		if (ks && strcmp(ks, key) == 0)
			return vta_yaml_node(y, p->value);
	}
	return NULL;
}

/* The node readers are the text readers plus the node's position. */
static vta_status at_node(const vta_yaml *y, const yaml_node_t *node, vta_status st,
			  const vta_error *e, vta_error *err)
{
	return st ? vta_yaml_fail(y, node, st, err, "%s", e->detail) : VTA_OK;
}

vta_status vta_yaml_int(const vta_yaml *y, const yaml_node_t *node, const char *what,
			int64_t min, int64_t max, int64_t *out, vta_error *err)
{
	vta_error e = {0};
	return at_node(y, node, vta_text_int(vta_yaml_scalar(node), what, min, max, out, &e), &e,
		       err);
}

vta_status vta_yaml_u32(const vta_yaml *y, const yaml_node_t *node, const char *what,
			uint32_t min, uint32_t max, uint32_t *out, vta_error *err)
{
	int64_t v;
	vta_status st = vta_yaml_int(y, node, what, min, max, &v, err);
	if (st == VTA_OK)
		*out = (uint32_t)v;
	return st;
}

vta_status vta_yaml_double(const vta_yaml *y, const yaml_node_t *node, const char *what,
			   double min, double max, double *out, vta_error *err)
{
	vta_error e = {0};
	return at_node(y, node, vta_text_double(vta_yaml_scalar(node), what, min, max, out, &e),
		       &e, err);
}

vta_status vta_yaml_bool(const vta_yaml *y, const yaml_node_t *node, const char *what, bool *out,
			 vta_error *err)
{
	vta_error e = {0};
	return at_node(y, node, vta_text_bool(vta_yaml_scalar(node), what, out, &e), &e, err);
}

vta_status vta_yaml_string(const vta_yaml *y, const yaml_node_t *node, const char *what,
			   char *out, size_t size, vta_error *err)
{
	vta_error e = {0};
	return at_node(y, node, vta_text_string(vta_yaml_scalar(node), what, out, size, &e), &e,
		       err);
}

vta_status vta_text_int(const char *s, const char *what, int64_t min, int64_t max, int64_t *out,
			vta_error *err)
{
	if (!s || !*s)
		return vta_fail(err, VTA_E_PARSE, "%s: expected an integer", what);
	char *end = NULL;
	errno = 0;
	long long v = strtoll(s, &end, 0);
	vta_quoted q;
	if (errno || *end != '\0')
		return vta_fail(err, VTA_E_PARSE, "%s: expected an integer, got '%s'", what,
				vta_quote(&q, s));
	if (v < min || v > max)
		return vta_fail(err, VTA_E_PARSE,
				"%s: %lld is out of range [%" PRId64 ", %" PRId64 "]", what, v, min,
				max);
	*out = v;
	return VTA_OK;
}

vta_status vta_text_double(const char *s, const char *what, double min, double max, double *out,
			   vta_error *err)
{
	if (!s || !*s)
		return vta_fail(err, VTA_E_PARSE, "%s: expected a number", what);
	char *end = NULL;
	errno = 0;
	double v = strtod(s, &end);
	vta_quoted q;
	if (errno || *end != '\0' || !isfinite(v))
		return vta_fail(err, VTA_E_PARSE, "%s: expected a number, got '%s'", what,
				vta_quote(&q, s));
	if (v < min || v > max)
		return vta_fail(err, VTA_E_PARSE, "%s: %g is out of range [%g, %g]", what, v, min,
				max);
	*out = v;
	return VTA_OK;
}

vta_status vta_text_bool(const char *s, const char *what, bool *out, vta_error *err)
{
	if (s && (!strcmp(s, "true") || !strcmp(s, "True") || !strcmp(s, "yes"))) {
		*out = true;
		return VTA_OK;
	}
	if (s && (!strcmp(s, "false") || !strcmp(s, "False") || !strcmp(s, "no"))) {
		*out = false;
		return VTA_OK;
	}
	vta_quoted q;
	return vta_fail(err, VTA_E_PARSE, "%s: expected true or false%s%s%s", what,
			s ? ", got '" : "", s ? vta_quote(&q, s) : "", s ? "'" : "");
}

vta_status vta_text_string(const char *s, const char *what, char *out, size_t size,
			   vta_error *err)
{
	if (!s)
		return vta_fail(err, VTA_E_PARSE, "%s: expected a string", what);
	if (strlen(s) >= size)
		return vta_fail(err, VTA_E_PARSE, "%s: longer than %zu characters", what, size - 1);
	memcpy(out, s, strlen(s) + 1);
	return VTA_OK;
}
