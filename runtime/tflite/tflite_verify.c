/*
 * tflite_verify.c - the whole .tflite flatbuffer checked as FlatBuffers' own verifier checks
 * it (the one TFLite and TFLM run from code flatc generates), before the reader reads a
 * field: every table reachable from the root through the schema, the fields vtasim never
 * reads included. Walked with the schema descriptors the writer copies by
 * (tflite_schema.c), so the two never disagree about what a field holds.
 *
 * Per the verifier: a table starts 4-aligned, its vtable 2-aligned, both inside the buffer;
 * a scalar field lies inside the table and is aligned to its size; an offset is 4-aligned,
 * non-zero, below 2^31 and lands inside the buffer; a vector or string's length word is
 * 4-aligned and its elements (fewer than 2^31 bytes) inside the buffer; a string ends in a
 * NUL; a vector of tables holds no null offsets; union members are verified by their type
 * (a type the schema does not know is left alone, as the generated code does); tables
 * nest at most 64 deep and at most 10^6 are visited (the verifier's defaults), so a file
 * whose tables share children cannot make the walk long. docs/models.md says where this
 * differs from flatc's code.
 */
#include "tflite_read.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "vta_bytes.h"

#define VERIFY_MAX_DEPTH 64
#define VERIFY_MAX_TABLES 1000000
#define VERIFY_MAX_BYTES 0x7fffffffu /* FLATBUFFERS_MAX_BUFFER_SIZE */

/* One step of where the walk is: a table's field, a vector's element or a union's member. */
typedef enum { V_FIELD, V_INDEX, V_MEMBER } v_step_kind;
typedef struct v_step {
	v_step_kind kind;
	unsigned n;        /* the field's id, the element's index or the member's type */
	const tfl_desc *d; /* V_FIELD: the table's descriptor */
	const char *name;  /* V_MEMBER: the member's name */
	bool named;        /* V_MEMBER: the schema knows its fields */
} v_step;

/* Two steps a table deep at most (a field, then an element or a member). */
#define VERIFY_MAX_STEPS (2 * VERIFY_MAX_DEPTH + 2)

typedef struct verifier {
	tfl_rd *r;
	const vta_fb *fb;
	unsigned depth;
	size_t tables;
	/* where the walk is, written out only for an error ("subgraphs[0].tensors[3]
	 * .quantization"): most files fail nowhere, and naming every step cost more than
	 * checking it */
	v_step steps[VERIFY_MAX_STEPS];
	unsigned n_steps;
} verifier;

/* The walk's place as text, each step appended as it was taken, cut at size - 1. */
static void v_path(const verifier *v, char *path, size_t size)
{
	path[0] = '\0';
	for (unsigned i = 0; i < v->n_steps; i++) {
		const v_step *st = &v->steps[i];
		const size_t mark = strlen(path);
		char name[48];
		if (st->kind == V_FIELD)
			snprintf(path + mark, size - mark, "%s%s", path[0] ? "." : "",
				 tfl_field_name(st->d, st->n, name, sizeof(name)));
		else if (st->kind == V_INDEX)
			snprintf(path + mark, size - mark, "[%u]", st->n);
		else if (st->named)
			snprintf(path + mark, size - mark, "<%s>", st->name);
		else
			snprintf(path + mark, size - mark, "<%s %u>", st->name, st->n);
	}
}

static vta_status v_fail(verifier *v, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

static vta_status v_fail(verifier *v, const char *fmt, ...)
{
	char msg[VTA_ERROR_DETAIL_MAX], path[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	v_path(v, path, sizeof(path));
	return tfl_fail(v->r, VTA_E_PARSE, "flatbuffer: %s: %s", path[0] ? path : "(root)", msg);
}

/* Append text to the path (".shape", "[3]"); the caller cuts it back to the mark returned. */
/* Take a step (the caller takes it back: v->n_steps--); a walk that deep has failed already
 * (VERIFY_MAX_DEPTH), so a step past the array is never taken. */
static void v_step_in(verifier *v, v_step step)
{
	if (v->n_steps < VERIFY_MAX_STEPS)
		v->steps[v->n_steps] = step;
	v->n_steps++;
}

static bool v_inside(const verifier *v, uint64_t at, uint64_t bytes)
{
	return at <= v->fb->len && bytes <= v->fb->len - at;
}

/* The uoffset stored at byte `at` (field `id` of a table, or a vector element), followed. */
static vta_status v_offset(verifier *v, size_t at, size_t *target)
{
	if (at % 4)
		return v_fail(v, "offset at byte %zu is not 4-byte aligned", at);
	if (!v_inside(v, at, 4))
		return v_fail(v, "offset at byte %zu runs past the end (%zu bytes)", at, v->fb->len);
	uint32_t o = vta_le32_get(v->fb->buf + at);
	if (o == 0 || o > VERIFY_MAX_BYTES || !v_inside(v, (uint64_t)at + o, 1))
		return v_fail(v, "offset %u at byte %zu points outside the buffer (%zu bytes)", o,
			      at, v->fb->len);
	*target = at + o;
	return VTA_OK;
}

/* The vector (or string) whose length word is at `pos`: its element count. */
static vta_status v_vector(verifier *v, size_t pos, size_t elem, bool string, uint32_t *n)
{
	const char *kind = string ? "string" : "vector";
	if (pos % 4)
		return v_fail(v, "%s at byte %zu is not 4-byte aligned", kind, pos);
	if (!v_inside(v, pos, 4))
		return v_fail(v, "%s length at byte %zu runs past the end (%zu bytes)", kind, pos,
			      v->fb->len);
	*n = vta_le32_get(v->fb->buf + pos);
	uint64_t bytes = (uint64_t)*n * elem;
	if (bytes >= VERIFY_MAX_BYTES || !v_inside(v, (uint64_t)pos + 4, bytes + string))
		return v_fail(v, "%s at byte %zu: %u elements of %zu bytes run past the end "
			      "(%zu bytes)", kind, pos, *n, elem, v->fb->len);
	if (string && v->fb->buf[pos + 4 + *n] != 0)
		return v_fail(v, "string at byte %zu: no NUL after its %u bytes", pos, *n);
	return VTA_OK;
}

static vta_status v_table(verifier *v, size_t pos, const tfl_desc *d);

/* Field `id` of table t, which the descriptor says holds f (the path names it). */
static vta_status v_field(verifier *v, const vta_fb_table *t, const tfl_desc *d, unsigned id,
			  uint16_t off)
{
	const tfl_field *f = d->fields ? &d->fields[id] : NULL;
	/* a table of scalars: its width from scalar_sizes, or at least a byte */
	size_t width = d->scalar_sizes ? (size_t)(d->scalar_sizes[id] - '0') : 1;
	size_t inline_bytes = !f ? width : f->kind == TFL_K_SCALAR ? f->size : 4;
	if (off < 4 || (size_t)off + inline_bytes > t->obj_bytes)
		return v_fail(v, "%zu bytes at +%u outside the table's %u inline bytes",
			      inline_bytes, off, t->obj_bytes);
	size_t at = t->pos + off;
	if (!f) {
		if (d->scalar_sizes && at % width)
			return v_fail(v, "a %zu-byte scalar at byte %zu is not aligned to its size",
				      width, at);
		return VTA_OK;
	}
	size_t target = 0;
	uint32_t n;
	vta_status st;
	switch ((tfl_kind)f->kind) {
	case TFL_K_NONE:
		return VTA_OK;
	case TFL_K_SCALAR:
		if (at % f->size)
			return v_fail(v, "a %u-byte scalar at byte %zu is not aligned to its size",
				      f->size, at);
		return VTA_OK;
	case TFL_K_STRING:
		if ((st = v_offset(v, at, &target)))
			return st;
		return v_vector(v, target, 1, true, &n);
	case TFL_K_VECTOR:
		if ((st = v_offset(v, at, &target)))
			return st;
		return v_vector(v, target, f->size, false, &n);
	case TFL_K_TABLE:
		if ((st = v_offset(v, at, &target)))
			return st;
		return v_table(v, target, f->sub);
	case TFL_K_TABLES:
		if ((st = v_offset(v, at, &target)) || (st = v_vector(v, target, 4, false, &n)))
			return st;
		for (uint32_t i = 0; i < n; i++) {
			size_t elem = target + 4 + (size_t)i * 4, sub;
			v_step_in(v, (v_step){.kind = V_INDEX, .n = i});
			st = v_offset(v, elem, &sub);
			if (!st)
				st = v_table(v, sub, f->sub);
			v->n_steps--;
			if (st)
				return st;
		}
		return VTA_OK;
	case TFL_K_UNION: {
		/* the member's type is the byte in the field before */
		uint16_t toff = vta_fb_slot(v->fb, t, id - 1);
		uint8_t type = toff && toff < t->obj_bytes ? v->fb->buf[t->pos + toff] : 0;
		tfl_desc member;
		if ((st = v_offset(v, at, &target)))
			return st;
		if (!f->resolve(type, &member))
			return VTA_OK; /* NONE or a member this schema does not know */
		v_step_in(v, (v_step){.kind = V_MEMBER, .n = type, .name = member.name,
				      .named = member.fields != NULL});
		st = v_table(v, target, &member);
		v->n_steps--;
		return st;
	}
	}
	return VTA_OK;
}

static vta_status v_table(verifier *v, size_t pos, const tfl_desc *d)
{
	if (v->depth >= VERIFY_MAX_DEPTH)
		return v_fail(v, "%s tables nested more than %d deep", d->name, VERIFY_MAX_DEPTH);
	if (++v->tables > VERIFY_MAX_TABLES)
		return v_fail(v, "more than %d tables", VERIFY_MAX_TABLES);
	if (pos % 4)
		return v_fail(v, "%s table at byte %zu is not 4-byte aligned", d->name, pos);
	vta_fb_table t;
	vta_error e = {0};
	if (vta_fb_table_at(v->fb, pos, &t, &e))
		return v_fail(v, "%s %s", d->name, e.detail);
	if (t.vt % 2)
		return v_fail(v, "%s table at byte %zu: its vtable at byte %zu is not 2-byte "
			      "aligned", d->name, pos, t.vt);
	v->depth++;
	unsigned n = vta_fb_slots(&t);
	if (n > d->n_fields)
		n = (unsigned)d->n_fields; /* later fields: a newer schema's, left alone */
	vta_status st = VTA_OK;
	for (unsigned id = 0; !st && id < n; id++) {
		uint16_t off = vta_fb_slot(v->fb, &t, id);
		if (!off)
			continue;
		v_step_in(v, (v_step){.kind = V_FIELD, .n = id, .d = d});
		st = v_field(v, &t, d, id, off);
		v->n_steps--;
	}
	v->depth--;
	return st;
}

vta_status tfl_verify(tfl_rd *r)
{
	verifier v = {.r = r, .fb = &r->fb};
	if (r->fb.len >= VERIFY_MAX_BYTES)
		return tfl_fail(r, VTA_E_PARSE, "flatbuffer: %zu bytes, at most %u", r->fb.len,
				VERIFY_MAX_BYTES - 1);
	size_t root;
	vta_status st = v_offset(&v, 0, &root);
	return st ? st : v_table(&v, root, &tfl_desc_model);
}
