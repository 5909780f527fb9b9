/*
 * op_layer.h - what the accelerated operators' layer hooks (layer_ops.h) share: a tensor as a
 * named dump array, the pieces of a golden key, the LUT constants of a layer.
 */
#ifndef VTA_OP_LAYER_H
#define VTA_OP_LAYER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "layer_ops.h"

#ifdef __cplusplus
extern "C" {
#endif

vta_layer_array vta_op_nhwc_array(const char *name, const vta_tensor_i8 *t);
/* The shape, quantization and (with_data) values of an int8 tensor, for a golden key. */
void vta_op_key_tensor(vta_golden_key *h, const vta_tensor_i8 *t, bool with_data);
/* A filter of n int8 values, its scales, and o biases (or none), for a golden key. */
void vta_op_key_consts(vta_golden_key *h, const int8_t *filter, size_t n, const float *scales,
		       size_t n_scales, const int32_t *bias, size_t o);
void vta_op_key_ints(vta_golden_key *h, const int32_t *v, size_t n);
/* The LUT tensor of the filter (or ADD's constant) and of the bias, or NULL. */
const vta_lut_tensor *vta_op_filter_lut(const vta_layer_data *d);
const vta_lut_tensor *vta_op_bias_lut(const vta_layer_data *d);
/* CONV2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED read their input once. */
uint64_t vta_op_input_bytes_once(const vta_layer_data *d);

#ifdef __cplusplus
}
#endif

#endif /* VTA_OP_LAYER_H */
