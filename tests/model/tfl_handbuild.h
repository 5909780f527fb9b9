/*
 * tfl_handbuild.h - building .tflite files by hand for the tests, field by field with the
 * flatbuffer builder (fb_build.h). Field ids are written as numbers with the schema's field
 * name beside them, independently of runtime/'s tables, so a wrong id on either side shows
 * up as a test failure. The test models (tfl_testmodel.h, tfl_runmodel.h) are made of these.
 *
 * Objects are written children first: buffers, quantizations, tensors and operators into the
 * arrays below, then tfb_model() writes the subgraph and the model around them.
 */
#ifndef TFL_HANDBUILD_H
#define TFL_HANDBUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fb_build.h"

#define TFB_MAX_BUFFERS 64
#define TFB_MAX_TENSORS 64
#define TFB_MAX_OPS 32

typedef struct tfb {
	vta_fbb b;
	vta_fbb_ref buffers[TFB_MAX_BUFFERS];
	size_t n_buffers;
	vta_fbb_ref tensors[TFB_MAX_TENSORS];
	vta_fbb_ref ops[TFB_MAX_OPS];
	size_t n_ops;
} tfb;

/* TFLite's TensorType codes the test models use. */
enum { TFB_F32 = 0, TFB_I32 = 2, TFB_U8 = 3, TFB_I16 = 7, TFB_I8 = 9 };

/* An operator code: deprecated_builtin_code and builtin_code (-1: absent), the custom name
 * (NULL for builtins) and the version. */
typedef struct tfb_opcode {
	int deprecated, builtin;
	const char *custom;
	unsigned version;
} tfb_opcode;

/* A Buffer of `bytes` bytes (none: an empty buffer); its index. */
uint32_t tfb_buffer(tfb *t, const void *data, size_t bytes);
/* A Buffer of n int32 values, little-endian. */
uint32_t tfb_buffer_i32(tfb *t, const int32_t *v, size_t n);
/* A vector of n int32s. */
vta_fbb_ref tfb_ints(tfb *t, const int32_t *v, size_t n);
/* A QuantizationParameters: n scales s, s*1.25, s*1.5, ... and zero points zp, on `axis`. */
vta_fbb_ref tfb_quant(tfb *t, size_t n, float s, int64_t zp, int32_t axis);
/* Tensor i (type 0 and buffer 0 are left out, as the schema's defaults). */
void tfb_tensor(tfb *t, size_t i, const char *name, int type, const int32_t *shape, int rank,
		uint32_t buffer, vta_fbb_ref quant);
/* Tensor i as tfb_tensor, marked is_variable (an op's state, no data). */
void tfb_tensor_variable(tfb *t, size_t i, const char *name, int type, const int32_t *shape,
			 int rank, vta_fbb_ref quant);
/* An operator: opcode index, inputs, outputs, options of union type `ot` (table `opt`). */
void tfb_op(tfb *t, uint32_t opcode, const int32_t *in, size_t n_in, const int32_t *out,
	    size_t n_out, uint8_t ot, vta_fbb_ref opt);
/* A table of the given (id, value, size) scalars; {0, 0, 0} alone: an empty table. */
vta_fbb_ref tfb_opts(tfb *t, size_t n, const uint64_t (*f)[3]);

/* n LUT indices of bw bits, most significant bit first (the tests' own packer). */
void tfb_pack(uint8_t *out, size_t bytes, size_t n, unsigned bw, unsigned (*index)(size_t));
/* A TFLM_DECODE ancillary tensor's 16-byte DCM header: LUT, versions 1, width, stride. */
void tfb_dcm(uint8_t *h, unsigned bw, unsigned stride);
/* A COMPRESSION_METADATA buffer: n LutTensors {tensor, value_buffer, index_bitwidth} of
 * subgraph 0; its buffer index (0 when the builder failed). */
uint32_t tfb_compression_metadata(tfb *t, unsigned schema_version, size_t n,
				  const uint32_t (*lut_tensors)[3]);

/* The subgraph "main" of the tensors [0, n_tensors) and the operators written, and the
 * model (schema `version`) around it; *len and the bytes (malloc'd), NULL on failure. */
typedef struct tfb_model_desc {
	size_t n_tensors;
	const int32_t *inputs, *outputs;
	size_t n_inputs, n_outputs;
	const tfb_opcode *opcodes;
	size_t n_opcodes;
	const char *const *md_names; /* metadata entries */
	const uint32_t *md_buffers;
	size_t n_metadata;
	const char *description;
	unsigned version;
} tfb_model_desc;
uint8_t *tfb_model(tfb *t, const tfb_model_desc *m, size_t *len);

#define SHAPE(...) (const int32_t[]){__VA_ARGS__}, (int)(sizeof((int32_t[]){__VA_ARGS__}) / 4)
#define IO(...) (const int32_t[]){__VA_ARGS__}, sizeof((int32_t[]){__VA_ARGS__}) / 4
#define OPTS(t, ...) tfb_opts(t, sizeof((uint64_t[][3]){__VA_ARGS__}) / sizeof(uint64_t[3]), \
			      (const uint64_t[][3]){__VA_ARGS__})

#endif /* TFL_HANDBUILD_H */
