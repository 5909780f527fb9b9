/*
 * model_check.c - a model run's shapes and bytes, checked before it allocates (model_check.h).
 * An output's element count is derived from its operator's inputs and options as TFLite's
 * Prepare derives it; where a parameter is a computed tensor (a PAD's paddings that are not
 * constant) the output is bounded by the memory limit only. The kernels check the rest of
 * their rules when they run; nothing here allocates more than one flag per tensor.
 */
#include "model_check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golden.h"
#include "vta_bytes.h"
#include "vta_text.h"

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

static uint64_t tensor_bytes(const vta_tfl_tensor *t)
{
	return sat_mul(t->count, vta_tfl_type_size(t->type));
}

static uint64_t dims_count(const int32_t *d, int n)
{
	uint64_t c = 1;
	for (int i = 0; i < n; i++)
		c = sat_mul(c, d[i] > 0 ? (uint64_t)d[i] : 0);
	return c;
}

typedef struct checker {
	const vta_tfl_model *m;
	size_t index;             /* the operator */
	const vta_tfl_op *op;
	vta_error *err;
} checker;

static vta_status op_fail(checker *c, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

static vta_status op_fail(checker *c, const char *fmt, ...)
{
	char msg[VTA_ERROR_DETAIL_MAX], nb[32];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return vta_fail(c->err, VTA_E_DATA, "%s: operator %zu (%s): %s", c->m->name, c->index,
			vta_tfl_op_label(c->op, nb, sizeof(nb)), msg);
}

/* Input k of the operator, which must be there. */
static const vta_tfl_tensor *input(checker *c, size_t k)
{
	if (k >= c->op->n_inputs || c->op->inputs[k] < 0) {
		op_fail(c, "%zu inputs, input %zu is needed", c->op->n_inputs, k);
		return NULL;
	}
	return &c->m->tensors[c->op->inputs[k]];
}

/* An activation of rank 1..4 right-aligned into NHWC, over a placeholder: the golden shape
 * functions read shapes and quantization only. */
static vta_status nhwc(checker *c, const vta_tfl_tensor *t, vta_tensor_i8 *out)
{
	static int8_t placeholder;
	if (t->rank < 1 || t->rank > 4)
		return op_fail(c, "tensor '%s': rank %d, expected 1..4", VTA_Q(t->name), t->rank);
	for (int i = 0; i < 4; i++)
		out->shape[i] = 1;
	for (int i = 0; i < t->rank; i++)
		out->shape[4 - t->rank + i] = t->shape[i];
	out->scale = 1.0f;
	out->zero_point = 0;
	out->data = &placeholder;
	return VTA_OK;
}

/* An int32 constant's values (a PAD's paddings, a MEAN's axes): NULL when not constant. */
static const uint8_t *const_i32(const vta_tfl_tensor *t, size_t n)
{
	if (t->type != VTA_TFL_INT32 || t->count != n || t->container != VTA_TFL_PLAIN ||
	    !t->data || t->data_bytes != 4 * n)
		return NULL;
	return t->data;
}

static int32_t i32_at(const uint8_t *p, size_t i)
{
	return (int32_t)vta_le32_get(p + 4 * i);
}

/* The element count operator c->op makes from its inputs; *known false when a parameter is
 * computed rather than constant (*want is then a bound, UINT64_MAX for none). */
static vta_status derive(checker *c, uint64_t *want, bool *known)
{
	const vta_tfl_op *op = c->op;
	const vta_tfl_tensor *a = input(c, 0), *b;
	vta_tensor_i8 in;
	int32_t os[4];
	vta_error e = {0};
	vta_status st;
	*known = true;
	if (!a)
		return c->err->status;
	switch (op->builtin) {
	case VTA_TFL_OP_CONV_2D:
	case VTA_TFL_OP_DEPTHWISE_CONV_2D: {
		const vta_tfl_conv_options *co = &op->opt.conv;
		if (!(b = input(c, 1)))
			return c->err->status;
		if (b->rank != 4)
			return op_fail(c, "filter '%s' of rank %d, expected 4", VTA_Q(b->name),
				       b->rank);
		if ((st = nhwc(c, a, &in)))
			return st;
		if (op->builtin == VTA_TFL_OP_CONV_2D) {
			vta_conv2d cv = {.input = &in, .stride_h = co->stride_h,
					 .stride_w = co->stride_w, .dilation_h = co->dilation_h,
					 .dilation_w = co->dilation_w, .padding = co->padding};
			memcpy(cv.filter_shape, b->shape, sizeof(cv.filter_shape));
			st = vta_golden_conv2d_shape(&cv, os, &e);
		} else {
			vta_depthwise_conv2d dw = {.input = &in, .stride_h = co->stride_h,
						   .stride_w = co->stride_w,
						   .dilation_h = co->dilation_h,
						   .dilation_w = co->dilation_w, .padding = co->padding,
						   .depth_multiplier = co->depth_multiplier};
			memcpy(dw.filter_shape, b->shape, sizeof(dw.filter_shape));
			st = vta_golden_depthwise_shape(&dw, os, &e);
		}
		if (st)
			return op_fail(c, "%s", e.detail);
		*want = dims_count(os, 4);
		return VTA_OK;
	}
	case VTA_TFL_OP_FULLY_CONNECTED: {
		if (!(b = input(c, 1)))
			return c->err->status;
		if (b->rank != 2)
			return op_fail(c, "filter '%s' of rank %d, expected 2", VTA_Q(b->name),
				       b->rank);
		if (b->shape[1] < 1 || a->count % (size_t)b->shape[1])
			return op_fail(c, "an input of %zu elements is no whole number of rows of "
				       "the filter's %d", a->count, (int)b->shape[1]);
		*want = sat_mul(a->count / (size_t)b->shape[1], (uint64_t)b->shape[0]);
		return VTA_OK;
	}
	case VTA_TFL_OP_ADD: {
		if (!(b = input(c, 1)))
			return c->err->status;
		/* TFLite's broadcast: right-aligned, each pair equal or one of them 1 */
		int ra = a->rank, rb = b->rank, r = ra > rb ? ra : rb;
		uint64_t n = 1;
		for (int i = 0; i < r; i++) {
			int32_t da = i < r - ra ? 1 : a->shape[i - (r - ra)];
			int32_t db = i < r - rb ? 1 : b->shape[i - (r - rb)];
			if (da != db && da != 1 && db != 1)
				return op_fail(c, "inputs '%s' and '%s': dimension %d is %d and %d, "
					       "which do not broadcast", VTA_Q(a->name),
					       VTA_Q(b->name), i, (int)da, (int)db);
			n = sat_mul(n, (uint64_t)(da > db ? da : db));
		}
		*want = n;
		return VTA_OK;
	}
	case VTA_TFL_OP_AVERAGE_POOL_2D:
	case VTA_TFL_OP_MAX_POOL_2D: {
		const vta_tfl_pool_options *po = &op->opt.pool;
		int32_t oh, ow;
		if (a->rank != 4)
			return op_fail(c, "input '%s' of rank %d, expected 4", VTA_Q(a->name),
				       a->rank);
		if (vta_golden_conv2d_padding(a->shape[1], po->filter_h, po->stride_h, 1,
					      po->padding, &oh, NULL, NULL, &e) ||
		    vta_golden_conv2d_padding(a->shape[2], po->filter_w, po->stride_w, 1,
					      po->padding, &ow, NULL, NULL, &e))
			return op_fail(c, "%s", e.detail);
		int32_t d[4] = {a->shape[0], oh, ow, a->shape[3]};
		*want = dims_count(d, 4);
		return VTA_OK;
	}
	case VTA_TFL_OP_PAD:
	case VTA_TFL_OP_PADV2: {
		const uint8_t *p;
		if (!(b = input(c, 1)))
			return c->err->status;
		if (!(p = const_i32(b, 2 * (size_t)a->rank))) {
			*known = false;
			*want = UINT64_MAX; /* no bound but the memory limit */
			return VTA_OK;
		}
		uint64_t n = 1;
		for (int i = 0; i < a->rank; i++) {
			int64_t lo = i32_at(p, 2 * (size_t)i), hi = i32_at(p, 2 * (size_t)i + 1);
			if (lo < 0 || hi < 0)
				return op_fail(c, "paddings of dimension %d are %lld and %lld, "
					       "expected non-negative", i, (long long)lo,
					       (long long)hi);
			n = sat_mul(n, (uint64_t)(a->shape[i] + lo + hi));
		}
		*want = n;
		return VTA_OK;
	}
	case VTA_TFL_OP_MEAN: {
		const uint8_t *p;
		if (!(b = input(c, 1)))
			return c->err->status;
		if (!(p = const_i32(b, b->count)) || a->rank > VTA_TFL_MAX_RANK) {
			*known = false;
			*want = a->count; /* at most the input's */
			return VTA_OK;
		}
		bool reduced[VTA_TFL_MAX_RANK] = {false};
		for (size_t i = 0; i < b->count; i++) {
			int32_t ax = i32_at(p, i);
			if (ax < 0)
				ax += a->rank;
			if (ax < 0 || ax >= a->rank)
				return op_fail(c, "axis %d of a rank-%d input", (int)i32_at(p, i),
					       a->rank);
			reduced[ax] = true;
		}
		uint64_t n = 1;
		for (int i = 0; i < a->rank; i++)
			if (!reduced[i])
				n = sat_mul(n, (uint64_t)a->shape[i]);
		*want = n;
		return VTA_OK;
	}
	case VTA_TFL_OP_CONCATENATION: {
		uint64_t n = 0;
		for (size_t k = 0; k < op->n_inputs; k++) {
			if (!(b = input(c, k)))
				return c->err->status;
			n = sat_add(n, b->count);
		}
		*want = n;
		return VTA_OK;
	}
	case VTA_TFL_OP_SVDF: {
		const vta_tfl_tensor *wf = input(c, 1);
		int32_t rank = op->opt.svdf.rank;
		if (!wf)
			return c->err->status;
		if (a->rank != 2 || wf->rank != 2 || rank < 1 || wf->shape[0] % rank) {
			*known = false; /* the kernel names what is wrong before it allocates */
			*want = UINT64_MAX;
			return VTA_OK;
		}
		*want = sat_mul((uint64_t)a->shape[0], (uint64_t)(wf->shape[0] / rank));
		return VTA_OK;
	}
	default: /* RESHAPE, SOFTMAX, QUANTIZE, TRANSPOSE: as many elements as the input */
		*want = a->count;
		return VTA_OK;
	}
}

static vta_status check_shapes(const vta_tfl_model *m, vta_error *err)
{
	for (size_t i = 0; i < m->n_ops; i++) {
		const vta_tfl_op *op = &m->ops[i];
		if (op->decode)
			continue;
		checker c = {m, i, op, err};
		uint64_t want = 0;
		bool known;
		vta_status st = derive(&c, &want, &known);
		if (st)
			return st;
		int32_t oi = op->outputs[0];
		const vta_tfl_tensor *o = &m->tensors[oi];
		if (known ? o->count != want : o->count > want)
			return op_fail(&c, "output tensor %d '%s' holds %zu elements, its inputs "
				       "make %s%llu", (int)oi, VTA_Q(o->name), o->count,
				       known ? "" : "at most ", (unsigned long long)want);
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
	mem->bytes = sat_add(mem->bytes, sat_mul(n, copies));
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
	mem.bytes = sat_add(mem.bytes, sat_mul(largest_output, 2));
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
