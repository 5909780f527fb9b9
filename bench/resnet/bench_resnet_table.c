/*
 * bench_resnet_table.c - run the ResNet-18 workload through the runtime's pipeline on the
 * SystemC model twice (2 virtual threads and 1), print the benchmark table of
 * docs/performance.md, and check the targets:
 *   - summed cycles with 2 threads <= 1.10 x summed roofline cycles (vta_cost_roofline);
 *   - on DRAM-bound layers, 1-thread cycles / 2-thread cycles >= 1.15;
 *   - peak resident memory < 256 MiB.
 * Usage: bench_resnet_table CONFIG WORKLOAD
 *
 * With two `vtasim run -o` reports instead (bench_resnet_table A.json B.json) it compares
 * them: what differs between the runs, then the layers side by side (report_cmp.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "layer_run.h"
#include "report_cmp.h"
#include "vtasim_api.h"

static double dram_bytes(const vta_run_stats *s)
{
	uint64_t b = s->dram_insn_bytes + s->dram_write_bytes;
	for (int m = 0; m < VTA_MEM_COUNT; m++)
		if (m != VTA_MEM_OUT)
			b += s->dram_read_bytes[m];
	return (double)b;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: bench_resnet_table CONFIG WORKLOAD | bench_resnet_table "
				"A.json B.json\n");
		return 2;
	}
	size_t la = strlen(argv[1]), lb = strlen(argv[2]);
	if (la > 5 && lb > 5 && !strcmp(argv[1] + la - 5, ".json") &&
	    !strcmp(argv[2] + lb - 5, ".json"))
		return report_cmp(argv[1], argv[2], stdout);
	vta_config cfg;
	vta_workload wl;
	vtasim_sim *sim = NULL;
	vta_error err = {0};
	vta_layer_result *r[2] = {NULL, NULL}; /* 2 virtual threads, then 1 */
	size_t n = 0;
	vta_status st = vta_config_load(argv[1], &cfg, &err);
	if (!st && !(st = vta_workload_load(argv[2], &wl, &err))) {
		n = wl.n_layers;
		r[0] = calloc(n ? n : 1, sizeof(**r));
		r[1] = calloc(n ? n : 1, sizeof(**r));
		st = !r[0] || !r[1] ? vta_fail(&err, VTA_E_NOMEM, "out of memory")
				    : vtasim_sim_create(&cfg, &sim, &err);
		/* the 1-thread pass reuses the 2-thread pass's golden outputs */
		vta_golden_cache gc;
		vta_golden_cache_memory(&gc);
		for (size_t k = 0; !st && k < 2 * n; k++) {
			vta_layer_run_opts o = {.mode = VTA_ARITH_TFLITE, .threads = 2 - k / n,
						.fault_index = -1, .golden_cache = &gc};
			st = vta_layer_run(&cfg, &wl.layers[k % n], vtasim_engine(sim), &o,
					   &r[k / n][k % n], &err);
		}
		vta_golden_cache_close(&gc);
		vtasim_sim_destroy(sim);
		vta_workload_free(&wl);
	}
	vta_layer_result *r2 = r[0], *r1 = r[1];
	if (st || n == 0) {
		fprintf(stderr, "bench_resnet_table: %s\n", st ? err.detail : "no layers");
		free(r2);
		free(r1);
		return 2;
	}
	printf("%-14s %10s %10s %6s %6s %6s %11s %9s %9s %6s %10s %6s\n", "layer", "cycles",
	       "roofline", "ratio", "bound", "util", "dram_bytes", "sim_s", "golden_s", "s/g",
	       "cycles_1t", "1t/2t");
	double sum_c = 0, sum_roof = 0, sum_sim = 0, sum_gold = 0, sum_c1 = 0, worst = 1e9;
	uint64_t sum_macs = 0;
	int dram_layers = 0;
	for (size_t i = 0; i < n; i++) {
		const vta_layer_result *a = &r2[i];
		vta_roofline rl = vta_layer_roofline(&cfg, a);
		double cyc = (double)a->stats.cycles, roof = (double)rl.roofline_cycles;
		double sim_s = a->stats.host_seconds, gold = a->golden_seconds;
		double c1 = (double)r1[i].stats.cycles;
		int dram_bound = rl.bound == VTA_BOUND_DRAM;
		printf("%-14s %10.0f %10.0f %6.2f %6s %5.1f%% %11.0f %9.4f %9.4f %6.2f %10.0f %6.2f\n",
		       a->name, cyc, roof, cyc / roof, vta_bound_name(rl.bound),
		       100.0 * a->stats.gemm_utilization, dram_bytes(&a->stats), sim_s, gold,
		       sim_s / gold, c1, c1 / cyc);
		sum_c += cyc;
		sum_roof += roof;
		sum_sim += sim_s;
		sum_gold += gold;
		sum_c1 += c1;
		sum_macs += a->stats.macs;
		if (dram_bound) {
			dram_layers++;
			if (c1 / cyc < worst)
				worst = c1 / cyc;
		}
	}
	/* the workload's GEMM utilization, as vtasim run's total reports it */
	uint64_t uops = sum_macs / ((uint64_t)cfg.batch * cfg.block_in * cfg.block_out);
	double util = sum_c > 0 ? (double)(uops * cfg.gemm_ii) / sum_c : 0.0;
	struct rusage ru;
	double rss = getrusage(RUSAGE_SELF, &ru) == 0 ? (double)ru.ru_maxrss / 1024.0 : 0.0;
	printf("%-14s %10.0f %10.0f %6.2f %6s %5.1f%% %11s %9.4f %9.4f %6.2f %10.0f %6.2f\n", "total",
	       sum_c, sum_roof, sum_c / sum_roof, "", 100.0 * util, "", sum_sim, sum_gold,
	       sum_sim / sum_gold, sum_c1, sum_c1 / sum_c);
	printf("peak resident memory: %.1f MiB\n\n", rss);

	int ok = 1;
#define TARGET(cond, fmt, ...)                                                                  \
	do {                                                                                    \
		int pass_ = (cond);                                                             \
		ok &= pass_;                                                                    \
		printf("%-5s " fmt "\n", pass_ ? "MET" : "MISS", __VA_ARGS__);                  \
	} while (0)
	TARGET(sum_c <= 1.10 * sum_roof, "cycles / roofline with 2 threads = %.3f (target <= 1.10)",
	       sum_c / sum_roof);
	if (dram_layers)
		TARGET(worst >= 1.15,
		       "worst 1-thread / 2-thread cycles on the %d DRAM-bound layers = %.3f (target >= 1.15)",
		       dram_layers, worst);
	/* the golden kernels are now a vectorized convolution: the simulation's yardstick is
	 * the host's dense convolution (bench/dense/ratio.sh), this ratio only informs */
	printf("info  simulation / golden host time = %.3f\n", sum_sim / sum_gold);
	TARGET(rss < 256.0, "peak resident memory = %.1f MiB (target < 256)", rss);
	free(r2);
	free(r1);
	return ok ? 0 : 1;
}
