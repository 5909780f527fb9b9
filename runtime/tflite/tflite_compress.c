/*
 * tflite_compress.c - compressing a model's constants into TFLM LUT tensors and writing the
 * model in one of TFLM's two containers, laid out as TFLM's tools lay them out
 * (docs/models.md "Compressing a model"):
 *
 *   DECODE (compress.py with decode_insert.py): the constant's buffer becomes the packed
 *     indices and the tensor a uint8 vector of them without quantization; before each
 *     operator reading it goes a TFLM_DECODE custom operator whose inputs are that tensor
 *     and an ancillary uint8 tensor (16-byte DCM header, then the value tables) and whose
 *     output, a new tensor of the constant's type, shape and quantization, replaces the
 *     constant in that operator. The ancillary tensors of one constant share one buffer.
 *   METADATA (the legacy compress.py): the constant keeps its tensor, its buffer becomes
 *     the packed indices, a new buffer holds the value tables, and a COMPRESSION_METADATA
 *     entry lists LutTensor{tensor, value_buffer, index_bitwidth}. TFLM decompresses these
 *     only inside the kernels that support it; other consumers are refused.
 *
 * Every written model is read back and each compressed tensor decoded and compared with the
 * (binned) constant before it is returned.
 */
#include "tflite_compress.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fb_build.h"
#include "fb_read.h"
#include "tflite_schema.h"
#include "tflite_write.h"
#include "vta_bytes.h"
#include "vta_text.h"

void vta_tfl_compress_defaults(vta_tfl_compress_options *o)
{
	o->container = VTA_TFL_DECODE;
	o->stride = VTA_LUT_STRIDE_POW2;
	o->bin = true;
	o->method = VTA_LUT_BIN_KMEANS;
}

vta_status vta_tfl_lut_channels(const vta_tfl_tensor *t, size_t *channels, bool *axis_last,
				vta_error *err)
{
	*channels = 1;
	*axis_last = false;
	if (t->quant.count <= 1)
		return VTA_OK;
	if (t->quant.axis != 0 && t->quant.axis != t->rank - 1)
		return vta_fail(err, VTA_E_DATA,
				"per-channel scales along dimension %d: TFLM's decoder takes "
				"dimension 0 or the last",
				(int)t->quant.axis);
	*channels = t->quant.count;
	*axis_last = t->quant.axis != 0;
	return VTA_OK;
}

/* The consumers TFLM decompresses a COMPRESSION_METADATA tensor in (kernels calling the
 * 4-argument GetTensorData), the input slots they decompress and whether per-channel. */
static bool metadata_consumer(int32_t op, size_t slot, bool per_channel)
{
	switch (op) {
	case VTA_TFL_OP_CONV_2D:
	case VTA_TFL_OP_DEPTHWISE_CONV_2D:
	case VTA_TFL_OP_FULLY_CONNECTED:
		return slot == 1 || slot == 2;
	case 67: /* TRANSPOSE_CONV: weights and bias */
		return slot == 1 || slot == 3;
	case VTA_TFL_OP_CONCATENATION:
		return !per_channel;
	case 144: /* ASSIGN_VARIABLE: the value */
		return slot == 1 && !per_channel;
	default:
		return false;
	}
}

/* Everything allocated while building the patch. */
typedef struct cz {
	const vta_tfl_model *m;
	const vta_tfl_compress_options *o;
	vta_error *err;
	char where[VTA_ERROR_DETAIL_MAX / 2];
	/* the patch, grown as tensors are compressed */
	vta_tfl_blob *set_buffers, *new_buffers;
	vta_tfl_tensor_edit *edits;
	vta_tfl_new_tensor *new_tensors;
	vta_tfl_new_op *new_ops;
	vta_tfl_rewire *rewires;
	size_t n_set, n_newbuf, n_edits, n_newt, n_ops, n_rewires;
	const char *new_opcode;
	uint32_t decode_opcode;
	/* owned memory */
	void **owned;
	size_t n_owned;
	/* the binned constants, for the check after writing (host order) */
	void **expected;
} cz;

static vta_status cz_fail(cz *c, vta_status st, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;
static vta_status cz_fail(cz *c, vta_status st, const char *fmt, ...)
{
	char msg[VTA_ERROR_DETAIL_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return vta_fail(c->err, st, "%s: %s", c->where, msg);
}

/* Keep p to be freed at the end; false (p freed) when out of memory. */
static bool cz_own(cz *c, void *p)
{
	void **n = p ? realloc(c->owned, (c->n_owned + 1) * sizeof(*n)) : NULL;
	if (!n) {
		free(p);
		return false;
	}
	c->owned = n;
	c->owned[c->n_owned++] = p;
	return true;
}

/* Append one zeroed element to a growing array. */
static void *cz_push(void **arr, size_t *n, size_t size)
{
	uint8_t *a = realloc(*arr, (*n + 1) * size);
	if (!a)
		return NULL;
	*arr = a;
	memset(a + *n * size, 0, size);
	return a + (*n)++ * size;
}

#define CZ_PUSH(c, arr, n) cz_push((void **)&(c)->arr, &(c)->n, sizeof(*(c)->arr))

/* Another tensor (of any subgraph) or a metadata entry using buffer b. */
static bool cz_buffer_shared(const vta_tfl_model *m, uint32_t tensor, uint32_t b, char *who,
			     size_t size)
{
	for (size_t i = 0; i < m->n_tensors; i++)
		if (i != tensor && m->tensors[i].buffer == b) {
			snprintf(who, size, "tensor %zu", i);
			return true;
		}
	for (size_t i = 0; i < m->n_metadata; i++)
		if (m->metadata[i].buffer == b) {
			vta_quoted q;
			snprintf(who, size, "metadata '%s'", vta_quote(&q, m->metadata[i].name));
			return true;
		}
	/* the other subgraphs, read only here (a malformed one fails the copy later) */
	vta_fb fb = {m->image, m->image_bytes};
	vta_fb_table root, sg, t;
	vta_fb_vec sgs, tv;
	vta_error e = {0};
	if (vta_fb_root(&fb, TFL_IDENT, &root, &e) ||
	    vta_fb_vector(&fb, &root, TFL_MODEL_SUBGRAPHS, 4, &sgs, &e))
		return false;
	for (uint32_t s = 1; s < sgs.n; s++) {
		if (vta_fb_vec_table(&fb, &sgs, s, &sg, &e) ||
		    vta_fb_vector(&fb, &sg, TFL_SG_TENSORS, 4, &tv, &e))
			return false;
		for (uint32_t i = 0; i < tv.n; i++) {
			uint32_t tb;
			if (vta_fb_vec_table(&fb, &tv, i, &t, &e) ||
			    vta_fb_u32(&fb, &t, TFL_T_BUFFER, 0, &tb, &e))
				return false;
			if (tb == b) {
				snprintf(who, size, "tensor %u of subgraph %u", i, s);
				return true;
			}
		}
	}
	return false;
}

/* The constant in host order, as its own copy. */
static void *cz_host_copy(const vta_tfl_tensor *t, size_t esz)
{
	uint8_t *h = malloc(t->data_bytes ? t->data_bytes : 1);
	if (!h)
		return NULL;
	for (size_t e = 0; e < t->count; e++) {
		const uint8_t *s = t->data + e * esz;
		uint8_t *d = h + e * esz;
		switch (esz) {
		case 2: { uint16_t v = (uint16_t)(s[0] | s[1] << 8); memcpy(d, &v, 2); break; }
		case 4: { uint32_t v = vta_le32_get(s); memcpy(d, &v, 4); break; }
		case 8: { uint64_t v = vta_le64_get(s); memcpy(d, &v, 8); break; }
		default: d[0] = s[0]; break;
		}
	}
	return h;
}

static vta_status cz_check_tensor(cz *c, const vta_lut_spec_tensor *e, vta_lut_type *lt)
{
	const vta_tfl_model *m = c->m;
	const vta_tfl_tensor *t = &m->tensors[e->tensor];
	char who[sizeof(vta_quoted) + 32];
	if (t->is_variable)
		return cz_fail(c, VTA_E_DATA, "a variable, not a constant");
	if (!t->data || !t->count)
		return cz_fail(c, VTA_E_DATA, "no constant data to compress");
	if (!vta_tfl_lut_type(t->type, lt))
		return cz_fail(c, VTA_E_DATA,
			       "%s tensors cannot be LUT-compressed (bool, int8, int16, int32, "
			       "int64, float32 can)",
			       vta_tfl_type_name(t->type));
	if (cz_buffer_shared(m, e->tensor, t->buffer, who, sizeof(who)))
		return cz_fail(c, VTA_E_DATA, "its buffer %u is shared with %s", t->buffer, who);
	for (size_t i = 0; i < m->n_outputs; i++)
		if (m->outputs[i] == (int32_t)e->tensor)
			return cz_fail(c, VTA_E_DATA, "a model output");
	size_t consumers = 0;
	for (size_t k = 0; k < m->n_ops; k++)
		for (size_t s = 0; s < m->ops[k].n_inputs; s++)
			consumers += m->ops[k].inputs[s] == (int32_t)e->tensor;
	if (!consumers)
		return cz_fail(c, VTA_E_DATA, "no operator reads it");
	return VTA_OK;
}

/* Bin (when asked and needed) and compress one tensor; *lb owns the result. */
static vta_status cz_lut(cz *c, const vta_lut_spec_tensor *e, vta_lut_type lt,
			 vta_tfl_compressed *r, void **host, vta_lut_buffer *lb)
{
	const vta_tfl_tensor *t = &c->m->tensors[e->tensor];
	size_t esz = vta_lut_type_size(lt);
	vta_error e2 = {0};
	if (vta_tfl_lut_channels(t, &r->channels, &r->axis_last, &e2) != VTA_OK)
		return cz_fail(c, e2.status, "%s", e2.detail);
	*host = cz_host_copy(t, esz);
	if (!*host)
		return cz_fail(c, VTA_E_NOMEM, "out of memory");
	/* the distinct values per channel, as TFLM's compressor finds them */
	vta_status st = vta_lut_compress(lt, *host, t->count, r->channels, r->axis_last,
					 0, VTA_LUT_STRIDE_MAX_UNIQUE, lb, &e2);
	if (st == VTA_OK) {
		for (size_t ch = 0; ch < r->channels; ch++)
			if (lb->counts[ch] > r->max_unique)
				r->max_unique = lb->counts[ch];
	} else if (e2.status != VTA_E_DATA || !c->o->bin) {
		/* more than 128 distinct values in a channel: only binning can help */
		vta_lut_buffer_free(lb);
		return cz_fail(c, e2.status, "%s", e2.detail);
	} else {
		r->max_unique = VTA_LUT_MAX_STRIDE + 1;
	}
	vta_lut_buffer_free(lb);
	if (r->max_unique > ((size_t)1 << e->index_bitwidth)) {
		if (!c->o->bin)
			return cz_fail(c, VTA_E_DATA,
				       "a channel holds %s%zu distinct values, more than %u-bit "
				       "indices address (binning is off)",
				       r->max_unique > VTA_LUT_MAX_STRIDE ? "over " : "",
				       r->max_unique > VTA_LUT_MAX_STRIDE ? (size_t)VTA_LUT_MAX_STRIDE
									  : r->max_unique,
				       e->index_bitwidth);
		if (lt == VTA_LUT_INT8)
			st = vta_lut_bin_i8(*host, *host, t->count, r->channels, r->axis_last,
					    e->index_bitwidth, c->o->method, &r->bin, &e2);
		else if (lt == VTA_LUT_FLOAT32)
			st = vta_lut_bin_f32(*host, *host, t->count, r->channels, r->axis_last,
					     e->index_bitwidth, c->o->method, &r->bin, &e2);
		else
			return cz_fail(c, VTA_E_DATA,
				       "a channel holds more distinct values than %u-bit indices "
				       "address, and %s tensors cannot be binned (int8 and float32 can)",
				       e->index_bitwidth, vta_lut_type_name(lt));
		if (st != VTA_OK)
			return cz_fail(c, e2.status, "%s", e2.detail);
		r->binned = true;
	}
	st = vta_lut_compress(lt, *host, t->count, r->channels, r->axis_last, e->index_bitwidth,
			      c->o->stride, lb, &e2);
	if (st != VTA_OK)
		return cz_fail(c, e2.status, "%s", e2.detail);
	r->bitwidth = e->index_bitwidth;
	r->stride = lb->tensor.value_table_stride;
	r->plain_bytes = t->data_bytes;
	r->index_bytes = vta_lut_indices_bytes(t->count, e->index_bitwidth);
	r->table_bytes = r->channels * r->stride * esz;
	return VTA_OK;
}

/* The quantization the decoded tensor is written with: its own, with the channel axis
 * TFLM's decoder reads (a rank-1 tensor's file axis may be anything; per tensor: 0). */
static void cz_quant(const vta_tfl_tensor *t, const vta_tfl_compressed *r,
		     vta_tfl_quant_edit *edit, int32_t *axis)
{
	*edit = t->quant.count ? VTA_TFL_QUANT_AXIS : VTA_TFL_QUANT_KEEP;
	*axis = r->channels > 1 ? t->quant.axis : 0;
}

static vta_status cz_decode(cz *c, uint32_t ti, const vta_lut_buffer *lb,
			    vta_tfl_compressed *r)
{
	const vta_tfl_model *m = c->m;
	const vta_tfl_tensor *t = &m->tensors[ti];
	/* the encoded tensor: the indices, a uint8 vector without quantization */
	vta_tfl_tensor_edit *ed = CZ_PUSH(c, edits, n_edits);
	if (!ed)
		return cz_fail(c, VTA_E_NOMEM, "out of memory");
	ed->tensor = ti;
	ed->retype = true;
	ed->type = VTA_TFL_UINT8;
	ed->rank = 1;
	ed->shape[0] = (int32_t)r->index_bytes;
	ed->quant = VTA_TFL_QUANT_DROP;
	/* the ancillary data, one buffer for all of this tensor's DECODE operators */
	size_t anc_bytes = TFL_DCM_BYTES + r->table_bytes;
	uint8_t *anc = calloc(1, anc_bytes);
	if (!anc || !cz_own(c, anc))
		return cz_fail(c, VTA_E_NOMEM, "out of memory");
	anc[TFL_DCM_TYPE] = 0; /* LUT */
	anc[TFL_DCM_VERSION] = 1;
	anc[TFL_DCM_LUT_VERSION] = 1;
	anc[TFL_DCM_LUT_PARAMS] = (uint8_t)r->bitwidth;
	anc[TFL_DCM_LUT_STRIDE] = (uint8_t)r->stride;
	memcpy(anc + TFL_DCM_BYTES, lb->table, r->table_bytes);
	vta_tfl_blob *nb = CZ_PUSH(c, new_buffers, n_newbuf);
	if (!nb)
		return cz_fail(c, VTA_E_NOMEM, "out of memory");
	nb->data = anc;
	nb->bytes = anc_bytes;
	uint32_t anc_buffer = (uint32_t)(m->n_buffers + c->n_newbuf - 1);
	/* names as TFLM's tool gives them */
	char *anc_name = NULL, *out_name = NULL;
	if (t->name[0]) {
		size_t n = strlen(t->name) + 16;
		if (!cz_own(c, anc_name = malloc(n)) || !cz_own(c, out_name = malloc(n)))
			return cz_fail(c, VTA_E_NOMEM, "out of memory");
		snprintf(anc_name, n, "%s_ancillary", t->name);
		snprintf(out_name, n, "%s_decoded", t->name);
	}
	vta_tfl_quant_edit qe;
	int32_t axis;
	cz_quant(t, r, &qe, &axis);
	/* one DECODE before each consumer, its output read by that consumer only */
	for (size_t k = 0; k < m->n_ops; k++) {
		const vta_tfl_op *op = &m->ops[k];
		bool reads = false;
		for (size_t s = 0; s < op->n_inputs; s++)
			reads |= op->inputs[s] == (int32_t)ti;
		if (!reads)
			continue;
		int32_t anc_t = (int32_t)(m->n_tensors + c->n_newt);
		vta_tfl_new_tensor *a = CZ_PUSH(c, new_tensors, n_newt);
		vta_tfl_new_tensor *o = a ? CZ_PUSH(c, new_tensors, n_newt) : NULL;
		vta_tfl_new_op *d = o ? CZ_PUSH(c, new_ops, n_ops) : NULL;
		if (!d)
			return cz_fail(c, VTA_E_NOMEM, "out of memory");
		a = &c->new_tensors[anc_t - (int32_t)m->n_tensors];
		o = a + 1;
		*a = (vta_tfl_new_tensor){.name = anc_name, .type = VTA_TFL_UINT8, .rank = 1,
					  .shape = {(int32_t)anc_bytes}, .buffer = anc_buffer,
					  .quant_from = -1};
		*o = (vta_tfl_new_tensor){.name = out_name, .type = t->type, .rank = t->rank,
					  .buffer = 0, .quant_from = (int32_t)ti, .quant = qe,
					  .axis = axis};
		memcpy(o->shape, t->shape, sizeof(o->shape));
		d->before = k;
		d->opcode_index = c->decode_opcode;
		d->n_inputs = 2;
		d->inputs[0] = (int32_t)ti;
		d->inputs[1] = anc_t;
		d->n_outputs = 1;
		d->outputs[0] = anc_t + 1;
		for (size_t s = 0; s < op->n_inputs; s++) {
			if (op->inputs[s] != (int32_t)ti)
				continue;
			vta_tfl_rewire *rw = CZ_PUSH(c, rewires, n_rewires);
			if (!rw)
				return cz_fail(c, VTA_E_NOMEM, "out of memory");
			*rw = (vta_tfl_rewire){k, s, anc_t + 1};
		}
		r->copies++;
	}
	return VTA_OK;
}

static vta_status cz_metadata_tensor(cz *c, uint32_t ti, const vta_lut_buffer *lb,
				     vta_tfl_compressed *r)
{
	const vta_tfl_model *m = c->m;
	const vta_tfl_tensor *t = &m->tensors[ti];
	for (size_t k = 0; k < m->n_ops; k++)
		for (size_t s = 0; s < m->ops[k].n_inputs; s++) {
			if (m->ops[k].inputs[s] != (int32_t)ti ||
			    metadata_consumer(m->ops[k].builtin, s, r->channels > 1))
				continue;
			char buf[24];
			return cz_fail(c, VTA_E_DATA,
				       "read by operator %zu (%s) as input %zu, which TFLM does not "
				       "decompress from the metadata container (use the decode one)",
				       k, vta_tfl_op_label(&m->ops[k], buf, sizeof(buf)), s);
		}
	vta_tfl_tensor_edit *ed = CZ_PUSH(c, edits, n_edits);
	vta_tfl_blob *nb = ed ? CZ_PUSH(c, new_buffers, n_newbuf) : NULL;
	uint8_t *tables = nb ? malloc(r->table_bytes) : NULL;
	if (!tables || !cz_own(c, tables))
		return cz_fail(c, VTA_E_NOMEM, "out of memory");
	memcpy(tables, lb->table, r->table_bytes);
	ed->tensor = ti;
	cz_quant(t, r, &ed->quant, &ed->axis);
	nb->data = tables;
	nb->bytes = r->table_bytes;
	r->copies = 1;
	return VTA_OK;
}

/* The COMPRESSION_METADATA flatbuffer listing every compressed tensor. */
static vta_status cz_metadata_buffer(cz *c, const vta_tfl_compress_report *rep,
				     const uint32_t *value_buffers, uint8_t **out, size_t *bytes)
{
	vta_fbb b;
	vta_fbb_init(&b);
	vta_fbb_ref *lts = calloc(rep->n ? rep->n : 1, sizeof(*lts));
	if (!lts)
		return cz_fail(c, VTA_E_NOMEM, "out of memory");
	for (size_t i = 0; i < rep->n; i++) {
		vta_fbb_start(&b);
		vta_fbb_scalar(&b, TFL_CM_TENSOR, rep->tensors[i].tensor, 4);
		vta_fbb_scalar(&b, TFL_CM_VALUE_BUFFER, value_buffers[i], 4);
		vta_fbb_scalar(&b, TFL_CM_INDEX_BITWIDTH, rep->tensors[i].bitwidth, 1);
		lts[i] = vta_fbb_end(&b);
	}
	vta_fbb_ref v = vta_fbb_ref_vector(&b, lts, rep->n);
	free(lts);
	vta_fbb_start(&b);
	vta_fbb_ref_field(&b, TFL_CM_LUT_TENSORS, v);
	vta_fbb_ref sg = vta_fbb_end(&b);
	vta_fbb_ref sgs = vta_fbb_ref_vector(&b, &sg, 1);
	vta_fbb_start(&b);
	vta_fbb_scalar(&b, TFL_CM_SCHEMA_VERSION, 1, 4);
	vta_fbb_ref_field(&b, TFL_CM_SUBGRAPHS, sgs);
	vta_fbb_ref root = vta_fbb_end(&b);
	vta_error e = {0};
	if (vta_fbb_finish(&b, root, NULL, out, bytes, &e) != VTA_OK)
		return cz_fail(c, e.status, "%s", e.detail);
	return VTA_OK;
}

/* Read the written model back: every compressed tensor must decode to what was compressed. */
static vta_status cz_verify(cz *c, const uint8_t *image, size_t bytes,
			    const vta_tfl_compress_report *rep)
{
	uint8_t *copy = malloc(bytes);
	if (!copy)
		return cz_fail(c, VTA_E_NOMEM, "out of memory");
	memcpy(copy, image, bytes);
	vta_tfl_model back;
	vta_error e = {0};
	vta_status st = vta_tfl_model_parse(copy, bytes, "the compressed model", &back, &e);
	for (size_t i = 0; st == VTA_OK && i < rep->n; i++) {
		const vta_tfl_tensor *src = &c->m->tensors[rep->tensors[i].tensor];
		size_t size = src->count * vta_tfl_type_size(src->type);
		uint8_t *got = malloc(size ? size : 1);
		const vta_tfl_tensor *t = NULL;
		for (size_t k = 0; k < back.n_tensors && !t; k++) {
			const vta_tfl_tensor *x = &back.tensors[k];
			if (x->container != VTA_TFL_PLAIN &&
			    x->lut_indices == (int32_t)rep->tensors[i].tensor)
				t = x;
		}
		if (!got)
			st = vta_fail(&e, VTA_E_NOMEM, "out of memory");
		else if (!t)
			st = vta_fail(&e, VTA_E_INTERNAL, "tensor %u is not compressed",
				      rep->tensors[i].tensor);
		else if ((st = vta_tfl_tensor_decode(t, got, size, &e)) == VTA_OK &&
			 memcmp(got, c->expected[i], size))
			st = vta_fail(&e, VTA_E_INTERNAL, "tensor %u decodes to other values",
				      rep->tensors[i].tensor);
		free(got);
	}
	vta_tfl_model_free(&back);
	if (st != VTA_OK)
		return vta_fail(c->err, VTA_E_INTERNAL, "%s: the written model does not read back: %s",
				c->m->name, e.detail);
	return VTA_OK;
}

static void cz_free(cz *c, size_t n_expected)
{
	for (size_t i = 0; i < c->n_owned; i++)
		free(c->owned[i]);
	for (size_t i = 0; c->expected && i < n_expected; i++)
		free(c->expected[i]);
	free(c->owned);
	free(c->expected);
	free(c->set_buffers);
	free(c->new_buffers);
	free(c->edits);
	free(c->new_tensors);
	free(c->new_ops);
	free(c->rewires);
}

/* Stable order of the new operators by the operator they precede. */
static void cz_sort_ops(vta_tfl_new_op *ops, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		vta_tfl_new_op x = ops[i];
		size_t j = i;
		for (; j > 0 && ops[j - 1].before > x.before; j--)
			ops[j] = ops[j - 1];
		ops[j] = x;
	}
}

static vta_status cz_run(cz *c, const vta_lut_spec *spec, const char *spec_name,
			 vta_tfl_compress_report *rep, uint8_t **out, size_t *out_bytes)
{
	const vta_tfl_model *m = c->m;
	uint32_t *value_buffers = NULL;
	vta_status st = VTA_OK;
	snprintf(c->where, sizeof(c->where), "%s", spec_name);
	if (m->n_compressed)
		return cz_fail(c, VTA_E_DATA, "%s is LUT-compressed already", m->name);
	if (!spec->count)
		return cz_fail(c, VTA_E_PARSE, "no tensors to compress");
	rep->tensors = calloc(spec->count, sizeof(*rep->tensors));
	c->expected = calloc(spec->count, sizeof(*c->expected));
	value_buffers = calloc(spec->count, sizeof(*value_buffers));
	if (!rep->tensors || !c->expected || !value_buffers) {
		free(value_buffers);
		return cz_fail(c, VTA_E_NOMEM, "out of memory");
	}
	/* the DECODE operator code: the model's own if it has one */
	c->decode_opcode = (uint32_t)m->n_opcodes;
	for (size_t i = 0; i < m->n_opcodes; i++)
		if (m->opcodes[i].custom && !strcmp(m->opcodes[i].custom, VTA_TFL_DECODE_NAME))
			c->decode_opcode = (uint32_t)i;
	for (size_t i = 0; st == VTA_OK && i < spec->count; i++) {
		const vta_lut_spec_tensor *e = &spec->tensors[i];
		int n = e->origin ? snprintf(c->where, sizeof(c->where), "%s: tensor %u",
					     e->origin, e->tensor)
				  : snprintf(c->where, sizeof(c->where), "%s:%u:%u: tensor %u",
					     spec_name, e->line, e->column, e->tensor);
		if (e->subgraph != 0) {
			st = cz_fail(c, VTA_E_PARSE, "subgraph %u: only subgraph 0 is read",
				     e->subgraph);
			break;
		}
		if (e->tensor >= m->n_tensors) {
			st = cz_fail(c, VTA_E_PARSE, "the model has %zu tensors", m->n_tensors);
			break;
		}
		const vta_tfl_tensor *t = &m->tensors[e->tensor];
		vta_quoted q;
		if (t->name && t->name[0] && n > 0 && (size_t)n < sizeof(c->where))
			snprintf(c->where + n, sizeof(c->where) - (size_t)n, " '%s'",
				 vta_quote(&q, t->name));
		vta_tfl_compressed *r = &rep->tensors[rep->n++];
		r->tensor = e->tensor;
		vta_lut_type lt;
		vta_lut_buffer lb = {0};
		st = cz_check_tensor(c, e, &lt);
		if (st == VTA_OK)
			st = cz_lut(c, e, lt, r, &c->expected[i], &lb);
		vta_tfl_blob *sb = st == VTA_OK ? CZ_PUSH(c, set_buffers, n_set) : NULL;
		uint8_t *idx = sb ? malloc(r->index_bytes ? r->index_bytes : 1) : NULL;
		if (st == VTA_OK && (!idx || !cz_own(c, idx)))
			st = cz_fail(c, VTA_E_NOMEM, "out of memory");
		if (st == VTA_OK) {
			memcpy(idx, lb.indices, r->index_bytes);
			*sb = (vta_tfl_blob){t->buffer, idx, r->index_bytes};
			if (c->o->container == VTA_TFL_METADATA) {
				st = cz_metadata_tensor(c, e->tensor, &lb, r);
				value_buffers[i] = (uint32_t)(m->n_buffers + c->n_newbuf - 1);
			} else {
				st = cz_decode(c, e->tensor, &lb, r);
			}
		}
		vta_lut_buffer_free(&lb);
	}
	uint8_t *md = NULL;
	size_t md_bytes = 0;
	vta_tfl_metadata entry = {TFL_COMPRESSION_METADATA, 0};
	if (st == VTA_OK && c->o->container == VTA_TFL_METADATA) {
		snprintf(c->where, sizeof(c->where), "%s", m->name);
		st = cz_metadata_buffer(c, rep, value_buffers, &md, &md_bytes);
		vta_tfl_blob *nb = st == VTA_OK ? CZ_PUSH(c, new_buffers, n_newbuf) : NULL;
		if (st == VTA_OK && (!nb || !cz_own(c, md)))
			st = cz_fail(c, VTA_E_NOMEM, "out of memory");
		if (st == VTA_OK) {
			nb->data = md;
			nb->bytes = md_bytes;
			entry.buffer = (uint32_t)(m->n_buffers + c->n_newbuf - 1);
		}
	}
	free(value_buffers);
	if (st != VTA_OK)
		return st;
	cz_sort_ops(c->new_ops, c->n_ops);
	const char *decode_name = VTA_TFL_DECODE_NAME;
	bool new_opcode = c->o->container == VTA_TFL_DECODE && c->decode_opcode == m->n_opcodes;
	vta_tfl_patch p = {
		.n_set_buffers = c->n_set, .set_buffers = c->set_buffers,
		.n_new_buffers = c->n_newbuf, .new_buffers = c->new_buffers,
		.n_tensor_edits = c->n_edits, .tensor_edits = c->edits,
		.n_new_tensors = c->n_newt, .new_tensors = c->new_tensors,
		.n_new_opcodes = new_opcode ? 1 : 0, .new_opcodes = &decode_name,
		.n_new_ops = c->n_ops, .new_ops = c->new_ops,
		.n_rewires = c->n_rewires, .rewires = c->rewires,
		.n_new_metadata = c->o->container == VTA_TFL_METADATA ? 1 : 0,
		.new_metadata = &entry,
	};
	st = vta_tfl_write(m, &p, out, out_bytes, c->err);
	if (st == VTA_OK)
		st = cz_verify(c, *out, *out_bytes, rep);
	if (st != VTA_OK) {
		free(*out);
		*out = NULL;
		*out_bytes = 0;
		return st;
	}
	rep->in_bytes = m->image_bytes;
	rep->out_bytes = *out_bytes;
	return VTA_OK;
}

vta_status vta_tfl_compress(const vta_tfl_model *m, const vta_lut_spec *spec,
			    const char *spec_name, const vta_tfl_compress_options *o,
			    uint8_t **out, size_t *out_bytes, vta_tfl_compress_report *report,
			    vta_error *err)
{
	vta_tfl_compress_options defaults;
	vta_tfl_compress_report local = {0};
	vta_tfl_compress_report *rep = report ? report : &local;
	memset(rep, 0, sizeof(*rep));
	*out = NULL;
	*out_bytes = 0;
	if (!o) {
		vta_tfl_compress_defaults(&defaults);
		o = &defaults;
	}
	if (o->container != VTA_TFL_DECODE && o->container != VTA_TFL_METADATA)
		return vta_fail(err, VTA_E_USAGE, "compress: no such container");
	cz c = {.m = m, .o = o, .err = err};
	spec_name = spec_name ? spec_name : "<spec>";
	if (m->n_compressed) /* before the selectors, which would find no constant filter */
		return vta_fail(err, VTA_E_DATA, "%s: %s is LUT-compressed already", spec_name,
				m->name);
	vta_lut_spec resolved;
	vta_status st = vta_tfl_spec_resolve(m, spec, spec_name, &resolved, err);
	if (st != VTA_OK)
		return st;
	st = cz_run(&c, &resolved, spec_name, rep, out, out_bytes);
	cz_free(&c, resolved.count);
	vta_lut_spec_free(&resolved);
	if (st != VTA_OK || !report)
		vta_tfl_compress_report_free(rep);
	return st;
}

void vta_tfl_compress_report_free(vta_tfl_compress_report *r)
{
	if (!r)
		return;
	free(r->tensors);
	memset(r, 0, sizeof(*r));
}
