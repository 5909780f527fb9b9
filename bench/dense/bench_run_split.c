/*
 * bench_run_split.c - a whole `vtasim run` and the simulation inside it, timed apart, for the
 * comparison with the dense convolution (scripts/bench.sh, docs/performance.md):
 *   - whole: the vtasim command itself (fork, exec, wait), everything it does: parsing,
 *     materialising the tensors, golden kernels, planning and emitting, the stream checks,
 *     the simulation, the bit-exact check and the report. Its exit status must be 0 (every
 *     layer bit-exact).
 *   - sim: the same layers through the same pipeline in this process, the time spent inside
 *     the SystemC engine's run alone (an engine wrapped to time its calls).
 * Each is given as wall seconds and as CPU seconds (user + system), the latter steadier on a
 * shared machine.
 *
 * A .tflite model in place of the workload runs as `vtasim run -m` (seed 1, as the command's
 * default): the simulation alone is then that of the model's accelerated operators, and
 * `macs` their useful multiply-accumulates, which the dense convolution's rate prices.
 *
 * usage: bench_run_split VTASIM CONFIG WORKLOAD|MODEL.tflite THREADS   (exit 2 on an error)
 *        bench_run_split --floor VTASIM
 * The second form times `vtasim --version` as a whole process: the floor every run stands
 * on (the dynamic libraries loaded and bound, libsystemc's start-up), with nothing run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include "bench_host.h"
#include "layer_run.h"
#include "stream_memo.h"
#include "model_run.h"
#include "vtasim_api.h"

static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The SystemC engine with its calls timed. */
typedef struct timed_engine {
	vta_engine base; /* first: the pipeline hands it back */
	vta_engine *inner;
	double wall, cpu;
} timed_engine;

static vta_status timed_run(vta_engine *self, const vta_program *prog, vta_dram *dram,
			    vta_run_stats *stats, vta_error *err)
{
	timed_engine *t = (timed_engine *)self;
	double w0 = now(), c0 = cpu_now();
	vta_status st = t->inner->run(t->inner, prog, dram, stats, err);
	t->cpu += cpu_now() - c0;
	t->wall += now() - w0;
	return st;
}

/* The model through the model runner, as `vtasim run -m` runs it, on the timed engine. */
static vta_status run_model(const vta_config *cfg, const char *path, unsigned threads,
			    timed_engine *te, uint64_t *macs, vta_error *err)
{
	vta_tfl_model m;
	vtasim_sim *sim = NULL;
	vta_dram dram = {0};
	vta_model_run run;
	memset(&run, 0, sizeof(run));
	vta_conv_plan_cache *plans = vta_conv_plan_cache_new();
	vta_stream_memo *memo = vta_stream_memo_new(cfg);
	vta_status st = vta_tfl_model_load(path, &m, err);
	if (!st && (!plans || !memo))
		st = vta_fail(err, VTA_E_NOMEM, "out of memory");
	if (!st)
		st = vtasim_sim_create(cfg, &sim, err);
	if (!st)
		st = vta_dram_init(&dram, (uint64_t)cfg->dram_size_mib << 20, err);
	if (!st) {
		te->inner = vtasim_engine(sim);
		vta_model_run_opts mo = {.layer = {.mode = VTA_ARITH_TFLITE, .threads = threads,
						   .fault_index = -1, .plans = plans,
						   .memo = memo, .dram = &dram},
					 .seed = 1};
		st = vta_model_run_model(cfg, &m, &te->base, &mo, &run, err);
		for (size_t i = 0; !st && i < run.n_ops; i++)
			if (run.ops[i].place == VTA_OP_ACCEL && !run.ops[i].skipped)
				*macs += run.ops[i].layer.counters.macs;
	}
	vta_model_run_free(&run);
	vta_dram_free(&dram);
	vta_conv_plan_cache_free(plans);
	vta_stream_memo_free(memo);
	vtasim_sim_destroy(sim);
	vta_tfl_model_free(&m);
	return st;
}

static double children_cpu(void)
{
	struct rusage ru;
	getrusage(RUSAGE_CHILDREN, &ru);
	return (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
	       (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
}

static int whole_run(char **argv, double *wall, double *cpu)
{
	double w0 = now(), c0 = children_cpu();
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		if (null >= 0)
			dup2(null, STDOUT_FILENO);
		execv(argv[0], argv);
		_exit(127);
	}
	int status;
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	*wall = now() - w0;
	*cpu = children_cpu() - c0;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* `vtasim --version`, the process floor, printed as floor_seconds. */
static int floor_run(char *vtasim)
{
	char *argv[] = {vtasim, "--version", NULL};
	double wall, cpu;
	if (whole_run(argv, &wall, &cpu)) {
		fprintf(stderr, "bench_run_split: %s --version failed\n", vtasim);
		return 2;
	}
	printf("floor_seconds %.5f cpu %.5f\n", wall, cpu);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--floor"))
		return floor_run(argv[2]);
	if (argc != 5) {
		fprintf(stderr, "usage: bench_run_split VTASIM CONFIG WORKLOAD THREADS\n"
				"       bench_run_split --floor VTASIM\n");
		return 2;
	}
	size_t len = strlen(argv[3]);
	const bool model = len > 7 && !strcmp(argv[3] + len - 7, ".tflite");
	char *run_argv[] = {argv[1], "run", "-c", argv[2], model ? "-m" : "-w", argv[3],
			    "--threads", argv[4], NULL};
	double whole_wall, whole_cpu;
	int rc = whole_run(run_argv, &whole_wall, &whole_cpu);
	if (rc) {
		fprintf(stderr, "bench_run_split: %s run failed (status %d)\n", argv[1], rc);
		return 2;
	}

	vta_config cfg;
	vta_workload wl;
	vtasim_sim *sim = NULL;
	vta_error err = {0};
	vta_golden_cache gc;
	vta_golden_cache_memory(&gc);
	timed_engine te = {.base = {.name = "sim", .timed = true, .run = timed_run}};
	uint64_t macs = 0;
	vta_status st = vta_config_load(argv[2], &cfg, &err);
	if (!st && model)
		st = run_model(&cfg, argv[3], (unsigned)atoi(argv[4]), &te, &macs, &err);
	else if (!st && !(st = vta_workload_load(argv[3], &wl, &err))) {
		if (!(st = vtasim_sim_create(&cfg, &sim, &err))) {
			te.inner = vtasim_engine(sim);
			for (size_t i = 0; !st && i < wl.n_layers; i++) {
				vta_layer_run_opts o = {.mode = VTA_ARITH_TFLITE,
							.threads = (unsigned)atoi(argv[4]),
							.fault_index = -1, .golden_cache = &gc};
				vta_layer_result r;
				st = vta_layer_run(&cfg, &wl.layers[i], &te.base, &o, &r, &err);
				macs += r.counters.macs;
			}
		}
		vtasim_sim_destroy(sim);
		vta_workload_free(&wl);
	}
	vta_golden_cache_close(&gc);
	if (st) {
		fprintf(stderr, "bench_run_split: %s\n", err.detail);
		return 2;
	}
	printf("whole_seconds %.5f cpu %.5f\n", whole_wall, whole_cpu);
	printf("sim_seconds %.5f cpu %.5f\n", te.wall, te.cpu);
	printf("macs %llu\n", (unsigned long long)macs);
	return 0;
}
