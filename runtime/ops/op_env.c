/* op_env.c - a model run's tensors as operators see them, through the runner's table, and
 * the conversions operator files share over them (op_env.h). */
#include "op_env.h"

#include <stdlib.h>
#include <string.h>

#include "vta_text.h"

/* The run's tensors: through the runner's table. */

const vta_tfl_model *vta_op_env_model(const vta_op_env *env)
{
	return env->fns->model(env);
}

const void *vta_op_env_value(vta_op_env *env, int32_t idx, vta_error *err)
{
	return env->fns->value(env, idx, err);
}

void *vta_op_env_output(vta_op_env *env, int32_t idx, vta_error *err)
{
	return env->fns->output(env, idx, err);
}

void *vta_op_env_computed(const vta_op_env *env, int32_t idx)
{
	return env->fns->computed(env, idx);
}

size_t vta_op_tensor_bytes(const vta_tfl_tensor *t)
{
	return t->count * vta_tfl_type_size(t->type);
}

vta_status vta_op_need_int8(const vta_tfl_tensor *t, int32_t idx, vta_error *err)
{
	if (t->type != VTA_TFL_INT8)
		return vta_fail(err, VTA_E_UNSUPPORTED, "tensor %d '%s' is %s, expected int8", idx,
				VTA_Q(t->name), vta_tfl_type_name(t->type));
	if (t->quant.count > 1)
		return vta_fail(err, VTA_E_UNSUPPORTED,
				"tensor %d '%s': an activation with per-channel quantization", idx,
				VTA_Q(t->name));
	return VTA_OK;
}

float vta_op_scale(const vta_tfl_tensor *t)
{
	return t->quant.count ? t->quant.scale[0] : 1.0f;
}

int32_t vta_op_zero_point(const vta_tfl_tensor *t)
{
	return t->quant.zero_point_count ? (int32_t)t->quant.zero_point[0] : 0;
}

/* An int8 activation (rank 1..4, right-aligned into NHWC) over `data`. */
vta_status vta_op_nhwc(vta_op_env *env, int32_t idx, int8_t *data, vta_tensor_i8 *out,
			      vta_error *err)
{
	const vta_tfl_tensor *t = &vta_op_env_model(env)->tensors[idx];
	vta_status st = vta_op_need_int8(t, idx, err);
	if (st)
		return st;
	if (t->rank < 1 || t->rank > 4)
		return vta_fail(err, VTA_E_UNSUPPORTED, "tensor %d '%s': rank %d, expected 1..4",
				idx, VTA_Q(t->name), t->rank);
	for (int i = 0; i < 4; i++)
		out->shape[i] = 1;
	for (int i = 0; i < t->rank; i++)
		out->shape[4 - t->rank + i] = t->shape[i];
	out->scale = vta_op_scale(t);
	out->zero_point = vta_op_zero_point(t);
	out->data = data;
	return VTA_OK;
}

/* An activation input of an operator (its computed or constant value). */
vta_status vta_op_input(vta_op_env *env, int32_t idx, vta_tensor_i8 *out, vta_error *err)
{
	const void *v = vta_op_env_value(env, idx, err);
	if (!v)
		return err->status;
	return vta_op_nhwc(env, idx, (int8_t *)v, out, err);
}
void vta_op_layer_free(vta_op_layer *b)
{
	free(b->scales);
	free(b->bias);
}

/* Filter scales (one per output channel) and constants of a CONV/DEPTHWISE/FC layer. */
vta_status vta_op_weights(vta_op_env *env, const vta_tfl_op *op, size_t oc, vta_op_layer *b,
			  vta_error *err)
{
	const vta_tfl_model *m = vta_op_env_model(env);
	int32_t fi = op->inputs[1];
	const vta_tfl_tensor *f = &m->tensors[fi];
	if (f->type != VTA_TFL_INT8)
		return vta_fail(err, VTA_E_UNSUPPORTED, "filter tensor %d is %s, expected int8", fi,
				vta_tfl_type_name(f->type));
	if (f->quant.count != 1 && f->quant.count != oc)
		return vta_fail(err, VTA_E_UNSUPPORTED,
				"filter tensor %d: %zu scales for %zu output channels", fi,
				f->quant.count, oc);
	for (size_t i = 0; i < f->quant.zero_point_count; i++)
		if (f->quant.zero_point[i])
			return vta_fail(err, VTA_E_UNSUPPORTED,
					"filter tensor %d: zero point %lld (weights must be "
					"symmetric)", fi, (long long)f->quant.zero_point[i]);
	b->scales = malloc(oc * sizeof(float));
	if (!b->scales)
		return vta_fail(err, VTA_E_NOMEM, "out of memory");
	for (size_t c = 0; c < oc; c++)
		b->scales[c] = f->quant.scale[f->quant.count == 1 ? 0 : c];
	vta_layer_data *d = &b->d;
	d->filter_scales = b->scales;
	if (f->container != VTA_TFL_PLAIN) {
		d->has_lut = true;
		d->lut.tensor = f->lut;
		d->compressed_bytes += f->lut.indices_bytes + f->lut.value_table_bytes;
		d->decompressed_bytes += f->count;
	} else {
		const void *v = vta_op_env_value(env, fi, err);
		if (!v)
			return err->status;
		d->filter = (int8_t *)v;
	}
	int32_t bi = op->n_inputs > 2 ? op->inputs[2] : -1;
	if (bi < 0)
		return VTA_OK;
	const vta_tfl_tensor *bt = &m->tensors[bi];
	if (bt->type != VTA_TFL_INT32 || bt->count != oc)
		return vta_fail(err, VTA_E_UNSUPPORTED,
				"bias tensor %d: %s of %zu elements, expected int32 of %zu", bi,
				vta_tfl_type_name(bt->type), bt->count, oc);
	if (bt->container != VTA_TFL_PLAIN) {
		d->has_bias_lut = true;
		d->bias_lut.tensor = bt->lut;
		d->compressed_bytes += bt->lut.indices_bytes + bt->lut.value_table_bytes;
		d->decompressed_bytes += oc * sizeof(int32_t);
		return VTA_OK;
	}
	const void *v = vta_op_env_value(env, bi, err);
	if (!v)
		return err->status;
	b->bias = malloc(oc * sizeof(int32_t));
	if (!b->bias)
		return vta_fail(err, VTA_E_NOMEM, "out of memory");
	memcpy(b->bias, v, oc * sizeof(int32_t)); /* the image may hold it unaligned */
	d->bias = b->bias;
	return VTA_OK;
}

/* The output tensor of a layer whose shape the golden side computed. */
vta_status vta_op_layer_output(vta_op_env *env, const vta_tfl_op *op, const int32_t shape[4],
			       vta_op_layer *b, vta_error *err)
{
	int32_t oi = op->outputs[0];
	const vta_tfl_tensor *t = &vta_op_env_model(env)->tensors[oi];
	vta_status st = vta_op_need_int8(t, oi, err);
	if (st)
		return st;
	size_t n = 1; /* saturating: four int32 dimensions can overflow 64 bits */
	for (int i = 0; i < 4; i++)
		n = shape[i] > 0 && n > SIZE_MAX / (size_t)shape[i]
			    ? SIZE_MAX
			    : n * (size_t)(shape[i] > 0 ? shape[i] : 0);
	if (n != t->count)
		return vta_fail(err, VTA_E_DATA,
				"output tensor %d '%s' holds %zu elements, the layer makes %zu "
				"([%d, %d, %d, %d])", oi, VTA_Q(t->name), t->count, n, shape[0],
				shape[1], shape[2], shape[3]);
	void *buf = vta_op_env_output(env, oi, err);
	if (!buf)
		return err->status;
	memcpy(b->d.output.shape, shape, 4 * sizeof(int32_t));
	b->d.output.scale = vta_op_scale(t);
	b->d.output.zero_point = vta_op_zero_point(t);
	b->d.output.data = buf;
	b->spec.output_scale = b->d.output.scale;
	b->spec.output_zero_point = b->d.output.zero_point;
	return VTA_OK;
}
/* An int8 tensor of the host kernels over `data`. */
vta_status vta_op_host_tensor(vta_op_env *env, int32_t idx, int8_t *data, vta_host_tensor *out,
			      vta_error *err)
{
	const vta_tfl_tensor *t = &vta_op_env_model(env)->tensors[idx];
	vta_status st = vta_op_need_int8(t, idx, err);
	if (st)
		return st;
	if (t->rank < 1 || t->rank > VTA_HOST_MAX_DIMS)
		return vta_fail(err, VTA_E_UNSUPPORTED, "tensor %d '%s': rank %d, expected 1..%d",
				idx, VTA_Q(t->name), t->rank, VTA_HOST_MAX_DIMS);
	out->rank = t->rank;
	memcpy(out->dims, t->shape, (size_t)t->rank * sizeof(int32_t));
	out->scale = vta_op_scale(t);
	out->zero_point = vta_op_zero_point(t);
	out->data = data;
	return VTA_OK;
}

vta_status vta_op_host_in(vta_op_env *env, int32_t idx, vta_host_tensor *out, vta_error *err)
{
	const void *v = vta_op_env_value(env, idx, err);
	if (!v)
		return err->status;
	return vta_op_host_tensor(env, idx, (int8_t *)v, out, err);
}

vta_status vta_op_host_out(vta_op_env *env, int32_t idx, vta_host_tensor *out, vta_error *err)
{
	void *v = vta_op_env_output(env, idx, err);
	if (!v)
		return err->status;
	return vta_op_host_tensor(env, idx, v, out, err);
}

/* An int32 constant vector (PAD's paddings, TRANSPOSE's perm, MEAN's axes). */
vta_status vta_op_const_i32(vta_op_env *env, int32_t idx, int32_t *out, size_t max, size_t *n,
			    vta_error *err)
{
	const vta_tfl_tensor *t = &vta_op_env_model(env)->tensors[idx];
	if (t->type != VTA_TFL_INT32 || t->count > max)
		return vta_fail(err, VTA_E_UNSUPPORTED,
				"tensor %d '%s': expected at most %zu int32 values", idx,
				VTA_Q(t->name), max);
	const void *v = vta_op_env_value(env, idx, err);
	if (!v)
		return err->status;
	memcpy(out, v, t->count * sizeof(int32_t));
	*n = t->count;
	return VTA_OK;
}
