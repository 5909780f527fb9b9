/*
 * lut_spec.c - reading TFLM's compression spec YAML, the file that says which tensors of a
 * model to LUT-compress and at what index width:
 *
 *   tensors:
 *     - subgraph: 0
 *       tensor: 5
 *       compression:
 *         - lut:
 *             index_bitwidth: 4
 *
 * Parsed with libyaml's document API so every node keeps its position; each problem is
 * reported as "FILE:LINE:COL: problem" (1-based). Stricter than TFLM's spec.py, which
 * ignores unknown keys: here they are errors, as everywhere in vtasim's inputs. huffman and
 * pruning are recognised and refused (TFLM's compressors for them are stubs).
 */
#include "lut.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

typedef struct ls_ctx {
	const char *name;
	yaml_document_t *doc;
	vta_error *err;
} ls_ctx;

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static vta_status ls_fail(const ls_ctx *cx, const yaml_node_t *node, const char *fmt, ...)
{
	char msg[VTA_ERROR_DETAIL_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	size_t line = node ? node->start_mark.line + 1 : 1;
	size_t col = node ? node->start_mark.column + 1 : 1;
	return vta_fail(cx->err, VTA_E_PARSE, "%s:%zu:%zu: %s", cx->name, line, col, msg);
}

static const char *ls_kind(const yaml_node_t *n)
{
	switch (n->type) {
	case YAML_SCALAR_NODE: return "a scalar";
	case YAML_SEQUENCE_NODE: return "a list";
	case YAML_MAPPING_NODE: return "a mapping";
	default: return "nothing";
	}
}

static bool ls_is_null(const yaml_node_t *n)
{
	if (n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	const char *s = (const char *)n->data.scalar.value;
	return s[0] == '\0' || !strcmp(s, "~") || !strcmp(s, "null");
}

static vta_status ls_expect(const ls_ctx *cx, const yaml_node_t *n, yaml_node_type_t type,
			    const char *what)
{
	if (n->type == type && !ls_is_null(n))
		return VTA_OK;
	const char *want = type == YAML_MAPPING_NODE ? "a mapping"
			 : type == YAML_SEQUENCE_NODE ? "a list" : "a scalar";
	return ls_fail(cx, n, "%s: expected %s, found %s", what, want,
		       ls_is_null(n) ? "an empty value" : ls_kind(n));
}

/* Non-negative decimal integer in [lo, hi]. */
static vta_status ls_uint(const ls_ctx *cx, const yaml_node_t *n, const char *what,
			  unsigned long lo, unsigned long hi, unsigned long *out)
{
	vta_status st = ls_expect(cx, n, YAML_SCALAR_NODE, what);
	if (st != VTA_OK)
		return st;
	const char *s = (const char *)n->data.scalar.value;
	bool digits = n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE && s[0] != '\0';
	unsigned long v = 0;
	for (const char *p = s; digits && *p; p++) {
		if (*p < '0' || *p > '9' || v > (0xffffffffUL - 9) / 10)
			digits = false;
		else
			v = v * 10 + (unsigned long)(*p - '0');
	}
	if (!digits)
		return ls_fail(cx, n, "%s: expected an integer in %lu..%lu, found '%s'", what, lo,
			       hi, s);
	if (v < lo || v > hi)
		return ls_fail(cx, n, "%s: %lu is outside %lu..%lu", what, v, lo, hi);
	*out = v;
	return VTA_OK;
}

/* Walk a mapping: every key must be a scalar from `keys` and appear once; values[i] gets the
 * node of keys[i] or NULL. */
static vta_status ls_fields(const ls_ctx *cx, const yaml_node_t *map, const char *what,
			    const char *const *keys, size_t nkeys, yaml_node_t **values)
{
	for (size_t i = 0; i < nkeys; i++)
		values[i] = NULL;
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = yaml_document_get_node(cx->doc, p->key);
		yaml_node_t *v = yaml_document_get_node(cx->doc, p->value);
		if (k->type != YAML_SCALAR_NODE)
			return ls_fail(cx, k, "%s: keys must be plain names", what);
		const char *name = (const char *)k->data.scalar.value;
		size_t i = 0;
		while (i < nkeys && strcmp(name, keys[i]) != 0)
			i++;
		if (i == nkeys) {
			char list[128] = "";
			for (size_t j = 0; j < nkeys; j++) {
				strncat(list, j ? ", " : "", sizeof(list) - strlen(list) - 1);
				strncat(list, keys[j], sizeof(list) - strlen(list) - 1);
			}
			return ls_fail(cx, k, "%s: unknown key '%s' (expected %s)", what, name,
				       list);
		}
		if (values[i])
			return ls_fail(cx, k, "%s: duplicate key '%s'", what, name);
		values[i] = v;
	}
	return VTA_OK;
}

static vta_status ls_method(const ls_ctx *cx, const yaml_node_t *list, unsigned *bitwidth)
{
	vta_status st = ls_expect(cx, list, YAML_SEQUENCE_NODE, "compression");
	if (st != VTA_OK)
		return st;
	size_t n = (size_t)(list->data.sequence.items.top - list->data.sequence.items.start);
	if (n != 1)
		return ls_fail(cx, list, "compression: expected exactly one method, found %zu", n);
	yaml_node_t *m = yaml_document_get_node(cx->doc, list->data.sequence.items.start[0]);
	st = ls_expect(cx, m, YAML_MAPPING_NODE, "compression method");
	if (st != VTA_OK)
		return st;
	/* huffman and pruning are accepted by the key walk only to refuse them by name. */
	static const char *const keys[] = {"lut", "huffman", "pruning"};
	yaml_node_t *v[3];
	st = ls_fields(cx, m, "compression method", keys, 3, v);
	if (st != VTA_OK)
		return st;
	size_t given = (v[0] != NULL) + (v[1] != NULL) + (v[2] != NULL);
	if (given != 1)
		return ls_fail(cx, m, "compression method: expected one of lut, huffman, pruning");
	if (!v[0])
		return ls_fail(cx, v[1] ? v[1] : v[2],
			       "compression method '%s' is not supported (only lut)",
			       v[1] ? "huffman" : "pruning");
	st = ls_expect(cx, v[0], YAML_MAPPING_NODE, "lut");
	if (st != VTA_OK)
		return st;
	static const char *const lut_keys[] = {"index_bitwidth"};
	yaml_node_t *bw;
	st = ls_fields(cx, v[0], "lut", lut_keys, 1, &bw);
	if (st != VTA_OK)
		return st;
	if (!bw)
		return ls_fail(cx, v[0], "lut: missing key 'index_bitwidth'");
	unsigned long b;
	st = ls_uint(cx, bw, "index_bitwidth", 1, VTA_LUT_MAX_BITWIDTH, &b);
	if (st != VTA_OK)
		return st;
	*bitwidth = (unsigned)b;
	return VTA_OK;
}

static vta_status ls_tensor(const ls_ctx *cx, const yaml_node_t *item, vta_lut_spec_tensor *t)
{
	vta_status st = ls_expect(cx, item, YAML_MAPPING_NODE, "tensors item");
	if (st != VTA_OK)
		return st;
	static const char *const keys[] = {"subgraph", "tensor", "compression"};
	yaml_node_t *v[3];
	st = ls_fields(cx, item, "tensors item", keys, 3, v);
	if (st != VTA_OK)
		return st;
	for (size_t i = 0; i < 3; i++)
		if (!v[i])
			return ls_fail(cx, item, "tensors item: missing key '%s'", keys[i]);
	unsigned long sg, tn;
	st = ls_uint(cx, v[0], "subgraph", 0, 0xffffffffUL, &sg);
	if (st == VTA_OK)
		st = ls_uint(cx, v[1], "tensor", 0, 0xffffffffUL, &tn);
	if (st == VTA_OK)
		st = ls_method(cx, v[2], &t->index_bitwidth);
	if (st != VTA_OK)
		return st;
	t->subgraph = (uint32_t)sg;
	t->tensor = (uint32_t)tn;
	t->line = (unsigned)item->start_mark.line + 1;
	t->column = (unsigned)item->start_mark.column + 1;
	return VTA_OK;
}

static vta_status ls_root(const ls_ctx *cx, vta_lut_spec *spec)
{
	yaml_node_t *root = yaml_document_get_root_node(cx->doc);
	if (!root)
		return ls_fail(cx, NULL, "empty spec: expected a mapping with key 'tensors'");
	vta_status st = ls_expect(cx, root, YAML_MAPPING_NODE, "spec");
	if (st != VTA_OK)
		return st;
	static const char *const keys[] = {"tensors"};
	yaml_node_t *list;
	st = ls_fields(cx, root, "spec", keys, 1, &list);
	if (st != VTA_OK)
		return st;
	if (!list)
		return ls_fail(cx, root, "spec: missing key 'tensors'");
	st = ls_expect(cx, list, YAML_SEQUENCE_NODE, "tensors");
	if (st != VTA_OK)
		return st;
	size_t n = (size_t)(list->data.sequence.items.top - list->data.sequence.items.start);
	spec->tensors = calloc(n ? n : 1, sizeof(*spec->tensors));
	if (!spec->tensors)
		return vta_fail(cx->err, VTA_E_NOMEM, "%s: out of memory", cx->name);
	for (size_t i = 0; i < n; i++) {
		yaml_node_t *item =
			yaml_document_get_node(cx->doc, list->data.sequence.items.start[i]);
		vta_lut_spec_tensor *t = &spec->tensors[i];
		st = ls_tensor(cx, item, t);
		if (st != VTA_OK)
			return st;
		for (size_t j = 0; j < i; j++) {
			const vta_lut_spec_tensor *o = &spec->tensors[j];
			if (o->subgraph == t->subgraph && o->tensor == t->tensor)
				return ls_fail(cx, item,
					       "tensor %u of subgraph %u is already specified at "
					       "line %u",
					       t->tensor, t->subgraph, o->line);
		}
		spec->count = i + 1;
	}
	return VTA_OK;
}

vta_status vta_lut_spec_parse(const char *name, const char *text, size_t len, vta_lut_spec *spec,
			      vta_error *err)
{
	if (!spec)
		return vta_fail(err, VTA_E_USAGE, "LUT spec: no output");
	memset(spec, 0, sizeof(*spec));
	if (!text && len > 0)
		return vta_fail(err, VTA_E_USAGE, "LUT spec: no text");
	if (!name)
		name = "<spec>";

	yaml_parser_t parser;
	yaml_document_t doc;
	if (!yaml_parser_initialize(&parser))
		return vta_fail(err, VTA_E_NOMEM, "%s: out of memory", name);
	yaml_parser_set_input_string(&parser, (const unsigned char *)(text ? text : ""), len);
	if (!yaml_parser_load(&parser, &doc)) {
		vta_status st = vta_fail(err, VTA_E_PARSE, "%s:%zu:%zu: %s%s%s", name,
					 parser.problem_mark.line + 1,
					 parser.problem_mark.column + 1,
					 parser.problem ? parser.problem : "malformed YAML",
					 parser.context ? " " : "",
					 parser.context ? parser.context : "");
		yaml_parser_delete(&parser);
		return st;
	}
	ls_ctx cx = {.name = name, .doc = &doc, .err = err};
	vta_status st = ls_root(&cx, spec);
	if (st == VTA_OK) {
		/* A second document would be silently ignored: refuse it. */
		yaml_document_t next;
		if (!yaml_parser_load(&parser, &next)) {
			st = vta_fail(err, VTA_E_PARSE, "%s:%zu:%zu: %s", name,
				      parser.problem_mark.line + 1, parser.problem_mark.column + 1,
				      parser.problem ? parser.problem : "malformed YAML");
		} else {
			yaml_node_t *r = yaml_document_get_root_node(&next);
			if (r)
				st = vta_fail(err, VTA_E_PARSE,
					      "%s:%zu:%zu: expected one YAML document, found a "
					      "second",
					      name, r->start_mark.line + 1,
					      r->start_mark.column + 1);
			yaml_document_delete(&next);
		}
	}
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	if (st != VTA_OK)
		vta_lut_spec_free(spec);
	return st;
}

vta_status vta_lut_spec_load(const char *path, vta_lut_spec *spec, vta_error *err)
{
	if (!spec || !path)
		return vta_fail(err, VTA_E_USAGE, "LUT spec: no path or output");
	memset(spec, 0, sizeof(*spec));
	FILE *f = fopen(path, "rb");
	if (!f)
		return vta_fail(err, VTA_E_IO, "%s: cannot open: %s", path, strerror(errno));
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);
	vta_status st = VTA_OK;
	while (buf) {
		len += fread(buf + len, 1, cap - len, f);
		if (len < cap)
			break;
		char *nb = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
		if (!nb) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = nb;
		cap *= 2;
	}
	if (!buf)
		st = vta_fail(err, VTA_E_NOMEM, "%s: out of memory", path);
	else if (ferror(f))
		st = vta_fail(err, VTA_E_IO, "%s: read error: %s", path, strerror(errno));
	fclose(f);
	if (st == VTA_OK)
		st = vta_lut_spec_parse(path, buf, len, spec, err);
	free(buf);
	return st;
}

void vta_lut_spec_free(vta_lut_spec *spec)
{
	if (!spec)
		return;
	free(spec->tensors);
	spec->tensors = NULL;
	spec->count = 0;
}

const vta_lut_spec_tensor *vta_lut_spec_find(const vta_lut_spec *spec, uint32_t subgraph,
					     uint32_t tensor)
{
	if (!spec)
		return NULL;
	for (size_t i = 0; i < spec->count; i++)
		if (spec->tensors[i].subgraph == subgraph && spec->tensors[i].tensor == tensor)
			return &spec->tensors[i];
	return NULL;
}
