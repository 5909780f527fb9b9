/*
 * lut_binning.c - reducing weights to at most 2^b distinct values per channel, so that LUT
 * compression at b bits applies (TFLM leaves this "binning" to the user before compressing).
 * The quantile and k-means methods and the final mapping: docs/lut.md "Binning". In 1-D
 * clusters are runs of consecutive values, so each k-means round is one sweep. Everything
 * is deterministic: no random starts.
 */
#include "lut.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LB_MAX_ROUNDS 100

typedef struct lb_work {
	double *x;     /* the channel's values, then sorted */
	double *v;     /* distinct values, ascending */
	double *w;     /* their multiplicities */
	size_t *lab;   /* cluster of each distinct value */
	double *rep;   /* representative of each distinct value */
	size_t *pos;   /* element index of each channel slot */
} lb_work;

static int lb_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Assign sorted values to sorted centroids c[0..k): nearest, ties to the lower. Returns whether
 * any label changed. */
static bool lb_assign(const double *v, size_t n, const double *c, size_t k, size_t *lab)
{
	bool changed = false;
	size_t j = 0;
	for (size_t i = 0; i < n; i++) {
		while (j + 1 < k && fabs(v[i] - c[j + 1]) < fabs(v[i] - c[j]))
			j++;
		if (lab[i] != j) {
			lab[i] = j;
			changed = true;
		}
	}
	return changed;
}

static void lb_sort_small(double *c, size_t k)
{
	for (size_t i = 1; i < k; i++) {
		double t = c[i];
		size_t j = i;
		while (j > 0 && c[j - 1] > t) {
			c[j] = c[j - 1];
			j--;
		}
		c[j] = t;
	}
}

/* Representatives for n > k distinct values v (weights w). */
static void lb_cluster(const lb_work *wk, size_t n, size_t k, vta_lut_bin_method method,
		       bool integer)
{
	double cent[VTA_LUT_MAX_STRIDE];
	const double *v = wk->v, *w = wk->w;
	size_t *lab = wk->lab;
	double total = 0;
	for (size_t i = 0; i < n; i++)
		total += w[i];

	/* Quantile split: bucket j starts where the cumulative weight first reaches j/k. */
	size_t i = 0;
	double cum = 0;
	for (size_t j = 0; j < k; j++) {
		double target = total * (double)(j + 1) / (double)k;
		size_t must_leave = k - 1 - j; /* values later buckets still need */
		double s = 0, sw = 0;
		do {
			s += v[i] * w[i];
			sw += w[i];
			cum += w[i];
			lab[i] = j;
			i++;
		} while (i < n - must_leave && cum < target);
		if (j == k - 1) {
			for (; i < n; i++) {
				s += v[i] * w[i];
				sw += w[i];
				lab[i] = j;
			}
		}
		cent[j] = s / sw;
	}

	if (method == VTA_LUT_BIN_KMEANS) {
		for (int round = 0; round < LB_MAX_ROUNDS; round++) {
			double s[VTA_LUT_MAX_STRIDE] = {0}, sw[VTA_LUT_MAX_STRIDE] = {0};
			for (size_t q = 0; q < n; q++) {
				s[lab[q]] += v[q] * w[q];
				sw[lab[q]] += w[q];
			}
			for (size_t j = 0; j < k; j++)
				if (sw[j] > 0)
					cent[j] = s[j] / sw[j];
			lb_sort_small(cent, k);
			if (!lb_assign(v, n, cent, k, lab))
				break;
		}
	}

	/* Final representatives: integers for int8, merged when they coincide. */
	size_t m = 0;
	for (size_t j = 0; j < k; j++) {
		double c = cent[j];
		if (integer) {
			c = round(c);
			c = c < -128 ? -128 : c > 127 ? 127 : c;
		} else {
			c = (double)(float)c;
		}
		if (m == 0 || c != cent[m - 1])
			cent[m++] = c;
	}
	lb_sort_small(cent, m);
	for (size_t q = 0; q < n; q++)
		lab[q] = 0;
	lb_assign(v, n, cent, m, lab);
	for (size_t q = 0; q < n; q++)
		wk->rep[q] = cent[lab[q]];
}

/* Shared driver: `get` reads element e as double, `put` stores a representative. */
typedef double (*lb_get_fn)(const void *in, size_t e);
typedef void (*lb_put_fn)(void *out, size_t e, double v);

static double lb_get_i8(const void *in, size_t e) { return ((const int8_t *)in)[e]; }
static double lb_get_f32(const void *in, size_t e) { return ((const float *)in)[e]; }
static void lb_put_i8(void *out, size_t e, double v) { ((int8_t *)out)[e] = (int8_t)v; }
static void lb_put_f32(void *out, size_t e, double v) { ((float *)out)[e] = (float)v; }

static vta_status lb_run(const void *in, void *out, size_t count, size_t channels,
			 bool axis_last, unsigned bits, vta_lut_bin_method method, bool integer,
			 lb_get_fn get, lb_put_fn put, vta_lut_bin_report *report, vta_error *err)
{
	if (report)
		memset(report, 0, sizeof(*report));
	if (!in || !out)
		return vta_fail(err, VTA_E_USAGE, "LUT binning: no data");
	if (bits < 1 || bits > VTA_LUT_MAX_BITWIDTH)
		return vta_fail(err, VTA_E_USAGE, "LUT binning: %u bits is outside 1..%d", bits,
				VTA_LUT_MAX_BITWIDTH);
	if (method != VTA_LUT_BIN_KMEANS && method != VTA_LUT_BIN_QUANTILE)
		return vta_fail(err, VTA_E_USAGE, "LUT binning: unknown method %d", (int)method);
	if (channels < 1 || count == 0 || count % channels != 0)
		return vta_fail(err, VTA_E_USAGE,
				"LUT binning: %zu channels do not divide %zu elements", channels,
				count);
	size_t epc = count / channels;
	if (epc > SIZE_MAX / (2 * sizeof(double) + 2 * sizeof(size_t) + 2 * sizeof(double)))
		return vta_fail(err, VTA_E_USAGE, "LUT binning: channel too large");
	size_t k = (size_t)1 << bits;

	lb_work wk = {
		.x = malloc(epc * sizeof(double)),
		.v = malloc(epc * sizeof(double)),
		.w = malloc(epc * sizeof(double)),
		.lab = malloc(epc * sizeof(size_t)),
		.rep = malloc(epc * sizeof(double)),
		.pos = malloc(epc * sizeof(size_t)),
	};
	vta_status st = VTA_OK;
	double max_err = 0, sum_sq = 0;
	size_t max_values = 0, changed = 0;
	if (!wk.x || !wk.v || !wk.w || !wk.lab || !wk.rep || !wk.pos) {
		st = vta_fail(err, VTA_E_NOMEM, "LUT binning: out of memory");
		goto done;
	}

	for (size_t c = 0; c < channels; c++) {
		for (size_t q = 0; q < epc; q++) {
			size_t e = axis_last ? q * channels + c : c * epc + q;
			wk.pos[q] = e;
			wk.x[q] = get(in, e);
			if (!isfinite(wk.x[q])) {
				st = vta_fail(err, VTA_E_DATA,
					      "LUT binning: element %zu is not finite", e);
				goto done;
			}
		}
		/* Keep the original values: x gets sorted, elements are re-read below. */
		qsort(wk.x, epc, sizeof(double), lb_cmp_double);
		size_t n = 0;
		for (size_t q = 0; q < epc; q++) {
			if (n > 0 && wk.x[q] == wk.v[n - 1]) {
				wk.w[n - 1] += 1;
			} else {
				wk.v[n] = wk.x[q];
				wk.w[n] = 1;
				n++;
			}
		}
		if (n <= k) {
			for (size_t q = 0; q < n; q++)
				wk.rep[q] = wk.v[q];
		} else {
			lb_cluster(&wk, n, k, method, integer);
		}
		size_t distinct = 0;
		for (size_t q = 0; q < n; q++)
			if (q == 0 || wk.rep[q] != wk.rep[q - 1])
				distinct++;
		if (distinct > max_values)
			max_values = distinct;

		for (size_t q = 0; q < epc; q++) {
			size_t e = wk.pos[q];
			double x = get(in, e);
			/* Binary search the distinct value (exact: doubles hold every input). */
			size_t lo = 0, hi = n;
			while (hi - lo > 1) {
				size_t mid = lo + (hi - lo) / 2;
				if (wk.v[mid] <= x)
					lo = mid;
				else
					hi = mid;
			}
			double r = n <= k ? x : wk.rep[lo]; /* unchanged channels keep -0.0 */
			double d = fabs(r - x);
			if (d > max_err)
				max_err = d;
			sum_sq += d * d;
			if (r != x)
				changed++;
			put(out, e, r);
		}
	}
	if (report) {
		report->max_abs_error = max_err;
		report->rms_error = sqrt(sum_sq / (double)count);
		report->max_values = max_values;
		report->changed = changed;
	}
done:
	free(wk.x);
	free(wk.v);
	free(wk.w);
	free(wk.lab);
	free(wk.rep);
	free(wk.pos);
	return st;
}

vta_status vta_lut_bin_i8(const int8_t *in, int8_t *out, size_t count, size_t channels,
			  bool axis_last, unsigned bits, vta_lut_bin_method method,
			  vta_lut_bin_report *report, vta_error *err)
{
	return lb_run(in, out, count, channels, axis_last, bits, method, true, lb_get_i8,
		      lb_put_i8, report, err);
}

vta_status vta_lut_bin_f32(const float *in, float *out, size_t count, size_t channels,
			   bool axis_last, unsigned bits, vta_lut_bin_method method,
			   vta_lut_bin_report *report, vta_error *err)
{
	return lb_run(in, out, count, channels, axis_last, bits, method, false, lb_get_f32,
		      lb_put_f32, report, err);
}
