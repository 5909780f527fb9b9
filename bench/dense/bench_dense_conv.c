/*
 * bench_dense_conv.c - the host's dense int8 convolution, the yardstick a whole `vtasim run`
 * is measured against (docs/performance.md). It computes the CONV2D layers of a workload
 * (the same tensors the runtime materialises from its seeds) with TFLite's int8 arithmetic:
 * per-channel requantization with double rounding (docs/arithmetic.md 2.3), checks every
 * output bit-exact against the golden kernel, and prints the best time of its repetitions.
 *
 * It is a benchmark, built with -O3 -march=native where the compiler has it (bench/dense/
 * CMakeLists.txt): the fastest this host does, not a portable program. Per layer, timed:
 * the input gathered into an im2col matrix of biased bytes (x + 128; padding taps hold
 * zp_in + 128), one blocked matrix product against the filter (OHWI is already [O][K]) and
 * the requantization. Untimed, as an inference engine's set-up step: each filter's weight
 * sum (the zero point's share, sum w (x - zp) = sum w (x + 128) - (zp + 128) sum w) and the
 * multipliers. Two inner products are timed: the unsigned-by-signed byte product (what
 * AVX-512 VNNI and AVX-VNNI compute in one instruction) and a signed-by-signed one with the
 * zero point folded the same way (the form of a plain int8 dot product). A third figure is
 * the project's own golden CONV2D (vta_golden_conv2d, built like every shipped program and
 * choosing its widest path at run time): the fastest int8 convolution the project ships.
 *
 * Times are the best of the repetitions, as wall seconds and as CPU seconds of the process.
 *
 * usage: bench_dense_conv WORKLOAD [REPETITIONS]   (exit 2 on an error or a mismatch)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_host.h"
#include "golden.h"
#include "workload.h"
#include "workload_layer.h"

static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One layer, prepared. */
typedef struct dense_layer {
	vta_layer_data d;
	int32_t P, K, O;          /* output pixels, inner length, output channels */
	uint8_t *cols;            /* im2col, P x K, biased */
	int32_t *acc;             /* P x O */
	int64_t *wsum;            /* O */
	vta_qmul *m;              /* O */
	int32_t act_min, act_max, pad_h, pad_w;
	int8_t *gold;             /* the golden kernel's output */
} dense_layer;

/* TFLite's per-channel requantization (docs/arithmetic.md 2.3), inline so it vectorizes. */
static inline int8_t requant(int32_t acc, int32_t bias, vta_qmul m, int32_t zp, int32_t lo,
			     int32_t hi)
{
	int32_t x = (int32_t)((uint32_t)acc + (uint32_t)bias);
	if (m.shift > 0)
		x = (int32_t)((uint32_t)x << (m.shift > 31 ? 31 : m.shift));
	int64_t ab = (int64_t)x * m.multiplier;
	int64_t nudge = ab >= 0 ? ((int64_t)1 << 30) : 1 - ((int64_t)1 << 30);
	int32_t y = (x == INT32_MIN && m.multiplier == INT32_MIN)
			    ? INT32_MAX
			    : (int32_t)((ab + nudge) / ((int64_t)1 << 31));
	int e = m.shift > 0 ? 0 : -m.shift;
	int32_t mask = (int32_t)(((int64_t)1 << e) - 1);
	int32_t rem = y & mask, thr = (mask >> 1) + (y < 0);
	y = (y >> e) + (rem > thr);
	y = (int32_t)((uint32_t)y + (uint32_t)zp);
	return (int8_t)(y < lo ? lo : y > hi ? hi : y);
}

/* The im2col matrix of the layer: row p is output pixel p's receptive field in OHWI order. */
static void gather(dense_layer *L, uint8_t bias, uint8_t pad)
{
	const vta_conv2d *c = &L->d.conv;
	const vta_tensor_i8 *in = c->input;
	const int32_t H = in->shape[1], W = in->shape[2], C = in->shape[3];
	const int32_t KH = c->filter_shape[1], KW = c->filter_shape[2];
	const int32_t OH = L->d.output.shape[1], OW = L->d.output.shape[2];
	uint8_t *row = L->cols;
	for (int32_t n = 0; n < in->shape[0]; n++)
		for (int32_t oy = 0; oy < OH; oy++)
			for (int32_t ox = 0; ox < OW; ox++)
				for (int32_t fy = 0; fy < KH; fy++) {
					int32_t iy = oy * c->stride_h - L->pad_h + fy * c->dilation_h;
					for (int32_t fx = 0; fx < KW; fx++, row += C) {
						int32_t ix = ox * c->stride_w - L->pad_w +
							     fx * c->dilation_w;
						if (iy < 0 || iy >= H || ix < 0 || ix >= W) {
							memset(row, pad, (size_t)C);
							continue;
						}
						const int8_t *x =
							in->data +
							(((size_t)n * H + iy) * W + ix) * (size_t)C;
						for (int32_t i = 0; i < C; i++)
							row[i] = (uint8_t)(x[i] + bias);
					}
				}
}

/* acc[p][o] = sum_k cols[p][k] * w[o][k], 2 pixels x 4 channels per pass over k (each
 * load of a row of w serves two pixels, each load of cols four channels). X is the type of
 * the cols bytes: uint8_t for the biased product, int8_t for the signed one. */
#define DENSE_GEMM(NAME, X)                                                                    \
	static void NAME(const X *cols, const int8_t *w, int32_t P, int32_t K, int32_t O,    \
			 int32_t *acc)                                                         \
	{                                                                                      \
		int32_t p = 0;                                                                 \
		for (; p + 2 <= P; p += 2) {                                                   \
			const X *x0 = cols + (size_t)p * K, *x1 = x0 + K;                      \
			for (int32_t o = 0; o < O; o += 4) {                                   \
				const int8_t *w0 = w + (size_t)o * K, *w1 = w0 + K,            \
					     *w2 = w1 + K, *w3 = w2 + K;                       \
				int32_t s00 = 0, s01 = 0, s02 = 0, s03 = 0, s10 = 0, s11 = 0,  \
					s12 = 0, s13 = 0;                                      \
				for (int32_t k = 0; k < K; k++) {                              \
					int32_t a = x0[k], b = x1[k];                          \
					s00 += a * w0[k];                                      \
					s01 += a * w1[k];                                      \
					s02 += a * w2[k];                                      \
					s03 += a * w3[k];                                      \
					s10 += b * w0[k];                                      \
					s11 += b * w1[k];                                      \
					s12 += b * w2[k];                                      \
					s13 += b * w3[k];                                      \
				}                                                              \
				int32_t *r0 = acc + (size_t)p * O + o, *r1 = r0 + O;           \
				r0[0] = s00, r0[1] = s01, r0[2] = s02, r0[3] = s03;            \
				r1[0] = s10, r1[1] = s11, r1[2] = s12, r1[3] = s13;            \
			}                                                                      \
		}                                                                              \
		for (; p < P; p++)                                                             \
			for (int32_t o = 0; o < O; o++) {                                      \
				const X *x = cols + (size_t)p * K;                             \
				const int8_t *wo = w + (size_t)o * K;                          \
				int32_t s = 0;                                                 \
				for (int32_t k = 0; k < K; k++)                                \
					s += (int32_t)x[k] * wo[k];                            \
				acc[(size_t)p * O + o] = s;                                    \
			}                                                                      \
	}
DENSE_GEMM(gemm_u8s8, uint8_t)
DENSE_GEMM(gemm_s8s8, int8_t)

/* One layer, timed part: gather, product, requantization. */
static void run_layer(dense_layer *L, int signed_product)
{
	const vta_conv2d *c = &L->d.conv;
	const int32_t zp = c->input->zero_point;
	int64_t off;
	if (signed_product) {
		gather(L, 0, (uint8_t)(int8_t)zp);
		gemm_s8s8((const int8_t *)L->cols, c->filter, L->P, L->K, L->O, L->acc);
		off = zp;
	} else {
		gather(L, 128, (uint8_t)(zp + 128));
		gemm_u8s8(L->cols, c->filter, L->P, L->K, L->O, L->acc);
		off = zp + 128;
	}
	const int32_t zo = L->d.output.zero_point;
	for (int32_t p = 0; p < L->P; p++) {
		const int32_t *a = L->acc + (size_t)p * L->O;
		int8_t *out = L->d.output.data + (size_t)p * L->O;
		for (int32_t o = 0; o < L->O; o++)
			out[o] = requant((int32_t)(a[o] - off * L->wsum[o]),
					 c->bias ? c->bias[o] : 0, L->m[o], zo, L->act_min,
					 L->act_max);
	}
}

static int prepare(const vta_wl_layer *spec, dense_layer *L, vta_error *err)
{
	memset(L, 0, sizeof(*L));
	if (spec->op != VTA_WL_CONV2D)
		return vta_fail(err, VTA_E_USAGE, "layer '%s': not a CONV2D", spec->name);
	if (vta_layer_materialize(spec, &L->d, err))
		return 1;
	const vta_conv2d *c = &L->d.conv;
	if (L->d.has_lut || L->d.has_bias_lut || c->filter_shape[3] != c->input->shape[3])
		return vta_fail(err, VTA_E_USAGE, "layer '%s': LUT constants or groups", spec->name);
	vta_golden_conv2d_padding(c->input->shape[1], c->filter_shape[1], c->stride_h,
				  c->dilation_h, c->padding, NULL, &L->pad_h, NULL, NULL);
	vta_golden_conv2d_padding(c->input->shape[2], c->filter_shape[2], c->stride_w,
				  c->dilation_w, c->padding, NULL, &L->pad_w, NULL, NULL);
	const vta_tensor_i8 *out = &L->d.output;
	L->P = out->shape[0] * out->shape[1] * out->shape[2];
	L->O = c->filter_shape[0];
	L->K = c->filter_shape[1] * c->filter_shape[2] * c->filter_shape[3];
	if (L->O % 4)
		return vta_fail(err, VTA_E_USAGE, "layer '%s': channels not a multiple of 4",
				spec->name);
	L->cols = malloc((size_t)L->P * L->K);
	L->acc = malloc((size_t)L->P * L->O * sizeof(*L->acc));
	L->wsum = malloc((size_t)L->O * sizeof(*L->wsum));
	L->m = malloc((size_t)L->O * sizeof(*L->m));
	L->gold = malloc((size_t)L->P * L->O);
	if (!L->cols || !L->acc || !L->wsum || !L->m || !L->gold)
		return vta_fail(err, VTA_E_NOMEM, "out of memory");
	for (int32_t o = 0; o < L->O; o++) {
		int64_t s = 0;
		for (int32_t k = 0; k < L->K; k++)
			s += c->filter[(size_t)o * L->K + k];
		L->wsum[o] = s;
	}
	vta_tensor_i8 gold = *out;
	gold.data = L->gold;
	if (vta_quant_conv_tflite_params(c->input->scale, c->filter_scales, c->filter_scale_count,
					 (size_t)L->O, out->scale, L->m, err) ||
	    vta_quant_activation_range(c->activation, out->scale, out->zero_point, &L->act_min,
				       &L->act_max, err) ||
	    vta_golden_conv2d(c, VTA_ARITH_TFLITE, &gold, NULL, err))
		return 1;
	return 0;
}

static void release(dense_layer *L)
{
	free(L->cols);
	free(L->acc);
	free(L->wsum);
	free(L->m);
	free(L->gold);
	vta_layer_data_free(&L->d);
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: bench_dense_conv WORKLOAD [REPETITIONS]\n");
		return 2;
	}
	int reps = argc > 2 ? atoi(argv[2]) : 5;
	if (reps < 1)
		reps = 1;
	vta_error err = {0};
	vta_workload wl;
	if (vta_workload_load(argv[1], &wl, &err)) {
		fprintf(stderr, "bench_dense_conv: %s\n", err.detail);
		return 2;
	}
	dense_layer *L = calloc(wl.n_layers ? wl.n_layers : 1, sizeof(*L));
	int rc = L ? 0 : 2;
	double macs = 0;
	size_t prepared = 0;
	for (; !rc && prepared < wl.n_layers; prepared++) {
		if (prepare(&wl.layers[prepared], &L[prepared], &err)) {
			fprintf(stderr, "bench_dense_conv: %s\n", err.detail);
			rc = 2;
		}
		const dense_layer *l = &L[prepared];
		macs += (double)l->P * l->K * l->O;
	}
	static const char *const names[3] = {"u8s8", "s8s8", "golden"};
	double best[3] = {1e30, 1e30, 1e30}, best_cpu[3] = {1e30, 1e30, 1e30};
	/* the three alternate, repetition by repetition, on a shared machine */
	for (int r = 0; !rc && r < reps; r++)
		for (int v = 0; v < 3; v++) {
			double t0 = now(), c0 = cpu_now();
			for (size_t i = 0; i < wl.n_layers && v < 2; i++)
				run_layer(&L[i], v);
			for (size_t i = 0; i < wl.n_layers && v == 2; i++)
				if (vta_golden_conv2d(&L[i].d.conv, VTA_ARITH_TFLITE, &L[i].d.output,
						      NULL, &err))
					rc = 2;
			double t = now() - t0, c = cpu_now() - c0;
			if (t < best[v])
				best[v] = t;
			if (c < best_cpu[v])
				best_cpu[v] = c;
			for (size_t i = 0; i < wl.n_layers; i++)
				if (memcmp(L[i].d.output.data, L[i].gold, (size_t)L[i].P * L[i].O)) {
					fprintf(stderr,
						"bench_dense_conv: layer '%s' (%s) differs from the "
						"golden kernel\n",
						wl.layers[i].name, names[v]);
					rc = 2;
				}
		}
	if (!rc) {
		printf("dense int8 CONV2D of %s: %zu layers, %.1f M MAC, bit-exact, best of %d\n",
		       argv[1], wl.n_layers, macs / 1e6, reps);
		for (int v = 0; v < 3; v++)
			printf("dense_%s_seconds %.5f cpu %.5f  %.2f GMAC/s\n", names[v], best[v],
			       best_cpu[v], macs / best[v] / 1e9);
		int f = best[1] < best[0];
		printf("dense_seconds %.5f cpu %.5f\n", best[f], best_cpu[f]);
	}
	for (size_t i = 0; i < prepared && L; i++)
		release(&L[i]);
	free(L);
	vta_workload_free(&wl);
	return rc;
}
