/*
 * test_rtl_compute.c - the COMPUTE arrays' timing and interface (rtl_models/rtl_compute.h):
 * the depth log2(BLOCK_IN) + 1 of every built BLOCK_IN; the clocks of an instruction (U uops
 * of GEMM, reset and ALU immediate take U + depth - 1, ALU tensor 2U + depth - 1) and the
 * scoreboard's bubbles, exactly where a uop reads an ACC row in flight (against a model of
 * the issue rule, on random uop streams); the unsupported-shape diagnostics; the waveform.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "prng.h"
#include "rtl_compute_check.h"

static const unsigned k_blocks[] = {4, 8, 16, 32};

static unsigned log2u(unsigned x)
{
	unsigned n = 0;
	while (x > 1) {
		x >>= 1;
		n++;
	}
	return n;
}

/* The issue rule, clock by clock: a uop's beats start at the first clock after the previous
 * uop's beats at which no ACC row it reads at its beats (ALU: dst and, tensor, src; GEMM and
 * reset: none, the GEMM lanes read ACC at their accumulate stage) is still in flight, i.e.
 * later than that row's write-back clock; it issues on its last beat and is written back
 * depth - 1 clocks later. Returns the clocks from the first
 * beat (clock 1) to the last write-back. */
static uint64_t model_clocks(unsigned depth, int alu_op, int use_imm, const rtl_uop *u, size_t n)
{
	uint64_t wb[256], next = 1;
	assert_true(n <= 256);
	unsigned beats = alu_op >= 0 && !use_imm ? 2 : 1;
	for (size_t i = 0; i < n; i++) {
		uint64_t s = next;
		for (size_t j = 0; j < i; j++) {
			int reads = alu_op >= 0 && (u[j].dst == u[i].dst ||
						    (!use_imm && u[j].dst == u[i].src));
			if (reads && wb[j] + 1 > s)
				s = wb[j] + 1;
		}
		wb[i] = s + beats - 1 + depth - 1;
		next = s + beats;
	}
	return n ? wb[n - 1] : 0;
}

/* Run an instruction, checking its results against C, its clocks against model_clocks and
 * the handle's clock count against both. */
static uint64_t run_timed(rtl_cmp *m, const char *what, int alu_op, int use_imm,
			  const rtl_uop *u, size_t n)
{
	unsigned depth = vta_rtl_compute_depth(m->c);
	uint64_t c0 = vta_rtl_compute_cycles(m->c);
	uint64_t clocks = rtl_cmp_run(m, what, alu_op, use_imm, 3, u, n);
	uint64_t want = model_clocks(depth, alu_op, use_imm, u, n);
	if (clocks != want)
		fail_msg("%s (%ux%ux%u, op %d, imm %d, %zu uops): %llu clocks, expected %llu", what,
			 m->batch, m->bi, m->bo, alu_op, use_imm, n, (unsigned long long)clocks,
			 (unsigned long long)want);
	assert_int_equal(vta_rtl_compute_cycles(m->c) - c0, clocks);
	return clocks;
}

static void test_depth(void **state)
{
	(void)state;
	for (size_t i = 0; i < 4; i++) {
		rtl_cmp m;
		rtl_cmp_init(&m, 1, k_blocks[i], 4, 1);
		assert_int_equal(vta_rtl_compute_depth(m.c), log2u(k_blocks[i]) + 1);
		rtl_cmp_free(&m);
	}
}

/* Independent uops stream at the initiation interval: the closed forms. */
static void test_clocks_stream(void **state)
{
	(void)state;
	rtl_uop u[40];
	for (size_t b = 0; b < 4; b++) {
		for (unsigned batch = 1; batch <= 2; batch++) {
			rtl_cmp m;
			rtl_cmp_init(&m, batch, k_blocks[b], 8, 80);
			const uint64_t L = log2u(k_blocks[b]) + 1;
			for (uint64_t n = 0; n <= 40; n += (n < 3 ? 1 : 9)) {
				for (uint32_t i = 0; i < n; i++)
					u[i] = (rtl_uop){i, 40 + i, i % 4, 0};
				uint64_t fill = n ? L - 1 : 0;
				assert_int_equal(run_timed(&m, "gemm", -1, 0, u, n), n + fill);
				assert_int_equal(run_timed(&m, "alu imm", VTA_ALU_ADD, 1, u, n), n + fill);
				assert_int_equal(run_timed(&m, "alu tensor", VTA_ALU_MAX, 0, u, n),
						 2 * n + fill);
				/* reset reads no row: the same row again and again streams too */
				for (uint32_t i = 0; i < n; i++)
					u[i] = (rtl_uop){7, 0, 0, 1};
				assert_int_equal(run_timed(&m, "reset", -1, 0, u, n), n + fill);
			}
			rtl_cmp_free(&m);
		}
	}
}

/* A dependent ALU pair waits depth - 1 bubbles: the second uop's beats start the clock
 * after the first one's write-back. GEMM uops never wait: the lanes read ACC late. */
static void test_clocks_dependent(void **state)
{
	(void)state;
	for (size_t b = 0; b < 4; b++) {
		rtl_cmp m;
		rtl_cmp_init(&m, 1, k_blocks[b], 4, 4);
		const uint64_t L = log2u(k_blocks[b]) + 1;
		rtl_uop same[2] = {{1, 0, 0, 0}, {1, 2, 0, 0}};
		assert_int_equal(run_timed(&m, "gemm pair", -1, 0, same, 2), L + 1);
		assert_int_equal(run_timed(&m, "imm pair", VTA_ALU_ADD, 1, same, 2), 2 * L);
		assert_int_equal(run_timed(&m, "tensor pair, same dst", VTA_ALU_ADD, 0, same, 2),
				 2 * L + 2);
		rtl_uop chain[2] = {{1, 2, 0, 0}, {3, 1, 0, 0}}; /* reads the row just written */
		assert_int_equal(run_timed(&m, "tensor pair, src in flight", VTA_ALU_ADD, 0, chain, 2),
				 2 * L + 2);
		assert_int_equal(run_timed(&m, "gemm, src is not ACC", -1, 0, chain, 2), L + 1);
		/* one independent uop between them hides one bubble */
		rtl_uop three[3] = {{1, 0, 0, 0}, {2, 0, 0, 0}, {1, 0, 0, 0}};
		assert_int_equal(run_timed(&m, "imm, one apart", VTA_ALU_ADD, 1, three, 3), 2 * L);
		/* GEMM, reset and GEMM of one row stream back to back */
		rtl_uop mix[3] = {{1, 0, 0, 0}, {1, 0, 0, 1}, {1, 0, 0, 0}};
		assert_int_equal(run_timed(&m, "gemm, reset, gemm", -1, 0, mix, 3), L + 2);
		rtl_cmp_free(&m);
	}
}

/* Random uop streams over few rows, so that many uops meet rows in flight. */
static void test_clocks_random(void **state)
{
	(void)state;
	vta_prng r;
	vta_prng_seed(&r, 11);
	rtl_uop u[64];
	for (size_t b = 0; b < 4; b++) {
		rtl_cmp m;
		rtl_cmp_init(&m, 2, k_blocks[b], 4, 6);
		for (int round = 0; round < 120; round++) {
			size_t n = (size_t)vta_prng_range(&r, 1, 64);
			uint32_t rows = (uint32_t)vta_prng_range(&r, 1, 6);
			int kind = round % 4;
			for (size_t i = 0; i < n; i++)
				u[i] = (rtl_uop){(uint32_t)vta_prng_range(&r, 0, rows - 1),
						 (uint32_t)vta_prng_range(&r, 0, rows - 1),
						 (uint32_t)vta_prng_range(&r, 0, 5),
						 kind == 3 && vta_prng_range(&r, 0, 1)};
			run_timed(&m, "random", kind == 1 ? VTA_ALU_ADD : kind == 2 ? VTA_ALU_MUL : -1,
				  kind == 2, u, n);
		}
		rtl_cmp_free(&m);
	}
}

/* RTL_BLOCK_IN_BUILT: the CMake list VTASIM_RTL_BLOCK_IN this build verilated, with commas. */
static void test_create_errors(void **state)
{
	vta_rtl_compute *c = (vta_rtl_compute *)state;
	vta_error err = {0};
	char listed[256] = "", cmake_list[256] = "", want[512];
	for (const char *p = RTL_BLOCK_IN_BUILT; *p; p++) {
		size_t n = strlen(listed), k = strlen(cmake_list);
		snprintf(listed + n, sizeof(listed) - n, "%s", *p == ',' ? ", " : (char[]){*p, 0});
		snprintf(cmake_list + k, sizeof(cmake_list) - k, "%c", *p == ',' ? ';' : *p);
	}
	snprintf(want, sizeof(want),
		 "datapath rtl: no RTL build of the compute lanes for BLOCK_IN 4096 (built: %s); "
		 "add it with cmake -DVTASIM_RTL_BLOCK_IN=\"%s;4096\" and rebuild (docs/rtl.md)",
		 listed, cmake_list);
	assert_int_equal(vta_rtl_compute_create(&c, 1, 4096, 16, &err), VTA_E_UNSUPPORTED);
	assert_null(c);
	assert_string_equal(err.detail, want);
	if (strcmp(RTL_BLOCK_IN_BUILT, "4,8,16,32") == 0) { /* the default build, spelled out */
		assert_int_equal(vta_rtl_compute_create(&c, 1, 64, 16, &err), VTA_E_UNSUPPORTED);
		assert_string_equal(err.detail,
				    "datapath rtl: no RTL build of the compute lanes for BLOCK_IN 64 "
				    "(built: 4, 8, 16, 32); add it with cmake "
				    "-DVTASIM_RTL_BLOCK_IN=\"4;8;16;32;64\" and rebuild (docs/rtl.md)");
	}
	assert_int_equal(vta_rtl_compute_create(&c, 1, 12, 16, &err), VTA_E_UNSUPPORTED);
	assert_non_null(strstr(err.detail, "needs BLOCK_IN a power of two >= 2, not 12"));
	assert_int_equal(vta_rtl_compute_create(&c, 0, 16, 16, &err), VTA_E_USAGE);
	assert_null(c);
	assert_int_equal(vta_rtl_compute_create(&c, 1, 16, 0, &err), VTA_E_USAGE);
	vta_rtl_compute_destroy(NULL);
}

static void test_trace(void **state)
{
	(void)state;
	rtl_cmp m;
	rtl_cmp_init(&m, 2, 4, 4, 4);
	vta_error err = {0};
	char path[] = "/tmp/vtasim_rtl_compute_XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(vta_rtl_compute_trace(m.c, path, &err), VTA_OK);
	for (int i = 0; i < 16; i++)
		m.inp[i] = m.wgt[i] = (int8_t)(i + 1);
	rtl_uop u[2] = {{0, 0, 0, 0}, {1, 0, 0, 0}};
	vta_rtl_compute_mem mem = {m.inp, m.wgt, m.acc_v, m.out_v};
	vta_rtl_compute_begin(m.c, &mem, -1, 0, 0, 0, 5000); /* the waveform's clocks from 5000 on */
	vta_rtl_compute_uop(m.c, 0, 0, 0, 0);
	vta_rtl_compute_uop(m.c, 1, 0, 0, 0);
	assert_int_equal(vta_rtl_compute_end(m.c), 4);
	vta_rtl_compute_begin(m.c, &mem, VTA_ALU_ADD, 0, 0, 0, 5004);
	vta_rtl_compute_uop(m.c, 2, 0, 0, 0);
	assert_int_equal(vta_rtl_compute_end(m.c), 4);
	assert_int_equal(m.acc_v[0], 1 * 1 + 2 * 2 + 3 * 3 + 4 * 4);
	assert_int_equal(m.acc_v[2 * 8], m.acc_v[0]);
	vta_rtl_compute_destroy(m.c); /* closes the file */
	m.c = NULL;
	assert_true(rtl_file_contains(path, "$enddefinitions"));
	assert_true(rtl_file_contains(path, "$scope module gemm_b0_o0 $end"));
	assert_true(rtl_file_contains(path, "$scope module gemm_b1_o3 $end"));
	assert_true(rtl_file_contains(path, "$scope module alu_b1_o3 $end"));
	assert_true(rtl_file_contains(path, "acc_out"));
	assert_true(rtl_file_contains(path, "out_result"));
	assert_true(rtl_file_contains(path, "\n#5000000\n"));
	assert_true(rtl_file_contains(path, "\n#5006500\n"));
	unlink(path);
	(void)u;

	/* a file that cannot be created */
	memcpy(m.acc_c, m.acc_v, m.rows * m.lanes * sizeof(int32_t));
	memcpy(m.out_c, m.out_v, m.rows * m.lanes);
	assert_int_equal(vta_rtl_compute_create(&m.c, 2, 4, 4, &err), VTA_OK);
	assert_int_equal(vta_rtl_compute_trace(m.c, "/nonexistent-dir/c.vcd", &err), VTA_E_IO);
	assert_non_null(strstr(err.detail, "/nonexistent-dir/c.vcd: cannot open"));
	rtl_cmp_run(&m, "after a failed trace", -1, 0, 0, u, 2); /* still usable */
	rtl_cmp_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_depth),
		cmocka_unit_test(test_clocks_stream),
		cmocka_unit_test(test_clocks_dependent),
		cmocka_unit_test(test_clocks_random),
		cmocka_unit_test(test_create_errors),
		cmocka_unit_test(test_trace),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
