/*
 * tflite_select.c - a compression spec's selectors resolved against a model: `op: CONV_2D`
 * with `min_elements: N` stands for the constant filter (input 1) of every CONV_2D operator of
 * subgraph 0 holding at least N elements, so a model's 65 filters need one line, not 65
 * (docs/lut.md "Selectors").
 *
 * Precedence: a tensor entry is the most specific, so a tensor it names is left to it
 * wherever the entry stands; a tensor two selectors pick goes to the earlier. A selector of
 * the file that picks nothing is an error (it says something the model does not hold); the
 * selectors of one other origin (`--filters`) are an error only when none of them picks
 * anything, since one such option stands for all three operator types.
 */
#include "tflite_compress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether tensor idx is some tensor entry's, or already taken by an earlier entry of out. */
static bool taken(const vta_lut_spec *spec, const vta_lut_spec *out, int32_t idx)
{
	for (size_t i = 0; i < spec->count; i++)
		if (!spec->tensors[i].op && spec->tensors[i].tensor == (uint32_t)idx)
			return true;
	for (size_t i = 0; i < out->count; i++)
		if (out->tensors[i].tensor == (uint32_t)idx)
			return true;
	return false;
}

/* The filter of op when a selector for `name` with `min` elements picks it, else -1. */
static int32_t picked_filter(const vta_tfl_model *m, const vta_tfl_op *op, const char *name,
			     uint32_t min)
{
	char buf[32];
	if (op->custom || strcmp(vta_tfl_op_name(op->builtin, buf, sizeof(buf)), name) != 0 ||
	    op->n_inputs < 2)
		return -1;
	int32_t f = op->inputs[1];
	if (f < 0 || (size_t)f >= m->n_tensors)
		return -1;
	const vta_tfl_tensor *t = &m->tensors[f];
	/* constants only: a filter another operator computes is no spec's business */
	if (t->is_variable || !t->data || !t->count || t->count < min)
		return -1;
	return f;
}

static vta_status push(vta_lut_spec *out, const vta_lut_spec_tensor *e, vta_error *err)
{
	vta_lut_spec_tensor *grown = realloc(out->tensors, (out->count + 1) * sizeof(*grown));
	if (!grown)
		return vta_fail(err, VTA_E_NOMEM, "out of memory resolving the spec");
	out->tensors = grown;
	out->tensors[out->count++] = *e;
	return VTA_OK;
}

/* The message for selectors that picked nothing: at the file's item, or for an origin. */
static vta_status none_picked(const vta_tfl_model *m, const vta_lut_spec_tensor *e,
			      const char *spec_name, vta_error *err)
{
	char size[48] = "";
	if (e->min_elements)
		snprintf(size, sizeof(size), " of at least %u elements", e->min_elements);
	if (e->origin)
		return vta_fail(err, VTA_E_DATA,
				"%s: %s has no constant CONV_2D, DEPTHWISE_CONV_2D or "
				"FULLY_CONNECTED filter%s",
				e->origin, m->name, size);
	return vta_fail(err, VTA_E_DATA, "%s:%u:%u: op %s: %s has no constant %s filter%s",
			spec_name, e->line, e->column, vta_lut_filter_op_name(e->op), m->name,
			vta_lut_filter_op_name(e->op), size);
}

vta_status vta_tfl_spec_resolve(const vta_tfl_model *m, const vta_lut_spec *spec,
				const char *spec_name, vta_lut_spec *out, vta_error *err)
{
	memset(out, 0, sizeof(*out));
	size_t *picks = calloc(spec->count ? spec->count : 1, sizeof(*picks));
	if (!picks)
		return vta_fail(err, VTA_E_NOMEM, "out of memory resolving the spec");
	vta_status st = VTA_OK;
	for (size_t i = 0; st == VTA_OK && i < spec->count; i++) {
		const vta_lut_spec_tensor *e = &spec->tensors[i];
		if (!e->op) {
			st = push(out, e, err);
			continue;
		}
		if (e->subgraph != 0) {
			st = vta_fail(err, VTA_E_PARSE, "%s:%u:%u: subgraph %u: only subgraph 0 is read",
				      spec_name, e->line, e->column, e->subgraph);
			break;
		}
		const char *name = vta_lut_filter_op_name(e->op);
		for (size_t k = 0; st == VTA_OK && k < m->n_ops; k++) {
			int32_t f = picked_filter(m, &m->ops[k], name, e->min_elements);
			if (f < 0)
				continue;
			picks[i]++;
			if (taken(spec, out, f))
				continue;
			vta_lut_spec_tensor t = *e;
			t.op = VTA_LUT_FILTERS_NONE;
			t.tensor = (uint32_t)f;
			st = push(out, &t, err);
		}
	}
	/* a file's selector picks something; the selectors of one origin do, together */
	for (size_t i = 0; st == VTA_OK && i < spec->count; i++) {
		const vta_lut_spec_tensor *e = &spec->tensors[i];
		if (!e->op || picks[i])
			continue;
		size_t together = 0;
		for (size_t j = 0; e->origin && j < spec->count; j++)
			if (spec->tensors[j].op && spec->tensors[j].origin == e->origin)
				together += picks[j];
		if (!together)
			st = none_picked(m, e, spec_name, err);
	}
	free(picks);
	if (st != VTA_OK)
		vta_lut_spec_free(out);
	return st;
}
