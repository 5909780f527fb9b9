/*
 * quant_n.h - the CONV2D requantization of quant.h for n output channels at once: the golden
 * kernels' per-element loop after the inner products.
 *
 * Each output is vta_quant_conv_tflite_apply or vta_quant_conv_vta16_apply of its channel, bit
 * for bit, overflow counts included; those stay the definition. The shape is the vectorizer's:
 * a layer's multipliers are prepared once as arrays of int32 lanes (one array per field, not
 * an array of structs), with the definition's branches on a channel's shift (left or right,
 * saturated at 31, a right shift past every value) turned into per-channel constants, so the
 * element loop is straight-line lane arithmetic with selects and its wraps are counted as
 * sums of 0/1 lanes. That loop is compiled for the x86-64 baseline, AVX2 and AVX-512; the
 * widest the host's CPU runs is chosen at run time (as golden_dot.h), so the binary runs on
 * any x86-64. Every variant gives the same outputs and counts.
 */
#ifndef VTA_QUANT_N_H
#define VTA_QUANT_N_H

#include <stddef.h>
#include <stdint.h>

#include "quant.h"
#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* tflite multipliers of n channels as lanes (one allocation, owned). */
typedef struct vta_qmul_lanes {
	int32_t *multiplier;  /* M; 0 where the right shift is 32 or more (the output is 0) */
	int32_t *left_shift;  /* min(shift, 31) for shift > 0, else 0 */
	int32_t *right_shift; /* -shift for -31 <= shift <= 0, else 0 */
} vta_qmul_lanes;

/* vta16 multipliers of n channels as lanes (one allocation, owned): MUL M, ADD round, SHR. */
typedef struct vta_q15_lanes {
	int32_t *multiplier;  /* M */
	int32_t *mul_lo;      /* the MUL wraps unless mul_lo <= x <= mul_hi */
	int32_t *mul_hi;
	int32_t *round;       /* vta_quant_vta16_round */
	int32_t *right_shift; /* min(n, 31) for the SHR amount n = 15 - shift >= 0, else 0 */
	int32_t *left_shift;  /* min(-n, 31) for n < 0 (a SHR by a negative amount), else 0 */
} vta_q15_lanes;

/* Prepare the lanes of m[0..n) (n may be 0). VTA_E_NOMEM when out of memory. */
vta_status vta_qmul_lanes_init(vta_qmul_lanes *l, const vta_qmul *m, size_t n, vta_error *err);
vta_status vta_q15_lanes_init(vta_q15_lanes *l, const vta_q15 *m, size_t n, vta_error *err);
/* Free the lanes (a zeroed struct is fine). */
void vta_qmul_lanes_free(vta_qmul_lanes *l);
void vta_q15_lanes_free(vta_q15_lanes *l);

/* out[i] = vta_wrap32(acc[i]) for i < n: a row of 64-bit sums as the int32 accumulators
 * they stand for; returns how many of them wrapped. */
typedef uint64_t (*vta_quant_wrap_n_fn)(const int64_t *acc, size_t n, int32_t *out);
/* out[i] = vta_quant_conv_tflite_apply(acc[i], bias[i] (NULL: 0), channel i, zp_out, act_min,
 * act_max) as int8 for i < n (n at most the lanes' count); the overflows of all are added to
 * *overflows (may be NULL). */
typedef void (*vta_quant_conv_tflite_n_fn)(const int32_t *acc, const int32_t *bias,
					   const vta_qmul_lanes *m, size_t n, int32_t zp_out,
					   int32_t act_min, int32_t act_max, int8_t *out,
					   uint64_t *overflows);
/* The same with vta_quant_conv_vta16_apply. */
typedef void (*vta_quant_conv_vta16_n_fn)(const int32_t *acc, const int32_t *bias,
					  const vta_q15_lanes *m, size_t n, int32_t zp_out,
					  int32_t act_min, int32_t act_max, int8_t *out,
					  uint64_t *overflows);

/* The variants, narrowest first: "generic", then "avx2" and "avx512" where built. */
#define VTA_QUANT_N_MAX_VARIANTS 3
typedef struct vta_quant_n_variant {
	const char *name;
	vta_quant_wrap_n_fn wrap;
	vta_quant_conv_tflite_n_fn tflite;
	vta_quant_conv_vta16_n_fn vta16;
	int runs_here; /* the host's CPU has the instructions */
} vta_quant_n_variant;

/* The variants this build has, into v; returns their count. */
size_t vta_quant_n_variants(vta_quant_n_variant v[VTA_QUANT_N_MAX_VARIANTS]);
/* The widest variant the host runs: pick once (per layer), call per row. */
vta_quant_n_variant vta_quant_n_pick(void);

#ifdef __cplusplus
}
#endif

#endif /* VTA_QUANT_N_H */
