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

static vta_run_stats run_ok(simt *t, const char *text)
{
	vta_run_stats s;
	vta_error err = {0};
	vta_status st = simt_run_text(t, text, &s, &err, NULL);
	if (st != VTA_OK)
		fail_msg("run failed: %s", err.detail);
	return s;
}

/* The default config's fixed costs (configs/default.yaml): the launch 2, every instruction 4,
 * the read pipeline 4, a write's handshakes 4; FETCH dispatches a burst's instructions one per
 * cycle once all have arrived: with n instructions, instruction j at 2 + 64 + 2n + j. */

/* One LOAD of N contiguous bytes on an idle port: overhead + latency + N / bus_bytes + the
 * read pipeline. */
static void test_load_cycles(void **state)
{
	simt *t = *state;
	vta_run_stats s = run_ok(t, "load mem=inp sram=0 dram=0x100 y=1 x=16 stride=16 "
				   "deps=push_next\n"
				   "finish deps=pop_prev\n");
	const vta_module_stats *ld = &s.module[VTA_STATS_LOAD];
	assert_int_equal(ld->insns, 1);
	assert_int_equal(ld->busy_cycles, 4 + 64 + 256 / 8 + 4);
	assert_int_equal(ld->stall_mem_cycles, 0);
	assert_int_equal(ld->stall_dep_cycles, 0);
	/* load starts at 70, ends at 174; FINISH (at 71) waits for l2g, then overhead */
	assert_int_equal(s.cycles, 70 + 104 + 4);
	assert_int_equal(s.module[VTA_STATS_COMPUTE].stall_dep_cycles, 174 - 71);
	assert_int_equal(s.module[VTA_STATS_COMPUTE].busy_cycles, 4);
	assert_int_equal(s.module[VTA_STATS_FETCH].insns, 2);
	assert_int_equal(s.dram_read_bytes[VTA_MEM_INP], 256);
	assert_int_equal(s.dram_insn_bytes, 32);
	assert_int_equal(s.dram_busy_cycles, 4 + 32);
	assert_int_equal(s.sram[VTA_STATS_INP].writes, 16);
	assert_int_equal(s.sram[VTA_STATS_INP].reads, 0);
	assert_int_equal(s.sram[VTA_STATS_INP].peak_bytes, 0); /* never read: never live */
	assert_int_equal(s.sram[VTA_STATS_INP].capacity_bytes, 32 * 1024);
	assert_true(s.time_us > 1.77 && s.time_us < 1.79);
	assert_true(s.host_seconds > 0);
}

/* A GEMM of U uops: overhead + fill + U * gemm_ii. */
static void test_gemm_cycles(void **state)
{
	simt *t = *state;
	/* 4 uops x iter 2 x 3 = 24 reset uops on distinct rows */
	vta_run_stats s = run_ok(t, ".uops 0\n"
				   "uop dst=0 src=0 wgt=0\nuop dst=1 src=0 wgt=0\n"
				   "uop dst=2 src=0 wgt=0\nuop dst=3 src=0 wgt=0\n"
				   ".text\n"
				   "load mem=uop sram=0 dram=0 y=1 x=4 stride=4\n"
				   "gemm reset=1 uop=0,4 iter=2,3 dst=12,4 src=0,0 wgt=0,0\n"
				   "finish\n");
	/* LOAD UOP 72 -> 72+4+64+2+4 = 146; GEMM 146 -> 146+4+4+24 = 178; FINISH 182 */
	assert_int_equal(s.cycles, 182);
	assert_int_equal(s.module[VTA_STATS_COMPUTE].busy_cycles, (4 + 64 + 2 + 4) + (8 + 24) + 4);
	assert_int_equal(s.gemm_uops, 24);
	assert_int_equal(s.macs, 0); /* reset uops do no MACs */
	assert_int_equal(s.sram[VTA_STATS_ACC].writes, 24);
	assert_int_equal(s.sram[VTA_STATS_OUT].writes, 24);
	assert_int_equal(s.sram[VTA_STATS_UOP].reads, 24);
	assert_int_equal(s.dram_read_bytes[VTA_MEM_UOP], 16);
}


/* Run an assembled program with random data on both models; return the stats. */
static vta_run_stats run_random(simt *t, const char *text, uint64_t addr, uint32_t n,
			       uint32_t seed)
{
	vta_program prog;
	vta_dram dram;
	vta_run_stats s;
	vta_error err = {0};
	simt_asm_random(t, text, addr, n, seed, &prog);
	simt_dram(&prog, &dram);
	if (simt_run_both(t, &prog, &dram, &s, &err, NULL) != VTA_OK)
		fail_msg("run failed: %s", err.detail);
	vta_dram_free(&dram);
	vta_program_free(&prog);
	return s;
}

/* ALU tensor-tensor: overhead + fill + U * alu_ii; immediate: U * alu_imm_ii. */
static void test_alu_cycles(void **state)
{
	vta_run_stats s = run_random(*state,
				    ".uops 0\nuop dst=0 src=4 wgt=0\nuop dst=1 src=5 wgt=0\n"
				    "uop dst=2 src=6 wgt=0\nuop dst=3 src=7 wgt=0\n.text\n"
				    "load mem=uop sram=0 dram=0 y=1 x=4 stride=4\n"
				    "load mem=acc sram=0 dram=0x40 y=1 x=8 stride=8\n"
				    "alu op=add uop=0,4 iter=1,1 dst=0,0 src=0,0 use_imm=0\n"
				    "alu op=shr uop=0,4 iter=1,2 dst=0,4 src=0,0 use_imm=1 imm=1\n"
				    "alu op=max uop=0,4 iter=1,1 dst=0,0 src=0,0 use_imm=1 imm=-5\n"
				    "finish\n",
				    0x1000, 512, 7);
	/* uop load 78 -> 152; acc load (512 B) -> 288; alu 16, 16, 12; finish 4 */
	assert_int_equal(s.cycles, 336);
	assert_int_equal(s.module[VTA_STATS_COMPUTE].busy_cycles, 336 - 78);
	assert_int_equal(s.module[VTA_STATS_COMPUTE].insns, 6);
	assert_int_equal(s.alu_uops, 16);
	assert_int_equal(s.gemm_uops, 0);
	assert_int_equal(s.sram[VTA_STATS_ACC].reads, 8 + 8 + 4);
	assert_int_equal(s.sram[VTA_STATS_ACC].writes, 8 + 16);
	assert_int_equal(s.sram[VTA_STATS_OUT].writes, 16);
	assert_int_equal(s.dram_read_bytes[VTA_MEM_ACC], 512);
}

/* STORE of E elements in one burst: overhead + 2 beats per element and a read between two
 * elements + latency + the handshakes. */
static void test_store_cycles(void **state)
{
	vta_run_stats s = run_ok(*state, "store mem=out sram=0 dram=0 y=1 x=4 stride=4 "
					"deps=push_prev\nfinish deps=pop_next\n");
	assert_int_equal(s.module[VTA_STATS_STORE].busy_cycles, 4 + (8 + 3) + 64 + 4);
	assert_int_equal(s.cycles, 70 + 83 + 4);
	assert_int_equal(s.dram_write_bytes, 64);
	assert_int_equal(s.sram[VTA_STATS_OUT].reads, 4);
}

/* NOPs cost insn_overhead and only pass tokens: load -> compute -> store -> compute. */
static void test_nop_ring(void **state)
{
	vta_run_stats s = run_ok(*state,
				"load mem=inp sram=0 dram=0 y=0 x=0 stride=0 deps=push_next\n"
				"load mem=uop sram=0 dram=0 y=0 x=0 stride=0 deps=pop_prev,push_next\n"
				"store mem=out sram=0 dram=0 y=0 x=0 stride=0 deps=pop_prev,push_prev\n"
				"finish deps=pop_next\n");
	/* dispatched 74, 75, 76, 77: load 74-78, compute 78-82, store 82-86, finish 86-90 */
	assert_int_equal(s.cycles, 90);
	assert_int_equal(s.module[VTA_STATS_LOAD].busy_cycles, 4);
	assert_int_equal(s.module[VTA_STATS_COMPUTE].busy_cycles, 8);
	assert_int_equal(s.module[VTA_STATS_STORE].busy_cycles, 4);
	assert_int_equal(s.module[VTA_STATS_STORE].stall_dep_cycles, 82 - 76);
	assert_int_equal(s.module[VTA_STATS_COMPUTE].stall_dep_cycles, (78 - 75) + (86 - 82));
	assert_int_equal(s.dram_read_bytes[VTA_MEM_INP] + s.dram_read_bytes[VTA_MEM_UOP], 0);
	assert_int_equal(s.dram_write_bytes, 0);
}

/* LOAD INP and LOAD ACC contend for the read channel: the later request's data waits for
 * the earlier one's (stall_mem: its time beyond its time on an idle port). */
static void test_port_contention(void **state)
{
	vta_run_stats s = run_ok(*state,
				"load mem=inp sram=0 dram=0 y=1 x=64 stride=64 deps=push_next\n"
				"load mem=acc sram=0 dram=0x100 y=1 x=16 stride=16\n"
				"finish deps=pop_prev\n");
	/* inp asks at 76: data [140, 268), done 272; acc asks at 77: data [268, 396), done 400 */
	assert_int_equal(s.module[VTA_STATS_LOAD].stall_mem_cycles, 0);
	assert_int_equal(s.module[VTA_STATS_COMPUTE].stall_mem_cycles, (400 - 77) - (64 + 128 + 4));
	assert_int_equal(s.module[VTA_STATS_COMPUTE].busy_cycles, 4 + 64 + 128 + 4 + 4);
	assert_int_equal(s.cycles, 400 + 4);
	assert_int_equal(s.dram_busy_cycles, 6 + 128 + 128);
}

/* A transfer longer than max_burst_bytes asks for its bursts one after another, without
 * waiting for data: a request of another client in the same cycle goes after the LOAD's
 * (VTA's priority: fetch, UOP, INP/WGT, ACC) and its data after all the LOAD's. */
static void test_burst_interleave(void **state)
{
	vta_run_stats s = run_ok(*state,
				"load mem=inp sram=0 dram=0 y=1 x=256 stride=256 deps=push_next\n"
				"load mem=acc sram=0 dram=0x100 y=1 x=16 stride=16\n"
				"finish deps=pop_prev\n");
	/* inp bursts asked at 76 and 77: data [140, 396), [396, 652), done 656; acc asked at 77
	 * too, requested at 78: data [652, 780), done 784 */
	assert_int_equal(s.module[VTA_STATS_LOAD].stall_mem_cycles, 0);
	assert_int_equal(s.module[VTA_STATS_LOAD].busy_cycles, 4 + 64 + 512 + 4);
	assert_int_equal(s.module[VTA_STATS_COMPUTE].stall_mem_cycles, (784 - 77) - (64 + 128 + 4));
	assert_int_equal(s.cycles, 788);
}

/* Rows are separate bursts, requested back to back: the latency is paid once. */
static void test_strided_load(void **state)
{
	vta_run_stats s = run_ok(*state,
				"load mem=inp sram=0 dram=0 y=4 x=2 stride=8 deps=push_next\n"
				"finish deps=pop_prev\n");
	/* 4 bursts of 32 B = 4 beats each */
	assert_int_equal(s.module[VTA_STATS_LOAD].busy_cycles, 4 + 64 + 16 + 4);
	assert_int_equal(s.cycles, 70 + 88 + 4);
	assert_int_equal(s.dram_read_bytes[VTA_MEM_INP], 128);
}

/* Padded INP and ACC loads and the int8-widening ACC_8BIT load, against the reference. */
static void test_padded_loads(void **state)
{
	vta_run_stats s = run_random(
		*state,
		"load mem=inp sram=3 dram=0x100 y=3 x=4 stride=7 ypad=1,2 xpad=2,1 deps=push_next\n"
		"load mem=acc sram=10 dram=0x80 y=2 x=3 stride=5 ypad=1,1 xpad=1,1\n"
		"load mem=acc8 sram=100 dram=0x300 y=2 x=2 stride=3 ypad=0,1 xpad=1,0\n"
		"finish deps=pop_prev\n",
		0x1000, 0x3000, 11);
	assert_int_equal(s.sram[VTA_STATS_INP].writes, 6 * 7);
	assert_int_equal(s.sram[VTA_STATS_ACC].writes, 4 * 5 + 3 * 3);
	assert_int_equal(s.dram_read_bytes[VTA_MEM_INP], 3 * 4 * 16);
	assert_int_equal(s.dram_read_bytes[VTA_MEM_ACC], 2 * 3 * 64);
	assert_int_equal(s.dram_read_bytes[VTA_MEM_ACC_8BIT], 2 * 2 * 16);
	/* padding moves no DRAM bytes: the inp load is 3 bursts of 64 B; its SRAM's 24 data
	 * beats and 30 padded elements fit in the latency */
	assert_int_equal(s.module[VTA_STATS_LOAD].busy_cycles, 4 + 64 + 3 * 8 + 4);
}

/* LOAD, GEMM (reset then accumulate), ALU requantization, STORE with tokens. */
static const char gemm_pipeline[] =
	".uops 0\n"
	"uop dst=0 src=0 wgt=0\nuop dst=1 src=0 wgt=2\nuop dst=2 src=2 wgt=0\n"
	"uop dst=3 src=2 wgt=2\nuop dst=4 src=4 wgt=0\nuop dst=5 src=4 wgt=2\n"
	"uop dst=6 src=6 wgt=0\nuop dst=7 src=6 wgt=2\n.text\n"
	"load mem=uop sram=0 dram=0 y=1 x=8 stride=8\n"
	"load mem=wgt sram=0 dram=0x10 y=1 x=4 stride=4\n"
	"load mem=inp sram=0 dram=0x200 y=1 x=8 stride=8 deps=push_next\n"
	"gemm reset=1 uop=0,8 iter=1,1 dst=0,0 src=0,0 wgt=0,0\n"
	"gemm reset=0 uop=0,8 iter=2,1 dst=0,0 src=1,0 wgt=1,0 deps=pop_prev\n"
	"alu op=shr uop=0,8 iter=1,1 dst=0,0 src=0,0 use_imm=1 imm=6\n"
	"alu op=max uop=0,8 iter=1,1 dst=0,0 src=0,0 use_imm=1 imm=-128\n"
	"alu op=min uop=0,8 iter=1,1 dst=0,0 src=0,0 use_imm=1 imm=127 deps=push_next\n"
	"store mem=out sram=0 dram=0x400 y=2 x=4 stride=6 deps=pop_prev,push_prev\n"
	"finish deps=pop_next\n";

static void test_gemm_pipeline(void **state)
{
	vta_run_stats s = run_random(*state, gemm_pipeline, 0x1000, 0x3000, 3);
	assert_int_equal(s.gemm_uops, 8 + 16);
	assert_int_equal(s.macs, 16 * 256);
	assert_int_equal(s.alu_uops, 24);
	assert_true(s.gemm_utilization > 0 && s.gemm_utilization <= 16.0 / (double)s.cycles + 1e-12);
	assert_int_equal(s.dram_write_bytes, 8 * 16);
	assert_int_equal(s.module[VTA_STATS_STORE].insns, 1);
	assert_int_equal(s.module[VTA_STATS_LOAD].insns, 2);
	assert_int_equal(s.module[VTA_STATS_COMPUTE].insns, 7);
	assert_int_equal(s.module[VTA_STATS_FETCH].insns, 10);
	assert_int_equal(s.sram[VTA_STATS_INP].reads, 16);
	assert_int_equal(s.sram[VTA_STATS_WGT].reads, 16);
	assert_int_equal(s.sram[VTA_STATS_UOP].reads, 8 + 16 + 24);
}

/* A run after another: ACC row 0 from INP row 0 and WGT row 0, neither row loaded but INP's,
 * every other row left as the reset made it. */
static const char row0_after[] = ".uops 0x1000\nuop dst=0 src=0 wgt=0\n.text\n"
				 "load mem=uop sram=0 dram=0x400 y=1 x=1 stride=1\n"
				 "load mem=inp sram=0 dram=0x200 y=1 x=1 stride=1 deps=push_next\n"
				 "gemm reset=1 uop=0,1 iter=1,1 dst=0,0 src=0,0 wgt=0,0\n"
				 "gemm uop=0,1 iter=1,1 dst=0,0 src=0,0 wgt=0,0 deps=pop_prev\n"
				 "finish\n";

/*
 * A WGT row written again between two GEMMs that read it: by a LOAD, by the LUT decoder, by
 * a LOAD of several rows, and by the reset of a new run. The GEMM kernel may keep WGT
 * rows in its own layout (datapath.h); every GEMM must see the row as last written, so ACC
 * rows 0-4 and the run after must equal the reference executor's.
 */
static void test_wgt_rewritten(void **state)
{
	simt *t = *state;
	static const char first[] =
		".uops 0x1000\n"
		"uop dst=0 src=0 wgt=0\nuop dst=1 src=0 wgt=0\nuop dst=2 src=0 wgt=0\n"
		"uop dst=3 src=0 wgt=0\nuop dst=4 src=0 wgt=1\n"
		".text\n"
		"load mem=uop sram=0 dram=0x400 y=1 x=5 stride=5\n"
		"load mem=inp sram=0 dram=0x200 y=1 x=1 stride=1\n"
		"load mem=lut sram=0 dram=0x5000 slot=0 y=16 x=4 stride=4\n"
		"load mem=wgt sram=0 dram=0x30 y=1 x=1 stride=1 deps=push_next\n"
		"gemm reset=1 uop=0,5 iter=1,1 dst=0,0 src=0,0 wgt=0,0\n"
		"gemm uop=0,1 iter=1,1 dst=0,0 src=0,0 wgt=0,0 deps=pop_prev,push_prev\n"
		/* a LOAD over row 0 */
		"load mem=wgt sram=0 dram=0x31 y=1 x=1 stride=1 deps=pop_next,push_next\n"
		"gemm uop=1,2 iter=1,1 dst=0,0 src=0,0 wgt=0,0 deps=pop_prev,push_prev\n"
		/* the LUT decoder over row 0 */
		"load mem=wgt sram=0 dram=0xd0 bw=2 slot=0 y=1 x=1 stride=1 chan=0 "
		"deps=pop_next,push_next\n"
		"gemm uop=2,3 iter=1,1 dst=0,0 src=0,0 wgt=0,0 deps=pop_prev,push_prev\n"
		/* a LOAD of two rows over row 0 */
		"load mem=wgt sram=0 dram=0x32 y=1 x=2 stride=2 deps=pop_next,push_next\n"
		"gemm uop=3,5 iter=1,1 dst=0,0 src=0,0 wgt=0,0 deps=pop_prev\n"
		"finish\n";
	/* the next run reads WGT row 0 without loading it: the reset's zeros */
	for (uint32_t seed = 1; seed <= 4; seed++) {
		vta_run_stats s = run_random(t, first, 0x2000, 0x4000, seed);
		assert_int_equal(s.gemm_uops, 5 + 5);
		uint64_t size;
		const int32_t *acc = (const int32_t *)vtasim_sim_sram(t->sim, VTA_MEM_ACC, &size);
		for (int r = 0; r < 4; r++) /* random rows differ: a stale row would repeat */
			assert_memory_not_equal(acc + 16 * r, acc + 16 * (r + 1), 64);
		run_random(t, row0_after, 0x2000, 0x4000, seed + 100);
		acc = (const int32_t *)vtasim_sim_sram(t->sim, VTA_MEM_ACC, &size);
		for (int l = 0; l < 16; l++)
			assert_int_equal(acc[l], 0);
	}
}

/*
 * ACC and OUT rows a run's nests wrote in place (GEMM with and without reset, ALU, across
 * both loop levels) are zero again in the next run, which writes only row 0: every SRAM is
 * compared with the reference executor's after each run.
 */
static void test_acc_out_reset(void **state)
{
	static const char first[] =
		".uops 0x1000\n"
		"uop dst=0 src=0 wgt=0\nuop dst=1 src=1 wgt=1\n"
		"uop dst=30 src=2 wgt=0\nuop dst=31 src=3 wgt=0\n"
		".text\n"
		"load mem=uop sram=0 dram=0x400 y=1 x=4 stride=4\n"
		"load mem=inp sram=0 dram=0x200 y=1 x=8 stride=8\n"
		"load mem=wgt sram=0 dram=0x30 y=1 x=2 stride=2 deps=push_next\n"
		"gemm reset=1 uop=0,2 iter=3,2 dst=8,2 src=0,0 wgt=0,0\n"
		"gemm uop=0,2 iter=3,2 dst=8,2 src=1,2 wgt=0,0 deps=pop_prev\n"
		"alu op=add uop=2,4 iter=2,1 dst=4,0 src=0,0 use_imm=1 imm=7\n"
		"gemm uop=2,4 iter=1,2 dst=0,2 src=0,1 wgt=0,0\n"
		"finish\n";
	for (uint32_t seed = 1; seed <= 3; seed++) {
		run_random(*state, first, 0x2000, 0x4000, seed);
		run_random(*state, row0_after, 0x2000, 0x4000, seed + 50);
	}
}

/* The same program twice on one elaboration gives the same statistics. */
static void test_repeatable(void **state)
{
	vta_run_stats a = run_random(*state, gemm_pipeline, 0x1000, 0x3000, 3);
	vta_run_stats b = run_random(*state, gemm_pipeline, 0x1000, 0x3000, 3);
	a.host_seconds = b.host_seconds = 0;
	assert_memory_equal(&a, &b, sizeof(a));
}

/* Peak live bytes (docs/architecture.md): values from write to last read. */
static void test_live_bytes(void **state)
{
	vta_run_stats s = run_random(
		*state,
		".uops 0\nuop dst=0 src=0 wgt=0\nuop dst=1 src=1 wgt=0\nuop dst=2 src=2 wgt=0\n"
		"uop dst=3 src=3 wgt=0\nuop dst=4 src=0 wgt=0\n.text\n"
		"load mem=uop sram=0 dram=0 y=1 x=5 stride=5\n"
		"load mem=wgt sram=0 dram=0x10 y=1 x=1 stride=1\n"
		"load mem=inp sram=0 dram=0x200 y=1 x=2 stride=2 deps=push_next\n"
		"gemm uop=0,2 iter=1,1 dst=0,0 src=0,0 wgt=0,0 deps=pop_prev,push_prev\n"
		"load mem=inp sram=2 dram=0x202 y=1 x=2 stride=2 deps=pop_next,push_next\n"
		"gemm uop=2,5 iter=1,1 dst=0,0 src=0,0 wgt=0,0 deps=pop_prev,push_next\n"
		"store mem=out sram=0 dram=0x400 y=1 x=5 stride=5 deps=pop_prev,push_prev\n"
		"finish deps=pop_next\n",
		0x1000, 0x3000, 5);
	/* inp: rows 0,1 live until gemm 1, row 0 also until gemm 2, rows 2,3 loaded after
	 * gemm 1: at most rows 0, 2, 3 at once */
	assert_int_equal(s.sram[VTA_STATS_INP].peak_bytes, 3 * 16);
	assert_int_equal(s.sram[VTA_STATS_WGT].peak_bytes, 256);
	assert_int_equal(s.sram[VTA_STATS_UOP].peak_bytes, 5 * 4);
	assert_int_equal(s.sram[VTA_STATS_ACC].peak_bytes, 0); /* never read back */
	assert_int_equal(s.sram[VTA_STATS_OUT].peak_bytes, 5 * 16);
	assert_int_equal(s.sram[VTA_STATS_INP].reads, 5);
	assert_int_equal(s.sram[VTA_STATS_INP].writes, 4);
	assert_int_equal(s.sram[VTA_STATS_OUT].reads, 5);
	assert_int_equal(s.sram[VTA_STATS_OUT].writes, 5);
}

/* Double buffering with two virtual threads: loads overlap GEMMs. The same work with one
 * buffer (every load waits for the previous GEMM) must take longer. */
static void build_threads(char *text, size_t cap, int buffers)
{
	size_t n = (size_t)snprintf(text, cap,
				    ".uops 0\nuop dst=0 src=0 wgt=0\nuop dst=1 src=1 wgt=0\n"
				    "uop dst=2 src=2 wgt=0\nuop dst=3 src=3 wgt=0\n"
				    "uop dst=4 src=4 wgt=0\nuop dst=5 src=5 wgt=0\n.text\n"
				    "load mem=uop sram=0 dram=0 y=1 x=6 stride=6\n"
				    "load mem=wgt sram=0 dram=0x10 y=1 x=1 stride=1\n");
	const int k_total = 6;
	for (int k = 0; k < k_total; k++) {
		int b = k % buffers;
		const char *pop = k >= buffers ? "pop_next," : "";
		const char *push = k + buffers < k_total ? ",push_prev" : "";
		const char *last = k == k_total - 1 ? ",push_next" : "";
		n += (size_t)snprintf(text + n, cap - n,
				      "load mem=inp sram=%d dram=%d y=1 x=3 stride=3 deps=%spush_next\n"
				      "gemm uop=%d,%d iter=20,1 dst=0,0 src=0,0 wgt=0,0 "
				      "deps=pop_prev%s%s\n",
				      3 * b, 0x200 + 3 * k, pop, 3 * b, 3 * b + 3, push, last);
	}
	snprintf(text + n, cap - n,
		 "store mem=out sram=0 dram=0x400 y=1 x=6 stride=6 deps=pop_prev,push_prev\n"
		 "finish deps=pop_next\n");
}

static void test_two_threads(void **state)
{
	char text[4096];
	build_threads(text, sizeof(text), 2);
	vta_run_stats two = run_random(*state, text, 0x1000, 0x3000, 9);
	build_threads(text, sizeof(text), 1);
	vta_run_stats one = run_random(*state, text, 0x1000, 0x3000, 9);
	assert_int_equal(two.macs, one.macs);
	assert_int_equal(two.gemm_uops, 6 * 60);
	/* one buffer: each load waits for the GEMM before it; 68 cycles per GEMM */
	if (two.cycles + 4 * 60 > one.cycles)
		fail_msg("no overlap: two threads %llu cycles, one %llu",
			 (unsigned long long)two.cycles, (unsigned long long)one.cycles);
	assert_true(two.cycles < two.module[VTA_STATS_LOAD].busy_cycles +
					 two.module[VTA_STATS_COMPUTE].busy_cycles);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_cycles),
		cmocka_unit_test(test_gemm_cycles),
		cmocka_unit_test(test_alu_cycles),
		cmocka_unit_test(test_store_cycles),
		cmocka_unit_test(test_nop_ring),
		cmocka_unit_test(test_port_contention),
		cmocka_unit_test(test_burst_interleave),
		cmocka_unit_test(test_strided_load),
		cmocka_unit_test(test_padded_loads),
		cmocka_unit_test(test_gemm_pipeline),
		cmocka_unit_test(test_wgt_rewritten),
		cmocka_unit_test(test_acc_out_reset),
		cmocka_unit_test(test_repeatable),
		cmocka_unit_test(test_live_bytes),
		cmocka_unit_test(test_two_threads),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
