/*
 * bench_conv2d.c - golden CONV2D throughput on ResNet-18's conv2_x layer (1x56x56x64 -> 64,
 * 3x3, stride 1, SAME) in both arithmetic modes, and with a 4-bit LUT-compressed filter
 * (decode + convolution).
 *
 * usage: bench_conv2d [repetitions per mode, default 3]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_host.h"
#include "golden.h"

enum { H = 56, W = 56, C = 64, O = 64, K = 3 };

int main(int argc, char **argv)
{
	uint64_t seed = 0x2545f4914f6cdd1dull;
	int reps = argc > 1 ? atoi(argv[1]) : 3;
	if (reps < 1)
		reps = 1;
	size_t nx = (size_t)H * W * C, nf = (size_t)O * K * K * C, no = (size_t)H * W * O;
	int8_t *x = malloc(nx), *f = malloc(nf), *fb = malloc(nf), *o = malloc(no);
	float scales[O];
	int32_t bias[O];
	if (!x || !f || !fb || !o)
		return 1;
	for (size_t i = 0; i < nx; i++)
		x[i] = (int8_t)rng(&seed);
	for (size_t i = 0; i < nf; i++)
		f[i] = (int8_t)((int)(rng(&seed) % 255) - 127);
	for (int c = 0; c < O; c++) {
		scales[c] = 0.001f + 0.0001f * (float)(rng(&seed) % 50);
		bias[c] = (int32_t)(rng(&seed) % 2001) - 1000;
	}
	vta_tensor_i8 in = {{1, H, W, C}, 0.0235f, -4, x};
	vta_conv2d conv = {
		.input = &in, .filter = f, .filter_shape = {O, K, K, C}, .filter_scales = scales,
		.filter_scale_count = O, .bias = bias, .stride_h = 1, .stride_w = 1,
		.dilation_h = 1, .dilation_w = 1, .padding = VTA_PADDING_SAME,
		.activation = VTA_ACT_RELU,
	};
	vta_tensor_i8 out = {{1, H, W, O}, 0.05f, 3, o};
	double macs = (double)H * W * O * K * K * C;
	vta_error err = {0};

	/* A 4-bit per-channel LUT filter for the decode + conv line. */
	vta_lut_buffer lut;
	if (vta_lut_bin_i8(f, fb, nf, O, false, 4, VTA_LUT_BIN_KMEANS, NULL, &err) != VTA_OK ||
	    vta_lut_compress(VTA_LUT_INT8, fb, nf, O, false, 4, VTA_LUT_STRIDE_POW2, &lut, &err) !=
		    VTA_OK) {
		fprintf(stderr, "bench_conv2d: %s\n", err.detail);
		return 1;
	}

	printf("golden CONV2D, ResNet-18 conv2_x: 1x%dx%dx%d -> %d, %dx%d, stride 1, SAME "
	       "(%.1f M MAC)\n",
	       H, W, C, O, K, K, macs / 1e6);
	printf("%-22s %10s %12s\n", "variant", "ms/run", "GMAC/s");
	const char *names[3] = {"tflite", "vta16", "tflite + LUT filter"};
	for (int v = 0; v < 3; v++) {
		vta_golden_stats st = {0};
		double t0 = now();
		for (int r = 0; r < reps; r++) {
			vta_status s = v == 2 ? vta_golden_conv2d_lut(&conv, &lut.tensor, NULL,
								      VTA_ARITH_TFLITE, &out, &st,
								      &err)
					      : vta_golden_conv2d(&conv, (vta_arith_mode)v, &out,
								  &st, &err);
			if (s != VTA_OK) {
				fprintf(stderr, "bench_conv2d: %s\n", err.detail);
				return 1;
			}
		}
		double dt = (now() - t0) / reps;
		printf("%-22s %10.1f %12.3f", names[v], dt * 1e3, macs / dt / 1e9);
		if (v == 1)
			printf("   (%llu ALU overflows per run)",
			       (unsigned long long)(st.alu_overflows / (uint64_t)reps));
		printf("\n");
	}
	vta_lut_buffer_free(&lut);
	free(x);
	free(f);
	free(fb);
	free(o);
	return 0;
}
