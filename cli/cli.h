/*
 * cli.h - shared pieces of the `vtasim` command: one entry point per subcommand and the
 * helpers they use to report errors. Only the CLI prints; libraries return vta_error.
 */
#ifndef VTASIM_CLI_H
#define VTASIM_CLI_H

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>

#include "vta_config.h"
#include "vta_status.h"

/* Each subcommand takes its own argv (argv[0] is the subcommand name) and returns the
 * process exit status (0 ok, 1 simulation problem, 2 bad input). */
int cmd_config(int argc, char **argv);
int cmd_asm(int argc, char **argv);
int cmd_disasm(int argc, char **argv);
int cmd_exec(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_run_model(int argc, char **argv); /* run -m MODEL.tflite */
int cmd_regress(int argc, char **argv);
int cmd_inspect(int argc, char **argv);
int cmd_compress(int argc, char **argv);
int cmd_debug(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_diff(int argc, char **argv);
/* Each subcommand's synopsis, written once: `vtasim --help` lists them and the subcommand
 * prints its own as "usage: vtasim <synopsis>" on a usage error. */
extern const char cmd_config_usage[], cmd_asm_usage[], cmd_disasm_usage[], cmd_exec_usage[],
	cmd_run_usage[], cmd_regress_usage[], cmd_inspect_usage[], cmd_compress_usage[],
	cmd_debug_usage[], cmd_sweep_usage[], cmd_run_model_usage[], cmd_diff_usage[];

/* One option of a command, written once: getopt_long's entry and its line of --help. Each
 * command has one table of them, ending with CLI_OPT_END (no name, no letter); -h/--help is
 * added to every one. */
typedef struct cli_opt {
	const char *name;  /* the long form, without "--", or NULL for a short one alone */
	char letter;       /* the short form (-c), or 0; when set, val is the same letter */
	int val;           /* what getopt_long returns for it */
	const char *arg;   /* the name of its value ("CONFIG"), or NULL for a switch */
	const char *help;  /* one line */
} cli_opt;
#define CLI_OPT_END {NULL, 0, 0, NULL, NULL}

/* A table's options as getopt_long takes them, -h/--help included, the optstring starting
 * with ':' (see cli_bad_option). */
#define CLI_MAX_OPTS 40
typedef struct cli_getopt {
	struct option longopts[CLI_MAX_OPTS + 2];
	char shortopts[3 * CLI_MAX_OPTS + 4];
} cli_getopt;
void cli_getopt_make(const cli_opt *opts, cli_getopt *g);

/* The option lines of --help, one per option of the table, then -h/--help. */
void cli_opts_help(FILE *f, const cli_opt *opts);

/* Each command's table (cmd_*.c), which its parser and its --help both read. */
extern const cli_opt cmd_config_opts[], cmd_asm_opts[], cmd_disasm_opts[], cmd_exec_opts[],
	cmd_run_opts[], cmd_regress_opts[], cmd_inspect_opts[], cmd_compress_opts[],
	cmd_debug_opts[], cmd_sweep_opts[], cmd_run_model_opts[], cmd_diff_opts[];

/* -h or --help in option position (as getopt sees it, so never an option's value, nor an
 * argument after "--") asks for a command's synopsis, whatever else the line holds: every
 * command's getopt tables (cli_getopt_make) hold -h and --help, and its parser
 * first calls cli_help_asked, a getopt pass that looks for 'h' alone. If asked, the parser
 * returns cli_command_help (the synopsis on stdout, CLI_HELP_SHOWN), which the command turns
 * into exit status 0 with CLI_EXIT; CLI_HELP_SHOWN tells "done" from "go on" (0). */
#define CLI_HELP_SHOWN (-1)
int cli_help_asked(int argc, char **argv, const char *optstring, const struct option *opts);
int cli_command_help(const char *name);
/* A parser's result as the command's exit status (CLI_HELP_SHOWN is success). */
#define CLI_EXIT(rc) ((rc) == CLI_HELP_SHOWN ? 0 : (rc))

/* Print "vtasim: error: <detail>" and return the exit code for the status. */
int cli_report_error(const vta_error *err);
/* Print "vtasim: error: <formatted>" and return 2 (bad usage). */
int cli_usage_error(const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 1, 2)))
#endif
	;

/* What a command line lacks, named: "CMD: no WHAT: give HOW (see 'vtasim CMD --help')",
 * e.g. cli_missing("run", "workload", "-w FILE or -m MODEL"); returns 2. */
int cli_missing(const char *cmd, const char *what, const char *how);
/* An argument the command takes no place for: "CMD: unexpected argument 'ARG' (see ...)";
 * returns 2. */
int cli_unexpected(const char *cmd, const char *arg);

/* getopt_long's error (its optstring starts with ':', so c is '?' for an unknown option and
 * ':' for a missing value) as one usage error line naming the option: returns 2. */
int cli_bad_option(int c, char **argv);
/* Text from input (a model's tensor names, its description) on stdout, escaped as every
 * message is (docs/robustness.md): control bytes, the C1 controls and bytes that are not
 * UTF-8 show as \xNN; nothing is cut. */
void cli_put_text(const char *s);
/* One line "vtasim: note: ..." on stderr, escaped as every message is: something the user
 * should know that is not an error (the command goes on). */
void cli_note(const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 1, 2)))
#endif
	;

/* --timeline PATH and --timeline-window WINDOW (either may be NULL) of exec and run: a
 * window needs a picture, the picture the timed model (use_ref: 1 for exec's --engine ref,
 * 2 for run's), PATH ends .svg or .png and WINDOW is "A:B" cycles (docs/cli.md). Sets the
 * window [from, to) (0, 0: all of it); returns 0 or a usage error's exit status. */
int cli_timeline_options(const char *path, const char *window, int use_ref, uint64_t *from,
			 uint64_t *to);

/* The --set KEY=VALUE options of run, exec, config and regress. */
#define CLI_MAX_SETS 32
typedef struct cli_sets {
	const char *items[CLI_MAX_SETS]; /* "KEY=VALUE", in command-line order */
	int n;
} cli_sets;

/* Record one --set argument; returns 0 or an exit code after printing the error. */
int cli_sets_add(cli_sets *sets, const char *arg);

/* Load a config file, then apply the --set options (sets may be NULL) in order, or print
 * the error; returns 0 or an exit code. */
int cli_load_config(const char *path, const cli_sets *sets, vta_config *cfg);

#endif /* VTASIM_CLI_H */
