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
	{"run", cmd_run,
	 "run -c CONFIG -w WORKLOAD [-o REPORT.json] [--mode tflite|vta16] [--threads 1|2] "
	 "[--dump DIR] [--engine sim|ref] [--inject-fault INDEX] [--log L.txt] [--trace T.json] "
	 "[--decompress hw|host] [--set KEY=VALUE]..."},
	{"exec", cmd_exec, "exec -c CONFIG PROGRAM [--dram IMAGE] [-o REPORT.json] "
			   "[--dump-dram ADDR:LEN:FILE]... [--engine sim|ref] [--log L.txt] "
			   "[--trace T.json] [--set KEY=VALUE]..."},
	{"config", cmd_config, "config FILE [--set KEY=VALUE]..."},
	{"asm", cmd_asm, "asm IN.s -c CONFIG -o OUT.bin"},
	{"disasm", cmd_disasm, "disasm IN.bin [-c CONFIG] [-o OUT.s]"},
	{"regress", cmd_regress, "regress [DIR] [-j N] [--update] [--filter SUBSTRING] "
				 "[--timeout SECONDS] [--set KEY=VALUE]..."},
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
