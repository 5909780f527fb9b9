/*
 * datapath_alu.cc - the ALU uop on the host's vector unit, chosen at run time per op. The
 * shipped build targets any x86-64 (the portable kernels of datapath.cc); kernels built for
 * AVX2 and for AVX-512 F (`target(...)` on their functions, this file only) are used when
 * the CPU has them. Each gives exactly the portable lanes (docs/isa.md "ALU operations"):
 *
 * - SHR: vpsrav by the amount as unsigned (an amount over 31 fills with the sign, as a shift
 *   by 31 does); a negative amount is a vpsllv by min(-amount, 31) as unsigned, so
 *   -INT32_MIN (itself) counts as over 31.
 * - SRDHM: TFLite's (ab + nudge) / 2^31 truncated toward zero equals floor((ab + 2^30) /
 *   2^31) for both signs of ab (ab < 0: 1 - 2^30 + 2^31 - 1 = 2^30). Its low 32 bits are
 *   bits 31..62 of the 64-bit sum, taken by a logical shift. INT32_MIN is the result only
 *   for INT32_MIN x INT32_MIN (ab = 2^62), which saturates to INT32_MAX.
 * - RSHR: the portable remainder test with e = clamp(amount, 0, 31); the remainder and the
 *   threshold are below 2^31, so a signed compare orders them.
 *
 * Whole vectors run here; AVX2 hands a row's last lanes (fewer than 8) to the portable
 * kernel, AVX-512 masks them.
 */
#include "datapath.h"

#include <cstring> /* memcpy */

#include "vta_alu_ops.h"
#include "vta_host_cpu.h"

#if defined(__x86_64__) && defined(__GNUC__)
/* GCC 12's AVX-512 intrinsics pass an undefined vector as the unused merge source of their
 * unmasked forms, which -Wmaybe-uninitialized reports from inside the header. */
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#define VTASIM_HAVE_X86_KERNELS 1
#endif

namespace {

/* The uops of a nest in their order (vtasim_alu_nest), each row by `row`. Always inlined, so
 * that in a kernel built for a vector extension a constant `row` inlines too. The nest's
 * fields are read into locals once: the rows' byte stores may alias anything, so read
 * through n they would be loaded again after every row. */
template <bool IMM, unsigned LANES = 0>
__attribute__((always_inline)) inline uint64_t walk_nest(const vtasim_alu_nest &n, vtasim_alu_fn row)
{
	const unsigned lanes = LANES ? LANES : n.lanes; /* fixed: the row's loop unrolls */
	int32_t *const acc = n.acc;
	int8_t *const out = n.out;
	const uint32_t *const dst_at = n.dst, *const src_at = n.src;
	const uint32_t uops = n.uops, iter_out = n.iter_out, iter_in = n.iter_in;
	const uint64_t dst_out = n.dst_out, dst_in = n.dst_in, src_out = n.src_out,
		       src_in = n.src_in;
	const int32_t imm = n.imm;
	const bool copy_src = IMM && n.imm_src;
	uint64_t d_o = 0, s_o = 0;
	for (uint32_t o = 0; o < iter_out; o++, d_o += dst_out, s_o += src_out) {
		uint64_t d_off = d_o, s_off = s_o;
		for (uint32_t i = 0; i < iter_in; i++, d_off += dst_in, s_off += src_in)
			for (uint32_t k = 0; k < uops; k++) {
				const uint64_t d = dst_at[k] + d_off, s = src_at[k] + s_off;
				int32_t *dst = acc + d * lanes;
				const int32_t *src = acc + s * lanes;
				if (copy_src && s != d)
					std::memcpy(dst, src, lanes * sizeof(int32_t));
				row(dst, IMM ? nullptr : src, imm, out + d * lanes, lanes);
			}
	}
	return (uint64_t)iter_out * iter_in * uops;
}

/* A nest on op's portable kernel (a call per row: the kernels are chosen per op). */
uint64_t nest_portable(uint32_t op, const vtasim_alu_nest &n)
{
	const vtasim_alu_fn row = vtasim_alu_portable(op);
	return n.use_imm ? walk_nest<true>(n, row) : walk_nest<false>(n, row);
}

typedef uint64_t (*nest_fn)(const vtasim_alu_nest &n);

/* An op's kernels at one instruction-set level: a row, and a nest (NULL: a row at a time). */
struct op_kernels {
	vtasim_alu_fn row;
	nest_fn nest;
};

/* An op of VTA_ALU_OPS reaching the end of a kernel's if-chain has no vector lanes: the
 * generated dispatch below instantiates every row, so that fails to compile. */
template <uint32_t OP> constexpr bool has_no_vector_lanes = false;

#if VTASIM_HAVE_X86_KERNELS
#define AVX2_TARGET __attribute__((target("avx2")))
#define AVX512_TARGET __attribute__((target("avx512f")))

template <uint32_t OP> AVX2_TARGET inline __m256i lanes_avx2(__m256i a, __m256i b)
{
	const __m256i zero = _mm256_setzero_si256(), one = _mm256_set1_epi32(1);
	const __m256i c31 = _mm256_set1_epi32(31);
	if constexpr (OP == VTA_ALU_MIN) {
		return _mm256_min_epi32(a, b);
	} else if constexpr (OP == VTA_ALU_MAX) {
		return _mm256_max_epi32(a, b);
	} else if constexpr (OP == VTA_ALU_ADD) {
		return _mm256_add_epi32(a, b);
	} else if constexpr (OP == VTA_ALU_MUL) {
		return _mm256_mullo_epi32(a, b);
	} else if constexpr (OP == VTA_ALU_SHR) {
		const __m256i left = _mm256_sllv_epi32(a, _mm256_min_epu32(_mm256_sub_epi32(zero, b), c31));
		return _mm256_blendv_epi8(_mm256_srav_epi32(a, b), left, _mm256_srai_epi32(b, 31));
	} else if constexpr (OP == VTA_ALU_SRDHM) {
		const __m256i half = _mm256_set1_epi64x(int64_t{1} << 30);
		const __m256i even = _mm256_add_epi64(_mm256_mul_epi32(a, b), half);
		const __m256i odd = _mm256_add_epi64(
			_mm256_mul_epi32(_mm256_srli_epi64(a, 32), _mm256_srli_epi64(b, 32)), half);
		const __m256i r = _mm256_blend_epi32(_mm256_srli_epi64(even, 31),
						     _mm256_slli_epi64(odd, 1), 0xaa);
		/* INT32_MIN - 1 = INT32_MAX */
		return _mm256_add_epi32(r, _mm256_cmpeq_epi32(r, _mm256_set1_epi32(INT32_MIN)));
	} else if constexpr (OP == VTA_ALU_RSHR) {
		const __m256i e = _mm256_min_epi32(_mm256_max_epi32(b, zero), c31);
		const __m256i mask = _mm256_sub_epi32(_mm256_sllv_epi32(one, e), one);
		const __m256i rem = _mm256_and_si256(a, mask);
		/* (mask >> 1) + (a < 0) */
		const __m256i thr = _mm256_sub_epi32(_mm256_srli_epi32(mask, 1), _mm256_srai_epi32(a, 31));
		return _mm256_sub_epi32(_mm256_srav_epi32(a, e), _mm256_cmpgt_epi32(rem, thr));
	} else {
		static_assert(has_no_vector_lanes<OP>, "an ALU op without AVX2 lanes");
		return a;
	}
}

/* The low 8 bits of v's 8 lanes as 8 bytes (0..255 survive both packs unchanged). */
AVX2_TARGET inline __m128i low8_avx2(__m256i v)
{
	const __m256i m = _mm256_and_si256(v, _mm256_set1_epi32(0xff));
	const __m128i w = _mm_packs_epi32(_mm256_castsi256_si128(m), _mm256_extracti128_si256(m, 1));
	return _mm_packus_epi16(w, w);
}

/* always inlined: a nest walks many one-row uops (walk_nest) */
template <uint32_t OP, bool IMM>
AVX2_TARGET __attribute__((always_inline)) inline void
row_avx2(int32_t *dst, const int32_t *src, int32_t imm, int8_t *out, unsigned lanes)
{
	const __m256i bi = _mm256_set1_epi32(imm);
	unsigned i = 0;
	for (; i + 8 <= lanes; i += 8) {
		__m256i *d = (__m256i *)(void *)(dst + i);
		const __m256i b =
			IMM ? bi : _mm256_loadu_si256((const __m256i *)(const void *)(src + i));
		const __m256i v = lanes_avx2<OP>(_mm256_loadu_si256(d), b);
		_mm256_storeu_si256(d, v);
		_mm_storel_epi64((__m128i *)(void *)(out + i), low8_avx2(v));
	}
	if (i < lanes)
		vtasim_alu_portable(OP)(dst + i, IMM ? nullptr : src + i, imm, out + i, lanes - i);
}

template <uint32_t OP>
AVX2_TARGET void alu_avx2(int32_t *dst, const int32_t *src, int32_t imm, int8_t *out,
			  unsigned lanes)
{
	if (src)
		row_avx2<OP, false>(dst, src, imm, out, lanes);
	else
		row_avx2<OP, true>(dst, src, imm, out, lanes);
}

template <uint32_t OP> AVX2_TARGET uint64_t nest_avx2(const vtasim_alu_nest &n)
{
	if (n.lanes == 16) /* the default shape's row, 1 x 16 */
		return n.use_imm ? walk_nest<true, 16>(n, row_avx2<OP, true>)
				 : walk_nest<false, 16>(n, row_avx2<OP, false>);
	return n.use_imm ? walk_nest<true>(n, row_avx2<OP, true>)
			 : walk_nest<false>(n, row_avx2<OP, false>);
}

template <uint32_t OP> AVX512_TARGET inline __m512i lanes_avx512(__m512i a, __m512i b)
{
	const __m512i zero = _mm512_setzero_si512(), one = _mm512_set1_epi32(1);
	const __m512i c31 = _mm512_set1_epi32(31);
	if constexpr (OP == VTA_ALU_MIN) {
		return _mm512_min_epi32(a, b);
	} else if constexpr (OP == VTA_ALU_MAX) {
		return _mm512_max_epi32(a, b);
	} else if constexpr (OP == VTA_ALU_ADD) {
		return _mm512_add_epi32(a, b);
	} else if constexpr (OP == VTA_ALU_MUL) {
		return _mm512_mullo_epi32(a, b);
	} else if constexpr (OP == VTA_ALU_SHR) {
		return _mm512_mask_sllv_epi32(_mm512_srav_epi32(a, b), _mm512_cmplt_epi32_mask(b, zero),
					      a, _mm512_min_epu32(_mm512_sub_epi32(zero, b), c31));
	} else if constexpr (OP == VTA_ALU_SRDHM) {
		const __m512i half = _mm512_set1_epi64(int64_t{1} << 30);
		const __m512i even = _mm512_add_epi64(_mm512_mul_epi32(a, b), half);
		const __m512i odd = _mm512_add_epi64(
			_mm512_mul_epi32(_mm512_srli_epi64(a, 32), _mm512_srli_epi64(b, 32)), half);
		const __m512i r = _mm512_mask_blend_epi32((__mmask16)0xaaaa, _mm512_srli_epi64(even, 31),
							  _mm512_slli_epi64(odd, 1));
		return _mm512_mask_mov_epi32(r, _mm512_cmpeq_epi32_mask(r, _mm512_set1_epi32(INT32_MIN)),
					     _mm512_set1_epi32(INT32_MAX));
	} else if constexpr (OP == VTA_ALU_RSHR) {
		const __m512i e = _mm512_min_epi32(_mm512_max_epi32(b, zero), c31);
		const __m512i mask = _mm512_sub_epi32(_mm512_sllv_epi32(one, e), one);
		const __m512i rem = _mm512_and_si512(a, mask);
		const __m512i thr = _mm512_sub_epi32(_mm512_srli_epi32(mask, 1), _mm512_srai_epi32(a, 31));
		const __m512i r = _mm512_srav_epi32(a, e);
		return _mm512_mask_add_epi32(r, _mm512_cmpgt_epi32_mask(rem, thr), r, one);
	} else {
		static_assert(has_no_vector_lanes<OP>, "an ALU op without AVX-512 lanes");
		return a;
	}
}

/* One vector of lanes (the lanes of k: lanes outside it are neither read nor written). */
template <uint32_t OP, bool IMM>
AVX512_TARGET inline void vec_avx512(int32_t *dst, const int32_t *src, __m512i bi, int8_t *out,
				     __mmask16 k)
{
	const __m512i b = IMM ? bi : _mm512_maskz_loadu_epi32(k, src);
	const __m512i v = lanes_avx512<OP>(_mm512_maskz_loadu_epi32(k, dst), b);
	_mm512_mask_storeu_epi32(dst, k, v);
	_mm512_mask_cvtepi32_storeu_epi8(out, k, v); /* vpmovdb: the low 8 bits */
}

template <uint32_t OP, bool IMM>
AVX512_TARGET void row_avx512(int32_t *dst, const int32_t *src, int32_t imm, int8_t *out,
			      unsigned lanes)
{
	const __m512i bi = _mm512_set1_epi32(imm);
	unsigned i = 0;
	for (; i + 16 <= lanes; i += 16)
		vec_avx512<OP, IMM>(dst + i, IMM ? nullptr : src + i, bi, out + i, (__mmask16)0xffff);
	if (i < lanes)
		vec_avx512<OP, IMM>(dst + i, IMM ? nullptr : src + i, bi, out + i,
				    (__mmask16)((1u << (lanes - i)) - 1));
}

template <uint32_t OP>
AVX512_TARGET void alu_avx512(int32_t *dst, const int32_t *src, int32_t imm, int8_t *out,
			      unsigned lanes)
{
	if (src)
		row_avx512<OP, false>(dst, src, imm, out, lanes);
	else
		row_avx512<OP, true>(dst, src, imm, out, lanes);
}

template <uint32_t OP> AVX512_TARGET uint64_t nest_avx512(const vtasim_alu_nest &n)
{
	return n.use_imm ? walk_nest<true>(n, row_avx512<OP, true>)
			 : walk_nest<false>(n, row_avx512<OP, false>);
}

template <uint32_t OP> op_kernels vector_kernels(vtasim_alu_isa isa)
{
	if (isa == VTASIM_ALU_AVX512)
		return {alu_avx512<OP>, nest_avx512<OP>};
	return {alu_avx2<OP>, nest_avx2<OP>};
}

/* op's kernels at isa (AVX2 or AVX-512) */
op_kernels vector_kernels(uint32_t op, vtasim_alu_isa isa)
{
	switch (op) {
#define VECTOR_KERNELS(name, ...) \
	case VTA_ALU_##name: return vector_kernels<VTA_ALU_##name>(isa);
		VTA_ALU_OPS(VECTOR_KERNELS)
#undef VECTOR_KERNELS
	default: return {vtasim_alu_portable(op), nullptr}; /* callers pass a row's code */
	}
}
#endif

/* The widest level up to `most` the host runs, its name in *name. */
vtasim_alu_isa host_level(vtasim_alu_isa most, const char **name)
{
#if VTASIM_HAVE_X86_KERNELS
	if (most >= VTASIM_ALU_AVX512 && vta_host_cpu_runs(VTA_HOST_AVX512)) {
		*name = "avx512";
		return VTASIM_ALU_AVX512;
	}
	if (most >= VTASIM_ALU_AVX2 && vta_host_cpu_runs(VTA_HOST_AVX2)) {
		*name = "avx2";
		return VTASIM_ALU_AVX2;
	}
#else
	(void)most;
#endif
	*name = "portable";
	return VTASIM_ALU_PORTABLE;
}

/* op's kernels at the level; the portable row kernel and no nest one below AVX2 */
op_kernels kernels_at(uint32_t op, vtasim_alu_isa isa)
{
#if VTASIM_HAVE_X86_KERNELS
	if (isa != VTASIM_ALU_PORTABLE && op < VTA_ALU_OP_COUNT)
		return vector_kernels(op, isa);
#endif
	return {vtasim_alu_portable(op), nullptr};
}

/* Each op's fastest kernels on this host, chosen once. */
struct best_kernels {
	op_kernels k[VTA_ALU_OP_COUNT];
	best_kernels()
	{
		const char *name;
		const vtasim_alu_isa isa = host_level(VTASIM_ALU_BEST, &name);
		for (uint32_t op = 0; op < VTA_ALU_OP_COUNT; op++)
			k[op] = kernels_at(op, isa);
	}
};

const best_kernels &best()
{
	static const best_kernels b;
	return b;
}

} // namespace

extern "C" vtasim_alu_kernel vtasim_alu_choose(uint32_t op, vtasim_alu_isa most)
{
	const char *name;
	const vtasim_alu_isa isa = host_level(most, &name);
	return {kernels_at(op, isa).row, op < VTA_ALU_OP_COUNT ? name : "portable"};
}

extern "C" void vtasim_alu_row(uint32_t op, int32_t *dst, const int32_t *src, int32_t imm,
			       int8_t *out, unsigned lanes)
{
	if (op < VTA_ALU_OP_COUNT)
		best().k[op].row(dst, src, imm, out, lanes);
}

extern "C" uint64_t vtasim_alu_run_nest(uint32_t op, const vtasim_alu_nest *n)
{
	if (op >= VTA_ALU_OP_COUNT)
		return (uint64_t)n->iter_out * n->iter_in * n->uops; /* as a row does nothing */
	const nest_fn nest = best().k[op].nest;
	return nest ? nest(*n) : nest_portable(op, *n);
}
