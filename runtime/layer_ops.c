/* layer_ops.c - the op table (layer_ops.h): CONV2D and ADD. */
#include "layer_ops.h"

#include <stdlib.h>
#include <time.h>

#include "emit_add.h"
#include "emit_conv2d.h"

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Decode a LUT tensor of `count` elements of `elem` bytes into a new buffer. */
static vta_status decode(const vta_lut_tensor *lut, size_t count, size_t elem, void **out,
			 vta_error *err)
{
	*out = malloc(count ? count * elem : 1);
	if (!*out)
		return vta_fail(err, VTA_E_NOMEM, "out of memory decoding a LUT constant");
	return vta_lut_decode(lut, *out, count * elem, err);
}

/* Evaluate `call` for every pass p until one fails; pass 0's time starts at t0 (before the
 * decoding), each later pass's where the one before ended. */
#define RUN_PASSES(t0, passes, n, call)                                                    \
	do {                                                                              \
		double t_ = (t0);                                                         \
		for (size_t i_ = 0; !st && i_ < (n); i_++) {                              \
			vta_golden_pass *p = &(passes)[i_];                               \
			st = (call);                                                      \
			double t1_ = now_seconds();                                       \
			p->seconds = t1_ - t_;                                            \
			t_ = t1_;                                                         \
		}                                                                         \
	} while (0)

/* ---- CONV2D ---- */

static size_t filter_count(const vta_conv2d *c)
{
	const int32_t *fs = c->filter_shape;
	return (size_t)fs[0] * (size_t)fs[1] * (size_t)fs[2] * (size_t)fs[3];
}

static vta_status conv_golden(const vta_layer_data *d, vta_golden_pass *passes, size_t n,
			      vta_error *err)
{
	double t0 = now_seconds();
	vta_conv2d c = d->conv;
	void *filter = NULL, *bias = NULL;
	vta_status st = VTA_OK;
	if (d->has_lut && !(st = decode(&d->lut.tensor, filter_count(&c), 1, &filter, err)))
		c.filter = filter;
	if (!st && d->has_bias_lut &&
	    !(st = decode(&d->bias_lut.tensor, (size_t)c.filter_shape[0], sizeof(int32_t), &bias,
			  err)))
		c.bias = bias;
	RUN_PASSES(t0, passes, n, vta_golden_conv2d(&c, p->mode, p->out, &p->stats, err));
	free(filter);
	free(bias);
	return st;
}

static vta_status conv_emit(const vta_config *cfg, const vta_layer_data *d,
			    const vta_emit_opts *opts, vta_dram *dram, vta_layer_stream *ls,
			    vta_error *err)
{
	return vta_emit_conv2d(cfg, &d->conv, d->has_lut ? &d->lut.tensor : NULL,
			       d->has_bias_lut ? &d->bias_lut.tensor : NULL, &d->output, opts, dram,
			       ls, err);
}

static uint64_t conv_input_bytes(const vta_layer_data *d)
{
	return vta_tensor_i8_count(&d->input);
}

static vta_layer_array nhwc_array(const char *name, const vta_tensor_i8 *t)
{
	return (vta_layer_array){name, VTA_NPY_I8, 4,
				 {(size_t)t->shape[0], (size_t)t->shape[1], (size_t)t->shape[2],
				  (size_t)t->shape[3]},
				 t->data, NULL};
}

static vta_status conv_arrays(const vta_layer_data *d, vta_layer_array out[], size_t *n,
			      vta_error *err)
{
	const int32_t *fs = d->conv.filter_shape;
	size_t oc = (size_t)fs[0];
	vta_status st = VTA_OK;
	out[0] = nhwc_array("input", &d->input);
	out[1] = (vta_layer_array){"filter", VTA_NPY_I8, 4,
				   {oc, (size_t)fs[1], (size_t)fs[2], (size_t)fs[3]}, d->filter, NULL};
	out[2] = (vta_layer_array){"filter_scales", VTA_NPY_F32, 1, {oc}, d->filter_scales, NULL};
	out[3] = (vta_layer_array){"bias", VTA_NPY_I32, 1, {oc}, d->bias, NULL};
	*n = d->bias || d->has_bias_lut ? 4 : 3;
	if (d->has_lut && !(st = decode(&d->lut.tensor, filter_count(&d->conv), 1,
					&out[1].decoded, err)))
		out[1].data = out[1].decoded;
	if (!st && d->has_bias_lut &&
	    !(st = decode(&d->bias_lut.tensor, oc, sizeof(int32_t), &out[3].decoded, err)))
		out[3].data = out[3].decoded;
	return st;
}

/* ---- ADD ---- */

static vta_status add_golden(const vta_layer_data *d, vta_golden_pass *passes, size_t n,
			     vta_error *err)
{
	double t0 = now_seconds();
	vta_tensor_i8 b = d->b;
	void *decoded = NULL;
	vta_status st = VTA_OK;
	if (d->has_lut &&
	    !(st = decode(&d->lut.tensor, vta_tensor_i8_count(&b), 1, &decoded, err)))
		b.data = decoded;
	RUN_PASSES(t0, passes, n,
		   vta_golden_add(&d->a, &b, d->spec->activation, p->mode, p->out, &p->stats, err));
	free(decoded);
	return st;
}

static vta_status add_emit(const vta_config *cfg, const vta_layer_data *d,
			   const vta_emit_opts *opts, vta_dram *dram, vta_layer_stream *ls,
			   vta_error *err)
{
	return vta_emit_add(cfg, &d->a, NULL, &d->b, d->has_lut ? &d->lut.tensor : NULL,
			    d->spec->activation, &d->output, opts, dram, ls, err);
}

static uint64_t add_input_bytes(const vta_layer_data *d)
{
	/* a constant operand is counted with the constants */
	return vta_tensor_i8_count(&d->a) * (d->has_lut ? 1 : 2);
}

static vta_status add_arrays(const vta_layer_data *d, vta_layer_array out[], size_t *n,
			     vta_error *err)
{
	/* in the workload's order: b is inputs[0] when that was the constant */
	vta_layer_array *a = &out[d->swapped], *b = &out[!d->swapped];
	*a = nhwc_array(d->swapped ? "input1" : "input0", &d->a);
	*b = nhwc_array(d->swapped ? "input0" : "input1", &d->b);
	*n = 2;
	vta_status st = VTA_OK;
	if (d->has_lut &&
	    !(st = decode(&d->lut.tensor, vta_tensor_i8_count(&d->b), 1, &b->decoded, err)))
		b->data = b->decoded;
	return st;
}

static const vta_layer_ops OPS[] = {
	[VTA_WL_CONV2D] = {conv_golden, conv_emit, conv_input_bytes, conv_arrays},
	[VTA_WL_ADD] = {add_golden, add_emit, add_input_bytes, add_arrays},
};

const vta_layer_ops *vta_layer_ops_of(vta_wl_op op)
{
	return &OPS[op];
}

void vta_layer_arrays_free(vta_layer_array *a, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(a[i].decoded);
}
