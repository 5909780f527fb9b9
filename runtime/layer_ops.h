/*
 * layer_ops.h - what differs between layer ops, in one table: for CONV2D and ADD, the golden
 * kernel over a materialised layer, its emitter, the bytes of activation it reads, and its
 * inputs and constants as plain arrays (for dumps). The pipeline (layer_run.c) and the CLI
 * look an op up here instead of testing which op they hold.
 */
#ifndef VTA_LAYER_OPS_H
#define VTA_LAYER_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "emit_layer.h"
#include "golden.h"
#include "npy.h"
#include "workload_layer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One golden evaluation: in `mode`, into `out` (shape, scale and zero point of the layer's
 * output, data allocated by the caller); stats and host seconds filled by the op. */
typedef struct vta_golden_pass {
	vta_arith_mode mode;
	vta_tensor_i8 *out;
	vta_golden_stats stats;
	double seconds; /* the first pass also counts decoding the LUT constants */
} vta_golden_pass;

/* A layer tensor as a plain array, named as the dump files are. */
#define VTA_LAYER_MAX_ARRAYS 4
typedef struct vta_layer_array {
	const char *name;
	vta_npy_dtype dtype;
	int rank;
	size_t shape[4];
	const void *data;
	void *decoded; /* owned by the array when a LUT was decoded for it */
} vta_layer_array;

typedef struct vta_layer_ops {
	/* Golden kernel in every pass's mode, the LUT constants decoded once for all passes. */
	vta_status (*golden)(const vta_layer_data *d, vta_golden_pass *passes, size_t n,
			     vta_error *err);
	/* The emitter, given the LUT tensors of compressed constants. */
	vta_status (*emit)(const vta_config *cfg, const vta_layer_data *d,
			   const vta_emit_opts *opts, vta_dram *dram, vta_layer_stream *ls,
			   vta_error *err);
	/* Activation bytes the layer reads (not constants): the roofline's input traffic. */
	uint64_t (*input_bytes)(const vta_layer_data *d);
	/* Inputs and constants, compressed ones decoded; free with vta_layer_arrays_free. */
	vta_status (*arrays)(const vta_layer_data *d, vta_layer_array out[VTA_LAYER_MAX_ARRAYS],
			     size_t *n, vta_error *err);
} vta_layer_ops;

const vta_layer_ops *vta_layer_ops_of(vta_wl_op op);

void vta_layer_arrays_free(vta_layer_array *a, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* VTA_LAYER_OPS_H */
