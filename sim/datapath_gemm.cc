/*
 * datapath_gemm.cc - the GEMM uop on the host's vector unit, chosen at run time. The
 * shipped build targets any x86-64 (SSE2: the portable kernel inline in datapath.h); kernels
 * built for AVX2 and for AVX-512 VNNI (`target(...)` on their functions, this file only) are
 * used when the CPU has them. Each computes exactly what the portable kernel does: int8
 * products summed in int32 (no overflow: 128 x 2^14), added to ACC modulo 2^32, the low 8
 * bits copied to OUT.
 *
 * AVX-512 VNNI: vpdpbusd adds four u8 x s8 products to each int32 lane, without saturation.
 * The input bytes are made unsigned by flipping their sign bit (x + 128), which adds
 * 128 x sum_k w[o][k] to lane o; that sum is subtracted from ACC first. Both the weights
 * in vpdpbusd's order (lane j of vector q holds w[j][4q..4q+3]) and the per-row sums are a
 * packed WGT row (pack_vnni), made when the row is written, not per uop.
 *
 * AVX2: vpmaddwd multiplies int16 pairs and adds each pair into an int32 lane. A packed WGT
 * row (pack_avx2) holds, per group of 16 outputs and per input pair j, the pair's weights
 * (w[o][2j], w[o][2j+1]) of the 16 outputs as int16; the uop broadcasts input pair j to
 * every lane, so each pair's products land in their output's lane and no horizontal sums
 * are needed. A 16 x 16 block in which each output has at most one nonzero weight (a
 * depthwise layer's diagonal block, the spread of a depth multiplier, an all-zero block)
 * needs one product per output instead of 16: its packed row ends in a trailer
 * (AVX2_ONE_*) naming, per output, the input that weight takes and the weight, and such a
 * uop multiplies the 16 gathered inputs by the 16 weights (exact in int16: |x w| <= 2^14).
 */
#include "datapath.h"
#include "vta_host_cpu.h"

#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define VTASIM_HAVE_X86_KERNELS 1
#endif

namespace {

/* One uop of a kernel: its INP, WGT, ACC and OUT rows. */
typedef void (*uop_fn)(const int8_t *inp, const int8_t *wgt, int32_t *acc, int8_t *out,
		       unsigned batch, unsigned block_in, unsigned block_out);

/*
 * A kernel's two entries around its uop U: `rows_*` on the rows of n uops, `nest_*` walking
 * a nest (vtasim_gemm_nest). Defined once per instruction set, as a function takes no
 * target from its caller and U inlines only into a function of its own target.
 */
#define VTASIM_GEMM_ENTRIES(SUFFIX, TARGET)                                                   \
	template <uop_fn U>                                                                    \
	TARGET void rows_##SUFFIX(const vtasim_gemm_rows *u, uint64_t n, unsigned batch,      \
				  unsigned block_in, unsigned block_out)                       \
	{                                                                                      \
		for (uint64_t i = 0; i < n; i++)                                               \
			U(u[i].inp, u[i].wgt, u[i].acc, u[i].out, batch, block_in, block_out); \
	}                                                                                      \
	template <uop_fn U>                                                                    \
	TARGET void nest_##SUFFIX(const vtasim_gemm_nest *n, unsigned batch, unsigned block_in, \
				  unsigned block_out)                                          \
	{                                                                                      \
		for (uint64_t o = 0; o < n->iter_out; o++)                                     \
			for (uint64_t i = 0; i < n->iter_in; i++) {                            \
				const int8_t *x = n->inp + o * n->inp_out + i * n->inp_in;     \
				const int8_t *w = n->wgt + o * n->wgt_out + i * n->wgt_in;     \
				const uint64_t d = o * n->dst_out + i * n->dst_in;             \
				int32_t *a = n->acc + d;                                       \
				int8_t *y = n->out + d;                                        \
				for (uint64_t k = 0; k < n->uops; k++)                         \
					U(x + n->inp_at[k], w + n->wgt_at[k], a + n->dst_at[k], \
					  y + n->dst_at[k], batch, block_in, block_out);       \
			}                                                                      \
	}

VTASIM_GEMM_ENTRIES(portable, )

/* Kernels this long or longer are walked uop after uop (their grouping would cost more). */
enum { GEMM_GROUP_MAX = 256 };

/* A nest's uops grouped by their ACC row: `order` the uops sorted by row (a stable
 * insertion sort), `ends` each group's end in it; returns the number of groups. */
inline uint64_t group_by_acc_row(const vtasim_gemm_nest *n, uint32_t *order, uint32_t *ends)
{
	const uint64_t K = n->uops;
	for (uint32_t k = 0; k < K; k++) {
		uint32_t j = k;
		for (; j > 0 && n->dst_at[order[j - 1]] > n->dst_at[k]; j--)
			order[j] = order[j - 1];
		order[j] = k;
	}
	uint64_t groups = 0;
	for (uint32_t k = 1; k <= K; k++)
		if (k == K || n->dst_at[order[k]] != n->dst_at[order[k - 1]])
			ends[groups++] = (uint32_t)k;
	return groups;
}

/*
 * A 1 x 16 x 16 kernel's nest, each ACC row's uops at once: the kernel's uops grouped by
 * their ACC row, then per outer iteration (and per inner one when the inner iterations move
 * the rows) each group's row loaded into a register sum (LOAD), each uop added (ADD<ONE>:
 * the new sum) and the row stored once (PUT). ADD<true> asks each WGT row whether it is a
 * one-weight block (ONE_ROW), ADD<false> takes every row whole: the nest asks per uop only
 * when one of its first iteration's rows is such a block. Without scratch, or for a long
 * kernel, uop after uop (UOP's nest). Defined once per instruction set, as
 * VTASIM_GEMM_ENTRIES.
 */
#define VTASIM_GEMM_GROUPED_NEST(SUFFIX, TARGET, UOP, SUM, LOAD, ADD, PUT, ONE_ROW)            \
	template <bool ONE>                                                                    \
	TARGET inline void grouped_##SUFFIX(const vtasim_gemm_nest *n)                         \
	{                                                                                      \
		const uint64_t K = n->uops;                                                    \
		uint32_t *order = n->scratch, *ends = n->scratch + K;                          \
		const uint64_t groups = group_by_acc_row(n, order, ends);                      \
		/* a copy the compiler keeps in registers (read through n, the fields would    \
		 * be loaded again after every OUT row stored: its bytes may alias them) */    \
		const vtasim_gemm_nest c = *n;                                                 \
		/* inner iterations on the same rows: one group spans them all */              \
		const uint64_t inner = c.dst_in == 0 ? c.iter_in : 1;                          \
		for (uint64_t o = 0; o < c.iter_out; o++)                                      \
			for (uint64_t i0 = 0; i0 < c.iter_in; i0 += inner) {                   \
				const uint64_t d = o * c.dst_out + i0 * c.dst_in;              \
				for (uint64_t g = 0, k0 = 0; g < groups; k0 = ends[g++]) {     \
					const uint64_t row = d + c.dst_at[order[k0]];          \
					SUM a = LOAD(c.acc + row);                             \
					for (uint64_t i = i0; i < i0 + inner; i++) {           \
						const int8_t *x =                              \
							c.inp + o * c.inp_out + i * c.inp_in;  \
						const int8_t *w =                              \
							c.wgt + o * c.wgt_out + i * c.wgt_in;  \
						for (uint64_t k = k0; k < ends[g]; k++)        \
							a = ADD<ONE>(a, x + c.inp_at[order[k]], \
								     w + c.wgt_at[order[k]]);  \
					}                                                      \
					PUT(a, c.acc + row, c.out + row);                      \
				}                                                              \
			}                                                                      \
	}                                                                                      \
	TARGET void nest_##SUFFIX##_1x16x16(const vtasim_gemm_nest *n, unsigned batch,         \
					    unsigned block_in, unsigned block_out)             \
	{                                                                                      \
		if (!n->scratch || n->uops >= GEMM_GROUP_MAX) {                                \
			nest_##SUFFIX<UOP>(n, batch, block_in, block_out);                     \
			return;                                                                \
		}                                                                              \
		/* the first iteration's WGT rows stand for the nest's: a layer's blocks are   \
		 * alike; were one unlike them, both forms still give the same sums */         \
		bool one = false;                                                              \
		for (uint64_t k = 0; k < n->uops; k++)                                         \
			one = one || ONE_ROW(n->wgt + n->wgt_at[k]);                           \
		if (one)                                                                       \
			grouped_##SUFFIX<true>(n);                                             \
		else                                                                           \
			grouped_##SUFFIX<false>(n);                                            \
	}

#if VTASIM_HAVE_X86_KERNELS
#define AVX2_TARGET __attribute__((target("avx2")))
VTASIM_GEMM_ENTRIES(avx2, AVX2_TARGET)

/* The trailer of a 16 x 16 block's packed row, after its 512 bytes of pairs: per output,
 * the input byte its one nonzero weight takes (a vpshufb index; 0 when it has none), the
 * weights as int16 (0 when none), and whether the block is such a block at all. */
enum : uint32_t {
	AVX2_ONE_INDEX = 512,
	AVX2_ONE_WEIGHT = AVX2_ONE_INDEX + 16,
	AVX2_ONE_FLAG = AVX2_ONE_WEIGHT + 32,
	AVX2_ONE_END = AVX2_ONE_INDEX + 64
};

/* One packed WGT row (see the top): per group of 16 outputs and per input pair, the pair's
 * weights of the 16 outputs as int16, outputs 0-7 then 8-15; a 16 x 16 block's trailer
 * after them. */
uint32_t avx2_packed_bytes(unsigned block_in, unsigned block_out)
{
	return block_out == 16 ? AVX2_ONE_END : 2 * block_out * block_in;
}

/* Rows r[0..7] of 8 dwords each, transposed in place: r[j] becomes dword j of every row. */
AVX2_TARGET inline void transpose8_avx2(__m256i r[8])
{
	__m256i t[8], u[8];
	for (unsigned i = 0; i < 8; i += 2) {
		t[i] = _mm256_unpacklo_epi32(r[i], r[i + 1]);
		t[i + 1] = _mm256_unpackhi_epi32(r[i], r[i + 1]);
	}
	for (unsigned i = 0; i < 8; i += 4) {
		u[i] = _mm256_unpacklo_epi64(t[i], t[i + 2]);
		u[i + 1] = _mm256_unpackhi_epi64(t[i], t[i + 2]);
		u[i + 2] = _mm256_unpacklo_epi64(t[i + 1], t[i + 3]);
		u[i + 3] = _mm256_unpackhi_epi64(t[i + 1], t[i + 3]);
	}
	for (unsigned j = 0; j < 4; j++) {
		r[j] = _mm256_permute2x128_si256(u[j], u[j + 4], 0x20);
		r[j + 4] = _mm256_permute2x128_si256(u[j], u[j + 4], 0x31);
	}
}

/* The trailer of a 16 x 16 block (AVX2_ONE_*): each output row's nonzero weights as a
 * bit mask, its one's input and weight; a row with two leaves the flag false (and the rest
 * of the trailer, which nothing then reads). */
AVX2_TARGET inline void pack_one_avx2(const int8_t *w, int8_t *p)
{
	uint8_t index[16];
	int16_t weight[16];
	p[AVX2_ONE_FLAG] = 0;
	for (unsigned o = 0; o < 16; o++) {
		const __m128i row = _mm_loadu_si128((const __m128i *)(const void *)(w + 16 * o));
		const unsigned nz =
			~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(row, _mm_setzero_si128())) &
			0xffffu;
		if (nz & (nz - 1))
			return;
		index[o] = (uint8_t)(nz ? __builtin_ctz(nz) : 0);
		weight[o] = w[16 * o + index[o]];
	}
	memcpy(p + AVX2_ONE_INDEX, index, sizeof(index));
	memcpy(p + AVX2_ONE_WEIGHT, weight, sizeof(weight));
	p[AVX2_ONE_FLAG] = 1;
}

/* The products of a block packed with a true AVX2_ONE_FLAG: input row x's byte each output
 * takes times its weight, as int16, outputs 0-15. */
AVX2_TARGET inline __m256i one_products_avx2(const int8_t *x, const int8_t *w)
{
	const __m128i xs =
		_mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(const void *)x),
				 _mm_loadu_si128((const __m128i *)(const void *)(w + AVX2_ONE_INDEX)));
	return _mm256_mullo_epi16(_mm256_cvtepi8_epi16(xs),
				  _mm256_loadu_si256((const __m256i *)(const void *)(w + AVX2_ONE_WEIGHT)));
}

/* block_in 16: each weight row widened to int16 is 8 dwords, one per input pair, and a
 * group of 8 rows transposed puts pair j of the 8 outputs in one vector */
AVX2_TARGET void pack_avx2(const int8_t *w, int8_t *p, unsigned block_in, unsigned block_out)
{
	(void)block_in;
	__m256i *d = (__m256i *)(void *)p;
	for (unsigned og = 0; og < block_out; og += 16)
		for (unsigned h = 0; h < 2; h++) {
			__m256i r[8];
			for (unsigned i = 0; i < 8; i++)
				r[i] = _mm256_cvtepi8_epi16(_mm_loadu_si128(
					(const __m128i *)(const void *)(w + (uint64_t)(og + 8 * h + i) * 16)));
			transpose8_avx2(r);
			for (unsigned j = 0; j < 8; j++)
				_mm256_storeu_si256(d + (uint64_t)og + 2 * j + h, r[j]);
		}
	if (block_out == 16)
		pack_one_avx2(w, p);
}

/* Input row x (16 int8) as its 8 pairs of int16, one int32 each. */
AVX2_TARGET inline void pairs_avx2(const int8_t *x, int32_t pairs[8])
{
	_mm256_storeu_si256((__m256i *)(void *)pairs,
			    _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(const void *)x)));
}

/* The 16 dot products of one input row (as pairs) with a packed 16-output group, added to
 * s0 (outputs 0-7) and s1 (8-15). */
AVX2_TARGET inline void dot16_avx2(const int32_t pairs[8], const int8_t *wg, __m256i &s0,
				   __m256i &s1)
{
	const __m256i *w = (const __m256i *)(const void *)wg;
#pragma GCC unroll 8
	for (unsigned j = 0; j < 8; j++) {
		const __m256i x = _mm256_set1_epi32(pairs[j]);
		s0 = _mm256_add_epi32(s0, _mm256_madd_epi16(x, _mm256_loadu_si256(w + 2 * j)));
		s1 = _mm256_add_epi32(s1, _mm256_madd_epi16(x, _mm256_loadu_si256(w + 2 * j + 1)));
	}
}

/* ACC lanes 0-15 stored, and their low bytes to the OUT row. */
AVX2_TARGET inline void put_avx2(__m256i v0, __m256i v1, int32_t *acc, int8_t *out)
{
	const __m128i low8 = _mm_set1_epi32(0xff);
	_mm256_storeu_si256((__m256i *)(void *)acc, v0);
	_mm256_storeu_si256((__m256i *)(void *)(acc + 8), v1);
	/* low 8 bits of each lane: 0..255 survive both packs unchanged */
	const __m128i l0 = _mm_and_si128(_mm256_castsi256_si128(v0), low8);
	const __m128i h0 = _mm_and_si128(_mm256_extracti128_si256(v0, 1), low8);
	const __m128i l1 = _mm_and_si128(_mm256_castsi256_si128(v1), low8);
	const __m128i h1 = _mm_and_si128(_mm256_extracti128_si256(v1, 1), low8);
	_mm_storeu_si128((__m128i *)(void *)out,
			 _mm_packus_epi16(_mm_packs_epi32(l0, h0), _mm_packs_epi32(l1, h1)));
}

/* The 16 ACC lanes of a row as two vectors, for the grouped nest (and a one-weight uop). */
struct sum_avx2 {
	__m256i lo, hi;
};

AVX2_TARGET inline sum_avx2 load_sum_avx2(const int32_t *acc)
{
	return {_mm256_loadu_si256((const __m256i *)(const void *)acc),
		_mm256_loadu_si256((const __m256i *)(const void *)(acc + 8))};
}

AVX2_TARGET inline bool one_row_avx2(const int8_t *w)
{
	return w[AVX2_ONE_FLAG] != 0;
}

template <bool ONE>
AVX2_TARGET inline sum_avx2 add_uop_avx2(sum_avx2 s, const int8_t *x, const int8_t *w)
{
	if (ONE && one_row_avx2(w)) {
		const __m256i p = one_products_avx2(x, w);
		return {_mm256_add_epi32(s.lo, _mm256_cvtepi16_epi32(_mm256_castsi256_si128(p))),
			_mm256_add_epi32(s.hi, _mm256_cvtepi16_epi32(_mm256_extracti128_si256(p, 1)))};
	}
	int32_t pairs[8];
	pairs_avx2(x, pairs);
	__m256i lo = s.lo, hi = s.hi;
	dot16_avx2(pairs, w, lo, hi);
	return {lo, hi};
}

AVX2_TARGET inline void put_sum_avx2(sum_avx2 s, int32_t *acc, int8_t *out)
{
	put_avx2(s.lo, s.hi, acc, out);
}

/* block_in 16, block_out a multiple of 16, on packed rows */
AVX2_TARGET inline void uop_avx2(const int8_t *inp, const int8_t *wgt, int32_t *acc,
				 int8_t *out, unsigned batch, unsigned block_in, unsigned block_out)
{
	(void)block_in;
	const bool one = block_out == 16 && wgt[AVX2_ONE_FLAG];
	for (unsigned b = 0; b < batch; b++) {
		int32_t *a = acc + (uint64_t)b * block_out;
		int8_t *o8 = out + (uint64_t)b * block_out;
		if (one) { /* block_out 16: the row is one sum */
			put_sum_avx2(add_uop_avx2<true>(load_sum_avx2(a), inp + (uint64_t)b * 16, wgt),
				     a, o8);
			continue;
		}
		int32_t pairs[8];
		pairs_avx2(inp + (uint64_t)b * 16, pairs);
		for (unsigned o = 0; o < block_out; o += 16) {
			__m256i s0 = _mm256_loadu_si256((const __m256i *)(const void *)(a + o));
			__m256i s1 = _mm256_loadu_si256((const __m256i *)(const void *)(a + o + 8));
			dot16_avx2(pairs, wgt + (uint64_t)o * 32, s0, s1);
			put_avx2(s0, s1, a + o, o8 + o);
		}
	}
}

VTASIM_GEMM_GROUPED_NEST(avx2, AVX2_TARGET, uop_avx2, sum_avx2, load_sum_avx2, add_uop_avx2,
			 put_sum_avx2, one_row_avx2)

#define VNNI_TARGET __attribute__((target("avx512f,avx512bw,avx512vnni")))
VTASIM_GEMM_ENTRIES(vnni, VNNI_TARGET)

/* The packed layout (see the top): block_out / 16 groups of block_in / 4 vectors of 16
 * lanes x 4 bytes, then the block_out int32 sums 128 x sum_k w[o][k]. */
uint32_t vnni_packed_bytes(unsigned block_in, unsigned block_out)
{
	return block_out * block_in + 4 * block_out;
}

/*
 * Packs one WGT row (see vnni_packed_bytes). block_in 16: each group of 16 output rows is 4
 * vectors of 16 dwords (4 rows each) whose 4 x 4 dword blocks are transposed with two
 * vpermt2d per vector; other widths copy dwords. The sums come from the packed vectors:
 * vpdpbusd of 128 (as u8) with w gives 128 x w[o][k] summed per lane.
 */
VNNI_TARGET void pack_vnni(const int8_t *w, int8_t *p, unsigned block_in, unsigned block_out)
{
	const unsigned groups = block_in / 4;
	const __m512i u128 = _mm512_set1_epi32((int32_t)0x80808080u);
	int32_t *corr = (int32_t *)(void *)(p + (uint64_t)block_out * block_in);
	for (unsigned og = 0; og < block_out; og += 16) {
		const int8_t *src = w + (uint64_t)og * block_in; /* 16 rows of block_in */
		int8_t *dst = p + (uint64_t)og * block_in;         /* `groups` vectors */
		if (block_in == 16) {
			const __m512i a0 = _mm512_loadu_si512(src), a1 = _mm512_loadu_si512(src + 64);
			const __m512i a2 = _mm512_loadu_si512(src + 128);
			const __m512i a3 = _mm512_loadu_si512(src + 192);
			/* lane j of vector q: dword q of row j, row j in a[j / 4] at dword
			 * (j % 4) x 4; vpermt2d's index bit 4 picks its second source */
			const __m512i rows = _mm512_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28, 0, 4, 8,
							       12, 16, 20, 24, 28);
			for (unsigned q = 0; q < 4; q++) {
				const __m512i idx = _mm512_add_epi32(rows, _mm512_set1_epi32((int)q));
				_mm512_storeu_si512(dst + 64 * q,
						    _mm512_mask_blend_epi32(
							    (__mmask16)0xff00,
							    _mm512_permutex2var_epi32(a0, idx, a1),
							    _mm512_permutex2var_epi32(a2, idx, a3)));
			}
		} else {
			for (unsigned j = 0; j < 16; j++)
				for (unsigned q = 0; q < groups; q++)
					memcpy(dst + 64 * (uint64_t)q + 4 * j,
					       src + (uint64_t)j * block_in + 4 * q, 4);
		}
		__m512i c = _mm512_setzero_si512();
		for (unsigned q = 0; q < groups; q++)
			c = _mm512_dpbusd_epi32(c, u128, _mm512_loadu_si512(dst + 64 * (uint64_t)q));
		_mm512_storeu_si512(corr + og, c);
	}
}

/* The default shape, 1 x 16 x 16, written out: the input's four dwords come from one load
 * (flipped once, spread with vpshufd). The all-ones zero-masked forms of the intrinsics
 * are the same instructions; GCC 12 warns that the unmasked ones use an undefined value. */
/* The products of one 1 x 16 x 16 uop, 16 int32 lanes (sign flip corrected). */
VNNI_TARGET inline __m512i dot_vnni_1x16x16(const int8_t *inp, const int8_t *w)
{
	const __m512i flip = _mm512_set1_epi32((int32_t)0x80808080u);
	const __mmask16 all = 0xffff;
	const __m512i x = _mm512_xor_si512(
		_mm512_maskz_broadcast_i32x4(all, _mm_loadu_si128((const __m128i *)(const void *)inp)),
		flip);
	const __m512i zero = _mm512_setzero_si512();
	__m512i s0 = _mm512_dpbusd_epi32(zero, _mm512_maskz_shuffle_epi32(all, x, (_MM_PERM_ENUM)0x00),
					 _mm512_loadu_si512(w));
	__m512i s1 = _mm512_dpbusd_epi32(zero, _mm512_maskz_shuffle_epi32(all, x, (_MM_PERM_ENUM)0x55),
					 _mm512_loadu_si512(w + 64));
	s0 = _mm512_dpbusd_epi32(s0, _mm512_maskz_shuffle_epi32(all, x, (_MM_PERM_ENUM)0xaa),
				 _mm512_loadu_si512(w + 128));
	s1 = _mm512_dpbusd_epi32(s1, _mm512_maskz_shuffle_epi32(all, x, (_MM_PERM_ENUM)0xff),
				 _mm512_loadu_si512(w + 192));
	return _mm512_sub_epi32(_mm512_add_epi32(s0, s1), _mm512_loadu_si512(w + 256));
}

/* An ACC row's new value stored, and its low bytes to the OUT row. */
VNNI_TARGET inline void put_vnni_1x16x16(__m512i a, int32_t *acc, int8_t *out)
{
	_mm512_storeu_si512(acc, a);
	_mm_storeu_si128((__m128i *)(void *)out, _mm512_maskz_cvtepi32_epi8((__mmask16)0xffff, a));
}

VNNI_TARGET inline void uop_vnni_1x16x16(const int8_t *inp, const int8_t *w, int32_t *acc,
					 int8_t *out, unsigned batch, unsigned block_in,
					 unsigned block_out)
{
	(void)batch;
	(void)block_in;
	(void)block_out;
	/* ACC last: a uop reading an ACC row a recent one wrote waits only for the add */
	const __m512i dot = dot_vnni_1x16x16(inp, w);
	put_vnni_1x16x16(_mm512_add_epi32(_mm512_loadu_si512(acc), dot), acc, out);
}

VNNI_TARGET inline __m512i load_sum_vnni(const int32_t *acc)
{
	return _mm512_loadu_si512(acc);
}

/* no one-weight form in this layout */
VNNI_TARGET inline bool one_row_vnni(const int8_t *)
{
	return false;
}

template <bool ONE>
VNNI_TARGET inline __m512i add_uop_vnni(__m512i a, const int8_t *x, const int8_t *w)
{
	return _mm512_add_epi32(a, dot_vnni_1x16x16(x, w));
}

VTASIM_GEMM_GROUPED_NEST(vnni, VNNI_TARGET, uop_vnni_1x16x16, __m512i, load_sum_vnni,
			 add_uop_vnni, put_vnni_1x16x16, one_row_vnni)

/* Input bytes 4q..4q+3 of x with their sign bits flipped (x + 128 as u8), in every lane. */
VNNI_TARGET inline __m512i vnni_x(const int8_t *x, unsigned q)
{
	uint32_t v;
	memcpy(&v, x + 4 * q, 4);
	return _mm512_set1_epi32((int32_t)(v ^ 0x80808080u));
}

/* One batch row of one uop: G = block_in / 4 when fixed at compile time (0: from block_in).
 * Two sums halve the chain of dependent vpdpbusd. */
template <unsigned G>
VNNI_TARGET inline void vnni_row(const int8_t *x, const int8_t *w, const int32_t *corr,
				 int32_t *acc, int8_t *out, unsigned block_in, unsigned block_out)
{
	const unsigned groups = G ? G : block_in / 4;
	for (unsigned og = 0; og < block_out; og += 16) {
		const int8_t *wg = w + (uint64_t)og * block_in;
		__m512i s0 = _mm512_setzero_si512(), s1 = _mm512_setzero_si512();
		for (unsigned q = 0; q + 1 < groups; q += 2) {
			s0 = _mm512_dpbusd_epi32(s0, vnni_x(x, q),
						 _mm512_loadu_si512(wg + 64 * (uint64_t)q));
			s1 = _mm512_dpbusd_epi32(s1, vnni_x(x, q + 1),
						 _mm512_loadu_si512(wg + 64 * (uint64_t)(q + 1)));
		}
		if (groups & 1)
			s0 = _mm512_dpbusd_epi32(s0, vnni_x(x, groups - 1),
						 _mm512_loadu_si512(wg + 64 * (uint64_t)(groups - 1)));
		/* ACC last (see uop_vnni_1x16x16) */
		s0 = _mm512_add_epi32(_mm512_loadu_si512(acc + og),
				      _mm512_sub_epi32(_mm512_add_epi32(s0, s1),
						       _mm512_loadu_si512(corr + og)));
		_mm512_storeu_si512(acc + og, s0);
		/* vpmovdb (zero-masked with all ones: see uop_vnni_1x16x16) */
		_mm_storeu_si128((__m128i *)(void *)(out + og),
				 _mm512_maskz_cvtepi32_epi8((__mmask16)0xffff, s0));
	}
}

/* block_in a multiple of 4, block_out a multiple of 16, on packed rows */
template <unsigned G>
VNNI_TARGET inline void uop_vnni(const int8_t *inp, const int8_t *w, int32_t *acc, int8_t *out,
				 unsigned batch, unsigned block_in, unsigned block_out)
{
	const int32_t *corr = (const int32_t *)(const void *)(w + (uint64_t)block_out * block_in);
	for (unsigned b = 0; b < batch; b++)
		vnni_row<G>(inp + (uint64_t)b * block_in, w, corr, acc + (uint64_t)b * block_out,
			    out + (uint64_t)b * block_out, block_in, block_out);
}
#endif

} // namespace

extern "C" vtasim_gemm_kernel vtasim_gemm_choose(unsigned batch, unsigned block_in,
						 unsigned block_out, vtasim_gemm_isa most)
{
#if VTASIM_HAVE_X86_KERNELS
	const bool groups16 = block_out % 16 == 0;
	if (most >= VTASIM_GEMM_AVX512_VNNI && block_in % 4 == 0 && groups16 &&
	    vta_host_cpu_runs(VTA_HOST_AVX512_VNNI)) {
		if (block_in == 16 && block_out == 16 && batch == 1)
			return {rows_vnni<uop_vnni_1x16x16>, nest_vnni_1x16x16, pack_vnni,
				vnni_packed_bytes(block_in, block_out), "avx512vnni"};
		if (block_in == 16)
			return {rows_vnni<uop_vnni<4>>, nest_vnni<uop_vnni<4>>, pack_vnni,
				vnni_packed_bytes(block_in, block_out), "avx512vnni"};
		if (block_in == 32)
			return {rows_vnni<uop_vnni<8>>, nest_vnni<uop_vnni<8>>, pack_vnni,
				vnni_packed_bytes(block_in, block_out), "avx512vnni"};
		return {rows_vnni<uop_vnni<0>>, nest_vnni<uop_vnni<0>>, pack_vnni,
			vnni_packed_bytes(block_in, block_out), "avx512vnni"};
	}
	if (most >= VTASIM_GEMM_AVX2 && block_in == 16 && groups16 &&
	    vta_host_cpu_runs(VTA_HOST_AVX2))
		return {rows_avx2<uop_avx2>,
			batch == 1 && block_out == 16 ? nest_avx2_1x16x16 : nest_avx2<uop_avx2>,
			pack_avx2, avx2_packed_bytes(block_in, block_out), "avx2"};
#else
	(void)batch;
	(void)block_in;
	(void)block_out;
	(void)most;
#endif
	return {rows_portable<vtasim_gemm_uop>, nest_portable<vtasim_gemm_uop>, nullptr, 0,
		"portable"};
}
