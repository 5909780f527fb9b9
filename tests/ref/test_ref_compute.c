/*
 * test_ref_compute.c - GEMM and ALU in the reference executor: results against values
 * computed by hand or by plain nested loops here, the loop nest's index arithmetic, reset,
 * OUT truncation, the ACC write-after-write hazard and every GEMM/ALU diagnostic.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test_ref_util.h"

/* DRAM byte addresses used by these tests (default config element sizes). */
#define UOP_ADDR 0x0u	  /* uop elements of 4 B */
#define INP_ADDR 0x10000u /* inp elements of 16 B -> base 0x1000 */
#define WGT_ADDR 0x20000u /* wgt elements of 256 B -> base 0x200 */
#define ACC_ADDR 0x40000u /* acc elements of 64 B -> base 0x1000 */

static int8_t inp_val(uint32_t row, uint32_t k)
{
	if (row == 0 && k == 0)
		return -128;
	if (row == 0 && k == 1)
		return 127;
	return (int8_t)((int)((row * 13 + k * 7) % 256) - 128);
}

static int8_t wgt_val(uint32_t row, uint32_t o, uint32_t k)
{
	return (int8_t)((int)((row * 57 + o * 31 + k * 17) % 256) - 128);
}

/* INP rows [0, n_inp) and WGT rows [0, n_wgt) as DRAM segments. */
static void put_operands(fx *f, uint32_t n_inp, uint32_t n_wgt)
{
	uint8_t inp[16 * 16], wgt[8 * 256];
	assert_true(n_inp <= 16 && n_wgt <= 8);
	for (uint32_t r = 0; r < n_inp; r++)
		for (uint32_t k = 0; k < 16; k++)
			inp[r * 16 + k] = (uint8_t)inp_val(r, k);
	for (uint32_t r = 0; r < n_wgt; r++)
		for (uint32_t o = 0; o < 16; o++)
			for (uint32_t k = 0; k < 16; k++)
				wgt[r * 256 + o * 16 + k] = (uint8_t)wgt_val(r, o, k);
	fx_data(f, INP_ADDR, inp, 16 * n_inp);
	fx_data(f, WGT_ADDR, wgt, 256 * n_wgt);
}

static int64_t dot(uint32_t inp_row, uint32_t wgt_row, uint32_t o)
{
	int64_t s = 0;
	for (uint32_t k = 0; k < 16; k++)
		s += (int64_t)inp_val(inp_row, k) * wgt_val(wgt_row, o, k);
	return s;
}

/* Loads INP/WGT on the load module, the uops on compute, then `gemm` after the l2g token. */
static void push_gemm_program(fx *f, uint32_t n_inp, uint32_t n_wgt, uint32_t n_uops, vta_insn gemm,
			      int repeat)
{
	fx_push(f, mk_load(VTA_MEM_WGT, 0, WGT_ADDR / 256, 1, n_wgt, n_wgt));
	fx_push(f, with_deps(mk_load(VTA_MEM_INP, 0, INP_ADDR / 16, 1, n_inp, n_inp),
			     deps(false, false, false, true)));
	fx_push(f, mk_load(VTA_MEM_UOP, 0, UOP_ADDR / 4, 1, n_uops, n_uops));
	fx_push(f, with_deps(gemm, deps(true, false, false, false)));
	for (int i = 1; i < repeat; i++)
		fx_push(f, gemm);
	fx_push(f, mk_finish(NO_DEPS));
}

/* One 1x16 row times a 16x16 weight block, run twice so the second accumulates. */
static void test_gemm_single(void **state)
{
	(void)state;
	fx f;
	fx_init(&f);
	fx_start(&f);
	put_operands(&f, 1, 1);
	vta_uop uop = {.dst = 3, .src = 0, .wgt = 0};
	fx_uops(&f, UOP_ADDR, &uop, 1);
	push_gemm_program(&f, 1, 1, 1, mk_gemm(false, 0, 1, 1, 1), 2);
	fx_run_ok(&f);
	for (uint32_t o = 0; o < 16; o++) {
		int64_t want = 2 * dot(0, 0, o);
		assert_int_equal(fx_acc(&f, 3, o), want);
		assert_int_equal(fx_out(&f, 3, o), (uint8_t)(uint32_t)want);
	}
	/* untouched rows stay zero */
	assert_int_equal(fx_acc(&f, 2, 0), 0);
	assert_int_equal(fx_acc(&f, 4, 15), 0);
	const vta_ref_counters *c = vta_ref_counters_get(f.ref);
	assert_int_equal(c->gemm_uops, 2);
	assert_int_equal(c->insns[VTA_MODULE_LOAD], 2);
	assert_int_equal(c->insns[VTA_MODULE_COMPUTE], 4);
	assert_int_equal(c->load_bytes[VTA_MEM_INP], 16);
	assert_int_equal(c->load_bytes[VTA_MEM_WGT], 256);
	assert_int_equal(c->load_bytes[VTA_MEM_UOP], 4);
	fx_free(&f);
}

/* The two-level loop with every factor in use, against the index formula spelled out. */
static void test_gemm_loop_nest(void **state)
{
	(void)state;
	fx f;
	fx_init(&f);
	fx_start(&f);
	put_operands(&f, 8, 4);
	vta_uop uops[2] = {{.dst = 0, .src = 0, .wgt = 0}, {.dst = 1, .src = 1, .wgt = 1}};
	fx_uops(&f, UOP_ADDR, uops, 2);
	const uint32_t iter_out = 2, iter_in = 3;
	const uint32_t dfo = 6, dfi = 2, sfo = 3, sfi = 1, wfo = 2, wfi = 0;
	vta_insn g =
		mk_factors(mk_gemm(false, 0, 2, iter_out, iter_in), dfo, dfi, sfo, sfi, wfo, wfi);
	push_gemm_program(&f, 8, 4, 2, g, 1);
	fx_run_ok(&f);

	int64_t want[16][16];
	memset(want, 0, sizeof(want));
	for (uint32_t o = 0; o < iter_out; o++)
		for (uint32_t i = 0; i < iter_in; i++)
			for (uint32_t u = 0; u < 2; u++) {
				uint32_t a = uops[u].dst + o * dfo + i * dfi;
				uint32_t s = uops[u].src + o * sfo + i * sfi;
				uint32_t w = uops[u].wgt + o * wfo + i * wfi;
				for (uint32_t lane = 0; lane < 16; lane++)
					want[a][lane] += dot(s, w, lane);
			}
	for (uint32_t row = 0; row < 16; row++)
		for (uint32_t lane = 0; lane < 16; lane++)
			assert_int_equal(fx_acc(&f, row, lane), want[row][lane]);
	assert_int_equal(vta_ref_counters_get(f.ref)->gemm_uops, 12);
	fx_free(&f);
}

/* ACC is int32 with wrap-around; OUT keeps the low 8 bits. */
static void test_gemm_wraps(void **state)
{
	(void)state;
	fx f;
	fx_init(&f);
	fx_start(&f);
	uint8_t inp[16], wgt[256];
	memset(inp, 127, sizeof(inp));
	memset(wgt, 127, sizeof(wgt));
	fx_data(&f, INP_ADDR, inp, sizeof(inp));
	fx_data(&f, WGT_ADDR, wgt, sizeof(wgt));
	int32_t acc[16];
	for (int i = 0; i < 16; i++)
		acc[i] = INT32_MAX - i;
	fx_data32(&f, ACC_ADDR, acc, 16);
	vta_uop uop = {0, 0, 0};
	fx_uops(&f, UOP_ADDR, &uop, 1);
	fx_push(&f, mk_load(VTA_MEM_ACC, 0, ACC_ADDR / 64, 1, 1, 1));
	push_gemm_program(&f, 1, 1, 1, mk_gemm(false, 0, 1, 1, 1), 1);
	fx_run_ok(&f);
	for (uint32_t o = 0; o < 16; o++) {
		uint32_t want = (uint32_t)(INT32_MAX - (int32_t)o) + 16u * 127u * 127u;
		assert_int_equal((uint32_t)fx_acc(&f, 0, o), want);
		assert_true(fx_acc(&f, 0, o) < 0);
		assert_int_equal(fx_out(&f, 0, o), want & 0xff);
	}
	fx_free(&f);
}

/* A GEMM reset zeroes the addressed ACC rows and their OUT rows; an ALU with the reset bit
 * runs its op (every VTA ignores the bit). */
static void test_reset(void **state)
{
	(void)state;
	for (int alu = 0; alu < 2; alu++) {
		fx f;
		fx_init(&f);
		fx_start(&f);
		int32_t acc[4 * 16];
		for (int i = 0; i < 4 * 16; i++)
			acc[i] = 1000 + i;
		fx_data32(&f, ACC_ADDR, acc, 4 * 16);
		vta_uop uops[2] = {{.dst = 0, .src = 0, .wgt = 0}, {.dst = 1, .src = 0, .wgt = 0}};
		fx_uops(&f, UOP_ADDR, uops, 2);
		fx_push(&f, mk_load(VTA_MEM_UOP, 0, UOP_ADDR / 4, 1, 2, 2));
		fx_push(&f, mk_load(VTA_MEM_ACC, 0, ACC_ADDR / 64, 1, 4, 4));
		/* SHR by 0 copies ACC rows 0..3 into OUT, so the reset is seen clearing OUT */
		vta_insn copy = mk_alu(VTA_ALU_SHR, true, 0, 0, 1, 1, 4);
		copy.loop.dst_factor_in = 1;
		fx_push(&f, copy);
		vta_insn reset =
			alu ? mk_alu(VTA_ALU_ADD, false, 0, 1, 2, 2, 1) : mk_gemm(true, 1, 2, 2, 1);
		reset.loop.reset = true;
		reset.loop.dst_factor_out = 1; /* rows 1 and 2 */
		fx_push(&f, reset);
		fx_push(&f, mk_finish(NO_DEPS));
		fx_run_ok(&f);
		for (uint32_t lane = 0; lane < 16; lane++) {
			/* GEMM: rows 1 and 2 zeroed; ALU: its reset bit is ignored (as in VTA),
			 * so rows 1 and 2 get row 0 added */
			const int32_t r1 = alu ? 2016 + 2 * (int)lane : 0;
			const int32_t r2 = alu ? 2032 + 2 * (int)lane : 0;
			assert_int_equal(fx_acc(&f, 0, lane), 1000 + (int)lane);
			assert_int_equal(fx_out(&f, 0, lane), (1000 + lane) & 0xff);
			assert_int_equal(fx_acc(&f, 1, lane), r1);
			assert_int_equal(fx_out(&f, 1, lane), (uint32_t)r1 & 0xff);
			assert_int_equal(fx_acc(&f, 2, lane), r2);
			assert_int_equal(fx_out(&f, 2, lane), (uint32_t)r2 & 0xff);
			assert_int_equal(fx_acc(&f, 3, lane), 1000 + 48 + (int)lane);
			assert_int_equal(fx_out(&f, 3, lane), (1000 + 48 + lane) & 0xff);
		}
		const vta_ref_counters *c = vta_ref_counters_get(f.ref);
		assert_int_equal(c->alu_uops, alu ? 6 : 4);
		assert_int_equal(c->gemm_uops, alu ? 0 : 2);
		fx_free(&f);
	}
}

/* ---------- ALU ---------- */

typedef struct alu_case {
	int32_t a, b, want;
} alu_case;

/* Lane l of ACC row 0 holds cases[l % n].a, row 1 holds .b; one ALU uop dst 0 src 1. */
static void check_alu(vta_alu_op op, const alu_case *cases, size_t n, bool use_imm, int32_t imm,
		      bool tflite_ext)
{
	fx f;
	fx_init(&f);
	f.cfg.alu_tflite_ext = tflite_ext;
	fx_start(&f);
	int32_t rows[32];
	for (int l = 0; l < 16; l++) {
		rows[l] = cases[l % n].a;
		rows[16 + l] = cases[l % n].b;
	}
	fx_data32(&f, ACC_ADDR, rows, 32);
	vta_uop uop = {.dst = 0, .src = 1, .wgt = 0};
	fx_uops(&f, UOP_ADDR, &uop, 1);
	fx_push(&f, mk_load(VTA_MEM_UOP, 0, UOP_ADDR / 4, 1, 1, 1));
	fx_push(&f, mk_load(VTA_MEM_ACC, 0, ACC_ADDR / 64, 1, 2, 2));
	fx_push(&f, mk_alu(op, use_imm, imm, 0, 1, 1, 1));
	fx_push(&f, mk_finish(NO_DEPS));
	fx_run_ok(&f);
	for (uint32_t l = 0; l < 16; l++) {
		const alu_case *c = &cases[l % n];
		if (fx_acc(&f, 0, l) != c->want)
			fail_msg("%s lane %u: op(%d, %d) = %d, want %d", vta_alu_op_name(op), l,
				 c->a, use_imm ? imm : c->b, fx_acc(&f, 0, l), c->want);
		assert_int_equal(fx_out(&f, 0, l), (uint8_t)(uint32_t)c->want);
		assert_int_equal(fx_acc(&f, 1, l), c->b); /* src untouched */
	}
	assert_int_equal(vta_ref_counters_get(f.ref)->alu_uops, 1);
	fx_free(&f);
}

#define CHECK_ALU(op, cases, ext)                                                                  \
	check_alu(op, cases, sizeof(cases) / sizeof(cases[0]), false, 0, ext)

static void test_alu_min_max_add(void **state)
{
	(void)state;
	const alu_case min[] = {
		{5, 2, 2}, {-3, -4, -4}, {INT32_MIN, 0, INT32_MIN}, {7, 7, 7}, {INT32_MAX, -1, -1}};
	const alu_case max[] = {
		{5, 2, 5}, {-3, -4, -3}, {INT32_MIN, 0, 0}, {7, 7, 7}, {INT32_MAX, -1, INT32_MAX}};
	const alu_case add[] = {{INT32_MAX, 1, INT32_MIN},
				{-5, 3, -2},
				{INT32_MIN, -1, INT32_MAX},
				{300, 200, 500}};
	CHECK_ALU(VTA_ALU_MIN, min, false);
	CHECK_ALU(VTA_ALU_MAX, max, false);
	CHECK_ALU(VTA_ALU_ADD, add, false);
}

static void test_alu_shr(void **state)
{
	(void)state;
	const alu_case shr[] = {
		{-8, 1, -4},
		{-7, 1, -4},		     /* arithmetic: rounds toward -inf */
		{1, -4, 16},		     /* negative amount shifts left */
		{0x40000000, -1, INT32_MIN}, /* low 32 bits of the left shift */
		{5, 40, 0},		     /* right amounts clamp to 31 */
		{-5, 40, -1},
		{1, -40, INT32_MIN}, /* left amounts clamp to 31 */
		{3, -31, INT32_MIN},
		{INT32_MIN, INT32_MIN, 0}, /* -INT32_MIN does not overflow */
		{0x12345678, 0, 0x12345678},
		{INT32_MIN, 31, -1},
		{INT32_MAX, 30, 1},
	};
	CHECK_ALU(VTA_ALU_SHR, shr, false);
}

static void test_alu_mul(void **state)
{
	(void)state;
	const alu_case mul[] = {
		{65536, 65536, 0}, /* 2^32 wraps to 0 */
		{0x10001, 0x10001, 0x20001}, {-3, 7, -21},
		{INT32_MIN, -1, INT32_MIN},  {46341, 46341, -2147479015}, /* 2147488281 - 2^32 */
	};
	CHECK_ALU(VTA_ALU_MUL, mul, false);
}

static void test_alu_srdhm(void **state)
{
	(void)state;
	const alu_case srdhm[] = {
		{INT32_MIN, INT32_MIN, INT32_MAX}, /* the one saturating case */
		{INT32_MAX, INT32_MAX, INT32_MAX - 1},
		{1 << 30, 1 << 30, 1 << 29},
		{-(1 << 30), 1 << 30, -(1 << 29)},
		{3, 1 << 30, 2},   /* +1.5 rounds up */
		{-3, 1 << 30, -1}, /* -1.5 rounds up too (toward +inf) */
		{-1, 1 << 30, 0},  /* -0.5 -> 0 */
		{INT32_MIN, 1 << 30, -(1 << 30)},
		{0, INT32_MIN, 0},
	};
	CHECK_ALU(VTA_ALU_SRDHM, srdhm, true);
}

static void test_alu_rshr(void **state)
{
	(void)state;
	const alu_case rshr[] =
		{
			{-5, 1, -3}, /* half away from zero */
			{5, 1, 3},	     {-4, 1, -2},	 {6, 2, 2},   {-6, 2, -2},
			{INT32_MIN, 31, -1}, {INT32_MAX, 31, 1}, {-1, 31, 0}, {7, 0, 7},
			{7, -3, 7}, /* negative amounts clamp to 0 */
			{7, 40, 0}, /* large amounts clamp to 31 */
			{-7, 40, 0},
		};
	CHECK_ALU(VTA_ALU_RSHR, rshr, true);
}

/* The 16-bit immediate is sign-extended. */
static void test_alu_immediate(void **state)
{
	(void)state;
	const alu_case shl3[] = {{5, 0, 40}, {-9, 0, -72}};
	check_alu(VTA_ALU_SHR, shl3, 2, true, -3, false);
	const alu_case shr2[] = {{-9, 0, -3}, {9, 0, 2}};
	check_alu(VTA_ALU_SHR, shr2, 2, true, 2, false);
	const alu_case min[] = {{0, 0, -32768}, {-40000, 0, -40000}};
	check_alu(VTA_ALU_MIN, min, 2, true, -32768, false);
	const alu_case add[] = {{10, 0, 9}, {INT32_MIN, 0, INT32_MAX}};
	check_alu(VTA_ALU_ADD, add, 2, true, -1, false);
	const alu_case mul[] = {{3, 0, -98301}, {-1, 0, 32767}};
	check_alu(VTA_ALU_MUL, mul, 2, true, -32767, false);
}

/* ALU tensor-tensor with src factors: row r (r = 0..3) += row 8 + it_in. */
static void test_alu_loop(void **state)
{
	(void)state;
	fx f;
	fx_init(&f);
	fx_start(&f);
	int32_t rows[12 * 16];
	for (int i = 0; i < 12 * 16; i++)
		rows[i] = i * 3 - 100;
	fx_data32(&f, ACC_ADDR, rows, 12 * 16);
	vta_uop uop = {.dst = 0, .src = 8, .wgt = 0};
	fx_uops(&f, UOP_ADDR, &uop, 1);
	fx_push(&f, mk_load(VTA_MEM_UOP, 0, UOP_ADDR / 4, 1, 1, 1));
	fx_push(&f, mk_load(VTA_MEM_ACC, 0, ACC_ADDR / 64, 1, 12, 12));
	vta_insn add = mk_alu(VTA_ALU_ADD, false, 0, 0, 1, 2, 2);
	add.loop.dst_factor_out = 2;
	add.loop.dst_factor_in = 1;
	add.loop.src_factor_in = 1;
	fx_push(&f, add);
	fx_push(&f, mk_finish(NO_DEPS));
	fx_run_ok(&f);
	for (uint32_t r = 0; r < 4; r++)
		for (uint32_t l = 0; l < 16; l++)
			assert_int_equal(fx_acc(&f, r, l),
					 rows[r * 16 + l] + rows[(8 + r % 2) * 16 + l]);
	fx_free(&f);
}

/* ---------- hazards ---------- */

/* One GEMM over uops whose dsts are given, iterated iter_in times with dst_factor_in dfi. */
static vta_status run_dsts(fx *f, uint32_t distance, const uint32_t *dsts, size_t n,
			   uint32_t iter_in, uint32_t dfi, bool reset)
{
	fx_init(f);
	f->cfg.acc_dep_distance = distance;
	fx_start(f);
	vta_uop uops[8];
	for (size_t i = 0; i < n; i++)
		uops[i] = (vta_uop){.dst = dsts[i], .src = 0, .wgt = 0};
	fx_uops(f, UOP_ADDR, uops, n);
	fx_push(f, mk_load(VTA_MEM_UOP, 0, UOP_ADDR / 4, 1, (uint32_t)n, (uint32_t)n));
	vta_insn g = mk_gemm(reset, 0, (uint32_t)n, 1, iter_in);
	g.loop.dst_factor_in = dfi;
	fx_push(f, g);
	fx_push(f, mk_finish(NO_DEPS));
	return fx_run(f);
}

static void test_hazard(void **state)
{
	(void)state;
	fx f;
	/* distance 2: dst 0, 1, 0 writes row 0 again 2 uops later */
	const uint32_t d010[] = {0, 1, 0};
	const char *const n1[] = {"insn 1 (",
				  "ACC row 0 written again 2 uops after the previous "
				  "write (distance 2)",
				  "uop 2", NULL};
	assert_int_equal(run_dsts(&f, 2, d010, 3, 1, 0, false), VTA_E_HAZARD);
	assert_null(strchr(f.err.detail, '\n'));
	for (const char *const *p = n1; *p; p++)
		assert_non_null(strstr(f.err.detail, *p));
	fx_free(&f);
	/* ... which distance 1 allows, and distance 0 disables the check altogether */
	assert_int_equal(run_dsts(&f, 1, d010, 3, 1, 0, false), VTA_OK);
	fx_free(&f);
	const uint32_t d00[] = {5, 5};
	assert_int_equal(run_dsts(&f, 0, d00, 2, 1, 0, false), VTA_OK);
	fx_free(&f);
	assert_int_equal(run_dsts(&f, 1, d00, 2, 1, 0, false), VTA_E_HAZARD);
	assert_non_null(strstr(f.err.detail, "ACC row 5 written again 1 uops"));
	fx_free(&f);
	/* three uops between two writes is fine at distance 2 */
	const uint32_t d0120[] = {0, 1, 2, 0};
	assert_int_equal(run_dsts(&f, 2, d0120, 4, 1, 0, false), VTA_OK);
	fx_free(&f);
	/* the check spans loop iterations: a single uop with dst_factor_in 0 */
	const uint32_t d7[] = {7};
	assert_int_equal(run_dsts(&f, 2, d7, 1, 2, 0, false), VTA_E_HAZARD);
	assert_non_null(strstr(f.err.detail, "it_in 1"));
	fx_free(&f);
	assert_int_equal(run_dsts(&f, 2, d7, 1, 2, 1, false), VTA_OK);
	fx_free(&f);
	/* reset uops are writes */
	assert_int_equal(run_dsts(&f, 2, d7, 1, 3, 0, true), VTA_E_HAZARD);
	fx_free(&f);
	/* across loop iterations with two uops: 3 4 | 3 4 is 2 apart */
	const uint32_t d34[] = {3, 4};
	assert_int_equal(run_dsts(&f, 2, d34, 2, 2, 0, false), VTA_E_HAZARD);
	fx_free(&f);
	assert_int_equal(run_dsts(&f, 1, d34, 2, 2, 0, false), VTA_OK);
	fx_free(&f);
}

/* Writes by separate instructions never conflict. */
static void test_hazard_not_across_insns(void **state)
{
	(void)state;
	fx f;
	fx_init(&f);
	fx_start(&f);
	vta_uop uop = {.dst = 0, .src = 0, .wgt = 0};
	fx_uops(&f, UOP_ADDR, &uop, 1);
	fx_push(&f, mk_load(VTA_MEM_UOP, 0, UOP_ADDR / 4, 1, 1, 1));
	fx_push(&f, mk_gemm(false, 0, 1, 1, 1));
	fx_push(&f, mk_gemm(false, 0, 1, 1, 1));
	fx_push(&f, mk_finish(NO_DEPS));
	fx_run_ok(&f);
	fx_free(&f);
}

/* ---------- diagnostics ---------- */

static void test_alu_features(void **state)
{
	(void)state;
	struct {
		vta_alu_op op;
		bool mul, ext;
		const char *needle;
	} cases[] = {
		{VTA_ALU_MUL, false, true, "ALU mul needs alu.mul in the config"},
		{VTA_ALU_SRDHM, true, false, "ALU srdhm needs alu.tflite_ext in the config"},
		{VTA_ALU_RSHR, true, false, "ALU rshr needs alu.tflite_ext in the config"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (int reset = 0; reset < 2; reset++) {
			fx f;
			fx_init(&f);
			f.cfg.alu_mul = cases[i].mul;
			f.cfg.alu_tflite_ext = cases[i].ext;
			fx_start(&f);
			vta_uop uop = {0, 0, 0};
			fx_uops(&f, UOP_ADDR, &uop, 1);
			fx_push(&f, mk_load(VTA_MEM_UOP, 0, UOP_ADDR / 4, 1, 1, 1));
			vta_insn alu = mk_alu(cases[i].op, true, 1, 0, 1, 1, 1);
			alu.loop.reset = reset;
			fx_push(&f, alu);
			fx_push(&f, mk_finish(NO_DEPS));
			const char *const needles[] = {"insn 1 (", cases[i].needle, NULL};
			fx_run_fails(&f, VTA_E_UNSUPPORTED, needles);
			assert_int_equal(vta_ref_counters_get(f.ref)->alu_uops, 0);
			fx_free(&f);
		}
	}
}

/* A GEMM whose loop leaves an SRAM: each of acc, inp and wgt. */
static void test_gemm_index_oob(void **state)
{
	(void)state;
	fx f;
	fx_init(&f);
	uint32_t depth_acc = f.cfg.sram[VTA_MEM_ACC].depth,
		 depth_inp = f.cfg.sram[VTA_MEM_INP].depth;
	uint32_t depth_wgt = f.cfg.sram[VTA_MEM_WGT].depth;
	struct {
		vta_uop uop;
		uint32_t dfo, sfo, wfo;
		const char *needle;
	} cases[] = {
		{{.dst = depth_acc - 1, .src = 0, .wgt = 0},
		 1,
		 0,
		 0,
		 "acc index 2048 beyond depth 2048"},
		{{.dst = 0, .src = depth_inp - 1, .wgt = 0},
		 1,
		 1,
		 0,
		 "inp index 2048 beyond depth 2048"},
		{{.dst = 0, .src = 0, .wgt = depth_wgt - 1},
		 1,
		 0,
		 1,
		 "wgt index 1024 beyond depth 1024"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fx_init(&f);
		fx_start(&f);
		fx_uops(&f, UOP_ADDR, &cases[i].uop, 1);
		fx_push(&f, mk_load(VTA_MEM_UOP, 0, UOP_ADDR / 4, 1, 1, 1));
		fx_push(&f, mk_factors(mk_gemm(false, 0, 1, 2, 1), cases[i].dfo, 0, cases[i].sfo, 0,
				       cases[i].wfo, 0));
		fx_push(&f, mk_finish(NO_DEPS));
		const char *const needles[] = {"insn 1 (", "uop 0 (it_out 1, it_in 0)",
					       cases[i].needle, NULL};
		fx_run_fails(&f, VTA_E_OOB, needles);
		/* the first iteration ran, the failing one did not */
		assert_int_equal(vta_ref_counters_get(f.ref)->gemm_uops, 1);
		fx_free(&f);
	}
	/* a reset reads no INP/WGT, so only dst is checked */
	fx_init(&f);
	fx_start(&f);
	vta_uop uop = {.dst = 0, .src = depth_inp - 1, .wgt = depth_wgt - 1};
	fx_uops(&f, UOP_ADDR, &uop, 1);
	fx_push(&f, mk_load(VTA_MEM_UOP, 0, UOP_ADDR / 4, 1, 1, 1));
	fx_push(&f, mk_factors(mk_gemm(true, 0, 1, 2, 1), 1, 0, 1, 0, 1, 0));
	fx_push(&f, mk_finish(NO_DEPS));
	fx_run_ok(&f);
	fx_free(&f);
}

/* ALU src indexes ACC; with an immediate it is not read. */
static void test_alu_index_oob(void **state)
{
	(void)state;
	for (int imm = 0; imm < 2; imm++) {
		fx f;
		fx_init(&f);
		fx_start(&f);
		vta_uop uop = {.dst = 0, .src = f.cfg.sram[VTA_MEM_ACC].depth - 1, .wgt = 0};
		fx_uops(&f, UOP_ADDR, &uop, 1);
		fx_push(&f, mk_load(VTA_MEM_UOP, 0, UOP_ADDR / 4, 1, 1, 1));
		vta_insn alu = mk_alu(VTA_ALU_ADD, imm, 1, 0, 1, 1, 2);
		alu.loop.dst_factor_in = 1;
		alu.loop.src_factor_in = 1;
		fx_push(&f, alu);
		fx_push(&f, mk_finish(NO_DEPS));
		if (imm) {
			fx_run_ok(&f);
		} else {
			const char *const needles[] = {"uop 0 (it_out 0, it_in 1)",
						       "src acc index 2048 beyond depth 2048",
						       NULL};
			fx_run_fails(&f, VTA_E_OOB, needles);
		}
		fx_free(&f);
	}
}

static void test_uop_range(void **state)
{
	(void)state;
	fx f;
	fx_init(&f);
	fx_start(&f);
	fx_push(&f, mk_gemm(false, 0, f.cfg.sram[VTA_MEM_UOP].depth + 1, 1, 1));
	fx_push(&f, mk_finish(NO_DEPS));
	const char *const n1[] = {"insn 0 (", "uop range [0, 8193) beyond UOP depth 8192", NULL};
	fx_run_fails(&f, VTA_E_OOB, n1);
	fx_free(&f);

	fx_init(&f);
	fx_start(&f);
	fx_push(&f, mk_alu(VTA_ALU_ADD, true, 0, 5, 4, 1, 1));
	fx_push(&f, mk_finish(NO_DEPS));
	const char *const n2[] = {"insn 0 (", "uop_bgn 5 is after uop_end 4", NULL};
	fx_run_fails(&f, VTA_E_STREAM, n2);
	fx_free(&f);

	/* an empty range and zero iterations do nothing */
	fx_init(&f);
	fx_start(&f);
	fx_push(&f, mk_gemm(false, 3, 3, 5, 5));
	fx_push(&f, mk_gemm(false, 0, 8, 0, 5));
	fx_push(&f, mk_finish(NO_DEPS));
	fx_run_ok(&f);
	assert_int_equal(vta_ref_counters_get(f.ref)->gemm_uops, 0);
	fx_free(&f);
}

/* A UOP SRAM word with bits outside the uop fields set (uops are 31 bits here). */
static void test_malformed_uop(void **state)
{
	(void)state;
	fx f;
	fx_init(&f);
	f.cfg.sram[VTA_MEM_ACC].kib = 64; /* acc depth 1024: dst 10 + src 11 + wgt 10 bits */
	fx_start(&f);
	assert_int_equal(f.cfg.fw.uop_bits, 31);
	const uint8_t bad[8] = {0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff};
	fx_data(&f, UOP_ADDR, bad, sizeof(bad));
	fx_push(&f, mk_load(VTA_MEM_UOP, 0, UOP_ADDR / 4, 1, 2, 2));
	fx_push(&f, mk_gemm(false, 0, 2, 1, 1));
	fx_push(&f, mk_finish(NO_DEPS));
	const char *const needles[] = {"insn 1 (", "uop 1: ", NULL};
	fx_run_fails(&f, VTA_E_STREAM, needles);
	assert_int_equal(vta_ref_counters_get(f.ref)->gemm_uops, 1);
	fx_free(&f);
}

/* A GEMM far beyond the cycle budget fails at once instead of running for days. */
static void test_cycle_budget(void **state)
{
	(void)state;
	fx f;
	fx_init(&f);
	fx_start(&f);
	vta_insn g = mk_gemm(false, 0, f.cfg.sram[VTA_MEM_UOP].depth, 16383, 16383);
	fx_push(&f, g);
	fx_push(&f, mk_finish(NO_DEPS));
	const char *const n1[] = {"insn 0 (", "cycle budget", NULL};
	fx_run_fails(&f, VTA_E_NO_FINISH, n1);
	fx_free(&f);

	/* exactly at the budget is fine, one uop more is not; ii and earlier insns count */
	for (uint32_t extra = 0; extra < 2; extra++) {
		fx_init(&f);
		f.cfg.cycle_budget = 30;
		f.cfg.alu_imm_ii = 2;
		fx_start(&f);
		vta_uop uop = {0, 0, 0};
		fx_uops(&f, UOP_ADDR, &uop, 1);
		fx_push(&f, mk_load(VTA_MEM_UOP, 0, UOP_ADDR / 4, 1, 1, 1));
		vta_insn gemm = mk_gemm(false, 0, 1, 10, 1);
		gemm.loop.dst_factor_out = 1;
		fx_push(&f, gemm); /* 10 cycles */
		vta_insn alu = mk_alu(VTA_ALU_ADD, true, 1, 0, 1, 10 + extra, 1);
		alu.loop.dst_factor_out = 1;
		fx_push(&f, alu); /* 20 or 22 cycles */
		fx_push(&f, mk_finish(NO_DEPS));
		if (extra) {
			const char *const n2[] = {"insn 2 (", "cycle budget of 30", NULL};
			fx_run_fails(&f, VTA_E_NO_FINISH, n2);
		} else {
			fx_run_ok(&f);
		}
		fx_free(&f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gemm_single),
		cmocka_unit_test(test_gemm_loop_nest),
		cmocka_unit_test(test_gemm_wraps),
		cmocka_unit_test(test_reset),
		cmocka_unit_test(test_alu_min_max_add),
		cmocka_unit_test(test_alu_shr),
		cmocka_unit_test(test_alu_mul),
		cmocka_unit_test(test_alu_srdhm),
		cmocka_unit_test(test_alu_rshr),
		cmocka_unit_test(test_alu_immediate),
		cmocka_unit_test(test_alu_loop),
		cmocka_unit_test(test_hazard),
		cmocka_unit_test(test_hazard_not_across_insns),
		cmocka_unit_test(test_alu_features),
		cmocka_unit_test(test_gemm_index_oob),
		cmocka_unit_test(test_alu_index_oob),
		cmocka_unit_test(test_uop_range),
		cmocka_unit_test(test_malformed_uop),
		cmocka_unit_test(test_cycle_budget),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
