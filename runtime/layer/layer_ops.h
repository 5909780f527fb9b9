/*
 * layer_ops.h - what differs between layer ops: how to materialise the layer, decode its
 * constants and run its golden kernel, its emitter, the activation bytes it reads, and its
 * inputs and constants as plain arrays (for dumps). Each accelerated operator's descriptor
 * (runtime/ops/op_*.c) holds its hooks; the pipeline (layer_run.c) and the CLI look an op up
 * here instead of testing which it is.
 */
#ifndef VTA_LAYER_OPS_H
#define VTA_LAYER_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "emit_layer.h"
#include "golden.h"
#include "npy.h"
#include "golden_cache.h"
#include "workload_layer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A materialised layer with its LUT constants decoded (plain ones are borrowed): what the
 * golden kernels and the dump read. The pipeline decodes once (vta_layer_ops.decode) and
 * shows the result to its observers (vta_layer_view.plain). */
typedef struct vta_layer_plain {
	vta_conv2d conv;          /* CONV2D: filter and bias as plain arrays */
	vta_depthwise_conv2d dw;  /* DEPTHWISE_CONV_2D: the same */
	vta_fully_connected fc;   /* FULLY_CONNECTED: the same */
	vta_tensor_i8 b;          /* ADD: the second operand as a plain tensor */
	void *owned[2];
} vta_layer_plain;

/* A layer tensor as a plain array, named as the dump files are. */
#define VTA_LAYER_MAX_ARRAYS 4
typedef struct vta_layer_array {
	const char *name;
	vta_npy_dtype dtype;
	int rank;
	size_t shape[4];
	const void *data;
} vta_layer_array;

typedef struct vta_layer_ops {
	/* Make the layer's tensors (workload_layer.c; vta_layer_materialize adds the name). */
	vta_status (*materialize)(const vta_wl_layer *l, vta_layer_data *d, vta_error *err);
	/* Decode the layer's LUT constants into p; free with vta_layer_plain_free. */
	vta_status (*decode)(const vta_layer_data *d, vta_layer_plain *p, vta_error *err);
	/* The golden kernel in `mode` (out as in golden.h, shaped like d->output). */
	vta_status (*golden)(const vta_layer_data *d, const vta_layer_plain *p,
			     vta_arith_mode mode, vta_tensor_i8 *out, vta_golden_stats *stats,
			     vta_error *err);
	/* The emitter, given the LUT tensors of compressed constants. */
	vta_status (*emit)(const vta_config *cfg, const vta_layer_data *d,
			   const vta_emit_opts *opts, vta_dram *dram, vta_layer_stream *ls,
			   vta_error *err);
	/* Feed h with everything the golden kernel reads (tensors, their quantization, the op's
	 * parameters): equal content, equal golden output (golden_cache.h). */
	void (*golden_key)(const vta_layer_data *d, const vta_layer_plain *p, vta_golden_key *h);
	/* Activation bytes the layer reads (not constants): the roofline's input traffic. */
	uint64_t (*input_bytes)(const vta_layer_data *d);
	/* Inputs and constants as named arrays, in the workload's order; returns their count. */
	size_t (*arrays)(const vta_layer_data *d, const vta_layer_plain *p,
			 vta_layer_array out[VTA_LAYER_MAX_ARRAYS]);
} vta_layer_ops;

/* The hooks of a workload op (op->layer). */
const vta_layer_ops *vta_layer_ops_of(vta_wl_op op);

void vta_layer_plain_free(vta_layer_plain *p);

#ifdef __cplusplus
}
#endif

#endif /* VTA_LAYER_OPS_H */
