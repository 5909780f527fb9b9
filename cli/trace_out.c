/*
 * trace_out.c - the files of --log and --trace (see trace_out.h): creates them, starts the
 * writer of each format, and feeds every run's walk to the writers.
 */
#include "trace_out.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct out_file {
	FILE *f;
	char *path;
} out_file;

struct trace_out {
	const vta_config *cfg;
	const vtasim_sim *sim;
	out_file log_file, chrome_file;
	trace_chrome *chrome;
	int runs;        /* runs added so far: the next run's number */
	uint64_t offset; /* cycles of those runs: where the next one starts */
};

static vta_status create(out_file *o, const char *path, vta_error *err)
{
	if (!path)
		return VTA_OK;
	if (!(o->path = strdup(path)))
		return vta_fail(err, VTA_E_NOMEM, "out of memory");
	if (!(o->f = fopen(path, "w")))
		return vta_fail(err, VTA_E_IO, "cannot create '%s': %s", path, strerror(errno));
	return VTA_OK;
}

static vta_status finish(out_file *o, int failed, vta_status st, vta_error *err)
{
	if (o->f) {
		int bad = failed || ferror(o->f);
		if (fclose(o->f) != 0)
			bad = 1;
		if (bad && !st)
			st = vta_fail(err, VTA_E_IO, "cannot write '%s'", o->path);
	}
	free(o->path);
	return st;
}

vta_status trace_out_open(const char *log_path, const char *trace_path, const vta_config *cfg,
			  const char *title, vtasim_sim *sim, trace_out **out, vta_error *err)
{
	*out = NULL;
	trace_out *t = calloc(1, sizeof(*t));
	if (!t)
		return vta_fail(err, VTA_E_NOMEM, "out of memory");
	t->cfg = cfg;
	t->sim = sim;
	vta_status st = create(&t->log_file, log_path, err);
	if (!st)
		st = create(&t->chrome_file, trace_path, err);
	if (!st && t->chrome_file.f &&
	    !(t->chrome = trace_chrome_open(t->chrome_file.f, cfg, title)))
		st = vta_fail(err, VTA_E_NOMEM, "out of memory");
	if (!st)
		st = vtasim_sim_set_recording(sim, 1, err);
	if (st) {
		trace_out_close(t, NULL);
		return st;
	}
	if (t->log_file.f)
		trace_log_start(t->log_file.f, cfg, title);
	*out = t;
	return VTA_OK;
}

/* Each step goes to every open format. */
static void to_writers(void *writer, const trace_step *s)
{
	trace_out *t = writer;
	if (t->log_file.f)
		trace_log_step(t->log_file.f, s);
	if (t->chrome)
		trace_chrome_step(t->chrome, s);
}

vta_status trace_out_add(trace_out *t, const char *name, const vta_program *prog,
			 const vta_run_stats *stats, const vta_error *run_err, vta_error *err)
{
	if (!t || !stats)
		return vta_fail(err, VTA_E_USAGE, "trace_out_add: NULL argument");
	trace_run run = {.name = name, .prog = prog, .stats = stats, .err = run_err,
			 .offset = t->offset};
	run.recs = vtasim_sim_records(t->sim, &run.n);
	if (!run.n)
		return VTA_OK;
	t->offset += stats->cycles;
	return trace_walk(&run, ++t->runs, t->cfg, to_writers, t, err);
}

vta_status trace_out_close(trace_out *t, vta_error *err)
{
	if (!t)
		return VTA_OK;
	const int chrome_failed = t->chrome && trace_chrome_close(t->chrome);
	vta_status st = finish(&t->log_file, 0, VTA_OK, err);
	st = finish(&t->chrome_file, chrome_failed, st, err);
	free(t);
	return st;
}
