/*
 * main.c - `vtasim`: dispatch to a subcommand. See docs/cli.md for every option.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli.h"

static const struct {
	const char *name;
	int (*fn)(int, char **);
	const char *usage;
} COMMANDS[] = {
	{"run", cmd_run, cmd_run_usage},
	/* run's second form, listed by --help; dispatch stops at the first "run" */
	{"run", cmd_run, cmd_run_model_usage},
	{"exec", cmd_exec, cmd_exec_usage},
	{"debug", cmd_debug, cmd_debug_usage},
	{"config", cmd_config, cmd_config_usage},
	{"asm", cmd_asm, cmd_asm_usage},
	{"disasm", cmd_disasm, cmd_disasm_usage},
	{"regress", cmd_regress, cmd_regress_usage},
	{"inspect", cmd_inspect, cmd_inspect_usage},
	{"compress", cmd_compress, cmd_compress_usage},
	{"sweep", cmd_sweep, cmd_sweep_usage},
};
#define NCOMMANDS (sizeof(COMMANDS) / sizeof(COMMANDS[0]))

static void usage(FILE *out)
{
	fprintf(out, "usage: vtasim COMMAND [ARGS]\n\ncommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(out, "  vtasim %s\n", COMMANDS[i].usage);
	fprintf(out, "\nexit status: 0 ok, 1 the simulation found a problem, 2 bad usage or input\n");
}

int cli_report_error(const vta_error *err)
{
	fflush(stdout); /* keep the report and the error line in order on a shared terminal */
	fprintf(stderr, "vtasim: error: %s\n",
		err->detail[0] ? err->detail : vta_status_str(err->status));
	return vta_status_exit_code(err->status);
}

int cli_usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fflush(stdout);
	fputs("vtasim: error: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	return 2;
}

double cli_now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		fprintf(stderr, "vtasim: error: no command given\n");
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(argv[1], COMMANDS[i].name))
			return COMMANDS[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "vtasim: error: unknown command '%s' (try 'vtasim --help')\n", argv[1]);
	return 2;
}
