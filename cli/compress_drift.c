/*
 * compress_drift.c - the original and the compressed model on the host reference kernels
 * (compress_drift.h). Both go through host_run.h, so what runs is TFLite's own arithmetic
 * (the golden kernels) on the constants each model holds: the compressed model's decoded LUT
 * tensors, binning included.
 */
#include "compress_drift.h"

#include <math.h>
#include <string.h>

#include "cli.h"
#include "host_run.h"
#include "model_inputs.h"

/* Element i of a tensor of type t as a number; false for a type without one here. */
static bool element(vta_tfl_type t, const void *v, size_t i, double *out)
{
	switch (t) {
	case VTA_TFL_INT8: *out = ((const int8_t *)v)[i]; return true;
	case VTA_TFL_UINT8: *out = ((const uint8_t *)v)[i]; return true;
	case VTA_TFL_INT16: *out = ((const int16_t *)v)[i]; return true;
	case VTA_TFL_INT32: *out = ((const int32_t *)v)[i]; return true;
	case VTA_TFL_FLOAT32: *out = ((const float *)v)[i]; return true;
	default: return false;
	}
}

/* One output's line: elements that differ, the largest difference in its own units and,
 * for a quantized output, in real units (its scale times the integer difference). */
static size_t show_output(const vta_tfl_model *m, size_t k, const void *a,
			  const void *b)
{
	const int32_t idx = m->outputs[k];
	const vta_tfl_tensor *t = &m->tensors[idx];
	size_t differ = 0;
	double max_abs = 0;
	bool numeric = true;
	for (size_t i = 0; i < t->count && numeric; i++) {
		double x, y;
		numeric = element(t->type, a, i, &x) && element(t->type, b, i, &y);
		if (numeric && x != y) {
			differ++;
			max_abs = fmax(max_abs, fabs(x - y));
		}
	}
	printf("  output %zu (tensor %d", k, idx);
	if (t->name[0]) {
		fputs(" '", stdout);
		cli_put_text(t->name);
		fputc('\'', stdout);
	}
	printf(", %s, %zu elements): ", vta_tfl_type_name(t->type), t->count);
	if (!numeric) {
		size_t bytes = t->count * vta_tfl_type_size(t->type);
		differ = memcmp(a, b, bytes) != 0;
		printf("%s\n", differ ? "differs" : "identical");
		return differ;
	}
	printf("%zu differ (%.2f%%), max abs difference %g", differ,
		t->count ? 100.0 * (double)differ / (double)t->count : 0.0, max_abs);
	if (t->type != VTA_TFL_FLOAT32 && t->quant.count >= 1 && max_abs > 0)
		printf(" (%g in real units)", max_abs * t->quant.scale[0]);
	fputc('\n', stdout);
	return differ;
}

vta_status compress_drift(const vta_tfl_model *plain, const vta_tfl_model *packed,
			  const char *const *inputs, size_t n, size_t *differing,
			  vta_error *err)
{
	*differing = 0;
	vta_npy npys[VTA_MODEL_MAX_INPUTS];
	const void *data[VTA_MODEL_MAX_INPUTS];
	vta_status st = vta_model_inputs_read(plain, inputs, n, npys, data, err);
	vta_model_run a, b;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	if (!st)
		st = host_run(plain, data, n, &a, err);
	if (!st)
		st = host_run(packed, data, n, &b, err);
	if (!st && plain->n_outputs != packed->n_outputs)
		st = vta_fail(err, VTA_E_DATA, "%s has %zu outputs, the compressed model %zu",
			      plain->name, plain->n_outputs, packed->n_outputs);
	for (size_t k = 0; !st && k < plain->n_outputs; k++) {
		const void *x = a.values[plain->outputs[k]], *y = b.values[packed->outputs[k]];
		if (!x || !y)
			st = vta_fail(err, VTA_E_DATA, "output %zu was not computed", k);
	}
	if (!st) {
		printf("outputs on ");
		for (size_t i = 0; i < n; i++) {
			fputs(i ? ", " : "", stdout);
			cli_put_text(inputs[i]);
		}
		printf(" (host reference kernels), compressed against original:\n");
		for (size_t k = 0; k < plain->n_outputs; k++)
			*differing += show_output(plain, k, a.values[plain->outputs[k]],
						  b.values[packed->outputs[k]]);
	}
	vta_model_run_free(&a);
	vta_model_run_free(&b);
	vta_model_inputs_free(npys, n);
	return st;
}
