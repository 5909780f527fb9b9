/*
 * vta_bytes.h - little-endian integers in byte buffers: the byte order of instruction words,
 * micro-ops, stream files and SRAM lanes, whatever the host's.
 */
#ifndef VTA_BYTES_H
#define VTA_BYTES_H

#include <stdint.h>

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

#endif /* VTA_BYTES_H */
