/*
 * quant.h - requantization parameters and per-element arithmetic of the two modes.
 *
 * tflite: TFLite/TFLM int8 reference arithmetic, bit for bit (gemmlowp rounding primitives,
 *   QuantizeMultiplier, double rounding as TFLM builds it; single rounding offered apart).
 * vta16: Q15 multipliers (the alkali VTA delegate's computeQuantizationParameters) applied with
 *   32-bit ALU operations that wrap; every wrap is counted. ADD reproduces the delegate bit
 *   for bit (host input stage included); CONV2D is ours, with a rounding right shift.
 *
 * docs/arithmetic.md spells out both modes as the sequence of ALU operations an emitter must
 * produce; the *_apply functions here are that sequence written in C.
 */
#ifndef VTA_QUANT_H
#define VTA_QUANT_H

#include <stddef.h>
#include <stdint.h>

#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum vta_arith_mode {
	VTA_ARITH_TFLITE = 0,
	VTA_ARITH_VTA16
} vta_arith_mode;

/* Fused activations, with TFLite's ActivationFunctionType codes. */
typedef enum vta_activation {
	VTA_ACT_NONE = 0,
	VTA_ACT_RELU = 1,
	VTA_ACT_RELU_N1_TO_1 = 2,
	VTA_ACT_RELU6 = 3
} vta_activation;

/* The low 32 bits of v as a two's-complement int32: what an int32 accumulator or ALU
 * register holds after wrapping (without an implementation-defined narrowing). */
static inline int32_t vta_wrap32(int64_t v)
{
	uint32_t u = (uint32_t)v;
	return u <= INT32_MAX ? (int32_t)u : (int32_t)(u - 0x80000000u) + INT32_MIN;
}

/* ---- gemmlowp / TFLite primitives ---- */

/* SaturatingRoundingDoublingHighMul: floor((a*b + 2^30) / 2^31); INT32_MIN^2 -> INT32_MAX. */
int32_t vta_quant_srdhm(int32_t a, int32_t b);
/* RoundingDivideByPOT: x / 2^exponent rounded half away from zero. exponent is clamped to
 * 0..63 (gemmlowp allows 0..31; larger exponents just round to 0 or -1). */
int32_t vta_quant_rdbpot(int32_t x, int exponent);

/* A Q31 multiplier: value = multiplier * 2^(shift - 31); shift > 0 means a left shift. */
typedef struct vta_qmul {
	int32_t multiplier;
	int32_t shift;
} vta_qmul;

/* QuantizeMultiplier: frexp, round half away from zero, renormalise 2^31, flush shift < -31 to
 * (0, 0). d must be finite (VTA_E_USAGE otherwise); negative d gives a negative multiplier. */
vta_status vta_quant_multiplier(double d, vta_qmul *out, vta_error *err);
/* QuantizeMultiplierSmallerThanOneExp: requires 0 < d < 1 (VTA_E_USAGE otherwise). */
vta_status vta_quant_multiplier_smaller_than_one(double d, vta_qmul *out, vta_error *err);

/* MultiplyByQuantizedMultiplier, double rounding (TFLM's default):
 * RDBPOT(SRDHM(x * 2^max(shift,0), M), max(-shift,0)). The left shift wraps in 32 bits. */
int32_t vta_quant_mbqm(int32_t x, vta_qmul m);
/* The same with TFLITE_SINGLE_ROUNDING: (x*M + 2^(t-1)) >> t, t = 31 - shift, shift clamped to
 * -31..30, result truncated to 32 bits as TFLite's cast does. */
int32_t vta_quant_mbqm_single(int32_t x, vta_qmul m);
/* MultiplyByQuantizedMultiplierSmallerThanOneExp: RDBPOT(SRDHM(x, M), -shift), shift <= 0. */
int32_t vta_quant_mbqm_smaller_than_one(int32_t x, vta_qmul m);

/* CalculateActivationRangeQuantized for int8 output (float division, round half away). */
vta_status vta_quant_activation_range(vta_activation act, float scale, int32_t zero_point,
				      int32_t *act_min, int32_t *act_max, vta_error *err);

/* ---- tflite ADD ---- */

typedef struct vta_add_tflite_params {
	int32_t input1_offset, input2_offset; /* -zp_in */
	int32_t output_offset;                /* +zp_out */
	int32_t left_shift;                   /* 20 */
	vta_qmul input1, input2, output;      /* SmallerThanOneExp: shifts <= 0 */
	int32_t act_min, act_max;
} vta_add_tflite_params;

/* CalculateOpDataAdd: twice_max = 2 * (double)max(s1, s2) (float max), real_in_i =
 * s_i / twice_max, real_out = twice_max / (2^20 * s_out), all in double. */
vta_status vta_quant_add_tflite_params(float s1, int32_t zp1, float s2, int32_t zp2, float s_out,
				       int32_t zp_out, vta_activation act,
				       vta_add_tflite_params *p, vta_error *err);
/* One output element (int8 range): vta_quant_add_tflite_output of both inputs' stages. */
int32_t vta_quant_add_tflite_apply(const vta_add_tflite_params *p, int32_t q1, int32_t q2);
/* Its two halves: input `which` (1 or 2) shifted left and rescaled, a function of q alone
 * (so a caller may tabulate it over int8); then the rescaled sum, offset and clamped. */
int32_t vta_quant_add_tflite_input(const vta_add_tflite_params *p, int which, int32_t q);
int32_t vta_quant_add_tflite_output(const vta_add_tflite_params *p, int32_t a1, int32_t a2);

/* ---- tflite CONV2D ---- */

/* Per output channel: QuantizeMultiplier((double)s_in * (double)s_w[c] / (double)s_out).
 * n_scales is 1 (broadcast) or `channels`. */
vta_status vta_quant_conv_tflite_params(float s_in, const float *s_w, size_t n_scales,
					size_t channels, float s_out, vta_qmul *out,
					vta_error *err);
/* acc + bias -> MBQM (double rounding) -> + zp_out -> clamp. `overflows` (may be NULL) counts
 * 32-bit wraps of the bias ADD, of the left shift and of the zero-point ADD. quant_n.h
 * applies this (and vta_quant_conv_vta16_apply) to a row of channels at once. */
int32_t vta_quant_conv_tflite_apply(int32_t acc, int32_t bias, vta_qmul m, int32_t zp_out,
				    int32_t act_min, int32_t act_max, uint64_t *overflows);

/* ---- tflite QUANTIZE int8 -> int8 (reference_ops::Requantize) ---- */

/* QuantizeMultiplier((double)s_in / (double)s_out). */
vta_status vta_quant_requant_params(float s_in, float s_out, vta_qmul *out, vta_error *err);
/* clamp(MBQM(q - zp_in, m) + zp_out) to int8. */
int32_t vta_quant_requant_apply(int32_t q, int32_t zp_in, vta_qmul m, int32_t zp_out);

/* ---- vta16 ---- */

/* A Q15 multiplier: value ~= multiplier * 2^(shift - 15), multiplier in [16384, 32767] or
 * (0, 0) when flushed. */
typedef struct vta_q15 {
	int16_t multiplier;
	int16_t shift;
} vta_q15;

/* computeQuantizationParameters: scale < 1e-6 -> (0,0); q = frexp(scale, &e);
 * m = round(q * 2^15); m == 2^15 -> (m/2, e+1); e < -15 -> (0,0). Non-finite or negative
 * scales are VTA_E_USAGE. */
vta_status vta_quant_q15(double scale, vta_q15 *out, vta_error *err);

#define VTA_VTA16_ADD_LEFT_SHIFT 7

typedef struct vta_add_vta16_params {
	int32_t input1_offset, input2_offset; /* -zp_in */
	int32_t output_offset;                /* +zp_out: the ADD immediate */
	int32_t left_shift;                   /* 7 */
	vta_q15 input1, input2, output;
	int32_t out_shr;                      /* 15 - output.shift: the SHR immediate, 0..31 */
	int32_t act_min, act_max;             /* the MIN / MAX immediates */
} vta_add_vta16_params;

/* Same scale arithmetic as tflite with left_shift 7 and Q15 multipliers. Fails with
 * VTA_E_USAGE when the output shift leaves 0..31 for the SHR. */
vta_status vta_quant_add_vta16_params(float s1, int32_t zp1, float s2, int32_t zp2, float s_out,
				      int32_t zp_out, vta_activation act,
				      vta_add_vta16_params *p, vta_error *err);
/* Host input stage (alkali simulateRealValue, int16 casts and all):
 * v = (int16)(q + offset); vs = (int16)(v * 2^7); raw = vs * M;
 * t = (raw + (raw >= 0 ? 2^14 : 1 - 2^14)) >> 15 (floor); return (int16)t >> -shift (floor). */
int32_t vta_quant_vta16_input(int32_t q, int32_t offset, vta_q15 m);
/* Accelerator part, from the two host terms: ADD, MUL M_out, SHR out_shr, ADD zp_out,
 * MIN act_max, MAX act_min. Wraps are counted in *overflows (may be NULL). */
int32_t vta_quant_add_vta16_alu(const vta_add_vta16_params *p, int32_t a1, int32_t a2,
				uint64_t *overflows);
/* Both stages for one element. */
int32_t vta_quant_add_vta16_apply(const vta_add_vta16_params *p, int32_t q1, int32_t q2,
				  uint64_t *overflows);

/* Per output channel Q15 of (double)s_in * (double)s_w[c] / (double)s_out. A channel whose
 * shift exceeds 15 (scale >= 2^15, a negative SHR) is VTA_E_USAGE. */
vta_status vta_quant_conv_vta16_params(float s_in, const float *s_w, size_t n_scales,
				       size_t channels, float s_out, vta_q15 *out,
				       vta_error *err);
/* The SHR amount n = 15 - shift and the rounding addend r = n > 0 ? 2^(n-1) : 0. */
int32_t vta_quant_vta16_shr(vta_q15 m);
int32_t vta_quant_vta16_round(vta_q15 m);
/* ADD bias, MUL M, ADD r, SHR n, ADD zp_out, MIN act_max, MAX act_min on int32 lanes; every
 * ADD or MUL whose exact result leaves int32 counts one overflow. */
int32_t vta_quant_conv_vta16_apply(int32_t acc, int32_t bias, vta_q15 m, int32_t zp_out,
				   int32_t act_min, int32_t act_max, uint64_t *overflows);

#ifdef __cplusplus
}
#endif

#endif /* VTA_QUANT_H */
