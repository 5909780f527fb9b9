/*
 * test_ref_util.h - fixture for the reference executor tests: a config, a program being
 * built instruction by instruction, a small DRAM, and builders for each instruction kind.
 * Include after cmocka.h.
 */
#ifndef TEST_REF_UTIL_H
#define TEST_REF_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vta_config.h"
#include "vta_dram.h"
#include "vta_insn.h"
#include "vta_program.h"
#include "vta_ref.h"
#include "vta_status.h"

#define FX_DRAM_BYTES (1u << 20)

typedef struct fx {
	vta_config cfg;
	vta_program prog;
	vta_dram dram;
	vta_ref *ref;
	vta_error err;
} fx;

/* Set up with the default config; change f->cfg before fx_start when needed. */
static inline void fx_init(fx *f)
{
	memset(f, 0, sizeof(*f));
	vta_config_default(&f->cfg);
}

/* Derive the (possibly edited) config and create the program, DRAM and executor. */
static inline void fx_start(fx *f)
{
	vta_error e = {0};
	assert_int_equal(vta_config_derive(&f->cfg, &e), VTA_OK);
	vta_program_init(&f->prog, &f->cfg);
	assert_int_equal(vta_dram_init(&f->dram, FX_DRAM_BYTES, &e), VTA_OK);
	assert_int_equal(vta_ref_create(&f->cfg, &f->ref, &e), VTA_OK);
}

static inline void fx_free(fx *f)
{
	vta_ref_destroy(f->ref);
	vta_dram_free(&f->dram);
	vta_program_free(&f->prog);
}

static inline void fx_push(fx *f, vta_insn insn)
{
	vta_error e = {0};
	vta_status st = vta_program_push(&f->prog, &f->cfg, &insn, &e);
	if (st != VTA_OK)
		fail_msg("push: %s", e.detail);
}

/* A UOP segment of encoded micro-ops at DRAM byte address addr. */
static inline void fx_uops(fx *f, uint64_t addr, const vta_uop *uops, size_t n)
{
	uint8_t *bytes = calloc(n ? n : 1, VTA_UOP_BYTES);
	assert_non_null(bytes);
	vta_error e = {0};
	for (size_t i = 0; i < n; i++)
		assert_int_equal(vta_uop_encode(&f->cfg, &uops[i], bytes + 4 * i, &e), VTA_OK);
	assert_int_equal(vta_program_add_segment(&f->prog, VTA_SEG_UOP, addr, bytes,
						 (uint32_t)(n * VTA_UOP_BYTES), &e),
			 VTA_OK);
	free(bytes);
}

static inline void fx_data(fx *f, uint64_t addr, const void *bytes, size_t n)
{
	vta_error e = {0};
	assert_int_equal(
		vta_program_add_segment(&f->prog, VTA_SEG_DATA, addr, bytes, (uint32_t)n, &e),
		VTA_OK);
}

/* int32 lanes, little-endian, as ACC rows are stored. */
static inline void fx_data32(fx *f, uint64_t addr, const int32_t *v, size_t n)
{
	uint8_t *b = malloc(4 * n);
	assert_non_null(b);
	for (size_t i = 0; i < n; i++) {
		uint32_t u = (uint32_t)v[i];
		for (int k = 0; k < 4; k++)
			b[4 * i + k] = (uint8_t)(u >> (8 * k));
	}
	fx_data(f, addr, b, 4 * n);
	free(b);
}

/* Place the segments and run. */
static inline vta_status fx_run(fx *f)
{
	vta_error e = {0};
	assert_int_equal(vta_dram_place_segments(&f->dram, &f->prog, &e), VTA_OK);
	vta_error_clear(&f->err);
	return vta_ref_run(f->ref, &f->prog, &f->dram, &f->err);
}

/* Run and require success. */
static inline void fx_run_ok(fx *f)
{
	vta_status st = fx_run(f);
	if (st != VTA_OK)
		fail_msg("run failed (%d): %s", (int)st, f->err.detail);
}

/* Run and require status st with every needle in the detail, which must be one line. */
static inline void fx_run_fails(fx *f, vta_status st, const char *const *needles)
{
	vta_status got = fx_run(f);
	if (got != st)
		fail_msg("expected status %d, got %d: %s", (int)st, (int)got, f->err.detail);
	assert_null(strchr(f->err.detail, '\n'));
	for (; needles && *needles; needles++)
		if (!strstr(f->err.detail, *needles))
			fail_msg("detail lacks \"%s\": %s", *needles, f->err.detail);
}

static inline int32_t fx_acc(const fx *f, uint32_t row, uint32_t lane)
{
	size_t size = 0;
	const uint8_t *acc = vta_ref_sram(f->ref, VTA_MEM_ACC, &size);
	size_t off = ((size_t)row * f->cfg.batch * f->cfg.block_out + lane) * 4;
	assert_true(off + 4 <= size);
	uint32_t u = (uint32_t)acc[off] | (uint32_t)acc[off + 1] << 8 |
		     (uint32_t)acc[off + 2] << 16 | (uint32_t)acc[off + 3] << 24;
	int32_t v;
	memcpy(&v, &u, 4);
	return v;
}

static inline uint8_t fx_out(const fx *f, uint32_t row, uint32_t lane)
{
	size_t size = 0;
	const uint8_t *out = vta_ref_sram(f->ref, VTA_MEM_OUT, &size);
	size_t off = (size_t)row * f->cfg.sram[VTA_MEM_OUT].elem_bytes + lane;
	assert_true(off < size);
	return out[off];
}

/* ---------- instruction builders ---------- */

static inline vta_deps deps(bool pop_prev, bool pop_next, bool push_prev, bool push_next)
{
	vta_deps d = {pop_prev, pop_next, push_prev, push_next};
	return d;
}

static inline vta_insn with_deps(vta_insn insn, vta_deps d)
{
	insn.deps = d;
	return insn;
}

static inline vta_insn mk_mem(vta_opcode op, vta_mem mem, uint32_t sram, uint32_t dram, uint32_t y,
			      uint32_t x, uint32_t stride)
{
	vta_insn in;
	memset(&in, 0, sizeof(in));
	in.opcode = op;
	in.mem.mem_type = mem;
	in.mem.sram_base = sram;
	in.mem.dram_base = dram;
	in.mem.y_size = y;
	in.mem.x_size = x;
	in.mem.x_stride = stride;
	return in;
}

static inline vta_insn mk_load(vta_mem mem, uint32_t sram, uint32_t dram, uint32_t y, uint32_t x,
			       uint32_t stride)
{
	return mk_mem(VTA_OP_LOAD, mem, sram, dram, y, x, stride);
}

static inline vta_insn mk_store(uint32_t sram, uint32_t dram, uint32_t y, uint32_t x,
				uint32_t stride)
{
	return mk_mem(VTA_OP_STORE, VTA_MEM_OUT, sram, dram, y, x, stride);
}

static inline vta_insn mk_pad(vta_insn in, uint32_t y0, uint32_t y1, uint32_t x0, uint32_t x1)
{
	in.mem.y_pad_0 = y0;
	in.mem.y_pad_1 = y1;
	in.mem.x_pad_0 = x0;
	in.mem.x_pad_1 = x1;
	return in;
}

/* Load-stage NOP, compute-stage NOP, store-stage NOP (VTA's PushNoop shapes). */
static inline vta_insn nop_load(vta_deps d)
{
	return with_deps(mk_load(VTA_MEM_INP, 0, 0, 0, 0, 0), d);
}

static inline vta_insn nop_compute(vta_deps d)
{
	return with_deps(mk_load(VTA_MEM_UOP, 0, 0, 0, 0, 0), d);
}

static inline vta_insn nop_store(vta_deps d)
{
	return with_deps(mk_store(0, 0, 0, 0, 0), d);
}

static inline vta_insn mk_gemm(bool reset, uint32_t bgn, uint32_t end, uint32_t iter_out,
			       uint32_t iter_in)
{
	vta_insn in;
	memset(&in, 0, sizeof(in));
	in.opcode = VTA_OP_GEMM;
	in.loop.reset = reset;
	in.loop.uop_bgn = bgn;
	in.loop.uop_end = end;
	in.loop.iter_out = iter_out;
	in.loop.iter_in = iter_in;
	return in;
}

static inline vta_insn mk_factors(vta_insn in, uint32_t dfo, uint32_t dfi, uint32_t sfo,
				  uint32_t sfi, uint32_t wfo, uint32_t wfi)
{
	in.loop.dst_factor_out = dfo;
	in.loop.dst_factor_in = dfi;
	in.loop.src_factor_out = sfo;
	in.loop.src_factor_in = sfi;
	in.loop.wgt_factor_out = wfo;
	in.loop.wgt_factor_in = wfi;
	return in;
}

static inline vta_insn mk_alu(vta_alu_op op, bool use_imm, int32_t imm, uint32_t bgn, uint32_t end,
			      uint32_t iter_out, uint32_t iter_in)
{
	vta_insn in = mk_gemm(false, bgn, end, iter_out, iter_in);
	in.opcode = VTA_OP_ALU;
	in.alu.op = op;
	in.alu.use_imm = use_imm;
	in.alu.imm = imm;
	return in;
}

static inline vta_insn mk_finish(vta_deps d)
{
	vta_insn in;
	memset(&in, 0, sizeof(in));
	in.opcode = VTA_OP_FINISH;
	in.deps = d;
	return in;
}

#define NO_DEPS deps(false, false, false, false)

#endif /* TEST_REF_UTIL_H */
