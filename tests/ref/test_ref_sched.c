/*
 * test_ref_sched.c - dispatch, dependency tokens and the end of a run in the reference
 * executor: two virtual threads ping-ponging INP buffers, NOPs carrying tokens, token
 * queue capacity, instruction queue capacity (FETCH stalls), FINISH ending the run, and
 * the deadlock, illegal-flag and missing-FINISH diagnostics.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test_ref_util.h"

#define UOP_ADDR 0x0u
#define INP_ADDR 0x10000u /* 16 B elements -> base 0x1000 */
#define WGT_ADDR 0x20000u /* 256 B elements -> base 0x200 */
#define ACC_ADDR 0x40000u /* 64 B elements -> base 0x1000 */
#define OUT_ADDR 0x80000u /* 16 B elements -> base 0x8000 */

/* deps(pop_prev, pop_next, push_prev, push_next) shorthands */
#define POP_PREV deps(true, false, false, false)
#define POP_NEXT deps(false, true, false, false)
#define PUSH_PREV deps(false, false, true, false)
#define PUSH_NEXT deps(false, false, false, true)

static int8_t tile_val(uint32_t t, uint32_t k)
{
	return (int8_t)((int)((t * 71 + k * 13) % 256) - 128);
}

static int8_t wgt_val(uint32_t o, uint32_t k)
{
	return (int8_t)((int)((o * 29 + k * 5 + 3) % 256) - 128);
}

/*
 * Two virtual threads: INP tiles 0..3 go alternately to INP buffers 0 and 1; the load of
 * tile t+2 waits (g2l) until the GEMM of tile t has freed its buffer, and each GEMM waits
 * (l2g) for its tile. Were tokens ignored, tile 2 would overwrite buffer 0 before the GEMM
 * of tile 0 reads it.
 */
static void run_ping_pong(uint32_t dep_depth, uint32_t insn_depth)
{
	fx f;
	fx_init(&f);
	f.cfg.dep_depth = dep_depth;
	f.cfg.insn_depth = insn_depth;
	fx_start(&f);
	uint8_t tiles[4 * 16], wgt[256];
	for (uint32_t t = 0; t < 4; t++)
		for (uint32_t k = 0; k < 16; k++)
			tiles[t * 16 + k] = (uint8_t)tile_val(t, k);
	for (uint32_t o = 0; o < 16; o++)
		for (uint32_t k = 0; k < 16; k++)
			wgt[o * 16 + k] = (uint8_t)wgt_val(o, k);
	fx_data(&f, INP_ADDR, tiles, sizeof(tiles));
	fx_data(&f, WGT_ADDR, wgt, sizeof(wgt));
	vta_uop uops[4];
	for (uint32_t t = 0; t < 4; t++)
		uops[t] = (vta_uop){.dst = t, .src = t % 2, .wgt = 0};
	fx_uops(&f, UOP_ADDR, uops, 4);

	vta_insn gemm[4];
	for (uint32_t t = 0; t < 4; t++)
		gemm[t] = mk_gemm(false, t, t + 1, 1, 1);
	fx_push(&f, mk_load(VTA_MEM_WGT, 0, WGT_ADDR / 256, 1, 1, 1));
	fx_push(&f, with_deps(mk_load(VTA_MEM_INP, 0, INP_ADDR / 16 + 0, 1, 1, 1), PUSH_NEXT));
	fx_push(&f, with_deps(mk_load(VTA_MEM_INP, 1, INP_ADDR / 16 + 1, 1, 1, 1), PUSH_NEXT));
	fx_push(&f, mk_load(VTA_MEM_UOP, 0, UOP_ADDR / 4, 1, 4, 4));
	fx_push(&f, with_deps(gemm[0], deps(true, false, true, false)));
	fx_push(&f, with_deps(mk_load(VTA_MEM_INP, 0, INP_ADDR / 16 + 2, 1, 1, 1),
			      deps(false, true, false, true)));
	fx_push(&f, with_deps(gemm[1], deps(true, false, true, false)));
	fx_push(&f, with_deps(mk_load(VTA_MEM_INP, 1, INP_ADDR / 16 + 3, 1, 1, 1),
			      deps(false, true, false, true)));
	fx_push(&f, with_deps(gemm[2], POP_PREV));
	fx_push(&f, with_deps(gemm[3], deps(true, false, false, true)));
	fx_push(&f, with_deps(mk_store(0, OUT_ADDR / 16, 1, 4, 4), deps(true, false, true, false)));
	fx_push(&f, mk_finish(POP_NEXT));
	fx_run_ok(&f);

	for (uint32_t t = 0; t < 4; t++) {
		for (uint32_t o = 0; o < 16; o++) {
			int32_t want = 0;
			for (uint32_t k = 0; k < 16; k++)
				want += tile_val(t, k) * wgt_val(o, k);
			assert_int_equal(fx_acc(&f, t, o), want);
			assert_int_equal(f.dram.bytes[OUT_ADDR + t * 16 + o],
					 (uint8_t)(uint32_t)want);
		}
	}
	const vta_ref_counters *c = vta_ref_counters_get(f.ref);
	assert_int_equal(c->insns[VTA_MODULE_LOAD], 5);
	assert_int_equal(c->insns[VTA_MODULE_COMPUTE], 6);
	assert_int_equal(c->insns[VTA_MODULE_STORE], 1);
	assert_int_equal(c->gemm_uops, 4);
	assert_int_equal(c->store_bytes, 64);
	fx_free(&f);
}

static void test_two_virtual_threads(void **state)
{
	(void)state;
	run_ping_pong(8, 512);
	run_ping_pong(2, 512);
	run_ping_pong(1, 1); /* tightest queues still complete */
}

/* Load-, compute- and store-stage NOPs pass a token down the pipeline and back. */
static void test_nops_carry_tokens(void **state)
{
	(void)state;
	for (int sync = 0; sync < 2; sync++) {
		fx f;
		fx_init(&f);
		fx_start(&f);
		fx_push(&f, nop_load(PUSH_NEXT));
		fx_push(&f, nop_compute(deps(true, false, false, true)));
		fx_push(&f, nop_store(deps(true, false, true, false)));
		/* without pop_next, FINISH does not wait for the store NOP */
		fx_push(&f, mk_finish(sync ? POP_NEXT : NO_DEPS));
		fx_run_ok(&f);
		const vta_ref_counters *c = vta_ref_counters_get(f.ref);
		assert_int_equal(c->insns[VTA_MODULE_LOAD], 1);
		assert_int_equal(c->insns[VTA_MODULE_COMPUTE], 2);
		assert_int_equal(c->insns[VTA_MODULE_STORE], sync ? 1 : 0);
		assert_int_equal(c->store_bytes, 0);
		fx_free(&f);
	}
}

/* FINISH ends the run: later compute instructions and unsynchronised stores never run. */
static void test_finish_ends_run(void **state)
{
	(void)state;
	for (int sync = 0; sync < 2; sync++) {
		fx f;
		fx_init(&f);
		f.cfg.alu_mul = false;
		fx_start(&f);
		int32_t v[16];
		for (int i = 0; i < 16; i++)
			v[i] = 0x100 + i;
		fx_data32(&f, ACC_ADDR, v, 16);
		vta_uop uop = {0, 0, 0};
		fx_uops(&f, UOP_ADDR, &uop, 1);
		fx_push(&f, mk_load(VTA_MEM_UOP, 0, UOP_ADDR / 4, 1, 1, 1));
		fx_push(&f, mk_load(VTA_MEM_ACC, 0, ACC_ADDR / 64, 1, 1, 1));
		fx_push(&f, with_deps(mk_alu(VTA_ALU_ADD, true, 1, 0, 1, 1, 1), PUSH_NEXT));
		fx_push(&f, with_deps(mk_store(0, OUT_ADDR / 16, 1, 1, 1), POP_PREV));
		if (sync)
			fx_push(&f, nop_store(PUSH_PREV));
		fx_push(&f, mk_finish(sync ? POP_NEXT : NO_DEPS));
		/* after FINISH: neither executed nor diagnosed */
		fx_push(&f, mk_load(VTA_MEM_ACC, 0, ACC_ADDR / 64 + 1, 1, 1, 1));
		fx_push(&f, mk_alu(VTA_ALU_MUL, true, 3, 0, 1, 1, 1));
		fx_run_ok(&f);
		assert_int_equal(fx_acc(&f, 0, 5), 0x106);
		for (int l = 0; l < 16; l++)
			assert_int_equal(f.dram.bytes[OUT_ADDR + l], sync ? (0x101 + l) & 0xff : 0);
		const vta_ref_counters *c = vta_ref_counters_get(f.ref);
		assert_int_equal(c->insns[VTA_MODULE_COMPUTE], 4);
		assert_int_equal(c->insns[VTA_MODULE_STORE], sync ? 2 : 0);
		fx_free(&f);
	}
}

/* ---------- token queue capacity ---------- */

/*
 * Compute pushes 9 tokens into g2l and nobody pops them. With dep_depth 8 the ninth push
 * waits for room forever: a deadlock, after the instruction itself has executed (its ACC
 * load is visible). With dep_depth 9 everything fits.
 */
static void test_token_capacity_blocks(void **state)
{
	(void)state;
	for (uint32_t depth = 8; depth <= 9; depth++) {
		fx f;
		fx_init(&f);
		f.cfg.dep_depth = depth;
		fx_start(&f);
		int32_t v[16];
		for (int i = 0; i < 16; i++)
			v[i] = 77 + i;
		fx_data32(&f, ACC_ADDR, v, 16);
		for (int i = 0; i < 8; i++)
			fx_push(&f, nop_compute(PUSH_PREV));
		fx_push(&f, with_deps(mk_load(VTA_MEM_ACC, 0, ACC_ADDR / 64, 1, 1, 1), PUSH_PREV));
		fx_push(&f, mk_finish(NO_DEPS));
		if (depth == 9) {
			fx_run_ok(&f);
		} else {
			const char *const needles[] = {
				"deadlock: load idle; compute insn 8 (",
				") executed, waits for room in g2l (full, 8 tokens); store idle",
				NULL};
			fx_run_fails(&f, VTA_E_DEADLOCK, needles);
		}
		assert_int_equal(vta_ref_counters_get(f.ref)->insns[VTA_MODULE_COMPUTE],
				 depth == 9 ? 10 : 9);
		assert_int_equal(fx_acc(&f, 0, 3), 80);
		fx_free(&f);
	}
}

/*
 * An instruction waiting for room to push has already popped its tokens. Load insn 2 and
 * compute insn 3 each pop the queue the other one pushes into, both queues full at depth 1;
 * were an instruction to wait for room before popping, the two would deadlock.
 */
static void test_blocked_push_releases_pops(void **state)
{
	(void)state;
	fx f;
	fx_init(&f);
	f.cfg.dep_depth = 1;
	fx_start(&f);
	fx_push(&f, nop_compute(PUSH_PREV));			  /* g2l = 1 */
	fx_push(&f, nop_load(PUSH_NEXT));			  /* l2g = 1 */
	fx_push(&f, nop_load(deps(false, true, false, true)));	  /* pops g2l, l2g full */
	fx_push(&f, nop_compute(deps(true, false, true, false))); /* pops l2g, pushes g2l */
	fx_push(&f, nop_compute(POP_PREV));
	fx_push(&f, nop_load(POP_NEXT));
	fx_push(&f, mk_finish(NO_DEPS));
	fx_run_ok(&f);
	fx_free(&f);
}

/* More tokens than dep_depth in flight overall is fine when the consumer keeps up. */
static void test_token_capacity_throttles(void **state)
{
	(void)state;
	fx f;
	fx_init(&f);
	f.cfg.dep_depth = 2;
	fx_start(&f);
	for (int i = 0; i < 20; i++)
		fx_push(&f, nop_load(PUSH_NEXT));
	for (int i = 0; i < 20; i++)
		fx_push(&f, nop_compute(POP_PREV));
	fx_push(&f, mk_finish(NO_DEPS));
	fx_run_ok(&f);
	assert_int_equal(vta_ref_counters_get(f.ref)->insns[VTA_MODULE_LOAD], 20);
	assert_int_equal(vta_ref_counters_get(f.ref)->insns[VTA_MODULE_COMPUTE], 21);
	fx_free(&f);
}

/*
 * A full instruction queue stalls FETCH, so later instructions of other modules wait too:
 * the instruction a module is waiting on keeps its slot.
 */
static void test_fetch_stall(void **state)
{
	(void)state;
	for (uint32_t depth = 2; depth <= 3; depth++) {
		fx f;
		fx_init(&f);
		f.cfg.insn_depth = depth;
		fx_start(&f);
		for (int i = 0; i < 3; i++)
			fx_push(&f, nop_compute(POP_PREV));
		for (int i = 0; i < 3; i++)
			fx_push(&f, nop_load(PUSH_NEXT));
		fx_push(&f, mk_finish(NO_DEPS));
		if (depth == 3) {
			fx_run_ok(&f);
		} else {
			const char *const needles[] = {
				"deadlock: load idle; compute insn 0 (",
				"waits on l2g (0 tokens); store idle",
				"; fetch stalled at insn 2: compute queue full (2 insns)", NULL};
			fx_run_fails(&f, VTA_E_DEADLOCK, needles);
		}
		fx_free(&f);
	}
}

/* ---------- diagnostics ---------- */

static void test_deadlock(void **state)
{
	(void)state;
	fx f;
	fx_init(&f);
	fx_start(&f);
	vta_uop uop = {0, 0, 0};
	fx_uops(&f, UOP_ADDR, &uop, 1);
	fx_push(&f, mk_load(VTA_MEM_UOP, 0, UOP_ADDR / 4, 1, 1, 1));
	fx_push(&f, with_deps(mk_load(VTA_MEM_INP, 0, INP_ADDR / 16, 1, 1, 1), POP_NEXT));
	fx_push(&f, with_deps(mk_gemm(false, 0, 1, 1, 1), deps(true, true, false, false)));
	fx_push(&f, with_deps(mk_store(0, OUT_ADDR / 16, 1, 1, 1), POP_PREV));
	fx_push(&f, mk_finish(NO_DEPS));
	const char *const needles[] = {"deadlock: load insn 1 (",
				       "waits on g2l (0 tokens)",
				       "; compute insn 2 (",
				       "waits on l2g (0 tokens) and s2g (0 tokens)",
				       "; store insn 3 (",
				       "waits on g2s (0 tokens)",
				       NULL};
	fx_run_fails(&f, VTA_E_DEADLOCK, needles);
	/* the disassembly is there in full */
	assert_non_null(strstr(f.err.detail, "insn 2 (gemm"));
	assert_true(strlen(f.err.detail) < VTA_ERROR_DETAIL_MAX - 1);
	/* the uop load before the stuck GEMM did run */
	assert_int_equal(vta_ref_counters_get(f.ref)->insns[VTA_MODULE_COMPUTE], 1);
	fx_free(&f);

	/* only one module stuck: the others are idle */
	fx_init(&f);
	fx_start(&f);
	fx_push(&f, nop_store(PUSH_PREV));
	fx_push(&f, nop_compute(POP_NEXT));
	fx_push(&f, nop_compute(POP_NEXT));
	fx_push(&f, mk_finish(NO_DEPS));
	const char *const n2[] = {"deadlock: load idle; compute insn 2 (",
				  "waits on s2g (0 tokens); store idle", NULL};
	fx_run_fails(&f, VTA_E_DEADLOCK, n2);
	assert_null(strstr(f.err.detail, "fetch"));
	fx_free(&f);
}

static void test_illegal_flags(void **state)
{
	(void)state;
	struct {
		vta_insn insn;
		const char *flag;
	} cases[] = {
		{with_deps(mk_load(VTA_MEM_INP, 0, 0, 1, 1, 1), POP_PREV), "pop_prev"},
		{with_deps(mk_load(VTA_MEM_WGT, 0, 0, 1, 1, 1), PUSH_PREV), "push_prev"},
		{nop_load(POP_PREV), "pop_prev"},
		{with_deps(mk_store(0, 0, 1, 1, 1), PUSH_NEXT), "push_next"},
		{nop_store(POP_NEXT), "pop_next"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fx f;
		fx_init(&f);
		fx_start(&f);
		/* insn 0 would fail when executed; flags are checked for the whole stream first */
		fx_push(&f, mk_load(VTA_MEM_OUT, 0, 0, 1, 1, 1));
		fx_push(&f, cases[i].insn);
		fx_push(&f, mk_finish(NO_DEPS));
		const char *const needles[] = {"insn 1 (", cases[i].flag, NULL};
		fx_run_fails(&f, VTA_E_FLAGS, needles);
		assert_int_equal(vta_ref_counters_get(f.ref)->insns[VTA_MODULE_COMPUTE], 0);
		fx_free(&f);
	}
	/* compute may use all four flags */
	fx f;
	fx_init(&f);
	fx_start(&f);
	fx_push(&f, nop_load(PUSH_NEXT));
	fx_push(&f, nop_store(PUSH_PREV));
	fx_push(&f, nop_compute(deps(true, true, true, true)));
	fx_push(&f, nop_load(POP_NEXT));
	fx_push(&f, nop_store(deps(true, false, true, false)));
	fx_push(&f, mk_finish(POP_NEXT));
	fx_run_ok(&f);
	assert_int_equal(vta_ref_counters_get(f.ref)->insns[VTA_MODULE_STORE], 2);
	fx_free(&f);
}

static void test_no_finish(void **state)
{
	(void)state;
	fx f;
	fx_init(&f);
	fx_start(&f);
	const char *const n1[] = {"0 instructions executed without a FINISH", NULL};
	fx_run_fails(&f, VTA_E_NO_FINISH, n1);
	fx_free(&f);

	fx_init(&f);
	fx_start(&f);
	fx_push(&f, nop_load(PUSH_NEXT));
	fx_push(&f, nop_compute(POP_PREV));
	fx_push(&f, nop_store(NO_DEPS));
	const char *const n2[] = {"the stream's 3 instructions executed without a FINISH (load 1, "
				  "compute 1, store 1)",
				  NULL};
	fx_run_fails(&f, VTA_E_NO_FINISH, n2);
	fx_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_virtual_threads),
		cmocka_unit_test(test_nops_carry_tokens),
		cmocka_unit_test(test_finish_ends_run),
		cmocka_unit_test(test_token_capacity_blocks),
		cmocka_unit_test(test_blocked_push_releases_pops),
		cmocka_unit_test(test_token_capacity_throttles),
		cmocka_unit_test(test_fetch_stall),
		cmocka_unit_test(test_deadlock),
		cmocka_unit_test(test_illegal_flags),
		cmocka_unit_test(test_no_finish),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
