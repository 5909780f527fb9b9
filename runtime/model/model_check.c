/*
 * model_check.c - a model run's shapes and bytes, checked before it allocates (model_check.h).
 * An output's element count is derived from its operator's inputs and options as TFLite's
 * Prepare derives it; where a parameter is a computed tensor (a PAD's paddings that are not
 * constant) the output is bounded by the memory limit only. The kernels check the rest of
 * their rules when they run; nothing here allocates more than one flag per tensor.
 */
#include "model_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op_registry.h"
#include "op_shape.h"
#include "vta_text.h"

static uint64_t tensor_bytes(const vta_tfl_tensor *t)
{
	return vta_op_sat_mul(t->count, vta_tfl_type_size(t->type));
}

static vta_status check_shapes(const vta_tfl_model *m, vta_error *err)
{
	for (size_t i = 0; i < m->n_ops; i++) {
		const vta_tfl_op *op = &m->ops[i];
		if (op->decode)
			continue;
		vta_op_shape c = {m, i, op, err};
		const vta_op_desc *desc = vta_op_by_builtin(op->builtin);
		uint64_t want = 0;
		bool known;
		/* an op without a kernel (refused by the runner) is checked as one that keeps
		 * its input's element count */
		vta_status st = desc ? desc->derive(&c, &want, &known)
				     : vta_op_derive_same(&c, &want, &known);
		if (st)
			return st;
		int32_t oi = op->outputs[0];
		const vta_tfl_tensor *o = &m->tensors[oi];
		if (known ? o->count != want : o->count > want)
			return vta_op_shape_fail(&c, "output tensor %d '%s' holds %zu elements, its "
						 "inputs make %s%llu", (int)oi, VTA_Q(o->name),
						 o->count, known ? "" : "at most ",
						 (unsigned long long)want);
	}
	return VTA_OK;
}

/* Count tensor idx once into *mem (times `copies`). */
static void count(const vta_tfl_model *m, int32_t idx, unsigned copies, bool *seen,
		  vta_model_memory *mem)
{
	if (idx < 0 || seen[idx])
		return;
	seen[idx] = true;
	uint64_t n = tensor_bytes(&m->tensors[idx]);
	mem->bytes = vta_op_sat_add(mem->bytes, vta_op_sat_mul(n, copies));
	if (mem->largest < 0 || n > mem->largest_bytes) {
		mem->largest = idx;
		mem->largest_bytes = n;
	}
}

vta_status vta_model_check(const vta_tfl_model *m, uint64_t max_memory, bool cached,
			   vta_model_memory *mem_out, vta_error *err)
{
	vta_status st = check_shapes(m, err);
	if (st)
		return st;
	vta_model_memory mem = {0, -1, 0};
	bool *seen = calloc(m->n_tensors ? m->n_tensors : 1, sizeof(bool));
	if (!seen)
		return vta_fail(err, VTA_E_NOMEM, "out of memory");
	const unsigned copies = cached ? 3 : 2;
	uint64_t largest_output = 0;
	for (size_t i = 0; i < m->n_inputs; i++)
		count(m, m->inputs[i], copies, seen, &mem);
	for (size_t i = 0; i < m->n_ops; i++) {
		const vta_tfl_op *op = &m->ops[i];
		for (size_t k = 0; k < op->n_inputs; k++) {
			int32_t ti = op->inputs[k];
			if (ti < 0)
				continue;
			const vta_tfl_tensor *t = &m->tensors[ti];
			if (!op->decode && t->container != VTA_TFL_PLAIN)
				count(m, ti, 1, seen, &mem); /* decoded on the host */
			else if (t->is_variable)
				count(m, ti, copies, seen, &mem); /* a state the run keeps */
		}
		if (op->decode)
			continue;
		count(m, op->outputs[0], copies, seen, &mem);
		uint64_t n = tensor_bytes(&m->tensors[op->outputs[0]]);
		if (n > largest_output)
			largest_output = n;
	}
	free(seen);
	mem.bytes = vta_op_sat_add(mem.bytes, vta_op_sat_mul(largest_output, 2));
	if (mem_out)
		*mem_out = mem;
	uint64_t limit = max_memory ? max_memory : VTA_MAX_MEMORY_DEFAULT;
	if (mem.bytes > limit || mem.bytes > SIZE_MAX / 2) {
		const vta_tfl_tensor *t = &m->tensors[mem.largest];
		return vta_fail(err, VTA_E_NOMEM,
				"%s: the run would hold %s%llu bytes of tensors, above the limit of "
				"%llu (--max-memory); the largest, tensor %d '%s' (%s, %zu elements), "
				"takes %llu", m->name, mem.bytes == UINT64_MAX ? "more than " : "",
				(unsigned long long)mem.bytes, (unsigned long long)limit,
				(int)mem.largest, VTA_Q(t->name), vta_tfl_type_name(t->type),
				t->count, (unsigned long long)mem.largest_bytes);
	}
	return VTA_OK;
}
