/*
 * op.h - an operator, declared once: how reports name it, the TFLite builtin code it answers
 * to, where it runs, and the hooks the rest of the runtime calls instead of testing which op
 * it is. Each operator file (op_*.c) defines one descriptor (two when TFLite has two codes for
 * one kernel, as PAD and PADV2); op_list.h lists them, and everything that used to list
 * operators (placement, the --host-ops classes, the workload ops, the model runner's and the
 * size check's dispatch) derives from that list (op_registry.h).
 *
 * The kernels stay where they are (golden/, emit/, host/): an operator file adapts them to
 * these signatures.
 */
#ifndef VTA_OP_H
#define VTA_OP_H

#include <stdbool.h>
#include <stdint.h>

#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum vta_op_place {
	VTA_OP_UNSUPPORTED = 0,
	VTA_OP_ACCEL, /* emitted as a VTA stream (layer_ops.h) */
	VTA_OP_HOST   /* a host kernel (host_ops.h) */
} vta_op_place;

struct vta_layer_ops;
struct vta_tfl_op;
typedef struct vta_op_env vta_op_env;     /* a model run's tensors (op_env.h) */
typedef struct vta_op_layer vta_op_layer; /* an accelerated op made a layer (op_env.h) */
typedef struct vta_op_shape vta_op_shape; /* the size check of one operator (op_shape.h) */

typedef struct vta_op_desc {
	const char *name;          /* TFLite's name, as reports and messages show it */
	int32_t builtin;           /* TFLite's BuiltinOperator code */
	vta_op_place place;
	/* ---- accelerator ops ---- */
	const char *host_class;    /* the --host-ops class that moves it to the host */
	const char *workload_name; /* `op:` of a workload layer */
	const struct vta_layer_ops *layer; /* materialise, golden kernel, emitter, ... */
	/* The op of a model as a layer over the run's tensors. */
	vta_status (*build)(vta_op_env *env, const struct vta_tfl_op *op, vta_op_layer *b,
			    vta_error *err);
	/* ---- host ops ---- */
	/* Compute the op's output from the run's tensors. */
	vta_status (*run_host)(vta_op_env *env, const struct vta_tfl_op *op, vta_error *err);
	/* ---- both ---- */
	/* The output's element count from the inputs and options, before anything is
	 * allocated (op_shape.h); *known false when it is only a bound. */
	vta_status (*derive)(vta_op_shape *c, uint64_t *want, bool *known);
} vta_op_desc;

#ifdef __cplusplus
}
#endif

#endif /* VTA_OP_H */
