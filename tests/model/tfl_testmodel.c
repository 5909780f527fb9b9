/*
 * tfl_testmodel.c - the hand-built test model (tfl_testmodel.h). Field ids are written as
 * numbers with the schema's field name beside them, independently of runtime/'s tables, so a
 * wrong id on either side shows up as a test failure.
 */
#include "tfl_testmodel.h"

#include <stdlib.h>
#include <string.h>

#include "fb_build.h"

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

/* Pack n indices of bw bits, most significant bit first (the test's own packer). */
static void pack(uint8_t *out, size_t bytes, size_t n, unsigned bw, unsigned (*index)(size_t))
{
	memset(out, 0, bytes);
	size_t bit = 0;
	for (size_t e = 0; e < n; e++) {
		unsigned v = index(e);
		for (unsigned k = 0; k < bw; k++, bit++)
			if (v & (1u << (bw - 1 - k)))
				out[bit / 8] |= (uint8_t)(0x80 >> (bit % 8));
	}
}

/* ---- building ---- */

typedef struct tm {
	vta_fbb b;
	enum tm_defect d;
	bool z; /* compressed */
	vta_fbb_ref buffers[48];
	size_t n_buffers;
	vta_fbb_ref tensors[TM_T_COUNT];
	vta_fbb_ref ops[24];
	size_t n_ops;
} tm;

static uint32_t tm_buffer(tm *t, const void *data, size_t bytes)
{
	vta_fbb_ref d = bytes ? vta_fbb_vector(&t->b, data, bytes, 1, 16) : 0;
	vta_fbb_start(&t->b);
	if (d)
		vta_fbb_ref_field(&t->b, 0 /* data */, d);
	t->buffers[t->n_buffers] = vta_fbb_end(&t->b);
	return (uint32_t)t->n_buffers++;
}

static vta_fbb_ref tm_ints(tm *t, const int32_t *v, size_t n)
{
	uint8_t le[64 * 4];
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < 4; k++)
			le[4 * i + (size_t)k] = (uint8_t)((uint32_t)v[i] >> (8 * k));
	return vta_fbb_vector(&t->b, le, n, 4, 0);
}

/* n scales s, s*1.25, ... and zero points zp, along axis. */
static vta_fbb_ref tm_quant(tm *t, size_t n, float s, int64_t zp, int32_t axis)
{
	uint8_t scales[64 * 4], zps[64 * 8];
	for (size_t i = 0; i < n; i++) {
		float v = s * (1.0f + 0.25f * (float)i);
		uint32_t bits;
		memcpy(&bits, &v, 4);
		for (int k = 0; k < 4; k++)
			scales[4 * i + (size_t)k] = (uint8_t)(bits >> (8 * k));
		for (int k = 0; k < 8; k++)
			zps[8 * i + (size_t)k] = (uint8_t)((uint64_t)zp >> (8 * k));
	}
	vta_fbb_ref sv = vta_fbb_vector(&t->b, scales, n, 4, 0);
	vta_fbb_ref zv = vta_fbb_vector(&t->b, zps, n, 8, 0);
	vta_fbb_start(&t->b);
	vta_fbb_ref_field(&t->b, 2 /* scale */, sv);
	vta_fbb_ref_field(&t->b, 3 /* zero_point */, zv);
	if (axis)
		vta_fbb_scalar(&t->b, 6 /* quantized_dimension */, (uint32_t)axis, 4);
	return vta_fbb_end(&t->b);
}

enum { I8 = 9, I16 = 7, I32 = 2, U8 = 3, F32 = 0 };

static void tm_tensor(tm *t, size_t i, const char *name, int type, int rank,
		      const int32_t *shape, uint32_t buffer, vta_fbb_ref quant)
{
	vta_fbb_ref sh = tm_ints(t, shape, (size_t)rank);
	vta_fbb_ref nm = vta_fbb_string(&t->b, name, strlen(name));
	vta_fbb_start(&t->b);
	vta_fbb_ref_field(&t->b, 0 /* shape */, sh);
	if (type)
		vta_fbb_scalar(&t->b, 1 /* type */, (uint8_t)type, 1);
	if (buffer)
		vta_fbb_scalar(&t->b, 2 /* buffer */, buffer, 4);
	vta_fbb_ref_field(&t->b, 3 /* name */, nm);
	if (quant)
		vta_fbb_ref_field(&t->b, 4 /* quantization */, quant);
	t->tensors[i] = vta_fbb_end(&t->b);
}

#define SHAPE(...) (const int32_t[]){__VA_ARGS__}, (int)(sizeof((int32_t[]){__VA_ARGS__}) / 4)

static void tm_t(tm *t, size_t i, const char *name, int type, const int32_t *shape, int rank,
		 uint32_t buffer, vta_fbb_ref quant)
{
	tm_tensor(t, i, name, type, rank, shape, buffer, quant);
}

/* An operator: opcode, inputs, outputs, options of union type `ot` (table `opt`). */
static void tm_op(tm *t, uint32_t opcode, const int32_t *in, size_t n_in, const int32_t *out,
		  size_t n_out, uint8_t ot, vta_fbb_ref opt)
{
	vta_fbb_ref iv = tm_ints(t, in, n_in), ov = tm_ints(t, out, n_out);
	vta_fbb_start(&t->b);
	if (opcode)
		vta_fbb_scalar(&t->b, 0 /* opcode_index */, opcode, 4);
	vta_fbb_ref_field(&t->b, 1 /* inputs */, iv);
	vta_fbb_ref_field(&t->b, 2 /* outputs */, ov);
	if (ot)
		vta_fbb_scalar(&t->b, 3 /* builtin_options_type */, ot, 1);
	if (opt)
		vta_fbb_ref_field(&t->b, 4 /* builtin_options */, opt);
	t->ops[t->n_ops++] = vta_fbb_end(&t->b);
}

#define IO(...) (const int32_t[]){__VA_ARGS__}, sizeof((int32_t[]){__VA_ARGS__}) / 4

/* A table of the given (id, value, size) scalars; {0, 0, 0} alone: an empty table. */
static vta_fbb_ref tm_opts(tm *t, size_t n, const uint64_t (*f)[3])
{
	vta_fbb_start(&t->b);
	for (size_t i = 0; i < n; i++)
		if (f[i][2]) /* size 0: an empty table */
			vta_fbb_scalar(&t->b, (unsigned)f[i][0], f[i][1], (size_t)f[i][2]);
	return vta_fbb_end(&t->b);
}

#define OPTS(t, ...) tm_opts(t, sizeof((uint64_t[][3]){__VA_ARGS__}) / sizeof(uint64_t[3]), \
			     (const uint64_t[][3]){__VA_ARGS__})

/* The opcodes, in this order. */
enum {
	OC_QUANTIZE, OC_PAD, OC_CONV, OC_DECODE, OC_DW, OC_AVG, OC_MAX, OC_ADD, OC_CONCAT,
	OC_TRANSPOSE, OC_MEAN, OC_RESHAPE, OC_FC, OC_SOFTMAX, OC_COUNT
};

static vta_fbb_ref tm_opcodes(tm *t)
{
	/* deprecated_builtin_code, builtin_code (-1: absent) */
	static const int codes[OC_COUNT][2] = {
		{114, 114}, {34, -1}, {3, -1}, {32, 32}, {4, 4}, {1, 1}, {17, 17}, {0, 0},
		{2, 2}, {39, 39}, {-1, 40}, {22, 22}, {9, 9}, {25, 25},
	};
	vta_fbb_ref refs[OC_COUNT];
	for (int i = 0; i < OC_COUNT; i++) {
		vta_fbb_ref name = i == OC_DECODE ? vta_fbb_string(&t->b, "TFLM_DECODE", 11) : 0;
		vta_fbb_start(&t->b);
		if (codes[i][0] >= 0)
			vta_fbb_scalar(&t->b, 0 /* deprecated_builtin_code */, (uint8_t)codes[i][0], 1);
		if (name)
			vta_fbb_ref_field(&t->b, 1 /* custom_code */, name);
		vta_fbb_scalar(&t->b, 2 /* version */, 1 + (unsigned)(i % 3), 4);
		if (codes[i][1] >= 0)
			vta_fbb_scalar(&t->b, 3 /* builtin_code */, (uint32_t)codes[i][1], 4);
		refs[i] = vta_fbb_end(&t->b);
	}
	return vta_fbb_ref_vector(&t->b, refs, OC_COUNT);
}

/* The COMPRESSION_METADATA flatbuffer: LutTensors for conv_w and tflm_int16. */
static uint32_t tm_compression_metadata(tm *t, uint32_t conv_tables, uint32_t int16_tables)
{
	vta_fbb m;
	vta_fbb_init(&m);
	vta_fbb_ref lts[2];
	const uint32_t entries[2][3] = {
		{t->d == TM_LEGACY_TENSOR ? 70 : TM_T_CONV_W, conv_tables,
		 t->d == TM_LEGACY_BW8 ? 8 : 3},
		{TM_T_INT16, int16_tables, 4},
	};
	for (int i = 0; i < 2; i++) {
		vta_fbb_start(&m);
		vta_fbb_scalar(&m, 0 /* tensor */, entries[i][0], 4);
		vta_fbb_scalar(&m, 1 /* value_buffer */, entries[i][1], 4);
		vta_fbb_scalar(&m, 2 /* index_bitwidth */, entries[i][2], 1);
		lts[i] = vta_fbb_end(&m);
	}
	vta_fbb_ref v = vta_fbb_ref_vector(&m, lts, 2);
	vta_fbb_start(&m);
	vta_fbb_ref_field(&m, 0 /* lut_tensors */, v);
	vta_fbb_ref sg = vta_fbb_end(&m);
	vta_fbb_ref sgs = vta_fbb_ref_vector(&m, &sg, 1);
	vta_fbb_start(&m);
	vta_fbb_scalar(&m, 0 /* schema_version */, t->d == TM_LEGACY_SCHEMA2 ? 2 : 1, 4);
	vta_fbb_ref_field(&m, 1 /* subgraphs */, sgs);
	vta_fbb_ref root = vta_fbb_end(&m);
	uint8_t *bytes;
	size_t len;
	vta_error e = {0};
	if (vta_fbb_finish(&m, root, NULL, &bytes, &len, &e) != VTA_OK)
		return 0;
	uint32_t b = tm_buffer(t, bytes, len);
	free(bytes);
	return b;
}

static void tm_dcm(uint8_t *h, unsigned bw, unsigned stride)
{
	memset(h, 0, 16);
	h[1] = 1;      /* DCM version */
	h[4] = 1;      /* LUT version */
	h[5] = (uint8_t)bw;
	h[6] = (uint8_t)stride;
}

uint8_t *tm_build(bool z, enum tm_defect d, size_t *len)
{
	tm t;
	memset(&t, 0, sizeof(t));
	vta_fbb_init(&t.b);
	t.d = d;
	t.z = z;
	vta_fbb *b = &t.b;
	tm_buffer(&t, NULL, 0); /* buffer 0: the empty sentinel */

	/* ---- constants ---- */
	const int32_t paddings[8] = {0, 0, 1, 1, 1, 1, 0, 0};
	uint8_t le[8 * 4];
	for (int i = 0; i < 8; i++)
		for (int k = 0; k < 4; k++)
			le[4 * i + k] = (uint8_t)((uint32_t)paddings[i] >> (8 * k));
	uint32_t b_pad = tm_buffer(&t, le, 32);

	uint8_t conv_w[108], conv_idx[41], conv_tables[32] = {0};
	for (size_t e = 0; e < 108; e++)
		conv_w[e] = (uint8_t)tm_conv_w(e);
	pack(conv_idx, sizeof(conv_idx), 108, 3, conv_index);
	for (int c = 0; c < 4; c++)
		for (int k = 0; k < 6; k++)
			conv_tables[8 * c + k] = (uint8_t)(int8_t)(10 * c + k - 3);
	uint32_t b_conv_w = z ? tm_buffer(&t, conv_idx, d == TM_SHORT_INDICES ? 40 : 41)
			      : tm_buffer(&t, conv_w, 108);
	uint32_t b_conv_tables = z ? tm_buffer(&t, conv_tables, 32) : 0;

	uint8_t bias[10 * 4];
	for (int i = 0; i < 10; i++)
		for (int k = 0; k < 4; k++)
			bias[4 * i + k] = (uint8_t)((uint32_t)(100 * i - 300) >> (8 * k));
	uint32_t b_conv_b = tm_buffer(&t, bias, 16);
	const uint8_t one = 7;
	uint32_t b_unused = tm_buffer(&t, &one, 1);

	uint8_t dw_w[72], dw_idx[18], dw_anc[16 + 32];
	for (size_t e = 0; e < 72; e++)
		dw_w[e] = (uint8_t)tm_dw_w(e);
	pack(dw_idx, sizeof(dw_idx), 72, 2, dw_index);
	tm_dcm(dw_anc, 2, 4);
	if (d == TM_HUFFMAN)
		dw_anc[0] = 1;
	if (d == TM_DCM_VERSION)
		dw_anc[1] = 2;
	for (int c = 0; c < 8; c++)
		for (int k = 0; k < 4; k++)
			dw_anc[16 + 4 * c + k] = (uint8_t)(int8_t)((k - 2) * (c + 1));
	uint32_t b_dw_w = z ? tm_buffer(&t, dw_idx, 18) : tm_buffer(&t, dw_w, 72);
	uint32_t b_dw_anc = z ? tm_buffer(&t, dw_anc, sizeof(dw_anc)) : 0;
	uint32_t b_dw_b = tm_buffer(&t, bias, 32);

	const int32_t perm[4] = {0, 3, 1, 2}, axes[2] = {2, 3};
	for (int i = 0; i < 4; i++)
		for (int k = 0; k < 4; k++)
			le[4 * i + k] = (uint8_t)((uint32_t)perm[i] >> (8 * k));
	uint32_t b_perm = tm_buffer(&t, le, 16);
	if (d == TM_SHARED_BUFFER)
		b_conv_b = b_perm;
	for (int i = 0; i < 2; i++)
		for (int k = 0; k < 4; k++)
			le[4 * i + k] = (uint8_t)((uint32_t)axes[i] >> (8 * k));
	uint32_t b_axes = tm_buffer(&t, le, 8);

	uint8_t fc_w[160];
	for (size_t e = 0; e < 160; e++)
		fc_w[e] = (uint8_t)tm_fc_w(e);
	uint32_t b_fc_w = tm_buffer(&t, fc_w, d == TM_DATA_SIZE ? 159 : 160);
	uint32_t b_fc_b = tm_buffer(&t, bias, 40);

	const uint8_t vec_idx[2] = {0x1B, 0xE4};
	uint8_t vec_anc[16 + 4];
	tm_dcm(vec_anc, 2, d == TM_INDEX_BEYOND ? 3 : 4);
	for (int k = 0; k < 4; k++)
		vec_anc[16 + k] = (uint8_t)(k + 1);
	uint32_t b_vec = z ? tm_buffer(&t, vec_idx, 2) : tm_buffer(&t, tm_tflm_vec, 8);
	uint32_t b_vec_anc = z ? tm_buffer(&t, vec_anc, d == TM_INDEX_BEYOND ? 19 : 20) : 0;

	uint8_t i16[30], i16_tables[20];
	for (int i = 0; i < 15; i++) {
		i16[2 * i] = (uint8_t)tm_tflm_int16[i];
		i16[2 * i + 1] = (uint8_t)((uint16_t)tm_tflm_int16[i] >> 8);
	}
	for (int i = 0; i < 10; i++) {
		i16_tables[2 * i] = (uint8_t)tflm_int16_table[i];
		i16_tables[2 * i + 1] = (uint8_t)((uint16_t)tflm_int16_table[i] >> 8);
	}
	uint32_t b_i16 = z ? tm_buffer(&t, tflm_int16_indices, 8) : tm_buffer(&t, i16, 30);
	uint32_t b_i16_tables = z ? tm_buffer(&t, i16_tables, 20) : 0;

	const char version[16] = "1.5.0";
	uint32_t b_version = tm_buffer(&t, version, 16);
	uint32_t b_compression = z ? tm_compression_metadata(&t, b_conv_tables, b_i16_tables) : 0;

	/* ---- tensors ---- */
	tm_t(&t, 0, "input", F32, SHAPE(1, 8, 8, 3), 0, 0);
	tm_t(&t, 1, "quant", I8, SHAPE(1, 8, 8, 3), 0, tm_quant(&t, 1, 0.02f, -1, 0));
	tm_t(&t, 2, "paddings", I32, SHAPE(4, 2), d == TM_BUFFER_RANGE ? 999 : b_pad, 0);
	if (d == TM_TYPE)
		tm_t(&t, 3, "padded", 40, SHAPE(1, 10, 10, 3), 0, 0);
	else if (d == TM_RANK)
		tm_t(&t, 3, "padded", I8, SHAPE(1, 1, 1, 1, 1, 1, 10, 10, 3), 0, 0);
	else if (d == TM_NEG_DIM)
		tm_t(&t, 3, "padded", I8, SHAPE(1, -2, 10, 3), 0, 0);
	else
		tm_t(&t, 3, "padded", I8, SHAPE(1, 10, 10, 3), 0, tm_quant(&t, 1, 0.02f, -1, 0));
	tm_t(&t, 4, "conv_w", I8, SHAPE(4, 3, 3, 3), b_conv_w,
	     tm_quant(&t, d == TM_QUANT_COUNT ? 3 : 4, 0.01f, 0, 0));
	tm_t(&t, 5, "conv_b", I32, SHAPE(4), b_conv_b, tm_quant(&t, 4, 0.0002f, 0, 0));
	tm_t(&t, 6, "conv", I8, SHAPE(1, 8, 8, 4), 0, tm_quant(&t, 1, 0.05f, -128, 0));
	if (z) {
		tm_t(&t, 7, "dw_w", U8, SHAPE(18), b_dw_w, 0);
		tm_t(&t, 8, "dw_w_ancillary", U8, SHAPE(48), b_dw_anc, 0);
		tm_t(&t, 9, "dw_w_decoded", I8, SHAPE(1, 3, 3, 8), 0, tm_quant(&t, 8, 0.01f, 0, 3));
	} else {
		tm_t(&t, 7, "dw_w", I8, SHAPE(1, 3, 3, 8), b_dw_w, tm_quant(&t, 8, 0.01f, 0, 3));
		tm_t(&t, 8, "unused_8", U8, SHAPE(1), d == TM_UNUSED_CONST ? b_unused : 0, 0);
		tm_t(&t, 9, "unused_9", I8, SHAPE(1), 0, 0);
	}
	tm_t(&t, 10, "dw_b", I32, SHAPE(8), b_dw_b, tm_quant(&t, 8, 0.0005f, 0, 0));
	tm_t(&t, 11, "dw", I8, SHAPE(1, 4, 4, 8), 0, tm_quant(&t, 1, 0.05f, -128, 0));
	tm_t(&t, 12, "pool_avg", I8, SHAPE(1, 2, 2, 8), 0, tm_quant(&t, 1, 0.05f, -128, 0));
	tm_t(&t, 13, "pool_max", I8, SHAPE(1, 2, 2, 8), 0, tm_quant(&t, 1, 0.05f, -128, 0));
	tm_t(&t, 14, "add", I8, SHAPE(1, 2, 2, 8), 0, tm_quant(&t, 1, 0.1f, -128, 0));
	tm_t(&t, 15, "concat", I8, SHAPE(1, 2, 2, 16), 0, tm_quant(&t, 1, 0.1f, -128, 0));
	tm_t(&t, 16, "perm", I32, SHAPE(4), b_perm, 0);
	tm_t(&t, 17, "transposed", I8, SHAPE(1, 16, 2, 2), 0, tm_quant(&t, 1, 0.1f, -128, 0));
	tm_t(&t, 18, "mean_axes", I32, SHAPE(2), b_axes, 0);
	tm_t(&t, 19, "mean", I8, SHAPE(1, 16, 1, 1), 0, tm_quant(&t, 1, 0.1f, -128, 0));
	tm_t(&t, 20, "reshaped", I8, SHAPE(1, 16), 0, tm_quant(&t, 1, 0.1f, -128, 0));
	tm_t(&t, 21, "fc_w", I8, SHAPE(10, 16), b_fc_w, tm_quant(&t, 1, 0.02f, 0, 0));
	tm_t(&t, 22, "fc_b", I32, SHAPE(10), b_fc_b, tm_quant(&t, 1, 0.002f, 0, 0));
	tm_t(&t, 23, "fc", I8, SHAPE(1, 10), 0, tm_quant(&t, 1, 0.2f, 3, 0));
	tm_t(&t, 24, "softmax", I8, SHAPE(1, 10), 0, tm_quant(&t, 1, 1.0f / 256, -128, 0));
	if (z) {
		tm_t(&t, 25, "tflm_vec", U8, SHAPE(2), b_vec, 0);
		tm_t(&t, 26, "tflm_vec_ancillary", U8, SHAPE(d == TM_INDEX_BEYOND ? 19 : 20),
		     b_vec_anc, 0);
		tm_t(&t, 27, "tflm_vec_decoded", I8, SHAPE(1, 2, 4), 0, 0);
	} else {
		tm_t(&t, 25, "tflm_vec", I8, SHAPE(1, 2, 4), b_vec, 0);
		tm_t(&t, 26, "unused_26", U8, SHAPE(1), 0, 0);
		tm_t(&t, 27, "unused_27", I8, SHAPE(1), 0, 0);
	}
	tm_t(&t, 28, "vec_in", I8, SHAPE(1, 2, 4), 0, 0);
	tm_t(&t, 29, "vec_sum", I8, SHAPE(1, 2, 4), 0, 0);
	tm_t(&t, 30, "tflm_int16", I16, SHAPE(15), b_i16, 0);
	tm_t(&t, 31, "int16_in", I16, SHAPE(15), 0, 0);
	tm_t(&t, 32, "int16_cat", I16, SHAPE(30), 0, 0);

	/* ---- operators ---- */
	int32_t dw_filter = z ? 9 : 7, vec = z ? 27 : 25;
	tm_op(&t, d == TM_OPCODE_RANGE ? 50 : OC_QUANTIZE, IO(0), IO(1), 89, OPTS(&t, {0, 0, 0}));
	tm_op(&t, OC_PAD, IO(1, 2), IO(3), 0, 0);
	{
		int act = d == TM_TANH ? 4 : 1;
		vta_fbb_ref o = OPTS(&t, {0, 1, 1}, {1, 1, 4}, {2, 1, 4}, {3, (uint64_t)act, 1});
		if (d == TM_NO_CONV_OPTIONS)
			tm_op(&t, OC_CONV, IO(3, 4, 5), IO(6), 0, 0);
		else
			tm_op(&t, OC_CONV, IO(d == TM_OP_INPUT_RANGE ? 99 : 3, 4, 5), IO(6),
			      d == TM_OPTIONS_MISMATCH ? 5 : 1, o);
	}
	if (z) {
		if (d == TM_DECODE_ARITY)
			tm_op(&t, OC_DECODE, IO(7, 8, 8), IO(9), 0, 0);
		else
			tm_op(&t, OC_DECODE, IO(7, 8), IO(9), 0, 0);
	}
	/* padding SAME, stride 2x2, multiplier 2, relu6, dilation 2x2 */
	tm_op(&t, OC_DW, IO(6, dw_filter, 10), IO(11), 2,
	      OPTS(&t, {0, 0, 1}, {1, 2, 4}, {2, d == TM_STRIDE_ZERO ? 0 : 2, 4}, {3, 2, 4},
		   {4, 3, 1}, {5, 2, 4}, {6, 2, 4}));
	tm_op(&t, OC_AVG, IO(11), IO(12), 5,
	      OPTS(&t, {0, 1, 1}, {1, 2, 4}, {2, 2, 4}, {3, 2, 4}, {4, 2, 4}));
	tm_op(&t, OC_MAX, IO(11), IO(13), 5,
	      OPTS(&t, {0, 1, 1}, {1, 2, 4}, {2, 2, 4}, {3, 2, 4}, {4, 2, 4}, {5, 1, 1}));
	tm_op(&t, OC_ADD, IO(12, 13), IO(14), 11, OPTS(&t, {0, 1, 1}));
	tm_op(&t, OC_CONCAT, IO(12, 14), IO(15), 10,
	      OPTS(&t, {0, d == TM_CONCAT_AXIS ? 4 : (uint32_t)-1, 4}));
	tm_op(&t, OC_TRANSPOSE, IO(15, 16), IO(17), 26, OPTS(&t, {0, 0, 0}));
	tm_op(&t, OC_MEAN, IO(17, 18), IO(19), 27, OPTS(&t, {0, 1, 1}));
	{
		vta_fbb_ref ns = tm_ints(&t, (const int32_t[]){1, 16}, 2);
		vta_fbb_start(b);
		vta_fbb_ref_field(b, 0 /* new_shape */, ns);
		tm_op(&t, OC_RESHAPE, IO(19), IO(20), 17, vta_fbb_end(b));
	}
	tm_op(&t, OC_FC, IO(20, 21, 22), IO(23), 8, OPTS(&t, {0, 2, 1}, {2, 1, 1}));
	{
		float beta = 0.5f;
		uint32_t bits;
		memcpy(&bits, &beta, 4);
		if (d == TM_SOFTMAX_BETA)
			tm_op(&t, OC_SOFTMAX, IO(23), IO(24), 9, OPTS(&t, {0, 0, 0}));
		else
			tm_op(&t, OC_SOFTMAX, IO(23), IO(24), 9, OPTS(&t, {0, bits, 4}));
	}
	if (z)
		tm_op(&t, OC_DECODE, IO(25, 26), IO(27), 0, 0);
	tm_op(&t, OC_ADD, IO(28, vec), IO(29), 0, 0);
	tm_op(&t, OC_CONCAT, IO(31, 30), IO(32), 10, OPTS(&t, {0, 0, 4}));

	/* ---- subgraph and model ---- */
	vta_fbb_ref tv = vta_fbb_ref_vector(b, t.tensors, TM_T_COUNT);
	vta_fbb_ref ov = vta_fbb_ref_vector(b, t.ops, t.n_ops);
	vta_fbb_ref in = tm_ints(&t, (const int32_t[]){0, 28, 31}, 3);
	vta_fbb_ref out = tm_ints(&t, (const int32_t[]){24, 29, 32, 16},
				  d == TM_CONST_OUTPUT ? 4 : 3);
	vta_fbb_ref name = vta_fbb_string(b, "main", 4);
	vta_fbb_start(b);
	vta_fbb_ref_field(b, 0 /* tensors */, tv);
	vta_fbb_ref_field(b, 1 /* inputs */, in);
	vta_fbb_ref_field(b, 2 /* outputs */, out);
	vta_fbb_ref_field(b, 3 /* operators */, ov);
	vta_fbb_ref_field(b, 4 /* name */, name);
	vta_fbb_ref sg = vta_fbb_end(b);
	vta_fbb_ref sgs = vta_fbb_ref_vector(b, &sg, 1);
	vta_fbb_ref md[2];
	const char *md_names[2] = {"min_runtime_version", "COMPRESSION_METADATA"};
	uint32_t md_buffers[2] = {b_version, b_compression};
	for (int i = 0; i < (z ? 2 : 1); i++) {
		vta_fbb_ref s = vta_fbb_string(b, md_names[i], strlen(md_names[i]));
		vta_fbb_start(b);
		vta_fbb_ref_field(b, 0 /* name */, s);
		vta_fbb_scalar(b, 1 /* buffer */, md_buffers[i], 4);
		md[i] = vta_fbb_end(b);
	}
	vta_fbb_ref mdv = vta_fbb_ref_vector(b, md, z ? 2 : 1);
	vta_fbb_ref bufs = vta_fbb_ref_vector(b, t.buffers, t.n_buffers);
	vta_fbb_ref codes = tm_opcodes(&t);
	vta_fbb_ref desc = vta_fbb_string(b, "vtasim test model", 17);
	vta_fbb_start(b);
	vta_fbb_scalar(b, 0 /* version */, d == TM_SCHEMA_VERSION ? 2 : 3, 4);
	vta_fbb_ref_field(b, 1 /* operator_codes */, codes);
	vta_fbb_ref_field(b, 2 /* subgraphs */, sgs);
	vta_fbb_ref_field(b, 3 /* description */, desc);
	vta_fbb_ref_field(b, 4 /* buffers */, bufs);
	vta_fbb_ref_field(b, 6 /* metadata */, mdv);
	vta_fbb_ref root = vta_fbb_end(b);
	uint8_t *bytes = NULL;
	vta_error e = {0};
	if (vta_fbb_finish(b, root, "TFL3", &bytes, len, &e) != VTA_OK)
		return NULL;
	return bytes;
}
