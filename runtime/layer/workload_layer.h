/*
 * workload_layer.h - one workload layer made concrete: its tensors generated or read, its
 * constants LUT-compressed as the workload asks.
 *
 * Each constant has one copy: the plain array when the workload leaves it uncompressed, or
 * its LUT tensor when compressed (the plain pointer is then NULL). Whoever needs the values
 * decodes the LUT itself, once: the pipeline for the golden kernels and the dump
 * (layer_ops.h), the emitter for its host decompression.
 */
#ifndef VTA_WORKLOAD_LAYER_H
#define VTA_WORKLOAD_LAYER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "layer.h"
#include "lut.h"
#include "tensor.h"
#include "workload.h"
#include "workload_data.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vta_layer_data {
	vta_wl_op op;
	const vta_wl_layer *spec;
	/* conv2d, depthwise_conv2d, fully_connected: one of conv, dw, fc describes the layer */
	vta_tensor_i8 input;
	int8_t *filter;          /* in the op's layout, or NULL when `lut` holds it */
	float *filter_scales;    /* O */
	int32_t *bias;           /* O, or NULL (absent, or `bias_lut` holds it) */
	vta_conv2d conv;
	vta_depthwise_conv2d dw;
	vta_fully_connected fc;
	/* add: b is the constant operand when one input is LUT-compressed (b.data NULL); either
	 * may be the broadcast one (per channel or scalar) */
	vta_tensor_i8 a, b;
	bool swapped;            /* inputs[0] became b (it was the constant) */
	/* LUT-compressed constants (filter / add constant; bias) */
	bool has_lut, has_bias_lut;
	vta_lut_buffer lut, bias_lut;
	vta_lut_bin_report binning; /* when a file's constant had to be binned */
	uint64_t compressed_bytes;  /* indices + value tables of all LUT constants */
	uint64_t decompressed_bytes;/* the same constants as plain data */
	/* output: shape, scale, zero point; data allocated */
	vta_tensor_i8 output;
} vta_layer_data;

vta_status vta_layer_materialize(const vta_wl_layer *layer, vta_layer_data *out,
				 vta_error *err);
/* The bytes a run of the layer holds, from its shapes alone (before it is materialised):
 * its inputs, filter and bias, and its output three times (the output and the golden
 * outputs of both arithmetic modes). A shape the layer refuses counts what it can. */
uint64_t vta_layer_spec_bytes(const vta_wl_layer *layer);
void vta_layer_data_free(vta_layer_data *d);
/* The op-specific halves of vta_layer_materialize, entries of the op table (layer_ops.h). */
vta_status vta_layer_materialize_conv2d(const vta_wl_layer *l, vta_layer_data *d,
					vta_error *err);
vta_status vta_layer_materialize_add(const vta_wl_layer *l, vta_layer_data *d, vta_error *err);
vta_status vta_layer_materialize_depthwise(const vta_wl_layer *l, vta_layer_data *d,
					   vta_error *err);
vta_status vta_layer_materialize_fc(const vta_wl_layer *l, vta_layer_data *d, vta_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VTA_WORKLOAD_LAYER_H */
