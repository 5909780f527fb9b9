/*
 * golden_cache.h - golden outputs named by content, computed once and read where the same
 * layer runs again. A layer's golden output depends on its tensors, its parameters and the
 * arithmetic mode, never on the hardware config or the thread count. The key is a hash of
 * what the golden kernel reads (vta_layer_ops.golden_key) and the mode.
 *
 * Two kinds of cache:
 *   - on disk (vta_golden_cache_open): a design-space sweep computes each golden once and
 *     every point, a process of its own, reads it (`vtasim sweep`, docs/sweep.md). Keys are
 *     SHA-256; an entry is written to a temporary file and renamed, so a reader sees a whole
 *     entry or none, and processes may share a folder. An entry carries its own digest and
 *     is read only when it checks (a damaged one is a miss).
 *   - in memory (vta_golden_cache_memory): one process's runs of the same layer, such as a
 *     workload's repeated layers or the same workload with another thread count. Keys are a
 *     fast 128-bit hash (the content is hashed at memory speed: a SHA-256 of a layer's
 *     tensors would cost more than its golden kernel).
 * The cache counts what it computed and what it reused, so a run can say so.
 */
#ifndef VTA_GOLDEN_CACHE_H
#define VTA_GOLDEN_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "golden.h"
#include "sha256.h"
#include "tensor.h"
#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A key being built: SHA-256, or the fast hash of in-memory caches. */
typedef struct vta_golden_key {
	int fast;
	vta_sha256 sha;
	uint64_t lane[4]; /* fast: four independent lanes over 32-byte blocks */
	uint64_t bytes;
	uint8_t buf[32];
	size_t n;
} vta_golden_key;

void vta_golden_key_init(vta_golden_key *k, int fast);
void vta_golden_key_update(vta_golden_key *k, const void *data, size_t n);
/* Field helpers, as vta_sha256_str, _u64, _f64 (sha256.h). */
void vta_golden_key_str(vta_golden_key *k, const char *str);
void vta_golden_key_u64(vta_golden_key *k, uint64_t v);
void vta_golden_key_f64(vta_golden_key *k, double v);
/* The key as hex digits (64 for SHA-256, 32 for the fast hash). */
void vta_golden_key_final_hex(vta_golden_key *k, char hex[VTA_SHA256_HEX]);

typedef struct vta_golden_entry vta_golden_entry;

typedef struct vta_golden_cache {
	char dir[512];              /* on disk; empty: in memory */
	vta_golden_entry *entries;  /* in memory */
	size_t n_entries, cap_entries;
	uint64_t computed, reused;  /* golden outputs computed, and read instead */
} vta_golden_cache;

/* Use (and create, if its parent exists) the folder `dir`. VTA_E_IO when it cannot. */
vta_status vta_golden_cache_open(vta_golden_cache *c, const char *dir, vta_error *err);
/* An empty cache in memory. */
void vta_golden_cache_memory(vta_golden_cache *c);
/* Free what an in-memory cache holds (nothing to do on disk). */
void vta_golden_cache_close(vta_golden_cache *c);
/* Whether keys for c are the fast hash (in memory) or SHA-256 (on disk). */
int vta_golden_cache_fast_keys(const vta_golden_cache *c);

/* The entry `key` into out->data (out->shape says what is expected; an entry of another
 * shape, or a damaged one, is a miss) and *stats. False on a miss. */
bool vta_golden_cache_load(const vta_golden_cache *c, const char key[VTA_SHA256_HEX],
			   vta_tensor_i8 *out, vta_golden_stats *stats);

/* Check every entry on disk (its digest over its key, shape, counts and outputs) and remove
 * each that does not check, so it is computed again rather than trusted. Returns how many
 * were removed, the first one's file name in `first`. Nothing to do in memory. */
size_t vta_golden_cache_scrub(const vta_golden_cache *c, char *first, size_t size);

/* Write the entry `key` (on disk atomically). VTA_E_IO naming the file when it cannot,
 * VTA_E_NOMEM in memory. */
vta_status vta_golden_cache_store(vta_golden_cache *c, const char key[VTA_SHA256_HEX],
				  const vta_tensor_i8 *t, const vta_golden_stats *stats,
				  vta_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VTA_GOLDEN_CACHE_H */
