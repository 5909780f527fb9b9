/*
 * op_add.c - ADD on the accelerator (broadcast operands included): the golden kernel
 * (golden_add.c), the emitter (emit_add.c), the workload's `add`, and a model's ADD made
 * into a layer (a LUT-compressed constant operand stays compressed). Class `add` of
 * --host-ops.
 */
#include <string.h>

#include "emit_add.h"
#include "golden.h"
#include "op_env.h"
#include "op_layer.h"
#include "op_registry.h"
#include "op_shape.h"
#include "vta_text.h"

static vta_status add_decode(const vta_layer_data *d, vta_layer_plain *p, vta_error *err)
{
	return vta_golden_add_decode(&d->b, d->has_lut ? &d->lut.tensor : NULL, &p->b,
				     &p->owned[0], err);
}

static vta_status add_golden(const vta_layer_data *d, const vta_layer_plain *p,
			     vta_arith_mode mode, vta_tensor_i8 *out, vta_golden_stats *stats,
			     vta_error *err)
{
	/* ADD is symmetric bit for bit: the golden kernel takes the broadcast operand second */
	const vta_tensor_i8 *a = &d->a, *b = &p->b;
	if (vta_tensor_i8_count(a) < vta_tensor_i8_count(b)) {
		a = &p->b;
		b = &d->a;
	}
	return vta_golden_add(a, b, d->spec->activation, mode, out, stats, err);
}

static vta_status add_emit(const vta_config *cfg, const vta_layer_data *d,
			   const vta_emit_opts *opts, vta_dram *dram, vta_layer_stream *ls,
			   vta_error *err)
{
	return vta_emit_add(cfg, &d->a, NULL, &d->b, d->has_lut ? &d->lut.tensor : NULL,
			    d->spec->activation, &d->output, opts, dram, ls, err);
}

static void add_golden_key(const vta_layer_data *d, const vta_layer_plain *p, vta_golden_key *h)
{
	vta_op_key_tensor(h, &d->a, true);
	vta_op_key_tensor(h, &p->b, true);
	vta_golden_key_u64(h, (uint64_t)d->spec->activation);
	vta_op_key_tensor(h, &d->output, false);
}

static uint64_t add_input_bytes(const vta_layer_data *d)
{
	/* a constant operand is counted with the constants */
	return vta_tensor_i8_count(&d->a) + (d->has_lut ? 0 : vta_tensor_i8_count(&d->b));
}

static size_t add_arrays(const vta_layer_data *d, const vta_layer_plain *p,
			 vta_layer_array out[])
{
	/* b was inputs[0] when that was the constant */
	out[d->swapped] = vta_op_nhwc_array(d->swapped ? "input1" : "input0", &d->a);
	out[!d->swapped] = vta_op_nhwc_array(d->swapped ? "input0" : "input1", &p->b);
	return 2;
}

static vta_status add_build(vta_op_env *env, const vta_tfl_op *op, vta_op_layer *b,
			    vta_error *err)
{
	const vta_tfl_model *m = vta_op_env_model(env);
	vta_layer_data *d = &b->d;
	int32_t shape[4];
	vta_status st;
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
	if ((st = vta_op_input(env, ia, &d->a, err)))
		return st;
	if (lut0 || lut1) {
		const vta_tfl_tensor *tb = &m->tensors[ib];
		if ((st = vta_op_nhwc(env, ib, NULL, &d->b, err)))
			return st;
		d->has_lut = true;
		d->lut.tensor = tb->lut;
		d->compressed_bytes = tb->lut.indices_bytes + tb->lut.value_table_bytes;
		d->decompressed_bytes = tb->count;
	} else if ((st = vta_op_input(env, ib, &d->b, err))) {
		return st;
	}
	size_t na = vta_tensor_i8_count(&d->a), nbb = vta_tensor_i8_count(&d->b);
	memcpy(shape, na >= nbb ? d->a.shape : d->b.shape, sizeof(shape));
	return vta_op_layer_output(env, op, shape, b, err);
}

static vta_status add_derive(vta_op_shape *c, uint64_t *want, bool *known)
{
	const vta_tfl_tensor *a, *b;
	*known = true;
	if (!(a = vta_op_shape_input(c, 0)) || !(b = vta_op_shape_input(c, 1)))
		return c->err->status;
	/* TFLite's broadcast: right-aligned, each pair equal or one of them 1 */
	int ra = a->rank, rb = b->rank, r = ra > rb ? ra : rb;
	uint64_t n = 1;
	for (int i = 0; i < r; i++) {
		int32_t da = i < r - ra ? 1 : a->shape[i - (r - ra)];
		int32_t db = i < r - rb ? 1 : b->shape[i - (r - rb)];
		if (da != db && da != 1 && db != 1)
			return vta_op_shape_fail(c, "inputs '%s' and '%s': dimension %d is %d and "
						 "%d, which do not broadcast", VTA_Q(a->name),
						 VTA_Q(b->name), i, (int)da, (int)db);
		n = vta_op_sat_mul(n, (uint64_t)(da > db ? da : db));
	}
	*want = n;
	return VTA_OK;
}

static const vta_layer_ops add_layer = {vta_layer_materialize_add, add_decode, add_golden,
					add_emit, add_golden_key, add_input_bytes, add_arrays};

const vta_op_desc vta_op_add = {
	.name = "ADD",
	.builtin = VTA_TFL_OP_ADD,
	.place = VTA_OP_ACCEL,
	.host_class = "add",
	.workload_name = "add",
	.layer = &add_layer,
	.build = add_build,
	.derive = add_derive,
};
