/*
 * sweep_emit.c - a sweep for more than one machine (sweep.h, docs/sweep.md "Beyond one
 * machine"): a Slurm array job with a task per shard, or a GNU parallel job list with a
 * line per shard. Shard K runs the points at positions K, K+N, K+2N, ... with the same
 * command as a local sweep (`vtasim sweep FILE --shard K/N`) into DIR/shards/K, reading the
 * golden outputs the emitting command computed into DIR/golden; `vtasim sweep --merge DIR`
 * then gathers the shards' records (for Slurm, a merge job submitted after the array does
 * it). Rerunning a task resumes its shard.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sweep.h"
#include "vta_text.h"

/* A word for sh, in single quotes ('it'\''s'): nothing in it expands. */
static void sh_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

/* A word for an #SBATCH line, which sbatch splits at blanks and reads with its own quotes,
 * backslash escapes and '#' comments: every byte but the plainest is backslash-escaped.
 * In a file name pattern (--output) '%' is Slurm's and a literal one is written "%%". */
static void sbatch_word(FILE *f, const char *s, bool pattern)
{
	for (; *s; s++) {
		const unsigned char c = (unsigned char)*s;
		if (pattern && c == '%')
			fputs("\\%\\%", f);
		else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (c >= '0' && c <= '9') || strchr("/._-+,=@", c))
			fputc(c, f);
		else
			fprintf(f, "\\%c", c);
	}
}

/* A value a script line carries: a control byte (a newline above all, which would end the
 * line and start a command) cannot be quoted for every reader of the script, so it is
 * refused; so is a backslash in a Slurm output path, where it turns Slurm's %a off. */
static vta_status script_value(const char *kind, const char *what, const char *s,
			       bool path, bool slurm_path, vta_error *err)
{
	vta_quoted q;
	vta_quoted_path qp;
	const char *shown = path ? vta_quote_path(&qp, s) : vta_quote(&q, s);
	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		if (*c < 0x20 || *c == 0x7f)
			return vta_fail(err, VTA_E_USAGE, "--emit %s: %s '%s' holds a control "
					"character, which a job script cannot carry", kind, what,
					shown);
		if (slurm_path && *c == '\\')
			return vta_fail(err, VTA_E_USAGE, "--emit %s: %s '%s' holds a backslash, "
					"which Slurm's output file names do not allow", kind, what,
					shown);
	}
	return VTA_OK;
}

vta_status sweep_emit_check(const sweep *sw, const sw_emit *e, vta_error *err)
{
	const bool slurm = !strcmp(e->kind, "slurm");
	vta_status st;
	if ((st = script_value(e->kind, "the sweep's name", sw->name, false, false, err)) ||
	    (st = script_value(e->kind, "the output folder", e->dir, true, slurm, err)) ||
	    (st = script_value(e->kind, "the sweep file", sw->path, true, false, err)) ||
	    (st = script_value(e->kind, "this vtasim's path", e->self, true, false, err)))
		return st;
	for (size_t i = 0; i < e->n_sbatch_args; i++) {
		const char *a = e->sbatch_args[i];
		vta_quoted q;
		if (a[0] != '-')
			return vta_fail(err, VTA_E_USAGE, "--sbatch-arg '%s': expected an sbatch "
					"option (--partition=NAME, --account=NAME, --mem=4G, ...)",
					vta_quote(&q, a));
		if ((st = script_value(e->kind, "the sbatch option", a, false, false, err)))
			return st;
	}
	return VTA_OK;
}

size_t sweep_emit_shards(size_t n, double point_s, double shard_minutes, int jobs)
{
	const size_t most = n < SW_MAX_SHARDS ? (n ? n : 1) : SW_MAX_SHARDS;
	const double per_shard = shard_minutes * 60.0 * (jobs > 0 ? jobs : 1);
	if (!(point_s > 0) || !(per_shard > 0))
		return most;
	const double want = ceil((double)n * point_s / per_shard);
	return want < 1 ? 1 : want > (double)most ? most : (size_t)want;
}

/* Open DIR/name's temporary file; the caller writes it and hands it to script_close. */
static FILE *script_open(const char *dir, const char *name, char *path, size_t size,
			 char *tmp, size_t tmp_size, vta_error *err)
{
	snprintf(path, size, "%s/%s", dir, name);
	snprintf(tmp, tmp_size, "%s.tmp.%ld", path, (long)getpid());
	FILE *f = fopen(tmp, "w");
	if (!f)
		vta_fail(err, VTA_E_IO, "%s: cannot write: %s", tmp, strerror(errno));
	return f;
}

/* Close and rename a script into place (executable when `exec`). */
static vta_status script_close(FILE *f, const char *path, const char *tmp, bool exec,
			       vta_error *err)
{
	if (fclose(f) != 0 || rename(tmp, path) != 0 || (exec && chmod(path, 0755) != 0)) {
		int en = errno;
		unlink(tmp);
		return vta_fail(err, VTA_E_IO, "%s: cannot write: %s", path, strerror(en));
	}
	return VTA_OK;
}

/* The #SBATCH lines every job of the sweep carries: its name, the user's options. */
static void sbatch_common(FILE *f, const sweep *sw, const sw_emit *e, const char *job)
{
	fputs("#SBATCH --job-name=", f);
	sbatch_word(f, job, false);
	sbatch_word(f, sw->name, false);
	fputc('\n', f);
	for (size_t i = 0; i < e->n_sbatch_args; i++) {
		fputs("#SBATCH ", f);
		sbatch_word(f, e->sbatch_args[i], false);
		fputc('\n', f);
	}
}

/* DIR/merge.sbatch: `vtasim sweep --merge DIR`, one task, its output in DIR/merge.out. */
static vta_status write_merge_job(const sweep *sw, const sw_emit *e, vta_error *err)
{
	char path[SW_PATH_MAX + 32], tmp[SW_PATH_MAX + 64];
	FILE *f = script_open(e->dir, "merge.sbatch", path, sizeof(path), tmp, sizeof(tmp), err);
	if (!f)
		return err->status;
	fputs("#!/bin/sh\n# Generated by vtasim sweep --emit slurm: the merge of sweep ", f);
	sh_quote(f, sw->name);
	fputs(", submitted by submit.sh to run after every shard.\n", f);
	sbatch_common(f, sw, e, "vtasim-merge-");
	fputs("#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n#SBATCH --time=30\n"
	      "#SBATCH --output=", f);
	sbatch_word(f, e->dir, true);
	fputs("/merge.out\nset -eu\nexec ", f);
	sh_quote(f, e->self);
	fputs(" sweep --merge ", f);
	sh_quote(f, e->dir);
	fputc('\n', f);
	return script_close(f, path, tmp, true, err);
}

/* DIR/submit.sh: the array job, then the merge job once the array has ended, however its
 * tasks ended (a merge of what finished; the rest stays pending). */
static vta_status write_submit(const sw_emit *e, const char *array, vta_error *err)
{
	char path[SW_PATH_MAX + 32], tmp[SW_PATH_MAX + 64], merge[SW_PATH_MAX + 32];
	snprintf(merge, sizeof(merge), "%s/merge.sbatch", e->dir);
	FILE *f = script_open(e->dir, "submit.sh", path, sizeof(path), tmp, sizeof(tmp), err);
	if (!f)
		return err->status;
	fputs("#!/bin/sh\n# Generated by vtasim sweep --emit slurm: submit the shards, then "
	      "their merge.\nset -eu\njob=$(sbatch --parsable ", f);
	sh_quote(f, array);
	fputs(")\njob=${job%%;*}\nsbatch --dependency=afterany:\"$job\" ", f);
	sh_quote(f, merge);
	fputc('\n', f);
	return script_close(f, path, tmp, true, err);
}

/* The command of shard `k` (NULL: "$SLURM_ARRAY_TASK_ID"). */
static void shard_command(FILE *f, const sweep *sw, const sw_emit *e, const size_t *k)
{
	char golden[SW_PATH_MAX + 16];
	snprintf(golden, sizeof(golden), "%s/golden", e->dir);
	sh_quote(f, e->self);
	fputs(" sweep ", f);
	sh_quote(f, sw->path);
	if (k)
		fprintf(f, " --shard %zu/%zu", *k, e->shards);
	else
		fprintf(f, " --shard \"$SLURM_ARRAY_TASK_ID/%zu\"", e->shards);
	fprintf(f, " -j %d --timeout %g --golden ", e->jobs, e->timeout_s);
	sh_quote(f, golden);
	fputs(" --no-plots -o ", f);
	char shard[SW_PATH_MAX + 32];
	if (k) {
		snprintf(shard, sizeof(shard), "%s/shards/%zu", e->dir, *k);
		sh_quote(f, shard);
	} else {
		snprintf(shard, sizeof(shard), "%s/shards/", e->dir);
		sh_quote(f, shard);
		fputs("\"$SLURM_ARRAY_TASK_ID\"", f);
	}
	fputc('\n', f);
}

vta_status sweep_emit_write(const sweep *sw, size_t n_points, const sw_emit *e, char *script,
			    size_t size, vta_error *err)
{
	const bool slurm = !strcmp(e->kind, "slurm");
	vta_status st = sweep_emit_check(sw, e, err);
	if (st)
		return st;
	/* Slurm opens a task's output file before the task starts: the folders exist first */
	for (size_t k = 0; k < e->shards; k++) {
		char shard[SW_PATH_MAX + 32];
		snprintf(shard, sizeof(shard), "%s/shards/%zu", e->dir, k);
		st = sweep_mkdir_p(shard, err);
		if (st)
			return st;
	}
	char tmp[SW_PATH_MAX + 64];
	FILE *f = script_open(e->dir, slurm ? "sweep.sbatch" : "jobs.txt", script, size, tmp,
			      sizeof(tmp), err);
	if (!f)
		return err->status;
	const size_t per_shard = (n_points + e->shards - 1) / e->shards;
	if (slurm) {
		/* the task's limit: its points' timeouts, -j at a time, and some slack */
		const double rounds = ceil((double)per_shard / (e->jobs > 0 ? e->jobs : 1));
		const long minutes = (long)ceil(rounds * e->timeout_s / 60.0 * 1.2) + 5;
		fputs("#!/bin/sh\n# Generated by vtasim sweep --emit slurm: sweep ", f);
		sh_quote(f, sw->name);
		fprintf(f, ", %zu point%s in %zu shard%s.\n# Submit with: sbatch ", n_points,
			n_points == 1 ? "" : "s", e->shards, e->shards == 1 ? "" : "s");
		sh_quote(f, script);
		fputs(" (or sh submit.sh: the shards, then their merge)\n# Then: vtasim sweep "
		      "--merge ", f);
		sh_quote(f, e->dir);
		fputc('\n', f);
		sbatch_common(f, sw, e, "vtasim-sweep-");
		fprintf(f, "#SBATCH --array=0-%zu\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=%d\n"
			   "#SBATCH --time=%ld\n#SBATCH --output=",
			e->shards - 1, e->jobs, minutes);
		sbatch_word(f, e->dir, true);
		fputs("/shards/%a/slurm.out\n", f);
		fputs("set -eu\nexec ", f);
		shard_command(f, sw, e, NULL);
	} else {
		fputs("# Generated by vtasim sweep --emit parallel: sweep ", f);
		sh_quote(f, sw->name);
		fprintf(f, ", %zu points in %zu shards, a line each.\n# Run with: parallel < ",
			n_points, e->shards);
		sh_quote(f, script);
		fputs("\n# Then: vtasim sweep --merge ", f);
		sh_quote(f, e->dir);
		fputc('\n', f);
		for (size_t k = 0; k < e->shards; k++)
			shard_command(f, sw, e, &k);
	}
	if ((st = script_close(f, script, tmp, slurm, err)))
		return st;
	if (slurm && ((st = write_merge_job(sw, e, err)) || (st = write_submit(e, script, err))))
		return st;
	return VTA_OK;
}
