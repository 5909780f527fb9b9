/*
 * model_inputs.c - a model's inputs from .npy files: each of its input tensor's type and
 * shape, or a one-line error naming the file.
 */
#include "model_inputs.h"

#include <stdio.h>
#include <string.h>

#include "vta_text.h"

vta_npy_dtype vta_model_npy_dtype(vta_tfl_type t, bool *ok)
{
	*ok = true;
	switch (t) {
	case VTA_TFL_INT8: return VTA_NPY_I8;
	case VTA_TFL_UINT8: return VTA_NPY_U8;
	case VTA_TFL_INT16: return VTA_NPY_I16;
	case VTA_TFL_INT32: return VTA_NPY_I32;
	case VTA_TFL_FLOAT32: return VTA_NPY_F32;
	default: *ok = false; return VTA_NPY_I8;
	}
}

/* An --input file for model input i: its dtype and shape must be the tensor's. */
static vta_status read_input(const vta_tfl_model *m, size_t i, const char *path, vta_npy *npy,
			     vta_error *err)
{
	const vta_tfl_tensor *t = &m->tensors[m->inputs[i]];
	bool ok;
	vta_npy_dtype want = vta_model_npy_dtype(t->type, &ok);
	vta_status st = vta_npy_read(path, npy, err);
	if (st)
		return st;
	bool same = ok && npy->dtype == want && npy->rank == t->rank;
	for (int d = 0; same && d < t->rank; d++)
		same = npy->shape[d] == (size_t)t->shape[d];
	if (same)
		return VTA_OK;
	char want_s[128] = "", got_s[128] = "";
	for (int d = 0; d < t->rank; d++)
		snprintf(want_s + strlen(want_s), sizeof(want_s) - strlen(want_s), "%s%d",
			 d ? "," : "", t->shape[d]);
	for (int d = 0; d < npy->rank; d++)
		snprintf(got_s + strlen(got_s), sizeof(got_s) - strlen(got_s), "%s%zu",
			 d ? "," : "", npy->shape[d]);
	vta_quoted q;
	return vta_fail(err, VTA_E_USAGE,
			"%s: shape [%s] of %zu-byte elements, but model input %zu (tensor %d '%s') "
			"is %s [%s]", path, got_s, vta_npy_dtype_size(npy->dtype), i, m->inputs[i],
			vta_quote(&q, t->name), vta_tfl_type_name(t->type), want_s);
}

vta_status vta_model_inputs_read(const vta_tfl_model *m, const char *const *paths, size_t n,
			     vta_npy *npys, const void **data, vta_error *err)
{
	memset(npys, 0, (n < VTA_MODEL_MAX_INPUTS ? n : VTA_MODEL_MAX_INPUTS) * sizeof(*npys));
	if (n > VTA_MODEL_MAX_INPUTS || (n && n != m->n_inputs))
		return vta_fail(err, VTA_E_USAGE, "%zu input files for the %zu inputs of %s", n,
				m->n_inputs, m->name);
	for (size_t i = 0; i < n; i++) {
		vta_status st = read_input(m, i, paths[i], &npys[i], err);
		if (st)
			return st;
		data[i] = npys[i].data;
	}
	return VTA_OK;
}

void vta_model_inputs_free(vta_npy *npys, size_t n)
{
	for (size_t i = 0; i < n && i < VTA_MODEL_MAX_INPUTS; i++)
		vta_npy_free(&npys[i]);
}
