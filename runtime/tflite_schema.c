/*
 * tflite_schema.c - what each field of the .tflite schema holds, for the writer's copy of
 * the parts of a model it does not change (tflite_write.c). Transcribed from TFLite's
 * schema.fbs (tables Model through ExternalBuffer, the QuantizationDetails and
 * SparseIndexVector unions, the BuiltinOptions union). A field the descriptors do not know is
 * refused by the copy rather than guessed: an offset copied as a scalar would point nowhere.
 */
#include "tflite_schema.h"

#define S(n) {TFL_K_SCALAR, n, 0, NULL, NULL}
#define STR {TFL_K_STRING, 0, 0, NULL, NULL}
#define VEC(n, a) {TFL_K_VECTOR, n, a, NULL, NULL}
#define TAB(d) {TFL_K_TABLE, 0, 0, &d, NULL}
#define TABS(d) {TFL_K_TABLES, 0, 0, &d, NULL}
#define UNION(r) {TFL_K_UNION, 0, 0, NULL, r}
#define DESC(var, nm, arr) \
	const tfl_desc var = {nm, sizeof(arr) / sizeof(arr[0]), arr}

/* ---- quantization ---- */

static const tfl_field custom_quant_f[] = {VEC(1, 16)};
static DESC(custom_quant_d, "CustomQuantization", custom_quant_f);
static const tfl_desc blockwise_quant_d = {"BlockwiseQuantization", 3, NULL};
static const tfl_field multi_axis_quant_f[] = {S(4), S(4), S(4), VEC(4, 0)};
static DESC(multi_axis_quant_d, "MultiAxisQuantization", multi_axis_quant_f);

static bool resolve_quant_details(uint8_t type, tfl_desc *out)
{
	switch (type) {
	case 1: *out = custom_quant_d; return true;
	case 2: *out = blockwise_quant_d; return true;
	case 3: *out = multi_axis_quant_d; return true;
	default: return false;
	}
}

static const tfl_field quant_f[] = {
	VEC(4, 0), VEC(4, 0), VEC(4, 0), VEC(8, 0),    /* min, max, scale, zero_point */
	S(1), UNION(resolve_quant_details), S(4),      /* details, quantized_dimension */
};
DESC(tfl_desc_quant, "QuantizationParameters", quant_f);

/* ---- sparsity ---- */

static const tfl_field int32_vec_f[] = {VEC(4, 0)};
static DESC(int32_vec_d, "Int32Vector", int32_vec_f);
static const tfl_field uint16_vec_f[] = {VEC(2, 4)};
static DESC(uint16_vec_d, "Uint16Vector", uint16_vec_f);
static const tfl_field uint8_vec_f[] = {VEC(1, 4)};
static DESC(uint8_vec_d, "Uint8Vector", uint8_vec_f);

static bool resolve_sparse_vector(uint8_t type, tfl_desc *out)
{
	switch (type) {
	case 1: *out = int32_vec_d; return true;
	case 2: *out = uint16_vec_d; return true;
	case 3: *out = uint8_vec_d; return true;
	default: return false;
	}
}

static const tfl_field dim_meta_f[] = {
	S(1), S(4), S(1), UNION(resolve_sparse_vector), S(1), UNION(resolve_sparse_vector),
};
static DESC(dim_meta_d, "DimensionMetadata", dim_meta_f);
static const tfl_field sparsity_f[] = {VEC(4, 0), VEC(4, 0), TABS(dim_meta_d)};
static DESC(sparsity_d, "SparsityParameters", sparsity_f);
static const tfl_field variant_f[] = {VEC(4, 0), S(1), S(1)};
static DESC(variant_d, "VariantSubType", variant_f);

/* ---- tensors, buffers, metadata ---- */

static const tfl_field tensor_f[] = {
	VEC(4, 0), S(1), S(4), STR, TAB(tfl_desc_quant), S(1),  /* shape .. is_variable */
	TAB(sparsity_d), VEC(4, 0), S(1), TABS(variant_d), S(4), /* .. external_buffer */
};
DESC(tfl_desc_tensor, "Tensor", tensor_f);

static const tfl_field buffer_f[] = {VEC(1, 16), S(8), S(8)};
DESC(tfl_desc_buffer, "Buffer", buffer_f);
static const tfl_field metadata_f[] = {STR, S(4)};
DESC(tfl_desc_metadata, "Metadata", metadata_f);

/* ---- operators ---- */

/* Inline field counts of the BuiltinOptions members that hold scalars only, by type code
 * (Conv2DOptions = 1 .. RightShiftOptions = 126); the members holding vectors or strings
 * have descriptors of their own below. */
static const uint8_t builtin_fields[TFL_OPT_LAST + 1] = {
	0, 7, 7, 3, 1, 6, 3, 2, 5, 1,       /* -, Conv2D .. Softmax (9) */
	2, 2, 1, 4, 5, 4, 1, 1, 3, 1,       /* Concatenation .. SpaceToDepth (19) */
	1, 1, 0, 2, 0, 0, 0, 1, 2, 1,       /* EmbeddingLookupSparse .. Div (29) */
	1, 3, 6, 0, 0, 1, 0, 2, 0, 0,       /* Squeeze .. MaximumMinimum (39) */
	1, 0, 0, 0, 0, 0, 0, 0, 0, 5,       /* ArgMax .. TransposeConv (49) */
	1, 0, 0, 0, 0, 1, 0, 1, 4, 2,       /* SparseToDense .. Pack (59) */
	0, 1, 0, 0, 2, 0, 0, 0, 0, 6,       /* LogicalOr .. BidirectionalSequenceLSTM (69) */
	4, 6, 0, 0, 2, 1, 0, 1, 0, 1,       /* BidirectionalSequenceRNN .. SplitV (79) */
	1, 0, 0, 0, 0, 0, 0, 2, 0, 0,       /* Unique .. Quantize (89) */
	0, 0, 2, 2, 1, 0, 0, 0, 0, 0,       /* MatrixSetDiag .. Densify (99) */
	0, 3, 2, 1, 0, 0, 8, 3, 0, 0,       /* SegmentSum .. HashtableImport (109) */
	0, 2, 0, 0, 2, 1, 1, 0, 0, 0,       /* HashtableSize .. UnsortedSegmentMax (119) */
	0, 0, 0, 0, 0, 0, 0,                /* UnsortedSegmentMin .. RightShift (126) */
};

static const tfl_field concat_embeddings_f[] = {S(4), VEC(4, 0), VEC(4, 0)};
static DESC(concat_embeddings_d, "ConcatEmbeddingsOptions", concat_embeddings_f);
static const tfl_field int_list_f[] = {VEC(4, 0)};
static DESC(reshape_d, "ReshapeOptions", int_list_f);
static DESC(squeeze_d, "SqueezeOptions", int_list_f);
static DESC(bucketize_d, "BucketizeOptions", int_list_f);
static const tfl_field var_handle_f[] = {STR, STR};
static DESC(var_handle_d, "VarHandleOptions", var_handle_f);

static bool resolve_builtin_options(uint8_t type, tfl_desc *out)
{
	switch (type) {
	case 3: *out = concat_embeddings_d; return true;
	case 17: *out = reshape_d; return true;
	case 30: *out = squeeze_d; return true;
	case 111: *out = var_handle_d; return true;
	case 115: *out = bucketize_d; return true;
	default:
		if (type == 0 || type > TFL_OPT_LAST)
			return false;
		out->name = "BuiltinOptions";
		out->n_fields = builtin_fields[type];
		out->fields = NULL;
		return true;
	}
}

/* BuiltinOptions2 (StableHLO ops): none is known to the copy. */
static bool resolve_builtin_options_2(uint8_t type, tfl_desc *out)
{
	(void)type;
	(void)out;
	return false;
}

static const tfl_field operator_f[] = {
	S(4), VEC(4, 0), VEC(4, 0),                 /* opcode_index, inputs, outputs */
	S(1), UNION(resolve_builtin_options),       /* builtin_options */
	VEC(1, 0), S(1), VEC(1, 0), VEC(4, 0),      /* custom options .. intermediates */
	S(8), S(8),                                 /* large_custom_options_offset, _size */
	S(1), UNION(resolve_builtin_options_2), S(4), /* builtin_options_2, debug index */
};
DESC(tfl_desc_operator, "Operator", operator_f);

static const tfl_field opcode_f[] = {S(1), STR, S(4), S(4)};
DESC(tfl_desc_opcode, "OperatorCode", opcode_f);

/* ---- subgraphs and the model ---- */

static const tfl_field subgraph_f[] = {
	TABS(tfl_desc_tensor), VEC(4, 0), VEC(4, 0), TABS(tfl_desc_operator), STR, S(4),
};
DESC(tfl_desc_subgraph, "SubGraph", subgraph_f);

static const tfl_field tensor_map_f[] = {STR, S(4)};
static DESC(tensor_map_d, "TensorMap", tensor_map_f);
static const tfl_field signature_f[] = {
	TABS(tensor_map_d), TABS(tensor_map_d), STR, STR, S(4),
};
static DESC(signature_d, "SignatureDef", signature_f);
static const tfl_field ext_group_f[] = {STR};
static DESC(ext_group_d, "ExternalBufferGroup", ext_group_f);
static const tfl_field ext_buffer_f[] = {S(4), S(4), S(8), S(8), STR};
static DESC(ext_buffer_d, "ExternalBuffer", ext_buffer_f);

static const tfl_field model_f[] = {
	S(4), TABS(tfl_desc_opcode), TABS(tfl_desc_subgraph), STR, TABS(tfl_desc_buffer),
	VEC(4, 0), TABS(tfl_desc_metadata), TABS(signature_d), TABS(ext_group_d),
	TABS(ext_buffer_d),
};
DESC(tfl_desc_model, "Model", model_f);
