/*
 * datapath.h - the arithmetic of the COMPUTE module as plain functions: one GEMM micro-op
 * (a batch x block_in by block_out x block_in matrix-vector product accumulated into int32
 * lanes), the GEMM reset, and the ALU lane operations. No SystemC here: the compute module
 * calls these, and tests call them directly (the header is C-compatible).
 *
 * Arithmetic (docs/isa.md):
 *   GEMM   acc[b][o] += sum_k inp[b][k] * wgt[o][k]; int8 x int8 products, int32 wrapping
 *          accumulation; out[b][o] = low 8 bits of the new acc.
 *   reset  acc = 0 and out = 0 on every addressed row.
 *   ALU    acc[dst] = op(acc[dst], use_imm ? imm : acc[src]) on int32 lanes, out = low 8 bits.
 *          MIN, MAX, ADD (wrapping), SHR (arithmetic right shift by the low bits of y as a
 *          signed amount; negative shifts left), MUL (low 32 bits), SRDHM (TFLite's
 *          SaturatingRoundingDoublingHighMul), RSHR (TFLite's RoundingDivideByPOT).
 * Wrapping is done in unsigned arithmetic so no signed overflow (undefined behaviour) occurs.
 */
#ifndef VTASIM_DATAPATH_H
#define VTASIM_DATAPATH_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One GEMM uop on one (inp row, wgt row, acc row): see the comment above. The inner loop
 * is specialised for the common block_in of 16 so the compiler can unroll and vectorise. */
static inline void vtasim_gemm_uop(const int8_t *inp, const int8_t *wgt, int32_t *acc,
				   int8_t *out, unsigned batch, unsigned block_in,
				   unsigned block_out)
{
	for (unsigned b = 0; b < batch; b++) {
		const int8_t *x = inp + (uint64_t)b * block_in;
		int32_t *a = acc + (uint64_t)b * block_out;
		int8_t *o8 = out + (uint64_t)b * block_out;
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

/* One ALU uop on a row: dst[i] = op(dst[i], src ? src[i] : imm), out[i] = low 8 bits. */
void vtasim_alu_row(uint32_t op, int32_t *dst, const int32_t *src, int32_t imm, int8_t *out,
		    unsigned lanes);

#ifdef __cplusplus
}
#endif

#endif /* VTASIM_DATAPATH_H */
