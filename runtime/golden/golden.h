/*
 * golden.h - golden reference kernels: int8 ADD, CONV2D (grouped too), DEPTHWISE_CONV_2D and
 * FULLY_CONNECTED in tflite and vta16 arithmetic, and the comparison of two int8 tensors
 * for the report's `check` section.
 *
 * These are the functional oracle the emitted instruction streams are held to. They are plain
 * loops over the definitions (TFLM reference_integer_ops, docs/arithmetic.md), share nothing
 * with the emitters, and never print. The convolution-like kernels take the input zero point
 * out of their inner loop (with each filter's weight sum) and run it over contiguous bytes,
 * so the compiler vectorizes it (CONV2D and FULLY_CONNECTED through golden_dot.h; CONV2D with
 * short patches across output channels, golden_dot_oc.h); the sums are the definition's,
 * exactly. The LUT variants decode the constant operands first
 * (exactly as TFLM does before running the kernel) and then run the plain kernel.
 */
#ifndef VTA_GOLDEN_H
#define VTA_GOLDEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "layer.h"
#include "lut.h"
#include "quant.h"
#include "quant_n.h"
#include "tensor.h"
#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the arithmetic did besides producing outputs. */
typedef struct vta_golden_stats {
	uint64_t alu_overflows; /* 32-bit wraps in the requantization op sequence (quant.h) */
	uint64_t acc_overflows; /* CONV2D outputs whose int32 accumulator wrapped */
} vta_golden_stats;

/* ---- Per-channel requantization of CONV2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED
 * (golden_requant.c) ---- */

/* An output channel's int32 accumulator to its int8 output: TFLite's 32-bit multipliers or
 * vta16's 16-bit ones, the output zero point and the fused activation's range, with the
 * wraps the two steps make counted. */
typedef struct vta_golden_requant {
	vta_qmul *m32; /* tflite mode: one per output channel, else NULL */
	vta_q15 *m16;  /* vta16 mode: one per output channel, else NULL */
	vta_qmul_lanes l32; /* the same as lanes, for a row at once (quant_n.h) */
	vta_q15_lanes l16;
	vta_quant_n_variant row; /* the widest variant the host runs */
	int32_t zero_point, act_min, act_max;
	uint64_t alu_overflows, acc_overflows;
	int32_t *acc32; /* one per output channel: a row's wrapped accumulators */
	size_t channels;
} vta_golden_requant;

/* The multipliers of `channels` output channels; op names the kernel in errors. */
vta_status vta_golden_requant_init(vta_golden_requant *rq, const char *op, vta_arith_mode mode,
				   float in_scale, const float *filter_scales,
				   size_t filter_scale_count, size_t channels,
				   const vta_tensor_i8 *out, vta_activation act, vta_error *err);

/* Output channel oc of an accumulator summed in 64 bits: wrapped to int32, plus bias,
 * requantized and clamped. */
static inline int8_t vta_golden_requant_out(vta_golden_requant *rq, size_t oc, int64_t acc,
					    int32_t bias)
{
	int32_t acc32 = vta_wrap32(acc);
	if ((int64_t)acc32 != acc)
		rq->acc_overflows++;
	int32_t y = rq->m32 ? vta_quant_conv_tflite_apply(acc32, bias, rq->m32[oc],
							  rq->zero_point, rq->act_min, rq->act_max,
							  &rq->alu_overflows)
			    : vta_quant_conv_vta16_apply(acc32, bias, rq->m16[oc], rq->zero_point,
							 rq->act_min, rq->act_max,
							 &rq->alu_overflows);
	return (int8_t)y;
}

/* Output channels [0, n) of a row at once (n at most the channels of init): out[oc] as
 * vta_golden_requant_out(rq, oc, acc[oc], bias ? bias[oc] : 0) gives, vectorized
 * (quant_n.h). */
void vta_golden_requant_row(vta_golden_requant *rq, const int64_t *acc, const int32_t *bias,
			    size_t n, int8_t *out);
/* The same for sums known to lie within int32 (none can wrap: nothing to count). */
void vta_golden_requant_row32(vta_golden_requant *rq, const int32_t *acc32,
			      const int32_t *bias, size_t n, int8_t *out);

/* Add the counted wraps to stats (may be NULL) and free the multipliers. */
void vta_golden_requant_done(vta_golden_requant *rq, vta_golden_stats *stats);

/* ---- ADD (golden_add.c) ---- */

/* out = a + b elementwise. b has a's shape, or [1,1,1,C] with a's C (one value per channel),
 * or [1,1,1,1] (a scalar). ADD is symmetric bit for bit in both modes, so a broadcast
 * operand can always be passed as b. out has a's shape and carries the output scale and zero
 * point; vta16 honours the fused activation through its MIN/MAX clamp. stats may be NULL. */
vta_status vta_golden_add(const vta_tensor_i8 *a, const vta_tensor_i8 *b, vta_activation act,
			  vta_arith_mode mode, vta_tensor_i8 *out, vta_golden_stats *stats,
			  vta_error *err);
/* b with its values decoded from an INT8 LUT tensor of b's element count into *plain (b->data
 * is ignored; a NULL b_lut copies b as it is). Free *owned. */
vta_status vta_golden_add_decode(const vta_tensor_i8 *b, const vta_lut_tensor *b_lut,
				 vta_tensor_i8 *plain, void **owned, vta_error *err);
/* vta_golden_add of b decoded from b_lut. */
vta_status vta_golden_add_lut(const vta_tensor_i8 *a, const vta_tensor_i8 *b,
			      const vta_lut_tensor *b_lut, vta_activation act,
			      vta_arith_mode mode, vta_tensor_i8 *out, vta_golden_stats *stats,
			      vta_error *err);

/* ---- CONV2D (golden_conv2d.c) ---- */

/* Output size and padding along one axis (TFLite padding.h): eff = (k-1)*d + 1;
 * SAME: out = ceil(in / s); VALID: out = (in + s - eff) / s (at least 1 or an error);
 * total = max(0, (out-1)*s + eff - in), before = total / 2, after = total - before. */
vta_status vta_golden_conv2d_padding(int32_t in, int32_t k, int32_t stride, int32_t dilation,
				     vta_padding padding, int32_t *out, int32_t *pad_before,
				     int32_t *pad_after, vta_error *err);
/* Validate the layer and give the output shape {N, Ho, Wo, O}. */
vta_status vta_golden_conv2d_shape(const vta_conv2d *c, int32_t out_shape[4], vta_error *err);
/* Per-channel CONV2D: acc = sum w * (x - zp_in) over in-image taps (out-of-image taps skipped,
 * i.e. padding with the real zero), + bias, requantized per output channel, + zp_out,
 * clamped to the activation. out->shape must equal vta_golden_conv2d_shape(). */
vta_status vta_golden_conv2d(const vta_conv2d *c, vta_arith_mode mode, vta_tensor_i8 *out,
			     vta_golden_stats *stats, vta_error *err);
/* The two ways vta_golden_conv2d reaches the same sums: one inner product per output channel
 * along the patch (golden_dot.h), or 16 output channels per vector across them
 * (golden_dot_oc.h); AUTO takes vta_golden_conv2d_auto_path's. */
typedef enum vta_golden_conv2d_path {
	VTA_GOLDEN_CONV2D_AUTO,
	VTA_GOLDEN_CONV2D_ALONG,
	VTA_GOLDEN_CONV2D_ACROSS,
} vta_golden_conv2d_path;
/* The faster path on this host for a layer of patch length k (KH * KW * I_f) and
 * o_per_group output channels per group, by a rule measured on this project's machine
 * (golden_conv2d.c). */
vta_golden_conv2d_path vta_golden_conv2d_auto_path(size_t k, size_t o_per_group);
/* vta_golden_conv2d by a given path (tests and benchmarks hold the two to each other). */
vta_status vta_golden_conv2d_by(const vta_conv2d *c, vta_arith_mode mode,
				vta_golden_conv2d_path path, vta_tensor_i8 *out,
				vta_golden_stats *stats, vta_error *err);
/* c with its filter (INT8) and/or bias (INT32) decoded from LUT tensors into *plain; a NULL
 * LUT keeps c->filter / c->bias. Free owned[0] and owned[1]. */
vta_status vta_golden_conv2d_decode(const vta_conv2d *c, const vta_lut_tensor *filter_lut,
				    const vta_lut_tensor *bias_lut, vta_conv2d *plain,
				    void *owned[2], vta_error *err);
/* A layer's LUT constants decoded (what every *_decode below does): the INT8 filter of
 * fcount values into a new owned[0] and *filter, the INT32 bias of bcount values into
 * owned[1] and *bias; a NULL LUT leaves its pointer alone. `op` names the layer in errors. */
vta_status vta_golden_decode_consts(const char *op, const vta_lut_tensor *filter_lut,
				    size_t fcount, const vta_lut_tensor *bias_lut, size_t bcount,
				    const int8_t **filter, const int32_t **bias, void *owned[2],
				    vta_error *err);
/* vta_golden_conv2d of c decoded from its LUT tensors. */
vta_status vta_golden_conv2d_lut(const vta_conv2d *c, const vta_lut_tensor *filter_lut,
				 const vta_lut_tensor *bias_lut, vta_arith_mode mode,
				 vta_tensor_i8 *out, vta_golden_stats *stats, vta_error *err);

/* ---- DEPTHWISE_CONV_2D (golden_depthwise.c) ---- */

/* Validate the layer and give the output shape {N, Ho, Wo, O} (padding as CONV2D). */
vta_status vta_golden_depthwise_shape(const vta_depthwise_conv2d *d, int32_t out_shape[4],
				      vta_error *err);
/* acc = sum over in-image taps of w[ky][kx][oc] * (x[c] - zp_in) with c = oc / M, then
 * bias and the per-channel requantization of CONV2D in `mode`. out->shape must equal
 * vta_golden_depthwise_shape(). */
vta_status vta_golden_depthwise(const vta_depthwise_conv2d *d, vta_arith_mode mode,
				vta_tensor_i8 *out, vta_golden_stats *stats, vta_error *err);
/* d with its filter (INT8) and/or bias (INT32) decoded from LUT tensors into *plain; a NULL
 * LUT keeps the layer's own array. Free owned[0] and owned[1]. */
vta_status vta_golden_depthwise_decode(const vta_depthwise_conv2d *d,
				       const vta_lut_tensor *filter_lut,
				       const vta_lut_tensor *bias_lut, vta_depthwise_conv2d *plain,
				       void *owned[2], vta_error *err);

/* ---- FULLY_CONNECTED (golden_fc.c) ---- */

/* Validate the layer; *batches = input elements / K. */
vta_status vta_golden_fc_shape(const vta_fully_connected *f, int32_t *batches, vta_error *err);
/* out holds batches x O elements (row-major [batches][O]) with out->shape[3] == O. */
vta_status vta_golden_fc(const vta_fully_connected *f, vta_arith_mode mode, vta_tensor_i8 *out,
			 vta_golden_stats *stats, vta_error *err);
/* f with its filter and/or bias decoded from LUT tensors (as vta_golden_depthwise_decode). */
vta_status vta_golden_fc_decode(const vta_fully_connected *f, const vta_lut_tensor *filter_lut,
				const vta_lut_tensor *bias_lut, vta_fully_connected *plain,
				void *owned[2], vta_error *err);

/* ---- comparison (golden_compare.c) ---- */

#define VTA_COMPARE_HIST_RADIUS 3
#define VTA_COMPARE_HIST_BINS (2 * VTA_COMPARE_HIST_RADIUS + 3)

/* got - expected, element by element. hist[0] counts differences below -3, hist[1..7] the
 * differences -3..+3 (hist[4] = equal elements), hist[8] those above +3. */
typedef struct vta_compare {
	size_t count;
	size_t mismatches;
	bool bit_exact;
	/* first mismatch, valid when mismatches > 0 */
	size_t first_index;
	int32_t first_nhwc[4];
	int32_t expected, got;
	int32_t max_abs_diff;
	uint64_t hist[VTA_COMPARE_HIST_BINS];
} vta_compare;

/* Histogram bin of a difference. */
size_t vta_golden_compare_bin(int32_t diff);
/* Compare two tensors of the same shape (scales and zero points are not compared). */
vta_status vta_golden_compare(const vta_tensor_i8 *expected, const vta_tensor_i8 *got,
			      vta_compare *out, vta_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VTA_GOLDEN_H */
