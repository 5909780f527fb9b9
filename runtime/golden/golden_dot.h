/*
 * golden_dot.h - the inner product of the golden CONV2D and FULLY_CONNECTED kernels: one
 * vector of biased inputs (x + 128, as uint8) against rows of int8 weights, summed exactly.
 *
 * It is a plain C loop the compiler vectorizes. The same loop is compiled for the x86-64
 * baseline and, where the compiler can, for AVX2 and for AVX-512 with VNNI (whose
 * unsigned-by-signed byte dot product is this loop's pattern); the widest the host's CPU
 * runs is chosen at run time, so the binary runs on any x86-64. Every variant is exact, so
 * all give the same sums.
 */
#ifndef VTA_GOLDEN_DOT_H
#define VTA_GOLDEN_DOT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* out[r] = sum over i < n of w[r * stride + i] * x[i], for r < rows. */
typedef void (*vta_golden_dot_fn)(const uint8_t *x, const int8_t *w, size_t n, size_t rows,
				  size_t stride, int64_t *out);

/* The same for two input vectors at once (two pixels of a convolution): out0 from x0 and
 * out1 from x1, each weight loaded once for both. */
typedef void (*vta_golden_dot2_fn)(const uint8_t *x0, const uint8_t *x1, const int8_t *w,
				   size_t n, size_t rows, size_t stride, int64_t *out0,
				   int64_t *out1);

/* The variants, narrowest first: "generic", then "avx2" and "avx512vnni" where built. */
#define VTA_GOLDEN_DOT_MAX_VARIANTS 3
typedef struct vta_golden_dot_variant {
	const char *name;
	vta_golden_dot_fn fn;
	vta_golden_dot2_fn fn2;
	int runs_here; /* the host's CPU has the instructions */
} vta_golden_dot_variant;

/* The variants this build has, into v; returns their count. */
size_t vta_golden_dot_variants(vta_golden_dot_variant v[VTA_GOLDEN_DOT_MAX_VARIANTS]);

/* The widest variant the host runs. */
vta_golden_dot_fn vta_golden_dot_pick(void);
vta_golden_dot2_fn vta_golden_dot2_pick(void);

#ifdef __cplusplus
}
#endif

#endif /* VTA_GOLDEN_DOT_H */
