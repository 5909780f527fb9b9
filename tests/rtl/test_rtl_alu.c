/*
 * test_rtl_alu.c - the verilated ALU array (rtl_models/rtl_compute.cc over vta_alu_lane.v)
 * against the C lane the simulator uses (vtasim_alu_lane / vtasim_alu_row, sim/datapath.cc),
 * bit for bit: every op on a grid of edge values and every shift amount in -40..40, random
 * rows with a source row and with immediates on every BLOCK_IN's lane, rows that alias or
 * depend on a row in flight; plus known answers worked out by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prng.h"
#include "rtl_compute_check.h"
#include "vta_insn.h"

static const int32_t k_edges[] = {
	INT32_MIN, INT32_MIN + 1, -1073741825, -1073741824, -65536, -32768, -256, -129, -128,
	-127, -3, -2, -1, 0, 1, 2, 3, 127, 128, 255, 256, 32767, 65536, 1073741823, 1073741824,
	1073741825, INT32_MAX - 1, INT32_MAX,
};
#define N_EDGES (sizeof(k_edges) / sizeof(k_edges[0]))

/* The pairs are packed into ROWS / 2 destination and ROWS / 2 source rows of the default
 * shape, one tensor uop per destination row. */
enum { ROWS = 64, HALF = ROWS / 2, LANES = 16 };

typedef struct pairs {
	int32_t a[HALF * LANES], b[HALF * LANES];
	size_t n;
} pairs;

/* Run the pairs gathered so far as op(a, b) and compare with vtasim_alu_lane. */
static void flush(rtl_cmp *m, pairs *p, int op)
{
	if (!p->n)
		return;
	int32_t row[LANES];
	rtl_uop u[HALF];
	size_t rows = (p->n + LANES - 1) / LANES;
	for (size_t r = 0; r < rows; r++) {
		for (size_t i = 0; i < LANES; i++)
			row[i] = r * LANES + i < p->n ? p->a[r * LANES + i] : 0;
		rtl_cmp_set_acc(m, (uint32_t)r, row);
		for (size_t i = 0; i < LANES; i++)
			row[i] = r * LANES + i < p->n ? p->b[r * LANES + i] : 0;
		rtl_cmp_set_acc(m, (uint32_t)(HALF + r), row);
		u[r] = (rtl_uop){(uint32_t)r, (uint32_t)(HALF + r), 0, 0};
	}
	rtl_cmp_run(m, "pairs", op, 0, 0, u, rows);
	for (size_t i = 0; i < p->n; i++) {
		int32_t want = vtasim_alu_lane((uint32_t)op, p->a[i], p->b[i]);
		if (m->acc_v[i] != want)
			fail_msg("op %d a %d b %d: RTL %d, C %d", op, p->a[i], p->b[i], m->acc_v[i],
				 want);
	}
	p->n = 0;
}

static void add_pair(rtl_cmp *m, pairs *p, int op, int32_t a, int32_t b)
{
	p->a[p->n] = a;
	p->b[p->n] = b;
	if (++p->n == HALF * LANES)
		flush(m, p, op);
}

/* Every op (and the undefined op 7, and an op beyond 3 bits) on every pair of edge values,
 * and every edge value with shift amounts -40..40 as either operand. */
static void test_alu_edges(void **state)
{
	(void)state;
	rtl_cmp m;
	rtl_cmp_init(&m, 1, 16, LANES, ROWS);
	static pairs p;
	for (int op = 0; op <= 8; op++) {
		for (size_t i = 0; i < N_EDGES; i++) {
			for (size_t j = 0; j < N_EDGES; j++)
				add_pair(&m, &p, op, k_edges[i], k_edges[j]);
			for (int32_t s = -40; s <= 40; s++) {
				add_pair(&m, &p, op, k_edges[i], s);
				add_pair(&m, &p, op, s, k_edges[i]);
			}
		}
		flush(&m, &p, op);
	}
	rtl_cmp_free(&m);
}

/* Answers worked out by hand, so the RTL is checked against the definition and not only
 * against the C code. */
static void test_alu_known(void **state)
{
	(void)state;
	static const struct {
		int op;
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
	rtl_cmp m;
	rtl_cmp_init(&m, 1, 4, 4, 2);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		/* lane 0: a op b from a source row; lane 1: the same with b as the immediate */
		int32_t a[4] = {cases[i].a, cases[i].a, 0, 0}, b[4] = {cases[i].b, 0, 0, 0};
		rtl_cmp_set_acc(&m, 0, a);
		rtl_cmp_set_acc(&m, 1, b);
		rtl_uop u = {0, 1, 0, 0};
		rtl_cmp_run(&m, "known", cases[i].op, 0, 0, &u, 1);
		if (m.acc_v[0] != cases[i].want)
			fail_msg("case %zu: op %d a %d b %d: RTL %d, expected %d", i, cases[i].op,
				 cases[i].a, cases[i].b, m.acc_v[0], cases[i].want);
		rtl_cmp_set_acc(&m, 0, a);
		rtl_cmp_run(&m, "known imm", cases[i].op, 1, cases[i].b, &u, 1);
		if (m.acc_v[1] != cases[i].want)
			fail_msg("case %zu imm: RTL %d, expected %d", i, m.acc_v[1], cases[i].want);
	}
	rtl_cmp_free(&m);
}

/* Random operand mixes (full-range pairs, small second operands as shift amounts, powers of
 * two and their neighbours as SRDHM / RSHR operands) for every op, with a source row and with
 * an immediate (16-bit like the ISA's, and full 32-bit), on a batch x 16 x 16 array. */
static void random_rows(unsigned batch, unsigned bi, unsigned bo, unsigned rounds, uint64_t seed)
{
	enum { R = 32 };
	rtl_cmp m;
	rtl_cmp_init(&m, batch, bi, bo, R);
	vta_prng r;
	vta_prng_seed(&r, seed);
	int32_t row[64];
	rtl_uop u[R / 2];
	for (int op = 0; op < 7; op++) {
		for (unsigned round = 0; round < rounds; round++) {
			for (uint32_t a = 0; a < R; a++) {
				for (size_t i = 0; i < m.lanes; i++) {
					uint64_t x = vta_prng_next(&r);
					if (a < R / 2 || round % 3 == 0)
						row[i] = (int32_t)(uint32_t)(x >> 32);
					else if (round % 3 == 1)
						row[i] = (int32_t)vta_prng_range(&r, -40, 40);
					else
						row[i] = (int32_t)(((uint32_t)1 << (x >> 59)) +
								   (uint32_t)vta_prng_range(&r, -1, 1));
				}
				rtl_cmp_set_acc(&m, a, row);
			}
			for (uint32_t i = 0; i < R / 2; i++)
				u[i] = (rtl_uop){i, R / 2 + i, 0, 0};
			rtl_cmp_run(&m, "random tensor", op, 0, 0, u, R / 2);
			int32_t imm = round % 2 ? (int32_t)vta_prng_range(&r, -32768, 32767)
						: (int32_t)(uint32_t)vta_prng_next(&r);
			rtl_cmp_run(&m, "random imm", op, 1, imm, u, R / 2);
		}
	}
	rtl_cmp_free(&m);
}

static void test_alu_random_default(void **state)
{
	(void)state;
	random_rows(1, 16, 16, 600, 20240601);
}

/* Every BLOCK_IN's ALU lane (each is built to that BLOCK_IN's depth), BATCH 1 and 2. */
static void test_alu_random_shapes(void **state)
{
	(void)state;
	static const unsigned blocks[] = {4, 8, 16, 32};
	for (unsigned batch = 1; batch <= 2; batch++)
		for (size_t i = 0; i < 4; i++)
			random_rows(batch, blocks[i], blocks[3 - i], 12, 99 + batch * 10 + i);
}

/* src == dst, and uops that read rows still in flight (the scoreboard must hold them): the
 * same rows as running the C rows one after another. */
static void test_alu_dependent(void **state)
{
	(void)state;
	rtl_cmp m;
	rtl_cmp_init(&m, 2, 8, 8, 4);
	vta_prng r;
	vta_prng_seed(&r, 5);
	int32_t row[16];
	rtl_uop u[40];
	for (int round = 0; round < 200; round++) {
		for (uint32_t a = 0; a < 4; a++) {
			for (size_t i = 0; i < m.lanes; i++)
				row[i] = (int32_t)vta_prng_range(&r, -100000, 100000);
			rtl_cmp_set_acc(&m, a, row);
		}
		for (size_t i = 0; i < 40; i++)
			u[i] = (rtl_uop){(uint32_t)vta_prng_range(&r, 0, 3),
					 (uint32_t)vta_prng_range(&r, 0, 3), 0, 0};
		int op = round % 2 ? VTA_ALU_ADD : VTA_ALU_MAX;
		rtl_cmp_run(&m, "dependent tensor", op, 0, 0, u, 40);
		rtl_cmp_run(&m, "dependent imm", VTA_ALU_ADD, 1, -7, u, 40);
	}
	rtl_cmp_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alu_edges),
		cmocka_unit_test(test_alu_known),
		cmocka_unit_test(test_alu_random_default),
		cmocka_unit_test(test_alu_random_shapes),
		cmocka_unit_test(test_alu_dependent),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
