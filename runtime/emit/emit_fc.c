/* emit_fc.c - FULLY_CONNECTED as a 1x1 CONV2D (emit_fc.h). */
#include "emit_fc.h"

#include "emit_conv2d.h"

vta_status vta_emit_fully_connected(const vta_config *cfg, const vta_fully_connected *fc,
				    const vta_lut_tensor *filter_lut,
				    const vta_lut_tensor *bias_lut, const vta_tensor_i8 *out,
				    const vta_emit_opts *opts, vta_dram *dram,
				    vta_layer_stream *ls, vta_error *err)
{
	const char *layer;
	vta_status st = vta_layer_begin(cfg, opts, fc && dram && out, "vta_emit_fully_connected",
					"fully_connected", VTA_OUT_CONV, ls, &layer, err);
	if (st != VTA_OK)
		return st;
	if ((st = vta_tensor_i8_check(fc->input, "FULLY_CONNECTED input", err)) ||
	    (st = vta_tensor_i8_check(out, "FULLY_CONNECTED output", err)))
		return st;
	const int32_t O = fc->filter_shape[0], K = fc->filter_shape[1];
	const size_t n = vta_tensor_i8_count(fc->input);
	if (O < 1 || K < 1 || n % (size_t)K != 0)
		return vta_fail(err, VTA_E_USAGE,
				"layer %s: FULLY_CONNECTED filter [%d, %d] does not fit an input of "
				"%zu elements",
				layer, (int)O, (int)K, n);
	const uint64_t batches = n / (size_t)K;
	if (out->shape[3] != O || vta_tensor_i8_count(out) != batches * (uint64_t)O)
		return vta_fail(err, VTA_E_USAGE,
				"layer %s: FULLY_CONNECTED output [%d, %d, %d, %d] should hold "
				"%llu x %d elements with %d last",
				layer, (int)out->shape[0], (int)out->shape[1], (int)out->shape[2],
				(int)out->shape[3], (unsigned long long)batches, (int)O, (int)O);
	/* the batch rows fill N lanes (cfg->batch is a power of two) and the rows of N images */
	uint64_t lanes = 1;
	while (lanes < cfg->batch && batches % (lanes * 2) == 0)
		lanes *= 2;
	vta_tensor_i8 in = *fc->input, o = *out;
	const int32_t rows = (int32_t)(batches / lanes);
	in.shape[0] = o.shape[0] = (int32_t)lanes;
	in.shape[1] = o.shape[1] = rows;
	in.shape[2] = o.shape[2] = 1;
	in.shape[3] = K;
	o.shape[3] = O;
	const vta_conv2d conv = {.input = &in, .filter = fc->filter, .filter_shape = {O, 1, 1, K},
				 .filter_scales = fc->filter_scales,
				 .filter_scale_count = fc->filter_scale_count, .bias = fc->bias,
				 .stride_h = 1, .stride_w = 1, .dilation_h = 1, .dilation_w = 1,
				 .padding = VTA_PADDING_VALID, .activation = fc->activation};
	vta_emit_opts eo = *opts;
	eo.name = layer;
	return vta_emit_conv2d(cfg, &conv, filter_lut, bias_lut, &o, &eo, dram, ls, err);
}
