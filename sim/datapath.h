/*
 * datapath.h - the arithmetic of the COMPUTE module as plain functions: one GEMM micro-op
 * (a batch x block_in by block_out x block_in matrix-vector product accumulated into int32
 * lanes), the GEMM reset, and the ALU lane operations. No SystemC here: the compute module
 * calls these, and tests call them directly (the header is C-compatible).
 *
 * Arithmetic: docs/isa.md "GEMM and ALU: the loop nest" and "ALU operations". Wrapping is
 * done in unsigned arithmetic so no signed overflow (undefined behaviour) occurs.
 */
#ifndef VTASIM_DATAPATH_H
#define VTASIM_DATAPATH_H

#include <stdbool.h>
#include <stdint.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__SSE2__)
/* Sign-extend the low / high 8 int8 lanes of v to int16. */
static inline __m128i vtasim_lo16(__m128i v)
{
	return _mm_srai_epi16(_mm_unpacklo_epi8(v, v), 8);
}
static inline __m128i vtasim_hi16(__m128i v)
{
	return _mm_srai_epi16(_mm_unpackhi_epi8(v, v), 8);
}
/* Four 16-lane int8 dot products of x (pre-widened) with 4 consecutive weight rows,
 * as 4 int32 lanes. */
static inline __m128i vtasim_dot4(__m128i xl, __m128i xh, const int8_t *w)
{
	__m128i p[4];
	for (int j = 0; j < 4; j++) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(w + 16 * j));
		p[j] = _mm_add_epi32(_mm_madd_epi16(xl, vtasim_lo16(v)),
				     _mm_madd_epi16(xh, vtasim_hi16(v)));
	}
	/* transpose-and-add: lane j of the result is the sum of p[j]'s lanes */
	__m128i t0 = _mm_add_epi32(_mm_unpacklo_epi32(p[0], p[1]), _mm_unpackhi_epi32(p[0], p[1]));
	__m128i t1 = _mm_add_epi32(_mm_unpacklo_epi32(p[2], p[3]), _mm_unpackhi_epi32(p[2], p[3]));
	return _mm_add_epi32(_mm_unpacklo_epi64(t0, t1), _mm_unpackhi_epi64(t0, t1));
}
#endif

/* One GEMM uop on one (inp row, wgt row, acc row): see the comment above. block_in 16
 * (VTA's default) has an SSE2 path (int8 widened to int16, pmaddwd, 16 outputs per step)
 * and a fixed-trip scalar loop; other shapes take the plain loop. */
static inline void vtasim_gemm_uop(const int8_t *inp, const int8_t *wgt, int32_t *acc,
				   int8_t *out, unsigned batch, unsigned block_in,
				   unsigned block_out)
{
	for (unsigned b = 0; b < batch; b++) {
		const int8_t *x = inp + (uint64_t)b * block_in;
		int32_t *a = acc + (uint64_t)b * block_out;
		int8_t *o8 = out + (uint64_t)b * block_out;
#if defined(__SSE2__)
		if (block_in == 16 && block_out % 16 == 0) {
			/* SSE2: int8 widened to int16, pmaddwd, 16 outputs per step */
			__m128i xv = _mm_loadu_si128((const __m128i *)(const void *)x);
			__m128i xl = vtasim_lo16(xv), xh = vtasim_hi16(xv);
			const __m128i low8 = _mm_set1_epi32(0xff);
			for (unsigned o = 0; o < block_out; o += 16) {
				__m128i v[4];
				for (int q = 0; q < 4; q++) {
					__m128i *ap = (__m128i *)(void *)(a + o + 4 * q);
					v[q] = _mm_add_epi32(_mm_loadu_si128(ap),
							     vtasim_dot4(xl, xh,
									 wgt + (uint64_t)(o + 4 * q) * 16));
					_mm_storeu_si128(ap, v[q]);
					v[q] = _mm_and_si128(v[q], low8);
				}
				/* low 8 bits of each lane: 0..255 survive both packs unchanged */
				__m128i lo = _mm_packus_epi16(_mm_packs_epi32(v[0], v[1]),
							      _mm_packs_epi32(v[2], v[3]));
				_mm_storeu_si128((__m128i *)(void *)(o8 + o), lo);
			}
			continue;
		}
#endif
		if (block_in == 16) {
			for (unsigned o = 0; o < block_out; o++) {
				const int8_t *w = wgt + (uint64_t)o * 16;
				int32_t s = 0;
				for (unsigned k = 0; k < 16; k++)
					s += (int32_t)x[k] * (int32_t)w[k];
				uint32_t n = (uint32_t)a[o] + (uint32_t)s;
				a[o] = (int32_t)n;
				o8[o] = (int8_t)(uint8_t)n;
			}
		} else {
			for (unsigned o = 0; o < block_out; o++) {
				const int8_t *w = wgt + (uint64_t)o * block_in;
				int32_t s = 0; /* |s| <= 128 * 128 * 128: no overflow */
				for (unsigned k = 0; k < block_in; k++)
					s += (int32_t)x[k] * (int32_t)w[k];
				uint32_t n = (uint32_t)a[o] + (uint32_t)s;
				a[o] = (int32_t)n;
				o8[o] = (int8_t)(uint8_t)n;
			}
		}
	}
}

/* One GEMM uop's rows: its INP row, its WGT row (as the kernel's pack left it, below), its
 * ACC and OUT rows. */
typedef struct vtasim_gemm_rows {
	const int8_t *inp;
	const int8_t *wgt;
	int32_t *acc;
	int8_t *out;
} vtasim_gemm_rows;

/* Runs n uops in order with vtasim_gemm_uop's results (a uop may read an ACC row an earlier
 * one of the same call wrote). One call per run of uops, not per uop: the call, the shape's
 * dispatch and the kernel's constants are paid once. */
typedef void (*vtasim_gemm_fn)(const vtasim_gemm_rows *uops, uint64_t n, unsigned batch,
			       unsigned block_in, unsigned block_out);

/*
 * A GEMM loop nest none of whose uops can fail a check, for a kernel to walk itself (no
 * rows handed over per uop): for each outer iteration o and inner iteration i, the kernel's
 * uops k in order, on the rows
 *   INP  inp + o inp_out + i inp_in + inp_at[k]          (bytes)
 *   WGT  wgt + o wgt_out + i wgt_in + wgt_at[k]          (bytes; packed rows if it packs)
 *   ACC  acc + o dst_out + i dst_in + dst_at[k]          (int32 elements)
 *   OUT  out + the same element offset as ACC            (int8 elements)
 */
typedef struct vtasim_gemm_nest {
	const uint64_t *inp_at, *wgt_at, *dst_at; /* per uop of the kernel */
	uint64_t uops, iter_out, iter_in;
	uint64_t inp_out, inp_in, wgt_out, wgt_in, dst_out, dst_in;
	const int8_t *inp, *wgt;
	int32_t *acc;
	int8_t *out;
	uint32_t *scratch; /* 2 x uops words the kernel may use, or NULL */
} vtasim_gemm_nest;

/* Runs a whole nest with the results of vtasim_gemm_uop applied uop after uop. As ACC rows
 * only accumulate (modulo 2^32) and each OUT row is the low byte of its ACC row's last
 * value, a kernel may take the uops in another order: the 1 x 16 x 16 one adds all the uops
 * of one ACC row in a register and stores it once. */
typedef void (*vtasim_gemm_nest_fn)(const vtasim_gemm_nest *nest, unsigned batch,
				    unsigned block_in, unsigned block_out);

/* Rewrites one WGT row (block_out x block_in int8) into `packed`, a kernel's own layout. */
typedef void (*vtasim_gemm_pack_fn)(const int8_t *wgt, int8_t *packed, unsigned block_in,
				    unsigned block_out);

/*
 * A GEMM kernel for one shape: `run` on uops' rows, `nest` on a whole nest. With `pack`,
 * both read WGT rows in the kernel's layout, which its user keeps beside the WGT SRAM and
 * rewrites for a row only when the row was written (once per load, not per uop); without
 * it, they read the SRAM rows themselves.
 */
typedef struct vtasim_gemm_kernel {
	vtasim_gemm_fn run;
	vtasim_gemm_nest_fn nest;
	vtasim_gemm_pack_fn pack; /* NULL: run takes SRAM rows */
	uint32_t packed_bytes;    /* one packed row: a multiple of 64 (0 without pack) */
	const char *name;         /* "portable", "avx2" or "avx512vnni" */
} vtasim_gemm_kernel;

/* The instruction sets a kernel may use, each including those before it. */
typedef enum vtasim_gemm_isa {
	VTASIM_GEMM_PORTABLE, /* SSE2 at most: any x86-64 (or none) */
	VTASIM_GEMM_AVX2,
	VTASIM_GEMM_AVX512_VNNI, /* AVX-512 F, BW and VNNI (vpdpbusd) */
	VTASIM_GEMM_BEST = VTASIM_GEMM_AVX512_VNNI
} vtasim_gemm_isa;

/* The fastest kernel for the shape among those using at most `most`, checked against the
 * host's CPU at run time (datapath_gemm.cc): AVX-512 VNNI for block_in a multiple of 4 and
 * whole 16-lane output groups (1 x 16 x 16 written out), AVX2 for block_in 16 and whole
 * 16-lane groups, else the portable vtasim_gemm_uop. Every kernel gives the same bits. */
vtasim_gemm_kernel vtasim_gemm_choose(unsigned batch, unsigned block_in, unsigned block_out,
				      vtasim_gemm_isa most);

/* The GEMM reset of one ACC row and its OUT row (lanes = batch x block_out). */
static inline void vtasim_gemm_reset(int32_t *acc, int8_t *out, unsigned lanes)
{
	for (unsigned i = 0; i < lanes; i++) {
		acc[i] = 0;
		out[i] = 0;
	}
}

/* One ALU lane: op(x, y) for vta_alu_op op (the caller checks the config supports it). */
int32_t vtasim_alu_lane(uint32_t op, int32_t x, int32_t y);

/* One ALU uop on a row: dst[i] = op(dst[i], src ? src[i] : imm), out[i] = low 8 bits.
 * Runs the fastest kernel of op the host has (vtasim_alu_choose at VTASIM_ALU_BEST, chosen
 * once); an op outside vta_alu_op does nothing. */
void vtasim_alu_row(uint32_t op, int32_t *dst, const int32_t *src, int32_t imm, int8_t *out,
		    unsigned lanes);

/* A loop nest of ALU uops of one op that no per-uop check can stop (compute_unit's
 * nest_clean), as its uops run one by one: for each iteration (o, i) in order and each uop k,
 * the ACC row dst[k] + o * dst_out + i * dst_in takes op of itself and the row src[k] +
 * o * src_out + i * src_in (or of imm with use_imm), and the OUT row of the same index its
 * low 8 bits; with imm_src the source row is first copied to the destination (an immediate
 * op that reads its source, vta_alu_imm_reads_src). */
typedef struct vtasim_alu_nest {
	int32_t *acc;
	int8_t *out;
	unsigned lanes;            /* lanes per row */
	const uint32_t *dst, *src; /* the rows of the nest's uops, `uops` of each */
	uint32_t uops, iter_out, iter_in;
	uint64_t dst_out, dst_in, src_out, src_in;
	int32_t imm;
	bool use_imm, imm_src;
} vtasim_alu_nest;

/* Run the nest on op's fastest kernel (as vtasim_alu_row's); returns the uops run. */
uint64_t vtasim_alu_run_nest(uint32_t op, const vtasim_alu_nest *n);

/* One ALU uop of a fixed op on a row of `lanes` lanes, as vtasim_alu_row. */
typedef void (*vtasim_alu_fn)(int32_t *dst, const int32_t *src, int32_t imm, int8_t *out,
			      unsigned lanes);

typedef struct vtasim_alu_kernel {
	vtasim_alu_fn run;
	const char *name; /* "portable", "avx2" or "avx512" */
} vtasim_alu_kernel;

/* The instruction sets an ALU kernel may use, each including those before it. */
typedef enum vtasim_alu_isa {
	VTASIM_ALU_PORTABLE, /* plain C: any host */
	VTASIM_ALU_AVX2,
	VTASIM_ALU_AVX512, /* AVX-512 F */
	VTASIM_ALU_BEST = VTASIM_ALU_AVX512
} vtasim_alu_isa;

/* The portable kernel of op (datapath.cc), which the others are checked against. */
vtasim_alu_fn vtasim_alu_portable(uint32_t op);

/* The fastest kernel of op among those using at most `most`, checked against the host's
 * CPU at run time (datapath_alu.cc). Every kernel gives the same bits on any row length. */
vtasim_alu_kernel vtasim_alu_choose(uint32_t op, vtasim_alu_isa most);

/* The lanes of the same uop (dst as before it) whose exact result does not fit int32: ADD,
 * MUL, and SHR by a negative amount (a left shift), docs/arithmetic.md's overflow count;
 * the other ops never wrap. Adds 1 to wraps[i] for each such lane i; returns how many. */
unsigned vtasim_alu_row_wraps(uint32_t op, const int32_t *dst, const int32_t *src, int32_t imm,
			      unsigned lanes, uint32_t *wraps);

#ifdef __cplusplus
}
#endif

#endif /* VTASIM_DATAPATH_H */
