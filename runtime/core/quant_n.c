/*
 * quant_n.c - the n-channel CONV2D requantization (quant_n.h).
 *
 * The element loops compute on uint32 lanes, where wrapping is defined, and turn a lane back
 * into int32 only through qn_s32 (no implementation-defined conversion); signed right shifts
 * are written as unsigned ones of the value with its sign flipped in and out. What each step
 * stands for in quant.c:
 * - alu_add wraps when both operands have the sign the sum lacks;
 * - alu_shr's left shift by l wraps unless bits 31-l..31 of x all equal its sign;
 * - q_srdhm = floor((a*b + 2^30) / 2^31): its nudge of 1 - 2^30 for a negative product with
 *   C's truncating division gives the same floor; a*b + 2^62 + 2^30 is then not negative, so
 *   the floor is a logical shift and 2^31 subtracted; a = b = INT32_MIN is selected apart;
 * - q_rdbpot by e <= 31 = floor(y / 2^e) + 1 when the remainder is above half (at least
 *   half for y >= 0: half away from zero). SRDHM never gives INT32_MIN, and every other
 *   int32 divided by 2^e for e >= 32 rounds to 0: such a channel is prepared as multiplier
 *   0 and right shift 0.
 */
#include "quant_n.h"
#include "vta_host_cpu.h"

#include <stdlib.h>

/* Elements per run of the 32-bit wrap count: 5 per element at most, far below 2^32. */
#define QN_CHUNK ((size_t)1 << 24)

/* ---- preparation ---- */

static int32_t *qn_alloc(size_t arrays, size_t n, vta_error *err, vta_status *st)
{
	int32_t *p = malloc(arrays * (n ? n : 1) * sizeof(*p));
	*st = p ? VTA_OK : vta_fail(err, VTA_E_NOMEM, "requantization lanes: out of memory");
	return p;
}

vta_status vta_qmul_lanes_init(vta_qmul_lanes *l, const vta_qmul *m, size_t n, vta_error *err)
{
	vta_status st;
	*l = (vta_qmul_lanes){0};
	int32_t *p = qn_alloc(3, n, err, &st);
	if (!p)
		return st;
	*l = (vta_qmul_lanes){p, p + n, p + 2 * n};
	for (size_t i = 0; i < n; i++) {
		int64_t s = m[i].shift;
		int64_t right = s > 0 ? 0 : -s;
		int past = right > 31; /* the output is 0 (see above) */
		l->multiplier[i] = past ? 0 : m[i].multiplier;
		l->left_shift[i] = (int32_t)(s > 31 ? 31 : s > 0 ? s : 0);
		l->right_shift[i] = past ? 0 : (int32_t)right;
	}
	return VTA_OK;
}

/* The x for which x * mul fits int32 (alu_mul counts no wrap): [lo, hi]. */
static void qn_mul_range(int32_t mul, int32_t *lo, int32_t *hi)
{
	int64_t a = mul < 0 ? -(int64_t)mul : mul;
	int64_t l = INT32_MIN, h = INT32_MAX;
	if (mul > 0) {
		l = -(((int64_t)1 << 31) / a); /* ceil(-2^31 / a) */
		h = INT32_MAX / a;
	} else if (mul < 0) {
		l = -(INT32_MAX / a);          /* x * mul <= 2^31 - 1 */
		h = ((int64_t)1 << 31) / a;    /* x * mul >= -2^31 */
	}
	*lo = (int32_t)(l < INT32_MIN ? INT32_MIN : l);
	*hi = (int32_t)(h > INT32_MAX ? INT32_MAX : h);
}

vta_status vta_q15_lanes_init(vta_q15_lanes *l, const vta_q15 *m, size_t n, vta_error *err)
{
	vta_status st;
	*l = (vta_q15_lanes){0};
	int32_t *p = qn_alloc(6, n, err, &st);
	if (!p)
		return st;
	*l = (vta_q15_lanes){p, p + n, p + 2 * n, p + 3 * n, p + 4 * n, p + 5 * n};
	for (size_t i = 0; i < n; i++) {
		int32_t shr = vta_quant_vta16_shr(m[i]);
		l->multiplier[i] = m[i].multiplier;
		qn_mul_range(m[i].multiplier, &l->mul_lo[i], &l->mul_hi[i]);
		l->round[i] = vta_quant_vta16_round(m[i]);
		l->right_shift[i] = shr < 0 ? 0 : shr > 31 ? 31 : shr;
		l->left_shift[i] = shr >= 0 ? 0 : shr < -31 ? 31 : -shr;
	}
	return VTA_OK;
}

void vta_qmul_lanes_free(vta_qmul_lanes *l)
{
	free(l->multiplier);
	*l = (vta_qmul_lanes){0};
}

void vta_q15_lanes_free(vta_q15_lanes *l)
{
	free(l->multiplier);
	*l = (vta_q15_lanes){0};
}

/* ---- lane steps ---- */

#define QN_INLINE static inline __attribute__((always_inline))

/* A lane as int32, without an implementation-defined conversion (vta_wrap32's rule). */
QN_INLINE int32_t qn_s32(uint32_t u)
{
	return u <= INT32_MAX ? (int32_t)u : (int32_t)(u - 0x80000000u) + INT32_MIN;
}

/* All ones for a negative lane, else 0. */
QN_INLINE uint32_t qn_sign(uint32_t x)
{
	return 0u - (x >> 31);
}

/* alu_add: the wrapped sum, *c += 1 if it wrapped. */
QN_INLINE uint32_t qn_add(uint32_t a, uint32_t b, uint32_t *c)
{
	uint32_t s = a + b;
	*c += ((a ^ s) & (b ^ s)) >> 31;
	return s;
}

/* alu_shr by a negative amount: x * 2^l wrapped for l in 0..31, *c += 1 if it wrapped. */
QN_INLINE uint32_t qn_shl(uint32_t x, uint32_t l, uint32_t *c)
{
	*c += ((x ^ qn_sign(x)) >> (31 - l)) != 0;
	return x << l;
}

/* floor(x / 2^r) of the int32 in x, r in 0..31. */
QN_INLINE uint32_t qn_asr(uint32_t x, uint32_t r)
{
	uint32_t sg = qn_sign(x);
	return ((x ^ sg) >> r) ^ sg;
}

/* q_srdhm(x, m). */
QN_INLINE uint32_t qn_srdhm(uint32_t x, int32_t m)
{
	int64_t ab = (int64_t)qn_s32(x) * m;
	uint64_t t = (uint64_t)ab + (((uint64_t)1 << 62) + ((uint64_t)1 << 30));
	uint32_t y = (uint32_t)(t >> 31) - 0x80000000u;
	return (x == 0x80000000u) & (m == INT32_MIN) ? (uint32_t)INT32_MAX : y;
}

/* q_rdbpot(y, r) for r in 0..31. */
QN_INLINE uint32_t qn_rdbpot(uint32_t y, uint32_t r)
{
	uint32_t mask = (1u << r) - 1;
	int32_t rem = (int32_t)(y & mask);                /* < 2^31 */
	int32_t thr = (int32_t)((mask >> 1) + (y >> 31)); /* <= 2^30 */
	return qn_asr(y, r) + (rem > thr);
}

/* ---- element loops ---- */

/* The lanes as restrict pointers: the int8 outputs may alias anything otherwise, and the
 * loop would reload every pointer after every store. */
typedef struct qn_tflite_lanes {
	const int32_t *restrict mul, *restrict left, *restrict right;
} qn_tflite_lanes;

typedef struct qn_vta16_lanes {
	const int32_t *restrict mul, *restrict lo, *restrict hi, *restrict round,
		*restrict right, *restrict left;
} qn_vta16_lanes;

/* q_conv_tflite of element i (bias b). */
QN_INLINE int8_t qn_tflite(uint32_t a, uint32_t b, qn_tflite_lanes m, size_t i, uint32_t zp,
			   int32_t lo, int32_t hi, uint32_t *c)
{
	uint32_t x = qn_add(a, b, c);
	x = qn_shl(x, (uint32_t)m.left[i], c);
	uint32_t y = qn_rdbpot(qn_srdhm(x, m.mul[i]), (uint32_t)m.right[i]);
	int32_t v = qn_s32(qn_add(y, zp, c));
	v = v < lo ? lo : v; /* q_clamp */
	v = v > hi ? hi : v;
	return (int8_t)v;
}

/* q_conv_vta16 of element i. */
QN_INLINE int8_t qn_vta16(uint32_t a, uint32_t b, qn_vta16_lanes m, size_t i, uint32_t zp,
			  int32_t lo, int32_t hi, uint32_t *c)
{
	uint32_t x = qn_add(a, b, c);
	int32_t xs = qn_s32(x);
	*c += (xs < m.lo[i]) | (xs > m.hi[i]);
	x *= (uint32_t)m.mul[i];
	x = qn_add(x, (uint32_t)m.round[i], c);
	x = qn_asr(x, (uint32_t)m.right[i]);
	x = qn_shl(x, (uint32_t)m.left[i], c);
	int32_t v = qn_s32(qn_add(x, zp, c));
	v = v < hi ? v : hi; /* MIN */
	v = v > lo ? v : lo; /* MAX */
	return (int8_t)v;
}

/* Both modes' loop: the count stays in a local 32-bit sum per chunk (no store through a
 * pointer in the loop, lanes as wide as the data's); with_bias is a constant, so a row
 * without a bias has its own loop with no bias loads. */
#define QN_LOOP(step, lanes, with_bias)                                                    \
	do {                                                                               \
		const int32_t *restrict a_ = acc, *restrict b_ = bias;                     \
		int8_t *restrict o_ = out;                                                 \
		for (size_t i0 = 0; i0 < n; i0 += QN_CHUNK) {                              \
			size_t i1 = n - i0 < QN_CHUNK ? n : i0 + QN_CHUNK;                 \
			uint32_t c = 0;                                                    \
			for (size_t i = i0; i < i1; i++)                                   \
				o_[i] = step((uint32_t)a_[i],                              \
					     (with_bias) ? (uint32_t)b_[i] : 0u, lanes, i, \
					      (uint32_t)zp_out, act_min, act_max, &c);     \
			ovf += c;                                                          \
		}                                                                          \
	} while (0)

QN_INLINE void qn_tflite_body(const int32_t *acc, const int32_t *bias, const vta_qmul_lanes *m,
			      size_t n, int32_t zp_out, int32_t act_min, int32_t act_max,
			      int8_t *out, uint64_t *overflows)
{
	const qn_tflite_lanes l = {m->multiplier, m->left_shift, m->right_shift};
	uint64_t ovf = 0;
	if (bias)
		QN_LOOP(qn_tflite, l, 1);
	else
		QN_LOOP(qn_tflite, l, 0);
	if (overflows)
		*overflows += ovf;
}

QN_INLINE void qn_vta16_body(const int32_t *acc, const int32_t *bias, const vta_q15_lanes *m,
			     size_t n, int32_t zp_out, int32_t act_min, int32_t act_max,
			     int8_t *out, uint64_t *overflows)
{
	const qn_vta16_lanes l = {m->multiplier, m->mul_lo,      m->mul_hi,
				  m->round,      m->right_shift, m->left_shift};
	uint64_t ovf = 0;
	if (bias)
		QN_LOOP(qn_vta16, l, 1);
	else
		QN_LOOP(qn_vta16, l, 0);
	if (overflows)
		*overflows += ovf;
}

QN_INLINE uint64_t qn_wrap_body(const int64_t *restrict acc, size_t n, int32_t *restrict out)
{
	uint64_t wraps = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t u = (uint64_t)acc[i];
		wraps += u + 0x80000000u > 0xffffffffu; /* outside -2^31..2^31-1 */
		out[i] = qn_s32((uint32_t)u);
	}
	return wraps;
}

/* ---- variants ---- */

#define QN_ARGS(lanes)                                                                     \
	const int32_t *acc, const int32_t *bias, const lanes *m, size_t n, int32_t zp_out,  \
		int32_t act_min, int32_t act_max, int8_t *out, uint64_t *overflows
#define QN_PASS acc, bias, m, n, zp_out, act_min, act_max, out, overflows

#define QN_WRAP_ARGS const int64_t *acc, size_t n, int32_t *out

static uint64_t qn_wrap_generic(QN_WRAP_ARGS)
{
	return qn_wrap_body(acc, n, out);
}

static void qn_tflite_generic(QN_ARGS(vta_qmul_lanes))
{
	qn_tflite_body(QN_PASS);
}

static void qn_vta16_generic(QN_ARGS(vta_q15_lanes))
{
	qn_vta16_body(QN_PASS);
}

#if defined(__GNUC__) && defined(__x86_64__)
#define QN_X86 1
#define QN_AVX512 "avx2,avx512f,avx512bw,avx512vl,avx512dq,prefer-vector-width=512"

__attribute__((target("avx2"))) static uint64_t qn_wrap_avx2(QN_WRAP_ARGS)
{
	return qn_wrap_body(acc, n, out);
}

#include <immintrin.h>

/* A lane mask (all ones) where a + b = s wrapped: both operands have the sign s lacks. */
__attribute__((target("avx2"))) static inline __m256i qn_add_wraps8(__m256i a, __m256i b,
								    __m256i s)
{
	return _mm256_srai_epi32(
		_mm256_and_si256(_mm256_xor_si256(a, s), _mm256_xor_si256(b, s)), 31);
}

/* q_conv_tflite of 8 lanes, the steps of qn_tflite written out for AVX2 (the compiler's
 * version of the element loop emulates the 64-bit SRDHM lane by lane): 32-bit lanes wrap as
 * the uint32 ones do, vpsravd is the floor shift, vpmuldq the even and odd lanes' 64-bit
 * products. cnt counts each lane's wraps (minus the masks). */
__attribute__((target("avx2"))) static inline __m256i
qn_tflite8(__m256i a, __m256i b, __m256i mul, __m256i left, __m256i right, __m256i zp,
	   __m256i lo, __m256i hi, __m256i *cnt)
{
	const __m256i one = _mm256_set1_epi32(1), min = _mm256_set1_epi32(INT32_MIN);
	__m256i x = _mm256_add_epi32(a, b);
	*cnt = _mm256_sub_epi32(*cnt, qn_add_wraps8(a, b, x));
	/* alu_shr by -left: wraps unless bits 31-left..31 all equal the sign */
	const __m256i out_bits = _mm256_srlv_epi32(
		_mm256_xor_si256(x, _mm256_srai_epi32(x, 31)),
		_mm256_sub_epi32(_mm256_set1_epi32(31), left));
	*cnt = _mm256_sub_epi32(*cnt, _mm256_andnot_si256(
					      _mm256_cmpeq_epi32(out_bits, _mm256_setzero_si256()),
					      _mm256_set1_epi32(-1)));
	x = _mm256_sllv_epi32(x, left);
	/* q_srdhm: (x * mul + 2^62 + 2^30) >> 31, less 2^31, per 64-bit product */
	const __m256i k = _mm256_set1_epi64x((int64_t)((1ull << 62) + (1ull << 30)));
	const __m256i even = _mm256_srli_epi64(_mm256_add_epi64(_mm256_mul_epi32(x, mul), k), 31);
	const __m256i odd = _mm256_srli_epi64(
		_mm256_add_epi64(_mm256_mul_epi32(_mm256_srli_epi64(x, 32),
						  _mm256_srli_epi64(mul, 32)),
				 k),
		31);
	__m256i y = _mm256_sub_epi32(
		_mm256_blend_epi32(even, _mm256_slli_epi64(odd, 32), 0xaa), min);
	const __m256i both_min = _mm256_and_si256(_mm256_cmpeq_epi32(x, min),
						  _mm256_cmpeq_epi32(mul, min));
	y = _mm256_blendv_epi8(y, _mm256_set1_epi32(INT32_MAX), both_min);
	/* q_rdbpot: the floor shift, plus one when the remainder is above the threshold */
	const __m256i mask = _mm256_sub_epi32(_mm256_sllv_epi32(one, right), one);
	const __m256i rem = _mm256_and_si256(y, mask);
	const __m256i thr = _mm256_add_epi32(_mm256_srli_epi32(mask, 1), _mm256_srli_epi32(y, 31));
	y = _mm256_sub_epi32(_mm256_srav_epi32(y, right), _mm256_cmpgt_epi32(rem, thr));
	__m256i v = _mm256_add_epi32(y, zp);
	*cnt = _mm256_sub_epi32(*cnt, qn_add_wraps8(y, zp, v));
	return _mm256_min_epi32(_mm256_max_epi32(v, lo), hi);
}

__attribute__((target("avx2"))) static void qn_tflite_avx2(QN_ARGS(vta_qmul_lanes))
{
	const __m256i zp = _mm256_set1_epi32(zp_out), lo = _mm256_set1_epi32(act_min),
		      hi = _mm256_set1_epi32(act_max);
	/* the low byte of each int32 lane: bytes 0, 4, 8, 12 of each half, then the halves */
	const __m256i low_bytes = _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1,
						   -1, -1, -1, -1, 0, 4, 8, 12, -1, -1, -1, -1,
						   -1, -1, -1, -1, -1, -1, -1, -1);
	const __m256i halves = _mm256_setr_epi32(0, 4, 1, 1, 1, 1, 1, 1);
	uint64_t ovf = 0;
	size_t i = 0;
	while (n - i >= 8) {
		/* at most 3 wraps per lane and step: flushed long before a lane could wrap */
		const size_t end = i + ((n - i) / 8 < ((size_t)1 << 24) ? (n - i) / 8 * 8
									 : (size_t)8 << 24);
		__m256i cnt = _mm256_setzero_si256();
		for (; i < end; i += 8) {
			const __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(acc + i));
			const __m256i b = bias ? _mm256_loadu_si256(
							 (const __m256i *)(const void *)(bias + i))
					       : _mm256_setzero_si256();
			const __m256i v = qn_tflite8(
				a, b,
				_mm256_loadu_si256((const __m256i *)(const void *)(m->multiplier + i)),
				_mm256_loadu_si256((const __m256i *)(const void *)(m->left_shift + i)),
				_mm256_loadu_si256((const __m256i *)(const void *)(m->right_shift + i)),
				zp, lo, hi, &cnt);
			const __m256i bytes = _mm256_permutevar8x32_epi32(
				_mm256_shuffle_epi8(v, low_bytes), halves);
			_mm_storel_epi64((__m128i *)(void *)(out + i), _mm256_castsi256_si128(bytes));
		}
		uint32_t lanes[8];
		_mm256_storeu_si256((__m256i *)(void *)lanes, cnt);
		for (int k = 0; k < 8; k++)
			ovf += lanes[k];
	}
	/* the tail, element by element */
	const vta_qmul_lanes rest = {m->multiplier + i, m->left_shift + i, m->right_shift + i};
	qn_tflite_body(acc + i, bias ? bias + i : NULL, &rest, n - i, zp_out, act_min, act_max,
		       out + i, &ovf);
	if (overflows)
		*overflows += ovf;
}

__attribute__((target("avx2"))) static void qn_vta16_avx2(QN_ARGS(vta_q15_lanes))
{
	qn_vta16_body(QN_PASS);
}

__attribute__((target(QN_AVX512))) static uint64_t qn_wrap_avx512(QN_WRAP_ARGS)
{
	return qn_wrap_body(acc, n, out);
}

__attribute__((target(QN_AVX512))) static void qn_tflite_avx512(QN_ARGS(vta_qmul_lanes))
{
	qn_tflite_body(QN_PASS);
}

__attribute__((target(QN_AVX512))) static void qn_vta16_avx512(QN_ARGS(vta_q15_lanes))
{
	qn_vta16_body(QN_PASS);
}
#endif

size_t vta_quant_n_variants(vta_quant_n_variant v[VTA_QUANT_N_MAX_VARIANTS])
{
	size_t k = 0;
	v[k++] = (vta_quant_n_variant){"generic", qn_wrap_generic, qn_tflite_generic,
				       qn_vta16_generic, 1};
#ifdef QN_X86
	v[k++] = (vta_quant_n_variant){"avx2", qn_wrap_avx2, qn_tflite_avx2, qn_vta16_avx2,
				       vta_host_cpu_runs(VTA_HOST_AVX2)};
	v[k++] = (vta_quant_n_variant){"avx512", qn_wrap_avx512, qn_tflite_avx512,
				       qn_vta16_avx512, vta_host_cpu_runs(VTA_HOST_AVX512)};
#endif
	return k;
}

vta_quant_n_variant vta_quant_n_pick(void)
{
	vta_quant_n_variant v[VTA_QUANT_N_MAX_VARIANTS];
	size_t k = vta_quant_n_variants(v);
	while (k > 1 && !v[k - 1].runs_here)
		k--;
	return v[k - 1];
}
