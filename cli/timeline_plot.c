/*
 * timeline_plot.c - the timeline picture drawn (see timeline.h): a gnuplot script of inline
 * data blocks, three panels on one time axis (the module lanes with their token arrows, the
 * tokens in each queue, the DRAM port's bandwidth), rendered by gnuplot's svg or pngcairo
 * terminal, the plotting tool the sweeps use. The lanes show every span when the collection
 * kept them all (detail), else the summary's columns.
 */
#include "timeline.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vta_text.h"

static const char *const KIND_NAMES[K_COUNT] = {
	"fetch burst", "load (inp, wgt)", "load (uop, acc, lut)", "gemm", "alu", "store",
	"nop, finish", "waiting on a token", "waiting on the DRAM port", "waiting for room"};
static const char *const KIND_COLOURS[K_COUNT] = {"#9c9c9c", "#4e79a7", "#76b7b2", "#f28e2b",
						  "#59a14f", "#b07aa1", "#cfc6c0", "#e15759",
						  "#edc948", "#ff9da7"};
static const char *const QUEUE_COLOURS[VTA_QUEUE_COUNT] = {"#1f3b73", "#8c2d04", "#006d2c",
							   "#54278f"};

#define TL_PLOT_PX 1020    /* the lanes' width in pixels, to tell which labels fit */
#define TL_CHAR_PX 6.5     /* a label character's width in pixels (sans, 8 pt) */
#define TL_RUNS_NAMED 24   /* runs in the window up to which each is named at its start */
#define TL_RUNS_MARKED 200 /* ... and up to which a line marks where each starts */
/* every panel's legend at the same place, right of the plots */
#define KEY "set key at screen 0.815, graph 1 left top Left reverse samplen 1.5 spacing 1.1"

/* gnuplot's single-quoted string: nothing in it is expanded; a quote is doubled. Control
 * bytes become '?' (the text is escaped already where it quotes input). */
static void gp_string(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("''", f);
		else
			fputc((unsigned char)*s < 0x20 ? '?' : *s, f);
	}
	fputc('\'', f);
}

/* Lanes top to bottom: fetch, load, compute, store. */
static double lane_y(int lane)
{
	return (double)(TL_LANES - lane);
}

/* Data block $kK: the boxes of kind K, "x0 x1 y0 y1". Returns the boxes written. */
static size_t detail_boxes(FILE *f, const trace_timeline *t, int kind)
{
	const tl_span *sp = t->spans.items;
	size_t n = 0;
	fprintf(f, "$k%d << EOD\n", kind);
	for (size_t i = 0; i < t->spans.n; i++) {
		if (sp[i].kind != kind)
			continue;
		/* executions fill the lane, stalls a little less, a wait inside an execution
		 * is a band across its middle */
		const double h = sp[i].nested ? 0.12 : sp[i].kind >= K_WAIT_TOKEN ? 0.28 : 0.38;
		const double y = lane_y(sp[i].lane);
		/* a zero-cycle span still shows, as a hairline */
		const double x1 = sp[i].end > sp[i].start ? (double)sp[i].end
							  : (double)sp[i].start + 0.05;
		fprintf(f, "%" PRIu64 " %.2f %.2f %.2f\n", sp[i].start, x1, y - h, y + h);
		n++;
	}
	fprintf(f, "EOD\n");
	return n;
}

/* Data block $kK in the summary: per column and lane, the share of kind K stacked over
 * the kinds before it. */
static size_t summary_boxes(FILE *f, const trace_timeline *t, int kind, uint64_t to)
{
	size_t n = 0;
	fprintf(f, "$k%d << EOD\n", kind);
	for (uint64_t j = 0; j < TL_BINS; j++) {
		const uint64_t x0 = t->from + j * t->bin_width;
		if (x0 >= to)
			break;
		const uint64_t x1 = x0 + t->bin_width < to ? x0 + t->bin_width : to;
		for (int l = 0; l < TL_LANES; l++) {
			const double *c = t->bins[j].cycles[l];
			if (c[kind] < 0.5)
				continue;
			double below = 0;
			for (int k = 0; k < kind; k++)
				below += c[k] > 0 ? c[k] : 0;
			const double w = (double)(x1 - x0), y0 = lane_y(l) - 0.4;
			fprintf(f, "%" PRIu64 " %" PRIu64 " %.4f %.4f\n", x0, x1,
				y0 + 0.8 * below / w, y0 + 0.8 * (below + c[kind]) / w);
			n++;
		}
	}
	fprintf(f, "EOD\n");
	return n;
}

static void write_lanes(FILE *f, const trace_timeline *t, uint64_t to, int svg)
{
	const int detail = !t->spans_over;
	size_t boxes[K_COUNT];
	for (int k = 0; k < K_COUNT; k++)
		boxes[k] = detail ? detail_boxes(f, t, k) : summary_boxes(f, t, k, to);
	const int arrows = detail && !t->arrows_over && t->arrows.n;
	if (arrows) {
		const tl_arrow *a = t->arrows.items;
		for (int q = 0; q < VTA_QUEUE_COUNT; q++) {
			fprintf(f, "$a%d << EOD\n", q);
			for (size_t i = 0; i < t->arrows.n; i++)
				if (a[i].queue == q)
					fprintf(f, "%" PRIu64 " %.2f %" PRIu64 " %.2f\n", a[i].from,
						lane_y(a[i].lane_from), a[i].to - a[i].from,
						lane_y(a[i].lane_to) - lane_y(a[i].lane_from));
			fprintf(f, "EOD\n");
		}
	}
	/* labels on the boxes they fit (else the instruction's number, if that fits), and
	 * in svg a tooltip on every instruction */
	size_t labels = 0, tips = 0;
	if (detail) {
		const tl_span *sp = t->spans.items;
		const char(*texts)[TL_TEXT] = t->texts.items;
		const double px = TL_PLOT_PX / (double)(to - t->from);
		fprintf(f, "$labels << EOD\n");
		for (size_t i = 0; i < t->spans.n; i++) {
			const double w = (double)(sp[i].end - sp[i].start) * px - 4;
			const size_t full = strlen(sp[i].label), number = strcspn(sp[i].label, " ");
			const size_t n = (double)full * TL_CHAR_PX <= w	    ? full
					 : (double)number * TL_CHAR_PX <= w ? number
									    : 0;
			if (!n || sp[i].nested)
				continue;
			fprintf(f, "%.2f %.2f \"%.*s\"\n",
				((double)sp[i].start + (double)sp[i].end) / 2, lane_y(sp[i].lane),
				(int)n, sp[i].label);
			labels++;
		}
		fprintf(f, "EOD\n$tips << EOD\n");
		for (size_t i = 0; svg && i < t->spans.n; i++)
			if (sp[i].text) {
				fprintf(f, "%.2f %.2f \"%s\"\n",
					((double)sp[i].start + (double)sp[i].end) / 2,
					lane_y(sp[i].lane) - 0.3, texts[sp[i].text]);
				tips++;
			}
		fprintf(f, "EOD\n");
	}
	fprintf(f, "set yrange [0.45:%d.55]\n", TL_LANES);
	fprintf(f, "set ytics (");
	for (int l = 0; l < TL_LANES; l++)
		fprintf(f, "%s'%s' %g", l ? ", " : "", trace_module_name(l), lane_y(l));
	fprintf(f, ")\nset ylabel ''\n%s\n", KEY);
	fprintf(f, "plot ");
	int first = 1;
	for (int k = 0; k < K_COUNT; k++) {
		if (!boxes[k])
			continue;
		fprintf(f, "%s$k%d using (($1+$2)/2):(($3+$4)/2):1:2:3:4 with boxxyerror fs solid "
			   "1.0 noborder lc rgb '%s' title '%s'",
			first ? "" : ", \\\n     ", k, KIND_COLOURS[k], KIND_NAMES[k]);
		first = 0;
	}
	if (arrows) {
		const tl_arrow *a = t->arrows.items;
		for (int q = 0; q < VTA_QUEUE_COUNT; q++) {
			int any = 0;
			for (size_t i = 0; i < t->arrows.n && !any; i++)
				any = a[i].queue == q;
			if (!any)
				continue;
			fprintf(f, "%s$a%d using 1:2:3:4 with vectors head filled size screen "
				   "0.006,20 lw 1.2 lc rgb '%s' title '%s token'",
				first ? "" : ", \\\n     ", q, QUEUE_COLOURS[q], vta_queue_name(q));
			first = 0;
		}
	}
	if (labels) {
		fprintf(f, "%s$labels using 1:2:3 with labels font ',8' tc rgb '#000000' notitle",
			first ? "" : ", \\\n     ");
		first = 0;
	}
	if (tips) {
		fprintf(f, "%s$tips using 1:2:3 with labels hypertext point pt 7 ps 0.3 "
			   "lc rgb '#303030' notitle",
			first ? "" : ", \\\n     ");
		first = 0;
	}
	if (first)
		fprintf(f, "NaN notitle"); /* nothing in the window: an empty frame */
	fprintf(f, "\n");
}

static void write_tokens(FILE *f, const trace_timeline *t, uint64_t to)
{
	long most = 0;
	fprintf(f, "$tok << EOD\n");
	if (!t->tokens_over) {
		const tl_tokens *k = t->tokens.items;
		long last[VTA_QUEUE_COUNT];
		memcpy(last, t->tok_before, sizeof(last));
		fprintf(f, "%" PRIu64 " %ld %ld %ld %ld\n", t->from, last[0], last[1], last[2],
			last[3]);
		for (int q = 0; q < VTA_QUEUE_COUNT; q++)
			most = last[q] > most ? last[q] : most;
		for (size_t i = 0; i < t->tokens.n; i++) {
			fprintf(f, "%" PRIu64, k[i].t);
			for (int q = 0; q < VTA_QUEUE_COUNT; q++) {
				fprintf(f, " %ld", k[i].n[q]);
				most = k[i].n[q] > most ? k[i].n[q] : most;
			}
			fprintf(f, "\n");
			memcpy(last, k[i].n, sizeof(last));
		}
		fprintf(f, "%" PRIu64 " %ld %ld %ld %ld\n", to, last[0], last[1], last[2], last[3]);
	} else {
		for (uint64_t j = 0; j < TL_BINS && t->from + j * t->bin_width < to; j++) {
			fprintf(f, "%" PRIu64, t->from + j * t->bin_width);
			for (int q = 0; q < VTA_QUEUE_COUNT; q++) {
				fprintf(f, " %ld", t->bins[j].tokens[q]);
				if (t->bins[j].tokens[q] > most)
					most = t->bins[j].tokens[q];
			}
			fprintf(f, "\n");
		}
		fprintf(f, "%" PRIu64 " 0 0 0 0\n", to);
	}
	fprintf(f, "EOD\n");
	fprintf(f, "set yrange [0:%ld.3]\nset ytics %s\nset ylabel '%s'\n", most > 0 ? most : 1,
		most <= 8 ? "1" : "autofreq", !t->tokens_over ? "tokens" : "tokens (most per column)");
	fprintf(f, "%s\nplot ", KEY);
	for (int q = 0; q < VTA_QUEUE_COUNT; q++)
		fprintf(f, "%s$tok using 1:%d with steps lw 1.5 lc rgb '%s' title '%s'",
			q ? ", " : "", q + 2, QUEUE_COLOURS[q], vta_queue_name(q));
	fprintf(f, "\n");
}

static void write_dram(FILE *f, const trace_timeline *t, uint64_t to)
{
	/* reads above the axis, writes below: they have channels of their own */
	fprintf(f, "$dram << EOD\n");
	if (!t->bursts_over) {
		const tl_burst *b = t->bursts.items;
		for (size_t i = 0; i < t->bursts.n; i++) {
			const double rate = (double)b[i].bytes / (double)(b[i].end - b[i].start);
			fprintf(f, "%" PRIu64 " %" PRIu64 " %.3f\n", b[i].start, b[i].end,
				b[i].write ? -rate : rate);
		}
	} else {
		for (uint64_t j = 0; j < TL_BINS && t->from + j * t->bin_width < to; j++) {
			const uint64_t x0 = t->from + j * t->bin_width;
			const uint64_t x1 = x0 + t->bin_width < to ? x0 + t->bin_width : to;
			const double w = (double)(x1 - x0);
			if (t->bins[j].read_bytes > 0)
				fprintf(f, "%" PRIu64 " %" PRIu64 " %.3f\n", x0, x1,
					t->bins[j].read_bytes / w);
			if (t->bins[j].write_bytes > 0)
				fprintf(f, "%" PRIu64 " %" PRIu64 " %.3f\n", x0, x1,
					-t->bins[j].write_bytes / w);
		}
	}
	fprintf(f, "EOD\n");
	fprintf(f, "set yrange [*:*]\nset ytics autofreq\nset ylabel 'DRAM B/cycle'\nset xlabel 'cycle'\n"
		   "set format x '%%.0f'\nset xtics\n" KEY "\n"
		   "plot 0 with lines lc rgb '#808080' notitle");
	fprintf(f, ", $dram using (($1+$2)/2):($3 > 0 ? $3/2 : NaN):1:2:(0):3 with boxxyerror "
		   "fs solid 0.8 noborder lc rgb '#4e79a7' title 'read'");
	fprintf(f, ", $dram using (($1+$2)/2):($3 < 0 ? $3/2 : NaN):1:2:3:(0) with boxxyerror "
		   "fs solid 0.8 noborder lc rgb '#b07aa1' title 'write'\n");
}

/* Marks on every panel: where each run starts (when there are not too many; named on the
 * top panel when there are few) and, always, where a failed run stopped (labelled on top). */
static void write_marks(FILE *f, const trace_timeline *t, uint64_t to, int top)
{
	const tl_run *r = t->runs.items;
	const int marked = t->runs.n > 1 && t->runs_in_window <= TL_RUNS_MARKED;
	const int named = top && marked && t->runs_in_window <= TL_RUNS_NAMED;
	int tag = 1;
	fprintf(f, "unset arrow\nunset label\n");
	for (size_t i = 0; i < t->runs.n; i++) {
		if (r[i].end <= t->from || r[i].start >= to)
			continue;
		if (marked && r[i].start > t->from)
			fprintf(f, "set arrow %d from %" PRIu64 ", graph 0 to %" PRIu64
				   ", graph 1 nohead dt 2 lc rgb '#606060'\n",
				tag++, r[i].start, r[i].start);
		if (named) {
			fprintf(f, "set label %d ", tag++);
			gp_string(f, r[i].name);
			fprintf(f, " at %" PRIu64 ", graph 1.02 left font ',8'\n",
				r[i].start > t->from ? r[i].start : t->from);
		}
		if (r[i].stopped[0] && r[i].end <= to) {
			fprintf(f, "set arrow %d from %" PRIu64 ", graph 0 to %" PRIu64
				   ", graph 1 nohead lw 2 lc rgb '#d00000'\n",
				tag++, r[i].end, r[i].end);
			if (top) {
				char text[TL_TEXT + 16];
				snprintf(text, sizeof(text), "stopped: %s", r[i].stopped);
				fprintf(f, "set label %d ", tag++);
				gp_string(f, text);
				fprintf(f, " at %" PRIu64 ", graph 1.02 right font ',9' "
					   "tc rgb '#d00000' front\n", r[i].end);
			}
		}
	}
}

/* The whole script: three panels sharing the time axis. */
static void write_script(FILE *f, const trace_timeline *t, const char *path, int svg)
{
	const uint64_t to = t->to ? t->to : (t->end > t->from ? t->end : t->from + 1);
	fprintf(f, "# vtasim --timeline: %s\n", t->title);
	if (svg)
		fprintf(f, "set terminal svg size 1400,780 noenhanced font 'sans,10' "
			   "background '#ffffff'\n");
	else
		fprintf(f, "set terminal pngcairo size 1400,780 noenhanced font 'sans,10'\n");
	fprintf(f, "set output ");
	gp_string(f, path);
	char what[512];
	if (!t->spans_over)
		snprintf(what, sizeof(what),
			 "cycles %" PRIu64 "-%" PRIu64 ", %zu of %zu instructions executing, "
			 "every one a box%s",
			 t->from, to, t->insns, t->insns_runs,
			 t->arrows_over ? "; too many tokens to draw as arrows" : "");
	else
		snprintf(what, sizeof(what),
			 "cycles %" PRIu64 "-%" PRIu64 ", %zu instructions executing: summary, each column "
			 "%" PRIu64 " cycles, the share of each state (--timeline-window A:B "
			 "for every instruction)",
			 t->from, to, t->insns, t->bin_width);
	fprintf(f, "\nset multiplot title ");
	gp_string(f, t->title);
	fprintf(f, ".\"\\n\".");
	gp_string(f, what);
	fprintf(f, "\n");
	fprintf(f, "set lmargin at screen 0.07\nset rmargin at screen 0.80\n"
		   "set xrange [%" PRIu64 ":%" PRIu64 "]\nset grid xtics lc rgb '#e0e0e0'\n"
		   "set format x ''\nset xlabel ''\nset border lc rgb '#404040'\n",
		t->from, to);
	fprintf(f, "set tmargin at screen 0.90\nset bmargin at screen 0.40\n");
	write_marks(f, t, to, 1);
	write_lanes(f, t, to, svg);
	fprintf(f, "set tmargin at screen 0.38\nset bmargin at screen 0.24\n");
	write_marks(f, t, to, 0);
	write_tokens(f, t, to);
	fprintf(f, "set tmargin at screen 0.22\nset bmargin at screen 0.07\n");
	write_marks(f, t, to, 0);
	write_dram(f, t, to);
	fprintf(f, "unset multiplot\nset output\n");
}

/* Run gnuplot on `script`; a failure is one line naming its first complaint. */
static vta_status run_gnuplot(const char *script, const char *path, vta_error *err)
{
	FILE *log = tmpfile();
	if (!log)
		return vta_fail(err, VTA_E_IO, "--timeline: cannot make a temporary file (%s)",
				strerror(errno));
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		fclose(log);
		return vta_fail(err, VTA_E_IO, "--timeline: cannot start gnuplot (%s)",
				strerror(errno));
	}
	if (pid == 0) {
		dup2(fileno(log), 1);
		dup2(fileno(log), 2);
		execlp("gnuplot", "gnuplot", script, (char *)NULL);
		_exit(127);
	}
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	char line[256] = "";
	rewind(log);
	while (fgets(line, sizeof(line), log)) /* the last line names the problem */
		if (line[strspn(line, " \t\r\n")] && !strstr(line, "^"))
			break;
	fclose(log);
	line[strcspn(line, "\r\n")] = 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return vta_fail(err, VTA_E_IO,
				"--timeline %s: gnuplot is not installed (Debian: gnuplot-nox)",
				VTA_QPATH(path));
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return vta_fail(err, VTA_E_IO, "--timeline %s: gnuplot failed: %s",
				VTA_QPATH(path), line);
	return VTA_OK;
}

vta_status timeline_plot(const trace_timeline *t, const char *path, vta_error *err)
{
	const char *dir = getenv("TMPDIR");
	char script[4096];
	snprintf(script, sizeof(script), "%s/vtasim-timeline-XXXXXX", dir && *dir ? dir : "/tmp");
	const int fd = mkstemp(script);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		if (fd >= 0)
			close(fd);
		return vta_fail(err, VTA_E_IO, "--timeline: cannot make a temporary file (%s)",
				strerror(errno));
	}
	const size_t n = strlen(path);
	write_script(f, t, path, n >= 4 && !strcmp(path + n - 4, ".svg"));
	const int bad = ferror(f);
	vta_status st = VTA_OK;
	if (fclose(f) != 0 || bad)
		st = vta_fail(err, VTA_E_IO, "--timeline: cannot write its script");
	if (!st)
		st = run_gnuplot(script, path, err);
	remove(script);
	return st;
}
