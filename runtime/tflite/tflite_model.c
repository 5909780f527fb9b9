/*
 * tflite_model.c - reading a .tflite file into a vta_tfl_model (tflite_model.h): the model's
 * buffers, operator codes and metadata, then subgraph 0's tensors, operators, inputs and
 * outputs, then the LUT containers (tflite_lut.c). What is checked and why: docs/models.md
 * "The reader".
 */
#include "tflite_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vta_bytes.h"
#include "vta_file.h"
#include "vta_text.h"

/* ---- small readers ---- */

static vta_status tfl_strdup(tfl_rd *r, const char *s, size_t n, char **out)
{
	vta_status st = tfl_spend(r, n + 1);
	if (st != VTA_OK)
		return st;
	*out = malloc(n + 1);
	if (!*out)
		return tfl_fail(r, VTA_E_NOMEM, "out of memory");
	if (n)
		memcpy(*out, s, n);
	(*out)[n] = '\0';
	return VTA_OK;
}

static vta_status tfl_string(tfl_rd *r, const vta_fb_table *t, unsigned id, const char *field,
			     char **out)
{
	const char *s;
	size_t n;
	TFL_TRY(r, vta_fb_string(fb_, t, id, &s, &n, &e_), field);
	return tfl_strdup(r, s ? s : "", n, out);
}

static vta_status tfl_calloc(tfl_rd *r, size_t n, size_t size, void **out)
{
	*out = NULL;
	if (n && size > SIZE_MAX / n)
		return tfl_fail(r, VTA_E_PARSE, "%zu entries: too many", n);
	vta_status st = tfl_spend(r, n * size);
	if (st != VTA_OK)
		return st;
	*out = calloc(n ? n : 1, size);
	return *out ? VTA_OK : tfl_fail(r, VTA_E_NOMEM, "out of memory");
}

/* A vector of int32 tensor indices: each in [0, n_tensors), or -1 when `optional`. */
static vta_status tfl_indices(tfl_rd *r, const vta_fb_table *t, unsigned id, const char *field,
			      bool optional, size_t *n, int32_t **out)
{
	vta_fb_vec v;
	TFL_TRY(r, vta_fb_vector(fb_, t, id, 4, &v, &e_), field);
	vta_status st = tfl_calloc(r, v.n, sizeof(int32_t), (void **)out);
	if (st != VTA_OK)
		return st;
	*n = v.n;
	for (uint32_t i = 0; i < v.n; i++) {
		int32_t x = (int32_t)vta_le32_get(vta_fb_vec_elem(&r->fb, &v, i));
		if (x == -1 && optional) {
			(*out)[i] = x;
			continue;
		}
		if (x < 0 || (size_t)x >= r->m->n_tensors)
			return tfl_fail(r, VTA_E_PARSE, "%s[%u]: tensor %d is not one of the %zu tensors",
					field, i, (int)x, r->m->n_tensors);
		(*out)[i] = x;
	}
	return VTA_OK;
}

/* ---- model-level tables ---- */

static vta_status tfl_buffers(tfl_rd *r, const vta_fb_table *model)
{
	vta_tfl_model *m = r->m;
	vta_fb_vec v;
	TFL_TRY(r, vta_fb_vector(fb_, model, TFL_MODEL_BUFFERS, 4, &v, &e_), "buffers");
	vta_status st = tfl_calloc(r, v.n, sizeof(*m->buffers), (void **)&m->buffers);
	if (st != VTA_OK)
		return st;
	m->n_buffers = v.n;
	for (uint32_t i = 0; i < v.n; i++) {
		snprintf(r->where, sizeof(r->where), "buffer %u", i);
		vta_fb_table b;
		vta_fb_vec data;
		uint64_t off, size;
		TFL_TRY(r, vta_fb_vec_table(fb_, &v, i, &b, &e_), "table");
		TFL_TRY(r, vta_fb_vector(fb_, &b, TFL_BUF_DATA, 1, &data, &e_), "data");
		TFL_TRY(r, vta_fb_u64(fb_, &b, TFL_BUF_OFFSET, 0, &off, &e_), "offset");
		TFL_TRY(r, vta_fb_u64(fb_, &b, TFL_BUF_SIZE, 0, &size, &e_), "size");
		vta_tfl_buffer *out = &m->buffers[i];
		if (off > 1) { /* stored past the flatbuffer, at a file offset */
			if (data.n)
				return tfl_fail(r, VTA_E_PARSE,
						"both %u inline bytes and %llu bytes at offset %llu",
						data.n, (unsigned long long)size,
						(unsigned long long)off);
			if (off > m->image_bytes || size > m->image_bytes - off)
				return tfl_fail(r, VTA_E_PARSE,
						"%llu bytes at offset %llu run past the end of the "
						"file (%zu bytes)",
						(unsigned long long)size, (unsigned long long)off,
						m->image_bytes);
			out->external = true;
			out->data = size ? m->image + off : NULL;
			out->bytes = (size_t)size;
		} else if (data.n) {
			out->data = vta_fb_vec_elem(&r->fb, &data, 0);
			out->bytes = data.n;
		}
	}
	r->where[0] = '\0';
	return VTA_OK;
}

static vta_status tfl_opcodes(tfl_rd *r, const vta_fb_table *model)
{
	vta_tfl_model *m = r->m;
	vta_fb_vec v;
	TFL_TRY(r, vta_fb_vector(fb_, model, TFL_MODEL_OPERATOR_CODES, 4, &v, &e_),
	       "operator_codes");
	vta_status st = tfl_calloc(r, v.n, sizeof(*m->opcodes), (void **)&m->opcodes);
	if (st != VTA_OK)
		return st;
	m->n_opcodes = v.n;
	for (uint32_t i = 0; i < v.n; i++) {
		snprintf(r->where, sizeof(r->where), "operator code %u", i);
		vta_fb_table c;
		int8_t dep;
		int32_t code;
		vta_tfl_opcode *o = &m->opcodes[i];
		TFL_TRY(r, vta_fb_vec_table(fb_, &v, i, &c, &e_), "table");
		TFL_TRY(r, vta_fb_i8(fb_, &c, TFL_OC_DEPRECATED_BUILTIN_CODE, 0, &dep, &e_),
		       "deprecated_builtin_code");
		TFL_TRY(r, vta_fb_i32(fb_, &c, TFL_OC_BUILTIN_CODE, 0, &code, &e_), "builtin_code");
		TFL_TRY(r, vta_fb_i32(fb_, &c, TFL_OC_VERSION, 1, &o->version, &e_), "version");
		/* as TFLite's GetBuiltinCode: the larger of the two fields */
		o->builtin = dep > code ? dep : code;
		if (o->builtin < 0)
			return tfl_fail(r, VTA_E_PARSE, "builtin code %d is negative", (int)o->builtin);
		if (o->builtin == VTA_TFL_OP_CUSTOM) {
			st = tfl_string(r, &c, TFL_OC_CUSTOM_CODE, "custom_code", &o->custom);
			if (st != VTA_OK)
				return st;
			if (!o->custom[0])
				return tfl_fail(r, VTA_E_PARSE, "a CUSTOM operator without a name");
		}
	}
	r->where[0] = '\0';
	return VTA_OK;
}

static vta_status tfl_metadata(tfl_rd *r, const vta_fb_table *model)
{
	vta_tfl_model *m = r->m;
	vta_fb_vec v;
	TFL_TRY(r, vta_fb_vector(fb_, model, TFL_MODEL_METADATA, 4, &v, &e_), "metadata");
	vta_status st = tfl_calloc(r, v.n, sizeof(*m->metadata), (void **)&m->metadata);
	if (st != VTA_OK)
		return st;
	m->n_metadata = v.n;
	for (uint32_t i = 0; i < v.n; i++) {
		snprintf(r->where, sizeof(r->where), "metadata %u", i);
		vta_fb_table t;
		vta_tfl_metadata *md = &m->metadata[i];
		TFL_TRY(r, vta_fb_vec_table(fb_, &v, i, &t, &e_), "table");
		st = tfl_string(r, &t, TFL_MD_NAME, "name", &md->name);
		if (st != VTA_OK)
			return st;
		TFL_TRY(r, vta_fb_u32(fb_, &t, TFL_MD_BUFFER, 0, &md->buffer, &e_), "buffer");
		if (md->buffer >= m->n_buffers)
			return tfl_fail(r, VTA_E_PARSE, "buffer %u is not one of the %zu buffers",
					md->buffer, m->n_buffers);
	}
	r->where[0] = '\0';
	return VTA_OK;
}

/* ---- tensors ---- */

static vta_status tfl_quant(tfl_rd *r, const vta_fb_table *q, vta_tfl_tensor *t)
{
	vta_fb_vec scale, zp;
	int32_t axis;
	TFL_TRY(r, vta_fb_vector(fb_, q, TFL_Q_SCALE, 4, &scale, &e_), "quantization.scale");
	TFL_TRY(r, vta_fb_vector(fb_, q, TFL_Q_ZERO_POINT, 8, &zp, &e_),
	       "quantization.zero_point");
	TFL_TRY(r, vta_fb_i32(fb_, q, TFL_Q_QUANTIZED_DIMENSION, 0, &axis, &e_),
	       "quantization.quantized_dimension");
	vta_tfl_quant *o = &t->quant;
	o->axis = axis;
	if (!scale.n) {
		if (zp.n)
			return tfl_fail(r, VTA_E_PARSE, "quantization: %u zero points but no scale",
					zp.n);
		return VTA_OK;
	}
	if (zp.n && zp.n != scale.n)
		return tfl_fail(r, VTA_E_PARSE, "quantization: %u scales but %u zero points",
				scale.n, zp.n);
	vta_status st = tfl_calloc(r, scale.n, sizeof(float), (void **)&o->scale);
	if (st == VTA_OK && zp.n)
		st = tfl_calloc(r, zp.n, sizeof(int64_t), (void **)&o->zero_point);
	if (st != VTA_OK)
		return st;
	o->count = scale.n;
	o->zero_point_count = zp.n;
	for (uint32_t i = 0; i < scale.n; i++) {
		uint32_t bits = vta_le32_get(vta_fb_vec_elem(&r->fb, &scale, i));
		memcpy(&o->scale[i], &bits, 4);
	}
	for (uint32_t i = 0; i < zp.n; i++)
		o->zero_point[i] = (int64_t)vta_le64_get(vta_fb_vec_elem(&r->fb, &zp, i));
	return VTA_OK;
}

static vta_status tfl_tensor(tfl_rd *r, const vta_fb_table *t, vta_tfl_tensor *out)
{
	vta_tfl_model *m = r->m;
	vta_fb_vec shape;
	int8_t type;
	uint32_t ext;
	vta_fb_table sub;
	bool present;
	TFL_TRY(r, vta_fb_vector(fb_, t, TFL_T_SHAPE, 4, &shape, &e_), "shape");
	TFL_TRY(r, vta_fb_i8(fb_, t, TFL_T_TYPE, 0, &type, &e_), "type");
	TFL_TRY(r, vta_fb_u32(fb_, t, TFL_T_BUFFER, 0, &out->buffer, &e_), "buffer");
	TFL_TRY(r, vta_fb_bool(fb_, t, TFL_T_IS_VARIABLE, false, &out->is_variable, &e_),
	       "is_variable");
	TFL_TRY(r, vta_fb_u32(fb_, t, TFL_T_EXTERNAL_BUFFER, 0, &ext, &e_), "external_buffer");
	if (type < 0 || type >= VTA_TFL_TYPE_COUNT)
		return tfl_fail(r, VTA_E_PARSE, "unknown tensor type %d", (int)type);
	out->type = (vta_tfl_type)type;
	if (shape.n > VTA_TFL_MAX_RANK)
		return tfl_fail(r, VTA_E_PARSE, "rank %u above %d", shape.n, VTA_TFL_MAX_RANK);
	out->rank = (int)shape.n;
	out->count = 1;
	for (uint32_t i = 0; i < shape.n; i++) {
		int32_t d = (int32_t)vta_le32_get(vta_fb_vec_elem(&r->fb, &shape, i));
		if (d < 0)
			return tfl_fail(r, VTA_E_PARSE, "dimension %u is %d", i, (int)d);
		out->shape[i] = d;
		if (d && out->count > SIZE_MAX / (size_t)d)
			return tfl_fail(r, VTA_E_PARSE, "element count overflows");
		out->count *= (size_t)d;
	}
	if (out->buffer >= m->n_buffers)
		return tfl_fail(r, VTA_E_PARSE, "buffer %u is not one of the %zu buffers",
				out->buffer, m->n_buffers);
	if (ext)
		return tfl_fail(r, VTA_E_PARSE,
				"data in external buffer %u (another file) is not supported", ext);
	TFL_TRY(r, vta_fb_subtable(fb_, t, TFL_T_SPARSITY, &sub, &present, &e_), "sparsity");
	if (present)
		return tfl_fail(r, VTA_E_PARSE, "sparse tensors are not supported");
	out->data = m->buffers[out->buffer].data;
	out->data_bytes = m->buffers[out->buffer].bytes;
	out->lut_indices = out->lut_tables = -1;
	TFL_TRY(r, vta_fb_subtable(fb_, t, TFL_T_QUANTIZATION, &sub, &present, &e_),
	       "quantization");
	return present ? tfl_quant(r, &sub, out) : VTA_OK;
}

/* Whether tensor ti is read by operators and by DECODE operators only (their encoded or
 * ancillary inputs). */
static bool tfl_read_by_decode_only(const vta_tfl_model *m, int32_t ti)
{
	bool read = false;
	for (size_t i = 0; i < m->n_ops; i++)
		for (size_t k = 0; k < m->ops[i].n_inputs; k++) {
			if (m->ops[i].inputs[k] != ti)
				continue;
			if (!m->ops[i].decode)
				return false;
			read = true;
		}
	return read;
}

/* Whether a SOFTMAX writes tensor ti: TFLM's int16 SOFTMAX output takes zero point -32768. */
static bool tfl_softmax_output(const vta_tfl_model *m, int32_t ti)
{
	for (size_t i = 0; i < m->n_ops; i++)
		if (m->ops[i].builtin == VTA_TFL_OP_SOFTMAX && m->ops[i].n_outputs &&
		    m->ops[i].outputs[0] == ti)
			return true;
	return false;
}

/* TFLite's quantization rules for what vtasim computes with: every scale finite and
 * positive; zero points within the type (int8 [-128, 127], uint8 [0, 255]) and 0 for int16,
 * which TFLite quantizes symmetrically (but for a SOFTMAX's int16 output, whose range TFLM
 * fixes at zero point -32768). */
static vta_status tfl_check_quant_values(tfl_rd *r, size_t index)
{
	const vta_tfl_tensor *t = &r->m->tensors[index];
	const vta_tfl_quant *q = &t->quant;
	for (size_t c = 0; c < q->count; c++) {
		float s = q->scale[c];
		if (!(s > 0.0f) || s > 3.4028234663852886e38f) { /* NaN and inf fail too */
			tfl_where_tensor(r, index);
			return tfl_fail(r, VTA_E_PARSE, "quantization: scale %zu is %g, expected a "
					"finite value above 0", c, (double)s);
		}
	}
	int64_t lo = 0, hi = 0;
	switch (t->type) {
	case VTA_TFL_INT8: lo = -128; hi = 127; break;
	case VTA_TFL_UINT8: lo = 0; hi = 255; break;
	case VTA_TFL_INT16: break;
	default: return VTA_OK;
	}
	for (size_t c = 0; c < q->zero_point_count; c++) {
		int64_t zp = q->zero_point[c];
		if (t->type == VTA_TFL_INT16 && zp == -32768 &&
		    tfl_softmax_output(r->m, (int32_t)index))
			continue;
		if (zp < lo || zp > hi) {
			tfl_where_tensor(r, index);
			if (lo == hi)
				return tfl_fail(r, VTA_E_PARSE, "quantization: zero point %zu is "
						"%lld; an int16 tensor is quantized symmetrically "
						"(zero point 0; -32768 for a SOFTMAX output)", c, (long long)zp);
			return tfl_fail(r, VTA_E_PARSE, "quantization: zero point %zu is %lld, "
					"outside %s's [%lld, %lld]", c, (long long)zp,
					vta_tfl_type_name(t->type), (long long)lo, (long long)hi);
		}
	}
	return VTA_OK;
}

/* Per-channel scales must match their dimension, checked once the operators are known: a
 * tensor read only by DECODE operators is packed indices whose quantization TFLM never
 * reads (its compression tool leaves the original constant's there), so it is dropped. */
static vta_status tfl_check_quant(tfl_rd *r)
{
	vta_tfl_model *m = r->m;
	for (size_t i = 0; i < m->n_tensors; i++) {
		vta_tfl_tensor *t = &m->tensors[i];
		vta_tfl_quant *q = &t->quant;
		if (!q->count)
			continue;
		if (tfl_read_by_decode_only(m, (int32_t)i)) {
			free(q->scale);
			free(q->zero_point);
			memset(q, 0, sizeof(*q));
			continue;
		}
		vta_status st = tfl_check_quant_values(r, i);
		if (st != VTA_OK)
			return st;
		if (q->count < 2)
			continue;
		/* a rank-1 tensor has one channel dimension, whatever the file says (converted
		 * models' biases often carry their filter's quantized dimension) */
		if (t->rank == 1)
			q->axis = 0;
		tfl_where_tensor(r, i);
		if (q->axis < 0 || q->axis >= t->rank)
			return tfl_fail(r, VTA_E_PARSE,
					"quantization: %zu scales along dimension %d of a rank-%d tensor",
					q->count, (int)q->axis, t->rank);
		if ((size_t)t->shape[q->axis] != q->count)
			return tfl_fail(r, VTA_E_PARSE,
					"quantization: %zu scales for the %d channels of dimension %d",
					q->count, (int)t->shape[q->axis], (int)q->axis);
	}
	r->where[0] = '\0';
	return VTA_OK;
}

/* A plain constant's bytes must be exactly its shape's (compressed ones are checked by
 * their container instead). */
static vta_status tfl_check_data(tfl_rd *r)
{
	vta_tfl_model *m = r->m;
	for (size_t i = 0; i < m->n_tensors; i++) {
		const vta_tfl_tensor *t = &m->tensors[i];
		size_t esz = vta_tfl_type_size(t->type);
		if (!t->data || t->container == VTA_TFL_METADATA || !esz)
			continue;
		if (t->count > SIZE_MAX / esz || t->data_bytes != t->count * esz) {
			tfl_where_tensor(r, i);
			return tfl_fail(r, VTA_E_PARSE, "%zu bytes of data for %zu %s elements",
					t->data_bytes, t->count, vta_tfl_type_name(t->type));
		}
	}
	return VTA_OK;
}

/* ---- operators ---- */

/* What an operator writes: not a tensor it reads, an input of the model, a constant, nor a
 * tensor another operator writes (TFLite's graphs give each tensor one producer, and an op
 * reading its own output would read what it is overwriting). */
static vta_status tfl_check_writes(tfl_rd *r)
{
	vta_tfl_model *m = r->m;
	int32_t *writer;
	vta_status st = tfl_calloc(r, m->n_tensors, sizeof(int32_t), (void **)&writer);
	if (st != VTA_OK)
		return st;
	for (size_t i = 0; i < m->n_tensors; i++)
		writer[i] = -1;
	for (size_t i = 0; !st && i < m->n_ops; i++) {
		const vta_tfl_op *op = &m->ops[i];
		for (size_t k = 0; !st && k < op->n_outputs; k++) {
			int32_t o = op->outputs[k];
			const vta_tfl_tensor *t = &m->tensors[o];
			vta_quoted q;
			const char *name = vta_quote(&q, t->name);
			tfl_where_op(r, i);
			for (size_t j = 0; !st && j < op->n_inputs; j++)
				if (op->inputs[j] == o)
					st = tfl_fail(r, VTA_E_PARSE, "output %zu, tensor %d '%s', is "
						      "also its input %zu", k, (int)o, name, j);
			for (size_t j = 0; !st && j < m->n_inputs; j++)
				if (m->inputs[j] == o)
					st = tfl_fail(r, VTA_E_PARSE, "output %zu writes tensor %d "
						      "'%s', input %zu of the model", k, (int)o, name,
						      j);
			if (!st && t->data)
				st = tfl_fail(r, VTA_E_PARSE, "output %zu writes tensor %d '%s', a "
					      "constant (buffer %u holds its data)", k, (int)o, name,
					      t->buffer);
			if (!st && writer[o] >= 0)
				st = tfl_fail(r, VTA_E_PARSE, "output %zu writes tensor %d '%s', "
					      "which operator %d writes too", k, (int)o, name,
					      (int)writer[o]);
			writer[o] = (int32_t)i;
		}
	}
	free(writer);
	if (st == VTA_OK)
		r->where[0] = '\0';
	return st;
}

static vta_status tfl_operator(tfl_rd *r, const vta_fb_table *t, vta_tfl_op *op)
{
	vta_tfl_model *m = r->m;
	TFL_TRY(r, vta_fb_u32(fb_, t, TFL_OP_OPCODE_INDEX, 0, &op->opcode_index, &e_),
	       "opcode_index");
	if (op->opcode_index >= m->n_opcodes)
		return tfl_fail(r, VTA_E_PARSE, "opcode index %u is not one of the %zu codes",
				op->opcode_index, m->n_opcodes);
	const vta_tfl_opcode *c = &m->opcodes[op->opcode_index];
	op->builtin = c->builtin;
	op->custom = c->custom;
	op->version = c->version;
	op->decode = op->custom && !strcmp(op->custom, VTA_TFL_DECODE_NAME);
	tfl_where_op(r, (size_t)(op - m->ops));
	vta_status st = tfl_indices(r, t, TFL_OP_INPUTS, "inputs", true, &op->n_inputs,
				    &op->inputs);
	if (st == VTA_OK)
		st = tfl_indices(r, t, TFL_OP_OUTPUTS, "outputs", false, &op->n_outputs,
				 &op->outputs);
	return st == VTA_OK ? tfl_read_options(r, t, op) : st;
}

static vta_status tfl_subgraph(tfl_rd *r, const vta_fb_table *sg)
{
	vta_tfl_model *m = r->m;
	vta_fb_vec tv, ov;
	snprintf(r->where, sizeof(r->where), "subgraph 0");
	vta_status st = tfl_string(r, sg, TFL_SG_NAME, "name", &m->subgraph_name);
	if (st != VTA_OK)
		return st;
	TFL_TRY(r, vta_fb_vector(fb_, sg, TFL_SG_TENSORS, 4, &tv, &e_), "tensors");
	TFL_TRY(r, vta_fb_vector(fb_, sg, TFL_SG_OPERATORS, 4, &ov, &e_), "operators");
	st = tfl_calloc(r, tv.n, sizeof(*m->tensors), (void **)&m->tensors);
	if (st != VTA_OK)
		return st;
	m->n_tensors = tv.n;
	for (uint32_t i = 0; i < tv.n; i++) {
		snprintf(r->where, sizeof(r->where), "tensor %u", i);
		vta_fb_table t;
		TFL_TRY(r, vta_fb_vec_table(fb_, &tv, i, &t, &e_), "table");
		st = tfl_string(r, &t, TFL_T_NAME, "name", &m->tensors[i].name);
		if (st != VTA_OK)
			return st;
		tfl_where_tensor(r, i);
		st = tfl_tensor(r, &t, &m->tensors[i]);
		if (st != VTA_OK)
			return st;
	}
	snprintf(r->where, sizeof(r->where), "subgraph 0");
	st = tfl_indices(r, sg, TFL_SG_INPUTS, "inputs", false, &m->n_inputs, &m->inputs);
	if (st == VTA_OK)
		st = tfl_indices(r, sg, TFL_SG_OUTPUTS, "outputs", false, &m->n_outputs,
				 &m->outputs);
	if (st == VTA_OK)
		st = tfl_calloc(r, ov.n, sizeof(*m->ops), (void **)&m->ops);
	if (st != VTA_OK)
		return st;
	m->n_ops = ov.n;
	for (uint32_t i = 0; i < ov.n; i++) {
		snprintf(r->where, sizeof(r->where), "operator %u", i);
		vta_fb_table t;
		TFL_TRY(r, vta_fb_vec_table(fb_, &ov, i, &t, &e_), "table");
		st = tfl_operator(r, &t, &m->ops[i]);
		if (st != VTA_OK)
			return st;
	}
	r->where[0] = '\0';
	return VTA_OK;
}

static vta_status tfl_model(tfl_rd *r)
{
	vta_tfl_model *m = r->m;
	vta_fb_table root, sg;
	vta_fb_vec sgs;
	TFL_TRY(r, vta_fb_root(fb_, TFL_IDENT, &root, &e_), "not a TFLite model");
	vta_status st = tfl_verify(r);
	if (st != VTA_OK)
		return st;
	TFL_TRY(r, vta_fb_u32(fb_, &root, TFL_MODEL_VERSION, 0, &m->version, &e_), "version");
	if (m->version != VTA_TFL_SCHEMA_VERSION)
		return tfl_fail(r, VTA_E_PARSE, "schema version %u, expected %d", m->version,
				VTA_TFL_SCHEMA_VERSION);
	st = tfl_string(r, &root, TFL_MODEL_DESCRIPTION, "description", &m->description);
	if (st == VTA_OK)
		st = tfl_buffers(r, &root);
	if (st == VTA_OK)
		st = tfl_opcodes(r, &root);
	if (st == VTA_OK)
		st = tfl_metadata(r, &root);
	if (st != VTA_OK)
		return st;
	TFL_TRY(r, vta_fb_vector(fb_, &root, TFL_MODEL_SUBGRAPHS, 4, &sgs, &e_), "subgraphs");
	if (!sgs.n)
		return tfl_fail(r, VTA_E_PARSE, "no subgraphs");
	m->n_subgraphs = sgs.n;
	TFL_TRY(r, vta_fb_vec_table(fb_, &sgs, 0, &sg, &e_), "subgraph 0");
	st = tfl_subgraph(r, &sg);
	if (st == VTA_OK)
		st = tfl_check_writes(r);
	if (st == VTA_OK)
		st = tfl_check_quant(r);
	if (st == VTA_OK)
		st = tfl_read_compression(r);
	if (st == VTA_OK)
		st = tfl_check_data(r);
	return st;
}

vta_status vta_tfl_model_parse(uint8_t *image, size_t bytes, const char *name,
			       vta_tfl_model *m, vta_error *err)
{
	memset(m, 0, sizeof(*m));
	m->image = image;
	m->image_bytes = bytes;
	vta_quoted_path qp; /* the name messages show (vta_text.h) */
	m->name = strdup(vta_quote_path(&qp, name ? name : "<model>"));
	if (!m->name)
		return vta_fail(err, VTA_E_NOMEM, "out of memory");
	tfl_rd r = {.m = m, .fb = {image, bytes}, .err = err};
	/* generous for any real model (its structures take a few times its metadata), yet
	 * bounded for a file whose tables all share one large vector */
	r.budget = bytes > (SIZE_MAX - (1u << 20)) / 64 ? SIZE_MAX : 64 * bytes + (1u << 20);
	if (!image)
		return vta_fail(err, VTA_E_USAGE, "%s: no model bytes", m->name);
	return tfl_model(&r);
}

vta_status vta_tfl_model_load(const char *path, vta_tfl_model *m, vta_error *err)
{
	uint8_t *image = NULL;
	size_t bytes = 0;
	memset(m, 0, sizeof(*m));
	vta_status st =
		vta_read_file(path, ".tflite model", VTA_LIMIT_TFLITE, &image, &bytes, err);
	if (st != VTA_OK)
		return st;
	return vta_tfl_model_parse(image, bytes, path, m, err);
}

void vta_tfl_model_free(vta_tfl_model *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n_tensors && m->tensors; i++) {
		free(m->tensors[i].name);
		free(m->tensors[i].quant.scale);
		free(m->tensors[i].quant.zero_point);
	}
	for (size_t i = 0; i < m->n_ops && m->ops; i++) {
		free(m->ops[i].inputs);
		free(m->ops[i].outputs);
	}
	for (size_t i = 0; i < m->n_opcodes && m->opcodes; i++)
		free(m->opcodes[i].custom);
	for (size_t i = 0; i < m->n_metadata && m->metadata; i++)
		free(m->metadata[i].name);
	free(m->tensors);
	free(m->ops);
	free(m->opcodes);
	free(m->metadata);
	free(m->buffers);
	free(m->inputs);
	free(m->outputs);
	free(m->description);
	free(m->subgraph_name);
	free(m->name);
	free(m->image);
	memset(m, 0, sizeof(*m));
}

vta_status vta_tfl_tensor_decode(const vta_tfl_tensor *t, void *out, size_t out_bytes,
				 vta_error *err)
{
	if (t->container == VTA_TFL_PLAIN)
		return vta_fail(err, VTA_E_USAGE, "tensor '%s' is not compressed", VTA_Q(t->name));
	return vta_lut_decode(&t->lut, out, out_bytes, err);
}
