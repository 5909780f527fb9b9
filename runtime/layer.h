/*
 * layer.h - what a layer is, independent of how it is computed: the parameters of a CONV2D
 * (stride, dilation, padding mode, fused activation; the quantization travels in the
 * tensors). The golden kernels (golden.h) and the emitters (emit_*.h) both take this
 * description and share nothing else, so a mistake on one side shows up as a mismatch.
 */
#ifndef VTA_LAYER_H
#define VTA_LAYER_H

#include <stddef.h>
#include <stdint.h>

#include "quant.h"
#include "tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* TFLite's Padding codes. */
typedef enum vta_padding {
	VTA_PADDING_SAME = 0,
	VTA_PADDING_VALID = 1
} vta_padding;

typedef struct vta_conv2d {
	const vta_tensor_i8 *input;   /* NHWC */
	const int8_t *filter;         /* OHWI, zero point 0 */
	int32_t filter_shape[4];      /* O, Hk, Wk, I_f; groups = input C / I_f */
	const float *filter_scales;   /* 1 or O (per output channel) */
	size_t filter_scale_count;
	const int32_t *bias;          /* O values, or NULL */
	int32_t stride_h, stride_w;   /* >= 1 */
	int32_t dilation_h, dilation_w; /* >= 1 */
	vta_padding padding;
	vta_activation activation;
} vta_conv2d;

#ifdef __cplusplus
}
#endif

#endif /* VTA_LAYER_H */
