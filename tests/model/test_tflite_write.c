/*
 * test_tflite_write.c - the .tflite writer and compressor (runtime/tflite/tflite_write.h,
 * tflite_compress.h): rewriting a model unchanged reads back equal, buffers 16-byte aligned
 * and the offset/size form inlined; compressing in either container reads back with the
 * layout TFLM's tools write and decodes to the constants binned independently here; every
 * refusal of the compressor has its message.
 */
#include "model_test.h"

#include "fb_build.h"
#include "tflite_compress.h"
#include "tflite_write.h"

/* ---- equality of two models as the reader sees them ---- */

static void expect_same_tensor(const vta_tfl_tensor *a, const vta_tfl_tensor *b)
{
	assert_string_equal(a->name, b->name);
	assert_int_equal(a->type, b->type);
	assert_int_equal(a->rank, b->rank);
	assert_memory_equal(a->shape, b->shape, sizeof(a->shape));
	assert_int_equal(a->buffer, b->buffer);
	assert_int_equal(a->data_bytes, b->data_bytes);
	if (a->data_bytes)
		assert_memory_equal(a->data, b->data, a->data_bytes);
	assert_int_equal(a->is_variable, b->is_variable);
	assert_int_equal(a->quant.count, b->quant.count);
	assert_int_equal(a->quant.zero_point_count, b->quant.zero_point_count);
	assert_int_equal(a->quant.axis, b->quant.axis);
	if (a->quant.count)
		assert_memory_equal(a->quant.scale, b->quant.scale, a->quant.count * 4);
	if (a->quant.zero_point_count)
		assert_memory_equal(a->quant.zero_point, b->quant.zero_point,
				    a->quant.zero_point_count * 8);
	assert_int_equal(a->container, b->container);
	if (a->container != VTA_TFL_PLAIN) {
		size_t bytes = a->count * vta_tfl_type_size(a->type);
		uint8_t *x = malloc(bytes), *y = malloc(bytes);
		vta_error err = {0};
		assert_int_equal(vta_tfl_tensor_decode(a, x, bytes, &err), VTA_OK);
		assert_int_equal(vta_tfl_tensor_decode(b, y, bytes, &err), VTA_OK);
		assert_memory_equal(x, y, bytes);
		free(x);
		free(y);
	}
}

static void expect_same_model(const vta_tfl_model *a, const vta_tfl_model *b)
{
	assert_int_equal(a->version, b->version);
	assert_string_equal(a->description, b->description);
	assert_string_equal(a->subgraph_name, b->subgraph_name);
	assert_int_equal(a->n_subgraphs, b->n_subgraphs);
	assert_int_equal(a->n_buffers, b->n_buffers);
	assert_int_equal(a->n_tensors, b->n_tensors);
	assert_int_equal(a->n_ops, b->n_ops);
	assert_int_equal(a->n_opcodes, b->n_opcodes);
	assert_int_equal(a->n_metadata, b->n_metadata);
	assert_int_equal(a->n_compressed, b->n_compressed);
	assert_int_equal(a->n_inputs, b->n_inputs);
	assert_int_equal(a->n_outputs, b->n_outputs);
	assert_memory_equal(a->inputs, b->inputs, a->n_inputs * 4);
	assert_memory_equal(a->outputs, b->outputs, a->n_outputs * 4);
	for (size_t i = 0; i < a->n_opcodes; i++) {
		assert_int_equal(a->opcodes[i].builtin, b->opcodes[i].builtin);
		assert_int_equal(a->opcodes[i].version, b->opcodes[i].version);
		assert_int_equal(!a->opcodes[i].custom, !b->opcodes[i].custom);
	}
	for (size_t i = 0; i < a->n_tensors; i++)
		expect_same_tensor(&a->tensors[i], &b->tensors[i]);
	for (size_t i = 0; i < a->n_ops; i++) {
		const vta_tfl_op *x = &a->ops[i], *y = &b->ops[i];
		assert_int_equal(x->builtin, y->builtin);
		assert_int_equal(x->opcode_index, y->opcode_index);
		assert_int_equal(x->n_inputs, y->n_inputs);
		assert_int_equal(x->n_outputs, y->n_outputs);
		assert_memory_equal(x->inputs, y->inputs, x->n_inputs * 4);
		assert_memory_equal(x->outputs, y->outputs, x->n_outputs * 4);
		assert_memory_equal(&x->opt, &y->opt, sizeof(x->opt));
	}
	for (size_t i = 0; i < a->n_metadata; i++) {
		assert_string_equal(a->metadata[i].name, b->metadata[i].name);
		const vta_tfl_buffer *x = &a->buffers[a->metadata[i].buffer];
		const vta_tfl_buffer *y = &b->buffers[b->metadata[i].buffer];
		assert_int_equal(x->bytes, y->bytes);
		if (x->bytes && strcmp(a->metadata[i].name, "COMPRESSION_METADATA"))
			assert_memory_equal(x->data, y->data, x->bytes);
	}
}

/* Every buffer's data starts 16-byte aligned in the file (the schema's force_align). */
static void expect_aligned(const vta_tfl_model *m)
{
	for (size_t i = 0; i < m->n_buffers; i++)
		if (m->buffers[i].data)
			assert_int_equal((size_t)(m->buffers[i].data - m->image) % 16, 0);
}

static void rewrite(const vta_tfl_model *m, const vta_tfl_patch *p, vta_tfl_model *back)
{
	uint8_t *out;
	size_t len;
	vta_error err = {0};
	if (vta_tfl_write(m, p, &out, &len, &err) != VTA_OK)
		fail_msg("%s", err.detail);
	if (vta_tfl_model_parse(out, len, "rewritten.tflite", back, &err) != VTA_OK)
		fail_msg("%s", err.detail);
	expect_aligned(back);
}

static void roundtrip_file(const char *path)
{
	vta_tfl_model m, back;
	mt_load_file(path, &m);
	rewrite(&m, NULL, &back);
	expect_same_model(&m, &back);
	/* within a few bytes of padding per buffer of the converter's own layout */
	assert_true(back.image_bytes <= m.image_bytes + 16 * m.n_buffers + 256);
	vta_tfl_model_free(&back);
	vta_tfl_model_free(&m);
}

static void test_roundtrip(void **state)
{
	(void)state;
	for (int z = 0; z < 2; z++) {
		vta_tfl_model m, back;
		mt_load(z, &m);
		rewrite(&m, NULL, &back);
		expect_same_model(&m, &back);
		vta_tfl_model_free(&back);
		vta_tfl_model_free(&m);
	}
	roundtrip_file(MT_DATA "person_detect.tflite");
	roundtrip_file(MT_DATA "micro_speech_quantized.tflite");
	roundtrip_file(MT_DATA "keyword_scrambled_8bit.tflite");
	roundtrip_file(MT_DATA "simple_add_model.tflite");
	char buf[512];
	const char *big = mt_big_model("mobilenet_v2_quantized_1x3x224x224.tflite", buf, sizeof(buf));
	if (big)
		roundtrip_file(big);
}

/* A one-tensor model whose buffer 1 lies past the flatbuffer (the form of models above
 * 2 GiB): Buffer{offset, size}. `extra` more bytes are claimed than the file holds. */
static uint8_t *offset_model(size_t extra, size_t *len)
{
	vta_fbb b;
	vta_fbb_init(&b);
	vta_fbb_start(&b);
	vta_fbb_ref empty = vta_fbb_end(&b);
	/* the offset is patched in below: a placeholder of the right width */
	vta_fbb_start(&b);
	vta_fbb_scalar(&b, 1 /* offset */, 0x1111111111111111ull, 8);
	vta_fbb_scalar(&b, 2 /* size */, 4 + extra, 8);
	vta_fbb_ref ext = vta_fbb_end(&b);
	vta_fbb_ref bufs = vta_fbb_ref_vector(&b, (vta_fbb_ref[]){empty, ext}, 2);
	vta_fbb_ref shape = vta_fbb_vector(&b, (const uint8_t[]){4, 0, 0, 0}, 1, 4, 0);
	vta_fbb_start(&b);
	vta_fbb_ref_field(&b, 0 /* shape */, shape);
	vta_fbb_scalar(&b, 1 /* type */, 9 /* int8 */, 1);
	vta_fbb_scalar(&b, 2 /* buffer */, 1, 4);
	vta_fbb_ref t = vta_fbb_end(&b);
	vta_fbb_ref tv = vta_fbb_ref_vector(&b, &t, 1);
	vta_fbb_start(&b);
	vta_fbb_ref_field(&b, 0 /* tensors */, tv);
	vta_fbb_ref sg = vta_fbb_end(&b);
	vta_fbb_ref sgs = vta_fbb_ref_vector(&b, &sg, 1);
	vta_fbb_start(&b);
	vta_fbb_scalar(&b, 0 /* version */, 3, 4);
	vta_fbb_ref_field(&b, 2 /* subgraphs */, sgs);
	vta_fbb_ref_field(&b, 4 /* buffers */, bufs);
	vta_fbb_ref root = vta_fbb_end(&b);
	uint8_t *fbuf;
	size_t n;
	vta_error err = {0};
	assert_int_equal(vta_fbb_finish(&b, root, "TFL3", &fbuf, &n, &err), VTA_OK);
	uint8_t *file = malloc(n + 4);
	memcpy(file, fbuf, n);
	memcpy(file + n, (const uint8_t[]){5, 6, 7, 8}, 4);
	for (size_t i = 0; i + 8 <= n; i++)
		if (!memcmp(file + i, "\x11\x11\x11\x11\x11\x11\x11\x11", 8))
			for (int k = 0; k < 8; k++)
				file[i + (size_t)k] = (uint8_t)((uint64_t)n >> (8 * k));
	free(fbuf);
	*len = n + 4;
	return file;
}

static void test_offset_buffers(void **state)
{
	(void)state;
	size_t len;
	uint8_t *file = offset_model(0, &len);
	vta_tfl_model m, back;
	vta_error err = {0};
	assert_int_equal(vta_tfl_model_parse(file, len, "big.tflite", &m, &err), VTA_OK);
	assert_true(m.buffers[1].external);
	assert_int_equal(m.tensors[0].data_bytes, 4);
	assert_memory_equal(m.tensors[0].data, "\5\6\7\10", 4);
	rewrite(&m, NULL, &back); /* inlined */
	assert_false(back.buffers[1].external);
	assert_memory_equal(back.tensors[0].data, "\5\6\7\10", 4);
	vta_tfl_model_free(&back);
	vta_tfl_model_free(&m);

	file = offset_model(1, &len);
	mt_expect_error(vta_tfl_model_parse(file, len, "big.tflite", &m, &err), &err,
			"big.tflite: buffer 1: 5 bytes at offset");
	assert_non_null(strstr(err.detail, "run past the end of the file"));
	vta_tfl_model_free(&m);
}

static void test_patch_errors(void **state)
{
	(void)state;
	vta_tfl_model m;
	mt_load(false, &m);
	uint8_t *out;
	size_t len;
	vta_error err = {0};
	vta_tfl_blob blob = {999, (const uint8_t *)"x", 1};
	vta_tfl_patch p = {.n_set_buffers = 1, .set_buffers = &blob};
	assert_int_equal(vta_tfl_write(&m, &p, &out, &len, &err), VTA_E_USAGE);
	assert_non_null(strstr(err.detail, "writing the patch: buffer 999 out of range"));
	vta_tfl_rewire rw = {0, 5, 1};
	vta_tfl_patch p2 = {.n_rewires = 1, .rewires = &rw};
	assert_int_equal(vta_tfl_write(&m, &p2, &out, &len, &err), VTA_E_USAGE);
	assert_non_null(strstr(err.detail, "rewire 0 out of range"));
	vta_tfl_model_free(&m);
}

/* ---- compression ---- */

static void spec_parse(const char *text, vta_lut_spec *spec)
{
	vta_error err = {0};
	if (vta_lut_spec_parse(text, "spec.yaml", spec, &err) != VTA_OK)
		fail_msg("%s", err.detail);
}

/* `tensors:` items for the listed (tensor, width) pairs. */
static void spec_of(const uint32_t (*items)[2], size_t n, vta_lut_spec *spec)
{
	char text[4096];
	size_t at = (size_t)snprintf(text, sizeof(text), "tensors:\n");
	for (size_t i = 0; i < n; i++)
		at += (size_t)snprintf(text + at, sizeof(text) - at,
				       "  - subgraph: 0\n    tensor: %u\n    compression:\n"
				       "      - lut:\n          index_bitwidth: %u\n",
				       items[i][0], items[i][1]);
	spec_parse(text, spec);
}

/* Tensor t of m as it must decode after compression at `bits`: its data (little-endian
 * file bytes, host order here), binned per channel where it holds too many values. */
static void *expected_values(const vta_tfl_model *m, uint32_t ti, unsigned bits)
{
	const vta_tfl_tensor *t = &m->tensors[ti];
	size_t esz = vta_tfl_type_size(t->type);
	uint8_t *v = malloc(t->data_bytes);
	memcpy(v, t->data, t->data_bytes); /* host order: the tests run little-endian */
	size_t ch = t->quant.count > 1 ? t->quant.count : 1;
	bool last = t->quant.count > 1 && t->quant.axis != 0;
	vta_lut_bin_report rep;
	vta_error err = {0};
	if (t->type == VTA_TFL_INT8)
		assert_int_equal(vta_lut_bin_i8((int8_t *)v, (int8_t *)v, t->count, ch, last, bits,
						VTA_LUT_BIN_KMEANS, &rep, &err), VTA_OK);
	(void)esz;
	return v;
}

/* Compress m by spec in container c; check the result against independently binned data. */
static void compress_check(const vta_tfl_model *m, const uint32_t (*items)[2], size_t n,
			   vta_tfl_container c, vta_tfl_model *back, vta_tfl_compress_report *rep)
{
	vta_lut_spec spec;
	spec_of(items, n, &spec);
	vta_tfl_compress_options o;
	vta_tfl_compress_defaults(&o);
	o.container = c;
	uint8_t *out;
	size_t len;
	vta_error err = {0};
	if (vta_tfl_compress(m, &spec, "spec.yaml", &o, &out, &len, rep, &err) != VTA_OK)
		fail_msg("%s", err.detail);
	if (vta_tfl_model_parse(out, len, "compressed.tflite", back, &err) != VTA_OK)
		fail_msg("%s", err.detail);
	expect_aligned(back);
	assert_int_equal(back->n_compressed, n);
	assert_int_equal(rep->n, n);
	for (size_t i = 0; i < n; i++) {
		uint32_t ti = items[i][0];
		const vta_tfl_tensor *src = &m->tensors[ti];
		const vta_tfl_tensor *t = NULL;
		for (size_t k = 0; k < back->n_tensors && !t; k++)
			if (back->tensors[k].container == c && back->tensors[k].lut_indices == (int32_t)ti)
				t = &back->tensors[k];
		assert_non_null(t);
		assert_int_equal(t->type, src->type);
		assert_int_equal(t->rank, src->rank);
		assert_memory_equal(t->shape, src->shape, sizeof(t->shape));
		assert_int_equal(t->quant.count, src->quant.count);
		assert_int_equal(t->lut.bitwidth, items[i][1]);
		assert_int_equal(t->lut.value_table_stride, 1u << items[i][1]);
		void *want = expected_values(m, ti, items[i][1]);
		uint8_t *got = malloc(src->data_bytes);
		assert_int_equal(vta_tfl_tensor_decode(t, got, src->data_bytes, &err), VTA_OK);
		assert_memory_equal(got, want, src->data_bytes);
		free(got);
		free(want);
		if (c == VTA_TFL_DECODE) {
			/* the encoded tensor: uint8 indices, no quantization */
			const vta_tfl_tensor *e = &back->tensors[ti];
			assert_int_equal(e->type, VTA_TFL_UINT8);
			assert_int_equal(e->rank, 1);
			assert_int_equal(e->shape[0], (int32_t)rep->tensors[i].index_bytes);
			assert_int_equal(e->quant.count, 0);
			assert_int_equal(back->tensors[t->lut_tables].data[1], 1); /* DCM version */
		} else {
			assert_int_equal(t - back->tensors, ti);
		}
	}
	vta_lut_spec_free(&spec);
}

/* Each DECODE output is read by the first other operator after it (the DECODEs of one
 * consumer go in a row before it), and only there. */
static void expect_decode_layout(const vta_tfl_model *m)
{
	for (size_t k = 0; k < m->n_ops; k++) {
		if (!m->ops[k].decode)
			continue;
		size_t consumer = k + 1;
		while (consumer < m->n_ops && m->ops[consumer].decode)
			consumer++;
		assert_true(consumer < m->n_ops);
		int32_t out = m->ops[k].outputs[0];
		size_t readers = 0;
		for (size_t j = 0; j < m->n_ops; j++)
			for (size_t s = 0; s < m->ops[j].n_inputs; s++)
				if (m->ops[j].inputs[s] == out) {
					assert_int_equal(j, consumer);
					readers++;
				}
		assert_true(readers >= 1);
	}
}

static const uint32_t test_items[][2] = {
	{TM_T_CONV_W, 3}, {TM_T_DW_ENC, 2}, {TM_T_FC_W, 2}, {TM_T_FC_B, 4}, {TM_T_INT16, 4},
	{TM_T_VEC_ENC, 2},
};

static void test_compress_decode(void **state)
{
	(void)state;
	vta_tfl_model m, back;
	vta_tfl_compress_report rep;
	mt_load(false, &m);
	compress_check(&m, test_items, 6, VTA_TFL_DECODE, &back, &rep);
	assert_int_equal(back.n_ops, m.n_ops + 6);
	assert_int_equal(back.n_opcodes, m.n_opcodes); /* its TFLM_DECODE code reused */
	assert_int_equal(back.n_tensors, m.n_tensors + 12);
	expect_decode_layout(&back);
	/* the report */
	assert_int_equal(rep.tensors[0].channels, 4);
	assert_false(rep.tensors[0].axis_last);
	assert_false(rep.tensors[0].binned);
	assert_int_equal(rep.tensors[0].max_unique, 6);
	assert_int_equal(rep.tensors[1].channels, 8);
	assert_true(rep.tensors[1].axis_last);
	assert_true(rep.tensors[2].binned); /* fc_w: 160 values into 2 bits */
	assert_int_equal(rep.tensors[2].bin.max_values, 4);
	assert_int_equal(rep.tensors[2].index_bytes, 40);
	assert_int_equal(rep.tensors[2].table_bytes, 4);
	assert_int_equal(rep.tensors[3].table_bytes, 16 * 4);
	assert_int_equal(rep.tensors[2].copies, 1);
	assert_int_equal(rep.in_bytes, m.image_bytes);
	assert_int_equal(rep.out_bytes, back.image_bytes);
	/* names as TFLM's tool gives them */
	assert_string_equal(back.tensors[m.n_tensors].name, "conv_w_ancillary");
	assert_string_equal(back.tensors[m.n_tensors + 1].name, "conv_w_decoded");
	vta_tfl_compress_report_free(&rep);
	/* the compressed model rewrites unchanged too */
	vta_tfl_model again;
	rewrite(&back, NULL, &again);
	expect_same_model(&back, &again);
	vta_tfl_model_free(&again);
	vta_tfl_model_free(&back);
	vta_tfl_model_free(&m);
}

static void test_compress_metadata(void **state)
{
	(void)state;
	vta_tfl_model m, back;
	vta_tfl_compress_report rep;
	mt_load(false, &m);
	compress_check(&m, test_items, 5, VTA_TFL_METADATA, &back, &rep);
	assert_int_equal(back.n_ops, m.n_ops);
	assert_int_equal(back.n_tensors, m.n_tensors);
	assert_int_equal(back.n_metadata, 2);
	assert_string_equal(back.metadata[1].name, "COMPRESSION_METADATA");
	assert_int_equal(back.n_buffers, m.n_buffers + 6); /* 5 tables and the metadata */
	vta_tfl_compress_report_free(&rep);
	vta_tfl_model_free(&back);
	vta_tfl_model_free(&m);
}

static void compress_error(bool compressed, enum tm_defect defect, const char *spec_text,
			   vta_tfl_container c, bool bin, const char *want)
{
	size_t len;
	uint8_t *b = tm_build(compressed, defect, &len);
	vta_tfl_model m;
	vta_error err = {0};
	if (vta_tfl_model_parse(b, len, "test.tflite", &m, &err) != VTA_OK)
		fail_msg("%s", err.detail);
	vta_lut_spec spec;
	spec_parse(spec_text, &spec);
	vta_tfl_compress_options o;
	vta_tfl_compress_defaults(&o);
	o.container = c;
	o.bin = bin;
	uint8_t *out = NULL;
	mt_expect_error(vta_tfl_compress(&m, &spec, "spec.yaml", &o, &out, &len, NULL, &err),
			&err, want);
	assert_null(out);
	vta_lut_spec_free(&spec);
	vta_tfl_model_free(&m);
}

#define ONE(t, b) "tensors:\n  - subgraph: 0\n    tensor: " #t "\n    compression:\n" \
		  "      - lut:\n          index_bitwidth: " #b "\n"

static void test_compress_errors(void **state)
{
	(void)state;
	const vta_tfl_container D = VTA_TFL_DECODE, M = VTA_TFL_METADATA;
	compress_error(false, TM_OK, ONE(99, 4), D, true, "spec.yaml:2:5: tensor 99: the model has 33 tensors");
	compress_error(false, TM_OK,
		       "tensors:\n  - {subgraph: 1, tensor: 4, compression: [{lut: {index_bitwidth: 4}}]}\n",
		       D, true, "spec.yaml:2:5: tensor 4: subgraph 1: only subgraph 0 is read");
	compress_error(false, TM_OK, ONE(0, 4), D, true, "tensor 0 'input': no constant data to compress");
	compress_error(false, TM_UNUSED_CONST, ONE(8, 4), D, true,
		       "tensor 8 'unused_8': uint8 tensors cannot be LUT-compressed");
	compress_error(false, TM_SHARED_BUFFER, ONE(5, 4), D, true,
		       "tensor 5 'conv_b': its buffer 7 is shared with tensor 16");
	compress_error(false, TM_CONST_OUTPUT, ONE(16, 4), D, true, "tensor 16 'perm': a model output");
	compress_error(false, TM_OK, ONE(4, 2), D, false,
		       "tensor 4 'conv_w': a channel holds 6 distinct values, more than 2-bit indices address (binning is off)");
	compress_error(false, TM_OK, ONE(21, 7), D, false, "tensor 21 'fc_w': ");
	compress_error(false, TM_OK, ONE(22, 3), D, true,
		       "tensor 22 'fc_b': a channel holds more distinct values than 3-bit indices address, and int32 tensors cannot be binned");
	compress_error(false, TM_OK, ONE(25, 2), M, true,
		       "tensor 25 'tflm_vec': read by operator 13 (ADD) as input 1, which TFLM does not decompress from the metadata container (use the decode one)");
	compress_error(true, TM_OK, ONE(4, 4), D, true, "spec.yaml: test.tflite is LUT-compressed already");
	compress_error(false, TM_OK, "tensors: []\n", D, true, "spec.yaml: no tensors to compress");

	vta_tfl_model m;
	mt_load_file(MT_DATA "keyword_scrambled_8bit.tflite", &m);
	vta_lut_spec spec;
	spec_parse(ONE(4, 4), &spec);
	uint8_t *out;
	size_t len;
	vta_error err = {0};
	mt_expect_error(vta_tfl_compress(&m, &spec, "spec.yaml", NULL, &out, &len, NULL, &err),
			&err, "tensor 4: a variable, not a constant");
	vta_lut_spec_free(&spec);
	vta_tfl_model_free(&m);
	/* a DECODE opcode the patch adds: this model has none */
}

static void test_compress_unused(void **state)
{
	(void)state;
	/* a constant no operator reads */
	size_t len;
	uint8_t *b = tm_build(false, TM_UNUSED_CONST, &len);
	vta_tfl_model m;
	vta_error err = {0};
	assert_int_equal(vta_tfl_model_parse(b, len, "test.tflite", &m, &err), VTA_OK);
	/* retype tensor 8 as int8 through the writer, so it becomes compressible */
	vta_tfl_tensor_edit e = {.tensor = 8, .retype = true, .type = VTA_TFL_INT8, .rank = 1,
				 .shape = {1}};
	vta_tfl_patch p = {.n_tensor_edits = 1, .tensor_edits = &e};
	vta_tfl_model m2;
	rewrite(&m, &p, &m2);
	vta_lut_spec spec;
	spec_parse(ONE(8, 1), &spec);
	uint8_t *out;
	mt_expect_error(vta_tfl_compress(&m2, &spec, "spec.yaml", NULL, &out, &len, NULL, &err),
			&err, "tensor 8 'unused_8': no operator reads it");
	vta_lut_spec_free(&spec);
	vta_tfl_model_free(&m2);
	vta_tfl_model_free(&m);
}

/* Real models: several layers of person_detect (both axes, a bias, binning) and
 * micro_speech's fully connected weights, in both containers. */
static void test_compress_real(void **state)
{
	(void)state;
	static const uint32_t pd[][2] = {{2, 4}, {1, 3}, {0, 2}, {33, 3}, {8, 4}};
	static const uint32_t ms[][2] = {{7, 4}, {8, 5}};
	for (int c = 0; c < 2; c++) {
		vta_tfl_container k = c ? VTA_TFL_METADATA : VTA_TFL_DECODE;
		vta_tfl_model m, back;
		vta_tfl_compress_report rep;
		mt_load_file(MT_DATA "person_detect.tflite", &m);
		compress_check(&m, pd, 5, k, &back, &rep);
		if (k == VTA_TFL_DECODE) {
			expect_decode_layout(&back);
			assert_int_equal(back.n_opcodes, m.n_opcodes + 1);
		}
		assert_true(rep.out_bytes < rep.in_bytes);
		vta_tfl_compress_report_free(&rep);
		vta_tfl_model_free(&back);
		vta_tfl_model_free(&m);

		mt_load_file(MT_DATA "micro_speech_quantized.tflite", &m);
		compress_check(&m, ms, 2, k, &back, &rep);
		vta_tfl_compress_report_free(&rep);
		vta_tfl_model_free(&back);
		vta_tfl_model_free(&m);
	}
	char buf[512];
	const char *big = mt_big_model("mobilenet_v2_quantized_1x3x224x224.tflite", buf, sizeof(buf));
	if (!big)
		return;
	vta_tfl_model m, back;
	vta_tfl_compress_report rep;
	mt_load_file(big, &m);
	/* the 1x1 convolution weights of operator 5 */
	uint32_t items[1][2] = {{(uint32_t)m.ops[5].inputs[1], 4}};
	compress_check(&m, (const uint32_t(*)[2])items, 1, VTA_TFL_DECODE, &back, &rep);
	vta_tfl_compress_report_free(&rep);
	vta_tfl_model_free(&back);
	vta_tfl_model_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_offset_buffers),
		cmocka_unit_test(test_patch_errors),
		cmocka_unit_test(test_compress_decode),
		cmocka_unit_test(test_compress_metadata),
		cmocka_unit_test(test_compress_errors),
		cmocka_unit_test(test_compress_unused),
		cmocka_unit_test(test_compress_real),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
