/*
 * sweep_jobs.c - run a sweep's items in child processes, -j at a time (sweep.h, sw_jobs).
 *
 * Each child is a fork of this process: the parent never elaborates SystemC, so every child
 * starts without a model and builds its own for its point's config; it inherits the parsed
 * sweep, the workload and the resolved points, so nothing is parsed twice. A child leads its
 * own process group: a terminal's Ctrl-C reaches the parent only, which decides (kills the
 * children, discards their partial output, writes the results of the finished points). A
 * child past its deadline is killed with its group.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vta_rules.h" /* vta_host_now */
#include "sweep.h"

typedef struct slot {
	pid_t pid; /* 0: free */
	size_t item;
	double start, deadline;
	bool timed_out;
} slot;

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	nanosleep(&ts, NULL); /* a signal cuts it short, which is what we want */
}

static pid_t start(const sw_jobs *j, size_t item)
{
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		int rc = j->run(j->ctx, item);
		fflush(stdout);
		fflush(stderr);
		_exit(rc);
	}
	if (pid > 0)
		setpgid(pid, pid); /* also here: whichever runs first, no window */
	return pid;
}

static void finish(const sw_jobs *j, slot *s, int wstatus, bool interrupted)
{
	sw_job_end end = {0};
	end.seconds = vta_host_now() - s->start;
	end.pid = (long)s->pid;
	end.timed_out = s->timed_out;
	end.interrupted = interrupted;
	if (WIFEXITED(wstatus))
		end.exit_status = WEXITSTATUS(wstatus);
	else if (WIFSIGNALED(wstatus))
		end.signal = WTERMSIG(wstatus);
	s->pid = 0;
	j->done(j->ctx, s->item, &end);
}

size_t sweep_jobs_run(const sw_jobs *j, const size_t *items, size_t n)
{
	const int jobs = j->jobs > 0 ? j->jobs : 1;
	slot *slots = calloc((size_t)jobs, sizeof(*slots));
	if (!slots)
		return 0;
	size_t next = 0, ended = 0;
	int running = 0;
	double last_tick = 0;
	while ((next < n || running) && !*j->stop) {
		/* fill the free slots */
		for (int k = 0; k < jobs && next < n && !*j->stop; k++) {
			if (slots[k].pid)
				continue;
			pid_t pid = start(j, items[next]);
			if (pid < 0) {
				/* no process: report it as the item's failure and go on */
				sw_job_end end = {.exit_status = 127};
				j->done(j->ctx, items[next++], &end);
				ended++;
				continue;
			}
			slots[k] = (slot){pid, items[next++], vta_host_now(), 0, false};
			slots[k].deadline = slots[k].start + j->timeout_s;
			running++;
		}
		/* reap, and kill what is past its deadline */
		bool any = false;
		for (int k = 0; k < jobs; k++) {
			if (!slots[k].pid)
				continue;
			int ws;
			pid_t r = waitpid(slots[k].pid, &ws, WNOHANG);
			if (r == slots[k].pid || (r < 0 && errno == ECHILD)) {
				finish(j, &slots[k], r < 0 ? 0 : ws, false);
				running--;
				ended++;
				any = true;
			} else if (!slots[k].timed_out && vta_host_now() > slots[k].deadline) {
				slots[k].timed_out = true;
				kill(-slots[k].pid, SIGKILL);
			}
		}
		const double now = vta_host_now();
		if (j->tick && now - last_tick >= 0.2) {
			j->tick(j->ctx);
			last_tick = now;
		}
		if (!any && running)
			sleep_ms(10);
	}
	/* stopped: what ended already ended on its own; kill the rest, wait, say so */
	for (int k = 0; k < jobs; k++) {
		if (!slots[k].pid)
			continue;
		int ws = 0;
		if (waitpid(slots[k].pid, &ws, WNOHANG) == slots[k].pid) {
			finish(j, &slots[k], ws, false);
			ended++;
			continue;
		}
		kill(-slots[k].pid, SIGKILL);
		while (waitpid(slots[k].pid, &ws, 0) < 0 && errno == EINTR)
			;
		finish(j, &slots[k], ws, true);
	}
	free(slots);
	return ended;
}
