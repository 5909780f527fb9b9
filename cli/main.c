/*
 * main.c - `vtasim`: dispatch to a subcommand. See docs/cli.md for every option.
 */
#define _DEFAULT_SOURCE /* madvise */
#include <getopt.h>
#include <jansson.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <yaml.h>

#include "cli.h"
#include "rtl_compute.h"
#include "vta_text.h"
#include "vtasim_api.h"

/* Every command: its synopsis, its option table (both read by --help and the first by the
 * command's parser) and what it does, in one line for `vtasim help`. */
static const struct {
	const char *name;
	int (*fn)(int, char **);
	const char *usage;
	const cli_opt *opts;
	const char *does; /* NULL: a second form, listed under the first */
} COMMANDS[] = {
	{"run", cmd_run, cmd_run_usage, cmd_run_opts,
	 "simulate every layer of a workload (or a .tflite model), check it bit-exact, report"},
	/* run's second form, listed by --help; dispatch stops at the first "run" */
	{"run", cmd_run, cmd_run_model_usage, cmd_run_model_opts, NULL},
	{"exec", cmd_exec, cmd_exec_usage, cmd_exec_opts,
	 "run a raw instruction stream (assembly or binary) against a DRAM image"},
	{"debug", cmd_debug, cmd_debug_usage, cmd_debug_opts,
	 "step a stream: breakpoints, SRAM rows, queues and tokens"},
	{"config", cmd_config, cmd_config_usage, cmd_config_opts,
	 "check a hardware config and print what it derives"},
	{"asm", cmd_asm, cmd_asm_usage, cmd_asm_opts, "assemble a stream into its binary form"},
	{"disasm", cmd_disasm, cmd_disasm_usage, cmd_disasm_opts,
	 "disassemble a binary stream into assembly"},
	{"regress", cmd_regress, cmd_regress_usage, cmd_regress_opts,
	 "run the golden regression cases (traces/)"},
	{"inspect", cmd_inspect, cmd_inspect_usage, cmd_inspect_opts,
	 "show what a .tflite model holds and where each operator would run"},
	{"compress", cmd_compress, cmd_compress_usage, cmd_compress_opts,
	 "LUT-compress a model's constants in TFLM's format"},
	{"sweep", cmd_sweep, cmd_sweep_usage, cmd_sweep_opts,
	 "run a design-space sweep: results, plots, a page; cluster job scripts"},
	{"diff", cmd_diff, cmd_diff_usage, cmd_diff_opts,
	 "compare two run reports row by row: cycles, DRAM bytes, energy; a --threshold gate"},
};
#define NCOMMANDS (sizeof(COMMANDS) / sizeof(COMMANDS[0]))

static const char EXIT_STATUS[] =
	"exit status: 0 ok, 1 the simulation found a problem, 2 bad usage or input\n";

/* `vtasim help`: each command in one line, then every synopsis. */
static void usage(FILE *out)
{
	fprintf(out, "usage: vtasim COMMAND [ARGS]\n\ncommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (COMMANDS[i].does)
			fprintf(out, "  %-9s %s\n", COMMANDS[i].name, COMMANDS[i].does);
	fprintf(out, "  %-9s %s\n", "help", "this list; 'vtasim help COMMAND' is 'vtasim COMMAND --help'");
	fprintf(out, "\nsynopses:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(out, "  vtasim %s\n", COMMANDS[i].usage);
	fprintf(out, "  vtasim --version\n\n'vtasim COMMAND --help' explains each option of a "
		     "command; docs/cli.md says more.\n%s", EXIT_STATUS);
}

/* `vtasim COMMAND --help`: the command's synopsis (each form of run), then each form's
 * options, one line each, on stdout. */
static int command_help(const char *name)
{
	int forms = 0;
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(name, COMMANDS[i].name))
			printf("%s vtasim %s\n", forms++ ? "      " : "usage:", COMMANDS[i].usage);
	for (size_t i = 0; i < NCOMMANDS; i++) {
		if (strcmp(name, COMMANDS[i].name))
			continue;
		if (forms > 1) /* "run -c CONFIG -w WORKLOAD": the form's first words */
			printf("\noptions of vtasim %.*s:\n",
			       (int)(strstr(COMMANDS[i].usage, " [") - COMMANDS[i].usage),
			       COMMANDS[i].usage);
		else
			printf("\noptions:\n");
		cli_opts_help(stdout, COMMANDS[i].opts);
	}
	printf("\nEach option and the report keys are explained in docs/cli.md.\n%s", EXIT_STATUS);
	return 0;
}

/* A command's own -h/--help, found by its getopt loop: a word that is an option's value
 * (`regress --filter -h`) is not a request for help. */
int cli_command_help(const char *name)
{
	command_help(name);
	return CLI_HELP_SHOWN;
}

int cli_help_asked(int argc, char **argv, const char *optstring, const struct option *opts)
{
	/* on a copy: getopt permutes what it scans, and an option missing its value at the end
	 * would then take the next word on the command's own pass */
	char **copy = malloc(((size_t)argc + 1) * sizeof(*copy));
	if (!copy)
		return 0;
	memcpy(copy, argv, ((size_t)argc + 1) * sizeof(*copy));
	int c, asked = 0;
	optind = 1;
	while ((c = getopt_long(argc, copy, optstring, opts, NULL)) != -1)
		asked |= c == 'h';
	optind = 1; /* the command's own pass starts afresh */
	free(copy);
	return asked;
}

/* The project's version, then the libraries' that are linked in. */
static int version(void)
{
	printf("vtasim %s\n", VTASIM_VERSION);
	printf("  SystemC   %s\n", vtasim_systemc_version());
	printf("  Verilator %s\n", vta_rtl_verilator_version());
	printf("  libyaml   %s\n", yaml_get_version_string());
	printf("  jansson   %s\n", jansson_version_str());
	printf("  libedit   %s\n", VTASIM_LIBEDIT_VERSION);
	return 0;
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
	char raw[VTA_ERROR_DETAIL_MAX], line[VTA_ERROR_DETAIL_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	vta_escape(line, sizeof(line), raw, strlen(raw)); /* arguments quote the command line */
	fflush(stdout);
	fprintf(stderr, "vtasim: error: %s\n", line);
	return 2;
}

void cli_put_text(const char *s)
{
	/* a byte at a time into escapes of at most 4 bytes: no buffer of the text's size */
	const size_t n = strlen(s);
	for (size_t i = 0; i < n;) {
		/* a whole UTF-8 sequence at once, so valid ones stay as they are */
		size_t len = 1;
		while (len < 4 && i + len < n && ((unsigned char)s[i + len] & 0xc0) == 0x80)
			len++;
		char shown[4 * 4 + 1];
		vta_escape(shown, sizeof(shown), s + i, len);
		fputs(shown, stdout);
		i += len;
	}
}

void cli_note(const char *fmt, ...)
{
	char raw[VTA_ERROR_DETAIL_MAX], line[VTA_ERROR_DETAIL_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	vta_escape(line, sizeof(line), raw, strlen(raw));
	fflush(stdout);
	fprintf(stderr, "vtasim: note: %s\n", line);
}

int cli_missing(const char *cmd, const char *what, const char *how)
{
	return cli_usage_error("%s: no %s: give %s (see 'vtasim %s --help')", cmd, what, how, cmd);
}

int cli_unexpected(const char *cmd, const char *arg)
{
	return cli_usage_error("%s: unexpected argument '%s' (see 'vtasim %s --help')", cmd,
			       VTA_Q(arg), cmd);
}

int cli_bad_option(int c, char **argv)
{
	/* getopt left optind past the option when it was a word of its own; a long one is named
	 * by that word, a short one by optopt (it may sit inside a cluster like -zc) */
	const char *word = optind > 0 ? argv[optind - 1] : "";
	char name[64];
	if (!strncmp(word, "--", 2) && (optopt == 0 || c == ':'))
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(word, "="), word);
	else
		snprintf(name, sizeof(name), "-%c", optopt);
	if (c == ':')
		return cli_usage_error("option '%s' needs a value (see 'vtasim %s --help')",
				       VTA_Q(name),
				       argv[0]);
	return cli_usage_error("unrecognized option '%s' (see 'vtasim %s --help')", VTA_Q(name),
			       argv[0]);
}

/* The heap the run's tensors, streams and check shadows come from, grown once and advised
 * for transparent huge pages: a first touch then maps 2 MiB instead of 4 KiB, and page
 * faults were a fifth of a model run's host time (a kernel where THP is off or advice-only
 * just ignores or follows the advice; nothing else changes). */
#define HEAP_RESERVE ((size_t)96 << 20)
#define HUGE_PAGE ((uintptr_t)2 << 20)
static void *volatile below_first_huge_page; /* set once before main; kept reachable */
static void heap_huge_pages(void)
{
	char *p = malloc(HEAP_RESERVE); /* from the heap's top: below the mmap threshold */
	if (!p)
		return;
	uintptr_t lo = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	uintptr_t hi = ((uintptr_t)p + HEAP_RESERVE) & ~(HUGE_PAGE - 1);
	if (hi > lo)
		(void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
	const size_t below = (size_t)(lo - (uintptr_t)p);
	free(p); /* back to the heap's top, kept there by the trim threshold */
	/* The bytes below the first huge page stay allocated, untouched, so that the
	 * allocations that follow start on it instead of in 4 KiB pages (a chunk's header
	 * sits in the 16 bytes before the pointer malloc returns). */
	if (below > 64)
		below_first_huge_page = malloc(below - 16);
}

/* Run before any library's constructors (an executable's preinit array comes first), so the
 * few MiB libsystemc allocates and clears as it loads come from the advised heap too. */
static void heap_setup(int argc, char **argv, char **envp)
{
	(void)argc, (void)argv, (void)envp;
	/* Layers allocate and free tensors, DRAM images and streams of a few MiB each, one
	 * layer after another: keep freed memory in the process for the next layer rather
	 * than handing it back to the kernel and faulting fresh zeroed pages in again. */
	mallopt(M_MMAP_THRESHOLD, 256 << 20);
	mallopt(M_TRIM_THRESHOLD, 512 << 20);
	heap_huge_pages();
}
__attribute__((section(".preinit_array"), used)) static void (*const heap_setup_early)(
	int, char **, char **) = heap_setup;

int main(int argc, char **argv)
{
	opterr = 0; /* an option error is one "vtasim: error:" line: cli_bad_option */
	if (argc < 2) {
		usage(stderr);
		fprintf(stderr, "vtasim: error: no command given\n");
		return 2;
	}
	const char *cmd = argv[1];
	int help = 0;
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) {
		if (argc == 2) {
			usage(stdout);
			return 0;
		}
		cmd = argv[2]; /* vtasim help COMMAND */
		help = 1;
	}
	if (!strcmp(cmd, "--version"))
		return version();
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(cmd, COMMANDS[i].name))
			return help ? command_help(cmd) : COMMANDS[i].fn(argc - 1, argv + 1);
	vta_quoted q;
	return cli_usage_error("unknown command '%s' (try 'vtasim --help')", vta_quote(&q, cmd));
}
