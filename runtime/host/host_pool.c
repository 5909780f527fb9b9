/*
 * host_pool.c - AVERAGE_POOL_2D and MAX_POOL_2D on int8 NHWC (TFLM reference_integer_ops
 * AveragePool / MaxPool): the window is clamped to the image (padding never enters it), the
 * average is rounded half away from zero by integer division, both clamp to the fused
 * activation on the output's quantization, which equals the input's (TFLM's Prepare).
 */
#include "host_ops.h"

#include <math.h>

#include "golden.h"

vta_status vta_host_pool_shape(const vta_host_tensor *in, const vta_pool_params *p,
			       vta_host_tensor *out, vta_error *err)
{
	vta_status st = vta_host_tensor_check(in, "POOL_2D input", err);
	if (st != VTA_OK)
		return st;
	if (!p || !out)
		return vta_fail(err, VTA_E_USAGE, "POOL_2D: no parameters or output");
	if (in->rank != 4)
		return vta_fail(err, VTA_E_USAGE, "POOL_2D: the input has rank %d, not 4 (NHWC)",
				in->rank);
	int32_t ho, wo;
	if ((st = vta_golden_conv2d_padding(in->dims[1], p->filter_h, p->stride_h, 1, p->padding,
					    &ho, NULL, NULL, err)) ||
	    (st = vta_golden_conv2d_padding(in->dims[2], p->filter_w, p->stride_w, 1, p->padding,
					    &wo, NULL, NULL, err)))
		return st;
	out->rank = 4;
	out->dims[0] = in->dims[0];
	out->dims[1] = ho;
	out->dims[2] = wo;
	out->dims[3] = in->dims[3];
	return VTA_OK;
}

/* Shape, quantization and activation range; the window origin of output (oy, ox) is
 * (oy * stride - pad_top, ox * stride - pad_left). */
static vta_status hp_prepare(const vta_host_tensor *in, const vta_pool_params *p,
			     vta_host_tensor *out, const char *op, int32_t *pad_h, int32_t *pad_w,
			     int32_t *act_min, int32_t *act_max, vta_error *err)
{
	vta_host_tensor want = {0};
	vta_status st = vta_host_pool_shape(in, p, &want, err);
	if (st == VTA_OK)
		st = vta_host_tensor_check(out, op, err);
	if (st == VTA_OK)
		st = vta_host_expect_dims(out, &want, op, err);
	if (st != VTA_OK)
		return st;
	if (fabs((double)in->scale - (double)out->scale) > 1e-6 ||
	    in->zero_point != out->zero_point)
		return vta_fail(err, VTA_E_USAGE,
				"%s: input (scale %g, zero point %d) and output (scale %g, zero "
				"point %d) must share their quantization",
				op, (double)in->scale, (int)in->zero_point, (double)out->scale,
				(int)out->zero_point);
	vta_golden_conv2d_padding(in->dims[1], p->filter_h, p->stride_h, 1, p->padding, NULL,
				  pad_h, NULL, NULL);
	vta_golden_conv2d_padding(in->dims[2], p->filter_w, p->stride_w, 1, p->padding, NULL,
				  pad_w, NULL, NULL);
	return vta_quant_activation_range(p->activation, out->scale, out->zero_point, act_min,
					  act_max, err);
}

/* The window [y0, y1) x [x0, x1) of output (oy, ox), clamped to the image. */
static void hp_window(const vta_host_tensor *in, const vta_pool_params *p, int32_t pad_h,
		      int32_t pad_w, int32_t oy, int32_t ox, int64_t win[4])
{
	const int64_t iy = (int64_t)oy * p->stride_h - pad_h, ix = (int64_t)ox * p->stride_w - pad_w;
	win[0] = iy < 0 ? 0 : iy;
	win[1] = iy + p->filter_h < in->dims[1] ? iy + p->filter_h : in->dims[1];
	win[2] = ix < 0 ? 0 : ix;
	win[3] = ix + p->filter_w < in->dims[2] ? ix + p->filter_w : in->dims[2];
}

static size_t hp_at(const vta_host_tensor *t, int32_t n, int64_t y, int64_t x)
{
	return (((size_t)n * (size_t)t->dims[1] + (size_t)y) * (size_t)t->dims[2] + (size_t)x) *
	       (size_t)t->dims[3];
}

vta_status vta_host_avg_pool(const vta_host_tensor *in, const vta_pool_params *p,
			     vta_host_tensor *out, vta_error *err)
{
	int32_t pad_h, pad_w, lo, hi;
	vta_status st = hp_prepare(in, p, out, "AVERAGE_POOL_2D", &pad_h, &pad_w, &lo, &hi, err);
	if (st != VTA_OK)
		return st;
	const int32_t C = in->dims[3];
	for (int32_t n = 0; n < out->dims[0]; n++)
		for (int32_t oy = 0; oy < out->dims[1]; oy++)
			for (int32_t ox = 0; ox < out->dims[2]; ox++) {
				int64_t w[4];
				hp_window(in, p, pad_h, pad_w, oy, ox, w);
				const int32_t count = (int32_t)((w[1] - w[0]) * (w[3] - w[2]));
				if (count <= 0)
					return vta_fail(err, VTA_E_USAGE,
							"AVERAGE_POOL_2D: output (%d, %d) has an empty "
							"window",
							(int)oy, (int)ox);
				for (int32_t c = 0; c < C; c++) {
					int32_t acc = 0;
					for (int64_t y = w[0]; y < w[1]; y++)
						for (int64_t x = w[2]; x < w[3]; x++)
							acc += in->data[hp_at(in, n, y, x) + (size_t)c];
					/* C division truncates: half away from zero */
					acc = acc > 0 ? (acc + count / 2) / count
						      : (acc - count / 2) / count;
					acc = acc < lo ? lo : acc > hi ? hi : acc;
					out->data[hp_at(out, n, oy, ox) + (size_t)c] = (int8_t)acc;
				}
			}
	return VTA_OK;
}

vta_status vta_host_max_pool(const vta_host_tensor *in, const vta_pool_params *p,
			     vta_host_tensor *out, vta_error *err)
{
	int32_t pad_h, pad_w, lo, hi;
	vta_status st = hp_prepare(in, p, out, "MAX_POOL_2D", &pad_h, &pad_w, &lo, &hi, err);
	if (st != VTA_OK)
		return st;
	const int32_t C = in->dims[3];
	for (int32_t n = 0; n < out->dims[0]; n++)
		for (int32_t oy = 0; oy < out->dims[1]; oy++)
			for (int32_t ox = 0; ox < out->dims[2]; ox++) {
				int64_t w[4];
				hp_window(in, p, pad_h, pad_w, oy, ox, w);
				for (int32_t c = 0; c < C; c++) {
					int32_t m = -128;
					for (int64_t y = w[0]; y < w[1]; y++)
						for (int64_t x = w[2]; x < w[3]; x++) {
							int32_t v = in->data[hp_at(in, n, y, x) +
									     (size_t)c];
							m = v > m ? v : m;
						}
					m = m < lo ? lo : m > hi ? hi : m;
					out->data[hp_at(out, n, oy, ox) + (size_t)c] = (int8_t)m;
				}
			}
	return VTA_OK;
}
