/*
 * test_isa_rules.c - the ISA's rulebook: the token-queue map (vta_queues.h), operand
 * legality of LOAD, STORE, GEMM and ALU (vta_rules.h), the stream's decode-and-flag check
 * and the schedule-only token scheduler (vta_sched.h), each diagnostic with a negative case and its exact wording.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <string.h>

#include "vta_config.h"
#include "vta_queues.h"
#include "vta_rules.h"
#include "vta_sched.h"

/* err holds status st and a detail equal to want. */
static void expect(const vta_error *err, vta_status got, vta_status st, const char *want)
{
	assert_int_equal(got, st);
	assert_int_equal(err->status, st);
	assert_string_equal(err->detail, want);
}

/* ---------- token queues ---------- */

static void test_queue_map(void **state)
{
	(void)state;
	/* the table of docs/isa.md "Dependency tokens" */
	assert_int_equal(vta_queue_popped(VTA_MODULE_LOAD, true), VTA_QUEUE_NONE);
	assert_int_equal(vta_queue_popped(VTA_MODULE_LOAD, false), VTA_QUEUE_G2L);
	assert_int_equal(vta_queue_pushed(VTA_MODULE_LOAD, true), VTA_QUEUE_NONE);
	assert_int_equal(vta_queue_pushed(VTA_MODULE_LOAD, false), VTA_QUEUE_L2G);
	assert_int_equal(vta_queue_popped(VTA_MODULE_COMPUTE, true), VTA_QUEUE_L2G);
	assert_int_equal(vta_queue_popped(VTA_MODULE_COMPUTE, false), VTA_QUEUE_S2G);
	assert_int_equal(vta_queue_pushed(VTA_MODULE_COMPUTE, true), VTA_QUEUE_G2L);
	assert_int_equal(vta_queue_pushed(VTA_MODULE_COMPUTE, false), VTA_QUEUE_G2S);
	assert_int_equal(vta_queue_popped(VTA_MODULE_STORE, true), VTA_QUEUE_G2S);
	assert_int_equal(vta_queue_popped(VTA_MODULE_STORE, false), VTA_QUEUE_NONE);
	assert_int_equal(vta_queue_pushed(VTA_MODULE_STORE, true), VTA_QUEUE_S2G);
	assert_int_equal(vta_queue_pushed(VTA_MODULE_STORE, false), VTA_QUEUE_NONE);
	assert_int_equal(vta_queue_popped(VTA_MODULE_COUNT, true), VTA_QUEUE_NONE);
	assert_int_equal(vta_queue_pushed(VTA_MODULE_COUNT, false), VTA_QUEUE_NONE);

	/* each queue has one consumer, the module the map says pops it */
	for (int q = 0; q < VTA_QUEUE_COUNT; q++) {
		bool prev;
		vta_module m = vta_queue_consumer((vta_queue)q, &prev);
		assert_true(m < VTA_MODULE_COUNT);
		assert_int_equal(vta_queue_popped(m, prev), q);
	}
	bool prev = true;
	assert_int_equal(vta_queue_consumer(VTA_QUEUE_NONE, &prev), VTA_MODULE_COUNT);
	assert_false(prev);

	assert_string_equal(vta_queue_name(VTA_QUEUE_L2G), "l2g");
	assert_string_equal(vta_queue_name(VTA_QUEUE_G2L), "g2l");
	assert_string_equal(vta_queue_name(VTA_QUEUE_G2S), "g2s");
	assert_string_equal(vta_queue_name(VTA_QUEUE_S2G), "s2g");
	assert_string_equal(vta_queue_name(VTA_QUEUE_COUNT), "?");
	assert_string_equal(vta_queue_name(-1), "?");
}

static void test_insn_queues(void **state)
{
	(void)state;
	vta_insn insn;
	memset(&insn, 0, sizeof(insn));
	insn.opcode = VTA_OP_GEMM;
	insn.deps = (vta_deps){true, false, false, true};
	vta_queue pops[2], pushes[2];
	vta_insn_queues(&insn, VTA_MODULE_COMPUTE, pops, pushes);
	assert_int_equal(pops[0], VTA_QUEUE_L2G);
	assert_int_equal(pops[1], VTA_QUEUE_NONE);
	assert_int_equal(pushes[0], VTA_QUEUE_NONE);
	assert_int_equal(pushes[1], VTA_QUEUE_G2S);
	/* an illegal flag maps to no queue */
	insn.deps = (vta_deps){true, true, true, true};
	vta_insn_queues(&insn, VTA_MODULE_STORE, pops, pushes);
	assert_int_equal(pops[0], VTA_QUEUE_G2S);
	assert_int_equal(pops[1], VTA_QUEUE_NONE);
	assert_int_equal(pushes[0], VTA_QUEUE_S2G);
	assert_int_equal(pushes[1], VTA_QUEUE_NONE);
}

/* ---------- LOAD and STORE ---------- */

static vta_mem_insn mem_insn(vta_mem mem, uint32_t sram_base, uint32_t dram_base, uint32_t y,
			     uint32_t x)
{
	vta_mem_insn m;
	memset(&m, 0, sizeof(m));
	m.mem_type = mem;
	m.sram_base = sram_base;
	m.dram_base = dram_base;
	m.y_size = y;
	m.x_size = x;
	m.x_stride = x;
	return m;
}

static void test_load_check(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg); /* INP 2048 rows of 16 B, WGT 1024, ACC 2048, UOP 8192 */
	vta_error err = {0};
	const uint64_t dram = 4096;

	vta_mem_insn m = mem_insn(VTA_MEM_INP, 0, 0, 2, 4);
	m.y_pad_0 = 1;
	m.x_pad_1 = 2;
	assert_int_equal(vta_load_check(&cfg, &m, dram, &err), VTA_OK);
	assert_int_equal(vta_load_sram_rows(&m), 3 * 6);

	m = mem_insn(VTA_MEM_COUNT, 0, 0, 1, 1);
	expect(&err, vta_load_check(&cfg, &m, dram, &err), VTA_E_STREAM, "unknown memory type 8");
	m = mem_insn(VTA_MEM_OUT, 0, 0, 1, 1);
	expect(&err, vta_load_check(&cfg, &m, dram, &err), VTA_E_STREAM,
	       "LOAD of memory type out is illegal (OUT is written by GEMM/ALU and read by "
	       "STORE)");
	m = mem_insn(VTA_MEM_WGT, 0, 0, 1, 1);
	m.x_pad_0 = 1;
	expect(&err, vta_load_check(&cfg, &m, dram, &err), VTA_E_STREAM,
	       "padding not supported for wgt");
	m = mem_insn(VTA_MEM_UOP, 0, 0, 1, 1);
	m.y_pad_1 = 1;
	expect(&err, vta_load_check(&cfg, &m, dram, &err), VTA_E_STREAM,
	       "padding not supported for uop");

	/* SRAM: padding counts; ACC_8BIT is named as the ACC it writes */
	m = mem_insn(VTA_MEM_INP, 2040, 0, 2, 2);
	m.y_pad_0 = 1;
	m.x_pad_0 = 1;
	expect(&err, vta_load_check(&cfg, &m, dram, &err), VTA_E_OOB,
	       "inp SRAM rows [2040, 2049) beyond depth 2048");
	m = mem_insn(VTA_MEM_ACC_8BIT, 2048, 0, 1, 1);
	expect(&err, vta_load_check(&cfg, &m, dram, &err), VTA_E_OOB,
	       "acc SRAM rows [2048, 2049) beyond depth 2048");

	/* DRAM: the first row that ends beyond it is named (row 1 of 3 here) */
	m = mem_insn(VTA_MEM_INP, 0, 250, 3, 2);
	m.x_stride = 5;
	expect(&err, vta_load_check(&cfg, &m, dram, &err), VTA_E_OOB,
	       "DRAM read of row 1 at [0xff0, 0x1010) beyond the DRAM (0x1000 bytes)");
	m = mem_insn(VTA_MEM_INP, 0, 254, 1, 2); /* ends exactly at the end: fine */
	assert_int_equal(vta_load_check(&cfg, &m, dram, &err), VTA_OK);
	/* the largest fields cannot wrap the address arithmetic */
	m = mem_insn(VTA_MEM_INP, 0, UINT32_MAX, 1, 1);
	expect(&err, vta_load_check(&cfg, &m, dram, &err), VTA_E_OOB,
	       "DRAM read of row 0 at [0xffffffff0, 0x1000000000) beyond the DRAM (0x1000 "
	       "bytes)");
}

static void test_store_check(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg); /* OUT 2048 rows of 16 B */
	vta_error err = {0};
	const uint64_t dram = 4096;

	vta_mem_insn m = mem_insn(VTA_MEM_OUT, 0, 0, 2, 2);
	assert_int_equal(vta_store_check(&cfg, &m, dram, &err), VTA_OK);
	m = mem_insn(VTA_MEM_ACC, 0, 0, 1, 1);
	expect(&err, vta_store_check(&cfg, &m, dram, &err), VTA_E_STREAM,
	       "STORE supports only memory type out, not acc");
	m = mem_insn(VTA_MEM_OUT, 0, 0, 1, 1);
	m.x_pad_1 = 1;
	expect(&err, vta_store_check(&cfg, &m, dram, &err), VTA_E_STREAM,
	       "padding not supported for store");
	m = mem_insn(VTA_MEM_OUT, 2047, 0, 2, 1);
	expect(&err, vta_store_check(&cfg, &m, dram, &err), VTA_E_OOB,
	       "out SRAM rows [2047, 2049) beyond depth 2048");
	m = mem_insn(VTA_MEM_OUT, 0, 255, 1, 2);
	expect(&err, vta_store_check(&cfg, &m, dram, &err), VTA_E_OOB,
	       "DRAM write of row 0 at [0xff0, 0x1010) beyond the DRAM (0x1000 bytes)");
}

/* ---------- GEMM and ALU ---------- */

static vta_insn loop_insn(vta_opcode op, uint32_t bgn, uint32_t end)
{
	vta_insn insn;
	memset(&insn, 0, sizeof(insn));
	insn.opcode = op;
	insn.loop.uop_bgn = bgn;
	insn.loop.uop_end = end;
	insn.loop.iter_out = insn.loop.iter_in = 1;
	return insn;
}

static void test_loop_check(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg); /* UOP 8192 rows; alu.mul on */
	cfg.alu_tflite_ext = false;
	vta_error err = {0};

	vta_insn g = loop_insn(VTA_OP_GEMM, 0, 8192);
	assert_int_equal(vta_loop_check(&cfg, &g, &err), VTA_OK);
	g = loop_insn(VTA_OP_GEMM, 5, 4);
	expect(&err, vta_loop_check(&cfg, &g, &err), VTA_E_STREAM,
	       "uop_bgn 5 is after uop_end 4");
	g = loop_insn(VTA_OP_GEMM, 0, 8193);
	expect(&err, vta_loop_check(&cfg, &g, &err), VTA_E_OOB,
	       "uop range [0, 8193) beyond UOP depth 8192");

	vta_insn a = loop_insn(VTA_OP_ALU, 0, 1);
	a.alu.op = VTA_ALU_OP_COUNT;
	expect(&err, vta_loop_check(&cfg, &a, &err), VTA_E_STREAM, "unknown ALU op 7");
	a.alu.op = VTA_ALU_MUL;
	assert_int_equal(vta_loop_check(&cfg, &a, &err), VTA_OK);
	cfg.alu_mul = false;
	expect(&err, vta_loop_check(&cfg, &a, &err), VTA_E_UNSUPPORTED,
	       "ALU mul needs alu.mul in the config");
	a.alu.op = VTA_ALU_SRDHM;
	expect(&err, vta_loop_check(&cfg, &a, &err), VTA_E_UNSUPPORTED,
	       "ALU srdhm needs alu.tflite_ext in the config");
	a.alu.op = VTA_ALU_RSHR;
	a.loop.reset = true; /* the feature is needed even by a reset */
	expect(&err, vta_loop_check(&cfg, &a, &err), VTA_E_UNSUPPORTED,
	       "ALU rshr needs alu.tflite_ext in the config");
	cfg.alu_tflite_ext = true;
	assert_int_equal(vta_loop_check(&cfg, &a, &err), VTA_OK);
	/* a GEMM's ALU fields are not looked at */
	g = loop_insn(VTA_OP_GEMM, 0, 1);
	g.alu.op = 99;
	assert_int_equal(vta_loop_check(&cfg, &g, &err), VTA_OK);
}

static void test_uop_bounds(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg); /* ACC 2048, INP 2048, WGT 1024 */
	vta_error err = {0};
	vta_uop_bounds b;
	vta_uop_oob oob;

	/* GEMM reads inp and wgt */
	vta_insn g = loop_insn(VTA_OP_GEMM, 0, 1);
	vta_uop_bounds_of(&cfg, &g, &b);
	assert_true(vta_uop_in_bounds(&b, 2047, 2047, 1023));
	assert_false(vta_uop_find_oob(&b, 2047, 2047, 1023, &oob));
	assert_false(vta_uop_in_bounds(&b, 2048, 0, 0));
	expect(&err, vta_uop_oob_fail(&b, 3, 1, 2, 2048, 0, 0, &err), VTA_E_OOB,
	       "uop 3 (it_out 1, it_in 2): acc index 2048 beyond depth 2048");
	expect(&err, vta_uop_oob_fail(&b, 0, 0, 0, 0, 2048, 0, &err), VTA_E_OOB,
	       "uop 0 (it_out 0, it_in 0): inp index 2048 beyond depth 2048");
	expect(&err, vta_uop_oob_fail(&b, 0, 0, 0, 0, 0, 1024, &err), VTA_E_OOB,
	       "uop 0 (it_out 0, it_in 0): wgt index 1024 beyond depth 1024");
	/* dst first, then src, then wgt */
	assert_true(vta_uop_find_oob(&b, 5000, 5000, 5000, &oob));
	assert_string_equal(oob.what, "acc");
	assert_true(vta_uop_find_oob(&b, 0, 5000, 5000, &oob));
	assert_string_equal(oob.what, "inp");
	assert_int_equal(oob.index, 5000);
	assert_int_equal(oob.depth, 2048);

	/* a reset reads nothing: only dst is checked */
	g.loop.reset = true;
	vta_uop_bounds_of(&cfg, &g, &b);
	assert_true(vta_uop_in_bounds(&b, 0, UINT32_MAX, UINT32_MAX));
	assert_false(vta_uop_in_bounds(&b, 2048, 0, 0));

	/* ALU src indexes ACC; with an immediate it is not read; wgt never is */
	vta_insn a = loop_insn(VTA_OP_ALU, 0, 1);
	vta_uop_bounds_of(&cfg, &a, &b);
	assert_true(vta_uop_in_bounds(&b, 0, 2047, UINT32_MAX));
	expect(&err, vta_uop_oob_fail(&b, 1, 0, 0, 0, 2048, 0, &err), VTA_E_OOB,
	       "uop 1 (it_out 0, it_in 0): src acc index 2048 beyond depth 2048");
	a.alu.use_imm = true;
	vta_uop_bounds_of(&cfg, &a, &b);
	assert_true(vta_uop_in_bounds(&b, 0, UINT32_MAX, 0));

	/* asked to word indices that are in bounds: a bug of the caller */
	assert_int_equal(vta_uop_oob_fail(&b, 0, 0, 0, 0, 0, 0, &err), VTA_E_INTERNAL);
}

static void test_acc_hazard(void **state)
{
	(void)state;
	/* the window is 1..D uops back; 0 means no previous write */
	assert_false(vta_acc_hazard(0, 2));
	assert_true(vta_acc_hazard(1, 2));
	assert_true(vta_acc_hazard(2, 2));
	assert_false(vta_acc_hazard(3, 2));
	assert_false(vta_acc_hazard(1, 0)); /* distance 0 disables the rule */
	vta_error err = {0};
	expect(&err, vta_acc_hazard_fail(5, 1, 2, 7, 0, 3, &err), VTA_E_HAZARD,
	       "ACC row 5 written again 1 uops after the previous write (distance 2), at uop 7 "
	       "(it_out 0, it_in 3)");
}

/* ---------- the scheduler, tokens only ---------- */

static vta_insn nop_of(vta_module m, bool pop_prev, bool pop_next, bool push_prev,
		       bool push_next)
{
	vta_insn insn;
	memset(&insn, 0, sizeof(insn));
	insn.opcode = m == VTA_MODULE_STORE ? VTA_OP_STORE : VTA_OP_LOAD;
	insn.mem.mem_type = m == VTA_MODULE_STORE ? VTA_MEM_OUT
			    : m == VTA_MODULE_LOAD ? VTA_MEM_INP
						   : VTA_MEM_UOP;
	insn.deps = (vta_deps){pop_prev, pop_next, push_prev, push_next};
	return insn;
}

static vta_insn finish_insn(bool pop_prev, bool pop_next)
{
	vta_insn insn;
	memset(&insn, 0, sizeof(insn));
	insn.opcode = VTA_OP_FINISH;
	insn.deps.pop_prev = pop_prev;
	insn.deps.pop_next = pop_next;
	return insn;
}

/* Counts the instructions executed, in order. */
typedef struct trace {
	size_t order[8], n;
} trace;

static vta_status record(void *ctx, size_t idx, const vta_insn *insn)
{
	(void)insn;
	trace *t = ctx;
	t->order[t->n++] = idx;
	return VTA_OK;
}

static vta_status refuse(void *ctx, size_t idx, const vta_insn *insn)
{
	(void)ctx;
	(void)insn;
	vta_error *err = NULL;
	return idx == 1 ? vta_fail(err, VTA_E_OOB, "refused") : VTA_OK;
}

/* Whether any uop of the nest writes an ACC row 1..D uops after its last write: every
 * write in order, each row's last position kept (rows below 64). */
static bool nest_hazard_walk(const vta_loop *l, const uint32_t *dst, uint64_t D)
{
	int64_t last[64];
	for (int r = 0; r < 64; r++)
		last[r] = -1;
	int64_t t = 0;
	for (uint32_t o = 0; o < l->iter_out; o++)
		for (uint32_t i = 0; i < l->iter_in; i++)
			for (uint32_t k = 0; k < l->uop_end - l->uop_bgn; k++, t++) {
				uint32_t row = dst[k] + o * l->dst_factor_out + i * l->dst_factor_in;
				assert_true(row < 64);
				if (last[row] >= 0 && vta_acc_hazard((uint64_t)(t - last[row]), D))
					return true;
				last[row] = t;
			}
	return false;
}

/* vta_nest_acc_clear against the walk on random small nests: the same verdict on each,
 * with both verdicts met many times. */
static void test_nest_acc_clear(void **state)
{
	(void)state;
	uint32_t seed = 12345;
	int clear = 0, hazard = 0;
	for (int n = 0; n < 20000; n++) {
		seed = seed * 1103515245u + 12345u;
		uint32_t r = seed >> 4;
		vta_loop l;
		memset(&l, 0, sizeof(l));
		l.uop_bgn = 0;
		l.uop_end = 1 + r % 4;
		l.iter_out = 1 + (r >> 2) % 4;
		l.iter_in = 1 + (r >> 4) % 4;
		l.dst_factor_out = (r >> 6) % 5;
		l.dst_factor_in = (r >> 9) % 3;
		const uint64_t D = (r >> 11) % 9; /* 0: no rule */
		uint32_t dst[4];
		for (int k = 0; k < 4; k++) {
			seed = seed * 1103515245u + 12345u;
			dst[k] = (seed >> 8) % 8;
		}
		const bool walk = nest_hazard_walk(&l, dst, D);
		const bool c = vta_nest_acc_clear(&l, dst, 1, D);
		if (c == walk)
			fail_msg("nest %d: uops %u, iter %u x %u, factors %u %u, distance %llu: "
				 "clear %d, the walk finds a hazard: %d",
				 n, l.uop_end, l.iter_out, l.iter_in, l.dst_factor_out,
				 l.dst_factor_in, (unsigned long long)D, c, walk);
		clear += !walk;
		hazard += walk;
	}
	assert_true(clear > 2000 && hazard > 2000);
}

static void test_sched(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	vta_error err = {0};

	/* load pushes l2g; compute's FINISH pops it: the FINISH waits for the load */
	vta_insn ok[3] = {finish_insn(true, false), nop_of(VTA_MODULE_LOAD, 0, 0, 0, 1),
			  nop_of(VTA_MODULE_STORE, 0, 0, 0, 0)};
	assert_int_equal(vta_sched_run(&cfg, ok, 3, NULL, NULL, &err), VTA_OK);
	trace t = {{0}, 0};
	assert_int_equal(vta_sched_run(&cfg, ok, 3, record, &t, &err), VTA_OK);
	assert_int_equal(t.n, 2); /* the store after FINISH never executes */
	assert_int_equal(t.order[0], 1);
	assert_int_equal(t.order[1], 0);

	/* the executor's error ends the run */
	assert_int_equal(vta_sched_run(&cfg, ok, 3, refuse, NULL, &err), VTA_E_OOB);

	/* store waits for compute which waits for store */
	vta_insn circle[3] = {nop_of(VTA_MODULE_STORE, 1, 0, 1, 0),
			      nop_of(VTA_MODULE_COMPUTE, 0, 1, 0, 1), finish_insn(false, false)};
	assert_int_equal(vta_sched_run(&cfg, circle, 3, NULL, NULL, &err), VTA_E_DEADLOCK);
	assert_non_null(strstr(err.detail, "deadlock: load idle; compute insn 1 ("));
	assert_non_null(strstr(err.detail, ") waits on s2g (0 tokens); store insn 0 ("));
	assert_non_null(strstr(err.detail, ") waits on g2s (0 tokens)"));

	/* a second push into a full queue whose consumer waits elsewhere */
	cfg.dep_depth = 1;
	vta_insn full[4] = {nop_of(VTA_MODULE_LOAD, 0, 0, 0, 1),
			    nop_of(VTA_MODULE_LOAD, 0, 0, 0, 1),
			    nop_of(VTA_MODULE_COMPUTE, 0, 1, 0, 0), finish_insn(true, false)};
	assert_int_equal(vta_sched_run(&cfg, full, 4, NULL, NULL, &err), VTA_E_DEADLOCK);
	assert_non_null(strstr(err.detail, "deadlock: load insn 1 ("));
	assert_non_null(strstr(err.detail, ") executed, waits for room in l2g (full, 1 tokens); "
					   "compute insn 2 ("));
	assert_non_null(strstr(err.detail, ") waits on s2g (0 tokens); store idle"));

	/* FETCH stalls on a full instruction queue behind a waiting instruction */
	cfg.dep_depth = 8;
	cfg.insn_depth = 1;
	vta_insn stall[3] = {nop_of(VTA_MODULE_COMPUTE, 1, 0, 0, 0),
			     nop_of(VTA_MODULE_COMPUTE, 0, 0, 0, 0), finish_insn(false, false)};
	assert_int_equal(vta_sched_run(&cfg, stall, 3, NULL, NULL, &err), VTA_E_DEADLOCK);
	assert_non_null(strstr(err.detail, "; fetch stalled at insn 1: compute queue full (1 "
					   "insns)"));

	/* every instruction executed, none a FINISH */
	vta_insn nofin[2] = {nop_of(VTA_MODULE_LOAD, 0, 0, 0, 0),
			     nop_of(VTA_MODULE_STORE, 0, 0, 0, 0)};
	expect(&err, vta_sched_run(&cfg, nofin, 2, NULL, NULL, &err), VTA_E_NO_FINISH,
	       "the stream's 2 instructions executed without a FINISH (load 1, compute 0, "
	       "store 1)");
}

static void test_sched_decode(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	vta_error err = {0};
	vta_program prog;
	vta_program_init(&prog, &cfg);
	vta_insn in[3] = {nop_of(VTA_MODULE_LOAD, 0, 1, 0, 1), finish_insn(false, false),
			  nop_of(VTA_MODULE_STORE, 0, 1, 0, 0)}; /* store pop_next: illegal */
	for (int i = 0; i < 3; i++)
		assert_int_equal(vta_program_push(&prog, &cfg, &in[i], &err), VTA_OK);
	vta_insn out[3];
	/* checked in program order, after FINISH too */
	assert_int_equal(vta_sched_decode(&prog, &cfg, out, &err), VTA_E_FLAGS);
	assert_non_null(strstr(err.detail, "insn 2 (store"));
	assert_non_null(strstr(err.detail, "): "));
	assert_int_equal(out[0].deps.pop_next, true);
	assert_int_equal(out[1].opcode, VTA_OP_FINISH);
	vta_program_free(&prog);

	vta_program_init(&prog, &cfg);
	for (int i = 0; i < 2; i++)
		assert_int_equal(vta_program_push(&prog, &cfg, &in[i], &err), VTA_OK);
	assert_int_equal(vta_sched_decode(&prog, &cfg, out, &err), VTA_OK);
	assert_memory_equal(&out[0].deps, &in[0].deps, sizeof(vta_deps));
	vta_program_free(&prog);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_queue_map),   cmocka_unit_test(test_insn_queues),
		cmocka_unit_test(test_load_check),  cmocka_unit_test(test_store_check),
		cmocka_unit_test(test_loop_check),  cmocka_unit_test(test_uop_bounds),
		cmocka_unit_test(test_acc_hazard),  cmocka_unit_test(test_sched_decode),
		cmocka_unit_test(test_sched),       cmocka_unit_test(test_nest_acc_clear),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
