/*
 * vta_bytes.h - little-endian integers in byte buffers: the byte order of instruction words,
 * micro-ops, stream files and SRAM lanes, whatever the host's; and a quick hash of bytes.
 */
#ifndef VTA_BYTES_H
#define VTA_BYTES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint64_t vta_le64_get(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static inline uint32_t vta_le32_get(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void vta_le_put(uint8_t *p, int bytes, uint64_t v)
{
	for (int i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* FNV-1a's step over eight bytes at a time, for look-ups that compare the bytes themselves
 * once the hashes agree: it needs to be quick rather than strong. */
static inline uint64_t vta_fnv_words(uint64_t h, const void *data, size_t n)
{
	const uint8_t *d = (const uint8_t *)data;
	for (; n >= 8; d += 8, n -= 8) {
		uint64_t w;
		memcpy(&w, d, sizeof(w));
		h = (h ^ w) * 0x100000001b3ull;
		h ^= h >> 29;
	}
	for (; n; d++, n--)
		h = (h ^ *d) * 0x100000001b3ull;
	return h;
}

#endif /* VTA_BYTES_H */
