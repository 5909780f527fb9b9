/*
 * test_ref_memory.c - LOAD and STORE in the reference executor: 2D strided and padded loads
 * of every memory type, ACC_8BIT sign extension, STORE truncation and geometry, NOPs, and
 * every memory diagnostic (illegal memory type, padding, SRAM and DRAM out of bounds).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "test_ref_util.h"

#define UOP_ADDR 0x0u
#define INP_ADDR 0x10000u  /* 16 B elements -> base 0x1000 */
#define FILL_ADDR 0x18000u /* 16 B elements -> base 0x1800 */
#define ACC8_ADDR 0x30000u /* 16 B elements -> base 0x3000 */
#define ACC_ADDR 0x40000u  /* 64 B elements -> base 0x1000 */
#define OUT_ADDR 0x80000u  /* 16 B elements -> base 0x8000 */

static const vta_deps PUSH_NEXT = {false, false, false, true};
static const vta_deps POP_PREV = {true, false, false, false};

static const uint8_t *sram(const fx *f, vta_mem mem)
{
	size_t size = 0;
	const uint8_t *p = vta_ref_sram(f->ref, mem, &size);
	assert_non_null(p);
	assert_int_equal(
		size, (size_t)vta_config_sram_depth(&f->cfg, mem) *
			      (mem == VTA_MEM_UOP ? 4 : vta_config_dram_elem_bytes(&f->cfg, mem)));
	return p;
}

/* Byte k of INP element (r, c) of a 4-wide DRAM matrix. */
static uint8_t mat(uint32_t r, uint32_t c, uint32_t k)
{
	return (uint8_t)(r * 40 + c * 10 + k + 1);
}

static void test_load_padded_inp(void **state)
{
	(void)state;
	fx f;
	fx_init(&f);
	fx_start(&f);
	uint8_t m[5 * 4 * 16];
	for (uint32_t r = 0; r < 5; r++)
		for (uint32_t c = 0; c < 4; c++)
			for (uint32_t k = 0; k < 16; k++)
				m[(r * 4 + c) * 16 + k] = mat(r, c, k);
	fx_data(&f, INP_ADDR, m, sizeof(m));
	uint8_t fill[40 * 16];
	memset(fill, 0xee, sizeof(fill));
	fx_data(&f, FILL_ADDR, fill, sizeof(fill));
	/* fill rows 0..39 so the padding is seen writing zeros */
	fx_push(&f, mk_load(VTA_MEM_INP, 0, FILL_ADDR / 16, 1, 40, 40));
	/* 3 x 2 tile at (1, 1), pads: 1 row above, 2 below, 1 column either side */
	vta_insn pad =
		mk_pad(mk_load(VTA_MEM_INP, 5, INP_ADDR / 16 + 1 * 4 + 1, 3, 2, 4), 1, 2, 1, 1);
	fx_push(&f, with_deps(pad, PUSH_NEXT));
	fx_push(&f, mk_finish(POP_PREV));
	fx_run_ok(&f);

	const uint8_t *inp = sram(&f, VTA_MEM_INP);
	for (uint32_t row = 0; row < 40; row++) {
		for (uint32_t k = 0; k < 16; k++) {
			uint8_t want = 0xee;
			if (row >= 5 && row < 5 + 24) {
				uint32_t y = (row - 5) / 4, x = (row - 5) % 4;
				want = 0;
				if (y >= 1 && y <= 3 && x >= 1 && x <= 2)
					want = mat(1 + (y - 1), 1 + (x - 1), k);
			}
			if (inp[row * 16 + k] != want)
				fail_msg("inp row %u byte %u: %u, want %u", row, k,
					 inp[row * 16 + k], want);
		}
	}
	/* padding is not DRAM traffic */
	assert_int_equal(vta_ref_counters_get(f.ref)->load_bytes[VTA_MEM_INP], 40 * 16 + 6 * 16);
	fx_free(&f);
}

/* x_stride < x_size: DRAM rows overlap, which is allowed. */
static void test_load_overlapping_rows(void **state)
{
	(void)state;
	fx f;
	fx_init(&f);
	fx_start(&f);
	uint8_t m[4 * 16];
	for (uint32_t i = 0; i < sizeof(m); i++)
		m[i] = (uint8_t)(i / 16 + 1);
	fx_data(&f, INP_ADDR, m, sizeof(m));
	fx_push(&f, with_deps(mk_load(VTA_MEM_INP, 0, INP_ADDR / 16, 3, 2, 1), PUSH_NEXT));
	fx_push(&f, mk_finish(POP_PREV));
	fx_run_ok(&f);
	const uint8_t *inp = sram(&f, VTA_MEM_INP);
	const uint8_t want[6] = {1, 2, 2, 3, 3, 4};
	for (int e = 0; e < 6; e++)
		assert_int_equal(inp[e * 16 + 7], want[e]);
	assert_int_equal(inp[6 * 16], 0);
	fx_free(&f);
}

/* ACC loads pad too; they do not write OUT. */
static void test_load_padded_acc(void **state)
{
	(void)state;
	fx f;
	fx_init(&f);
	fx_start(&f);
	int32_t v[2 * 16];
	for (int i = 0; i < 32; i++)
		v[i] = -1000000 * (i + 1);
	fx_data32(&f, ACC_ADDR, v, 32);
	fx_push(&f, mk_pad(mk_load(VTA_MEM_ACC, 1, ACC_ADDR / 64, 1, 2, 2), 0, 1, 2, 0));
	fx_push(&f, mk_finish(NO_DEPS));
	fx_run_ok(&f);
	/* W = 4, rows = 2: elements 1..8: 0, 0, v0, v1, then a zero row */
	for (uint32_t l = 0; l < 16; l++) {
		assert_int_equal(fx_acc(&f, 1, l), 0);
		assert_int_equal(fx_acc(&f, 2, l), 0);
		assert_int_equal(fx_acc(&f, 3, l), v[l]);
		assert_int_equal(fx_acc(&f, 4, l), v[16 + l]);
		for (uint32_t r = 5; r < 9; r++)
			assert_int_equal(fx_acc(&f, r, l), 0);
		for (uint32_t r = 0; r < 9; r++)
			assert_int_equal(fx_out(&f, r, l), 0);
	}
	assert_int_equal(vta_ref_counters_get(f.ref)->load_bytes[VTA_MEM_ACC], 128);
	fx_free(&f);
}

/* ACC_8BIT: int8 DRAM lanes sign-extended into int32 ACC lanes. */
static void test_load_acc8(void **state)
{
	(void)state;
	fx f;
	fx_init(&f);
	fx_start(&f);
	assert_int_equal(vta_config_dram_elem_bytes(&f.cfg, VTA_MEM_ACC_8BIT), 16);
	const int8_t vals[8] = {-128, -1, 0, 1, 127, -2, 64, -65};
	uint8_t m[32];
	for (int i = 0; i < 32; i++)
		m[i] = (uint8_t)vals[(i * 3) % 8];
	fx_data(&f, ACC8_ADDR, m, sizeof(m));
	fx_push(&f, mk_pad(mk_load(VTA_MEM_ACC_8BIT, 2, ACC8_ADDR / 16, 1, 2, 2), 0, 0, 1, 0));
	fx_push(&f, mk_finish(NO_DEPS));
	fx_run_ok(&f);
	for (uint32_t l = 0; l < 16; l++) {
		assert_int_equal(fx_acc(&f, 2, l), 0); /* x_pad_0 */
		assert_int_equal(fx_acc(&f, 3, l), vals[(l * 3) % 8]);
		assert_int_equal(fx_acc(&f, 4, l), vals[((16 + l) * 3) % 8]);
		assert_int_equal(fx_out(&f, 3, l), 0);
	}
	const vta_ref_counters *c = vta_ref_counters_get(f.ref);
	assert_int_equal(c->load_bytes[VTA_MEM_ACC_8BIT], 32);
	assert_int_equal(c->load_bytes[VTA_MEM_ACC], 0);
	size_t a = 0, b = 0;
	assert_ptr_equal(vta_ref_sram(f.ref, VTA_MEM_ACC_8BIT, &a),
			 vta_ref_sram(f.ref, VTA_MEM_ACC, &b));
	assert_int_equal(a, b);
	fx_free(&f);
}

/* UOP loads are 2D too: y_size rows of x_size uops, contiguous in the UOP SRAM. */
static void test_load_uop_2d(void **state)
{
	(void)state;
	fx f;
	fx_init(&f);
	fx_start(&f);
	vta_uop uops[6];
	for (uint32_t i = 0; i < 6; i++)
		uops[i] = (vta_uop){.dst = i + 1, .src = 2 * i, .wgt = 3 * i};
	fx_uops(&f, UOP_ADDR, uops, 6);
	fx_push(&f, mk_load(VTA_MEM_UOP, 10, UOP_ADDR / 4, 2, 2, 3));
	fx_push(&f, mk_finish(NO_DEPS));
	fx_run_ok(&f);
	const uint8_t *u = sram(&f, VTA_MEM_UOP);
	const uint32_t from[4] = {0, 1, 3, 4};
	for (uint32_t i = 0; i < 4; i++) {
		vta_uop got;
		vta_error e = {0};
		assert_int_equal(vta_uop_decode(&f.cfg, u + (10 + i) * 4, &got, &e), VTA_OK);
		assert_int_equal(got.dst, uops[from[i]].dst);
		assert_int_equal(got.src, uops[from[i]].src);
		assert_int_equal(got.wgt, uops[from[i]].wgt);
	}
	for (uint32_t i = 0; i < 10 * 4; i++)
		assert_int_equal(u[i], 0);
	fx_free(&f);
}

/* STORE writes the OUT rows (low 8 bits), contiguous in SRAM, strided in DRAM. */
static void test_store(void **state)
{
	(void)state;
	fx f;
	fx_init(&f);
	fx_start(&f);
	const int32_t vals[5] = {0x12345680, -1, 255, 256, -129};
	int32_t acc[4 * 16];
	for (int i = 0; i < 64; i++)
		acc[i] = vals[i % 5] + (i / 16) * 0x1000;
	fx_data32(&f, ACC_ADDR, acc, 64);
	uint8_t canary[5 * 16];
	memset(canary, 0x55, sizeof(canary));
	fx_data(&f, OUT_ADDR, canary, sizeof(canary));
	vta_uop uop = {0, 0, 0};
	fx_uops(&f, UOP_ADDR, &uop, 1);
	fx_push(&f, mk_load(VTA_MEM_UOP, 0, UOP_ADDR / 4, 1, 1, 1));
	fx_push(&f, mk_load(VTA_MEM_ACC, 0, ACC_ADDR / 64, 1, 4, 4));
	vta_insn copy = mk_alu(VTA_ALU_SHR, true, 0, 0, 1, 1, 4); /* OUT = low bits of ACC */
	copy.loop.dst_factor_in = 1;
	fx_push(&f, with_deps(copy, deps(false, false, false, true)));
	/* OUT rows 0,1 -> DRAM elements 0,1; rows 2,3 -> elements 3,4 */
	fx_push(&f, with_deps(mk_store(0, OUT_ADDR / 16, 2, 2, 3), deps(true, false, true, false)));
	fx_push(&f, mk_finish(deps(false, true, false, false)));
	fx_run_ok(&f);
	const uint8_t *d = f.dram.bytes + OUT_ADDR;
	const int dram_elem_of_row[4] = {0, 1, 3, 4};
	for (int r = 0; r < 4; r++)
		for (int l = 0; l < 16; l++)
			assert_int_equal(d[dram_elem_of_row[r] * 16 + l],
					 (uint8_t)(uint32_t)acc[r * 16 + l]);
	for (int l = 0; l < 16; l++)
		assert_int_equal(d[2 * 16 + l], 0x55);
	assert_int_equal(d[5 * 16], 0);
	const vta_ref_counters *c = vta_ref_counters_get(f.ref);
	assert_int_equal(c->store_bytes, 64);
	assert_int_equal(c->insns[VTA_MODULE_STORE], 1);
	fx_free(&f);
}

/* x_size 0 is a NOP: nothing moves, and its other fields are not checked. */
static void test_nops_unchecked(void **state)
{
	(void)state;
	fx f;
	fx_init(&f);
	fx_start(&f);
	fx_push(&f, mk_pad(mk_load(VTA_MEM_OUT, 60000, 0xffffffffu, 9, 0, 0), 15, 15, 15, 15));
	fx_push(&f,
		mk_pad(mk_mem(VTA_OP_STORE, VTA_MEM_UOP, 65535, 0xffffffffu, 5, 0, 0), 1, 2, 3, 4));
	fx_push(&f, mk_pad(mk_load(VTA_MEM_WGT, 65535, 0xffffffffu, 7, 0, 0), 1, 1, 1, 1));
	fx_push(&f, mk_finish(NO_DEPS));
	fx_run_ok(&f);
	const vta_ref_counters *c = vta_ref_counters_get(f.ref);
	assert_int_equal(c->insns[VTA_MODULE_LOAD], 1);
	assert_int_equal(c->insns[VTA_MODULE_COMPUTE], 2);
	assert_int_equal(c->store_bytes, 0);
	for (int m = 0; m < VTA_MEM_COUNT; m++)
		assert_int_equal(c->load_bytes[m], 0);
	fx_free(&f);
}

/* ---------- diagnostics ---------- */

/* Run `insn` alone (then FINISH) and expect st with the needles in the detail. */
static void expect_fail(vta_insn insn, vta_status st, const char *n1, const char *n2)
{
	fx f;
	fx_init(&f);
	fx_start(&f);
	/* FINISH waits for the instruction's module */
	vta_module m = vta_insn_module(&insn);
	bool on_load = m == VTA_MODULE_LOAD, on_store = m == VTA_MODULE_STORE;
	fx_push(&f, with_deps(insn, deps(false, false, on_store, on_load)));
	fx_push(&f, mk_finish(deps(on_load, on_store, false, false)));
	const char *const needles[] = {"insn 0 (", n1, n2, NULL};
	fx_run_fails(&f, st, needles);
	/* nothing was written before the check failed */
	for (int m = 0; m < VTA_MEM_OUT + 1; m++) {
		size_t size = 0;
		const uint8_t *p = vta_ref_sram(f.ref, (vta_mem)m, &size);
		for (size_t i = 0; i < size; i++)
			if (p[i])
				fail_msg("%s SRAM byte %zu written", vta_mem_name((vta_mem)m), i);
	}
	fx_free(&f);
}

static void test_illegal_memory_types(void **state)
{
	(void)state;
	expect_fail(mk_load(VTA_MEM_OUT, 0, 0, 1, 1, 1), VTA_E_STREAM,
		    "LOAD of memory type out is illegal", NULL);
	expect_fail(mk_mem(VTA_OP_STORE, VTA_MEM_INP, 0, 0, 1, 1, 1), VTA_E_STREAM,
		    "STORE supports only memory type out, not inp", NULL);
	expect_fail(mk_mem(VTA_OP_STORE, VTA_MEM_ACC, 0, 0, 1, 1, 1), VTA_E_STREAM,
		    "STORE supports only memory type out, not acc", NULL);
}

static void test_illegal_padding(void **state)
{
	(void)state;
	expect_fail(mk_pad(mk_load(VTA_MEM_WGT, 0, 0, 1, 1, 1), 0, 0, 0, 1), VTA_E_STREAM,
		    "padding not supported for wgt", NULL);
	expect_fail(mk_pad(mk_load(VTA_MEM_UOP, 0, 0, 1, 1, 1), 1, 0, 0, 0), VTA_E_STREAM,
		    "padding not supported for uop", NULL);
	expect_fail(mk_pad(mk_store(0, 0, 1, 1, 1), 0, 1, 0, 0), VTA_E_STREAM,
		    "padding not supported for store", NULL);
}

static void test_sram_oob(void **state)
{
	(void)state;
	expect_fail(mk_load(VTA_MEM_INP, 2047, 0, 1, 2, 2), VTA_E_OOB,
		    "inp SRAM rows [2047, 2049) beyond depth 2048", NULL);
	/* padding counts: 3 rows of W = 4 from 2040 */
	expect_fail(mk_pad(mk_load(VTA_MEM_INP, 2040, 0, 1, 2, 2), 1, 1, 1, 1), VTA_E_OOB,
		    "inp SRAM rows [2040, 2052) beyond depth 2048", NULL);
	expect_fail(mk_load(VTA_MEM_WGT, 1000, 0, 5, 5, 5), VTA_E_OOB,
		    "wgt SRAM rows [1000, 1025) beyond depth 1024", NULL);
	expect_fail(mk_load(VTA_MEM_UOP, 8191, 0, 1, 2, 2), VTA_E_OOB,
		    "uop SRAM rows [8191, 8193) beyond depth 8192", NULL);
	expect_fail(mk_load(VTA_MEM_ACC_8BIT, 2048, 0, 1, 1, 1), VTA_E_OOB,
		    "acc SRAM rows [2048, 2049) beyond depth 2048", NULL);
	/* the largest fields do not overflow */
	expect_fail(mk_pad(mk_load(VTA_MEM_ACC, 65535, 0, 65535, 65535, 65535), 15, 15, 15, 15),
		    VTA_E_OOB, "acc SRAM rows [65535, ", "beyond depth 2048");
	expect_fail(mk_store(2047, 0, 1, 2, 2), VTA_E_OOB,
		    "out SRAM rows [2047, 2049) beyond depth 2048", NULL);
	expect_fail(mk_store(0, 0, 65535, 65535, 0), VTA_E_OOB,
		    "out SRAM rows [0, 4294836225) beyond depth 2048", NULL);
}

static void test_dram_oob(void **state)
{
	(void)state;
	/* the DRAM of these tests is 1 MiB = 0x10000 INP elements */
	expect_fail(mk_load(VTA_MEM_INP, 0, 0xffff, 2, 1, 1), VTA_E_OOB,
		    "DRAM read of row 1 at [0x100000, 0x100010) beyond the DRAM (0x100000 bytes)",
		    NULL);
	expect_fail(mk_load(VTA_MEM_WGT, 0, 0xffffffffu, 1, 1, 1), VTA_E_OOB,
		    "DRAM read of row 0 at [0xffffffff00, 0x10000000000)", NULL);
	expect_fail(mk_load(VTA_MEM_ACC_8BIT, 0, 0xffff, 1, 2, 2), VTA_E_OOB,
		    "DRAM read of row 0 at [0xffff0, 0x100010)", NULL);
	expect_fail(mk_store(0, 0xffff, 1, 2, 2), VTA_E_OOB,
		    "DRAM write of row 0 at [0xffff0, 0x100010) beyond the DRAM (0x100000 bytes)",
		    NULL);
	expect_fail(mk_store(0, 0xfff0, 3, 1, 8), VTA_E_OOB,
		    "DRAM write of row 2 at [0x100000, 0x100010)", NULL);
}

/* A program for another geometry is refused. */
static void test_geometry_mismatch(void **state)
{
	(void)state;
	fx f;
	fx_init(&f);
	fx_start(&f);
	vta_config other;
	vta_config_default(&other);
	other.sram[VTA_MEM_INP].kib = 16; /* another INP depth: another geometry */
	vta_error e = {0};
	assert_int_equal(vta_config_derive(&other, &e), VTA_OK);
	vta_program prog;
	vta_program_init(&prog, &other);
	vta_insn fin = mk_finish(NO_DEPS);
	assert_int_equal(vta_program_push(&prog, &other, &fin, &e), VTA_OK);
	assert_int_equal(vta_ref_run(f.ref, &prog, &f.dram, &f.err), VTA_E_STREAM);
	vta_program_free(&prog);
	fx_free(&f);
}

/* Each run starts with zeroed SRAMs and counters. */
static void test_runs_are_independent(void **state)
{
	(void)state;
	fx f;
	fx_init(&f);
	fx_start(&f);
	int32_t v[16];
	for (int i = 0; i < 16; i++)
		v[i] = i + 1;
	fx_data32(&f, ACC_ADDR, v, 16);
	fx_push(&f, mk_load(VTA_MEM_ACC, 0, ACC_ADDR / 64, 1, 1, 1));
	fx_push(&f, mk_finish(NO_DEPS));
	fx_run_ok(&f);
	assert_int_equal(fx_acc(&f, 0, 15), 16);
	vta_program_free(&f.prog);
	vta_program_init(&f.prog, &f.cfg);
	fx_push(&f, mk_finish(NO_DEPS));
	fx_run_ok(&f);
	assert_int_equal(fx_acc(&f, 0, 15), 0);
	assert_int_equal(vta_ref_counters_get(f.ref)->load_bytes[VTA_MEM_ACC], 0);
	assert_int_equal(vta_ref_counters_get(f.ref)->insns[VTA_MODULE_COMPUTE], 1);
	fx_free(&f);
}

static void test_api_misuse(void **state)
{
	(void)state;
	vta_error e = {0};
	vta_ref *ref = NULL;
	assert_int_equal(vta_ref_create(NULL, &ref, &e), VTA_E_USAGE);
	vta_config cfg;
	vta_config_default(&cfg);
	assert_int_equal(vta_ref_create(&cfg, &ref, &e), VTA_OK);
	vta_dram dram = {0};
	assert_int_equal(vta_ref_run(ref, NULL, &dram, &e), VTA_E_USAGE);
	size_t size = 1;
	assert_null(vta_ref_sram(ref, (vta_mem)7, &size));
	assert_int_equal(size, 0);
	vta_ref_destroy(ref);
	vta_ref_destroy(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_padded_inp),
		cmocka_unit_test(test_load_overlapping_rows),
		cmocka_unit_test(test_load_padded_acc),
		cmocka_unit_test(test_load_acc8),
		cmocka_unit_test(test_load_uop_2d),
		cmocka_unit_test(test_store),
		cmocka_unit_test(test_nops_unchecked),
		cmocka_unit_test(test_illegal_memory_types),
		cmocka_unit_test(test_illegal_padding),
		cmocka_unit_test(test_sram_oob),
		cmocka_unit_test(test_dram_oob),
		cmocka_unit_test(test_geometry_mismatch),
		cmocka_unit_test(test_runs_are_independent),
		cmocka_unit_test(test_api_misuse),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
