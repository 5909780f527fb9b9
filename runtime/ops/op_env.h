/*
 * op_env.h - what an operator sees of a model run (model_run.c keeps the tensors): the
 * values of its inputs (computed by earlier operators, or constants, LUT-compressed ones
 * decoded once), fresh buffers for its outputs, and the conversions every operator file
 * shares (an int8 activation as an NHWC tensor or a host tensor, an int32 constant vector,
 * the weights and output of a layer). Errors name the tensor; the runner adds the operator.
 */
#ifndef VTA_OP_ENV_H
#define VTA_OP_ENV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "host_ops.h"
#include "op.h"
#include "tflite_model.h"
#include "workload.h"
#include "workload_layer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the run's tensors ---- */

/* The runner (model_run.c) keeps the tensors; it gives them to the operators through these
 * functions, embedding a vta_op_env first in its own state, so an operator file and this
 * header's functions know only the table. */
typedef struct vta_op_env_fns {
	const vta_tfl_model *(*model)(const vta_op_env *env);
	const void *(*value)(vta_op_env *env, int32_t idx, vta_error *err);
	void *(*output)(vta_op_env *env, int32_t idx, vta_error *err);
	void *(*computed)(const vta_op_env *env, int32_t idx);
} vta_op_env_fns;

struct vta_op_env {
	const vta_op_env_fns *fns;
};

const vta_tfl_model *vta_op_env_model(const vta_op_env *env);
/* A tensor's value: computed, plain constant, or a compressed constant decoded once. NULL
 * (with err) when it has none. */
const void *vta_op_env_value(vta_op_env *env, int32_t idx, vta_error *err);
/* A buffer for tensor idx (an output, or a state the op keeps), its contents undefined: the
 * operator writes every element of an output, and sets a new state itself (SVDF). */
void *vta_op_env_output(vta_op_env *env, int32_t idx, vta_error *err);
/* The buffer an earlier operator computed for idx, or NULL. */
void *vta_op_env_computed(const vta_op_env *env, int32_t idx);

/* ---- shared conversions (op_env.c) ---- */

size_t vta_op_tensor_bytes(const vta_tfl_tensor *t);
float vta_op_scale(const vta_tfl_tensor *t);        /* 1 when unquantized */
int32_t vta_op_zero_point(const vta_tfl_tensor *t); /* 0 when unquantized */
/* An int8 per-tensor quantized activation, or VTA_E_UNSUPPORTED. */
vta_status vta_op_need_int8(const vta_tfl_tensor *t, int32_t idx, vta_error *err);
/* An int8 activation (rank 1..4, right-aligned into NHWC) over `data`. */
vta_status vta_op_nhwc(vta_op_env *env, int32_t idx, int8_t *data, vta_tensor_i8 *out,
		       vta_error *err);
/* The same over the tensor's value. */
vta_status vta_op_input(vta_op_env *env, int32_t idx, vta_tensor_i8 *out, vta_error *err);
/* An int8 tensor of the host kernels over `data`; over the value; over a fresh output. */
vta_status vta_op_host_tensor(vta_op_env *env, int32_t idx, int8_t *data, vta_host_tensor *out,
			      vta_error *err);
vta_status vta_op_host_in(vta_op_env *env, int32_t idx, vta_host_tensor *out, vta_error *err);
vta_status vta_op_host_out(vta_op_env *env, int32_t idx, vta_host_tensor *out, vta_error *err);
/* An int32 constant vector of at most `max` values (PAD's paddings, TRANSPOSE's perm). */
vta_status vta_op_const_i32(vta_op_env *env, int32_t idx, int32_t *out, size_t max, size_t *n,
			    vta_error *err);

/* ---- an accelerated op as a layer ---- */

/* What a layer description borrows and owns; the runner sets spec.name and d.spec, the
 * operator's build hook the rest. */
struct vta_op_layer {
	vta_wl_layer spec;
	vta_layer_data d;
	float *scales;
	int32_t *bias;
};

/* Filter scales (one per output channel) and constants of a CONV/DEPTHWISE/FC layer:
 * input 1 the filter, input 2 (when there) the bias. */
vta_status vta_op_weights(vta_op_env *env, const vta_tfl_op *op, size_t oc, vta_op_layer *b,
			  vta_error *err);
/* The output tensor of a layer whose shape the golden side computed. */
vta_status vta_op_layer_output(vta_op_env *env, const vta_tfl_op *op, const int32_t shape[4],
			       vta_op_layer *b, vta_error *err);
void vta_op_layer_free(vta_op_layer *b);

#ifdef __cplusplus
}
#endif

#endif /* VTA_OP_ENV_H */
