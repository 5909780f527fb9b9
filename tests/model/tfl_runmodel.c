/* tfl_runmodel.c - the hand-built model the runner takes end to end (tfl_runmodel.h). */
#include "tfl_runmodel.h"

#include <string.h>

#include "tfl_handbuild.h"

/* ---- the constants: each an index into its channel's value table ---- */

/* conv_w [8,3,3,3]: channel c = e / 27, table c = {3(k-4) + c - 3}, 3-bit */
static unsigned conv_index(size_t e)
{
	return (unsigned)((e * 5 + e / 27) % 8);
}

static int8_t conv_value(size_t c, unsigned k)
{
	return (int8_t)(3 * ((int)k - 4) + (int)c - 3);
}

/* conv_b [8]: one value per channel, index 0 of a 1-bit table */
static unsigned zero_index(size_t e)
{
	(void)e;
	return 0;
}

static int32_t conv_bias(size_t c)
{
	return 100 * (int32_t)c - 350;
}

/* gconv_w [8,3,3,4], one table, 2-bit */
static const int8_t GCONV_TABLE[4] = {-7, -2, 3, 8};

static unsigned gconv_index(size_t e)
{
	return (unsigned)((e * 3 + e / 7) % 4);
}

/* dw_w [1,3,3,16]: channel c = e % 16 (the last axis), table c = {(k-2)(c%5+1) + 1} */
static unsigned dw_index(size_t e)
{
	return (unsigned)((e / 16 + e % 16 + e / 48) % 4);
}

static int8_t dw_value(size_t c, unsigned k)
{
	return (int8_t)(((int)k - 2) * (int)(c % 5 + 1) + 1);
}

/* mask [1,2,2,16], one table, 2-bit */
static const int8_t MASK_TABLE[4] = {-20, -3, 4, 30};

static unsigned mask_index(size_t e)
{
	return (unsigned)((e * 3 + e / 5) % 4);
}

/* fc_w [10,32], one table {-40, -35, .., 35}, 4-bit */
static unsigned fc_index(size_t e)
{
	return (unsigned)((e * 7 + e / 32) % 16);
}

float tr_image(size_t e)
{
	return (float)((int)(e % 41) - 20) * 0.03f;
}

int8_t tr_padded(size_t e)
{
	size_t h = e / 30, w = e / 3 % 10, c = e % 3;
	if (h == 0 || h == 9 || w == 0 || w == 9)
		return 3; /* the zero point */
	size_t i = ((h - 1) * 8 + (w - 1)) * 3 + c;
	return (int8_t)(3 * ((int)(i % 41) - 20) + 3);
}

/* ---- building ---- */

enum {
	OC_QUANTIZE, OC_PAD, OC_CONV, OC_DW, OC_AVG, OC_MAX, OC_ADD, OC_CONCAT, OC_PADV2,
	OC_TRANSPOSE, OC_MEAN, OC_RESHAPE, OC_FC, OC_SOFTMAX, OC_DECODE, OC_COUNT
};

static const tfb_opcode OPCODES[OC_COUNT] = {
	{114, 114, NULL, 1}, {34, 34, NULL, 1}, {3, 3, NULL, 1}, {4, 4, NULL, 1},
	{1, 1, NULL, 1}, {17, 17, NULL, 1}, {0, 0, NULL, 1}, {2, 2, NULL, 1}, {60, 60, NULL, 1},
	{39, 39, NULL, 1}, {40, 40, NULL, 1}, {22, 22, NULL, 1}, {9, 9, NULL, 1},
	{25, 25, NULL, 1}, {32, 32, "TFLM_DECODE", 1},
};

enum { I8 = TFB_I8, I32 = TFB_I32, U8 = TFB_U8, F32 = TFB_F32 };
enum { SAME = 0, VALID = 1, NONE = 0, RELU = 1, RELU_N1_TO_1 = 2, RELU6 = 3 };

/* An int8 constant of n elements from its index function and tables (stride `stride`,
 * table of element e: channel(e)), plain or packed at `bw` bits; its buffer. */
static uint32_t lut_const(tfb *f, bool packed, size_t n, unsigned bw, unsigned (*index)(size_t),
			  const int8_t *tables, size_t stride, size_t (*channel)(size_t))
{
	uint8_t buf[512];
	if (packed) {
		size_t bytes = (n * bw + 7) / 8;
		tfb_pack(buf, bytes, n, bw, index);
		return tfb_buffer(f, buf, bytes);
	}
	for (size_t e = 0; e < n; e++)
		buf[e] = (uint8_t)tables[(channel ? channel(e) : 0) * stride + index(e)];
	return tfb_buffer(f, buf, n);
}

static size_t conv_channel(size_t e)
{
	return e / 27;
}

static size_t dw_channel(size_t e)
{
	return e % 16;
}

/* A TFLM_DECODE ancillary buffer: the DCM header and `n` table bytes. */
static uint32_t ancillary(tfb *f, unsigned bw, unsigned stride, const int8_t *tables, size_t n)
{
	uint8_t buf[16 + 256];
	tfb_dcm(buf, bw, stride);
	memcpy(buf + 16, tables, n);
	return tfb_buffer(f, buf, 16 + n);
}

uint8_t *tr_build(bool z, enum tr_defect d, size_t *len)
{
	tfb t;
	memset(&t, 0, sizeof(t));
	vta_fbb_init(&t.b);
	tfb *f = &t;
	tfb_buffer(f, NULL, 0); /* buffer 0: the empty sentinel */

	/* ---- constants ---- */
	int8_t conv_tables[8 * 8], dw_tables[16 * 4], fc_table[16];
	for (size_t c = 0; c < 8; c++)
		for (unsigned k = 0; k < 8; k++)
			conv_tables[8 * c + k] = conv_value(c, k);
	for (size_t c = 0; c < 16; c++)
		for (unsigned k = 0; k < 4; k++)
			dw_tables[4 * c + k] = dw_value(c, k);
	for (int k = 0; k < 16; k++)
		fc_table[k] = (int8_t)(5 * k - 40);
	int32_t bias[16];

	uint32_t b_pads = tfb_buffer_i32(f, (const int32_t[]){0, 0, 1, 1, 1, 1, 0, 0}, 8);
	uint32_t b_conv_w = lut_const(f, z, 216, 3, conv_index, conv_tables, 8, conv_channel);
	uint32_t b_conv_tables = z ? tfb_buffer(f, conv_tables, sizeof(conv_tables)) : 0;
	int32_t conv_b_tables[16] = {0};
	for (size_t c = 0; c < 8; c++)
		bias[c] = conv_b_tables[2 * c] = conv_bias(c);
	uint32_t b_conv_b;
	if (z) {
		uint8_t idx[1];
		tfb_pack(idx, 1, 8, 1, zero_index);
		b_conv_b = tfb_buffer(f, idx, 1);
	} else {
		b_conv_b = tfb_buffer_i32(f, bias, 8);
	}
	uint32_t b_conv_b_tables = z ? tfb_buffer_i32(f, conv_b_tables, 16) : 0;
	uint32_t b_gconv_w = lut_const(f, z, 288, 2, gconv_index, GCONV_TABLE, 4, NULL);
	uint32_t b_gconv_tables = z ? tfb_buffer(f, GCONV_TABLE, 4) : 0;
	for (int c = 0; c < 8; c++)
		bias[c] = 50 * c - 200;
	uint32_t b_gconv_b = tfb_buffer_i32(f, bias, 8);
	uint32_t b_dw_w = lut_const(f, z, 144, 2, dw_index, dw_tables, 4, dw_channel);
	uint32_t b_dw_anc = z ? ancillary(f, 2, 4, dw_tables, sizeof(dw_tables)) : 0;
	for (int c = 0; c < 16; c++)
		bias[c] = 20 * c - 150;
	uint32_t b_dw_b = tfb_buffer_i32(f, bias, 16);
	int8_t offset[16];
	for (int c = 0; c < 16; c++)
		offset[c] = (int8_t)(c * 7 % 23 - 11);
	uint32_t b_offset = tfb_buffer(f, offset, 16);
	uint32_t b_mask = lut_const(f, z, 64, 2, mask_index, MASK_TABLE, 4, NULL);
	uint32_t b_mask_anc = z ? ancillary(f, 2, 4, MASK_TABLE, 4) : 0;
	const int8_t pad_value = 5;
	uint32_t b_pad_value = d == TR_PAD_VALUE_TYPE ? tfb_buffer_i32(f, (const int32_t[]){5}, 1)
						      : tfb_buffer(f, &pad_value, 1);
	uint32_t b_pads2 = tfb_buffer_i32(f, (const int32_t[]){0, 0, 0, 1, 1, 0, 0, 0}, 8);
	uint32_t b_perm = tfb_buffer_i32(f, (const int32_t[]){0, 3, 1, 2}, 4);
	uint32_t b_axes = tfb_buffer_i32(f, (const int32_t[]){2, 3}, 2);
	uint32_t b_shape = tfb_buffer_i32(f, (const int32_t[]){1, 32}, 2);
	uint32_t b_fc_w = lut_const(f, z, 320, 4, fc_index, fc_table, 16, NULL);
	uint32_t b_fc_anc = z ? ancillary(f, 4, 16, fc_table, 16) : 0;
	for (int c = 0; c < 10; c++)
		bias[c] = 300 * c - 1500;
	uint32_t b_fc_b = tfb_buffer_i32(f, bias, 10);
	uint32_t b_compression = 0;
	if (z) {
		const uint32_t lut_tensors[3][3] = {
			{TR_CONV_W, b_conv_tables, 3},
			{TR_CONV_B, b_conv_b_tables, 1},
			{TR_GCONV_W, b_gconv_tables, 2},
		};
		b_compression = tfb_compression_metadata(f, 1, 3, lut_tensors);
	}

	/* ---- tensors ---- */
	tfb_tensor(f, TR_IMAGE, "image", F32, SHAPE(1, 8, 8, 3), 0, 0);
	tfb_tensor(f, TR_BYTES, "bytes", U8, SHAPE(16), 0, tfb_quant(f, 1, 0.05f, 128, 0));
	tfb_tensor(f, TR_QUANT, "quant", I8, SHAPE(1, 8, 8, 3), 0, tfb_quant(f, 1, 0.01f, 3, 0));
	tfb_tensor(f, TR_PADS, "paddings", I32, SHAPE(4, 2), b_pads, 0);
	tfb_tensor(f, TR_PADDED, "padded", I8, SHAPE(1, 10, 10, 3), 0,
		   tfb_quant(f, 1, 0.01f, 3, 0));
	tfb_tensor(f, TR_CONV_W, "conv_w", I8, SHAPE(8, 3, 3, 3), b_conv_w,
		   tfb_quant(f, 8, 0.01f, 0, 0));
	tfb_tensor(f, TR_CONV_B, "conv_b", I32, SHAPE(8), b_conv_b,
		   tfb_quant(f, 8, 0.0001f, 0, 0));
	tfb_tensor(f, TR_CONV, "conv", I8, SHAPE(1, 8, 8, 8), 0, tfb_quant(f, 1, 0.005f, -128, 0));
	tfb_tensor(f, TR_GCONV_W, "gconv_w", I8, SHAPE(8, 3, 3, 4), b_gconv_w,
		   tfb_quant(f, 1, 0.02f, 0, 0));
	tfb_tensor(f, TR_GCONV_B, "gconv_b", I32, SHAPE(8), b_gconv_b,
		   tfb_quant(f, 1, 0.0002f, 0, 0));
	tfb_tensor(f, TR_GCONV, "gconv", I8, SHAPE(1, 4, 4, 8), 0,
		   tfb_quant(f, 1, 0.002f, -128, 0));
	if (z)
		tfb_tensor(f, TR_DW_W, "dw_w_decoded", I8, SHAPE(1, 3, 3, 16), 0,
			   tfb_quant(f, 16, 0.01f, 0, 3));
	else
		tfb_tensor(f, TR_DW_W, "dw_w", I8, SHAPE(1, 3, 3, 16), b_dw_w,
			   tfb_quant(f, 16, 0.01f, 0, 3));
	tfb_tensor(f, TR_DW_B, "dw_b", I32, SHAPE(16), b_dw_b, tfb_quant(f, 16, 0.0001f, 0, 0));
	tfb_tensor(f, TR_DW, "dw", I8, SHAPE(1, 4, 4, 16), 0, tfb_quant(f, 1, 0.002f, 0, 0));
	tfb_tensor(f, TR_AVG, "avg", I8, SHAPE(1, 2, 2, 16), 0, tfb_quant(f, 1, 0.002f, 0, 0));
	tfb_tensor(f, TR_MAX, "max", I8, SHAPE(1, 2, 2, 16), 0, tfb_quant(f, 1, 0.002f, 0, 0));
	tfb_tensor(f, TR_SUM, "sum", I8, SHAPE(1, 2, 2, 16), 0, tfb_quant(f, 1, 0.003f, -5, 0));
	tfb_tensor(f, TR_VEC, "vec", I8, SHAPE(16), 0, tfb_quant(f, 1, 0.05f, 0, 0));
	tfb_tensor(f, TR_BSUM, "bsum", I8, SHAPE(1, 2, 2, 16), 0,
		   tfb_quant(f, 1, 0.04f, -128, 0));
	tfb_tensor(f, TR_OFFSET, "offset", I8, SHAPE(1, 1, 1, 16), b_offset,
		   tfb_quant(f, 1, 0.04f, 2, 0));
	tfb_tensor(f, TR_OSUM, "osum", I8, SHAPE(1, 2, 2, 16), 0, tfb_quant(f, 1, 0.05f, -10, 0));
	if (z)
		tfb_tensor(f, TR_MASK, "mask_decoded", I8, SHAPE(1, 2, 2, 16), 0,
			   tfb_quant(f, 1, 0.03f, 0, 0));
	else
		tfb_tensor(f, TR_MASK, "mask", I8, SHAPE(1, 2, 2, 16), b_mask,
			   tfb_quant(f, 1, 0.03f, 0, 0));
	tfb_tensor(f, TR_MSUM, "msum", I8, SHAPE(1, 2, 2, 16), 0, tfb_quant(f, 1, 0.06f, 1, 0));
	tfb_tensor(f, TR_CAT, "cat", I8, SHAPE(1, 2, 2, 32), 0, tfb_quant(f, 1, 0.06f, 1, 0));
	tfb_tensor(f, TR_PAD_VALUE, "pad_value", d == TR_PAD_VALUE_TYPE ? I32 : I8,
		   (const int32_t[]){0}, 0, b_pad_value,
		   tfb_quant(f, 1, 0.06f, d == TR_PAD_VALUE_QUANT ? 2 : 1, 0));
	tfb_tensor(f, TR_PADS2, "paddings2", I32, SHAPE(4, 2), b_pads2, 0);
	tfb_tensor(f, TR_PADDED2, "padded2", I8, SHAPE(1, 3, 3, 32), 0,
		   tfb_quant(f, 1, 0.06f, 1, 0));
	tfb_tensor(f, TR_PERM, "perm", I32, SHAPE(4), b_perm, 0);
	tfb_tensor(f, TR_TRANSPOSED, "transposed", I8, SHAPE(1, 32, 3, 3), 0,
		   tfb_quant(f, 1, 0.06f, 1, 0));
	tfb_tensor(f, TR_AXES, "axes", I32, SHAPE(2), b_axes, 0);
	tfb_tensor(f, TR_MEAN, "mean", I8, SHAPE(1, 32, 1, 1), 0, tfb_quant(f, 1, 0.03f, -4, 0));
	tfb_tensor(f, TR_SHAPE, "shape", I32, SHAPE(2), b_shape, 0);
	tfb_tensor(f, TR_FLAT, "flat", I8, SHAPE(1, 32), 0, tfb_quant(f, 1, 0.03f, -4, 0));
	if (z)
		tfb_tensor(f, TR_FC_W, "fc_w_decoded", I8, SHAPE(10, 32), 0,
			   tfb_quant(f, 1, 0.01f, 0, 0));
	else
		tfb_tensor(f, TR_FC_W, "fc_w", I8, SHAPE(10, 32), b_fc_w,
			   tfb_quant(f, 1, 0.01f, 0, 0));
	tfb_tensor(f, TR_FC_B, "fc_b", I32, SHAPE(10), b_fc_b, tfb_quant(f, 1, 0.0003f, 0, 0));
	tfb_tensor(f, TR_FC, "fc", I8, SHAPE(1, 10), 0, tfb_quant(f, 1, 0.05f, 5, 0));
	tfb_tensor(f, TR_REQ, "requantized", I8, SHAPE(1, 10), 0, tfb_quant(f, 1, 0.04f, -2, 0));
	tfb_tensor(f, TR_SOFTMAX, "softmax", I8, SHAPE(1, 10), 0,
		   tfb_quant(f, 1, 1.0f / 256, -128, 0));
	if (z) {
		tfb_tensor(f, TR_DW_ENC, "dw_w", U8, SHAPE(36), b_dw_w, 0);
		tfb_tensor(f, TR_DW_ANC, "dw_w_ancillary", U8, SHAPE(16 + 64), b_dw_anc, 0);
		tfb_tensor(f, TR_MASK_ENC, "mask", U8, SHAPE(16), b_mask, 0);
		tfb_tensor(f, TR_MASK_ANC, "mask_ancillary", U8, SHAPE(16 + 4), b_mask_anc, 0);
		tfb_tensor(f, TR_FC_ENC, "fc_w", U8, SHAPE(160), b_fc_w, 0);
		tfb_tensor(f, TR_FC_ANC, "fc_w_ancillary", U8, SHAPE(16 + 16), b_fc_anc, 0);
	}

	/* ---- operators ---- */
	tfb_op(f, OC_QUANTIZE, IO(TR_IMAGE), IO(TR_QUANT), 0, 0);
	tfb_op(f, OC_PAD, IO(TR_QUANT, TR_PADS), IO(TR_PADDED), 0, 0);
	tfb_op(f, OC_CONV, IO(TR_PADDED, TR_CONV_W, TR_CONV_B), IO(TR_CONV), 1,
	       OPTS(f, {0, VALID, 1}, {1, 1, 4}, {2, 1, 4}, {3, RELU, 1}));
	tfb_op(f, OC_CONV, IO(TR_CONV, TR_GCONV_W, TR_GCONV_B), IO(TR_GCONV), 1,
	       OPTS(f, {0, SAME, 1}, {1, 2, 4}, {2, 2, 4}, {3, RELU6, 1}, {4, 2, 4}, {5, 2, 4}));
	if (z)
		tfb_op(f, OC_DECODE, IO(TR_DW_ENC, TR_DW_ANC, TR_MASK_ENC, TR_MASK_ANC),
		       IO(TR_DW_W, TR_MASK), 0, 0);
	/* multiplier 2, dilation 2 */
	tfb_op(f, OC_DW, IO(TR_GCONV, TR_DW_W, TR_DW_B), IO(TR_DW), 2,
	       OPTS(f, {0, SAME, 1}, {1, 1, 4}, {2, 1, 4}, {3, 2, 4}, {4, RELU_N1_TO_1, 1},
		    {5, 2, 4}, {6, 2, 4}));
	/* filter 2x2 and 3x3, stride 2 */
	tfb_op(f, OC_AVG, IO(TR_DW), IO(TR_AVG), 5,
	       OPTS(f, {0, VALID, 1}, {1, 2, 4}, {2, 2, 4}, {3, 2, 4}, {4, 2, 4}));
	tfb_op(f, OC_MAX, IO(TR_DW), IO(TR_MAX), 5,
	       OPTS(f, {0, SAME, 1}, {1, 2, 4}, {2, 2, 4}, {3, 3, 4}, {4, 3, 4}, {5, RELU, 1}));
	tfb_op(f, OC_ADD, IO(TR_AVG, TR_MAX), IO(TR_SUM), 11, OPTS(f, {0, 0, 0}));
	tfb_op(f, OC_QUANTIZE, IO(TR_BYTES), IO(TR_VEC), 89, OPTS(f, {0, 0, 0}));
	tfb_op(f, OC_ADD, IO(TR_VEC, TR_SUM), IO(TR_BSUM), 11, OPTS(f, {0, RELU, 1}));
	tfb_op(f, OC_ADD, IO(TR_BSUM, TR_OFFSET), IO(TR_OSUM), 0, 0);
	tfb_op(f, OC_ADD, IO(TR_MASK, TR_OSUM), IO(TR_MSUM), 0, 0);
	tfb_op(f, OC_CONCAT, IO(TR_SUM, TR_MSUM), IO(TR_CAT), 10, OPTS(f, {0, (uint32_t)-1, 4}));
	if (d == TR_PADV2_ONE_INPUT)
		tfb_op(f, OC_PADV2, IO(TR_CAT), IO(TR_PADDED2), 0, 0);
	else
		tfb_op(f, OC_PADV2, IO(TR_CAT, TR_PADS2, TR_PAD_VALUE), IO(TR_PADDED2), 0, 0);
	tfb_op(f, OC_TRANSPOSE, IO(TR_PADDED2, TR_PERM), IO(TR_TRANSPOSED), 26, OPTS(f, {0, 0, 0}));
	tfb_op(f, OC_MEAN, IO(TR_TRANSPOSED, TR_AXES), IO(TR_MEAN), 27, OPTS(f, {0, 1, 1}));
	tfb_op(f, OC_RESHAPE, IO(TR_MEAN, TR_SHAPE), IO(TR_FLAT), 0, 0);
	if (z)
		tfb_op(f, OC_DECODE, IO(TR_FC_ENC, TR_FC_ANC), IO(TR_FC_W), 0, 0);
	tfb_op(f, OC_FC, IO(TR_FLAT, TR_FC_W, TR_FC_B), IO(TR_FC), 8, OPTS(f, {0, 0, 0}));
	tfb_op(f, OC_QUANTIZE, IO(TR_FC), IO(TR_REQ), 0, 0);
	{
		float beta = 1.0f;
		uint32_t bits;
		memcpy(&bits, &beta, 4);
		tfb_op(f, OC_SOFTMAX, IO(TR_REQ), IO(TR_SOFTMAX), 9, OPTS(f, {0, bits, 4}));
	}

	/* ---- subgraph and model ---- */
	const char *md_names[1] = {"COMPRESSION_METADATA"};
	const tfb_model_desc md = {
		.n_tensors = z ? TR_COUNT : TR_DW_ENC,
		.inputs = (const int32_t[]){TR_IMAGE, TR_BYTES}, .n_inputs = 2,
		.outputs = (const int32_t[]){TR_SOFTMAX}, .n_outputs = 1,
		.opcodes = OPCODES, .n_opcodes = z ? OC_COUNT : OC_DECODE,
		.md_names = md_names, .md_buffers = &b_compression, .n_metadata = z ? 1 : 0,
		.description = "vtasim runnable test model", .version = 3,
	};
	return tfb_model(f, &md, len);
}
