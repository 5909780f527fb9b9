/*
 * op_shape.h - what an operator's `derive` hook (op.h) works with: the operator being checked
 * in its model, its inputs, and saturating counts. model_check.c walks the operators and
 * compares each output with what its hook derives, before the run allocates anything.
 */
#ifndef VTA_OP_SHAPE_H
#define VTA_OP_SHAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "op.h"
#include "tensor.h"
#include "tflite_model.h"

#ifdef __cplusplus
extern "C" {
#endif

struct vta_op_shape {
	const vta_tfl_model *m;
	size_t index; /* the operator */
	const vta_tfl_op *op;
	vta_error *err;
};

uint64_t vta_op_sat_add(uint64_t a, uint64_t b);
uint64_t vta_op_sat_mul(uint64_t a, uint64_t b);
/* The product of n dimensions (a negative one counts 0), saturating. */
uint64_t vta_op_dims_count(const int32_t *d, int n);

/* VTA_E_DATA "MODEL: operator N (NAME): <detail>". */
vta_status vta_op_shape_fail(vta_op_shape *c, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;
/* Input k of the operator, which must be there (else NULL, c->err set). */
const vta_tfl_tensor *vta_op_shape_input(vta_op_shape *c, size_t k);
/* An activation of rank 1..4 right-aligned into NHWC over a placeholder: the golden shape
 * functions read shapes only. */
vta_status vta_op_shape_nhwc(vta_op_shape *c, const vta_tfl_tensor *t, vta_tensor_i8 *out);
/* An int32 constant's n values (a PAD's paddings, a MEAN's axes) as little-endian bytes;
 * NULL when it is not a plain constant of n values. */
const uint8_t *vta_op_shape_const_i32(const vta_tfl_tensor *t, size_t n);
int32_t vta_op_shape_i32_at(const uint8_t *p, size_t i);
/* The derive hook of ops whose output has as many elements as input 0. */
vta_status vta_op_derive_same(vta_op_shape *c, uint64_t *want, bool *known);

#ifdef __cplusplus
}
#endif

#endif /* VTA_OP_SHAPE_H */
