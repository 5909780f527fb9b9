/*
 * host_ops.h - the int8 ops a model needs that do not go to the accelerator, as host
 * kernels with exactly TFLite Micro's int8 reference semantics: AVERAGE_POOL_2D,
 * MAX_POOL_2D, RESHAPE, SOFTMAX, PAD (and PADV2), TRANSPOSE, MEAN, QUANTIZE,
 * CONCATENATION, RELU and RELU6. docs/arithmetic.md section 5 gives each op's arithmetic,
 * its rounding and the TFLM source it follows.
 *
 * Tensors are row-major int8 of rank 1..VTA_HOST_MAX_DIMS with per-tensor quantization
 * (real = scale * (q - zero_point)); the caller owns every buffer. Each kernel checks its
 * arguments and the output's shape (the *_shape functions compute it) and never allocates
 * more than a few words; errors are VTA_E_USAGE with one line naming the op.
 */
#ifndef VTA_HOST_OPS_H
#define VTA_HOST_OPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "layer.h"
#include "quant.h"
#include "tensor.h"
#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VTA_HOST_MAX_DIMS 6

typedef struct vta_host_tensor {
	int rank;                        /* 1..VTA_HOST_MAX_DIMS */
	int32_t dims[VTA_HOST_MAX_DIMS]; /* each >= 1 */
	float scale;                     /* finite, > 0 */
	int32_t zero_point;              /* -128..127 */
	int8_t *data;
} vta_host_tensor;

/* A rank-4 view of an NHWC tensor (the same data). */
vta_host_tensor vta_host_tensor_of(const vta_tensor_i8 *t);
/* Element count (0 when the rank or a dimension is invalid). */
size_t vta_host_tensor_count(const vta_host_tensor *t);
/* Check rank, dims, data, scale and zero point; `what` names the tensor in the detail. */
vta_status vta_host_tensor_check(const vta_host_tensor *t, const char *what, vta_error *err);
/* VTA_E_USAGE "<op> output shape [..] should be [..]" unless t has want's rank and dims. */
vta_status vta_host_expect_dims(const vta_host_tensor *t, const vta_host_tensor *want,
				const char *op, vta_error *err);

/* ---- pooling (host_pool.c): NHWC, rank 4; input and output share their quantization ---- */

typedef struct vta_pool_params {
	int32_t filter_h, filter_w;
	int32_t stride_h, stride_w;
	vta_padding padding;       /* SAME or VALID, placed as CONV2D's */
	vta_activation activation; /* fused, on the output's quantization */
} vta_pool_params;

/* Output dims {N, Ho, Wo, C} (out->rank and out->dims; quantization untouched). */
vta_status vta_host_pool_shape(const vta_host_tensor *in, const vta_pool_params *p,
			       vta_host_tensor *out, vta_error *err);
/* Mean of the in-image window, rounded half away from zero, clamped to the activation. */
vta_status vta_host_avg_pool(const vta_host_tensor *in, const vta_pool_params *p,
			     vta_host_tensor *out, vta_error *err);
/* Max of the in-image window, clamped to the activation. */
vta_status vta_host_max_pool(const vta_host_tensor *in, const vta_pool_params *p,
			     vta_host_tensor *out, vta_error *err);

/* ---- data movement (host_shape.c) ---- */

/* RESHAPE: the bytes as they are, into out's dims (same element count). */
vta_status vta_host_reshape(const vta_host_tensor *in, vta_host_tensor *out, vta_error *err);

/* PAD / PADV2: pads[d][0] elements before and pads[d][1] after dimension d (>= 0). The
 * new elements hold *value, or the output's zero point when value is NULL (PAD: the real
 * zero); the input's elements are copied as they are. */
vta_status vta_host_pad_shape(const vta_host_tensor *in, const int32_t (*pads)[2],
			      vta_host_tensor *out, vta_error *err);
vta_status vta_host_pad(const vta_host_tensor *in, const int32_t (*pads)[2], const int8_t *value,
			vta_host_tensor *out, vta_error *err);

/* TRANSPOSE: out dim i is in dim perm[i] (perm a permutation of 0..rank-1). */
vta_status vta_host_transpose_shape(const vta_host_tensor *in, const int32_t *perm,
				    vta_host_tensor *out, vta_error *err);
vta_status vta_host_transpose(const vta_host_tensor *in, const int32_t *perm,
			      vta_host_tensor *out, vta_error *err);

/* CONCATENATION of n inputs of one rank along `axis` (negative counts from the end; the
 * other dims equal). Every input's bytes are copied as they are, as TFLM's int8 kernel does
 * even for an input quantized unlike the output (the converter puts a QUANTIZE in front of
 * such an input; a model without one gets TFLM's bytes, not a requantized value). */
vta_status vta_host_concat_shape(const vta_host_tensor *const *ins, int n, int axis,
				 vta_host_tensor *out, vta_error *err);
vta_status vta_host_concat(const vta_host_tensor *const *ins, int n, int axis,
			   vta_host_tensor *out, vta_error *err);

/* ---- arithmetic (host_quantize.c, host_relu.c, host_mean.c, host_softmax.c) ---- */

/* QUANTIZE int8 -> int8: out = clamp(MBQM(q - zp_in, M, s) + zp_out), (M, s) =
 * QuantizeMultiplier((double)s_in / (double)s_out); shapes of equal element count. */
vta_status vta_host_requantize(const vta_host_tensor *in, vta_host_tensor *out, vta_error *err);
/* QUANTIZE uint8 -> int8 (image inputs): the same with `count` uint8 values. */
vta_status vta_host_requantize_u8(const uint8_t *in, size_t count, float scale,
				  int32_t zero_point, vta_host_tensor *out, vta_error *err);
/* QUANTIZE float -> int8: out = clamp(round_half_away(x / s_out) + zp_out), the division
 * in float. */
vta_status vta_host_quantize_f32(const float *in, size_t count, vta_host_tensor *out,
				 vta_error *err);

/* RELU (host_relu.c): out = clamp(MBQM(q - zp_in, M, s) + zp_out, max(-128, zp_out), 127),
 * (M, s) = QuantizeMultiplier((double)s_in / (double)s_out); out shaped as in. */
vta_status vta_host_relu(const vta_host_tensor *in, vta_host_tensor *out, vta_error *err);
/* RELU6: out = clamp(q, zp_in, min(127, zp_in + round(6 / s_in))), the input's codes with
 * the input's bounds: TFLM's kernel neither reads nor requantizes into the output's
 * quantization (the converter gives both the same). */
vta_status vta_host_relu6(const vta_host_tensor *in, vta_host_tensor *out, vta_error *err);

/* MEAN over `axes` (negative count from the end, duplicates ignored), as TFLM computes
 * int8 MEAN for every axis set and every quantization: the sum requantized with 1/count
 * folded into the multiplier. keep_dims keeps the reduced dims as 1, else drops them (a
 * full reduction gives rank 1, [1]). */
vta_status vta_host_mean_shape(const vta_host_tensor *in, const int32_t *axes, int n_axes,
			       bool keep_dims, vta_host_tensor *out, vta_error *err);
vta_status vta_host_mean(const vta_host_tensor *in, const int32_t *axes, int n_axes,
			 bool keep_dims, vta_host_tensor *out, vta_error *err);

/* SOFTMAX along the last dim with TFLM's int8 fixed-point exp and reciprocal (no LUT: TFLM
 * uses its LUTs for int16 only). The output must be scale 1/256, zero point -128. */
vta_status vta_host_softmax(const vta_host_tensor *in, float beta, vta_host_tensor *out,
			    vta_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VTA_HOST_OPS_H */
