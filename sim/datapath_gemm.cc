/*
 * datapath_gemm.cc - the GEMM uop on the host's vector unit, chosen at run time. The
 * shipped build targets any x86-64 (SSE2, the portable kernel inline in datapath.h); a
 * kernel built for AVX2 (`target("avx2")`, this file only) is used when the CPU has it, for
 * VTA's block_in 16 with whole 16-lane output groups. It computes exactly what the portable
 * kernel does: int8 products summed in int32 (no overflow: 16 x 2^14), added to ACC modulo
 * 2^32, the low 8 bits copied to OUT.
 */
#include "datapath.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define VTASIM_HAVE_AVX2_KERNEL 1
#endif

namespace {

void gemm_portable(const int8_t *inp, const int8_t *wgt, int32_t *acc, int8_t *out,
		   unsigned batch, unsigned block_in, unsigned block_out)
{
	vtasim_gemm_uop(inp, wgt, acc, out, batch, block_in, block_out);
}

#if VTASIM_HAVE_AVX2_KERNEL
/* The dot product of x (16 int8 widened to int16) with one 16-lane weight row, as 8 int32
 * partial sums. */
__attribute__((target("avx2"))) inline __m256i row_avx2(__m256i x, const int8_t *w)
{
	return _mm256_madd_epi16(x, _mm256_cvtepi8_epi16(
					    _mm_loadu_si128((const __m128i *)(const void *)w)));
}

/* Eight 16-lane dot products of x with 8 consecutive weight rows, as 8 int32 lanes in row
 * order. Written out (no array): the compiler keeps every partial sum in a register. */
__attribute__((target("avx2"))) inline __m256i dot8_avx2(__m256i x, const int8_t *w)
{
	/* pairwise sums leave [r0 r1 r2 r3 | r0 r1 r2 r3] halves of rows 0-3 and 4-7 */
	const __m256i s01 = _mm256_hadd_epi32(row_avx2(x, w), row_avx2(x, w + 16));
	const __m256i s23 = _mm256_hadd_epi32(row_avx2(x, w + 32), row_avx2(x, w + 48));
	const __m256i s45 = _mm256_hadd_epi32(row_avx2(x, w + 64), row_avx2(x, w + 80));
	const __m256i s67 = _mm256_hadd_epi32(row_avx2(x, w + 96), row_avx2(x, w + 112));
	const __m256i a = _mm256_hadd_epi32(s01, s23), b = _mm256_hadd_epi32(s45, s67);
	return _mm256_add_epi32(_mm256_permute2x128_si256(a, b, 0x20),
				_mm256_permute2x128_si256(a, b, 0x31));
}

__attribute__((target("avx2"))) void gemm_avx2(const int8_t *inp, const int8_t *wgt,
					       int32_t *acc, int8_t *out, unsigned batch,
					       unsigned block_in, unsigned block_out)
{
	const __m128i low8 = _mm_set1_epi32(0xff);
	for (unsigned b = 0; b < batch; b++) {
		const __m256i x = _mm256_cvtepi8_epi16(
			_mm_loadu_si128((const __m128i *)(const void *)(inp + (uint64_t)b * block_in)));
		int32_t *a = acc + (uint64_t)b * block_out;
		int8_t *o8 = out + (uint64_t)b * block_out;
		for (unsigned o = 0; o < block_out; o += 16) {
			__m256i *a0 = (__m256i *)(void *)(a + o), *a1 = (__m256i *)(void *)(a + o + 8);
			__m256i v0 = _mm256_add_epi32(_mm256_loadu_si256(a0),
						      dot8_avx2(x, wgt + (uint64_t)o * 16));
			__m256i v1 = _mm256_add_epi32(_mm256_loadu_si256(a1),
						      dot8_avx2(x, wgt + (uint64_t)(o + 8) * 16));
			_mm256_storeu_si256(a0, v0);
			_mm256_storeu_si256(a1, v1);
			/* low 8 bits of each lane: 0..255 survive both packs unchanged */
			__m128i l0 = _mm_and_si128(_mm256_castsi256_si128(v0), low8);
			__m128i h0 = _mm_and_si128(_mm256_extracti128_si256(v0, 1), low8);
			__m128i l1 = _mm_and_si128(_mm256_castsi256_si128(v1), low8);
			__m128i h1 = _mm_and_si128(_mm256_extracti128_si256(v1, 1), low8);
			_mm_storeu_si128((__m128i *)(void *)(o8 + o),
					 _mm_packus_epi16(_mm_packs_epi32(l0, h0),
							  _mm_packs_epi32(l1, h1)));
		}
	}
}
#endif

} // namespace

extern "C" vtasim_gemm_fn vtasim_gemm_kernel(unsigned block_in, unsigned block_out, int simd)
{
#if VTASIM_HAVE_AVX2_KERNEL
	if (simd && block_in == 16 && block_out % 16 == 0 && __builtin_cpu_supports("avx2"))
		return gemm_avx2;
#else
	(void)simd;
#endif
	(void)block_in;
	(void)block_out;
	return gemm_portable;
}

extern "C" const char *vtasim_gemm_kernel_name(vtasim_gemm_fn f)
{
#if VTASIM_HAVE_AVX2_KERNEL
	if (f == gemm_avx2)
		return "avx2";
#endif
	return f == gemm_portable ? "portable" : "unknown";
}
