/*
 * tflite_schema.c - what each field of the .tflite schema holds, for the writer's copy of
 * the parts of a model it does not change (tflite_write.c). Transcribed from TFLite's
 * schema.fbs (tables Model through ExternalBuffer, the QuantizationDetails and
 * SparseIndexVector unions, the BuiltinOptions union). A field the descriptors do not know is
 * refused by the copy rather than guessed: an offset copied as a scalar would point nowhere.
 */
#include "tflite_schema.h"

#include <stdio.h>
#include <string.h>

#define S(n) {TFL_K_SCALAR, n, 0, NULL, NULL}
#define STR {TFL_K_STRING, 0, 0, NULL, NULL}
#define VEC(n, a) {TFL_K_VECTOR, n, a, NULL, NULL}
#define TAB(d) {TFL_K_TABLE, 0, 0, &d, NULL}
#define TABS(d) {TFL_K_TABLES, 0, 0, &d, NULL}
#define UNION(r) {TFL_K_UNION, 0, 0, NULL, r}
#define DESC(var, nm, arr, names) \
	const tfl_desc var = {nm, sizeof(arr) / sizeof(arr[0]), arr, names, NULL}

/* ---- quantization ---- */

static const tfl_field custom_quant_f[] = {VEC(1, 16)};
static DESC(custom_quant_d, "CustomQuantization", custom_quant_f,
	"custom");
static const tfl_desc blockwise_quant_d = {"BlockwiseQuantization", 3, NULL, NULL, NULL};
static const tfl_field multi_axis_quant_f[] = {S(4), S(4), S(4), VEC(4, 0)};
static DESC(multi_axis_quant_d, "MultiAxisQuantization", multi_axis_quant_f, NULL);

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
DESC(tfl_desc_quant, "QuantizationParameters", quant_f,
	"min,max,scale,zero_point,details_type,details,quantized_dimension");

/* ---- sparsity ---- */

static const tfl_field int32_vec_f[] = {VEC(4, 0)};
static DESC(int32_vec_d, "Int32Vector", int32_vec_f,
	"values");
static const tfl_field uint16_vec_f[] = {VEC(2, 4)};
static DESC(uint16_vec_d, "Uint16Vector", uint16_vec_f,
	"values");
static const tfl_field uint8_vec_f[] = {VEC(1, 4)};
static DESC(uint8_vec_d, "Uint8Vector", uint8_vec_f,
	"values");

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
static DESC(dim_meta_d, "DimensionMetadata", dim_meta_f,
	"format,dense_size,array_segments_type,array_segments,array_indices_type,array_indices");
static const tfl_field sparsity_f[] = {VEC(4, 0), VEC(4, 0), TABS(dim_meta_d)};
static DESC(sparsity_d, "SparsityParameters", sparsity_f,
	"traversal_order,block_map,dim_metadata");
static const tfl_field variant_f[] = {VEC(4, 0), S(1), S(1)};
static DESC(variant_d, "VariantSubType", variant_f,
	"shape,type,has_rank");

/* ---- tensors, buffers, metadata ---- */

static const tfl_field tensor_f[] = {
	VEC(4, 0), S(1), S(4), STR, TAB(tfl_desc_quant), S(1),  /* shape .. is_variable */
	TAB(sparsity_d), VEC(4, 0), S(1), TABS(variant_d), S(4), /* .. external_buffer */
};
DESC(tfl_desc_tensor, "Tensor", tensor_f,
	"shape,type,buffer,name,quantization,is_variable,sparsity,shape_signature,has_rank,variant_tensors,external_buffer");

static const tfl_field buffer_f[] = {VEC(1, 16), S(8), S(8)};
DESC(tfl_desc_buffer, "Buffer", buffer_f,
	"data,offset,size");
static const tfl_field metadata_f[] = {STR, S(4)};
DESC(tfl_desc_metadata, "Metadata", metadata_f,
	"name,buffer");

/* ---- operators ---- */

/* The BuiltinOptions members that hold scalars only, by type code (Conv2DOptions = 1 ..
 * RightShiftOptions = 126): each field's width in bytes, in id order (enums and bools 1,
 * int and float 4, long 8), so the copy knows how many fields there are and the verifier
 * their widths. The members holding vectors or strings (3, 17, 30, 111, 115) have
 * descriptors of their own below. */
static const char *const builtin_sizes[TFL_OPT_LAST + 1] = {
	"", "1441441", "1444144", "", "1", "144441", "411", "11", "11111", "4",   /* .. Softmax (9) */
	"41", "11", "1", "4444", "14411", "4411", "4", "", "441", "4",            /* .. SpaceToDepth (19) */
	"1", "1", "", "44", "", "", "", "1", "11", "1",                          /* .. Div (29) */
	"", "111", "444441", "", "", "4", "", "11", "", "",                      /* .. MaximumMinimum (39) */
	"1", "", "", "", "", "", "", "", "", "14411",                            /* .. TransposeConv (49) */
	"1", "", "", "", "", "1", "", "1", "4441", "44",                         /* .. Pack (59) */
	"", "4", "", "", "44", "", "", "", "", "144111",                         /* .. BidiSeqLSTM (69) */
	"1111", "144111", "", "", "11", "4", "", "1", "", "4",                   /* .. SplitV (79) */
	"1", "", "", "", "", "", "", "44", "", "",                               /* .. Quantize (89) */
	"", "", "44", "44", "4", "", "", "", "", "",                             /* .. Densify (99) */
	"", "111", "11", "4", "", "", "14441444", "411", "", "",                 /* .. HashtableImport (109) */
	"", "", "", "", "88", "", "1", "", "", "",                               /* .. UnsortedSegMax (119) */
	"", "", "", "", "", "", "",                                              /* .. RightShift (126) */
};

static const tfl_field concat_embeddings_f[] = {S(4), VEC(4, 0), VEC(4, 0)};
static DESC(concat_embeddings_d, "ConcatEmbeddingsOptions", concat_embeddings_f,
	"num_channels,num_columns_per_channel,embedding_dim_per_channel");
static const tfl_field int_list_f[] = {VEC(4, 0)};
static DESC(reshape_d, "ReshapeOptions", int_list_f,
	"new_shape");
static DESC(squeeze_d, "SqueezeOptions", int_list_f,
	"squeeze_dims");
static DESC(bucketize_d, "BucketizeOptions", int_list_f,
	"boundaries");
static const tfl_field var_handle_f[] = {STR, STR};
static DESC(var_handle_d, "VarHandleOptions", var_handle_f,
	"container,shared_name");

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
		out->n_fields = strlen(builtin_sizes[type]);
		out->fields = NULL;
		out->field_names = NULL;
		out->scalar_sizes = builtin_sizes[type];
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
DESC(tfl_desc_operator, "Operator", operator_f,
	"opcode_index,inputs,outputs,builtin_options_type,builtin_options,custom_options,custom_options_format,mutating_variable_inputs,intermediates,large_custom_options_offset,large_custom_options_size,builtin_options_2_type,builtin_options_2,debug_metadata_index");

static const tfl_field opcode_f[] = {S(1), STR, S(4), S(4)};
DESC(tfl_desc_opcode, "OperatorCode", opcode_f,
	"deprecated_builtin_code,custom_code,version,builtin_code");

/* ---- subgraphs and the model ---- */

static const tfl_field subgraph_f[] = {
	TABS(tfl_desc_tensor), VEC(4, 0), VEC(4, 0), TABS(tfl_desc_operator), STR, S(4),
};
DESC(tfl_desc_subgraph, "SubGraph", subgraph_f,
	"tensors,inputs,outputs,operators,name,debug_metadata_index");

static const tfl_field tensor_map_f[] = {STR, S(4)};
static DESC(tensor_map_d, "TensorMap", tensor_map_f,
	"name,tensor_index");
static const tfl_field signature_f[] = {
	TABS(tensor_map_d), TABS(tensor_map_d), STR, STR, S(4),
};
static DESC(signature_d, "SignatureDef", signature_f,
	"inputs,outputs,signature_key,deprecated_tag,subgraph_index");
static const tfl_field ext_group_f[] = {STR};
static DESC(ext_group_d, "ExternalBufferGroup", ext_group_f,
	"name");
static const tfl_field ext_buffer_f[] = {S(4), S(4), S(8), S(8), STR};
static DESC(ext_buffer_d, "ExternalBuffer", ext_buffer_f,
	"id,group,offset,length,packing");

static const tfl_field model_f[] = {
	S(4), TABS(tfl_desc_opcode), TABS(tfl_desc_subgraph), STR, TABS(tfl_desc_buffer),
	VEC(4, 0), TABS(tfl_desc_metadata), TABS(signature_d), TABS(ext_group_d),
	TABS(ext_buffer_d),
};
DESC(tfl_desc_model, "Model", model_f,
	"version,operator_codes,subgraphs,description,buffers,metadata_buffer,metadata,signature_defs,external_buffer_groups,external_buffers");

const char *tfl_field_name(const tfl_desc *d, unsigned id, char *buf, size_t size)
{
	const char *p = d->field_names;
	for (unsigned i = 0; p && i < id; i++) {
		p = strchr(p, ',');
		p = p ? p + 1 : NULL;
	}
	if (p && *p)
		snprintf(buf, size, "%.*s", (int)strcspn(p, ","), p);
	else
		snprintf(buf, size, "field %u", id);
	return buf;
}
