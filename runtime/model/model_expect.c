/* model_expect.c - a model run against reference tensor files (model_expect.h). */
#include "model_expect.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "npy.h"
#include "vta_text.h"

/* The .npy dtype of a model tensor type; false when .npy files here cannot hold it. */
static bool me_dtype(vta_tfl_type t, vta_npy_dtype *out)
{
	switch (t) {
	case VTA_TFL_INT8: *out = VTA_NPY_I8; return true;
	case VTA_TFL_UINT8: *out = VTA_NPY_U8; return true;
	case VTA_TFL_INT32: *out = VTA_NPY_I32; return true;
	case VTA_TFL_FLOAT32: *out = VTA_NPY_F32; return true;
	default: return false;
	}
}

static double me_value(vta_npy_dtype dt, const void *data, size_t i)
{
	switch (dt) {
	case VTA_NPY_I8: return ((const int8_t *)data)[i];
	case VTA_NPY_U8: return ((const uint8_t *)data)[i];
	case VTA_NPY_I32: return ((const int32_t *)data)[i];
	default: return ((const float *)data)[i];
	}
}

/* "int8 [1,7,7,1280]" */
static void me_describe(const char *type, int rank, const size_t *dims, char *buf, size_t size)
{
	size_t n = (size_t)snprintf(buf, size, "%s [", type);
	for (int d = 0; d < rank && n < size; d++)
		n += (size_t)snprintf(buf + n, size - n, "%s%zu", d ? "," : "", dims[d]);
	if (n < size)
		snprintf(buf + n, size - n, "]");
}

static const char *me_npy_name(vta_npy_dtype dt)
{
	static const char *const NAMES[] = {"int8", "uint8", "int32", "float32"};
	return NAMES[dt];
}

/* Operator r's output tensor against path: r's expect_* fields. */
static vta_status me_compare(const vta_tfl_model *m, vta_model_op_result *r, const void *got,
			     const char *path, vta_error *err)
{
	const vta_tfl_tensor *t = &m->tensors[r->output];
	vta_npy_dtype want;
	size_t dims[VTA_NPY_MAX_RANK] = {0};
	for (int d = 0; d < t->rank && d < VTA_NPY_MAX_RANK; d++)
		dims[d] = (size_t)t->shape[d];
	vta_npy npy;
	vta_status st = vta_npy_read(path, &npy, err);
	if (st)
		return st;
	bool same = me_dtype(t->type, &want) && npy.dtype == want && npy.rank == t->rank &&
		    npy.count == t->count;
	for (int d = 0; same && d < t->rank; d++)
		same = npy.shape[d] == dims[d];
	if (!same) {
		char file_desc[96], model_desc[96];
		me_describe(me_npy_name(npy.dtype), npy.rank, npy.shape, file_desc,
			    sizeof(file_desc));
		me_describe(vta_tfl_type_name(t->type), t->rank, dims, model_desc,
			    sizeof(model_desc));
		vta_npy_free(&npy);
		return vta_fail(err, VTA_E_DATA, "%s: %s, but tensor %d '%s' is %s",
				VTA_QPATH(path), file_desc, (int)r->output, VTA_Q(t->name),
				model_desc);
	}
	const size_t esize = vta_npy_dtype_size(want);
	r->expect_checked = true;
	r->expect_differing = 0;
	for (size_t i = 0; i < t->count; i++) {
		if (!memcmp((const char *)got + i * esize, (const char *)npy.data + i * esize, esize))
			continue;
		if (!r->expect_differing++) {
			r->expect_first_index = i;
			r->expect_value = me_value(want, npy.data, i);
			r->expect_got = me_value(want, got, i);
		}
	}
	vta_npy_free(&npy);
	return VTA_OK;
}

vta_status vta_model_expect_check(const vta_tfl_model *m, vta_model_run *run, const char *dir,
				  vta_error *err)
{
	struct stat sb;
	if (stat(dir, &sb) != 0)
		return vta_fail(err, VTA_E_IO, "%s: %s", VTA_QPATH(dir), strerror(errno));
	if (!S_ISDIR(sb.st_mode))
		return vta_fail(err, VTA_E_IO, "%s: not a folder", VTA_QPATH(dir));
	run->expect_dir = dir;
	run->expect_compared = run->expect_differing = run->expect_missing = 0;
	run->expect_first_tensor = -1;
	run->expect_first_index = 0;
	for (size_t i = 0; i < run->n_ops; i++) {
		vta_model_op_result *r = &run->ops[i];
		r->expect_checked = false;
		if (r->skipped || r->output < 0 || (size_t)r->output >= run->n_tensors ||
		    !run->values[r->output])
			continue;
		char path[4096];
		snprintf(path, sizeof(path), "%s/tensor_%d.npy", dir, (int)r->output);
		if (stat(path, &sb) != 0) {
			run->expect_missing++;
			continue;
		}
		vta_status st = me_compare(m, r, run->values[r->output], path, err);
		if (st)
			return st;
		run->expect_compared++;
		if (r->expect_differing && !run->expect_differing++) {
			run->expect_first_tensor = r->output;
			run->expect_first_index = r->expect_first_index;
		}
	}
	if (!run->expect_differing)
		return VTA_OK;
	const vta_model_op_result *first = NULL; /* in operator order, as compared */
	for (size_t i = 0; !first && i < run->n_ops; i++)
		if (run->ops[i].expect_checked && run->ops[i].expect_differing)
			first = &run->ops[i];
	return vta_fail(err, VTA_E_MISMATCH,
			"%s: %zu of %zu tensors differ from the reference tensors in %s; first "
			"tensor %d '%s' (operator %zu, %s) at element %zu: expected %g, got %g",
			m->name, run->expect_differing, run->expect_compared, VTA_QPATH(dir),
			(int)first->output, VTA_Q(m->tensors[first->output].name), first->index,
			first->name, first->expect_first_index, first->expect_value,
			first->expect_got);
}

const char *vta_model_checked_against(const vta_model_op_result *r)
{
	if (r->skipped)
		return NULL;
	if (r->expect_checked)
		return VTA_CHECKED_TFLM;
	return r->place == VTA_OP_ACCEL ? VTA_CHECKED_GOLDEN : VTA_CHECKED_HOST;
}
