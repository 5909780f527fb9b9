/*
 * cmd_regress.c - `vtasim regress [DIR] [-j N] [--update] [--filter SUBSTRING]`: run every
 * golden case of DIR (default traces/), each in its own `vtasim exec` process, and hold it to
 * its expected outputs (from the reference executor and the golden kernels), its expected
 * diagnosis, and its expected statistics (from the simulator). --update rewrites only the
 * statistics, never the outputs, and prints what moved; a passing case names the stream
 * checks' warnings, which --strict makes failures. Format: docs/regression.md.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "regress_case.h"
#include "regress_check.h"
#include "regress_run.h"
#include "vta_text.h"

const char cmd_regress_usage[] = "regress [DIR] [-j N] [--update] [--filter SUBSTRING] "
			    "[--timeout SECONDS] [--strict] [--set KEY=VALUE]...";

const cli_opt cmd_regress_opts[] = {
	{"jobs", 'j', 'j', "N", "cases run at a time; default the number of CPUs"},
	{"update", 0, 'u', NULL, "rewrite the expected statistics (never the outputs), print what moved"},
	{"filter", 0, 'f', "SUBSTRING", "run only the cases whose name holds SUBSTRING"},
	{"timeout", 0, 't', "SECONDS", "a case running longer fails"},
	{"set", 0, 'S', "KEY=VALUE", "override a config key of every case (repeatable)"},
	{"strict", 0, 'X', NULL, "a warning of the stream checks fails the case"},
	CLI_OPT_END};

typedef struct regress_opts {
	const char *dir, *filter;
	int jobs, update, strict;
	double timeout_s;
	cli_sets sets; /* passed to every case */
} regress_opts;

/* What one case came to; printed in case order once known. */
typedef struct case_result {
	int done, pass, rewritten;
	char *line;  /* "PASS name (cycles N)" / "FAIL name: ..." */
	char *moved; /* --update: the statistics that moved, or NULL */
	char *refused; /* --update: why a failing case's statistics were kept, or NULL */
} case_result;

static int parse_opts(int argc, char **argv, regress_opts *o)
{
	cli_getopt g;
	cli_getopt_make(cmd_regress_opts, &g);
	memset(o, 0, sizeof(*o));
	o->dir = "traces";
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	o->jobs = ncpu > 0 ? (int)(ncpu < 256 ? ncpu : 256) : 1;
	o->timeout_s = 300;
	int c;
	char *end;
	if (cli_help_asked(argc, argv, g.shortopts, g.longopts))
		return cli_command_help(argv[0]);
	optind = 1;
	while ((c = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
		switch (c) {
		case 'j': {
			long v = strtol(optarg, &end, 10);
			if (end == optarg || *end || v < 1 || v > 256)
				return cli_usage_error("-j '%s': expected a number of jobs 1..256",
						       VTA_Q(optarg));
			o->jobs = (int)v;
			break;
		}
		case 'u': o->update = 1; break;
		case 'X': o->strict = 1; break;
		case 'f': o->filter = optarg; break;
		case 'S': {
			int rc = cli_sets_add(&o->sets, optarg);
			if (rc)
				return rc;
			break;
		}
		case 't': {
			double v = strtod(optarg, &end);
			if (end == optarg || *end || !(v > 0) || v > 86400)
				return cli_usage_error("--timeout '%s': expected seconds (0..86400]",
						       VTA_Q(optarg));
			o->timeout_s = v;
			break;
		}
		default: return cli_bad_option(c, argv);
		}
	}
	if (optind < argc - 1)
		return cli_unexpected("regress", argv[optind + 1]);
	if (o->update && o->sets.n)
		return cli_usage_error("--update with --set would record the statistics of "
				       "another config than the cases'");
	if (optind == argc - 1)
		o->dir = argv[optind];
	return 0;
}

static int has_case_file(const char *dir)
{
	char path[REGRESS_PATH_MAX + 16];
	snprintf(path, sizeof(path), "%s/case.yaml", dir);
	return access(path, F_OK) == 0;
}

/* The case folders of `dir` (or `dir` itself if it is one), by name and filtered. Returns 0
 * or an exit status after printing. */
static int find_cases(const regress_opts *o, char ***out, size_t *count)
{
	*out = NULL;
	*count = 0;
	struct stat sb;
	if (stat(o->dir, &sb) != 0 || !S_ISDIR(sb.st_mode))
		return cli_usage_error("%s: not a folder of regression cases", VTA_QPATH(o->dir));
	struct dirent **entries = NULL;
	int n_entries = 0;
	const int single = has_case_file(o->dir);
	if (!single && (n_entries = scandir(o->dir, &entries, NULL, alphasort)) < 0)
		return cli_usage_error("%s: cannot list: %s", VTA_QPATH(o->dir), strerror(errno));
	char **names = calloc((size_t)n_entries + 1, sizeof(*names));
	size_t n = 0;
	int nomem = !names || (single && !(names[n++] = strdup(o->dir)));
	for (int i = 0; i < n_entries; i++) {
		const char *name = entries[i]->d_name;
		char path[REGRESS_PATH_MAX + 300];
		snprintf(path, sizeof(path), "%s/%s", o->dir, name);
		if (!nomem && name[0] != '.' && has_case_file(path) &&
		    (!o->filter || strstr(name, o->filter)))
			nomem = !(names[n++] = strdup(path));
		free(entries[i]);
	}
	free(entries);
	if (nomem || n == 0) {
		for (size_t i = 0; names && i < n; i++)
			free(names[i]);
		free(names);
		if (nomem)
			return cli_usage_error("out of memory");
		if (o->filter)
			return cli_usage_error("%s: no case matches --filter '%s'",
					       VTA_QPATH(o->dir),
					       VTA_Q(o->filter));
		return cli_usage_error("%s: no regression cases (folders holding a case.yaml)",
				       VTA_QPATH(o->dir));
	}
	*out = names;
	*count = n;
	return 0;
}

static int64_t stat_value(const regress_stats *s, const char *key)
{
	const regress_stat *st = regress_stats_find(s, key);
	return st ? st->value : -1;
}

/* --update: record `got` as the case's expectation if anything moved; describe the moves. */
static int update_stats(const regress_case *c, const regress_stats *got, case_result *r,
			FILE *line, vta_error *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return vta_fail(err, VTA_E_NOMEM, "out of memory");
	int moved = 0;
	if (!c->has_stats) {
		fprintf(m, "  %s: first recording, %zu statistics (cycles %" PRId64 ")\n", c->name,
			got->count, stat_value(got, "cycles"));
		moved = 1;
	} else {
		for (size_t i = 0; i < got->count; i++) {
			const regress_stat *g = &got->items[i];
			const regress_stat *e = regress_stats_find(&c->stats, g->key);
			if (e && e->value == g->value)
				continue;
			if (!moved++)
				fprintf(m, "  %s:\n", c->name);
			if (!e) {
				fprintf(m, "    %-36s new: %" PRId64 "\n", g->key, g->value);
				continue;
			}
			char change[32];
			regress_format_change(e->value, g->value, change, sizeof(change));
			fprintf(m, "    %-36s %" PRId64 " -> %" PRId64 " %s\n", g->key, e->value,
				g->value, change);
		}
		for (size_t i = 0; i < c->stats.count; i++) {
			const regress_stat *e = &c->stats.items[i];
			if (regress_stats_find(got, e->key))
				continue;
			if (!moved++)
				fprintf(m, "  %s:\n", c->name);
			fprintf(m, "    %-36s dropped (was %" PRId64 ")\n", e->key, e->value);
		}
	}
	fclose(m);
	if (!moved) {
		free(buf);
		fprintf(line, "PASS %s (cycles %" PRId64 ")", c->name, stat_value(got, "cycles"));
		return VTA_OK;
	}
	vta_status st = regress_stats_write(c->stats_path, c->name, got, err);
	if (st) {
		free(buf);
		return st;
	}
	r->moved = buf;
	r->rewritten = 1;
	if (!c->has_stats)
		fprintf(line, "RECORDED %s (cycles %" PRId64 ")", c->name, stat_value(got, "cycles"));
	else
		fprintf(line, "UPDATED %s (cycles %" PRId64 " -> %" PRId64 ", %d statistic%s moved)",
			c->name, stat_value(&c->stats, "cycles"), stat_value(got, "cycles"), moved,
			moved == 1 ? "" : "s");
	return VTA_OK;
}

/* --update's one line for a case it did not record: the output file that differs (the
 * statistics of a wrong run are not worth recording), or that the case failed otherwise. */
static char *refusal(const regress_case *c, const regress_output *wrong)
{
	char *line = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&line, &len);
	if (!m)
		return NULL;
	if (wrong) {
		const char *slash = strrchr(wrong->file, '/');
		fprintf(m, "%s: %s (output 0x%" PRIx64 "+%" PRIu64 ") differs from the run's "
			   "output; statistics not rewritten", c->name, slash ? slash + 1 : wrong->file,
			wrong->addr, wrong->len);
	} else {
		fprintf(m, "%s: the case fails; statistics not rewritten", c->name);
	}
	fclose(m);
	return line;
}

/* The verdict of a finished job, into r->line (and r->moved or r->refused with --update). */
static void evaluate(const regress_case *c, const regress_job *j, const regress_opts *o,
		     case_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m) {
		r->line = NULL;
		r->done = 1;
		return;
	}
	char diag[768];
	regress_job_diagnosis(j, diag, sizeof(diag));
	const char *sep = diag[0] ? ": " : "";
	r->pass = 0;
	if (j->timed_out) {
		fprintf(m, "FAIL %s: timed out after %g s (killed)", c->name, o->timeout_s);
	} else if (j->term_signal) {
		fprintf(m, "FAIL %s: killed by signal %d (%s)%s%s", c->name, j->term_signal,
			strsignal(j->term_signal), sep, diag);
	} else if (j->exit_status != c->expect_status) {
		fprintf(m, "FAIL %s: exit status %d, expected %d%s%s", c->name, j->exit_status,
			c->expect_status, sep, diag);
	} else if (c->expect_status != 0) {
		if (strstr(diag, c->expect_error)) {
			fprintf(m, "PASS %s (exit status %d, expected diagnosis)", c->name,
				c->expect_status);
			r->pass = 1;
		} else {
			fprintf(m, "FAIL %s: diagnosis \"%s\" does not contain \"%s\"", c->name,
				diag, c->expect_error);
		}
	} else {
		char *what = NULL;
		size_t wlen = 0;
		FILE *w = open_memstream(&what, &wlen);
		int problems = 0;
		const regress_output *wrong = NULL; /* the first output that differs */
		for (size_t i = 0; w && i < c->n_outputs; i++) {
			char got[REGRESS_PATH_MAX + 32], name[32], msg[512];
			snprintf(name, sizeof(name), "out%zu.bin", i);
			regress_job_path(j, name, got, sizeof(got));
			if (regress_compare_output(&c->outputs[i], got, msg, sizeof(msg))) {
				fprintf(w, "%s%s", problems++ ? "; " : "", msg);
				if (!wrong)
					wrong = &c->outputs[i];
			}
		}
		if (o->update && wrong)
			r->refused = refusal(c, wrong);
		regress_stats got = {0};
		char report[REGRESS_PATH_MAX + 32];
		regress_job_path(j, "report.json", report, sizeof(report));
		vta_error err = {0};
		vta_status st = regress_report_stats(report, &got, &err);
		if (w && st)
			fprintf(w, "%sno statistics: %s", problems++ ? "; " : "", err.detail);
		if (w && !st && !o->update) {
			if (!c->has_stats) {
				fprintf(w, "%sno expected statistics (record them with vtasim regress "
					   "--update)",
					problems++ ? "; " : "");
			} else {
				char *sd = NULL;
				size_t sdlen = 0;
				FILE *s = open_memstream(&sd, &sdlen);
				int n = s ? regress_compare_stats(&c->stats, &got, s) : 0;
				if (s)
					fclose(s);
				if (n)
					fprintf(w, "%s%s", problems ? "; " : "", sd);
				problems += n;
				free(sd);
			}
		}
		if (w)
			fclose(w);
		if (!w) {
			fprintf(m, "FAIL %s: out of memory", c->name);
		} else if (problems) {
			fprintf(m, "FAIL %s: %s", c->name, what);
		} else if (o->update) {
			if (update_stats(c, &got, r, m, &err) == VTA_OK)
				r->pass = 1;
			else
				fprintf(m, "FAIL %s: cannot record statistics: %s", c->name, err.detail);
		} else {
			/* the stream checks' warnings do not fail a case (--strict makes them) */
			int64_t warn = regress_report_warnings(report);
			fprintf(m, "PASS %s (cycles %" PRId64, c->name, stat_value(&got, "cycles"));
			if (warn > 0)
				fprintf(m, ", %" PRId64 " warning%s", warn, warn == 1 ? "" : "s");
			fputc(')', m);
			r->pass = 1;
		}
		free(what);
		regress_stats_free(&got);
	}
	fclose(m);
	if (o->update && !r->pass && !r->refused)
		r->refused = refusal(c, NULL);
	r->line = buf;
	r->done = 1;
}

/* Print finished results in case order. */
static void print_ready(const regress_case *cases, const case_result *res, size_t n,
			size_t *next)
{
	while (*next < n && res[*next].done) {
		const case_result *r = &res[*next];
		if (r->line)
			printf("%s\n", r->line);
		else
			printf("FAIL %s: out of memory\n", cases[*next].name);
		(*next)++;
	}
	fflush(stdout);
}

static int run_all(const regress_opts *o, const char *self, regress_case *cases, size_t n)
{
	case_result *res = calloc(n, sizeof(*res));
	regress_job *jobs = calloc(n, sizeof(*jobs));
	if (!res || !jobs) {
		free(res);
		free(jobs);
		return cli_usage_error("out of memory");
	}
	size_t started = 0, finished = 0, printed = 0;
	int running = 0;
	while (finished < n) {
		while (running < o->jobs && started < n) {
			vta_error err = {0};
			size_t i = started++;
			if (regress_job_start(self, &cases[i], &o->sets, o->strict, o->timeout_s,
					      &jobs[i], &err)) {
				size_t len = strlen(err.detail) + strlen(cases[i].name) + 32;
				res[i].line = malloc(len);
				if (res[i].line)
					snprintf(res[i].line, len, "FAIL %s: %s", cases[i].name,
						 err.detail);
				if (o->update)
					res[i].refused = refusal(&cases[i], NULL);
				res[i].done = 1;
				finished++;
				continue;
			}
			running++;
		}
		int progressed = 0;
		for (size_t i = 0; i < started; i++) {
			if (res[i].done || !jobs[i].pid || !regress_job_poll(&jobs[i]))
				continue;
			evaluate(&cases[i], &jobs[i], o, &res[i]);
			regress_job_cleanup(&jobs[i]);
			running--;
			finished++;
			progressed = 1;
		}
		print_ready(cases, res, n, &printed);
		if (!progressed && finished < n) {
			struct timespec ts = {0, 2000000}; /* 2 ms */
			nanosleep(&ts, NULL);
		}
	}
	print_ready(cases, res, n, &printed);

	size_t pass = 0, rewritten = 0, refused = 0;
	for (size_t i = 0; i < n; i++) {
		pass += (size_t)res[i].pass;
		rewritten += (size_t)res[i].rewritten;
		refused += res[i].refused != NULL;
	}
	if (o->update) {
		if (refused)
			printf("\n");
		for (size_t i = 0; i < n; i++)
			if (res[i].refused)
				printf("%s\n", res[i].refused);
		if (rewritten) {
			printf("\nstatistics that moved (old -> new):\n");
			for (size_t i = 0; i < n; i++)
				if (res[i].moved)
					fputs(res[i].moved, stdout);
			printf("expected statistics rewritten in %zu case(s); review with git diff\n",
			       rewritten);
		} else if (refused) {
			printf("nothing rewritten\n");
		} else {
			printf("no statistic moved; nothing rewritten\n");
		}
	}
	printf("%zu passed, %zu failed\n", pass, n - pass);
	fflush(stdout);
	for (size_t i = 0; i < n; i++) {
		free(res[i].line);
		free(res[i].moved);
		free(res[i].refused);
	}
	free(res);
	free(jobs);
	return pass == n ? 0 : 1;
}

int cmd_regress(int argc, char **argv)
{
	regress_opts o;
	int rc = parse_opts(argc, argv, &o);
	if (rc)
		return CLI_EXIT(rc);
	char self[PATH_MAX];
	ssize_t sl = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (sl <= 0)
		return cli_usage_error("cannot find the vtasim executable (/proc/self/exe): %s",
				       strerror(errno));
	self[sl] = '\0';

	char **dirs;
	size_t n;
	if ((rc = find_cases(&o, &dirs, &n)))
		return rc;
	regress_case *cases = calloc(n, sizeof(*cases));
	if (!cases) {
		rc = cli_usage_error("out of memory");
		goto out;
	}
	/* every case file is checked before anything runs */
	int bad = 0;
	for (size_t i = 0; i < n; i++) {
		vta_error err = {0};
		if (regress_case_load(dirs[i], &cases[i], &err)) {
			cli_report_error(&err);
			bad = 1;
		}
	}
	rc = bad ? 2 : run_all(&o, self, cases, n);
out:
	for (size_t i = 0; i < n; i++) {
		if (cases)
			regress_case_free(&cases[i]);
		free(dirs[i]);
	}
	free(cases);
	free(dirs);
	return rc;
}
