/* op_shape.c - the helpers of the operators' derive hooks (op_shape.h). */
#include "op_shape.h"

#include <stdarg.h>
#include <stdio.h>

#include "vta_bytes.h"
#include "vta_text.h"

uint64_t vta_op_sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

uint64_t vta_op_sat_mul(uint64_t a, uint64_t b)
{
	return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

uint64_t vta_op_dims_count(const int32_t *d, int n)
{
	uint64_t c = 1;
	for (int i = 0; i < n; i++)
		c = vta_op_sat_mul(c, d[i] > 0 ? (uint64_t)d[i] : 0);
	return c;
}

vta_status vta_op_shape_fail(vta_op_shape *c, const char *fmt, ...)
{
	char msg[VTA_ERROR_DETAIL_MAX], nb[32];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return vta_fail(c->err, VTA_E_DATA, "%s: operator %zu (%s): %s", c->m->name, c->index,
			vta_tfl_op_label(c->op, nb, sizeof(nb)), msg);
}

const vta_tfl_tensor *vta_op_shape_input(vta_op_shape *c, size_t k)
{
	if (k >= c->op->n_inputs || c->op->inputs[k] < 0) {
		vta_op_shape_fail(c, "%zu inputs, input %zu is needed", c->op->n_inputs, k);
		return NULL;
	}
	return &c->m->tensors[c->op->inputs[k]];
}

vta_status vta_op_shape_nhwc(vta_op_shape *c, const vta_tfl_tensor *t, vta_tensor_i8 *out)
{
	static int8_t placeholder;
	if (t->rank < 1 || t->rank > 4)
		return vta_op_shape_fail(c, "tensor '%s': rank %d, expected 1..4", VTA_Q(t->name),
					 t->rank);
	for (int i = 0; i < 4; i++)
		out->shape[i] = 1;
	for (int i = 0; i < t->rank; i++)
		out->shape[4 - t->rank + i] = t->shape[i];
	out->scale = 1.0f;
	out->zero_point = 0;
	out->data = &placeholder;
	return VTA_OK;
}

const uint8_t *vta_op_shape_const_i32(const vta_tfl_tensor *t, size_t n)
{
	if (t->type != VTA_TFL_INT32 || t->count != n || t->container != VTA_TFL_PLAIN ||
	    !t->data || t->data_bytes != 4 * n)
		return NULL;
	return t->data;
}

int32_t vta_op_shape_i32_at(const uint8_t *p, size_t i)
{
	return (int32_t)vta_le32_get(p + 4 * i);
}

vta_status vta_op_derive_same(vta_op_shape *c, uint64_t *want, bool *known)
{
	const vta_tfl_tensor *a = vta_op_shape_input(c, 0);
	if (!a)
		return c->err->status;
	*known = true;
	*want = a->count;
	return VTA_OK;
}
