/*
 * tflite_lut.c - TFLM's two LUT compression containers, read into each compressed tensor's
 * vta_lut_tensor (docs/models.md "Compressed constants"):
 *
 *   - COMPRESSION_METADATA: a model metadata entry whose buffer holds a nested flatbuffer
 *     (tflite.micro.compression.Metadata) listing LutTensor{tensor, value_buffer,
 *     index_bitwidth}; the tensor's own buffer holds the packed indices.
 *   - TFLM_DECODE: a custom operator taking (encoded, ancillary) pairs; the ancillary tensor
 *     is the 16-byte DCM header and the value tables, the output the decoded tensor.
 *
 * Channels follow TFLM: per channel when the quantization has more than one scale, along
 * axis 0 or (alternate axis) the last; the DECODE output's quantization decides for DECODE.
 * Where TFLM only skips or assumes, vtasim refuses with a message: a metadata entry it
 * cannot use, a schema version it does not know, a DCM decode type other than LUT.
 */
#include "tflite_read.h"

#include <stdio.h>
#include <string.h>

/* The lut descriptor of tensor t, its tables `tables` (bytes) and indices `indices`. */
static vta_status lut_describe(tfl_rd *r, vta_tfl_tensor *t, unsigned bitwidth, size_t stride,
			       size_t channels, bool axis_last, const uint8_t *tables,
			       size_t table_bytes, const uint8_t *indices, size_t index_bytes)
{
	vta_lut_type lt;
	if (!vta_tfl_lut_type(t->type, &lt))
		return tfl_fail(r, VTA_E_DATA, "%s tensors cannot be LUT-compressed",
				vta_tfl_type_name(t->type));
	vta_lut_tensor *l = &t->lut;
	l->type = lt;
	l->bitwidth = bitwidth;
	l->count = t->count;
	l->channels = channels;
	l->axis_last = axis_last;
	l->value_table = tables;
	l->value_table_bytes = table_bytes;
	l->value_table_stride = stride;
	l->channel_counts = NULL;
	l->indices = indices;
	l->indices_bytes = index_bytes;
	vta_error e = {0};
	if (vta_lut_check(l, &e) != VTA_OK)
		return tfl_fail(r, VTA_E_DATA, "%s", e.detail);
	r->m->n_compressed++;
	return VTA_OK;
}

/* ---- COMPRESSION_METADATA ---- */

static vta_status lut_metadata_entry(tfl_rd *r, const vta_fb *md, const vta_fb_table *lt)
{
	vta_tfl_model *m = r->m;
	int32_t ti;
	uint32_t vb;
	uint8_t bw;
	TFL_TRY_IN(r, md, vta_fb_i32(fb_, lt, TFL_CM_TENSOR, 0, &ti, &e_), "tensor");
	TFL_TRY_IN(r, md, vta_fb_u32(fb_, lt, TFL_CM_VALUE_BUFFER, 0, &vb, &e_), "value_buffer");
	TFL_TRY_IN(r, md, vta_fb_u8(fb_, lt, TFL_CM_INDEX_BITWIDTH, 0, &bw, &e_), "index_bitwidth");
	if (ti < 0 || (size_t)ti >= m->n_tensors)
		return tfl_fail(r, VTA_E_PARSE, "tensor %d is not one of the %zu tensors", (int)ti,
				m->n_tensors);
	if (vb == 0 || vb >= m->n_buffers || !m->buffers[vb].data)
		return tfl_fail(r, VTA_E_PARSE, "value buffer %u is %s", vb,
				vb && vb < m->n_buffers ? "empty" : "not a data buffer");
	char ctx[sizeof(r->where)];
	snprintf(ctx, sizeof(ctx), "%s", r->where);
	tfl_where_tensor(r, (size_t)ti);
	vta_tfl_tensor *t = &m->tensors[ti];
	size_t n = strlen(r->where);
	snprintf(r->where + n, sizeof(r->where) - n, " (%s)", ctx);
	if (t->container != VTA_TFL_PLAIN)
		return tfl_fail(r, VTA_E_PARSE, "compressed twice");
	if (!t->data)
		return tfl_fail(r, VTA_E_PARSE, "no packed indices: its buffer %u is empty",
				t->buffer);
	if (t->rank == 0)
		return tfl_fail(r, VTA_E_PARSE, "a compressed scalar");
	size_t esz = vta_tfl_type_size(t->type);
	size_t channels = t->quant.count > 1 ? t->quant.count : 1;
	bool axis_last = false;
	if (channels > 1) {
		if (t->quant.axis == t->rank - 1 && t->quant.axis != 0)
			axis_last = true;
		else if (t->quant.axis != 0)
			return tfl_fail(r, VTA_E_PARSE,
					"per-channel tables along dimension %d (TFLM takes 0 or the last)",
					(int)t->quant.axis);
	}
	/* TFLM: the stride is the value buffer's elements over the channels */
	size_t stride = esz ? m->buffers[vb].bytes / esz / channels : 0;
	t->container = VTA_TFL_METADATA;
	t->lut_indices = ti;
	t->lut_tables = -1;
	t->lut_buffer = vb;
	return lut_describe(r, t, bw, stride, channels, axis_last, m->buffers[vb].data,
			    m->buffers[vb].bytes, t->data, t->data_bytes);
}

static vta_status lut_metadata(tfl_rd *r, const vta_tfl_metadata *entry)
{
	vta_tfl_model *m = r->m;
	snprintf(r->where, sizeof(r->where), "%s (buffer %u)", TFL_COMPRESSION_METADATA,
		 entry->buffer);
	const vta_tfl_buffer *b = &m->buffers[entry->buffer];
	if (entry->buffer == 0 || !b->data)
		return tfl_fail(r, VTA_E_PARSE, "the metadata buffer is empty");
	/* an ordinary finished flatbuffer, root offset at the buffer's first byte */
	vta_fb md = {b->data, b->bytes};
	vta_fb_table root, sg;
	vta_fb_vec sgs, lts;
	uint32_t version;
	TFL_TRY_IN(r, &md, vta_fb_root(fb_, NULL, &root, &e_), "Metadata");
	TFL_TRY_IN(r, &md, vta_fb_u32(fb_, &root, TFL_CM_SCHEMA_VERSION, 1, &version, &e_),
	       "schema_version");
	if (version > 1)
		return tfl_fail(r, VTA_E_PARSE, "schema version %u, newer than 1", version);
	TFL_TRY_IN(r, &md, vta_fb_vector(fb_, &root, TFL_CM_SUBGRAPHS, 4, &sgs, &e_), "subgraphs");
	if (!sgs.n)
		return tfl_fail(r, VTA_E_PARSE, "no subgraphs");
	TFL_TRY_IN(r, &md, vta_fb_vec_table(fb_, &sgs, 0, &sg, &e_), "subgraphs[0]");
	TFL_TRY_IN(r, &md, vta_fb_vector(fb_, &sg, TFL_CM_LUT_TENSORS, 4, &lts, &e_),
	       "subgraphs[0].lut_tensors");
	if (!lts.n)
		return tfl_fail(r, VTA_E_PARSE, "subgraph 0 lists no LUT tensors");
	for (uint32_t i = 0; i < lts.n; i++) {
		snprintf(r->where, sizeof(r->where), "%s lut_tensors[%u]", TFL_COMPRESSION_METADATA,
			 i);
		vta_fb_table lt;
		TFL_TRY_IN(r, &md, vta_fb_vec_table(fb_, &lts, i, &lt, &e_), "table");
		vta_status st = lut_metadata_entry(r, &md, &lt);
		if (st != VTA_OK)
			return st;
	}
	return VTA_OK;
}

/* ---- TFLM_DECODE ---- */

static const char *lut_decode_type_name(uint8_t type)
{
	switch (type) {
	case 1: return "Huffman";
	case 2: return "pruning";
	default: return type >= 127 ? "custom" : "reserved";
	}
}

static vta_status lut_decode_pair(tfl_rd *r, const vta_tfl_op *op, size_t pair)
{
	vta_tfl_model *m = r->m;
	int32_t enc = op->inputs[2 * pair], anc = op->inputs[2 * pair + 1];
	int32_t out = op->outputs[pair];
	if (enc < 0 || anc < 0)
		return tfl_fail(r, VTA_E_PARSE, "input %zu is missing (-1)",
				enc < 0 ? 2 * pair : 2 * pair + 1);
	const vta_tfl_tensor *e = &m->tensors[enc], *a = &m->tensors[anc];
	if (!e->data)
		return tfl_fail(r, VTA_E_PARSE, "input %zu (tensor %d): the encoded tensor has no data",
				2 * pair, (int)enc);
	if (!a->data || a->data_bytes < TFL_DCM_BYTES)
		return tfl_fail(r, VTA_E_PARSE,
				"input %zu (tensor %d): an ancillary tensor of %zu bytes, shorter "
				"than its %d-byte header",
				2 * pair + 1, (int)anc, a->data ? a->data_bytes : 0, TFL_DCM_BYTES);
	const uint8_t *dcm = a->data;
	if (dcm[TFL_DCM_TYPE] != 0)
		return tfl_fail(r, VTA_E_PARSE,
				"input %zu (tensor %d): decode type %u (%s) is not supported, only LUT (0)",
				2 * pair + 1, (int)anc, dcm[TFL_DCM_TYPE],
				lut_decode_type_name(dcm[TFL_DCM_TYPE]));
	if (dcm[TFL_DCM_VERSION] != 1 || dcm[TFL_DCM_LUT_VERSION] != 1)
		return tfl_fail(r, VTA_E_PARSE,
				"input %zu (tensor %d): DCM version %u, LUT version %u (expected 1, 1)",
				2 * pair + 1, (int)anc, dcm[TFL_DCM_VERSION],
				dcm[TFL_DCM_LUT_VERSION]);
	vta_tfl_tensor *t = &m->tensors[out];
	char ctx[sizeof(r->where)];
	snprintf(ctx, sizeof(ctx), "%s", r->where);
	tfl_where_tensor(r, (size_t)out);
	size_t n = strlen(r->where);
	snprintf(r->where + n, sizeof(r->where) - n, " (output %zu of %s)", pair, ctx);
	if (t->container != VTA_TFL_PLAIN)
		return tfl_fail(r, VTA_E_PARSE, "decoded twice");
	if (t->data)
		return tfl_fail(r, VTA_E_PARSE, "a decode output with data of its own");
	/* as TFLM's DecodeStateLut::Setup: channels from the output's scales */
	size_t channels = t->quant.count ? t->quant.count : 1;
	bool axis_last = false;
	if (t->quant.count) {
		if (t->quant.axis == t->rank - 1 && channels > 1)
			axis_last = true;
		else if (t->quant.axis != 0)
			return tfl_fail(r, VTA_E_PARSE,
					"quantized dimension %d (TFLM's DECODE takes 0, or the last "
					"with per-channel scales)",
					(int)t->quant.axis);
	}
	t->container = VTA_TFL_DECODE;
	t->lut_indices = enc;
	t->lut_tables = anc;
	t->lut_buffer = a->buffer;
	/* TFLM reads the width from the low 3 bits of the params byte */
	return lut_describe(r, t, dcm[TFL_DCM_LUT_PARAMS] & 7, dcm[TFL_DCM_LUT_STRIDE], channels,
			    axis_last, dcm + TFL_DCM_BYTES, a->data_bytes - TFL_DCM_BYTES, e->data,
			    e->data_bytes);
}

vta_status tfl_read_compression(tfl_rd *r)
{
	vta_tfl_model *m = r->m;
	const vta_tfl_metadata *found = NULL;
	for (size_t i = 0; i < m->n_metadata; i++) {
		if (strcmp(m->metadata[i].name, TFL_COMPRESSION_METADATA))
			continue;
		if (found) {
			r->where[0] = '\0';
			return tfl_fail(r, VTA_E_PARSE, "two %s entries (metadata %zu and %zu)",
					TFL_COMPRESSION_METADATA, (size_t)(found - m->metadata), i);
		}
		found = &m->metadata[i];
	}
	vta_status st = found ? lut_metadata(r, found) : VTA_OK;
	for (size_t i = 0; st == VTA_OK && i < m->n_ops; i++) {
		const vta_tfl_op *op = &m->ops[i];
		if (!op->decode)
			continue;
		tfl_where_op(r, i);
		if (!op->n_outputs || op->n_inputs != 2 * op->n_outputs)
			return tfl_fail(r, VTA_E_PARSE,
					"%zu inputs for %zu outputs: expected an (encoded, ancillary) "
					"pair per output",
					op->n_inputs, op->n_outputs);
		for (size_t p = 0; st == VTA_OK && p < op->n_outputs; p++) {
			tfl_where_op(r, i);
			st = lut_decode_pair(r, op, p);
		}
	}
	r->where[0] = '\0';
	return st;
}
