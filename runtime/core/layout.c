/*
 * layout.c - NHWC/OHWI <-> VTA blocked layouts (see layout.h for the layouts).
 * Every layer of a run goes through the conv layouts, so they copy runs of channels (a whole
 * pixel when the batch is 1) rather than single elements.
 */
#include "layout.h"

#include <stdbool.h>
#include <string.h>

#include "vta_bytes.h"

uint64_t vta_layout_conv_input_bytes(const vta_config *cfg, const int32_t nhwc[4],
				     const vta_layout_window *w)
{
	uint64_t ng = vta_layout_div_up((uint64_t)nhwc[0], cfg->batch);
	uint64_t cb = vta_layout_div_up((uint64_t)nhwc[3], cfg->block_in);
	if (w->cb > cb)
		cb = w->cb;
	return ng * (uint64_t)w->hp * (uint64_t)w->wp * cb * cfg->sram[VTA_MEM_INP].elem_bytes;
}

/* A lane run of `len` bytes: the first n from src (or all `fill` if src is NULL), then zeros. */
static void put_run(uint8_t *dst, const int8_t *src, int8_t fill, size_t n, size_t len)
{
	if (src && n == len && len == 16) { /* the common whole block: a move, not two calls */
		memcpy(dst, src, 16);
		return;
	}
	if (src)
		memcpy(dst, src, n);
	else
		memset(dst, (uint8_t)fill, n);
	if (n < len)
		memset(dst + n, 0, len - n);
}

/* Channels of block c0 (of `block` channels) that exist among `channels`. */
static size_t block_fill(uint64_t c0, uint64_t block, uint64_t channels)
{
	uint64_t lo = c0 * block;
	return lo >= channels ? 0 : (size_t)(channels - lo < block ? channels - lo : block);
}

/* One padded pixel of image group g: cb blocks of B lanes of BI channels. src_pixel is the
 * image's pixel (n, iy, ix) of lane 0's image, or NULL outside the image (`fill`). */
static void input_pixel(const vta_tensor_i8 *in, uint64_t g, uint64_t B, uint64_t BI,
			uint64_t cb, int32_t iy, int32_t ix, bool inside, int8_t fill, uint8_t *p)
{
	const uint64_t N = (uint64_t)in->shape[0], C = (uint64_t)in->shape[3];
	for (uint64_t b = 0; b < B; b++) {
		const uint64_t n = g * B + b;
		const int8_t *src = NULL;
		if (n < N && inside)
			src = in->data + vta_tensor_i8_offset(in, (int32_t)n, iy, ix, 0);
		const uint64_t chans = n < N ? C : 0;
		if (B == 1) { /* the pixel's channels are one run */
			put_run(p, src, fill, (size_t)chans, (size_t)(cb * BI));
			continue;
		}
		for (uint64_t c0 = 0; c0 < cb; c0++)
			put_run(p + (c0 * B + b) * BI, src ? src + c0 * BI : NULL, fill,
				block_fill(c0, BI, chans), (size_t)BI);
	}
}

/* Batch 1, a padded row at a time: the pixels inside the image are consecutive in the input
 * row (one copy when the channels fill their blocks), those outside take `fill`. The same
 * bytes as input_pixel gives pixel by pixel, without its per-pixel offsets. */
static void conv_input_rows(const vta_tensor_i8 *in, const vta_layout_window *w, size_t px,
			    int8_t fill, uint8_t *p)
{
	const int32_t N = in->shape[0], H = in->shape[1], W = in->shape[2];
	const size_t C = (size_t)in->shape[3];
	/* the padded columns inside the image, [x0, x1) */
	int64_t x0 = w->pad_left, x1 = (int64_t)w->pad_left + W;
	x0 = x0 < 0 ? 0 : x0 > w->wp ? w->wp : x0;
	x1 = x1 < x0 ? x0 : x1 > w->wp ? w->wp : x1;
	for (int32_t n = 0; n < N; n++)
		for (int32_t y = 0; y < w->hp; y++) {
			const int32_t iy = y - w->pad_top;
			const bool row_in = iy >= 0 && iy < H && x1 > x0;
			const int64_t a = row_in ? x0 : w->wp, b = row_in ? x1 : w->wp;
			for (int64_t x = 0; x < a; x++, p += px)
				put_run(p, NULL, fill, C, px);
			if (a < b) {
				const int8_t *src = in->data + vta_tensor_i8_offset(
								       in, n, iy, (int32_t)(a - w->pad_left), 0);
				if (C == px) {
					memcpy(p, src, (size_t)(b - a) * px);
					p += (size_t)(b - a) * px;
				} else { /* the pixels cleared at once, then their channels */
					memset(p, 0, (size_t)(b - a) * px);
					if (C >= 16) /* a call pays for itself */
						for (int64_t x = a; x < b; x++, p += px, src += C)
							memcpy(p, src, C);
					else
						for (int64_t x = a; x < b; x++, p += px, src += C)
							for (size_t c = 0; c < C; c++)
								p[c] = (uint8_t)src[c];
				}
			}
			for (int64_t x = b; x < w->wp; x++, p += px)
				put_run(p, NULL, fill, C, px);
		}
}

void vta_layout_conv_input(const vta_config *cfg, const vta_tensor_i8 *in,
			   const vta_layout_window *w, int8_t fill, uint8_t *dst)
{
	const int32_t N = in->shape[0], H = in->shape[1], W = in->shape[2], C = in->shape[3];
	const uint64_t B = cfg->batch, BI = cfg->block_in;
	const uint64_t ng = vta_layout_div_up((uint64_t)N, B);
	uint64_t cb = vta_layout_div_up((uint64_t)C, BI);
	if (w->cb > cb)
		cb = w->cb;
	if (B == 1) {
		conv_input_rows(in, w, (size_t)(cb * BI), fill, dst);
		return;
	}
	uint8_t *p = dst;
	for (uint64_t g = 0; g < ng; g++)
		for (int32_t y = 0; y < w->hp; y++)
			for (int32_t x = 0; x < w->wp; x++, p += cb * B * BI) {
				int32_t iy = y - w->pad_top, ix = x - w->pad_left;
				bool inside = iy >= 0 && iy < H && ix >= 0 && ix < W;
				input_pixel(in, g, B, BI, cb, iy, ix, inside, fill, p);
			}
}

uint64_t vta_layout_conv_filter_bytes(const vta_config *cfg, const int32_t ohwi[4])
{
	uint64_t ob = vta_layout_div_up((uint64_t)ohwi[0], cfg->block_out);
	uint64_t cb = vta_layout_div_up((uint64_t)ohwi[3], cfg->block_in);
	return ob * (uint64_t)ohwi[1] * (uint64_t)ohwi[2] * cb * cfg->sram[VTA_MEM_WGT].elem_bytes;
}

void vta_layout_conv_filter(const vta_config *cfg, const int8_t *filter, const int32_t ohwi[4],
			    uint8_t *dst)
{
	const uint64_t O = (uint64_t)ohwi[0], KH = (uint64_t)ohwi[1], KW = (uint64_t)ohwi[2];
	const uint64_t C = (uint64_t)ohwi[3];
	const uint64_t BO = cfg->block_out, BI = cfg->block_in;
	const uint64_t ob = vta_layout_div_up(O, BO), cb = vta_layout_div_up(C, BI);
	uint8_t *p = dst;
	for (uint64_t o0 = 0; o0 < ob; o0++)
		for (uint64_t tap = 0; tap < KH * KW; tap++) /* ky * KW + kx */
			for (uint64_t c0 = 0; c0 < cb; c0++)
				for (uint64_t oc = o0 * BO; oc < o0 * BO + BO; oc++, p += BI) {
					size_t nv = oc < O ? block_fill(c0, BI, C) : 0;
					const int8_t *src = nv ? filter + (oc * KH * KW + tap) * C +
								 c0 * BI
							       : filter;
					put_run(p, src, 0, nv, (size_t)BI);
				}
}

uint64_t vta_layout_conv_output_bytes(const vta_config *cfg, const int32_t nhwc[4])
{
	uint64_t ng = vta_layout_div_up((uint64_t)nhwc[0], cfg->batch);
	uint64_t ob = vta_layout_div_up((uint64_t)nhwc[3], cfg->block_out);
	return ng * (uint64_t)nhwc[1] * (uint64_t)nhwc[2] * ob * cfg->sram[VTA_MEM_OUT].elem_bytes;
}

void vta_layout_conv_output(const vta_config *cfg, const uint8_t *src, const int32_t nhwc[4],
			    int8_t *out)
{
	const uint64_t N = (uint64_t)nhwc[0], H = (uint64_t)nhwc[1], W = (uint64_t)nhwc[2];
	const uint64_t O = (uint64_t)nhwc[3];
	const uint64_t B = cfg->batch, BO = cfg->block_out;
	const uint64_t ob = vta_layout_div_up(O, BO);
	for (uint64_t n = 0; n < N; n++)
		for (uint64_t y = 0; y < H; y++)
			for (uint64_t x = 0; x < W; x++) {
				uint64_t row = (((n / B) * H + y) * W + x) * ob;
				const uint8_t *s = src + row * B * BO + (n % B) * BO;
				int8_t *d = out + ((n * H + y) * W + x) * O;
				if (B == 1) { /* the pixel's channels are one run */
					memcpy(d, s, (size_t)O);
					continue;
				}
				for (uint64_t c0 = 0; c0 < ob; c0++)
					memcpy(d + c0 * BO, s + c0 * B * BO, block_fill(c0, BO, O));
			}
}

uint64_t vta_layout_acc_rows_bytes(const vta_config *cfg, size_t channels)
{
	return vta_layout_div_up(channels, cfg->block_out) * cfg->sram[VTA_MEM_ACC].elem_bytes;
}

void vta_layout_acc_rows(const vta_config *cfg, const int32_t *values, int32_t fill,
			 size_t channels, uint8_t *dst)
{
	const uint64_t B = cfg->batch, BO = cfg->block_out;
	const uint64_t rows = vta_layout_div_up(channels, BO);
	uint8_t *p = dst;
	for (uint64_t r = 0; r < rows; r++)
		for (uint64_t b = 0; b < B; b++)
			for (uint64_t o = 0; o < BO; o++, p += 4) {
				uint64_t c = r * BO + o;
				int32_t v = 0;
				if (c < channels)
					v = values ? values[c] : fill;
				vta_le_put(p, 4, (uint32_t)v);
			}
}

uint64_t vta_layout_flat_rows(const vta_config *cfg, size_t count)
{
	return vta_layout_div_up(count, (uint64_t)cfg->batch * cfg->block_out);
}

void vta_layout_flat_i8(const vta_config *cfg, const int8_t *src, size_t count, uint8_t *dst)
{
	uint64_t lanes = (uint64_t)cfg->batch * cfg->block_out;
	uint64_t total = vta_layout_flat_rows(cfg, count) * lanes;
	memcpy(dst, src, count);
	memset(dst + count, 0, (size_t)(total - count));
}

void vta_layout_flat_i32(const vta_config *cfg, const int32_t *src, size_t count, uint8_t *dst)
{
	uint64_t lanes = (uint64_t)cfg->batch * cfg->block_out;
	uint64_t total = vta_layout_flat_rows(cfg, count) * lanes;
	for (uint64_t i = 0; i < total; i++)
		vta_le_put(dst + 4 * i, 4, (uint32_t)(i < count ? src[i] : 0));
}

uint64_t vta_layout_pixel_rows(const vta_config *cfg, size_t pixels, size_t channels)
{
	return (uint64_t)pixels * vta_layout_div_up(channels, cfg->block_out);
}

void vta_layout_pixel_i8(const vta_config *cfg, const int8_t *src, size_t pixels,
			 size_t channels, uint8_t *dst)
{
	const uint64_t BO = cfg->block_out, cb = vta_layout_div_up(channels, BO);
	uint8_t *p = dst;
	for (uint64_t px = 0; px < pixels; px++)
		for (uint64_t c0 = 0; c0 < cb; c0++)
			for (uint64_t o = 0; o < BO; o++, p++) {
				uint64_t c = c0 * BO + o;
				*p = c < channels ? (uint8_t)src[px * channels + c] : 0;
			}
}

void vta_layout_pixel_i32(const vta_config *cfg, const int32_t *src, size_t pixels,
			  size_t channels, uint8_t *dst)
{
	const uint64_t BO = cfg->block_out, cb = vta_layout_div_up(channels, BO);
	uint8_t *p = dst;
	for (uint64_t px = 0; px < pixels; px++)
		for (uint64_t c0 = 0; c0 < cb; c0++)
			for (uint64_t o = 0; o < BO; o++, p += 4) {
				uint64_t c = c0 * BO + o;
				int32_t v = c < channels ? src[px * channels + c] : 0;
				vta_le_put(p, 4, (uint32_t)v);
			}
}

void vta_layout_pixel_read_i8(const vta_config *cfg, const uint8_t *src, size_t pixels,
			      size_t channels, int8_t *out)
{
	const uint64_t BO = cfg->block_out, cb = vta_layout_div_up(channels, BO);
	for (uint64_t px = 0; px < pixels; px++)
		for (uint64_t c = 0; c < channels; c++)
			out[px * channels + c] = (int8_t)src[(px * cb + c / BO) * BO + c % BO];
}
