/*
 * test_sim_lut.c - the SystemC model's LUT decoder: random decompressing programs (every
 * index width, WGT/INP/ACC, per tensor and per channel) must match the reference executor
 * and the straightforward decoder of lut_progs.h; a lone decompressing load on an idle port
 * takes exactly vta_cost_load_idle_cycles; the diagnostics match the reference's.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "../lut_progs.h"
#include "sim_testutil.h"
#include "vta_cost.h"

static simt T;

static void test_random_programs(void **state)
{
	(void)state;
	const vta_mem mems[] = {VTA_MEM_WGT, VTA_MEM_INP, VTA_MEM_ACC};
	uint32_t s = 12345;
	for (int n = 0; n < 60; n++) {
		lutp p = {mems[simt_rand(&s) % 3], 1 + simt_rand(&s) % 7, 1, 0, 0,
			  1 + simt_rand(&s) % 4, NULL, 0};
		p.stride = 1 + simt_rand(&s) % (1u << p.bw);
		if (simt_rand(&s) % 2) {
			p.chan = simt_rand(&s) % 5;
			p.channels = p.chan + vta_lut_row_channels(&T.cfg, p.mem) + simt_rand(&s) % 3;
		}
		vta_program prog;
		lutp_build(&T.cfg, &p, simt_rand(&s), &prog);
		vta_dram dram;
		simt_dram(&prog, &dram);
		vta_run_stats st;
		vta_error err = {0};
		if (simt_run_both(&T, &prog, &dram, &st, &err, NULL) != VTA_OK)
			fail_msg("program %d: %s", n, err.detail);
		uint64_t size;
		const uint8_t *sram = vtasim_sim_sram(T.sim, p.mem, &size);
		size_t row = p.expect_bytes / p.rows;
		assert_memory_equal(sram + 2 * row, p.expect, p.expect_bytes);
		assert_int_equal(st.decoder.table_loads, 1);
		assert_int_equal(st.decoder.elements, (uint64_t)p.rows * vta_lut_lanes(&T.cfg, p.mem));
		assert_int_equal(st.decoder.index_bytes,
				 p.rows * vta_lut_packed_bytes(&T.cfg, p.mem, p.bw));
		assert_int_equal(st.dram_read_bytes[p.mem], st.decoder.index_bytes);
		free(p.expect);
		vta_dram_free(&dram);
		vta_program_free(&prog);
	}
}

/* A lone decompressing load on an idle port: overhead + latency + max(beats, decode). */
static void check_timing(vta_mem mem, uint32_t bw, uint32_t rows)
{
	lutp p = {mem, bw, 1, 1u << bw, 0, rows, NULL, 0};
	vta_program prog;
	lutp_build(&T.cfg, &p, 99, &prog);
	vta_dram dram;
	simt_dram(&prog, &dram);
	vta_run_stats st;
	vta_error err = {0};
	assert_int_equal(vtasim_sim_set_recording(T.sim, 1, &err), VTA_OK);
	assert_int_equal(simt_run_both(&T, &prog, &dram, &st, &err, NULL), VTA_OK);
	size_t n;
	const vtasim_insn_record *r = vtasim_sim_records(T.sim, &n);
	assert_int_equal(n, 3);
	vta_insn in;
	assert_int_equal(vta_program_insn(&prog, &T.cfg, 1, &in, &err), VTA_OK);
	assert_int_equal(r[1].port_cycles, 0);
	assert_int_equal(r[1].end_cycle - r[1].start_cycle,
			 vta_cost_load_idle_cycles(&T.cfg, &in.mem));
	vta_dma_plan plan =
		vta_cost_dma_plan_of(&in.mem, vta_load_elem_bytes(&T.cfg, &in.mem), false);
	/* the DMA's data, from its first beat into the read pipeline */
	uint64_t beats = vta_cost_dma_beats(&T.cfg, &plan) + T.cfg.dram_read_pipeline_cycles;
	uint64_t decode = vta_cost_lut_decode_cycles(&T.cfg, &in.mem);
	assert_int_equal(st.decoder.busy_cycles, decode);
	assert_int_equal(st.decoder.stall_cycles, beats > decode ? beats - decode : 0);
	assert_int_equal(vtasim_sim_set_recording(T.sim, 0, &err), VTA_OK);
	free(p.expect);
	vta_dram_free(&dram);
	vta_program_free(&prog);
}

static void test_timing(void **state)
{
	(void)state;
	/* the default decoder (16 indices per cycle, 64-bit bus) reads at most one bus word
	 * per cycle, plus 3 cycles, so it never waits on an idle port: these are
	 * decode-bound, the last by the 3 cycles only */
	check_timing(VTA_MEM_WGT, 3, 2); /* 35 cycles against 24 beats */
	check_timing(VTA_MEM_ACC, 1, 4); /* 7 cycles against 1 beat */
	check_timing(VTA_MEM_INP, 7, 1);
	check_timing(VTA_MEM_WGT, 7, 4); /* 115 cycles against 4 x 224 bytes = 112 beats */
}

/* Diagnostics agree between the model and the reference (simt_run_both compares them). */
static void test_errors(void **state)
{
	(void)state;
	vta_error err = {0}, ref_err = {0};
	/* slot 2 never set */
	assert_int_equal(simt_run_text(&T,
				       "load mem=wgt sram=0 dram=0x10 bw=3 slot=2 y=1 x=1 stride=1 "
				       "chan=0 deps=push_next\nfinish deps=pop_prev\n",
				       NULL, &err, &ref_err),
			 VTA_E_STREAM);
	assert_string_equal(err.detail, ref_err.detail);
	simt_expect_detail(err.detail, "insn 0 (", "LUT slot 2 was never set", NULL);
	/* an index (7, the first lane's three 1 bits) beyond a table of 4 entries */
	assert_int_equal(simt_run_text(&T,
				       "load mem=lut sram=0 dram=0x0 slot=1 y=1 x=4 stride=4\n"
				       "load mem=inp sram=0 dram=0x100 bw=3 slot=1 y=1 x=1 stride=1 "
				       "deps=push_next\nfinish deps=pop_prev\n"
				       ".data 0x600\n.byte 0xe0\n",
				       NULL, &err, &ref_err),
			 VTA_E_OOB);
	assert_string_equal(err.detail, ref_err.detail);
	simt_expect_detail(err.detail, "insn 1 (",
			   "LUT index 7 of element 0 beyond its table of 4 entries", NULL);
}

static int setup(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	simt_init(&T, &cfg);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	simt_fini(&T);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_programs),
		cmocka_unit_test(test_timing),
		cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
