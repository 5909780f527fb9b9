/*
 * portable.h - `--portable TARGET` of `vtasim asm` and `exec`: the portability rules
 * (isa/vta_portable.h) over a stream, as the CLI shows them (docs/cli.md).
 */
#ifndef VTASIM_PORTABLE_CLI_H
#define VTASIM_PORTABLE_CLI_H

#include "vta_config.h"
#include "vta_portable.h"
#include "vta_program.h"

/* Check prog for target over a DRAM of the config's size with its segments placed (and
 * image, when not NULL, loaded first). Each problem is a line "vtasim: portable TARGET:
 * insn N (...): why" on stderr; then, if any, "vtasim: error: ..." and the exit status 1
 * is returned; 0 with a line on stdout when none; 2 for bad input. */
int portable_check_show(const vta_config *cfg, const vta_program *prog, const char *image,
			vta_target target);

#endif /* VTASIM_PORTABLE_CLI_H */
