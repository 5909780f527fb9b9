/*
 * cmd_sweep.c - `vtasim sweep`: run a design-space sweep (docs/sweep.md). The phases: read
 * the sweep file and resolve its points; compute each layer's golden output once into the
 * cache (a child per layer, -j at a time); run the points not finished before, each in its
 * own child process (sweep_jobs.c); write the results table, the plots and index.html.
 * --emit writes the same sweep as a Slurm array job or a GNU parallel job list of shards,
 * and --merge gathers the shards' records into one result.
 */
#define _DEFAULT_SOURCE /* realpath */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "json_read.h"
#include "layer_run.h"
#include "sweep.h"
#include "vta_text.h"

const char cmd_sweep_usage[] =
	"sweep SWEEP.yaml [-o DIR] [-j N] [--timeout SECONDS] [--retry-errors] [--list] "
	"[--shard K/N] [--golden DIR] [--no-plots] [--emit slurm|parallel [--shards N | "
	"--shard-minutes M] [--sbatch-arg OPTION]...] | "
	"sweep --merge DIR | sweep --compare DIR1 DIR2 [--threshold PCT]";

const cli_opt cmd_sweep_opts[] = {
	{"output", 'o', 'o', "DIR", "where everything goes (default sweep-NAME); rerunning into DIR resumes"},
	{"jobs", 'j', 'j', "N", "points at a time, each in its own process; default the number of CPUs"},
	{"timeout", 0, 't', "SECONDS", "per point (default the file's timeout, else 600)"},
	{"retry-errors", 0, 'r', NULL, "also rerun points whose row is error or mismatch"},
	{"list", 0, 'l', NULL, "print the points and stop"},
	{"shard", 0, 's', "K/N", "run only the points at positions K, K+N, K+2N, ..."},
	{"golden", 0, 'g', "DIR", "the golden-output cache (default DIR/golden)"},
	{"no-plots", 0, 'P', NULL, "write the plots' data and scripts but do not run gnuplot"},
	{"emit", 0, 'e', "slurm|parallel", "write a Slurm array job or a GNU parallel job list instead"},
	{"shards", 0, 'n', "N", "with --emit: how many shards (default: sized from points run here)"},
	{"shard-minutes", 0, 'M', "M", "with --emit: what a sized shard should take (default 10)"},
	{"sbatch-arg", 0, 'S', "OPTION", "with --emit slurm: one more #SBATCH line in every job"},
	{"merge", 0, 'm', "DIR", "gather the shards' records into DIR's results, plots and page"},
	{"compare", 0, 'C', "DIR1", "compare sweep DIR1 with DIR2 (the argument) point by point"},
	{"threshold", 0, 'T', "PCT", "with --compare: exit 1 when a value moved by more than PCT%"},
	CLI_OPT_END};

typedef struct sweep_opts {
	const char *file, *dir, *golden, *emit, *merge;
	const char *compare[2];  /* --compare DIR1 DIR2 */
	double threshold;        /* --compare: the gate in percent, or < 0 */
	int jobs;
	bool jobs_given;
	double timeout_s; /* 0: the file's */
	bool retry_errors, list, no_plots;
	size_t shard_k, shard_n; /* --shard K/N; shard_n 0: all points */
	size_t shards;           /* --emit: how many (0: sized from sampled points) */
	double shard_minutes;    /* --emit: what a shard aims to take when sized */
	bool shard_minutes_given;
	const char *sbatch_args[SW_MAX_SBATCH_ARGS];
	size_t n_sbatch_args;
} sweep_opts;

/* Set by SIGINT/SIGTERM: the one piece of process state a signal handler may write. */
static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static int parse_count(const char *what, const char *arg, long lo, long hi, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(arg, &end, 10);
	if (end == arg || *end || errno || v < lo || v > hi)
		return cli_usage_error("%s '%s': expected a number %ld..%ld", what, VTA_Q(arg), lo,
				       hi);
	*out = v;
	return 0;
}

static int parse_opts(int argc, char **argv, sweep_opts *o)
{
	cli_getopt g;
	cli_getopt_make(cmd_sweep_opts, &g);
	memset(o, 0, sizeof(*o));
	o->shard_minutes = SW_SHARD_MINUTES;
	o->threshold = -1;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	o->jobs = ncpu > 0 ? (int)(ncpu < 256 ? ncpu : 256) : 1;
	int c, rc;
	long v;
	if (cli_help_asked(argc, argv, g.shortopts, g.longopts))
		return cli_command_help(argv[0]);
	optind = 1;
	while ((c = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
		switch (c) {
		case 'o': o->dir = optarg; break;
		case 'j':
			if ((rc = parse_count("-j", optarg, 1, 256, &v)))
				return rc;
			o->jobs = (int)v;
			o->jobs_given = true;
			break;
		case 't': {
			char *end;
			double t = strtod(optarg, &end);
			if (end == optarg || *end || !(t > 0) || t > 1e6)
				return cli_usage_error("--timeout '%s': expected seconds (0..1e6]",
						       VTA_Q(optarg));
			o->timeout_s = t;
			break;
		}
		case 'r': o->retry_errors = true; break;
		case 'l': o->list = true; break;
		case 's': {
			unsigned long k, n;
			char tail;
			if (sscanf(optarg, "%lu/%lu%c", &k, &n, &tail) != 2 || n == 0 || k >= n ||
			    n > SW_MAX_POINTS)
				return cli_usage_error("--shard '%s': expected K/N with 0 <= K < N",
						       VTA_Q(optarg));
			o->shard_k = k;
			o->shard_n = n;
			break;
		}
		case 'g': o->golden = optarg; break;
		case 'P': o->no_plots = true; break;
		case 'e':
			if (strcmp(optarg, "slurm") && strcmp(optarg, "parallel"))
				return cli_usage_error("--emit '%s': expected slurm or parallel",
						       VTA_Q(optarg));
			o->emit = optarg;
			break;
		case 'n':
			if ((rc = parse_count("--shards", optarg, 1, SW_MAX_POINTS, &v)))
				return rc;
			o->shards = (size_t)v;
			break;
		case 'M': {
			char *end;
			double m = strtod(optarg, &end);
			if (end == optarg || *end || !(m > 0) || m > 1e5)
				return cli_usage_error("--shard-minutes '%s': expected minutes "
						       "(0..1e5]", VTA_Q(optarg));
			o->shard_minutes = m;
			o->shard_minutes_given = true;
			break;
		}
		case 'S':
			if (o->n_sbatch_args == SW_MAX_SBATCH_ARGS)
				return cli_usage_error("more than %d --sbatch-arg options",
						       SW_MAX_SBATCH_ARGS);
			o->sbatch_args[o->n_sbatch_args++] = optarg;
			break;
		case 'm': o->merge = optarg; break;
		case 'C': o->compare[0] = optarg; break;
		case 'T': {
			char *end;
			o->threshold = strtod(optarg, &end);
			if (end == optarg || *end || !(o->threshold >= 0) || o->threshold > 1e9)
				return cli_usage_error("--threshold '%s': expected a percentage >= 0",
						       VTA_Q(optarg));
			break;
		}
		default: return cli_bad_option(c, argv);
		}
	}
	if (o->compare[0]) {
		if (optind != argc - 1 || o->merge || o->emit || o->list || o->shard_n)
			return cli_usage_error("usage: vtasim sweep --compare DIR1 DIR2 "
					       "[--threshold PCT]");
		o->compare[1] = argv[optind];
		return 0;
	}
	if (o->threshold >= 0)
		return cli_usage_error("--threshold is for --compare");
	if (o->merge) {
		if (optind != argc || o->emit || o->list || o->shard_n)
			return cli_usage_error("--merge DIR takes no sweep file and no other mode");
		return 0;
	}
	if (optind < argc - 1)
		return cli_unexpected("sweep", argv[optind + 1]);
	if (optind == argc)
		return cli_missing("sweep", "sweep file", "SWEEP.yaml");
	o->file = argv[optind];
	if (o->emit && (!o->dir || o->shard_n))
		return cli_usage_error("--emit %s needs -o DIR (and no --shard)", o->emit);
	if (o->shards && !o->emit)
		return cli_usage_error("--shards is for --emit");
	if (o->shard_minutes_given && !o->emit)
		return cli_usage_error("--shard-minutes is for --emit");
	if (o->shards && o->shard_minutes_given)
		return cli_usage_error("--shards N or --shard-minutes M, not both");
	if (o->n_sbatch_args && (!o->emit || strcmp(o->emit, "slurm")))
		return cli_usage_error("--sbatch-arg is for --emit slurm");
	return 0;
}

/* ---------- the run ---------- */

typedef struct run_ctx {
	const sweep *sw;
	const sw_point *points;
	const sweep_opts *o;
	char dir[SW_PATH_MAX], records[SW_PATH_MAX + 16];
	vta_golden_cache gc;
	bool tty;
	/* golden phase: one unit per (layer, lut_bits, mode) */
	size_t *unit_point, *unit_layer;
	size_t n_units, computed, gfailed;
	/* point phase */
	size_t n_todo, done, failed;
	double t0, timeout_s;
	double sample_seconds; /* --emit: the sampled points' time */
} run_ctx;

static void path_of(const run_ctx *r, const char *key, const char *ext, char *out, size_t size)
{
	snprintf(out, size, "%s/%s%s", r->records, key, ext);
}

/* Remove what a killed child left half written in dir: its files "*.tmp.PID". */
static void remove_partial(const char *dir, long pid)
{
	char suffix[32];
	snprintf(suffix, sizeof(suffix), ".tmp.%ld", pid);
	const size_t sn = strlen(suffix);
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (n > sn && !strcmp(e->d_name + n - sn, suffix)) {
			char path[SW_PATH_MAX + 300];
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			unlink(path);
		}
	}
	if (d)
		closedir(d);
}

/* A point's record if it checks (sweep_record_check), else NULL; `note`: say why a record
 * that is there is not trusted (the point then runs again). */
static json_t *checked_record(const run_ctx *r, const char *key, bool note)
{
	char path[SW_PATH_MAX + 100], why[128];
	path_of(r, key, ".json", path, sizeof(path));
	if (access(path, F_OK) != 0)
		return NULL;
	vta_error e = {0};
	json_t *rec = report_json_load(path, &e);
	if (!rec) {
		if (note)
			cli_note("%s; the point runs again", e.detail);
		return NULL;
	}
	if (sweep_record_check(rec, key, r->sw->wl_hash, why, sizeof(why)))
		return rec;
	if (note)
		cli_note("%s: %s; the point runs again", VTA_QPATH(path), why);
	json_decref(rec);
	return NULL;
}

/* A record's status ("" when there is none that checks). */
static void record_status(const run_ctx *r, const char *key, char *status, size_t size,
			  long long *cycles, bool note)
{
	json_t *rec = checked_record(r, key, note);
	snprintf(status, size, "%s", rec ? json_string_value(json_object_get(rec, "status")) : "");
	if (cycles) {
		json_t *c = json_object_get(json_object_get(rec, "total"), "cycles");
		*cycles = c ? (long long)json_integer_value(c) : -1;
	}
	json_decref(rec);
}

/* Discard the golden cache's entries that do not check (they are computed again), and say
 * so: a damaged golden output must not pass for the simulator's mismatch. */
static void scrub_goldens(const vta_golden_cache *gc)
{
	char first[128];
	const size_t n = vta_golden_cache_scrub(gc, first, sizeof(first));
	if (n)
		cli_note("golden cache %s: %zu entr%s did not check (%s%s) and %s discarded; "
			 "computed again", VTA_QPATH(gc->dir), n, n == 1 ? "y" : "ies", first,
			 n > 1 ? ", ..." : "", n == 1 ? "is" : "are");
}

/* The golden phase's child: the layer's golden outputs into the cache. Exit status 0 when
 * they were there, 1 when it computed them, 2 when it failed (the points will say why). */
static int golden_child(void *vctx, size_t unit)
{
	run_ctx *r = vctx;
	if (r->sw->wl.is_model) /* one unit: the model's all-host run */
		return sweep_model_reference(r->sw, &r->gc);
	const sw_point *p = &r->points[r->unit_point[unit]];
	size_t n = 0;
	vta_error err = {0};
	vta_wl_layer *layers = sweep_point_layers(r->sw, p, &n, &err);
	bool computed = false;
	vta_status st = layers ? VTA_OK : err.status;
	for (size_t i = 0; !st && i < n; i++) {
		if (strcmp(layers[i].name, r->sw->wl.layers[r->unit_layer[unit]].name))
			continue;
		vta_layer_run_opts o = {.mode = p->mode, .threads = p->threads, .fault_index = -1,
					.golden_cache = &r->gc};
		st = vta_layer_golden_prepare(&layers[i], &o, &computed, &err);
	}
	free(layers);
	return st ? 2 : computed ? 1 : 0;
}

static void golden_done(void *vctx, size_t unit, const sw_job_end *e)
{
	run_ctx *r = vctx;
	(void)unit;
	if (e->interrupted) {
		remove_partial(r->gc.dir, e->pid);
		return;
	}
	if (e->exit_status == 1 && !e->signal && !e->timed_out)
		r->computed++;
	else if (e->exit_status != 0 || e->signal || e->timed_out)
		r->gfailed++;
}

/* Distinct goldens the points to run need: each (layer, lut_bits, mode) once. */
static vta_status golden_units(run_ctx *r, const size_t *todo, size_t n_todo, vta_error *err)
{
	const sweep *sw = r->sw;
	const size_t cap = n_todo * sw->wl.n_layers + 1;
	r->unit_point = calloc(cap, sizeof(size_t));
	r->unit_layer = calloc(cap, sizeof(size_t));
	if (!r->unit_point || !r->unit_layer)
		return vta_fail(err, VTA_E_NOMEM, "out of memory");
	if (sw->wl.is_model) {
		/* the model's all-host reference: the same at every point */
		r->unit_point[0] = todo[0];
		r->n_units = 1;
		return VTA_OK;
	}
	for (size_t t = 0; t < n_todo; t++) {
		const sw_point *p = &r->points[todo[t]];
		for (size_t l = 0; l < sw->wl.n_layers; l++) {
			if (!p->layer_on[l])
				continue;
			bool seen = false;
			for (size_t u = 0; u < r->n_units && !seen; u++) {
				const sw_point *q = &r->points[r->unit_point[u]];
				seen = r->unit_layer[u] == l && q->lut_bits == p->lut_bits &&
				       q->mode == p->mode;
			}
			if (!seen) {
				r->unit_point[r->n_units] = todo[t];
				r->unit_layer[r->n_units++] = l;
			}
		}
	}
	return VTA_OK;
}

/* Every golden output the points `todo` read, into the cache: a child per layer output,
 * -j at a time. Returns 0 or an exit status after printing. */
static int prepare_goldens(run_ctx *r, const size_t *todo, size_t n_todo, double timeout)
{
	vta_error err = {0};
	if (!n_todo)
		return 0;
	if (golden_units(r, todo, n_todo, &err))
		return cli_report_error(&err);
	size_t *units = calloc(r->n_units + 1, sizeof(*units));
	if (!units)
		return cli_usage_error("out of memory");
	for (size_t u = 0; u < r->n_units; u++)
		units[u] = u;
	const double g0 = vta_host_now();
	sw_jobs gj = {r->o->jobs, timeout, golden_child, golden_done, NULL, r, &stop_signal};
	sweep_jobs_run(&gj, units, r->n_units);
	free(units);
	if (r->sw->wl.is_model)
		printf("goldens: the model's all-host reference run, %s (%.1f s)\n",
		       r->gfailed ? "failed (the points will say why)"
		       : r->computed ? "computed" : "cached",
		       vta_host_now() - g0);
	else
		printf("goldens: %zu layer output%s, %zu computed, %zu cached%s (%.1f s)\n",
		       r->n_units, r->n_units == 1 ? "" : "s", r->computed,
		       r->n_units - r->computed - r->gfailed,
		       r->gfailed ? ", the others failed (their points will say why)" : "",
		       vta_host_now() - g0);
	fflush(stdout);
	return 0;
}

static int point_child(void *vctx, size_t i)
{
	run_ctx *r = vctx;
	const sw_point *p = &r->points[i];
	char path[SW_PATH_MAX + 100];
	path_of(r, p->key, ".stderr", path, sizeof(path));
	/* what the child says beyond its record, for the parent to quote if it dies */
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (fd >= 0) {
		dup2(fd, STDERR_FILENO);
		close(fd);
	}
	int devnull = open("/dev/null", O_WRONLY);
	if (devnull >= 0) {
		dup2(devnull, STDOUT_FILENO);
		close(devnull);
	}
	return sweep_point_run(r->sw, p, r->records, &r->gc);
}

/* The first line of a child's stderr, or "". */
static void first_line(const char *path, char *out, size_t size)
{
	out[0] = '\0';
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(out, (int)size, f))
		out[strcspn(out, "\n")] = '\0';
	fclose(f);
	const char *prefix = "vtasim: error: ";
	if (!strncmp(out, prefix, strlen(prefix)))
		memmove(out, out + strlen(prefix), strlen(out) - strlen(prefix) + 1);
}

static void format_eta(double s, char *out, size_t size)
{
	long t = (long)(s + 0.5);
	if (t >= 3600)
		snprintf(out, size, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(out, size, "%ld:%02ld", t / 60, t % 60);
}

static void progress_bar(run_ctx *r)
{
	if (!r->tty)
		return;
	const double el = vta_host_now() - r->t0;
	char elapsed[32], eta[32] = "?";
	format_eta(el, elapsed, sizeof(elapsed));
	if (r->done)
		format_eta(el / (double)r->done * (double)(r->n_todo - r->done), eta, sizeof(eta));
	const int width = 30;
	int fill = r->n_todo ? (int)(width * r->done / r->n_todo) : width;
	char bar[64];
	for (int i = 0; i < width; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[width] = '\0';
	printf("\r[%s] %zu/%zu points, %zu failed, %s elapsed, ETA %s \033[K", bar, r->done,
	       r->n_todo, r->failed, elapsed, eta);
	fflush(stdout);
}

static void point_tick(void *vctx)
{
	progress_bar(vctx);
}

static void point_done(void *vctx, size_t i, const sw_job_end *e)
{
	run_ctx *r = vctx;
	const sw_point *p = &r->points[i];
	char err_path[SW_PATH_MAX + 100], why[VTA_ERROR_DETAIL_MAX], msg[VTA_ERROR_DETAIL_MAX + 64];
	path_of(r, p->key, ".stderr", err_path, sizeof(err_path));
	first_line(err_path, why, sizeof(why));
	unlink(err_path);
	if (e->interrupted) {
		/* the partial point is discarded: its record, if any, was never renamed */
		remove_partial(r->records, e->pid);
		return;
	}
	const char *failure = NULL;
	if (e->timed_out) {
		failure = "timeout";
		snprintf(msg, sizeof(msg), "timed out after %g s", r->timeout_s);
	} else if (e->signal) {
		failure = "crash";
		snprintf(msg, sizeof(msg), "killed by signal %d (%s)%s%s", e->signal,
			 strsignal(e->signal), why[0] ? ": " : "", why);
	} else if (e->exit_status) {
		failure = "crash";
		snprintf(msg, sizeof(msg), "exited with status %d%s%s", e->exit_status,
			 why[0] ? ": " : "", why);
	}
	vta_error err = {0};
	if (failure && sweep_record_failure(r->records, p->key, r->sw->wl_hash, failure, msg, e->seconds, &err))
		fprintf(stderr, "vtasim: error: %s\n", err.detail);
	char status[32];
	long long cycles = -1;
	record_status(r, p->key, status, sizeof(status), &cycles, false);
	r->done++;
	const bool ok = !strcmp(status, "ok");
	r->failed += !ok;
	char label[512];
	sweep_point_label(r->sw, p, label, sizeof(label));
	char what[VTA_ERROR_DETAIL_MAX + 64];
	if (ok)
		snprintf(what, sizeof(what), "%lld cycles", cycles);
	else if (failure)
		snprintf(what, sizeof(what), "%s", msg);
	else {
		json_t *rec = checked_record(r, p->key, false);
		snprintf(what, sizeof(what), "%s",
			 rec ? json_string_value(json_object_get(rec, "error")) : "no record");
		json_decref(rec);
	}
	if (r->tty && ok) {
		progress_bar(r);
		return;
	}
	if (r->tty)
		printf("\r\033[K");
	printf("[%zu/%zu] %-8s %s: %s (%.1f s)\n", r->done, r->n_todo, status[0] ? status : "?",
	       label, what, e->seconds);
	progress_bar(r);
	fflush(stdout); /* a log file follows the sweep as it goes */
}

/* Is a point's record final? timeouts and crashes are the machine's and rerun;
 * with --retry-errors everything but ok reruns. */
static bool finished(const run_ctx *r, const sw_point *p)
{
	char status[32];
	record_status(r, p->key, status, sizeof(status), NULL, true);
	if (!status[0] || !strcmp(status, "timeout") || !strcmp(status, "crash"))
		return false;
	return !r->o->retry_errors || !strcmp(status, "ok");
}

/* Results, plots and index.html of DIR from its manifest and its records. */
static int write_results(const char *dir, const json_t *manifest, bool plots,
			 sw_summary *sum)
{
	char records[SW_PATH_MAX + 16];
	snprintf(records, sizeof(records), "%s/points", dir);
	const char *dirs[] = {records};
	sw_table t;
	vta_error err = {0};
	size_t n_plots = 0;
	vta_status st = sweep_table_build(manifest, dirs, 1, &t, sum, &err);
	if (st)
		return cli_report_error(&err);
	if ((st = sweep_table_metrics(&t, manifest, sum, &err))) {
		sweep_table_free(&t);
		return cli_report_error(&err);
	}
	if (sum->metric_cells_empty)
		cli_note("%s; %zu metric cell%s left empty", sum->metric_problem,
			 sum->metric_cells_empty, sum->metric_cells_empty == 1 ? "" : "s");
	st = sweep_table_write(&t, manifest, dir, &err);
	if (!st)
		st = sweep_plots_write(&t, manifest, dir, plots, &n_plots, &err);
	sweep_table_free(&t);
	return st ? cli_report_error(&err) : 0;
}

static void install_handlers(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal; /* no SA_RESTART: a sleep ends at once */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

static int list_points(const sweep *sw, const sw_point *pts, size_t n, size_t skipped)
{
	for (size_t i = 0; i < n; i++) {
		char label[1024];
		sweep_point_label(sw, &pts[i], label, sizeof(label));
		printf("%6zu  %s%s%s\n", pts[i].index, label, pts[i].refused ? "  -- " : "",
		       pts[i].refused ? pts[i].error : "");
	}
	printf("%zu point%s, %zu skipped by the constraints\n", n, n == 1 ? "" : "s", skipped);
	return 0;
}

static int run_sweep(const sweep *sw, const sw_point *pts, size_t n, size_t skipped,
		     const sweep_opts *o, const char *dir)
{
	run_ctx r = {.sw = sw, .points = pts, .o = o, .tty = isatty(STDOUT_FILENO)};
	snprintf(r.dir, sizeof(r.dir), "%s", dir);
	snprintf(r.records, sizeof(r.records), "%s/points", dir);
	vta_error err = {0};
	char golden[SW_PATH_MAX + 16];
	snprintf(golden, sizeof(golden), "%s/golden", dir);
	if (sweep_mkdir_p(r.records, &err) ||
	    (o->golden ? sweep_mkdir_p(o->golden, &err) : VTA_OK) ||
	    vta_golden_cache_open(&r.gc, o->golden ? o->golden : golden, &err))
		return cli_report_error(&err);
	scrub_goldens(&r.gc);
	/* this run's points: a shard's share, or all of them */
	size_t *mine = calloc(n + 1, sizeof(*mine)), n_mine = 0;
	size_t *todo = calloc(n + 1, sizeof(*todo)), n_todo = 0;
	sw_point *sel = calloc(n + 1, sizeof(*sel));
	if (!mine || !todo || !sel) {
		free(mine);
		free(todo);
		free(sel);
		return cli_usage_error("out of memory");
	}
	for (size_t i = 0; i < n; i++)
		if (!o->shard_n || i % o->shard_n == o->shard_k) {
			sel[n_mine] = pts[i];
			mine[n_mine++] = i;
		}
	json_t *manifest = sweep_manifest(sw, sel, n_mine, skipped);
	free(sel);
	char mpath[SW_PATH_MAX + 16];
	snprintf(mpath, sizeof(mpath), "%s/sweep.json", dir);
	int rc = 0;
	if (sweep_write_json_atomic(manifest, mpath, &err))
		rc = cli_report_error(&err);
	size_t resumed = 0;
	for (size_t i = 0; !rc && i < n_mine; i++) {
		const sw_point *p = &pts[mine[i]];
		if (p->refused)
			continue;
		if (finished(&r, p))
			resumed++;
		else
			todo[n_todo++] = mine[i];
	}
	install_handlers();
	const double timeout = o->timeout_s ? o->timeout_s : sw->timeout_s;
	r.timeout_s = timeout;
	if (!rc)
		rc = prepare_goldens(&r, todo, n_todo, timeout);
	if (!rc && !stop_signal) {
		printf("sweep %s: %zu point%s to run, %zu done before, %zu skipped by the "
		       "constraints, %d at a time\n",
		       VTA_Q(sw->name), n_todo, n_todo == 1 ? "" : "s", resumed, skipped, o->jobs);
		fflush(stdout);
		r.n_todo = n_todo;
		r.t0 = vta_host_now();
		sw_jobs pj = {o->jobs, timeout, point_child, point_done, point_tick, &r,
			      &stop_signal};
		progress_bar(&r);
		sweep_jobs_run(&pj, todo, n_todo);
		if (r.tty)
			printf("\r\033[K");
	}
	sw_summary sum = {0};
	if (!rc)
		rc = write_results(dir, manifest, !o->no_plots, &sum);
	if (!rc)
		printf("%zu point%s: %zu ok, %zu failed, %zu not run; %s/results.csv, "
		       "%s/index.html\n",
		       sum.points, sum.points == 1 ? "" : "s", sum.ok, sum.failed, sum.pending,
		       dir, dir);
	json_decref(manifest);
	free(mine);
	free(todo);
	free(r.unit_point);
	free(r.unit_layer);
	if (!rc && stop_signal) {
		fflush(stdout);
		fprintf(stderr, "vtasim: error: interrupted: the finished points are in %s; run "
				"the same command again to resume\n",
			VTA_QPATH(dir));
		return 128 + stop_signal;
	}
	return rc;
}

/* ---------- merge and emit ---------- */

/* Copy a shard's record of point `key` into the sweep's records if it checks: a point of
 * this sweep (`keys`), its own record, of this workload and build, unchanged. False when it
 * was refused (after a note saying why) or could not be written (err says why). */
static bool merge_record(const char *from, const char *to, const char *key, const json_t *keys,
			 const char *digest, vta_error *err)
{
	char why[VTA_ERROR_DETAIL_MAX];
	vta_error le = {0};
	json_t *rec = NULL;
	bool ok = false;
	if (!json_object_get(keys, key))
		snprintf(why, sizeof(why), "not a point of this sweep");
	else if (!(rec = report_json_load(from, &le)))
		snprintf(why, sizeof(why), "%s", le.detail);
	else if (!digest)
		snprintf(why, sizeof(why), "the sweep names no workload digest");
	else if (sweep_record_check(rec, key, digest, why, sizeof(why)))
		ok = !sweep_write_json_atomic(rec, to, err);
	if (!ok && !err->status)
		cli_note("--merge: %s: %s; not merged", VTA_QPATH(from), why);
	json_decref(rec);
	return ok;
}

static int merge(const char *dir)
{
	char path[SW_PATH_MAX + 64];
	snprintf(path, sizeof(path), "%s/sweep.json", dir);
	vta_error je = {0};
	json_t *manifest = report_json_load(path, &je);
	if (!manifest)
		return cli_usage_error("--merge %s: no sweep here (%s)", VTA_QPATH(dir), je.detail);
	vta_error err = {0};
	char records[SW_PATH_MAX + 16], shards[SW_PATH_MAX + 16];
	snprintf(records, sizeof(records), "%s/points", dir);
	snprintf(shards, sizeof(shards), "%s/shards", dir);
	if (sweep_mkdir_p(records, &err)) {
		json_decref(manifest);
		return cli_report_error(&err);
	}
	/* the points of this sweep: a shard's record is merged only as one of them */
	json_t *keys = json_object();
	size_t i;
	json_t *pt;
	json_array_foreach(json_object_get(manifest, "points"), i, pt)
	{
		const char *key = json_string_value(json_object_get(pt, "key"));
		if (key && *key)
			json_object_set_new(keys, key, json_true());
	}
	const char *digest = json_string_value(json_object_get(manifest, "workload_digest"));
	size_t copied = 0, refused = 0, n_shards = 0;
	DIR *d = opendir(shards);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		n_shards++;
		char sdir[SW_PATH_MAX + 300];
		snprintf(sdir, sizeof(sdir), "%s/%s/points", shards, e->d_name);
		DIR *sd = opendir(sdir);
		struct dirent *f;
		while (sd && (f = readdir(sd))) {
			size_t len = strlen(f->d_name);
			if (len != 64 + 5 || strcmp(f->d_name + 64, ".json"))
				continue;
			char from[SW_PATH_MAX + 400], to[SW_PATH_MAX + 100];
			snprintf(from, sizeof(from), "%s/%s", sdir, f->d_name);
			snprintf(to, sizeof(to), "%s/%s", records, f->d_name);
			char key[65];
			snprintf(key, sizeof(key), "%.64s", f->d_name);
			if (merge_record(from, to, key, keys, digest, &err))
				copied++;
			else if (err.status)
				fprintf(stderr, "vtasim: error: %s\n", err.detail);
			else
				refused++;
			err = (vta_error){0};
		}
		if (sd)
			closedir(sd);
	}
	if (d)
		closedir(d);
	json_decref(keys);
	printf("merge: %zu record%s from %zu shard%s", copied, copied == 1 ? "" : "s", n_shards,
	       n_shards == 1 ? "" : "s");
	if (refused)
		printf(", %zu refused (they do not check)", refused);
	printf("\n");
	sw_summary sum = {0};
	int rc = write_results(dir, manifest, true, &sum);
	if (!rc)
		printf("%zu point%s: %zu ok, %zu failed, %zu not run; %s/results.csv, "
		       "%s/index.html\n",
		       sum.points, sum.points == 1 ? "" : "s", sum.ok, sum.failed, sum.pending,
		       dir, dir);
	json_decref(manifest);
	return rc;
}

static void sample_done(void *vctx, size_t i, const sw_job_end *e)
{
	run_ctx *r = vctx;
	(void)i;
	r->sample_seconds += e->timed_out ? r->timeout_s : e->seconds;
}

/* Remove a folder of plain files. */
static void remove_flat_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char path[SW_PATH_MAX + 300];
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

/* What a point takes, measured: up to three of the points that run (the first, the middle
 * and the last) run here one at a time, as a shard would run them, into DIR/sample (removed
 * after); their mean seconds, *n_sampled of them (0 when none ran). */
static double sample_points(const run_ctx *base, const size_t *todo, size_t n_todo,
			    double timeout, size_t *n_sampled)
{
	size_t pick[3], k = 0;
	const size_t at[3] = {0, n_todo / 2, n_todo ? n_todo - 1 : 0};
	for (size_t i = 0; i < 3 && n_todo; i++)
		if (!k || pick[k - 1] != todo[at[i]])
			pick[k++] = todo[at[i]];
	*n_sampled = 0;
	run_ctx r = *base;
	r.timeout_s = timeout;
	r.sample_seconds = 0;
	snprintf(r.records, sizeof(r.records), "%s/sample", base->dir);
	vta_error err = {0};
	if (!k || sweep_mkdir_p(r.records, &err))
		return 0;
	sw_jobs sj = {1, timeout, point_child, sample_done, NULL, &r, &stop_signal};
	*n_sampled = sweep_jobs_run(&sj, pick, k);
	remove_flat_dir(r.records);
	return *n_sampled ? r.sample_seconds / (double)*n_sampled : 0;
}

static int emit(const sweep *sw, const sw_point *pts, size_t n, size_t skipped,
		const sweep_opts *o, const char *dir)
{
	char self[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (len <= 0)
		return cli_usage_error("cannot find this vtasim's path");
	self[len] = '\0';
	vta_error err = {0};
	const double timeout = o->timeout_s ? o->timeout_s : sw->timeout_s;
	/* a shard runs one point at a time unless -j says otherwise */
	sw_emit e = {o->emit, self, dir, o->shards, o->jobs_given ? o->jobs : 1, timeout,
		     o->sbatch_args, o->n_sbatch_args};
	/* before any work: the values the script will carry */
	if (sweep_emit_check(sw, &e, &err))
		return cli_report_error(&err);
	run_ctx r = {.sw = sw, .points = pts, .o = o};
	snprintf(r.dir, sizeof(r.dir), "%s", dir);
	snprintf(r.records, sizeof(r.records), "%s/points", dir);
	char golden[SW_PATH_MAX + 16];
	snprintf(golden, sizeof(golden), "%s/golden", dir);
	if (sweep_mkdir_p(r.records, &err) || vta_golden_cache_open(&r.gc, golden, &err))
		return cli_report_error(&err);
	scrub_goldens(&r.gc);
	json_t *manifest = sweep_manifest(sw, pts, n, skipped);
	char path[SW_PATH_MAX + 16];
	snprintf(path, sizeof(path), "%s/sweep.json", dir);
	vta_status st = sweep_write_json_atomic(manifest, path, &err);
	json_decref(manifest);
	if (st)
		return cli_report_error(&err);
	/* the goldens once, here, for every shard to read */
	size_t *todo = calloc(n + 1, sizeof(*todo)), n_todo = 0;
	if (!todo)
		return cli_usage_error("out of memory");
	for (size_t i = 0; i < n; i++)
		if (!pts[i].refused)
			todo[n_todo++] = i;
	install_handlers();
	int rc = prepare_goldens(&r, todo, n_todo, timeout);
	free(r.unit_point);
	free(r.unit_layer);
	size_t sampled = 0;
	double point_s = 0;
	if (!rc && !stop_signal && !e.shards) {
		/* shards sized from measured points, so short points share a task */
		point_s = sample_points(&r, todo, n_todo, timeout, &sampled);
		e.shards = sweep_emit_shards(n, point_s, o->shard_minutes, e.jobs);
	}
	free(todo);
	if (rc || stop_signal)
		return rc ? rc : 128 + stop_signal;
	if (e.shards > n)
		e.shards = n ? n : 1;
	if (sampled) {
		char eta[32];
		format_eta(point_s * (double)((n + e.shards - 1) / e.shards) / e.jobs, eta,
			   sizeof(eta));
		printf("%zu point%s sampled here: %.3g s each; %zu shard%s of about %s (-j %d)\n",
		       sampled, sampled == 1 ? "" : "s", point_s, e.shards,
		       e.shards == 1 ? "" : "s", eta, e.jobs);
	}
	char script[SW_PATH_MAX + 32];
	if (sweep_emit_write(sw, n, &e, script, sizeof(script), &err))
		return cli_report_error(&err);
	char shown_script[4 * sizeof(script)], shown_dir[4 * SW_PATH_MAX];
	vta_escape(shown_script, sizeof(shown_script), script, strlen(script));
	vta_escape(shown_dir, sizeof(shown_dir), dir, strlen(dir));
	printf("%s: %zu point%s in %zu shard%s; when they are done: vtasim sweep --merge %s\n",
	       shown_script, n, n == 1 ? "" : "s", e.shards, e.shards == 1 ? "" : "s",
	       shown_dir);
	return 0;
}

/* ---------- two sweeps point by point ---------- */

static int compare(const char *dir_a, const char *dir_b, double threshold)
{
	sw_compare c;
	vta_error err = {0};
	if (sweep_compare(dir_a, dir_b, &c, &err))
		return cli_report_error(&err);
	char qa[4 * SW_PATH_MAX], qb[4 * SW_PATH_MAX];
	vta_escape(qa, sizeof(qa), dir_a, strlen(dir_a));
	vta_escape(qb, sizeof(qb), dir_b, strlen(dir_b));
	printf("compare: %s -> %s (%zu points over %s)\n", qa, qb, c.n_rows, c.axes);
	size_t width = 5;
	for (size_t i = 0; i < c.n_rows; i++)
		width = strlen(c.rows[i].name) > width ? strlen(c.rows[i].name) : width;
	width = width > 60 ? 60 : width;
	printf("%-*s %-22s %16s %16s %10s\n", (int)width, "point", "metric", "A", "B", "change");
	size_t compared = 0, beyond = 0, one_sided = 0;
	for (size_t i = 0; i < c.n_rows; i++) {
		const report_diff_row *r = &c.rows[i];
		if (!r->in_a || !r->in_b) {
			printf("%-*s only in %s\n", (int)width, r->name, r->in_a ? "A" : "B");
			one_sided++;
			continue;
		}
		bool first = true;
		for (size_t m = 0; m < c.n_metrics; m++) {
			const report_diff_cell *cell = &r->cells[m];
			if (!cell->in_a && !cell->in_b)
				continue;
			char va[32], vb[32], ch[32];
			report_diff_value_text(cell, false, va, sizeof(va));
			report_diff_change_text(cell, ch, sizeof(ch));
			report_diff_value_text(cell, true, vb, sizeof(vb));
			const double d = report_diff_change(cell);
			printf("%-*s %-22s %16s %16s %10s\n", (int)width, first ? r->name : "",
			       c.metrics[m], va, vb, ch);
			first = false;
			if (cell->in_a && cell->in_b) {
				compared++;
				beyond += threshold >= 0 && fabs(d) > threshold;
			}
		}
		if (first)
			printf("%-*s no results in either (not run, or failed)\n", (int)width, r->name);
	}
	sweep_compare_free(&c);
	if (threshold < 0)
		return 0;
	if (beyond || one_sided)
		printf("%zu of %zu values moved by more than %g%%%s\n", beyond, compared, threshold,
		       one_sided ? ", and points are in one sweep only" : "");
	else
		printf("no value moved by more than %g%% (%zu compared)\n", threshold, compared);
	return beyond || one_sided ? 1 : 0;
}

int cmd_sweep(int argc, char **argv)
{
	sweep_opts o;
	int rc = parse_opts(argc, argv, &o);
	if (rc)
		return CLI_EXIT(rc);
	if (o.merge)
		return merge(o.merge);
	if (o.compare[0])
		return compare(o.compare[0], o.compare[1], o.threshold);
	sweep sw;
	vta_error err = {0};
	if (sweep_load(o.file, &sw, &err))
		return cli_report_error(&err);
	sw_point *pts = NULL;
	size_t n = 0, skipped = 0;
	if (sweep_points(&sw, &pts, &n, &skipped, &err)) {
		sweep_free(&sw);
		return cli_report_error(&err);
	}
	char dir[SW_PATH_MAX];
	if (o.dir)
		snprintf(dir, sizeof(dir), "%s", o.dir);
	else
		snprintf(dir, sizeof(dir), "sweep-%s", sw.name);
	char real[PATH_MAX];
	/* a folder a job script cannot name is refused before it is made */
	const sw_emit early = {o.emit, "", dir, 1, 1, 0, o.sbatch_args, o.n_sbatch_args};
	if (o.emit && !o.list && sweep_emit_check(&sw, &early, &err))
		rc = cli_report_error(&err);
	else if (o.list)
		rc = list_points(&sw, pts, n, skipped);
	else if (sweep_mkdir_p(dir, &err) || !realpath(dir, real))
		rc = err.status ? cli_report_error(&err)
				: cli_usage_error("%s: %s", VTA_QPATH(dir), strerror(errno));
	else if (o.emit)
		rc = emit(&sw, pts, n, skipped, &o, real);
	else
		rc = run_sweep(&sw, pts, n, skipped, &o, dir);
	sweep_points_free(&sw, pts, n);
	sweep_free(&sw);
	return rc;
}
