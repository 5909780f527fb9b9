/*
 * emit_util.h - helpers the ADD and CONV2D emitters share (not a public API): ALU and reset
 * operations over ranges of ACC rows, split to the 14-bit loop extents, and the checks that
 * the config's ALU can run an arithmetic mode.
 */
#ifndef VTA_EMIT_UTIL_H
#define VTA_EMIT_UTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "quant.h"
#include "vta_stream.h"

/* ALU op over ACC rows [dst, dst + rows): src row dst's partner is src + i*src_step
 * (src_step 0 broadcasts one row); with use_imm src and src_step are ignored: the uop names
 * the row its config's alu.imm_operand reads (row 0 under dst, its own row under src). */
vta_status vta_em_alu_rows(vta_stream *s, vta_alu_op op, bool use_imm, int32_t imm,
			   uint32_t dst, uint32_t src, uint32_t src_step, uint64_t rows,
			   vta_error *err);

/* Tensor ALU op over `reps` groups of `period` rows starting at dst, each group paired with
 * the same `period` rows from src (a per-channel constant broadcast over pixels). */
vta_status vta_em_alu_pattern(vta_stream *s, vta_alu_op op, uint32_t dst, uint32_t src,
			      uint32_t period, uint64_t reps, vta_error *err);

/* Zero ACC rows [dst, dst + rows) with a reset GEMM. */
vta_status vta_em_reset_rows(vta_stream *s, uint32_t dst, uint64_t rows, vta_error *err);

/* VTA_E_UNSUPPORTED when cfg's ALU cannot run `mode` for a layer named `layer`. */
vta_status vta_em_check_mode(const vta_config *cfg, vta_arith_mode mode, const char *layer,
			     const char *op, vta_error *err);

#endif /* VTA_EMIT_UTIL_H */
