/*
 * bench_plan.c - the CONV2D plan chooser alone: CPU time to choose the plans of ResNet-18
 * C2-C11 (configs/workloads/resnet18.yaml: TFLite requantization, 3 constant rows, 3 tensor
 * and 3 immediate ALU ops per element, as the emitter asks for them) without the rest of a
 * run, and the plans chosen, so two builds can be compared plan for plan.
 *
 * usage: bench_plan [CONFIG [THREADS [REPETITIONS]]]   (configs/default.yaml, 2, 20)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "tiling.h"
#include "vta_config.h"

/* input H = W, C; output channels, filter K x K, stride; SAME (1) or VALID (0) padding */
static const int layers[10][6] = {
	{56, 64, 64, 3, 1, 1},   {56, 64, 128, 3, 2, 1},  {56, 64, 128, 1, 2, 0},
	{28, 128, 128, 3, 1, 1}, {28, 128, 256, 3, 2, 1}, {28, 128, 256, 1, 2, 0},
	{14, 256, 256, 3, 1, 1}, {14, 256, 512, 3, 2, 1}, {14, 256, 512, 1, 2, 0},
	{7, 512, 512, 3, 1, 1},
};

static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void geom(const vta_config *cfg, const int *l, vta_conv_geom *g)
{
	*g = (vta_conv_geom){.n = 1, .h = l[0], .w = l[0], .c = l[1], .o = l[2], .kh = l[3],
			     .kw = l[3], .groups = 1, .sh = l[4], .sw = l[4], .dh = 1, .dw = 1};
	g->ho = g->wo = l[5] ? (l[0] + l[4] - 1) / l[4] : (l[0] - l[3]) / l[4] + 1;
	vta_conv_geom_derive(cfg, g);
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "configs/default.yaml";
	const unsigned threads = argc > 2 ? (unsigned)atoi(argv[2]) : 2;
	int reps = argc > 3 ? atoi(argv[3]) : 20;
	if (reps < 1)
		reps = 1;
	vta_config cfg;
	vta_error err = {0};
	if (vta_config_load(path, &cfg, &err) != VTA_OK) {
		fprintf(stderr, "bench_plan: %s\n", err.detail);
		return 2;
	}
	vta_conv_plan p[10];
	double best = 1e30;
	for (int r = 0; r < reps; r++) {
		const double t0 = cpu_now();
		for (int i = 0; i < 10; i++) {
			vta_conv_geom g;
			geom(&cfg, layers[i], &g);
			if (vta_conv_plan_choose(&cfg, &g, threads, 3, 3, 3, "c", &p[i], &err)) {
				fprintf(stderr, "bench_plan: %s\n", err.detail);
				return 2;
			}
		}
		const double t = cpu_now() - t0;
		best = t < best ? t : best;
	}
	for (int i = 0; i < 10; i++)
		printf("C%d rows %u chunk_blocks %u group_blocks %u load_blocks %u order %s slots "
		       "%u/%u/%u constants %s est_cycles %llu\n",
		       i + 2, p[i].th, p[i].ncb, p[i].nob, p[i].nobw,
		       p[i].rows_outer ? "rows" : "groups", p[i].s_inp, p[i].s_wgt, p[i].s_acc,
		       p[i].const_all ? "all" : "group", (unsigned long long)p[i].est_cycles);
	printf("choose_seconds %.6f cpu, best of %d (10 plans)\n", best, reps);
	return 0;
}
