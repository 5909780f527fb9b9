/* tfl_testmodel.c - the hand-built test model (tfl_testmodel.h), written with tfl_handbuild.h. */
#include "tfl_testmodel.h"

#include <stdlib.h>
#include <string.h>

#include "tfl_handbuild.h"

/* ---- the constants ---- */

/* conv_w: channel c = e / 27; value table c = {10c-3, .., 10c+2} (6 of 8 entries used) */
static unsigned conv_index(size_t e)
{
	return (unsigned)((e * 5 + e / 27) % 6);
}

int8_t tm_conv_w(size_t e)
{
	return (int8_t)(10 * (int)(e / 27) + (int)conv_index(e) - 3);
}

/* dw_w: channel c = e % 8 (last axis); table c = {-2(c+1), -(c+1), 0, c+1} */
static unsigned dw_index(size_t e)
{
	return (unsigned)((e / 8 + e % 8) % 4);
}

int8_t tm_dw_w(size_t e)
{
	return (int8_t)(((int)dw_index(e) - 2) * (int)(e % 8 + 1));
}

int8_t tm_fc_w(size_t e)
{
	return (int8_t)((int)((e * 37) % 251) - 125);
}

/* tensorflow/lite/micro/kernels/decode_test.cc: bw 2, {0x1B, 0xE4}, table {1, 2, 3, 4} */
const int8_t tm_tflm_vec[8] = {1, 2, 3, 4, 4, 3, 2, 1};
/* tensorflow/lite/micro/test_helpers.cc BuildSimpleMockModelCompressed: bw 4, unsorted
 * table of stride 10 */
const int16_t tm_tflm_int16[15] = {1, 2, 3, 4, 5, -1, -2, -3, -4, -5, 1, 2, 3, 4, 5};
static const uint8_t tflm_int16_indices[8] = {0x01, 0x23, 0x45, 0x98, 0x76, 0x01, 0x23, 0x40};
static const int16_t tflm_int16_table[10] = {1, 2, 3, 4, 5, -1, -5, -4, -3, -2};

/* ---- building ---- */

enum { I8 = TFB_I8, I16 = TFB_I16, I32 = TFB_I32, U8 = TFB_U8, F32 = TFB_F32 };

typedef struct tm {
	tfb f;
	enum tm_defect d;
	bool z; /* compressed */
} tm;

/* The opcodes, in this order. */
enum {
	OC_QUANTIZE, OC_PAD, OC_CONV, OC_DECODE, OC_DW, OC_AVG, OC_MAX, OC_ADD, OC_CONCAT,
	OC_TRANSPOSE, OC_MEAN, OC_RESHAPE, OC_FC, OC_SOFTMAX, OC_COUNT
};

/* deprecated_builtin_code, builtin_code (-1: absent), versions 1, 2, 3 in turn */
static const tfb_opcode OPCODES[OC_COUNT] = {
	{114, 114, NULL, 1}, {34, -1, NULL, 2}, {3, -1, NULL, 3}, {32, 32, "TFLM_DECODE", 1},
	{4, 4, NULL, 2}, {1, 1, NULL, 3}, {17, 17, NULL, 1}, {0, 0, NULL, 2}, {2, 2, NULL, 3},
	{39, 39, NULL, 1}, {-1, 40, NULL, 2}, {22, 22, NULL, 3}, {9, 9, NULL, 1},
	{25, 25, NULL, 2},
};

/* The COMPRESSION_METADATA flatbuffer: LutTensors for conv_w and tflm_int16. */
static uint32_t tm_compression_metadata(tm *t, uint32_t conv_tables, uint32_t int16_tables)
{
	const uint32_t entries[2][3] = {
		{t->d == TM_LEGACY_TENSOR ? 70 : TM_T_CONV_W, conv_tables,
		 t->d == TM_LEGACY_BW8 ? 8 : 3},
		{TM_T_INT16, int16_tables, 4},
	};
	return tfb_compression_metadata(&t->f, t->d == TM_LEGACY_SCHEMA2 ? 2 : 1, 2, entries);
}

uint8_t *tm_build(bool z, enum tm_defect d, size_t *len)
{
	tm t;
	memset(&t, 0, sizeof(t));
	vta_fbb_init(&t.f.b);
	t.d = d;
	t.z = z;
	tfb *f = &t.f;
	vta_fbb *b = &f->b;
	tfb_buffer(f, NULL, 0); /* buffer 0: the empty sentinel */

	/* ---- constants ---- */
	const int32_t paddings[8] = {0, 0, 1, 1, 1, 1, 0, 0};
	uint8_t le[8 * 4];
	for (int i = 0; i < 8; i++)
		for (int k = 0; k < 4; k++)
			le[4 * i + k] = (uint8_t)((uint32_t)paddings[i] >> (8 * k));
	uint32_t b_pad = tfb_buffer(f, le, 32);

	uint8_t conv_w[108], conv_idx[41], conv_tables[32] = {0};
	for (size_t e = 0; e < 108; e++)
		conv_w[e] = (uint8_t)tm_conv_w(e);
	tfb_pack(conv_idx, sizeof(conv_idx), 108, 3, conv_index);
	for (int c = 0; c < 4; c++)
		for (int k = 0; k < 6; k++)
			conv_tables[8 * c + k] = (uint8_t)(int8_t)(10 * c + k - 3);
	uint32_t b_conv_w = z ? tfb_buffer(f, conv_idx, d == TM_SHORT_INDICES ? 40 : 41)
			      : tfb_buffer(f, conv_w, 108);
	uint32_t b_conv_tables = z ? tfb_buffer(f, conv_tables, 32) : 0;

	uint8_t bias[10 * 4];
	for (int i = 0; i < 10; i++)
		for (int k = 0; k < 4; k++)
			bias[4 * i + k] = (uint8_t)((uint32_t)(100 * i - 300) >> (8 * k));
	uint32_t b_conv_b = tfb_buffer(f, bias, 16);
	const uint8_t one = 7;
	uint32_t b_unused = tfb_buffer(f, &one, 1);

	uint8_t dw_w[72], dw_idx[18], dw_anc[16 + 32];
	for (size_t e = 0; e < 72; e++)
		dw_w[e] = (uint8_t)tm_dw_w(e);
	tfb_pack(dw_idx, sizeof(dw_idx), 72, 2, dw_index);
	tfb_dcm(dw_anc, 2, 4);
	if (d == TM_HUFFMAN)
		dw_anc[0] = 1;
	if (d == TM_DCM_VERSION)
		dw_anc[1] = 2;
	for (int c = 0; c < 8; c++)
		for (int k = 0; k < 4; k++)
			dw_anc[16 + 4 * c + k] = (uint8_t)(int8_t)((k - 2) * (c + 1));
	uint32_t b_dw_w = z ? tfb_buffer(f, dw_idx, 18) : tfb_buffer(f, dw_w, 72);
	uint32_t b_dw_anc = z ? tfb_buffer(f, dw_anc, sizeof(dw_anc)) : 0;
	uint32_t b_dw_b = tfb_buffer(f, bias, 32);

	const int32_t perm[4] = {0, 3, 1, 2}, axes[2] = {2, 3};
	for (int i = 0; i < 4; i++)
		for (int k = 0; k < 4; k++)
			le[4 * i + k] = (uint8_t)((uint32_t)perm[i] >> (8 * k));
	uint32_t b_perm = tfb_buffer(f, le, 16);
	if (d == TM_SHARED_BUFFER)
		b_conv_b = b_perm;
	for (int i = 0; i < 2; i++)
		for (int k = 0; k < 4; k++)
			le[4 * i + k] = (uint8_t)((uint32_t)axes[i] >> (8 * k));
	uint32_t b_axes = tfb_buffer(f, le, 8);

	uint8_t fc_w[160];
	for (size_t e = 0; e < 160; e++)
		fc_w[e] = (uint8_t)tm_fc_w(e);
	uint32_t b_fc_w = tfb_buffer(f, fc_w, d == TM_DATA_SIZE ? 159 : 160);
	uint32_t b_fc_b = tfb_buffer(f, bias, 40);

	const uint8_t vec_idx[2] = {0x1B, 0xE4};
	uint8_t vec_anc[16 + 4];
	tfb_dcm(vec_anc, 2, d == TM_INDEX_BEYOND ? 3 : 4);
	for (int k = 0; k < 4; k++)
		vec_anc[16 + k] = (uint8_t)(k + 1);
	uint32_t b_vec = z ? tfb_buffer(f, vec_idx, 2) : tfb_buffer(f, tm_tflm_vec, 8);
	uint32_t b_vec_anc = z ? tfb_buffer(f, vec_anc, d == TM_INDEX_BEYOND ? 19 : 20) : 0;

	uint8_t i16[30], i16_tables[20];
	for (int i = 0; i < 15; i++) {
		i16[2 * i] = (uint8_t)tm_tflm_int16[i];
		i16[2 * i + 1] = (uint8_t)((uint16_t)tm_tflm_int16[i] >> 8);
	}
	for (int i = 0; i < 10; i++) {
		i16_tables[2 * i] = (uint8_t)tflm_int16_table[i];
		i16_tables[2 * i + 1] = (uint8_t)((uint16_t)tflm_int16_table[i] >> 8);
	}
	uint32_t b_i16 = z ? tfb_buffer(f, tflm_int16_indices, 8) : tfb_buffer(f, i16, 30);
	uint32_t b_i16_tables = z ? tfb_buffer(f, i16_tables, 20) : 0;

	const char version[16] = "1.5.0";
	uint32_t b_version = tfb_buffer(f, version, 16);
	uint32_t b_compression = z ? tm_compression_metadata(&t, b_conv_tables, b_i16_tables) : 0;

	/* ---- tensors ---- */
	tfb_tensor(f, 0, "input", F32, SHAPE(1, 8, 8, 3), 0, 0);
	tfb_tensor(f, 1, "quant", I8, SHAPE(1, 8, 8, 3), 0, tfb_quant(f, 1, 0.02f, -1, 0));
	tfb_tensor(f, 2, "paddings", I32, SHAPE(4, 2), d == TM_BUFFER_RANGE ? 999 : b_pad, 0);
	if (d == TM_TYPE)
		tfb_tensor(f, 3, "padded", 40, SHAPE(1, 10, 10, 3), 0, 0);
	else if (d == TM_RANK)
		tfb_tensor(f, 3, "padded", I8, SHAPE(1, 1, 1, 1, 1, 1, 10, 10, 3), 0, 0);
	else if (d == TM_NEG_DIM)
		tfb_tensor(f, 3, "padded", I8, SHAPE(1, -2, 10, 3), 0, 0);
	else
		tfb_tensor(f, 3, "padded", I8, SHAPE(1, 10, 10, 3), 0, tfb_quant(f, 1, 0.02f, -1, 0));
	tfb_tensor(f, 4, "conv_w", I8, SHAPE(4, 3, 3, 3), b_conv_w,
	     tfb_quant(f, d == TM_QUANT_COUNT ? 3 : 4, 0.01f, 0, 0));
	tfb_tensor(f, 5, "conv_b", I32, SHAPE(4), b_conv_b, tfb_quant(f, 4, 0.0002f, 0, 0));
	tfb_tensor(f, 6, "conv", I8, SHAPE(1, 8, 8, 4), 0, tfb_quant(f, 1, 0.05f, -128, 0));
	if (z) {
		tfb_tensor(f, 7, "dw_w", U8, SHAPE(18), b_dw_w,
			   d == TM_ENCODED_QUANT ? tfb_quant(f, 8, 0.01f, 0, 3) : 0);
		tfb_tensor(f, 8, "dw_w_ancillary", U8, SHAPE(48), b_dw_anc, 0);
		tfb_tensor(f, 9, "dw_w_decoded", I8, SHAPE(1, 3, 3, 8), 0,
			   tfb_quant(f, d == TM_DECODED_QUANT ? 7 : 8, 0.01f, 0, 3));
	} else {
		tfb_tensor(f, 7, "dw_w", I8, SHAPE(1, 3, 3, 8), b_dw_w, tfb_quant(f, 8, 0.01f, 0, 3));
		tfb_tensor(f, 8, "unused_8", U8, SHAPE(1), d == TM_UNUSED_CONST ? b_unused : 0, 0);
		tfb_tensor(f, 9, "unused_9", I8, SHAPE(1), 0, 0);
	}
	tfb_tensor(f, 10, "dw_b", I32, SHAPE(8), b_dw_b, tfb_quant(f, 8, 0.0005f, 0, 0));
	tfb_tensor(f, 11, "dw", I8, SHAPE(1, 4, 4, 8), 0, tfb_quant(f, 1, 0.05f, -128, 0));
	tfb_tensor(f, 12, "pool_avg", I8, SHAPE(1, 2, 2, 8), 0, tfb_quant(f, 1, 0.05f, -128, 0));
	tfb_tensor(f, 13, "pool_max", I8, SHAPE(1, 2, 2, 8), 0, tfb_quant(f, 1, 0.05f, -128, 0));
	tfb_tensor(f, 14, "add", I8, SHAPE(1, 2, 2, 8), 0, tfb_quant(f, 1, 0.1f, -128, 0));
	tfb_tensor(f, 15, "concat", I8, SHAPE(1, 2, 2, 16), 0, tfb_quant(f, 1, 0.1f, -128, 0));
	tfb_tensor(f, 16, "perm", I32, SHAPE(4), b_perm, 0);
	tfb_tensor(f, 17, "transposed", I8, SHAPE(1, 16, 2, 2), 0, tfb_quant(f, 1, 0.1f, -128, 0));
	tfb_tensor(f, 18, "mean_axes", I32, SHAPE(2), b_axes, 0);
	tfb_tensor(f, 19, "mean", I8, SHAPE(1, 16, 1, 1), 0, tfb_quant(f, 1, 0.1f, -128, 0));
	tfb_tensor(f, 20, "reshaped", I8, SHAPE(1, 16), 0, tfb_quant(f, 1, 0.1f, -128, 0));
	tfb_tensor(f, 21, "fc_w", I8, SHAPE(10, 16), b_fc_w, tfb_quant(f, 1, 0.02f, 0, 0));
	tfb_tensor(f, 22, "fc_b", I32, SHAPE(10), b_fc_b, tfb_quant(f, 1, 0.002f, 0, 0));
	tfb_tensor(f, 23, "fc", I8, SHAPE(1, 10), 0, tfb_quant(f, 1, 0.2f, 3, 0));
	tfb_tensor(f, 24, "softmax", I8, SHAPE(1, 10), 0, tfb_quant(f, 1, 1.0f / 256, -128, 0));
	if (z) {
		tfb_tensor(f, 25, "tflm_vec", U8, SHAPE(2), b_vec, 0);
		tfb_tensor(f, 26, "tflm_vec_ancillary", U8, SHAPE(d == TM_INDEX_BEYOND ? 19 : 20),
		     b_vec_anc, 0);
		tfb_tensor(f, 27, "tflm_vec_decoded", I8, SHAPE(1, 2, 4), 0, 0);
	} else {
		tfb_tensor(f, 25, "tflm_vec", I8, SHAPE(1, 2, 4), b_vec, 0);
		tfb_tensor(f, 26, "unused_26", U8, SHAPE(1), 0, 0);
		tfb_tensor(f, 27, "unused_27", I8, SHAPE(1), 0, 0);
	}
	tfb_tensor(f, 28, "vec_in", I8, SHAPE(1, 2, 4), 0, 0);
	tfb_tensor(f, 29, "vec_sum", I8, SHAPE(1, 2, 4), 0, 0);
	tfb_tensor(f, 30, "tflm_int16", I16, SHAPE(15), b_i16, 0);
	tfb_tensor(f, 31, "int16_in", I16, SHAPE(15), 0, 0);
	tfb_tensor(f, 32, "int16_cat", I16, SHAPE(30), 0, 0);

	/* ---- operators ---- */
	int32_t dw_filter = z ? 9 : 7, vec = z ? 27 : 25;
	tfb_op(f, d == TM_OPCODE_RANGE ? 50 : OC_QUANTIZE, IO(0), IO(1), 89, OPTS(f, {0, 0, 0}));
	tfb_op(f, OC_PAD, IO(1, 2), IO(3), 0, 0);
	{
		int act = d == TM_TANH ? 4 : 1;
		vta_fbb_ref o = OPTS(f, {0, 1, 1}, {1, 1, 4}, {2, 1, 4}, {3, (uint64_t)act, 1});
		if (d == TM_NO_CONV_OPTIONS)
			tfb_op(f, OC_CONV, IO(3, 4, 5), IO(6), 0, 0);
		else
			tfb_op(f, OC_CONV, IO(d == TM_OP_INPUT_RANGE ? 99 : 3, 4, 5), IO(6),
			      d == TM_OPTIONS_MISMATCH ? 5 : 1, o);
	}
	if (z) {
		if (d == TM_DECODE_ARITY)
			tfb_op(f, OC_DECODE, IO(7, 8, 8), IO(9), 0, 0);
		else
			tfb_op(f, OC_DECODE, IO(7, 8), IO(9), 0, 0);
	}
	/* padding SAME, stride 2x2, multiplier 2, relu6, dilation 2x2 */
	tfb_op(f, OC_DW, IO(6, dw_filter, 10), IO(11), 2,
	      OPTS(f, {0, 0, 1}, {1, 2, 4}, {2, d == TM_STRIDE_ZERO ? 0 : 2, 4}, {3, 2, 4},
		   {4, 3, 1}, {5, 2, 4}, {6, 2, 4}));
	tfb_op(f, OC_AVG, IO(11), IO(12), 5,
	      OPTS(f, {0, 1, 1}, {1, 2, 4}, {2, 2, 4}, {3, 2, 4}, {4, 2, 4}));
	tfb_op(f, OC_MAX, IO(11), IO(13), 5,
	      OPTS(f, {0, 1, 1}, {1, 2, 4}, {2, 2, 4}, {3, 2, 4}, {4, 2, 4}, {5, 1, 1}));
	tfb_op(f, OC_ADD, IO(12, 13), IO(14), 11, OPTS(f, {0, 1, 1}));
	tfb_op(f, OC_CONCAT, IO(12, 14), IO(15), 10,
	      OPTS(f, {0, d == TM_CONCAT_AXIS ? 4 : (uint32_t)-1, 4}));
	tfb_op(f, OC_TRANSPOSE, IO(15, 16), IO(17), 26, OPTS(f, {0, 0, 0}));
	tfb_op(f, OC_MEAN, IO(17, 18), IO(19), 27, OPTS(f, {0, 1, 1}));
	{
		vta_fbb_ref ns = tfb_ints(f, (const int32_t[]){1, 16}, 2);
		vta_fbb_start(b);
		vta_fbb_ref_field(b, 0 /* new_shape */, ns);
		tfb_op(f, OC_RESHAPE, IO(19), IO(20), 17, vta_fbb_end(b));
	}
	tfb_op(f, OC_FC, IO(20, 21, 22), IO(23), 8, OPTS(f, {0, 2, 1}, {2, 1, 1}));
	{
		float beta = 0.5f;
		uint32_t bits;
		memcpy(&bits, &beta, 4);
		if (d == TM_SOFTMAX_BETA)
			tfb_op(f, OC_SOFTMAX, IO(23), IO(24), 9, OPTS(f, {0, 0, 0}));
		else
			tfb_op(f, OC_SOFTMAX, IO(23), IO(24), 9, OPTS(f, {0, bits, 4}));
	}
	if (z)
		tfb_op(f, OC_DECODE, IO(25, 26), IO(27), 0, 0);
	tfb_op(f, OC_ADD, IO(28, vec), IO(29), 0, 0);
	tfb_op(f, OC_CONCAT, IO(31, 30), IO(32), 10, OPTS(f, {0, 0, 4}));

	/* ---- subgraph and model ---- */
	const char *md_names[2] = {"min_runtime_version", "COMPRESSION_METADATA"};
	const uint32_t md_buffers[2] = {b_version, b_compression};
	const tfb_model_desc md = {
		.n_tensors = TM_T_COUNT,
		.inputs = (const int32_t[]){0, 28, 31}, .n_inputs = 3,
		.outputs = (const int32_t[]){24, 29, 32, 16},
		.n_outputs = d == TM_CONST_OUTPUT ? 4 : 3,
		.opcodes = OPCODES, .n_opcodes = OC_COUNT,
		.md_names = md_names, .md_buffers = md_buffers, .n_metadata = z ? 2 : 1,
		.description = "vtasim test model", .version = d == TM_SCHEMA_VERSION ? 2 : 3,
	};
	return tfb_model(f, &md, len);
}
