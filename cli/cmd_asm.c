/*
 * cmd_asm.c - `vtasim asm` and `vtasim disasm`: text assembly to binary stream and back. The
 * assembler also applies every rule an instruction and the config decide alone, so a stream
 * that `exec` would refuse for one of them is refused here, at its line.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "portable.h"
#include "vta_asm.h"
#include "vta_program.h"
#include "vta_text.h"

const char cmd_asm_usage[] =
	"asm IN.s -c CONFIG [--set KEY=VALUE]... -o OUT.bin [--portable hls|chisel|fsim]";
const char cmd_disasm_usage[] = "disasm IN.bin [-c CONFIG [--set KEY=VALUE]...] [-o OUT.s]";

const cli_opt cmd_asm_opts[] = {
	{"config", 'c', 'c', "CONFIG", "the hardware config YAML: geometry, encoding, rules"},
	{"set", 0, 'S', "KEY=VALUE", "set one config key over the file (repeatable)"},
	{"output", 'o', 'o', "OUT.bin", "the binary stream to write"},
	{"portable", 0, 'P', "hls|chisel|fsim", "first check the stream runs the same on that VTA"},
	CLI_OPT_END};

const cli_opt cmd_disasm_opts[] = {
	{"config", 'c', 'c', "CONFIG", "the config to read with (default: the stream's header)"},
	{"set", 0, 'S', "KEY=VALUE", "set one key of -c CONFIG over the file (repeatable)"},
	{"output", 'o', 'o', "OUT.s", "the assembly to write (default: stdout)"},
	{"portable", 0, 'P', "TARGET", "refused: only asm and exec check portability"},
	CLI_OPT_END};

/* The shape both commands share: one input file, -c CONFIG with its --set options and -o
 * OUT (and for asm, --portable TARGET: portable NULL refuses it); `what` names the input
 * when it is missing. */
static int parse_opts(int argc, char **argv, const char *what, const char **config,
		      cli_sets *sets, const char **out, const char **portable)
{
	cli_getopt g;
	cli_getopt_make(portable ? cmd_asm_opts : cmd_disasm_opts, &g);
	int c, rc;
	if (cli_help_asked(argc, argv, g.shortopts, g.longopts))
		return cli_command_help(argv[0]);
	optind = 1;
	while ((c = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
		if (c == 'c')
			*config = optarg;
		else if (c == 'S' && (rc = cli_sets_add(sets, optarg)))
			return rc;
		else if (c == 'S')
			continue;
		else if (c == 'o')
			*out = optarg;
		else if (c == 'P' && portable)
			*portable = optarg;
		else if (c == 'P')
			return cli_usage_error("--portable: only asm and exec check portability");
		else
			return cli_bad_option(c, argv);
	}
	if (optind < argc - 1)
		return cli_unexpected(argv[0], argv[optind + 1]);
	if (optind == argc)
		return cli_missing(argv[0], "input", what);
	if (sets->n && !*config)
		return cli_usage_error("--set needs -c CONFIG to set keys of");
	return 0;
}

int cmd_asm(int argc, char **argv)
{
	const char *config = NULL, *out = NULL, *portable = NULL;
	cli_sets sets = {.n = 0};
	int rc = parse_opts(argc, argv, "IN.s, a stream as assembly", &config, &sets, &out,
			    &portable);
	if (rc)
		return CLI_EXIT(rc);
	if (!config)
		return cli_missing("asm", "config", "-c CONFIG");
	if (!out)
		return cli_missing("asm", "output", "-o OUT.bin");
	vta_error err = {0};
	vta_target target = VTA_TARGET_HLS;
	if (portable && vta_target_parse(portable, &target, &err))
		return cli_usage_error("--portable: %s", err.detail);
	vta_config cfg;
	if ((rc = cli_load_config(config, &sets, &cfg)))
		return rc;
	vta_program prog;
	vta_program_init(&prog, &cfg);
	vta_status st = vta_asm_file_checked(argv[optind], &cfg, &prog, &err);
	if (st) {
		vta_program_free(&prog);
		return cli_report_error(&err);
	}
	/* a stream that does not port is not written */
	if (portable && (rc = portable_check_show(&cfg, &prog, NULL, target))) {
		vta_program_free(&prog);
		return rc;
	}
	st = vta_program_write(&prog, out, &err);
	vta_program_free(&prog);
	return st ? cli_report_error(&err) : 0;
}

int cmd_disasm(int argc, char **argv)
{
	const char *config = NULL, *out = NULL;
	cli_sets sets = {.n = 0};
	int rc = parse_opts(argc, argv, "IN.bin, a binary stream", &config, &sets, &out, NULL);
	if (rc)
		return CLI_EXIT(rc);
	vta_config cfg;
	if (config && (rc = cli_load_config(config, &sets, &cfg)))
		return rc;
	vta_program prog;
	vta_error err = {0};
	if (!config) {
		vta_geometry geo;
		if (vta_geometry_read_file(argv[optind], &geo, &err) ||
		    vta_config_from_geometry(&geo, &cfg, &err))
			return cli_report_error(&err);
	}
	if (vta_program_read(argv[optind], &cfg, &prog, &err))
		return cli_report_error(&err);
	FILE *f = out ? fopen(out, "w") : stdout;
	if (!f) {
		vta_program_free(&prog);
		return cli_usage_error("%s: cannot open for writing", VTA_QPATH(out));
	}
	vta_status st = vta_disasm_program(&prog, &cfg, f, &err);
	if (out && fclose(f) != 0 && st == VTA_OK)
		st = vta_fail(&err, VTA_E_IO, "%s: write failed", out);
	vta_program_free(&prog);
	return st ? cli_report_error(&err) : 0;
}
