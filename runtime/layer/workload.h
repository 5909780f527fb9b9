/*
 * workload.h - the workload YAML: a .tflite model with its run options, or a list of int8 CONV2D (grouped too), DEPTHWISE_CONV_2D,
 * FULLY_CONNECTED and ADD layers, each tensor given by
 * shape, quantization and a data source (seeded random, raw little-endian file, or .npy),
 * optionally LUT-compressed. docs/workload.md documents every key.
 *
 * Loading only parses and validates (errors are FILE:LINE:COL); vta_layer_materialize()
 * (workload_layer.h) turns a layer into concrete tensors.
 */
#ifndef VTA_WORKLOAD_H
#define VTA_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "op_registry.h"
#include "quant.h"
#include "tiling.h"
#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VTA_WL_NAME_MAX 64
#define VTA_WL_PATH_MAX 512
/* The largest tensor a workload may describe (elements); a simulated DRAM holds at most 4 GiB. */
#define VTA_WL_MAX_ELEMENTS (1ull << 30)

typedef enum vta_wl_source { VTA_WL_RANDOM = 0, VTA_WL_RAW, VTA_WL_NPY } vta_wl_source;

/* Where a tensor's numbers come from. */
typedef struct vta_wl_data {
	vta_wl_source source;
	uint64_t seed;           /* random */
	bool has_range;          /* random: explicit [min, max] */
	double min, max;
	char path[VTA_WL_PATH_MAX]; /* raw / npy, already resolved against the workload's folder */
} vta_wl_data;

/* Per-channel scales: a list, or seeded random in [min, max]. */
typedef struct vta_wl_scales {
	bool present;
	bool random;
	uint64_t seed;
	double min, max;
	size_t count;            /* list length (0 when random) */
	float *values;
} vta_wl_scales;

typedef struct vta_wl_tensor {
	bool present;
	int rank;
	int32_t shape[4];
	bool has_scale;
	float scale;
	int32_t zero_point;
	vta_wl_scales scales;    /* filter only */
	vta_wl_data data;
	bool compressed;         /* compression: {lut: {index_bitwidth: b}} */
	unsigned index_bitwidth;
	bool per_channel;        /* LUT tables per channel (default true for filters/bias) */
	int line, col;           /* where the tensor was written, for later errors */
} vta_wl_tensor;

/* A layer's op: an accelerated operator's descriptor (runtime/ops/), which says how to
 * materialise, compute and emit it. */
typedef const vta_op_desc *vta_wl_op;
/* The ops by the names callers use. */
#define VTA_WL_CONV2D (&vta_op_conv2d)
#define VTA_WL_ADD (&vta_op_add)
#define VTA_WL_DEPTHWISE (&vta_op_depthwise)
#define VTA_WL_FC (&vta_op_fc)
typedef enum vta_wl_padding { VTA_WL_SAME = 0, VTA_WL_VALID } vta_wl_padding;

typedef struct vta_wl_layer {
	char name[VTA_WL_NAME_MAX];
	vta_wl_op op;
	int line, col;
	/* conv2d, depthwise_conv2d (also stride...padding), fully_connected (input, filter, bias) */
	vta_wl_tensor input, filter, bias;
	int32_t stride[2];       /* h, w */
	int32_t dilation[2];
	vta_wl_padding padding;
	int32_t depth_multiplier; /* depthwise: 0 when not given (taken from the shapes) */
	vta_conv_pin pin;        /* plan choices held fixed (`plan:`); zero: none */
	/* add */
	vta_wl_tensor inputs[2];
	/* both */
	float output_scale;
	int32_t output_zero_point;
	vta_activation activation;
} vta_wl_layer;

#define VTA_WL_MAX_INPUTS 16

/* A workload that names a .tflite model instead of listing layers (`model:`): the model
 * runs as `vtasim run -m` runs it, with these of its options. */
typedef struct vta_wl_model {
	char path[VTA_WL_PATH_MAX];   /* resolved against the workload's folder */
	int line, col;                /* where `model:` is written */
	size_t n_inputs;              /* `inputs:` .npy files, in the model's input order; */
	char (*inputs)[VTA_WL_PATH_MAX]; /* none: seeded random */
	uint64_t seed;                /* `seed:` of the random inputs (default 1) */
	unsigned host_classes;        /* `host_ops:` class bits (vta_op_class_bit) */
	char host_ops[128];           /* ... as written, joined by ','; "" when not given */
} vta_wl_model;

typedef struct vta_workload {
	char path[VTA_WL_PATH_MAX];
	vta_wl_layer *layers;
	size_t n_layers;
	bool is_model;                /* a model, n_layers 0 */
	vta_wl_model model;
} vta_workload;

vta_status vta_workload_load(const char *path, vta_workload *wl, vta_error *err);
void vta_workload_free(vta_workload *wl);
const char *vta_wl_op_name(vta_wl_op op);

#ifdef __cplusplus
}
#endif

#endif /* VTA_WORKLOAD_H */
