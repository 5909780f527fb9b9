/*
 * prng_fill.c - many draws of the workload generator at once (prng.h). Draw k of a SplitMix64
 * stream is a function of the seed and k alone, so the loop below has no dependence between
 * iterations and vectorizes where the CPU multiplies 64-bit lanes (AVX-512DQ; AVX2 emulates
 * them, still faster than one at a time). The variant is chosen at run time, so the binary
 * runs on any x86-64; every variant gives the bits vta_prng_range gives.
 */
#include "prng.h"
#include "vta_host_cpu.h"

#define PF_GAMMA 0x9e3779b97f4a7c15ull

/* vta_prng_next and vta_prng_range of draw e + 1 from state s; the sum done in 32 bits,
 * which keeps the low bits (all an int8 keeps). */
static inline __attribute__((always_inline)) void pf_body(uint64_t s, uint64_t span, int64_t lo,
							  int8_t *out, size_t n)
{
	for (size_t e = 0; e < n; e++) {
		uint64_t z = s + (uint64_t)(e + 1) * PF_GAMMA;
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		z ^= z >> 31;
		out[e] = (int8_t)(uint8_t)((uint32_t)lo + (uint32_t)(((z >> 32) * span) >> 32));
	}
}

#if defined(__GNUC__) && defined(__x86_64__)
__attribute__((target("avx2"))) static void pf_avx2(uint64_t s, uint64_t span, int64_t lo,
						    int8_t *out, size_t n)
{
	pf_body(s, span, lo, out, n);
}

__attribute__((target("avx2,avx512f,avx512dq,avx512vl,avx512bw"))) static void
pf_avx512(uint64_t s, uint64_t span, int64_t lo, int8_t *out, size_t n)
{
	pf_body(s, span, lo, out, n);
}
#endif

void vta_prng_fill_i8(vta_prng *r, int64_t lo, int64_t hi, int8_t *out, size_t count)
{
	const uint64_t span = (uint64_t)(hi - lo) + 1;
#if defined(__GNUC__) && defined(__x86_64__)
	if (vta_host_cpu_runs(VTA_HOST_AVX512)) {
		pf_avx512(r->state, span, lo, out, count);
		r->state += (uint64_t)count * PF_GAMMA;
		return;
	}
	if (vta_host_cpu_runs(VTA_HOST_AVX2)) {
		pf_avx2(r->state, span, lo, out, count);
		r->state += (uint64_t)count * PF_GAMMA;
		return;
	}
#endif
	/* the baseline's emulated 64-bit vector multiplies lose to one draw at a time */
	for (size_t e = 0; e < count; e++)
		out[e] = (int8_t)vta_prng_range(r, lo, hi);
}
