/*
 * bench_resnet_table.c - turn the JSON reports of two `vtasim run` invocations of the
 * ResNet-18 workload (2 virtual threads and 1) into the benchmark table of
 * docs/performance.md, and check the targets:
 *   - summed cycles with 2 threads <= 1.25 x summed roofline cycles;
 *   - on DRAM-bound layers, 1-thread cycles / 2-thread cycles >= 1.15;
 *   - simulation host time / golden kernel host time <= 1.0 (whole workload);
 *   - peak resident memory < 256 MiB.
 * Usage: bench_resnet_table REPORT_2THREADS.json REPORT_1THREAD.json
 */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

static double num(json_t *o, const char *path)
{
	char buf[128];
	snprintf(buf, sizeof(buf), "%s", path);
	json_t *cur = o;
	for (char *tok = strtok(buf, "."); tok && cur; tok = strtok(NULL, "."))
		cur = json_object_get(cur, tok);
	return cur ? json_number_value(cur) : 0.0;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: bench_resnet_table REPORT_2THREADS.json REPORT_1THREAD.json\n");
		return 2;
	}
	json_error_t e;
	json_t *r2 = json_load_file(argv[1], 0, &e), *r1 = json_load_file(argv[2], 0, &e);
	if (!r2 || !r1) {
		fprintf(stderr, "bench_resnet_table: cannot read %s: %s\n", e.source, e.text);
		return 2;
	}
	json_t *l2 = json_object_get(r2, "layers"), *l1 = json_object_get(r1, "layers");
	size_t n = json_array_size(l2);
	if (n == 0 || n != json_array_size(l1)) {
		fprintf(stderr, "bench_resnet_table: the reports do not list the same layers\n");
		return 2;
	}
	printf("%-14s %10s %10s %6s %6s %6s %11s %9s %9s %6s %10s %6s\n", "layer", "cycles",
	       "roofline", "ratio", "bound", "util", "dram_bytes", "sim_s", "golden_s", "s/g",
	       "cycles_1t", "1t/2t");
	double sum_c = 0, sum_roof = 0, sum_sim = 0, sum_gold = 0, worst_dram_speedup = 1e9;
	int dram_layers = 0;
	for (size_t i = 0; i < n; i++) {
		json_t *a = json_array_get(l2, i), *b = json_array_get(l1, i);
		double cyc = num(a, "cycles"), roof = num(a, "roofline_cycles");
		double rc = num(a, "roofline_compute_cycles"), rd = num(a, "roofline_dram_cycles");
		double dram = num(a, "dram.read_bytes.total") + num(a, "dram.write_bytes.total");
		double sim = num(a, "host.wall_seconds"), gold = num(a, "host.golden_seconds");
		double c1 = num(b, "cycles");
		int dram_bound = rd > rc;
		printf("%-14s %10.0f %10.0f %6.2f %6s %5.1f%% %11.0f %9.4f %9.4f %6.2f %10.0f %6.2f\n",
		       json_string_value(json_object_get(a, "name")), cyc, roof, cyc / roof,
		       dram_bound ? "dram" : "gemm", 100.0 * num(a, "gemm_utilization"), dram, sim,
		       gold, sim / gold, c1, c1 / cyc);
		sum_c += cyc;
		sum_roof += roof;
		sum_sim += sim;
		sum_gold += gold;
		if (dram_bound) {
			dram_layers++;
			if (c1 / cyc < worst_dram_speedup)
				worst_dram_speedup = c1 / cyc;
		}
	}
	double c1_total = num(json_object_get(r1, "total"), "cycles");
	double rss = num(json_object_get(r2, "total"), "host.peak_rss_mib");
	printf("%-14s %10.0f %10.0f %6.2f %6s %5.1f%% %11s %9.4f %9.4f %6.2f %10.0f %6.2f\n", "total",
	       sum_c, sum_roof, sum_c / sum_roof, "", 100.0 * num(json_object_get(r2, "total"),
							 "gemm_utilization"),
	       "", sum_sim, sum_gold, sum_sim / sum_gold, c1_total, c1_total / sum_c);
	printf("peak resident memory: %.1f MiB\n\n", rss);

	int ok = 1;
#define TARGET(cond, fmt, ...)                                                                  \
	do {                                                                                    \
		int pass_ = (cond);                                                             \
		ok &= pass_;                                                                    \
		printf("%-5s " fmt "\n", pass_ ? "MET" : "MISS", __VA_ARGS__);                  \
	} while (0)
	TARGET(sum_c <= 1.25 * sum_roof, "cycles / roofline with 2 threads = %.3f (target <= 1.25)",
	       sum_c / sum_roof);
	if (dram_layers)
		TARGET(worst_dram_speedup >= 1.15,
		       "worst 1-thread / 2-thread cycles on the %d DRAM-bound layers = %.3f (target >= 1.15)",
		       dram_layers, worst_dram_speedup);
	TARGET(sum_sim <= sum_gold, "simulation / golden host time = %.3f (target <= 1.0)",
	       sum_sim / sum_gold);
	TARGET(rss < 256.0, "peak resident memory = %.1f MiB (target < 256)", rss);
	json_decref(r1);
	json_decref(r2);
	return ok ? 0 : 1;
}
