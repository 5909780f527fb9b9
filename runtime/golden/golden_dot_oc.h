/*
 * golden_dot_oc.h - the golden CONV2D's inner products across output channels: the same exact
 * sums as golden_dot.h (biased inputs x + 128 as uint8 against rows of int8 weights), for
 * short inner products, where a vector along one inner product is mostly empty.
 *
 * The weights are packed once per layer so that one 64-byte vector holds 16 output channels
 * by 4 consecutive inputs (weight row r, inputs 4j..4j+3 at bytes [r % 16][0..3] of group j of
 * block r / 16), the operand layout of AVX-512 VNNI's unsigned-by-signed byte dot product:
 * each pixel's 4 inputs are broadcast and multiplied into 16 channels' sums at once, and
 * several pixels share each weight vector. The rows and the inputs are padded to whole
 * blocks and groups with zero weights.
 *
 * Variants chosen at run time like golden_dot.h: "generic" (plain C the compiler vectorizes,
 * for the x86-64 baseline), and where built "avx2" (sign- and zero-extended to 16 bits,
 * pairwise multiply-add) and "avx512vnni" (the byte dot product itself), written with
 * intrinsics because compilers do not turn the across-channel pattern into those
 * instructions. Every variant is exact: a lane sums at most 65536 products of at most
 * 255 * 128 < 2^15 in magnitude in int32 (so below 2^31) before adding to the int64 result.
 */
#ifndef VTA_GOLDEN_DOT_OC_H
#define VTA_GOLDEN_DOT_OC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VTA_GOLDEN_DOT_OC_LANES 16 /* output channels per packed vector */
#define VTA_GOLDEN_DOT_OC_DEPTH 4  /* consecutive inputs per lane */

/* Inputs n rounded up to whole groups of 4: the stride and readable length of x rows. */
size_t vta_golden_dot_oc_padded(size_t n);

/* Bytes of the packed form of `rows` weight rows of n inputs. */
size_t vta_golden_dot_oc_packed_size(size_t n, size_t rows);

/* Packs rows r < rows of n weights, row r at w + r * stride, into packed
 * (vta_golden_dot_oc_packed_size(n, rows) bytes). */
void vta_golden_dot_oc_pack(const int8_t *w, size_t n, size_t rows, size_t stride,
			    int8_t *packed);

/* out[p * out_stride + r] = sum over i < n of w[r][i] * x[p * x_stride + i], for p < pixels
 * and r < rows, with packed from vta_golden_dot_oc_pack(w, n, rows, ...). Each x row must be
 * readable up to vta_golden_dot_oc_padded(n) bytes (those past n meet zero weights). */
typedef void (*vta_golden_dot_oc_fn)(const uint8_t *x, size_t x_stride, size_t pixels,
				     const int8_t *packed, size_t n, size_t rows, int64_t *out,
				     size_t out_stride);

/* The variants, narrowest first: "generic", then "avx2" and "avx512vnni" where built. */
#define VTA_GOLDEN_DOT_OC_MAX_VARIANTS 3
typedef struct vta_golden_dot_oc_variant {
	const char *name;
	vta_golden_dot_oc_fn fn;
	int runs_here; /* the host's CPU has the instructions */
} vta_golden_dot_oc_variant;

/* The variants this build has, into v; returns their count. */
size_t vta_golden_dot_oc_variants(vta_golden_dot_oc_variant v[VTA_GOLDEN_DOT_OC_MAX_VARIANTS]);

/* The widest variant the host runs; *name (may be NULL) gets its name. */
vta_golden_dot_oc_fn vta_golden_dot_oc_pick(const char **name);

#ifdef __cplusplus
}
#endif

#endif /* VTA_GOLDEN_DOT_OC_H */
