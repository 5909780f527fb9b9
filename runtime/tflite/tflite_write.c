/*
 * tflite_write.c - re-serialising a .tflite model with a patch (tflite_write.h). Tables the
 * patch leaves alone are copied by their descriptors (tflite_schema.c): scalars byte for
 * byte, strings and scalar vectors as they are, sub-tables and unions recursively, so every
 * offset is rebuilt; a field no descriptor knows is an error, never a guess. Model, subgraph
 * 0, its tensors and operators, the buffers and the metadata are rebuilt with the patch.
 */
#include "tflite_write.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fb_build.h"
#include "fb_read.h"
#include "tflite_schema.h"
#include "vta_bytes.h"

typedef struct wr {
	const vta_tfl_model *m;
	const vta_tfl_patch *p;
	vta_fb fb;
	vta_fbb b;
	vta_error *err;
	char where[96];
	vta_fb_vec tensors, operators;  /* subgraph 0's, in the original file */
} wr;

static vta_status wr_fail(wr *w, vta_status st, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;
static vta_status wr_fail(wr *w, vta_status st, const char *fmt, ...)
{
	char msg[VTA_ERROR_DETAIL_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return vta_fail(w->err, st, "%s: writing %s: %s", w->m->name, w->where, msg);
}

#define TRY_FB(w, call)                                            \
	do {                                                       \
		vta_error e_ = {0};                                \
		const vta_fb *fb_ = &(w)->fb;                      \
		if ((call) != VTA_OK)                              \
			return wr_fail((w), e_.status, "%s", e_.detail); \
	} while (0)

/* The builder's sticky failure, if any. */
static vta_status wr_built(wr *w)
{
	if (w->b.err.status != VTA_OK)
		return wr_fail(w, w->b.err.status, "%s", w->b.err.detail);
	return VTA_OK;
}

/* ---- the descriptor-driven copy ---- */

enum { OV_REF = 1, OV_SCALAR, OV_OMIT };

typedef struct wr_ov {
	unsigned id;
	uint8_t kind;
	uint8_t size;      /* OV_SCALAR */
	uint64_t value;    /* OV_REF: the reference; OV_SCALAR: the value */
} wr_ov;

static const wr_ov *wr_find(const wr_ov *ov, size_t n, unsigned id)
{
	for (size_t i = 0; i < n; i++)
		if (ov[i].id == id)
			return &ov[i];
	return NULL;
}

static vta_status wr_copy(wr *w, const vta_fb_table *t, const tfl_desc *d, const wr_ov *ov,
			  size_t n_ov, vta_fbb_ref *out);

/* A table of scalars only: its bytes as they are, once every field is known. */
static vta_status wr_raw(wr *w, const vta_fb_table *t, const tfl_desc *d, vta_fbb_ref *out)
{
	for (unsigned id = 0; id < vta_fb_slots(t); id++) {
		uint16_t off = vta_fb_slot(&w->fb, t, id);
		if (!off)
			continue;
		if (id >= d->n_fields)
			return wr_fail(w, VTA_E_PARSE, "%s field %u is not known to the writer",
				       d->name, id);
		if (off < 4 || off >= t->obj_bytes)
			return wr_fail(w, VTA_E_PARSE, "%s field %u at +%u outside its %u bytes",
				       d->name, id, off, t->obj_bytes);
	}
	*out = vta_fbb_raw_table(&w->b, w->fb.buf + t->vt, t->vt_bytes, w->fb.buf + t->pos,
				 t->obj_bytes, t->pos);
	return wr_built(w);
}

static vta_status wr_tables(wr *w, const vta_fb_vec *v, const tfl_desc *d, vta_fbb_ref *out)
{
	vta_fbb_ref *refs = calloc(v->n ? v->n : 1, sizeof(*refs));
	if (!refs)
		return wr_fail(w, VTA_E_NOMEM, "out of memory");
	vta_status st = VTA_OK;
	for (uint32_t i = 0; st == VTA_OK && i < v->n; i++) {
		vta_fb_table e;
		vta_error e_ = {0};
		st = vta_fb_vec_table(&w->fb, v, i, &e, &e_);
		if (st != VTA_OK)
			st = wr_fail(w, st, "%s %u: %s", d->name, i, e_.detail);
		else
			st = wr_copy(w, &e, d, NULL, 0, &refs[i]);
	}
	if (st == VTA_OK) {
		*out = vta_fbb_ref_vector(&w->b, refs, v->n);
		st = wr_built(w);
	}
	free(refs);
	return st;
}

/* Copy the child of offset field `id` (kind f->kind) into *ref (0 when absent). */
static vta_status wr_child(wr *w, const vta_fb_table *t, const tfl_desc *d, unsigned id,
			   vta_fbb_ref *ref)
{
	const tfl_field *f = &d->fields[id];
	*ref = 0;
	switch (f->kind) {
	case TFL_K_STRING: {
		const char *s;
		size_t n;
		TRY_FB(w, vta_fb_string(fb_, t, id, &s, &n, &e_));
		if (s)
			*ref = vta_fbb_string(&w->b, s, n);
		return wr_built(w);
	}
	case TFL_K_VECTOR: {
		vta_fb_vec v;
		TRY_FB(w, vta_fb_vector(fb_, t, id, f->size, &v, &e_));
		if (v.present)
			*ref = vta_fbb_vector(&w->b, w->fb.buf + v.pos, v.n, f->size, f->align);
		return wr_built(w);
	}
	case TFL_K_TABLE: {
		vta_fb_table sub;
		bool present;
		TRY_FB(w, vta_fb_subtable(fb_, t, id, &sub, &present, &e_));
		return present ? wr_copy(w, &sub, f->sub, NULL, 0, ref) : VTA_OK;
	}
	case TFL_K_TABLES: {
		vta_fb_vec v;
		TRY_FB(w, vta_fb_vector(fb_, t, id, 4, &v, &e_));
		return v.present ? wr_tables(w, &v, f->sub, ref) : VTA_OK;
	}
	case TFL_K_UNION: {
		uint8_t type;
		vta_fb_table sub;
		bool present;
		tfl_desc member;
		TRY_FB(w, vta_fb_u8(fb_, t, id - 1, 0, &type, &e_));
		TRY_FB(w, vta_fb_subtable(fb_, t, id, &sub, &present, &e_));
		if (!present || type == 0)
			return VTA_OK;
		if (!f->resolve(type, &member))
			return wr_fail(w, VTA_E_PARSE,
				       "%s field %u: union member %u is not known to the writer",
				       d->name, id, type);
		return wr_copy(w, &sub, &member, NULL, 0, ref);
	}
	default:
		return VTA_OK;
	}
}

static vta_status wr_copy(wr *w, const vta_fb_table *t, const tfl_desc *d, const wr_ov *ov,
			  size_t n_ov, vta_fbb_ref *out)
{
	if (!d->fields && !n_ov)
		return wr_raw(w, t, d, out);
	vta_fbb_ref refs[VTA_FBB_MAX_FIELDS] = {0};
	size_t scalar_at[VTA_FBB_MAX_FIELDS] = {0};
	unsigned slots = vta_fb_slots(t), top = 0;
	vta_status st;
	for (unsigned id = 0; id < slots; id++) {
		if (!vta_fb_slot(&w->fb, t, id) || wr_find(ov, n_ov, id))
			continue;
		if (id >= d->n_fields || id >= VTA_FBB_MAX_FIELDS || !d->fields ||
		    d->fields[id].kind == TFL_K_NONE)
			return wr_fail(w, VTA_E_PARSE, "%s field %u is not known to the writer",
				       d->name, id);
		const tfl_field *f = &d->fields[id];
		if (f->kind == TFL_K_SCALAR)
			TRY_FB(w, vta_fb_field(fb_, t, id, f->size, &scalar_at[id], &e_));
		else if ((st = wr_child(w, t, d, id, &refs[id])) != VTA_OK)
			return st;
		top = id + 1;
	}
	for (size_t i = 0; i < n_ov; i++)
		if (ov[i].id + 1 > top)
			top = ov[i].id + 1;
	vta_fbb_start(&w->b);
	/* largest first: the least padding between fields */
	static const uint8_t sizes[] = {8, 4, 2, 1};
	for (size_t s = 0; s < sizeof(sizes); s++) {
		for (unsigned id = 0; id < top; id++) {
			const wr_ov *o = wr_find(ov, n_ov, id);
			if (o) {
				if (o->kind == OV_SCALAR && o->size == sizes[s])
					vta_fbb_scalar(&w->b, id, o->value, o->size);
				else if (o->kind == OV_REF && sizes[s] == 4 && o->value)
					vta_fbb_ref_field(&w->b, id, (vta_fbb_ref)o->value);
			} else if (scalar_at[id] && d->fields[id].size == sizes[s]) {
				uint64_t v = 0;
				for (unsigned k = 0; k < sizes[s]; k++)
					v |= (uint64_t)w->fb.buf[scalar_at[id] + k] << (8 * k);
				vta_fbb_scalar(&w->b, id, v, sizes[s]);
			} else if (refs[id] && sizes[s] == 4) {
				vta_fbb_ref_field(&w->b, id, refs[id]);
			}
		}
	}
	*out = vta_fbb_end(&w->b);
	return wr_built(w);
}

/* ---- what the patch rebuilds ---- */

static vta_fbb_ref wr_i32_vector(wr *w, const int32_t *v, size_t n)
{
	uint8_t le[4 * 64] = {0};
	uint8_t *buf = n <= 64 ? le : malloc(4 * n);
	if (!buf) {
		vta_fail(&w->b.err, VTA_E_NOMEM, "out of memory");
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		vta_le_put(buf + 4 * i, 4, (uint32_t)v[i]);
	vta_fbb_ref r = vta_fbb_vector(&w->b, buf, n, 4, 0);
	if (buf != le)
		free(buf);
	return r;
}

static vta_status wr_buffers(wr *w, vta_fbb_ref *out)
{
	const vta_tfl_model *m = w->m;
	const vta_tfl_patch *p = w->p;
	size_t n = m->n_buffers + p->n_new_buffers;
	vta_fbb_ref *refs = calloc(n ? n : 1, sizeof(*refs));
	if (!refs)
		return wr_fail(w, VTA_E_NOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		const uint8_t *data;
		size_t bytes;
		if (i < m->n_buffers) {
			data = m->buffers[i].data;
			bytes = m->buffers[i].bytes;
			for (size_t k = 0; k < p->n_set_buffers; k++)
				if (p->set_buffers[k].index == i) {
					data = p->set_buffers[k].data;
					bytes = p->set_buffers[k].bytes;
				}
		} else {
			data = p->new_buffers[i - m->n_buffers].data;
			bytes = p->new_buffers[i - m->n_buffers].bytes;
		}
		vta_fbb_ref d = bytes ? vta_fbb_vector(&w->b, data, bytes, 1, 16) : 0;
		vta_fbb_start(&w->b);
		if (d)
			vta_fbb_ref_field(&w->b, TFL_BUF_DATA, d);
		refs[i] = vta_fbb_end(&w->b);
	}
	*out = vta_fbb_ref_vector(&w->b, refs, n);
	free(refs);
	snprintf(w->where, sizeof(w->where), "buffers");
	return wr_built(w);
}

static vta_status wr_opcodes(wr *w, const vta_fb_table *root, vta_fbb_ref *out)
{
	const vta_tfl_patch *p = w->p;
	vta_fb_vec v;
	snprintf(w->where, sizeof(w->where), "operator codes");
	TRY_FB(w, vta_fb_vector(fb_, root, TFL_MODEL_OPERATOR_CODES, 4, &v, &e_));
	size_t n = v.n + p->n_new_opcodes;
	vta_fbb_ref *refs = calloc(n ? n : 1, sizeof(*refs));
	if (!refs)
		return wr_fail(w, VTA_E_NOMEM, "out of memory");
	vta_status st = VTA_OK;
	for (uint32_t i = 0; st == VTA_OK && i < v.n; i++) {
		vta_fb_table t;
		vta_error e_ = {0};
		st = vta_fb_vec_table(&w->fb, &v, i, &t, &e_);
		st = st == VTA_OK ? wr_copy(w, &t, &tfl_desc_opcode, NULL, 0, &refs[i])
				  : wr_fail(w, st, "%s", e_.detail);
	}
	for (size_t i = 0; st == VTA_OK && i < p->n_new_opcodes; i++) {
		const char *name = p->new_opcodes[i];
		vta_fbb_ref s = vta_fbb_string(&w->b, name, strlen(name));
		vta_fbb_start(&w->b);
		vta_fbb_scalar(&w->b, TFL_OC_BUILTIN_CODE, VTA_TFL_OP_CUSTOM, 4);
		vta_fbb_scalar(&w->b, TFL_OC_VERSION, 1, 4);
		vta_fbb_ref_field(&w->b, TFL_OC_CUSTOM_CODE, s);
		vta_fbb_scalar(&w->b, TFL_OC_DEPRECATED_BUILTIN_CODE, VTA_TFL_OP_CUSTOM, 1);
		refs[v.n + i] = vta_fbb_end(&w->b);
	}
	if (st == VTA_OK) {
		*out = vta_fbb_ref_vector(&w->b, refs, n);
		st = wr_built(w);
	}
	free(refs);
	return st;
}

static vta_status wr_metadata(wr *w, const vta_fb_table *root, vta_fbb_ref *out)
{
	const vta_tfl_patch *p = w->p;
	vta_fb_vec v;
	snprintf(w->where, sizeof(w->where), "metadata");
	TRY_FB(w, vta_fb_vector(fb_, root, TFL_MODEL_METADATA, 4, &v, &e_));
	size_t n = v.n + p->n_new_metadata;
	*out = 0;
	if (!v.present && !n)
		return VTA_OK;
	vta_fbb_ref *refs = calloc(n ? n : 1, sizeof(*refs));
	if (!refs)
		return wr_fail(w, VTA_E_NOMEM, "out of memory");
	vta_status st = VTA_OK;
	for (uint32_t i = 0; st == VTA_OK && i < v.n; i++) {
		vta_fb_table t;
		vta_error e_ = {0};
		st = vta_fb_vec_table(&w->fb, &v, i, &t, &e_);
		st = st == VTA_OK ? wr_copy(w, &t, &tfl_desc_metadata, NULL, 0, &refs[i])
				  : wr_fail(w, st, "%s", e_.detail);
	}
	for (size_t i = 0; st == VTA_OK && i < p->n_new_metadata; i++) {
		const vta_tfl_metadata *md = &p->new_metadata[i];
		vta_fbb_ref s = vta_fbb_string(&w->b, md->name, strlen(md->name));
		vta_fbb_start(&w->b);
		vta_fbb_ref_field(&w->b, TFL_MD_NAME, s);
		vta_fbb_scalar(&w->b, TFL_MD_BUFFER, md->buffer, 4);
		refs[v.n + i] = vta_fbb_end(&w->b);
	}
	if (st == VTA_OK) {
		*out = vta_fbb_ref_vector(&w->b, refs, n);
		st = wr_built(w);
	}
	free(refs);
	return st;
}

/* Tensor i's quantization table in the original file, copied (with an axis if asked). */
static vta_status wr_quant_of(wr *w, size_t i, vta_tfl_quant_edit edit, int32_t axis,
			      vta_fbb_ref *out)
{
	vta_fb_table t, q;
	bool present;
	*out = 0;
	TRY_FB(w, vta_fb_vec_table(fb_, &w->tensors, (uint32_t)i, &t, &e_));
	TRY_FB(w, vta_fb_subtable(fb_, &t, TFL_T_QUANTIZATION, &q, &present, &e_));
	if (!present || edit == VTA_TFL_QUANT_DROP)
		return VTA_OK;
	wr_ov ov = {TFL_Q_QUANTIZED_DIMENSION, OV_SCALAR, 4, (uint32_t)axis};
	return wr_copy(w, &q, &tfl_desc_quant, &ov, edit == VTA_TFL_QUANT_AXIS, out);
}

static vta_status wr_tensor(wr *w, size_t i, vta_fbb_ref *out)
{
	const vta_tfl_patch *p = w->p;
	const vta_tfl_tensor_edit *e = NULL;
	for (size_t k = 0; k < p->n_tensor_edits; k++)
		if (p->tensor_edits[k].tensor == i)
			e = &p->tensor_edits[k];
	vta_fb_table t;
	TRY_FB(w, vta_fb_vec_table(fb_, &w->tensors, (uint32_t)i, &t, &e_));
	if (!e)
		return wr_copy(w, &t, &tfl_desc_tensor, NULL, 0, out);
	wr_ov ov[4];
	size_t n = 0;
	if (e->retype) {
		ov[n++] = (wr_ov){TFL_T_TYPE, OV_SCALAR, 1, (uint8_t)e->type};
		ov[n++] = (wr_ov){TFL_T_SHAPE, OV_REF, 0, wr_i32_vector(w, e->shape, (size_t)e->rank)};
		ov[n++] = (wr_ov){TFL_T_SHAPE_SIGNATURE, OV_OMIT, 0, 0};
	}
	if (e->quant == VTA_TFL_QUANT_DROP) {
		ov[n++] = (wr_ov){TFL_T_QUANTIZATION, OV_OMIT, 0, 0};
	} else if (e->quant == VTA_TFL_QUANT_AXIS) {
		vta_fbb_ref q;
		vta_status st = wr_quant_of(w, i, e->quant, e->axis, &q);
		if (st != VTA_OK)
			return st;
		ov[n++] = (wr_ov){TFL_T_QUANTIZATION, q ? OV_REF : OV_OMIT, 0, q};
	}
	vta_status st = wr_built(w);
	return st == VTA_OK ? wr_copy(w, &t, &tfl_desc_tensor, ov, n, out) : st;
}

static vta_status wr_new_tensor(wr *w, const vta_tfl_new_tensor *nt, vta_fbb_ref *out)
{
	vta_fbb_ref q = 0, name = 0;
	if (nt->quant_from >= 0) {
		vta_status st = wr_quant_of(w, (size_t)nt->quant_from, nt->quant, nt->axis, &q);
		if (st != VTA_OK)
			return st;
	}
	vta_fbb_ref shape = wr_i32_vector(w, nt->shape, (size_t)nt->rank);
	if (nt->name)
		name = vta_fbb_string(&w->b, nt->name, strlen(nt->name));
	vta_fbb_start(&w->b);
	vta_fbb_ref_field(&w->b, TFL_T_SHAPE, shape);
	vta_fbb_scalar(&w->b, TFL_T_BUFFER, nt->buffer, 4);
	if (name)
		vta_fbb_ref_field(&w->b, TFL_T_NAME, name);
	if (q)
		vta_fbb_ref_field(&w->b, TFL_T_QUANTIZATION, q);
	vta_fbb_scalar(&w->b, TFL_T_TYPE, (uint8_t)nt->type, 1);
	*out = vta_fbb_end(&w->b);
	return wr_built(w);
}

static vta_status wr_operator(wr *w, size_t k, vta_fbb_ref *out)
{
	const vta_tfl_op *op = &w->m->ops[k];
	const vta_tfl_patch *p = w->p;
	vta_fb_table t;
	uint64_t large;
	snprintf(w->where, sizeof(w->where), "operator %zu", k);
	TRY_FB(w, vta_fb_vec_table(fb_, &w->operators, (uint32_t)k, &t, &e_));
	TRY_FB(w, vta_fb_u64(fb_, &t, TFL_OP_LARGE_CUSTOM_OPTIONS_OFFSET, 0, &large, &e_));
	if (large > 1)
		return wr_fail(w, VTA_E_PARSE, "custom options past the flatbuffer (at %llu) are "
			       "not supported", (unsigned long long)large);
	bool rewired = false;
	for (size_t r = 0; r < p->n_rewires; r++)
		rewired |= p->rewires[r].op == k;
	if (!rewired)
		return wr_copy(w, &t, &tfl_desc_operator, NULL, 0, out);
	int32_t *in = malloc((op->n_inputs ? op->n_inputs : 1) * sizeof(*in));
	if (!in)
		return wr_fail(w, VTA_E_NOMEM, "out of memory");
	memcpy(in, op->inputs, op->n_inputs * sizeof(*in));
	for (size_t r = 0; r < p->n_rewires; r++)
		if (p->rewires[r].op == k)
			in[p->rewires[r].slot] = p->rewires[r].tensor;
	wr_ov ov = {TFL_OP_INPUTS, OV_REF, 0, wr_i32_vector(w, in, op->n_inputs)};
	free(in);
	vta_status st = wr_built(w);
	return st == VTA_OK ? wr_copy(w, &t, &tfl_desc_operator, &ov, 1, out) : st;
}

static vta_status wr_new_op(wr *w, const vta_tfl_new_op *no, vta_fbb_ref *out)
{
	vta_fbb_ref in = wr_i32_vector(w, no->inputs, no->n_inputs);
	vta_fbb_ref o = wr_i32_vector(w, no->outputs, no->n_outputs);
	vta_fbb_start(&w->b);
	vta_fbb_scalar(&w->b, TFL_OP_OPCODE_INDEX, no->opcode_index, 4);
	vta_fbb_ref_field(&w->b, TFL_OP_INPUTS, in);
	vta_fbb_ref_field(&w->b, TFL_OP_OUTPUTS, o);
	*out = vta_fbb_end(&w->b);
	return wr_built(w);
}

static vta_status wr_subgraph0(wr *w, const vta_fb_table *sg, vta_fbb_ref *out)
{
	const vta_tfl_model *m = w->m;
	const vta_tfl_patch *p = w->p;
	size_t nt = m->n_tensors + p->n_new_tensors, no = m->n_ops + p->n_new_ops;
	vta_fbb_ref *refs = calloc((nt > no ? nt : no) + 1, sizeof(*refs));
	if (!refs)
		return wr_fail(w, VTA_E_NOMEM, "out of memory");
	vta_status st = VTA_OK;
	for (size_t i = 0; st == VTA_OK && i < nt; i++) {
		snprintf(w->where, sizeof(w->where), "tensor %zu", i);
		st = i < m->n_tensors ? wr_tensor(w, i, &refs[i])
				      : wr_new_tensor(w, &p->new_tensors[i - m->n_tensors], &refs[i]);
	}
	vta_fbb_ref tensors = st == VTA_OK ? vta_fbb_ref_vector(&w->b, refs, nt) : 0;
	size_t n = 0, next = 0;
	for (size_t k = 0; st == VTA_OK && k <= m->n_ops; k++) {
		for (; st == VTA_OK && next < p->n_new_ops && p->new_ops[next].before == k; next++) {
			snprintf(w->where, sizeof(w->where), "new operator %zu", next);
			st = wr_new_op(w, &p->new_ops[next], &refs[n++]);
		}
		if (st == VTA_OK && k < m->n_ops)
			st = wr_operator(w, k, &refs[n++]);
	}
	vta_fbb_ref ops = st == VTA_OK ? vta_fbb_ref_vector(&w->b, refs, n) : 0;
	free(refs);
	if (st != VTA_OK)
		return st;
	wr_ov ov[] = {{TFL_SG_TENSORS, OV_REF, 0, tensors}, {TFL_SG_OPERATORS, OV_REF, 0, ops}};
	snprintf(w->where, sizeof(w->where), "subgraph 0");
	st = wr_built(w);
	return st == VTA_OK ? wr_copy(w, sg, &tfl_desc_subgraph, ov, 2, out) : st;
}

static vta_status wr_subgraphs(wr *w, const vta_fb_table *root, vta_fbb_ref *out)
{
	vta_fb_vec v;
	TRY_FB(w, vta_fb_vector(fb_, root, TFL_MODEL_SUBGRAPHS, 4, &v, &e_));
	vta_fbb_ref *refs = calloc(v.n ? v.n : 1, sizeof(*refs));
	if (!refs)
		return wr_fail(w, VTA_E_NOMEM, "out of memory");
	vta_status st = VTA_OK;
	for (uint32_t i = 0; st == VTA_OK && i < v.n; i++) {
		vta_fb_table sg;
		vta_error e_ = {0};
		snprintf(w->where, sizeof(w->where), "subgraph %u", i);
		st = vta_fb_vec_table(&w->fb, &v, i, &sg, &e_);
		if (st != VTA_OK)
			st = wr_fail(w, st, "%s", e_.detail);
		else if (i == 0)
			st = wr_subgraph0(w, &sg, &refs[i]);
		else
			st = wr_copy(w, &sg, &tfl_desc_subgraph, NULL, 0, &refs[i]);
	}
	if (st == VTA_OK) {
		*out = vta_fbb_ref_vector(&w->b, refs, v.n);
		st = wr_built(w);
	}
	free(refs);
	return st;
}

/* ---- checking the patch against the model ---- */

static vta_status wr_check_patch(wr *w)
{
	const vta_tfl_model *m = w->m;
	const vta_tfl_patch *p = w->p;
	size_t nb = m->n_buffers + p->n_new_buffers, nt = m->n_tensors + p->n_new_tensors;
	size_t nc = m->n_opcodes + p->n_new_opcodes;
	snprintf(w->where, sizeof(w->where), "the patch");
	for (size_t i = 0; i < p->n_set_buffers; i++)
		if (p->set_buffers[i].index >= m->n_buffers)
			return wr_fail(w, VTA_E_USAGE, "buffer %u out of range",
				       p->set_buffers[i].index);
	for (size_t i = 0; i < p->n_tensor_edits; i++) {
		const vta_tfl_tensor_edit *e = &p->tensor_edits[i];
		if (e->tensor >= m->n_tensors || e->rank < 0 || e->rank > VTA_TFL_MAX_RANK)
			return wr_fail(w, VTA_E_USAGE, "tensor edit %zu out of range", i);
	}
	for (size_t i = 0; i < p->n_new_tensors; i++) {
		const vta_tfl_new_tensor *t = &p->new_tensors[i];
		if (t->buffer >= nb || t->quant_from >= (int32_t)m->n_tensors || t->rank < 0 ||
		    t->rank > VTA_TFL_MAX_RANK)
			return wr_fail(w, VTA_E_USAGE, "new tensor %zu out of range", i);
	}
	size_t before = 0;
	for (size_t i = 0; i < p->n_new_ops; i++) {
		const vta_tfl_new_op *o = &p->new_ops[i];
		bool bad = o->before > m->n_ops || o->before < before || o->opcode_index >= nc ||
			   o->n_inputs > VTA_TFL_NEW_OP_MAX_IO || o->n_outputs > VTA_TFL_NEW_OP_MAX_IO;
		for (size_t k = 0; !bad && k < o->n_inputs; k++)
			bad = o->inputs[k] < -1 || o->inputs[k] >= (int32_t)nt;
		for (size_t k = 0; !bad && k < o->n_outputs; k++)
			bad = o->outputs[k] < 0 || o->outputs[k] >= (int32_t)nt;
		if (bad)
			return wr_fail(w, VTA_E_USAGE, "new operator %zu out of range or order", i);
		before = o->before;
	}
	for (size_t i = 0; i < p->n_rewires; i++) {
		const vta_tfl_rewire *r = &p->rewires[i];
		if (r->op >= m->n_ops || r->slot >= m->ops[r->op].n_inputs || r->tensor < -1 ||
		    r->tensor >= (int32_t)nt)
			return wr_fail(w, VTA_E_USAGE, "rewire %zu out of range", i);
	}
	for (size_t i = 0; i < p->n_new_metadata; i++)
		if (p->new_metadata[i].buffer >= nb || !p->new_metadata[i].name)
			return wr_fail(w, VTA_E_USAGE, "new metadata %zu out of range", i);
	return VTA_OK;
}

vta_status vta_tfl_write(const vta_tfl_model *m, const vta_tfl_patch *p, uint8_t **out,
			 size_t *bytes, vta_error *err)
{
	static const vta_tfl_patch none;
	wr w = {.m = m, .p = p ? p : &none, .fb = {m->image, m->image_bytes}, .err = err};
	*out = NULL;
	*bytes = 0;
	vta_fbb_init(&w.b);
	vta_fb_table root, sg0;
	vta_fb_vec sgs;
	vta_fbb_ref oc = 0, sgr = 0, bufs = 0, md = 0, model = 0;
	snprintf(w.where, sizeof(w.where), "the model");
	vta_status st = wr_check_patch(&w);
	if (st == VTA_OK) {
		vta_error e = {0};
		st = vta_fb_root(&w.fb, TFL_IDENT, &root, &e);
		if (st == VTA_OK)
			st = vta_fb_vector(&w.fb, &root, TFL_MODEL_SUBGRAPHS, 4, &sgs, &e);
		if (st == VTA_OK && sgs.n)
			st = vta_fb_vec_table(&w.fb, &sgs, 0, &sg0, &e);
		if (st == VTA_OK)
			st = vta_fb_vector(&w.fb, &sg0, TFL_SG_TENSORS, 4, &w.tensors, &e);
		if (st == VTA_OK)
			st = vta_fb_vector(&w.fb, &sg0, TFL_SG_OPERATORS, 4, &w.operators, &e);
		if (st == VTA_OK && (!sgs.n || w.tensors.n != m->n_tensors ||
				     w.operators.n != m->n_ops))
			st = vta_fail(&e, VTA_E_USAGE, "the image does not match the model read");
		if (st != VTA_OK)
			st = wr_fail(&w, st, "%s", e.detail);
	}
	if (st == VTA_OK)
		st = wr_buffers(&w, &bufs);
	if (st == VTA_OK)
		st = wr_opcodes(&w, &root, &oc);
	if (st == VTA_OK)
		st = wr_metadata(&w, &root, &md);
	if (st == VTA_OK)
		st = wr_subgraphs(&w, &root, &sgr);
	if (st == VTA_OK) {
		wr_ov ov[] = {
			{TFL_MODEL_OPERATOR_CODES, OV_REF, 0, oc},
			{TFL_MODEL_SUBGRAPHS, OV_REF, 0, sgr},
			{TFL_MODEL_BUFFERS, OV_REF, 0, bufs},
			{TFL_MODEL_METADATA, md ? OV_REF : OV_OMIT, 0, md},
		};
		snprintf(w.where, sizeof(w.where), "the model");
		st = wr_copy(&w, &root, &tfl_desc_model, ov, 4, &model);
	}
	if (st == VTA_OK) {
		vta_error e = {0};
		st = vta_fbb_finish(&w.b, model, TFL_IDENT, out, bytes, &e);
		if (st != VTA_OK)
			st = wr_fail(&w, st, "%s", e.detail);
	}
	vta_fbb_free(&w.b);
	return st;
}
