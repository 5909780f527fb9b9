/*
 * fb_build.h - a FlatBuffers builder: writes the wire format fb_read.h reads
 * (docs/models.md "Writing a flatbuffer"). Like FlatBuffers' own builders it builds back to
 * front, children before parents, so every offset points forward; objects are named by a
 * reference, their distance from the end of the buffer. Scalars are aligned to their size,
 * vectors to their element size (at least 4) or a forced alignment (a .tflite Buffer's data:
 * 16), and the finished buffer's length is a multiple of the largest alignment used, so
 * alignment relative to the end is alignment relative to the start.
 *
 * Equal vtables are written once and shared, as FlatBuffers' builders do.
 *
 * The first failure (out of memory, a buffer beyond 2 GiB, a table too large) sticks: later
 * calls do nothing and vta_fbb_finish() returns it.
 */
#ifndef VTA_FB_BUILD_H
#define VTA_FB_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VTA_FBB_MAX_FIELDS 64

/* An object already written: its distance from the end of the buffer (0 = none). */
typedef uint32_t vta_fbb_ref;

typedef struct vta_fbb {
	uint8_t *buf;       /* bytes live in [cap - size, cap) */
	size_t cap, size;
	size_t minalign;
	bool in_table;
	size_t table_start;
	uint32_t field_at[VTA_FBB_MAX_FIELDS]; /* distance of each field set, 0 = unset */
	uint32_t *vtables;  /* distances of the vtables written, to share equal ones */
	size_t n_vtables, cap_vtables;
	vta_error err;      /* the first failure; err.status VTA_OK while all is well */
} vta_fbb;

void vta_fbb_init(vta_fbb *b);
void vta_fbb_free(vta_fbb *b);

/* A vector of n elements of `elem` bytes (little-endian, as stored), aligned to `align`
 * (0: the element size; never below 4). */
vta_fbb_ref vta_fbb_vector(vta_fbb *b, const void *data, size_t n, size_t elem, size_t align);
/* A vector of offsets to objects already written. */
vta_fbb_ref vta_fbb_ref_vector(vta_fbb *b, const vta_fbb_ref *refs, size_t n);
/* A string of n bytes (NUL appended). */
vta_fbb_ref vta_fbb_string(vta_fbb *b, const char *s, size_t n);

/* A table: start, set fields (each id once, 0..VTA_FBB_MAX_FIELDS-1), end. */
void vta_fbb_start(vta_fbb *b);
void vta_fbb_scalar(vta_fbb *b, unsigned id, uint64_t value, size_t size);
void vta_fbb_ref_field(vta_fbb *b, unsigned id, vta_fbb_ref ref);
vta_fbb_ref vta_fbb_end(vta_fbb *b);

/* A copy of a table that holds no offsets: its vtable and inline bytes as they were, placed
 * at the same address modulo 8 as `orig_pos` so every field keeps its alignment. */
vta_fbb_ref vta_fbb_raw_table(vta_fbb *b, const uint8_t *vtable, size_t vt_bytes,
			      const uint8_t *obj, size_t obj_bytes, size_t orig_pos);

/* Write the root offset (and the 4-character identifier, or NULL) and hand the finished
 * buffer over (*out, free() it); the builder is empty afterwards. */
vta_status vta_fbb_finish(vta_fbb *b, vta_fbb_ref root, const char *ident, uint8_t **out,
			  size_t *len, vta_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VTA_FB_BUILD_H */
