/*
 * fb_build.c - the FlatBuffers builder (fb_build.h). Bytes are prepended: an object written
 * when `size` bytes exist sits `size` bytes before the end, and an offset stored at distance
 * d to an object at distance r holds d - r. A table is its fields, then a 32-bit slot for the
 * vtable offset, then (before it) its vtable.
 */
#include "fb_build.h"

#include <stdlib.h>
#include <string.h>

/* FlatBuffers' own limit: offsets are 32-bit and must stay positive as signed numbers. */
#define FBB_MAX ((size_t)0x7fffffff)

void vta_fbb_init(vta_fbb *b)
{
	memset(b, 0, sizeof(*b));
	b->minalign = 8;
}

void vta_fbb_free(vta_fbb *b)
{
	free(b->buf);
	free(b->vtables);
	vta_fbb_init(b);
}

static bool fbb_ok(const vta_fbb *b)
{
	return b->err.status == VTA_OK;
}

/* Room for n more bytes at the front. */
static bool fbb_grow(vta_fbb *b, size_t n)
{
	if (!fbb_ok(b))
		return false;
	if (n > FBB_MAX - b->size) {
		vta_fail(&b->err, VTA_E_DATA, "flatbuffer: more than 2 GiB");
		return false;
	}
	if (b->size + n <= b->cap)
		return true;
	size_t cap = b->cap ? b->cap : 1024;
	while (cap < b->size + n)
		cap *= 2;
	uint8_t *nb = malloc(cap);
	if (!nb) {
		vta_fail(&b->err, VTA_E_NOMEM, "flatbuffer: out of memory (%zu bytes)", cap);
		return false;
	}
	if (b->size)
		memcpy(nb + cap - b->size, b->buf + b->cap - b->size, b->size);
	free(b->buf);
	b->buf = nb;
	b->cap = cap;
	return true;
}

static uint8_t *fbb_push(vta_fbb *b, const void *data, size_t n)
{
	if (!fbb_grow(b, n))
		return NULL;
	b->size += n;
	uint8_t *p = b->buf + b->cap - b->size;
	if (data)
		memcpy(p, data, n);
	else
		memset(p, 0, n);
	return p;
}

static void fbb_push_le(vta_fbb *b, uint64_t v, size_t n)
{
	uint8_t le[8];
	for (size_t i = 0; i < n; i++)
		le[i] = (uint8_t)(v >> (8 * i));
	fbb_push(b, le, n);
}

/* Pad so that after `len` more bytes the size is a multiple of `align` (a power of two). */
static void fbb_prealign(vta_fbb *b, size_t len, size_t align)
{
	if (align > b->minalign)
		b->minalign = align;
	size_t pad = (0 - (b->size + len)) & (align - 1);
	if (pad)
		fbb_push(b, NULL, pad);
}

/* The offset to `ref` stored at the distance reached after pushing it. */
static void fbb_push_offset(vta_fbb *b, vta_fbb_ref ref)
{
	if (!fbb_ok(b))
		return;
	uint64_t at = b->size + 4;
	if (!ref || ref >= at) {
		vta_fail(&b->err, VTA_E_INTERNAL, "flatbuffer: offset to object %u at %llu", ref,
			 (unsigned long long)at);
		return;
	}
	fbb_push_le(b, at - ref, 4);
}

vta_fbb_ref vta_fbb_vector(vta_fbb *b, const void *data, size_t n, size_t elem, size_t align)
{
	size_t a = align > elem ? align : elem;
	if (a < 4)
		a = 4;
	if (n && elem > FBB_MAX / n) {
		vta_fail(&b->err, VTA_E_DATA, "flatbuffer: vector of %zu elements too large", n);
		return 0;
	}
	fbb_prealign(b, n * elem, a);
	fbb_push(b, data, n * elem);
	fbb_push_le(b, n, 4);
	return fbb_ok(b) ? (vta_fbb_ref)b->size : 0;
}

vta_fbb_ref vta_fbb_ref_vector(vta_fbb *b, const vta_fbb_ref *refs, size_t n)
{
	if (n > FBB_MAX / 4) {
		vta_fail(&b->err, VTA_E_DATA, "flatbuffer: vector of %zu offsets too large", n);
		return 0;
	}
	fbb_prealign(b, n * 4, 4);
	for (size_t i = n; i-- > 0;)
		fbb_push_offset(b, refs[i]);
	fbb_push_le(b, n, 4);
	return fbb_ok(b) ? (vta_fbb_ref)b->size : 0;
}

vta_fbb_ref vta_fbb_string(vta_fbb *b, const char *s, size_t n)
{
	if (n >= FBB_MAX) {
		vta_fail(&b->err, VTA_E_DATA, "flatbuffer: string too large");
		return 0;
	}
	fbb_prealign(b, n + 1, 4);
	fbb_push(b, NULL, 1);
	fbb_push(b, s, n);
	fbb_push_le(b, n, 4);
	return fbb_ok(b) ? (vta_fbb_ref)b->size : 0;
}

void vta_fbb_start(vta_fbb *b)
{
	if (b->in_table)
		vta_fail(&b->err, VTA_E_INTERNAL, "flatbuffer: nested table");
	b->in_table = true;
	b->table_start = b->size;
	memset(b->field_at, 0, sizeof(b->field_at));
}

static bool fbb_field_ok(vta_fbb *b, unsigned id)
{
	if (!fbb_ok(b))
		return false;
	if (!b->in_table || id >= VTA_FBB_MAX_FIELDS || b->field_at[id]) {
		vta_fail(&b->err, VTA_E_INTERNAL, "flatbuffer: field %u set outside a table or twice",
			 id);
		return false;
	}
	return true;
}

void vta_fbb_scalar(vta_fbb *b, unsigned id, uint64_t value, size_t size)
{
	if (!fbb_field_ok(b, id))
		return;
	fbb_prealign(b, size, size);
	fbb_push_le(b, value, size);
	b->field_at[id] = (uint32_t)b->size;
}

void vta_fbb_ref_field(vta_fbb *b, unsigned id, vta_fbb_ref ref)
{
	if (!fbb_field_ok(b, id))
		return;
	fbb_prealign(b, 4, 4);
	fbb_push_offset(b, ref);
	b->field_at[id] = (uint32_t)b->size;
}

/* The vtable just written (vt_bytes at distance b->size) for the table at distance `obj`:
 * if an equal one exists, drop the new one and point the table there. */
static void fbb_share_vtable(vta_fbb *b, size_t obj, size_t vt_bytes)
{
	const uint8_t *vt = b->buf + b->cap - b->size;
	size_t at = b->size;
	for (size_t i = 0; i < b->n_vtables; i++) {
		const uint8_t *old = b->buf + b->cap - b->vtables[i];
		if ((size_t)(old[0] | old[1] << 8) == vt_bytes && !memcmp(old, vt, vt_bytes)) {
			b->size -= vt_bytes;
			at = b->vtables[i];
			break;
		}
	}
	if (at == b->size && b->n_vtables == b->cap_vtables) {
		size_t cap = b->cap_vtables ? 2 * b->cap_vtables : 64;
		uint32_t *n = realloc(b->vtables, cap * sizeof(*n));
		if (n) { /* without room the vtable is simply not shared later */
			b->vtables = n;
			b->cap_vtables = cap;
		}
	}
	if (at == b->size && b->n_vtables < b->cap_vtables)
		b->vtables[b->n_vtables++] = (uint32_t)at;
	/* table - vtable: positive when the vtable is before the table, negative after */
	uint8_t *table = b->buf + b->cap - obj;
	uint32_t soff = (uint32_t)((int64_t)at - (int64_t)obj);
	for (int i = 0; i < 4; i++)
		table[i] = (uint8_t)(soff >> (8 * i));
}

vta_fbb_ref vta_fbb_end(vta_fbb *b)
{
	b->in_table = false;
	fbb_prealign(b, 4, 4);
	fbb_push(b, NULL, 4);
	if (!fbb_ok(b))
		return 0;
	size_t obj = b->size;
	if (obj - b->table_start > 0xffff) {
		vta_fail(&b->err, VTA_E_DATA, "flatbuffer: table of %zu inline bytes",
			 obj - b->table_start);
		return 0;
	}
	unsigned slots = 0;
	for (unsigned id = 0; id < VTA_FBB_MAX_FIELDS; id++)
		if (b->field_at[id])
			slots = id + 1;
	for (unsigned id = slots; id-- > 0;)
		fbb_push_le(b, b->field_at[id] ? obj - b->field_at[id] : 0, 2);
	fbb_push_le(b, obj - b->table_start, 2);
	fbb_push_le(b, 4 + 2 * slots, 2);
	if (!fbb_ok(b))
		return 0;
	fbb_share_vtable(b, obj, 4 + 2 * slots);
	return (vta_fbb_ref)obj;
}

vta_fbb_ref vta_fbb_raw_table(vta_fbb *b, const uint8_t *vtable, size_t vt_bytes,
			      const uint8_t *obj, size_t obj_bytes, size_t orig_pos)
{
	if (b->in_table || obj_bytes < 4 || vt_bytes < 4) {
		vta_fail(&b->err, VTA_E_INTERNAL, "flatbuffer: raw table copy");
		return 0;
	}
	/* the table's address, the end's distance from the start being a multiple of 8,
	 * is congruent to orig_pos modulo 8 when its distance is -orig_pos */
	size_t pad = (0 - orig_pos - (b->size + obj_bytes)) & 7;
	if (pad)
		fbb_push(b, NULL, pad);
	uint8_t *t = fbb_push(b, obj, obj_bytes);
	if (!t)
		return 0;
	size_t at = b->size;
	if (!fbb_push(b, vtable, vt_bytes))
		return 0;
	fbb_share_vtable(b, at, vt_bytes);
	return (vta_fbb_ref)at;
}

vta_status vta_fbb_finish(vta_fbb *b, vta_fbb_ref root, const char *ident, uint8_t **out,
			  size_t *len, vta_error *err)
{
	*out = NULL;
	*len = 0;
	fbb_prealign(b, ident ? 8 : 4, b->minalign);
	if (ident)
		fbb_push(b, ident, 4);
	fbb_push_offset(b, root);
	if (!fbb_ok(b)) {
		vta_status st = b->err.status;
		if (err)
			*err = b->err;
		vta_fbb_free(b);
		return st;
	}
	memmove(b->buf, b->buf + b->cap - b->size, b->size);
	*out = b->buf;
	*len = b->size;
	b->buf = NULL;
	vta_fbb_free(b);
	return VTA_OK;
}
