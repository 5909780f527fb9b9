/* emit_depthwise.c - DEPTHWISE_CONV_2D as a grouped CONV2D (emit_depthwise.h). */
#include "emit_depthwise.h"

#include <stdlib.h>

#include "emit_conv2d.h"
#include "lut_group.h"

vta_status vta_emit_depthwise_conv2d(const vta_config *cfg, const vta_depthwise_conv2d *dw,
				     const vta_lut_tensor *filter_lut,
				     const vta_lut_tensor *bias_lut, const vta_tensor_i8 *out,
				     const vta_emit_opts *opts, vta_dram *dram,
				     vta_layer_stream *ls, vta_error *err)
{
	const char *layer;
	vta_status st = vta_layer_begin(cfg, opts, dw && dram && out, "vta_emit_depthwise_conv2d",
					"depthwise_conv2d", VTA_OUT_CONV, ls, &layer, err);
	if (st != VTA_OK)
		return st;
	st = vta_tensor_i8_check(dw->input, "DEPTHWISE_CONV_2D input", err);
	if (st != VTA_OK)
		return st;
	const int32_t *fs = dw->filter_shape, C = dw->input->shape[3];
	if (fs[0] != 1 || fs[1] < 1 || fs[2] < 1 || fs[3] < 1 || fs[3] % C != 0)
		return vta_fail(err, VTA_E_USAGE,
				"layer %s: DEPTHWISE_CONV_2D filter [%d, %d, %d, %d] is not [1, KH, "
				"KW, a multiple of the input's %d channels]",
				layer, (int)fs[0], (int)fs[1], (int)fs[2], (int)fs[3], (int)C);
	if (dw->depth_multiplier != 0 && dw->depth_multiplier != fs[3] / C)
		return vta_fail(err, VTA_E_USAGE,
				"layer %s: DEPTHWISE_CONV_2D depth multiplier %d does not match %d "
				"input and %d output channels",
				layer, (int)dw->depth_multiplier, (int)C, (int)fs[3]);
	const size_t O = (size_t)fs[3], taps = (size_t)fs[1] * (size_t)fs[2];
	vta_conv2d conv = {.input = dw->input, .filter_shape = {fs[3], fs[1], fs[2], 1},
			   .filter_scales = dw->filter_scales,
			   .filter_scale_count = dw->filter_scale_count, .bias = dw->bias,
			   .stride_h = dw->stride_h, .stride_w = dw->stride_w,
			   .dilation_h = dw->dilation_h, .dilation_w = dw->dilation_w,
			   .padding = dw->padding, .activation = dw->activation};
	vta_emit_opts o = *opts;
	o.name = layer;
	if (filter_lut && (st = vta_lut_expect(filter_lut, VTA_LUT_INT8, taps * O, layer,
					       "DEPTHWISE_CONV_2D filter", "filter", err)))
		return st;
	if (filter_lut && opts->decompress == VTA_DECOMPRESS_HW) {
		/* the decoder takes the OHWI index fields; the CONV2D emitter spreads them */
		vta_lut_buffer ohwi;
		vta_error sub = {0};
		st = vta_lut_depthwise_ohwi(filter_lut, taps, O, &ohwi, &sub);
		if (st != VTA_OK)
			st = vta_fail(err, st, "layer %s: %s", layer, sub.detail);
		else
			st = vta_emit_conv2d(cfg, &conv, &ohwi.tensor, bias_lut, out, &o, dram, ls,
					     err);
		vta_lut_buffer_free(&ohwi);
		return st;
	}
	int8_t *plain = NULL;
	const int8_t *filter = dw->filter;
	if (filter_lut) {
		if (!(plain = malloc(taps * O)))
			return vta_fail(err, VTA_E_NOMEM, "layer %s: out of memory", layer);
		if ((st = vta_lut_decode(filter_lut, plain, taps * O, err))) {
			free(plain);
			return st;
		}
		filter = plain;
	}
	if (!filter)
		return vta_fail(err, VTA_E_USAGE, "layer %s: DEPTHWISE_CONV_2D has no filter data",
				layer);
	/* [1][KH][KW][O] -> [O][KH][KW][1] */
	int8_t *ohwi = malloc(taps * O);
	if (!ohwi) {
		free(plain);
		return vta_fail(err, VTA_E_NOMEM, "layer %s: out of memory", layer);
	}
	for (size_t t = 0; t < taps; t++)
		for (size_t oc = 0; oc < O; oc++)
			ohwi[oc * taps + t] = filter[t * O + oc];
	free(plain);
	conv.filter = ohwi;
	st = vta_emit_conv2d(cfg, &conv, NULL, bias_lut, out, &o, dram, ls, err);
	free(ohwi);
	return st;
}
