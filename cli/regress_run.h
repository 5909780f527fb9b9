/*
 * regress_run.h - run one regression case in its own process: `vtasim exec` of the case's
 * program on the SystemC model (SystemC elaborates once per process, so every case needs a
 * fresh one), in a private temporary folder that receives the JSON report, the DRAM dumps and
 * the captured stdout/stderr. The parent polls its children so a case that hangs is killed
 * at its deadline instead of stalling the whole run.
 */
#ifndef VTASIM_REGRESS_RUN_H
#define VTASIM_REGRESS_RUN_H

#include <sys/types.h>

#include "cli.h"
#include "regress_case.h"

typedef struct regress_job {
	pid_t pid;            /* 0 when not running */
	char tmpdir[REGRESS_PATH_MAX];
	double deadline;      /* monotonic seconds */
	int finished;
	int exit_status;      /* valid when exited */
	int term_signal;      /* non-zero when killed by a signal */
	int timed_out;
} regress_job;

/* Start `self exec ...` for the case (self: this executable), with the --set options and,
 * when strict, --strict. */
vta_status regress_job_start(const char *self, const regress_case *c, const cli_sets *sets,
			     int strict, double timeout_s, regress_job *j, vta_error *err);

/* Non-blocking: if the job ended (or passed its deadline, then it is killed), fill the
 * result fields and return 1; else 0. */
int regress_job_poll(regress_job *j);

/* Paths of the files a job leaves in its folder. */
void regress_job_path(const regress_job *j, const char *name, char *out, size_t size);

/* First line of the job's stderr (without "vtasim: error: "), or "" if none. */
void regress_job_diagnosis(const regress_job *j, char *out, size_t size);

/* Remove the job's temporary folder and everything in it. */
void regress_job_cleanup(regress_job *j);

#endif /* VTASIM_REGRESS_RUN_H */
