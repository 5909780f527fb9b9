/* golden_dot_oc.c - the golden CONV2D's inner products across output channels (golden_dot_oc.h). */
#include "golden_dot_oc.h"

#include "vta_host_cpu.h"

#include <string.h>

#define OC_LANES VTA_GOLDEN_DOT_OC_LANES
#define OC_DEPTH VTA_GOLDEN_DOT_OC_DEPTH
#define OC_GROUP_BYTES (OC_LANES * OC_DEPTH) /* one packed vector */

/* Groups of inputs summed in int32 before the int64 result: 2^16 products of at most
 * 255 * 128 < 2^15 in magnitude stay below 2^31 (as GD_CHUNK in golden_dot.c). */
#define OC_CHUNK_GROUPS (65536 / OC_DEPTH)

size_t vta_golden_dot_oc_padded(size_t n)
{
	return (n + OC_DEPTH - 1) / OC_DEPTH * OC_DEPTH;
}

static size_t oc_blocks(size_t rows)
{
	return (rows + OC_LANES - 1) / OC_LANES;
}

size_t vta_golden_dot_oc_packed_size(size_t n, size_t rows)
{
	return oc_blocks(rows) * vta_golden_dot_oc_padded(n) * OC_LANES;
}

void vta_golden_dot_oc_pack(const int8_t *w, size_t n, size_t rows, size_t stride,
			    int8_t *packed)
{
	const size_t groups = vta_golden_dot_oc_padded(n) / OC_DEPTH, whole = n / OC_DEPTH;
	/* a row at a time, 4 bytes per group: the packing is as many bytes as the filter and
	 * runs once per layer, so it must not cost more than a few pixels' products */
	for (size_t r = 0; r < oc_blocks(rows) * OC_LANES; r++) {
		int8_t *dst = packed + (r / OC_LANES) * groups * OC_GROUP_BYTES +
			      (r % OC_LANES) * OC_DEPTH;
		if (r >= rows) { /* the last block's missing rows: zero weights */
			for (size_t j = 0; j < groups; j++)
				memset(dst + j * OC_GROUP_BYTES, 0, OC_DEPTH);
			continue;
		}
		const int8_t *src = w + r * stride;
		for (size_t j = 0; j < whole; j++)
			memcpy(dst + j * OC_GROUP_BYTES, src + j * OC_DEPTH, OC_DEPTH);
		if (whole < groups) { /* the last group's missing inputs: zero weights */
			int8_t last[OC_DEPTH] = {0};
			memcpy(last, src + whole * OC_DEPTH, n - whole * OC_DEPTH);
			memcpy(dst + whole * OC_GROUP_BYTES, last, OC_DEPTH);
		}
	}
}

/* Lanes [0, lanes) of one block's int32 partial sums into the int64 results: the first chunk
 * stores, later chunks add. */
static void oc_store(int64_t *out, const int32_t *s, size_t lanes, int add)
{
	for (size_t c = 0; c < lanes; c++)
		out[c] = add ? out[c] + s[c] : s[c];
}

static size_t oc_min(size_t a, size_t b)
{
	return a < b ? a : b;
}

/* The plain C of the baseline: two pixels share each group's weights, 16 lanes each. */
static void oc_generic(const uint8_t *x, size_t x_stride, size_t pixels, const int8_t *packed,
		       size_t n, size_t rows, int64_t *out, size_t out_stride)
{
	const size_t groups = vta_golden_dot_oc_padded(n) / OC_DEPTH;
	for (size_t b = 0; b < oc_blocks(rows); b++) {
		const int8_t *wb = packed + b * groups * OC_GROUP_BYTES;
		const size_t lanes = oc_min(OC_LANES, rows - b * OC_LANES);
		for (size_t p = 0; p < pixels; p += 2) {
			const int two = p + 1 < pixels;
			const uint8_t *x0 = x + p * x_stride, *x1 = two ? x0 + x_stride : x0;
			int64_t *o0 = out + p * out_stride + b * OC_LANES;
			for (size_t j0 = 0; j0 == 0 || j0 < groups; j0 += OC_CHUNK_GROUPS) {
				const size_t j1 = oc_min(groups, j0 + OC_CHUNK_GROUPS);
				int32_t s0[OC_LANES] = {0}, s1[OC_LANES] = {0};
				for (size_t j = j0; j < j1; j++) {
					const int8_t *wj = wb + j * OC_GROUP_BYTES;
					const uint8_t *a = x0 + j * OC_DEPTH, *c = x1 + j * OC_DEPTH;
					for (size_t l = 0; l < OC_LANES; l++) {
						const int8_t *wl = wj + l * OC_DEPTH;
						s0[l] += wl[0] * a[0] + wl[1] * a[1] + wl[2] * a[2] +
							 wl[3] * a[3];
						s1[l] += wl[0] * c[0] + wl[1] * c[1] + wl[2] * c[2] +
							 wl[3] * c[3];
					}
				}
				oc_store(o0, s0, lanes, j0 > 0);
				if (two)
					oc_store(o0 + out_stride, s1, lanes, j0 > 0);
			}
		}
	}
}

#if defined(__GNUC__) && defined(__x86_64__)
#define OC_X86 1
#include <immintrin.h>

#define OC_AVX2 "avx2"
#define OC_VNNI "avx2,avx512f,avx512bw,avx512vl,avx512vnni"

/* A pixel's 4 inputs of group j, as one 32-bit word to broadcast. */
static inline __attribute__((always_inline)) int32_t oc_word(const uint8_t *x, size_t j)
{
	int32_t v;
	memcpy(&v, x + j * OC_DEPTH, sizeof(v));
	return v;
}

/* AVX2: a 16-byte quarter of a packed vector (4 channels x 4 inputs) widened to 16 bits
 * meets the pixel's 4 inputs widened and repeated; the pairwise multiply-add leaves each
 * channel's sum in two adjacent int32 lanes, added once at the end. Two pixels, 16 channels:
 * 8 accumulators, 4 widened weight quarters and a broadcast fit the 16 registers. */
__attribute__((target(OC_AVX2))) static void
oc_avx2(const uint8_t *x, size_t x_stride, size_t pixels, const int8_t *packed, size_t n,
	size_t rows, int64_t *out, size_t out_stride)
{
	const size_t groups = vta_golden_dot_oc_padded(n) / OC_DEPTH;
	for (size_t b = 0; b < oc_blocks(rows); b++) {
		const int8_t *wb = packed + b * groups * OC_GROUP_BYTES;
		const size_t lanes = oc_min(OC_LANES, rows - b * OC_LANES);
		for (size_t p = 0; p < pixels; p += 2) {
			const int two = p + 1 < pixels;
			const uint8_t *xp[2] = {x + p * x_stride, x + (p + (size_t)two) * x_stride};
			for (size_t j0 = 0; j0 == 0 || j0 < groups; j0 += OC_CHUNK_GROUPS) {
				const size_t j1 = oc_min(groups, j0 + OC_CHUNK_GROUPS);
				__m256i acc[2][4];
				for (int k = 0; k < 2; k++)
					for (int q = 0; q < 4; q++)
						acc[k][q] = _mm256_setzero_si256();
				for (size_t j = j0; j < j1; j++) {
					const int8_t *wj = wb + j * OC_GROUP_BYTES;
					__m256i wq[4];
					for (int q = 0; q < 4; q++)
						wq[q] = _mm256_cvtepi8_epi16(_mm_loadu_si128(
							(const __m128i *)(const void *)(wj + 16 * q)));
					for (int k = 0; k < 2; k++) {
						const __m256i xv = _mm256_cvtepu8_epi16(
							_mm_set1_epi32(oc_word(xp[k], j)));
						for (int q = 0; q < 4; q++)
							acc[k][q] = _mm256_add_epi32(
								acc[k][q],
								_mm256_madd_epi16(wq[q], xv));
					}
				}
				for (int k = 0; k < 1 + two; k++) {
					/* lanes of acc[q]: channels 4q, 4q+1 (low half) and 4q+2,
					 * 4q+3 (high half), two partial sums each */
					int32_t s[OC_LANES];
					for (int h = 0; h < 2; h++) {
						__m256i pair = _mm256_hadd_epi32(acc[k][2 * h],
										 acc[k][2 * h + 1]);
						pair = _mm256_permute4x64_epi64(pair, 0xd8);
						_mm256_storeu_si256((__m256i *)(void *)(s + 8 * h), pair);
					}
					oc_store(out + (p + (size_t)k) * out_stride + b * OC_LANES, s,
						 lanes, j0 > 0);
				}
			}
		}
	}
}

/* AVX-512 VNNI: up to 4 blocks (64 channels) by 6 pixels, 24 accumulators; each weight vector
 * loaded once for the 6 pixels, each pixel's broadcast once for the 4 blocks. */
#define OC_PIXELS 6
#define OC_MAX_BLOCKS 4

/* Groups [j0, j1) of `nb` blocks (a constant where inlined) for the pixels xp (all
 * OC_PIXELS readable, the first np stored); rows_left rows from this tile's first. */
static inline __attribute__((always_inline, target(OC_VNNI))) void
oc512_tile(const uint8_t *const *xp, size_t np, const int8_t *w, size_t block_bytes,
	   size_t j0, size_t j1, const int nb, size_t rows_left, int64_t *out,
	   size_t out_stride)
{
	__m512i acc[OC_PIXELS][OC_MAX_BLOCKS];
#pragma GCC unroll 8
	for (int p = 0; p < OC_PIXELS; p++)
#pragma GCC unroll 4
		for (int b = 0; b < nb; b++)
			acc[p][b] = _mm512_setzero_si512();
	for (size_t j = j0; j < j1; j++) {
		__m512i wv[OC_MAX_BLOCKS];
#pragma GCC unroll 4
		for (int b = 0; b < nb; b++)
			wv[b] = _mm512_loadu_si512(w + (size_t)b * block_bytes +
						   j * OC_GROUP_BYTES);
#pragma GCC unroll 8
		for (int p = 0; p < OC_PIXELS; p++) {
			const __m512i xv = _mm512_set1_epi32(oc_word(xp[p], j));
#pragma GCC unroll 4
			for (int b = 0; b < nb; b++)
				acc[p][b] = _mm512_dpbusd_epi32(acc[p][b], xv, wv[b]);
		}
	}
	const int add = j0 > 0;
#pragma GCC unroll 8
	for (int p = 0; p < OC_PIXELS; p++) {
		if ((size_t)p >= np)
			break;
#pragma GCC unroll 4
		for (int b = 0; b < nb; b++) {
			const size_t left = rows_left - (size_t)b * OC_LANES;
			const unsigned lanes = (unsigned)oc_min(OC_LANES, left);
			const __mmask16 m = (__mmask16)((1u << lanes) - 1u);
			const __mmask8 mlo = (__mmask8)(m & 0xff), mhi = (__mmask8)(m >> 8);
			int64_t *dst = out + (size_t)p * out_stride + (size_t)b * OC_LANES;
			__m512i lo = _mm512_cvtepi32_epi64(_mm512_castsi512_si256(acc[p][b]));
			__m512i hi = _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(acc[p][b], 1));
			if (add) {
				lo = _mm512_add_epi64(lo, _mm512_maskz_loadu_epi64(mlo, dst));
				hi = _mm512_add_epi64(hi, _mm512_maskz_loadu_epi64(mhi, dst + 8));
			}
			_mm512_mask_storeu_epi64(dst, mlo, lo);
			_mm512_mask_storeu_epi64(dst + 8, mhi, hi);
		}
	}
}

__attribute__((target(OC_VNNI))) static void
oc_avx512vnni(const uint8_t *x, size_t x_stride, size_t pixels, const int8_t *packed, size_t n,
	      size_t rows, int64_t *out, size_t out_stride)
{
	const size_t groups = vta_golden_dot_oc_padded(n) / OC_DEPTH;
	const size_t block_bytes = groups * OC_GROUP_BYTES;
	const size_t blocks = oc_blocks(rows);
	for (size_t b0 = 0; b0 < blocks; b0 += OC_MAX_BLOCKS) {
		const int nb = (int)oc_min(OC_MAX_BLOCKS, blocks - b0);
		const int8_t *w = packed + b0 * block_bytes;
		const size_t rows_left = rows - b0 * OC_LANES;
		/* the pixels in the inner loop: this tile's weights stay in the first-level
		 * cache for all of them */
		for (size_t p0 = 0; p0 < pixels; p0 += OC_PIXELS) {
			const size_t np = oc_min(OC_PIXELS, pixels - p0);
			const uint8_t *xp[OC_PIXELS];
			for (size_t p = 0; p < OC_PIXELS; p++) /* missing pixels repeat the first */
				xp[p] = x + (p0 + (p < np ? p : 0)) * x_stride;
			int64_t *o = out + p0 * out_stride + b0 * OC_LANES;
			for (size_t j0 = 0; j0 == 0 || j0 < groups; j0 += OC_CHUNK_GROUPS) {
				const size_t j1 = oc_min(groups, j0 + OC_CHUNK_GROUPS);
				switch (nb) {
				case 1:
					oc512_tile(xp, np, w, block_bytes, j0, j1, 1, rows_left, o,
						   out_stride);
					break;
				case 2:
					oc512_tile(xp, np, w, block_bytes, j0, j1, 2, rows_left, o,
						   out_stride);
					break;
				case 3:
					oc512_tile(xp, np, w, block_bytes, j0, j1, 3, rows_left, o,
						   out_stride);
					break;
				default:
					oc512_tile(xp, np, w, block_bytes, j0, j1, 4, rows_left, o,
						   out_stride);
					break;
				}
			}
		}
	}
}
#endif

size_t vta_golden_dot_oc_variants(vta_golden_dot_oc_variant v[VTA_GOLDEN_DOT_OC_MAX_VARIANTS])
{
	size_t k = 0;
	v[k++] = (vta_golden_dot_oc_variant){"generic", oc_generic, 1};
#ifdef OC_X86
	v[k++] = (vta_golden_dot_oc_variant){"avx2", oc_avx2, vta_host_cpu_runs(VTA_HOST_AVX2)};
	v[k++] = (vta_golden_dot_oc_variant){"avx512vnni", oc_avx512vnni,
					     vta_host_cpu_runs(VTA_HOST_AVX512_VNNI)};
#endif
	return k;
}

vta_golden_dot_oc_fn vta_golden_dot_oc_pick(const char **name)
{
	vta_golden_dot_oc_variant v[VTA_GOLDEN_DOT_OC_MAX_VARIANTS];
	size_t k = vta_golden_dot_oc_variants(v);
	while (k > 1 && !v[k - 1].runs_here)
		k--;
	if (name)
		*name = v[k - 1].name;
	return v[k - 1].fn;
}
