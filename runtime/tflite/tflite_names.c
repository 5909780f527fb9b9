/*
 * tflite_names.c - TFLite's names for its operator and tensor type codes (schema.fbs's
 * BuiltinOperator and TensorType enums), element sizes, and which types TFLM can
 * LUT-compress.
 */
#include "tflite_model.h"

#include <stdio.h>

static const char *const op_names[] = {
	"ADD", "AVERAGE_POOL_2D", "CONCATENATION", "CONV_2D", "DEPTHWISE_CONV_2D",
	"DEPTH_TO_SPACE", "DEQUANTIZE", "EMBEDDING_LOOKUP", "FLOOR", "FULLY_CONNECTED",
	"HASHTABLE_LOOKUP", "L2_NORMALIZATION", "L2_POOL_2D", "LOCAL_RESPONSE_NORMALIZATION",
	"LOGISTIC", "LSH_PROJECTION", "LSTM", "MAX_POOL_2D", "MUL", "RELU", "RELU_N1_TO_1",
	"RELU6", "RESHAPE", "RESIZE_BILINEAR", "RNN", "SOFTMAX", "SPACE_TO_DEPTH", "SVDF",
	"TANH", "CONCAT_EMBEDDINGS", "SKIP_GRAM", "CALL", "CUSTOM", "EMBEDDING_LOOKUP_SPARSE",
	"PAD", "UNIDIRECTIONAL_SEQUENCE_RNN", "GATHER", "BATCH_TO_SPACE_ND", "SPACE_TO_BATCH_ND",
	"TRANSPOSE", "MEAN", "SUB", "DIV", "SQUEEZE", "UNIDIRECTIONAL_SEQUENCE_LSTM",
	"STRIDED_SLICE", "BIDIRECTIONAL_SEQUENCE_RNN", "EXP", "TOPK_V2", "SPLIT", "LOG_SOFTMAX",
	"DELEGATE", "BIDIRECTIONAL_SEQUENCE_LSTM", "CAST", "PRELU", "MAXIMUM", "ARG_MAX",
	"MINIMUM", "LESS", "NEG", "PADV2", "GREATER", "GREATER_EQUAL", "LESS_EQUAL", "SELECT",
	"SLICE", "SIN", "TRANSPOSE_CONV", "SPARSE_TO_DENSE", "TILE", "EXPAND_DIMS", "EQUAL",
	"NOT_EQUAL", "LOG", "SUM", "SQRT", "RSQRT", "SHAPE", "POW", "ARG_MIN", "FAKE_QUANT",
	"REDUCE_PROD", "REDUCE_MAX", "PACK", "LOGICAL_OR", "ONE_HOT", "LOGICAL_AND",
	"LOGICAL_NOT", "UNPACK", "REDUCE_MIN", "FLOOR_DIV", "REDUCE_ANY", "SQUARE", "ZEROS_LIKE",
	"FILL", "FLOOR_MOD", "RANGE", "RESIZE_NEAREST_NEIGHBOR", "LEAKY_RELU",
	"SQUARED_DIFFERENCE", "MIRROR_PAD", "ABS", "SPLIT_V", "UNIQUE", "CEIL", "REVERSE_V2",
	"ADD_N", "GATHER_ND", "COS", "WHERE", "RANK", "ELU", "REVERSE_SEQUENCE", "MATRIX_DIAG",
	"QUANTIZE", "MATRIX_SET_DIAG", "ROUND", "HARD_SWISH", "IF", "WHILE",
	"NON_MAX_SUPPRESSION_V4", "NON_MAX_SUPPRESSION_V5", "SCATTER_ND", "SELECT_V2", "DENSIFY",
	"SEGMENT_SUM", "BATCH_MATMUL", "PLACEHOLDER_FOR_GREATER_OP_CODES", "CUMSUM", "CALL_ONCE",
	"BROADCAST_TO", "RFFT2D", "CONV_3D", "IMAG", "REAL", "COMPLEX_ABS", "HASHTABLE",
	"HASHTABLE_FIND", "HASHTABLE_IMPORT", "HASHTABLE_SIZE", "REDUCE_ALL",
	"CONV_3D_TRANSPOSE", "VAR_HANDLE", "READ_VARIABLE", "ASSIGN_VARIABLE", "BROADCAST_ARGS",
	"RANDOM_STANDARD_NORMAL", "BUCKETIZE", "RANDOM_UNIFORM", "MULTINOMIAL", "GELU",
	"DYNAMIC_UPDATE_SLICE", "RELU_0_TO_1", "UNSORTED_SEGMENT_PROD", "UNSORTED_SEGMENT_MAX",
	"UNSORTED_SEGMENT_SUM", "ATAN2", "UNSORTED_SEGMENT_MIN", "SIGN", "BITCAST",
	"BITWISE_XOR", "RIGHT_SHIFT", "STABLEHLO_LOGISTIC", "STABLEHLO_ADD", "STABLEHLO_DIVIDE",
	"STABLEHLO_MULTIPLY", "STABLEHLO_MAXIMUM", "STABLEHLO_RESHAPE", "STABLEHLO_CLAMP",
	"STABLEHLO_CONCATENATE", "STABLEHLO_BROADCAST_IN_DIM", "STABLEHLO_CONVOLUTION",
	"STABLEHLO_SLICE", "STABLEHLO_CUSTOM_CALL", "STABLEHLO_REDUCE", "STABLEHLO_ABS",
	"STABLEHLO_AND", "STABLEHLO_COSINE", "STABLEHLO_EXPONENTIAL", "STABLEHLO_FLOOR",
	"STABLEHLO_LOG", "STABLEHLO_MINIMUM", "STABLEHLO_NEGATE", "STABLEHLO_OR",
	"STABLEHLO_POWER", "STABLEHLO_REMAINDER", "STABLEHLO_RSQRT", "STABLEHLO_SELECT",
	"STABLEHLO_SUBTRACT", "STABLEHLO_TANH", "STABLEHLO_SCATTER", "STABLEHLO_COMPARE",
	"STABLEHLO_CONVERT", "STABLEHLO_DYNAMIC_SLICE", "STABLEHLO_DYNAMIC_UPDATE_SLICE",
	"STABLEHLO_PAD", "STABLEHLO_IOTA", "STABLEHLO_DOT_GENERAL", "STABLEHLO_REDUCE_WINDOW",
	"STABLEHLO_SORT", "STABLEHLO_WHILE", "STABLEHLO_GATHER", "STABLEHLO_TRANSPOSE", "DILATE",
	"STABLEHLO_RNG_BIT_GENERATOR", "REDUCE_WINDOW", "STABLEHLO_COMPOSITE",
	"STABLEHLO_SHIFT_LEFT", "STABLEHLO_CBRT", "STABLEHLO_CASE",
};

const char *vta_tfl_op_name(int32_t builtin, char *buf, size_t size)
{
	if (builtin >= 0 && (size_t)builtin < sizeof(op_names) / sizeof(op_names[0]))
		return op_names[builtin];
	snprintf(buf, size, "BUILTIN_%d", (int)builtin);
	return buf;
}

const char *vta_tfl_op_label(const vta_tfl_op *op, char *buf, size_t size)
{
	return op->custom ? op->custom : vta_tfl_op_name(op->builtin, buf, size);
}

static const struct {
	const char *name;
	size_t size;
} types[VTA_TFL_TYPE_COUNT] = {
	[VTA_TFL_FLOAT32] = {"float32", 4},  [VTA_TFL_FLOAT16] = {"float16", 2},
	[VTA_TFL_INT32] = {"int32", 4},      [VTA_TFL_UINT8] = {"uint8", 1},
	[VTA_TFL_INT64] = {"int64", 8},      [VTA_TFL_STRING] = {"string", 0},
	[VTA_TFL_BOOL] = {"bool", 1},        [VTA_TFL_INT16] = {"int16", 2},
	[VTA_TFL_COMPLEX64] = {"complex64", 8}, [VTA_TFL_INT8] = {"int8", 1},
	[VTA_TFL_FLOAT64] = {"float64", 8},  [VTA_TFL_COMPLEX128] = {"complex128", 16},
	[VTA_TFL_UINT64] = {"uint64", 8},    [VTA_TFL_RESOURCE] = {"resource", 0},
	[VTA_TFL_VARIANT] = {"variant", 0},  [VTA_TFL_UINT32] = {"uint32", 4},
	[VTA_TFL_UINT16] = {"uint16", 2},    [VTA_TFL_INT4] = {"int4", 0},
	[VTA_TFL_BFLOAT16] = {"bfloat16", 2}, [VTA_TFL_INT2] = {"int2", 0},
	[VTA_TFL_UINT4] = {"uint4", 0},      [VTA_TFL_FLOAT8_E4M3FN] = {"float8_e4m3fn", 1},
	[VTA_TFL_FLOAT8_E5M2] = {"float8_e5m2", 1},
};

const char *vta_tfl_type_name(vta_tfl_type type)
{
	return (unsigned)type < VTA_TFL_TYPE_COUNT ? types[type].name : "unknown";
}

size_t vta_tfl_type_size(vta_tfl_type type)
{
	return (unsigned)type < VTA_TFL_TYPE_COUNT ? types[type].size : 0;
}

bool vta_tfl_lut_type(vta_tfl_type type, vta_lut_type *out)
{
	switch (type) {
	case VTA_TFL_BOOL: *out = VTA_LUT_BOOL; return true;
	case VTA_TFL_INT8: *out = VTA_LUT_INT8; return true;
	case VTA_TFL_INT16: *out = VTA_LUT_INT16; return true;
	case VTA_TFL_INT32: *out = VTA_LUT_INT32; return true;
	case VTA_TFL_INT64: *out = VTA_LUT_INT64; return true;
	case VTA_TFL_FLOAT32: *out = VTA_LUT_FLOAT32; return true;
	default: return false;
	}
}
