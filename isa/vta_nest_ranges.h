/*
 * vta_nest_ranges.h - the rows a GEMM/ALU loop nest's uops reach in one space, as ranges of
 * consecutive rows: base[k] + o * fo + i * fi for each distinct base index k, outer
 * iteration o and inner iteration i (docs/isa.md "GEMM and ALU: the loop nest"). The stream
 * checks' distinct rows of a nest (vta_nest.c) and the simulator's SRAM liveness
 * (sim/nest_rows.h) both take a nest's rows this way.
 *
 * An instruction's rows in one space are nearly always one range reached in another order
 * (a tile's columns, then its rows): the base's runs of consecutive indices, plus one loop
 * level's multiples of its factor (a range at least as long as the factor grows, a shorter
 * one is copied per iteration), plus the other level's, merged where they meet, inner level
 * first or outer level first. Rows neither order keeps to VTA_NEST_RANGES_MAX ranges are
 * marked in a bitmap of their span (within an SRAM for every caller) and read back in order;
 * rows that would pass 2^32 (where a uop's 32-bit row index wraps) are listed and sorted.
 */
#ifndef VTA_NEST_RANGES_H
#define VTA_NEST_RANGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Rows [first, end). */
typedef struct vta_row_range {
	uint64_t first, end;
} vta_row_range;

/* The most ranges a nest's rows are tracked in before they are listed instead. */
#define VTA_NEST_RANGES_MAX 256

/* A nest's ranges, and what finding them works in (kept by its caller between nests;
 * zero-initialized to start, vta_nest_ranges_free to end). */
typedef struct vta_nest_ranges {
	vta_row_range *v; /* the ranges, ascending and apart (no two meet) */
	size_t n;
	bool listed;      /* the rows were listed and sorted, not found by levels */
	vta_row_range *next;
	size_t cap, cap_next;
	uint64_t *bits;   /* a nest's rows marked, when they are listed */
	size_t cap_bits;
	uint32_t *rows;   /* ... or, past 2^32, listed one by one */
	size_t cap_rows;
} vta_nest_ranges;

void vta_nest_ranges_free(vta_nest_ranges *r);

/*
 * The rows of the nest over base[0..n_base) (ascending, distinct) with iter_out outer and
 * iter_in inner iterations of factors fo and fi, into r->v[0..r->n); a loop level whose
 * factor is 0 adds no row, an empty nest (a count of 0) none at all. Rows that pass 2^32 wrap
 * as a uop's 32-bit index does. False when out of memory (r->n is 0 then).
 */
bool vta_nest_ranges_of(vta_nest_ranges *r, const uint32_t *base, size_t n_base,
			uint32_t iter_out, uint32_t iter_in, uint64_t fo, uint64_t fi);

/* The rows the ranges hold. */
uint64_t vta_nest_ranges_rows(const vta_nest_ranges *r);

#ifdef __cplusplus
}
#endif

#endif /* VTA_NEST_RANGES_H */
