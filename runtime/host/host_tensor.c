/* host_tensor.c - the ranked int8 tensor of the host kernels (host_ops.h). */
#include "host_ops.h"

#include <math.h>
#include <stdio.h>

vta_host_tensor vta_host_tensor_of(const vta_tensor_i8 *t)
{
	vta_host_tensor h = {0};
	h.rank = 4;
	for (int i = 0; i < 4; i++)
		h.dims[i] = t->shape[i];
	h.scale = t->scale;
	h.zero_point = t->zero_point;
	h.data = t->data;
	return h;
}

size_t vta_host_tensor_count(const vta_host_tensor *t)
{
	if (!t || t->rank < 1 || t->rank > VTA_HOST_MAX_DIMS)
		return 0;
	return vta_shape_count(t->dims, t->rank);
}

vta_status vta_host_tensor_check(const vta_host_tensor *t, const char *what, vta_error *err)
{
	if (!t)
		return vta_fail(err, VTA_E_USAGE, "%s: no tensor", what);
	if (t->rank < 1 || t->rank > VTA_HOST_MAX_DIMS)
		return vta_fail(err, VTA_E_USAGE, "%s: rank %d is not 1..%d", what, t->rank,
				VTA_HOST_MAX_DIMS);
	if (vta_host_tensor_count(t) == 0)
		return vta_fail(err, VTA_E_USAGE, "%s: a dimension is below 1 or the size overflows",
				what);
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

/* "[d0, d1, ...]" */
static void ht_dims(const vta_host_tensor *t, char *buf, size_t size)
{
	size_t n = (size_t)snprintf(buf, size, "[");
	for (int i = 0; i < t->rank && i < VTA_HOST_MAX_DIMS && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%d", i ? ", " : "", (int)t->dims[i]);
	if (n < size)
		snprintf(buf + n, size - n, "]");
}

vta_status vta_host_expect_dims(const vta_host_tensor *t, const vta_host_tensor *want,
				const char *op, vta_error *err)
{
	bool same = t->rank == want->rank;
	for (int i = 0; same && i < t->rank; i++)
		same = t->dims[i] == want->dims[i];
	if (same)
		return VTA_OK;
	char got[96], exp[96];
	ht_dims(t, got, sizeof(got));
	ht_dims(want, exp, sizeof(exp));
	return vta_fail(err, VTA_E_USAGE, "%s output shape %s should be %s", op, got, exp);
}
