/* layer_ops.c - the op table (layer_ops.h): CONV2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, ADD. */
#include "layer_ops.h"

#include <stdlib.h>

#include "emit_add.h"
#include "emit_conv2d.h"
#include "emit_depthwise.h"
#include "emit_fc.h"

static vta_layer_array nhwc_array(const char *name, const vta_tensor_i8 *t)
{
	return (vta_layer_array){name, VTA_NPY_I8, 4,
				 {(size_t)t->shape[0], (size_t)t->shape[1], (size_t)t->shape[2],
				  (size_t)t->shape[3]},
				 t->data};
}

/* The shape, quantization and values of an int8 tensor, for a golden key. */
static void key_tensor(vta_golden_key *h, const vta_tensor_i8 *t, bool with_data)
{
	for (int i = 0; i < 4; i++)
		vta_golden_key_u64(h, (uint64_t)(int64_t)t->shape[i]);
	vta_golden_key_f64(h, t->scale);
	vta_golden_key_u64(h, (uint64_t)(int64_t)t->zero_point);
	if (with_data)
		vta_golden_key_update(h, t->data, vta_tensor_i8_count(t));
}

/* ---- CONV2D ---- */

static vta_status conv_decode(const vta_layer_data *d, vta_layer_plain *p, vta_error *err)
{
	return vta_golden_conv2d_decode(&d->conv, d->has_lut ? &d->lut.tensor : NULL,
					d->has_bias_lut ? &d->bias_lut.tensor : NULL, &p->conv,
					p->owned, err);
}

static vta_status conv_golden(const vta_layer_data *d, const vta_layer_plain *p,
			      vta_arith_mode mode, vta_tensor_i8 *out, vta_golden_stats *stats,
			      vta_error *err)
{
	(void)d;
	return vta_golden_conv2d(&p->conv, mode, out, stats, err);
}

static vta_status conv_emit(const vta_config *cfg, const vta_layer_data *d,
			    const vta_emit_opts *opts, vta_dram *dram, vta_layer_stream *ls,
			    vta_error *err)
{
	return vta_emit_conv2d_pinned(cfg, &d->conv, d->has_lut ? &d->lut.tensor : NULL,
				      d->has_bias_lut ? &d->bias_lut.tensor : NULL, &d->output, opts,
				      &d->spec->pin, dram, ls, err);
}

/* A filter of `n` int8 values, its scales, and O biases (or none), for a golden key. */
static void key_consts(vta_golden_key *h, const int8_t *filter, size_t n, const float *scales,
		       size_t n_scales, const int32_t *bias, size_t o)
{
	vta_golden_key_u64(h, n);
	vta_golden_key_update(h, filter, n);
	vta_golden_key_u64(h, n_scales);
	for (size_t i = 0; i < n_scales; i++)
		vta_golden_key_f64(h, scales[i]);
	vta_golden_key_u64(h, bias != NULL);
	if (bias)
		vta_golden_key_update(h, bias, o * sizeof(*bias));
}

static void key_ints(vta_golden_key *h, const int32_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		vta_golden_key_u64(h, (uint64_t)(int64_t)v[i]);
}

static void conv_golden_key(const vta_layer_data *d, const vta_layer_plain *p, vta_golden_key *h)
{
	const vta_conv2d *c = &p->conv;
	const int32_t *fs = c->filter_shape;
	key_tensor(h, c->input, true);
	key_ints(h, fs, 4);
	key_consts(h, c->filter, (size_t)fs[0] * fs[1] * fs[2] * fs[3], c->filter_scales,
		   c->filter_scale_count, c->bias, (size_t)fs[0]);
	const int32_t params[] = {c->stride_h, c->stride_w, c->dilation_h, c->dilation_w,
				  (int32_t)c->padding, (int32_t)c->activation};
	key_ints(h, params, sizeof(params) / sizeof(params[0]));
	key_tensor(h, &d->output, false);
}

/* CONV2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED read their input once. */
static uint64_t conv_input_bytes(const vta_layer_data *d)
{
	return vta_tensor_i8_count(&d->input);
}

static const vta_lut_tensor *filter_lut(const vta_layer_data *d)
{
	return d->has_lut ? &d->lut.tensor : NULL;
}

static const vta_lut_tensor *bias_lut(const vta_layer_data *d)
{
	return d->has_bias_lut ? &d->bias_lut.tensor : NULL;
}

static size_t conv_arrays(const vta_layer_data *d, const vta_layer_plain *p,
			  vta_layer_array out[])
{
	const int32_t *fs = p->conv.filter_shape;
	size_t oc = (size_t)fs[0];
	out[0] = nhwc_array("input", &d->input);
	out[1] = (vta_layer_array){"filter", VTA_NPY_I8, 4,
				   {oc, (size_t)fs[1], (size_t)fs[2], (size_t)fs[3]}, p->conv.filter};
	out[2] = (vta_layer_array){"filter_scales", VTA_NPY_F32, 1, {oc}, d->filter_scales};
	out[3] = (vta_layer_array){"bias", VTA_NPY_I32, 1, {oc}, p->conv.bias};
	return p->conv.bias ? 4 : 3;
}

/* ---- DEPTHWISE_CONV_2D ---- */

static vta_status dw_decode(const vta_layer_data *d, vta_layer_plain *p, vta_error *err)
{
	return vta_golden_depthwise_decode(&d->dw, filter_lut(d), bias_lut(d), &p->dw, p->owned,
					   err);
}

static vta_status dw_golden(const vta_layer_data *d, const vta_layer_plain *p,
			    vta_arith_mode mode, vta_tensor_i8 *out, vta_golden_stats *stats,
			    vta_error *err)
{
	(void)d;
	return vta_golden_depthwise(&p->dw, mode, out, stats, err);
}

static vta_status dw_emit(const vta_config *cfg, const vta_layer_data *d,
			  const vta_emit_opts *opts, vta_dram *dram, vta_layer_stream *ls,
			  vta_error *err)
{
	return vta_emit_depthwise_conv2d(cfg, &d->dw, filter_lut(d), bias_lut(d), &d->output, opts,
					 dram, ls, err);
}

static size_t dw_arrays(const vta_layer_data *d, const vta_layer_plain *p, vta_layer_array out[])
{
	const int32_t *fs = p->dw.filter_shape;
	size_t oc = (size_t)fs[3];
	out[0] = nhwc_array("input", &d->input);
	out[1] = (vta_layer_array){"filter", VTA_NPY_I8, 4,
				   {1, (size_t)fs[1], (size_t)fs[2], oc}, p->dw.filter};
	out[2] = (vta_layer_array){"filter_scales", VTA_NPY_F32, 1, {oc}, d->filter_scales};
	out[3] = (vta_layer_array){"bias", VTA_NPY_I32, 1, {oc}, p->dw.bias};
	return p->dw.bias ? 4 : 3;
}

static void dw_golden_key(const vta_layer_data *d, const vta_layer_plain *p, vta_golden_key *h)
{
	const vta_depthwise_conv2d *c = &p->dw;
	const int32_t *fs = c->filter_shape;
	key_tensor(h, c->input, true);
	key_ints(h, fs, 4);
	key_consts(h, c->filter, (size_t)fs[0] * fs[1] * fs[2] * fs[3], c->filter_scales,
		   c->filter_scale_count, c->bias, (size_t)fs[3]);
	const int32_t params[] = {c->depth_multiplier, c->stride_h,          c->stride_w,
				  c->dilation_h,       c->dilation_w,        (int32_t)c->padding,
				  (int32_t)c->activation};
	key_ints(h, params, sizeof(params) / sizeof(params[0]));
	key_tensor(h, &d->output, false);
}

/* ---- FULLY_CONNECTED ---- */

static vta_status fc_decode(const vta_layer_data *d, vta_layer_plain *p, vta_error *err)
{
	return vta_golden_fc_decode(&d->fc, filter_lut(d), bias_lut(d), &p->fc, p->owned, err);
}

static vta_status fc_golden(const vta_layer_data *d, const vta_layer_plain *p,
			    vta_arith_mode mode, vta_tensor_i8 *out, vta_golden_stats *stats,
			    vta_error *err)
{
	(void)d;
	return vta_golden_fc(&p->fc, mode, out, stats, err);
}

static vta_status fc_emit(const vta_config *cfg, const vta_layer_data *d,
			  const vta_emit_opts *opts, vta_dram *dram, vta_layer_stream *ls,
			  vta_error *err)
{
	return vta_emit_fully_connected(cfg, &d->fc, filter_lut(d), bias_lut(d), &d->output, opts,
					dram, ls, err);
}

static size_t fc_arrays(const vta_layer_data *d, const vta_layer_plain *p, vta_layer_array out[])
{
	size_t oc = (size_t)p->fc.filter_shape[0];
	out[0] = nhwc_array("input", &d->input);
	out[1] = (vta_layer_array){"filter", VTA_NPY_I8, 2, {oc, (size_t)p->fc.filter_shape[1]},
				   p->fc.filter};
	out[2] = (vta_layer_array){"filter_scales", VTA_NPY_F32, 1, {oc}, d->filter_scales};
	out[3] = (vta_layer_array){"bias", VTA_NPY_I32, 1, {oc}, p->fc.bias};
	return p->fc.bias ? 4 : 3;
}

static void fc_golden_key(const vta_layer_data *d, const vta_layer_plain *p, vta_golden_key *h)
{
	const vta_fully_connected *c = &p->fc;
	key_tensor(h, c->input, true);
	key_ints(h, c->filter_shape, 2);
	key_consts(h, c->filter, (size_t)c->filter_shape[0] * c->filter_shape[1], c->filter_scales,
		   c->filter_scale_count, c->bias, (size_t)c->filter_shape[0]);
	vta_golden_key_u64(h, (uint64_t)c->activation);
	key_tensor(h, &d->output, false);
}

/* ---- ADD ---- */

static vta_status add_decode(const vta_layer_data *d, vta_layer_plain *p, vta_error *err)
{
	return vta_golden_add_decode(&d->b, d->has_lut ? &d->lut.tensor : NULL, &p->b,
				     &p->owned[0], err);
}

static vta_status add_golden(const vta_layer_data *d, const vta_layer_plain *p,
			     vta_arith_mode mode, vta_tensor_i8 *out, vta_golden_stats *stats,
			     vta_error *err)
{
	/* ADD is symmetric bit for bit: the golden kernel takes the broadcast operand second */
	const vta_tensor_i8 *a = &d->a, *b = &p->b;
	if (vta_tensor_i8_count(a) < vta_tensor_i8_count(b)) {
		a = &p->b;
		b = &d->a;
	}
	return vta_golden_add(a, b, d->spec->activation, mode, out, stats, err);
}

static vta_status add_emit(const vta_config *cfg, const vta_layer_data *d,
			   const vta_emit_opts *opts, vta_dram *dram, vta_layer_stream *ls,
			   vta_error *err)
{
	return vta_emit_add(cfg, &d->a, NULL, &d->b, d->has_lut ? &d->lut.tensor : NULL,
			    d->spec->activation, &d->output, opts, dram, ls, err);
}

static void add_golden_key(const vta_layer_data *d, const vta_layer_plain *p, vta_golden_key *h)
{
	key_tensor(h, &d->a, true);
	key_tensor(h, &p->b, true);
	vta_golden_key_u64(h, (uint64_t)d->spec->activation);
	key_tensor(h, &d->output, false);
}

static uint64_t add_input_bytes(const vta_layer_data *d)
{
	/* a constant operand is counted with the constants */
	return vta_tensor_i8_count(&d->a) + (d->has_lut ? 0 : vta_tensor_i8_count(&d->b));
}

static size_t add_arrays(const vta_layer_data *d, const vta_layer_plain *p,
			 vta_layer_array out[])
{
	/* b was inputs[0] when that was the constant */
	out[d->swapped] = nhwc_array(d->swapped ? "input1" : "input0", &d->a);
	out[!d->swapped] = nhwc_array(d->swapped ? "input0" : "input1", &p->b);
	return 2;
}

static const vta_layer_ops OPS[] = {
	[VTA_WL_CONV2D] = {vta_layer_materialize_conv2d, conv_decode, conv_golden, conv_emit,
			   conv_golden_key, conv_input_bytes, conv_arrays},
	[VTA_WL_ADD] = {vta_layer_materialize_add, add_decode, add_golden, add_emit,
			add_golden_key, add_input_bytes, add_arrays},
	[VTA_WL_DEPTHWISE] = {vta_layer_materialize_depthwise, dw_decode, dw_golden, dw_emit,
			      dw_golden_key, conv_input_bytes, dw_arrays},
	[VTA_WL_FC] = {vta_layer_materialize_fc, fc_decode, fc_golden, fc_emit, fc_golden_key,
		       conv_input_bytes, fc_arrays},
};

const vta_layer_ops *vta_layer_ops_of(vta_wl_op op)
{
	return &OPS[op];
}

void vta_layer_plain_free(vta_layer_plain *p)
{
	free(p->owned[0]);
	free(p->owned[1]);
}
