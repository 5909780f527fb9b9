/*
 * fb_read.h - a checked reader of the FlatBuffers wire format, the container of .tflite
 * files (docs/models.md "Reading a flatbuffer"). Schema-free: callers name the field ids and
 * sizes; every offset, length and field is checked against the buffer before it is read, so
 * any byte string gives a value or an error, never an out-of-bounds read.
 *
 * Errors are VTA_E_PARSE with a detail that says what was wrong and at which byte; the
 * caller prefixes where it was looking ("tensor 5: shape: ...").
 */
#ifndef VTA_FB_READ_H
#define VTA_FB_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A byte string holding one flatbuffer whose root offset is at byte 0. */
typedef struct vta_fb {
	const uint8_t *buf;
	size_t len;
} vta_fb;

/* A table: its position, its vtable, both sizes read and checked. */
typedef struct vta_fb_table {
	size_t pos;         /* the table's first byte (its signed offset to the vtable) */
	size_t vt;          /* the vtable's first byte */
	uint16_t vt_bytes;  /* vtable size: 4 + 2 per field slot */
	uint16_t obj_bytes; /* inline size of the table, the vtable offset included */
} vta_fb_table;

/* A vector: n elements of `elem` bytes starting at `pos` (after the length word). */
typedef struct vta_fb_vec {
	size_t pos;
	uint32_t n;
	size_t elem;
	bool present;       /* false: the field is absent (n = 0) */
} vta_fb_vec;

/* The root table; `ident` (4 characters or NULL) must follow the root offset. */
vta_status vta_fb_root(const vta_fb *fb, const char *ident, vta_fb_table *t, vta_error *err);
/* The table at byte `pos`. */
vta_status vta_fb_table_at(const vta_fb *fb, size_t pos, vta_fb_table *t, vta_error *err);

/* Byte position of field `id` of `size` inline bytes, or 0 when the field is absent. */
vta_status vta_fb_field(const vta_fb *fb, const vta_fb_table *t, unsigned id, size_t size,
			size_t *pos, vta_error *err);
/* How many field slots the vtable has (ids 0..n-1 may be present). */
static inline unsigned vta_fb_slots(const vta_fb_table *t)
{
	return (unsigned)(t->vt_bytes - 4) / 2;
}
/* Inline offset of field `id` in the table (0 = absent), without checks beyond the slot. */
uint16_t vta_fb_slot(const vta_fb *fb, const vta_fb_table *t, unsigned id);

/* Scalars (little-endian) with the schema's default when absent. */
vta_status vta_fb_u8(const vta_fb *fb, const vta_fb_table *t, unsigned id, uint8_t def,
		     uint8_t *out, vta_error *err);
vta_status vta_fb_i8(const vta_fb *fb, const vta_fb_table *t, unsigned id, int8_t def,
		     int8_t *out, vta_error *err);
vta_status vta_fb_i32(const vta_fb *fb, const vta_fb_table *t, unsigned id, int32_t def,
		      int32_t *out, vta_error *err);
vta_status vta_fb_u32(const vta_fb *fb, const vta_fb_table *t, unsigned id, uint32_t def,
		      uint32_t *out, vta_error *err);
vta_status vta_fb_u64(const vta_fb *fb, const vta_fb_table *t, unsigned id, uint64_t def,
		      uint64_t *out, vta_error *err);
vta_status vta_fb_f32(const vta_fb *fb, const vta_fb_table *t, unsigned id, float def,
		      float *out, vta_error *err);
vta_status vta_fb_bool(const vta_fb *fb, const vta_fb_table *t, unsigned id, bool def,
		       bool *out, vta_error *err);

/* Follow the offset stored in field `id`: *target is its byte position, 0 when absent. */
vta_status vta_fb_offset(const vta_fb *fb, const vta_fb_table *t, unsigned id, size_t *target,
			 vta_error *err);
/* A sub-table field; *present false when absent. */
vta_status vta_fb_subtable(const vta_fb *fb, const vta_fb_table *t, unsigned id,
			   vta_fb_table *sub, bool *present, vta_error *err);
/* A vector field of `elem`-byte elements (absent: present false, n 0). */
vta_status vta_fb_vector(const vta_fb *fb, const vta_fb_table *t, unsigned id, size_t elem,
			 vta_fb_vec *v, vta_error *err);
/* The vector whose length word is at byte `pos`. */
vta_status vta_fb_vector_at(const vta_fb *fb, size_t pos, size_t elem, vta_fb_vec *v,
			    vta_error *err);
/* Element i of a vector of tables. */
vta_status vta_fb_vec_table(const vta_fb *fb, const vta_fb_vec *v, uint32_t i, vta_fb_table *t,
			    vta_error *err);
/* A string field: *s points into the buffer (not NUL-terminated), *n bytes; absent: NULL. */
vta_status vta_fb_string(const vta_fb *fb, const vta_fb_table *t, unsigned id, const char **s,
			 size_t *n, vta_error *err);

/* Element i of a checked vector of scalars. */
static inline const uint8_t *vta_fb_vec_elem(const vta_fb *fb, const vta_fb_vec *v, uint32_t i)
{
	return fb->buf + v->pos + (size_t)i * v->elem;
}

#ifdef __cplusplus
}
#endif

#endif /* VTA_FB_READ_H */
