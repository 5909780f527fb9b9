/* op_layer.c - helpers of the accelerated operators' layer hooks (op_layer.h). */
#include "op_layer.h"

vta_layer_array vta_op_nhwc_array(const char *name, const vta_tensor_i8 *t)
{
	return (vta_layer_array){name, VTA_NPY_I8, 4,
				 {(size_t)t->shape[0], (size_t)t->shape[1], (size_t)t->shape[2],
				  (size_t)t->shape[3]},
				 t->data};
}

void vta_op_key_tensor(vta_golden_key *h, const vta_tensor_i8 *t, bool with_data)
{
	for (int i = 0; i < 4; i++)
		vta_golden_key_u64(h, (uint64_t)(int64_t)t->shape[i]);
	vta_golden_key_f64(h, t->scale);
	vta_golden_key_u64(h, (uint64_t)(int64_t)t->zero_point);
	if (with_data)
		vta_golden_key_update(h, t->data, vta_tensor_i8_count(t));
}

void vta_op_key_consts(vta_golden_key *h, const int8_t *filter, size_t n, const float *scales,
		       size_t n_scales, const int32_t *bias, size_t o)
{
	vta_golden_key_u64(h, n);
	vta_golden_key_update(h, filter, n);
	vta_golden_key_u64(h, n_scales);
	for (size_t i = 0; i < n_scales; i++)
		vta_golden_key_f64(h, scales[i]);
	vta_golden_key_u64(h, bias != NULL);
	if (bias)
		vta_golden_key_update(h, bias, o * sizeof(*bias));
}

void vta_op_key_ints(vta_golden_key *h, const int32_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		vta_golden_key_u64(h, (uint64_t)(int64_t)v[i]);
}

const vta_lut_tensor *vta_op_filter_lut(const vta_layer_data *d)
{
	return d->has_lut ? &d->lut.tensor : NULL;
}

const vta_lut_tensor *vta_op_bias_lut(const vta_layer_data *d)
{
	return d->has_bias_lut ? &d->bias_lut.tensor : NULL;
}

uint64_t vta_op_input_bytes_once(const vta_layer_data *d)
{
	return vta_tensor_i8_count(&d->input);
}
