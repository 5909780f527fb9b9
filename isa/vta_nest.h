/*
 * vta_nest.h - the distinct rows a GEMM/ALU loop nest names, per index (dst, src, wgt), for
 * the stream checks (vta_race.c). The rows of an index are base[k] + o * factor_out +
 * i * factor_in over the uops k of [uop_bgn, uop_end) and the iterations (o, i).
 *
 * The layers of a program repeat the same kernel (the same micro-ops and loop) many times,
 * often from another place of the UOP SRAM, so the sets are kept in a small cache keyed by
 * what they depend on: the loop's counts and factors and the bytes of its micro-ops. A
 * LOAD UOP that rewrites a kernel between two instructions changes those bytes, so a stale
 * set is never used.
 */
#ifndef VTA_NEST_H
#define VTA_NEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vta_config.h"
#include "vta_insn.h"

typedef struct vta_nest_cache vta_nest_cache;

/* One kernel: the largest value of each index (loop offsets added), and, per index asked
 * for, its distinct rows in ascending order (valid as long as the cache). */
typedef struct vta_nest {
	uint64_t max[3];
	const uint32_t *rows[3];
	size_t n_rows[3];
} vta_nest;

/* A cache for rows below `rows` (the largest SRAM a uop index may name); NULL when out of
 * memory. */
vta_nest_cache *vta_nest_cache_new(const vta_config *cfg, uint64_t rows);
void vta_nest_cache_free(vta_nest_cache *c);

typedef enum vta_nest_result {
	VTA_NEST_OK,
	VTA_NEST_UOP_BY_UOP, /* not for a nest: the caller walks uop by uop */
	VTA_NEST_NOMEM
} vta_nest_result;

/* The kernel of loop l over uop_sram: VTA_NEST_OK with out->max filled; UOP_BY_UOP when a
 * uop does not decode or the loop runs no uop. out stays valid until the next call. */
vta_nest_result vta_nest_find(vta_nest_cache *c, const vta_loop *l, const uint8_t *uop_sram,
		  vta_nest *out);

/* Fill out->rows[j] and n_rows[j] for the indices of mask `used` (bit j) of the kernel
 * vta_nest_find found last, once the caller knows their max lie within their SRAMs
 * (UOP_BY_UOP when one lies beyond the cache's rows after all). */
vta_nest_result vta_nest_rows(vta_nest_cache *c, unsigned used, vta_nest *out);

#endif /* VTA_NEST_H */
