/*
 * op_depthwise.c - DEPTHWISE_CONV_2D on the accelerator: the golden kernel
 * (golden_depthwise.c), the emitter (emit_depthwise.c: a grouped CONV2D), the workload's
 * `depthwise_conv2d`, and a model's op made into a layer. Class `depthwise` of --host-ops.
 */
#include <string.h>

#include "emit_depthwise.h"
#include "golden.h"
#include "op_env.h"
#include "op_layer.h"
#include "op_registry.h"
#include "op_shape.h"
#include "vta_text.h"

static vta_status dw_decode(const vta_layer_data *d, vta_layer_plain *p, vta_error *err)
{
	return vta_golden_depthwise_decode(&d->dw, vta_op_filter_lut(d), vta_op_bias_lut(d),
					   &p->dw, p->owned, err);
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
	return vta_emit_depthwise_conv2d(cfg, &d->dw, vta_op_filter_lut(d), vta_op_bias_lut(d),
					 &d->output, opts, dram, ls, err);
}

static size_t dw_arrays(const vta_layer_data *d, const vta_layer_plain *p, vta_layer_array out[])
{
	const int32_t *fs = p->dw.filter_shape;
	size_t oc = (size_t)fs[3];
	out[0] = vta_op_nhwc_array("input", &d->input);
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
	vta_op_key_tensor(h, c->input, true);
	vta_op_key_ints(h, fs, 4);
	vta_op_key_consts(h, c->filter, (size_t)fs[0] * fs[1] * fs[2] * fs[3], c->filter_scales,
		   c->filter_scale_count, c->bias, (size_t)fs[3]);
	const int32_t params[] = {c->depth_multiplier, c->stride_h,          c->stride_w,
				  c->dilation_h,       c->dilation_w,        (int32_t)c->padding,
				  (int32_t)c->activation};
	vta_op_key_ints(h, params, sizeof(params) / sizeof(params[0]));
	vta_op_key_tensor(h, &d->output, false);
}

static vta_status dw_build(vta_op_env *env, const vta_tfl_op *op, vta_op_layer *b,
			   vta_error *err)
{
	const vta_tfl_tensor *f = &vta_op_env_model(env)->tensors[op->inputs[1]];
	const vta_tfl_conv_options *co = &op->opt.conv;
	vta_layer_data *d = &b->d;
	int32_t shape[4];
	vta_status st;
	if (f->rank != 4)
		return vta_fail(err, VTA_E_UNSUPPORTED, "filter of rank %d, expected 4", f->rank);
	if ((st = vta_op_input(env, op->inputs[0], &d->input, err)))
		return st;
	b->spec.activation = co->activation;
	if ((st = vta_op_weights(env, op, (size_t)f->shape[3], b, err)))
		return st;
	vta_depthwise_conv2d *dw = &d->dw;
	dw->input = &d->input;
	dw->filter = d->filter;
	memcpy(dw->filter_shape, f->shape, sizeof(dw->filter_shape));
	dw->depth_multiplier = co->depth_multiplier;
	dw->filter_scales = d->filter_scales;
	dw->filter_scale_count = (size_t)f->shape[3];
	dw->bias = d->bias;
	dw->stride_h = co->stride_h;
	dw->stride_w = co->stride_w;
	dw->dilation_h = co->dilation_h;
	dw->dilation_w = co->dilation_w;
	dw->padding = co->padding;
	dw->activation = co->activation;
	if ((st = vta_golden_depthwise_shape(dw, shape, err)))
		return st;
	return vta_op_layer_output(env, op, shape, b, err);
}

static vta_status dw_derive(vta_op_shape *c, uint64_t *want, bool *known)
{
	const vta_tfl_op *op = c->op;
	const vta_tfl_conv_options *co = &op->opt.conv;
	const vta_tfl_tensor *a, *b;
	vta_tensor_i8 in;
	int32_t os[4];
	vta_error e = {0};
	vta_status st;
	*known = true;
	if (!(a = vta_op_shape_input(c, 0)) || !(b = vta_op_shape_input(c, 1)))
		return c->err->status;
	if (b->rank != 4)
		return vta_op_shape_fail(c, "filter '%s' of rank %d, expected 4", VTA_Q(b->name),
					 b->rank);
	if ((st = vta_op_shape_nhwc(c, a, &in)))
		return st;
	vta_depthwise_conv2d dw = {.input = &in, .stride_h = co->stride_h,
				   .stride_w = co->stride_w, .dilation_h = co->dilation_h,
				   .dilation_w = co->dilation_w, .padding = co->padding,
				   .depth_multiplier = co->depth_multiplier};
	memcpy(dw.filter_shape, b->shape, sizeof(dw.filter_shape));
	if (vta_golden_depthwise_shape(&dw, os, &e))
		return vta_op_shape_fail(c, "%s", e.detail);
	*want = vta_op_dims_count(os, 4);
	return VTA_OK;
}

static const vta_layer_ops dw_layer = {vta_layer_materialize_depthwise, dw_decode, dw_golden,
				       dw_emit, dw_golden_key, vta_op_input_bytes_once, dw_arrays};

const vta_op_desc vta_op_depthwise = {
	.name = "DEPTHWISE_CONV_2D",
	.builtin = VTA_TFL_OP_DEPTHWISE_CONV_2D,
	.place = VTA_OP_ACCEL,
	.host_class = "depthwise",
	.workload_name = "depthwise_conv2d",
	.layer = &dw_layer,
	.build = dw_build,
	.derive = dw_derive,
};
