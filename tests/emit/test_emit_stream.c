/*
 * test_emit_stream.c - the stream builder: a hand-written GEMM + ALU program checked on the
 * reference executor, kernel caching and the UOP ring, the flag-or-NOP dependency logic,
 * token draining at finish, and every diagnostic (illegal flags, ACC write distance,
 * SRAM/DRAM bounds, field ranges, missing ALU features, bad stage pairs, deadlocks, a config
 * beyond the builder's ACC-distance limit).
 */
#include "emit_test.h"

typedef struct sb_fix {
	vta_config cfg;
	vta_dram dram;
	vta_stream *s;
	vta_error err;
} sb_fix;

static void fix_open(sb_fix *f, const char *config)
{
	memset(f, 0, sizeof(*f));
	et_config(config, &f->cfg);
	vta_status st = vta_dram_init(&f->dram, 4u << 20, &f->err);
	et_assert_ok(st, &f->err);
	st = vta_stream_create(&f->cfg, &f->dram, 0, "t", &f->s, &f->err);
	et_assert_ok(st, &f->err);
}

static void fix_close(sb_fix *f)
{
	vta_stream_destroy(f->s);
	vta_dram_free(&f->dram);
}

static vta_uop uop(uint32_t dst, uint32_t src, uint32_t wgt)
{
	vta_uop u = {dst, src, wgt};
	return u;
}

static vta_loops loops1(uint32_t n, uint32_t dst, uint32_t src, uint32_t wgt)
{
	vta_loops l;
	memset(&l, 0, sizeof(l));
	l.n = 1;
	l.l[0].extent = n;
	l.l[0].dst = dst;
	l.l[0].src = src;
	l.l[0].wgt = wgt;
	return l;
}

static vta_xfer xfer(vta_mem mem, uint32_t sram, uint64_t addr, uint32_t y, uint32_t x,
		     uint32_t stride)
{
	vta_xfer t;
	memset(&t, 0, sizeof(t));
	t.mem = mem;
	t.sram = sram;
	t.dram_addr = addr;
	t.y_size = y;
	t.x_size = x;
	t.x_stride = stride;
	return t;
}

static vta_insn decoded(const vta_program *p, const vta_config *cfg, size_t i)
{
	vta_insn insn;
	vta_error err = {0};
	vta_status st = vta_program_insn(p, cfg, i, &insn, &err);
	et_assert_ok(st, &err);
	return insn;
}

/* out[r] = clamp((inp[r] . wgt + 3) >> 1) for 3 rows on tiny (4x4), checked bit for bit. */
static void test_stream_program(void **state)
{
	(void)state;
	sb_fix f;
	fix_open(&f, "tiny");
	vta_stream *s = f.s;
	const vta_config *cfg = &f.cfg;
	uint64_t a_inp, a_wgt, a_out;
	vta_status st = vta_stream_alloc(s, 3 * cfg->sram[VTA_MEM_INP].elem_bytes, 0, "inp", &a_inp,
					 &f.err);
	et_assert_ok(st, &f.err);
	st = vta_stream_alloc(s, cfg->sram[VTA_MEM_WGT].elem_bytes, 0, "wgt", &a_wgt, &f.err);
	et_assert_ok(st, &f.err);
	st = vta_stream_alloc(s, 3 * cfg->sram[VTA_MEM_OUT].elem_bytes, 0, "out", &a_out, &f.err);
	et_assert_ok(st, &f.err);
	int8_t *inp = (int8_t *)vta_stream_dram(s, a_inp), *wgt = (int8_t *)vta_stream_dram(s, a_wgt);
	for (int i = 0; i < 12; i++)
		inp[i] = (int8_t)(i * 7 - 40);
	for (int i = 0; i < 16; i++)
		wgt[i] = (int8_t)(i % 5 - 2);

	vta_xfer x = xfer(VTA_MEM_INP, 0, a_inp, 1, 3, 3);
	et_assert_ok(vta_stream_load(s, &x, &f.err), &f.err);
	x = xfer(VTA_MEM_WGT, 0, a_wgt, 1, 1, 1);
	et_assert_ok(vta_stream_load(s, &x, &f.err), &f.err);
	et_assert_ok(vta_stream_dep_push(s, VTA_STAGE_LOAD, VTA_STAGE_COMPUTE, &f.err), &f.err);
	et_assert_ok(vta_stream_dep_pop(s, VTA_STAGE_LOAD, VTA_STAGE_COMPUTE, &f.err), &f.err);
	vta_uop u = uop(0, 0, 0);
	uint32_t k;
	et_assert_ok(vta_stream_kernel(s, &u, 1, &k, &f.err), &f.err);
	vta_loops l = loops1(3, 1, 1, 0);
	et_assert_ok(vta_stream_gemm(s, k, &l, true, &f.err), &f.err);
	et_assert_ok(vta_stream_gemm(s, k, &l, false, &f.err), &f.err);
	et_assert_ok(vta_stream_alu(s, k, &l, VTA_ALU_ADD, true, 3, &f.err), &f.err);
	et_assert_ok(vta_stream_alu(s, k, &l, VTA_ALU_SHR, true, 1, &f.err), &f.err);
	et_assert_ok(vta_stream_alu(s, k, &l, VTA_ALU_MIN, true, 127, &f.err), &f.err);
	et_assert_ok(vta_stream_alu(s, k, &l, VTA_ALU_MAX, true, -128, &f.err), &f.err);
	et_assert_ok(vta_stream_dep_push(s, VTA_STAGE_COMPUTE, VTA_STAGE_STORE, &f.err), &f.err);
	et_assert_ok(vta_stream_dep_pop(s, VTA_STAGE_COMPUTE, VTA_STAGE_STORE, &f.err), &f.err);
	x = xfer(VTA_MEM_OUT, 0, a_out, 1, 3, 3);
	et_assert_ok(vta_stream_store(s, &x, &f.err), &f.err);

	vta_stream_stats ss;
	vta_stream_get_stats(s, &ss);
	assert_int_equal(ss.uop_loads, 1); /* one kernel, six uses */
	assert_int_equal(ss.gemm_uops, 3);
	assert_int_equal(ss.reset_uops, 3);
	assert_int_equal(ss.alu_uops, 12);
	/* the store's three rows end 3 OUT rows after the buffer (what a lent DRAM is cleared
	 * up to) */
	assert_int_equal(ss.store_end, a_out + 3 * cfg->sram[VTA_MEM_OUT].elem_bytes);

	vta_program prog;
	et_assert_ok(vta_stream_finish(s, &prog, &f.err), &f.err);
	/* flags went onto the instructions themselves: the last load pushes l2g, the first
	 * compute instruction (the LOAD UOP) pops it, the last ALU pushes g2s */
	vta_insn i1 = decoded(&prog, cfg, 1), i2 = decoded(&prog, cfg, 2);
	assert_true(i1.opcode == VTA_OP_LOAD && i1.deps.push_next);
	assert_true(i2.opcode == VTA_OP_LOAD && i2.mem.mem_type == VTA_MEM_UOP && i2.deps.pop_prev);
	vta_insn last = decoded(&prog, cfg, prog.n_insns - 1);
	assert_int_equal(last.opcode, VTA_OP_FINISH);
	assert_true(last.deps.pop_next && last.deps.pop_prev);
	assert_int_equal(vta_stream_count(s), prog.n_insns);

	vta_layer_stream ls;
	memset(&ls, 0, sizeof(ls));
	ls.prog = prog;
	et_assert_ok(et_run(cfg, &ls, &f.dram, NULL, &f.err), &f.err);
	const int8_t *out = (const int8_t *)f.dram.bytes + a_out;
	for (int r = 0; r < 3; r++)
		for (int o = 0; o < 4; o++) {
			int32_t acc = 0;
			for (int i = 0; i < 4; i++)
				acc += inp[r * 4 + i] * wgt[o * 4 + i];
			int32_t v = (acc + 3) >> 1;
			v = v > 127 ? 127 : v < -128 ? -128 : v;
			assert_int_equal(out[r * 4 + o], v);
		}
	vta_program_free(&prog);
	/* nothing is accepted after finish */
	assert_int_equal(vta_stream_gemm(s, k, &l, false, &f.err), VTA_E_USAGE);
	et_assert_error(&f.err, VTA_E_USAGE, "already finished");
	fix_close(&f);
}

/* The UOP SRAM is a ring: kernels stay resident until overwritten. */
static void test_stream_kernel_cache(void **state)
{
	(void)state;
	sb_fix f;
	fix_open(&f, "tiny"); /* 1024 UOP rows */
	vta_uop *big = calloc(600, sizeof(*big));
	assert_non_null(big);
	for (uint32_t i = 0; i < 600; i++)
		big[i] = uop(i % 200, 0, 0);
	vta_uop small = uop(5, 0, 0);
	uint32_t kb, ks, ks2;
	et_assert_ok(vta_stream_kernel(f.s, big, 600, &kb, &f.err), &f.err);
	et_assert_ok(vta_stream_kernel(f.s, &small, 1, &ks, &f.err), &f.err);
	et_assert_ok(vta_stream_kernel(f.s, &small, 1, &ks2, &f.err), &f.err);
	assert_int_equal(ks, ks2); /* recorded once */
	et_assert_ok(vta_stream_gemm(f.s, kb, NULL, true, &f.err), &f.err);  /* load 1: [0,600) */
	et_assert_ok(vta_stream_gemm(f.s, ks, NULL, true, &f.err), &f.err);  /* load 2: [600,601) */
	et_assert_ok(vta_stream_gemm(f.s, kb, NULL, true, &f.err), &f.err);  /* resident */
	et_assert_ok(vta_stream_gemm(f.s, ks, NULL, true, &f.err), &f.err);  /* resident */
	vta_stream_stats ss;
	vta_stream_get_stats(f.s, &ss);
	assert_int_equal(ss.uop_loads, 2);
	/* a third kernel wraps the ring to 0 and evicts the big one, not the small one */
	vta_uop *mid = calloc(500, sizeof(*mid));
	assert_non_null(mid);
	for (uint32_t i = 0; i < 500; i++)
		mid[i] = uop(100 + i % 100, 0, 0);
	uint32_t km;
	et_assert_ok(vta_stream_kernel(f.s, mid, 500, &km, &f.err), &f.err);
	et_assert_ok(vta_stream_gemm(f.s, km, NULL, true, &f.err), &f.err); /* load 3 at 0 */
	et_assert_ok(vta_stream_gemm(f.s, ks, NULL, true, &f.err), &f.err); /* still resident */
	et_assert_ok(vta_stream_gemm(f.s, kb, NULL, true, &f.err), &f.err); /* load 4 */
	vta_stream_get_stats(f.s, &ss);
	assert_int_equal(ss.uop_loads, 4);
	vta_program prog;
	et_assert_ok(vta_stream_finish(f.s, &prog, &f.err), &f.err);
	vta_layer_stream ls;
	memset(&ls, 0, sizeof(ls));
	ls.prog = prog;
	et_assert_ok(et_run(&f.cfg, &ls, &f.dram, NULL, &f.err), &f.err);
	vta_program_free(&prog);
	free(big);
	free(mid);
	fix_close(&f);
}

/* Two virtual threads split an SRAM into halves. */
static void test_stream_thread_rows(void **state)
{
	(void)state;
	vta_config cfg;
	et_config("tiny", &cfg);
	uint32_t base, rows;
	vta_stream_thread_rows(&cfg, VTA_MEM_INP, 1, 2, &base, &rows);
	assert_int_equal(base, 256);
	assert_int_equal(rows, 256);
	vta_stream_thread_rows(&cfg, VTA_MEM_ACC_8BIT, 0, 1, &base, &rows);
	assert_int_equal(base, 0);
	assert_int_equal(rows, cfg.sram[VTA_MEM_ACC].depth);
	assert_int_equal(vta_stream_elem_bytes(&cfg, VTA_MEM_WGT), 16);
}

/* dep_push sets the flag on the stage's last instruction or appends a NOP; a second pending
 * pop commits the first as a NOP; finish drains tokens nobody popped. */
static void test_stream_deps(void **state)
{
	(void)state;
	sb_fix f;
	fix_open(&f, "tiny");
	vta_stream *s = f.s;
	uint64_t a;
	et_assert_ok(vta_stream_alloc(s, 64, 0, "x", &a, &f.err), &f.err);
	vta_xfer x = xfer(VTA_MEM_INP, 0, a, 1, 1, 1);
	et_assert_ok(vta_stream_load(s, &x, &f.err), &f.err);                                /* 0 */
	et_assert_ok(vta_stream_dep_push(s, VTA_STAGE_LOAD, VTA_STAGE_COMPUTE, &f.err), &f.err); /* flag on 0 */
	et_assert_ok(vta_stream_dep_push(s, VTA_STAGE_LOAD, VTA_STAGE_COMPUTE, &f.err), &f.err); /* NOP 1 */
	et_assert_ok(vta_stream_dep_pop(s, VTA_STAGE_LOAD, VTA_STAGE_COMPUTE, &f.err), &f.err);
	et_assert_ok(vta_stream_dep_pop(s, VTA_STAGE_LOAD, VTA_STAGE_COMPUTE, &f.err), &f.err);  /* NOP 2 */
	et_assert_ok(vta_stream_dep_push(s, VTA_STAGE_COMPUTE, VTA_STAGE_LOAD, &f.err), &f.err); /* NOP 3 pops, pushes */
	assert_int_equal(vta_stream_count(s), 4);
	/* g2l is pushed but never popped: finish must drain it with a load NOP */
	vta_program prog;
	et_assert_ok(vta_stream_finish(s, &prog, &f.err), &f.err);
	vta_insn i0 = decoded(&prog, &f.cfg, 0), i1 = decoded(&prog, &f.cfg, 1);
	vta_insn i2 = decoded(&prog, &f.cfg, 2), i3 = decoded(&prog, &f.cfg, 3);
	vta_insn i4 = decoded(&prog, &f.cfg, 4);
	assert_true(i0.deps.push_next && !vta_insn_is_nop(&i0));
	assert_true(vta_insn_is_nop(&i1) && i1.deps.push_next);
	assert_true(vta_insn_is_nop(&i2) && i2.mem.mem_type == VTA_MEM_UOP && i2.deps.pop_prev);
	assert_true(vta_insn_is_nop(&i3) && i3.deps.pop_prev && i3.deps.push_prev);
	assert_true(vta_insn_is_nop(&i4) && i4.opcode == VTA_OP_LOAD && i4.deps.pop_next);
	vta_layer_stream ls;
	memset(&ls, 0, sizeof(ls));
	ls.prog = prog;
	et_assert_ok(et_run(&f.cfg, &ls, &f.dram, NULL, &f.err), &f.err);
	vta_program_free(&prog);
	fix_close(&f);
}

/* ---- diagnostics ---- */

static void test_stream_bad_flags(void **state)
{
	(void)state;
	sb_fix f;
	fix_open(&f, "tiny");
	vta_insn insn;
	memset(&insn, 0, sizeof(insn));
	insn.opcode = VTA_OP_LOAD;
	insn.mem.mem_type = VTA_MEM_INP;
	insn.deps.pop_prev = true; /* the load stage has no previous stage */
	assert_int_equal(vta_stream_insn(f.s, &insn, &f.err), VTA_E_FLAGS);
	et_assert_error(&f.err, VTA_E_FLAGS, "layer t: insn 0 (load");
	memset(&insn, 0, sizeof(insn));
	insn.opcode = VTA_OP_STORE;
	insn.mem.mem_type = VTA_MEM_OUT;
	insn.deps.push_next = true;
	assert_int_equal(vta_stream_insn(f.s, &insn, &f.err), VTA_E_FLAGS);
	/* only neighbouring stages exchange tokens */
	assert_int_equal(vta_stream_dep_push(f.s, VTA_STAGE_LOAD, VTA_STAGE_STORE, &f.err),
			 VTA_E_USAGE);
	et_assert_error(&f.err, VTA_E_USAGE, "only load<->compute and compute<->store");
	assert_int_equal(vta_stream_dep_pop(f.s, VTA_STAGE_STORE, (vta_stage)7, &f.err),
			 VTA_E_USAGE);
	fix_close(&f);
}

static void test_stream_hazard(void **state)
{
	(void)state;
	sb_fix f;
	fix_open(&f, "tiny"); /* acc_dep_distance 2 */
	uint32_t k;
	/* within a kernel: rows 1, 2, 1 */
	vta_uop u3[3] = {uop(1, 0, 0), uop(2, 0, 0), uop(1, 0, 0)};
	et_assert_ok(vta_stream_kernel(f.s, u3, 3, &k, &f.err), &f.err);
	assert_int_equal(vta_stream_gemm(f.s, k, NULL, false, &f.err), VTA_E_HAZARD);
	et_assert_error(&f.err, VTA_E_HAZARD, "written again 2 uops after");
	/* across the inner loop: rows 0, 1 then 1, 2 (dst factor 1) */
	vta_uop u2[2] = {uop(0, 0, 0), uop(1, 0, 0)};
	et_assert_ok(vta_stream_kernel(f.s, u2, 2, &k, &f.err), &f.err);
	vta_loops l = loops1(2, 1, 0, 0);
	assert_int_equal(vta_stream_gemm(f.s, k, &l, true, &f.err), VTA_E_HAZARD);
	et_assert_error(&f.err, VTA_E_HAZARD, "it_in 1");
	/* across the outer loop of a 2-level nest */
	vta_loops l2;
	memset(&l2, 0, sizeof(l2));
	l2.n = 2;
	l2.l[0] = (vta_loop_level){2, 0, 0, 0}; /* outer: back to the same rows */
	l2.l[1] = (vta_loop_level){1, 0, 0, 0};
	assert_int_equal(vta_stream_alu(f.s, k, &l2, VTA_ALU_ADD, true, 1, &f.err),
			 VTA_E_HAZARD);
	et_assert_error(&f.err, VTA_E_HAZARD, "it_out 1");
	/* a single uop looping on one row */
	vta_uop one = uop(4, 0, 0);
	et_assert_ok(vta_stream_kernel(f.s, &one, 1, &k, &f.err), &f.err);
	l = loops1(3, 0, 0, 0);
	assert_int_equal(vta_stream_alu(f.s, k, &l, VTA_ALU_MAX, true, 0, &f.err),
			 VTA_E_HAZARD);
	/* far enough apart is fine: rows 0,1,2 then 0,1,2 */
	vta_uop ok3[3] = {uop(0, 0, 0), uop(1, 0, 0), uop(2, 0, 0)};
	et_assert_ok(vta_stream_kernel(f.s, ok3, 3, &k, &f.err), &f.err);
	l = loops1(5, 0, 0, 0);
	et_assert_ok(vta_stream_gemm(f.s, k, &l, true, &f.err), &f.err);
	fix_close(&f);
}

static void test_stream_bounds(void **state)
{
	(void)state;
	sb_fix f;
	fix_open(&f, "tiny"); /* INP 512 rows, ACC 256 rows */
	uint64_t a;
	et_assert_ok(vta_stream_alloc(f.s, 4096, 0, "x", &a, &f.err), &f.err);
	vta_xfer x = xfer(VTA_MEM_INP, 510, a, 1, 4, 4);
	assert_int_equal(vta_stream_load(f.s, &x, &f.err), VTA_E_OOB);
	et_assert_error(&f.err, VTA_E_OOB, "inp SRAM rows [510, 514) beyond depth 512");
	x = xfer(VTA_MEM_INP, 0, a + 1, 1, 4, 4);
	assert_int_equal(vta_stream_load(f.s, &x, &f.err), VTA_E_USAGE);
	et_assert_error(&f.err, VTA_E_USAGE, "not aligned");
	x = xfer(VTA_MEM_INP, 0, (4u << 20) - 8, 1, 4, 4);
	assert_int_equal(vta_stream_load(f.s, &x, &f.err), VTA_E_OOB);
	et_assert_error(&f.err, VTA_E_OOB, "beyond the DRAM");
	x = xfer(VTA_MEM_INP, 0, a, 1, 70000, 70000);
	assert_int_equal(vta_stream_load(f.s, &x, &f.err), VTA_E_ENCODE);
	et_assert_error(&f.err, VTA_E_ENCODE, "x_size 70000 does not fit");
	x = xfer(VTA_MEM_WGT, 0, a, 1, 1, 1);
	x.x_pad_0 = 1;
	assert_int_equal(vta_stream_load(f.s, &x, &f.err), VTA_E_STREAM);
	et_assert_error(&f.err, VTA_E_STREAM, "padding not supported for wgt");
	x = xfer(VTA_MEM_ACC, 0, a, 1, 1, 1);
	assert_int_equal(vta_stream_store(f.s, &x, &f.err), VTA_E_STREAM);
	et_assert_error(&f.err, VTA_E_STREAM, "STORE supports only memory type out");
	x = xfer(VTA_MEM_OUT, 0, a, 1, 1, 1);
	assert_int_equal(vta_stream_load(f.s, &x, &f.err), VTA_E_STREAM);
	/* uop indices after the loop factors */
	uint32_t k;
	vta_uop u = uop(250, 0, 0);
	et_assert_ok(vta_stream_kernel(f.s, &u, 1, &k, &f.err), &f.err);
	vta_loops l = loops1(10, 1, 0, 0);
	assert_int_equal(vta_stream_gemm(f.s, k, &l, true, &f.err), VTA_E_OOB);
	et_assert_error(&f.err, VTA_E_OOB, "acc index reaches 259, beyond depth 256");
	vta_uop w = uop(0, 0, 250);
	et_assert_ok(vta_stream_kernel(f.s, &w, 1, &k, &f.err), &f.err);
	l = loops1(10, 1, 0, 1);
	assert_int_equal(vta_stream_gemm(f.s, k, &l, false, &f.err), VTA_E_OOB);
	et_assert_error(&f.err, VTA_E_OOB, "wgt index reaches 259");
	/* a GEMM over UOP rows nothing loaded */
	vta_insn g;
	memset(&g, 0, sizeof(g));
	g.opcode = VTA_OP_GEMM;
	g.loop.uop_bgn = 900;
	g.loop.uop_end = 901;
	g.loop.iter_out = g.loop.iter_in = 1;
	assert_int_equal(vta_stream_insn(f.s, &g, &f.err), VTA_E_STREAM);
	et_assert_error(&f.err, VTA_E_STREAM, "holds no micro-op");
	/* DRAM and kernels that cannot fit */
	uint64_t b;
	assert_int_equal(vta_stream_alloc(f.s, 8u << 20, 0, "huge", &b, &f.err), VTA_E_USAGE);
	et_assert_error(&f.err, VTA_E_USAGE, "DRAM buffer 'huge'");
	vta_uop *many = calloc(2000, sizeof(*many));
	assert_non_null(many);
	assert_int_equal(vta_stream_kernel(f.s, many, 2000, &k, &f.err), VTA_E_USAGE);
	et_assert_error(&f.err, VTA_E_USAGE, "does not fit the UOP SRAM");
	free(many);
	fix_close(&f);
}

static void test_stream_features(void **state)
{
	(void)state;
	sb_fix f;
	memset(&f, 0, sizeof(f));
	vta_config_default(&f.cfg);
	f.cfg.alu_tflite_ext = false;
	et_assert_ok(vta_dram_init(&f.dram, 1u << 20, &f.err), &f.err);
	et_assert_ok(vta_stream_create(&f.cfg, &f.dram, 0, "t", &f.s, &f.err), &f.err);
	uint32_t k;
	vta_uop u = uop(0, 1, 0);
	et_assert_ok(vta_stream_kernel(f.s, &u, 1, &k, &f.err), &f.err);
	assert_int_equal(vta_stream_alu(f.s, k, NULL, VTA_ALU_SRDHM, false, 0, &f.err),
			 VTA_E_UNSUPPORTED);
	et_assert_error(&f.err, VTA_E_UNSUPPORTED, "needs alu.tflite_ext");
	assert_int_equal(vta_stream_alu(f.s, k, NULL, VTA_ALU_ADD, true, 40000, &f.err),
			 VTA_E_ENCODE);
	vta_stream_destroy(f.s);
	f.cfg.alu_mul = false;
	et_assert_ok(vta_stream_create(&f.cfg, &f.dram, 0, "t", &f.s, &f.err), &f.err);
	et_assert_ok(vta_stream_kernel(f.s, &u, 1, &k, &f.err), &f.err);
	assert_int_equal(vta_stream_alu(f.s, k, NULL, VTA_ALU_MUL, true, 3, &f.err),
			 VTA_E_UNSUPPORTED);
	et_assert_error(&f.err, VTA_E_UNSUPPORTED, "needs alu.mul");
	fix_close(&f);
}

/* LUT loads: a table load and a decompressing load pass the rulebook's checks, carry their
 * fields, and go to the load stage; a config without a decoder refuses them. */
static void test_stream_lut(void **state)
{
	(void)state;
	sb_fix f;
	memset(&f, 0, sizeof(f));
	vta_config_default(&f.cfg);
	et_assert_ok(vta_dram_init(&f.dram, 1u << 20, &f.err), &f.err);
	et_assert_ok(vta_stream_create(&f.cfg, &f.dram, 0, "t", &f.s, &f.err), &f.err);
	vta_xfer table = xfer(VTA_MEM_LUT, 16, 0x1000, 2, 8, 8);
	vta_lut_fields set = {0, 1, 0, 0, 0, 0}, use = {3, 1, 0, 0, 0, 0};
	et_assert_ok(vta_stream_load_lut(f.s, &table, &set, &f.err), &f.err);
	vta_xfer w = xfer(VTA_MEM_WGT, 0, 96 * 100, 1, 1, 1);
	et_assert_ok(vta_stream_load_lut(f.s, &w, &use, &f.err), &f.err);
	vta_xfer wide = xfer(VTA_MEM_LUT32, 64, 0x2000, 1, 4, 4);
	vta_lut_fields set32 = {0, 5, 0, 0, 0, 0};
	et_assert_ok(vta_stream_load_lut(f.s, &wide, &set32, &f.err), &f.err);
	w.dram_addr = 96 * 100 + 1; /* packed elements are 96 bytes */
	assert_int_equal(vta_stream_load_lut(f.s, &w, &use, &f.err), VTA_E_USAGE);
	vta_program prog;
	et_assert_ok(vta_stream_finish(f.s, &prog, &f.err), &f.err);
	vta_insn a = decoded(&prog, &f.cfg, 0), b = decoded(&prog, &f.cfg, 1);
	assert_int_equal(a.mem.mem_type, VTA_MEM_LUT);
	assert_int_equal(a.mem.lut_slot, 1);
	assert_int_equal(b.mem.lut_bw, 3);
	assert_int_equal(b.mem.dram_base, 100);
	assert_int_equal(vta_insn_module(&a), VTA_MODULE_LOAD);
	assert_int_equal(vta_insn_module(&b), VTA_MODULE_LOAD);
	vta_insn c = decoded(&prog, &f.cfg, 2); /* int32 tables go to compute */
	assert_int_equal(c.mem.mem_type, VTA_MEM_LUT32);
	assert_int_equal(vta_insn_module(&c), VTA_MODULE_COMPUTE);
	vta_program_free(&prog);
	vta_stream_destroy(f.s);
	f.cfg.decomp_enabled = false;
	et_assert_ok(vta_stream_create(&f.cfg, &f.dram, 0, "t", &f.s, &f.err), &f.err);
	w.dram_addr = 96 * 100;
	assert_int_equal(vta_stream_load_lut(f.s, &w, &use, &f.err), VTA_E_UNSUPPORTED);
	et_assert_error(&f.err, VTA_E_UNSUPPORTED, "a decompressing load needs decompressor.enabled");
	fix_close(&f);
}

/* Token streams that cannot complete are refused at finish. */
static void test_stream_deadlock(void **state)
{
	(void)state;
	sb_fix f;
	fix_open(&f, "tiny");
	vta_program prog;
	/* a pop that no push feeds; the program is left empty (safe to free) on failure */
	memset(&prog, 0xff, sizeof(prog));
	et_assert_ok(vta_stream_dep_pop(f.s, VTA_STAGE_COMPUTE, VTA_STAGE_LOAD, &f.err), &f.err);
	assert_int_equal(vta_stream_finish(f.s, &prog, &f.err), VTA_E_DEADLOCK);
	et_assert_error(&f.err, VTA_E_DEADLOCK, "pops of g2l but only 0 pushes");
	assert_null(prog.insns);
	assert_int_equal(prog.n_insns, 0);
	assert_int_equal(prog.n_segments, 0);
	vta_program_free(&prog);
	fix_close(&f);

	/* balanced counts, circular order: store waits for compute which waits for store */
	fix_open(&f, "tiny");
	vta_insn st, nop;
	memset(&st, 0, sizeof(st));
	st.opcode = VTA_OP_STORE;
	st.mem.mem_type = VTA_MEM_OUT;
	st.deps.pop_prev = true;  /* g2s */
	st.deps.push_prev = true; /* s2g */
	memset(&nop, 0, sizeof(nop));
	nop.opcode = VTA_OP_LOAD;
	nop.mem.mem_type = VTA_MEM_UOP;
	nop.deps.pop_next = true;  /* s2g */
	nop.deps.push_next = true; /* g2s */
	et_assert_ok(vta_stream_insn(f.s, &st, &f.err), &f.err);
	et_assert_ok(vta_stream_insn(f.s, &nop, &f.err), &f.err);
	assert_int_equal(vta_stream_finish(f.s, &prog, &f.err), VTA_E_DEADLOCK);
	et_assert_error(&f.err, VTA_E_DEADLOCK, "the stream deadlocks");
	/* worded by the reference scheduler, under the layer's name */
	et_assert_error(&f.err, VTA_E_DEADLOCK, "layer t: the stream deadlocks: load ");
	et_assert_error(&f.err, VTA_E_DEADLOCK, "waits on g2s (0 tokens)");
	fix_close(&f);
}

/* A config the builder cannot check against (hand-made, not derived) is refused. */
static void test_stream_bad_config(void **state)
{
	(void)state;
	vta_config cfg;
	et_config("tiny", &cfg);
	cfg.acc_dep_distance = 65;
	vta_dram dram;
	vta_error err = {0};
	et_assert_ok(vta_dram_init(&dram, 1u << 20, &err), &err);
	vta_stream *s = (vta_stream *)&dram; /* must be overwritten */
	assert_int_equal(vta_stream_create(&cfg, &dram, 0, "t", &s, &err), VTA_E_CONFIG);
	et_assert_error(&err, VTA_E_CONFIG, "acc_dep_distance 65 is above 64");
	assert_null(s);
	vta_dram_free(&dram);
}

/* A new buffer is cleared, unless the builder was told the DRAM is all zeros above its
 * start (vta_stream_dram_zeroed): then it is left as it is. */
static void test_stream_dram_zeroed(void **state)
{
	(void)state;
	for (int zeroed = 0; zeroed < 2; zeroed++) {
		sb_fix f;
		fix_open(&f, "default");
		if (zeroed)
			vta_stream_dram_zeroed(f.s);
		memset(f.dram.bytes, 0xab, 4096);
		uint64_t addr = UINT64_MAX;
		et_assert_ok(vta_stream_alloc(f.s, 1000, 0, "buf", &addr, &f.err), &f.err);
		assert_true(addr + 1000 <= 4096);
		for (uint64_t i = 0; i < 1000; i++)
			assert_int_equal(f.dram.bytes[addr + i], zeroed ? 0xab : 0);
		fix_close(&f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stream_program),
		cmocka_unit_test(test_stream_kernel_cache),
		cmocka_unit_test(test_stream_thread_rows),
		cmocka_unit_test(test_stream_deps),
		cmocka_unit_test(test_stream_bad_flags),
		cmocka_unit_test(test_stream_hazard),
		cmocka_unit_test(test_stream_bounds),
		cmocka_unit_test(test_stream_features),
		cmocka_unit_test(test_stream_lut),
		cmocka_unit_test(test_stream_deadlock),
		cmocka_unit_test(test_stream_bad_config),
		cmocka_unit_test(test_stream_dram_zeroed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
