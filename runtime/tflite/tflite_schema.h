/*
 * tflite_schema.h - the field ids of the .tflite schema (TFLite's schema.fbs, file
 * identifier "TFL3") and of TFLM's compression metadata (metadata.fbs), written once for the
 * reader, the writer and its copy descriptors. A union takes two ids: its type byte, then the
 * value. Private to runtime/.
 */
#ifndef VTA_TFLITE_SCHEMA_H
#define VTA_TFLITE_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TFL_IDENT "TFL3"

enum { /* Model */
	TFL_MODEL_VERSION = 0, TFL_MODEL_OPERATOR_CODES, TFL_MODEL_SUBGRAPHS,
	TFL_MODEL_DESCRIPTION, TFL_MODEL_BUFFERS, TFL_MODEL_METADATA_BUFFER, TFL_MODEL_METADATA,
	TFL_MODEL_SIGNATURE_DEFS, TFL_MODEL_EXTERNAL_BUFFER_GROUPS, TFL_MODEL_EXTERNAL_BUFFERS
};
enum { /* SubGraph */
	TFL_SG_TENSORS = 0, TFL_SG_INPUTS, TFL_SG_OUTPUTS, TFL_SG_OPERATORS, TFL_SG_NAME,
	TFL_SG_DEBUG_METADATA_INDEX
};
enum { /* Tensor */
	TFL_T_SHAPE = 0, TFL_T_TYPE, TFL_T_BUFFER, TFL_T_NAME, TFL_T_QUANTIZATION,
	TFL_T_IS_VARIABLE, TFL_T_SPARSITY, TFL_T_SHAPE_SIGNATURE, TFL_T_HAS_RANK,
	TFL_T_VARIANT_TENSORS, TFL_T_EXTERNAL_BUFFER
};
enum { /* QuantizationParameters */
	TFL_Q_MIN = 0, TFL_Q_MAX, TFL_Q_SCALE, TFL_Q_ZERO_POINT, TFL_Q_DETAILS_TYPE,
	TFL_Q_DETAILS, TFL_Q_QUANTIZED_DIMENSION
};
enum { /* Operator */
	TFL_OP_OPCODE_INDEX = 0, TFL_OP_INPUTS, TFL_OP_OUTPUTS, TFL_OP_BUILTIN_OPTIONS_TYPE,
	TFL_OP_BUILTIN_OPTIONS, TFL_OP_CUSTOM_OPTIONS, TFL_OP_CUSTOM_OPTIONS_FORMAT,
	TFL_OP_MUTATING_VARIABLE_INPUTS, TFL_OP_INTERMEDIATES, TFL_OP_LARGE_CUSTOM_OPTIONS_OFFSET,
	TFL_OP_LARGE_CUSTOM_OPTIONS_SIZE, TFL_OP_BUILTIN_OPTIONS_2_TYPE, TFL_OP_BUILTIN_OPTIONS_2,
	TFL_OP_DEBUG_METADATA_INDEX
};
enum { /* OperatorCode */
	TFL_OC_DEPRECATED_BUILTIN_CODE = 0, TFL_OC_CUSTOM_CODE, TFL_OC_VERSION,
	TFL_OC_BUILTIN_CODE
};
enum { /* Buffer: data (force_align 16), or past the flatbuffer at offset/size (offset > 1) */
	TFL_BUF_DATA = 0, TFL_BUF_OFFSET, TFL_BUF_SIZE
};
enum { /* Metadata */
	TFL_MD_NAME = 0, TFL_MD_BUFFER
};

/* BuiltinOptions union members the reader interprets (the union's type codes). */
enum {
	TFL_OPT_NONE = 0,
	TFL_OPT_CONV2D = 1,
	TFL_OPT_DEPTHWISE_CONV2D = 2,
	TFL_OPT_POOL2D = 5,
	TFL_OPT_SVDF = 6,
	TFL_OPT_FULLY_CONNECTED = 8,
	TFL_OPT_SOFTMAX = 9,
	TFL_OPT_CONCATENATION = 10,
	TFL_OPT_ADD = 11,
	TFL_OPT_RESHAPE = 17,
	TFL_OPT_PAD = 22,
	TFL_OPT_TRANSPOSE = 26,
	TFL_OPT_REDUCER = 27,
	TFL_OPT_PADV2 = 43,
	TFL_OPT_QUANTIZE = 89,
	TFL_OPT_LAST = 126 /* RightShiftOptions, the union's last member */
};
/* Their fields. */
enum { TFL_CONV_PADDING = 0, TFL_CONV_STRIDE_W, TFL_CONV_STRIDE_H, TFL_CONV_ACTIVATION,
       TFL_CONV_DILATION_W, TFL_CONV_DILATION_H };
enum { TFL_DW_PADDING = 0, TFL_DW_STRIDE_W, TFL_DW_STRIDE_H, TFL_DW_DEPTH_MULTIPLIER,
       TFL_DW_ACTIVATION, TFL_DW_DILATION_W, TFL_DW_DILATION_H };
enum { TFL_POOL_PADDING = 0, TFL_POOL_STRIDE_W, TFL_POOL_STRIDE_H, TFL_POOL_FILTER_W,
       TFL_POOL_FILTER_H, TFL_POOL_ACTIVATION };
enum { TFL_FC_ACTIVATION = 0, TFL_FC_WEIGHTS_FORMAT, TFL_FC_KEEP_NUM_DIMS };
enum { TFL_SOFTMAX_BETA = 0 };
enum { TFL_SVDF_RANK = 0, TFL_SVDF_ACTIVATION, TFL_SVDF_ASYMMETRIC_QUANTIZE_INPUTS };
enum { TFL_CONCAT_AXIS = 0, TFL_CONCAT_ACTIVATION };
enum { TFL_ADD_ACTIVATION = 0 };
enum { TFL_RESHAPE_NEW_SHAPE = 0 };
enum { TFL_REDUCER_KEEP_DIMS = 0 };

/* TFLM's compression metadata (namespace tflite.micro.compression, no identifier). */
#define TFL_COMPRESSION_METADATA "COMPRESSION_METADATA"
enum { TFL_CM_SCHEMA_VERSION = 0, TFL_CM_SUBGRAPHS };   /* Metadata */
enum { TFL_CM_LUT_TENSORS = 0 };                        /* Subgraph */
enum { TFL_CM_TENSOR = 0, TFL_CM_VALUE_BUFFER, TFL_CM_INDEX_BITWIDTH }; /* LutTensor */

/* TFLM's DECODE ancillary tensor: the 16-byte DCM header, then the value tables. */
enum {
	TFL_DCM_TYPE = 0,           /* 0 LUT, 1 Huffman, 2 pruning, 128..255 custom */
	TFL_DCM_VERSION = 1,        /* 1 */
	TFL_DCM_LUT_VERSION = 4,    /* 1 */
	TFL_DCM_LUT_PARAMS = 5,     /* bit width in the low 3 bits */
	TFL_DCM_LUT_STRIDE = 6,     /* value table channel stride, elements */
	TFL_DCM_BYTES = 16
};

/* ---- copy descriptors for the writer (tflite_schema.c) ---- */

/* What a field holds, for a copy that must know which bytes are offsets. */
typedef enum tfl_kind {
	TFL_K_NONE = 0,   /* no such field */
	TFL_K_SCALAR,     /* `size` bytes inline */
	TFL_K_STRING,
	TFL_K_VECTOR,     /* scalars of `size` bytes, aligned to `align` (0: size) */
	TFL_K_TABLE,      /* sub-table `sub` */
	TFL_K_TABLES,     /* vector of `sub` tables */
	TFL_K_UNION       /* a table whose type is the byte in field id - 1; `resolve` gives it */
} tfl_kind;

typedef struct tfl_desc tfl_desc;

typedef struct tfl_field {
	uint8_t kind;
	uint8_t size;
	uint8_t align;
	const tfl_desc *sub;
	/* TFL_K_UNION: the member table of a type code; false for an unknown member */
	bool (*resolve)(uint8_t type, tfl_desc *out);
} tfl_field;

/* A table type. `fields` NULL: a table of scalars only with at most n_fields fields, copied
 * byte for byte (their widths in scalar_sizes, when known). */
struct tfl_desc {
	const char *name;
	size_t n_fields;
	const tfl_field *fields;
	const char *field_names;   /* "shape,type,..." in id order (the verifier's messages);
				    * NULL: "field N" */
	const char *scalar_sizes;  /* fields NULL: each scalar's width, "1441441"; NULL when
				    * the widths are not known (then only the count is) */
};

/* The name of field `id` of d ("field 7" when the descriptor has none) in buf. */
const char *tfl_field_name(const tfl_desc *d, unsigned id, char *buf, size_t size);

extern const tfl_desc tfl_desc_model, tfl_desc_subgraph, tfl_desc_tensor, tfl_desc_quant,
	tfl_desc_operator, tfl_desc_opcode, tfl_desc_buffer, tfl_desc_metadata;

#endif /* VTA_TFLITE_SCHEMA_H */
