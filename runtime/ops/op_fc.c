/*
 * op_fc.c - FULLY_CONNECTED on the accelerator: the golden kernel (golden_fc.c), the emitter
 * (emit_fc.c: a 1x1 CONV2D over the batch rows), the workload's `fully_connected`, and a
 * model's op made into a layer. Class `fc` of --host-ops.
 */
#include "emit_fc.h"
#include "golden.h"
#include "op_env.h"
#include "op_layer.h"
#include "op_registry.h"
#include "op_shape.h"
#include "vta_text.h"

static vta_status fc_decode(const vta_layer_data *d, vta_layer_plain *p, vta_error *err)
{
	return vta_golden_fc_decode(&d->fc, vta_op_filter_lut(d), vta_op_bias_lut(d), &p->fc,
				    p->owned, err);
}

static vta_status fc_golden(const vta_layer_data *d, const vta_layer_plain *p,
			    vta_arith_mode mode, vta_tensor_i8 *out, vta_golden_stats *stats,
			    vta_error *err)
{
	(void)d;
	return vta_golden_fc(&p->fc, mode, out, stats, err);
}

static vta_status fc_emit(const vta_config *cfg, const vta_layer_data *d,
			  const vta_emit_opts *opts, vta_dram *dram, vta_layer_stream *ls,
			  vta_error *err)
{
	return vta_emit_fully_connected(cfg, &d->fc, vta_op_filter_lut(d), vta_op_bias_lut(d),
					&d->output, opts, dram, ls, err);
}

static size_t fc_arrays(const vta_layer_data *d, const vta_layer_plain *p, vta_layer_array out[])
{
	size_t oc = (size_t)p->fc.filter_shape[0];
	out[0] = vta_op_nhwc_array("input", &d->input);
	out[1] = (vta_layer_array){"filter", VTA_NPY_I8, 2, {oc, (size_t)p->fc.filter_shape[1]},
				   p->fc.filter};
	out[2] = (vta_layer_array){"filter_scales", VTA_NPY_F32, 1, {oc}, d->filter_scales};
	out[3] = (vta_layer_array){"bias", VTA_NPY_I32, 1, {oc}, p->fc.bias};
	return p->fc.bias ? 4 : 3;
}

static void fc_golden_key(const vta_layer_data *d, const vta_layer_plain *p, vta_golden_key *h)
{
	const vta_fully_connected *c = &p->fc;
	vta_op_key_tensor(h, c->input, true);
	vta_op_key_ints(h, c->filter_shape, 2);
	vta_op_key_consts(h, c->filter, (size_t)c->filter_shape[0] * c->filter_shape[1],
			  c->filter_scales, c->filter_scale_count, c->bias,
			  (size_t)c->filter_shape[0]);
	vta_golden_key_u64(h, (uint64_t)c->activation);
	vta_op_key_tensor(h, &d->output, false);
}

static vta_status fc_build(vta_op_env *env, const vta_tfl_op *op, vta_op_layer *b,
			   vta_error *err)
{
	const vta_tfl_tensor *f = &vta_op_env_model(env)->tensors[op->inputs[1]];
	vta_layer_data *d = &b->d;
	vta_status st;
	b->spec.activation = op->opt.fc.activation;
	if (f->rank != 2)
		return vta_fail(err, VTA_E_UNSUPPORTED, "filter of rank %d, expected 2", f->rank);
	if ((st = vta_op_input(env, op->inputs[0], &d->input, err)) ||
	    (st = vta_op_weights(env, op, (size_t)f->shape[0], b, err)))
		return st;
	vta_fully_connected *fc = &d->fc;
	fc->input = &d->input;
	fc->filter = d->filter;
	fc->filter_shape[0] = f->shape[0];
	fc->filter_shape[1] = f->shape[1];
	fc->filter_scales = d->filter_scales;
	fc->filter_scale_count = (size_t)f->shape[0];
	fc->bias = d->bias;
	fc->activation = b->spec.activation;
	int32_t batches;
	if ((st = vta_golden_fc_shape(fc, &batches, err)))
		return st;
	const int32_t out[4] = {1, 1, batches, f->shape[0]};
	return vta_op_layer_output(env, op, out, b, err);
}

static vta_status fc_derive(vta_op_shape *c, uint64_t *want, bool *known)
{
	const vta_tfl_tensor *a, *b;
	*known = true;
	if (!(a = vta_op_shape_input(c, 0)) || !(b = vta_op_shape_input(c, 1)))
		return c->err->status;
	if (b->rank != 2)
		return vta_op_shape_fail(c, "filter '%s' of rank %d, expected 2", VTA_Q(b->name),
					 b->rank);
	if (b->shape[1] < 1 || a->count % (size_t)b->shape[1])
		return vta_op_shape_fail(c, "an input of %zu elements is no whole number of rows "
					 "of the filter's %d", a->count, (int)b->shape[1]);
	*want = vta_op_sat_mul(a->count / (size_t)b->shape[1], (uint64_t)b->shape[0]);
	return VTA_OK;
}

static const vta_layer_ops fc_layer = {vta_layer_materialize_fc, fc_decode, fc_golden, fc_emit,
				       fc_golden_key, vta_op_input_bytes_once, fc_arrays};

const vta_op_desc vta_op_fc = {
	.name = "FULLY_CONNECTED",
	.builtin = VTA_TFL_OP_FULLY_CONNECTED,
	.place = VTA_OP_ACCEL,
	.host_class = "fc",
	.workload_name = "fully_connected",
	.layer = &fc_layer,
	.build = fc_build,
	.derive = fc_derive,
};
