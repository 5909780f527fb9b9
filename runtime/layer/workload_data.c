/* workload_data.c - materialise workload tensors (see workload_data.h). */
#include "workload_data.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npy.h"
#include "vta_file.h"
#include "prng.h"
#include "vta_text.h"

static size_t channel_of(vta_wl_channels ch, size_t count, size_t e)
{
	if (ch.channels <= 1)
		return 0;
	return ch.axis_last ? e % ch.channels : e / (count / ch.channels);
}

/* "[1,2,2,4]" into out. */
static void shape_text(const size_t *dims, int rank, char *out, size_t size)
{
	size_t n = 0;
	vta_appendf(out, size, &n, "[");
	for (int i = 0; i < rank; i++)
		vta_appendf(out, size, &n, "%s%zu", i ? "," : "", dims[i]);
	vta_appendf(out, size, &n, "]");
}

/* A .npy's shape must be the tensor's (its written shape, or [count] when it has none) up to
 * leading 1s: (1,16) holds a bias of [16], (1,4,4,1) does not hold an input of [1,2,2,4]. */
static vta_status check_npy_shape(const vta_wl_tensor *t, const char *what, size_t count,
				  const vta_npy *npy, vta_error *err)
{
	size_t want[4] = {count};
	int rank = t->rank ? t->rank : 1;
	for (int i = 0; t->rank && i < t->rank; i++)
		want[i] = (size_t)t->shape[i];
	int a = 0, b = 0;
	while (a < npy->rank && npy->shape[a] == 1 && npy->rank - a > rank - b)
		a++;
	while (b < rank && want[b] == 1 && rank - b > npy->rank - a)
		b++;
	bool same = npy->rank - a == rank - b;
	for (int i = 0; same && i < rank - b; i++)
		same = npy->shape[a + i] == want[b + i];
	if (same)
		return VTA_OK;
	char got_s[96] = "", want_s[64] = "";
	shape_text(npy->shape, npy->rank, got_s, sizeof(got_s));
	shape_text(want, rank, want_s, sizeof(want_s));
	return vta_fail(err, VTA_E_DATA, "%s: %s: shape %s, the tensor's is %s",
			VTA_QPATH(t->data.path), what, got_s, want_s);
}

/* Read exactly `bytes` from a raw file or the data of a .npy with the expected dtype. */
static vta_status read_file_data(const vta_wl_tensor *t, const char *what, size_t count,
				 vta_npy_dtype dtype, void *out, vta_error *err)
{
	size_t bytes = count * vta_npy_dtype_size(dtype);
	if (t->data.source == VTA_WL_NPY) {
		vta_npy npy;
		vta_status st = vta_npy_read(t->data.path, &npy, err);
		if (st)
			return st;
		if (npy.dtype != dtype && !(dtype == VTA_NPY_I8 && npy.dtype == VTA_NPY_U8)) {
			vta_npy_free(&npy);
			return vta_fail(err, VTA_E_DATA, "%s: %s: expected %s data",
					VTA_QPATH(t->data.path), what,
					dtype == VTA_NPY_I8 ? "int8" : "int32");
		}
		if ((st = check_npy_shape(t, what, count, &npy, err)) ||
		    (npy.count != count &&
		     (st = vta_fail(err, VTA_E_DATA, "%s: %s: %zu elements, the shape needs %zu",
				    VTA_QPATH(t->data.path), what, npy.count, count)))) {
			vta_npy_free(&npy);
			return st;
		}
		memcpy(out, npy.data, bytes);
		vta_npy_free(&npy);
		return VTA_OK;
	}
	FILE *f;
	uint64_t size;
	vta_status st = vta_file_open(t->data.path, "raw tensor file", UINT64_MAX, &f, &size, err);
	if (st)
		return st;
	size_t got = fread(out, 1, bytes, f);
	int extra = fgetc(f) != EOF;
	fclose(f);
	if (got != bytes || extra)
		return vta_fail(err, VTA_E_DATA, "%s: %s: the file must hold exactly %zu bytes "
						 "(%zu elements)",
				VTA_QPATH(t->data.path), what, bytes, count);
	return VTA_OK;
}

/* Random values in [lo, hi] into out (int8 or int32 elements of `elem` bytes). A tensor to
 * be compressed holds at most 2^b values per channel: each channel's palette is drawn, then
 * every element picks from it. */
static vta_status draw_random(const vta_wl_tensor *t, const char *what, size_t count,
			      vta_wl_channels ch, int64_t lo, int64_t hi, void *out, size_t elem,
			      vta_error *err)
{
	vta_prng r;
	vta_prng_seed(&r, t->data.seed);
	size_t k = (size_t)1 << t->index_bitwidth;
	size_t nch = ch.channels ? ch.channels : 1;
	int64_t *palette = t->compressed ? malloc(nch * k * sizeof(int64_t)) : NULL;
	if (t->compressed && !palette)
		return vta_fail(err, VTA_E_NOMEM, "%s: out of memory", what);
	for (size_t i = 0; palette && i < nch * k; i++)
		palette[i] = vta_prng_range(&r, lo, hi);
	if (!palette && elem == 1) { /* the bulk of a workload's data: many draws at once */
		vta_prng_fill_i8(&r, lo, hi, out, count);
		return VTA_OK;
	}
	for (size_t e = 0; e < count; e++) {
		int64_t v = palette ? palette[channel_of(ch, count, e) * k +
					      (size_t)vta_prng_range(&r, 0, (int64_t)k - 1)]
				    : vta_prng_range(&r, lo, hi);
		if (elem == 1)
			((int8_t *)out)[e] = (int8_t)v;
		else
			((int32_t *)out)[e] = (int32_t)v;
	}
	free(palette);
	return VTA_OK;
}

vta_status vta_wl_fill_i8(const vta_wl_tensor *t, const char *what, size_t count,
			  vta_wl_channels ch, int lo, int hi, int8_t *out,
			  vta_lut_bin_report *binned, vta_error *err)
{
	if (binned)
		memset(binned, 0, sizeof(*binned));
	if (!t->per_channel)
		ch.channels = 1; /* one table for the whole tensor */
	if (t->data.has_range) {
		if (t->data.min < -128 || t->data.max > 127)
			return vta_fail(err, VTA_E_DATA, "%s: random range [%g, %g] leaves int8", what,
					t->data.min, t->data.max);
		lo = (int)t->data.min;
		hi = (int)t->data.max;
	}
	if (t->data.source != VTA_WL_RANDOM) {
		vta_status st = read_file_data(t, what, count, VTA_NPY_I8, out, err);
		if (st || !t->compressed)
			return st;
		vta_lut_bin_report rep;
		st = vta_lut_bin_i8(out, out, count, ch.channels, ch.axis_last, t->index_bitwidth,
				    VTA_LUT_BIN_KMEANS, &rep, err);
		if (!st && binned)
			*binned = rep;
		return st;
	}
	return draw_random(t, what, count, ch, lo, hi, out, sizeof(*out), err);
}

vta_status vta_wl_fill_i32(const vta_wl_tensor *t, const char *what, size_t count,
			   vta_wl_channels ch, int32_t lo, int32_t hi, int32_t *out,
			   vta_error *err)
{
	if (!t->per_channel)
		ch.channels = 1;
	if (t->data.has_range) {
		if (t->data.min < INT32_MIN || t->data.max > INT32_MAX)
			return vta_fail(err, VTA_E_DATA, "%s: random range leaves int32", what);
		lo = (int32_t)t->data.min;
		hi = (int32_t)t->data.max;
	}
	if (t->data.source != VTA_WL_RANDOM)
		return read_file_data(t, what, count, VTA_NPY_I32, out, err);
	return draw_random(t, what, count, ch, lo, hi, out, sizeof(*out), err);
}

vta_status vta_wl_fill_scales(const vta_wl_tensor *t, const char *what, size_t channels,
			      float *out, vta_error *err)
{
	const vta_wl_scales *s = &t->scales;
	if (!s->present) {
		for (size_t c = 0; c < channels; c++)
			out[c] = t->scale;
		return VTA_OK;
	}
	if (s->random) {
		vta_prng r;
		vta_prng_seed(&r, s->seed);
		for (size_t c = 0; c < channels; c++)
			out[c] = (float)vta_prng_uniform(&r, s->min, s->max);
		return VTA_OK;
	}
	if (s->count != 1 && s->count != channels)
		return vta_fail(err, VTA_E_DATA, "%s: %zu scales for %zu channels", what, s->count,
				channels);
	for (size_t c = 0; c < channels; c++)
		out[c] = s->values[s->count == 1 ? 0 : c];
	return VTA_OK;
}

vta_status vta_wl_compress(const vta_wl_tensor *t, const char *what, vta_lut_type type,
			   const void *data, size_t count, vta_wl_channels ch, vta_lut_buffer *out,
			   vta_error *err)
{
	size_t channels = t->per_channel ? ch.channels : 1;
	vta_error e2 = {0};
	vta_status st = vta_lut_compress(type, data, count, channels ? channels : 1, ch.axis_last,
					 t->index_bitwidth, VTA_LUT_STRIDE_POW2, out, &e2);
	if (st)
		return vta_fail(err, st, "%s: %s", what, e2.detail);
	return VTA_OK;
}
