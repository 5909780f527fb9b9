/*
 * test_rtl_gemm.c - the verilated GEMM array (rtl_models/rtl_compute.cc over vta_gemm_dot.v)
 * against vtasim_gemm_uop and vtasim_gemm_reset (sim/datapath.h), bit for bit: every
 * combination of BATCH 1 and 2 and BLOCK_IN, BLOCK_OUT 4, 8, 16 and 32, random and extreme
 * int8 operands, accumulators that wrap, reset uops, and uops whose rows collide (the
 * scoreboard must give the same ACC as running the uops one after another); plus a
 * hand-computed uop.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "prng.h"
#include "rtl_compute_check.h"

enum { ROWS = 8, MAX_UOPS = 64 };

/* Operand patterns: 0 random, 1 all -128 (the largest products), 2 +127 x -128, 3 sparse. */
static int8_t pick(vta_prng *r, int pattern, int is_wgt)
{
	switch (pattern) {
	case 1: return -128;
	case 2: return is_wgt ? -128 : 127;
	case 3: return vta_prng_range(r, 0, 3) == 0 ? (int8_t)vta_prng_range(r, -128, 127) : 0;
	default: return (int8_t)vta_prng_range(r, -128, 127);
	}
}

static int32_t pick_acc(vta_prng *r, int kind)
{
	switch (kind % 4) {
	case 0: return (int32_t)(uint32_t)vta_prng_next(r);
	case 1: return INT32_MAX - (int32_t)vta_prng_range(r, 0, 70000);  /* wraps upward */
	case 2: return INT32_MIN + (int32_t)vta_prng_range(r, 0, 70000);  /* wraps downward */
	default: return (int32_t)vta_prng_range(r, -1000, 1000);
	}
}

/* `rounds` instructions of 1..MAX_UOPS uops on ROWS rows of each SRAM: GEMM, and every
 * fourth a reset instruction. */
static void run_shape(unsigned batch, unsigned bi, unsigned bo, unsigned rounds)
{
	rtl_cmp m;
	rtl_cmp_init(&m, batch, bi, bo, ROWS);
	vta_prng r;
	vta_prng_seed(&r, 7000 + batch * 10000 + bi * 100 + bo);
	rtl_uop u[MAX_UOPS];
	int32_t row[64];
	for (unsigned round = 0; round < rounds; round++) {
		int pattern = round < 40 ? (int)(round / 10) : 0;
		for (size_t i = 0; i < (size_t)ROWS * batch * bi; i++)
			m.inp[i] = pick(&r, pattern, 0);
		for (size_t i = 0; i < (size_t)ROWS * bo * bi; i++)
			m.wgt[i] = pick(&r, pattern, 1);
		for (uint32_t a = 0; a < ROWS; a++) {
			for (size_t i = 0; i < m.lanes; i++)
				row[i] = pick_acc(&r, (int)(round + a));
			rtl_cmp_set_acc(&m, a, row);
		}
		size_t n = (size_t)vta_prng_range(&r, 1, MAX_UOPS);
		int reset = round % 4 == 3;
		for (size_t i = 0; i < n; i++) {
			u[i].dst = (uint32_t)vta_prng_range(&r, 0, ROWS - 1);
			u[i].src = (uint32_t)vta_prng_range(&r, 0, ROWS - 1);
			u[i].wgt = (uint32_t)vta_prng_range(&r, 0, ROWS - 1);
			u[i].reset = reset;
		}
		char what[48];
		snprintf(what, sizeof(what), "round %u", round);
		rtl_cmp_run(&m, what, -1, 0, 0, u, n);
	}
	rtl_cmp_free(&m);
}

/* Every shape of BATCH 1, 2 x BLOCK_IN 4..32 x BLOCK_OUT 4..32. */
static void test_gemm_shapes(void **state)
{
	(void)state;
	static const unsigned blocks[] = {4, 8, 16, 32};
	for (unsigned batch = 1; batch <= 2; batch++)
		for (size_t i = 0; i < 4; i++)
			for (size_t o = 0; o < 4; o++)
				run_shape(batch, blocks[i], blocks[o], 60);
}

/* Many more instructions on the shapes of configs/default.yaml and configs/tiny.yaml. */
static void test_gemm_default(void **state)
{
	(void)state;
	run_shape(1, 16, 16, 1500);
}

static void test_gemm_tiny(void **state)
{
	(void)state;
	run_shape(1, 4, 4, 1500);
}

/* Shapes no config uses: odd BLOCK_OUT and BATCH (any are built from lanes). */
static void test_gemm_odd(void **state)
{
	(void)state;
	run_shape(3, 8, 5, 100);
	run_shape(1, 32, 1, 100);
}

/* A hand-checked uop: x = 1..16, row o of w all equal to o - 8, acc = o. */
static void test_gemm_known(void **state)
{
	(void)state;
	rtl_cmp m;
	rtl_cmp_init(&m, 1, 16, 16, 1);
	int32_t acc[16];
	for (int k = 0; k < 16; k++)
		m.inp[k] = (int8_t)(k + 1);
	for (int o = 0; o < 16; o++) {
		for (int k = 0; k < 16; k++)
			m.wgt[o * 16 + k] = (int8_t)(o - 8);
		acc[o] = o;
	}
	rtl_cmp_set_acc(&m, 0, acc);
	rtl_uop u = {0, 0, 0, 0};
	rtl_cmp_run(&m, "known", -1, 0, 0, &u, 1);
	for (int o = 0; o < 16; o++) {
		assert_int_equal(m.acc_v[o], o + 136 * (o - 8)); /* sum 1..16 = 136 */
		assert_int_equal(m.out_v[o], (int8_t)(uint8_t)(uint32_t)m.acc_v[o]);
	}
	/* and a reset of that row */
	u.reset = 1;
	rtl_cmp_run(&m, "known reset", -1, 0, 0, &u, 1);
	for (int o = 0; o < 16; o++)
		assert_true(m.acc_v[o] == 0 && m.out_v[o] == 0);
	rtl_cmp_free(&m);
}

/* The comparison itself finds a difference (so a mismatch cannot pass silently). */
static void test_gemm_check_helper(void **state)
{
	(void)state;
	int8_t x[3] = {1, 2, 3}, y[3] = {1, 2, 3};
	assert_int_equal(rtl_first_diff_i8(x, y, 3), -1);
	y[2] = -3;
	assert_int_equal(rtl_first_diff_i8(x, y, 3), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gemm_shapes),
		cmocka_unit_test(test_gemm_default),
		cmocka_unit_test(test_gemm_tiny),
		cmocka_unit_test(test_gemm_odd),
		cmocka_unit_test(test_gemm_known),
		cmocka_unit_test(test_gemm_check_helper),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
