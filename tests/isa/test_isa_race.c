/*
 * test_isa_race.c - the stream checks (vta_race.h), each diagnostic with its exact line:
 * races RAW (ALU/STORE), WAR (LOAD/GEMM), WAW (table memory and slot), on DRAM (LOAD/STORE),
 * with the end of the run, and with a LOAD after FINISH; reads of unwritten UOP and INP rows;
 * tokens left and instructions after FINISH; micro-ops from stored bytes; the cases the
 * engine diagnoses instead (deadlock, no FINISH, a rule); problems before a rule failure;
 * the report's counts and caps; --strict; a kernel reused from another place of the UOP
 * SRAM, reloaded between two instructions, more kernels than a cache holds; rows a racing
 * GEMM read apart, raced on by a later LOAD; and a verdict
 * that queue depths do not change.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vta_asm.h"
#include "vta_queues.h"
#include "vta_race.h"

typedef struct rc {
	vta_config cfg;
	vta_race_report rep;
	vta_error err;
	vta_status st;
	vta_problem p[64];
	size_t n;
} rc;

static void on_problem(void *ctx, const vta_problem *p)
{
	rc *r = ctx;
	if (r->n < 64)
		r->p[r->n] = *p;
	r->n++;
}

/* Check `text` on the default config changed by `set` ("key=value" or NULL). */
static rc *check(const char *text, const char *set)
{
	rc *r = calloc(1, sizeof(*r));
	assert_non_null(r);
	vta_config_default(&r->cfg);
	if (set) {
		char key[64];
		const char *eq = strchr(set, '=');
		snprintf(key, sizeof(key), "%.*s", (int)(eq - set), set);
		assert_int_equal(vta_config_set(&r->cfg, key, eq + 1, &r->err), VTA_OK);
	}
	vta_program prog;
	if (vta_asm_parse(text, strlen(text), "t.s", &r->cfg, &prog, &r->err))
		fail_msg("%s", r->err.detail);
	vta_dram dram;
	assert_int_equal(vta_dram_init(&dram, 1u << 20, &r->err), VTA_OK);
	assert_int_equal(vta_dram_place_segments(&dram, &prog, &r->err), VTA_OK);
	vta_race_opts o = {.on_problem = on_problem, .ctx = r};
	r->st = vta_race_check(&r->cfg, &prog, &dram, &o, &r->rep, &r->err);
	vta_dram_free(&dram);
	vta_program_free(&prog);
	return r;
}

#define D(n) "deps=" n
#define LOAD_UOP "load mem=uop sram=0 dram=0x400 y=1 x=1 stride=1 "
#define UOPS ".uops 0x1000\nuop dst=0 src=0 wgt=0\n"
#define STORE_ALU "alu op=shr uop=0,1 iter=1,4 dst=0,1 src=0,1 use_imm=1 imm=0 "
#define STORE "store mem=out sram=0 dram=0x400 y=1 x=4 stride=4 "

static const char *disasm(const char *text)
{
	static char buf[8][256];
	static int k;
	vta_config cfg;
	vta_config_default(&cfg);
	vta_program prog;
	vta_insn insn;
	vta_error e = {0};
	assert_int_equal(vta_asm_parse(text, strlen(text), "t.s", &cfg, &prog, &e), VTA_OK);
	assert_int_equal(vta_program_insn(&prog, &cfg, 0, &insn, &e), VTA_OK);
	vta_program_free(&prog);
	k = (k + 1) % 8;
	return vta_disasm_insn(&insn, buf[k], sizeof(buf[k]));
}

static void test_raw_alu_store(void **state)
{
	(void)state;
	/* the STORE does not wait for the ALU that writes its OUT rows */
	rc *r = check(LOAD_UOP "\n"
		      "load mem=acc sram=0 dram=0x80 y=1 x=4 stride=4\n"
		      STORE_ALU "\n"
		      STORE D("push_prev") "\n"
		      "finish " D("pop_next") "\n" UOPS, NULL);
	assert_int_equal(r->st, VTA_E_RACE);
	assert_true(r->rep.checked);
	assert_int_equal(r->rep.races, 1);
	assert_int_equal(r->rep.uninit_reads, 1); /* nothing ordered before it writes OUT */
	char want[VTA_ERROR_DETAIL_MAX];
	snprintf(want, sizeof(want),
		 "race (RAW) on out rows [0, 4): compute insn 2 (%s) writes, store insn 3 (%s) "
		 "reads, and no token orders them",
		 disasm(STORE_ALU), disasm(STORE D("push_prev")));
	assert_string_equal(r->err.detail, want);
	assert_string_equal(r->rep.errors[0], want);
	snprintf(want, sizeof(want),
		 "insn 3 (%s) reads out row 0, which nothing ordered before it writes in this run "
		 "(4 such rows)",
		 disasm(STORE D("push_prev")));
	assert_int_equal(r->rep.n_errors, 2);
	assert_string_equal(r->rep.errors[1], want);
	assert_int_equal(r->p[0].kind, VTA_PROBLEM_RAW);
	assert_int_equal(r->p[0].first, 2);
	assert_int_equal(r->p[0].second, 3);
	assert_int_equal(r->p[0].space, VTA_SPACE_OUT);
	free(r);
}

static void test_war_load_gemm(void **state)
{
	(void)state;
	/* the second INP load refills rows the GEMM still reads: no g2l token */
	rc *r = check(LOAD_UOP "\n"
		      "load mem=inp sram=0 dram=0x200 y=1 x=2 stride=2\n"
		      "load mem=wgt sram=0 dram=0x30 y=1 x=1 stride=1 " D("push_next") "\n"
		      "gemm reset=1 uop=0,1 iter=1,2 dst=0,1 src=0,1 wgt=0,0\n"
		      "gemm reset=0 uop=0,1 iter=1,2 dst=0,1 src=0,1 wgt=0,0 " D("pop_prev") "\n"
		      "load mem=inp sram=1 dram=0x210 y=1 x=1 stride=1 " D("push_next") "\n"
		      "gemm reset=0 uop=0,1 iter=1,1 dst=0,0 src=1,0 wgt=0,0 " D("pop_prev") "\n"
		      "finish\n" UOPS, NULL);
	assert_int_equal(r->st, VTA_E_RACE);
	assert_int_equal(r->rep.races, 1);
	assert_int_equal(r->p[0].kind, VTA_PROBLEM_WAR);
	assert_int_equal(r->p[0].first, 4);
	assert_int_equal(r->p[0].second, 5);
	assert_int_equal(r->p[0].space, VTA_SPACE_INP);
	assert_int_equal(r->p[0].lo, 1);
	assert_int_equal(r->p[0].hi, 2);
	char want[VTA_ERROR_DETAIL_MAX];
	snprintf(want, sizeof(want),
		 "race (WAR) on inp row 1: compute insn 4 (%s) reads, load insn 5 (%s) writes, "
		 "and no token orders them",
		 disasm("gemm reset=0 uop=0,1 iter=1,2 dst=0,1 src=0,1 wgt=0,0 deps=pop_prev"),
		 disasm("load mem=inp sram=1 dram=0x210 y=1 x=1 stride=1 deps=push_next"));
	assert_string_equal(r->err.detail, want);
	free(r);
}

static void test_waw_table(void **state)
{
	(void)state;
	/* an int8 table (load module) and an int32 table (compute) into the same entries and
	 * the same slot, unordered */
	rc *r = check("load mem=lut sram=0 dram=0x100 slot=2 y=1 x=4 stride=4\n"
		      "load mem=lut32 sram=2 dram=0x100 slot=2 y=1 x=4 stride=4\n"
		      "finish\n", NULL);
	assert_int_equal(r->st, VTA_E_RACE);
	/* two WAWs and the first load's race with the end of the run */
	assert_int_equal(r->rep.races, 3);
	assert_int_equal(r->p[0].kind, VTA_PROBLEM_WAW);
	assert_int_equal(r->p[0].space, VTA_SPACE_LUT);
	assert_int_equal(r->p[0].lo, 2);
	assert_int_equal(r->p[0].hi, 4);
	assert_int_equal(r->p[1].kind, VTA_PROBLEM_WAW);
	assert_int_equal(r->p[1].space, VTA_SPACE_LUT_SLOT);
	assert_int_equal(r->p[2].kind, VTA_PROBLEM_END);
	assert_true(strstr(r->rep.errors[0], "race (WAW) on lut table entries [2, 4): load insn 0 "));
	assert_true(strstr(r->rep.errors[0], ") writes, compute insn 1 ("));
	assert_true(strstr(r->rep.errors[1], "race (WAW) on lut slot 2: "));
	free(r);
}

static void test_dram(void **state)
{
	(void)state;
	/* the load module reads back what the STORE writes, with no token chain */
	rc *r = check(LOAD_UOP "\n"
		      "load mem=acc sram=0 dram=0x80 y=1 x=4 stride=4\n"
		      STORE_ALU D("push_next") "\n"
		      STORE D("pop_prev,push_prev") "\n"
		      "load mem=inp sram=0 dram=0x401 y=1 x=4 stride=4 " D("push_next") "\n"
		      "finish " D("pop_prev,pop_next") "\n" UOPS, NULL);
	assert_int_equal(r->st, VTA_E_RACE);
	assert_int_equal(r->rep.races, 1);
	assert_int_equal(r->p[0].kind, VTA_PROBLEM_RAW);
	assert_int_equal(r->p[0].space, VTA_SPACE_DRAM);
	char want[VTA_ERROR_DETAIL_MAX];
	snprintf(want, sizeof(want),
		 "race (RAW) on dram bytes [0x4010, 0x4040): store insn 3 (%s) writes, load insn "
		 "4 (%s) reads, and no token orders them",
		 disasm(STORE D("pop_prev,push_prev")),
		 disasm("load mem=inp sram=0 dram=0x401 y=1 x=4 stride=4 deps=push_next"));
	assert_string_equal(r->err.detail, want);
	free(r);
}

static void test_end_of_run(void **state)
{
	(void)state;
	/* FINISH does not wait for the STORE */
	rc *r = check(LOAD_UOP "\n"
		      "load mem=acc sram=0 dram=0x80 y=1 x=4 stride=4\n"
		      STORE_ALU D("push_next") "\n"
		      STORE D("pop_prev") "\n"
		      "finish\n" UOPS, NULL);
	assert_int_equal(r->st, VTA_E_RACE);
	assert_int_equal(r->rep.races, 1);
	char want[VTA_ERROR_DETAIL_MAX];
	snprintf(want, sizeof(want),
		 "race with the end of the run: store insn 3 (%s) writes dram bytes [0x4000, "
		 "0x4040) and no token orders it before FINISH (insn 4): the run may end first",
		 disasm(STORE D("pop_prev")));
	assert_string_equal(r->err.detail, want);
	assert_int_equal(r->p[0].kind, VTA_PROBLEM_END);
	assert_int_equal(r->p[0].second, 4);
	free(r);
}

static void test_after_finish(void **state)
{
	(void)state;
	/* a LOAD after FINISH may still run, over rows a GEMM before FINISH reads */
	rc *r = check(LOAD_UOP "\n"
		      "load mem=inp sram=0 dram=0x200 y=1 x=1 stride=1\n"
		      "load mem=wgt sram=0 dram=0x30 y=1 x=1 stride=1 " D("push_next") "\n"
		      "gemm reset=0 uop=0,1 iter=1,1 dst=0,0 src=0,0 wgt=0,0 " D("pop_prev") "\n"
		      "finish\n"
		      "load mem=inp sram=0 dram=0x300 y=1 x=1 stride=1\n"
		      "gemm reset=1 uop=0,1 iter=1,1 dst=0,0 src=0,0 wgt=0,0\n" UOPS, NULL);
	assert_int_equal(r->st, VTA_E_RACE);
	assert_int_equal(r->rep.after_finish, 2);
	assert_int_equal(r->rep.warnings, 2);
	/* the GEMM reads ACC row 0 nothing wrote; the late LOAD races with the GEMM and with
	 * the end of the run */
	assert_int_equal(r->rep.uninit_reads, 1);
	assert_int_equal(r->rep.races, 2);
	char want[VTA_ERROR_DETAIL_MAX];
	snprintf(want, sizeof(want),
		 "insn 5 (%s) comes after FINISH (insn 4): the run ends at FINISH, so it may never "
		 "execute",
		 disasm("load mem=inp sram=0 dram=0x300 y=1 x=1 stride=1"));
	assert_string_equal(r->rep.warning_lines[0], want);
	bool war = false;
	for (size_t i = 0; i < r->n; i++)
		war |= r->p[i].kind == VTA_PROBLEM_WAR && r->p[i].first == 3 &&
		       r->p[i].second == 5 && r->p[i].space == VTA_SPACE_INP;
	assert_true(war);
	free(r);
}

static void test_never_runs(void **state)
{
	(void)state;
	/* a LOAD waits for a g2l token no instruction sends, another queued behind it: FINISH
	 * ends the run first and neither ever executes, a warning (an error under --strict) */
	const char *waits = "load mem=inp sram=0 dram=0x200 y=1 x=1 stride=1 deps=pop_next";
	rc *r = check("load mem=inp sram=0 dram=0x200 y=1 x=1 stride=1 " D("pop_next") "\n"
		      "load mem=inp sram=1 dram=0x200 y=1 x=1 stride=1\n"
		      "finish\n", NULL);
	assert_int_equal(r->st, VTA_OK);
	assert_true(r->rep.checked);
	assert_int_equal(r->rep.warnings, 1);
	assert_int_equal(r->rep.never_run, 2);
	char want[VTA_ERROR_DETAIL_MAX];
	snprintf(want, sizeof(want),
		 "load insn 0 (%s) never executes (nor 1 load instruction after it): the run ends "
		 "at FINISH (insn 2) while it waits for a token of g2l that never comes",
		 disasm(waits));
	assert_string_equal(r->rep.warning_lines[0], want);
	assert_int_equal(r->p[0].kind, VTA_PROBLEM_NEVER_RUNS);
	assert_int_equal(r->p[0].count, 2);
	vta_error e = {0};
	assert_int_equal(vta_race_strict(&r->rep, &e), VTA_E_WARNING);
	assert_true(strstr(e.detail, "never executes"));
	free(r);
}

static void test_uninit(void **state)
{
	(void)state;
	/* micro-ops never loaded: named as such, before the engine's ACC hazard */
	const char *gemm = "gemm reset=1 uop=0,2 iter=1,1 dst=0,0 src=0,0 wgt=0,0";
	rc *r = check("gemm reset=1 uop=0,2 iter=1,1 dst=0,0 src=0,0 wgt=0,0\nfinish\n", NULL);
	assert_int_equal(r->st, VTA_E_UNINIT);
	char want[VTA_ERROR_DETAIL_MAX];
	snprintf(want, sizeof(want),
		 "insn 0 (%s) reads uop row 0, which nothing ordered before it writes in this run "
		 "(2 such rows): no LOAD UOP put a micro-op there",
		 disasm(gemm));
	assert_string_equal(r->err.detail, want);
	assert_int_equal(r->rep.uninit_reads, 1);
	free(r);
	/* INP rows only partly loaded: the uop and iteration of the first unwritten one */
	const char *acc = "gemm reset=0 uop=0,1 iter=1,3 dst=0,1 src=0,1 wgt=0,0 deps=pop_prev";
	r = check(LOAD_UOP "\n"
		  "gemm reset=1 uop=0,1 iter=1,3 dst=0,1 src=0,1 wgt=0,0\n"
		  "load mem=inp sram=0 dram=0x200 y=1 x=1 stride=1\n"
		  "load mem=wgt sram=0 dram=0x30 y=1 x=1 stride=1 " D("push_next") "\n"
		  "gemm reset=0 uop=0,1 iter=1,3 dst=0,1 src=0,1 wgt=0,0 " D("pop_prev") "\n"
		  "finish\n" UOPS, NULL);
	assert_int_equal(r->st, VTA_E_UNINIT);
	snprintf(want, sizeof(want),
		 "insn 4 (%s): uop 0 (it_out 0, it_in 1) reads inp row 1, which nothing ordered "
		 "before it writes in this run (2 such rows)",
		 disasm(acc));
	assert_string_equal(r->err.detail, want);
	assert_int_equal(r->p[0].uop, 0);
	assert_int_equal(r->p[0].it_in, 1);
	assert_int_equal(r->p[0].count, 2);
	free(r);
}

static void test_tokens_left(void **state)
{
	(void)state;
	/* FINISH pops the first l2g token; the NOP's second one is left */
	const char *nop = "load mem=inp sram=0 dram=0x0 y=0 x=0 stride=0 deps=push_next";
	rc *r = check(LOAD_UOP "\n"
		      "load mem=inp sram=0 dram=0x200 y=1 x=1 stride=1 " D("push_next") "\n"
		      "load mem=inp sram=0 dram=0x0 y=0 x=0 stride=0 " D("push_next") "\n"
		      "finish " D("pop_prev") "\n" UOPS, NULL);
	assert_int_equal(r->st, VTA_OK);
	assert_true(r->rep.checked);
	assert_int_equal(r->rep.warnings, 1);
	assert_int_equal(r->rep.tokens_left, 1);
	char want[VTA_ERROR_DETAIL_MAX];
	snprintf(want, sizeof(want),
		 "1 token pushed into l2g left at FINISH (insn 3): load insn 2 (%s) pushes the "
		 "first, and no pop ordered before FINISH takes it",
		 disasm(nop));
	assert_string_equal(r->rep.warning_lines[0], want);
	assert_int_equal(r->rep.n_errors, 0);
	assert_int_equal(r->p[0].kind, VTA_PROBLEM_TOKENS_LEFT);
	assert_int_equal(r->p[0].queue, VTA_QUEUE_L2G);
	free(r);
}

static void test_tokens_and_strict(void **state)
{
	(void)state;
	/* a g2l token nobody pops: a warning; --strict makes it an error */
	rc *r = check(LOAD_UOP D("push_prev") "\nfinish\n" UOPS, NULL);
	assert_int_equal(r->st, VTA_OK);
	assert_int_equal(r->rep.warnings, 1);
	assert_int_equal(r->rep.tokens_left, 1);
	vta_error e = {0};
	assert_int_equal(vta_race_strict(&r->rep, &e), VTA_E_WARNING);
	char want[VTA_ERROR_DETAIL_MAX];
	snprintf(want, sizeof(want), "--strict: %s (1 warning)", r->rep.warning_lines[0]);
	assert_string_equal(e.detail, want);
	assert_true(strstr(e.detail, "1 token pushed into g2l left at FINISH (insn 1): compute "
				     "insn 0 ("));
	free(r);
	r = check(LOAD_UOP "\nfinish\n" UOPS, NULL);
	assert_int_equal(vta_race_strict(&r->rep, &e), VTA_OK);
	free(r);
}

static void test_uops_from_store(void **state)
{
	(void)state;
	/* micro-ops loaded from bytes a STORE ordered before wrote: beyond the checks */
	rc *r = check(LOAD_UOP "\n"
		      "load mem=acc sram=0 dram=0x80 y=1 x=4 stride=4\n"
		      STORE_ALU D("push_next") "\n"
		      "store mem=out sram=0 dram=0x100 y=1 x=1 stride=1 " D("pop_prev,push_prev") "\n"
		      "load mem=uop sram=0 dram=0x400 y=1 x=1 stride=1 " D("pop_next") "\n"
		      "finish\n" UOPS, NULL);
	assert_int_equal(r->st, VTA_E_UNSUPPORTED);
	assert_true(strstr(r->err.detail, "insn 4 (load   mem=uop "));
	assert_true(strstr(r->err.detail, ") loads micro-ops from DRAM bytes [0x1000, 0x1004) that "
					  "insn 3 (store  mem=out "));
	assert_true(strstr(r->err.detail, "the stream checks take micro-ops from the DRAM image "
					  "only (--no-check-races skips them)"));
	free(r);
}

static void test_engine_diagnoses(void **state)
{
	(void)state;
	/* a deadlock, no FINISH, a refused first instruction: no verdict, the engine says */
	rc *r = check(LOAD_UOP "\ngemm reset=1 uop=0,1 iter=1,1 dst=0,0 src=0,0 wgt=0,0 "
		      D("pop_prev") "\nfinish\n" UOPS, NULL);
	assert_int_equal(r->st, VTA_OK);
	assert_false(r->rep.checked);
	assert_true(strstr(r->rep.skipped.detail, "deadlock: "));
	free(r);
	r = check(LOAD_UOP "\n" UOPS, NULL);
	assert_int_equal(r->st, VTA_OK);
	assert_false(r->rep.checked);
	assert_true(strstr(r->rep.skipped.detail, "without a FINISH"));
	free(r);
	/* a refused LOAD ordered before FINISH: the run fails there in every timing */
	r = check("load mem=inp sram=2040 dram=0x200 y=2 x=8 stride=8 " D("push_next") "\n"
		  "finish " D("pop_prev") "\n", NULL);
	assert_int_equal(r->st, VTA_OK);
	assert_false(r->rep.checked);
	assert_true(strstr(r->rep.skipped.detail, "insn 0 (load "));
	assert_true(strstr(r->rep.skipped.detail, "inp SRAM rows [2040, 2056) beyond depth 2048"));
	free(r);
	/* one FINISH need not wait for: whether the run fails or ends first is timing's
	 * choice (the engines may differ), a race with the end of the run */
	r = check("load mem=inp sram=0 dram=0x200 y=1 x=1 stride=1\n"
		  "load mem=inp sram=2040 dram=0x200 y=2 x=8 stride=8\nfinish\n", NULL);
	assert_int_equal(r->st, VTA_E_RACE);
	assert_true(r->rep.checked);
	assert_int_equal(r->rep.races, 2);
	assert_true(strstr(r->err.detail, "race with the end of the run: load insn 1 (load "));
	assert_true(strstr(r->err.detail, ") fails (inp SRAM rows [2040, 2056) beyond depth 2048) "
					  "and no token orders it before FINISH (insn 2): the run "
					  "may end first or fail there"));
	free(r);
	/* compute cannot reach FINISH without it: refused, no verdict */
	r = check("load mem=inp sram=2040 dram=0x200 y=2 x=8 stride=8 " D("push_next") "\n"
		  "load mem=inp sram=0 dram=0x200 y=1 x=1 stride=1\n"
		  "finish " D("pop_prev") "\n", NULL);
	assert_int_equal(r->st, VTA_OK);
	assert_false(r->rep.checked);
	assert_true(strstr(r->rep.skipped.detail, "insn 0 (load "));
	free(r);
	/* a GEMM's problems before its own refused uop are not reported either */
	r = check(LOAD_UOP "\ngemm reset=0 uop=0,1 iter=2,1 dst=0,0 src=2047,0 wgt=0,0\nfinish\n"
		  ".uops 0x1000\nuop dst=0 src=1 wgt=0\n", NULL);
	assert_int_equal(r->st, VTA_OK);
	assert_false(r->rep.checked);
	assert_true(strstr(r->rep.skipped.detail, "inp index 2048 beyond depth 2048"));
	free(r);
}

static void test_before_a_rule(void **state)
{
	(void)state;
	/* the problems found before an instruction the rules refuse are reported */
	rc *r = check("gemm reset=1 uop=0,1 iter=1,1 dst=0,0 src=0,0 wgt=0,0\n"
		      "load mem=acc sram=2040 dram=0x200 y=1 x=16 stride=16\nfinish\n", NULL);
	assert_int_equal(r->st, VTA_E_UNINIT);
	assert_true(r->rep.checked);
	assert_int_equal(r->rep.uninit_reads, 1);
	free(r);
}

static void test_counts_and_caps(void **state)
{
	(void)state;
	/* twelve STOREs of twelve rows no token orders: a race with the end each, lines kept
	 * for ten, every problem counted */
	char text[4096] = LOAD_UOP "\nload mem=acc sram=0 dram=0x80 y=1 x=12 stride=12\n"
		"alu op=shr uop=0,1 iter=1,12 dst=0,1 src=0,1 use_imm=1 imm=0 deps=push_next\n"
		"store mem=out sram=0 dram=0x400 y=1 x=12 stride=12 deps=pop_prev\n";
	for (int i = 1; i < 12; i++) {
		size_t len = strlen(text);
		snprintf(text + len, sizeof(text) - len,
			 "store mem=out sram=%d dram=0x%x y=1 x=1 stride=1\n", i, 0x500 + i);
	}
	strcat(text, "finish\n" UOPS);
	rc *r = check(text, NULL);
	assert_int_equal(r->st, VTA_E_RACE);
	assert_int_equal(r->rep.races, 12);
	assert_int_equal(r->rep.n_errors, VTA_RACE_SHOWN);
	/* and the g2s token: its pop, the first STORE's, is not ordered before FINISH */
	assert_int_equal(r->rep.warnings, 1);
	assert_int_equal(r->n, 13);
	free(r);
}

static void test_kernel_reused(void **state)
{
	(void)state;
	/* one kernel from two places of the UOP SRAM: the first GEMM is ordered after the
	 * loads, the second reads INP rows a later LOAD rewrites without a token to it */
	const char *gemm_b = "gemm reset=0 uop=1,2 iter=1,2 dst=0,1 src=0,1 wgt=0,0";
	char text[1024];
	snprintf(text, sizeof(text),
		 "load mem=uop sram=0 dram=0x400 y=1 x=2 stride=2\n"
		 "load mem=inp sram=0 dram=0x200 y=1 x=2 stride=2\n"
		 "load mem=wgt sram=0 dram=0x30 y=1 x=1 stride=1 " D("push_next") "\n"
		 "gemm reset=1 uop=0,1 iter=1,2 dst=0,1 src=0,1 wgt=0,0\n"
		 "gemm reset=0 uop=0,1 iter=1,2 dst=0,1 src=0,1 wgt=0,0 "
		 D("pop_prev,push_prev") "\n"
		 "load mem=inp sram=0 dram=0x210 y=1 x=2 stride=2 " D("pop_next,push_next") "\n"
		 "%s\n"
		 "finish " D("pop_prev") "\n"
		 ".uops 0x1000\nuop dst=0 src=0 wgt=0\nuop dst=0 src=0 wgt=0\n", gemm_b);
	rc *r = check(text, NULL);
	assert_int_equal(r->st, VTA_E_RACE);
	assert_int_equal(r->n, 1);
	assert_int_equal(r->p[0].kind, VTA_PROBLEM_RAW);
	assert_int_equal(r->p[0].first, 5);
	assert_int_equal(r->p[0].second, 6);
	char want[VTA_ERROR_DETAIL_MAX];
	snprintf(want, sizeof(want),
		 "race (RAW) on inp rows [0, 2): load insn 5 (%s) writes, compute insn 6 (%s) "
		 "reads, and no token orders them",
		 disasm("load mem=inp sram=0 dram=0x210 y=1 x=2 stride=2 deps=pop_next,push_next"),
		 disasm(gemm_b));
	assert_string_equal(r->err.detail, want);
	free(r);
}

static void test_kernel_reloaded(void **state)
{
	(void)state;
	/* the same ALU twice over one UOP row, a LOAD UOP between them puts another micro-op
	 * there: the second reads ACC row 3, which nothing wrote */
	const char *alu = "alu op=add uop=0,1 iter=1,1 dst=0,0 src=0,0 use_imm=0 imm=0";
	char text[1024];
	snprintf(text, sizeof(text),
		 "load mem=uop sram=0 dram=0x400 y=1 x=1 stride=1\n"
		 "load mem=acc sram=0 dram=0x80 y=1 x=2 stride=2\n"
		 "%s\n"
		 "load mem=uop sram=0 dram=0x401 y=1 x=1 stride=1\n"
		 "%s\n"
		 "finish\n"
		 ".uops 0x1000\nuop dst=0 src=1 wgt=0\nuop dst=0 src=3 wgt=0\n", alu, alu);
	rc *r = check(text, NULL);
	assert_int_equal(r->st, VTA_E_UNINIT);
	assert_int_equal(r->n, 1);
	assert_int_equal(r->p[0].kind, VTA_PROBLEM_UNINIT);
	assert_int_equal(r->p[0].first, 4);
	assert_int_equal(r->p[0].space, VTA_SPACE_ACC);
	assert_int_equal(r->p[0].lo, 3);
	char want[VTA_ERROR_DETAIL_MAX];
	snprintf(want, sizeof(want),
		 "insn 4 (%s): uop 0 (it_out 0, it_in 0) reads acc row 3, which nothing ordered "
		 "before it writes in this run", disasm(alu));
	assert_string_equal(r->err.detail, want);
	free(r);
}

static void test_many_kernels(void **state)
{
	(void)state;
	/* more kernels than a cache would hold, each ALU over its own UOP row, then all of
	 * them again: the last one's source row was never written */
	char text[16384] = "load mem=uop sram=0 dram=0x400 y=1 x=48 stride=48\n"
			   "load mem=acc sram=0 dram=0x80 y=1 x=48 stride=48\n";
	for (int pass = 0; pass < 2; pass++)
		for (int k = 0; k < 48; k++) {
			size_t len = strlen(text);
			snprintf(text + len, sizeof(text) - len,
				 "alu op=add uop=%d,%d iter=1,1 dst=0,0 src=0,0 use_imm=0 imm=0\n",
				 k, k + 1);
		}
	strcat(text, "finish\n.uops 0x1000\n");
	for (int k = 0; k < 48; k++) {
		size_t len = strlen(text);
		snprintf(text + len, sizeof(text) - len, "uop dst=%d src=%d wgt=0\n", k,
			 k == 47 ? 100 : k + 1);
	}
	rc *r = check(text, NULL);
	assert_int_equal(r->st, VTA_E_UNINIT);
	assert_int_equal(r->n, 2); /* the first and the second pass's ALU of uop 47 */
	assert_int_equal(r->p[0].first, 2 + 47);
	assert_int_equal(r->p[1].first, 2 + 48 + 47);
	assert_int_equal(r->p[1].lo, 100);
	assert_int_equal(r->p[1].uop, 47);
	free(r);
}

static void test_rows_apart(void **state)
{
	(void)state;
	/* a GEMM that races reads INP rows 0 and 2 uop by uop; a LOAD that runs after it (its
	 * token comes from the GEMM before) rewrites row 2 unordered with it: a WAR on row 2
	 * alone, not on the hull of what the GEMM read */
	rc *r = check("load mem=uop sram=0 dram=0x400 y=1 x=1 stride=1\n"
		      "load mem=inp sram=0 dram=0x200 y=1 x=3 stride=3\n"
		      "load mem=wgt sram=0 dram=0x30 y=1 x=1 stride=1\n"
		      "gemm reset=1 uop=0,1 iter=1,2 dst=0,1 src=0,0 wgt=0,0 " D("push_prev") "\n"
		      "gemm reset=0 uop=0,1 iter=1,2 dst=0,1 src=0,2 wgt=0,0\n"
		      "load mem=inp sram=2 dram=0x210 y=1 x=1 stride=1 " D("pop_next") "\n"
		      "finish\n" UOPS, NULL);
	assert_int_equal(r->st, VTA_E_RACE);
	assert_int_equal(r->rep.races, 6);
	assert_int_equal(r->rep.uninit_reads, 2);
	size_t war = 0;
	for (size_t i = 0; i < r->n && i < 64; i++)
		if (r->p[i].kind == VTA_PROBLEM_WAR) {
			assert_int_equal(r->p[i].first, 4);
			assert_int_equal(r->p[i].second, 5);
			assert_int_equal(r->p[i].space, VTA_SPACE_INP);
			assert_int_equal(r->p[i].lo, 2);
			assert_int_equal(r->p[i].hi, 3);
			war++;
		}
	assert_int_equal(war, 1);
	free(r);
}

static void test_depths(void **state)
{
	(void)state;
	/* queue depths change the schedule, not the verdict */
	const char *text = LOAD_UOP "\n"
			   "load mem=acc sram=0 dram=0x80 y=1 x=4 stride=4\n"
			   STORE_ALU "\n"
			   STORE D("push_prev") "\n"
			   "finish " D("pop_next") "\n" UOPS;
	rc *a = check(text, NULL);
	rc *b = check(text, "queues.insn_depth=1");
	rc *c = check(text, "queues.dep_depth=1");
	assert_int_equal(a->n, b->n);
	assert_int_equal(a->n, c->n);
	assert_string_equal(a->rep.errors[0], b->rep.errors[0]);
	assert_string_equal(a->rep.errors[0], c->rep.errors[0]);
	free(a);
	free(b);
	free(c);
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(vta_problem_kind_name(VTA_PROBLEM_RAW), "RAW");
	assert_string_equal(vta_problem_kind_name(VTA_PROBLEM_END), "end of run");
	assert_string_equal(vta_problem_kind_name(VTA_PROBLEM_AFTER_FINISH), "after FINISH");
	assert_string_equal(vta_problem_kind_name(VTA_PROBLEM_NEVER_RUNS), "never runs");
	assert_string_equal(vta_problem_kind_name(VTA_PROBLEM_KINDS), "?");
	assert_true(vta_problem_is_error(VTA_PROBLEM_UNINIT));
	assert_false(vta_problem_is_error(VTA_PROBLEM_TOKENS_LEFT));
	assert_string_equal(vta_status_str(VTA_E_RACE), "data race");
	assert_int_equal(vta_status_exit_code(VTA_E_RACE), 1);
	assert_int_equal(vta_status_exit_code(VTA_E_UNINIT), 1);
	assert_int_equal(vta_status_exit_code(VTA_E_WARNING), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_raw_alu_store), cmocka_unit_test(test_war_load_gemm),
		cmocka_unit_test(test_waw_table),     cmocka_unit_test(test_dram),
		cmocka_unit_test(test_end_of_run),    cmocka_unit_test(test_after_finish),
		cmocka_unit_test(test_never_runs),
		cmocka_unit_test(test_uninit),        cmocka_unit_test(test_tokens_left),
		cmocka_unit_test(test_tokens_and_strict),
		cmocka_unit_test(test_uops_from_store),
		cmocka_unit_test(test_engine_diagnoses),
		cmocka_unit_test(test_before_a_rule), cmocka_unit_test(test_counts_and_caps),
		cmocka_unit_test(test_kernel_reused), cmocka_unit_test(test_kernel_reloaded),
		cmocka_unit_test(test_many_kernels),  cmocka_unit_test(test_rows_apart),
		cmocka_unit_test(test_depths),        cmocka_unit_test(test_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
