/* workload_layer.c - materialise a workload layer into tensors (see workload_layer.h). */
#include "workload_layer.h"

#include "golden.h"
#include "layer_ops.h"
#include "op.h"
#include "vta_text.h"

#include <stdlib.h>
#include <string.h>

/* Default ranges of random data. */
#define ACT_LO (-128)
#define ACT_HI 127
#define WGT_LO (-127) /* TFLite int8 weights are symmetric: [-127, 127] */
#define WGT_HI 127
#define BIAS_LO (-2048)
#define BIAS_HI 2048

static size_t shape_count(const int32_t *shape, int rank)
{
	size_t n = 1;
	for (int i = 0; i < rank; i++)
		n *= (size_t)shape[i];
	return n;
}

/* Compress a constant drawn into `data`, which is then freed: from here on its LUT tensor
 * is the constant's only copy, decoded by each consumer (golden side, emitter, dump). */
static vta_status compress_constant(const vta_wl_tensor *t, const char *what, vta_lut_type type,
				    void *data, size_t count, vta_wl_channels ch,
				    vta_lut_buffer *lut, vta_layer_data *d, vta_error *err)
{
	vta_status st = vta_wl_compress(t, what, type, data, count, ch, lut, err);
	free(data);
	d->compressed_bytes += lut->tensor.indices_bytes + lut->tensor.value_table_bytes;
	d->decompressed_bytes += count * vta_lut_type_size(type);
	return st;
}

static vta_status alloc_tensor(vta_tensor_i8 *t, const int32_t shape[4], float scale,
			       int32_t zp, vta_error *err)
{
	memcpy(t->shape, shape, 4 * sizeof(int32_t));
	t->scale = scale;
	t->zero_point = zp;
	size_t n = shape_count(shape, 4);
	t->data = malloc(n ? n : 1);
	if (!t->data)
		return vta_fail(err, VTA_E_NOMEM, "out of memory for a %zu-byte tensor", n);
	return VTA_OK;
}

/* A workload activation shape of rank 1..4, right-aligned into NHWC. */
static void nhwc_of(const vta_wl_tensor *t, int32_t out[4])
{
	for (int i = 0; i < 4; i++)
		out[i] = 1;
	for (int i = 0; i < t->rank; i++)
		out[4 - t->rank + i] = t->shape[i];
}

/* The input, filter, filter scales and bias of a layer with `oc` output channels, the
 * filter's channel axis first (CONV2D, FULLY_CONNECTED) or last (DEPTHWISE_CONV_2D). */
static vta_status materialize_weights(const vta_wl_layer *l, vta_layer_data *d, size_t oc,
				      bool axis_last, vta_error *err)
{
	vta_status st;
	int32_t in_shape[4];
	nhwc_of(&l->input, in_shape);
	if ((st = alloc_tensor(&d->input, in_shape, l->input.scale, l->input.zero_point, err)))
		return st;
	size_t in_count = shape_count(in_shape, 4);
	vta_wl_channels in_ch = {(size_t)in_shape[3], true};
	if ((st = vta_wl_fill_i8(&l->input, "input", in_count, in_ch, ACT_LO, ACT_HI,
				 d->input.data, NULL, err)))
		return st;

	size_t f_count = shape_count(l->filter.shape, l->filter.rank);
	d->filter = malloc(f_count);
	d->filter_scales = malloc(oc * sizeof(float));
	if (!d->filter || !d->filter_scales)
		return vta_fail(err, VTA_E_NOMEM, "out of memory");
	vta_wl_channels f_ch = {oc, axis_last};
	if ((st = vta_wl_fill_i8(&l->filter, "filter", f_count, f_ch, WGT_LO, WGT_HI, d->filter,
				 &d->binning, err)) ||
	    (st = vta_wl_fill_scales(&l->filter, "filter.scales", oc, d->filter_scales, err)))
		return st;
	if (l->filter.compressed) {
		d->has_lut = true;
		st = compress_constant(&l->filter, "filter", VTA_LUT_INT8, d->filter, f_count,
				       f_ch, &d->lut, d, err);
		d->filter = NULL;
		if (st)
			return st;
	}
	if (l->bias.present) {
		d->bias = malloc(oc * sizeof(int32_t));
		if (!d->bias)
			return vta_fail(err, VTA_E_NOMEM, "out of memory");
		/* one value per channel: a per-channel table would hold one entry each, so the
		 * bias is drawn and compressed per tensor, as TFLM's tool does for 1-D tensors */
		vta_wl_tensor per_tensor = l->bias;
		per_tensor.per_channel = false;
		vta_wl_channels b_ch = {1, false};
		if ((st = vta_wl_fill_i32(&per_tensor, "bias", oc, b_ch, BIAS_LO, BIAS_HI, d->bias,
					  err)))
			return st;
		if (l->bias.compressed) {
			d->has_bias_lut = true;
			st = compress_constant(&per_tensor, "bias", VTA_LUT_INT32, d->bias, oc,
					       b_ch, &d->bias_lut, d, err);
			d->bias = NULL;
			if (st)
				return st;
		}
	}
	return VTA_OK;
}

vta_status vta_layer_materialize_conv2d(const vta_wl_layer *l, vta_layer_data *d,
					vta_error *err)
{
	const int32_t *fs = l->filter.shape;
	size_t oc = (size_t)fs[0];
	vta_status st = materialize_weights(l, d, oc, false, err); /* OHWI: channel axis first */
	if (st)
		return st;
	vta_conv2d *c = &d->conv;
	c->input = &d->input;
	c->filter = d->filter;
	memcpy(c->filter_shape, fs, sizeof(c->filter_shape));
	c->filter_scales = d->filter_scales;
	c->filter_scale_count = oc;
	c->bias = d->bias;
	c->stride_h = l->stride[0];
	c->stride_w = l->stride[1];
	c->dilation_h = l->dilation[0];
	c->dilation_w = l->dilation[1];
	c->padding = l->padding == VTA_WL_SAME ? VTA_PADDING_SAME : VTA_PADDING_VALID;
	c->activation = l->activation;
	int32_t out_shape[4];
	if ((st = vta_golden_conv2d_shape(c, out_shape, err)))
		return st;
	return alloc_tensor(&d->output, out_shape, l->output_scale, l->output_zero_point, err);
}

vta_status vta_layer_materialize_depthwise(const vta_wl_layer *l, vta_layer_data *d,
					   vta_error *err)
{
	const int32_t *fs = l->filter.shape;
	size_t oc = (size_t)fs[3];
	/* [1, KH, KW, O]: TFLite quantizes (and TFLM's tool compresses) along the last axis */
	vta_status st = materialize_weights(l, d, oc, true, err);
	if (st)
		return st;
	vta_depthwise_conv2d *w = &d->dw;
	w->input = &d->input;
	w->filter = d->filter;
	memcpy(w->filter_shape, fs, sizeof(w->filter_shape));
	w->depth_multiplier = l->depth_multiplier;
	w->filter_scales = d->filter_scales;
	w->filter_scale_count = oc;
	w->bias = d->bias;
	w->stride_h = l->stride[0];
	w->stride_w = l->stride[1];
	w->dilation_h = l->dilation[0];
	w->dilation_w = l->dilation[1];
	w->padding = l->padding == VTA_WL_SAME ? VTA_PADDING_SAME : VTA_PADDING_VALID;
	w->activation = l->activation;
	int32_t out_shape[4];
	if ((st = vta_golden_depthwise_shape(w, out_shape, err)))
		return st;
	return alloc_tensor(&d->output, out_shape, l->output_scale, l->output_zero_point, err);
}

vta_status vta_layer_materialize_fc(const vta_wl_layer *l, vta_layer_data *d, vta_error *err)
{
	const int32_t *fs = l->filter.shape;
	size_t oc = (size_t)fs[0];
	vta_status st = materialize_weights(l, d, oc, false, err); /* [O, K] */
	if (st)
		return st;
	vta_fully_connected *f = &d->fc;
	f->input = &d->input;
	f->filter = d->filter;
	f->filter_shape[0] = fs[0];
	f->filter_shape[1] = fs[1];
	f->filter_scales = d->filter_scales;
	f->filter_scale_count = oc;
	f->bias = d->bias;
	f->activation = l->activation;
	int32_t batches;
	if ((st = vta_golden_fc_shape(f, &batches, err)))
		return st;
	/* [batches, O] right-aligned, as a rank-2 tensor is */
	const int32_t out_shape[4] = {1, 1, batches, fs[0]};
	return alloc_tensor(&d->output, out_shape, l->output_scale, l->output_zero_point, err);
}

vta_status vta_layer_materialize_add(const vta_wl_layer *l, vta_layer_data *d, vta_error *err)
{
	vta_status st;
	if (l->inputs[0].compressed && l->inputs[1].compressed)
		return vta_fail(err, VTA_E_USAGE,
				"%s: at most one ADD input can be a LUT-compressed constant",
				l->name);
	d->swapped = l->inputs[0].compressed;
	const vta_wl_tensor *ta = &l->inputs[d->swapped ? 1 : 0];
	const vta_wl_tensor *tb = &l->inputs[d->swapped ? 0 : 1];
	int32_t sa[4], sb[4];
	nhwc_of(ta, sa);
	nhwc_of(tb, sb);
	size_t na = shape_count(sa, 4), nb = shape_count(sb, 4);
	vta_wl_channels cha = {(size_t)sa[3], true}, chb = {(size_t)sb[3], true}; /* NHWC */
	if ((st = alloc_tensor(&d->a, sa, ta->scale, ta->zero_point, err)) ||
	    (st = alloc_tensor(&d->b, sb, tb->scale, tb->zero_point, err)))
		return st;
	const char *name_a = d->swapped ? "inputs[1]" : "inputs[0]";
	const char *name_b = d->swapped ? "inputs[0]" : "inputs[1]";
	if ((st = vta_wl_fill_i8(ta, name_a, na, cha, ACT_LO, ACT_HI, d->a.data, NULL, err)) ||
	    (st = vta_wl_fill_i8(tb, name_b, nb, chb, ACT_LO, ACT_HI, d->b.data, &d->binning,
				 err)))
		return st;
	if (tb->compressed) {
		d->has_lut = true;
		st = compress_constant(tb, name_b, VTA_LUT_INT8, d->b.data, nb, chb, &d->lut, d,
				       err);
		d->b.data = NULL;
		if (st)
			return st;
	}
	/* the output has the shape of the operand the other broadcasts to */
	return alloc_tensor(&d->output, na >= nb ? sa : sb, l->output_scale,
			    l->output_zero_point, err);
}

vta_status vta_layer_materialize(const vta_wl_layer *layer, vta_layer_data *out, vta_error *err)
{
	memset(out, 0, sizeof(*out));
	out->op = layer->op;
	out->spec = layer;
	vta_error inner = {0};
	vta_status st = vta_layer_ops_of(layer->op)->materialize(layer, out, &inner);
	if (st) {
		vta_fail(err, st, "layer '%s': %s", VTA_Q(layer->name), inner.detail);
		vta_layer_data_free(out);
	}
	return st;
}

void vta_layer_data_free(vta_layer_data *d)
{
	free(d->input.data);
	free(d->filter);
	free(d->filter_scales);
	free(d->bias);
	free(d->a.data);
	free(d->b.data);
	free(d->output.data);
	vta_lut_buffer_free(&d->lut);
	vta_lut_buffer_free(&d->bias_lut);
	memset(d, 0, sizeof(*d));
}

uint64_t vta_layer_spec_bytes(const vta_wl_layer *l)
{
	static int8_t placeholder; /* the shape functions read shapes and quantization only */
	vta_tensor_i8 in = {.scale = 1.0f, .data = &placeholder};
	int32_t os[4] = {0, 0, 0, 0};
	vta_error e = {0};
	uint64_t n_in, n_const = 0, n_out = 0;
	if (l->op == VTA_WL_ADD) {
		uint64_t na = shape_count(l->inputs[0].shape, l->inputs[0].rank);
		uint64_t nb = shape_count(l->inputs[1].shape, l->inputs[1].rank);
		return na + nb + 3 * (na > nb ? na : nb);
	}
	nhwc_of(&l->input, in.shape);
	n_in = shape_count(in.shape, 4);
	n_const = shape_count(l->filter.shape, l->filter.rank);
	if (l->bias.present && l->filter.rank)
		n_const += 4 * (uint64_t)(l->op == VTA_WL_DEPTHWISE
						  ? l->filter.shape[l->filter.rank - 1]
						  : l->filter.shape[0]);
	if (l->op == VTA_WL_CONV2D && l->filter.rank == 4) {
		vta_conv2d c = {.input = &in, .stride_h = l->stride[0], .stride_w = l->stride[1],
				.dilation_h = l->dilation[0], .dilation_w = l->dilation[1],
				.padding = l->padding == VTA_WL_SAME ? VTA_PADDING_SAME
								     : VTA_PADDING_VALID};
		memcpy(c.filter_shape, l->filter.shape, sizeof(c.filter_shape));
		if (!vta_golden_conv2d_shape(&c, os, &e))
			n_out = shape_count(os, 4);
	} else if (l->op == VTA_WL_DEPTHWISE && l->filter.rank == 4) {
		vta_depthwise_conv2d d = {.input = &in, .stride_h = l->stride[0],
					  .stride_w = l->stride[1], .dilation_h = l->dilation[0],
					  .dilation_w = l->dilation[1],
					  .padding = l->padding == VTA_WL_SAME ? VTA_PADDING_SAME
									       : VTA_PADDING_VALID};
		memcpy(d.filter_shape, l->filter.shape, sizeof(d.filter_shape));
		if (!vta_golden_depthwise_shape(&d, os, &e))
			n_out = shape_count(os, 4);
	} else if (l->op == VTA_WL_FC && l->filter.rank == 2 && l->filter.shape[1] > 0) {
		n_out = n_in / (uint64_t)l->filter.shape[1] * (uint64_t)l->filter.shape[0];
	}
	return n_in + n_const + 3 * n_out;
}
