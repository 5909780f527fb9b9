/*
 * sweep_points.c - the points of a sweep (sweep.h): the product of the axes, each point's
 * config (its keys set on the base config, then derived once, so the order of the axes
 * does not matter; a config that does not derive is the point's error), its run options,
 * its lets and constraints, and the key that names its results.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_run.h"
#include "sweep.h"
#include "vta_config_keys.h"
#include "vta_text.h"

/* What an expression reads at a point. */
typedef struct point_ctx {
	const sweep *sw;
	const sw_point *p;
	size_t n_lets;    /* lets evaluated so far */
	bool needed_cfg;  /* a name had no value because the config is refused */
} point_ctx;

/* A parameter's text as a value: numbers and booleans as numbers, others as strings. */
static sw_value text_value(const char *text)
{
	char *end;
	double v = strtod(text, &end);
	if (*text && !*end)
		return (sw_value){SW_NUM, v, NULL};
	if (!strcmp(text, "true") || !strcmp(text, "false"))
		return (sw_value){SW_NUM, !strcmp(text, "true"), NULL};
	return (sw_value){SW_STR, 0, text};
}

static sw_value key_value(const vta_config_key *k, const vta_config *cfg)
{
	const char *f = (const char *)cfg + k->offset;
	switch (k->type) {
	case VTA_KEY_U32: return (sw_value){SW_NUM, *(const uint32_t *)f, NULL};
	case VTA_KEY_U64: return (sw_value){SW_NUM, (double)*(const uint64_t *)f, NULL};
	case VTA_KEY_DOUBLE: return (sw_value){SW_NUM, *(const double *)f, NULL};
	case VTA_KEY_BOOL: return (sw_value){SW_NUM, *(const bool *)f, NULL};
	case VTA_KEY_STRING: return (sw_value){SW_STR, 0, f};
	default: return (sw_value){SW_STR, 0, k->choices[*(const uint32_t *)f]};
	}
}

static const char *mode_name(vta_arith_mode m)
{
	return m == VTA_ARITH_VTA16 ? "vta16" : "tflite";
}

/* The derived values (sweep_derived_names): the SRAM total from the keys as set, the rest
 * from the derived config, which a refused point does not have. */
static bool derived_value(point_ctx *c, const char *name, sw_value *out, bool *failed,
			  vta_error *err)
{
	const vta_config *raw = &c->p->raw, *cfg = &c->p->cfg;
	if (!strcmp(name, "sram_kib.total")) {
		*out = (sw_value){SW_NUM,
				  (double)raw->sram[VTA_MEM_UOP].kib + raw->sram[VTA_MEM_INP].kib +
					  raw->sram[VTA_MEM_WGT].kib + raw->sram[VTA_MEM_ACC].kib,
				  NULL};
		return true;
	}
	if (!c->p->cfg_ok) {
		*failed = true;
		c->needed_cfg = true;
		vta_fail(err, VTA_E_CONFIG, "'%s' has no value: %s", VTA_Q(name), c->p->error);
		return false;
	}
	const struct {
		const char *name;
		double v;
	} d[] = {
		{"sram_kib.out", (double)cfg->sram[VTA_MEM_OUT].bytes / 1024},
		{"batch", cfg->batch},
		{"block_in", cfg->block_in},
		{"block_out", cfg->block_out},
		{"macs_per_cycle", (double)cfg->batch * cfg->block_in * cfg->block_out},
		{"uop_depth", cfg->sram[VTA_MEM_UOP].depth},
		{"inp_depth", cfg->sram[VTA_MEM_INP].depth},
		{"wgt_depth", cfg->sram[VTA_MEM_WGT].depth},
		{"acc_depth", cfg->sram[VTA_MEM_ACC].depth},
		{"out_depth", cfg->sram[VTA_MEM_OUT].depth},
	};
	for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++)
		if (!strcmp(d[i].name, name)) {
			*out = (sw_value){SW_NUM, d[i].v, NULL};
			return true;
		}
	return false;
}

static bool point_lookup(void *vctx, const char *name, sw_value *out, bool *failed,
			 vta_error *err)
{
	point_ctx *c = vctx;
	const sweep *sw = c->sw;
	const sw_point *p = c->p;
	for (size_t i = 0; i < c->n_lets; i++)
		if (!strcmp(sw->lets[i].name, name)) {
			if (p->let_values[i].type == SW_STR && !p->let_values[i].str[0] &&
			    !p->cfg_ok) {
				*failed = c->needed_cfg = true;
				vta_fail(err, VTA_E_CONFIG, "'%s' has no value: %s", VTA_Q(name),
					 p->error);
				return false;
			}
			*out = p->let_values[i];
			return true;
		}
	const vta_config_key *k = vta_config_key_find(name);
	if (k) {
		*out = key_value(k, &p->raw);
		return true;
	}
	if (!strcmp(name, "threads")) {
		*out = (sw_value){SW_NUM, p->threads, NULL};
		return true;
	}
	if (!strcmp(name, "mode")) {
		*out = (sw_value){SW_STR, 0, mode_name(p->mode)};
		return true;
	}
	if (!strcmp(name, "decompress")) {
		*out = (sw_value){SW_STR, 0, p->decompress};
		return true;
	}
	if (!strcmp(name, "lut_bits")) {
		*out = (sw_value){SW_NUM, p->lut_bits, NULL};
		return true;
	}
	for (size_t i = 0; i < sw->n_params; i++)
		if (!strcmp(sw->params[i].name, name)) { /* layers, plan.* */
			*out = text_value(p->value[i]);
			return true;
		}
	if (!strcmp(name, "layers")) {
		*out = (sw_value){SW_STR, 0, "all"};
		return true;
	}
	if (!strcmp(name, "host_ops")) { /* the workload's */
		*out = (sw_value){SW_STR, 0, sw->wl.model.host_ops[0] ? sw->wl.model.host_ops
									: "none"};
		return true;
	}
	if (!strncmp(name, "plan.", 5)) {
		*out = (sw_value){SW_STR, 0, "free"};
		return true;
	}
	return derived_value(c, name, out, failed, err);
}

/* The parameter of kind k's text at p, or NULL when the sweep does not set it. */
static const char *param_text(const sweep *sw, const sw_point *p, sw_kind k)
{
	for (size_t i = 0; i < sw->n_params; i++)
		if (sw->params[i].kind == k)
			return p->value[i];
	return NULL;
}

static void refuse(sw_point *p, const char *fmt, const char *detail)
{
	if (p->refused)
		return;
	p->refused = true;
	snprintf(p->error, sizeof(p->error), fmt, detail);
}

/* The run options and workload parameters of p. */
static void resolve_options(const sweep *sw, sw_point *p)
{
	const char *t;
	p->threads = (t = param_text(sw, p, SW_THREADS)) ? (unsigned)atoi(t) : 2;
	p->mode = (t = param_text(sw, p, SW_MODE)) && !strcmp(t, "vta16") ? VTA_ARITH_VTA16
									   : VTA_ARITH_TFLITE;
	p->lut_bits = (t = param_text(sw, p, SW_LUT_BITS)) ? atoi(t) : -1;
	const char *dec = param_text(sw, p, SW_DECOMPRESS);
	if (!dec)
		dec = "auto";
	if (!p->cfg_ok)
		p->decompress = !strcmp(dec, "auto") ? "auto" : !strcmp(dec, "hw") ? "hw" : "host";
	else if (!strcmp(dec, "auto"))
		p->decompress = p->cfg.decomp_enabled ? "hw" : "host";
	else
		p->decompress = !strcmp(dec, "hw") ? "hw" : "host";
	if (p->cfg_ok && !strcmp(p->decompress, "hw") && !p->cfg.decomp_enabled)
		refuse(p, "%s", "decompress hw: the config has no LUT decoder "
				"(decompressor.enabled is false)");
	p->host_classes = sw->wl.model.host_classes;
	if ((t = param_text(sw, p, SW_HOST_OPS))) /* checked when the file was read */
		vta_model_host_classes(t, &p->host_classes, NULL);
	const char *layers = param_text(sw, p, SW_LAYERS);
	for (size_t i = 0; i < sw->wl.n_layers; i++) {
		const char *name = sw->wl.layers[i].name;
		bool on = !layers || !strcmp(layers, "all");
		for (const char *s = layers; !on && s && *s;) {
			size_t n = strcspn(s, ",");
			on = n == strlen(name) && !strncmp(s, name, n);
			s += n + (s[n] == ',');
		}
		p->layer_on[i] = on;
	}
}

/* The key of a runnable point: its whole config, options and workload. */
static void point_key(const sweep *sw, sw_point *p)
{
	vta_sha256 h;
	vta_sha256_init(&h);
	vta_sha256_str(&h, "vtasim sweep point 1");
	size_t nk;
	const vta_config_key *keys = vta_config_keys(&nk);
	for (size_t i = 0; i < nk; i++) {
		if (keys[i].type == VTA_KEY_STRING)
			continue; /* the name is a label */
		char text[128];
		vta_config_key_format(&keys[i], &p->cfg, text, sizeof(text));
		vta_sha256_str(&h, keys[i].name);
		vta_sha256_str(&h, text);
	}
	vta_sha256_str(&h, mode_name(p->mode));
	vta_sha256_u64(&h, p->threads);
	vta_sha256_str(&h, p->decompress);
	vta_sha256_u64(&h, (uint64_t)(int64_t)p->lut_bits);
	vta_sha256_str(&h, sw->wl_hash);
	if (sw->wl.is_model)
		vta_sha256_u64(&h, p->host_classes);
	for (size_t i = 0; i < sw->wl.n_layers; i++)
		if (p->layer_on[i])
			vta_sha256_str(&h, sw->wl.layers[i].name);
	for (size_t i = 0; i < sw->n_params; i++)
		if (sw->params[i].kind == SW_PLAN) {
			vta_sha256_str(&h, sw->params[i].name);
			vta_sha256_str(&h, p->value[i]);
		}
	vta_sha256_final_hex(&h, p->key);
}

/* Resolve point `index`; *keep is false when a constraint drops it. */
static vta_status resolve(const sweep *sw, size_t index, sw_point *p, bool *keep,
			  vta_error *err)
{
	p->index = index;
	/* the digits of index, last dimension fastest */
	size_t digit[64] = {0}, rest = index;
	for (size_t d = sw->n_dims; d-- > 0;) {
		digit[d] = rest % sw->dim_size[d];
		rest /= sw->dim_size[d];
	}
	for (size_t i = 0; i < sw->n_params; i++) {
		const sw_param *q = &sw->params[i];
		p->value[i] = q->values[q->axis ? digit[q->dim] : 0];
	}
	p->raw = sw->base;
	for (size_t i = 0; i < sw->n_params; i++)
		if (sw->params[i].kind == SW_CONFIG) /* checked when the file was read */
			vta_config_key_parse(vta_config_key_find(sw->params[i].name), p->value[i],
					     &p->raw, NULL);
	p->cfg = p->raw;
	vta_error e = {0};
	p->cfg_ok = vta_config_derive(&p->cfg, &e) == VTA_OK;
	if (!p->cfg_ok)
		refuse(p, "config refused: %s", e.detail);
	resolve_options(sw, p);
	point_ctx c = {sw, p, 0, false};
	vta_status st;
	for (size_t i = 0; i < sw->n_lets; i++) {
		c.needed_cfg = false;
		vta_error le = {0};
		st = sw_expr_eval(sw->lets[i].expr, point_lookup, &c, &p->let_values[i], &le);
		if (st && !c.needed_cfg)
			return vta_fail(err, st, "%s", le.detail);
		if (st)
			p->let_values[i] = (sw_value){SW_STR, 0, ""};
		char text[128];
		sw_value_format(&p->let_values[i], text, sizeof(text));
		if (!(p->let_text[i] = strdup(text)))
			return vta_fail(err, VTA_E_NOMEM, "out of memory");
		if (p->let_values[i].type == SW_STR) /* a string now lives in let_text */
			p->let_values[i].str = p->let_text[i];
		c.n_lets = i + 1;
	}
	*keep = true;
	for (size_t i = 0; i < sw->n_constraints && *keep; i++) {
		c.needed_cfg = false;
		vta_error ce = {0};
		st = sw_expr_eval_bool(sw->constraints[i], point_lookup, &c, keep, &ce);
		if (st && !c.needed_cfg)
			return vta_fail(err, st, "%s", ce.detail);
		if (st) /* the refused config decides: the point is an error row */
			*keep = true;
	}
	if (!p->refused)
		point_key(sw, p);
	return VTA_OK;
}

static void point_free(const sweep *sw, sw_point *p)
{
	free(p->value);
	free(p->layer_on);
	for (size_t i = 0; p->let_text && i < sw->n_lets; i++)
		free(p->let_text[i]);
	free(p->let_text);
	free(p->let_values);
}

void sweep_points_free(const sweep *sw, sw_point *points, size_t n)
{
	for (size_t i = 0; i < n; i++)
		point_free(sw, &points[i]);
	free(points);
}

vta_status sweep_points(const sweep *sw, sw_point **points, size_t *n, size_t *skipped,
			vta_error *err)
{
	size_t total = 1;
	for (size_t d = 0; d < sw->n_dims; d++)
		total *= sw->dim_size[d];
	*points = NULL;
	*n = *skipped = 0;
	sw_point *ps = calloc(total, sizeof(*ps));
	if (!ps)
		return vta_fail(err, VTA_E_NOMEM, "out of memory");
	size_t kept = 0;
	vta_status st = VTA_OK;
	for (size_t i = 0; i < total && !st; i++) {
		sw_point *p = &ps[kept];
		memset(p, 0, sizeof(*p));
		p->value = calloc(sw->n_params + 1, sizeof(*p->value));
		p->layer_on = calloc(sw->wl.n_layers + 1, sizeof(*p->layer_on));
		p->let_values = calloc(sw->n_lets + 1, sizeof(*p->let_values));
		p->let_text = calloc(sw->n_lets + 1, sizeof(*p->let_text));
		bool keep = false;
		if (!p->value || !p->layer_on || !p->let_values || !p->let_text)
			st = vta_fail(err, VTA_E_NOMEM, "out of memory");
		else
			st = resolve(sw, i, p, &keep, err);
		if (!st && keep) {
			kept++;
		} else {
			point_free(sw, p);
			*skipped += !st;
		}
	}
	if (st) {
		sweep_points_free(sw, ps, kept);
		return st;
	}
	*points = ps;
	*n = kept;
	return VTA_OK;
}

void sweep_point_label(const sweep *sw, const sw_point *p, char *out, size_t size)
{
	size_t len = 0;
	out[0] = '\0';
	for (size_t i = 0; i < sw->n_params; i++)
		if (sw->params[i].axis)
			vta_appendf(out, size, &len, "%s%s=%s", len ? " " : "", sw->params[i].name,
				    p->value[i]);
	if (!len)
		snprintf(out, size, "(the only point)");
}

json_t *sweep_value_json(const sw_value *v)
{
	if (v->type == SW_STR)
		return json_string(v->str);
	if (v->num == floor(v->num) && fabs(v->num) < 9e15)
		return json_integer((json_int_t)v->num);
	return json_real(v->num);
}

json_t *sweep_manifest(const sweep *sw, const sw_point *points, size_t n, size_t skipped)
{
	json_t *m = json_object();
	json_object_set_new(m, "format", json_string("vtasim sweep 1"));
	json_object_set_new(m, "name", json_string(sw->name));
	json_object_set_new(m, "sweep", json_string(sw->path));
	json_object_set_new(m, "config", json_string(sw->config_path));
	json_object_set_new(m, "workload", json_string(sw->workload_path));
	json_object_set_new(m, "workload_digest", json_string(sw->wl_hash));
	json_t *params = json_array();
	for (size_t i = 0; i < sw->n_params; i++) {
		const sw_param *q = &sw->params[i];
		static const char *const kinds[] = {"config", "threads", "mode", "decompress",
						    "lut_bits", "layers", "plan", "host_ops"};
		json_t *o = json_object();
		json_object_set_new(o, "name", json_string(q->name));
		json_object_set_new(o, "kind", json_string(kinds[q->kind]));
		json_object_set_new(o, "axis", json_boolean(q->axis));
		if (q->axis) /* zipped axes share one */
			json_object_set_new(o, "dim", json_integer((json_int_t)q->dim));
		json_t *vals = json_array();
		for (size_t j = 0; j < q->n_values; j++)
			json_array_append_new(vals, json_string(q->values[j]));
		json_object_set_new(o, "values", vals);
		json_array_append_new(params, o);
	}
	json_object_set_new(m, "params", params);
	json_t *lets = json_array();
	for (size_t i = 0; i < sw->n_lets; i++)
		json_array_append_new(lets, json_string(sw->lets[i].name));
	json_object_set_new(m, "lets", lets);
	json_t *metrics = json_array();
	for (size_t i = 0; i < sw->n_metrics; i++) {
		const sw_metric *q = &sw->metrics[i];
		json_array_append_new(metrics, json_pack("{s:s, s:s, s:i, s:i}", "name", q->name,
							 "expr", sw_expr_text(q->expr), "line",
							 q->line, "col", q->col));
	}
	json_object_set_new(m, "metrics", metrics);
	json_t *layers = json_array();
	for (size_t i = 0; i < sw->wl.n_layers; i++)
		json_array_append_new(layers, json_string(sw->wl.layers[i].name));
	json_object_set_new(m, "layers", layers);
	json_t *pts = json_array();
	for (size_t i = 0; i < n; i++) {
		const sw_point *p = &points[i];
		json_t *o = json_object();
		json_object_set_new(o, "index", json_integer((json_int_t)p->index));
		json_object_set_new(o, "key", json_string(p->key));
		json_t *vals = json_object();
		for (size_t j = 0; j < sw->n_params; j++)
			json_object_set_new(vals, sw->params[j].name, json_string(p->value[j]));
		json_object_set_new(o, "values", vals);
		json_t *lv = json_object();
		for (size_t j = 0; j < sw->n_lets; j++)
			json_object_set_new(lv, sw->lets[j].name, sweep_value_json(&p->let_values[j]));
		json_object_set_new(o, "lets", lv);
		json_object_set_new(o, "sram_kib.total",
				    json_integer((json_int_t)p->raw.sram[VTA_MEM_UOP].kib +
						 p->raw.sram[VTA_MEM_INP].kib +
						 p->raw.sram[VTA_MEM_WGT].kib +
						 p->raw.sram[VTA_MEM_ACC].kib));
		json_object_set_new(o, "mode", json_string(mode_name(p->mode)));
		json_object_set_new(o, "threads", json_integer(p->threads));
		json_object_set_new(o, "decompress", json_string(p->decompress));
		json_t *sel = json_array();
		for (size_t j = 0; j < sw->wl.n_layers; j++)
			if (p->layer_on[j])
				json_array_append_new(sel, json_string(sw->wl.layers[j].name));
		json_object_set_new(o, "layers", sel);
		if (p->refused)
			json_object_set_new(o, "error", json_string(p->error));
		json_array_append_new(pts, o);
	}
	json_object_set_new(m, "points", pts);
	json_object_set_new(m, "skipped", json_integer((json_int_t)skipped));
	return m;
}
