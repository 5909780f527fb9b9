/*
 * vta_portable.h - what one of VTA's own implementations would run differently from vtasim,
 * or not at all (docs/isa.md "Portability to VTA's implementations"): a stream that passes
 * here under the config it was assembled for computes the same bytes on that VTA as on
 * vtasim, as far as these rules know.
 *
 * The targets are VTA's HLS design (hls), its Chisel RTL (chisel) and its functional
 * simulator (fsim), each as shipped: VTA's default geometry (1x16x16 int8/int8/int32, INP
 * 2048, WGT 1024, ACC 2048 rows, micro-op range fields of an 8192-entry UOP SRAM, 128-bit
 * instructions). The rules, each a difference between that VTA and vtasim:
 *
 *   geometry    the config's stream geometry is not VTA's default one (stream-wide)
 *   mul         ALU MUL: not in hls or chisel
 *   tflite ext  ALU SRDHM and RSHR: vtasim's own, in no VTA
 *   acc8        LOAD ACC_8BIT: not in hls or chisel
 *   lut         table loads and decompressing loads: vtasim's LUT decoder, in no VTA
 *   uop depth   LOAD UOP rows or a GEMM/ALU micro-op range beyond the target's UOP SRAM
 *               (8192 micro-ops for hls and fsim, 2048 for chisel)
 *   shr amount  an ALU SHR by an immediate the target shifts otherwise than vtasim (hls:
 *               outside -16..15, its 5-bit signed amount; chisel, fsim: outside -31..31)
 *   alu reset   an ALU with reset=1: every VTA runs the op and ignores the bit (so does
 *               vtasim); a stream that means a reset needs a GEMM reset
 *   imm operand an ALU immediate op whose src and dst rows differ in some uop execution,
 *               when the target's rule (chisel: op(ACC[src], imm); hls, fsim:
 *               op(ACC[dst], imm)) is not the config's alu.imm_operand
 *   reset out   (hls) a STORE of OUT rows a GEMM reset wrote last: the HLS design writes the
 *               pre-reset sum to OUT, vtasim zero
 *   no OUT      (fsim) a STORE of OUT rows whose ACC rows a LOAD (ACC, ACC_8BIT, a
 *               decompressing one) wrote after their last GEMM/ALU write, by an
 *               instruction ordered before the STORE or not ordered after it (the
 *               happens-before of vta_race.h): fsim has no OUT buffer and stores ACC
 *
 * The last two need the micro-ops the stream loads (replayed from its DRAM image, as the
 * stream checks do) and a stream the checks can run to FINISH; without that they are
 * skipped (the engines diagnose such a stream).
 */
#ifndef VTA_PORTABLE_H
#define VTA_PORTABLE_H

#include <stddef.h>
#include <stdint.h>

#include "vta_config.h"
#include "vta_dram.h"
#include "vta_program.h"
#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum vta_target {
	VTA_TARGET_HLS = 0,
	VTA_TARGET_CHISEL = 1,
	VTA_TARGET_FSIM = 2,
	VTA_TARGET_COUNT = 3
} vta_target;

/* "hls", "chisel", "fsim" ("?" out of range). */
const char *vta_target_name(vta_target t);
/* "VTA's HLS design", "VTA's Chisel RTL", "VTA's fsim". */
const char *vta_target_title(vta_target t);
/* By name; VTA_E_USAGE "unknown target 'x' (hls, chisel or fsim)". */
vta_status vta_target_parse(const char *name, vta_target *t, vta_error *err);

/* A problem found at instruction insn (SIZE_MAX: the stream as a whole), as one line:
 * "insn N (<disassembly>): <why>" or "stream: <why>". */
typedef void (*vta_portable_fn)(void *ctx, size_t insn, const char *line);

/* Check prog, over the DRAM it starts from (segments placed), for target. Every problem
 * goes to fn (may be NULL): the stream-wide one, then the rules of single instructions in
 * stream order, then the STORE rules in stream order; *count gets how many. VTA_OK
 * whether or not problems were found; the decoder's error when an instruction does not
 * decode or has a flag its module lacks (as vta_sched_decode), VTA_E_NOMEM. */
vta_status vta_portable_check(const vta_config *cfg, const vta_program *prog,
			      const vta_dram *dram, vta_target target, vta_portable_fn fn,
			      void *ctx, uint64_t *count, vta_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VTA_PORTABLE_H */
