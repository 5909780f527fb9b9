/*
 * tflite_read.h - what the parts of the .tflite reader share (tflite_read.c: the context's
 * diagnostics and copy budget; tflite_model.c: the model, buffers, tensors and operators;
 * tflite_options.c: builtin options; tflite_lut.c: the LUT compression containers).
 * Private to runtime/.
 */
#ifndef VTA_TFLITE_READ_H
#define VTA_TFLITE_READ_H

#include "fb_read.h"
#include "tflite_model.h"
#include "tflite_schema.h"

typedef struct tfl_rd {
	vta_tfl_model *m;
	vta_fb fb;
	vta_error *err;
	size_t copied;      /* bytes copied out of the image so far */
	size_t budget;      /* ... at most: shared vectors must not expand without bound */
	char where[192];    /* "tensor 5 'conv/w'", "operator 3 (CONV_2D)", ... */
} tfl_rd;

/* "NAME: where: <formatted>" with status st. */
vta_status tfl_fail(tfl_rd *r, vta_status st, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;
/* "NAME: where: field: <inner detail>" for a failure of the flatbuffer layer. */
vta_status tfl_wrap(tfl_rd *r, const vta_error *inner, const char *field);
/* Run a vta_fb_* call on flatbuffer `fb` (inside it: fb_, and e_ its error record); on
 * failure return "NAME: where: field: <its detail>". TFL_TRY reads the model's own. */
#define TFL_TRY_IN(r, fb, call, field)                         \
	do {                                                   \
		vta_error e_ = {0};                            \
		const vta_fb *fb_ = (fb);                      \
		if ((call) != VTA_OK)                          \
			return tfl_wrap((r), &e_, (field));    \
	} while (0)
#define TFL_TRY(r, call, field) TFL_TRY_IN(r, &(r)->fb, call, field)

/* Count `bytes` against the copy budget. */
vta_status tfl_spend(tfl_rd *r, size_t bytes);

/* Set r->where to "tensor N 'name'" / "operator N (NAME)". */
void tfl_where_tensor(tfl_rd *r, size_t index);
void tfl_where_op(tfl_rd *r, size_t index);

/* The whole flatbuffer as FlatBuffers' verifier checks it (tflite_verify.c); the root
 * table and the identifier are read already. */
vta_status tfl_verify(tfl_rd *r);
/* The builtin options of op (r->where names it); its opcode is already resolved. */
vta_status tfl_read_options(tfl_rd *r, const vta_fb_table *op_table, vta_tfl_op *op);
/* Both LUT containers: the COMPRESSION_METADATA entry and TFLM_DECODE operators. Runs after
 * the tensors and operators are read; sets each compressed tensor's container and lut. */
vta_status tfl_read_compression(tfl_rd *r);

#endif /* VTA_TFLITE_READ_H */
