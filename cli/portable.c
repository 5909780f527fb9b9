/*
 * portable.c - `--portable TARGET` (portable.h).
 */
#include "portable.h"

#include <inttypes.h>
#include <stdio.h>

#include "cli.h"
#include "vta_dram.h"

typedef struct shown {
	vta_target target;
} shown;

static void show(void *ctx, size_t insn, const char *line)
{
	const shown *s = ctx;
	(void)insn; /* the line names it; lines are disassembly and numbers, no input text */
	fprintf(stderr, "vtasim: portable %s: %s\n", vta_target_name(s->target), line);
}

int portable_check_show(const vta_config *cfg, const vta_program *prog, const char *image,
			vta_target target)
{
	vta_error err = {0};
	vta_dram dram = {0};
	vta_status st = vta_dram_init(&dram, (uint64_t)cfg->dram_size_mib << 20, &err);
	if (!st && image)
		st = vta_dram_load_image(&dram, image, &err);
	if (!st)
		st = vta_dram_place_segments(&dram, prog, &err);
	uint64_t n = 0;
	shown s = {target};
	fflush(stdout);
	if (!st)
		st = vta_portable_check(cfg, prog, &dram, target, show, &s, &n, &err);
	vta_dram_free(&dram);
	if (st)
		return cli_report_error(&err);
	if (n) {
		vta_fail(&err, VTA_E_UNSUPPORTED,
			 "--portable %s: %" PRIu64 " problem%s: the stream does not run as it does "
			 "here on %s",
			 vta_target_name(target), n, n == 1 ? "" : "s", vta_target_title(target));
		return cli_report_error(&err);
	}
	printf("portable to %s (--portable %s): no problem found\n", vta_target_title(target),
	       vta_target_name(target));
	return 0;
}
