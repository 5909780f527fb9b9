/*
 * golden_depthwise.c - the golden per-channel int8 DEPTHWISE_CONV_2D (TFLM reference_integer_ops
 * DepthwiseConvPerChannel), in tflite or vta16 requantization.
 *
 * Layouts: input NHWC, filter [1, KH, KW, O] with O = C * M (output channel oc = c*M + m reads
 * input channel c), bias int32 per output channel, output NHWC. Taps outside the image are
 * skipped (padding with zp_in); the accumulator is int32, summed in 64 bits so a wrap can be
 * counted. The requantization per output channel is CONV2D's (docs/arithmetic.md 2.3, 3.3).
 * Computed per output pixel with the channels innermost and the zero point out of the inner
 * loop (see the kernel): the products by the vectorized kernel of golden_dw_mac.h, the
 * requantization by the row form of golden_requant.c; the sums and outputs are the same.
 */
#include "golden.h"

#include <stdlib.h>
#include <string.h>

#include "golden_dw_mac.h"

/* Bytes of the input spread whole for a depth multiplier (64 MiB). */
#define GD_SPREAD_MAX ((size_t)64 << 20)
/* Taps up to which every sum and every partial sum on the way lies within int32: a tap's
 * w (x - zp) is below 2^15 in magnitude, and the zero point's share and the products the
 * kernel adds to it each stay below 2^29, so the sums start from the share in int32 and
 * none can wrap. */
#define GD_INT32_TAPS 32768
/* Taps above which a layer of one input channel goes as a CONV2D (dw_one_channel): there
 * it took 0.2-0.7x the time of the kernel below at 25 to 80 taps and 1 to 64 output
 * channels, while at 9 and 16 taps it lost at some widths (docs/performance.md). */
#define GD_CONV_TAPS 16

static size_t gd_offset(int64_t n, int64_t y, int64_t x, int32_t h, int32_t w, int32_t c)
{
	return (((size_t)n * (size_t)h + (size_t)y) * (size_t)w + (size_t)x) * (size_t)c;
}

vta_status vta_golden_depthwise_shape(const vta_depthwise_conv2d *d, int32_t out_shape[4],
				      vta_error *err)
{
	if (!d)
		return vta_fail(err, VTA_E_USAGE, "DEPTHWISE_CONV_2D: no layer");
	vta_status st = vta_tensor_i8_check(d->input, "DEPTHWISE_CONV_2D input", err);
	if (st != VTA_OK)
		return st;
	const int32_t *fs = d->filter_shape;
	if (fs[0] != 1 || fs[1] < 1 || fs[2] < 1 || fs[3] < 1)
		return vta_fail(err, VTA_E_USAGE,
				"DEPTHWISE_CONV_2D: filter shape [%d, %d, %d, %d] is not [1, KH, "
				"KW, O]",
				(int)fs[0], (int)fs[1], (int)fs[2], (int)fs[3]);
	const int32_t c = d->input->shape[3];
	if (fs[3] % c != 0)
		return vta_fail(err, VTA_E_USAGE,
				"DEPTHWISE_CONV_2D: %d output channels are not a multiple of the "
				"input's %d",
				(int)fs[3], (int)c);
	if (d->depth_multiplier != 0 && d->depth_multiplier != fs[3] / c)
		return vta_fail(err, VTA_E_USAGE,
				"DEPTHWISE_CONV_2D: depth multiplier %d, but %d input channels "
				"make %d outputs",
				(int)d->depth_multiplier, (int)c, (int)fs[3]);
	int32_t ho, wo;
	st = vta_golden_conv2d_padding(d->input->shape[1], fs[1], d->stride_h, d->dilation_h,
				       d->padding, &ho, NULL, NULL, err);
	if (st == VTA_OK)
		st = vta_golden_conv2d_padding(d->input->shape[2], fs[2], d->stride_w,
					       d->dilation_w, d->padding, &wo, NULL, NULL, err);
	if (st != VTA_OK)
		return st;
	if (out_shape) {
		out_shape[0] = d->input->shape[0];
		out_shape[1] = ho;
		out_shape[2] = wo;
		out_shape[3] = fs[3];
	}
	return VTA_OK;
}

/* One input channel: the layer is a CONV2D of its O = M output channels over that channel,
 * the filter [1, KH, KW, O] read as [O, KH, KW, 1]. Its kernel then works across output
 * channels or along each filter's taps, where the kernel below works across the channels of
 * one pixel: a few lanes of each vector, tap by tap (micro_speech's 8 channels of 80 taps
 * took four instructions a MAC) when the kernel is long (GD_CONV_TAPS). The arithmetic is the same definition (TFLM's per-channel
 * requantization of the 64-bit sum of in-image taps), so are the outputs and the counts. */
static vta_status dw_one_channel(const vta_depthwise_conv2d *d, vta_arith_mode mode,
				 vta_tensor_i8 *out, vta_golden_stats *stats, vta_error *err)
{
	const int32_t KH = d->filter_shape[1], KW = d->filter_shape[2], O = d->filter_shape[3];
	const size_t taps = (size_t)KH * (size_t)KW;
	int8_t *ohwi = malloc(taps * (size_t)O);
	if (!ohwi)
		return vta_fail(err, VTA_E_NOMEM, "DEPTHWISE_CONV_2D: out of memory");
	for (size_t t = 0; t < taps; t++)
		for (int32_t oc = 0; oc < O; oc++)
			ohwi[(size_t)oc * taps + t] = d->filter[t * (size_t)O + (size_t)oc];
	const vta_conv2d c = {.input = d->input,
			      .filter = ohwi,
			      .filter_shape = {O, KH, KW, 1},
			      .filter_scales = d->filter_scales,
			      .filter_scale_count = d->filter_scale_count,
			      .bias = d->bias,
			      .stride_h = d->stride_h,
			      .stride_w = d->stride_w,
			      .dilation_h = d->dilation_h,
			      .dilation_w = d->dilation_w,
			      .padding = d->padding,
			      .activation = d->activation};
	vta_error sub = {0};
	vta_status st = vta_golden_conv2d(&c, mode, out, stats, &sub);
	free(ohwi);
	return st ? vta_fail(err, st, "DEPTHWISE_CONV_2D of one input channel: %s", sub.detail)
		  : VTA_OK;
}

vta_status vta_golden_depthwise(const vta_depthwise_conv2d *d, vta_arith_mode mode,
				vta_tensor_i8 *out, vta_golden_stats *stats, vta_error *err)
{
	int32_t os[4];
	vta_status st = vta_golden_depthwise_shape(d, os, err);
	if (st == VTA_OK)
		st = vta_tensor_i8_check(out, "DEPTHWISE_CONV_2D output", err);
	if (st != VTA_OK)
		return st;
	for (int i = 0; i < 4; i++)
		if (out->shape[i] != os[i])
			return vta_fail(err, VTA_E_USAGE,
					"DEPTHWISE_CONV_2D output shape [%d, %d, %d, %d] should be "
					"[%d, %d, %d, %d]",
					(int)out->shape[0], (int)out->shape[1],
					(int)out->shape[2], (int)out->shape[3], (int)os[0],
					(int)os[1], (int)os[2], (int)os[3]);
	if (!d->filter)
		return vta_fail(err, VTA_E_USAGE, "DEPTHWISE_CONV_2D: no filter data");
	if (mode != VTA_ARITH_TFLITE && mode != VTA_ARITH_VTA16)
		return vta_fail(err, VTA_E_USAGE, "DEPTHWISE_CONV_2D: unknown arithmetic mode %d",
				(int)mode);

	const vta_tensor_i8 *in = d->input;
	const int32_t N = in->shape[0], H = in->shape[1], W = in->shape[2], C = in->shape[3];
	const int32_t KH = d->filter_shape[1], KW = d->filter_shape[2], O = d->filter_shape[3];
	const int32_t M = O / C;
	int32_t pad_h, pad_w;
	vta_golden_conv2d_padding(H, KH, d->stride_h, d->dilation_h, d->padding, NULL, &pad_h,
				  NULL, NULL);
	vta_golden_conv2d_padding(W, KW, d->stride_w, d->dilation_w, d->padding, NULL, &pad_w,
				  NULL, NULL);
	vta_golden_requant rq;
	st = vta_golden_requant_init(&rq, "DEPTHWISE_CONV_2D", mode, in->scale, d->filter_scales,
				     d->filter_scale_count, (size_t)O, out, d->activation, err);
	if (st != VTA_OK)
		return st;
	if (C == 1 && (size_t)KH * (size_t)KW > GD_CONV_TAPS) {
		/* the layer checked as itself above, then computed as a CONV2D */
		vta_golden_requant_done(&rq, NULL);
		return dw_one_channel(d, mode, out, stats, err);
	}

	/* Per output pixel, every channel at once: each tap's input pixel (a row of zp_in
	 * outside the image) against its filter row, summed per channel by the vectorized
	 * kernel (golden_dw_mac.h), then requantized as a row (vta_golden_requant_row). With a
	 * depth multiplier M > 1 a tap's input channels are first spread to its O = C * M
	 * filter channels. Each channel's weight sum over all taps takes the zero point out:
	 * sum over in-image taps of w (x - zp) = sum over all taps of w x' - zp * sum of w. */
	const size_t taps = (size_t)KH * (size_t)KW;
	/* With M > 1 the input is spread to O channels once, each value M times, so that a tap
	 * reads its O values in place (its pad row then O bytes); when that copy would be
	 * large, per output pixel and tap instead */
	size_t whole = 0;
	const bool spread_whole =
		M > 1 && !__builtin_mul_overflow((size_t)N * (size_t)H, (size_t)W, &whole) &&
		!__builtin_mul_overflow(whole, (size_t)O, &whole) && whole <= GD_SPREAD_MAX;
	int8_t *pad_row = malloc(spread_whole ? (size_t)O : (size_t)C);
	int8_t *spread = M > 1 ? malloc(spread_whole ? whole : taps * (size_t)O) : NULL;
	const int8_t **xs = malloc(taps * sizeof(*xs));
	const int8_t **ws = malloc(taps * sizeof(*ws));
	int64_t *tap_at = malloc(taps * sizeof(*tap_at));
	int32_t *part = malloc((size_t)O * sizeof(*part));
	int64_t *zshare = calloc((size_t)O, sizeof(*zshare));
	const bool sums32 = taps <= GD_INT32_TAPS;
	/* the 64-bit sums, or the share as int32 the int32 sums start from */
	int64_t *acc = sums32 ? NULL : malloc((size_t)O * sizeof(*acc));
	int32_t *zshare32 = sums32 ? malloc((size_t)O * sizeof(*zshare32)) : NULL;
	if (!pad_row || (M > 1 && !spread) || !xs || !ws || !tap_at || !part || !zshare ||
	    (sums32 ? !zshare32 : !acc)) {
		free(pad_row);
		free(spread);
		free(xs);
		free(ws);
		free(tap_at);
		free(part);
		free(acc);
		free(zshare);
		free(zshare32);
		vta_golden_requant_done(&rq, NULL);
		return vta_fail(err, VTA_E_NOMEM, "DEPTHWISE_CONV_2D: out of memory");
	}
	memset(pad_row, (uint8_t)(int8_t)in->zero_point, spread_whole ? (size_t)O : (size_t)C);
	if (spread_whole) {
		const size_t pixels = whole / (size_t)O;
		for (size_t q = 0; q < pixels; q++)
			for (int32_t c = 0; c < C; c++)
				memset(spread + q * (size_t)O + (size_t)c * (size_t)M,
				       (uint8_t)in->data[q * (size_t)C + (size_t)c], (size_t)M);
	}
	for (size_t t = 0; t < taps; t++) {
		ws[t] = d->filter + t * (size_t)O;
		for (int32_t oc = 0; oc < O; oc++)
			zshare[oc] += ws[t][oc];
	}
	/* each channel's weight sum, then the zero point's share of its sum: -zp x that */
	for (int32_t oc = 0; oc < O; oc++) {
		zshare[oc] *= -(int64_t)in->zero_point;
		if (sums32)
			zshare32[oc] = (int32_t)zshare[oc];
	}
	/* Where the taps read in place (no per-pixel spread), a window inside the image reads
	 * them at offsets from its first pixel the same for every such window. */
	const bool in_place = M == 1 || spread_whole;
	const int8_t *src = spread_whole ? spread : in->data;
	const int32_t row = spread_whole ? O : C; /* bytes per pixel of src */
	const int64_t reach_h = (int64_t)d->dilation_h * (KH - 1);
	const int64_t reach_w = (int64_t)d->dilation_w * (KW - 1);
	for (int32_t fy = 0, t = 0; fy < KH; fy++)
		for (int32_t fx = 0; fx < KW; fx++, t++)
			tap_at[t] = ((int64_t)d->dilation_h * fy * W + (int64_t)d->dilation_w * fx) *
				    row;
	const vta_golden_dw_mac_fn mac = vta_golden_dw_mac_pick();
	for (int32_t n = 0; n < N; n++)
		for (int32_t oy = 0; oy < os[1]; oy++)
			for (int32_t ox = 0; ox < os[2]; ox++) {
				const int64_t y0 = (int64_t)oy * d->stride_h - pad_h;
				const int64_t x0 = (int64_t)ox * d->stride_w - pad_w;
				size_t t = 0;
				if (in_place && y0 >= 0 && y0 + reach_h < H && x0 >= 0 &&
				    x0 + reach_w < W) {
					/* the window inside the image: the taps at fixed offsets */
					const int8_t *at = src + gd_offset(n, y0, x0, H, W, row);
					for (; t < taps; t++)
						xs[t] = at + tap_at[t];
				}
				for (int32_t fy = 0; t < taps && fy < KH; fy++) {
					const int64_t iy = y0 + (int64_t)d->dilation_h * fy;
					for (int32_t fx = 0; fx < KW; fx++, t++) {
						const int64_t ix = x0 + (int64_t)d->dilation_w * fx;
						const bool outside =
							iy < 0 || iy >= H || ix < 0 || ix >= W;
						const int8_t *x =
							outside ? pad_row
							: spread_whole
								? spread + gd_offset(n, iy, ix, H, W, O)
								: in->data + gd_offset(n, iy, ix, H, W, C);
						if (M == 1 || spread_whole) {
							xs[t] = x;
							continue;
						}
						int8_t *e = spread + t * (size_t)O;
						for (int32_t c = 0; c < C; c++)
							for (int32_t m = 0; m < M; m++)
								e[c * M + m] = x[c];
						xs[t] = e;
					}
				}
				int8_t *y = out->data + gd_offset(n, oy, ox, os[1], os[2], O);
				if (sums32) { /* the sums in int32 from the share on */
					memcpy(part, zshare32, (size_t)O * sizeof(*part));
					mac(xs, ws, taps, (size_t)O, part);
					vta_golden_requant_row32(&rq, part, d->bias, (size_t)O, y);
					continue;
				}
				for (size_t t0 = 0; t0 < taps; t0 += VTA_GOLDEN_DW_MAC_MAX_TAPS) {
					size_t k = taps - t0 < VTA_GOLDEN_DW_MAC_MAX_TAPS
							   ? taps - t0
							   : VTA_GOLDEN_DW_MAC_MAX_TAPS;
					memset(part, 0, (size_t)O * sizeof(*part));
					mac(xs + t0, ws + t0, k, (size_t)O, part);
					const int64_t *from = t0 == 0 ? zshare : acc;
					for (int32_t oc = 0; oc < O; oc++)
						acc[oc] = from[oc] + part[oc];
				}
				vta_golden_requant_row(&rq, acc, d->bias, (size_t)O, y);
			}
	free(pad_row);
	free(spread);
	free(xs);
	free(ws);
	free(tap_at);
	free(part);
	free(acc);
	free(zshare);
	free(zshare32);
	vta_golden_requant_done(&rq, stats);
	return VTA_OK;
}

vta_status vta_golden_depthwise_decode(const vta_depthwise_conv2d *d,
				       const vta_lut_tensor *filter_lut,
				       const vta_lut_tensor *bias_lut, vta_depthwise_conv2d *plain,
				       void *owned[2], vta_error *err)
{
	owned[0] = owned[1] = NULL;
	*plain = *d;
	vta_status st = vta_golden_depthwise_shape(d, NULL, err);
	if (st != VTA_OK)
		return st;
	const int32_t *fs = d->filter_shape;
	const size_t fcount = (size_t)fs[1] * (size_t)fs[2] * (size_t)fs[3];
	return vta_golden_decode_consts("DEPTHWISE_CONV_2D", filter_lut, fcount, bias_lut,
					(size_t)fs[3], &plain->filter, &plain->bias, owned, err);
}
