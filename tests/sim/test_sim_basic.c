/*
 * test_sim_basic.c - the SystemC model on hand-written programs, default config: results
 * equal to the reference executor (every SRAM and the DRAM), cycles and statistics equal
 * to hand-computed figures, many runs on one elaboration.
 *
 * Default config timing: bus 8 B/cycle, latency 64, overhead 4, fill 4, gemm_ii 1,
 * alu_ii 2, alu_imm_ii 1. FETCH reads the whole (short) stream in one burst that starts
 * at cycle 0, so instruction j is dispatched at 64 + ceil(16 (j+1) / 8) = 66 + 2j.
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

static int setup(void **state)
{
	static simt t; /* cmocka state; one model per process */
	vta_config cfg;
	vta_config_default(&cfg);
	simt_init(&t, &cfg);
	*state = &t;
	return 0;
}

static int teardown(void **state)
{
	simt_fini(*state);
	return 0;
}

static vtasim_stats run_ok(simt *t, const char *text)
{
	vtasim_stats s;
	vta_error err = {0};
	vta_status st = simt_run_text(t, text, &s, &err, NULL);
	if (st != VTA_OK)
		fail_msg("run failed: %s", err.detail);
	return s;
}

/* One LOAD of N contiguous bytes on an idle port: overhead + latency + N / bus_bytes. */
static void test_load_cycles(void **state)
{
	simt *t = *state;
	vtasim_stats s = run_ok(t, "load mem=inp sram=0 dram=0x100 y=1 x=16 stride=16 "
				   "deps=push_next\n"
				   "finish deps=pop_prev\n");
	const vtasim_module_stats *ld = &s.module[VTASIM_MODULE_LOAD];
	assert_int_equal(ld->insns, 1);
	assert_int_equal(ld->busy_cycles, 4 + 64 + 256 / 8);
	assert_int_equal(ld->stall_mem_cycles, 0);
	assert_int_equal(ld->stall_dep_cycles, 0);
	/* load starts at 66, ends at 166; FINISH (at 68) waits for l2g, then overhead */
	assert_int_equal(s.cycles, 66 + 100 + 4);
	assert_int_equal(s.module[VTASIM_MODULE_COMPUTE].stall_dep_cycles, 166 - 68);
	assert_int_equal(s.module[VTASIM_MODULE_COMPUTE].busy_cycles, 4);
	assert_int_equal(s.module[VTASIM_MODULE_FETCH].insns, 2);
	assert_int_equal(s.dram_read_bytes[VTA_MEM_INP], 256);
	assert_int_equal(s.dram_insn_bytes, 32);
	assert_int_equal(s.dram_busy_cycles, 4 + 32);
	assert_int_equal(s.sram[VTASIM_SRAM_INP].writes, 16);
	assert_int_equal(s.sram[VTASIM_SRAM_INP].reads, 0);
	assert_int_equal(s.sram[VTASIM_SRAM_INP].peak_bytes, 0); /* never read: never live */
	assert_int_equal(s.sram[VTASIM_SRAM_INP].capacity_bytes, 32 * 1024);
	assert_true(s.time_us > 1.69 && s.time_us < 1.71);
	assert_true(s.host_seconds > 0);
}

/* A GEMM of U uops: overhead + fill + U * gemm_ii. */
static void test_gemm_cycles(void **state)
{
	simt *t = *state;
	/* 4 uops x iter 2 x 3 = 24 reset uops on distinct rows */
	vtasim_stats s = run_ok(t, ".uops 0\n"
				   "uop dst=0 src=0 wgt=0\nuop dst=1 src=0 wgt=0\n"
				   "uop dst=2 src=0 wgt=0\nuop dst=3 src=0 wgt=0\n"
				   ".text\n"
				   "load mem=uop sram=0 dram=0 y=1 x=4 stride=4\n"
				   "gemm reset=1 uop=0,4 iter=2,3 dst=12,4 src=0,0 wgt=0,0\n"
				   "finish\n");
	/* LOAD UOP 66 -> 66+4+2+64 = 136; GEMM 136 -> 136+4+4+24 = 168; FINISH 172 */
	assert_int_equal(s.cycles, 172);
	assert_int_equal(s.module[VTASIM_MODULE_COMPUTE].busy_cycles, (4 + 64 + 2) + (8 + 24) + 4);
	assert_int_equal(s.gemm_uops, 24);
	assert_int_equal(s.macs, 0); /* reset uops do no MACs */
	assert_int_equal(s.sram[VTASIM_SRAM_ACC].writes, 24);
	assert_int_equal(s.sram[VTASIM_SRAM_OUT].writes, 24);
	assert_int_equal(s.sram[VTASIM_SRAM_UOP].reads, 24);
	assert_int_equal(s.dram_read_bytes[VTA_MEM_UOP], 16);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_cycles),
		cmocka_unit_test(test_gemm_cycles),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
