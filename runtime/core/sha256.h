/*
 * sha256.h - SHA-256 (FIPS 180-4), for content keys: the golden-output cache names a layer's
 * golden by the hash of what the golden kernel reads, and `vtasim sweep` names a point's
 * results by the hash of its resolved config, options and workload. Not for secrets.
 */
#ifndef VTA_SHA256_H
#define VTA_SHA256_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vta_sha256 {
	uint32_t h[8];
	uint64_t bytes;   /* message length so far */
	uint8_t buf[64];  /* a partial block */
	size_t n;         /* bytes in buf */
} vta_sha256;

#define VTA_SHA256_HEX 65 /* 64 hex digits and the NUL */

void vta_sha256_init(vta_sha256 *s);
void vta_sha256_update(vta_sha256 *s, const void *data, size_t n);
/* The digest as 64 lowercase hex digits. */
void vta_sha256_final_hex(vta_sha256 *s, char hex[VTA_SHA256_HEX]);

/* Field helpers for keys: a string with its length (so "ab"+"c" != "a"+"bc"), an integer
 * and a double as 8 little-endian bytes. */
void vta_sha256_str(vta_sha256 *s, const char *str);
void vta_sha256_u64(vta_sha256 *s, uint64_t v);
void vta_sha256_f64(vta_sha256 *s, double v);

#ifdef __cplusplus
}
#endif

#endif /* VTA_SHA256_H */
