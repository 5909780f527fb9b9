/*
 * golden_conv2d.c - the golden per-channel int8 CONV2D (TFLM reference_integer_ops::
 * ConvPerChannel), in tflite or vta16 requantization.
 *
 * Layouts: input NHWC, filter OHWI (zero point 0), bias int32 per output channel, output NHWC.
 * Grouped when the input has more channels than the filter: groups = C / I_f and output
 * channel oc reads input channels [g*I_f, (g+1)*I_f) with g = oc / (O / groups).
 * Taps that fall outside the image are skipped, which equals padding with zp_in (real 0).
 * The accumulator is int32 as in TFLite; it is summed exactly in 64 bits so a wrap of the
 * final int32 can be counted (stats->acc_overflows).
 *
 * How it is computed, for speed, with the same sums: each output pixel's receptive field is
 * gathered into one contiguous patch [KH][KW][I_f] (the filter's own order) with the taps
 * outside the image set to zp_in, so every output channel is one long inner product with its
 * filter (golden_dot.h). The zero point leaves the inner loop:
 *   sum over in-image taps of w (x - zp_in) = sum over all taps of w x' - zp_in * sum of w,
 * with x' the patch (padded taps, x' = zp_in, add w zp_in - w zp_in = 0) and the sum of each
 * filter's weights computed once. The patch holds x + 128 as uint8 (the inner product of
 * unsigned and signed bytes is what vector units offer), so 128 joins zp_in in the
 * correction.
 *
 * The inner products go one of two ways to the same sums (vta_golden_conv2d_auto_path):
 * along each output channel's patch (golden_dot.h, two pixels at a time), or across output
 * channels (golden_dot_oc.h: the filters packed once per call, then tiles of pixels'
 * patches), which fills its vectors where the patches are short.
 */
#include "golden.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golden_dot.h"
#include "golden_dot_oc.h"

/* Offset of element [i0][i1][i2][0] of a row-major tensor of shape [*][d1][d2][d3]. */
static size_t gc_offset(int64_t i0, int64_t i1, int64_t i2, int32_t d1, int32_t d2, int32_t d3)
{
	return (((size_t)i0 * (size_t)d1 + (size_t)i1) * (size_t)d2 + (size_t)i2) * (size_t)d3;
}

vta_status vta_golden_conv2d_padding(int32_t in, int32_t k, int32_t stride, int32_t dilation,
				     vta_padding padding, int32_t *out, int32_t *pad_before,
				     int32_t *pad_after, vta_error *err)
{
	if (in < 1 || k < 1 || stride < 1 || dilation < 1)
		return vta_fail(err, VTA_E_USAGE,
				"CONV2D: input size %d, kernel %d, stride %d and dilation %d must "
				"be >= 1",
				(int)in, (int)k, (int)stride, (int)dilation);
	int64_t eff = (int64_t)(k - 1) * dilation + 1;
	if (eff > INT32_MAX)
		return vta_fail(err, VTA_E_USAGE, "CONV2D: dilated kernel of %lld is too large",
				(long long)eff);
	int64_t o;
	if (padding == VTA_PADDING_SAME)
		o = ((int64_t)in + stride - 1) / stride;
	else if (padding == VTA_PADDING_VALID)
		o = ((int64_t)in + stride - eff) / stride;
	else
		return vta_fail(err, VTA_E_USAGE, "CONV2D: unknown padding %d", (int)padding);
	if (o < 1)
		return vta_fail(err, VTA_E_USAGE,
				"CONV2D: VALID padding with input size %d and dilated kernel %lld "
				"leaves no output",
				(int)in, (long long)eff);
	int64_t total = (o - 1) * stride + eff - in;
	if (total < 0)
		total = 0;
	if (total > INT32_MAX)
		return vta_fail(err, VTA_E_USAGE, "CONV2D: padding %lld is too large",
				(long long)total);
	if (out)
		*out = (int32_t)o;
	if (pad_before)
		*pad_before = (int32_t)(total / 2);
	if (pad_after)
		*pad_after = (int32_t)(total - total / 2);
	return VTA_OK;
}

vta_status vta_golden_conv2d_shape(const vta_conv2d *c, int32_t out_shape[4], vta_error *err)
{
	if (!c)
		return vta_fail(err, VTA_E_USAGE, "CONV2D: no layer");
	vta_status st = vta_tensor_i8_check(c->input, "CONV2D input", err);
	if (st != VTA_OK)
		return st;
	const int32_t *fs = c->filter_shape;
	for (int i = 0; i < 4; i++)
		if (fs[i] < 1)
			return vta_fail(err, VTA_E_USAGE,
					"CONV2D: filter shape [%d, %d, %d, %d] is not a valid "
					"OHWI shape",
					(int)fs[0], (int)fs[1], (int)fs[2], (int)fs[3]);
	if ((size_t)fs[0] > SIZE_MAX / (size_t)fs[1] / (size_t)fs[2] / (size_t)fs[3])
		return vta_fail(err, VTA_E_USAGE, "CONV2D: filter shape [%d, %d, %d, %d] is too large",
				(int)fs[0], (int)fs[1], (int)fs[2], (int)fs[3]);
	int32_t in_c = c->input->shape[3];
	if (in_c % fs[3] != 0)
		return vta_fail(err, VTA_E_USAGE,
				"CONV2D: filter depth %d does not divide input channels %d",
				(int)fs[3], (int)in_c);
	int32_t groups = in_c / fs[3];
	if (fs[0] % groups != 0)
		return vta_fail(err, VTA_E_USAGE,
				"CONV2D: %d groups do not divide %d output channels", (int)groups,
				(int)fs[0]);
	int32_t ho, wo;
	st = vta_golden_conv2d_padding(c->input->shape[1], fs[1], c->stride_h, c->dilation_h,
				       c->padding, &ho, NULL, NULL, err);
	if (st == VTA_OK)
		st = vta_golden_conv2d_padding(c->input->shape[2], fs[2], c->stride_w,
					       c->dilation_w, c->padding, &wo, NULL, NULL, err);
	if (st != VTA_OK)
		return st;
	if (out_shape) {
		out_shape[0] = c->input->shape[0];
		out_shape[1] = ho;
		out_shape[2] = wo;
		out_shape[3] = fs[0];
	}
	return VTA_OK;
}

/* The patch of output pixel (iy0, ix0) (its top-left tap) and group g of image n: taps in
 * the filter's order [KH][KW][I_f], each x + 128, `pad` outside the image. */
static void gc_patch(const vta_conv2d *c, int32_t n, int64_t iy0, int64_t ix0, int32_t g,
		     uint8_t pad, uint8_t *p)
{
	const vta_tensor_i8 *in = c->input;
	const int32_t H = in->shape[1], W = in->shape[2], C = in->shape[3];
	const int32_t KH = c->filter_shape[1], KW = c->filter_shape[2], IF = c->filter_shape[3];
	/* One group and no dilation across: a filter row's taps inside the image are one run of
	 * an input row, copied at once (a tap of few channels cost more than its bytes) */
	const bool runs = IF == C && c->dilation_w == 1 && KW > 1;
	const size_t row = (size_t)KW * (size_t)IF;
	for (int32_t fy = 0; fy < KH; fy++) {
		const int64_t iy = iy0 + (int64_t)c->dilation_h * fy;
		if (runs) {
			/* the taps fx with 0 <= ix0 + fx < W, as [lo, hi) */
			int64_t lo = -ix0, hi = (int64_t)W - ix0;
			lo = lo < 0 ? 0 : lo > KW ? KW : lo;
			hi = hi < lo ? lo : hi > KW ? KW : hi;
			if (iy < 0 || iy >= H)
				lo = hi = KW;
			const size_t a = (size_t)lo * (size_t)IF, b = (size_t)hi * (size_t)IF;
			if (a)
				memset(p, pad, a);
			if (b > a) {
				const int8_t *x = in->data + gc_offset(n, iy, ix0 + lo, H, W, C);
				for (size_t i = 0; i < b - a; i++)
					p[a + i] = (uint8_t)(x[i] + 128);
			}
			if (b < row)
				memset(p + b, pad, row - b);
			p += row;
			continue;
		}
		for (int32_t fx = 0; fx < KW; fx++, p += IF) {
			const int64_t ix = ix0 + (int64_t)c->dilation_w * fx;
			if (iy < 0 || iy >= H || ix < 0 || ix >= W) {
				memset(p, pad, (size_t)IF);
				continue;
			}
			const int8_t *x = in->data + gc_offset(n, iy, ix, H, W, C) +
					  (size_t)g * (size_t)IF;
			for (int32_t i = 0; i < IF; i++)
				p[i] = (uint8_t)(x[i] + 128);
		}
	}
}

/* What both paths share: the layer's geometry, the zero point's correction and the
 * requantization of each output pixel's row of sums. */
typedef struct gc_layer {
	const vta_conv2d *c;
	int32_t os[4];         /* output shape */
	int32_t pad_h, pad_w;  /* padding before, per axis */
	int32_t groups, per_group;
	size_t K;              /* patch length KH * KW * I_f */
	uint8_t pad;           /* a tap outside the image, zp_in + 128 */
	const int64_t *zsum;   /* each filter's weight sum times zp_in + 128 (the patch holds
				* x + 128): the zero point's share of its sums */
	bool sums32;           /* every corrected sum lies within int32 (GC_INT32_PATCH) */
	vta_golden_requant *rq;
} gc_layer;

/* Patch lengths up to which a corrected sum, the sum over the patch of w (x - zp) with each
 * term below 2^15 in magnitude, lies within int32: none can wrap, so the row goes to the
 * requantization as int32, without the 64-bit pass and its wrap count. */
#define GC_INT32_PATCH 32768

/* Output pixel q (counted over N, Ho, Wo) of group g: its patch into p. */
static void gc_patch_of(const gc_layer *L, size_t q, int32_t g, uint8_t *p)
{
	const size_t wo = (size_t)L->os[2], ho = (size_t)L->os[1];
	const int32_t n = (int32_t)(q / (wo * ho)), oy = (int32_t)(q / wo % ho),
		      ox = (int32_t)(q % wo);
	/* 64-bit tap coordinates: pads and dilations may be near INT32_MAX. */
	gc_patch(L->c, n, (int64_t)oy * L->c->stride_h - L->pad_h,
		 (int64_t)ox * L->c->stride_w - L->pad_w, g, L->pad, p);
}

/* A pixel's row of exact sums, corrected for the zero point, requantized into o. */
static void gc_finish_row(const gc_layer *L, int64_t *d, int8_t *o)
{
	const size_t O = (size_t)L->os[3];
	if (L->sums32) {
		int32_t *a = L->rq->acc32; /* the requantization's own row, O wide */
		for (size_t oc = 0; oc < O; oc++)
			a[oc] = (int32_t)(d[oc] - L->zsum[oc]);
		vta_golden_requant_row32(L->rq, a, L->c->bias, O, o);
		return;
	}
	for (size_t oc = 0; oc < O; oc++)
		d[oc] -= L->zsum[oc];
	vta_golden_requant_row(L->rq, d, L->c->bias, O, o);
}

/* Along the patch: one inner product per output channel, two pixels at a time so each
 * weight is loaded once for both. */
static vta_status gc_along(const gc_layer *L, int8_t *o, vta_error *err)
{
	const size_t K = L->K, O = (size_t)L->os[3];
	uint8_t *patch = malloc(2 * K);
	int64_t *dot = malloc(2 * O * sizeof(*dot));
	if (!patch || !dot) {
		free(patch);
		free(dot);
		return vta_fail(err, VTA_E_NOMEM, "CONV2D: out of memory");
	}
	const vta_golden_dot_fn dot_rows = vta_golden_dot_pick();
	const vta_golden_dot2_fn dot_rows2 = vta_golden_dot2_pick();
	const size_t pixels = (size_t)L->os[0] * (size_t)L->os[1] * (size_t)L->os[2];
	const size_t wo = (size_t)L->os[2];
	size_t px;
	for (size_t q = 0; q < pixels; q += px) {
		/* pairs within an output row: an odd row's last pixel goes alone */
		px = q % wo + 1 < wo ? 2 : 1;
		for (int32_t g = 0; g < L->groups; g++) {
			for (size_t k = 0; k < px; k++)
				gc_patch_of(L, q + k, g, patch + k * K);
			const size_t oc0 = (size_t)g * (size_t)L->per_group;
			const int8_t *f = L->c->filter + oc0 * K;
			if (px == 2)
				dot_rows2(patch, patch + K, f, K, (size_t)L->per_group, K,
					  dot + oc0, dot + O + oc0);
			else
				dot_rows(patch, f, K, (size_t)L->per_group, K, dot + oc0);
		}
		for (size_t k = 0; k < px; k++, o += O)
			gc_finish_row(L, dot + k * O, o);
	}
	free(patch);
	free(dot);
	return VTA_OK;
}

/* Output pixels per tile of the across path, at most: their patches (GC_TILE * K bytes) and
 * sums (GC_TILE * O int64) stay small, and each 64-channel block of weights is used for all
 * of them while it is in the first-level cache. The tiles of a layer are made equal and a
 * multiple of the kernel's 6-pixel blocks (a 49-pixel layer is one tile of 54, not 48 + 1
 * whose last block computes 6 pixels for 1). */
#define GC_TILE 60
#define GC_TILE_STEP 6

/* Across output channels: the filters packed once (golden_dot_oc.h), then tiles of pixels'
 * patches against them. */
static vta_status gc_across(const gc_layer *L, int8_t *o, vta_error *err)
{
	const size_t K = L->K, O = (size_t)L->os[3], per_group = (size_t)L->per_group;
	const size_t kp = vta_golden_dot_oc_padded(K);
	const size_t group_bytes = vta_golden_dot_oc_packed_size(K, per_group);
	int8_t *packed = malloc(group_bytes * (size_t)L->groups);
	/* zeroed: the bytes past K of each patch meet zero weights but are read */
	uint8_t *patch = calloc(GC_TILE, kp);
	int64_t *dot = malloc(GC_TILE * O * sizeof(*dot));
	if (!packed || !patch || !dot) {
		free(packed);
		free(patch);
		free(dot);
		return vta_fail(err, VTA_E_NOMEM, "CONV2D: out of memory");
	}
	for (int32_t g = 0; g < L->groups; g++)
		vta_golden_dot_oc_pack(L->c->filter + (size_t)g * per_group * K, K, per_group, K,
				       packed + (size_t)g * group_bytes);
	const vta_golden_dot_oc_fn across = vta_golden_dot_oc_pick(NULL);
	const size_t pixels = (size_t)L->os[0] * (size_t)L->os[1] * (size_t)L->os[2];
	const size_t tiles = (pixels + GC_TILE - 1) / GC_TILE;
	const size_t tile = ((pixels + tiles - 1) / tiles + GC_TILE_STEP - 1) / GC_TILE_STEP *
			    GC_TILE_STEP;
	for (size_t q0 = 0; q0 < pixels; q0 += tile) {
		const size_t tn = pixels - q0 < tile ? pixels - q0 : tile;
		for (int32_t g = 0; g < L->groups; g++) {
			for (size_t t = 0; t < tn; t++)
				gc_patch_of(L, q0 + t, g, patch + t * kp);
			across(patch, kp, tn, packed + (size_t)g * group_bytes, K, per_group,
			       dot + (size_t)g * per_group, O);
		}
		for (size_t t = 0; t < tn; t++, o += O)
			gc_finish_row(L, dot + t * O, o);
	}
	free(packed);
	free(patch);
	free(dot);
	return VTA_OK;
}

/* The rule, from bench_conv2d_paths (docs/performance.md "The golden CONV2D across output
 * channels"), best of 5 on this project's AVX-512 VNNI machine, every variant measured there.
 * With 16 or more output channels per group the path across them wins on every shape,
 * short patches or long: MobileNet v2's 1x1 layers 1.3-6.2x, its first 3x3 (K = 27) 4.4x,
 * ResNet-18 C2-C11 1.5-2.9x, 1x1 layers of K up to 2048 1.4-2.8x; with AVX2 alone 1.2-9.9x.
 * With fewer, a 16-lane vector is partly empty: on short patches (K <= 256, where a vector
 * along the patch is as empty) it is even or better from 4 channels (0.9-1.3x; AVX2 about
 * even) and loses at 1 (0.8x); on long ones the path along wins below 16 channels
 * (K = 1024: 1.0-1.1x at 8, 1.4-1.6x at 4, 1.8x at 1). The baseline build of the across
 * path (16-bit products in 128-bit vectors, no byte dot product) loses to the baseline
 * along the patch on most shapes (0.1-4.5x, below 1 on most), so without AVX2 the path
 * stays along. */
#define GC_ACROSS_CHANNELS 16 /* from this many channels per group, across always */
#define GC_SHORT_PATCH 256    /* a patch this short goes across ... */
#define GC_SHORT_CHANNELS 4   /* ... from this many channels per group */

vta_golden_conv2d_path vta_golden_conv2d_auto_path(size_t k, size_t o_per_group)
{
	const char *variant;
	vta_golden_dot_oc_pick(&variant);
	if (strcmp(variant, "generic") == 0)
		return VTA_GOLDEN_CONV2D_ALONG;
	if (o_per_group >= GC_ACROSS_CHANNELS ||
	    (k <= GC_SHORT_PATCH && o_per_group >= GC_SHORT_CHANNELS))
		return VTA_GOLDEN_CONV2D_ACROSS;
	return VTA_GOLDEN_CONV2D_ALONG;
}

vta_status vta_golden_conv2d_by(const vta_conv2d *c, vta_arith_mode mode,
				vta_golden_conv2d_path path, vta_tensor_i8 *out,
				vta_golden_stats *stats, vta_error *err)
{
	gc_layer L = {.c = c};
	vta_status st = vta_golden_conv2d_shape(c, L.os, err);
	if (st == VTA_OK)
		st = vta_tensor_i8_check(out, "CONV2D output", err);
	if (st != VTA_OK)
		return st;
	const int32_t *os = L.os;
	for (int i = 0; i < 4; i++)
		if (out->shape[i] != os[i])
			return vta_fail(err, VTA_E_USAGE,
					"CONV2D output shape [%d, %d, %d, %d] should be [%d, "
					"%d, %d, %d]",
					(int)out->shape[0], (int)out->shape[1],
					(int)out->shape[2], (int)out->shape[3], (int)os[0],
					(int)os[1], (int)os[2], (int)os[3]);
	if (!c->filter)
		return vta_fail(err, VTA_E_USAGE, "CONV2D: no filter data");
	if (mode != VTA_ARITH_TFLITE && mode != VTA_ARITH_VTA16)
		return vta_fail(err, VTA_E_USAGE, "CONV2D: unknown arithmetic mode %d", (int)mode);
	if (path != VTA_GOLDEN_CONV2D_AUTO && path != VTA_GOLDEN_CONV2D_ALONG &&
	    path != VTA_GOLDEN_CONV2D_ACROSS)
		return vta_fail(err, VTA_E_USAGE, "CONV2D: unknown golden path %d", (int)path);

	const vta_tensor_i8 *in = c->input;
	const int32_t H = in->shape[1], W = in->shape[2], C = in->shape[3];
	const int32_t O = c->filter_shape[0], KH = c->filter_shape[1], KW = c->filter_shape[2];
	const int32_t IF = c->filter_shape[3];
	vta_golden_conv2d_padding(H, KH, c->stride_h, c->dilation_h, c->padding, NULL, &L.pad_h,
				  NULL, NULL);
	vta_golden_conv2d_padding(W, KW, c->stride_w, c->dilation_w, c->padding, NULL, &L.pad_w,
				  NULL, NULL);
	L.groups = C / IF;
	L.per_group = O / L.groups;
	L.K = (size_t)KH * (size_t)KW * (size_t)IF;
	L.sums32 = L.K <= GC_INT32_PATCH;
	const int64_t zp_biased = (int64_t)in->zero_point + 128;
	L.pad = (uint8_t)zp_biased; /* zero_point is int8 (vta_tensor_i8_check) */
	vta_golden_requant rq;
	st = vta_golden_requant_init(&rq, "CONV2D", mode, in->scale, c->filter_scales,
				     c->filter_scale_count, (size_t)O, out, c->activation, err);
	if (st != VTA_OK)
		return st;
	L.rq = &rq;

	/* the zero point's share, taken out of the inner loop (and its multiply out of each
	 * pixel's) */
	int64_t *zsum = malloc((size_t)O * sizeof(*zsum));
	if (!zsum) {
		vta_golden_requant_done(&rq, NULL);
		return vta_fail(err, VTA_E_NOMEM, "CONV2D: out of memory");
	}
	for (int32_t oc = 0; oc < O; oc++) {
		const int8_t *w = c->filter + (size_t)oc * L.K;
		int64_t s = 0;
		for (size_t i = 0; i < L.K; i++)
			s += w[i];
		zsum[oc] = s * zp_biased;
	}
	L.zsum = zsum;
	if (path == VTA_GOLDEN_CONV2D_AUTO)
		path = vta_golden_conv2d_auto_path(L.K, (size_t)L.per_group);
	st = path == VTA_GOLDEN_CONV2D_ACROSS ? gc_across(&L, out->data, err)
					      : gc_along(&L, out->data, err);
	free(zsum);
	vta_golden_requant_done(&rq, st == VTA_OK ? stats : NULL);
	return st;
}

vta_status vta_golden_conv2d(const vta_conv2d *c, vta_arith_mode mode, vta_tensor_i8 *out,
			     vta_golden_stats *stats, vta_error *err)
{
	return vta_golden_conv2d_by(c, mode, VTA_GOLDEN_CONV2D_AUTO, out, stats, err);
}

vta_status vta_golden_decode_consts(const char *op, const vta_lut_tensor *filter_lut,
				    size_t fcount, const vta_lut_tensor *bias_lut, size_t bcount,
				    const int8_t **filter, const int32_t **bias, void *owned[2],
				    vta_error *err)
{
	char what[48];
	vta_status st = VTA_OK;
	if (filter_lut) {
		snprintf(what, sizeof(what), "%s filter", op);
		if ((st = vta_lut_expect(filter_lut, VTA_LUT_INT8, fcount, NULL, what, "filter",
					 err)))
			return st;
		if (!(owned[0] = malloc(fcount ? fcount : 1)))
			return vta_fail(err, VTA_E_NOMEM, "%s: out of memory", op);
		st = vta_lut_decode(filter_lut, owned[0], fcount, err);
		*filter = owned[0];
	}
	if (st == VTA_OK && bias_lut) {
		snprintf(what, sizeof(what), "%s bias", op);
		if ((st = vta_lut_expect(bias_lut, VTA_LUT_INT32, bcount, NULL, what, "bias", err)))
			return st;
		if (!(owned[1] = malloc(bcount ? bcount * sizeof(int32_t) : 1)))
			return vta_fail(err, VTA_E_NOMEM, "%s: out of memory", op);
		st = vta_lut_decode(bias_lut, owned[1], bcount * sizeof(int32_t), err);
		*bias = owned[1];
	}
	return st;
}

vta_status vta_golden_conv2d_decode(const vta_conv2d *c, const vta_lut_tensor *filter_lut,
				    const vta_lut_tensor *bias_lut, vta_conv2d *plain,
				    void *owned[2], vta_error *err)
{
	owned[0] = owned[1] = NULL;
	*plain = *c;
	vta_status st = vta_golden_conv2d_shape(c, NULL, err);
	if (st != VTA_OK)
		return st;
	const int32_t *fs = c->filter_shape;
	size_t fcount = (size_t)fs[0] * (size_t)fs[1] * (size_t)fs[2] * (size_t)fs[3];
	return vta_golden_decode_consts("CONV2D", filter_lut, fcount, bias_lut, (size_t)fs[0],
					&plain->filter, &plain->bias, owned, err);
}

vta_status vta_golden_conv2d_lut(const vta_conv2d *c, const vta_lut_tensor *filter_lut,
				 const vta_lut_tensor *bias_lut, vta_arith_mode mode,
				 vta_tensor_i8 *out, vta_golden_stats *stats, vta_error *err)
{
	vta_conv2d plain;
	void *owned[2];
	vta_status st = vta_golden_conv2d_decode(c, filter_lut, bias_lut, &plain, owned, err);
	if (st == VTA_OK)
		st = vta_golden_conv2d(&plain, mode, out, stats, err);
	free(owned[0]);
	free(owned[1]);
	return st;
}
