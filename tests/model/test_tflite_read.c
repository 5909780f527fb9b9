/*
 * test_tflite_read.c - the .tflite reader (runtime/tflite/tflite_model.h) on the hand-built model
 * (every typed operator, per-channel quantization on both axes, both LUT containers with
 * TFLM's own test vectors), on the real models, and every diagnostic: broken flatbuffers
 * (truncation, bad offsets, a bad identifier) and broken models (indices out of range,
 * unknown types, missing or mismatched options, unsupported compression).
 */
#include "model_test.h"

#include "fb_build.h"
#include "fb_read.h"
#include "lut_pack.h"
#include "tfl_runmodel.h"
#include "vta_config.h"

static const vta_tfl_op *find_op(const vta_tfl_model *m, int32_t builtin, int nth)
{
	for (size_t i = 0; i < m->n_ops; i++)
		if (m->ops[i].builtin == builtin && !m->ops[i].custom && nth-- == 0)
			return &m->ops[i];
	fail_msg("no operator %d", (int)builtin);
	return NULL;
}

static void test_plain_model(void **state)
{
	(void)state;
	vta_tfl_model m;
	mt_load(false, &m);
	assert_int_equal(m.version, 3);
	assert_string_equal(m.description, "vtasim test model");
	assert_string_equal(m.subgraph_name, "main");
	assert_int_equal(m.n_subgraphs, 1);
	assert_int_equal(m.n_tensors, TM_T_COUNT);
	assert_int_equal(m.n_ops, 15);
	assert_int_equal(m.n_inputs, 3);
	assert_int_equal(m.inputs[1], 28);
	assert_int_equal(m.outputs[0], 24);
	assert_int_equal(m.n_compressed, 0);
	assert_int_equal(m.n_metadata, 1);
	assert_string_equal(m.metadata[0].name, "min_runtime_version");
	assert_memory_equal(m.buffers[m.metadata[0].buffer].data, "1.5.0", 6);

	/* opcodes: the larger of the two code fields */
	assert_int_equal(m.opcodes[2].builtin, VTA_TFL_OP_CONV_2D);  /* deprecated only */
	assert_int_equal(m.opcodes[10].builtin, VTA_TFL_OP_MEAN);    /* builtin_code only */
	assert_string_equal(m.opcodes[3].custom, "TFLM_DECODE");
	assert_int_equal(m.opcodes[4].version, 2);

	/* tensors */
	const vta_tfl_tensor *w = &m.tensors[TM_T_CONV_W];
	assert_string_equal(w->name, "conv_w");
	assert_int_equal(w->type, VTA_TFL_INT8);
	assert_int_equal(w->rank, 4);
	assert_int_equal(w->shape[0], 4);
	assert_int_equal(w->count, 108);
	assert_int_equal(w->data_bytes, 108);
	for (size_t e = 0; e < 108; e++)
		assert_int_equal((int8_t)w->data[e], tm_conv_w(e));
	assert_int_equal(w->quant.count, 4);
	assert_int_equal(w->quant.axis, 0);
	assert_float_equal(w->quant.scale[3], 0.01f * 1.75f, 1e-9);
	const vta_tfl_tensor *dw = &m.tensors[TM_T_DW_ENC];
	assert_int_equal(dw->quant.count, 8);
	assert_int_equal(dw->quant.axis, 3);
	const vta_tfl_tensor *q = &m.tensors[1];
	assert_int_equal(q->quant.count, 1);
	assert_int_equal(q->quant.zero_point[0], -1);
	assert_int_equal(m.tensors[0].type, VTA_TFL_FLOAT32);
	assert_null(m.tensors[0].data);
	assert_int_equal(m.tensors[0].quant.count, 0);
	assert_int_equal(m.tensors[TM_T_INT16].type, VTA_TFL_INT16);

	/* operators and their options */
	const vta_tfl_op *op = &m.ops[2];
	assert_int_equal(op->builtin, VTA_TFL_OP_CONV_2D);
	assert_int_equal(op->n_inputs, 3);
	assert_int_equal(op->inputs[1], TM_T_CONV_W);
	assert_int_equal(op->opt.conv.padding, VTA_PADDING_VALID);
	assert_int_equal(op->opt.conv.stride_h, 1);
	assert_int_equal(op->opt.conv.dilation_w, 1); /* the default */
	assert_int_equal(op->opt.conv.activation, VTA_ACT_RELU);
	op = find_op(&m, VTA_TFL_OP_DEPTHWISE_CONV_2D, 0);
	assert_int_equal(op->opt.conv.padding, VTA_PADDING_SAME);
	assert_int_equal(op->opt.conv.stride_w, 2);
	assert_int_equal(op->opt.conv.dilation_h, 2);
	assert_int_equal(op->opt.conv.depth_multiplier, 2);
	assert_int_equal(op->opt.conv.activation, VTA_ACT_RELU6);
	op = find_op(&m, VTA_TFL_OP_AVERAGE_POOL_2D, 0);
	assert_int_equal(op->opt.pool.filter_w, 2);
	assert_int_equal(op->opt.pool.activation, VTA_ACT_NONE);
	op = find_op(&m, VTA_TFL_OP_MAX_POOL_2D, 0);
	assert_int_equal(op->opt.pool.padding, VTA_PADDING_VALID);
	assert_int_equal(op->opt.pool.activation, VTA_ACT_RELU);
	assert_int_equal(find_op(&m, VTA_TFL_OP_ADD, 0)->opt.add.activation, VTA_ACT_RELU);
	assert_int_equal(find_op(&m, VTA_TFL_OP_ADD, 1)->opt.add.activation, VTA_ACT_NONE);
	op = find_op(&m, VTA_TFL_OP_CONCATENATION, 0);
	assert_int_equal(op->opt.concat.axis, 3); /* -1 of a rank-4 output */
	assert_int_equal(find_op(&m, VTA_TFL_OP_CONCATENATION, 1)->opt.concat.axis, 0);
	assert_true(find_op(&m, VTA_TFL_OP_MEAN, 0)->opt.mean.keep_dims);
	op = find_op(&m, VTA_TFL_OP_RESHAPE, 0);
	assert_true(op->opt.reshape.has_new_shape);
	assert_int_equal(op->opt.reshape.rank, 2);
	assert_int_equal(op->opt.reshape.new_shape[1], 16);
	op = find_op(&m, VTA_TFL_OP_FULLY_CONNECTED, 0);
	assert_int_equal(op->opt.fc.activation, VTA_ACT_RELU_N1_TO_1);
	assert_true(op->opt.fc.keep_num_dims);
	assert_float_equal(find_op(&m, VTA_TFL_OP_SOFTMAX, 0)->opt.softmax.beta, 0.5, 0);
	find_op(&m, VTA_TFL_OP_PAD, 0);
	find_op(&m, VTA_TFL_OP_TRANSPOSE, 0);
	find_op(&m, VTA_TFL_OP_QUANTIZE, 0);
	vta_tfl_model_free(&m);
}

static void test_compressed_model(void **state)
{
	(void)state;
	vta_tfl_model m;
	vta_error err = {0};
	mt_load(true, &m);
	assert_int_equal(m.n_compressed, 4);
	assert_int_equal(m.n_ops, 17);
	assert_true(m.ops[3].decode);
	assert_string_equal(m.ops[3].custom, "TFLM_DECODE");

	/* COMPRESSION_METADATA, per channel on axis 0: stride = 32 table bytes / 4 channels */
	const vta_tfl_tensor *w = &m.tensors[TM_T_CONV_W];
	assert_int_equal(w->container, VTA_TFL_METADATA);
	assert_int_equal(w->lut.bitwidth, 3);
	assert_int_equal(w->lut.channels, 4);
	assert_false(w->lut.axis_last);
	assert_int_equal(w->lut.value_table_stride, 8);
	assert_int_equal(w->lut_indices, TM_T_CONV_W);
	int8_t conv[108];
	assert_int_equal(vta_tfl_tensor_decode(w, conv, sizeof(conv), &err), VTA_OK);
	for (size_t e = 0; e < 108; e++)
		assert_int_equal(conv[e], tm_conv_w(e));

	/* TFLM_DECODE, per channel on the last axis */
	const vta_tfl_tensor *dw = &m.tensors[TM_T_DW_W];
	assert_int_equal(dw->container, VTA_TFL_DECODE);
	assert_int_equal(dw->lut_indices, TM_T_DW_ENC);
	assert_int_equal(dw->lut_tables, TM_T_DW_ANC);
	assert_int_equal(dw->lut.bitwidth, 2);
	assert_int_equal(dw->lut.channels, 8);
	assert_true(dw->lut.axis_last);
	assert_int_equal(dw->lut.value_table_stride, 4);
	assert_null(dw->data);
	int8_t dwv[72];
	assert_int_equal(vta_tfl_tensor_decode(dw, dwv, sizeof(dwv), &err), VTA_OK);
	for (size_t e = 0; e < 72; e++)
		assert_int_equal(dwv[e], tm_dw_w(e));
	/* the encoded and ancillary tensors stay plain uint8 constants */
	assert_int_equal(m.tensors[TM_T_DW_ENC].container, VTA_TFL_PLAIN);
	assert_int_equal(m.tensors[TM_T_DW_ANC].type, VTA_TFL_UINT8);

	/* TFLM's own vectors: decode_test.cc (DECODE) and test_helpers.cc (metadata) */
	int8_t vec[8];
	assert_int_equal(vta_tfl_tensor_decode(&m.tensors[TM_T_VEC], vec, 8, &err), VTA_OK);
	assert_memory_equal(vec, tm_tflm_vec, 8);
	const vta_tfl_tensor *i16 = &m.tensors[TM_T_INT16];
	assert_int_equal(i16->lut.value_table_stride, 10);
	assert_int_equal(i16->lut.channels, 1);
	int16_t v16[15];
	assert_int_equal(vta_tfl_tensor_decode(i16, v16, sizeof(v16), &err), VTA_OK);
	assert_memory_equal(v16, tm_tflm_int16, sizeof(v16));

	/* a plain tensor is not decoded */
	assert_int_equal(vta_tfl_tensor_decode(&m.tensors[1], vec, 8, &err), VTA_E_USAGE);
	vta_tfl_model_free(&m);
}

static const struct {
	bool compressed;
	enum tm_defect defect;
	const char *want;
} model_errors[] = {
	{false, TM_OP_INPUT_RANGE, "test.tflite: operator 2 (CONV_2D): inputs[0]: tensor 99 is not one of the 33 tensors"},
	{false, TM_OPCODE_RANGE, "operator 0: opcode index 50 is not one of the 14 codes"},
	{false, TM_BUFFER_RANGE, "tensor 2 'paddings': buffer 999 is not one of the"},
	{false, TM_TYPE, "tensor 3 'padded': unknown tensor type 40"},
	{false, TM_RANK, "tensor 3 'padded': rank 9 above 8"},
	{false, TM_NEG_DIM, "tensor 3 'padded': dimension 1 is -2"},
	{false, TM_NO_CONV_OPTIONS, "operator 2 (CONV_2D): no Conv2DOptions"},
	{false, TM_OPTIONS_MISMATCH, /* the verifier reads the table as the Pool2DOptions its type names */
	 "flatbuffer: subgraphs[0].operators[2].builtin_options<BuiltinOptions 5>.field 3: a 4-byte scalar at byte"},
	{false, TM_TANH, "operator 2 (CONV_2D): fused activation TANH is not supported"},
	{false, TM_STRIDE_ZERO, "operator 3 (DEPTHWISE_CONV_2D): stride_h 0 below 1"},
	{false, TM_DATA_SIZE, "tensor 21 'fc_w': 159 bytes of data for 160 int8 elements"},
	{false, TM_SCHEMA_VERSION, "test.tflite: schema version 2, expected 3"},
	{false, TM_QUANT_COUNT, "tensor 4 'conv_w': quantization: 3 scales for the 4 channels of dimension 0"},
	{false, TM_SOFTMAX_BETA, "operator 12 (SOFTMAX): beta 0 is not a positive number"},
	{false, TM_CONCAT_AXIS, "operator 7 (CONCATENATION): axis 4 outside a rank-4 output"},
	{true, TM_HUFFMAN, "operator 3 (TFLM_DECODE): input 1 (tensor 8): decode type 1 (Huffman) is not supported, only LUT (0)"},
	{true, TM_DCM_VERSION, "operator 3 (TFLM_DECODE): input 1 (tensor 8): DCM version 2, LUT version 1 (expected 1, 1)"},
	{true, TM_LEGACY_BW8, "tensor 4 'conv_w' (COMPRESSION_METADATA lut_tensors[0]): LUT tensor: index bit width 8 is outside 1..7"},
	{true, TM_LEGACY_SCHEMA2, "COMPRESSION_METADATA (buffer"},
	{true, TM_DECODE_ARITY, "operator 3 (TFLM_DECODE): 3 inputs for 1 outputs"},
	{true, TM_SHORT_INDICES, "tensor 4 'conv_w' (COMPRESSION_METADATA lut_tensors[0]): LUT tensor: "},
	{true, TM_LEGACY_TENSOR, "COMPRESSION_METADATA lut_tensors[0]: tensor 70 is not one of the 33 tensors"},
	/* still checked where something reads the quantization: a decode output, a metadata
	 * container's compressed tensor */
	{true, TM_DECODED_QUANT, "tensor 9 'dw_w_decoded': quantization: 7 scales for the 8 channels of dimension 3"},
	{true, TM_QUANT_COUNT, "tensor 4 'conv_w': quantization: 3 scales for the 4 channels of dimension 0"},
};

static void test_model_errors(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(model_errors) / sizeof(model_errors[0]); i++) {
		size_t len;
		uint8_t *b = tm_build(model_errors[i].compressed, model_errors[i].defect, &len);
		assert_non_null(b);
		vta_tfl_model m;
		vta_error err = {0};
		vta_status st = vta_tfl_model_parse(b, len, "test.tflite", &m, &err);
		mt_expect_error(st, &err, model_errors[i].want);
		vta_tfl_model_free(&m);
	}
}

/* TFLM's compression tool leaves the filter's per-channel scales on the encoded uint8
 * vector; TFLM never reads them, so the reader drops them and decodes as without. */
static void test_encoded_quantization_ignored(void **state)
{
	(void)state;
	size_t len;
	uint8_t *b = tm_build(true, TM_ENCODED_QUANT, &len);
	vta_tfl_model m;
	vta_error err = {0};
	assert_int_equal(vta_tfl_model_parse(b, len, "t", &m, &err), VTA_OK);
	assert_int_equal(m.tensors[TM_T_DW_ENC].quant.count, 0);
	const vta_tfl_tensor *w = &m.tensors[TM_T_DW_W];
	assert_int_equal(w->container, VTA_TFL_DECODE);
	assert_int_equal(w->quant.count, 8);
	int8_t out[72];
	assert_int_equal(vta_tfl_tensor_decode(w, out, sizeof(out), &err), VTA_OK);
	for (size_t e = 0; e < 72; e++)
		assert_int_equal(out[e], tm_dw_w(e));
	vta_tfl_model_free(&m);
}

/* The schema version of the compression metadata: newer than 1 is refused. */
static void test_metadata_version(void **state)
{
	(void)state;
	size_t len;
	uint8_t *b = tm_build(true, TM_LEGACY_SCHEMA2, &len);
	vta_tfl_model m;
	vta_error err = {0};
	mt_expect_error(vta_tfl_model_parse(b, len, "t", &m, &err), &err,
			"schema version 2, newer than 1");
	vta_tfl_model_free(&m);
}

/* An index at or beyond its table reads fine and fails to decode, with its element. */
static void test_index_beyond_table(void **state)
{
	(void)state;
	size_t len;
	uint8_t *b = tm_build(true, TM_INDEX_BEYOND, &len);
	vta_tfl_model m;
	vta_error err = {0};
	assert_int_equal(vta_tfl_model_parse(b, len, "t", &m, &err), VTA_OK);
	int8_t out[8];
	mt_expect_error(vta_tfl_tensor_decode(&m.tensors[TM_T_VEC], out, 8, &err), &err,
			"element 3 (channel 0) has index 3, beyond");
	vta_tfl_model_free(&m);
}

/* A constant read from a model feeds the hardware decoder's packing as it is: conv_w's
 * packed filter rows, looked up in its own tables, are the decoded filter. */
static void test_feeds_hw_packing(void **state)
{
	(void)state;
	vta_tfl_model m;
	vta_error err = {0};
	mt_load(true, &m);
	vta_config cfg;
	vta_config_default(&cfg);
	assert_int_equal(vta_config_derive(&cfg, &err), VTA_OK);
	const vta_tfl_tensor *w = &m.tensors[TM_T_CONV_W];
	const vta_lut_tensor *l = &w->lut;
	uint64_t bytes = vta_lut_pack_conv_filter_bytes(&cfg, w->shape, l->bitwidth);
	uint8_t *rows = malloc(bytes);
	assert_int_equal(vta_lut_pack_conv_filter(&cfg, l, w->shape, rows, bytes, &err), VTA_OK);
	/* default config: BO = BI = 16, so one output and one input block; row (kh, kw) */
	unsigned bo = cfg.block_out, bi = cfg.block_in;
	size_t row_bytes = (bo * bi * l->bitwidth + 7) / 8;
	assert_int_equal(bytes, 9 * row_bytes);
	const int8_t *tables = l->value_table;
	for (int kh = 0; kh < 3; kh++)
		for (int kw = 0; kw < 3; kw++)
			for (unsigned o = 0; o < 4; o++)
				for (unsigned i = 0; i < 3; i++) {
					const uint8_t *row = rows + (size_t)(kh * 3 + kw) * row_bytes;
					unsigned idx = vta_lut_index(row, o * bi + i, l->bitwidth);
					size_t e = ((o * 3 + (unsigned)kh) * 3 + (unsigned)kw) * 3 + i;
					assert_int_equal(tables[o * l->value_table_stride + idx],
							 tm_conv_w(e));
				}
	free(rows);
	vta_tfl_model_free(&m);
}

/* ---- byte-level damage ---- */

/* The runnable model: its hand-written containers (COMPRESSION_METADATA for conv_w, the int32
 * conv_b and gconv_w; TFLM_DECODE with two pairs for dw_w and mask, one for fc_w) decode to
 * the plain variant's constants byte for byte, and the operators are the same. */
static void test_run_model_containers(void **state)
{
	(void)state;
	vta_tfl_model p, z;
	vta_error err = {0};
	size_t len;
	uint8_t *b = tr_build(false, TR_OK, &len);
	assert_non_null(b);
	assert_int_equal(vta_tfl_model_parse(b, len, "run_plain.tflite", &p, &err), VTA_OK);
	b = tr_build(true, TR_OK, &len);
	assert_non_null(b);
	assert_int_equal(vta_tfl_model_parse(b, len, "run_lut.tflite", &z, &err), VTA_OK);
	assert_int_equal(p.n_ops, 20);
	assert_int_equal(z.n_ops, 22);
	assert_int_equal(p.n_compressed, 0);
	assert_int_equal(z.n_compressed, 6);
	const struct { int32_t t; vta_tfl_container c; unsigned bw; } lut[] = {
		{TR_CONV_W, VTA_TFL_METADATA, 3}, {TR_CONV_B, VTA_TFL_METADATA, 1},
		{TR_GCONV_W, VTA_TFL_METADATA, 2}, {TR_DW_W, VTA_TFL_DECODE, 2},
		{TR_MASK, VTA_TFL_DECODE, 2}, {TR_FC_W, VTA_TFL_DECODE, 4},
	};
	for (size_t i = 0; i < sizeof(lut) / sizeof(lut[0]); i++) {
		const vta_tfl_tensor *tp = &p.tensors[lut[i].t], *tz = &z.tensors[lut[i].t];
		assert_int_equal(tz->container, lut[i].c);
		assert_int_equal(tz->lut.bitwidth, lut[i].bw);
		assert_int_equal(tz->type, tp->type);
		assert_int_equal(tz->count, tp->count);
		assert_int_equal(tz->quant.count, tp->quant.count);
		size_t n = tp->data_bytes;
		uint8_t out[512];
		assert_true(n <= sizeof(out));
		assert_int_equal(vta_tfl_tensor_decode(tz, out, n, &err), VTA_OK);
		assert_memory_equal(out, tp->data, n);
	}
	/* the same operators, the two DECODEs left out */
	for (size_t i = 0, k = 0; i < z.n_ops; i++) {
		if (z.ops[i].decode)
			continue;
		assert_int_equal(z.ops[i].builtin, p.ops[k].builtin);
		assert_memory_equal(z.ops[i].outputs, p.ops[k].outputs, sizeof(int32_t));
		k++;
	}
	/* the options the runner reads */
	assert_int_equal(p.ops[3].opt.conv.stride_h, 2);
	assert_int_equal(p.ops[4].opt.conv.depth_multiplier, 2);
	assert_int_equal(p.ops[4].opt.conv.dilation_w, 2);
	assert_int_equal(p.ops[4].opt.conv.activation, VTA_ACT_RELU_N1_TO_1);
	assert_int_equal(p.ops[12].opt.concat.axis, 3);
	assert_int_equal(p.ops[13].builtin, 60 /* PADV2 */);
	assert_int_equal(p.tensors[TR_PAD_VALUE].rank, 0);
	assert_int_equal(p.tensors[TR_PAD_VALUE].count, 1);
	vta_tfl_model_free(&p);
	vta_tfl_model_free(&z);
}

/* PADV2 takes its input, the paddings and an optional value: with fewer, the runner would
 * read past the operator's inputs. */
static void test_padv2_inputs(void **state)
{
	(void)state;
	vta_tfl_model m;
	vta_error err = {0};
	size_t len;
	uint8_t *b = tr_build(false, TR_PADV2_ONE_INPUT, &len);
	assert_non_null(b);
	mt_expect_error(vta_tfl_model_parse(b, len, "run.tflite", &m, &err), &err,
			"run.tflite: operator 13 (PADV2): 1 inputs, expected 2 to 3");
	vta_tfl_model_free(&m);
}

static vta_status parse_bytes(const uint8_t *src, size_t len, vta_error *err)
{
	uint8_t *copy = malloc(len ? len : 1);
	assert_non_null(copy);
	memcpy(copy, src, len);
	vta_tfl_model m;
	vta_status st = vta_tfl_model_parse(copy, len, "bad.tflite", &m, err);
	vta_tfl_model_free(&m);
	return st;
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void test_truncated(void **state)
{
	(void)state;
	size_t len;
	uint8_t *b = tm_build(true, TM_OK, &len);
	vta_error err = {0};
	mt_expect_error(parse_bytes(b, 0, &err), &err, "bad.tflite: not a TFLite model: 0 bytes: too short");
	mt_expect_error(parse_bytes(b, 7, &err), &err, "7 bytes: too short for a flatbuffer");
	/* every other prefix: refused with one line, or (a prefix that happens to hold the
	 * whole model) read; never a read past it (ASan watches) */
	size_t refused = 0;
	for (size_t n = 8; n < len; n++) {
		vta_error e = {0};
		vta_status st = parse_bytes(b, n, &e);
		if (st != VTA_OK) {
			assert_null(strchr(e.detail, '\n'));
			assert_true(strncmp(e.detail, "bad.tflite: ", 12) == 0);
			refused++;
		}
	}
	assert_true(refused > len - 64);
	assert_int_not_equal(parse_bytes(b, len / 2, &err), VTA_OK);
	assert_true(strstr(err.detail, "runs past the end") ||
		    strstr(err.detail, "outside the buffer"));
	free(b);
}

static void test_bad_offsets(void **state)
{
	(void)state;
	size_t len;
	uint8_t *b = tm_build(false, TM_OK, &len);
	uint8_t *m = malloc(len);
	vta_error err = {0};

	memcpy(m, b, len);
	memcpy(m + 4, "TFL2", 4);
	mt_expect_error(parse_bytes(m, len, &err), &err, "not a TFLite model: no 'TFL3' file identifier");

	memcpy(m, b, len);
	put32(m, 0xffffff00u);
	mt_expect_error(parse_bytes(m, len, &err), &err, "not a TFLite model: table at byte 4294967040");

	memcpy(m, b, len);
	uint32_t root = (uint32_t)(b[0] | b[1] << 8 | b[2] << 16 | (uint32_t)b[3] << 24);
	put32(m + root, 0x7fffffffu); /* the root table's vtable far before the file */
	mt_expect_error(parse_bytes(m, len, &err), &err, "vtable offset 2147483647 points outside the buffer");

	/* subgraph 0's tensor vector claims 2^31 - 1 elements */
	vta_fb fb = {b, len};
	vta_fb_table t, sg;
	vta_fb_vec v;
	assert_int_equal(vta_fb_root(&fb, "TFL3", &t, &err), VTA_OK);
	assert_int_equal(vta_fb_vector(&fb, &t, 2, 4, &v, &err), VTA_OK);
	assert_int_equal(vta_fb_vec_table(&fb, &v, 0, &sg, &err), VTA_OK);
	assert_int_equal(vta_fb_vector(&fb, &sg, 0, 4, &v, &err), VTA_OK);
	memcpy(m, b, len);
	put32(m + v.pos - 4, 0x7fffffffu);
	mt_expect_error(parse_bytes(m, len, &err), &err,
			"flatbuffer: subgraphs[0].tensors: vector at byte");

	/* tensor 0's table offset points past the end */
	memcpy(m, b, len);
	put32(m + v.pos, (uint32_t)len);
	mt_expect_error(parse_bytes(m, len, &err), &err,
			"flatbuffer: subgraphs[0].tensors[0]: offset");

	/* tensor 1's name loses its NUL */
	vta_fb_table t1;
	const char *s;
	size_t n;
	assert_int_equal(vta_fb_vec_table(&fb, &v, 1, &t1, &err), VTA_OK);
	assert_int_equal(vta_fb_string(&fb, &t1, 3, &s, &n, &err), VTA_OK);
	memcpy(m, b, len);
	m[(const uint8_t *)s - b + n] = 'x';
	mt_expect_error(parse_bytes(m, len, &err), &err, "flatbuffer: subgraphs[0].tensors[1].name: string at byte");
	free(m);
	free(b);
}

/* A model whose subgraph lists `n` tensors that are all the same table: the verifier counts
 * the tables it visits, so shared children cannot make its walk long. */
static void test_shared_tables(void **state)
{
	(void)state;
	const size_t n = 1000001;
	vta_fbb b;
	vta_fbb_init(&b);
	const int32_t one = 1;
	vta_fbb_ref shape = vta_fbb_vector(&b, &one, 1, 4, 0);
	vta_fbb_start(&b);
	vta_fbb_ref_field(&b, 0 /* shape */, shape);
	vta_fbb_scalar(&b, 1 /* type */, 9 /* int8 */, 1);
	vta_fbb_ref tensor = vta_fbb_end(&b);
	vta_fbb_ref *refs = malloc(n * sizeof(*refs));
	assert_non_null(refs);
	for (size_t i = 0; i < n; i++)
		refs[i] = tensor;
	vta_fbb_ref tv = vta_fbb_ref_vector(&b, refs, n);
	free(refs);
	vta_fbb_start(&b);
	vta_fbb_ref_field(&b, 0 /* tensors */, tv);
	vta_fbb_ref sg = vta_fbb_end(&b);
	vta_fbb_ref sgs = vta_fbb_ref_vector(&b, &sg, 1);
	vta_fbb_start(&b);
	vta_fbb_ref buf0 = vta_fbb_end(&b);
	vta_fbb_ref bufs = vta_fbb_ref_vector(&b, &buf0, 1);
	vta_fbb_start(&b);
	vta_fbb_scalar(&b, 0 /* version */, 3, 4);
	vta_fbb_ref_field(&b, 2 /* subgraphs */, sgs);
	vta_fbb_ref_field(&b, 4 /* buffers */, bufs);
	vta_fbb_ref root = vta_fbb_end(&b);
	uint8_t *bytes;
	size_t len;
	vta_error err = {0};
	assert_int_equal(vta_fbb_finish(&b, root, "TFL3", &bytes, &len, &err), VTA_OK);
	mt_expect_error(parse_bytes(bytes, len, &err), &err,
			"flatbuffer: subgraphs[0].tensors[999998]: more than 1000000 tables");
	free(bytes);
}

/* ---- real models ---- */

static void test_real_models(void **state)
{
	(void)state;
	vta_tfl_model m;
	mt_load_file(MT_DATA "person_detect.tflite", &m);
	assert_int_equal(m.n_ops, 31);
	assert_int_equal(m.n_tensors, 89);
	assert_int_equal(m.ops[0].builtin, VTA_TFL_OP_DEPTHWISE_CONV_2D);
	assert_int_equal(m.ops[0].opt.conv.depth_multiplier, 8);
	assert_int_equal(m.ops[0].opt.conv.stride_h, 2);
	assert_int_equal(m.ops[27].builtin, VTA_TFL_OP_AVERAGE_POOL_2D);
	assert_int_equal(m.ops[27].opt.pool.filter_h, 3);
	assert_int_equal(m.ops[30].builtin, VTA_TFL_OP_SOFTMAX);
	assert_int_equal(m.tensors[m.inputs[0]].shape[1], 96);
	/* a bias whose quantized_dimension (3) exceeds its rank: its one dimension */
	assert_int_equal(m.tensors[33].quant.axis, 0);
	vta_tfl_model_free(&m);

	mt_load_file(MT_DATA "micro_speech_quantized.tflite", &m);
	assert_int_equal(m.n_ops, 4);
	assert_int_equal(m.ops[0].opt.reshape.new_shape[0], -1);
	assert_int_equal(m.ops[2].builtin, VTA_TFL_OP_FULLY_CONNECTED);
	vta_tfl_model_free(&m);

	mt_load_file(MT_DATA "keyword_scrambled_8bit.tflite", &m);
	assert_int_equal(m.n_ops, 15);
	assert_int_equal(m.ops[0].builtin, VTA_TFL_OP_QUANTIZE);
	assert_int_equal(m.ops[1].builtin, VTA_TFL_OP_SVDF);
	assert_int_equal(m.ops[1].opt.svdf.rank, 1);
	assert_int_equal(m.ops[1].opt.svdf.activation, 1); /* RELU, which TFLM's int8 SVDF ignores */
	assert_true(m.tensors[4].is_variable);
	vta_tfl_model_free(&m);

	mt_load_file(MT_DATA "simple_add_model.tflite", &m);
	assert_int_equal(m.n_ops, 1);
	assert_int_equal(m.n_inputs, 2);
	vta_tfl_model_free(&m);

	char buf[512];
	const char *big = mt_big_model("mobilenet_v2_quantized_1x3x224x224.tflite", buf, sizeof(buf));
	if (!big)
		return;
	mt_load_file(big, &m);
	assert_int_equal(m.n_ops, 84);
	size_t pads = 0, adds = 0;
	for (size_t i = 0; i < m.n_ops; i++) {
		pads += m.ops[i].builtin == VTA_TFL_OP_PAD;
		adds += m.ops[i].builtin == VTA_TFL_OP_ADD;
	}
	assert_int_equal(pads, 18);
	assert_int_equal(adds, 10);
	assert_int_equal(m.ops[0].builtin, VTA_TFL_OP_TRANSPOSE);
	vta_tfl_model_free(&m);
}

static void test_load_missing(void **state)
{
	(void)state;
	vta_tfl_model m;
	vta_error err = {0};
	vta_status st = vta_tfl_model_load("tests/model/data/nothing.tflite", &m, &err);
	assert_int_equal(st, VTA_E_IO);
	assert_non_null(strstr(err.detail, "nothing.tflite"));
	vta_tfl_model_free(&m);
}

static void test_names(void **state)
{
	(void)state;
	char buf[24];
	assert_string_equal(vta_tfl_op_name(3, buf, sizeof(buf)), "CONV_2D");
	assert_string_equal(vta_tfl_op_name(114, buf, sizeof(buf)), "QUANTIZE");
	assert_string_equal(vta_tfl_op_name(209, buf, sizeof(buf)), "STABLEHLO_CASE");
	assert_string_equal(vta_tfl_op_name(900, buf, sizeof(buf)), "BUILTIN_900");
	assert_string_equal(vta_tfl_type_name(VTA_TFL_INT8), "int8");
	assert_int_equal(vta_tfl_type_size(VTA_TFL_INT64), 8);
	assert_int_equal(vta_tfl_type_size(VTA_TFL_INT4), 0);
	vta_lut_type lt;
	assert_true(vta_tfl_lut_type(VTA_TFL_FLOAT32, &lt));
	assert_int_equal(lt, VTA_LUT_FLOAT32);
	assert_false(vta_tfl_lut_type(VTA_TFL_UINT8, &lt));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_model),
		cmocka_unit_test(test_compressed_model),
		cmocka_unit_test(test_model_errors),
		cmocka_unit_test(test_metadata_version),
		cmocka_unit_test(test_encoded_quantization_ignored),
		cmocka_unit_test(test_index_beyond_table),
		cmocka_unit_test(test_feeds_hw_packing),
		cmocka_unit_test(test_run_model_containers),
		cmocka_unit_test(test_padv2_inputs),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_bad_offsets),
		cmocka_unit_test(test_shared_tables),
		cmocka_unit_test(test_real_models),
		cmocka_unit_test(test_load_missing),
		cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
