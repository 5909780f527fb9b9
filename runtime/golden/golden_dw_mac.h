/*
 * golden_dw_mac.h - the inner loop of the golden DEPTHWISE_CONV_2D: per channel, the exact sum
 * of int8 products over a pixel's filter taps, every channel of a tap at once.
 *
 * As golden_dot.h, a plain C loop the compiler vectorizes, compiled for the x86-64 baseline
 * and, where the compiler can, for AVX2 and AVX-512; the widest the host's CPU runs is chosen
 * at run time. Every variant is exact, so all give the same sums.
 */
#ifndef VTA_GOLDEN_DW_MAC_H
#define VTA_GOLDEN_DW_MAC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Products are at most 128 * 128 = 2^14 in magnitude: an int32 sum of this many taps is
 * exact. Callers split longer tap lists. */
#define VTA_GOLDEN_DW_MAC_MAX_TAPS 65536

/* acc[c] += sum over t < taps of (int32)w[t][c] * x[t][c], for c < n; taps at most
 * VTA_GOLDEN_DW_MAC_MAX_TAPS. */
typedef void (*vta_golden_dw_mac_fn)(const int8_t *const *x, const int8_t *const *w,
				     size_t taps, size_t n, int32_t *acc);

/* The variants, narrowest first: "generic", then "avx2" and "avx512" where built. */
#define VTA_GOLDEN_DW_MAC_MAX_VARIANTS 3
typedef struct vta_golden_dw_mac_variant {
	const char *name;
	vta_golden_dw_mac_fn fn;
	int runs_here; /* the host's CPU has the instructions */
} vta_golden_dw_mac_variant;

/* The variants this build has, into v; returns their count. */
size_t vta_golden_dw_mac_variants(vta_golden_dw_mac_variant v[VTA_GOLDEN_DW_MAC_MAX_VARIANTS]);

/* The widest variant the host runs. */
vta_golden_dw_mac_fn vta_golden_dw_mac_pick(void);

#ifdef __cplusplus
}
#endif

#endif /* VTA_GOLDEN_DW_MAC_H */
