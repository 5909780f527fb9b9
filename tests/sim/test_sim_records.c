/*
 * test_sim_records.c - the per-instruction records of the SystemC model (vtasim_api.h):
 * stages and waits of hand-written programs against hand-computed cycles, the records of
 * failed runs (deadlock, out-of-bounds), the API's edges, and on random programs (and
 * blocking mutations of them) that recording changes no statistic and no DRAM byte, that
 * every record is ordered and consistent, and that the records add up to the module
 * statistics. Built twice: default config, and (RECORDS_SMALL_CONFIG) tiny queues that
 * make FETCH and the token pushes wait for room.
 *
 * Default config timing: bus 8 B/cycle, latency 64, overhead 4, fill 4, gemm_ii 1. FETCH
 * reads a short stream in one burst from cycle 0: instruction j arrives at 66 + 2j.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_randprog.h"
#include "sim_testutil.h"

#define NONE VTASIM_CYCLE_NONE
#define PROGRAMS 100

static void make_config(vta_config *cfg)
{
	vta_config_default(cfg);
	/* the cycles written below: no launch cost, no read pipeline, FETCH dispatching each
	 * instruction as it arrives */
	cfg->launch_cycles = 0;
	cfg->dram_read_pipeline_cycles = 0;
	cfg->fetch_dispatch = VTA_FETCH_STREAM;
#ifdef RECORDS_SMALL_CONFIG
	snprintf(cfg->name, sizeof(cfg->name), "%s", "records-small");
	cfg->insn_depth = 2;
	cfg->dep_depth = 1;
	cfg->dram_max_burst_bytes = 64;
#endif
	vta_error err = {0};
	if (vta_config_derive(cfg, &err) != VTA_OK)
		fail_msg("config: %s", err.detail);
}

static int setup(void **state)
{
	static simt t; /* cmocka state; one model per process */
	vta_config cfg;
	make_config(&cfg);
	simt_init(&t, &cfg);
	*state = &t;
	return 0;
}

static int teardown(void **state)
{
	simt_fini(*state);
	return 0;
}

/* Run prog over a fresh DRAM with recording on or off; return the status. The DRAM is
 * left in *dram (caller frees). */
static vta_status run_rec(simt *t, const vta_program *prog, int on, vta_dram *dram,
			  vta_run_stats *s, vta_error *err)
{
	vta_error e = {0};
	simt_dram(prog, dram);
	if (vtasim_sim_set_recording(t->sim, on, &e) != VTA_OK)
		fail_msg("set_recording: %s", e.detail);
	vta_status st = vtasim_sim_run(t->sim, prog, dram, s, err);
	if (vtasim_sim_set_recording(t->sim, 0, &e) != VTA_OK)
		fail_msg("set_recording: %s", e.detail);
	return st;
}

static const vtasim_insn_record *records(simt *t, size_t want)
{
	size_t n = 0;
	const vtasim_insn_record *r = vtasim_sim_records(t->sim, &n);
	assert_int_equal(n, want);
	assert_non_null(r);
	return r;
}

static uint64_t sum4(const uint64_t v[VTA_QUEUE_COUNT])
{
	return v[0] + v[1] + v[2] + v[3];
}

/* Every record: its index, a stage whose cycles are set and ordered, and nothing set
 * beyond it; waits that add up between the stages. */
static void check_record(const vtasim_insn_record *r, size_t i, uint64_t run_end)
{
	const uint64_t c[7] = {r->fetch_cycle, r->arrive_cycle, r->dispatch_cycle, r->wait_cycle,
			       r->start_cycle, r->end_cycle, r->retire_cycle};
	/* the last cycle set for each stage */
	static const int last_set[] = {-1, 2, 3, 4, 5, 6};
	assert_int_equal(r->index, i);
	assert_true(r->module >= VTA_STATS_LOAD && r->module <= VTA_STATS_STORE);
	assert_true(r->stage <= VTASIM_STAGE_RETIRED);
	int last = last_set[r->stage];
	for (int k = 0; k < 7; k++) {
		if (k <= last) {
			/* FETCH may have queued it ahead of its arrival after the end */
			if (c[k] == NONE || (k >= 3 && c[k] > run_end))
				fail_msg("insn %zu stage %d: cycle %d is %llu (run end %llu)", i,
					 r->stage, k, (unsigned long long)c[k],
					 (unsigned long long)run_end);
			if (k > 0 && c[k] < c[k - 1])
				fail_msg("insn %zu: cycle %d (%llu) before cycle %d (%llu)", i, k,
					 (unsigned long long)c[k], k - 1,
					 (unsigned long long)c[k - 1]);
		} else if (c[k] != NONE) {
			fail_msg("insn %zu stage %d: cycle %d set", i, r->stage, k);
		}
	}
	if (r->stage >= VTASIM_STAGE_EXECUTING)
		assert_int_equal(r->start_cycle - r->wait_cycle, sum4(r->pop_cycles));
	if (r->stage == VTASIM_STAGE_RETIRED)
		assert_int_equal(r->retire_cycle - r->end_cycle, sum4(r->push_cycles));
	if (r->stage >= VTASIM_STAGE_PUSHING)
		assert_true(r->port_cycles <= r->end_cycle - r->start_cycle);
	/* only queues the instruction pops or pushes are waited on */
	for (int q = 0; q < VTA_QUEUE_COUNT; q++) {
		if (!(r->pops & (1u << q)))
			assert_int_equal(r->pop_cycles[q], 0);
		if (!(r->pushes & (1u << q)))
			assert_int_equal(r->push_cycles[q], 0);
	}
	/* each module's own queues (VTA's wiring) */
	static const uint8_t pops_of[4] = {0, 1u << VTA_QUEUE_G2L,
					   1u << VTA_QUEUE_L2G | 1u << VTA_QUEUE_S2G,
					   1u << VTA_QUEUE_G2S};
	static const uint8_t pushes_of[4] = {0, 1u << VTA_QUEUE_L2G,
					     1u << VTA_QUEUE_G2L | 1u << VTA_QUEUE_G2S,
					     1u << VTA_QUEUE_S2G};
	assert_int_equal(r->pops & ~pops_of[r->module], 0);
	assert_int_equal(r->pushes & ~pushes_of[r->module], 0);
}

/* All records, and for a completed run their sums against the module statistics. */
static void check_records(simt *t, size_t n, const vta_run_stats *s, int completed)
{
	const vtasim_insn_record *r = records(t, n);
	uint64_t busy[VTA_STATS_MODULES] = {0}, dep[VTA_STATS_MODULES] = {0},
		 mem[VTA_STATS_MODULES] = {0}, insns[VTA_STATS_MODULES] = {0};
	for (size_t i = 0; i < n; i++) {
		check_record(&r[i], i, s->cycles);
		/* FETCH reads and dispatches in program order */
		if (i > 0 && r[i].stage >= VTASIM_STAGE_QUEUED) {
			assert_true(r[i - 1].stage >= VTASIM_STAGE_QUEUED);
			assert_true(r[i].arrive_cycle >= r[i - 1].arrive_cycle);
			assert_true(r[i].dispatch_cycle >= r[i - 1].dispatch_cycle);
		}
		if (r[i].stage >= VTASIM_STAGE_QUEUED)
			insns[VTA_STATS_FETCH]++;
		mem[VTA_STATS_FETCH] += r[i].fetch_port_cycles + r[i].fetch_room_cycles;
		dep[r[i].module] += sum4(r[i].pop_cycles);
		if (r[i].stage >= VTASIM_STAGE_PUSHING) {
			insns[r[i].module]++;
			busy[r[i].module] += r[i].end_cycle - r[i].start_cycle - r[i].port_cycles;
		}
		mem[r[i].module] += r[i].port_cycles + sum4(r[i].push_cycles);
	}
	for (int m = 0; m < VTA_STATS_MODULES; m++) {
		assert_int_equal(insns[m], s->module[m].insns);
		if (completed) {
			assert_int_equal(dep[m], s->module[m].stall_dep_cycles);
			assert_int_equal(mem[m], s->module[m].stall_mem_cycles);
			if (m != VTA_STATS_FETCH)
				assert_int_equal(busy[m], s->module[m].busy_cycles);
		} else {
			/* open waits are counted to the end of the run in the records only */
			assert_true(dep[m] >= s->module[m].stall_dep_cycles);
			assert_true(mem[m] >= s->module[m].stall_mem_cycles);
		}
	}
}

/* Recording changes nothing: every statistic (host time aside), the status, the error
 * and the DRAM are those of the same run without recording. */
static vta_status run_compare(simt *t, const vta_program *prog, vta_run_stats *s_on,
			      vta_error *err_on)
{
	vta_dram d_off, d_on;
	vta_run_stats s_off;
	vta_error err_off = {0};
	vta_status st_off = run_rec(t, prog, 0, &d_off, &s_off, &err_off);
	size_t n = 99;
	assert_null(vtasim_sim_records(t->sim, &n));
	assert_int_equal(n, 0);
	vta_status st_on = run_rec(t, prog, 1, &d_on, s_on, err_on);
	assert_int_equal(st_on, st_off);
	assert_string_equal(err_on->detail, err_off.detail);
	s_off.host_seconds = s_on->host_seconds = 0;
	if (memcmp(&s_off, s_on, sizeof(s_off)) != 0)
		fail_msg("statistics differ with recording on (cycles %llu vs %llu)",
			 (unsigned long long)s_off.cycles, (unsigned long long)s_on->cycles);
	assert_int_equal(d_off.size, d_on.size);
	assert_memory_equal(d_off.bytes, d_on.bytes, d_off.size);
	vta_dram_free(&d_off);
	vta_dram_free(&d_on);
	return st_on;
}

#ifndef RECORDS_SMALL_CONFIG

/* A LOAD that pushes l2g and a GEMM that pops it: the GEMM waits at the head of the
 * compute queue from the UOP load's retirement until the LOAD retires. */
static void test_load_then_gemm(void **state)
{
	simt *t = *state;
	vta_program prog;
	vta_dram dram;
	vta_run_stats s;
	vta_error err = {0};
	simt_asm(t,
		 "load mem=uop sram=0 dram=0 y=1 x=16 stride=16\n"               /* 0 compute */
		 "load mem=inp sram=0 dram=0x10 y=1 x=16 stride=16 deps=push_next\n" /* 1 load */
		 "gemm reset=0 uop=0,1 iter=1,1 dst=0,0 src=0,0 wgt=0,0 deps=pop_prev\n"
		 "finish\n",
		 &prog);
	assert_int_equal(run_rec(t, &prog, 1, &dram, &s, &err), VTA_OK);
	const vtasim_insn_record *r = records(t, 4);

	/* one burst of 4 insns from cycle 0, on an idle port */
	for (int i = 0; i < 4; i++) {
		assert_int_equal(r[i].fetch_cycle, 0);
		assert_int_equal(r[i].arrive_cycle, 66 + 2 * i);
		assert_int_equal(r[i].dispatch_cycle, 66 + 2 * i);
		assert_int_equal(r[i].fetch_port_cycles, 0);
		assert_int_equal(r[i].fetch_room_cycles, 0);
		assert_int_equal(r[i].stage, VTASIM_STAGE_RETIRED);
	}
	/* 0: LOAD UOP (64 B, 8 beats): port [70, 78), latency -> 142 */
	assert_int_equal(r[0].module, VTA_STATS_COMPUTE);
	assert_int_equal(r[0].wait_cycle, 66);
	assert_int_equal(r[0].start_cycle, 66);
	assert_int_equal(r[0].end_cycle, 142);
	assert_int_equal(r[0].retire_cycle, 142);
	assert_int_equal(r[0].pops, 0);
	assert_int_equal(r[0].pushes, 0);
	assert_int_equal(r[0].port_cycles, 0);
	/* 1: LOAD INP (256 B, 32 beats) asks at 72, gets the port at 78: [78, 110) -> 174 */
	assert_int_equal(r[1].module, VTA_STATS_LOAD);
	assert_int_equal(r[1].wait_cycle, 68);
	assert_int_equal(r[1].start_cycle, 68);
	assert_int_equal(r[1].port_cycles, 78 - 72);
	assert_int_equal(r[1].end_cycle, 174);
	assert_int_equal(r[1].retire_cycle, 174);
	assert_int_equal(r[1].pushes, 1u << VTA_QUEUE_L2G);
	assert_int_equal(r[1].push_cycles[VTA_QUEUE_L2G], 0);
	/* 2: GEMM at the head at 142, pops l2g when the LOAD retires: 1 uop, 4 + 4 + 1 */
	assert_int_equal(r[2].module, VTA_STATS_COMPUTE);
	assert_int_equal(r[2].pops, 1u << VTA_QUEUE_L2G);
	assert_int_equal(r[2].wait_cycle, r[0].retire_cycle);
	assert_int_equal(r[2].start_cycle, r[1].retire_cycle);
	assert_int_equal(r[2].pop_cycles[VTA_QUEUE_L2G], 174 - 142);
	assert_int_equal(r[2].end_cycle, 174 + 9);
	assert_int_equal(r[2].retire_cycle, 183);
	/* 3: FINISH */
	assert_int_equal(r[3].wait_cycle, 183);
	assert_int_equal(r[3].start_cycle, 183);
	assert_int_equal(r[3].end_cycle, 187);
	assert_int_equal(r[3].retire_cycle, 187);
	assert_int_equal(s.cycles, 187);
	check_records(t, 4, &s, 1);
	vta_dram_free(&dram);
	vta_program_free(&prog);
}

/* deadlock.s: the GEMM waits on l2g forever. Its record says so, with the open wait
 * counted to the end of the run; FINISH behind it stays queued. */
static void test_deadlock_records(void **state)
{
	simt *t = *state;
	vta_program prog;
	vta_dram dram;
	vta_run_stats s;
	vta_error err = {0};
	simt_asm(t,
		 ".uops 0x1000\nuop dst=0 src=0 wgt=0\n.text\n"
		 "load mem=uop sram=0 dram=0x400 y=1 x=1 stride=1\n"         /* 0 compute */
		 "load mem=inp sram=0 dram=0x200 y=1 x=1 stride=1\n"         /* 1 load */
		 "load mem=wgt sram=0 dram=0x30 y=1 x=1 stride=1\n"          /* 2 load */
		 "gemm reset=0 uop=0,1 iter=1,1 dst=0,0 src=0,0 wgt=0,0 deps=pop_prev\n"
		 "finish\n",
		 &prog);
	assert_int_equal(run_rec(t, &prog, 1, &dram, &s, &err), VTA_E_DEADLOCK);
	simt_expect_detail(err.detail, "insn 3", "l2g", NULL);
	const vtasim_insn_record *r = records(t, 5);
	/* 0: uop 4 B: port [70, 71) -> 135; 1: 16 B: [72, 74) -> 138;
	 * 2: 256 B from 138: overhead to 142, port [142, 174) -> 238, the last event */
	assert_int_equal(s.cycles, 238);
	assert_int_equal(r[0].retire_cycle, 135);
	assert_int_equal(r[1].retire_cycle, 138);
	assert_int_equal(r[2].wait_cycle, 138);
	assert_int_equal(r[2].retire_cycle, 238);
	assert_int_equal(r[3].stage, VTASIM_STAGE_WAITING);
	assert_int_equal(r[3].wait_cycle, 135);
	assert_int_equal(r[3].start_cycle, NONE);
	assert_int_equal(r[3].pop_cycles[VTA_QUEUE_L2G], 238 - 135);
	assert_int_equal(r[4].stage, VTASIM_STAGE_QUEUED);
	assert_int_equal(r[4].dispatch_cycle, 66 + 2 * 4);
	assert_int_equal(r[4].wait_cycle, NONE);
	check_records(t, 5, &s, 0);
	vta_dram_free(&dram);
	vta_program_free(&prog);
}

/* An instruction that fails its checks stops the run while executing. */
static void test_error_records(void **state)
{
	simt *t = *state;
	vta_program prog;
	vta_dram dram;
	vta_run_stats s;
	vta_error err = {0};
	simt_asm(t,
		 "load mem=uop sram=0 dram=0 y=1 x=1 stride=1\n"
		 "gemm reset=1 uop=0,1 iter=1,1 dst=0,0 src=0,0 wgt=0,0\n"
		 "gemm reset=1 uop=0,1 iter=3,1 dst=1500,0 src=0,0 wgt=0,0\n"
		 "finish\n",
		 &prog);
	assert_int_equal(run_rec(t, &prog, 1, &dram, &s, &err), VTA_E_OOB);
	simt_expect_detail(err.detail, "insn 2", "acc index 3000 beyond", NULL);
	const vtasim_insn_record *r = records(t, 4);
	assert_int_equal(r[1].stage, VTASIM_STAGE_RETIRED);
	assert_int_equal(r[2].stage, VTASIM_STAGE_EXECUTING);
	assert_int_equal(r[2].start_cycle, r[1].retire_cycle);
	assert_int_equal(r[2].end_cycle, NONE);
	assert_int_equal(r[3].stage, VTASIM_STAGE_QUEUED);
	check_records(t, 4, &s, 0);
	vta_dram_free(&dram);
	vta_program_free(&prog);
}

#endif /* RECORDS_SMALL_CONFIG */

/* A compute NOP waits for the token of the last of a chain of LOADs (FETCH's requests go
 * between them) while FETCH fills the compute queue with NOPs behind it and then waits for
 * room; later loads push more tokens than dep_depth
 * while their consumers wait behind a long ACC load, and wait for room in l2g. */
static void test_room_waits(void **state)
{
	simt *t = *state;
	const uint32_t loads = t->cfg.dep_depth + 1, nops = t->cfg.insn_depth + 20;
	char *text = malloc((size_t)(nops + 2 * loads + 16) * 80);
	assert_non_null(text);
	size_t len = 0;
	const uint32_t chain = 12;
	for (uint32_t i = 0; i < chain; i++)
		len += (size_t)sprintf(text + len, "load mem=inp sram=0 dram=0 y=1 x=128 stride=128%s\n",
				       i + 1 == chain ? " deps=push_next" : "");
	len += (size_t)sprintf(text + len,
			       "load mem=uop sram=0 dram=0 y=1 x=0 stride=0 deps=pop_prev\n");
	for (uint32_t i = 0; i < nops; i++)
		len += (size_t)sprintf(text + len, "load mem=uop sram=0 dram=0 y=1 x=0 stride=0\n");
	/* a long ACC load holds the consumers of the next loads back */
	len += (size_t)sprintf(text + len, "load mem=acc sram=0 dram=0 y=1 x=256 stride=256\n");
	for (uint32_t i = 0; i < loads; i++)
		len += (size_t)sprintf(text + len, "load mem=inp sram=0 dram=0x10 y=1 x=8 "
						   "stride=8 deps=push_next\n");
	for (uint32_t i = 0; i < loads; i++)
		len += (size_t)sprintf(text + len, "load mem=uop sram=0 dram=0 y=1 x=0 stride=0 "
						   "deps=pop_prev\n");
	sprintf(text + len, "finish\n");
	vta_program prog;
	simt_asm(t, text, &prog);
	free(text);
	vta_run_stats s;
	vta_error err = {0};
	if (run_compare(t, &prog, &s, &err) != VTA_OK)
		fail_msg("run: %s", err.detail);
	const size_t n = prog.n_insns;
	const vtasim_insn_record *r = records(t, n);
	uint64_t room = 0, push = 0;
	for (size_t i = 0; i < n; i++) {
		room += r[i].fetch_room_cycles;
		push += r[i].push_cycles[VTA_QUEUE_L2G];
	}
	assert_true(room > 0);
	assert_true(push > 0);
	/* the first NOP waits for the chain; the last extra load for room in l2g */
	assert_int_equal(r[chain].start_cycle, r[chain - 1].retire_cycle);
	assert_true(r[chain].pop_cycles[VTA_QUEUE_L2G] > 0);
	assert_int_equal(r[chain + 2 + nops].push_cycles[VTA_QUEUE_L2G], 0);
	assert_true(r[chain + 2 + nops + loads - 1].push_cycles[VTA_QUEUE_L2G] > 0);
	check_records(t, n, &s, 1);
	vta_program_free(&prog);
}

/* Random programs: recording changes nothing, and the records are consistent. */
static void test_random_programs(void **state)
{
	simt *t = *state;
	uint64_t waits = 0;
	for (uint32_t seed = 1; seed <= PROGRAMS; seed++) {
		vta_program prog;
		vta_run_stats s;
		vta_error err = {0};
		vta_program_init(&prog, &t->cfg);
		rp_generate(&t->cfg, seed * 2654435761u, &prog);
		if (run_compare(t, &prog, &s, &err) != VTA_OK)
			fail_msg("program %u: %s", seed, err.detail);
		check_records(t, prog.n_insns, &s, 1);
		for (int m = 0; m < VTA_STATS_MODULES; m++)
			waits += s.module[m].stall_dep_cycles + s.module[m].stall_mem_cycles;
		vta_program_free(&prog);
	}
	assert_true(waits > 0); /* the sums compared something */
}

/* Programs made to block more (a push dropped or a pop added) deadlock or complete with
 * and without recording alike. */
static void test_random_blocking(void **state)
{
	simt *t = *state;
	int failed = 0;
	for (uint32_t seed = 1; seed <= PROGRAMS; seed++) {
		vta_program prog;
		vta_run_stats s;
		vta_error err = {0};
		uint32_t rs = seed * 40503u + 17u;
		vta_program_init(&prog, &t->cfg);
		rp_generate(&t->cfg, seed * 2246822519u, &prog);
		/* drop the first push found from a random instruction on */
		for (size_t k = 0; k < prog.n_insns; k++) {
			size_t i = (simt_rand(&rs) % prog.n_insns + k) % prog.n_insns;
			vta_insn in;
			if (vta_program_insn(&prog, &t->cfg, i, &in, &err) != VTA_OK)
				fail_msg("%s", err.detail);
			if (!in.deps.push_prev && !in.deps.push_next)
				continue;
			if (in.deps.push_prev)
				in.deps.push_prev = false;
			else
				in.deps.push_next = false;
			if (vta_insn_encode(&t->cfg, &in, prog.insns + i * VTA_INSN_BYTES, &err))
				fail_msg("%s", err.detail);
			break;
		}
		vta_status st = run_compare(t, &prog, &s, &err);
		if (st != VTA_OK && st != VTA_E_DEADLOCK && st != VTA_E_NO_FINISH)
			fail_msg("program %u: %s", seed, err.detail);
		failed += st != VTA_OK;
		check_records(t, prog.n_insns, &s, st == VTA_OK);
		vta_program_free(&prog);
	}
	assert_true(failed > PROGRAMS / 4);
}

/* The API's edges: a NULL handle, no records without recording, none for a stream
 * rejected before launch. */
static void test_api_edges(void **state)
{
	simt *t = *state;
	vta_error err = {0};
	assert_int_equal(vtasim_sim_set_recording(NULL, 1, &err), VTA_E_USAGE);
	simt_expect_detail(err.detail, "vtasim_sim_set_recording", "NULL", NULL);
	size_t n = 7;
	assert_null(vtasim_sim_records(NULL, &n));
	assert_int_equal(n, 0);
	assert_string_equal(vta_queue_name(VTA_QUEUE_L2G), "l2g");
	assert_string_equal(vta_queue_name(VTA_QUEUE_S2G), "s2g");
	assert_string_equal(vta_queue_name(VTA_QUEUE_COUNT), "?");

	vta_program prog;
	vta_dram dram;
	vta_run_stats s;
	simt_asm(t, "finish\n", &prog);
	assert_int_equal(run_rec(t, &prog, 1, &dram, &s, &err), VTA_OK);
	records(t, 1);
	vta_dram_free(&dram);
	/* recording off again: the next run forgets the records */
	assert_int_equal(run_rec(t, &prog, 0, &dram, &s, &err), VTA_OK);
	assert_null(vtasim_sim_records(t->sim, &n));
	assert_int_equal(n, 0);
	vta_dram_free(&dram);
	vta_program_free(&prog);

	/* a load module instruction may not pop_prev: rejected before launch */
	simt_asm(t, "finish\n", &prog);
	vta_insn in;
	if (vta_program_insn(&prog, &t->cfg, 0, &in, &err) != VTA_OK)
		fail_msg("%s", err.detail);
	in.opcode = VTA_OP_LOAD;
	memset(&in.mem, 0, sizeof(in.mem));
	in.mem.mem_type = VTA_MEM_INP;
	in.deps.pop_prev = true;
	if (vta_insn_encode(&t->cfg, &in, prog.insns, &err) != VTA_OK)
		fail_msg("%s", err.detail);
	assert_int_equal(run_rec(t, &prog, 1, &dram, &s, &err), VTA_E_FLAGS);
	assert_null(vtasim_sim_records(t->sim, &n));
	assert_int_equal(n, 0);
	vta_dram_free(&dram);
	vta_program_free(&prog);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#ifndef RECORDS_SMALL_CONFIG
		cmocka_unit_test(test_load_then_gemm),
		cmocka_unit_test(test_deadlock_records),
		cmocka_unit_test(test_error_records),
#endif
		cmocka_unit_test(test_room_waits),
		cmocka_unit_test(test_random_programs),
		cmocka_unit_test(test_random_blocking),
		cmocka_unit_test(test_api_edges),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
