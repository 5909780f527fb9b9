/* model_run.c - a whole .tflite model through the pipeline and the host kernels (model_run.h). */
#include "model_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dram_tensor.h"
#include "golden.h"
#include "layer_ops.h"
#include "model_check.h"
#include "op_env.h"
#include "op_registry.h"
#include "prng.h"
#include "vta_text.h"
#include "vta_rules.h"

vta_status vta_model_host_classes(const char *list, unsigned *mask, vta_error *err)
{
	*mask = 0;
	const char *p = list;
	while (*p) {
		size_t n = strcspn(p, ",");
		unsigned bit = vta_op_class_by_name(p, n);
		vta_quoted q;
		char names[128];
		if (!bit && !(n == 4 && !strncmp(p, "none", 4)))
			return vta_fail(err, VTA_E_USAGE, "host op class '%s': expected %s",
					vta_quote_bytes(&q, p, n),
					vta_op_list(VTA_OP_NAMES_CLASSES, ", ", " or ", "none", names,
						    sizeof(names)));
		*mask |= bit;
		p += n + (p[n] == ',');
	}
	return VTA_OK;
}

/* What a run needs while it walks the operators; env, first, is what an operator sees
 * (op_env.h), its functions those below. */
typedef struct walk {
	vta_op_env env;
	const vta_config *cfg;
	const vta_tfl_model *m;
	vta_engine *engine;
	const vta_model_run_opts *o;
	void **values;        /* computed tensors */
	void **decoded;       /* LUT constants a host kernel had to decode, cached */
	bool reference;       /* the all-host run */
	vta_model_run *run;   /* results (not the reference run) */
	vta_dram_tensors *dram; /* output regions left in DRAM (not the reference run) */
	/* the reference run's golden overflow counts per operator (it writes them); the run
	 * reads them with its tensors, ref, to reuse a golden output whose inputs are the
	 * same. NULL (both) in a run when the reference came from a cache. */
	vta_golden_stats *ref_stats;
	void **ref;
	/* with ref: per tensor, the last operator that reads it (-1: none). The run compares
	 * each op's output with the reference's as soon as the op ran and frees a reference
	 * tensor after its last reader, so the memory is reused (first touches of fresh pages
	 * were a large part of a run) */
	const int32_t *last_use;
	vta_status mismatch;  /* the first operator whose check failed (the walk goes on) */
	vta_error first;      /* ... and its message */
} walk;

/* An accelerated op the options move to the host. */
static bool moved_to_host(const walk *w, const vta_op_desc *desc)
{
	return (w->o->host_classes & vta_op_class_bit(desc)) != 0;
}

static size_t tensor_bytes(const vta_tfl_tensor *t)
{
	return t->count * vta_tfl_type_size(t->type);
}

/* The walk an operator's env belongs to: env is its first member. */
static walk *walk_of(vta_op_env *env)
{
	return (walk *)env;
}

static const vta_tfl_model *env_model(const vta_op_env *env)
{
	return ((const walk *)env)->m;
}

static void *env_computed(const vta_op_env *env, int32_t idx)
{
	return ((const walk *)env)->values[idx];
}

/* A tensor's value: computed, plain constant, or a compressed constant decoded once. NULL
 * (with err) when it has none. */
static const void *env_value(vta_op_env *env, int32_t idx, vta_error *err)
{
	walk *w = walk_of(env);
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

/* A buffer for an operator's output tensor, its contents undefined (op_env.h): the one the
 * tensor had, or a new one. */
static void *env_output(vta_op_env *env, int32_t idx, vta_error *err)
{
	walk *w = walk_of(env);
	if (w->values[idx])
		return w->values[idx];
	const vta_tfl_tensor *t = &w->m->tensors[idx];
	size_t n = tensor_bytes(t);
	w->values[idx] = malloc(n ? n : 1);
	if (!w->values[idx])
		vta_fail(err, VTA_E_NOMEM, "out of memory for tensor %d '%s' (%zu bytes)", idx,
			 VTA_Q(t->name), n);
	return w->values[idx];
}

static const vta_op_env_fns WALK_ENV = {env_model, env_value, env_output, env_computed};

/* An accelerated op's golden kernel on the host: the host path of its class. */
static vta_status golden_on_host(const vta_layer_data *d, vta_golden_stats *stats,
				 vta_error *err)
{
	const vta_layer_ops *ops = vta_layer_ops_of(d->op);
	vta_layer_plain plain;
	memset(&plain, 0, sizeof(plain));
	vta_tensor_i8 out = d->output;
	vta_status st = ops->decode(d, &plain, err);
	if (!st)
		st = ops->golden(d, &plain, VTA_ARITH_TFLITE, &out, stats, err);
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

/* The reference run's output of op when the run gave it the same inputs (constants are the
 * same in both): the golden kernel's result on them, already computed. NULL otherwise. */
static const void *reference_output(const walk *w, const vta_tfl_op *op)
{
	if (!w->ref)
		return NULL;
	for (size_t k = 0; k < op->n_inputs; k++) {
		int32_t idx = op->inputs[k];
		if (idx < 0 || (size_t)idx >= w->m->n_tensors || !w->values[idx])
			continue;
		if (!w->ref[idx] ||
		    memcmp(w->values[idx], w->ref[idx], tensor_bytes(&w->m->tensors[idx])))
			return NULL;
	}
	return w->ref[op->outputs[0]];
}

/* An accelerated op on the engine: its inputs from their regions in DRAM where earlier ops
 * left them, its output region kept there for the next. */
static vta_status run_on_engine(walk *w, const vta_tfl_op *op, size_t index,
				const vta_layer_data *d, vta_model_op_result *r, vta_error *err)
{
	vta_dram_tensor resident[2];
	vta_layer_run_opts lo = w->o->layer;
	if (!lo.golden_cache && (lo.golden_given = reference_output(w, op)))
		lo.golden_given_stats = w->ref_stats[index];
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

/* An accelerated op as a layer description over the model's tensors. */
static vta_status build_layer(walk *w, const vta_op_desc *desc, const vta_tfl_op *op,
			      size_t index, vta_op_layer *b, vta_error *err)
{
	memset(b, 0, sizeof(*b));
	char nb[32];
	snprintf(b->spec.name, sizeof(b->spec.name), "%zu %s", index,
		 vta_tfl_op_label(op, nb, sizeof(nb)));
	b->d.spec = &b->spec;
	b->spec.op = b->d.op = desc;
	return desc->build(&w->env, op, b, err);
}

static vta_status run_accel(walk *w, const vta_op_desc *desc, const vta_tfl_op *op,
			    size_t index, vta_model_op_result *r, vta_error *err)
{
	vta_op_layer b;
	vta_status st = build_layer(w, desc, op, index, &b, err);
	if (!st) {
		bool on_host = w->reference || moved_to_host(w, desc);
		if (on_host) {
			double t0 = vta_host_now();
			const void *known = w->reference ? NULL : reference_output(w, op);
			if (known)
				memcpy(b.d.output.data, known, vta_tensor_i8_count(&b.d.output));
			else
				st = golden_on_host(&b.d, w->reference && w->ref_stats
								  ? &w->ref_stats[index] : NULL,
						    err);
			if (r) {
				r->place = VTA_OP_HOST;
				r->host_seconds = vta_host_now() - t0;
			}
		} else {
			r->place = VTA_OP_ACCEL;
			st = run_on_engine(w, op, index, &b.d, r, err);
		}
	}
	vta_op_layer_free(&b);
	return st;
}

static vta_status run_host(walk *w, const vta_op_desc *desc, const vta_tfl_op *op,
			   vta_error *err)
{
	if (!desc || !desc->run_host) {
		char nb[32];
		return vta_fail(err, VTA_E_UNSUPPORTED, "no host kernel for %s",
				vta_tfl_op_label(op, nb, sizeof(nb)));
	}
	return desc->run_host(&w->env, op, err);
}

/* Where an operator runs in this walk. */
static bool on_accel(const walk *w, const vta_op_desc *desc)
{
	return desc && desc->place == VTA_OP_ACCEL && !moved_to_host(w, desc);
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
		void *buf = env_output(&w->env, idx, &e);
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
		r->place = on_accel(w, vta_op_by_builtin(op->builtin)) ? VTA_OP_ACCEL : VTA_OP_HOST;
		return ob->op_begin ? ob->op_begin(ob, r, err) : VTA_OK;
	}
	return ob->op_end ? ob->op_end(ob, r, err) : VTA_OK;
}

/* Operator i's output in both runs, if both computed it (run->bit_exact and first_tensor
 * start as true and -1). */
static void compare_op(const vta_tfl_model *m, size_t i, void **got, void **ref,
		       vta_model_run *run)
{
	int32_t idx = m->ops[i].outputs[0];
	if (m->ops[i].decode || !got[idx] || !ref[idx])
		return;
	size_t n = tensor_bytes(&m->tensors[idx]);
	run->tensors_compared++;
	if (!memcmp(got[idx], ref[idx], n))
		return;
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

/* Every tensor both runs computed, in operator order. */
static void compare(const vta_tfl_model *m, void **got, void **ref, vta_model_run *run)
{
	for (size_t i = 0; i < m->n_ops; i++)
		compare_op(m, i, got, ref, run);
}

/* Tensor idx is done with after operator i: the reference's copy freed, and with
 * free_intermediates the run's own (host copy and DRAM region) unless a caller reads it. */
static void release(walk *w, int32_t idx)
{
	free(w->ref[idx]);
	w->ref[idx] = NULL;
	const vta_tfl_model *m = w->m;
	if (!w->o->free_intermediates || w->o->copy_out_all || !w->values[idx])
		return;
	for (size_t k = 0; k < m->n_inputs; k++)
		if (m->inputs[k] == idx)
			return;
	for (size_t k = 0; k < m->n_outputs; k++)
		if (m->outputs[k] == idx)
			return;
	free(w->values[idx]);
	w->values[idx] = NULL;
	if (w->dram && (size_t)idx < w->dram->n)
		vta_dram_tensor_free(&w->dram->t[idx]);
}

/* After operator i of the run: its output compared with the reference's, and the tensors no
 * later operator reads released (walk.last_use). */
static void settle_reference(walk *w, size_t i)
{
	const vta_tfl_op *op = &w->m->ops[i];
	compare_op(w->m, i, w->values, w->ref, w->run);
	for (size_t k = 0; k < op->n_inputs; k++) {
		int32_t idx = op->inputs[k];
		if (idx >= 0 && (size_t)idx < w->m->n_tensors && w->last_use[idx] == (int32_t)i)
			release(w, idx);
	}
	int32_t out = op->outputs[0];
	if (out >= 0 && (size_t)out < w->m->n_tensors && w->last_use[out] <= (int32_t)i)
		release(w, out);
}

/* Per tensor, the last operator that reads it (-1: none). */
static int32_t *last_readers(const vta_tfl_model *m)
{
	int32_t *last = malloc((m->n_tensors ? m->n_tensors : 1) * sizeof(*last));
	if (!last)
		return NULL;
	for (size_t t = 0; t < m->n_tensors; t++)
		last[t] = -1;
	for (size_t i = 0; i < m->n_ops; i++)
		for (size_t k = 0; !m->ops[i].decode && k < m->ops[i].n_inputs; k++) {
			int32_t idx = m->ops[i].inputs[k];
			if (idx >= 0 && (size_t)idx < m->n_tensors)
				last[idx] = (int32_t)i;
		}
	return last;
}

/* Operator i of the walk. A check that fails (VTA_E_MISMATCH) is remembered and the walk
 * goes on, so that every operator's figures are there; any other error ends it. */
static vta_status walk_op(walk *w, size_t i, vta_error *err)
{
	const vta_tfl_model *m = w->m;
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
		return VTA_OK;
	}
	vta_error e = {0};
	vta_status st;
	if (r && (st = observe(w, r, op, true, err)))
		return st;
	const vta_op_desc *desc = vta_op_by_builtin(op->builtin);
	for (size_t k = 0; !on_accel(w, desc) && k < op->n_inputs; k++)
		copy_out(w, op->inputs[k]);
	if (desc && desc->place == VTA_OP_ACCEL) {
		st = run_accel(w, desc, op, i, r, &e);
	} else {
		double t0 = vta_host_now();
		st = run_host(w, desc, op, &e);
		if (r) {
			r->place = VTA_OP_HOST;
			r->host_seconds = vta_host_now() - t0;
		}
	}
	if (st == VTA_E_MISMATCH) { /* the output is there: go on, fail at the end */
		if (!w->mismatch) {
			w->mismatch = st;
			w->first = e;
		}
		st = VTA_OK;
	} else if (st) {
		return vta_fail(err, st, "%s: operator %zu (%s): %s", m->name, i,
				vta_tfl_op_label(op, nb, sizeof(nb)), e.detail);
	}
	if (r && w->ref)
		settle_reference(w, i);
	return r ? observe(w, r, op, false, err) : VTA_OK;
}

/* The end of a walk that stopped with st: the model's outputs (and with a dump every tensor)
 * copied to the host, and the first failed check if nothing worse happened. */
static vta_status walk_end(walk *w, vta_status st, vta_error *err)
{
	const vta_tfl_model *m = w->m;
	for (size_t i = 0; w->dram && i < m->n_outputs; i++)
		copy_out(w, m->outputs[i]);
	for (size_t i = 0; w->dram && w->o->copy_out_all && i < m->n_tensors; i++)
		copy_out(w, (int32_t)i);
	if (!st && w->mismatch) {
		*err = w->first;
		st = w->mismatch;
	}
	return st;
}

static vta_status walk_ops(walk *w, vta_error *err)
{
	vta_status st = set_inputs(w, err);
	for (size_t i = 0; !st && i < w->m->n_ops; i++)
		st = walk_op(w, i, err);
	return walk_end(w, st, err);
}

/*
 * The all-host reference r and the run w side by side, operator by operator: reference
 * operator i, then the run's, which takes its golden output where the inputs are the same,
 * compares its output and frees the reference's tensors after their last reader. Only the
 * tensors some later operator still reads are held, twice, instead of every tensor of the
 * reference at once: on a large model that was most of the memory a run touched, and fresh
 * memory is paid for page by page. A reference that fails stops there (its error, in rs and
 * rerr, is reported after the run's); the run goes on without it.
 */
static vta_status walk_side_by_side(walk *r, walk *w, vta_status *rs, vta_error *rerr,
				    vta_error *err)
{
	double ref_seconds = 0, t0 = vta_host_now();
	*rs = set_inputs(r, rerr);
	ref_seconds += vta_host_now() - t0;
	vta_status st = set_inputs(w, err);
	for (size_t i = 0; !st && i < w->m->n_ops; i++) {
		if (!*rs) {
			t0 = vta_host_now();
			*rs = walk_op(r, i, rerr);
			ref_seconds += vta_host_now() - t0;
		}
		if (*rs) { /* nothing more to reuse or compare */
			w->ref = NULL;
			w->ref_stats = NULL;
		}
		st = walk_op(w, i, err);
	}
	if (!*rs)
		*rs = walk_end(r, VTA_OK, rerr);
	w->run->reference_seconds = ref_seconds;
	return walk_end(w, st, err);
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
	walk r = {{&WALK_ENV}, cfg, m, NULL, opts, ref, decoded, true, NULL, NULL, NULL, NULL, NULL,
		  VTA_OK, {0}};
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
	vta_golden_stats *ref_stats = calloc(m->n_ops ? m->n_ops : 1, sizeof(*ref_stats));
	vta_dram_tensors dram;
	st = ref_stats ? vta_dram_tensors_init(&dram, m->n_tensors, err)
		       : vta_fail(err, VTA_E_NOMEM, "out of memory");
	if (st) {
		free(ref_stats);
		free(decoded);
		free(ref);
		return st;
	}
	/* the same model on the host alone: the end-to-end reference, whose golden outputs the
	 * run's checks take where an op's inputs are the same, so no golden kernel runs twice
	 * on the same data (its error, if any, reported after the run's). Beside the run,
	 * operator by operator; whole and first when a cache keeps references whole. */
	walk r = {{&WALK_ENV}, cfg, m, engine, opts, ref, decoded, true, NULL, NULL, ref_stats,
		  NULL, NULL, VTA_OK, {0}};
	vta_error rerr = {0};
	vta_status rs = VTA_OK;
	int32_t *last_use = NULL;
	const bool side_by_side = !opts->reference_cache && (last_use = last_readers(m));
	if (!side_by_side) {
		rs = reference(&r, run, NULL, &rerr);
		last_use = !rs && !run->reference_cached ? last_readers(m) : NULL;
	}
	bool reuse = last_use != NULL;
	walk w = {{&WALK_ENV}, cfg, m, engine, opts, run->values, decoded, false, run, &dram,
		  reuse ? ref_stats : NULL, reuse ? ref : NULL, last_use, VTA_OK, {0}};
	run->bit_exact = true;
	st = side_by_side ? walk_side_by_side(&r, &w, &rs, &rerr, err) : walk_ops(&w, err);
	vta_dram_tensors_free(&dram);
	free(ref_stats);
	free(last_use);
	if (!st || st == VTA_E_MISMATCH) {
		if (rs) {
			st = rs;
			*err = rerr;
		} else {
			if (!reuse) /* else compared op by op as the run went */
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
