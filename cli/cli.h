/*
 * cli.h - shared pieces of the `vtasim` command: one entry point per subcommand and the
 * helpers they use to report errors. Only the CLI prints; libraries return vta_error.
 */
#ifndef VTASIM_CLI_H
#define VTASIM_CLI_H

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
	cmd_debug_usage[], cmd_sweep_usage[], cmd_diff_usage[];
/* run's model form, whose --host-ops classes come from the operator registry: written into
 * buf (CLI_USAGE_MAX bytes are enough), which it returns. */
#define CLI_USAGE_MAX 512
const char *cmd_run_model_usage(char *buf, size_t size);

/* -h or --help in option position (as getopt sees it, so never an option's value, nor an
 * argument after "--") asks for a command's synopsis, whatever else the line holds: every
 * command's option table ends with CLI_HELP_OPTION, its optstring holds 'h', and its parser
 * first calls cli_help_asked, a getopt pass that looks for 'h' alone. If asked, the parser
 * returns cli_command_help (the synopsis on stdout, CLI_HELP_SHOWN), which the command turns
 * into exit status 0 with CLI_EXIT; CLI_HELP_SHOWN tells "done" from "go on" (0). */
#define CLI_HELP_OPTION {"help", no_argument, 0, 'h'}
#define CLI_HELP_SHOWN (-1)
struct option;
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
