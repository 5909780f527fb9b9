/*
 * lut_spec.c - reading TFLM's compression spec YAML, the file that says which tensors of a
 * model to LUT-compress and at what index width. The format, and what it refuses that TFLM's
 * spec.py accepts (unknown keys, huffman and pruning, more than one method): docs/lut.md
 * "The compression spec (YAML)". Built on isa/vta_yaml.h, so every problem is
 * "FILE:LINE:COL: problem" (1-based).
 */
#include "lut.h"

#include <stdlib.h>
#include <string.h>

#include "vta_text.h"
#include "vta_yaml.h"

/* `map` must be a mapping whose keys are in `allowed` (NULL-terminated), each once. */
static vta_status ls_keys(vta_yaml *y, const yaml_node_t *map, const char *what,
			  const char *const *allowed, vta_error *err)
{
	yaml_node_t *k;
	char list[128];
	vta_status st = vta_yaml_expect_mapping(y, map, what, err);
	if (st == VTA_OK)
		st = vta_yaml_unknown_key(y, map, what, allowed, &k, err);
	if (st != VTA_OK || !k)
		return st;
	vta_quoted q;
	return vta_yaml_fail(y, k, VTA_E_PARSE, err, "%s: unknown key '%s' (expected %s)", what,
			     vta_quote(&q, vta_yaml_scalar(k)),
			     vta_yaml_key_list(allowed, list, sizeof(list)));
}

static yaml_node_t *ls_required(vta_yaml *y, const yaml_node_t *map, const char *what,
				const char *key, vta_error *err)
{
	yaml_node_t *v = vta_yaml_get(y, map, key);
	if (!v)
		vta_yaml_fail(y, map, VTA_E_PARSE, err, "%s: missing key '%s'", what, key);
	return v;
}

static vta_status ls_method(vta_yaml *y, const yaml_node_t *list, unsigned *bitwidth,
			    vta_error *err)
{
	vta_status st = vta_yaml_expect_sequence(y, list, "compression", err);
	if (st != VTA_OK)
		return st;
	size_t n = (size_t)(list->data.sequence.items.top - list->data.sequence.items.start);
	if (n != 1)
		return vta_yaml_fail(y, list, VTA_E_PARSE, err,
				     "compression: expected exactly one method, found %zu", n);
	yaml_node_t *m = vta_yaml_node(y, list->data.sequence.items.start[0]);
	static const char *const methods[] = {"lut", "huffman", "pruning", NULL};
	st = ls_keys(y, m, "compression method", methods, err);
	if (st != VTA_OK)
		return st;
	size_t given = (size_t)(m->data.mapping.pairs.top - m->data.mapping.pairs.start);
	if (given != 1)
		return vta_yaml_fail(y, m, VTA_E_PARSE, err,
				     "compression method: expected one of lut, huffman, pruning");
	yaml_node_t *key = vta_yaml_node(y, m->data.mapping.pairs.start[0].key);
	vta_quoted q;
	if (strcmp(vta_yaml_scalar(key), "lut") != 0)
		return vta_yaml_fail(y, key, VTA_E_PARSE, err,
				     "compression method '%s' is not supported (only lut)",
				     vta_quote(&q, vta_yaml_scalar(key)));
	yaml_node_t *lut = vta_yaml_node(y, m->data.mapping.pairs.start[0].value);
	static const char *const lut_keys[] = {"index_bitwidth", NULL};
	st = ls_keys(y, lut, "lut", lut_keys, err);
	if (st != VTA_OK)
		return st;
	yaml_node_t *bw = ls_required(y, lut, "lut", "index_bitwidth", err);
	if (!bw)
		return VTA_E_PARSE;
	uint32_t b;
	st = vta_yaml_u32(y, bw, "index_bitwidth", 1, VTA_LUT_MAX_BITWIDTH, &b, err);
	if (st == VTA_OK)
		*bitwidth = b;
	return st;
}

static vta_status ls_tensor(vta_yaml *y, const yaml_node_t *item, vta_lut_spec_tensor *t,
			    vta_error *err)
{
	static const char *const keys[] = {"subgraph", "tensor", "compression", NULL};
	vta_status st = ls_keys(y, item, "tensors item", keys, err);
	if (st != VTA_OK)
		return st;
	yaml_node_t *v[3];
	for (int i = 0; i < 3; i++)
		if (!(v[i] = ls_required(y, item, "tensors item", keys[i], err)))
			return VTA_E_PARSE;
	st = vta_yaml_u32(y, v[0], "subgraph", 0, UINT32_MAX, &t->subgraph, err);
	if (st == VTA_OK)
		st = vta_yaml_u32(y, v[1], "tensor", 0, UINT32_MAX, &t->tensor, err);
	if (st == VTA_OK)
		st = ls_method(y, v[2], &t->index_bitwidth, err);
	t->line = (unsigned)item->start_mark.line + 1;
	t->column = (unsigned)item->start_mark.column + 1;
	return st;
}

static vta_status ls_root(vta_yaml *y, vta_lut_spec *spec, vta_error *err)
{
	yaml_node_t *root = vta_yaml_root(y);
	if (!root)
		return vta_yaml_fail(y, NULL, VTA_E_PARSE, err,
				     "empty spec: expected a mapping with key 'tensors'");
	static const char *const keys[] = {"tensors", NULL};
	vta_status st = ls_keys(y, root, "spec", keys, err);
	if (st != VTA_OK)
		return st;
	yaml_node_t *list = ls_required(y, root, "spec", "tensors", err);
	if (!list)
		return VTA_E_PARSE;
	st = vta_yaml_expect_sequence(y, list, "tensors", err);
	if (st != VTA_OK)
		return st;
	size_t n = (size_t)(list->data.sequence.items.top - list->data.sequence.items.start);
	spec->tensors = calloc(n ? n : 1, sizeof(*spec->tensors));
	if (!spec->tensors)
		return vta_yaml_fail(y, NULL, VTA_E_NOMEM, err, "out of memory");
	for (size_t i = 0; i < n; i++) {
		yaml_node_t *item = vta_yaml_node(y, list->data.sequence.items.start[i]);
		vta_lut_spec_tensor *t = &spec->tensors[i];
		st = ls_tensor(y, item, t, err);
		if (st != VTA_OK)
			return st;
		for (size_t j = 0; j < i; j++) {
			const vta_lut_spec_tensor *o = &spec->tensors[j];
			if (o->subgraph == t->subgraph && o->tensor == t->tensor)
				return vta_yaml_fail(y, item, VTA_E_PARSE, err,
						     "tensor %u of subgraph %u is already "
						     "specified at line %u",
						     t->tensor, t->subgraph, o->line);
		}
		spec->count = i + 1;
	}
	return VTA_OK;
}

static vta_status ls_finish(vta_yaml *y, vta_status st, vta_lut_spec *spec, vta_error *err)
{
	if (st == VTA_OK)
		st = ls_root(y, spec, err);
	vta_yaml_free(y);
	if (st != VTA_OK)
		vta_lut_spec_free(spec);
	return st;
}

vta_status vta_lut_spec_load(const char *path, vta_lut_spec *spec, vta_error *err)
{
	if (!spec || !path)
		return vta_fail(err, VTA_E_USAGE, "LUT spec: no path or output");
	memset(spec, 0, sizeof(*spec));
	vta_yaml y;
	vta_status st = vta_yaml_load_file(path, &y, err);
	return ls_finish(&y, st, spec, err);
}

vta_status vta_lut_spec_parse(const char *text, const char *name, vta_lut_spec *spec,
			      vta_error *err)
{
	if (!spec || !text)
		return vta_fail(err, VTA_E_USAGE, "LUT spec: no text or output");
	memset(spec, 0, sizeof(*spec));
	vta_yaml y;
	vta_status st = vta_yaml_load_string(text, name ? name : "<spec>", &y, err);
	return ls_finish(&y, st, spec, err);
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
