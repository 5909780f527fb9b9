/*
 * test_sim_budget.c - diagnostics that need a config of their own (one per process): a
 * small cycle budget, tiny instruction and token queues, no ALU MUL, and micro-ops with
 * an unused top bit (ACC of 1024 rows: 10 + 11 + 10 bits).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_testutil.h"

#define BUDGET 20000

static int setup(void **state)
{
	static simt t;
	vta_config cfg;
	vta_config_default(&cfg);
	snprintf(cfg.name, sizeof(cfg.name), "%s", "budget");
	cfg.cycle_budget = BUDGET;
	cfg.insn_depth = 4;
	cfg.dep_depth = 2;
	cfg.alu_mul = false;
	cfg.sram[VTA_MEM_ACC].kib = 64;
	vta_error err = {0};
	if (vta_config_derive(&cfg, &err) != VTA_OK)
		fail_msg("%s", err.detail);
	simt_init(&t, &cfg);
	*state = &t;
	return 0;
}

static int teardown(void **state)
{
	simt_fini(*state);
	return 0;
}

static const char nop_ring[] = "load mem=inp sram=0 dram=0 y=0 x=0 stride=0 deps=push_next\n"
			       "load mem=uop sram=0 dram=0 y=0 x=0 stride=0 "
			       "deps=pop_prev,push_next\n"
			       "store mem=out sram=0 dram=0 y=0 x=0 stride=0 deps=pop_prev,push_prev\n"
			       "finish deps=pop_next\n";

static void expect_clean_run(simt *t)
{
	vta_run_stats s;
	vta_error err = {0};
	if (simt_run_text(t, nop_ring, &s, &err, NULL) != VTA_OK)
		fail_msg("run after a failed run: %s", err.detail);
	/* the launch, the four instructions' burst, then each NOP's overhead in turn */
	assert_int_equal(s.cycles, t->cfg.launch_cycles + t->cfg.dram_latency_cycles + 4 * 16 / 8 +
					   4 * t->cfg.insn_overhead_cycles);
}

/* Run on the model only (the reference has no time); expect st and the needles. */
static vta_run_stats sim_only(simt *t, const char *text, vta_status st, ...)
{
	vta_program prog;
	vta_dram dram;
	vta_run_stats s;
	vta_error err = {0};
	simt_asm(t, text, &prog);
	simt_dram(&prog, &dram);
	vta_status got = vtasim_sim_run(t->sim, &prog, &dram, &s, &err);
	if (got != st)
		fail_msg("status %d, expected %d: %s", got, st, err.detail);
	va_list ap;
	va_start(ap, st);
	for (const char *n = va_arg(ap, const char *); n; n = va_arg(ap, const char *))
		if (!strstr(err.detail, n))
			fail_msg("detail '%s' lacks '%s'", err.detail, n);
	va_end(ap);
	assert_true(strlen(err.detail) < VTA_ERROR_DETAIL_MAX - 1);
	vta_dram_free(&dram);
	vta_program_free(&prog);
	return s;
}

/* 3 x 10000 reset uops need 30000 cycles: the budget runs out inside the GEMM. The
 * reference agrees (its lower bound of the cycles needed exceeds the budget too). */
static void test_budget_gemm(void **state)
{
	simt *t = *state;
	const char *text = ".uops 0\nuop dst=0 src=0 wgt=0\nuop dst=1 src=0 wgt=0\n"
			   "uop dst=2 src=0 wgt=0\n.text\n"
			   "load mem=uop sram=0 dram=0 y=1 x=3 stride=3\n"
			   "gemm reset=1 uop=0,3 iter=10000,1 dst=0,0 src=0,0 wgt=0,0\n"
			   "finish\n";
	vta_error err = {0};
	assert_int_equal(simt_run_text(t, text, NULL, &err, NULL), VTA_E_NO_FINISH);
	vta_run_stats s = sim_only(t, text, VTA_E_NO_FINISH, "cycle budget of 20000 cycles",
				  "load idle", "compute insn 1 (gemm   reset=1", "executing",
				  "store idle", "fetch dispatched 3 of 3", NULL);
	assert_int_equal(s.cycles, BUDGET);
	assert_int_equal(s.gemm_uops, 0); /* the GEMM never completed */
	expect_clean_run(t);
}

/* A stream slowed down by DMA alone: only the timed model runs out of cycles. */
static void test_budget_dma(void **state)
{
	simt *t = *state;
	char text[2048] = "";
	for (int i = 0; i < 6; i++) /* 6 x 32 KiB: 6 x 4096 beats */
		strcat(text, "load mem=inp sram=0 dram=0 y=1 x=2048 stride=2048\n");
	strcat(text, "load mem=inp sram=0 dram=0 y=0 x=0 stride=0 deps=push_next\n"
		     "finish deps=pop_prev\n");
	vta_run_stats s = sim_only(t, text, VTA_E_NO_FINISH, "cycle budget of 20000 cycles",
				  "load insn 4 (load", "on the DRAM port",
				  "compute insn 7 (finish", "waits on l2g (0 tokens)", NULL);
	assert_int_equal(s.cycles, BUDGET);
	assert_int_equal(s.module[VTA_STATS_LOAD].insns, 4);
	expect_clean_run(t);
}

/* Deadlock diagnostics with small queues, equal to the reference's. */
static void expect_deadlock(simt *t, const char *text, const char *needle)
{
	vta_error err = {0}, ref_err = {0};
	assert_int_equal(simt_run_text(t, text, NULL, &err, &ref_err), VTA_E_DEADLOCK);
	assert_string_equal(err.detail, ref_err.detail);
	simt_expect_detail(err.detail, needle, NULL);
	expect_clean_run(t);
}

static void test_small_queues(void **state)
{
	simt *t = *state;
	/* compute blocks; its queue (4) fills; FETCH stalls before the unblocking load */
	expect_deadlock(t,
			"gemm reset=1 uop=0,1 iter=1,1 dst=0,0 src=0,0 wgt=0,0 deps=pop_prev\n"
			"load mem=uop sram=0 dram=0 y=0 x=0 stride=0\n"
			"load mem=uop sram=0 dram=0 y=0 x=0 stride=0\n"
			"load mem=uop sram=0 dram=0 y=0 x=0 stride=0\n"
			"load mem=uop sram=0 dram=0 y=0 x=0 stride=0\n"
			"load mem=inp sram=0 dram=0 y=0 x=0 stride=0 deps=push_next\n"
			"finish\n",
			"fetch stalled at insn 4: compute queue full (4 insns)");
	/* three tokens into a queue of two */
	expect_deadlock(t,
			"load mem=inp sram=0 dram=0 y=0 x=0 stride=0 deps=push_next\n"
			"load mem=inp sram=0 dram=0 y=0 x=0 stride=0 deps=push_next\n"
			"load mem=inp sram=0 dram=0 y=0 x=0 stride=0 deps=push_next\n"
			"finish deps=pop_next\n",
			"load insn 2 (load   mem=inp sram=0 dram=0x0 y=0 x=0 stride=0 ypad=0,0 "
			"xpad=0,0 deps=push_next) executed, waits for room in l2g (full, 2 tokens)");
}

static void test_unsupported_mul(void **state)
{
	simt *t = *state;
	vta_error err = {0}, ref_err = {0};
	assert_int_equal(simt_run_text(t,
				       ".uops 0\nuop dst=0 src=0 wgt=0\n.text\n"
				       "load mem=uop sram=0 dram=0 y=1 x=1 stride=1\n"
				       "alu op=mul uop=0,1 iter=1,1 dst=0,0 src=0,0 use_imm=1 imm=3\n"
				       "finish\n",
				       NULL, &err, &ref_err),
			 VTA_E_UNSUPPORTED);
	assert_string_equal(err.detail, ref_err.detail);
	simt_expect_detail(err.detail, "insn 1 (alu    op=mul", "alu.mul", NULL);
	expect_clean_run(t);
}

static void test_malformed_uop(void **state)
{
	simt *t = *state;
	vta_error err = {0}, ref_err = {0};
	assert_int_equal(simt_run_text(t,
				       ".data 0\n.word 0, 0x80000000\n.text\n"
				       "load mem=uop sram=0 dram=0 y=1 x=2 stride=2\n"
				       "gemm uop=0,2 iter=1,1 dst=0,0 src=0,0 wgt=0,0\nfinish\n",
				       NULL, &err, &ref_err),
			 VTA_E_STREAM);
	assert_string_equal(err.detail, ref_err.detail);
	simt_expect_detail(err.detail, "insn 1 (gemm", "uop 1: unused bits 31..31", NULL);
	expect_clean_run(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_budget_gemm),
		cmocka_unit_test(test_budget_dma),
		cmocka_unit_test(test_small_queues),
		cmocka_unit_test(test_unsupported_mul),
		cmocka_unit_test(test_malformed_uop),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
