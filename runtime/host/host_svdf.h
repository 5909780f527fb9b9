/*
 * host_svdf.h - SVDF (singular value decomposition filter), the stateful op of keyword
 * spotters, as a host kernel with TFLM's integer reference arithmetic (svdf_common.cc,
 * EvalIntegerSvdfReference): int8 input and feature weights, time weights and activation
 * state both int16 or both int8, int32 bias, int8 output. docs/arithmetic.md "SVDF" gives
 * the arithmetic step by step.
 *
 * One call is one invocation: the state (batches x filters x memory, the newest column
 * last) is shifted left by one, its newest column computed from the input, then the output
 * is reduced from it. The caller owns every buffer and resets the state as TFLM does
 * (vta_host_svdf_reset) before the first invocation.
 */
#ifndef VTA_HOST_SVDF_H
#define VTA_HOST_SVDF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "quant.h"
#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vta_svdf {
	int32_t batches, input_size; /* input [batches, input_size] */
	int32_t filters, memory;     /* feature weights [filters, input_size], time [filters, memory] */
	int32_t rank;                /* filters per output unit: units = filters / rank */
	bool state_int16;            /* time weights and state int16 (else both int8) */
	const int8_t *input;
	const int8_t *weights_feature;
	const void *weights_time;    /* int16_t or int8_t */
	const int32_t *bias;         /* [units] or NULL */
	void *state;                 /* int16_t or int8_t [batches, filters * memory], updated */
	int8_t *output;              /* [batches, units] */
	float input_scale, weights_feature_scale, weights_time_scale, state_scale, output_scale;
	float bias_scale;            /* checked against state_scale * weights_time_scale */
	int32_t input_zero_point, state_zero_point, output_zero_point;
} vta_svdf;

/* The two requantizations TFLM's Prepare derives (QuantizeMultiplier of float products). */
typedef struct vta_svdf_quant {
	vta_qmul feature;            /* input * feature weights -> state */
	vta_qmul output;             /* state * time weights -> output */
} vta_svdf_quant;

/* Check shapes, scales and zero points as TFLM's PrepareSvdf does and derive the
 * multipliers (the data pointers are not looked at); VTA_E_USAGE with one line naming the
 * problem. */
vta_status vta_host_svdf_prepare(const vta_svdf *s, vta_svdf_quant *q, vta_error *err);

/* The state TFLM starts from: the state's zero point for int8, 0 for int16. */
void vta_host_svdf_reset(const vta_svdf *s);

/* One invocation (prepare included; every pointer but bias must be set). */
vta_status vta_host_svdf(const vta_svdf *s, vta_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VTA_HOST_SVDF_H */
