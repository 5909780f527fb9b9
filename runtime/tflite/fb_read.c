/*
 * fb_read.c - the checked FlatBuffers reader (fb_read.h). The wire format, as the FlatBuffers
 * documentation defines it: a table starts with a signed 32-bit offset back to its vtable
 * (vtable = table - offset); a vtable holds its own size, the table's inline size and one
 * 16-bit inline offset per field slot (0 = absent); offsets to vectors, strings and sub-tables
 * are unsigned 32-bit and count forward from where they are stored; a vector is a 32-bit
 * element count followed by the elements; a string is a byte vector followed by a NUL.
 * Everything is little-endian. Each read below checks its bytes lie inside the buffer,
 * with 64-bit arithmetic so no sum can wrap.
 */
#include "fb_read.h"

#include <string.h>

#include "vta_bytes.h"

static vta_status fb_past_end(const vta_fb *fb, const char *what, uint64_t at, uint64_t bytes,
			      vta_error *err)
{
	return vta_fail(err, VTA_E_PARSE, "%s at byte %llu (%llu bytes) runs past the end (%zu bytes)",
			what, (unsigned long long)at, (unsigned long long)bytes, fb->len);
}

static bool fb_inside(const vta_fb *fb, uint64_t at, uint64_t bytes)
{
	return at <= fb->len && bytes <= fb->len - at;
}

static uint16_t fb_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

vta_status vta_fb_table_at(const vta_fb *fb, size_t pos, vta_fb_table *t, vta_error *err)
{
	if (!fb_inside(fb, pos, 4))
		return fb_past_end(fb, "table", pos, 4, err);
	int32_t soff = (int32_t)vta_le32_get(fb->buf + pos);
	int64_t vt = (int64_t)pos - soff;
	if (vt < 0 || !fb_inside(fb, (uint64_t)vt, 4))
		return vta_fail(err, VTA_E_PARSE,
				"table at byte %zu: its vtable offset %d points outside the buffer",
				pos, soff);
	uint16_t vt_bytes = fb_le16(fb->buf + vt), obj_bytes = fb_le16(fb->buf + vt + 2);
	if (vt_bytes < 4 || (vt_bytes & 1))
		return vta_fail(err, VTA_E_PARSE, "table at byte %zu: vtable size %u is not 4 + 2n",
				pos, vt_bytes);
	if (!fb_inside(fb, (uint64_t)vt, vt_bytes))
		return fb_past_end(fb, "vtable", (uint64_t)vt, vt_bytes, err);
	if (obj_bytes < 4)
		return vta_fail(err, VTA_E_PARSE, "table at byte %zu: inline size %u below 4", pos,
				obj_bytes);
	if (!fb_inside(fb, pos, obj_bytes))
		return fb_past_end(fb, "table", pos, obj_bytes, err);
	t->pos = pos;
	t->vt = (size_t)vt;
	t->vt_bytes = vt_bytes;
	t->obj_bytes = obj_bytes;
	return VTA_OK;
}

vta_status vta_fb_root(const vta_fb *fb, const char *ident, vta_fb_table *t, vta_error *err)
{
	if (fb->len < 8)
		return vta_fail(err, VTA_E_PARSE, "%zu bytes: too short for a flatbuffer", fb->len);
	if (ident && memcmp(fb->buf + 4, ident, 4) != 0)
		return vta_fail(err, VTA_E_PARSE, "no '%.4s' file identifier at byte 4", ident);
	return vta_fb_table_at(fb, vta_le32_get(fb->buf), t, err);
}

uint16_t vta_fb_slot(const vta_fb *fb, const vta_fb_table *t, unsigned id)
{
	if (id >= vta_fb_slots(t))
		return 0;
	return fb_le16(fb->buf + t->vt + 4 + 2 * id);
}

vta_status vta_fb_field(const vta_fb *fb, const vta_fb_table *t, unsigned id, size_t size,
			size_t *pos, vta_error *err)
{
	uint16_t off = vta_fb_slot(fb, t, id);
	*pos = 0;
	if (!off)
		return VTA_OK;
	if (off < 4 || (size_t)off + size > t->obj_bytes)
		return vta_fail(err, VTA_E_PARSE,
				"table at byte %zu: field %u (%zu bytes at +%u) outside its %u inline bytes",
				t->pos, id, size, off, t->obj_bytes);
	*pos = t->pos + off;
	return VTA_OK;
}

/* Read a present field's bytes, or leave *out at the default. */
static vta_status fb_scalar(const vta_fb *fb, const vta_fb_table *t, unsigned id, size_t size,
			    const uint8_t **p, vta_error *err)
{
	size_t pos;
	vta_status st = vta_fb_field(fb, t, id, size, &pos, err);
	*p = (st == VTA_OK && pos) ? fb->buf + pos : NULL;
	return st;
}

vta_status vta_fb_u8(const vta_fb *fb, const vta_fb_table *t, unsigned id, uint8_t def,
		     uint8_t *out, vta_error *err)
{
	const uint8_t *p;
	vta_status st = fb_scalar(fb, t, id, 1, &p, err);
	*out = p ? p[0] : def;
	return st;
}

vta_status vta_fb_i8(const vta_fb *fb, const vta_fb_table *t, unsigned id, int8_t def,
		     int8_t *out, vta_error *err)
{
	const uint8_t *p;
	vta_status st = fb_scalar(fb, t, id, 1, &p, err);
	*out = p ? (int8_t)p[0] : def;
	return st;
}

vta_status vta_fb_i32(const vta_fb *fb, const vta_fb_table *t, unsigned id, int32_t def,
		      int32_t *out, vta_error *err)
{
	const uint8_t *p;
	vta_status st = fb_scalar(fb, t, id, 4, &p, err);
	*out = p ? (int32_t)vta_le32_get(p) : def;
	return st;
}

vta_status vta_fb_u32(const vta_fb *fb, const vta_fb_table *t, unsigned id, uint32_t def,
		      uint32_t *out, vta_error *err)
{
	const uint8_t *p;
	vta_status st = fb_scalar(fb, t, id, 4, &p, err);
	*out = p ? vta_le32_get(p) : def;
	return st;
}

vta_status vta_fb_u64(const vta_fb *fb, const vta_fb_table *t, unsigned id, uint64_t def,
		      uint64_t *out, vta_error *err)
{
	const uint8_t *p;
	vta_status st = fb_scalar(fb, t, id, 8, &p, err);
	*out = p ? vta_le64_get(p) : def;
	return st;
}

vta_status vta_fb_f32(const vta_fb *fb, const vta_fb_table *t, unsigned id, float def,
		      float *out, vta_error *err)
{
	const uint8_t *p;
	vta_status st = fb_scalar(fb, t, id, 4, &p, err);
	if (p) {
		uint32_t bits = vta_le32_get(p);
		memcpy(out, &bits, 4);
	} else {
		*out = def;
	}
	return st;
}

vta_status vta_fb_bool(const vta_fb *fb, const vta_fb_table *t, unsigned id, bool def,
		       bool *out, vta_error *err)
{
	const uint8_t *p;
	vta_status st = fb_scalar(fb, t, id, 1, &p, err);
	*out = p ? p[0] != 0 : def;
	return st;
}

vta_status vta_fb_offset(const vta_fb *fb, const vta_fb_table *t, unsigned id, size_t *target,
			 vta_error *err)
{
	const uint8_t *p;
	*target = 0;
	vta_status st = fb_scalar(fb, t, id, 4, &p, err);
	if (st != VTA_OK || !p)
		return st;
	uint64_t at = (uint64_t)(p - fb->buf) + vta_le32_get(p);
	if (at >= fb->len)
		return vta_fail(err, VTA_E_PARSE,
				"table at byte %zu: field %u points to byte %llu, past the end (%zu bytes)",
				t->pos, id, (unsigned long long)at, fb->len);
	if (at == (uint64_t)(p - fb->buf))
		return vta_fail(err, VTA_E_PARSE, "table at byte %zu: field %u points to itself",
				t->pos, id);
	*target = (size_t)at;
	return VTA_OK;
}

vta_status vta_fb_subtable(const vta_fb *fb, const vta_fb_table *t, unsigned id,
			   vta_fb_table *sub, bool *present, vta_error *err)
{
	size_t at;
	*present = false;
	vta_status st = vta_fb_offset(fb, t, id, &at, err);
	if (st != VTA_OK || !at)
		return st;
	*present = true;
	return vta_fb_table_at(fb, at, sub, err);
}

vta_status vta_fb_vector_at(const vta_fb *fb, size_t pos, size_t elem, vta_fb_vec *v,
			    vta_error *err)
{
	if (!fb_inside(fb, pos, 4))
		return fb_past_end(fb, "vector length", pos, 4, err);
	uint32_t n = vta_le32_get(fb->buf + pos);
	if (!fb_inside(fb, (uint64_t)pos + 4, (uint64_t)n * elem))
		return vta_fail(err, VTA_E_PARSE,
				"vector at byte %zu: %u elements of %zu bytes run past the end (%zu bytes)",
				pos, n, elem, fb->len);
	v->pos = pos + 4;
	v->n = n;
	v->elem = elem;
	v->present = true;
	return VTA_OK;
}

vta_status vta_fb_vector(const vta_fb *fb, const vta_fb_table *t, unsigned id, size_t elem,
			 vta_fb_vec *v, vta_error *err)
{
	size_t at;
	memset(v, 0, sizeof(*v));
	v->elem = elem;
	vta_status st = vta_fb_offset(fb, t, id, &at, err);
	if (st != VTA_OK || !at)
		return st;
	return vta_fb_vector_at(fb, at, elem, v, err);
}

vta_status vta_fb_vec_table(const vta_fb *fb, const vta_fb_vec *v, uint32_t i, vta_fb_table *t,
			    vta_error *err)
{
	if (i >= v->n)
		return vta_fail(err, VTA_E_INTERNAL, "vector element %u of %u", i, v->n);
	size_t at = v->pos + (size_t)i * 4;
	uint64_t target = (uint64_t)at + vta_le32_get(fb->buf + at);
	if (target >= fb->len || target == at)
		return vta_fail(err, VTA_E_PARSE,
				"vector element %u at byte %zu points to byte %llu, outside the buffer",
				i, at, (unsigned long long)target);
	return vta_fb_table_at(fb, (size_t)target, t, err);
}

vta_status vta_fb_string(const vta_fb *fb, const vta_fb_table *t, unsigned id, const char **s,
			 size_t *n, vta_error *err)
{
	vta_fb_vec v;
	*s = NULL;
	*n = 0;
	vta_status st = vta_fb_vector(fb, t, id, 1, &v, err);
	if (st != VTA_OK || !v.present)
		return st;
	/* the terminating NUL the format requires */
	if (!fb_inside(fb, v.pos + v.n, 1) || fb->buf[v.pos + v.n] != 0)
		return vta_fail(err, VTA_E_PARSE, "string at byte %zu: no NUL after its %u bytes",
				v.pos - 4, v.n);
	*s = (const char *)fb->buf + v.pos;
	*n = v.n;
	return VTA_OK;
}
