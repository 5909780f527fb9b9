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
 * usage: bench_run_split VTASIM CONFIG WORKLOAD THREADS   (exit 2 on an error)
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

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: bench_run_split VTASIM CONFIG WORKLOAD THREADS\n");
		return 2;
	}
	char *run_argv[] = {argv[1], "run", "-c", argv[2], "-w", argv[3], "--threads", argv[4],
			    NULL};
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
	vta_status st = vta_config_load(argv[2], &cfg, &err);
	if (!st && !(st = vta_workload_load(argv[3], &wl, &err))) {
		if (!(st = vtasim_sim_create(&cfg, &sim, &err))) {
			te.inner = vtasim_engine(sim);
			for (size_t i = 0; !st && i < wl.n_layers; i++) {
				vta_layer_run_opts o = {.mode = VTA_ARITH_TFLITE,
							.threads = (unsigned)atoi(argv[4]),
							.fault_index = -1, .golden_cache = &gc};
				vta_layer_result r;
				st = vta_layer_run(&cfg, &wl.layers[i], &te.base, &o, &r, &err);
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
	return 0;
}
