/*
 * tflite_read.c - the .tflite reader's shared context (tflite_read.h): its diagnostics,
 * which name the model and the tensor or operator being read, and its copy budget. The
 * parts of the reader (tflite_model.c, tflite_options.c, tflite_lut.c) all use these.
 */
#include "tflite_read.h"

#include <stdarg.h>
#include <stdio.h>

#include "vta_text.h"

vta_status tfl_fail(tfl_rd *r, vta_status st, const char *fmt, ...)
{
	char msg[VTA_ERROR_DETAIL_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (r->where[0])
		return vta_fail(r->err, st, "%s: %s: %s", r->m->name, r->where, msg);
	return vta_fail(r->err, st, "%s: %s", r->m->name, msg);
}

vta_status tfl_wrap(tfl_rd *r, const vta_error *inner, const char *field)
{
	return tfl_fail(r, inner->status, "%s: %s", field, inner->detail);
}

vta_status tfl_spend(tfl_rd *r, size_t bytes)
{
	if (bytes > r->budget - r->copied)
		return tfl_fail(r, VTA_E_PARSE,
				"the model expands to more than %zu bytes in memory (shared vectors?)",
				r->budget);
	r->copied += bytes;
	return VTA_OK;
}

void tfl_where_tensor(tfl_rd *r, size_t index)
{
	const vta_tfl_tensor *t = &r->m->tensors[index];
	vta_quoted q;
	if (t->name && t->name[0])
		snprintf(r->where, sizeof(r->where), "tensor %zu '%s'", index,
			 vta_quote(&q, t->name));
	else
		snprintf(r->where, sizeof(r->where), "tensor %zu", index);
}

void tfl_where_op(tfl_rd *r, size_t index)
{
	char buf[24];
	vta_quoted q;
	snprintf(r->where, sizeof(r->where), "operator %zu (%s)", index,
		 vta_quote(&q, vta_tfl_op_label(&r->m->ops[index], buf, sizeof(buf))));
}
