/*
 * bench_conv2d_paths.c - the golden CONV2D's two paths to the same sums, along the patch
 * (one inner product per output channel) and across output channels (16 channels per
 * vector), timed on every CONV2D shape of MobileNet v2 (224x224) and ResNet-18 C2-C11, and on
 * a grid of 1x1 layers: the numbers behind vta_golden_conv2d_auto_path's rule. Each line is
 * the best of REPS runs of each path, in GMAC/s, and which one the rule picks; the outputs of
 * the two paths are compared byte for byte.
 *
 * usage: bench_conv2d_paths [REPS, default 5]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_host.h"
#include "golden.h"

typedef struct shape {
	const char *name;
	int32_t h, w, c, o, k, stride;
} shape;

static const shape shapes[] = {
	/* MobileNet v2: the first 3x3 convolution, then its 1x1 expansions and projections */
	{"mbv2 conv 3x3/2 3->32", 224, 224, 3, 32, 3, 2},
	{"mbv2 1x1 32->16", 112, 112, 32, 16, 1, 1},
	{"mbv2 1x1 16->96", 112, 112, 16, 96, 1, 1},
	{"mbv2 1x1 96->24", 56, 56, 96, 24, 1, 1},
	{"mbv2 1x1 24->144", 56, 56, 24, 144, 1, 1},
	{"mbv2 1x1 144->24", 56, 56, 144, 24, 1, 1},
	{"mbv2 1x1 144->32", 28, 28, 144, 32, 1, 1},
	{"mbv2 1x1 32->192", 28, 28, 32, 192, 1, 1},
	{"mbv2 1x1 192->32", 28, 28, 192, 32, 1, 1},
	{"mbv2 1x1 192->64", 14, 14, 192, 64, 1, 1},
	{"mbv2 1x1 64->384", 14, 14, 64, 384, 1, 1},
	{"mbv2 1x1 384->64", 14, 14, 384, 64, 1, 1},
	{"mbv2 1x1 384->96", 14, 14, 384, 96, 1, 1},
	{"mbv2 1x1 96->576", 14, 14, 96, 576, 1, 1},
	{"mbv2 1x1 576->96", 14, 14, 576, 96, 1, 1},
	{"mbv2 1x1 576->160", 7, 7, 576, 160, 1, 1},
	{"mbv2 1x1 160->960", 7, 7, 160, 960, 1, 1},
	{"mbv2 1x1 960->160", 7, 7, 960, 160, 1, 1},
	{"mbv2 1x1 960->320", 7, 7, 960, 320, 1, 1},
	{"mbv2 1x1 320->1280", 7, 7, 320, 1280, 1, 1},
	/* ResNet-18 C2-C11 */
	{"resnet18 c2 3x3 64->64", 56, 56, 64, 64, 3, 1},
	{"resnet18 c3 3x3/2 64->128", 56, 56, 64, 128, 3, 2},
	{"resnet18 c4 1x1/2 64->128", 56, 56, 64, 128, 1, 2},
	{"resnet18 c5 3x3 128->128", 28, 28, 128, 128, 3, 1},
	{"resnet18 c6 3x3/2 128->256", 28, 28, 128, 256, 3, 2},
	{"resnet18 c7 1x1/2 128->256", 28, 28, 128, 256, 1, 2},
	{"resnet18 c8 3x3 256->256", 14, 14, 256, 256, 3, 1},
	{"resnet18 c9 3x3/2 256->512", 14, 14, 256, 512, 3, 2},
	{"resnet18 c10 1x1/2 256->512", 14, 14, 256, 512, 1, 2},
	{"resnet18 c11 3x3 512->512", 7, 7, 512, 512, 3, 1},
	/* a grid of 1x1 layers at 28x28 */
	{"grid 1x1 512->64", 28, 28, 512, 64, 1, 1},
	{"grid 1x1 1024->64", 28, 28, 1024, 64, 1, 1},
	{"grid 1x1 2048->64", 14, 14, 2048, 64, 1, 1},
	{"grid 1x1 1024->16", 28, 28, 1024, 16, 1, 1},
	{"grid 1x1 2048->256", 14, 14, 2048, 256, 1, 1},
	{"grid 1x1 64->1", 56, 56, 64, 1, 1, 1},
	{"grid 1x1 1024->1", 28, 28, 1024, 1, 1, 1},
	{"grid 1x1 64->4", 56, 56, 64, 4, 1, 1},
	{"grid 1x1 1024->4", 28, 28, 1024, 4, 1, 1},
	{"grid 1x1 64->8", 56, 56, 64, 8, 1, 1},
	{"grid 1x1 1024->8", 28, 28, 1024, 8, 1, 1},
	{"grid 3x3 512->8", 14, 14, 512, 8, 3, 1},
	{"grid 3x3 512->16", 14, 14, 512, 16, 3, 1},
	{"grid 1x1 256->4", 28, 28, 256, 4, 1, 1},
	{"grid 1x1 256->8", 28, 28, 256, 8, 1, 1},
	{"grid 1x1 512->8", 28, 28, 512, 8, 1, 1},
};

/* Best seconds of reps runs of one path. */
static double best_of(const vta_conv2d *conv, vta_golden_conv2d_path path, vta_tensor_i8 *out,
		      int reps)
{
	double best = 1e30;
	for (int r = 0; r < reps; r++) {
		vta_error err = {0};
		double t0 = now();
		if (vta_golden_conv2d_by(conv, VTA_ARITH_TFLITE, path, out, NULL, &err) != VTA_OK) {
			fprintf(stderr, "bench_conv2d_paths: %s\n", err.detail);
			exit(1);
		}
		double t = now() - t0;
		best = t < best ? t : best;
	}
	return best;
}

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 5;
	if (reps < 1)
		reps = 1;
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	printf("%-30s %6s %6s %9s %9s %7s %s\n", "layer", "K", "O", "along", "across", "ratio",
	       "rule");
	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		const shape *s = &shapes[i];
		int32_t ho = (s->h + s->stride - 1) / s->stride;
		int32_t wo = (s->w + s->stride - 1) / s->stride;
		size_t nx = (size_t)s->h * s->w * s->c, nf = (size_t)s->o * s->k * s->k * s->c;
		size_t no = (size_t)ho * wo * s->o;
		int8_t *x = malloc(nx), *f = malloc(nf), *o1 = malloc(no), *o2 = malloc(no);
		float *scales = malloc((size_t)s->o * sizeof(float));
		int32_t *bias = malloc((size_t)s->o * sizeof(int32_t));
		if (!x || !f || !o1 || !o2 || !scales || !bias)
			return 1;
		for (size_t j = 0; j < nx; j++)
			x[j] = (int8_t)rng(&seed);
		for (size_t j = 0; j < nf; j++)
			f[j] = (int8_t)((int)(rng(&seed) % 255) - 127);
		for (int32_t c = 0; c < s->o; c++) {
			scales[c] = 0.001f + 0.0001f * (float)(rng(&seed) % 50);
			bias[c] = (int32_t)(rng(&seed) % 2001) - 1000;
		}
		vta_tensor_i8 in = {{1, s->h, s->w, s->c}, 0.0235f, -5, x};
		vta_conv2d conv = {
			.input = &in, .filter = f, .filter_shape = {s->o, s->k, s->k, s->c},
			.filter_scales = scales, .filter_scale_count = (size_t)s->o, .bias = bias,
			.stride_h = s->stride, .stride_w = s->stride, .dilation_h = 1,
			.dilation_w = 1, .padding = VTA_PADDING_SAME, .activation = VTA_ACT_RELU6,
		};
		vta_tensor_i8 out1 = {{1, ho, wo, s->o}, 0.05f, 3, o1}, out2 = out1;
		out2.data = o2;
		double along = best_of(&conv, VTA_GOLDEN_CONV2D_ALONG, &out1, reps);
		double across = best_of(&conv, VTA_GOLDEN_CONV2D_ACROSS, &out2, reps);
		if (memcmp(o1, o2, no) != 0) {
			fprintf(stderr, "bench_conv2d_paths: %s: the two paths differ\n", s->name);
			return 1;
		}
		size_t K = (size_t)s->k * s->k * s->c;
		double gmac = (double)no * (double)K / 1e9;
		printf("%-30s %6zu %6d %9.1f %9.1f %7.2f %s\n", s->name, K, s->o, gmac / along,
		       gmac / across, along / across,
		       vta_golden_conv2d_auto_path(K, (size_t)s->o) == VTA_GOLDEN_CONV2D_ACROSS
			       ? "across"
			       : "along");
		free(x);
		free(f);
		free(o1);
		free(o2);
		free(scales);
		free(bias);
	}
	return 0;
}
