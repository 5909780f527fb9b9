/*
 * test_rtl_gemm.c - the verilated GEMM cores (rtl_models/vta_gemm_core.v over vta_gemm_dot.v)
 * against vtasim_gemm_uop (sim/datapath.h), bit for bit, on every built shape: random and
 * extreme int8 operands, accumulators that wrap, batches of 1..4 rows; plus the pipeline's
 * batch + 1 cycles per uop and the unsupported-shape diagnostic.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "datapath.h"
#include "prng.h"
#include "rtl_check.h"
#include "rtl_gemm.h"

enum { MAX_BATCH = 4, MAX_BI = 16, MAX_BO = 16 };

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

static int32_t pick_acc(vta_prng *r, int round)
{
	switch (round % 4) {
	case 0: return (int32_t)(uint32_t)vta_prng_next(r);
	case 1: return INT32_MAX - (int32_t)vta_prng_range(r, 0, 70000);  /* wraps upward */
	case 2: return INT32_MIN + (int32_t)vta_prng_range(r, 0, 70000);  /* wraps downward */
	default: return (int32_t)vta_prng_range(r, -1000, 1000);
	}
}

static void run_shape(unsigned bi, unsigned bo, unsigned rounds)
{
	vta_rtl_gemm *g = NULL;
	vta_error err = {0};
	assert_int_equal(vta_rtl_gemm_create(&g, bi, bo, &err), VTA_OK);
	vta_prng r;
	vta_prng_seed(&r, 7000 + bi * 100 + bo);
	int8_t inp[MAX_BATCH * MAX_BI], wgt[MAX_BO * MAX_BI];
	int32_t acc_c[MAX_BATCH * MAX_BO], acc_v[MAX_BATCH * MAX_BO];
	int8_t out_c[MAX_BATCH * MAX_BO], out_v[MAX_BATCH * MAX_BO];
	for (unsigned round = 0; round < rounds; round++) {
		unsigned batch = 1 + round % MAX_BATCH;
		int pattern = round < 40 ? (int)(round / 10) : 0;
		for (unsigned i = 0; i < batch * bi; i++)
			inp[i] = pick(&r, pattern, 0);
		for (unsigned i = 0; i < bo * bi; i++)
			wgt[i] = pick(&r, pattern, 1);
		for (unsigned i = 0; i < batch * bo; i++)
			acc_c[i] = acc_v[i] = pick_acc(&r, round);
		memset(out_c, 0x55, sizeof(out_c));
		memset(out_v, 0x55, sizeof(out_v));

		uint64_t c0 = vta_rtl_gemm_cycles(g);
		vtasim_gemm_uop(inp, wgt, acc_c, out_c, batch, bi, bo);
		vta_rtl_gemm_uop(g, inp, wgt, acc_v, out_v, batch);
		assert_int_equal(vta_rtl_gemm_cycles(g) - c0, batch + 1);

		long bad = rtl_first_diff_i32(acc_c, acc_v, (size_t)batch * bo);
		if (bad >= 0)
			fail_msg("%ux%u round %u (batch %u) lane %ld: RTL %d, C %d", bi, bo, round,
				 batch, bad, acc_v[bad], acc_c[bad]);
		bad = rtl_first_diff_i8(out_c, out_v, (size_t)batch * bo);
		if (bad >= 0)
			fail_msg("%ux%u round %u out lane %ld: RTL %d, C %d", bi, bo, round, bad,
				 out_v[bad], out_c[bad]);
		/* nothing is written past the batch's rows */
		if ((size_t)batch * bo < sizeof(out_v))
			assert_int_equal((uint8_t)out_v[batch * bo], 0x55);
	}
	vta_rtl_gemm_destroy(g);
}

static void test_gemm_16x16(void **state)
{
	(void)state;
	run_shape(16, 16, 20000);
}

static void test_gemm_4x4(void **state)
{
	(void)state;
	run_shape(4, 4, 20000);
}

/* A hand-checked uop: x = 1..16, row o of w all equal to o - 8, acc = o. */
static void test_gemm_known(void **state)
{
	(void)state;
	vta_rtl_gemm *g = NULL;
	vta_error err = {0};
	assert_int_equal(vta_rtl_gemm_create(&g, 16, 16, &err), VTA_OK);
	int8_t x[16], w[256], out[16];
	int32_t acc[16];
	for (int k = 0; k < 16; k++)
		x[k] = (int8_t)(k + 1);
	for (int o = 0; o < 16; o++) {
		for (int k = 0; k < 16; k++)
			w[o * 16 + k] = (int8_t)(o - 8);
		acc[o] = o;
	}
	vta_rtl_gemm_uop(g, x, w, acc, out, 1);
	for (int o = 0; o < 16; o++) {
		assert_int_equal(acc[o], o + 136 * (o - 8)); /* sum 1..16 = 136 */
		assert_int_equal(out[o], (int8_t)(uint8_t)(uint32_t)acc[o]);
	}
	vta_rtl_gemm_destroy(g);
}

static void test_gemm_shapes(void **state)
{
	(void)state;
	unsigned shapes[8][2];
	size_t n = vta_rtl_gemm_shapes(shapes, 8);
	assert_true(n >= 2);
	for (size_t i = 0; i < n; i++) {
		vta_rtl_gemm *g = NULL;
		vta_error err = {0};
		assert_int_equal(vta_rtl_gemm_create(&g, shapes[i][0], shapes[i][1], &err), VTA_OK);
		vta_rtl_gemm_destroy(g);
	}
	vta_rtl_gemm *g = (vta_rtl_gemm *)&n;
	vta_error err = {0};
	assert_int_equal(vta_rtl_gemm_create(&g, 8, 16, &err), VTA_E_UNSUPPORTED);
	assert_null(g);
	assert_non_null(strstr(err.detail, "no core built for block_in 8 x block_out 16"));
	assert_non_null(strstr(err.detail, "16x16"));
	vta_rtl_gemm_destroy(NULL);
}

static void test_gemm_trace(void **state)
{
	(void)state;
	vta_rtl_gemm *g = NULL;
	vta_error err = {0};
	assert_int_equal(vta_rtl_gemm_create(&g, 4, 4, &err), VTA_OK);
	char path[] = "/tmp/vtasim_rtl_gemm_XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(vta_rtl_gemm_trace(g, path, &err), VTA_OK);
	int8_t x[4] = {1, 2, 3, 4}, w[16] = {0}, out[4];
	int32_t acc[4] = {0};
	vta_rtl_gemm_uop(g, x, w, acc, out, 1);
	vta_rtl_gemm_destroy(g);
	assert_true(rtl_file_contains(path, "acc_out"));
	unlink(path);

	assert_int_equal(vta_rtl_gemm_create(&g, 4, 4, &err), VTA_OK);
	assert_int_equal(vta_rtl_gemm_trace(g, "/nonexistent-dir/g.vcd", &err), VTA_E_IO);
	vta_rtl_gemm_destroy(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gemm_16x16),
		cmocka_unit_test(test_gemm_4x4),
		cmocka_unit_test(test_gemm_known),
		cmocka_unit_test(test_gemm_shapes),
		cmocka_unit_test(test_gemm_trace),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
