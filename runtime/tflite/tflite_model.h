/*
 * tflite_model.h - a .tflite model read into plain C structures: subgraph 0's tensors (type,
 * shape, constant data, quantization), its operators in execution order with typed builtin
 * options, the model's inputs, outputs, buffers and metadata, and every LUT-compressed
 * constant (TFLM's COMPRESSION_METADATA or TFLM_DECODE container) as a vta_lut_tensor that
 * stays compressed. docs/models.md describes the structure, what is checked and the errors.
 *
 * A model owns its file image; constant data, value tables and packed indices point into it
 * (little-endian, possibly unaligned). Every index in the structure has been checked: tensor
 * indices of operators and of the model's inputs and outputs are in range (an operator's
 * optional input may be -1), buffer indices are in range, shapes are non-negative with an
 * element count that fits size_t. A file that breaks any rule is refused with one line naming
 * the tensor or operator; nothing is ever read outside the image.
 */
#ifndef VTA_TFLITE_MODEL_H
#define VTA_TFLITE_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "layer.h"
#include "lut.h"
#include "quant.h"
#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VTA_TFL_MAX_RANK 8
#define VTA_TFL_SCHEMA_VERSION 3

/* TFLite's TensorType codes. */
typedef enum vta_tfl_type {
	VTA_TFL_FLOAT32 = 0, VTA_TFL_FLOAT16 = 1, VTA_TFL_INT32 = 2, VTA_TFL_UINT8 = 3,
	VTA_TFL_INT64 = 4, VTA_TFL_STRING = 5, VTA_TFL_BOOL = 6, VTA_TFL_INT16 = 7,
	VTA_TFL_COMPLEX64 = 8, VTA_TFL_INT8 = 9, VTA_TFL_FLOAT64 = 10, VTA_TFL_COMPLEX128 = 11,
	VTA_TFL_UINT64 = 12, VTA_TFL_RESOURCE = 13, VTA_TFL_VARIANT = 14, VTA_TFL_UINT32 = 15,
	VTA_TFL_UINT16 = 16, VTA_TFL_INT4 = 17, VTA_TFL_BFLOAT16 = 18, VTA_TFL_INT2 = 19,
	VTA_TFL_UINT4 = 20, VTA_TFL_FLOAT8_E4M3FN = 21, VTA_TFL_FLOAT8_E5M2 = 22,
	VTA_TFL_TYPE_COUNT
} vta_tfl_type;

/* The BuiltinOperator codes vtasim gives options to or names in its own code (the reader
 * keeps any code; vta_tfl_op_name() names all of TFLite's). */
enum {
	VTA_TFL_OP_ADD = 0,
	VTA_TFL_OP_AVERAGE_POOL_2D = 1,
	VTA_TFL_OP_CONCATENATION = 2,
	VTA_TFL_OP_CONV_2D = 3,
	VTA_TFL_OP_DEPTHWISE_CONV_2D = 4,
	VTA_TFL_OP_FULLY_CONNECTED = 9,
	VTA_TFL_OP_MAX_POOL_2D = 17,
	VTA_TFL_OP_RELU = 19,
	VTA_TFL_OP_RELU6 = 21,
	VTA_TFL_OP_RESHAPE = 22,
	VTA_TFL_OP_SOFTMAX = 25,
	VTA_TFL_OP_SVDF = 27,
	VTA_TFL_OP_CUSTOM = 32,
	VTA_TFL_OP_PAD = 34,
	VTA_TFL_OP_TRANSPOSE = 39,
	VTA_TFL_OP_MEAN = 40,
	VTA_TFL_OP_PADV2 = 60,
	VTA_TFL_OP_QUANTIZE = 114,
};

/* The custom operator of TFLM's DECODE container. */
#define VTA_TFL_DECODE_NAME "TFLM_DECODE"

/* Quantization: real = (q - zero_point) * scale, per tensor or per channel along `axis`. */
typedef struct vta_tfl_quant {
	size_t count;          /* scales: 0 none, 1 per tensor, > 1 one per channel */
	float *scale;
	size_t zero_point_count; /* 0 (all zero), 1, or count */
	int64_t *zero_point;
	int32_t axis;          /* quantized_dimension; < rank when count > 1 */
} vta_tfl_quant;

/* Where a compressed constant's tables came from. */
typedef enum vta_tfl_container {
	VTA_TFL_PLAIN = 0,     /* not compressed */
	VTA_TFL_METADATA,      /* legacy COMPRESSION_METADATA LutTensor */
	VTA_TFL_DECODE         /* a TFLM_DECODE operator's output */
} vta_tfl_container;

typedef struct vta_tfl_tensor {
	char *name;            /* "" when the file gives none */
	vta_tfl_type type;
	int rank;
	int32_t shape[VTA_TFL_MAX_RANK];
	size_t count;          /* elements: the product of the shape (1 for rank 0) */
	uint32_t buffer;
	const uint8_t *data;   /* constant bytes in the image, NULL when the buffer is empty */
	size_t data_bytes;
	vta_tfl_quant quant;   /* none for a tensor only DECODE operators read (TFLM ignores it) */
	bool is_variable;
	/* LUT-compressed constant (container != PLAIN): `lut` holds the tables and indices, the
	 * decoded tensor has this tensor's type, shape and quantization. `data` is then the
	 * packed indices (METADATA) or NULL (DECODE: the indices are tensor `lut_indices`'s). */
	vta_tfl_container container;
	vta_lut_tensor lut;
	int32_t lut_indices;   /* DECODE: the encoded input tensor; METADATA: this tensor */
	int32_t lut_tables;    /* DECODE: the ancillary tensor; METADATA: -1 */
	uint32_t lut_buffer;   /* the buffer holding the value tables (METADATA's value_buffer) */
} vta_tfl_tensor;

/* Builtin options the model runner needs, by op. Fields the file omits take the schema's
 * defaults; an op whose options are required but missing is an error. */
typedef struct vta_tfl_conv_options {   /* CONV_2D, DEPTHWISE_CONV_2D */
	vta_padding padding;
	int32_t stride_w, stride_h;
	int32_t dilation_w, dilation_h;
	int32_t depth_multiplier;       /* DEPTHWISE_CONV_2D only */
	vta_activation activation;
} vta_tfl_conv_options;

typedef struct vta_tfl_pool_options {   /* AVERAGE_POOL_2D, MAX_POOL_2D */
	vta_padding padding;
	int32_t stride_w, stride_h;
	int32_t filter_w, filter_h;
	vta_activation activation;
} vta_tfl_pool_options;

typedef struct vta_tfl_fc_options {     /* FULLY_CONNECTED */
	vta_activation activation;
	bool keep_num_dims;
	uint8_t weights_format;         /* 0 DEFAULT; anything else is refused */
} vta_tfl_fc_options;

typedef struct vta_tfl_reshape_options { /* RESHAPE */
	bool has_new_shape;             /* else the shape is input 1 (or the output's) */
	int rank;
	int32_t new_shape[VTA_TFL_MAX_RANK];
} vta_tfl_reshape_options;

typedef struct vta_tfl_op {
	uint32_t opcode_index;
	int32_t builtin;               /* BuiltinOperator code; VTA_TFL_OP_CUSTOM for custom */
	const char *custom;            /* custom code name (the model's copy), NULL for builtins */
	int32_t version;
	size_t n_inputs, n_outputs;
	int32_t *inputs;               /* tensor indices; -1 = optional input absent */
	int32_t *outputs;
	bool decode;                   /* a TFLM_DECODE: its outputs are compressed constants */
	union {
		vta_tfl_conv_options conv;
		vta_tfl_pool_options pool;
		vta_tfl_fc_options fc;
		vta_tfl_reshape_options reshape;
		struct { vta_activation activation; } add;     /* ADD */
		struct { float beta; } softmax;                /* SOFTMAX */
		struct { int32_t axis; vta_activation activation; } concat; /* CONCATENATION */
		struct { bool keep_dims; } mean;               /* MEAN */
		struct {                                       /* SVDF */
			int32_t rank;
			int8_t activation; /* ActivationFunctionType; TFLM's int8 kernel ignores it */
			bool asymmetric_quantize_inputs;
		} svdf;
	} opt;
} vta_tfl_op;

typedef struct vta_tfl_opcode {
	int32_t builtin;               /* max(deprecated_builtin_code, builtin_code) */
	char *custom;                  /* CUSTOM only */
	int32_t version;
} vta_tfl_opcode;

typedef struct vta_tfl_buffer {
	const uint8_t *data;           /* NULL when empty */
	size_t bytes;
	bool external;                 /* stored past the flatbuffer (offset/size form) */
} vta_tfl_buffer;

typedef struct vta_tfl_metadata {
	char *name;
	uint32_t buffer;
} vta_tfl_metadata;

typedef struct vta_tfl_model {
	char *name;                    /* the file name as messages show it (vta_quote_path) */
	uint8_t *image;                /* the whole file */
	size_t image_bytes;
	uint32_t version;
	char *description;             /* "" when none */
	size_t n_subgraphs;            /* in the file; subgraph 0 is the one read */
	size_t n_opcodes;
	vta_tfl_opcode *opcodes;
	size_t n_buffers;
	vta_tfl_buffer *buffers;
	size_t n_metadata;
	vta_tfl_metadata *metadata;
	/* subgraph 0 */
	char *subgraph_name;
	size_t n_tensors;
	vta_tfl_tensor *tensors;
	size_t n_ops;
	vta_tfl_op *ops;
	size_t n_inputs, n_outputs;
	int32_t *inputs, *outputs;
	size_t n_compressed;           /* tensors with container != PLAIN */
} vta_tfl_model;

/* Read a .tflite file. Errors (VTA_E_IO, VTA_E_PARSE, VTA_E_DATA, VTA_E_NOMEM) are one line,
 * "FILE: where: problem". Free with vta_tfl_model_free (also after a failed load). */
vta_status vta_tfl_model_load(const char *path, vta_tfl_model *m, vta_error *err);
/* The same from bytes; the model takes ownership of `image` (malloc'd) even on error. */
vta_status vta_tfl_model_parse(uint8_t *image, size_t bytes, const char *name,
			       vta_tfl_model *m, vta_error *err);
void vta_tfl_model_free(vta_tfl_model *m);

/* TFLite's names: "CONV_2D", "int8", ... (an unknown code: "BUILTIN_<n>", "type<n>"). The
 * returned string is static, or `buf` (at least 24 bytes) for unknown codes. */
const char *vta_tfl_op_name(int32_t builtin, char *buf, size_t size);
const char *vta_tfl_type_name(vta_tfl_type type);
/* Bytes per element, 0 for types without a fixed byte size (STRING, INT4, ...). */
size_t vta_tfl_type_size(vta_tfl_type type);
/* The LUT element type of a tensor type; false when TFLM cannot compress it. */
bool vta_tfl_lut_type(vta_tfl_type type, vta_lut_type *out);
/* An operator's name: its custom code or its builtin name. */
const char *vta_tfl_op_label(const vta_tfl_op *op, char *buf, size_t size);


/* Decode a compressed tensor into `out` (t->count elements of its type, host order). */
vta_status vta_tfl_tensor_decode(const vta_tfl_tensor *t, void *out, size_t out_bytes,
				 vta_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VTA_TFLITE_MODEL_H */
