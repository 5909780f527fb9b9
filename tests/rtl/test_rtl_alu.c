/*
 * test_rtl_alu.c - the verilated ALU lane (rtl_models/vta_alu_lane.v) against the C lane the
 * simulator uses (vtasim_alu_lane / vtasim_alu_row, sim/datapath.cc), bit for bit: every op on
 * a grid of edge values and every shift amount in -40..40, then random vectors; plus a few
 * known answers, the pipeline's one-vector-per-cycle timing and the trace file.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "datapath.h"
#include "prng.h"
#include "rtl_alu.h"
#include "rtl_check.h"
#include "vta_insn.h"

static const int32_t k_edges[] = {
	INT32_MIN, INT32_MIN + 1, -1073741825, -1073741824, -65536, -32768, -256, -129, -128,
	-127, -3, -2, -1, 0, 1, 2, 3, 127, 128, 255, 256, 32767, 65536, 1073741823, 1073741824,
	1073741825, INT32_MAX - 1, INT32_MAX,
};
#define N_EDGES (sizeof(k_edges) / sizeof(k_edges[0]))

static int setup(void **state)
{
	vta_rtl_alu *alu = NULL;
	vta_error err = {0};
	if (vta_rtl_alu_create(&alu, &err) != VTA_OK)
		return -1;
	*state = alu;
	return 0;
}

static int teardown(void **state)
{
	vta_rtl_alu_destroy(*state);
	return 0;
}

static void check_lane(vta_rtl_alu *alu, uint32_t op, int32_t a, int32_t b)
{
	int32_t want = vtasim_alu_lane(op, a, b);
	int32_t got = vta_rtl_alu_lane(alu, op, a, b);
	if (got != want)
		fail_msg("op %u a %d b %d: RTL %d, C %d", op, a, b, got, want);
}

/* Every op (and the undefined op 7) on every pair of edge values, and every edge value with
 * shift amounts -40..40 as the second operand. */
static void test_alu_edges(void **state)
{
	vta_rtl_alu *alu = *state;
	for (uint32_t op = 0; op <= 7; op++) {
		for (size_t i = 0; i < N_EDGES; i++) {
			for (size_t j = 0; j < N_EDGES; j++)
				check_lane(alu, op, k_edges[i], k_edges[j]);
			for (int32_t s = -40; s <= 40; s++) {
				check_lane(alu, op, k_edges[i], s);
				check_lane(alu, op, s, k_edges[i]);
			}
		}
	}
	/* opcodes beyond 3 bits pass a through in both models */
	check_lane(alu, 8, 5, 7);
	check_lane(alu, 0xffffffffu, -5, 7);
}

/* Answers worked out by hand, so the RTL is checked against the definition and not only
 * against the C code. */
static void test_alu_known(void **state)
{
	vta_rtl_alu *alu = *state;
	static const struct {
		uint32_t op;
		int32_t a, b, want;
	} cases[] = {
		{VTA_ALU_MIN, -5, 3, -5},
		{VTA_ALU_MAX, INT32_MIN, -1, -1},
		{VTA_ALU_ADD, INT32_MAX, 1, INT32_MIN},
		{VTA_ALU_SHR, -7, 1, -4},              /* arithmetic: floor(-3.5) */
		{VTA_ALU_SHR, INT32_MIN, 40, -1},      /* clamped to 31 */
		{VTA_ALU_SHR, 3, -2, 12},              /* negative: left shift */
		{VTA_ALU_SHR, 1, -40, INT32_MIN},      /* left shift clamped to 31 */
		{VTA_ALU_SHR, 5, INT32_MIN, INT32_MIN},/* -INT32_MIN clamps to 31 too */
		{VTA_ALU_MUL, 65536, 65536, 0},        /* low 32 bits */
		{VTA_ALU_MUL, -3, 7, -21},
		{VTA_ALU_SRDHM, INT32_MIN, INT32_MIN, INT32_MAX}, /* the saturating case */
		{VTA_ALU_SRDHM, 1073741824, 1073741824, 536870912},
		{VTA_ALU_SRDHM, 1, 1073741824, 1},     /* 0.5 rounds away from zero */
		{VTA_ALU_SRDHM, -1, 1073741824, 0},    /* -0.5: the truncation rounds half up */
		{VTA_ALU_SRDHM, -3, 1073741824, -1},   /* -1.5 -> -1 */
		{VTA_ALU_SRDHM, 3, 536870912, 1},      /* 0.75 -> 1 */
		{VTA_ALU_RSHR, 5, 1, 3},               /* 2.5 -> 3 */
		{VTA_ALU_RSHR, -5, 1, -3},             /* -2.5 -> -3 */
		{VTA_ALU_RSHR, -6, 2, -2},             /* -1.5 -> -2 */
		{VTA_ALU_RSHR, -5, 2, -1},             /* -1.25 -> -1 */
		{VTA_ALU_RSHR, 123, -4, 123},          /* exponent clamped to 0 */
		{VTA_ALU_RSHR, INT32_MAX, 40, 1},      /* exponent clamped to 31 */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int32_t got = vta_rtl_alu_lane(alu, cases[i].op, cases[i].a, cases[i].b);
		if (got != cases[i].want)
			fail_msg("case %zu: op %u a %d b %d: RTL %d, expected %d", i, cases[i].op,
				 cases[i].a, cases[i].b, got, cases[i].want);
	}
}

/* Random operand mixes: full-range pairs, small second operands (shift amounts) and
 * products near the SRDHM rounding boundary, through the row interface (src row and
 * immediate) against vtasim_alu_row. */
static void test_alu_random(void **state)
{
	vta_rtl_alu *alu = *state;
	enum { LANES = 65536, ROUNDS = 6 };
	int32_t *a = malloc(sizeof(int32_t) * LANES), *b = malloc(sizeof(int32_t) * LANES);
	int32_t *want = malloc(sizeof(int32_t) * LANES), *got = malloc(sizeof(int32_t) * LANES);
	int8_t *want8 = malloc(LANES), *got8 = malloc(LANES);
	assert_non_null(a && b && want && got && want8 && got8);
	vta_prng r;
	vta_prng_seed(&r, 20240601);
	for (uint32_t op = 0; op < 7; op++) {
		for (int round = 0; round < ROUNDS; round++) {
			for (size_t i = 0; i < LANES; i++) {
				uint64_t x = vta_prng_next(&r);
				a[i] = (int32_t)(uint32_t)x;
				switch (round % 3) {
				case 0: b[i] = (int32_t)(uint32_t)(x >> 32); break;
				case 1: b[i] = (int32_t)vta_prng_range(&r, -40, 40); break;
				default: /* powers of two and their neighbours */
					b[i] = (int32_t)(((uint32_t)1 << (x >> 59)) +
							 (uint32_t)vta_prng_range(&r, -1, 1));
					break;
				}
			}
			memcpy(want, a, sizeof(int32_t) * LANES);
			memcpy(got, a, sizeof(int32_t) * LANES);
			vtasim_alu_row(op, want, b, 0, want8, LANES);
			vta_rtl_alu_row(alu, op, got, b, 0, got8, LANES);
			long bad = rtl_first_diff_i32(want, got, LANES);
			if (bad >= 0)
				fail_msg("op %u round %d lane %ld: a %d b %d: RTL %d, C %d", op, round,
					 bad, a[bad], b[bad], got[bad], want[bad]);
			assert_memory_equal(want8, got8, LANES);

			/* immediate form */
			int32_t imm = (int32_t)vta_prng_range(&r, -32768, 32767);
			memcpy(want, a, sizeof(int32_t) * LANES);
			memcpy(got, a, sizeof(int32_t) * LANES);
			vtasim_alu_row(op, want, NULL, imm, want8, LANES);
			vta_rtl_alu_row(alu, op, got, NULL, imm, got8, LANES);
			bad = rtl_first_diff_i32(want, got, LANES);
			if (bad >= 0)
				fail_msg("op %u imm %d lane %ld: RTL %d, C %d", op, imm, bad, got[bad],
					 want[bad]);
			assert_memory_equal(want8, got8, LANES);
		}
	}
	free(a);
	free(b);
	free(want);
	free(got);
	free(want8);
	free(got8);
}

/* src == dst (ACC row with itself) and an overlapping src give the C loop's answer. */
static void test_alu_aliasing(void **state)
{
	vta_rtl_alu *alu = *state;
	int32_t want[65], got[65];
	int8_t w8[64], g8[64];
	for (int i = 0; i < 65; i++)
		want[i] = got[i] = i * 12345 - 400000;
	vtasim_alu_row(VTA_ALU_ADD, want, want, 0, w8, 64);
	vta_rtl_alu_row(alu, VTA_ALU_ADD, got, got, 0, g8, 64);
	assert_memory_equal(want, got, sizeof(want));
	vtasim_alu_row(VTA_ALU_ADD, want + 1, want, 0, w8, 64);
	vta_rtl_alu_row(alu, VTA_ALU_ADD, got + 1, got, 0, g8, 64);
	assert_memory_equal(want, got, sizeof(want));
	assert_memory_equal(w8, g8, sizeof(w8));
}

/* The lane is pipelined with one register stage: n vectors take n cycles. */
static void test_alu_timing(void **state)
{
	vta_rtl_alu *alu = *state;
	int32_t row[100] = {0};
	int8_t out[100];
	uint64_t c0 = vta_rtl_alu_cycles(alu);
	vta_rtl_alu_row(alu, VTA_ALU_ADD, row, NULL, 1, out, 100);
	assert_int_equal(vta_rtl_alu_cycles(alu) - c0, 100);
	assert_int_equal(row[99], 1);
}

static void test_alu_trace(void **state)
{
	(void)state;
	vta_rtl_alu *alu = NULL;
	vta_error err = {0};
	assert_int_equal(vta_rtl_alu_create(&alu, &err), VTA_OK);
	char path[] = "/tmp/vtasim_rtl_alu_XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(vta_rtl_alu_trace(alu, path, &err), VTA_OK);
	assert_int_equal(vta_rtl_alu_lane(alu, VTA_ALU_ADD, 2, 3), 5);
	vta_rtl_alu_destroy(alu); /* closes the file */
	assert_true(rtl_file_contains(path, "$enddefinitions"));
	assert_true(rtl_file_contains(path, "out_result"));
	unlink(path);

	/* a file that cannot be created */
	assert_int_equal(vta_rtl_alu_create(&alu, &err), VTA_OK);
	assert_int_equal(vta_rtl_alu_trace(alu, "/nonexistent-dir/x.vcd", &err), VTA_E_IO);
	assert_non_null(strstr(err.detail, "/nonexistent-dir/x.vcd: cannot open"));
	assert_int_equal(vta_rtl_alu_lane(alu, VTA_ALU_MAX, 2, 3), 3); /* still usable */
	vta_rtl_alu_destroy(alu);
	vta_rtl_alu_destroy(NULL);
}

/* The comparison helper itself finds a difference (so a mismatch cannot pass silently). */
static void test_alu_check_helper(void **state)
{
	(void)state;
	int32_t x[5] = {1, 2, 3, 4, 5}, y[5] = {1, 2, 3, 4, 5};
	assert_int_equal(rtl_first_diff_i32(x, y, 5), -1);
	y[3] = (int32_t)((uint32_t)y[3] ^ 0x80000000u);
	assert_int_equal(rtl_first_diff_i32(x, y, 5), 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_alu_edges, setup, teardown),
		cmocka_unit_test_setup_teardown(test_alu_known, setup, teardown),
		cmocka_unit_test_setup_teardown(test_alu_random, setup, teardown),
		cmocka_unit_test_setup_teardown(test_alu_aliasing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_alu_timing, setup, teardown),
		cmocka_unit_test(test_alu_trace),
		cmocka_unit_test(test_alu_check_helper),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
