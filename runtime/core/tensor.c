/* tensor.c - shape arithmetic and validation of int8 NHWC tensors (see tensor.h). */
#include "tensor.h"

#include <math.h>

size_t vta_tensor_i8_count(const vta_tensor_i8 *t)
{
	return t ? vta_shape_count(t->shape, 4) : 0;
}

size_t vta_shape_count(const int32_t *dims, int n)
{
	size_t count = 1;
	for (int i = 0; i < n; i++) {
		if (dims[i] < 1 || count > SIZE_MAX / (size_t)dims[i])
			return 0;
		count *= (size_t)dims[i];
	}
	return count;
}

vta_status vta_tensor_i8_check(const vta_tensor_i8 *t, const char *what, vta_error *err)
{
	if (!t)
		return vta_fail(err, VTA_E_USAGE, "%s: missing tensor", what);
	if (vta_tensor_i8_count(t) == 0)
		return vta_fail(err, VTA_E_USAGE, "%s: shape [%d, %d, %d, %d] is not a valid NHWC "
				"shape", what, (int)t->shape[0], (int)t->shape[1],
				(int)t->shape[2], (int)t->shape[3]);
	if (!t->data)
		return vta_fail(err, VTA_E_USAGE, "%s: no data", what);
	if (!isfinite(t->scale) || !(t->scale > 0))
		return vta_fail(err, VTA_E_USAGE, "%s: scale %g must be finite and positive", what,
				(double)t->scale);
	if (t->zero_point < -128 || t->zero_point > 127)
		return vta_fail(err, VTA_E_USAGE, "%s: zero point %d is outside the int8 range",
				what, (int)t->zero_point);
	return VTA_OK;
}

size_t vta_tensor_i8_offset(const vta_tensor_i8 *t, int32_t n, int32_t h, int32_t w, int32_t c)
{
	return (((size_t)n * (size_t)t->shape[1] + (size_t)h) * (size_t)t->shape[2] + (size_t)w) *
		       (size_t)t->shape[3] + (size_t)c;
}

void vta_tensor_i8_coords(const vta_tensor_i8 *t, size_t index, int32_t nhwc[4])
{
	for (int i = 3; i >= 0; i--) {
		size_t d = t->shape[i] > 0 ? (size_t)t->shape[i] : 1;
		nhwc[i] = (int32_t)(index % d);
		index /= d;
	}
}
