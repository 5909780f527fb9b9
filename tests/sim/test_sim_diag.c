/*
 * test_sim_diag.c - every diagnostic of the SystemC model (default config): the status, a
 * detail naming the instruction (and module, queue, index), equal to the reference
 * executor's wording; and after every failed run the next run starts clean.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_testutil.h"

static int setup(void **state)
{
	static simt t;
	vta_config cfg;
	vta_config_default(&cfg);
	cfg.alu_tflite_ext = false; /* so that the model's refusal of SRDHM and RSHR shows */
	simt_init(&t, &cfg);
	*state = &t;
	return 0;
}

static int teardown(void **state)
{
	simt_fini(*state);
	return 0;
}

/* A token ring of NOPs through all modules: 82 cycles (see test_sim_basic.c). */
static const char nop_ring[] = "load mem=inp sram=0 dram=0 y=0 x=0 stride=0 deps=push_next\n"
			       "load mem=uop sram=0 dram=0 y=0 x=0 stride=0 "
			       "deps=pop_prev,push_next\n"
			       "store mem=out sram=0 dram=0 y=0 x=0 stride=0 deps=pop_prev,push_prev\n"
			       "finish deps=pop_next\n";

static void expect_clean_run(simt *t)
{
	vta_run_stats s;
	vta_error err = {0};
	if (simt_run_text(t, nop_ring, &s, &err, NULL) != VTA_OK)
		fail_msg("run after a failed run: %s", err.detail);
	/* the launch, the four instructions' burst, then each NOP's overhead in turn */
	assert_int_equal(s.cycles, t->cfg.launch_cycles + t->cfg.dram_latency_cycles + 4 * 16 / 8 +
					   4 * t->cfg.insn_overhead_cycles);
}

/* Run text; expect status st (the reference agrees), the sim's detail equal to the
 * reference's, containing every needle; then a clean run. */
static void expect_fail(simt *t, const char *text, vta_status st, ...)
{
	vta_error err = {0}, ref_err = {0};
	vta_run_stats s;
	vta_status got = simt_run_text(t, text, &s, &err, &ref_err);
	if (got != st)
		fail_msg("status %d, expected %d: %s", got, st, err.detail);
	assert_int_equal(err.status, st);
	assert_int_equal(vta_status_exit_code(got), st >= VTA_E_DEADLOCK ? 1 : 2);
	if (strcmp(err.detail, ref_err.detail) != 0)
		fail_msg("detail differs from the reference:\n sim: %s\n ref: %s", err.detail,
			 ref_err.detail);
	assert_null(strchr(err.detail, '\n'));
	va_list ap;
	va_start(ap, st);
	for (const char *n = va_arg(ap, const char *); n; n = va_arg(ap, const char *))
		if (!strstr(err.detail, n))
			fail_msg("detail '%s' lacks '%s'", err.detail, n);
	va_end(ap);
	expect_clean_run(t);
}

static void test_deadlock_missing_push(void **state)
{
	expect_fail(*state,
		    "gemm reset=1 uop=0,1 iter=1,1 dst=0,0 src=0,0 wgt=0,0 deps=pop_prev\n"
		    "finish\n",
		    VTA_E_DEADLOCK, "deadlock: load idle; compute insn 0 (gemm", "l2g (0 tokens)",
		    "store idle", NULL);
}

static void test_deadlock_full_token_queue(void **state)
{
	char text[4096] = "";
	for (int i = 0; i < 9; i++) /* dep_depth is 8 */
		strcat(text, "load mem=inp sram=0 dram=0 y=0 x=0 stride=0 deps=push_next\n");
	strcat(text, "load mem=uop sram=0 dram=0 y=0 x=0 stride=0 deps=pop_next\nfinish\n");
	expect_fail(*state, text, VTA_E_DEADLOCK, "load insn 8 (load",
		    "room in l2g (full, 8 tokens)", "compute insn 9 (load", "s2g (0 tokens)",
		    NULL);
}

static void test_deadlock_fetch_stalled(void **state)
{
	/* compute blocks on its first instruction; 600 more compute instructions fill its
	 * queue (512), so FETCH never reaches the load that would unblock it */
	size_t cap = 700 * 80;
	char *text = malloc(cap);
	assert_non_null(text);
	strcpy(text, "gemm reset=1 uop=0,1 iter=1,1 dst=0,0 src=0,0 wgt=0,0 deps=pop_prev\n");
	for (int i = 0; i < 600; i++)
		strcat(text, "load mem=uop sram=0 dram=0 y=0 x=0 stride=0\n");
	strcat(text, "load mem=inp sram=0 dram=0 y=0 x=0 stride=0 deps=push_next\nfinish\n");
	expect_fail(*state, text, VTA_E_DEADLOCK, "compute insn 0", "l2g (0 tokens)",
		    "fetch stalled at insn 512: compute queue full (512 insns)", NULL);
	free(text);
}

static void test_no_finish(void **state)
{
	expect_fail(*state,
		    "load mem=inp sram=0 dram=0 y=0 x=0 stride=0\n"
		    "store mem=out sram=0 dram=0 y=0 x=0 stride=0\n",
		    VTA_E_NO_FINISH, "2 instructions executed without a FINISH", NULL);
}

static void test_no_finish_empty_stream(void **state)
{
	expect_fail(*state, "", VTA_E_NO_FINISH, "0 instructions", NULL);
}

static void test_oob_sram_load(void **state)
{
	expect_fail(*state,
		    "load mem=inp sram=2040 dram=0 y=1 x=16 stride=16 deps=push_next\n"
		    "finish deps=pop_prev\n",
		    VTA_E_OOB,
		    "insn 0 (load", "inp SRAM rows [2040, 2056) beyond depth 2048", NULL);
}

static void test_oob_sram_padded_acc_load(void **state)
{
	/* (1 + 2 + 1) rows of (1 + 1 + 1) elements from 2040: rows [2040, 2052) */
	expect_fail(*state,
		    "load mem=acc8 sram=2040 dram=0 y=2 x=1 stride=1 ypad=1,1 xpad=1,1\nfinish\n",
		    VTA_E_OOB, "insn 0 (load", "acc SRAM rows [2040, 2052) beyond depth 2048",
		    NULL);
}

static void test_oob_dram_load(void **state)
{
	expect_fail(*state,
		    "load mem=wgt sram=0 dram=0x0 y=1 x=1 stride=1\n"
		    "load mem=inp sram=0 dram=0xfffe y=2 x=2 stride=2 deps=push_next\n"
		    "finish deps=pop_prev\n",
		    VTA_E_OOB, "insn 1 (load", "DRAM read of row 1 at [0x100000, 0x100020)",
		    NULL);
}

static void test_oob_store(void **state)
{
	expect_fail(*state,
		    "store mem=out sram=2047 dram=0 y=1 x=2 stride=2 deps=push_prev\n"
		    "finish deps=pop_next\n",
		    VTA_E_OOB, "insn 0 (store", "out SRAM rows [2047, 2049) beyond depth 2048",
		    NULL);
	expect_fail(*state,
		    "store mem=out sram=0 dram=0x10000 y=1 x=1 stride=1 deps=push_prev\n"
		    "finish deps=pop_next\n",
		    VTA_E_OOB, "insn 0 (store", "DRAM write of row 0", NULL);
}

static const char uops4[] = ".uops 0\nuop dst=0 src=0 wgt=0\nuop dst=1 src=1 wgt=1\n"
			    "uop dst=2 src=2 wgt=2\nuop dst=3 src=3 wgt=3\n.text\n"
			    "load mem=uop sram=0 dram=0 y=1 x=4 stride=4\n";

static void test_oob_gemm_indices(void **state)
{
	char text[1024];
	snprintf(text, sizeof(text), "%sgemm uop=1,2 iter=2,1 dst=2047,0 src=0,0 wgt=0,0\nfinish\n",
		 uops4);
	expect_fail(*state, text, VTA_E_OOB, "insn 1 (gemm",
		    "uop 1 (it_out 1, it_in 0): acc index 2048 beyond depth 2048", NULL);
	snprintf(text, sizeof(text), "%sgemm uop=0,4 iter=1,2 dst=0,4 src=0,2046 wgt=0,0\nfinish\n",
		 uops4);
	expect_fail(*state, text, VTA_E_OOB, "uop 2 (it_out 0, it_in 1): inp index 2048", NULL);
	snprintf(text, sizeof(text), "%sgemm uop=0,4 iter=1,2 dst=0,4 src=0,0 wgt=0,1021\nfinish\n",
		 uops4);
	expect_fail(*state, text, VTA_E_OOB, "uop 3 (it_out 0, it_in 1): wgt index 1024", NULL);
	snprintf(text, sizeof(text),
		 "%salu op=add uop=0,4 iter=1,2 dst=0,4 src=0,2045 use_imm=0\nfinish\n", uops4);
	expect_fail(*state, text, VTA_E_OOB, "insn 1 (alu", "src acc index 2048", NULL);
}

static void test_uop_range(void **state)
{
	expect_fail(*state, "gemm uop=8190,8193 iter=1,1 dst=0,0 src=0,0 wgt=0,0\nfinish\n",
		    VTA_E_OOB, "insn 0 (gemm", "uop range [8190, 8193) beyond UOP depth 8192",
		    NULL);
	expect_fail(*state, "gemm uop=5,4 iter=1,1 dst=0,0 src=0,0 wgt=0,0\nfinish\n",
		    VTA_E_STREAM, "insn 0 (gemm", "uop_bgn 5 is after uop_end 4", NULL);
}

static void test_flags(void **state)
{
	/* checked for the whole stream before anything runs: the deadlock never happens */
	expect_fail(*state,
		    "gemm reset=1 uop=0,1 iter=1,1 dst=0,0 src=0,0 wgt=0,0 deps=pop_prev\n"
		    "load mem=inp sram=0 dram=0 y=1 x=1 stride=1 deps=pop_prev\nfinish\n",
		    VTA_E_FLAGS, "insn 1 (load", "pop_prev", NULL);
	expect_fail(*state, "store mem=out sram=0 dram=0 y=1 x=1 stride=1 deps=push_next\n",
		    VTA_E_FLAGS, "insn 0 (store", "push_next", NULL);
}

static void test_unsupported_alu(void **state)
{
	char text[1024];
	snprintf(text, sizeof(text),
		 "%salu op=srdhm uop=0,1 iter=1,1 dst=0,0 src=0,0 use_imm=1 imm=3\nfinish\n",
		 uops4);
	expect_fail(*state, text, VTA_E_UNSUPPORTED, "insn 1 (alu    op=srdhm",
		    "alu.tflite_ext", NULL);
	snprintf(text, sizeof(text),
		 "%salu op=rshr reset=1 uop=0,1 iter=1,1 dst=0,0 src=0,0 use_imm=1 imm=3\nfinish\n",
		 uops4);
	expect_fail(*state, text, VTA_E_UNSUPPORTED, "op=rshr", NULL);
}

static void test_illegal_memory_types(void **state)
{
	expect_fail(*state, "load mem=out sram=0 dram=0 y=1 x=1 stride=1\nfinish\n",
		    VTA_E_STREAM, "insn 0 (load", "LOAD of memory type out is illegal", NULL);
	expect_fail(*state,
		    "store mem=acc sram=0 dram=0 y=1 x=1 stride=1 deps=push_prev\n"
		    "finish deps=pop_next\n",
		    VTA_E_STREAM, "insn 0 (store", "only memory type out, not acc", NULL);
	expect_fail(*state,
		    "load mem=wgt sram=0 dram=0 y=1 x=1 stride=1 xpad=1,0 deps=push_next\n"
		    "finish deps=pop_prev\n",
		    VTA_E_STREAM, "padding not supported for wgt", NULL);
	expect_fail(*state,
		    "store mem=out sram=0 dram=0 y=1 x=1 stride=1 ypad=0,1 deps=push_prev\n"
		    "finish deps=pop_next\n",
		    VTA_E_STREAM, "padding not supported for store", NULL);
}

static void test_hazard(void **state)
{
	expect_fail(*state,
		    ".uops 0\nuop dst=5 src=0 wgt=0\nuop dst=5 src=1 wgt=0\n.text\n"
		    "load mem=uop sram=0 dram=0 y=1 x=2 stride=2\n"
		    "gemm uop=0,2 iter=1,1 dst=0,0 src=0,0 wgt=0,0\nfinish\n",
		    VTA_E_HAZARD, "insn 1 (gemm",
		    "ACC row 5 written again 1 uops after the previous write (distance 2), at uop "
		    "1 (it_out 0, it_in 0)",
		    NULL);
	/* across loop iterations, reset uops included */
	expect_fail(*state,
		    ".uops 0\nuop dst=0 src=0 wgt=0\nuop dst=1 src=0 wgt=0\n.text\n"
		    "load mem=uop sram=0 dram=0 y=1 x=2 stride=2\n"
		    "gemm reset=1 uop=0,2 iter=1,2 dst=0,1 src=0,0 wgt=0,0\nfinish\n",
		    VTA_E_HAZARD, "ACC row 1 written again 1 uops", "at uop 0 (it_out 0, it_in 1)",
		    NULL);
}

static void test_no_hazard_at_distance(void **state)
{
	/* rows 0 1 2 0: the second write of row 0 is 3 uops after the first: legal; and
	 * two instructions writing one row never conflict */
	vta_error err = {0};
	vta_status st = simt_run_text(*state,
				      ".uops 0\nuop dst=0 src=0 wgt=0\nuop dst=1 src=0 wgt=0\n"
				      "uop dst=2 src=0 wgt=0\nuop dst=0 src=0 wgt=0\n.text\n"
				      "load mem=uop sram=0 dram=0 y=1 x=4 stride=4\n"
				      "gemm uop=0,4 iter=1,1 dst=0,0 src=0,0 wgt=0,0\n"
				      "gemm uop=3,4 iter=1,1 dst=0,0 src=0,0 wgt=0,0\nfinish\n",
				      NULL, &err, NULL);
	if (st != VTA_OK)
		fail_msg("%s", err.detail);
}

/* Random small loop nests, GEMM, reset and ALU, with rows that repeat at every gap, across
 * iterations too, and factors that leave ACC: the model skips its per-uop checks for a nest
 * it finds clean, so its verdict and detail must still be the reference's on each. */
static void test_random_nests(void **state)
{
	simt *t = *state;
	uint32_t seed = 2024;
	unsigned failed = 0;
	for (int n = 0; n < 400; n++) {
		char text[2048];
		int at = snprintf(text, sizeof(text), ".uops 0\n");
		const unsigned k_len = 1 + simt_rand(&seed) % 5;
		for (unsigned k = 0; k < k_len; k++)
			at += snprintf(text + at, sizeof(text) - (size_t)at,
				       "uop dst=%u src=%u wgt=%u\n", simt_rand(&seed) % 6,
				       simt_rand(&seed) % 4, simt_rand(&seed) % 4);
		unsigned f[4];
		for (int i = 0; i < 4; i++) /* mostly small, sometimes past ACC's 2048 rows */
			f[i] = simt_rand(&seed) % 8 == 0 ? 1100 : simt_rand(&seed) % 4;
		const unsigned kind = simt_rand(&seed) % 3;
		const char *op = kind == 0 ? "gemm" : kind == 1 ? "gemm reset=1" : "alu op=add";
		snprintf(text + at, sizeof(text) - (size_t)at,
			 ".text\nload mem=uop sram=0 dram=0 y=1 x=%u stride=%u\n"
			 "%s uop=0,%u iter=%u,%u dst=%u,%u src=%u,%u %s\nfinish\n",
			 k_len, k_len, op, k_len, 1 + simt_rand(&seed) % 4, 1 + simt_rand(&seed) % 4,
			 f[0], f[1], f[2], f[3], kind == 2 ? "use_imm=0" : "wgt=1,0");
		vta_error err = {0}, ref_err = {0};
		vta_run_stats st;
		/* simt_run_text fails unless both agree on the status (and on the SRAMs) */
		if (simt_run_text(t, text, &st, &err, &ref_err) != VTA_OK) {
			failed++;
			if (strcmp(err.detail, ref_err.detail) != 0)
				fail_msg("nest %d:\n%s\n sim: %s\n ref: %s", n, text, err.detail,
					 ref_err.detail);
		}
	}
	print_message("%u of 400 nests refused\n", failed);
	assert_true(failed > 40 && failed < 360);
}

static void test_undecodable(void **state)
{
	simt *t = *state;
	vta_program prog;
	vta_dram dram;
	vta_error err = {0}, ref_err = {0};
	simt_asm(t, "finish\n", &prog);
	uint8_t bad[VTA_INSN_BYTES] = {7}; /* opcode 7 */
	assert_int_equal(vta_program_push_raw(&prog, bad, &err), VTA_OK);
	simt_dram(&prog, &dram);
	assert_int_equal(simt_run_both(t, &prog, &dram, NULL, &err, &ref_err), VTA_E_STREAM);
	simt_expect_detail(err.detail, "insn 1:", "opcode 7", NULL);
	assert_string_equal(err.detail, ref_err.detail);
	vta_dram_free(&dram);
	vta_program_free(&prog);
	expect_clean_run(t);
}

static void test_geometry_and_usage(void **state)
{
	simt *t = *state;
	vta_config other;
	vta_config_default(&other);
	other.log_batch = 1;
	vta_error err = {0};
	assert_int_equal(vta_config_derive(&other, &err), VTA_OK);
	vta_program prog;
	vta_dram dram;
	vta_program_init(&prog, &other);
	simt_dram(&prog, &dram);
	assert_int_equal(vtasim_sim_run(t->sim, &prog, &dram, NULL, &err), VTA_E_STREAM);
	assert_int_equal(vtasim_sim_run(NULL, &prog, &dram, NULL, &err), VTA_E_USAGE);
	assert_int_equal(vtasim_sim_run(t->sim, NULL, &dram, NULL, &err), VTA_E_USAGE);
	assert_int_equal(vtasim_sim_run(t->sim, &prog, NULL, NULL, &err), VTA_E_USAGE);
	/* a model exists for the default config: another config needs another process */
	vtasim_sim *s2 = NULL;
	assert_int_equal(vtasim_sim_create(&other, &s2, &err), VTA_E_USAGE);
	assert_null(s2);
	simt_expect_detail(err.detail, "another process", NULL);
	other.gemm_ii = 0;
	assert_int_equal(vtasim_sim_create(&other, &s2, &err), VTA_E_CONFIG);
	assert_int_equal(vtasim_sim_create(NULL, &s2, &err), VTA_E_USAGE);
	/* the same values (another name) share the model */
	vta_config same;
	vta_config_default(&same);
	same.alu_tflite_ext = false;
	snprintf(same.name, sizeof(same.name), "%s", "renamed");
	assert_int_equal(vtasim_sim_create(&same, &s2, &err), VTA_OK);
	uint64_t size = 0;
	assert_ptr_equal(vtasim_sim_sram(s2, VTA_MEM_ACC, &size),
			 vtasim_sim_sram(t->sim, VTA_MEM_ACC_8BIT, NULL));
	assert_int_equal(size, 128 * 1024);
	assert_null(vtasim_sim_sram(s2, (vta_mem)9, &size));
	assert_int_equal(size, 0);
	vtasim_sim_destroy(s2);
	vta_dram_free(&dram);
	vta_program_free(&prog);
	expect_clean_run(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deadlock_missing_push),
		cmocka_unit_test(test_deadlock_full_token_queue),
		cmocka_unit_test(test_deadlock_fetch_stalled),
		cmocka_unit_test(test_no_finish),
		cmocka_unit_test(test_no_finish_empty_stream),
		cmocka_unit_test(test_oob_sram_load),
		cmocka_unit_test(test_oob_sram_padded_acc_load),
		cmocka_unit_test(test_oob_dram_load),
		cmocka_unit_test(test_oob_store),
		cmocka_unit_test(test_oob_gemm_indices),
		cmocka_unit_test(test_uop_range),
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_unsupported_alu),
		cmocka_unit_test(test_illegal_memory_types),
		cmocka_unit_test(test_hazard),
		cmocka_unit_test(test_no_hazard_at_distance),
		cmocka_unit_test(test_random_nests),
		cmocka_unit_test(test_undecodable),
		cmocka_unit_test(test_geometry_and_usage),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
