/*
 * tensor.h - an int8 NHWC activation tensor with per-tensor quantization, the unit the golden
 * kernels, the emitters and the report's check all exchange.
 *
 * real = (q - zero_point) * scale. The struct does not own `data`.
 */
#ifndef VTA_TENSOR_H
#define VTA_TENSOR_H

#include <stddef.h>
#include <stdint.h>

#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vta_tensor_i8 {
	int32_t shape[4];   /* N, H, W, C; each >= 1 */
	float scale;
	int32_t zero_point; /* -128..127 */
	int8_t *data;       /* N*H*W*C bytes, row-major NHWC */
} vta_tensor_i8;

/* Element count, or 0 when a dimension is < 1 or the product overflows. */
size_t vta_tensor_i8_count(const vta_tensor_i8 *t);
/* The product of n dimensions, or 0 when one is below 1 or the product overflows size_t. */
size_t vta_shape_count(const int32_t *dims, int n);

/* Check shape (dims >= 1), data pointer, scale (finite, > 0) and zero point (int8); `what`
 * names the tensor in the detail ("CONV2D input"). */
vta_status vta_tensor_i8_check(const vta_tensor_i8 *t, const char *what, vta_error *err);

/* Flat index of (n, h, w, c) and back. */
size_t vta_tensor_i8_offset(const vta_tensor_i8 *t, int32_t n, int32_t h, int32_t w, int32_t c);
void vta_tensor_i8_coords(const vta_tensor_i8 *t, size_t index, int32_t nhwc[4]);

#ifdef __cplusplus
}
#endif

#endif /* VTA_TENSOR_H */
