/* golden_dw_mac.c - the golden depthwise kernel's per-channel products (golden_dw_mac.h). */
#include "golden_dw_mac.h"

#include "vta_host_cpu.h"

/* Channels per block: their sums stay in registers (or the first-level cache) across the
 * taps, so each is loaded and stored once per pixel, not once per tap. The channels past
 * the last whole block go in blocks of DM_SMALL (one vector of int32 sums), then alone. */
#define DM_BLOCK 64
#define DM_SMALL 8

/* Channels from c0 in whole blocks of B (a constant where inlined), each block's sums
 * kept across the taps; returns the first channel past them. */
static inline __attribute__((always_inline)) size_t
dm_blocks(const int8_t *const *x, const int8_t *const *w, size_t taps, size_t n, int32_t *acc,
	  size_t c0, size_t B)
{
	for (; c0 + B <= n; c0 += B) {
		int32_t s[DM_BLOCK];
		for (size_t c = 0; c < B; c++)
			s[c] = acc[c0 + c];
		for (size_t t = 0; t < taps; t++) {
			const int8_t *xt = x[t] + c0, *wt = w[t] + c0;
			for (size_t c = 0; c < B; c++)
				s[c] += (int16_t)((int16_t)wt[c] * (int16_t)xt[c]);
		}
		for (size_t c = 0; c < B; c++)
			acc[c0 + c] = s[c];
	}
	return c0;
}

/* The loop every variant compiles. */
static inline __attribute__((always_inline)) void
dm_body(const int8_t *const *x, const int8_t *const *w, size_t taps, size_t n, int32_t *acc)
{
	size_t c0 = dm_blocks(x, w, taps, n, acc, 0, DM_BLOCK);
	c0 = dm_blocks(x, w, taps, n, acc, c0, DM_SMALL);
	for (size_t t = 0; t < taps; t++) {
		const int8_t *xt = x[t], *wt = w[t];
		for (size_t c = c0; c < n; c++)
			acc[c] += (int16_t)((int16_t)wt[c] * (int16_t)xt[c]);
	}
}

static void dm_generic(const int8_t *const *x, const int8_t *const *w, size_t taps, size_t n,
		       int32_t *acc)
{
	dm_body(x, w, taps, n, acc);
}

#if defined(__GNUC__) && defined(__x86_64__)
#define DM_X86 1
__attribute__((target("avx2"))) static void dm_avx2(const int8_t *const *x,
						    const int8_t *const *w, size_t taps,
						    size_t n, int32_t *acc)
{
	dm_body(x, w, taps, n, acc);
}

__attribute__((target("avx2,avx512f,avx512bw,avx512vl"))) static void
dm_avx512(const int8_t *const *x, const int8_t *const *w, size_t taps, size_t n, int32_t *acc)
{
	dm_body(x, w, taps, n, acc);
}
#endif

size_t vta_golden_dw_mac_variants(vta_golden_dw_mac_variant v[VTA_GOLDEN_DW_MAC_MAX_VARIANTS])
{
	size_t k = 0;
	v[k++] = (vta_golden_dw_mac_variant){"generic", dm_generic, 1};
#ifdef DM_X86
	v[k++] = (vta_golden_dw_mac_variant){"avx2", dm_avx2, vta_host_cpu_runs(VTA_HOST_AVX2)};
	v[k++] = (vta_golden_dw_mac_variant){"avx512", dm_avx512,
					     vta_host_cpu_runs(VTA_HOST_AVX512)};
#endif
	return k;
}

vta_golden_dw_mac_fn vta_golden_dw_mac_pick(void)
{
	vta_golden_dw_mac_variant v[VTA_GOLDEN_DW_MAC_MAX_VARIANTS];
	size_t k = vta_golden_dw_mac_variants(v);
	while (k > 1 && !v[k - 1].runs_here)
		k--;
	return v[k - 1].fn;
}
