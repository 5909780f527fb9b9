/*
 * trace_out.c - the files of --log, --trace and --vcd (see trace_out.h): creates them, starts
 * the writer of each format, and feeds every run's walk to the writers. With the RTL
 * datapath, the model's waveform is merged with the one the RTL units wrote over the same
 * run (vtasim_vcd_merge), their 1000 ps per cycle scaled to the model's clock period.
 */
#include "trace_out.h"
#include "vta_text.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct out_file {
	FILE *f;
	char *path;
} out_file;

struct trace_out {
	const vta_config *cfg;
	vtasim_sim *sim;
	out_file log_file, chrome_file;
	trace_chrome *chrome;
	char *vcd;       /* the next runs' waveform, or NULL */
	trace_vcd *wave; /* its writer during a walk */
	trace_timeline *timeline; /* the picture's steps, drawn at the close */
	char *timeline_path;
	char *title;
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
		return vta_fail(err, VTA_E_IO, "cannot create '%s': %s", VTA_QPATH(path),
				strerror(errno));
	return VTA_OK;
}

static vta_status finish(out_file *o, int failed, vta_status st, vta_error *err)
{
	if (o->f) {
		int bad = failed || ferror(o->f);
		if (fclose(o->f) != 0)
			bad = 1;
		if (bad && !st)
			st = vta_fail(err, VTA_E_IO, "cannot write '%s'", VTA_QPATH(o->path));
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
	if (!(t->title = strdup(title))) {
		free(t);
		return vta_fail(err, VTA_E_NOMEM, "out of memory");
	}
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
	if (t->wave)
		trace_vcd_step(t->wave, s);
	if (t->timeline)
		trace_timeline_step(t->timeline, s);
}

/* An unsigned decimal number of cycles, all of `s`. */
static int parse_cycle(const char *s, const char *end, uint64_t *v)
{
	if (s == end || end - s > 19)
		return -1;
	*v = 0;
	for (; s < end; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		*v = *v * 10 + (uint64_t)(*s - '0');
	}
	return 0;
}

vta_status trace_out_timeline_check(const char *path, const char *window, uint64_t *from,
				    uint64_t *to, vta_error *err)
{
	*from = *to = 0;
	const size_t n = strlen(path);
	if (n < 5 || (strcmp(path + n - 4, ".svg") && strcmp(path + n - 4, ".png")))
		return vta_fail(err, VTA_E_USAGE,
				"--timeline %s: expected a file name ending .svg or .png",
				VTA_QPATH(path));
	for (const char *p = path; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return vta_fail(err, VTA_E_USAGE,
					"--timeline %s: a file name with control characters",
					VTA_QPATH(path));
	if (!window)
		return VTA_OK;
	const char *colon = strchr(window, ':');
	if (!colon || parse_cycle(window, colon, from) ||
	    parse_cycle(colon + 1, colon + strlen(colon), to) || *from >= *to)
		return vta_fail(err, VTA_E_USAGE,
				"--timeline-window '%s': expected A:B, cycles with A < B",
				VTA_Q(window));
	return VTA_OK;
}

vta_status trace_out_set_timeline(trace_out *t, const char *path, uint64_t from, uint64_t to,
				  vta_error *err)
{
	/* say now, before the runs, when the file cannot be written */
	FILE *f = fopen(path, "w");
	if (!f)
		return vta_fail(err, VTA_E_IO, "cannot create '%s': %s", VTA_QPATH(path),
				strerror(errno));
	fclose(f);
	if (!(t->timeline_path = strdup(path)) ||
	    !(t->timeline = trace_timeline_open(t->title, from, to)))
		return vta_fail(err, VTA_E_NOMEM, "out of memory");
	return VTA_OK;
}

/* "<path>.<what>.part": the waveforms a run's file is merged from. */
static char *part_path(const char *path, const char *what)
{
	size_t n = strlen(path) + strlen(what) + 8;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s.%s.part", path, what);
	return p;
}

vta_status trace_out_set_vcd(trace_out *t, const char *path, vta_error *err)
{
	free(t->vcd);
	t->vcd = NULL;
	const int rtl = t->cfg->datapath == VTA_DATAPATH_RTL;
	if (!path)
		return rtl ? vtasim_sim_set_vcd(t->sim, NULL, err) : VTA_OK;
	/* say now, before the run, when the file cannot be written */
	FILE *f = fopen(path, "w");
	if (!f)
		return vta_fail(err, VTA_E_IO, "%s: cannot open the VCD file (%s)", path,
				strerror(errno));
	fclose(f);
	if (!(t->vcd = strdup(path)))
		return vta_fail(err, VTA_E_NOMEM, "out of memory");
	if (!rtl)
		return VTA_OK;
	char *units = part_path(path, "rtl");
	vta_status st = units ? vtasim_sim_set_vcd(t->sim, units, err)
			      : vta_fail(err, VTA_E_NOMEM, "out of memory");
	free(units);
	return st;
}

/* The run's waveform, around its walk: the file its writer fills (t->vcd, or with the RTL
 * datapath a part to merge with the RTL units' part) ... */
typedef struct wave_files {
	char *model, *units; /* units: the RTL units' part, or NULL */
	FILE *f;
} wave_files;

static vta_status wave_begin(trace_out *t, wave_files *w, vta_error *err)
{
	const int rtl = t->cfg->datapath == VTA_DATAPATH_RTL;
	w->model = rtl ? part_path(t->vcd, "model") : strdup(t->vcd);
	w->units = rtl ? part_path(t->vcd, "rtl") : NULL;
	w->f = NULL;
	if (!w->model || (rtl && !w->units))
		return vta_fail(err, VTA_E_NOMEM, "out of memory");
	if (!(w->f = fopen(w->model, "w")))
		return vta_fail(err, VTA_E_IO, "%s: cannot open the VCD file (%s)", w->model,
				strerror(errno));
	if (!(t->wave = trace_vcd_open(w->f, t->cfg, t->title)))
		return vta_fail(err, VTA_E_NOMEM, "out of memory");
	return VTA_OK;
}

/* ... and after it: the file written, merged with the RTL units' part if any. */
static vta_status wave_end(trace_out *t, wave_files *w, vta_status st, vta_error *err)
{
	if (t->wave && trace_vcd_close(t->wave) && !st)
		st = vta_fail(err, VTA_E_IO, "cannot write the waveform %s", w->model);
	t->wave = NULL;
	if (w->f && fclose(w->f) != 0 && !st)
		st = vta_fail(err, VTA_E_IO, "cannot write the waveform %s", w->model);
	if (!st && w->units) {
		/* the RTL units stamp 1000 ps per cycle (rtl_models/rtl_harness.h) */
		const uint64_t p = trace_vcd_period_ps(t->cfg);
		char comment[1400];
		trace_vcd_comment(t->cfg, comment, sizeof(comment) - 200);
		const size_t len = strlen(comment);
		snprintf(comment + len, sizeof(comment) - len,
			 " The RTL units' signals (scopes compute, lut_decoder): cycle c at "
			 "c x %" PRIu64 " ps (clk low) and c x %" PRIu64 " + %" PRIu64
			 " ps (clk high).",
			 p, p, p / 2);
		const vtasim_vcd_input in[2] = {{w->model, NULL, 1, 1}, {w->units, NULL, p, 1000}};
		st = vtasim_vcd_merge(in, 2, t->vcd, comment, err);
	}
	if (w->units) { /* both were parts */
		remove(w->model);
		remove(w->units);
	}
	free(w->model);
	free(w->units);
	return st;
}

vta_status trace_out_add(trace_out *t, const char *name, const vta_program *prog,
			 const vta_run_stats *stats, const vta_error *run_err, vta_error *err)
{
	if (!t || !stats)
		return vta_fail(err, VTA_E_USAGE, "trace_out_add: NULL argument");
	trace_run run = {.name = name, .prog = prog, .stats = stats, .err = run_err,
			 .offset = t->offset};
	run.recs = vtasim_sim_records(t->sim, &run.n);
	vtasim_sim_events(t->sim, &run.ev);
	if (!run.n) {
		if (t->vcd && t->cfg->datapath == VTA_DATAPATH_RTL) {
			char *units = part_path(t->vcd, "rtl");
			if (units)
				remove(units);
			free(units);
		}
		return VTA_OK;
	}
	t->offset += stats->cycles;
	wave_files w = {0};
	vta_status st = t->vcd ? wave_begin(t, &w, err) : VTA_OK;
	if (!st)
		st = trace_walk(&run, ++t->runs, t->cfg, to_writers, t, err);
	return t->vcd ? wave_end(t, &w, st, err) : st;
}

vta_status trace_out_host(trace_out *t, const char *name, double host_seconds, vta_error *err)
{
	if (!t || !name)
		return vta_fail(err, VTA_E_USAGE, "trace_out_host: NULL argument");
	if (t->log_file.f)
		trace_log_host(t->log_file.f, name, t->offset, host_seconds);
	if (t->chrome)
		trace_chrome_host(t->chrome, name, t->offset, host_seconds);
	return VTA_OK;
}

vta_status trace_out_close(trace_out *t, vta_error *err)
{
	if (!t)
		return VTA_OK;
	const int chrome_failed = t->chrome && trace_chrome_close(t->chrome);
	vta_status st = finish(&t->log_file, 0, VTA_OK, err);
	st = finish(&t->chrome_file, chrome_failed, st, err);
	if (t->timeline && !t->runs) { /* nothing ran: no picture */
		trace_timeline_close(t->timeline, NULL, NULL);
	} else if (t->timeline) {
		vta_status ts = trace_timeline_close(t->timeline, t->timeline_path, st ? NULL : err);
		st = st ? st : ts;
	}
	free(t->timeline_path);
	free(t->vcd);
	free(t->title);
	free(t);
	return st;
}
