/*
 * quant.c - requantization parameters and per-element arithmetic (tflite and vta16 modes).
 *
 * tflite follows TFLM's kernels/internal/{common.cc,quantization_util.cc} and add_common.cc;
 * vta16 follows the alkali VTA delegate for ADD and docs/arithmetic.md for CONV2D. All 32-bit
 * arithmetic that may leave int32 is done in 64 bits and wrapped explicitly, so nothing here
 * relies on undefined signed overflow or implementation-defined shifts and casts.
 */
#include "quant.h"

#include <math.h>

/* ---- exact helpers ---- */

/* floor(v / 2^n) for 0 <= n <= 62, without right-shifting a negative value. */
static int64_t q_asr64(int64_t v, int n)
{
	return v >= 0 ? v >> n : -1 - ((-1 - v) >> n);
}

static int32_t q_wrap16(int32_t v)
{
	uint32_t u = (uint32_t)v & 0xffffu;
	return u <= 0x7fffu ? (int32_t)u : (int32_t)u - 0x10000;
}

/* ALU lane operations on int32: wrap, and count when the exact result does not fit. */
static int32_t alu_wrap(int64_t exact, uint64_t *overflows)
{
	int32_t r = vta_wrap32(exact);
	if (overflows && (int64_t)r != exact)
		(*overflows)++;
	return r;
}

static int32_t alu_add(int32_t a, int32_t b, uint64_t *overflows)
{
	return alu_wrap((int64_t)a + b, overflows);
}

static int32_t alu_mul(int32_t a, int32_t b, uint64_t *overflows)
{
	return alu_wrap((int64_t)a * b, overflows);
}

/* SHR: arithmetic right shift; a negative amount shifts left (wrapping, counted). Amounts are
 * saturated at 31 either way. */
static int32_t alu_shr(int32_t a, int32_t n, uint64_t *overflows)
{
	if (n >= 0)
		return (int32_t)q_asr64(a, n > 31 ? 31 : n);
	int m = n < -31 ? 31 : -n;
	return alu_wrap((int64_t)a * ((int64_t)1 << m), overflows);
}

/* Two independent selects (a nested one compiles to a branch that a ReLU mispredicts). */
static int32_t q_clamp(int32_t v, int32_t lo, int32_t hi)
{
	v = v < lo ? lo : v;
	return v > hi ? hi : v;
}

/* ---- gemmlowp primitives ---- */

static inline int32_t q_srdhm(int32_t a, int32_t b)
{
	if (a == INT32_MIN && b == INT32_MIN)
		return INT32_MAX;
	int64_t ab = (int64_t)a * b;
	/* 2^30, or 1 - 2^30 for a negative product: selected by a mask, not a branch, which
	 * the signs of a layer's products would mispredict half the time */
	int64_t neg = -(int64_t)(ab < 0);
	int64_t nudge = ((int64_t)1 << 30) + (neg & (1 - ((int64_t)1 << 31)));
	return (int32_t)((ab + nudge) / ((int64_t)1 << 31)); /* C division truncates */
}

static inline int32_t q_rdbpot(int32_t x, int exponent)
{
	int e = exponent < 0 ? 0 : exponent > 62 ? 62 : exponent;
	int64_t mask = ((int64_t)1 << e) - 1;
	int64_t rem = (int64_t)x & mask;
	int64_t thr = (mask >> 1) + (x < 0 ? 1 : 0);
	return (int32_t)(q_asr64(x, e) + (rem > thr ? 1 : 0));
}

int32_t vta_quant_srdhm(int32_t a, int32_t b)
{
	return q_srdhm(a, b);
}

int32_t vta_quant_rdbpot(int32_t x, int exponent)
{
	return q_rdbpot(x, exponent);
}

vta_status vta_quant_multiplier(double d, vta_qmul *out, vta_error *err)
{
	if (!out)
		return vta_fail(err, VTA_E_USAGE, "QuantizeMultiplier: no output");
	if (!isfinite(d))
		return vta_fail(err, VTA_E_USAGE, "QuantizeMultiplier: %g is not finite", d);
	out->multiplier = 0;
	out->shift = 0;
	if (d == 0)
		return VTA_OK;
	int shift;
	double q = frexp(d, &shift);
	int64_t q_fixed = (int64_t)round(q * 2147483648.0); /* TfLiteRound: half away */
	if (q_fixed == ((int64_t)1 << 31)) {
		q_fixed /= 2;
		shift++;
	}
	if (shift < -31) { /* below 2^-32: flushed */
		shift = 0;
		q_fixed = 0;
	}
	out->multiplier = (int32_t)q_fixed;
	out->shift = shift;
	return VTA_OK;
}

vta_status vta_quant_multiplier_smaller_than_one(double d, vta_qmul *out, vta_error *err)
{
	if (!(d > 0 && d < 1))
		return vta_fail(err, VTA_E_USAGE,
				"QuantizeMultiplierSmallerThanOneExp: %.17g is not in (0, 1)", d);
	vta_status st = vta_quant_multiplier(d, out, err);
	if (st == VTA_OK && out->shift > 0)
		return vta_fail(err, VTA_E_USAGE,
				"QuantizeMultiplierSmallerThanOneExp: %.17g rounds to 1.0", d);
	return st;
}

int32_t vta_quant_mbqm(int32_t x, vta_qmul m)
{
	int left = m.shift > 0 ? m.shift : 0;
	int right = m.shift > 0 ? 0 : -m.shift;
	int32_t xs = left >= 32 ? 0 : vta_wrap32((int64_t)x * ((int64_t)1 << left));
	return vta_quant_rdbpot(vta_quant_srdhm(xs, m.multiplier), right);
}

int32_t vta_quant_mbqm_single(int32_t x, vta_qmul m)
{
	int shift = m.shift < -31 ? -31 : m.shift > 30 ? 30 : m.shift;
	int t = 31 - shift;
	int64_t v = (int64_t)x * m.multiplier + ((int64_t)1 << (t - 1));
	return vta_wrap32(q_asr64(v, t));
}

int32_t vta_quant_mbqm_smaller_than_one(int32_t x, vta_qmul m)
{
	return vta_quant_rdbpot(vta_quant_srdhm(x, m.multiplier), -m.shift);
}

/* ---- parameter checks shared by both modes ---- */

static vta_status q_check_scale(float s, const char *what, vta_error *err)
{
	if (!isfinite(s) || !(s > 0))
		return vta_fail(err, VTA_E_USAGE, "%s scale %g must be finite and positive", what,
				(double)s);
	return VTA_OK;
}

static vta_status q_check_zp(int32_t zp, const char *what, vta_error *err)
{
	if (zp < -128 || zp > 127)
		return vta_fail(err, VTA_E_USAGE, "%s zero point %d is outside the int8 range",
				what, (int)zp);
	return VTA_OK;
}

vta_status vta_quant_activation_range(vta_activation act, float scale, int32_t zero_point,
				      int32_t *act_min, int32_t *act_max, vta_error *err)
{
	vta_status st = q_check_scale(scale, "output", err);
	if (st == VTA_OK)
		st = q_check_zp(zero_point, "output", err);
	if (st != VTA_OK)
		return st;
	/* quantize(f) = zp + (int32)round(f / scale), float division as TFLite does; results
	 * far outside int8 are bounded first so the conversion is defined. */
	float fs[2] = {0.0f, 0.0f};
	int32_t lo = -128, hi = 127;
	switch (act) {
	case VTA_ACT_NONE: break;
	case VTA_ACT_RELU: fs[0] = 0.0f; break;
	case VTA_ACT_RELU6: fs[0] = 0.0f; fs[1] = 6.0f; break;
	case VTA_ACT_RELU_N1_TO_1: fs[0] = -1.0f; fs[1] = 1.0f; break;
	default:
		return vta_fail(err, VTA_E_USAGE, "unsupported fused activation %d", (int)act);
	}
	int32_t q[2];
	for (int i = 0; i < 2; i++) {
		float r = roundf(fs[i] / scale);
		if (r > 65536.0f)
			r = 65536.0f;
		if (r < -65536.0f)
			r = -65536.0f;
		q[i] = zero_point + (int32_t)r;
	}
	if (act != VTA_ACT_NONE)
		lo = q[0] > lo ? q[0] : lo;
	if (act == VTA_ACT_RELU6 || act == VTA_ACT_RELU_N1_TO_1)
		hi = q[1] < hi ? q[1] : hi;
	if (act_min)
		*act_min = lo;
	if (act_max)
		*act_max = hi;
	return VTA_OK;
}

static vta_status q_check_add(float s1, int32_t zp1, float s2, int32_t zp2, float s_out,
			      int32_t zp_out, vta_error *err)
{
	static const char *const names[3] = {"ADD input 1", "ADD input 2", "ADD output"};
	const float scales[3] = {s1, s2, s_out};
	const int32_t zps[3] = {zp1, zp2, zp_out};
	vta_status st = VTA_OK;
	for (int i = 0; st == VTA_OK && i < 3; i++)
		st = q_check_scale(scales[i], names[i], err);
	for (int i = 0; st == VTA_OK && i < 3; i++)
		st = q_check_zp(zps[i], names[i], err);
	return st;
}

/* CalculateOpDataAdd's real multipliers of input 1, input 2 and the output. std::max on the
 * floats, then widened: the order matters for bit-exactness. */
static void q_add_reals(float s1, float s2, float s_out, int32_t left_shift, double real[3])
{
	const double twice_max = 2 * (double)(s1 < s2 ? s2 : s1);
	real[0] = (double)s1 / twice_max;
	real[1] = (double)s2 / twice_max;
	real[2] = twice_max / ((double)(1 << left_shift) * (double)s_out);
}

/* ---- tflite ADD ---- */

vta_status vta_quant_add_tflite_params(float s1, int32_t zp1, float s2, int32_t zp2, float s_out,
				       int32_t zp_out, vta_activation act,
				       vta_add_tflite_params *p, vta_error *err)
{
	if (!p)
		return vta_fail(err, VTA_E_USAGE, "ADD parameters: no output");
	vta_status st = q_check_add(s1, zp1, s2, zp2, s_out, zp_out, err);
	if (st != VTA_OK)
		return st;
	p->input1_offset = -zp1;
	p->input2_offset = -zp2;
	p->output_offset = zp_out;
	p->left_shift = 20;
	double real[3];
	q_add_reals(s1, s2, s_out, p->left_shift, real);
	vta_qmul *m[3] = {&p->input1, &p->input2, &p->output};
	for (int i = 0; st == VTA_OK && i < 3; i++)
		st = vta_quant_multiplier_smaller_than_one(real[i], m[i], err);
	if (st != VTA_OK)
		return vta_fail(err, st, "ADD output scale %g is too small for inputs %g, %g "
				"(TFLite needs 2*max(s1,s2) / (2^20*s_out) < 1)",
				(double)s_out, (double)s1, (double)s2);
	return vta_quant_activation_range(act, s_out, zp_out, &p->act_min, &p->act_max, err);
}

int32_t vta_quant_add_tflite_input(const vta_add_tflite_params *p, int which, int32_t q)
{
	const int32_t offset = which == 1 ? p->input1_offset : p->input2_offset;
	const int32_t x = vta_wrap32(((int64_t)q + offset) * ((int64_t)1 << p->left_shift));
	return vta_quant_mbqm_smaller_than_one(x, which == 1 ? p->input1 : p->input2);
}

int32_t vta_quant_add_tflite_apply(const vta_add_tflite_params *p, int32_t q1, int32_t q2)
{
	return vta_quant_add_tflite_output(p, vta_quant_add_tflite_input(p, 1, q1),
					   vta_quant_add_tflite_input(p, 2, q2));
}

int32_t vta_quant_add_tflite_output(const vta_add_tflite_params *p, int32_t a1, int32_t a2)
{
	int32_t raw = vta_wrap32((int64_t)a1 + a2);
	int32_t out = vta_wrap32((int64_t)vta_quant_mbqm_smaller_than_one(raw, p->output) +
			         p->output_offset);
	return q_clamp(out, p->act_min, p->act_max);
}

/* ---- tflite CONV2D ---- */

static vta_status q_check_conv(float s_in, const float *s_w, size_t n_scales, size_t channels,
			       float s_out, const void *out, vta_error *err)
{
	if (!out || !s_w || channels == 0)
		return vta_fail(err, VTA_E_USAGE, "CONV2D parameters: missing scales or output");
	if (n_scales != 1 && n_scales != channels)
		return vta_fail(err, VTA_E_USAGE,
				"CONV2D filter has %zu scales for %zu output channels (need 1 or "
				"%zu)",
				n_scales, channels, channels);
	vta_status st = q_check_scale(s_in, "CONV2D input", err);
	if (st == VTA_OK)
		st = q_check_scale(s_out, "CONV2D output", err);
	for (size_t c = 0; st == VTA_OK && c < n_scales; c++)
		if (!isfinite(s_w[c]) || s_w[c] < 0)
			st = vta_fail(err, VTA_E_USAGE,
				      "CONV2D filter scale %g of channel %zu must be finite "
				      "and not negative",
				      (double)s_w[c], c);
	return st;
}

static double q_conv_scale(float s_in, const float *s_w, size_t n_scales, size_t c, float s_out)
{
	float sw = s_w[n_scales == 1 ? 0 : c];
	return (double)s_in * (double)sw / (double)s_out;
}

vta_status vta_quant_conv_tflite_params(float s_in, const float *s_w, size_t n_scales,
					size_t channels, float s_out, vta_qmul *out,
					vta_error *err)
{
	vta_status st = q_check_conv(s_in, s_w, n_scales, channels, s_out, out, err);
	for (size_t c = 0; st == VTA_OK && c < channels; c++)
		st = vta_quant_multiplier(q_conv_scale(s_in, s_w, n_scales, c, s_out), &out[c],
					  err);
	return st;
}

static inline int32_t q_conv_tflite(int32_t acc, int32_t bias, vta_qmul m, int32_t zp_out,
				    int32_t act_min, int32_t act_max, uint64_t *overflows)
{
	int32_t x = alu_add(acc, bias, overflows);
	if (m.shift > 0)
		x = alu_shr(x, -(m.shift > 31 ? 31 : m.shift), overflows);
	int32_t y = q_srdhm(x, m.multiplier);
	y = q_rdbpot(y, m.shift > 0 ? 0 : -m.shift);
	y = alu_add(y, zp_out, overflows);
	return q_clamp(y, act_min, act_max);
}

int32_t vta_quant_conv_tflite_apply(int32_t acc, int32_t bias, vta_qmul m, int32_t zp_out,
				    int32_t act_min, int32_t act_max, uint64_t *overflows)
{
	return q_conv_tflite(acc, bias, m, zp_out, act_min, act_max, overflows);
}

/* ---- tflite QUANTIZE ---- */

vta_status vta_quant_requant_params(float s_in, float s_out, vta_qmul *out, vta_error *err)
{
	vta_status st = q_check_scale(s_in, "QUANTIZE input", err);
	if (st == VTA_OK)
		st = q_check_scale(s_out, "QUANTIZE output", err);
	if (st == VTA_OK)
		st = vta_quant_multiplier((double)s_in / (double)s_out, out, err);
	return st;
}

int32_t vta_quant_requant_apply(int32_t q, int32_t zp_in, vta_qmul m, int32_t zp_out)
{
	int32_t y = vta_wrap32((int64_t)vta_quant_mbqm(vta_wrap32((int64_t)q - zp_in), m) + zp_out);
	return q_clamp(y, -128, 127);
}

/* ---- vta16 ---- */

vta_status vta_quant_q15(double scale, vta_q15 *out, vta_error *err)
{
	if (!out)
		return vta_fail(err, VTA_E_USAGE, "Q15 multiplier: no output");
	out->multiplier = 0;
	out->shift = 0;
	if (!isfinite(scale) || scale < 0)
		return vta_fail(err, VTA_E_USAGE,
				"Q15 multiplier: scale %g must be finite and not negative", scale);
	if (scale < 1e-6)
		return VTA_OK;
	int e;
	double q = frexp(scale, &e);
	double qf = round(q * 32768.0);
	if (qf == 32768.0) {
		qf /= 2;
		e++;
	}
	if (e < -15)
		return VTA_OK;
	out->multiplier = (int16_t)qf;
	out->shift = (int16_t)e; /* frexp of a finite double: |e| <= 1074 */
	return VTA_OK;
}

vta_status vta_quant_add_vta16_params(float s1, int32_t zp1, float s2, int32_t zp2, float s_out,
				      int32_t zp_out, vta_activation act,
				      vta_add_vta16_params *p, vta_error *err)
{
	if (!p)
		return vta_fail(err, VTA_E_USAGE, "ADD parameters: no output");
	vta_status st = q_check_add(s1, zp1, s2, zp2, s_out, zp_out, err);
	if (st != VTA_OK)
		return st;
	p->input1_offset = -zp1;
	p->input2_offset = -zp2;
	p->output_offset = zp_out;
	p->left_shift = VTA_VTA16_ADD_LEFT_SHIFT;
	double real[3];
	q_add_reals(s1, s2, s_out, p->left_shift, real);
	vta_q15 *m[3] = {&p->input1, &p->input2, &p->output};
	for (int i = 0; st == VTA_OK && i < 3; i++)
		st = vta_quant_q15(real[i], m[i], err);
	if (st != VTA_OK)
		return st;
	p->out_shr = 15 - p->output.shift;
	if (p->out_shr < 0 || p->out_shr > 31)
		return vta_fail(err, VTA_E_USAGE,
				"vta16 ADD: output multiplier %g needs a shift of %d, outside "
				"the SHR range 0..31",
				real[2], (int)p->out_shr);
	return vta_quant_activation_range(act, s_out, zp_out, &p->act_min, &p->act_max, err);
}

int32_t vta_quant_vta16_input(int32_t q, int32_t offset, vta_q15 m)
{
	int32_t v = q_wrap16(vta_wrap32((int64_t)q + offset));
	int32_t vs = q_wrap16(v * (1 << VTA_VTA16_ADD_LEFT_SHIFT));
	int32_t raw = vs * m.multiplier; /* |raw| < 2^15 * 2^15 */
	int32_t nudge = raw >= 0 ? (1 << 14) : 1 - (1 << 14);
	int32_t t = q_wrap16((int32_t)q_asr64((int64_t)raw + nudge, 15));
	int n = -m.shift;
	return (int32_t)q_asr64(t, n < 0 ? 0 : n > 31 ? 31 : n);
}

int32_t vta_quant_add_vta16_alu(const vta_add_vta16_params *p, int32_t a1, int32_t a2,
				uint64_t *overflows)
{
	int32_t x = alu_add(a1, a2, overflows);
	x = alu_mul(x, p->output.multiplier, overflows);
	x = alu_shr(x, p->out_shr, overflows);
	x = alu_add(x, p->output_offset, overflows);
	x = x < p->act_max ? x : p->act_max; /* MIN */
	x = x > p->act_min ? x : p->act_min; /* MAX */
	return x;
}

int32_t vta_quant_add_vta16_apply(const vta_add_vta16_params *p, int32_t q1, int32_t q2,
				  uint64_t *overflows)
{
	int32_t a1 = vta_quant_vta16_input(q1, p->input1_offset, p->input1);
	int32_t a2 = vta_quant_vta16_input(q2, p->input2_offset, p->input2);
	return vta_quant_add_vta16_alu(p, a1, a2, overflows);
}

vta_status vta_quant_conv_vta16_params(float s_in, const float *s_w, size_t n_scales,
				       size_t channels, float s_out, vta_q15 *out,
				       vta_error *err)
{
	vta_status st = q_check_conv(s_in, s_w, n_scales, channels, s_out, out, err);
	for (size_t c = 0; st == VTA_OK && c < channels; c++) {
		double eff = q_conv_scale(s_in, s_w, n_scales, c, s_out);
		st = vta_quant_q15(eff, &out[c], err);
		if (st == VTA_OK && out[c].shift > 15)
			st = vta_fail(err, VTA_E_USAGE,
				      "vta16 CONV2D: channel %zu scale %g is 2^15 or more, "
				      "beyond a right shift",
				      c, eff);
	}
	return st;
}

int32_t vta_quant_vta16_shr(vta_q15 m)
{
	return 15 - m.shift;
}

int32_t vta_quant_vta16_round(vta_q15 m)
{
	int32_t n = vta_quant_vta16_shr(m);
	return n > 0 && n <= 31 ? (int32_t)1 << (n - 1) : 0;
}

static inline int32_t q_conv_vta16(int32_t acc, int32_t bias, vta_q15 m, int32_t zp_out,
				   int32_t act_min, int32_t act_max, uint64_t *overflows)
{
	int32_t x = alu_add(acc, bias, overflows);
	x = alu_mul(x, m.multiplier, overflows);
	x = alu_add(x, vta_quant_vta16_round(m), overflows);
	x = alu_shr(x, vta_quant_vta16_shr(m), overflows);
	x = alu_add(x, zp_out, overflows);
	x = x < act_max ? x : act_max; /* MIN */
	x = x > act_min ? x : act_min; /* MAX */
	return x;
}

int32_t vta_quant_conv_vta16_apply(int32_t acc, int32_t bias, vta_q15 m, int32_t zp_out,
				   int32_t act_min, int32_t act_max, uint64_t *overflows)
{
	return q_conv_vta16(acc, bias, m, zp_out, act_min, act_max, overflows);
}
