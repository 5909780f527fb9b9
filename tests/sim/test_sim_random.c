/*
 * test_sim_random.c - differential test: random valid programs (sim_randprog.h) run on
 * the SystemC model and on the reference executor must leave every SRAM and the DRAM
 * equal, with the same functional counters; the same programs made to block more
 * (a push dropped or a pop added) must deadlock or complete alike, with the same
 * deadlock diagnostic word for word. Built three times: with the default config,
 * (RANDOM_SMALL_CONFIG) with a small, oddly shaped one (batch 2, block_in 8, a 128-bit
 * bus, short bursts, queue depths of a few entries, the TFLite ALU extension, no MUL), and
 * (RANDOM_WIDE_CONFIG) with the wide encoding and SRAMs 8x the default at BLOCK 8, whose
 * micro-ops and loop factors VTA's 128-bit format cannot hold, and the decoder's
 * multi-block loads and zero-lane fill.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_randprog.h"
#include "sim_testutil.h"

#define PROGRAMS 200

static void make_config(vta_config *cfg)
{
	vta_config_default(cfg);
#ifdef RANDOM_SMALL_CONFIG
	snprintf(cfg->name, sizeof(cfg->name), "%s", "random-small");
	cfg->log_batch = 1;
	cfg->log_block_in = 3;
	cfg->log_block_out = 4;
	cfg->sram[VTA_MEM_UOP].kib = 4;
	cfg->sram[VTA_MEM_INP].kib = 8;
	cfg->sram[VTA_MEM_WGT].kib = 16;
	cfg->sram[VTA_MEM_ACC].kib = 16;
	cfg->insn_depth = 3;
	cfg->dep_depth = 2;
	cfg->dram_bus_bits = 128;
	cfg->dram_latency_cycles = 7;
	cfg->dram_max_burst_bytes = 64;
	cfg->alu_mul = false;
	cfg->alu_tflite_ext = true;
	cfg->gemm_ii = 2;
	cfg->alu_ii = 3;
	cfg->alu_imm_ii = 2;
	cfg->insn_overhead_cycles = 1;
	cfg->pipeline_fill_cycles = 0;
	cfg->acc_dep_distance = 3;
#endif
#ifdef RANDOM_WIDE_CONFIG
	snprintf(cfg->name, sizeof(cfg->name), "%s", "random-wide");
	cfg->isa_encoding = VTA_ENC_WIDE;
	cfg->log_block_in = 3;
	cfg->log_block_out = 3;
	cfg->sram[VTA_MEM_UOP].kib *= 8;
	cfg->sram[VTA_MEM_INP].kib *= 8;
	cfg->sram[VTA_MEM_WGT].kib *= 8;
	cfg->sram[VTA_MEM_ACC].kib *= 8;
	cfg->alu_tflite_ext = true;
	cfg->decomp_multi_block = true;
	cfg->decomp_zero_fill = true;
#endif
	vta_error err = {0};
	if (vta_config_derive(cfg, &err) != VTA_OK)
		fail_msg("config: %s", err.detail);
}

static int setup(void **state)
{
	static simt t;
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

static void test_random_programs(void **state)
{
	simt *t = *state;
	uint64_t total_insns = 0, total_uops = 0, total_lut = 0, multi_block = 0, zero_fill = 0;
	for (uint32_t seed = 1; seed <= PROGRAMS; seed++) {
		vta_program prog;
		vta_dram dram;
		vta_run_stats s;
		vta_error err = {0};
		vta_program_init(&prog, &t->cfg);
		rp_generate(&t->cfg, seed * 2654435761u, &prog);
		simt_dram(&prog, &dram);
		vta_status st = simt_run_both(t, &prog, &dram, &s, &err, NULL);
		if (st != VTA_OK)
			fail_msg("program %u: %s", seed, err.detail);
		const vta_ref_counters *c = vta_ref_counters_get(t->ref);
		assert_int_equal(s.gemm_uops, c->gemm_uops);
		assert_int_equal(s.alu_uops, c->alu_uops);
		for (int m = 0; m < VTA_MEM_COUNT; m++)
			assert_int_equal(s.dram_read_bytes[m], c->load_bytes[m]);
		assert_int_equal(s.dram_write_bytes, c->store_bytes);
		assert_int_equal(s.decoder.table_loads, c->lut_table_loads);
		assert_int_equal(s.decoder.table_bytes, c->lut_table_bytes);
		assert_int_equal(s.decoder.index_bytes, c->lut_index_bytes);
		assert_int_equal(s.decoder.elements, c->lut_elements);
		total_lut += c->lut_elements;
		assert_int_equal(s.module[VTA_STATS_LOAD].insns, c->insns[VTA_MODULE_LOAD]);
		assert_int_equal(s.module[VTA_STATS_COMPUTE].insns, c->insns[VTA_MODULE_COMPUTE]);
		assert_int_equal(s.module[VTA_STATS_STORE].insns, c->insns[VTA_MODULE_STORE]);
		assert_int_equal(s.module[VTA_STATS_FETCH].insns, prog.n_insns);
		/* a module is never busy longer than the run */
		for (int m = 0; m < VTA_STATS_MODULES; m++)
			assert_true(s.module[m].busy_cycles <= s.cycles);
		total_insns += prog.n_insns;
		total_uops += s.gemm_uops + s.alu_uops;
		for (size_t i = 0; i < prog.n_insns; i++) {
			vta_insn in;
			assert_int_equal(vta_program_insn(&prog, &t->cfg, i, &in, &err), VTA_OK);
			multi_block += in.opcode == VTA_OP_LOAD && in.mem.lut_run;
			zero_fill += in.opcode == VTA_OP_LOAD && in.mem.lut_group;
		}
		vta_dram_free(&dram);
		vta_program_free(&prog);
	}
	/* the generator really produced work */
	print_message("%llu insns, %llu uops\n", (unsigned long long)total_insns, (unsigned long long)total_uops);
	assert_true(total_insns > 10 * PROGRAMS);
	assert_true(total_uops > 10 * PROGRAMS);
	assert_true(total_lut > 0); /* and decompressed (both configs have the decoder) */
	/* and, where the config has them, spanned channel blocks and filled zero lanes */
	print_message("%llu multi-block loads, %llu zero-lane fill loads\n",
		      (unsigned long long)multi_block, (unsigned long long)zero_fill);
	assert_true(t->cfg.decomp_multi_block ? multi_block > 10 : multi_block == 0);
	assert_true(t->cfg.decomp_zero_fill ? zero_fill > 10 : zero_fill == 0);
}

/* The model's time is blind to the bytes it moves: each random program takes the same
 * cycles, and every module the same busy time, over its DRAM and over that DRAM with every
 * byte outside its micro-ops changed. A run's stream memo (stream_memo.h) rests on this: a
 * stream byte for byte an earlier one's, its micro-ops included, is not timed again. (Data
 * that makes a run fail, a packed LUT index past its table, is an error either way.) */
static void test_time_blind_to_data(void **state)
{
	simt *t = *state;
	unsigned compared = 0;
	for (uint32_t seed = 1; seed <= PROGRAMS; seed++) {
		vta_program prog;
		vta_dram a, b;
		vta_run_stats sa, sb;
		vta_error err = {0};
		vta_program_init(&prog, &t->cfg);
		rp_generate(&t->cfg, seed * 2654435761u, &prog);
		simt_dram(&prog, &a);
		simt_dram(&prog, &b);
		uint32_t r = seed;
		for (uint64_t i = 0; i < b.size; i++) {
			bool uop = false;
			for (size_t k = 0; k < prog.n_segments && !uop; k++) {
				const vta_segment *g = &prog.segments[k];
				uop = g->kind == VTA_SEG_UOP && i >= g->dram_addr &&
				      i < g->dram_addr + g->size;
			}
			if (!uop)
				b.bytes[i] ^= (uint8_t)(simt_rand(&r) | 1);
		}
		const vta_status ra = vtasim_sim_run(t->sim, &prog, &a, &sa, &err);
		const vta_status rb = vtasim_sim_run(t->sim, &prog, &b, &sb, &err);
		if (ra == VTA_OK && rb == VTA_OK) {
			assert_int_equal(sa.cycles, sb.cycles);
			for (int m = 0; m < VTA_STATS_MODULES; m++)
				assert_int_equal(sa.module[m].busy_cycles, sb.module[m].busy_cycles);
			compared++;
		}
		vta_dram_free(&a);
		vta_dram_free(&b);
		vta_program_free(&prog);
	}
	print_message("%u of %u programs compared\n", compared, PROGRAMS);
	assert_true(compared > PROGRAMS / 2);
}

/* Make instruction i block more: drop one of its pushes or add a pop legal for its
 * module. Blocking only delays consumers past their producers, so the program stays
 * race-free: it either completes with the same results or deadlocks, and both models
 * must agree on which, word for word. Returns false if nothing could be changed. */
static bool mutate(const vta_config *cfg, vta_program *prog, size_t i, uint32_t *seed)
{
	vta_insn in;
	vta_error err = {0};
	if (vta_program_insn(prog, cfg, i, &in, &err) != VTA_OK)
		fail_msg("%s", err.detail);
	vta_module m = vta_insn_module(&in);
	bool *choices[4];
	int n = 0;
	if (in.deps.push_prev)
		choices[n++] = &in.deps.push_prev;
	if (in.deps.push_next)
		choices[n++] = &in.deps.push_next;
	if (!in.deps.pop_prev && m != VTA_MODULE_LOAD)
		choices[n++] = &in.deps.pop_prev;
	if (!in.deps.pop_next && m != VTA_MODULE_STORE)
		choices[n++] = &in.deps.pop_next;
	if (n == 0)
		return false;
	bool *f = choices[simt_rand(seed) % (uint32_t)n];
	*f = !*f;
	if (vta_insn_encode(cfg, &in, prog->insns + i * cfg->insn_bytes, &err) != VTA_OK)
		fail_msg("%s", err.detail);
	return true;
}

static void test_random_blocking_mutations(void **state)
{
	simt *t = *state;
	int deadlocks = 0, completed = 0;
	for (uint32_t seed = 1; seed <= PROGRAMS; seed++) {
		vta_program prog;
		vta_dram dram;
		vta_error err = {0}, ref_err = {0};
		uint32_t s = seed * 40503u + 17u;
		vta_program_init(&prog, &t->cfg);
		rp_generate(&t->cfg, seed * 2246822519u, &prog);
		size_t i = simt_rand(&s) % prog.n_insns;
		while (!mutate(&t->cfg, &prog, i, &s))
			i = (i + 1) % prog.n_insns;
		simt_dram(&prog, &dram);
		vta_status st = simt_run_both(t, &prog, &dram, NULL, &err, &ref_err);
		if (st == VTA_E_DEADLOCK || st == VTA_E_NO_FINISH) {
			if (strcmp(err.detail, ref_err.detail) != 0)
				fail_msg("program %u: detail differs:\n sim: %s\n ref: %s", seed,
					 err.detail, ref_err.detail);
			deadlocks++;
		} else if (st == VTA_OK) {
			completed++;
		} else {
			fail_msg("program %u: unexpected status %d: %s", seed, st, err.detail);
		}
		vta_dram_free(&dram);
		vta_program_free(&prog);
	}
	print_message("%d deadlocked, %d completed\n", deadlocks, completed);
	assert_true(deadlocks > PROGRAMS / 4); /* the mutations do bite */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_programs),
		cmocka_unit_test(test_random_blocking_mutations),
		cmocka_unit_test(test_time_blind_to_data),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
