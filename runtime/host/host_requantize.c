/*
 * host_requantize.c - QUANTIZE between integer types (host_ops_wide.h), TFLM's
 * quantize_common.cc with reference_ops::Requantize: one multiplier from the two scales'
 * quotient in double, then per element MultiplyByQuantizedMultiplier of (q - zp_in), the
 * output zero point added and the sum clamped to the output type.
 */
#include "host_ops_wide.h"

#include <math.h>

static const char *const rq_names[] = {"int8", "uint8", "int16", "int32"};

static int64_t rq_min(vta_host_int_type t)
{
	return t == VTA_HOST_INT8 ? INT8_MIN : t == VTA_HOST_UINT8 ? 0
	       : t == VTA_HOST_INT16 ? INT16_MIN : INT32_MIN;
}

static int64_t rq_max(vta_host_int_type t)
{
	return t == VTA_HOST_INT8 ? INT8_MAX : t == VTA_HOST_UINT8 ? UINT8_MAX
	       : t == VTA_HOST_INT16 ? INT16_MAX : INT32_MAX;
}

static int32_t rq_get(vta_host_int_type t, const void *v, size_t i)
{
	switch (t) {
	case VTA_HOST_INT8: return ((const int8_t *)v)[i];
	case VTA_HOST_UINT8: return ((const uint8_t *)v)[i];
	case VTA_HOST_INT16: return ((const int16_t *)v)[i];
	default: return ((const int32_t *)v)[i];
	}
}

static void rq_set(vta_host_int_type t, void *v, size_t i, int64_t x)
{
	switch (t) {
	case VTA_HOST_INT8: ((int8_t *)v)[i] = (int8_t)x; break;
	case VTA_HOST_UINT8: ((uint8_t *)v)[i] = (uint8_t)x; break;
	case VTA_HOST_INT16: ((int16_t *)v)[i] = (int16_t)x; break;
	default: ((int32_t *)v)[i] = (int32_t)x; break;
	}
}

/* The (input, output) pairs TFLM's QUANTIZE kernel requantizes. */
static bool rq_pair_ok(vta_host_int_type a, vta_host_int_type b)
{
	switch (a) {
	case VTA_HOST_INT8: return true;
	case VTA_HOST_UINT8: return b == VTA_HOST_INT8;
	case VTA_HOST_INT16: return b != VTA_HOST_UINT8;
	default: return b == VTA_HOST_INT8 || b == VTA_HOST_INT16;
	}
}

vta_status vta_host_requantize_int(const vta_host_quantized *in, vta_host_quantized *out,
				   size_t count, vta_error *err)
{
	if ((unsigned)in->type > VTA_HOST_INT32 || (unsigned)out->type > VTA_HOST_INT32)
		return vta_fail(err, VTA_E_USAGE, "QUANTIZE: unknown element type");
	if (!rq_pair_ok(in->type, out->type))
		return vta_fail(err, VTA_E_USAGE, "QUANTIZE from %s to %s: TFLM's kernel has no such "
				"requantization", rq_names[in->type], rq_names[out->type]);
	if (!in->data || !out->data)
		return vta_fail(err, VTA_E_USAGE, "QUANTIZE: no data");
	if (!(isfinite(in->scale) && in->scale > 0 && isfinite(out->scale) && out->scale > 0))
		return vta_fail(err, VTA_E_USAGE,
				"QUANTIZE: scales %g -> %g must be positive and finite",
				(double)in->scale, (double)out->scale);
	if (in->zero_point < rq_min(in->type) || in->zero_point > rq_max(in->type) ||
	    out->zero_point < rq_min(out->type) || out->zero_point > rq_max(out->type))
		return vta_fail(err, VTA_E_USAGE,
				"QUANTIZE: zero points %d (%s) -> %d (%s) outside their types",
				(int)in->zero_point, rq_names[in->type], (int)out->zero_point,
				rq_names[out->type]);
	vta_qmul m;
	vta_status st = vta_quant_multiplier((double)in->scale / (double)out->scale, &m, err);
	if (st != VTA_OK)
		return st;
	const int64_t lo = rq_min(out->type), hi = rq_max(out->type);
	for (size_t i = 0; i < count; i++) {
		/* q - zp_in fits int32 for every type but int32, where TFLM's int32 wraps too */
		int32_t x = vta_wrap32((int64_t)rq_get(in->type, in->data, i) - in->zero_point);
		int64_t y = (int64_t)vta_quant_mbqm(x, m) + out->zero_point;
		rq_set(out->type, out->data, i, y < lo ? lo : y > hi ? hi : y);
	}
	return VTA_OK;
}
