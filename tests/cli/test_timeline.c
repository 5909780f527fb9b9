/*
 * test_timeline.c - the timeline picture's collection (cli/trace_timeline.c) fed with steps
 * made here, as trace_walk hands them over: what is kept for detail, what the summary's
 * columns add up to, what a window cuts. Expected values are counted by hand from the
 * steps; nothing is drawn (closing with no path only frees).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "timeline.h"

typedef struct fixture {
	vta_run_stats stats;
	vtasim_insn_record recs[8];
	trace_run run;
	vta_insn load, gemm;
} fixture;

static void fixture_init(fixture *f, uint64_t cycles, uint64_t offset)
{
	memset(f, 0, sizeof(*f));
	f->stats.cycles = cycles;
	f->recs[0].module = VTA_STATS_LOAD;
	f->recs[1].module = VTA_STATS_COMPUTE;
	f->run = (trace_run){.name = "layer a", .recs = f->recs, .n = 2, .stats = &f->stats,
			     .offset = offset};
	f->load.opcode = VTA_OP_LOAD;
	f->load.mem.mem_type = VTA_MEM_INP;
	f->load.mem.x_size = 1;
	f->gemm.opcode = VTA_OP_GEMM;
}

static trace_step step(const fixture *f, trace_step_kind kind, int track, uint64_t s,
		       uint64_t e)
{
	return (trace_step){.kind = kind, .run = &f->run, .number = 1, .track = track,
			    .start = s, .end = e, .text = "", .partner = TRACE_NO_INSN};
}

static void exec(trace_timeline *t, const fixture *f, const vta_insn *in, int track, size_t i,
		 uint64_t s, uint64_t e)
{
	trace_step st = step(f, TRACE_EXEC, track, s, e);
	st.in = in;
	st.insn = i;
	st.text = in->opcode == VTA_OP_GEMM ? "gemm   reset=0 uop=0,1" : "load   mem=inp";
	trace_timeline_step(t, &st);
}

static double lane_cycles(const trace_timeline *t, int lane, int kind)
{
	double sum = 0;
	for (int j = 0; j < TL_BINS; j++)
		sum += t->bins[j].cycles[lane][kind];
	return sum;
}

/* A few spans and a token: every one kept, labelled, and an arrow between the lanes. */
static void test_detail(void **state)
{
	(void)state;
	fixture f;
	fixture_init(&f, 100, 0);
	trace_timeline *t = trace_timeline_open("test", 0, 0);
	assert_non_null(t);
	trace_step b = step(&f, TRACE_RUN_BEGIN, 0, 0, 0);
	trace_timeline_step(t, &b);
	exec(t, &f, &f.load, VTA_STATS_LOAD, 0, 10, 40);
	trace_step w = step(&f, TRACE_POP_WAIT, VTA_STATS_COMPUTE, 5, 40);
	w.insn = 1;
	w.queue = VTA_QUEUE_L2G;
	trace_timeline_step(t, &w);
	exec(t, &f, &f.gemm, VTA_STATS_COMPUTE, 1, 40, 90);
	trace_step p = step(&f, TRACE_PUSH, VTA_STATS_LOAD, 40, 40);
	p.queue = VTA_QUEUE_L2G;
	p.partner = 1;
	p.partner_cycle = 40;
	trace_timeline_step(t, &p);
	trace_step e = step(&f, TRACE_RUN_END, 0, 100, 100);
	trace_timeline_step(t, &e);

	assert_false(t->spans_over);
	assert_int_equal(t->spans.n, 3);
	assert_int_equal(t->insns, 2);
	const tl_span *sp = t->spans.items;
	assert_string_equal(sp[0].label, "0 load inp");
	assert_string_equal(sp[1].label, "1 waits l2g");
	assert_int_equal(sp[1].kind, K_WAIT_TOKEN);
	assert_string_equal(sp[2].label, "1 gemm");
	assert_int_equal(t->arrows.n, 1);
	const tl_arrow *a = t->arrows.items;
	assert_int_equal(a[0].lane_from, VTA_STATS_LOAD);
	assert_int_equal(a[0].lane_to, VTA_STATS_COMPUTE);
	assert_int_equal(t->end, 100);
	assert_int_equal(trace_timeline_close(t, NULL, NULL), VTA_E_USAGE);
}

/* More spans than detail keeps: the summary's columns hold every cycle, a port wait inside
 * an execution moved from the execution's kind to its own, and the columns widened until
 * the whole run fits. */
static void test_summary(void **state)
{
	(void)state;
	const uint64_t n = TL_DETAIL_MAX + 500, len = 10, wait = 3;
	fixture f;
	fixture_init(&f, n * len, 0);
	trace_timeline *t = trace_timeline_open("test", 0, 0);
	assert_non_null(t);
	trace_step b = step(&f, TRACE_RUN_BEGIN, 0, 0, 0);
	trace_timeline_step(t, &b);
	for (uint64_t i = 0; i < n; i++) {
		exec(t, &f, &f.load, VTA_STATS_LOAD, 0, i * len, (i + 1) * len);
		trace_step pw = step(&f, TRACE_PORT_WAIT, VTA_STATS_LOAD, i * len, i * len + wait);
		pw.in = &f.load;
		trace_timeline_step(t, &pw);
	}
	trace_step e = step(&f, TRACE_RUN_END, 0, n * len, n * len);
	trace_timeline_step(t, &e);

	assert_true(t->spans_over);
	assert_int_equal(t->spans.n, 0);
	assert_int_equal(t->insns, n);
	assert_true(t->from + TL_BINS * t->bin_width >= n * len);
	assert_true(t->from + TL_BINS / 2 * t->bin_width < n * len);
	assert_true(lane_cycles(t, VTA_STATS_LOAD, K_LOAD) == (double)(n * (len - wait)));
	assert_true(lane_cycles(t, VTA_STATS_LOAD, K_WAIT_PORT) == (double)(n * wait));
	assert_true(lane_cycles(t, VTA_STATS_COMPUTE, K_GEMM) == 0);
	trace_timeline_close(t, NULL, NULL);
}

/* A window [100, 200) of a second run placed at 50: spans cut to it, the columns fixed. */
static void test_window(void **state)
{
	(void)state;
	fixture f;
	fixture_init(&f, 300, 50);
	trace_timeline *t = trace_timeline_open("test", 100, 200);
	assert_non_null(t);
	trace_step b = step(&f, TRACE_RUN_BEGIN, 0, 0, 0);
	trace_timeline_step(t, &b);
	exec(t, &f, &f.gemm, VTA_STATS_COMPUTE, 1, 0, 60);    /* [50, 110): 10 in */
	exec(t, &f, &f.gemm, VTA_STATS_COMPUTE, 1, 100, 120); /* [150, 170): 20 in */
	exec(t, &f, &f.gemm, VTA_STATS_COMPUTE, 1, 140, 250); /* [190, 300): 10 in */
	exec(t, &f, &f.gemm, VTA_STATS_COMPUTE, 1, 200, 250); /* [250, 300): out */
	trace_step e = step(&f, TRACE_RUN_END, 0, 300, 300);
	trace_timeline_step(t, &e);

	assert_int_equal(t->insns, 3);
	assert_int_equal(t->spans.n, 3);
	const tl_span *sp = t->spans.items;
	assert_int_equal(sp[0].start, 100);
	assert_int_equal(sp[0].end, 110);
	assert_int_equal(sp[2].start, 190);
	assert_int_equal(sp[2].end, 200);
	assert_int_equal(t->bin_width, 1);
	assert_true(lane_cycles(t, VTA_STATS_COMPUTE, K_GEMM) == 40);
	assert_int_equal(t->end, 350);
	trace_timeline_close(t, NULL, NULL);
}

/* The token track: each column's most, the values held between changes, empty after the
 * run; the value as the window opens kept apart. */
static void test_tokens(void **state)
{
	(void)state;
	fixture f;
	fixture_init(&f, 100, 0);
	trace_timeline *t = trace_timeline_open("test", 20, 80);
	trace_step b = step(&f, TRACE_RUN_BEGIN, 0, 0, 0);
	trace_timeline_step(t, &b);
	long v[VTA_QUEUE_COUNT] = {0};
	trace_step c = step(&f, TRACE_COUNTS, 0, 10, 10);
	c.tokens = v;
	c.tokens_changed = 1;
	v[VTA_QUEUE_G2S] = 2;
	trace_timeline_step(t, &c); /* 2 from 10 */
	v[VTA_QUEUE_G2S] = 1;
	c.start = 50;
	trace_timeline_step(t, &c); /* 1 from 50 */
	trace_step e = step(&f, TRACE_RUN_END, 0, 100, 100);
	trace_timeline_step(t, &e);

	assert_int_equal(t->tok_before[VTA_QUEUE_G2S], 2);
	assert_int_equal(t->bins[0].tokens[VTA_QUEUE_G2S], 2);  /* cycle 20 */
	assert_int_equal(t->bins[29].tokens[VTA_QUEUE_G2S], 2); /* cycle 49 */
	assert_int_equal(t->bins[30].tokens[VTA_QUEUE_G2S], 1); /* cycle 50 */
	assert_int_equal(t->bins[59].tokens[VTA_QUEUE_G2S], 1); /* cycle 79 */
	assert_int_equal(t->bins[60].tokens[VTA_QUEUE_G2S], 0); /* beyond the window */
	assert_int_equal(t->tokens.n, 1);                        /* the change at 50 */
	trace_timeline_close(t, NULL, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_detail),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_tokens),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
