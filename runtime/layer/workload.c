/*
 * workload.c - parse and validate the workload YAML (see workload.h, docs/workload.md).
 * Every problem is reported as FILE:LINE:COL with the key that is wrong.
 */
#include "workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_run.h"
#include "tflite_model.h"
#include "vta_file.h"
#include "vta_text.h"
#include "vta_yaml.h"

typedef struct ctx {
	vta_yaml y;
	char dir[VTA_WL_PATH_MAX / 2 - 1];
	vta_error *err;
} ctx;

/* `map` must be a mapping whose keys are all in `allowed`, each once. */
static vta_status expect_keys(ctx *c, const yaml_node_t *map, const char *what,
			      const char *const *allowed)
{
	yaml_node_t *k;
	char list[256];
	vta_status st;
	if ((st = vta_yaml_expect_mapping(&c->y, map, what, c->err)) ||
	    (st = vta_yaml_unknown_key(&c->y, map, what, allowed, &k, c->err)) || !k)
		return st;
	vta_quoted q;
	return vta_yaml_fail(&c->y, k, VTA_E_PARSE, c->err,
			     "%s: unknown key '%s' (expected one of: %s)", what,
			     vta_quote(&q, vta_yaml_scalar(k)),
			     vta_yaml_key_list(allowed, list, sizeof(list)));
}

static vta_status need(ctx *c, const yaml_node_t *map, const char *key, const char *what,
		       yaml_node_t **out)
{
	*out = vta_yaml_get(&c->y, map, key);
	if (!*out)
		return vta_yaml_fail(&c->y, map, VTA_E_PARSE, c->err, "%s: missing '%s'", what,
				     key);
	return VTA_OK;
}

/* Paths in a workload are relative to the workload file's folder. */
static void resolve_path(const ctx *c, const char *rel, char *out)
{
	size_t n = 0;
	if (rel[0] != '/' && c->dir[0]) {
		n = strlen(c->dir);
		memcpy(out, c->dir, n);
		out[n++] = '/';
	}
	size_t m = strlen(rel);
	if (n + m >= VTA_WL_PATH_MAX)
		m = VTA_WL_PATH_MAX - 1 - n;
	memcpy(out + n, rel, m);
	out[n + m] = '\0';
}

static vta_status parse_data(ctx *c, const yaml_node_t *node, const char *what, vta_wl_data *d)
{
	static const char *const keys[] = {"random", "raw", "npy", NULL};
	vta_status st;
	if ((st = expect_keys(c, node, what, keys)))
		return st;
	if (node->data.mapping.pairs.top - node->data.mapping.pairs.start != 1)
		return vta_yaml_fail(&c->y, node, VTA_E_PARSE, c->err,
				     "%s: give exactly one of random, raw, npy", what);
	yaml_node_pair_t *p = node->data.mapping.pairs.start;
	const char *kind = vta_yaml_scalar(vta_yaml_node(&c->y, p->key));
	yaml_node_t *v = vta_yaml_node(&c->y, p->value);
	char sub[96];
	snprintf(sub, sizeof(sub), "%s.%s", what, kind);
	if (!strcmp(kind, "random")) {
		static const char *const rkeys[] = {"seed", "min", "max", NULL};
		d->source = VTA_WL_RANDOM;
		yaml_node_t *seed;
		int64_t s;
		if ((st = expect_keys(c, v, sub, rkeys)) || (st = need(c, v, "seed", sub, &seed)) ||
		    (st = vta_yaml_int(&c->y, seed, "seed", 0, INT64_MAX, &s, c->err)))
			return st;
		d->seed = (uint64_t)s;
		yaml_node_t *mn = vta_yaml_get(&c->y, v, "min"), *mx = vta_yaml_get(&c->y, v, "max");
		if (!mn != !mx)
			return vta_yaml_fail(&c->y, v, VTA_E_PARSE, c->err,
					     "%s: give both min and max, or neither", sub);
		if (mn) {
			d->has_range = true;
			if ((st = vta_yaml_double(&c->y, mn, "min", -1e12, 1e12, &d->min, c->err)) ||
			    (st = vta_yaml_double(&c->y, mx, "max", -1e12, 1e12, &d->max, c->err)))
				return st;
			if (d->min > d->max)
				return vta_yaml_fail(&c->y, mn, VTA_E_PARSE, c->err,
						     "%s: min %g is above max %g", sub, d->min,
						     d->max);
		}
		return VTA_OK;
	}
	char rel[VTA_WL_PATH_MAX / 2];
	if ((st = vta_yaml_string(&c->y, v, sub, rel, sizeof(rel), c->err)))
		return st;
	d->source = !strcmp(kind, "raw") ? VTA_WL_RAW : VTA_WL_NPY;
	resolve_path(c, rel, d->path);
	return VTA_OK;
}

static vta_status parse_shape(ctx *c, const yaml_node_t *node, const char *what, vta_wl_tensor *t)
{
	vta_status st = vta_yaml_expect_sequence(&c->y, node, what, c->err);
	if (st)
		return st;
	int n = (int)(node->data.sequence.items.top - node->data.sequence.items.start);
	if (n < 1 || n > 4)
		return vta_yaml_fail(&c->y, node, VTA_E_PARSE, c->err,
				     "%s: expected 1 to 4 dimensions, got %d", what, n);
	t->rank = n;
	uint64_t elements = 1;
	for (int i = 0; i < n; i++) {
		int64_t v;
		yaml_node_t *it = vta_yaml_node(&c->y, node->data.sequence.items.start[i]);
		if ((st = vta_yaml_int(&c->y, it, what, 1, 1 << 20, &v, c->err)))
			return st;
		t->shape[i] = (int32_t)v;
		elements *= (uint64_t)v; /* checked at every step, so it cannot overflow */
		if (elements > VTA_WL_MAX_ELEMENTS)
			return vta_yaml_fail(&c->y, node, VTA_E_PARSE, c->err,
					     "%s: more than %llu elements", what,
					     (unsigned long long)VTA_WL_MAX_ELEMENTS);
	}
	return VTA_OK;
}

static vta_status parse_scales(ctx *c, const yaml_node_t *node, const char *what,
			       vta_wl_scales *s)
{
	vta_status st;
	s->present = true;
	if (node->type == YAML_SCALAR_NODE) {
		double v;
		if ((st = vta_yaml_double(&c->y, node, what, 1e-30, 1e30, &v, c->err)))
			return st;
		s->values = malloc(sizeof(float));
		if (!s->values)
			return vta_fail(c->err, VTA_E_NOMEM, "out of memory");
		s->values[0] = (float)v;
		s->count = 1;
		return VTA_OK;
	}
	if (node->type == YAML_SEQUENCE_NODE) {
		size_t n = (size_t)(node->data.sequence.items.top - node->data.sequence.items.start);
		if (n == 0)
			return vta_yaml_fail(&c->y, node, VTA_E_PARSE, c->err, "%s: empty list", what);
		s->values = calloc(n, sizeof(float));
		if (!s->values)
			return vta_fail(c->err, VTA_E_NOMEM, "out of memory");
		s->count = n;
		for (size_t i = 0; i < n; i++) {
			double v;
			yaml_node_t *it = vta_yaml_node(&c->y, node->data.sequence.items.start[i]);
			if ((st = vta_yaml_double(&c->y, it, what, 1e-30, 1e30, &v, c->err)))
				return st;
			s->values[i] = (float)v;
		}
		return VTA_OK;
	}
	/* {random: {seed, min, max}} */
	static const char *const keys[] = {"random", NULL};
	static const char *const rkeys[] = {"seed", "min", "max", NULL};
	if ((st = expect_keys(c, node, what, keys)))
		return st;
	yaml_node_t *r = vta_yaml_get(&c->y, node, "random");
	if (!r)
		return vta_yaml_fail(&c->y, node, VTA_E_PARSE, c->err,
				     "%s: expected a number, a list or {random: {seed: N}}", what);
	if ((st = expect_keys(c, r, what, rkeys)))
		return st;
	s->random = true;
	s->min = 0.002;
	s->max = 0.02;
	int64_t seed;
	yaml_node_t *sn;
	if ((st = need(c, r, "seed", what, &sn)) ||
	    (st = vta_yaml_int(&c->y, sn, "seed", 0, INT64_MAX, &seed, c->err)))
		return st;
	s->seed = (uint64_t)seed;
	yaml_node_t *mn = vta_yaml_get(&c->y, r, "min"), *mx = vta_yaml_get(&c->y, r, "max");
	if (mn && (st = vta_yaml_double(&c->y, mn, "min", 1e-30, 1e30, &s->min, c->err)))
		return st;
	if (mx && (st = vta_yaml_double(&c->y, mx, "max", 1e-30, 1e30, &s->max, c->err)))
		return st;
	if (s->min > s->max)
		return vta_yaml_fail(&c->y, r, VTA_E_PARSE, c->err, "%s: min above max", what);
	return VTA_OK;
}

static vta_status parse_compression(ctx *c, const yaml_node_t *node, const char *what,
				    vta_wl_tensor *t)
{
	static const char *const keys[] = {"lut", NULL};
	static const char *const lkeys[] = {"index_bitwidth", "per_channel", NULL};
	vta_status st;
	if ((st = expect_keys(c, node, what, keys)))
		return st;
	yaml_node_t *lut = vta_yaml_get(&c->y, node, "lut");
	if (!lut)
		return vta_yaml_fail(&c->y, node, VTA_E_PARSE, c->err, "%s: expected lut", what);
	if ((st = expect_keys(c, lut, "lut", lkeys)))
		return st;
	yaml_node_t *bw;
	uint32_t b;
	if ((st = need(c, lut, "index_bitwidth", "lut", &bw)) ||
	    (st = vta_yaml_u32(&c->y, bw, "lut.index_bitwidth", 1, 7, &b, c->err)))
		return st;
	t->compressed = true;
	t->index_bitwidth = b;
	yaml_node_t *pc = vta_yaml_get(&c->y, lut, "per_channel");
	if (pc && (st = vta_yaml_bool(&c->y, pc, "lut.per_channel", &t->per_channel, c->err)))
		return st;
	return VTA_OK;
}

/* role: "input", "filter", "bias", "inputs[i]" */
static vta_status parse_tensor(ctx *c, const yaml_node_t *node, const char *what,
			       vta_wl_tensor *t, bool is_filter, bool is_bias)
{
	static const char *const keys[] = {"shape", "scale", "scales", "zero_point", "data",
					   "compression", NULL};
	vta_status st;
	if ((st = expect_keys(c, node, what, keys)))
		return st;
	t->present = true;
	t->line = (int)node->start_mark.line + 1;
	t->col = (int)node->start_mark.column + 1;
	t->per_channel = is_filter || is_bias;
	char sub[96];
	yaml_node_t *n;
	if ((n = vta_yaml_get(&c->y, node, "shape"))) {
		snprintf(sub, sizeof(sub), "%s.shape", what);
		if ((st = parse_shape(c, n, sub, t)))
			return st;
	}
	if ((n = vta_yaml_get(&c->y, node, "scale"))) {
		double v;
		snprintf(sub, sizeof(sub), "%s.scale", what);
		if ((st = vta_yaml_double(&c->y, n, sub, 1e-30, 1e30, &v, c->err)))
			return st;
		t->scale = (float)v;
		t->has_scale = true;
	}
	if ((n = vta_yaml_get(&c->y, node, "scales"))) {
		snprintf(sub, sizeof(sub), "%s.scales", what);
		if (!is_filter)
			return vta_yaml_fail(&c->y, n, VTA_E_PARSE, c->err,
					     "%s: only a filter has per-channel scales", sub);
		if ((st = parse_scales(c, n, sub, &t->scales)))
			return st;
	}
	if ((n = vta_yaml_get(&c->y, node, "zero_point"))) {
		int64_t v;
		snprintf(sub, sizeof(sub), "%s.zero_point", what);
		if ((st = vta_yaml_int(&c->y, n, sub, -128, 127, &v, c->err)))
			return st;
		if ((is_filter || is_bias) && v != 0)
			return vta_yaml_fail(&c->y, n, VTA_E_PARSE, c->err,
					     "%s: filters and biases are symmetric (zero point 0)",
					     sub);
		t->zero_point = (int32_t)v;
	}
	if (!(n = vta_yaml_get(&c->y, node, "data")))
		return vta_yaml_fail(&c->y, node, VTA_E_PARSE, c->err, "%s: missing 'data'", what);
	snprintf(sub, sizeof(sub), "%s.data", what);
	if ((st = parse_data(c, n, sub, &t->data)))
		return st;
	if ((n = vta_yaml_get(&c->y, node, "compression"))) {
		snprintf(sub, sizeof(sub), "%s.compression", what);
		if ((st = parse_compression(c, n, sub, t)))
			return st;
	}
	return VTA_OK;
}

static vta_status parse_pair(ctx *c, const yaml_node_t *node, const char *what, int32_t min,
			     int32_t out[2])
{
	vta_status st;
	if (node->type == YAML_SCALAR_NODE) {
		int64_t v;
		if ((st = vta_yaml_int(&c->y, node, what, min, 64, &v, c->err)))
			return st;
		out[0] = out[1] = (int32_t)v;
		return VTA_OK;
	}
	if ((st = vta_yaml_expect_sequence(&c->y, node, what, c->err)))
		return st;
	if (node->data.sequence.items.top - node->data.sequence.items.start != 2)
		return vta_yaml_fail(&c->y, node, VTA_E_PARSE, c->err,
				     "%s: expected [h, w]", what);
	for (int i = 0; i < 2; i++) {
		int64_t v;
		yaml_node_t *it = vta_yaml_node(&c->y, node->data.sequence.items.start[i]);
		if ((st = vta_yaml_int(&c->y, it, what, min, 64, &v, c->err)))
			return st;
		out[i] = (int32_t)v;
	}
	return VTA_OK;
}

/* A rank 1..4 shape right-aligned into NHWC. */
static void wl_nhwc(const vta_wl_tensor *t, int32_t out[4])
{
	for (int i = 0; i < 4; i++)
		out[i] = 1;
	for (int i = 0; i < t->rank; i++)
		out[4 - t->rank + i] = t->shape[i];
}

/* b is a's shape, one value per channel of a ([.., C]), or a scalar. */
static bool wl_broadcasts(const int32_t a[4], const int32_t b[4])
{
	bool same = true, ones = b[0] == 1 && b[1] == 1 && b[2] == 1;
	for (int i = 0; i < 4; i++)
		same = same && a[i] == b[i];
	return same || (ones && (b[3] == a[3] || b[3] == 1));
}

/* Filter scales and bias against O output channels; the output's element count. */
static vta_status check_consts(ctx *c, const yaml_node_t *node, const vta_wl_layer *l, int32_t o,
			       uint64_t out_elements)
{
	if (l->filter.scales.present && l->filter.scales.count > 1 &&
	    l->filter.scales.count != (size_t)o)
		return vta_yaml_fail(&c->y, node, VTA_E_PARSE, c->err,
				     "%s: filter.scales has %zu entries for %d output channels",
				     l->name, l->filter.scales.count, (int)o);
	if (l->bias.present && l->bias.rank && (l->bias.rank != 1 || l->bias.shape[0] != o))
		return vta_yaml_fail(&c->y, node, VTA_E_PARSE, c->err,
				     "%s: bias.shape must be [%d]", l->name, (int)o);
	if (out_elements > VTA_WL_MAX_ELEMENTS)
		return vta_yaml_fail(&c->y, node, VTA_E_PARSE, c->err,
				     "%s: the output would exceed %llu elements", l->name,
				     (unsigned long long)VTA_WL_MAX_ELEMENTS);
	if (!l->input.has_scale)
		return vta_yaml_fail(&c->y, node, VTA_E_PARSE, c->err, "%s: input needs a scale",
				     l->name);
	if (!l->filter.scales.present && !l->filter.has_scale)
		return vta_yaml_fail(&c->y, node, VTA_E_PARSE, c->err,
				     "%s: filter needs scale or scales", l->name);
	return VTA_OK;
}

/* `plan: {rows: 8, order: rows, ...}`: choices of the CONV2D plan held fixed. */
static vta_status parse_plan(ctx *c, const yaml_node_t *node, vta_conv_pin *pin)
{
	vta_status st;
	if ((st = expect_keys(c, node, "plan", vta_conv_pin_fields())))
		return st;
	for (yaml_node_pair_t *p = node->data.mapping.pairs.start; p < node->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *v = vta_yaml_node(&c->y, p->value);
		vta_error e = {0};
		if (vta_conv_pin_set(pin, vta_yaml_scalar(vta_yaml_node(&c->y, p->key)),
				     vta_yaml_scalar(v), &e))
			return vta_yaml_fail(&c->y, v, VTA_E_PARSE, c->err, "%s", e.detail);
	}
	return VTA_OK;
}

static vta_status check_shapes(ctx *c, const yaml_node_t *node, vta_wl_layer *l)
{
	const int32_t *is = l->input.shape, *fs = l->filter.shape;
	if (l->op == VTA_WL_CONV2D || l->op == VTA_WL_DEPTHWISE) {
		if (l->input.rank != 4)
			return vta_yaml_fail(&c->y, node, VTA_E_PARSE, c->err,
					     "%s: input.shape must be [N, H, W, C]", l->name);
		const bool dw = l->op == VTA_WL_DEPTHWISE;
		if (l->filter.rank != 4 || (dw && fs[0] != 1))
			return vta_yaml_fail(&c->y, node, VTA_E_PARSE, c->err,
					     "%s: filter.shape must be %s", l->name,
					     dw ? "[1, KH, KW, O]" : "[O, KH, KW, I]");
		if (!dw && is[3] % fs[3] != 0)
			return vta_yaml_fail(&c->y, node, VTA_E_PARSE, c->err,
					     "%s: input channels %d are not a multiple of the filter's"
					     " %d",
					     l->name, is[3], fs[3]);
		if (dw && fs[3] % is[3] != 0)
			return vta_yaml_fail(&c->y, node, VTA_E_PARSE, c->err,
					     "%s: filter channels %d are not a multiple of the "
					     "input's %d",
					     l->name, fs[3], is[3]);
		if (dw && l->depth_multiplier && l->depth_multiplier != fs[3] / is[3])
			return vta_yaml_fail(&c->y, node, VTA_E_PARSE, c->err,
					     "%s: depth_multiplier %d, but %d input channels make %d "
					     "filter channels",
					     l->name, l->depth_multiplier, is[3], fs[3]);
		const int32_t o = dw ? fs[3] : fs[0];
		return check_consts(c, node, l, o,
				    (uint64_t)is[0] * (uint64_t)is[1] * (uint64_t)is[2] *
					    (uint64_t)o);
	}
	if (l->op == VTA_WL_FC) {
		if (l->filter.rank != 2)
			return vta_yaml_fail(&c->y, node, VTA_E_PARSE, c->err,
					     "%s: filter.shape must be [O, K]", l->name);
		uint64_t n = 1;
		for (int i = 0; i < l->input.rank; i++)
			n *= (uint64_t)is[i];
		if (l->input.rank == 0 || n % (uint64_t)fs[1] != 0)
			return vta_yaml_fail(&c->y, node, VTA_E_PARSE, c->err,
					     "%s: the input's %llu elements are not a multiple of "
					     "K = %d",
					     l->name, (unsigned long long)n, fs[1]);
		return check_consts(c, node, l, fs[0], n / (uint64_t)fs[1] * (uint64_t)fs[0]);
	}
	for (int i = 0; i < 2; i++) {
		if (!l->inputs[i].has_scale)
			return vta_yaml_fail(&c->y, node, VTA_E_PARSE, c->err,
					     "%s: inputs[%d] needs a scale", l->name, i);
		if (l->inputs[i].rank == 0)
			return vta_yaml_fail(&c->y, node, VTA_E_PARSE, c->err,
					     "%s: inputs[%d] needs a shape", l->name, i);
	}
	int32_t a[4], b[4];
	wl_nhwc(&l->inputs[0], a);
	wl_nhwc(&l->inputs[1], b);
	if (!wl_broadcasts(a, b) && !wl_broadcasts(b, a))
		return vta_yaml_fail(&c->y, node, VTA_E_PARSE, c->err,
				     "%s: the two ADD inputs must have the same shape, or one must "
				     "be [C] (one value per channel of the other) or [1] (a scalar)",
				     l->name);
	return VTA_OK;
}

static vta_status parse_layer(ctx *c, const yaml_node_t *node, size_t index, vta_wl_layer *l)
{
	static const char *const keys[] = {"name", "op", "input", "filter", "bias", "inputs",
					   "output", "stride", "padding", "dilation",
					   "depth_multiplier", "activation", "plan", NULL};
	char what[32];
	snprintf(what, sizeof(what), "layers[%zu]", index);
	vta_status st;
	if ((st = expect_keys(c, node, what, keys)))
		return st;
	l->line = (int)node->start_mark.line + 1;
	l->col = (int)node->start_mark.column + 1;
	l->stride[0] = l->stride[1] = 1;
	l->dilation[0] = l->dilation[1] = 1;
	l->padding = VTA_WL_SAME;
	l->activation = VTA_ACT_NONE;
	yaml_node_t *n;
	snprintf(l->name, sizeof(l->name), "layer%zu", index);
	if ((n = vta_yaml_get(&c->y, node, "name")) &&
	    (st = vta_yaml_string(&c->y, n, "name", l->name, sizeof(l->name), c->err)))
		return st;
	if ((st = need(c, node, "op", what, &n)))
		return st;
	const char *op = vta_yaml_scalar(n);
	l->op = op ? vta_op_by_workload_name(op, strlen(op)) : NULL;
	if (!l->op) {
		char names[256];
		return vta_yaml_fail(&c->y, n, VTA_E_PARSE, c->err, "%s.op: expected %s", what,
				     vta_op_list(VTA_OP_NAMES_WORKLOAD, ", ", " or ", NULL, names,
						 sizeof(names)));
	}
	if (l->op != VTA_WL_ADD) {
		if ((st = need(c, node, "input", what, &n)) ||
		    (st = parse_tensor(c, n, "input", &l->input, false, false)) ||
		    (st = need(c, node, "filter", what, &n)) ||
		    (st = parse_tensor(c, n, "filter", &l->filter, true, false)))
			return st;
		if ((n = vta_yaml_get(&c->y, node, "bias")) &&
		    (st = parse_tensor(c, n, "bias", &l->bias, false, true)))
			return st;
		if (vta_yaml_get(&c->y, node, "inputs"))
			return vta_yaml_fail(&c->y, vta_yaml_get(&c->y, node, "inputs"),
					     VTA_E_PARSE, c->err,
					     "%s: %s takes input/filter/bias, not inputs", what, op);
		/* keys only some of these ops have */
		const char *only[] = {"stride", "padding", "dilation", "depth_multiplier", "plan"};
		for (size_t i = 0; i < sizeof(only) / sizeof(only[0]); i++) {
			/* a pinned plan is the CONV2D plan chooser's (docs/workload.md) */
			bool ok = i == 4 ? l->op == VTA_WL_CONV2D
					 : l->op == VTA_WL_DEPTHWISE ||
						   (l->op == VTA_WL_CONV2D && i < 3);
			if (!ok && (n = vta_yaml_get(&c->y, node, only[i])))
				return vta_yaml_fail(&c->y, n, VTA_E_PARSE, c->err,
						     "%s: a %s has no '%s'", what, op, only[i]);
		}
		if ((n = vta_yaml_get(&c->y, node, "depth_multiplier"))) {
			int64_t v;
			if ((st = vta_yaml_int(&c->y, n, "depth_multiplier", 1, 1 << 20, &v,
					       c->err)))
				return st;
			l->depth_multiplier = (int32_t)v;
		}
		if ((n = vta_yaml_get(&c->y, node, "stride")) &&
		    (st = parse_pair(c, n, "stride", 1, l->stride)))
			return st;
		if ((n = vta_yaml_get(&c->y, node, "dilation")) &&
		    (st = parse_pair(c, n, "dilation", 1, l->dilation)))
			return st;
		if ((n = vta_yaml_get(&c->y, node, "padding"))) {
			const char *p = vta_yaml_scalar(n);
			if (p && !strcmp(p, "same"))
				l->padding = VTA_WL_SAME;
			else if (p && !strcmp(p, "valid"))
				l->padding = VTA_WL_VALID;
			else
				return vta_yaml_fail(&c->y, n, VTA_E_PARSE, c->err,
						     "padding: expected same or valid");
		}
		if ((n = vta_yaml_get(&c->y, node, "plan")) && (st = parse_plan(c, n, &l->pin)))
			return st;
	} else {
		if ((st = need(c, node, "inputs", what, &n)) ||
		    (st = vta_yaml_expect_sequence(&c->y, n, "inputs", c->err)))
			return st;
		if (n->data.sequence.items.top - n->data.sequence.items.start != 2)
			return vta_yaml_fail(&c->y, n, VTA_E_PARSE, c->err,
					     "inputs: an add takes exactly two tensors");
		for (int i = 0; i < 2; i++) {
			char sub[16];
			snprintf(sub, sizeof(sub), "inputs[%d]", i);
			if ((st = parse_tensor(c, vta_yaml_node(&c->y, n->data.sequence.items.start[i]),
					       sub, &l->inputs[i], false, false)))
				return st;
		}
		const char *bad[] = {"input",    "filter",   "bias",
				     "stride",   "padding",  "dilation",
				     "depth_multiplier", "plan"};
		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
			if ((n = vta_yaml_get(&c->y, node, bad[i])))
				return vta_yaml_fail(&c->y, n, VTA_E_PARSE, c->err,
						     "%s: an add has no '%s'", what, bad[i]);
	}
	if ((st = need(c, node, "output", what, &n)))
		return st;
	static const char *const okeys[] = {"scale", "zero_point", NULL};
	if ((st = expect_keys(c, n, "output", okeys)))
		return st;
	yaml_node_t *s;
	if ((st = need(c, n, "scale", "output", &s)))
		return st;
	double scale;
	if ((st = vta_yaml_double(&c->y, s, "output.scale", 1e-30, 1e30, &scale, c->err)))
		return st;
	l->output_scale = (float)scale;
	if ((s = vta_yaml_get(&c->y, n, "zero_point"))) {
		int64_t zp;
		if ((st = vta_yaml_int(&c->y, s, "output.zero_point", -128, 127, &zp, c->err)))
			return st;
		l->output_zero_point = (int32_t)zp;
	}
	if ((n = vta_yaml_get(&c->y, node, "activation"))) {
		const char *a = vta_yaml_scalar(n);
		if (a && !strcmp(a, "none"))
			l->activation = VTA_ACT_NONE;
		else if (a && !strcmp(a, "relu"))
			l->activation = VTA_ACT_RELU;
		else if (a && !strcmp(a, "relu6"))
			l->activation = VTA_ACT_RELU6;
		else if (a && !strcmp(a, "relu_n1_to_1"))
			l->activation = VTA_ACT_RELU_N1_TO_1;
		else
			return vta_yaml_fail(&c->y, n, VTA_E_PARSE, c->err,
					     "activation: expected none, relu, relu6 or "
					     "relu_n1_to_1");
	}
	return check_shapes(c, node, l);
}

/* `model:` and its options: the model read now (a bad file is an error here, at the key,
 * before anything runs), its inputs counted against the model's. */
static vta_status parse_model(ctx *c, const yaml_node_t *root, vta_wl_model *wm)
{
	yaml_node_t *n = vta_yaml_get(&c->y, root, "model");
	char rel[VTA_WL_PATH_MAX];
	vta_status st;
	if ((st = vta_yaml_string(&c->y, n, "model", rel, sizeof(rel), c->err)))
		return st;
	if (!rel[0])
		return vta_yaml_fail(&c->y, n, VTA_E_PARSE, c->err, "model: empty path");
	resolve_path(c, rel, wm->path);
	wm->line = (int)n->start_mark.line + 1;
	wm->col = (int)n->start_mark.column + 1;
	wm->seed = 1;
	vta_tfl_model m;
	vta_error e = {0};
	if (vta_tfl_model_load(wm->path, &m, &e)) {
		vta_tfl_model_free(&m);
		return vta_yaml_fail(&c->y, n, VTA_E_PARSE, c->err, "model: %s", e.detail);
	}
	const size_t model_inputs = m.n_inputs;
	vta_tfl_model_free(&m);
	if ((n = vta_yaml_get(&c->y, root, "seed"))) {
		int64_t v;
		if ((st = vta_yaml_int(&c->y, n, "seed", 0, INT64_MAX, &v, c->err)))
			return st;
		wm->seed = (uint64_t)v;
	}
	if ((n = vta_yaml_get(&c->y, root, "host_ops"))) {
		/* a list of classes, or one class, as --host-ops takes them */
		char list[128] = "";
		if (n->type == YAML_SEQUENCE_NODE) {
			for (yaml_node_item_t *it = n->data.sequence.items.start;
			     it < n->data.sequence.items.top; it++) {
				const char *v = vta_yaml_scalar(vta_yaml_node(&c->y, *it));
				if (!v || strlen(list) + strlen(v) + 2 > sizeof(list))
					return vta_yaml_fail(&c->y, vta_yaml_node(&c->y, *it),
							     VTA_E_PARSE, c->err,
							     "host_ops: expected class names");
				snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
					 list[0] ? "," : "", v);
			}
		} else if ((st = vta_yaml_string(&c->y, n, "host_ops", list, sizeof(list),
						  c->err))) {
			return st;
		}
		if (vta_model_host_classes(list, &wm->host_classes, &e))
			return vta_yaml_fail(&c->y, n, VTA_E_PARSE, c->err, "host_ops: %s",
					     e.detail);
		snprintf(wm->host_ops, sizeof(wm->host_ops), "%s", list);
	}
	if (!(n = vta_yaml_get(&c->y, root, "inputs")))
		return VTA_OK;
	if ((st = vta_yaml_expect_sequence(&c->y, n, "inputs", c->err)))
		return st;
	size_t k = (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
	if (k != model_inputs)
		return vta_yaml_fail(&c->y, n, VTA_E_PARSE, c->err,
				     "inputs: %zu file%s for the %zu input%s of %s", k,
				     k == 1 ? "" : "s", model_inputs, model_inputs == 1 ? "" : "s",
				     rel);
	if (k > VTA_WL_MAX_INPUTS)
		return vta_yaml_fail(&c->y, n, VTA_E_PARSE, c->err, "inputs: more than %d",
				     VTA_WL_MAX_INPUTS);
	if (!(wm->inputs = calloc(k ? k : 1, sizeof(*wm->inputs))))
		return vta_fail(c->err, VTA_E_NOMEM, "out of memory");
	wm->n_inputs = k;
	for (size_t i = 0; i < k; i++) {
		yaml_node_t *v = vta_yaml_node(&c->y, n->data.sequence.items.start[i]);
		char what[32], r[VTA_WL_PATH_MAX];
		snprintf(what, sizeof(what), "inputs[%zu]", i);
		if ((st = vta_yaml_string(&c->y, v, what, r, sizeof(r), c->err)))
			return st;
		resolve_path(c, r, wm->inputs[i]);
		/* read later by the .npy reader; refused here if it cannot be (a device, a
		 * folder) */
		FILE *f;
		uint64_t size;
		vta_error fe = {0};
		if (vta_file_open(wm->inputs[i], ".npy file", VTA_LIMIT_NPY, &f, &size, &fe))
			return vta_yaml_fail(&c->y, v, VTA_E_PARSE, c->err, "%s: %s", what,
					     fe.detail);
		fclose(f);
	}
	return VTA_OK;
}

/* A workload is a model or a list of layers: each has its own keys. */
static vta_status check_form(ctx *c, const yaml_node_t *root, bool *is_model)
{
	static const char *const model_only[] = {"inputs", "seed", "host_ops", NULL};
	yaml_node_t *m = vta_yaml_get(&c->y, root, "model");
	yaml_node_t *l = vta_yaml_get(&c->y, root, "layers");
	*is_model = m != NULL;
	if (m && l)
		return vta_yaml_fail(&c->y, l, VTA_E_PARSE, c->err,
				     "workload: 'layers' with 'model': a workload is either a "
				     "model or a list of layers");
	for (size_t i = 0; !m && model_only[i]; i++) {
		yaml_node_t *k = vta_yaml_get(&c->y, root, model_only[i]);
		if (k)
			return vta_yaml_fail(&c->y, k, VTA_E_PARSE, c->err,
					     "workload: '%s' is an option of a model: it needs "
					     "'model'", model_only[i]);
	}
	return VTA_OK;
}

vta_status vta_workload_load(const char *path, vta_workload *wl, vta_error *err)
{
	memset(wl, 0, sizeof(*wl));
	snprintf(wl->path, sizeof(wl->path), "%s", path);
	ctx c = {0};
	c.err = err;
	snprintf(c.dir, sizeof(c.dir), "%s", path);
	char *slash = strrchr(c.dir, '/');
	if (slash)
		*slash = '\0';
	else
		c.dir[0] = '\0';
	vta_status st = vta_yaml_load_file(path, &c.y, err);
	if (st)
		return st;
	yaml_node_t *root = vta_yaml_root(&c.y);
	static const char *const keys[] = {"layers", "model", "inputs", "seed", "host_ops", NULL};
	yaml_node_t *layers = NULL;
	if (!root) {
		st = vta_yaml_fail(&c.y, NULL, VTA_E_PARSE, err, "empty workload");
	} else if (!(st = expect_keys(&c, root, "workload", keys)) &&
		   !(st = check_form(&c, root, &wl->is_model)) && wl->is_model) {
		st = parse_model(&c, root, &wl->model);
	} else if (!st &&
		   !(st = need(&c, root, "layers", "workload", &layers)) &&
		   !(st = vta_yaml_expect_sequence(&c.y, layers, "layers", err))) {
		size_t n = (size_t)(layers->data.sequence.items.top -
				    layers->data.sequence.items.start);
		if (n == 0)
			st = vta_yaml_fail(&c.y, layers, VTA_E_PARSE, err, "layers: empty list");
		else if (!(wl->layers = calloc(n, sizeof(*wl->layers))))
			st = vta_fail(err, VTA_E_NOMEM, "out of memory");
		for (size_t i = 0; !st && i < n; i++) {
			wl->n_layers = i + 1;
			st = parse_layer(&c, vta_yaml_node(&c.y, layers->data.sequence.items.start[i]),
					 i, &wl->layers[i]);
		}
		for (size_t i = 0; !st && i < n; i++)
			for (size_t j = 0; j < i; j++)
				if (!strcmp(wl->layers[i].name, wl->layers[j].name)) {
					st = vta_fail(err, VTA_E_PARSE,
						      "%s:%d:%d: layer name '%s' is used twice",
						      VTA_QPATH(path), wl->layers[i].line,
						      wl->layers[i].col,
						      VTA_Q(wl->layers[i].name));
					break;
				}
	}
	vta_yaml_free(&c.y);
	if (st)
		vta_workload_free(wl);
	return st;
}

static void free_tensor(vta_wl_tensor *t)
{
	free(t->scales.values);
	t->scales.values = NULL;
}

void vta_workload_free(vta_workload *wl)
{
	for (size_t i = 0; i < wl->n_layers; i++) {
		vta_wl_layer *l = &wl->layers[i];
		free_tensor(&l->input);
		free_tensor(&l->filter);
		free_tensor(&l->bias);
		free_tensor(&l->inputs[0]);
		free_tensor(&l->inputs[1]);
	}
	free(wl->layers);
	wl->layers = NULL;
	wl->n_layers = 0;
	free(wl->model.inputs);
	wl->model.inputs = NULL;
	wl->model.n_inputs = 0;
}

const char *vta_wl_op_name(vta_wl_op op)
{
	return op && op->workload_name ? op->workload_name : "?";
}
