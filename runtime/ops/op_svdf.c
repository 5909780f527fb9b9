/*
 * op_svdf.c - SVDF on the host (host_svdf.c), stateful: its activation state is a variable
 * tensor the run keeps.
 */
#include <stdlib.h>
#include <string.h>

#include "host_svdf.h"
#include "op_env.h"
#include "op_registry.h"
#include "op_shape.h"
#include "vta_text.h"

/* SVDF: the state tensor (a variable) lives in the walk's values, reset as TFLM resets it
 * before the first invocation; each run of the model is one invocation. */
static vta_status svdf_tensor(vta_op_env *env, int32_t idx, const char *what, vta_tfl_type type,
			      int rank, bool weights, const vta_tfl_tensor **out, vta_error *err)
{
	const vta_tfl_tensor *t = &vta_op_env_model(env)->tensors[idx];
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

static vta_status run_svdf(vta_op_env *env, const vta_tfl_op *op, vta_error *err)
{
	const int32_t *in = op->inputs;
	const vta_tfl_tensor *x, *wf, *wt, *bias = NULL, *state, *y;
	vta_tfl_type tt = vta_op_env_model(env)->tensors[in[2]].type;
	vta_status st;
	if (tt != VTA_TFL_INT16 && tt != VTA_TFL_INT8)
		tt = VTA_TFL_INT16; /* named as expected by the check below */
	if ((st = svdf_tensor(env, in[0], "input", VTA_TFL_INT8, 2, false, &x, err)) ||
	    (st = svdf_tensor(env, in[1], "feature weights", VTA_TFL_INT8, 2, true, &wf, err)) ||
	    (st = svdf_tensor(env, in[2], "time weights", tt, 2, true, &wt, err)) ||
	    (st = svdf_tensor(env, in[4], "activation state", tt, 2, false, &state, err)) ||
	    (st = svdf_tensor(env, op->outputs[0], "output", VTA_TFL_INT8, 2, false, &y, err)) ||
	    (in[3] >= 0 &&
	     (st = svdf_tensor(env, in[3], "bias", VTA_TFL_INT32, 1, false, &bias, err))))
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
		.input_scale = vta_op_scale(x), .weights_feature_scale = vta_op_scale(wf),
		.weights_time_scale = vta_op_scale(wt), .state_scale = vta_op_scale(state),
		.output_scale = vta_op_scale(y),
		/* TFLM reads a bias without quantization as scale 0 */
		.bias_scale = bias && bias->quant.count ? bias->quant.scale[0] : 0.0f,
		.input_zero_point = vta_op_zero_point(x),
		.state_zero_point = vta_op_zero_point(state),
		.output_zero_point = vta_op_zero_point(y),
	};
	vta_svdf_quant q;
	if ((st = vta_host_svdf_prepare(&s, &q, err)))
		return st;
	const void *vx, *vwf, *vwt, *vb = NULL;
	if (!(vx = vta_op_env_value(env, in[0], err)) ||
	    !(vwf = vta_op_env_value(env, in[1], err)) ||
	    !(vwt = vta_op_env_value(env, in[2], err)) ||
	    (bias && !(vb = vta_op_env_value(env, in[3], err))))
		return err->status;
	bool fresh = !vta_op_env_computed(env, in[4]);
	if (fresh && !vta_op_env_output(env, in[4], err))
		return err->status;
	if (!vta_op_env_output(env, op->outputs[0], err))
		return err->status;
	/* the image may hold the int16 and int32 constants unaligned: aligned copies */
	size_t nwt = vta_op_tensor_bytes(wt), nb = bias ? vta_op_tensor_bytes(bias) : 0;
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
	s.state = vta_op_env_computed(env, in[4]);
	s.output = vta_op_env_computed(env, op->outputs[0]);
	if (fresh)
		vta_host_svdf_reset(&s);
	st = vta_host_svdf(&s, err);
	free(time_copy);
	free(bias_copy);
	return st;
}

static vta_status svdf_derive(vta_op_shape *c, uint64_t *want, bool *known)
{
	const vta_tfl_op *op = c->op;
	const vta_tfl_tensor *a = vta_op_shape_input(c, 0);
	*known = true;
	if (!a)
		return c->err->status;
	const vta_tfl_tensor *wf = vta_op_shape_input(c, 1);
	int32_t rank = op->opt.svdf.rank;
	if (!wf)
		return c->err->status;
	if (a->rank != 2 || wf->rank != 2 || rank < 1 || wf->shape[0] % rank) {
		*known = false; /* the kernel names what is wrong before it allocates */
		*want = UINT64_MAX;
		return VTA_OK;
	}
	*want = vta_op_sat_mul((uint64_t)a->shape[0], (uint64_t)(wf->shape[0] / rank));
	return VTA_OK;
}

const vta_op_desc vta_op_svdf = {
	.name = "SVDF",
	.builtin = VTA_TFL_OP_SVDF,
	.place = VTA_OP_HOST,
	.run_host = run_svdf,
	.derive = svdf_derive,
};
