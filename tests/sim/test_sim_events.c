/*
 * test_sim_events.c - the events a recorded run keeps beside its records (vtasim_api.h):
 *   - DRAM port bursts: in order of their start, never overlapping on their channel (reads;
 *     STORE's writes), each granted no earlier than asked; their beats add up to the
 *     port's busy cycles, their bytes to each client's DRAM traffic; and the channels'
 *     rules replayed burst by burst (reads: one request per cycle, at most
 *     dram.max_read_bursts in flight, data the latency after the request, in request
 *     order; writes: at most dram.max_write_bursts awaiting their response) give every
 *     burst's first beat where the run had it;
 *   - SRAM live bytes: steps in time order, within each SRAM's capacity, peaking at the
 *     statistics' peak_bytes and back to zero at the end;
 *   - ALU lanes that wrapped, against a plain int64 replay of the same instructions,
 *     including rows an instruction writes and reads again;
 * on random programs and on a hand-written ALU program. Built twice: with the C datapath
 * and (EVENTS_RTL) with the RTL one, whose late write-back the wrap count must see past.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_randprog.h"
#include "sim_testutil.h"

#ifdef EVENTS_RTL
#define PROGRAMS 20
#else
#define PROGRAMS 100
#endif

static int setup(void **state)
{
	static simt t; /* cmocka state; one model per process */
	vta_config cfg;
	vta_config_default(&cfg);
	cfg.dram_max_write_bursts = 2; /* writes wait for responses, two in flight */
#ifdef EVENTS_RTL
	snprintf(cfg.name, sizeof(cfg.name), "%s", "events-rtl");
	cfg.datapath = VTA_DATAPATH_RTL;
#endif
	vta_error err = {0};
	if (vta_config_derive(&cfg, &err) != VTA_OK)
		fail_msg("config: %s", err.detail);
	simt_init(&t, &cfg);
	*state = &t;
	return 0;
}

static int teardown(void **state)
{
	simt_fini(*state);
	return 0;
}

/* Run prog recorded over a fresh DRAM; the records and events stay in the handle. */
static vta_status run_recorded(simt *t, const vta_program *prog, vta_run_stats *s,
			       vta_error *err)
{
	vta_dram dram;
	vta_error e = {0};
	simt_dram(prog, &dram);
	if (vtasim_sim_set_recording(t->sim, 1, &e) != VTA_OK)
		fail_msg("set_recording: %s", e.detail);
	vta_status st = vtasim_sim_run(t->sim, prog, &dram, s, err);
	vta_dram_free(&dram);
	return st;
}

/* The bursts against the statistics and the records of a completed run. */
static void check_bursts(const vta_config *cfg, const vtasim_run_events *ev,
			 const vtasim_insn_record *r, size_t n,
			 const vta_run_stats *s)
{
	uint64_t beats = 0, bytes[VTA_STATS_MODULES] = {0};
	const uint64_t t_latency = cfg->dram_latency_cycles;
	uint64_t *port = calloc(n, sizeof(*port));
	assert_non_null(port);
	for (size_t k = 0; k < ev->n_bursts; k++) {
		const vtasim_port_burst *b = &ev->bursts[k];
		assert_true(b->ask_cycle <= b->start_cycle);
		assert_true(b->beats > 0 && b->bytes > 0);
		assert_true(b->module < VTA_STATS_MODULES);
		assert_true(b->insn < n);
		/* one at a time on each channel, in order */
		const int write = b->module == VTA_STATS_STORE;
		for (size_t j = k; j-- > 0;)
			if ((ev->bursts[j].module == VTA_STATS_STORE) == write) {
				assert_true(b->start_cycle >=
					    ev->bursts[j].start_cycle + ev->bursts[j].beats);
				break;
			}
		assert_true(b->start_cycle + b->beats <= s->cycles);
		beats += b->beats;
		bytes[b->module] += b->bytes;
		if (b->module == VTA_STATS_FETCH) /* its wait: beyond the latency */
			assert_int_equal(b->start_cycle - b->ask_cycle - t_latency,
					 r[b->insn].fetch_port_cycles);
		else
			port[b->insn] = 1;
	}
	assert_int_equal(beats, s->dram_busy_cycles);
	assert_int_equal(bytes[VTA_STATS_FETCH], s->dram_insn_bytes);
	uint64_t read = 0;
	for (int m = 0; m < VTA_MEM_COUNT; m++)
		read += s->dram_read_bytes[m];
	assert_int_equal(bytes[VTA_STATS_LOAD] + bytes[VTA_STATS_COMPUTE], read);
	assert_int_equal(bytes[VTA_STATS_STORE], s->dram_write_bytes);
	for (size_t i = 0; i < n; i++) /* only a transfer waits for the port */
		assert_true(port[i] || r[i].port_cycles == 0);
	free(port);
}

/* What the channels' rules saw over the runs: the replay must meet each case. */
typedef struct port_cases {
	size_t waited;      /* read bursts whose data came later than the latency after asked */
	size_t tag_bound;   /* read bursts that waited for a tag */
	size_t interleaved; /* a transfer's burst that followed another client's */
	size_t write_waits; /* write bursts that waited for a response */
} port_cases;

/* Replay the read and write channels from the bursts' requests, in the order they were
 * issued (their data's order), as vta_cost.h's rules say. */
static void check_port_rule(const vta_config *cfg, const vtasim_run_events *ev,
			    port_cases *seen)
{
	const uint64_t L = cfg->dram_latency_cycles, R = cfg->dram_max_read_bursts;
	const uint64_t W = cfg->dram_max_write_bursts, ack = cfg->dram_write_ack_cycles;
	size_t n = ev->n_bursts, nr = 0, nw = 0;
	uint64_t *rd_end = calloc(n + 1, sizeof(uint64_t)), *resp = calloc(n + 1, sizeof(uint64_t));
	assert_non_null(rd_end);
	assert_non_null(resp);
	uint64_t req = 0, data_free = 0, wdata_free = 0;
	int prev_module = -1;
	for (size_t k = 0; k < n; k++) {
		const vtasim_port_burst *b = &ev->bursts[k];
		uint64_t first;
		if (b->module == VTA_STATS_STORE) {
			const uint64_t slot = nw >= W ? resp[nw - W] : 0;
			const uint64_t wreq = b->ask_cycle > slot ? b->ask_cycle : slot;
			seen->write_waits += slot > b->ask_cycle;
			first = wreq > wdata_free ? wreq : wdata_free;
			wdata_free = first + b->beats;
			resp[nw++] = wdata_free + L + ack;
		} else {
			const uint64_t tag = nr >= R ? rd_end[nr - R] : 0;
			uint64_t r = b->ask_cycle;
			if (nr && req + 1 > r)
				r = req + 1;
			seen->tag_bound += tag > r;
			if (tag > r)
				r = tag;
			req = r;
			first = req + L > data_free ? req + L : data_free;
			seen->waited += first > b->ask_cycle + L;
			seen->interleaved += prev_module >= 0 && prev_module != b->module &&
					     b->module != VTA_STATS_FETCH;
			prev_module = b->module;
			data_free = first + b->beats;
			rd_end[nr++] = data_free;
		}
		if (first != b->start_cycle)
			fail_msg("burst %zu (module %d, insn %llu, asked at %llu): first beat at "
				 "%llu, the rule has it at %llu",
				 k, b->module, (unsigned long long)b->insn,
				 (unsigned long long)b->ask_cycle, (unsigned long long)b->start_cycle,
				 (unsigned long long)first);
	}
	free(rd_end);
	free(resp);
}

/* The live steps against the statistics' peaks and capacities. */
static void check_live(const vtasim_run_events *ev, const vta_run_stats *s)
{
	uint64_t peak[VTA_STATS_SRAMS] = {0};
	for (size_t k = 0; k < ev->n_live; k++) {
		const vtasim_live_step *l = &ev->live[k];
		if (k > 0)
			assert_true(l->cycle > ev->live[k - 1].cycle);
		assert_true(l->cycle <= s->cycles);
		for (int m = 0; m < VTA_STATS_SRAMS; m++) {
			assert_true(l->bytes[m] <= s->sram[m].capacity_bytes);
			if (l->bytes[m] > peak[m])
				peak[m] = l->bytes[m];
		}
	}
	for (int m = 0; m < VTA_STATS_SRAMS; m++) {
		assert_int_equal(peak[m], s->sram[m].peak_bytes);
		if (ev->n_live) /* every value dies by its last read */
			assert_int_equal(ev->live[ev->n_live - 1].bytes[m], 0);
	}
}

/* Random programs: bursts and live bytes add up to the statistics. */
static void test_random_programs(void **state)
{
	simt *t = *state;
	size_t bursts = 0, live = 0;
	port_cases seen = {0};
	for (uint32_t seed = 1; seed <= PROGRAMS; seed++) {
		vta_program prog;
		vta_run_stats s;
		vta_error err = {0};
		vta_program_init(&prog, &t->cfg);
		rp_generate(&t->cfg, seed * 2654435761u, &prog);
		if (run_recorded(t, &prog, &s, &err) != VTA_OK)
			fail_msg("program %u: %s", seed, err.detail);
		size_t n;
		const vtasim_insn_record *r = vtasim_sim_records(t->sim, &n);
		assert_int_equal(n, prog.n_insns);
		vtasim_run_events ev;
		vtasim_sim_events(t->sim, &ev);
		check_bursts(&t->cfg, &ev, r, n, &s);
		check_port_rule(&t->cfg, &ev, &seen);
		check_live(&ev, &s);
		bursts += ev.n_bursts;
		live += ev.n_live;
		vta_program_free(&prog);
	}
	assert_true(bursts > PROGRAMS && live > PROGRAMS);
	printf("port: %zu bursts, %zu waited, %zu waited for a tag, %zu interleaved, %zu writes "
	       "waited for a response\n",
	       bursts, seen.waited, seen.tag_bound, seen.interleaved, seen.write_waits);
	assert_true(seen.waited > 0 && seen.interleaved > 0 && seen.write_waits > 0);
}

/* ALU instructions over random int32 rows, three uops whose rows each instruction updates
 * again and again (ACC rows 0..2 from rows 4..6), so later uops read what earlier ones
 * wrote. The last has its reset bit set, which an ALU ignores: it adds like the first. */
static const char ALU_PROGRAM[] =
	"load mem=uop sram=0 dram=0x400 y=1 x=3 stride=3 deps=none\n"
	"load mem=acc sram=0 dram=0x80 y=1 x=8 stride=8 deps=none\n"
	"alu op=add reset=0 uop=0,3 iter=1,4 dst=0,0 src=0,0 use_imm=0 imm=0 deps=none\n"
	"alu op=mul reset=0 uop=0,3 iter=1,2 dst=0,0 src=0,0 use_imm=1 imm=3 deps=none\n"
	"alu op=shr reset=0 uop=0,3 iter=1,1 dst=0,0 src=0,0 use_imm=1 imm=-2 deps=none\n"
	"alu op=min reset=0 uop=0,3 iter=1,1 dst=0,0 src=0,0 use_imm=0 imm=0 deps=none\n"
	"alu op=shr reset=0 uop=0,3 iter=1,1 dst=0,0 src=0,0 use_imm=1 imm=7 deps=none\n"
	"alu op=mul reset=0 uop=0,3 iter=1,2 dst=0,0 src=0,0 use_imm=0 imm=0 deps=none\n"
	"alu op=add reset=1 uop=0,3 iter=1,1 dst=0,0 src=0,0 use_imm=0 imm=0 deps=none\n"
	"finish deps=none\n"
	".uops 0x1000\n"
	"uop dst=0 src=4 wgt=0\n"
	"uop dst=1 src=5 wgt=0\n"
	"uop dst=2 src=6 wgt=0\n";

enum { ALU_FIRST = 2, ALU_INSNS = 7, LANES = 16, ROWS = 8 };

/* The same instructions on int64, counting per instruction and lane the results that
 * leave int32 (docs/arithmetic.md) and wrapping them as the ALU does. */
static void replay(int32_t acc[ROWS][LANES], uint32_t want[ALU_INSNS][LANES])
{
	static const struct {
		char op; /* + * < (left shift by imm) m (min) > (right shift) */
		int iters, use_imm, imm;
	} steps[ALU_INSNS] = {{'+', 4, 0, 0}, {'*', 2, 1, 3}, {'<', 1, 1, 2}, {'m', 1, 0, 0},
			      {'>', 1, 1, 7}, {'*', 2, 0, 0}, {'+', 1, 0, 0}};
	for (int k = 0; k < ALU_INSNS; k++)
		for (int it = 0; it < steps[k].iters; it++)
			for (int u = 0; u < 3; u++)
				for (int l = 0; l < LANES; l++) {
					int64_t a = acc[u][l];
					int64_t b = steps[k].use_imm ? steps[k].imm : acc[u + 4][l];
					int64_t x = 0;
					switch (steps[k].op) {
					case '+': x = a + b; break;
					case '*': x = a * b; break;
					case '<': x = a * 4; break;
					case 'm': x = a < b ? a : b; break;
					case '>': x = a >> 7; break;
					default: x = a; break;
					}
					if (x < INT32_MIN || x > INT32_MAX)
						want[k][l]++;
					acc[u][l] = (int32_t)(uint32_t)(uint64_t)x;
				}
}

static void test_alu_wraps(void **state)
{
	simt *t = *state;
	vta_program prog;
	vta_run_stats s;
	vta_error err = {0};
	const uint32_t seed = 12345;
	simt_asm_random(t, ALU_PROGRAM, 0x2000, ROWS * LANES * 4, seed, &prog);
	/* the rows as simt_asm_random made them */
	int32_t acc[ROWS][LANES];
	uint32_t rs = seed;
	uint8_t bytes[ROWS * LANES * 4];
	for (size_t i = 0; i < sizeof(bytes); i++)
		bytes[i] = (uint8_t)simt_rand(&rs);
	for (int r = 0; r < ROWS; r++)
		for (int l = 0; l < LANES; l++) {
			const uint8_t *p = bytes + (r * LANES + l) * 4;
			acc[r][l] = (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 |
					      (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
		}
	uint32_t want[ALU_INSNS][LANES];
	memset(want, 0, sizeof(want));
	replay(acc, want);

	if (run_recorded(t, &prog, &s, &err) != VTA_OK)
		fail_msg("%s", err.detail);
	size_t n;
	const vtasim_insn_record *r = vtasim_sim_records(t->sim, &n);
	vtasim_run_events ev;
	vtasim_sim_events(t->sim, &ev);
	uint32_t got[ALU_INSNS][LANES];
	memset(got, 0, sizeof(got));
	for (size_t k = 0; k < ev.n_wraps; k++) {
		const vtasim_alu_wrap *w = &ev.wraps[k];
		assert_true(w->insn >= ALU_FIRST && w->insn < ALU_FIRST + ALU_INSNS);
		assert_true(w->lane < LANES && w->count > 0);
		if (k > 0) /* instruction order, then lane order */
			assert_true(w->insn > ev.wraps[k - 1].insn ||
				    (w->insn == ev.wraps[k - 1].insn &&
				     w->lane > ev.wraps[k - 1].lane));
		got[w->insn - ALU_FIRST][w->lane] = w->count;
	}
	uint64_t total = 0;
	for (int k = 0; k < ALU_INSNS; k++) {
		uint64_t sum = 0;
		for (int l = 0; l < LANES; l++) {
			if (got[k][l] != want[k][l])
				fail_msg("alu insn %d lane %d: %u wraps, expected %u",
					 ALU_FIRST + k, l, got[k][l], want[k][l]);
			sum += want[k][l];
		}
		assert_int_equal(r[ALU_FIRST + k].alu_wraps, sum);
		total += sum;
	}
	assert_true(total > 20); /* random data wraps ADD, MUL and the left shift */
	for (size_t i = 0; i < n; i++)
		if (i < ALU_FIRST || i >= ALU_FIRST + ALU_INSNS)
			assert_int_equal(r[i].alu_wraps, 0);
	vta_program_free(&prog);

	/* without recording: no events */
	vta_dram dram;
	simt_asm(t, "finish\n", &prog);
	simt_dram(&prog, &dram);
	assert_int_equal(vtasim_sim_set_recording(t->sim, 0, &err), VTA_OK);
	assert_int_equal(vtasim_sim_run(t->sim, &prog, &dram, &s, &err), VTA_OK);
	vtasim_sim_events(t->sim, &ev);
	assert_int_equal(ev.n_bursts + ev.n_live + ev.n_wraps, 0);
	assert_null(ev.bursts);
	vta_dram_free(&dram);
	vta_program_free(&prog);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_random_programs),
		cmocka_unit_test(test_alu_wraps),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
