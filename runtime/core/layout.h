/*
 * layout.h - conversions between TFLite tensors (NHWC activations, OHWI filters, per-channel
 * int32 vectors) and the blocked layouts VTA's DMA moves (element = one SRAM row): conv
 * input, filter and output, ACC rows of per-channel values, flat and pixel-blocked rows for
 * elementwise layers (pixel-blocked ones need batch 1), as tabled in docs/runtime.md
 * "Layouts". Images are grouped B = batch at a time (image n in batch lane n % B of group
 * n / B). All multi-byte values are little-endian. The functions never allocate; sizes come
 * from the *_bytes helpers.
 */
#ifndef VTA_LAYOUT_H
#define VTA_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "tensor.h"
#include "vta_config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ceil(a / b) */
static inline uint64_t vta_layout_div_up(uint64_t a, uint64_t b)
{
	return (a + b - 1) / b;
}

/* The window of the (unpadded) input a convolution reads, in padded coordinates. */
typedef struct vta_layout_window {
	int32_t pad_top, pad_left; /* padded row/column 0 is input row -pad_top / col -pad_left */
	int32_t hp, wp;            /* padded rows and columns kept */
	uint32_t cb;               /* channel blocks per pixel: 0 for ceil(C / block_in); more
				    * add zero blocks (a grouped conv's last unit) */
} vta_layout_window;

uint64_t vta_layout_conv_input_bytes(const vta_config *cfg, const int32_t nhwc[4],
				     const vta_layout_window *w);
/* Write `in` (NHWC) in the conv input layout; out-of-image positions get `fill`. */
void vta_layout_conv_input(const vta_config *cfg, const vta_tensor_i8 *in,
			   const vta_layout_window *w, int8_t fill, uint8_t *dst);

uint64_t vta_layout_conv_filter_bytes(const vta_config *cfg, const int32_t ohwi[4]);
void vta_layout_conv_filter(const vta_config *cfg, const int8_t *filter, const int32_t ohwi[4],
			    uint8_t *dst);

uint64_t vta_layout_conv_output_bytes(const vta_config *cfg, const int32_t nhwc[4]);
/* Read the conv output layout back into NHWC (shape nhwc). */
void vta_layout_conv_output(const vta_config *cfg, const uint8_t *src, const int32_t nhwc[4],
			    int8_t *out);

/* ACC rows for `channels` per-channel values (NULL: all `fill`); rows = ceil(C/BO). */
uint64_t vta_layout_acc_rows_bytes(const vta_config *cfg, size_t channels);
void vta_layout_acc_rows(const vta_config *cfg, const int32_t *values, int32_t fill,
			 size_t channels, uint8_t *dst);

/* Flat rows of B*BO lanes; elem_bytes 1 (int8) or 4 (int32). */
uint64_t vta_layout_flat_rows(const vta_config *cfg, size_t count);
void vta_layout_flat_i8(const vta_config *cfg, const int8_t *src, size_t count, uint8_t *dst);
void vta_layout_flat_i32(const vta_config *cfg, const int32_t *src, size_t count, uint8_t *dst);

/* Pixel-blocked rows (B == 1): `pixels` x ceil(C/BO) rows of BO lanes, int8 or int32. */
uint64_t vta_layout_pixel_rows(const vta_config *cfg, size_t pixels, size_t channels);
void vta_layout_pixel_i8(const vta_config *cfg, const int8_t *src, size_t pixels,
			 size_t channels, uint8_t *dst);
void vta_layout_pixel_i32(const vta_config *cfg, const int32_t *src, size_t pixels,
			  size_t channels, uint8_t *dst);
void vta_layout_pixel_read_i8(const vta_config *cfg, const uint8_t *src, size_t pixels,
			      size_t channels, int8_t *out);

#ifdef __cplusplus
}
#endif

#endif /* VTA_LAYOUT_H */
