/* regress_run.c - one regression case as a child `vtasim exec` process (regress_run.h). */
#include "regress_run.h"
#include "vta_rules.h" /* vta_host_now */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_ARGS (17 + 2 * REGRESS_MAX_OUTPUTS + 2 * CLI_MAX_SETS)

void regress_job_path(const regress_job *j, const char *name, char *out, size_t size)
{
	snprintf(out, size, "%s/%s", j->tmpdir, name);
}

vta_status regress_job_start(const char *self, const regress_case *c, const cli_sets *sets,
			     int strict, double timeout_s, regress_job *j, vta_error *err)
{
	memset(j, 0, sizeof(*j));
	const char *tmp = getenv("TMPDIR");
	snprintf(j->tmpdir, sizeof(j->tmpdir), "%s/vtasim-regress-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(j->tmpdir))
		return vta_fail(err, VTA_E_IO, "%s: cannot create a temporary folder: %s",
				j->tmpdir, strerror(errno));

	/* Everything the child needs is prepared before fork. */
	char report[REGRESS_PATH_MAX + 32], out_path[REGRESS_PATH_MAX + 32],
		err_path[REGRESS_PATH_MAX + 32];
	char dumps[REGRESS_MAX_OUTPUTS][REGRESS_PATH_MAX + 64];
	char *argv[MAX_ARGS];
	int n = 0;
	argv[n++] = (char *)self;
	argv[n++] = (char *)"exec";
	argv[n++] = (char *)"-c";
	argv[n++] = (char *)c->config;
	for (int i = 0; i < sets->n; i++) {
		argv[n++] = (char *)"--set";
		argv[n++] = (char *)sets->items[i];
	}
	if (strict)
		argv[n++] = (char *)"--strict";
	if (c->dram[0]) {
		argv[n++] = (char *)"--dram";
		argv[n++] = (char *)c->dram;
	}
	regress_job_path(j, "report.json", report, sizeof(report));
	argv[n++] = (char *)"-o";
	argv[n++] = report;
	for (size_t i = 0; i < c->n_outputs; i++) {
		snprintf(dumps[i], sizeof(dumps[i]), "0x%" PRIx64 ":%" PRIu64 ":%s/out%zu.bin",
			 c->outputs[i].addr, c->outputs[i].len, j->tmpdir, i);
		argv[n++] = (char *)"--dump-dram";
		argv[n++] = dumps[i];
	}
	argv[n++] = (char *)c->program;
	argv[n] = NULL;
	regress_job_path(j, "stdout.txt", out_path, sizeof(out_path));
	regress_job_path(j, "stderr.txt", err_path, sizeof(err_path));

	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0) {
		vta_fail(err, VTA_E_IO, "cannot start a process: %s", strerror(errno));
		regress_job_cleanup(j);
		return VTA_E_IO;
	}
	if (pid == 0) {
		/* the child: private folder, captured output, then `vtasim exec` */
		int fo = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
		int fe = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
		int fi = open("/dev/null", O_RDONLY);
		if (fo < 0 || fe < 0 || fi < 0 || dup2(fi, 0) < 0 || dup2(fo, 1) < 0 ||
		    dup2(fe, 2) < 0 || chdir(j->tmpdir) != 0)
			_exit(126);
		execv(self, argv);
		dprintf(2, "vtasim: error: cannot run %s: %s\n", self, strerror(errno));
		_exit(127);
	}
	j->pid = pid;
	j->deadline = vta_host_now() + timeout_s;
	return VTA_OK;
}

int regress_job_poll(regress_job *j)
{
	if (j->finished)
		return 1;
	if (!j->pid)
		return 0;
	int ws = 0;
	pid_t r = waitpid(j->pid, &ws, WNOHANG);
	if (r == 0) {
		if (vta_host_now() < j->deadline)
			return 0;
		kill(j->pid, SIGKILL);
		j->timed_out = 1;
		while ((r = waitpid(j->pid, &ws, 0)) < 0 && errno == EINTR)
			;
	}
	j->finished = 1;
	j->pid = 0;
	if (r < 0) {
		j->exit_status = -1;
		return 1;
	}
	if (WIFEXITED(ws))
		j->exit_status = WEXITSTATUS(ws);
	else if (WIFSIGNALED(ws))
		j->term_signal = WTERMSIG(ws);
	return 1;
}

void regress_job_diagnosis(const regress_job *j, char *out, size_t size)
{
	static const char PREFIX[] = "vtasim: error: ";
	char path[REGRESS_PATH_MAX + 32], line[1024];
	out[0] = '\0';
	regress_job_path(j, "stderr.txt", path, sizeof(path));
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (!strncmp(line, PREFIX, sizeof(PREFIX) - 1)) {
			snprintf(out, size, "%s", line + sizeof(PREFIX) - 1);
			break;
		}
		if (!out[0] && line[0])
			snprintf(out, size, "%s", line); /* no error line: the first line */
	}
	fclose(f);
}

void regress_job_cleanup(regress_job *j)
{
	if (!j->tmpdir[0])
		return;
	DIR *d = opendir(j->tmpdir);
	if (d) {
		struct dirent *e;
		char path[REGRESS_PATH_MAX + 300];
		while ((e = readdir(d))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			snprintf(path, sizeof(path), "%s/%s", j->tmpdir, e->d_name);
			unlink(path);
		}
		closedir(d);
	}
	rmdir(j->tmpdir);
	j->tmpdir[0] = '\0';
}
