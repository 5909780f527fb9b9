/* model_run.c - a whole .tflite model through the pipeline and the host kernels (model_run.h). */
#include "model_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dram_tensor.h"
#include "golden.h"
#include "host_ops.h"
#include "host_ops_wide.h"
#include "host_svdf.h"
#include "layer_ops.h"
#include "model_check.h"
#include "prng.h"
#include "vta_text.h"
#include "vta_rules.h"

vta_status vta_model_host_classes(const char *list, unsigned *mask, vta_error *err)
{
	static const struct { const char *name; unsigned bit; } CLASSES[] = {
		{"conv2d", VTA_MODEL_CLASS_CONV2D}, {"depthwise", VTA_MODEL_CLASS_DEPTHWISE},
		{"fc", VTA_MODEL_CLASS_FC}, {"add", VTA_MODEL_CLASS_ADD}, {"none", 0}};
	*mask = 0;
	const char *p = list;
	while (*p) {
		size_t n = strcspn(p, ",");
		size_t i = 0;
		while (i < sizeof(CLASSES) / sizeof(CLASSES[0]) &&
		       (strlen(CLASSES[i].name) != n || strncmp(CLASSES[i].name, p, n)))
			i++;
		vta_quoted q;
		if (i == sizeof(CLASSES) / sizeof(CLASSES[0]))
			return vta_fail(err, VTA_E_USAGE,
					"host op class '%s': expected conv2d, depthwise, fc, add "
					"or none", vta_quote_bytes(&q, p, n));
		*mask |= CLASSES[i].bit;
		p += n + (p[n] == ',');
	}
	return VTA_OK;
}

/* What a run needs while it walks the operators. */
typedef struct walk {
	const vta_config *cfg;
	const vta_tfl_model *m;
	vta_engine *engine;
	const vta_model_run_opts *o;
	void **values;        /* computed tensors */
	void **decoded;       /* LUT constants a host kernel had to decode, cached */
	bool reference;       /* the all-host run */
	vta_model_run *run;   /* results (not the reference run) */
	vta_dram_tensors *dram; /* output regions left in DRAM (not the reference run) */
} walk;

/* The class bit of an accelerated op. */
static unsigned op_class(int32_t builtin)
{
	switch (builtin) {
	case VTA_TFL_OP_CONV_2D: return VTA_MODEL_CLASS_CONV2D;
	case VTA_TFL_OP_DEPTHWISE_CONV_2D: return VTA_MODEL_CLASS_DEPTHWISE;
	case VTA_TFL_OP_FULLY_CONNECTED: return VTA_MODEL_CLASS_FC;
	default: return VTA_MODEL_CLASS_ADD;
	}
}

/* An accelerated op the options move to the host. */
static bool moved_to_host(const walk *w, const vta_tfl_op *op)
{
	return (w->o->host_classes & op_class(op->builtin)) != 0;
}

static size_t tensor_bytes(const vta_tfl_tensor *t)
{
	return t->count * vta_tfl_type_size(t->type);
}

/* A tensor's value: computed, plain constant, or a compressed constant decoded once. NULL
 * (with err) when it has none. */
static const void *value_of(walk *w, int32_t idx, vta_error *err)
{
	const vta_tfl_tensor *t = &w->m->tensors[idx];
	if (w->values[idx])
		return w->values[idx];
	if (t->container != VTA_TFL_PLAIN) {
		if (!w->decoded[idx]) {
			size_t n = tensor_bytes(t);
			void *buf = malloc(n ? n : 1);
			if (!buf) {
				vta_fail(err, VTA_E_NOMEM, "out of memory");
				return NULL;
			}
			if (vta_tfl_tensor_decode(t, buf, n, err)) {
				free(buf);
				return NULL;
			}
			w->decoded[idx] = buf;
		}
		return w->decoded[idx];
	}
	if (t->data)
		return t->data;
	vta_fail(err, VTA_E_DATA, "tensor %d '%s' has no value: no earlier operator computes it",
		 idx, VTA_Q(t->name));
	return NULL;
}

/* A fresh buffer for an operator's output tensor. */
static void *output_buffer(walk *w, int32_t idx, vta_error *err)
{
	const vta_tfl_tensor *t = &w->m->tensors[idx];
	size_t n = tensor_bytes(t);
	free(w->values[idx]);
	w->values[idx] = calloc(n ? n : 1, 1);
	if (!w->values[idx])
		vta_fail(err, VTA_E_NOMEM, "out of memory for tensor %d '%s' (%zu bytes)", idx,
			 VTA_Q(t->name), n);
	return w->values[idx];
}

static vta_status need_int8(const vta_tfl_tensor *t, int32_t idx, vta_error *err)
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

static float scale_of(const vta_tfl_tensor *t)
{
	return t->quant.count ? t->quant.scale[0] : 1.0f;
}

static int32_t zero_point_of(const vta_tfl_tensor *t)
{
	return t->quant.zero_point_count ? (int32_t)t->quant.zero_point[0] : 0;
}

/* An int8 activation (rank 1..4, right-aligned into NHWC) over `data`. */
static vta_status nhwc_tensor(walk *w, int32_t idx, int8_t *data, vta_tensor_i8 *out,
			      vta_error *err)
{
	const vta_tfl_tensor *t = &w->m->tensors[idx];
	vta_status st = need_int8(t, idx, err);
	if (st)
		return st;
	if (t->rank < 1 || t->rank > 4)
		return vta_fail(err, VTA_E_UNSUPPORTED, "tensor %d '%s': rank %d, expected 1..4",
				idx, VTA_Q(t->name), t->rank);
	for (int i = 0; i < 4; i++)
		out->shape[i] = 1;
	for (int i = 0; i < t->rank; i++)
		out->shape[4 - t->rank + i] = t->shape[i];
	out->scale = scale_of(t);
	out->zero_point = zero_point_of(t);
	out->data = data;
	return VTA_OK;
}

/* An activation input of an operator (its computed or constant value). */
static vta_status input_tensor(walk *w, int32_t idx, vta_tensor_i8 *out, vta_error *err)
{
	const void *v = value_of(w, idx, err);
	if (!v)
		return err->status;
	return nhwc_tensor(w, idx, (int8_t *)v, out, err);
}

/* What a layer description borrows and owns. */
typedef struct built {
	vta_wl_layer spec;
	vta_layer_data d;
	float *scales;
	int32_t *bias;
} built;

static void built_free(built *b)
{
	free(b->scales);
	free(b->bias);
}

/* Filter scales (one per output channel) and constants of a CONV/DEPTHWISE/FC layer. */
static vta_status weights(walk *w, const vta_tfl_op *op, size_t oc, built *b, vta_error *err)
{
	const vta_tfl_model *m = w->m;
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
		const void *v = value_of(w, fi, err);
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
	const void *v = value_of(w, bi, err);
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
static vta_status layer_output(walk *w, const vta_tfl_op *op, const int32_t shape[4],
			       built *b, vta_error *err)
{
	int32_t oi = op->outputs[0];
	const vta_tfl_tensor *t = &w->m->tensors[oi];
	vta_status st = need_int8(t, oi, err);
	if (st)
		return st;
	size_t n = 1; /* saturating: four int32 dimensions can overflow 64 bits */
	for (int i = 0; i < 4; i++)
		n = shape[i] > 0 && n > SIZE_MAX / (size_t)shape[i] ? SIZE_MAX
								     : n * (size_t)(shape[i] > 0 ? shape[i] : 0);
	if (n != t->count)
		return vta_fail(err, VTA_E_DATA,
				"output tensor %d '%s' holds %zu elements, the layer makes %zu "
				"([%d, %d, %d, %d])", oi, VTA_Q(t->name), t->count, n, shape[0],
				shape[1], shape[2], shape[3]);
	void *buf = output_buffer(w, oi, err);
	if (!buf)
		return err->status;
	memcpy(b->d.output.shape, shape, 4 * sizeof(int32_t));
	b->d.output.scale = scale_of(t);
	b->d.output.zero_point = zero_point_of(t);
	b->d.output.data = buf;
	b->spec.output_scale = b->d.output.scale;
	b->spec.output_zero_point = b->d.output.zero_point;
	return VTA_OK;
}

/* An accelerated op as a layer description over the model's tensors. */
static vta_status build_layer(walk *w, const vta_tfl_op *op, size_t index, built *b,
			      vta_error *err)
{
	const vta_tfl_model *m = w->m;
	memset(b, 0, sizeof(*b));
	char nb[32];
	snprintf(b->spec.name, sizeof(b->spec.name), "%zu %s", index,
		 vta_tfl_op_label(op, nb, sizeof(nb)));
	vta_layer_data *d = &b->d;
	d->spec = &b->spec;
	int32_t shape[4];
	vta_status st;
	if (op->builtin == VTA_TFL_OP_ADD) {
		b->spec.op = d->op = VTA_WL_ADD;
		b->spec.activation = op->opt.add.activation;
		if (op->n_inputs != 2)
			return vta_fail(err, VTA_E_DATA, "ADD with %zu inputs", op->n_inputs);
		const vta_tfl_tensor *t0 = &m->tensors[op->inputs[0]], *t1 = &m->tensors[op->inputs[1]];
		bool lut0 = t0->container != VTA_TFL_PLAIN, lut1 = t1->container != VTA_TFL_PLAIN;
		if (lut0 && lut1)
			return vta_fail(err, VTA_E_UNSUPPORTED,
					"both ADD inputs are LUT-compressed constants");
		d->swapped = lut0;
		int32_t ia = op->inputs[lut0 ? 1 : 0], ib = op->inputs[lut0 ? 0 : 1];
		if ((st = input_tensor(w, ia, &d->a, err)))
			return st;
		if (lut0 || lut1) {
			const vta_tfl_tensor *tb = &m->tensors[ib];
			if ((st = nhwc_tensor(w, ib, NULL, &d->b, err)))
				return st;
			d->has_lut = true;
			d->lut.tensor = tb->lut;
			d->compressed_bytes = tb->lut.indices_bytes + tb->lut.value_table_bytes;
			d->decompressed_bytes = tb->count;
		} else if ((st = input_tensor(w, ib, &d->b, err))) {
			return st;
		}
		size_t na = vta_tensor_i8_count(&d->a), nbb = vta_tensor_i8_count(&d->b);
		memcpy(shape, na >= nbb ? d->a.shape : d->b.shape, sizeof(shape));
		return layer_output(w, op, shape, b, err);
	}
	const vta_tfl_tensor *f = &m->tensors[op->inputs[1]];
	if (op->builtin == VTA_TFL_OP_FULLY_CONNECTED) {
		b->spec.op = d->op = VTA_WL_FC;
		b->spec.activation = op->opt.fc.activation;
		if (f->rank != 2)
			return vta_fail(err, VTA_E_UNSUPPORTED, "filter of rank %d, expected 2",
					f->rank);
		if ((st = input_tensor(w, op->inputs[0], &d->input, err)) ||
		    (st = weights(w, op, (size_t)f->shape[0], b, err)))
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
		return layer_output(w, op, out, b, err);
	}
	const vta_tfl_conv_options *co = &op->opt.conv;
	if (f->rank != 4)
		return vta_fail(err, VTA_E_UNSUPPORTED, "filter of rank %d, expected 4", f->rank);
	if ((st = input_tensor(w, op->inputs[0], &d->input, err)))
		return st;
	b->spec.activation = co->activation;
	if (op->builtin == VTA_TFL_OP_CONV_2D) {
		b->spec.op = d->op = VTA_WL_CONV2D;
		if ((st = weights(w, op, (size_t)f->shape[0], b, err)))
			return st;
		vta_conv2d *c = &d->conv;
		c->input = &d->input;
		c->filter = d->filter;
		memcpy(c->filter_shape, f->shape, sizeof(c->filter_shape));
		c->filter_scales = d->filter_scales;
		c->filter_scale_count = (size_t)f->shape[0];
		c->bias = d->bias;
		c->stride_h = co->stride_h;
		c->stride_w = co->stride_w;
		c->dilation_h = co->dilation_h;
		c->dilation_w = co->dilation_w;
		c->padding = co->padding;
		c->activation = co->activation;
		if ((st = vta_golden_conv2d_shape(c, shape, err)))
			return st;
		return layer_output(w, op, shape, b, err);
	}
	b->spec.op = d->op = VTA_WL_DEPTHWISE;
	if ((st = weights(w, op, (size_t)f->shape[3], b, err)))
		return st;
	vta_depthwise_conv2d *dw = &d->dw;
	dw->input = &d->input;
	dw->filter = d->filter;
	memcpy(dw->filter_shape, f->shape, sizeof(dw->filter_shape));
	dw->depth_multiplier = co->depth_multiplier;
	dw->filter_scales = d->filter_scales;
	dw->filter_scale_count = (size_t)f->shape[3];
	dw->bias = d->bias;
	dw->stride_h = co->stride_h;
	dw->stride_w = co->stride_w;
	dw->dilation_h = co->dilation_h;
	dw->dilation_w = co->dilation_w;
	dw->padding = co->padding;
	dw->activation = co->activation;
	if ((st = vta_golden_depthwise_shape(dw, shape, err)))
		return st;
	return layer_output(w, op, shape, b, err);
}

/* An accelerated op's golden kernel on the host: the host path of its class. */
static vta_status golden_on_host(const vta_layer_data *d, vta_error *err)
{
	const vta_layer_ops *ops = vta_layer_ops_of(d->op);
	vta_layer_plain plain;
	memset(&plain, 0, sizeof(plain));
	vta_tensor_i8 out = d->output;
	vta_status st = ops->decode(d, &plain, err);
	if (!st)
		st = ops->golden(d, &plain, VTA_ARITH_TFLITE, &out, NULL, err);
	vta_layer_plain_free(&plain);
	return st;
}

/* The host copies tensor idx out of DRAM if only DRAM holds it; the producer is charged. */
static void copy_out(walk *w, int32_t idx)
{
	if (!w->dram || idx < 0 || (size_t)idx >= w->m->n_tensors)
		return;
	int32_t producer = -1;
	double seconds;
	uint64_t n = vta_dram_tensors_copy_out(w->dram, w->cfg, idx, w->values[idx], &producer,
					       &seconds);
	if (n && producer >= 0 && (size_t)producer < w->run->n_ops) {
		w->run->ops[producer].copied_out_bytes += n;
		w->run->ops[producer].copy_out_seconds += seconds;
	}
}

/* An accelerated op on the engine: its inputs from their regions in DRAM where earlier ops
 * left them, its output region kept there for the next. */
static vta_status run_on_engine(walk *w, const vta_tfl_op *op, size_t index,
				const vta_layer_data *d, vta_model_op_result *r, vta_error *err)
{
	vta_dram_tensor resident[2];
	vta_layer_run_opts lo = w->o->layer;
	if (!w->o->host_staging) {
		lo.resident = resident;
		lo.n_resident = vta_dram_tensors_gather(w->dram, op->inputs, op->n_inputs,
							 resident, 2);
	}
	lo.keep_output = vta_dram_tensors_slot(w->dram, op->outputs[0]);
	lo.op_index = (int32_t)index;
	vta_status st = vta_layer_run_data(w->cfg, d, w->engine, &lo, &r->layer, err);
	if (w->o->host_staging)
		copy_out(w, op->outputs[0]);
	return st;
}

static vta_status run_accel(walk *w, const vta_tfl_op *op, size_t index,
			    vta_model_op_result *r, vta_error *err)
{
	built b;
	vta_status st = build_layer(w, op, index, &b, err);
	if (!st) {
		bool on_host = w->reference || moved_to_host(w, op);
		if (on_host) {
			double t0 = vta_host_now();
			st = golden_on_host(&b.d, err);
			if (r) {
				r->place = VTA_OP_HOST;
				r->host_seconds = vta_host_now() - t0;
			}
		} else {
			r->place = VTA_OP_ACCEL;
			st = run_on_engine(w, op, index, &b.d, r, err);
		}
	}
	built_free(&b);
	return st;
}

/* ---- host ops ---- */

/* An int8 tensor of the host kernels over `data`. */
static vta_status host_tensor(walk *w, int32_t idx, int8_t *data, vta_host_tensor *out,
			      vta_error *err)
{
	const vta_tfl_tensor *t = &w->m->tensors[idx];
	vta_status st = need_int8(t, idx, err);
	if (st)
		return st;
	if (t->rank < 1 || t->rank > VTA_HOST_MAX_DIMS)
		return vta_fail(err, VTA_E_UNSUPPORTED, "tensor %d '%s': rank %d, expected 1..%d",
				idx, VTA_Q(t->name), t->rank, VTA_HOST_MAX_DIMS);
	out->rank = t->rank;
	memcpy(out->dims, t->shape, (size_t)t->rank * sizeof(int32_t));
	out->scale = scale_of(t);
	out->zero_point = zero_point_of(t);
	out->data = data;
	return VTA_OK;
}

static vta_status host_in(walk *w, int32_t idx, vta_host_tensor *out, vta_error *err)
{
	const void *v = value_of(w, idx, err);
	if (!v)
		return err->status;
	return host_tensor(w, idx, (int8_t *)v, out, err);
}

static vta_status host_out(walk *w, int32_t idx, vta_host_tensor *out, vta_error *err)
{
	void *v = output_buffer(w, idx, err);
	if (!v)
		return err->status;
	return host_tensor(w, idx, v, out, err);
}

/* An int32 constant vector (PAD's paddings, TRANSPOSE's perm, MEAN's axes). */
static vta_status const_i32(walk *w, int32_t idx, int32_t *out, size_t max, size_t *n,
			    vta_error *err)
{
	const vta_tfl_tensor *t = &w->m->tensors[idx];
	if (t->type != VTA_TFL_INT32 || t->count > max)
		return vta_fail(err, VTA_E_UNSUPPORTED,
				"tensor %d '%s': expected at most %zu int32 values", idx,
				VTA_Q(t->name), max);
	const void *v = value_of(w, idx, err);
	if (!v)
		return err->status;
	memcpy(out, v, t->count * sizeof(int32_t));
	*n = t->count;
	return VTA_OK;
}

/* SVDF: the state tensor (a variable) lives in the walk's values, reset as TFLM resets it
 * before the first invocation; each run of the model is one invocation. */
static vta_status svdf_tensor(walk *w, int32_t idx, const char *what, vta_tfl_type type,
			      int rank, bool weights, const vta_tfl_tensor **out, vta_error *err)
{
	const vta_tfl_tensor *t = &w->m->tensors[idx];
	*out = t;
	if (t->type != type || t->rank != rank)
		return vta_fail(err, VTA_E_DATA, "the %s, tensor %d '%s', is %s of rank %d; "
				"expected %s of rank %d", what, idx, VTA_Q(t->name),
				vta_tfl_type_name(t->type), t->rank, vta_tfl_type_name(type), rank);
	if (t->quant.count < 1 && type != VTA_TFL_INT32)
		return vta_fail(err, VTA_E_DATA, "the %s, tensor %d '%s', is not quantized", what,
				idx, VTA_Q(t->name));
	if (weights && t->quant.zero_point_count && t->quant.zero_point[0])
		return vta_fail(err, VTA_E_DATA,
				"the %s, tensor %d '%s', has zero point %lld; TFLM's SVDF takes 0",
				what, idx, VTA_Q(t->name), (long long)t->quant.zero_point[0]);
	return VTA_OK;
}

static vta_status run_svdf(walk *w, const vta_tfl_op *op, vta_error *err)
{
	const int32_t *in = op->inputs;
	const vta_tfl_tensor *x, *wf, *wt, *bias = NULL, *state, *y;
	vta_tfl_type tt = w->m->tensors[in[2]].type;
	vta_status st;
	if (tt != VTA_TFL_INT16 && tt != VTA_TFL_INT8)
		tt = VTA_TFL_INT16; /* named as expected by the check below */
	if ((st = svdf_tensor(w, in[0], "input", VTA_TFL_INT8, 2, false, &x, err)) ||
	    (st = svdf_tensor(w, in[1], "feature weights", VTA_TFL_INT8, 2, true, &wf, err)) ||
	    (st = svdf_tensor(w, in[2], "time weights", tt, 2, true, &wt, err)) ||
	    (st = svdf_tensor(w, in[4], "activation state", tt, 2, false, &state, err)) ||
	    (st = svdf_tensor(w, op->outputs[0], "output", VTA_TFL_INT8, 2, false, &y, err)) ||
	    (in[3] >= 0 &&
	     (st = svdf_tensor(w, in[3], "bias", VTA_TFL_INT32, 1, false, &bias, err))))
		return st;
	int32_t batches = x->shape[0], filters = wf->shape[0], memory = wt->shape[1];
	int32_t rank = op->opt.svdf.rank;
	int32_t units = rank > 0 ? filters / rank : 0;
	if (!state->is_variable)
		return vta_fail(err, VTA_E_DATA, "the activation state, tensor %d '%s', is not a "
				"variable tensor", in[4], VTA_Q(state->name));
	if (rank < 1 || filters % rank)
		return vta_fail(err, VTA_E_DATA, "rank %d does not divide the %d filters",
				(int)rank, (int)filters);
	/* TFLM's PrepareSvdf shape checks */
	if (wf->shape[1] != x->shape[1] || wt->shape[0] != filters ||
	    state->shape[0] != batches || (int64_t)state->shape[1] != (int64_t)memory * filters ||
	    y->shape[0] != batches || y->shape[1] != units || (bias && bias->shape[0] != units))
		return vta_fail(err, VTA_E_DATA,
				"shapes input [%d,%d], feature weights [%d,%d], time weights "
				"[%d,%d], state [%d,%d], output [%d,%d], bias [%d] do not fit an "
				"SVDF of rank %d (%d filters, %d units)",
				(int)x->shape[0], (int)x->shape[1], (int)wf->shape[0],
				(int)wf->shape[1], (int)wt->shape[0], (int)wt->shape[1],
				(int)state->shape[0], (int)state->shape[1], (int)y->shape[0],
				(int)y->shape[1], bias ? (int)bias->shape[0] : 0, (int)rank,
				(int)filters, (int)units);
	vta_svdf s = {
		.batches = batches, .input_size = x->shape[1], .filters = filters,
		.memory = memory, .rank = rank, .state_int16 = tt == VTA_TFL_INT16,
		.input_scale = scale_of(x), .weights_feature_scale = scale_of(wf),
		.weights_time_scale = scale_of(wt), .state_scale = scale_of(state),
		.output_scale = scale_of(y),
		/* TFLM reads a bias without quantization as scale 0 */
		.bias_scale = bias && bias->quant.count ? bias->quant.scale[0] : 0.0f,
		.input_zero_point = zero_point_of(x), .state_zero_point = zero_point_of(state),
		.output_zero_point = zero_point_of(y),
	};
	vta_svdf_quant q;
	if ((st = vta_host_svdf_prepare(&s, &q, err)))
		return st;
	const void *vx, *vwf, *vwt, *vb = NULL;
	if (!(vx = value_of(w, in[0], err)) || !(vwf = value_of(w, in[1], err)) ||
	    !(vwt = value_of(w, in[2], err)) || (bias && !(vb = value_of(w, in[3], err))))
		return err->status;
	bool fresh = !w->values[in[4]];
	if (fresh && !output_buffer(w, in[4], err))
		return err->status;
	if (!output_buffer(w, op->outputs[0], err))
		return err->status;
	/* the image may hold the int16 and int32 constants unaligned: aligned copies */
	size_t nwt = tensor_bytes(wt), nb = bias ? tensor_bytes(bias) : 0;
	void *time_copy = malloc(nwt ? nwt : 1), *bias_copy = malloc(nb ? nb : 1);
	if (!time_copy || !bias_copy) {
		free(time_copy);
		free(bias_copy);
		return vta_fail(err, VTA_E_NOMEM, "out of memory");
	}
	memcpy(time_copy, vwt, nwt);
	if (vb)
		memcpy(bias_copy, vb, nb);
	s.input = vx;
	s.weights_feature = vwf;
	s.weights_time = time_copy;
	s.bias = vb ? bias_copy : NULL;
	s.state = w->values[in[4]];
	s.output = w->values[op->outputs[0]];
	if (fresh)
		vta_host_svdf_reset(&s);
	st = vta_host_svdf(&s, err);
	free(time_copy);
	free(bias_copy);
	return st;
}

/* QUANTIZE between integer types other than into int8 from int8 or uint8 (host_ops_wide.h). */
static bool int_type_of(vta_tfl_type t, vta_host_int_type *out)
{
	switch (t) {
	case VTA_TFL_INT8: *out = VTA_HOST_INT8; return true;
	case VTA_TFL_UINT8: *out = VTA_HOST_UINT8; return true;
	case VTA_TFL_INT16: *out = VTA_HOST_INT16; return true;
	case VTA_TFL_INT32: *out = VTA_HOST_INT32; return true;
	default: return false;
	}
}

static vta_status run_quantize_int(walk *w, const vta_tfl_op *op, vta_error *err)
{
	int32_t ii = op->inputs[0], oi = op->outputs[0];
	const vta_tfl_tensor *ti = &w->m->tensors[ii], *to = &w->m->tensors[oi];
	vta_host_quantized in, out;
	if (!int_type_of(ti->type, &in.type) || !int_type_of(to->type, &out.type))
		return vta_fail(err, VTA_E_UNSUPPORTED, "QUANTIZE from %s to %s",
				vta_tfl_type_name(ti->type), vta_tfl_type_name(to->type));
	if (ti->count != to->count)
		return vta_fail(err, VTA_E_DATA, "QUANTIZE of %zu elements into %zu", ti->count,
				to->count);
	if (to->quant.count != 1)
		return vta_fail(err, VTA_E_DATA,
				"the output, tensor %d '%s', has %zu scales; QUANTIZE takes one", oi,
				VTA_Q(to->name), to->quant.count);
	/* TFLM reads a tensor without quantization as scale 0: refused below */
	in.scale = ti->quant.count ? ti->quant.scale[0] : 0.0f;
	in.zero_point = zero_point_of(ti);
	out.scale = scale_of(to);
	out.zero_point = zero_point_of(to);
	const void *v = value_of(w, ii, err);
	if (!v || !(out.data = output_buffer(w, oi, err)))
		return err->status;
	size_t n = tensor_bytes(ti);
	void *copy = malloc(n ? n : 1); /* a constant in the image may be unaligned */
	if (!copy)
		return vta_fail(err, VTA_E_NOMEM, "out of memory");
	memcpy(copy, v, n);
	in.data = copy;
	vta_status st = vta_host_requantize_int(&in, &out, ti->count, err);
	free(copy);
	return st;
}

/* SOFTMAX of int8 into int16 (host_ops_wide.h). */
static vta_status run_softmax_i16(walk *w, const vta_tfl_op *op, vta_error *err)
{
	int32_t oi = op->outputs[0];
	const vta_tfl_tensor *ti = &w->m->tensors[op->inputs[0]], *to = &w->m->tensors[oi];
	vta_host_tensor in;
	vta_status st = host_in(w, op->inputs[0], &in, err);
	if (st)
		return st;
	if (to->rank != ti->rank || memcmp(to->shape, ti->shape, (size_t)ti->rank * sizeof(int32_t)))
		return vta_fail(err, VTA_E_DATA, "SOFTMAX: the output, tensor %d '%s', is not "
				"shaped as the input", oi, VTA_Q(to->name));
	void *o = output_buffer(w, oi, err);
	if (!o)
		return err->status;
	return vta_host_softmax_i16(&in, op->opt.softmax.beta, scale_of(to), zero_point_of(to), o,
				    err);
}

static vta_status run_host(walk *w, const vta_tfl_op *op, vta_error *err)
{
	const vta_tfl_model *m = w->m;
	int32_t oi = op->outputs[0];
	vta_host_tensor in, out;
	vta_status st;
	switch (op->builtin) {
	case VTA_TFL_OP_RESHAPE: {
		/* the bytes as they are, whatever their type */
		const vta_tfl_tensor *ti = &m->tensors[op->inputs[0]], *to = &m->tensors[oi];
		if (ti->type != to->type || ti->count != to->count)
			return vta_fail(err, VTA_E_DATA,
					"RESHAPE of %zu %s elements into %zu %s elements",
					ti->count, vta_tfl_type_name(ti->type), to->count,
					vta_tfl_type_name(to->type));
		const void *v = value_of(w, op->inputs[0], err);
		void *o = v ? output_buffer(w, oi, err) : NULL;
		if (!o)
			return err->status;
		memcpy(o, v, tensor_bytes(to));
		return VTA_OK;
	}
	case VTA_TFL_OP_AVERAGE_POOL_2D:
	case VTA_TFL_OP_MAX_POOL_2D: {
		const vta_tfl_pool_options *po = &op->opt.pool;
		vta_pool_params p = {po->filter_h, po->filter_w, po->stride_h, po->stride_w,
				     po->padding, po->activation};
		if ((st = host_in(w, op->inputs[0], &in, err)) || (st = host_out(w, oi, &out, err)))
			return st;
		return op->builtin == VTA_TFL_OP_MAX_POOL_2D ? vta_host_max_pool(&in, &p, &out, err)
							      : vta_host_avg_pool(&in, &p, &out, err);
	}
	case VTA_TFL_OP_SOFTMAX:
		if (m->tensors[oi].type == VTA_TFL_INT16)
			return run_softmax_i16(w, op, err);
		if ((st = host_in(w, op->inputs[0], &in, err)) || (st = host_out(w, oi, &out, err)))
			return st;
		return vta_host_softmax(&in, op->opt.softmax.beta, &out, err);
	case VTA_TFL_PAD:
	case VTA_TFL_PADV2: {
		int32_t pads[VTA_HOST_MAX_DIMS][2];
		size_t n;
		if ((st = host_in(w, op->inputs[0], &in, err)) ||
		    (st = const_i32(w, op->inputs[1], &pads[0][0], 2 * VTA_HOST_MAX_DIMS, &n, err)))
			return st;
		if (n != 2 * (size_t)in.rank)
			return vta_fail(err, VTA_E_DATA, "PAD: %zu paddings for rank %d", n,
					in.rank);
		const int8_t *value = NULL;
		if ((st = host_out(w, oi, &out, err)))
			return st;
		if (op->builtin == VTA_TFL_PADV2 && op->n_inputs > 2 && op->inputs[2] >= 0) {
			/* TFLite pads with the value's bytes as they are, so it must be one int8
			 * quantized as the output */
			int32_t vi = op->inputs[2];
			const vta_tfl_tensor *vt = &m->tensors[vi];
			if (vt->type != VTA_TFL_INT8 || vt->count != 1 ||
			    scale_of(vt) != out.scale || zero_point_of(vt) != out.zero_point)
				return vta_fail(err, VTA_E_UNSUPPORTED,
						"the pad value, tensor %d '%s', is %s of %zu "
						"elements (scale %g, zero point %d); TFLite takes one "
						"int8 quantized as the output (scale %g, zero point %d)",
						vi, VTA_Q(vt->name), vta_tfl_type_name(vt->type),
						vt->count,
						(double)scale_of(vt), (int)zero_point_of(vt),
						(double)out.scale, (int)out.zero_point);
			if (!(value = value_of(w, vi, err)))
				return err->status;
		}
		return vta_host_pad(&in, (const int32_t(*)[2])pads, value, &out, err);
	}
	case VTA_TFL_OP_TRANSPOSE: {
		int32_t perm[VTA_HOST_MAX_DIMS];
		size_t n;
		if ((st = host_in(w, op->inputs[0], &in, err)) ||
		    (st = const_i32(w, op->inputs[1], perm, VTA_HOST_MAX_DIMS, &n, err)) ||
		    (st = host_out(w, oi, &out, err)))
			return st;
		if (n != (size_t)in.rank)
			return vta_fail(err, VTA_E_DATA, "TRANSPOSE: %zu perm entries for rank %d",
					n, in.rank);
		return vta_host_transpose(&in, perm, &out, err);
	}
	case VTA_TFL_OP_MEAN: {
		int32_t axes[VTA_HOST_MAX_DIMS];
		size_t n;
		if ((st = host_in(w, op->inputs[0], &in, err)) ||
		    (st = const_i32(w, op->inputs[1], axes, VTA_HOST_MAX_DIMS, &n, err)) ||
		    (st = host_out(w, oi, &out, err)))
			return st;
		return vta_host_mean(&in, axes, (int)n, op->opt.mean.keep_dims, &out, err);
	}
	case VTA_TFL_OP_QUANTIZE: {
		const vta_tfl_tensor *ti = &m->tensors[op->inputs[0]];
		if (m->tensors[oi].type != VTA_TFL_INT8 ||
		    (ti->type != VTA_TFL_INT8 && ti->type != VTA_TFL_UINT8 &&
		     ti->type != VTA_TFL_FLOAT32))
			return run_quantize_int(w, op, err);
		if ((st = host_out(w, oi, &out, err)))
			return st;
		const void *v = value_of(w, op->inputs[0], err);
		if (!v)
			return err->status;
		if (ti->type == VTA_TFL_INT8) {
			if ((st = host_tensor(w, op->inputs[0], (int8_t *)v, &in, err)))
				return st;
			return vta_host_requantize(&in, &out, err);
		}
		if (ti->type == VTA_TFL_UINT8)
			return vta_host_requantize_u8(v, ti->count, scale_of(ti), zero_point_of(ti),
						      &out, err);
		if (ti->type == VTA_TFL_FLOAT32)
			return vta_host_quantize_f32(v, ti->count, &out, err);
		return vta_fail(err, VTA_E_UNSUPPORTED, "QUANTIZE from %s to int8",
				vta_tfl_type_name(ti->type));
	}
	case VTA_TFL_OP_SVDF:
		return run_svdf(w, op, err);
	case VTA_TFL_OP_CONCATENATION: {
		vta_host_tensor ins[16];
		const vta_host_tensor *pins[16];
		if (op->n_inputs > 16)
			return vta_fail(err, VTA_E_UNSUPPORTED, "CONCATENATION of %zu inputs",
					op->n_inputs);
		for (size_t i = 0; i < op->n_inputs; i++) {
			if ((st = host_in(w, op->inputs[i], &ins[i], err)))
				return st;
			pins[i] = &ins[i];
		}
		if ((st = host_out(w, oi, &out, err)))
			return st;
		if (op->opt.concat.activation != VTA_ACT_NONE)
			return vta_fail(err, VTA_E_UNSUPPORTED,
					"CONCATENATION with a fused activation");
		return vta_host_concat(pins, (int)op->n_inputs, op->opt.concat.axis, &out, err);
	}
	default: {
		char nb[32];
		return vta_fail(err, VTA_E_UNSUPPORTED, "no host kernel for %s",
				vta_tfl_op_label(op, nb, sizeof(nb)));
	}
	}
}

/* ---- the walk ---- */

/* Every operator must run somewhere before anything runs. */
static vta_status check_ops(const vta_tfl_model *m, vta_error *err)
{
	for (size_t i = 0; i < m->n_ops; i++) {
		const vta_tfl_op *op = &m->ops[i];
		char nb[32];
		vta_error e = {0};
		if (op->decode)
			continue;
		if (op->builtin == VTA_TFL_OP_CUSTOM || vta_op_check(op->builtin, &e))
			return vta_fail(err, VTA_E_UNSUPPORTED, "%s: operator %zu (%s): %s",
					m->name, i, vta_tfl_op_label(op, nb, sizeof(nb)),
					op->builtin == VTA_TFL_OP_CUSTOM
						? "custom operators are not supported"
						: e.detail);
		if (op->n_outputs != 1)
			return vta_fail(err, VTA_E_UNSUPPORTED,
					"%s: operator %zu (%s): %zu outputs, expected 1", m->name, i,
					vta_tfl_op_label(op, nb, sizeof(nb)), op->n_outputs);
	}
	return VTA_OK;
}

/* The model's inputs: given, or seeded random values of their type. */
static vta_status set_inputs(walk *w, vta_error *err)
{
	const vta_tfl_model *m = w->m;
	const vta_model_run_opts *o = w->o;
	vta_prng rng;
	vta_prng_seed(&rng, o->seed);
	for (size_t i = 0; i < m->n_inputs; i++) {
		int32_t idx = m->inputs[i];
		const vta_tfl_tensor *t = &m->tensors[idx];
		size_t n = tensor_bytes(t);
		if (!n && t->count)
			return vta_fail(err, VTA_E_UNSUPPORTED, "%s: input %zu (tensor %d) is %s",
					m->name, i, idx, vta_tfl_type_name(t->type));
		vta_error e = {0};
		void *buf = output_buffer(w, idx, &e);
		if (!buf)
			return vta_fail(err, e.status, "%s: input %zu: %s", m->name, i, e.detail);
		if (o->inputs && i < o->n_inputs && o->inputs[i]) {
			memcpy(buf, o->inputs[i], n);
			continue;
		}
		for (size_t k = 0; k < t->count; k++) {
			switch (t->type) {
			case VTA_TFL_INT8: ((int8_t *)buf)[k] = (int8_t)vta_prng_range(&rng, -128, 127); break;
			case VTA_TFL_UINT8: ((uint8_t *)buf)[k] = (uint8_t)vta_prng_range(&rng, 0, 255); break;
			case VTA_TFL_INT16: ((int16_t *)buf)[k] = (int16_t)vta_prng_range(&rng, -32768, 32767); break;
			case VTA_TFL_INT32: ((int32_t *)buf)[k] = (int32_t)vta_prng_range(&rng, -32768, 32767); break;
			case VTA_TFL_FLOAT32: ((float *)buf)[k] = (float)vta_prng_uniform(&rng, -1, 1); break;
			default:
				return vta_fail(err, VTA_E_UNSUPPORTED,
						"%s: input %zu (tensor %d) is %s: no random values of "
						"that type (give it with --input)", m->name, i, idx,
						vta_tfl_type_name(t->type));
			}
		}
	}
	return VTA_OK;
}

/* The caller's hooks around an operator of the run; before it, where it will run. */
static vta_status observe(walk *w, vta_model_op_result *r, const vta_tfl_op *op, bool begin,
			  vta_error *err)
{
	vta_model_observer *ob = w->o->observer;
	if (!ob)
		return VTA_OK;
	if (begin) {
		bool accel = vta_op_where(op->builtin, NULL) == VTA_OP_ACCEL &&
			     !moved_to_host(w, op);
		r->place = accel ? VTA_OP_ACCEL : VTA_OP_HOST;
		return ob->op_begin ? ob->op_begin(ob, r, err) : VTA_OK;
	}
	return ob->op_end ? ob->op_end(ob, r, err) : VTA_OK;
}

static vta_status walk_ops(walk *w, vta_error *err)
{
	const vta_tfl_model *m = w->m;
	vta_status st = set_inputs(w, err);
	vta_status mismatch = VTA_OK;
	vta_error first = {0};
	for (size_t i = 0; !st && i < m->n_ops; i++) {
		const vta_tfl_op *op = &m->ops[i];
		vta_model_op_result *r = w->reference ? NULL : &w->run->ops[i];
		char nb[32];
		if (r) {
			r->index = i;
			snprintf(r->name, sizeof(r->name), "%s", vta_tfl_op_label(op, nb, sizeof(nb)));
			r->output = op->outputs[0];
			w->run->n_ops = i + 1;
		}
		if (op->decode) {
			if (r)
				r->skipped = true;
			continue;
		}
		vta_error e = {0};
		if (r && (st = observe(w, r, op, true, err)))
			break;
		bool accel = vta_op_where(op->builtin, NULL) == VTA_OP_ACCEL &&
			     !moved_to_host(w, op);
		for (size_t k = 0; !accel && k < op->n_inputs; k++)
			copy_out(w, op->inputs[k]);
		if (vta_op_where(op->builtin, NULL) == VTA_OP_ACCEL) {
			st = run_accel(w, op, i, r, &e);
		} else {
			double t0 = vta_host_now();
			st = run_host(w, op, &e);
			if (r) {
				r->place = VTA_OP_HOST;
				r->host_seconds = vta_host_now() - t0;
			}
		}
		if (st == VTA_E_MISMATCH) { /* the output is there: go on, fail at the end */
			if (!mismatch) {
				mismatch = st;
				first = e;
			}
			st = VTA_OK;
		} else if (st) {
			vta_fail(err, st, "%s: operator %zu (%s): %s", m->name, i,
				 vta_tfl_op_label(op, nb, sizeof(nb)), e.detail);
		}
		if (!st && r)
			st = observe(w, r, op, false, err);
	}
	/* the model's outputs, and with a dump every tensor, end on the host */
	for (size_t i = 0; w->dram && i < m->n_outputs; i++)
		copy_out(w, m->outputs[i]);
	for (size_t i = 0; w->dram && w->o->copy_out_all && i < m->n_tensors; i++)
		copy_out(w, (int32_t)i);
	if (!st && mismatch) {
		*err = first;
		st = mismatch;
	}
	return st;
}

/* Every tensor both runs computed, in operator order. */
static void compare(const vta_tfl_model *m, void **got, void **ref, vta_model_run *run)
{
	run->bit_exact = true;
	run->first_tensor = -1;
	for (size_t i = 0; i < m->n_ops; i++) {
		int32_t idx = m->ops[i].outputs[0];
		if (m->ops[i].decode || !got[idx] || !ref[idx])
			continue;
		size_t n = tensor_bytes(&m->tensors[idx]);
		run->tensors_compared++;
		if (!memcmp(got[idx], ref[idx], n))
			continue;
		run->tensors_differing++;
		if (run->first_tensor < 0) {
			run->first_tensor = idx;
			size_t k = 0;
			while (((uint8_t *)got[idx])[k] == ((uint8_t *)ref[idx])[k])
				k++;
			run->first_index = k;
		}
		run->bit_exact = false;
	}
}

static void free_values(void **v, size_t n)
{
	if (!v)
		return;
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* ---- the all-host reference, through the cache ---- */

/* What the reference depends on: the model file and its inputs (given, or the seed). */
static void reference_key(const vta_tfl_model *m, const vta_model_run_opts *o,
			  char key[VTA_SHA256_HEX])
{
	vta_sha256 h;
	vta_sha256_init(&h);
	vta_sha256_str(&h, "vtasim model reference 1");
	vta_sha256_u64(&h, m->image_bytes);
	vta_sha256_update(&h, m->image, m->image_bytes);
	for (size_t i = 0; i < m->n_inputs; i++) {
		const void *in = o->inputs && i < o->n_inputs ? o->inputs[i] : NULL;
		vta_sha256_u64(&h, in != NULL);
		if (in)
			vta_sha256_update(&h, in, tensor_bytes(&m->tensors[m->inputs[i]]));
		else
			vta_sha256_u64(&h, o->seed);
	}
	vta_sha256_final_hex(&h, key);
}

/* A cache entry holds every tensor the reference computes, in operator order, end to end. */
static size_t reference_bytes(const vta_tfl_model *m)
{
	size_t n = 0;
	for (size_t i = 0; i < m->n_ops; i++)
		if (!m->ops[i].decode)
			n += tensor_bytes(&m->tensors[m->ops[i].outputs[0]]);
	return n;
}

static bool reference_load(const walk *r, const char *key)
{
	const vta_tfl_model *m = r->m;
	size_t n = reference_bytes(m);
	uint8_t *blob = n <= INT32_MAX ? malloc(n ? n : 1) : NULL;
	vta_tensor_i8 t = {.shape = {1, 1, 1, (int32_t)n}, .data = (int8_t *)blob};
	vta_golden_stats gs;
	bool hit = blob && vta_golden_cache_load(r->o->reference_cache, key, &t, &gs);
	size_t at = 0;
	for (size_t i = 0; hit && i < m->n_ops; i++) {
		int32_t idx = m->ops[i].outputs[0];
		size_t k = tensor_bytes(&m->tensors[idx]);
		if (m->ops[i].decode)
			continue;
		free(r->values[idx]);
		if (!(r->values[idx] = malloc(k ? k : 1)))
			hit = false;
		else
			memcpy(r->values[idx], blob + at, k);
		at += k;
	}
	free(blob);
	return hit;
}

static vta_status reference_store(const walk *r, const char *key, vta_error *err)
{
	const vta_tfl_model *m = r->m;
	size_t n = reference_bytes(m);
	if (n > INT32_MAX)
		return VTA_OK; /* too large for an entry: every point runs it */
	uint8_t *blob = malloc(n ? n : 1);
	if (!blob)
		return vta_fail(err, VTA_E_NOMEM, "out of memory");
	size_t at = 0;
	for (size_t i = 0; i < m->n_ops; i++) {
		int32_t idx = m->ops[i].outputs[0];
		size_t k = tensor_bytes(&m->tensors[idx]);
		if (m->ops[i].decode)
			continue;
		memcpy(blob + at, r->values[idx], k);
		at += k;
	}
	vta_tensor_i8 t = {.shape = {1, 1, 1, (int32_t)n}, .data = (int8_t *)blob};
	vta_golden_stats gs = {0};
	vta_status st = vta_golden_cache_store(r->o->reference_cache, key, &t, &gs, err);
	free(blob);
	return st;
}

/* The reference walk r, from the cache when it holds it. */
static vta_status reference(walk *r, vta_model_run *run, bool *computed, vta_error *err)
{
	char key[VTA_SHA256_HEX];
	const vta_golden_cache *c = r->o->reference_cache;
	if (c) {
		reference_key(r->m, r->o, key);
		if (reference_load(r, key)) {
			if (run)
				run->reference_cached = true;
			return VTA_OK;
		}
	}
	if (computed)
		*computed = true;
	double t0 = vta_host_now();
	vta_status st = walk_ops(r, err);
	if (run)
		run->reference_seconds = vta_host_now() - t0;
	if (!st && c)
		st = reference_store(r, key, err);
	return st;
}

vta_status vta_model_reference_prepare(const vta_config *cfg, const vta_tfl_model *m,
				       const vta_model_run_opts *opts, bool *computed,
				       vta_error *err)
{
	if (computed)
		*computed = false;
	vta_status st = check_ops(m, err);
	if (!st)
		st = vta_model_check(m, opts->layer.max_memory, opts->reference_cache != NULL, NULL,
				     err);
	if (st)
		return st;
	void **decoded = calloc(m->n_tensors ? m->n_tensors : 1, sizeof(void *));
	void **ref = calloc(m->n_tensors ? m->n_tensors : 1, sizeof(void *));
	if (!decoded || !ref)
		st = vta_fail(err, VTA_E_NOMEM, "out of memory");
	walk r = {cfg, m, NULL, opts, ref, decoded, true, NULL, NULL};
	if (!st)
		st = reference(&r, NULL, computed, err);
	free_values(ref, m->n_tensors);
	free_values(decoded, m->n_tensors);
	return st;
}

vta_status vta_model_run_model(const vta_config *cfg, const vta_tfl_model *m, vta_engine *engine,
			       const vta_model_run_opts *opts, vta_model_run *run, vta_error *err)
{
	memset(run, 0, sizeof(*run));
	run->first_tensor = -1;
	if (opts->layer.mode != VTA_ARITH_TFLITE)
		return vta_fail(err, VTA_E_USAGE,
				"a model runs in TFLite's arithmetic only (mode tflite): its "
				"reference is TFLite's int8 kernels");
	if (opts->inputs && opts->n_inputs != m->n_inputs)
		return vta_fail(err, VTA_E_USAGE, "%s: %zu inputs given, the model has %zu",
				m->name, opts->n_inputs, m->n_inputs);
	vta_status st = check_ops(m, err);
	if (!st)
		st = vta_model_check(m, opts->layer.max_memory, opts->reference_cache != NULL, NULL,
				     err);
	if (st)
		return st;
	run->n_tensors = m->n_tensors;
	run->ops = calloc(m->n_ops ? m->n_ops : 1, sizeof(*run->ops));
	run->values = calloc(m->n_tensors ? m->n_tensors : 1, sizeof(void *));
	void **decoded = calloc(m->n_tensors ? m->n_tensors : 1, sizeof(void *));
	void **ref = calloc(m->n_tensors ? m->n_tensors : 1, sizeof(void *));
	if (!run->ops || !run->values || !decoded || !ref) {
		free(decoded);
		free(ref);
		return vta_fail(err, VTA_E_NOMEM, "out of memory");
	}
	vta_dram_tensors dram;
	st = vta_dram_tensors_init(&dram, m->n_tensors, err);
	if (st) {
		free(decoded);
		free(ref);
		return st;
	}
	walk w = {cfg, m, engine, opts, run->values, decoded, false, run, &dram};
	st = walk_ops(&w, err);
	vta_dram_tensors_free(&dram);
	if (!st || st == VTA_E_MISMATCH) {
		/* the same model on the host alone: the end-to-end reference */
		walk r = {cfg, m, engine, opts, ref, decoded, true, NULL, NULL};
		vta_error rerr = {0};
		vta_status rs = reference(&r, run, NULL, &rerr);
		if (rs) {
			st = rs;
			*err = rerr;
		} else {
			compare(m, run->values, ref, run);
			if (!st && !run->bit_exact) {
				const vta_tfl_tensor *t = &m->tensors[run->first_tensor];
				st = vta_fail(err, VTA_E_MISMATCH,
					      "%s: %zu of %zu tensors differ from the all-host run; "
					      "first tensor %d '%s' at byte %zu", m->name,
					      run->tensors_differing, run->tensors_compared,
					      run->first_tensor, VTA_Q(t->name), run->first_index);
			}
		}
	}
	free_values(ref, m->n_tensors);
	free_values(decoded, m->n_tensors);
	return st;
}

void vta_model_run_free(vta_model_run *run)
{
	free_values(run->values, run->n_tensors);
	free(run->ops);
	memset(run, 0, sizeof(*run));
}
