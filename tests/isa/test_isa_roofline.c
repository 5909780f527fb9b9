/*
 * test_isa_roofline.c - the roofline (vta_cost_roofline): GEMM and ALU work add up on the
 * compute module, the DRAM port is the other term, the bound names the one that sets it,
 * and sums over layers keep the terms.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "vta_cost.h"

static void test_terms(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg); /* 1x16x16, gemm_ii 1, 64-bit bus */
	cfg.alu_ii = 2;
	cfg.alu_imm_ii = 1;
	/* 10 uops of 256 MACs and one MAC more: 11 GEMM cycles; 3 tensor + 4 immediate ALU
	 * uops: 10 cycles; 80 bytes: 10 beats */
	vta_roofline_work w = {.macs = 10 * 256 + 1, .alu_tensor_uops = 3, .alu_imm_uops = 4,
			       .dram_bytes = 80};
	vta_roofline r = vta_cost_roofline(&cfg, &w);
	assert_int_equal(r.gemm_cycles, 11);
	assert_int_equal(r.alu_cycles, 10);
	assert_int_equal(r.compute_cycles, 21);
	assert_int_equal(r.dram_cycles, 10);
	assert_int_equal(r.roofline_cycles, 21);
	assert_int_equal(r.bound, VTA_BOUND_GEMM);
	assert_string_equal(vta_bound_name(r.bound), "gemm");

	w.alu_tensor_uops = 6; /* 16 ALU cycles against 11 of GEMM */
	r = vta_cost_roofline(&cfg, &w);
	assert_int_equal(r.roofline_cycles, 27);
	assert_string_equal(vta_bound_name(r.bound), "alu");

	w.dram_bytes = 8 * 100; /* 100 beats */
	r = vta_cost_roofline(&cfg, &w);
	assert_int_equal(r.roofline_cycles, 100);
	assert_string_equal(vta_bound_name(r.bound), "dram");
}

static void test_sum(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	cfg.alu_ii = 2;
	cfg.alu_imm_ii = 1;
	vta_roofline_work a = {.macs = 256 * 100, .dram_bytes = 8 * 10};
	vta_roofline_work b = {.macs = 256, .alu_tensor_uops = 20, .dram_bytes = 8 * 60};
	vta_roofline ra = vta_cost_roofline(&cfg, &a), rb = vta_cost_roofline(&cfg, &b);
	assert_string_equal(vta_bound_name(rb.bound), "dram"); /* 60 beats against 41 */
	vta_roofline sum;
	memset(&sum, 0, sizeof(sum));
	vta_cost_roofline_add(&sum, &ra);
	vta_cost_roofline_add(&sum, &rb);
	assert_int_equal(sum.gemm_cycles, 101);
	assert_int_equal(sum.alu_cycles, 40);
	assert_int_equal(sum.dram_cycles, 70);
	assert_int_equal(sum.roofline_cycles, 100 + 60); /* each layer's own max, summed */
	assert_string_equal(vta_bound_name(sum.bound), "gemm");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_terms),
		cmocka_unit_test(test_sum),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
