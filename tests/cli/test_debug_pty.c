/*
 * test_debug_pty.c - `vtasim debug` at a terminal: the test types into a pseudo-terminal
 * (forkpty) as a user would and checks the answers: the prompt, a step, a blank line that
 * repeats it, a word corrected with backspace (line editing), the up arrow bringing back
 * the last command (history), an error that leaves the session going, continue to the end,
 * a print, quit.
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
#include <sys/wait.h>
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

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: test_debug_pty VTASIM CONFIG PROGRAM\n");
		return 2;
	}
	struct winsize ws = {.ws_row = 50, .ws_col = 200};
	child = forkpty(&master, NULL, NULL, &ws);
	if (child < 0) {
		perror("forkpty");
		return 1;
	}
	if (child == 0) {
		setenv("TERM", "vt100", 1);
		execl(argv[1], argv[1], "debug", "-c", argv[2], argv[3], (char *)NULL);
		perror("exec");
		_exit(127);
	}
	expect("stopped at cycle 0");
	expect("(vtasim) ");
	type("step\r");
	expect("cycle 66: compute starts insn 0 (load");
	expect("(vtasim) ");
	type("\r"); /* a blank line repeats step */
	expect("cycle 68: load starts insn 1 (load");
	expect("(vtasim) ");
	type("cyclx\x7f" "e\r"); /* a typo erased with backspace */
	expect("\ncycle 68\r\n");
	expect("(vtasim) ");
	type("\x1b[A\r"); /* the up arrow: `cycle` again */
	expect("\ncycle 68\r\n");
	expect("(vtasim) ");
	type("frob\r");
	expect("error: unknown command 'frob' (try 'help')");
	expect("(vtasim) ");
	type("continue\r");
	expect("cycle 372: the run completed (FINISH retired)");
	expect("(vtasim) ");
	type("print inp 1\r");
	expect("INP 1:   -3    4    0   -4");
	expect("(vtasim) ");
	type("quit\r");
	int status = 0;
	if (waitpid(child, &status, 0) != child)
		fail("waitpid: %s", strerror(errno));
	child = -1;
	while (take()) /* what is left to read */
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		fail("vtasim debug ended with status %d", status);
	if (count("cycle 68\r\n") != 2) /* typed, then from the history */
		fail("expected 'cycle 68' twice, got %d", count("cycle 68\r\n"));
	printf("ok: vtasim debug at a terminal\n");
	return 0;
}
