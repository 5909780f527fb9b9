/* emit_util.c - range helpers shared by the emitters (emit_util.h). */
#include "emit_util.h"

#include <stdlib.h>

/* Largest loop extent of a GEMM/ALU instruction. */
static uint32_t vta_em_max_extent(const vta_config *cfg)
{
	unsigned w = cfg->fw.loop_iter;
	return w >= 31 ? 0x7fffffffu : (1u << w) - 1u;
}

/* The src an immediate ALU op's micro-op names for row dst, and its loop's src step. Under
 * alu.imm_operand dst (VTA's HLS design, fsim) src is not read: row 0, so the kernel is
 * shared with the reset's and with tensor ops broadcasting row 0. Under src (VTA's Chisel
 * RTL) the op reads it: the row itself, stepping with dst. */
static uint32_t imm_src_row(vta_stream *s, uint32_t dst)
{
	return vta_stream_config(s)->alu_imm_operand == VTA_IMM_OPERAND_SRC ? dst : 0;
}

static uint32_t imm_src_step(vta_stream *s)
{
	return vta_stream_config(s)->alu_imm_operand == VTA_IMM_OPERAND_SRC ? 1 : 0;
}

vta_status vta_em_alu_rows(vta_stream *s, vta_alu_op op, bool use_imm, int32_t imm,
			   uint32_t dst, uint32_t src, uint32_t src_step, uint64_t rows,
			   vta_error *err)
{
	const uint32_t max = vta_em_max_extent(vta_stream_config(s));
	while (rows > 0) {
		uint32_t n = rows > max ? max : (uint32_t)rows;
		vta_uop u = {dst, use_imm ? imm_src_row(s, dst) : src, 0};
		uint32_t id;
		vta_status st = vta_stream_kernel(s, &u, 1, &id, err);
		if (st != VTA_OK)
			return st;
		vta_loops l = {1, {{n, 1, use_imm ? imm_src_step(s) : src_step, 0}, {0, 0, 0, 0}}};
		st = vta_stream_alu(s, id, &l, op, use_imm, imm, err);
		if (st != VTA_OK)
			return st;
		rows -= n;
		dst += n;
		src += n * src_step;
	}
	return VTA_OK;
}

vta_status vta_em_alu_pattern(vta_stream *s, vta_alu_op op, uint32_t dst, uint32_t src,
			      uint32_t period, uint64_t reps, vta_error *err)
{
	if (period == 1)
		return vta_em_alu_rows(s, op, false, 0, dst, src, 0, reps, err);
	vta_uop *u = malloc(period * sizeof(*u));
	if (!u)
		return vta_fail(err, VTA_E_NOMEM, "emitter: out of memory");
	uint32_t id;
	vta_status st = VTA_OK;
	for (uint32_t j = 0; j < period; j++)
		u[j] = (vta_uop){dst + j, src + j, 0};
	st = vta_stream_kernel(s, u, period, &id, err);
	free(u);
	const uint32_t max = vta_em_max_extent(vta_stream_config(s));
	uint64_t done = 0;
	/* later pieces start further on: one kernel per piece */
	while (st == VTA_OK && done < reps) {
		uint32_t n = reps - done > max ? max : (uint32_t)(reps - done);
		if (done > 0) {
			vta_uop *v = malloc(period * sizeof(*v));
			if (!v)
				return vta_fail(err, VTA_E_NOMEM, "emitter: out of memory");
			for (uint32_t j = 0; j < period; j++)
				v[j] = (vta_uop){(uint32_t)(dst + done * period + j), src + j, 0};
			st = vta_stream_kernel(s, v, period, &id, err);
			free(v);
			if (st != VTA_OK)
				return st;
		}
		vta_loops l = {1, {{n, period, 0, 0}, {0, 0, 0, 0}}};
		st = vta_stream_alu(s, id, &l, op, false, 0, err);
		done += n;
	}
	return st;
}

vta_status vta_em_reset_rows(vta_stream *s, uint32_t dst, uint64_t rows, vta_error *err)
{
	const uint32_t max = vta_em_max_extent(vta_stream_config(s));
	while (rows > 0) {
		uint32_t n = rows > max ? max : (uint32_t)rows;
		/* the reset reads no src: the immediate ALU ops' kernel, so they share it */
		vta_uop u = {dst, imm_src_row(s, dst), 0};
		uint32_t id;
		vta_status st = vta_stream_kernel(s, &u, 1, &id, err);
		if (st != VTA_OK)
			return st;
		vta_loops l = {1, {{n, 1, 0, 0}, {0, 0, 0, 0}}};
		st = vta_stream_gemm(s, id, &l, true, err);
		if (st != VTA_OK)
			return st;
		rows -= n;
		dst += n;
	}
	return VTA_OK;
}

vta_status vta_em_check_mode(const vta_config *cfg, vta_arith_mode mode, const char *layer,
			     const char *op, vta_error *err)
{
	if (mode == VTA_ARITH_TFLITE) {
		if (!cfg->alu_tflite_ext)
			return vta_fail(err, VTA_E_UNSUPPORTED,
					"layer %s: %s in tflite mode requantizes with the ALU ops "
					"SRDHM and RSHR, but config '%s' has alu.tflite_ext false "
					"(use --mode vta16 or a config with the extension)",
					layer, op, cfg->name);
		return VTA_OK;
	}
	if (mode == VTA_ARITH_VTA16) {
		if (!cfg->alu_mul)
			return vta_fail(err, VTA_E_UNSUPPORTED,
					"layer %s: %s in vta16 mode multiplies with the ALU op MUL, "
					"but config '%s' has alu.mul false",
					layer, op, cfg->name);
		return VTA_OK;
	}
	return vta_fail(err, VTA_E_USAGE, "layer %s: unknown arithmetic mode %d", layer,
			(int)mode);
}
