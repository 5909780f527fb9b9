/*
 * tflite_options.c - the builtin options of the operators a model runner needs, read into
 * vta_tfl_op's typed union, and each such operator's count of inputs and outputs. Defaults
 * are the schema's; options that carry no default a kernel could use (a convolution's
 * strides, a pool's window, softmax's beta, concatenation's axis) must be present. Other
 * operators keep their codes and tensors only; the runner decides what it supports.
 */
#include "tflite_read.h"

#include <math.h>
#include <string.h>

#include "vta_bytes.h"

/* What each typed op takes: its options member (TFL_OPT_NONE: the op has none), whether it
 * is required, its inputs (the first `min_in` present but those `optional` marks, up to
 * `max_in`; 0 = any number). */
static const struct {
	int32_t op;
	uint8_t options;
	const char *options_name;
	bool required;
	uint8_t min_in, max_in;
	uint8_t optional; /* bit i: input i may be absent (-1) even below min_in */
} op_rules[] = {
	{VTA_TFL_OP_CONV_2D, TFL_OPT_CONV2D, "Conv2DOptions", true, 2, 3, 0},
	{VTA_TFL_OP_DEPTHWISE_CONV_2D, TFL_OPT_DEPTHWISE_CONV2D, "DepthwiseConv2DOptions", true, 2, 3, 0},
	{VTA_TFL_OP_AVERAGE_POOL_2D, TFL_OPT_POOL2D, "Pool2DOptions", true, 1, 1, 0},
	{VTA_TFL_OP_MAX_POOL_2D, TFL_OPT_POOL2D, "Pool2DOptions", true, 1, 1, 0},
	{VTA_TFL_OP_FULLY_CONNECTED, TFL_OPT_FULLY_CONNECTED, "FullyConnectedOptions", false, 2, 3, 0},
	{VTA_TFL_OP_SOFTMAX, TFL_OPT_SOFTMAX, "SoftmaxOptions", true, 1, 1, 0},
	{VTA_TFL_OP_CONCATENATION, TFL_OPT_CONCATENATION, "ConcatenationOptions", true, 1, 0, 0},
	{VTA_TFL_OP_ADD, TFL_OPT_ADD, "AddOptions", false, 2, 2, 0},
	{VTA_TFL_OP_RESHAPE, TFL_OPT_RESHAPE, "ReshapeOptions", false, 1, 2, 0},
	{VTA_TFL_OP_PAD, TFL_OPT_PAD, "PadOptions", false, 2, 3, 0},
	{VTA_TFL_OP_PADV2, TFL_OPT_PADV2, "PadV2Options", false, 2, 3, 0},
	{VTA_TFL_OP_TRANSPOSE, TFL_OPT_TRANSPOSE, "TransposeOptions", false, 2, 2, 0},
	{VTA_TFL_OP_MEAN, TFL_OPT_REDUCER, "ReducerOptions", false, 2, 2, 0},
	{VTA_TFL_OP_QUANTIZE, TFL_OPT_QUANTIZE, "QuantizeOptions", false, 1, 1, 0},
	{VTA_TFL_OP_RELU, TFL_OPT_NONE, NULL, false, 1, 1, 0},
	{VTA_TFL_OP_RELU6, TFL_OPT_NONE, NULL, false, 1, 1, 0},
	/* input, feature weights, time weights, bias (optional), activation state */
	{VTA_TFL_OP_SVDF, TFL_OPT_SVDF, "SVDFOptions", true, 5, 5, 1u << 3},
};

static vta_status opt_activation(tfl_rd *r, const vta_fb_table *t, unsigned id,
				 vta_activation *out)
{
	int8_t a;
	TFL_TRY(r, vta_fb_i8(fb_, t, id, 0, &a, &e_), "fused_activation_function");
	static const char *const names[] = {"NONE", "RELU", "RELU_N1_TO_1", "RELU6", "TANH",
					    "SIGN_BIT"};
	if (a < 0 || a > VTA_ACT_RELU6) {
		if (a >= 0 && (size_t)a < sizeof(names) / sizeof(names[0]))
			return tfl_fail(r, VTA_E_PARSE, "fused activation %s is not supported",
					names[a]);
		return tfl_fail(r, VTA_E_PARSE, "unknown fused activation %d", (int)a);
	}
	*out = (vta_activation)a;
	return VTA_OK;
}

static vta_status opt_padding(tfl_rd *r, const vta_fb_table *t, unsigned id, vta_padding *out)
{
	int8_t p;
	TFL_TRY(r, vta_fb_i8(fb_, t, id, 0, &p, &e_), "padding");
	if (p != VTA_PADDING_SAME && p != VTA_PADDING_VALID)
		return tfl_fail(r, VTA_E_PARSE, "unknown padding %d", (int)p);
	*out = (vta_padding)p;
	return VTA_OK;
}

/* An int field that must be at least `min`. */
static vta_status opt_int(tfl_rd *r, const vta_fb_table *t, unsigned id, int32_t def,
			  int32_t min, const char *field, int32_t *out)
{
	TFL_TRY(r, vta_fb_i32(fb_, t, id, def, out, &e_), field);
	if (*out < min)
		return tfl_fail(r, VTA_E_PARSE, "%s %d below %d", field, (int)*out, (int)min);
	return VTA_OK;
}

static vta_status opt_conv(tfl_rd *r, const vta_fb_table *t, bool depthwise,
			   vta_tfl_conv_options *o)
{
	unsigned pad = depthwise ? TFL_DW_PADDING : TFL_CONV_PADDING;
	unsigned sw = depthwise ? TFL_DW_STRIDE_W : TFL_CONV_STRIDE_W;
	unsigned sh = depthwise ? TFL_DW_STRIDE_H : TFL_CONV_STRIDE_H;
	unsigned act = depthwise ? TFL_DW_ACTIVATION : TFL_CONV_ACTIVATION;
	unsigned dw = depthwise ? TFL_DW_DILATION_W : TFL_CONV_DILATION_W;
	unsigned dh = depthwise ? TFL_DW_DILATION_H : TFL_CONV_DILATION_H;
	vta_status st = opt_padding(r, t, pad, &o->padding);
	if (st == VTA_OK)
		st = opt_int(r, t, sw, 0, 1, "stride_w", &o->stride_w);
	if (st == VTA_OK)
		st = opt_int(r, t, sh, 0, 1, "stride_h", &o->stride_h);
	if (st == VTA_OK)
		st = opt_int(r, t, dw, 1, 1, "dilation_w_factor", &o->dilation_w);
	if (st == VTA_OK)
		st = opt_int(r, t, dh, 1, 1, "dilation_h_factor", &o->dilation_h);
	if (st == VTA_OK)
		st = opt_activation(r, t, act, &o->activation);
	if (st == VTA_OK && depthwise)
		st = opt_int(r, t, TFL_DW_DEPTH_MULTIPLIER, 0, 0, "depth_multiplier",
			     &o->depth_multiplier);
	return st;
}

static vta_status opt_pool(tfl_rd *r, const vta_fb_table *t, vta_tfl_pool_options *o)
{
	vta_status st = opt_padding(r, t, TFL_POOL_PADDING, &o->padding);
	if (st == VTA_OK)
		st = opt_int(r, t, TFL_POOL_STRIDE_W, 0, 1, "stride_w", &o->stride_w);
	if (st == VTA_OK)
		st = opt_int(r, t, TFL_POOL_STRIDE_H, 0, 1, "stride_h", &o->stride_h);
	if (st == VTA_OK)
		st = opt_int(r, t, TFL_POOL_FILTER_W, 0, 1, "filter_width", &o->filter_w);
	if (st == VTA_OK)
		st = opt_int(r, t, TFL_POOL_FILTER_H, 0, 1, "filter_height", &o->filter_h);
	if (st == VTA_OK)
		st = opt_activation(r, t, TFL_POOL_ACTIVATION, &o->activation);
	return st;
}

static vta_status opt_fc(tfl_rd *r, const vta_fb_table *t, vta_tfl_fc_options *o)
{
	vta_status st = opt_activation(r, t, TFL_FC_ACTIVATION, &o->activation);
	if (st != VTA_OK)
		return st;
	TFL_TRY(r, vta_fb_u8(fb_, t, TFL_FC_WEIGHTS_FORMAT, 0, &o->weights_format, &e_),
	       "weights_format");
	TFL_TRY(r, vta_fb_bool(fb_, t, TFL_FC_KEEP_NUM_DIMS, false, &o->keep_num_dims, &e_),
	       "keep_num_dims");
	if (o->weights_format != 0)
		return tfl_fail(r, VTA_E_PARSE, "weights format %u (shuffled) is not supported",
				o->weights_format);
	return VTA_OK;
}

static vta_status opt_reshape(tfl_rd *r, const vta_fb_table *t, vta_tfl_reshape_options *o)
{
	vta_fb_vec v;
	TFL_TRY(r, vta_fb_vector(fb_, t, TFL_RESHAPE_NEW_SHAPE, 4, &v, &e_), "new_shape");
	if (!v.present)
		return VTA_OK;
	if (v.n > VTA_TFL_MAX_RANK)
		return tfl_fail(r, VTA_E_PARSE, "new_shape of rank %u above %d", v.n,
				VTA_TFL_MAX_RANK);
	o->has_new_shape = true;
	o->rank = (int)v.n;
	for (uint32_t i = 0; i < v.n; i++) {
		o->new_shape[i] = (int32_t)vta_le32_get(vta_fb_vec_elem(&r->fb, &v, i));
		if (o->new_shape[i] < -1)
			return tfl_fail(r, VTA_E_PARSE, "new_shape[%u] is %d", i,
					(int)o->new_shape[i]);
	}
	return VTA_OK;
}

static vta_status opt_concat(tfl_rd *r, const vta_fb_table *t, vta_tfl_op *op)
{
	int32_t axis;
	TFL_TRY(r, vta_fb_i32(fb_, t, TFL_CONCAT_AXIS, 0, &axis, &e_), "axis");
	int rank = r->m->tensors[op->outputs[0]].rank;
	if (axis < -rank || axis >= rank)
		return tfl_fail(r, VTA_E_PARSE, "axis %d outside a rank-%d output", (int)axis, rank);
	op->opt.concat.axis = axis < 0 ? axis + rank : axis;
	return opt_activation(r, t, TFL_CONCAT_ACTIVATION, &op->opt.concat.activation);
}

static vta_status opt_svdf(tfl_rd *r, const vta_fb_table *t, vta_tfl_op *op)
{
	TFL_TRY(r, vta_fb_i32(fb_, t, TFL_SVDF_RANK, 0, &op->opt.svdf.rank, &e_), "rank");
	TFL_TRY(r, vta_fb_i8(fb_, t, TFL_SVDF_ACTIVATION, 0, &op->opt.svdf.activation, &e_),
	       "fused_activation_function");
	TFL_TRY(r, vta_fb_bool(fb_, t, TFL_SVDF_ASYMMETRIC_QUANTIZE_INPUTS, false,
			      &op->opt.svdf.asymmetric_quantize_inputs, &e_),
	       "asymmetric_quantize_inputs");
	if (op->opt.svdf.rank < 1)
		return tfl_fail(r, VTA_E_PARSE, "rank %d below 1", (int)op->opt.svdf.rank);
	/* the activation is kept as it is: TFLM's int8 kernel does not apply it */
	if (op->opt.svdf.activation < 0 || op->opt.svdf.activation > 5)
		return tfl_fail(r, VTA_E_PARSE, "unknown fused activation %d",
				(int)op->opt.svdf.activation);
	return VTA_OK;
}

static vta_status opt_fill(tfl_rd *r, const vta_fb_table *t, vta_tfl_op *op)
{
	switch (op->builtin) {
	case VTA_TFL_OP_CONV_2D:
		return opt_conv(r, t, false, &op->opt.conv);
	case VTA_TFL_OP_DEPTHWISE_CONV_2D:
		return opt_conv(r, t, true, &op->opt.conv);
	case VTA_TFL_OP_AVERAGE_POOL_2D:
	case VTA_TFL_OP_MAX_POOL_2D:
		return opt_pool(r, t, &op->opt.pool);
	case VTA_TFL_OP_FULLY_CONNECTED:
		return opt_fc(r, t, &op->opt.fc);
	case VTA_TFL_OP_SOFTMAX:
		TFL_TRY(r, vta_fb_f32(fb_, t, TFL_SOFTMAX_BETA, 0.0f, &op->opt.softmax.beta, &e_),
		       "beta");
		if (!(op->opt.softmax.beta > 0.0f) || !isfinite(op->opt.softmax.beta))
			return tfl_fail(r, VTA_E_PARSE, "beta %g is not a positive number",
					(double)op->opt.softmax.beta);
		return VTA_OK;
	case VTA_TFL_OP_CONCATENATION:
		return opt_concat(r, t, op);
	case VTA_TFL_OP_ADD:
		return opt_activation(r, t, TFL_ADD_ACTIVATION, &op->opt.add.activation);
	case VTA_TFL_OP_RESHAPE:
		return opt_reshape(r, t, &op->opt.reshape);
	case VTA_TFL_OP_SVDF:
		return opt_svdf(r, t, op);
	case VTA_TFL_OP_MEAN:
		TFL_TRY(r, vta_fb_bool(fb_, t, TFL_REDUCER_KEEP_DIMS, false,
				      &op->opt.mean.keep_dims, &e_), "keep_dims");
		return VTA_OK;
	default: /* PAD, PADV2, TRANSPOSE, QUANTIZE: empty options */
		return VTA_OK;
	}
}

/* Options absent from the file: a table without field slots, so every field takes its
 * schema default. */
static const uint8_t empty_table[4];

vta_status tfl_read_options(tfl_rd *r, const vta_fb_table *op_table, vta_tfl_op *op)
{
	memset(&op->opt, 0, sizeof(op->opt));
	if (op->custom)
		return VTA_OK;
	size_t k = 0, n = sizeof(op_rules) / sizeof(op_rules[0]);
	while (k < n && op_rules[k].op != op->builtin)
		k++;
	if (k == n)
		return VTA_OK;
	if (op->n_outputs != 1)
		return tfl_fail(r, VTA_E_PARSE, "%zu outputs, expected 1", op->n_outputs);
	if (op->n_inputs < op_rules[k].min_in ||
	    (op_rules[k].max_in && op->n_inputs > op_rules[k].max_in)) {
		if (op_rules[k].max_in == op_rules[k].min_in)
			return tfl_fail(r, VTA_E_PARSE, "%zu inputs, expected %u", op->n_inputs,
					op_rules[k].min_in);
		if (!op_rules[k].max_in)
			return tfl_fail(r, VTA_E_PARSE, "%zu inputs, expected at least %u",
					op->n_inputs, op_rules[k].min_in);
		return tfl_fail(r, VTA_E_PARSE, "%zu inputs, expected %u to %u", op->n_inputs,
				op_rules[k].min_in, op_rules[k].max_in);
	}
	for (size_t i = 0; i < op->n_inputs; i++)
		if (op->inputs[i] < 0 && (i < op_rules[k].min_in || !op_rules[k].max_in) &&
		    !(i < 8 && (op_rules[k].optional >> i) & 1))
			return tfl_fail(r, VTA_E_PARSE, "input %zu is missing (-1)", i);
	if (op_rules[k].options == TFL_OPT_NONE) /* none to read, whatever the file holds */
		return VTA_OK;
	uint8_t type;
	vta_fb_table t;
	bool present;
	TFL_TRY(r, vta_fb_u8(fb_, op_table, TFL_OP_BUILTIN_OPTIONS_TYPE, 0, &type, &e_),
	       "builtin_options_type");
	TFL_TRY(r, vta_fb_subtable(fb_, op_table, TFL_OP_BUILTIN_OPTIONS, &t, &present, &e_),
	       "builtin_options");
	if (type != TFL_OPT_NONE && type != op_rules[k].options)
		return tfl_fail(r, VTA_E_PARSE, "builtin options of union type %u, expected %s",
				type, op_rules[k].options_name);
	if (type == TFL_OPT_NONE || !present) {
		if (op_rules[k].required)
			return tfl_fail(r, VTA_E_PARSE, "no %s", op_rules[k].options_name);
		/* defaults: read through an empty table */
		tfl_rd er = *r;
		er.fb = (vta_fb){empty_table, sizeof(empty_table)};
		vta_fb_table et = {.pos = 0, .vt = 0, .vt_bytes = 4, .obj_bytes = 4};
		vta_status st = opt_fill(&er, &et, op);
		r->copied = er.copied;
		return st;
	}
	return opt_fill(r, &t, op);
}
