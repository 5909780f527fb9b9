/*
 * prng.h - the seeded generator behind every "random" tensor in a workload (SplitMix64).
 * Deterministic across machines: the same seed gives the same tensor everywhere, so seeds
 * stand in for stored data in workloads and regression cases.
 */
#ifndef VTA_PRNG_H
#define VTA_PRNG_H

#include <stddef.h>
#include <stdint.h>

typedef struct vta_prng {
	uint64_t state;
} vta_prng;

static inline void vta_prng_seed(vta_prng *r, uint64_t seed)
{
	r->state = seed ^ 0x6a09e667f3bcc909ull;
}

static inline uint64_t vta_prng_next(vta_prng *r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform integer in [lo, hi] (hi - lo < 2^32). */
static inline int64_t vta_prng_range(vta_prng *r, int64_t lo, int64_t hi)
{
	uint64_t span = (uint64_t)(hi - lo) + 1;
	return lo + (int64_t)(((vta_prng_next(r) >> 32) * span) >> 32);
}

/* Uniform double in [lo, hi). */
static inline double vta_prng_uniform(vta_prng *r, double lo, double hi)
{
	return lo + (hi - lo) * (double)(vta_prng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* `count` draws of vta_prng_range(r, lo, hi) into out as int8 (their low 8 bits), r advanced
 * past them: the same values, computed several at a time where the CPU has the vector
 * multiplies (SplitMix64 draws are independent of each other; prng_fill.c). */
void vta_prng_fill_i8(vta_prng *r, int64_t lo, int64_t hi, int8_t *out, size_t count);

#endif /* VTA_PRNG_H */
