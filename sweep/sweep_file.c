/*
 * sweep_file.c - read a sweep file (sweep.h, docs/sweep.md "The sweep file"). Every value
 * is checked here, before anything runs, with the checks the command line applies to it
 * (vta_config_key_parse for config keys, as `--set` does; the option parsers; the plan
 * pin's), and every problem is one line "FILE:LINE:COL: problem". Checks that need a whole
 * point (a config whose keys together do not derive) are the point's, not the file's.
 */
#define _DEFAULT_SOURCE /* realpath */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model_run.h"
#include "sweep.h"
#include "vta_config_keys.h"
#include "vta_file.h"
#include "vta_text.h"
#include "vta_yaml.h"

/* Names that are not config keys, and what they set. */
static const struct {
	const char *name;
	sw_kind kind;
} OPTIONS[] = {
	{"threads", SW_THREADS},   {"mode", SW_MODE},     {"decompress", SW_DECOMPRESS},
	{"lut_bits", SW_LUT_BITS}, {"layers", SW_LAYERS},     {"host_ops", SW_HOST_OPS},
};
#define N_OPTIONS (sizeof(OPTIONS) / sizeof(OPTIONS[0]))

/* Names expressions may read besides the parameters and the config keys (sweep_points.c
 * gives their values). */
const char *const sweep_derived_names[] = {"sram_kib.total", "sram_kib.out", "batch", "block_in",
				     "block_out", "macs_per_cycle", "uop_depth", "inp_depth",
				     "wgt_depth", "acc_depth", "out_depth", NULL};

typedef struct ctx {
	vta_yaml y;
	sweep *sw;
	char dir[SW_PATH_MAX]; /* the sweep file's folder */
	vta_error *err;
} ctx;

static vta_status fail(ctx *c, const yaml_node_t *n, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;

static vta_status fail(ctx *c, const yaml_node_t *n, const char *fmt, ...)
{
	char msg[VTA_ERROR_DETAIL_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return vta_yaml_fail(&c->y, n, VTA_E_PARSE, c->err, "%s", msg);
}

static vta_status expect_keys(ctx *c, const yaml_node_t *map, const char *what,
			      const char *const *allowed)
{
	yaml_node_t *k;
	char list[256];
	vta_status st;
	if ((st = vta_yaml_expect_mapping(&c->y, map, what, c->err)) ||
	    (st = vta_yaml_unknown_key(&c->y, map, what, allowed, &k, c->err)) || !k)
		return st;
	return fail(c, k, "%s: unknown key '%s' (expected one of: %s)", what,
		    VTA_Q(vta_yaml_scalar(k)),
		    vta_yaml_key_list(allowed, list, sizeof(list)));
}

static size_t n_items(const yaml_node_t *n)
{
	return n->type == YAML_SEQUENCE_NODE
		       ? (size_t)(n->data.sequence.items.top - n->data.sequence.items.start)
		       : (size_t)(n->data.mapping.pairs.top - n->data.mapping.pairs.start);
}

static yaml_node_t *item(ctx *c, const yaml_node_t *seq, size_t i)
{
	return vta_yaml_node(&c->y, seq->data.sequence.items.start[i]);
}

/* A path of the sweep file, relative to its folder, made absolute. */
static vta_status resolve_path(ctx *c, const yaml_node_t *n, const char *what, char *out)
{
	const char *rel = vta_yaml_scalar(n);
	if (!rel || !*rel)
		return fail(c, n, "%s: expected a file name", what);
	char joined[2 * SW_PATH_MAX];
	if (rel[0] == '/')
		snprintf(joined, sizeof(joined), "%s", rel);
	else
		snprintf(joined, sizeof(joined), "%s/%s", c->dir, rel);
	char real[PATH_MAX];
	if (!realpath(joined, real))
		return fail(c, n, "%s: cannot open '%s': %s", what, VTA_QPATH(rel),
			    strerror(errno));
	if (strlen(real) >= SW_PATH_MAX)
		return fail(c, n, "%s: path too long", what);
	snprintf(out, SW_PATH_MAX, "%s", real);
	return VTA_OK;
}

/* ---------- names and values ---------- */

static vta_status classify(ctx *c, const yaml_node_t *key, sw_param *p)
{
	const char *name = vta_yaml_scalar(key);
	p->line = (int)key->start_mark.line + 1;
	p->col = (int)key->start_mark.column + 1;
	if (strlen(name) >= sizeof(p->name))
		return fail(c, key, "name too long: '%.40s...'", name);
	snprintf(p->name, sizeof(p->name), "%s", name);
	for (size_t i = 0; i < N_OPTIONS; i++)
		if (!strcmp(name, OPTIONS[i].name)) {
			p->kind = OPTIONS[i].kind;
			return VTA_OK;
		}
	if (!strncmp(name, "plan.", 5)) {
		vta_conv_pin scratch = {0};
		vta_error e = {0};
		p->kind = SW_PLAN;
		if (vta_conv_pin_set(&scratch, name + 5, "free", &e))
			return fail(c, key, "%s", e.detail);
		return VTA_OK;
	}
	p->kind = SW_CONFIG;
	if (vta_config_key_find(name))
		return VTA_OK;
	vta_error e = {0};
	if (strchr(name, '.') || vta_config_is_section(name))
		vta_config_unknown_key(name, &e);
	else
		snprintf(e.detail, sizeof(e.detail),
			 "unknown name '%s' (expected a config key as `vtasim config` prints it, "
			 "threads, mode, decompress, lut_bits, layers, plan.FIELD or host_ops)",
			 name);
	return fail(c, key, "%s", e.detail);
}

/* Is `text` a valid value of p? The message says why not (no position). */
static vta_status check_value(ctx *c, const sw_param *p, const char *text, vta_error *e)
{
	/* a model brings its own constants and operators, in TFLite's arithmetic */
	if (c->sw->wl.is_model && (p->kind == SW_LUT_BITS || p->kind == SW_LAYERS ||
				   p->kind == SW_PLAN))
		return vta_fail(e, VTA_E_PARSE,
				"%s: the workload is a model, which has no such parameter (%s)",
				p->name, p->kind == SW_LUT_BITS
						 ? "compress it with `vtasim compress` instead"
						 : "its operators all run, each with the plan chosen "
						   "for it");
	if (c->sw->wl.is_model && p->kind == SW_MODE && strcmp(text, "tflite"))
		return vta_fail(e, VTA_E_PARSE,
				"mode: the workload is a model, which runs in TFLite's arithmetic "
				"only (tflite), got '%s'", VTA_Q(text));
	switch (p->kind) {
	case SW_HOST_OPS: {
		unsigned mask;
		if (!c->sw->wl.is_model)
			return vta_fail(e, VTA_E_PARSE,
					"host_ops: the workload is not a model (host_ops moves a "
					"model's op classes to the host)");
		vta_error he = {0};
		if (vta_model_host_classes(text, &mask, &he))
			return vta_fail(e, VTA_E_PARSE, "host_ops: %s", he.detail);
		return VTA_OK;
	}
	case SW_CONFIG: {
		vta_config scratch = c->sw->base;
		return vta_config_key_parse(vta_config_key_find(p->name), text, &scratch, e);
	}
	case SW_THREADS:
		if (!strcmp(text, "1") || !strcmp(text, "2"))
			return VTA_OK;
		return vta_fail(e, VTA_E_PARSE, "threads: expected 1 or 2, got '%s'", VTA_Q(text));
	case SW_MODE:
		if (!strcmp(text, "tflite") || !strcmp(text, "vta16"))
			return VTA_OK;
		return vta_fail(e, VTA_E_PARSE, "mode: expected tflite or vta16, got '%s'",
				VTA_Q(text));
	case SW_DECOMPRESS:
		if (!strcmp(text, "hw") || !strcmp(text, "host") || !strcmp(text, "auto"))
			return VTA_OK;
		return vta_fail(e, VTA_E_PARSE, "decompress: expected hw, host or auto, got '%s'",
				VTA_Q(text));
	case SW_LUT_BITS: {
		int64_t v;
		return vta_text_int(text, "lut_bits", 0, 7, &v, e);
	}
	case SW_PLAN: {
		vta_conv_pin scratch = {0};
		return vta_conv_pin_set(&scratch, p->name + 5, text, e);
	}
	case SW_LAYERS: {
		if (!strcmp(text, "all"))
			return VTA_OK;
		char buf[4096];
		snprintf(buf, sizeof(buf), "%s", text);
		for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			bool found = false;
			for (size_t i = 0; i < c->sw->wl.n_layers && !found; i++)
				found = !strcmp(c->sw->wl.layers[i].name, tok);
			if (!found) {
				char list[VTA_ERROR_DETAIL_MAX - 100];
				size_t len = 0;
				list[0] = '\0';
				for (size_t i = 0; i < c->sw->wl.n_layers; i++)
					vta_appendf(list, sizeof(list), &len, "%s%s", i ? ", " : "",
						    c->sw->wl.layers[i].name);
				return vta_fail(e, VTA_E_PARSE,
						"layers: the workload has no layer '%s' (it has: %s)",
						VTA_Q(tok), list);
			}
		}
		return VTA_OK;
	}
	}
	return VTA_OK;
}

static bool numeric_kind(const sw_param *p)
{
	if (p->kind == SW_THREADS || p->kind == SW_LUT_BITS)
		return true;
	if (p->kind == SW_PLAN)
		return strcmp(p->name, "plan.order") && strcmp(p->name, "plan.constants");
	if (p->kind == SW_CONFIG) {
		const vta_config_key *k = vta_config_key_find(p->name);
		return k->type == VTA_KEY_U32 || k->type == VTA_KEY_U64 || k->type == VTA_KEY_DOUBLE;
	}
	return false;
}

static vta_status add_value(ctx *c, sw_param *p, const yaml_node_t *at, const char *text)
{
	vta_error e = {0};
	if (check_value(c, p, text, &e))
		return fail(c, at, "%s", e.detail);
	if (p->n_values >= SW_MAX_POINTS)
		return fail(c, at, "%s: more than %d values", p->name, SW_MAX_POINTS);
	char **v = realloc(p->values, (p->n_values + 1) * sizeof(*v));
	if (!v || !(v[p->n_values] = strdup(text))) {
		if (v)
			p->values = v;
		return vta_fail(c->err, VTA_E_NOMEM, "out of memory");
	}
	p->values = v;
	p->n_values++;
	return VTA_OK;
}

/* A scalar's text, or for `layers` and `host_ops` a list of names joined by ','. */
static vta_status value_text(ctx *c, const sw_param *p, const yaml_node_t *n, char *out,
			     size_t size)
{
	const char *s = vta_yaml_scalar(n);
	if (s) {
		snprintf(out, size, "%s", s);
		return VTA_OK;
	}
	if ((p->kind == SW_LAYERS || p->kind == SW_HOST_OPS) && n->type == YAML_SEQUENCE_NODE &&
	    n_items(n)) {
		size_t len = 0;
		out[0] = '\0';
		for (size_t i = 0; i < n_items(n); i++) {
			const char *name = vta_yaml_scalar(item(c, n, i));
			if (!name)
				return fail(c, item(c, n, i), "layers: expected a layer name");
			vta_appendf(out, size, &len, "%s%s", i ? "," : "", name);
		}
		return VTA_OK;
	}
	return fail(c, n, "%s: expected a value", p->name);
}

/* {from, to, step} or {from, to, pow2: true}: the values, checked. */
static vta_status parse_range(ctx *c, sw_param *p, const yaml_node_t *n)
{
	static const char *const keys[] = {"from", "to", "step", "pow2", NULL};
	char what[SW_NAME_MAX + 8];
	snprintf(what, sizeof(what), "%s", p->name);
	vta_status st;
	if ((st = expect_keys(c, n, what, keys)))
		return st;
	if (!numeric_kind(p))
		return fail(c, n, "%s: a range needs a numeric parameter; list the values", p->name);
	yaml_node_t *fn = vta_yaml_get(&c->y, n, "from"), *tn = vta_yaml_get(&c->y, n, "to");
	yaml_node_t *sn = vta_yaml_get(&c->y, n, "step"), *pn = vta_yaml_get(&c->y, n, "pow2");
	if (!fn || !tn)
		return fail(c, n, "%s: a range needs from and to", p->name);
	double from, to, step = 0;
	bool pow2 = false;
	if ((st = vta_yaml_double(&c->y, fn, "from", -1e15, 1e15, &from, c->err)) ||
	    (st = vta_yaml_double(&c->y, tn, "to", -1e15, 1e15, &to, c->err)) ||
	    (sn && (st = vta_yaml_double(&c->y, sn, "step", 0, 1e15, &step, c->err))) ||
	    (pn && (st = vta_yaml_bool(&c->y, pn, "pow2", &pow2, c->err))))
		return st;
	if (!!sn == pow2)
		return fail(c, n, "%s: give either step or pow2: true", p->name);
	if (from > to)
		return fail(c, tn, "%s: to (%g) is below from (%g)", p->name, to, from);
	if (sn && !(step > 0))
		return fail(c, sn, "%s: step must be above 0", p->name);
	if (pow2 && !(from > 0))
		return fail(c, fn, "%s: powers of two start above 0", p->name);
	const double span = pow2 ? log2(to / from) : (to - from) / step;
	if (span > SW_MAX_POINTS)
		return fail(c, n, "%s: the range has more than %d values", p->name, SW_MAX_POINTS);
	if (pow2) {
		/* every power of two in [from, to] */
		for (double v = exp2(ceil(log2(from) - 1e-9)); v <= to * (1 + 1e-12); v *= 2) {
			char text[64];
			sw_value_format(&(sw_value){SW_NUM, v, NULL}, text, sizeof(text));
			if ((st = add_value(c, p, n, text)))
				return st;
		}
	} else {
		for (size_t i = 0;; i++) {
			double v = from + (double)i * step;
			if (v > to + step * 1e-9)
				break;
			char text[64];
			sw_value_format(&(sw_value){SW_NUM, v, NULL}, text, sizeof(text));
			if ((st = add_value(c, p, n, text)))
				return st;
		}
	}
	if (!p->n_values)
		return fail(c, n, "%s: the range holds no value", p->name);
	return VTA_OK;
}

static vta_status add_param(ctx *c, const yaml_node_t *key, bool axis, sw_param **out)
{
	sweep *sw = c->sw;
	const char *name = vta_yaml_scalar(key);
	for (size_t i = 0; i < sw->n_params; i++)
		if (!strcmp(sw->params[i].name, name))
			return fail(c, key, "'%s' is both fixed and an axis (line %d)", VTA_Q(name),
				    sw->params[i].line);
	sw_param *ps = realloc(sw->params, (sw->n_params + 1) * sizeof(*ps));
	if (!ps)
		return vta_fail(c->err, VTA_E_NOMEM, "out of memory");
	sw->params = ps;
	sw_param *p = &ps[sw->n_params++];
	memset(p, 0, sizeof(*p));
	p->axis = axis;
	*out = p;
	return classify(c, key, p);
}

/* fixed: NAME: VALUE, ... */
static vta_status parse_fixed(ctx *c, const yaml_node_t *map)
{
	vta_status st;
	if ((st = vta_yaml_expect_mapping(&c->y, map, "fixed", c->err)) ||
	    (st = vta_yaml_check_keys(&c->y, map, "fixed", c->err)))
		return st;
	for (yaml_node_pair_t *pr = map->data.mapping.pairs.start; pr < map->data.mapping.pairs.top;
	     pr++) {
		yaml_node_t *k = vta_yaml_node(&c->y, pr->key), *v = vta_yaml_node(&c->y, pr->value);
		sw_param *p;
		char text[4096];
		if ((st = add_param(c, k, false, &p)))
			return st;
		if (!vta_yaml_scalar(v) && p->kind != SW_LAYERS && p->kind != SW_HOST_OPS)
			return fail(c, v, "fixed: %s takes one value (a list of values is an axis)",
				    p->name);
		if ((st = value_text(c, p, v, text, sizeof(text))) ||
		    (st = add_value(c, p, v, text)))
			return st;
	}
	return VTA_OK;
}

/* axes: NAME: [values] | {from, to, step} | {from, to, pow2: true} | value */
static vta_status parse_axes(ctx *c, const yaml_node_t *map)
{
	vta_status st;
	if ((st = vta_yaml_expect_mapping(&c->y, map, "axes", c->err)) ||
	    (st = vta_yaml_check_keys(&c->y, map, "axes", c->err)))
		return st;
	for (yaml_node_pair_t *pr = map->data.mapping.pairs.start; pr < map->data.mapping.pairs.top;
	     pr++) {
		yaml_node_t *k = vta_yaml_node(&c->y, pr->key), *v = vta_yaml_node(&c->y, pr->value);
		sw_param *p;
		char text[4096];
		if ((st = add_param(c, k, true, &p)))
			return st;
		if (v->type == YAML_MAPPING_NODE) {
			st = parse_range(c, p, v);
		} else if (v->type == YAML_SEQUENCE_NODE) {
			if (!n_items(v))
				return fail(c, v, "%s: no values", p->name);
			for (size_t i = 0; i < n_items(v) && !st; i++)
				if (!(st = value_text(c, p, item(c, v, i), text, sizeof(text))))
					st = add_value(c, p, item(c, v, i), text);
		} else if (!(st = value_text(c, p, v, text, sizeof(text)))) {
			st = add_value(c, p, v, text);
		}
		if (st)
			return st;
	}
	return VTA_OK;
}

static sw_param *find_param(sweep *sw, const char *name)
{
	for (size_t i = 0; i < sw->n_params; i++)
		if (!strcmp(sw->params[i].name, name))
			return &sw->params[i];
	return NULL;
}

/* zip: [[a, b], [c, d, e]]: each group's axes advance together. Then the dimensions: one
 * per axis, or per zip group, in the order the axes are written. */
static vta_status parse_zip(ctx *c, const yaml_node_t *seq, const yaml_node_t *axes)
{
	sweep *sw = c->sw;
	vta_status st;
	if (seq && (st = vta_yaml_expect_sequence(&c->y, seq, "zip", c->err)))
		return st;
	/* group[i]: 1 + the zip group of parameter i, 0 for none */
	size_t *group = calloc(sw->n_params + 1, sizeof(*group));
	size_t *sizes = calloc(sw->n_params + 1, sizeof(*sizes));
	if (!group || !sizes) {
		free(group);
		free(sizes);
		return vta_fail(c->err, VTA_E_NOMEM, "out of memory");
	}
	sw->dim_size = sizes;
	st = VTA_OK;
	for (size_t g = 0; seq && g < n_items(seq) && !st; g++) {
		yaml_node_t *grp = item(c, seq, g);
		if ((st = vta_yaml_expect_sequence(&c->y, grp, "zip group", c->err)))
			break;
		if (n_items(grp) < 2) {
			st = fail(c, grp, "zip: a group names two axes or more");
			break;
		}
		const sw_param *first = NULL;
		for (size_t i = 0; i < n_items(grp) && !st; i++) {
			yaml_node_t *n = item(c, grp, i);
			const char *name = vta_yaml_scalar(n);
			sw_param *p = name ? find_param(sw, name) : NULL;
			if (!p || !p->axis)
				st = fail(c, n, "zip: '%s' is not an axis", VTA_Q(name));
			else if (group[p - sw->params])
				st = fail(c, n, "zip: '%s' is in two groups", VTA_Q(name));
			else if (first && p->n_values != first->n_values)
				st = fail(c, n,
					  "zip: '%s' has %zu values, '%s' has %zu: zipped axes "
					  "need as many",
					  VTA_Q(name), p->n_values, VTA_Q(first->name),
						first->n_values);
			else
				group[p - sw->params] = g + 1;
			if (!first)
				first = p;
		}
	}
	double product = 1;
	for (size_t i = 0; !st && i < sw->n_params; i++) {
		sw_param *p = &sw->params[i];
		size_t j = 0;
		/* a zipped axis joins the dimension of the first axis of its group */
		while (group[i] && j < i && group[j] != group[i])
			j++;
		if (!p->axis) {
			continue;
		} else if (group[i] && j < i) {
			p->dim = sw->params[j].dim;
		} else {
			p->dim = sw->n_dims;
			sizes[sw->n_dims++] = p->n_values;
			product *= (double)p->n_values;
		}
	}
	free(group);
	if (!st && product > SW_MAX_POINTS)
		st = fail(c, axes, "axes: they make %.0f points, more than %d", product,
			  SW_MAX_POINTS);
	return st;
}

/* ---------- expressions ---------- */

static bool is_derived(const char *name)
{
	for (size_t i = 0; sweep_derived_names[i]; i++)
		if (!strcmp(sweep_derived_names[i], name))
			return true;
	return false;
}

/* Names an expression may read: the options (set or not), plan fields, config keys, the
 * derived values and the lets before it (ctx: how many). */
typedef struct known_ctx {
	const sweep *sw;
	size_t n_lets;
} known_ctx;

static bool known_name(void *vctx, const char *name)
{
	known_ctx *k = vctx;
	for (size_t i = 0; i < N_OPTIONS; i++)
		if (!strcmp(name, OPTIONS[i].name))
			return true;
	vta_conv_pin scratch = {0};
	vta_error e = {0};
	if (!strncmp(name, "plan.", 5) && !vta_conv_pin_set(&scratch, name + 5, "free", &e))
		return true;
	if (vta_config_key_find(name) || is_derived(name))
		return true;
	for (size_t i = 0; i < k->n_lets; i++)
		if (!strcmp(k->sw->lets[i].name, name))
			return true;
	return false;
}

/* Where a scalar's text starts: a quoted scalar one column after its quote. */
static sw_where where_of(ctx *c, const yaml_node_t *n, const char *what)
{
	sw_where w = {c->y.path, (int)n->start_mark.line + 1, (int)n->start_mark.column + 1, what};
	if (n->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
	    n->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE)
		w.col++;
	else if (n->data.scalar.style == YAML_LITERAL_SCALAR_STYLE ||
		 n->data.scalar.style == YAML_FOLDED_SCALAR_STYLE)
		w.line++; /* the text starts on the next line; its indentation is not kept */
	return w;
}

static vta_status parse_expr(ctx *c, const yaml_node_t *n, const char *what, size_t n_lets,
			     sw_expr **out)
{
	const char *text = vta_yaml_scalar(n);
	if (!text)
		return fail(c, n, "%s: expected an expression", what);
	sw_where w = where_of(c, n, what);
	known_ctx k = {c->sw, n_lets};
	vta_status st = sw_expr_parse(text, &w, out, c->err);
	if (!st && (st = sw_expr_check_names(*out, known_name, &k, c->err))) {
		sw_expr_free(*out);
		*out = NULL;
	}
	return st;
}

/* A name a let or a metric introduces: written as names are, and not a column of the
 * results already (nor a literal). */
static vta_status new_name(ctx *c, const yaml_node_t *k, const char *what, const char *name)
{
	if (!sw_is_name(name, SW_NAME_MAX))
		return fail(c, k, "%s: '%s' is not a name (letters, digits, '_' and '.')", what,
			    VTA_Q(name));
	if (!strcmp(name, "true") || !strcmp(name, "false"))
		return fail(c, k, "%s: '%s' is already a name", what, VTA_Q(name));
	if (sweep_is_column(c->sw, name))
		return fail(c, k, "%s: '%s' is already a column of the results", what, VTA_Q(name));
	return VTA_OK;
}

static vta_status parse_lets(ctx *c, const yaml_node_t *map)
{
	sweep *sw = c->sw;
	vta_status st;
	if ((st = vta_yaml_expect_mapping(&c->y, map, "let", c->err)) ||
	    (st = vta_yaml_check_keys(&c->y, map, "let", c->err)))
		return st;
	size_t n = n_items(map);
	if (!(sw->lets = calloc(n ? n : 1, sizeof(*sw->lets))))
		return vta_fail(c->err, VTA_E_NOMEM, "out of memory");
	for (yaml_node_pair_t *pr = map->data.mapping.pairs.start; pr < map->data.mapping.pairs.top;
	     pr++) {
		yaml_node_t *k = vta_yaml_node(&c->y, pr->key), *v = vta_yaml_node(&c->y, pr->value);
		const char *name = vta_yaml_scalar(k);
		known_ctx kc = {sw, sw->n_lets};
		if (known_name(&kc, name))
			return fail(c, k, "let: '%s' is already a name", VTA_Q(name));
		if ((st = new_name(c, k, "let", name)))
			return st;
		sw_let *l = &sw->lets[sw->n_lets];
		snprintf(l->name, sizeof(l->name), "%s", name);
		char what[SW_NAME_MAX + 8];
		snprintf(what, sizeof(what), "let %s", name);
		if ((st = parse_expr(c, v, what, sw->n_lets, &l->expr)))
			return st;
		sw->n_lets++;
	}
	return VTA_OK;
}

static vta_status parse_constraints(ctx *c, const yaml_node_t *n)
{
	sweep *sw = c->sw;
	const bool list = n->type == YAML_SEQUENCE_NODE;
	size_t count = list ? n_items(n) : 1;
	if (!(sw->constraints = calloc(count ? count : 1, sizeof(*sw->constraints))))
		return vta_fail(c->err, VTA_E_NOMEM, "out of memory");
	for (size_t i = 0; i < count; i++) {
		vta_status st = parse_expr(c, list ? item(c, n, i) : n, "constraint", sw->n_lets,
					   &sw->constraints[i]);
		if (st)
			return st;
		sw->n_constraints++;
	}
	return VTA_OK;
}

/* metrics: NAME: EXPRESSION, over the columns of a row and the metrics above */
static vta_status parse_metrics(ctx *c, const yaml_node_t *map)
{
	sweep *sw = c->sw;
	vta_status st;
	if ((st = vta_yaml_expect_mapping(&c->y, map, "metrics", c->err)) ||
	    (st = vta_yaml_check_keys(&c->y, map, "metrics", c->err)))
		return st;
	size_t n = n_items(map);
	if (!(sw->metrics = calloc(n ? n : 1, sizeof(*sw->metrics))))
		return vta_fail(c->err, VTA_E_NOMEM, "out of memory");
	for (yaml_node_pair_t *pr = map->data.mapping.pairs.start; pr < map->data.mapping.pairs.top;
	     pr++) {
		yaml_node_t *k = vta_yaml_node(&c->y, pr->key), *v = vta_yaml_node(&c->y, pr->value);
		const char *name = vta_yaml_scalar(k);
		if ((st = new_name(c, k, "metrics", name)))
			return st;
		for (size_t i = 0; i < sw->n_metrics; i++)
			if (!strcmp(sw->metrics[i].name, name))
				return fail(c, k, "metrics: '%s' is already a name", VTA_Q(name));
		sw_metric *m = &sw->metrics[sw->n_metrics];
		snprintf(m->name, sizeof(m->name), "%s", name);
		const char *text = vta_yaml_scalar(v);
		if (!text)
			return fail(c, v, "metric %s: expected an expression", name);
		char what[SW_NAME_MAX + 8];
		snprintf(what, sizeof(what), "metric %s", name);
		sw_where w = where_of(c, v, what);
		m->line = w.line;
		m->col = w.col;
		if ((st = sw_expr_parse(text, &w, &m->expr, c->err)))
			return st;
		sw->n_metrics++; /* freed with the sweep from here on */
		if ((st = sweep_metric_check(sw, m, c->err)))
			return st;
	}
	return VTA_OK;
}

/* ---------- the workload's content ---------- */

static vta_status hash_file(vta_sha256 *h, const char *path, vta_error *err)
{
	/* the files a workload reads: .npy and raw tensors, models (the largest limit) */
	FILE *f;
	uint64_t size, total = 0;
	vta_status st = vta_file_open(path, "workload input", VTA_LIMIT_TFLITE, &f, &size, err);
	if (st)
		return st;
	char buf[65536];
	size_t n;
	vta_sha256_str(h, path);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0 && (total += n) <= VTA_LIMIT_TFLITE)
		vta_sha256_update(h, buf, n);
	fclose(f);
	if (total > VTA_LIMIT_TFLITE)
		return vta_file_too_big(path, "workload input", VTA_LIMIT_TFLITE, err);
	return VTA_OK;
}

/* The workload file and every data file it names: what its layers (or model) are made of. */
static vta_status hash_workload(sweep *sw, vta_error *err)
{
	vta_sha256 h;
	vta_sha256_init(&h);
	vta_status st = hash_file(&h, sw->workload_path, err);
	if (!st && sw->wl.is_model && strcmp(sw->wl.model.path, sw->workload_path))
		st = hash_file(&h, sw->wl.model.path, err);
	for (size_t i = 0; !st && i < sw->wl.model.n_inputs; i++)
		st = hash_file(&h, sw->wl.model.inputs[i], err);
	for (size_t i = 0; !st && i < sw->wl.n_layers; i++) {
		const vta_wl_layer *l = &sw->wl.layers[i];
		const vta_wl_tensor *t[] = {&l->input, &l->filter, &l->bias, &l->inputs[0],
					    &l->inputs[1]};
		for (size_t j = 0; !st && j < sizeof(t) / sizeof(t[0]); j++)
			if (t[j]->present && t[j]->data.source != VTA_WL_RANDOM)
				st = hash_file(&h, t[j]->data.path, err);
	}
	vta_sha256_final_hex(&h, sw->wl_hash);
	return st;
}

/* The workload: a workload YAML (layers, or a model it names), or a .tflite model itself,
 * which is then read here, once, for every point's process to share. */
static vta_status load_workload(ctx *c, const yaml_node_t *n)
{
	sweep *sw = c->sw;
	const char *ext = strrchr(sw->workload_path, '.');
	vta_status st;
	if (ext && !strcmp(ext, ".tflite")) {
		sw->wl.is_model = true;
		snprintf(sw->wl.model.path, sizeof(sw->wl.model.path), "%s", sw->workload_path);
		sw->wl.model.seed = 1;
	} else if ((st = vta_workload_load(sw->workload_path, &sw->wl, c->err)) ||
		   !sw->wl.is_model) {
		return st;
	}
	vta_error e = {0};
	if (vta_tfl_model_load(sw->wl.model.path, &sw->model, &e))
		return fail(c, n, "workload: %s", e.detail);
	return VTA_OK;
}

/* ---------- the file ---------- */

static vta_status parse_root(ctx *c, yaml_node_t *root)
{
	static const char *const keys[] = {"name", "config", "workload", "timeout", "fixed",
					   "axes", "zip", "let", "constraint", "metrics", NULL};
	sweep *sw = c->sw;
	vta_status st;
	yaml_node_t *n;
	if (!root)
		return fail(c, NULL, "empty sweep file");
	if ((st = expect_keys(c, root, "sweep", keys)))
		return st;
	if ((n = vta_yaml_get(&c->y, root, "name")) &&
	    (st = vta_yaml_string(&c->y, n, "name", sw->name, sizeof(sw->name), c->err)))
		return st;
	if (!(n = vta_yaml_get(&c->y, root, "config")))
		return fail(c, root, "sweep: missing 'config' (the base hardware config)");
	if ((st = resolve_path(c, n, "config", sw->config_path)))
		return st;
	if ((st = vta_config_load(sw->config_path, &sw->base, c->err)))
		return st;
	if (!(n = vta_yaml_get(&c->y, root, "workload")))
		return fail(c, root, "sweep: missing 'workload'");
	if ((st = resolve_path(c, n, "workload", sw->workload_path)) ||
	    (st = load_workload(c, n)) ||
	    (st = hash_workload(sw, c->err)))
		return st;
	if (!(sw->columns = sweep_record_columns(sw, c->err)))
		return c->err->status;
	sw->timeout_s = 600;
	if ((n = vta_yaml_get(&c->y, root, "timeout")) &&
	    (st = vta_yaml_double(&c->y, n, "timeout", 0.001, 1e6, &sw->timeout_s, c->err)))
		return st;
	if ((n = vta_yaml_get(&c->y, root, "fixed")) && (st = parse_fixed(c, n)))
		return st;
	if ((n = vta_yaml_get(&c->y, root, "axes")) && (st = parse_axes(c, n)))
		return st;
	if ((st = parse_zip(c, vta_yaml_get(&c->y, root, "zip"), vta_yaml_get(&c->y, root, "axes"))))
		return st;
	if ((n = vta_yaml_get(&c->y, root, "let")) && (st = parse_lets(c, n)))
		return st;
	if ((n = vta_yaml_get(&c->y, root, "constraint")) && (st = parse_constraints(c, n)))
		return st;
	if ((n = vta_yaml_get(&c->y, root, "metrics")) && (st = parse_metrics(c, n)))
		return st;
	return VTA_OK;
}

vta_status sweep_load(const char *path, sweep *sw, vta_error *err)
{
	memset(sw, 0, sizeof(*sw));
	char real[PATH_MAX];
	if (!realpath(path, real))
		return vta_fail(err, VTA_E_IO, "%s: cannot open: %s", path, strerror(errno));
	if (strlen(real) >= sizeof(sw->path))
		return vta_fail(err, VTA_E_IO, "%s: path too long", path);
	snprintf(sw->path, sizeof(sw->path), "%s", real);
	ctx c = {.sw = sw, .err = err};
	snprintf(c.dir, sizeof(c.dir), "%s", real);
	*strrchr(c.dir, '/') = '\0';
	/* the name: the file's, without its folder and extension */
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	snprintf(sw->name, sizeof(sw->name), "%.*s", (int)strcspn(base, "."), base);
	/* messages name the file as the user wrote it */
	vta_status st = vta_yaml_load_file(path, &c.y, err);
	if (!st)
		st = parse_root(&c, vta_yaml_root(&c.y));
	vta_yaml_free(&c.y);
	if (st)
		sweep_free(sw);
	return st;
}

void sweep_free(sweep *sw)
{
	for (size_t i = 0; i < sw->n_params; i++) {
		for (size_t j = 0; j < sw->params[i].n_values; j++)
			free(sw->params[i].values[j]);
		free(sw->params[i].values);
	}
	free(sw->params);
	free(sw->dim_size);
	for (size_t i = 0; i < sw->n_lets; i++)
		sw_expr_free(sw->lets[i].expr);
	free(sw->lets);
	for (size_t i = 0; i < sw->n_constraints; i++)
		sw_expr_free(sw->constraints[i]);
	free(sw->constraints);
	for (size_t i = 0; i < sw->n_metrics; i++)
		sw_expr_free(sw->metrics[i].expr);
	free(sw->metrics);
	json_decref(sw->columns);
	vta_workload_free(&sw->wl);
	vta_tfl_model_free(&sw->model);
	memset(sw, 0, sizeof(*sw));
}
