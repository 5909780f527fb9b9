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

static const char *const filter_op_names[VTA_LUT_FILTERS_COUNT] = {
	[VTA_LUT_FILTERS_CONV_2D] = "CONV_2D",
	[VTA_LUT_FILTERS_DEPTHWISE_CONV_2D] = "DEPTHWISE_CONV_2D",
	[VTA_LUT_FILTERS_FULLY_CONNECTED] = "FULLY_CONNECTED",
};

const char *vta_lut_filter_op_name(vta_lut_filter_op op)
{
	return op > VTA_LUT_FILTERS_NONE && op < VTA_LUT_FILTERS_COUNT ? filter_op_names[op]
								       : NULL;
}

/* A selector's `op:` value, one of filter_op_names. */
static vta_status ls_filter_op(vta_yaml *y, const yaml_node_t *node, vta_lut_filter_op *op,
			       vta_error *err)
{
	char name[32];
	vta_status st = vta_yaml_string(y, node, "op", name, sizeof(name), err);
	for (int k = VTA_LUT_FILTERS_NONE + 1; st == VTA_OK && k < VTA_LUT_FILTERS_COUNT; k++)
		if (!strcmp(name, filter_op_names[k])) {
			*op = (vta_lut_filter_op)k;
			return VTA_OK;
		}
	if (st != VTA_OK && node->type != YAML_SCALAR_NODE)
		return st;
	vta_quoted q;
	return vta_yaml_fail(y, node, VTA_E_PARSE, err,
			     "op: unknown operator type '%s' (expected CONV_2D, "
			     "DEPTHWISE_CONV_2D or FULLY_CONNECTED: a selector picks their "
			     "filters)",
			     vta_quote(&q, vta_yaml_scalar(node)));
}

static vta_status ls_tensor(vta_yaml *y, const yaml_node_t *item, vta_lut_spec_tensor *t,
			    vta_error *err)
{
	static const char *const keys[] = {"subgraph",    "tensor", "op", "min_elements",
					   "compression", NULL};
	vta_status st = ls_keys(y, item, "tensors item", keys, err);
	if (st != VTA_OK)
		return st;
	t->line = (unsigned)item->start_mark.line + 1;
	t->column = (unsigned)item->start_mark.column + 1;
	yaml_node_t *sub = ls_required(y, item, "tensors item", "subgraph", err);
	yaml_node_t *method = sub ? ls_required(y, item, "tensors item", "compression", err)
				  : NULL;
	if (!method)
		return VTA_E_PARSE;
	yaml_node_t *tensor = vta_yaml_get(y, item, "tensor"), *op = vta_yaml_get(y, item, "op");
	yaml_node_t *min = vta_yaml_get(y, item, "min_elements");
	if (!tensor == !op)
		return vta_yaml_fail(y, tensor ? op : item, VTA_E_PARSE, err,
				     "tensors item: expected either 'tensor' (one tensor) or "
				     "'op' (the filters of every such operator)%s",
				     tensor ? ", not both" : "");
	if (min && !op)
		return vta_yaml_fail(y, min, VTA_E_PARSE, err,
				     "min_elements: only a selector ('op') takes it");
	st = vta_yaml_u32(y, sub, "subgraph", 0, UINT32_MAX, &t->subgraph, err);
	if (st == VTA_OK && tensor)
		st = vta_yaml_u32(y, tensor, "tensor", 0, UINT32_MAX, &t->tensor, err);
	if (st == VTA_OK && op)
		st = ls_filter_op(y, op, &t->op, err);
	if (st == VTA_OK && min)
		st = vta_yaml_u32(y, min, "min_elements", 0, UINT32_MAX, &t->min_elements, err);
	if (st == VTA_OK)
		st = ls_method(y, method, &t->index_bitwidth, err);
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
		for (size_t j = 0; j < i && !t->op; j++) {
			const vta_lut_spec_tensor *o = &spec->tensors[j];
			if (!o->op && o->subgraph == t->subgraph && o->tensor == t->tensor)
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

vta_status vta_lut_spec_add_selector(vta_lut_spec *spec, vta_lut_filter_op op,
				     uint32_t min_elements, unsigned index_bitwidth,
				     const char *origin, vta_error *err)
{
	if (!vta_lut_filter_op_name(op) || index_bitwidth < 1 ||
	    index_bitwidth > VTA_LUT_MAX_BITWIDTH)
		return vta_fail(err, VTA_E_USAGE, "%s: no such selector (op %d, %u bits)", origin,
				(int)op, index_bitwidth);
	vta_lut_spec_tensor *grown =
		realloc(spec->tensors, (spec->count + 1) * sizeof(*spec->tensors));
	if (!grown)
		return vta_fail(err, VTA_E_NOMEM, "out of memory");
	spec->tensors = grown;
	spec->tensors[spec->count++] = (vta_lut_spec_tensor){
		.op = op,
		.min_elements = min_elements,
		.index_bitwidth = index_bitwidth,
		.origin = origin,
	};
	return VTA_OK;
}

const vta_lut_spec_tensor *vta_lut_spec_find(const vta_lut_spec *spec, uint32_t subgraph,
					     uint32_t tensor)
{
	if (!spec)
		return NULL;
	for (size_t i = 0; i < spec->count; i++)
		if (!spec->tensors[i].op && spec->tensors[i].subgraph == subgraph &&
		    spec->tensors[i].tensor == tensor)
			return &spec->tensors[i];
	return NULL;
}
