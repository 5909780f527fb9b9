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
	return vta_emit_conv2d(cfg, &d->conv, d->has_lut ? &d->lut.tensor : NULL,
			       d->has_bias_lut ? &d->bias_lut.tensor : NULL, &d->output, opts, dram,
			       ls, err);
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
			   conv_input_bytes, conv_arrays},
	[VTA_WL_ADD] = {vta_layer_materialize_add, add_decode, add_golden, add_emit,
			add_input_bytes, add_arrays},
	[VTA_WL_DEPTHWISE] = {vta_layer_materialize_depthwise, dw_decode, dw_golden, dw_emit,
			      conv_input_bytes, dw_arrays},
	[VTA_WL_FC] = {vta_layer_materialize_fc, fc_decode, fc_golden, fc_emit, conv_input_bytes,
		       fc_arrays},
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
