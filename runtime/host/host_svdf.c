/*
 * host_svdf.c - SVDF with TFLM's integer reference arithmetic (host_svdf.h;
 * docs/arithmetic.md "SVDF"). The sums wrap in 32 bits as TFLM's int32 ones do on its
 * targets; every product fits in 32 bits.
 */
#include "host_svdf.h"

#include <math.h>
#include <stdlib.h>

static bool svdf_scale_ok(float s)
{
	return isfinite(s) && s > 0;
}

static int32_t svdf_state_min(const vta_svdf *s)
{
	return s->state_int16 ? INT16_MIN : INT8_MIN;
}

static int32_t svdf_state_max(const vta_svdf *s)
{
	return s->state_int16 ? INT16_MAX : INT8_MAX;
}

static int32_t svdf_state_get(const vta_svdf *s, const void *v, size_t i)
{
	return s->state_int16 ? ((const int16_t *)v)[i] : ((const int8_t *)v)[i];
}

/* x narrowed to the state's type as a two's-complement store (mod 2^16 or 2^8) */
static void svdf_state_set(const vta_svdf *s, void *v, size_t i, int64_t x)
{
	uint32_t u = (uint32_t)vta_wrap32(x);
	if (s->state_int16)
		((int16_t *)v)[i] = (int16_t)(u & 0x8000u ? (int32_t)(u & 0xffffu) - 0x10000
							   : (int32_t)(u & 0xffffu));
	else
		((int8_t *)v)[i] = (int8_t)(u & 0x80u ? (int32_t)(u & 0xffu) - 0x100
						     : (int32_t)(u & 0xffu));
}

vta_status vta_host_svdf_prepare(const vta_svdf *s, vta_svdf_quant *q, vta_error *err)
{
	if (s->batches < 1 || s->input_size < 1 || s->filters < 1 || s->memory < 1)
		return vta_fail(err, VTA_E_USAGE,
				"SVDF: batches %d, input size %d, filters %d, memory %d: each must "
				"be at least 1",
				(int)s->batches, (int)s->input_size, (int)s->filters, (int)s->memory);
	if (s->rank < 1 || s->filters % s->rank)
		return vta_fail(err, VTA_E_USAGE,
				"SVDF: rank %d does not divide the %d filters", (int)s->rank,
				(int)s->filters);
	/* bounded so every index and every buffer size fits comfortably in size_t and int32 */
	if ((int64_t)s->batches * s->filters * s->memory > INT32_MAX ||
	    (int64_t)s->batches * s->input_size > INT32_MAX ||
	    (int64_t)s->filters * s->input_size > INT32_MAX)
		return vta_fail(err, VTA_E_USAGE, "SVDF: tensors above 2^31 elements");
	if (!svdf_scale_ok(s->input_scale) || !svdf_scale_ok(s->weights_feature_scale) ||
	    !svdf_scale_ok(s->weights_time_scale) || !svdf_scale_ok(s->state_scale) ||
	    !svdf_scale_ok(s->output_scale))
		return vta_fail(err, VTA_E_USAGE,
				"SVDF: scales input %g, feature weights %g, time weights %g, state "
				"%g, output %g: each must be positive and finite",
				(double)s->input_scale, (double)s->weights_feature_scale,
				(double)s->weights_time_scale, (double)s->state_scale,
				(double)s->output_scale);
	if (s->input_zero_point < INT8_MIN || s->input_zero_point > INT8_MAX ||
	    s->output_zero_point < INT8_MIN || s->output_zero_point > INT8_MAX ||
	    s->state_zero_point < svdf_state_min(s) || s->state_zero_point > svdf_state_max(s))
		return vta_fail(err, VTA_E_USAGE,
				"SVDF: zero points input %d, state %d, output %d outside their "
				"types' ranges",
				(int)s->input_zero_point, (int)s->state_zero_point,
				(int)s->output_zero_point);
	/* TFLM: the bias must be quantized as state x time weights, within 1e-5 */
	float bias_want = s->state_scale * s->weights_time_scale;
	if (s->bias && !(fabs((double)s->bias_scale - (double)bias_want) < 1e-5))
		return vta_fail(err, VTA_E_USAGE,
				"SVDF: bias scale %g, expected state scale x time weights scale = %g "
				"(within 1e-5)",
				(double)s->bias_scale, (double)bias_want);
	/* the products and the quotient in float, as TFLM's Prepare computes them */
	float e1 = s->input_scale * s->weights_feature_scale / s->state_scale;
	float e2 = s->state_scale * s->weights_time_scale / s->output_scale;
	vta_status st = vta_quant_multiplier((double)e1, &q->feature, err);
	if (st == VTA_OK)
		st = vta_quant_multiplier((double)e2, &q->output, err);
	return st;
}

void vta_host_svdf_reset(const vta_svdf *s)
{
	size_t n = (size_t)s->batches * (size_t)s->filters * (size_t)s->memory;
	int32_t v = s->state_int16 ? 0 : s->state_zero_point;
	for (size_t i = 0; i < n; i++)
		svdf_state_set(s, s->state, i, v);
}

vta_status vta_host_svdf(const vta_svdf *s, vta_error *err)
{
	if (!s->input || !s->weights_feature || !s->weights_time || !s->state || !s->output)
		return vta_fail(err, VTA_E_USAGE, "SVDF: a tensor without data");
	vta_svdf_quant q;
	vta_status st = vta_host_svdf_prepare(s, &q, err);
	if (st != VTA_OK)
		return st;
	const size_t nb = (size_t)s->batches, nf = (size_t)s->filters, nm = (size_t)s->memory;
	const size_t ni = (size_t)s->input_size, units = nf / (size_t)s->rank;
	const size_t n_state = nb * nf * nm;

	/* 1. every row one step older: the whole buffer moves one element left */
	for (size_t i = 0; i + 1 < n_state; i++)
		svdf_state_set(s, s->state, i, svdf_state_get(s, s->state, i + 1));

	/* 2. the newest column: feature weights . (input - zp), requantized to the state */
	for (size_t b = 0; b < nb; b++)
		for (size_t f = 0; f < nf; f++) {
			const int8_t *w = s->weights_feature + f * ni;
			const int8_t *x = s->input + b * ni;
			int64_t acc = 0;
			for (size_t c = 0; c < ni; c++)
				acc += (int32_t)w[c] * ((int32_t)x[c] - s->input_zero_point);
			int32_t v = vta_quant_mbqm(vta_wrap32(acc), q.feature);
			/* TFLM clamps to the state's type, then adds the zero point and stores
			 * the sum narrowed to that type: with an int8 state and a non-zero zero
			 * point a sum beyond int8 wraps (mod 256) rather than saturating */
			v = v < svdf_state_min(s) ? svdf_state_min(s) : v;
			v = v > svdf_state_max(s) ? svdf_state_max(s) : v;
			int64_t z = (int64_t)v + s->state_zero_point;
			svdf_state_set(s, s->state, (b * nf + f) * nm + nm - 1, z);
		}

	/* 3. per unit: bias + the rank filters' time dot products, requantized to int8 */
	for (size_t b = 0; b < nb; b++)
		for (size_t u = 0; u < units; u++) {
			int64_t sum = s->bias ? s->bias[u] : 0;
			for (size_t r = 0; r < (size_t)s->rank; r++) {
				size_t f = u * (size_t)s->rank + r;
				int64_t dot = 0;
				for (size_t j = 0; j < nm; j++)
					dot += svdf_state_get(s, s->weights_time, f * nm + j) *
					       (svdf_state_get(s, s->state, (b * nf + f) * nm + j) -
						s->state_zero_point);
				sum += vta_wrap32(dot);
			}
			int64_t y = (int64_t)vta_quant_mbqm(vta_wrap32(sum), q.output) +
				    s->output_zero_point;
			s->output[b * units + u] = (int8_t)(y < INT8_MIN ? INT8_MIN
							    : y > INT8_MAX ? INT8_MAX : y);
		}
	return VTA_OK;
}
