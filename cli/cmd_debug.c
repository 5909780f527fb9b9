/*
 * cmd_debug.c - `vtasim debug`: the debugger's command loop over a session (debug.h).
 *
 * Commands come from a script (-x FILE: each echoed after the prompt; a bad one ends the
 * session with "vtasim: error: FILE:LINE: ...", exit status 2), from a terminal (libedit,
 * line_editor.h: line editing and history, or plain lines with a note when it cannot be
 * loaded; a blank line repeats step or continue; Ctrl-C interrupts a
 * continue or a long step and does nothing at the prompt), or from any other standard input
 * (read line by line, echoed, as a terminal session otherwise). A line holds at most
 * DEBUG_LINE_MAX bytes and a script VTA_LIMIT_SCRIPT, pipes included; what is echoed is
 * escaped (vta_text.h). A bad command at a terminal is reported and the session goes on.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "debug.h"
#include "line_editor.h"
#include "vta_asm.h"
#include "vta_file.h"
#include "vta_text.h"

#define PROMPT "(vtasim) "

const char cmd_debug_usage[] =
	"debug -c CONFIG PROGRAM [--dram IMAGE] [-x SCRIPT] [--set KEY=VALUE]...";

const cli_opt cmd_debug_opts[] = {
	{"config", 'c', 'c', "CONFIG", "the hardware config YAML (docs/configs.md)"},
	{"dram", 0, 'd', "IMAGE", "raw bytes loaded at DRAM address 0 before the program's own"},
	{"script", 'x', 'x', "SCRIPT", "read debugger commands from SCRIPT instead of the terminal"},
	{"set", 0, 'S', "KEY=VALUE", "override a config key (repeatable)"},
	CLI_OPT_END};

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* Run one command; a Ctrl-C from before it started does not count. */
static vta_status command(debug_session *s, const char *line, int *quit, vta_error *err)
{
	interrupted = 0;
	vta_status st = debug_command(s, line, quit, err);
	fflush(s->out);
	return st;
}

/* What was read, shown back as one line of visible text. */
static void echo(FILE *out, const char *line)
{
	char shown[DEBUG_LINE_MAX * 4 + 1];
	vta_escape(shown, sizeof(shown), line, strlen(line));
	fprintf(out, "%s\n", shown);
}

static int run_script(debug_session *s, FILE *in, const char *path)
{
	char line[DEBUG_LINE_MAX + 2];
	uint64_t total = 0;
	int lineno = 0, quit = 0, got;
	while (!quit && (got = debug_read_line(in, line, &total, VTA_LIMIT_SCRIPT)) != 0) {
		lineno++;
		vta_error err = {0};
		if (total > VTA_LIMIT_SCRIPT) { /* a pipe: a regular file was checked at open */
			vta_file_too_big(path, "debugger script", VTA_LIMIT_SCRIPT, &err);
			fflush(s->out);
			fprintf(stderr, "vtasim: error: %s\n", err.detail);
			return 2;
		}
		const char *p = line + strspn(line, " \t");
		if (got == DEBUG_LINE_OK && (!*p || *p == '#'))
			continue;
		if (got == DEBUG_LINE_OK) {
			fputs(PROMPT, s->out);
			echo(s->out, p);
		} else if (got == DEBUG_LINE_NUL) {
			vta_fail(&err, VTA_E_USAGE, "a NUL byte in the line (a command is text)");
		} else {
			vta_fail(&err, VTA_E_USAGE, "a line longer than %d bytes", DEBUG_LINE_MAX);
		}
		if (got != DEBUG_LINE_OK || command(s, p, &quit, &err) != VTA_OK) {
			fflush(s->out);
			fprintf(stderr, "vtasim: error: %s:%d: %s\n", VTA_QPATH(path), lineno,
				err.detail);
			return 2;
		}
	}
	return 0;
}

/* A blank line at the terminal repeats these. */
static int repeatable(const char *line)
{
	char word[16] = "";
	sscanf(line, "%15s", word);
	return !strcmp(word, "step") || !strcmp(word, "s") || !strcmp(word, "continue") ||
	       !strcmp(word, "c");
}

static int run_interactive(debug_session *s)
{
	const int tty = isatty(STDIN_FILENO);
	char last[DEBUG_LINE_MAX + 1] = "";
	int quit = 0;
	/* Ctrl-C interrupts a continue and is otherwise ignored: the reads it lands in are
	 * restarted, and libedit leaves the signal to us */
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	line_editor ed = {0};
	char why[256];
	if (tty && line_editor_open(&ed, "vtasim", why, sizeof(why)))
		fprintf(stderr, "vtasim: note: no line editing or history: %s\n", why);
	while (!quit) {
		char *line = NULL, piped[DEBUG_LINE_MAX + 2];
		int got = 1;
		uint64_t total = 0; /* standard input has no limit of its own: a line has */
		if (ed.lib) {
			line = ed.readline(PROMPT);
		} else {
			fputs(PROMPT, s->out);
			fflush(s->out);
			if ((got = debug_read_line(stdin, piped, &total, UINT64_MAX)) != DEBUG_LINE_END &&
			    (line = strdup(got == DEBUG_LINE_OK ? piped : "")) && !tty)
				echo(s->out, line); /* nobody echoed it (a terminal does) */
		}
		if (!line) { /* end of input: as quit */
			fputc('\n', s->out);
			break;
		}
		if (got != DEBUG_LINE_OK) {
			fflush(s->out);
			if (got == DEBUG_LINE_NUL)
				fprintf(stderr, "error: a NUL byte in the line (a command is text)\n");
			else
				fprintf(stderr, "error: a line longer than %d bytes\n", DEBUG_LINE_MAX);
			free(line);
			continue;
		}
		const char *p = line + strspn(line, " \t");
		if (*p) {
			if (ed.lib)
				ed.add_history(p);
			snprintf(last, sizeof(last), "%s", repeatable(p) ? p : "");
		} else {
			p = last;
		}
		vta_error err = {0};
		if (command(s, p, &quit, &err) != VTA_OK) {
			fflush(s->out);
			fprintf(stderr, "error: %s\n", err.detail);
		}
		free(line);
	}
	line_editor_close(&ed);
	return 0;
}

int cmd_debug(int argc, char **argv)
{
	const char *config = NULL, *image = NULL, *script = NULL;
	cli_sets sets = {.n = 0};
	cli_getopt g;
	cli_getopt_make(cmd_debug_opts, &g);
	int c, rc;
	if (cli_help_asked(argc, argv, g.shortopts, g.longopts))
		return CLI_EXIT(cli_command_help(argv[0]));
	optind = 1;
	while ((c = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
		switch (c) {
		case 'c': config = optarg; break;
		case 'd': image = optarg; break;
		case 'x': script = optarg; break;
		case 'S':
			if ((rc = cli_sets_add(&sets, optarg)))
				return rc;
			break;
		default: return cli_bad_option(c, argv);
		}
	}
	if (optind < argc - 1)
		return cli_unexpected("debug", argv[optind + 1]);
	if (optind == argc)
		return cli_missing("debug", "program", "PROGRAM, a stream as assembly (.s) or binary");
	if (!config)
		return cli_missing("debug", "config", "-c CONFIG");
	const char *program = argv[optind];

	FILE *in = NULL;
	vta_config cfg;
	vta_program prog;
	vta_error err = {0};
	uint64_t script_size;
	if (script && vta_file_open(script, "debugger script", VTA_LIMIT_SCRIPT, &in,
				    &script_size, &err))
		return cli_report_error(&err);
	debug_session s;
	if ((rc = cli_load_config(config, &sets, &cfg)))
		goto close;
	if (vta_program_load(program, &cfg, &prog, &err)) {
		rc = cli_report_error(&err);
		goto close;
	}
	if (debug_open(&s, &cfg, &prog, program, image, stdout, &err)) {
		rc = cli_report_error(&err);
	} else {
		s.interrupt = &interrupted;
		printf("vtasim debug: %s on %s, %zu instructions; stopped at cycle 0 ('help' lists "
		       "the commands)\n",
		       program, cfg.name, prog.n_insns);
		rc = in ? run_script(&s, in, script) : run_interactive(&s);
	}
	debug_close(&s);
	vta_program_free(&prog);
close:
	if (in)
		fclose(in);
	return rc;
}
