/*
 * layer.h - what a layer is, independent of how it is computed: the parameters of a CONV2D
 * (grouped or not), a DEPTHWISE_CONV_2D and a FULLY_CONNECTED (stride, dilation, padding
 * mode, fused activation; the quantization travels in the tensors and the per-channel
 * filter scales). The golden kernels (golden.h) and the emitters (emit_*.h) both take this
 * description and share nothing else, so a mistake on one side shows up as a mismatch.
 * Filters keep TFLite's layouts and zero point 0 (symmetric int8 weights); biases are
 * int32 at scale s_in * s_w[c].
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

/* DEPTHWISE_CONV_2D: input channel c feeds the M = depth_multiplier output channels
 * c*M .. c*M+M-1, each through its own KH x KW filter (TFLM DepthwiseConvPerChannel). */
typedef struct vta_depthwise_conv2d {
	const vta_tensor_i8 *input;   /* NHWC */
	const int8_t *filter;         /* [1, KH, KW, O] (TFLite's layout), O = C * M */
	int32_t filter_shape[4];      /* 1, KH, KW, O */
	int32_t depth_multiplier;     /* M = O / C; 0 takes it from the shapes */
	const float *filter_scales;   /* 1 or O (per output channel: TFLite's axis 3) */
	size_t filter_scale_count;
	const int32_t *bias;          /* O values, or NULL */
	int32_t stride_h, stride_w;   /* >= 1 */
	int32_t dilation_h, dilation_w; /* >= 1 */
	vta_padding padding;
	vta_activation activation;
} vta_depthwise_conv2d;

/* FULLY_CONNECTED: out[b][o] = requant_o(sum_k w[o][k] * (x[b][k] - zp_in) + bias[o]), the
 * input read as [batches, K] (batches = element count / K; keep_num_dims false), the
 * output [batches, O] (TFLM FullyConnected / FullyConnectedPerChannel). */
typedef struct vta_fully_connected {
	const vta_tensor_i8 *input;   /* any shape whose element count is a multiple of K */
	const int8_t *filter;         /* [O, K] */
	int32_t filter_shape[2];      /* O, K */
	const float *filter_scales;   /* 1 (per tensor) or O (per output channel) */
	size_t filter_scale_count;
	const int32_t *bias;          /* O values, or NULL */
	vta_activation activation;
} vta_fully_connected;

#ifdef __cplusplus
}
#endif

#endif /* VTA_LAYER_H */
