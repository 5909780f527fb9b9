/*
 * host_ops_wide.h - the host kernels whose tensors are not all int8 (host_ops.h holds the
 * int8 ones): SOFTMAX from int8 into int16 and QUANTIZE between the integer types TFLM's
 * quantize kernel pairs. Each follows TFLM's reference arithmetic exactly; docs/arithmetic.md
 * gives each rule. Errors are VTA_E_USAGE with one line naming the op.
 */
#ifndef VTA_HOST_OPS_WIDE_H
#define VTA_HOST_OPS_WIDE_H

#include <stddef.h>
#include <stdint.h>

#include "host_ops.h"

#ifdef __cplusplus
extern "C" {
#endif

/* SOFTMAX along the last dim of an int8 tensor into int16 (as many elements): TFLM's int8
 * softmax kept at 16 bits. The output must be scale 1/65536 (within 0.1%), zero point
 * -32768. host_softmax_i16.c. */
vta_status vta_host_softmax_i16(const vta_host_tensor *in, float beta, float out_scale,
				int32_t out_zero_point, int16_t *out, vta_error *err);

/* The integer element types of QUANTIZE. */
typedef enum vta_host_int_type {
	VTA_HOST_INT8,
	VTA_HOST_UINT8,
	VTA_HOST_INT16,
	VTA_HOST_INT32
} vta_host_int_type;

/* One side of a requantization: `count` elements of `type` quantized (scale, zero_point). */
typedef struct vta_host_quantized {
	vta_host_int_type type;
	void *data;
	float scale;
	int32_t zero_point;
} vta_host_quantized;

/* QUANTIZE between integer types (reference_ops::Requantize): out = clamp(MBQM(q - zp_in,
 * M, s) + zp_out) to out's type, (M, s) = QuantizeMultiplier((double)s_in / (double)s_out).
 * The pairs TFLM's kernel takes: int8 -> int8, uint8, int16, int32; uint8 -> int8; int16 ->
 * int8, int16, int32; int32 -> int8, int16. host_requantize.c. */
vta_status vta_host_requantize_int(const vta_host_quantized *in, vta_host_quantized *out,
				   size_t count, vta_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VTA_HOST_OPS_WIDE_H */
