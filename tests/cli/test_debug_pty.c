/*
 * test_debug_pty.c - `vtasim debug` at a terminal: the test types into a pseudo-terminal
 * (forkpty) as a user would and checks the answers: the prompt, a step, a blank line that
 * repeats it, a word corrected with backspace (line editing), the up arrow bringing back
 * the last command (history), an error that leaves the session going, continue to the end,
 * a print, quit. Then, on a long generated stream, Ctrl-C at the prompt (nothing happens)
 * and during a continue (it stops, the session goes on).
 *
 * Usage: test_debug_pty VTASIM CONFIG PROGRAM (PROGRAM: docs/examples/gemm.s)
 */
#define _DEFAULT_SOURCE /* forkpty */

#include <errno.h>
#include <poll.h>
#include <pty.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TIMEOUT_MS 30000

static int master = -1;
static pid_t child = -1;
static char seen[1 << 16]; /* everything the terminal showed */
static size_t n_seen, checked; /* bytes seen; bytes matched so far */

static void fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("test_debug_pty: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n--- the terminal showed:\n%.*s\n---\n", (int)n_seen, seen);
	if (child > 0)
		kill(child, SIGKILL);
	exit(1);
}

/* Read what the terminal shows now, without the NUL padding of vt100's delays; 0 at its
 * end. */
static int take(void)
{
	char buf[4096];
	ssize_t n = read(master, buf, sizeof(buf));
	if (n <= 0)
		return 0;
	for (ssize_t i = 0; i < n && n_seen + 1 < sizeof(seen); i++)
		if (buf[i])
			seen[n_seen++] = buf[i];
	return 1;
}

/* Read until `text` appears after what earlier expects matched. */
static void expect(const char *text)
{
	for (;;) {
		seen[n_seen] = '\0';
		const char *at = strstr(seen + checked, text);
		if (at) {
			checked = (size_t)(at - seen) + strlen(text);
			return;
		}
		struct pollfd p = {.fd = master, .events = POLLIN};
		int r = poll(&p, 1, TIMEOUT_MS);
		if (r == 0)
			fail("no '%s' within %d ms", text, TIMEOUT_MS);
		if (r < 0 && errno == EINTR)
			continue;
		if (!take())
			fail("the terminal closed before '%s'", text);
		if (n_seen + 1 >= sizeof(seen))
			fail("too much output");
	}
}

static void type(const char *keys)
{
	size_t len = strlen(keys);
	if (write(master, keys, len) != (ssize_t)len)
		fail("cannot type '%s'", keys);
}

/* How often `text` appears in everything seen. */
static int count(const char *text)
{
	int k = 0;
	seen[n_seen] = '\0';
	for (const char *p = seen; (p = strstr(p, text)); p += strlen(text))
		k++;
	return k;
}

/* Start `vtasim debug -c config program` at a new pseudo-terminal. */
static void start(const char *vtasim, const char *config, const char *program)
{
	struct winsize ws = {.ws_row = 50, .ws_col = 200};
	n_seen = checked = 0;
	child = forkpty(&master, NULL, NULL, &ws);
	if (child < 0)
		fail("forkpty: %s", strerror(errno));
	if (child == 0) {
		setenv("TERM", "vt100", 1);
		execl(vtasim, vtasim, "debug", "-c", config, program, (char *)NULL);
		perror("exec");
		_exit(127);
	}
}

/* Wait for the session to end with status 0. */
static void finish(void)
{
	int status = 0;
	if (waitpid(child, &status, 0) != child)
		fail("waitpid: %s", strerror(errno));
	child = -1;
	while (take()) /* what is left to read */
		;
	close(master);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fail("vtasim debug ended with status %d", status);
}

/* Ctrl-C: ignored at the prompt, stops a continue of a long stream (a load and a compute
 * NOP passing a token, many times over). */
static void interrupt(const char *vtasim, const char *config)
{
	char path[] = "/tmp/test_debug_pty_XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f)
		fail("cannot write a temporary program");
	for (int i = 0; i < 100000; i++)
		fputs("load mem=inp sram=0 dram=0 y=1 x=1 stride=1 deps=push_next\n"
		      "load mem=uop sram=0 dram=0 y=1 x=0 stride=0 deps=pop_prev\n",
		      f);
	fputs("finish\n", f);
	fclose(f);
	start(vtasim, config, path);
	expect("stopped at cycle 0");
	expect("(vtasim) ");
	type("\x03"); /* at the prompt: nothing */
	type("cycle\r");
	expect("\ncycle 0\r\n");
	expect("(vtasim) ");
	type("continue\r");
	/* A Ctrl-C discards a line the terminal has not passed on yet (as for any program):
	 * give libedit time to take it (the continue lasts seconds); then Ctrl-C until one
	 * lands inside the continue (those before it started do not count). */
	expect("continue\r\n");
	const struct timespec settle = {0, 500 * 1000 * 1000};
	nanosleep(&settle, NULL);
	for (int tries = 0; !strstr(seen + checked, "interrupted at cycle "); tries++) {
		if (strstr(seen + checked, "the run completed") || tries == 1200)
			fail("Ctrl-C did not interrupt the continue");
		type("\x03");
		const struct timespec pause = {0, 50 * 1000 * 1000};
		nanosleep(&pause, NULL);
		struct pollfd p = {.fd = master, .events = POLLIN};
		while (poll(&p, 1, 0) > 0)
			if (!take())
				fail("the terminal closed during the continue");
		seen[n_seen] = '\0';
	}
	expect("interrupted at cycle ");
	expect("(vtasim) ");
	type("quit\r");
	finish();
	unlink(path);
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: test_debug_pty VTASIM CONFIG PROGRAM\n");
		return 2;
	}
	start(argv[1], argv[2], argv[3]);
	expect("stopped at cycle 0");
	expect("(vtasim) ");
	type("step\r");
	expect("cycle 86: compute starts insn 0 (load");
	expect("(vtasim) ");
	type("\r"); /* a blank line repeats step */
	expect("cycle 87: load starts insn 1 (load");
	expect("(vtasim) ");
	type("cyclx\x7f" "e\r"); /* a typo erased with backspace */
	expect("\ncycle 87\r\n");
	expect("(vtasim) ");
	type("\x1b[A\r"); /* the up arrow: `cycle` again */
	expect("\ncycle 87\r\n");
	expect("(vtasim) ");
	type("frob\r");
	expect("error: unknown command 'frob' (try 'help')");
	expect("(vtasim) ");
	type("continue\r");
	expect("cycle 406: the run completed (FINISH retired)");
	expect("(vtasim) ");
	type("print inp 1\r");
	expect("INP 1:   -3    4    0   -4");
	expect("(vtasim) ");
	type("quit\r");
	finish();
	if (count("cycle 87\r\n") != 2) /* typed, then from the history */
		fail("expected 'cycle 87' twice, got %d", count("cycle 87\r\n"));
	interrupt(argv[1], argv[2]);
	printf("ok: vtasim debug at a terminal\n");
	return 0;
}
