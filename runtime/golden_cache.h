/*
 * golden_cache.h - golden outputs kept on disk, named by content. A layer's golden output
 * depends on its tensors, its parameters and the arithmetic mode, never on the hardware
 * config, so a design-space sweep computes each once and every point reads it
 * (`vtasim sweep`, docs/sweep.md). The key is the SHA-256 of what the golden kernel reads
 * (vta_layer_ops.golden_key) and the mode; an entry is written to a temporary file and
 * renamed, so a reader sees a whole entry or none, and processes may share a folder.
 */
#ifndef VTA_GOLDEN_CACHE_H
#define VTA_GOLDEN_CACHE_H

#include <stdbool.h>

#include "golden.h"
#include "sha256.h"
#include "tensor.h"
#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vta_golden_cache {
	char dir[512];
} vta_golden_cache;

/* Use (and create, if its parent exists) the folder `dir`. VTA_E_IO when it cannot. */
vta_status vta_golden_cache_open(vta_golden_cache *c, const char *dir, vta_error *err);

/* The entry `key` into out->data (out->shape says what is expected; an entry of another
 * shape, or a damaged one, is a miss) and *stats. False on a miss. */
bool vta_golden_cache_load(const vta_golden_cache *c, const char key[VTA_SHA256_HEX],
			   vta_tensor_i8 *out, vta_golden_stats *stats);

/* Write the entry `key` atomically. VTA_E_IO naming the file when it cannot. */
vta_status vta_golden_cache_store(const vta_golden_cache *c, const char key[VTA_SHA256_HEX],
				  const vta_tensor_i8 *t, const vta_golden_stats *stats,
				  vta_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VTA_GOLDEN_CACHE_H */
