/*
 * vta_asm.h - text assembly for programs, and its disassembler. The syntax is in
 * docs/isa.md "Assembly". Every field is named; disassembly prints every field, so
 * binary -> text -> binary is byte-identical. One instruction's line is vta_disasm_insn
 * (vta_insn.h).
 */
#ifndef VTA_ASM_H
#define VTA_ASM_H

#include <stddef.h>
#include <stdio.h>

#include "vta_config.h"
#include "vta_insn.h"
#include "vta_program.h"
#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Assemble text (not necessarily NUL-terminated). `name` is used in "NAME:LINE:COL: ..."
 * errors (VTA_E_PARSE for syntax, VTA_E_ENCODE for a value that does not fit). */
vta_status vta_asm_parse(const char *text, size_t len, const char *name, const vta_config *cfg,
			 vta_program *prog, vta_error *err);

/* Read a file and assemble it. */
vta_status vta_asm_file(const char *path, const vta_config *cfg, vta_program *prog,
			vta_error *err);

/* vta_asm_file, checking each instruction as it is read against the rules it and the config
 * decide alone (vta_insn_check_static, with the config's DRAM size): the first it breaks is
 * VTA_E_STREAM at the instruction's NAME:LINE:COL, with the rule's detail. */
vta_status vta_asm_file_checked(const char *path, const vta_config *cfg, vta_program *prog,
				vta_error *err);

/* Read a program from a binary stream file or, failing its magic, from assembly text. */
vta_status vta_program_load(const char *path, const vta_config *cfg, vta_program *prog,
			    vta_error *err);

/* Print a whole program as assembly. */
vta_status vta_disasm_program(const vta_program *prog, const vta_config *cfg, FILE *out,
			      vta_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VTA_ASM_H */
