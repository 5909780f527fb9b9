/*
 * test_sim_datapath.c - the simulator's plain functions, without a SystemC kernel: the
 * GEMM kernel against a naive loop, the ALU lane semantics on edge values, the DMA
 * checks and data movement, and the timing cost functions.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "datapath.h"
#include "dma.h"
#include "sim_testutil.h"
#include "vta_cost.h"
#include "vta_host_cpu.h"
#include "vta_rules.h"

static void naive_gemm(const int8_t *inp, const int8_t *wgt, int32_t *acc, unsigned batch,
		       unsigned bin, unsigned bout)
{
	for (unsigned b = 0; b < batch; b++)
		for (unsigned o = 0; o < bout; o++) {
			int64_t s = acc[b * bout + o];
			for (unsigned k = 0; k < bin; k++)
				s += (int64_t)inp[b * bin + k] * wgt[o * bin + k];
			acc[b * bout + o] = (int32_t)(uint32_t)(uint64_t)s; /* wraps mod 2^32 */
		}
}

static void test_gemm_kernel(void **state)
{
	(void)state;
	const unsigned shapes[][3] = {{1, 16, 16}, {2, 16, 32}, {2, 8, 16}, {1, 32, 4}, {4, 16, 8},
				      {1, 1, 1}};
	uint32_t seed = 42;
	for (size_t si = 0; si < sizeof(shapes) / sizeof(shapes[0]); si++) {
		unsigned batch = shapes[si][0], bin = shapes[si][1], bout = shapes[si][2];
		for (int rep = 0; rep < 50; rep++) {
			int8_t inp[4 * 32], wgt[32 * 16], out[4 * 16];
			int32_t acc[4 * 16], want[4 * 16];
			for (unsigned i = 0; i < batch * bin; i++)
				inp[i] = rep == 0 ? -128 : (int8_t)simt_rand(&seed);
			for (unsigned i = 0; i < bout * bin; i++)
				wgt[i] = rep == 0 ? -128 : (int8_t)simt_rand(&seed);
			for (unsigned i = 0; i < batch * bout; i++)
				acc[i] = want[i] = rep < 2 ? INT32_MAX - 5 : (int32_t)simt_rand(&seed);
			vtasim_gemm_uop(inp, wgt, acc, out, batch, bin, bout);
			naive_gemm(inp, wgt, want, batch, bin, bout);
			assert_memory_equal(acc, want, sizeof(int32_t) * batch * bout);
			for (unsigned i = 0; i < batch * bout; i++)
				assert_int_equal((uint8_t)out[i], (uint8_t)(uint32_t)want[i]);
		}
	}
	int32_t acc[4] = {1, -2, 3, 4};
	int8_t out[4] = {1, 2, 3, 4};
	vtasim_gemm_reset(acc, out, 4);
	for (int i = 0; i < 4; i++)
		assert_true(acc[i] == 0 && out[i] == 0);
}

/* A weight value: -128, 127 or random, never 0. */
static int8_t nonzero_weight(uint32_t *seed)
{
	const uint32_t r = simt_rand(seed);
	const int8_t v = r % 4 == 0 ? -128 : r % 4 == 1 ? 127 : (int8_t)(r >> 8);
	return v ? v : 1;
}

/* One WGT row of bout x bin weights in which each output has at most one nonzero weight,
 * or nearly so, as kernels may take such blocks apart: a diagonal (a depthwise layer's
 * block), one random input per output (a depth multiplier's spread), all zeros, one such
 * block with one output given a second nonzero weight, or random values. */
static void sparse_block(int8_t *w, unsigned bin, unsigned bout, uint32_t *seed)
{
	const unsigned kind = simt_rand(seed) % 5;
	memset(w, 0, (size_t)bin * bout);
	for (unsigned o = 0; o < bout; o++) {
		int8_t *row = w + (size_t)o * bin;
		if (kind == 0)
			row[o % bin] = nonzero_weight(seed);
		else if (kind == 1 || kind == 3)
			row[simt_rand(seed) % bin] = simt_rand(seed) % 4 ? nonzero_weight(seed) : 0;
		else if (kind == 4)
			for (unsigned k = 0; k < bin; k++)
				row[k] = (int8_t)simt_rand(seed);
	}
	if (kind == 3 && bin > 1) { /* two nonzero weights (or three) in one output's row */
		int8_t *row = w + (size_t)(simt_rand(seed) % bout) * bin;
		const unsigned a = simt_rand(seed) % bin;
		row[a] = nonzero_weight(seed);
		row[(a + 1 + simt_rand(seed) % (bin - 1)) % bin] = nonzero_weight(seed);
	}
}

/* The SRAMs of a comparison: ni INP, nw WGT (and their packing for kernel k) and na ACC/OUT
 * rows, twice over for ACC and OUT (a: the kernel under test, b: the reference). Rep 0 and
 * 1 fill extremes, ACC near the wrap; later reps random values, and from rep SPARSE_REP on
 * WGT rows of sparse blocks (sparse_block). */
enum { SPARSE_REP = 4 };

typedef struct gemm_bufs {
	size_t in_row, w_row, p_row, lanes, na;
	int8_t *inp, *wgt, *packed, *out_a, *out_b;
	int32_t *acc_a, *acc_b;
} gemm_bufs;

static gemm_bufs bufs_make(const vtasim_gemm_kernel *k, unsigned batch, unsigned bin,
			   unsigned bout, size_t ni, size_t nw, size_t na, int rep, uint32_t *seed)
{
	gemm_bufs g = {0};
	g.in_row = (size_t)batch * bin;
	g.w_row = (size_t)bout * bin;
	g.lanes = (size_t)batch * bout;
	g.na = na;
	g.p_row = k->pack ? k->packed_bytes : g.w_row;
	g.inp = malloc(ni * g.in_row);
	g.wgt = malloc(nw * g.w_row);
	g.packed = aligned_alloc(64, (nw * g.p_row + 63) / 64 * 64);
	g.acc_a = malloc(na * g.lanes * 4);
	g.acc_b = malloc(na * g.lanes * 4);
	g.out_a = malloc(na * g.lanes);
	g.out_b = malloc(na * g.lanes);
	assert_non_null(g.inp && g.wgt && g.packed && g.acc_a && g.acc_b && g.out_a && g.out_b);
	for (size_t i = 0; i < ni * g.in_row; i++)
		g.inp[i] = rep == 0 ? -128 : rep == 1 ? 127 : (int8_t)simt_rand(seed);
	for (size_t i = 0; i < nw * g.w_row; i++)
		g.wgt[i] = rep <= 1 ? -128 : (int8_t)simt_rand(seed);
	for (size_t w = 0; rep >= SPARSE_REP && w < nw; w++)
		sparse_block(g.wgt + w * g.w_row, bin, bout, seed);
	for (size_t i = 0; i < na * g.lanes; i++)
		g.acc_a[i] = g.acc_b[i] = rep < 2 ? INT32_MAX - (int32_t)(i % 1000)
						  : (int32_t)simt_rand(seed);
	memset(g.out_a, 0x5a, na * g.lanes);
	memset(g.out_b, 0x5a, na * g.lanes);
	for (size_t w = 0; w < nw; w++)
		if (k->pack)
			k->pack(g.wgt + w * g.w_row, g.packed + w * g.p_row, bin, bout);
		else
			memcpy(g.packed + w * g.p_row, g.wgt + w * g.w_row, g.w_row);
	return g;
}

/* ACC and OUT of a and b the same, else fail naming what differs. */
static void bufs_check(const gemm_bufs *g, const char *what, const char *name, unsigned batch,
		       unsigned bin, unsigned bout)
{
	if (memcmp(g->acc_a, g->acc_b, g->na * g->lanes * 4) ||
	    memcmp(g->out_a, g->out_b, g->na * g->lanes))
		fail_msg("%s kernel's %s: batch %u block_in %u block_out %u", name, what, batch,
			 bin, bout);
}

static void bufs_free(gemm_bufs *g)
{
	free(g->inp);
	free(g->wgt);
	free(g->packed);
	free(g->acc_a);
	free(g->acc_b);
	free(g->out_a);
	free(g->out_b);
}

/* One comparison of kernel k with the portable one on shape (batch, bin, bout): NU uops in
 * one call over NI INP, NW WGT and NA ACC rows, so later uops accumulate into ACC rows
 * earlier ones of the same call wrote. */
enum { NU = 7, NI = 3, NW = 2, NA = 3 };

static void compare_kernel(const vtasim_gemm_kernel *k, const vtasim_gemm_kernel *port,
			   unsigned batch, unsigned bin, unsigned bout, int rep, uint32_t *seed)
{
	gemm_bufs g = bufs_make(k, batch, bin, bout, NI, NW, NA, rep, seed);
	vtasim_gemm_rows ra[NU], rb[NU];
	for (unsigned u = 0; u < NU; u++) {
		const unsigned i = u % NI, w = (u * 5 + 1) % NW, a = (u * 2) % NA;
		ra[u] = (vtasim_gemm_rows){g.inp + i * g.in_row, g.packed + w * g.p_row,
					   g.acc_a + a * g.lanes, g.out_a + a * g.lanes};
		rb[u] = (vtasim_gemm_rows){g.inp + i * g.in_row, g.wgt + w * g.w_row,
					   g.acc_b + a * g.lanes, g.out_b + a * g.lanes};
	}
	k->run(ra, NU, batch, bin, bout);
	port->run(rb, NU, batch, bin, bout);
	char what[64];
	snprintf(what, sizeof(what), "rows differ from the portable one's, rep %d", rep);
	bufs_check(&g, what, k->name, batch, bin, bout);
	bufs_free(&g);
}

/* One comparison of kernel k's nest entry with vtasim_gemm_uop applied uop by uop over the
 * same nest walked by hand: iter_out x iter_in iterations of NK uops whose rows repeat, so
 * uops accumulate into ACC rows earlier ones wrote; factors 0-2, rows below NR. With
 * scratch (even reps) a kernel may group the uops by ACC row, without it not. */
enum { NK = 5, NR = 12 };

static void compare_nest(const vtasim_gemm_kernel *k, unsigned batch, unsigned bin,
			 unsigned bout, int rep, uint32_t *seed)
{
	gemm_bufs g = bufs_make(k, batch, bin, bout, NR, NR, NR, rep, seed);
	/* rows below 2 + 2 x 2 + 2 x 2 < NR */
	uint64_t src[NK], wg[NK], dst[NK], f[6];
	for (int u = 0; u < NK; u++) {
		src[u] = simt_rand(seed) % 3;
		wg[u] = simt_rand(seed) % 3;
		dst[u] = simt_rand(seed) % 3;
	}
	for (int i = 0; i < 6; i++)
		f[i] = simt_rand(seed) % 3;
	const uint64_t iter_out = 1 + simt_rand(seed) % 3, iter_in = 1 + simt_rand(seed) % 3;
	uint32_t scratch[2 * NK];
	uint64_t inp_at[NK], wgt_at[NK], dst_at[NK];
	for (int u = 0; u < NK; u++) {
		inp_at[u] = src[u] * g.in_row;
		wgt_at[u] = wg[u] * g.p_row;
		dst_at[u] = dst[u] * g.lanes;
	}
	const vtasim_gemm_nest n = {inp_at,	      wgt_at,	       dst_at,
				    NK,		      iter_out,	       iter_in,
				    f[0] * g.in_row, f[1] * g.in_row, f[2] * g.p_row,
				    f[3] * g.p_row,  f[4] * g.lanes,  f[5] * g.lanes,
				    g.inp,	      g.packed,	       g.acc_a,
				    g.out_a,	      rep % 2 ? NULL : scratch};
	k->nest(&n, batch, bin, bout);
	for (uint64_t o = 0; o < iter_out; o++)
		for (uint64_t i = 0; i < iter_in; i++)
			for (int u = 0; u < NK; u++) {
				const uint64_t r_in = src[u] + o * f[0] + i * f[1];
				const uint64_t r_w = wg[u] + o * f[2] + i * f[3];
				const uint64_t r_d = dst[u] + o * f[4] + i * f[5];
				vtasim_gemm_uop(g.inp + r_in * g.in_row, g.wgt + r_w * g.w_row,
						g.acc_b + r_d * g.lanes, g.out_b + r_d * g.lanes,
						batch, bin, bout);
			}
	bufs_check(&g, "nest differs from uop by uop", k->name, batch, bin, bout);
	bufs_free(&g);
}

/* Every kernel the host runs (each instruction-set level) and the portable one give the
 * same ACC and OUT bits on every shape a config allows (batch 1-16, block_in and block_out
 * 1-128), random blocks and extremes, several uops per call; and each kernel's nest entry
 * (the portable one's too) walks a random nest as vtasim_gemm_uop does uop by uop. */
static void test_gemm_simd_portable(void **state)
{
	(void)state;
	uint32_t seed = 7;
	unsigned fast[3] = {0, 0, 0};
	for (unsigned lb = 0; lb <= 4; lb++)
		for (unsigned li = 0; li <= 7; li++)
			for (unsigned lo = 0; lo <= 7; lo++) {
				const unsigned batch = 1u << lb, bin = 1u << li, bout = 1u << lo;
				const vtasim_gemm_kernel port =
					vtasim_gemm_choose(batch, bin, bout, VTASIM_GEMM_PORTABLE);
				assert_string_equal(port.name, "portable");
				assert_null(port.pack);
				for (int rep = 0; rep < SPARSE_REP + 4; rep++)
					compare_nest(&port, batch, bin, bout, rep, &seed);
				for (int isa = VTASIM_GEMM_AVX2; isa <= VTASIM_GEMM_BEST; isa++) {
					const vtasim_gemm_kernel k =
						vtasim_gemm_choose(batch, bin, bout, (vtasim_gemm_isa)isa);
#if defined(__x86_64__) && defined(__GNUC__)
					const char *want = "portable";
					if (isa >= VTASIM_GEMM_AVX512_VNNI && bin % 4 == 0 &&
					    bout % 16 == 0 &&
					    vta_host_cpu_runs(VTA_HOST_AVX512_VNNI))
						want = "avx512vnni";
					else if (bin == 16 && bout % 16 == 0 &&
						 vta_host_cpu_runs(VTA_HOST_AVX2))
						want = "avx2";
					assert_string_equal(k.name, want);
#endif
					for (int rep = 0; rep < SPARSE_REP + 4; rep++)
						compare_nest(&k, batch, bin, bout, rep, &seed);
					if (k.run == port.run)
						continue;
					fast[isa]++;
					/* fewer repetitions for the large blocks */
					const unsigned macs = batch * bin * bout;
					const int reps = macs <= 4096 ? 40 : macs <= 65536 ? 8 : 3;
					for (int rep = 0; rep < reps; rep++)
						compare_kernel(&k, &port, batch, bin, bout, rep, &seed);
					for (int rep = SPARSE_REP; rep < SPARSE_REP + reps; rep++)
						compare_kernel(&k, &port, batch, bin, bout, rep, &seed);
				}
			}
	print_message("shapes with a faster kernel: %u at the avx2 level, %u at the avx512vnni "
		      "level\n", fast[1], fast[2]);
}

static void test_alu_lanes(void **state)
{
	(void)state;
	assert_int_equal(vtasim_alu_lane(VTA_ALU_MIN, -3, 2), -3);
	assert_int_equal(vtasim_alu_lane(VTA_ALU_MAX, -3, 2), 2);
	assert_int_equal(vtasim_alu_lane(VTA_ALU_ADD, INT32_MAX, 1), INT32_MIN);
	assert_int_equal(vtasim_alu_lane(VTA_ALU_SHR, -7, 1), -4);
	assert_int_equal(vtasim_alu_lane(VTA_ALU_SHR, -5, 40), -1);
	assert_int_equal(vtasim_alu_lane(VTA_ALU_SHR, 5, 40), 0);
	assert_int_equal(vtasim_alu_lane(VTA_ALU_SHR, 3, -2), 12);
	assert_int_equal(vtasim_alu_lane(VTA_ALU_SHR, 1, -40), INT32_MIN);
	assert_int_equal(vtasim_alu_lane(VTA_ALU_SHR, 3, INT32_MIN), INT32_MIN);
	assert_int_equal(vtasim_alu_lane(VTA_ALU_MUL, 0x10000, 0x10000), 0);
	assert_int_equal(vtasim_alu_lane(VTA_ALU_MUL, -3, 7), -21);
	assert_int_equal(vtasim_alu_lane(VTA_ALU_SRDHM, INT32_MIN, INT32_MIN), INT32_MAX);
	assert_int_equal(vtasim_alu_lane(VTA_ALU_SRDHM, 1 << 30, 1 << 30), 1 << 29);
	assert_int_equal(vtasim_alu_lane(VTA_ALU_SRDHM, -(1 << 15), 1 << 15), 0);
	assert_int_equal(vtasim_alu_lane(VTA_ALU_SRDHM, -3 * (1 << 15), 1 << 15), -1);
	assert_int_equal(vtasim_alu_lane(VTA_ALU_RSHR, 5, 1), 3);
	assert_int_equal(vtasim_alu_lane(VTA_ALU_RSHR, -5, 1), -3);
	assert_int_equal(vtasim_alu_lane(VTA_ALU_RSHR, 6, 2), 2);
	assert_int_equal(vtasim_alu_lane(VTA_ALU_RSHR, -6, 2), -2);
	assert_int_equal(vtasim_alu_lane(VTA_ALU_RSHR, 7, -3), 7);
	assert_int_equal(vtasim_alu_lane(VTA_ALU_RSHR, INT32_MIN, 40), -1);

	/* the row form equals the lane form, with a source row and with an immediate */
	uint32_t seed = 7;
	for (uint32_t op = 0; op < VTA_ALU_OP_COUNT; op++) {
		int32_t dst[16], src[16], want[16];
		int8_t out[16];
		for (int i = 0; i < 16; i++) {
			dst[i] = (int32_t)simt_rand(&seed);
			src[i] = (int32_t)simt_rand(&seed) >> (i % 28);
			want[i] = vtasim_alu_lane(op, dst[i], src[i]);
		}
		vtasim_alu_row(op, dst, src, 0, out, 16);
		assert_memory_equal(dst, want, sizeof(dst));
		for (int i = 0; i < 16; i++)
			assert_int_equal((uint8_t)out[i], (uint8_t)(uint32_t)want[i]);
		for (int i = 0; i < 16; i++)
			want[i] = vtasim_alu_lane(op, dst[i], -9);
		vtasim_alu_row(op, dst, NULL, -9, out, 16);
		assert_memory_equal(dst, want, sizeof(dst));
	}
}

/* ALU operands at the edges: extremes, rounding points, shift amounts about 31. */
static const int32_t alu_edges[] = {INT32_MIN, INT32_MIN + 1, INT32_MAX, INT32_MAX - 1, 0, 1,
				    -1, 1 << 30, -(1 << 30), 1 << 15, -(1 << 15), 31, 32, 33,
				    -31, -32, -33, 255, -128};
#define ALU_EDGES (sizeof(alu_edges) / sizeof(alu_edges[0]))

/* An operand of an ALU lane: an edge, a shift amount (in range, out of range, negative) or a
 * random value. */
static int32_t alu_operand(uint32_t *seed)
{
	const uint32_t r = simt_rand(seed);
	switch (r % 4) {
	case 0: return alu_edges[(r >> 2) % ALU_EDGES];
	case 1: return (int32_t)((r >> 2) % 81) - 40; /* shifts -40..40 */
	case 2: return (int32_t)simt_rand(seed) >> ((r >> 2) % 32);
	default: return (int32_t)simt_rand(seed);
	}
}

/* k against the portable kernel of op on one row of `lanes` lanes, with a source row and
 * with the immediate imm. */
static void compare_alu(const vtasim_alu_kernel *k, uint32_t op, unsigned lanes, int32_t imm,
			uint32_t *seed)
{
	enum { MAX_LANES = 80 };
	int32_t da[MAX_LANES + 1], db[MAX_LANES + 1], src[MAX_LANES];
	int8_t oa[MAX_LANES + 1], ob[MAX_LANES + 1];
	const vtasim_alu_fn port = vtasim_alu_portable(op);
	for (int form = 0; form < 2; form++) {
		for (unsigned i = 0; i <= MAX_LANES; i++) {
			da[i] = db[i] = i < lanes ? alu_operand(seed) : 0x5a5a5a5a;
			oa[i] = ob[i] = 0x33;
			if (i < lanes)
				src[i] = alu_operand(seed);
		}
		const int32_t *s = form ? NULL : src;
		k->run(da, s, imm, oa, lanes);
		port(db, s, imm, ob, lanes);
		/* the lane past the row is neither read into nor written */
		if (memcmp(da, db, sizeof(da)) || memcmp(oa, ob, sizeof(oa)) ||
		    da[MAX_LANES] != 0x5a5a5a5a || oa[lanes] != 0x33)
			fail_msg("%s ALU kernel differs from the portable one: op %u, %u lanes, %s",
				 k->name, op, lanes, form ? "immediate" : "source row");
	}
}

/* Every ALU kernel the host runs (each instruction-set level) and the portable one give the
 * same ACC and OUT bits for every op, row length 1-80, source rows and immediates, on
 * extremes (INT32_MIN/MAX, shift amounts -40..40 and INT32_MIN/MAX) and random values. */
static void test_alu_simd_portable(void **state)
{
	(void)state;
	uint32_t seed = 11;
	unsigned fast = 0;
	for (uint32_t op = 0; op < VTA_ALU_OP_COUNT; op++) {
		const vtasim_alu_kernel port = vtasim_alu_choose(op, VTASIM_ALU_PORTABLE);
		assert_string_equal(port.name, "portable");
		assert_ptr_equal(port.run, vtasim_alu_portable(op));
		for (int isa = VTASIM_ALU_AVX2; isa <= VTASIM_ALU_BEST; isa++) {
			const vtasim_alu_kernel k = vtasim_alu_choose(op, (vtasim_alu_isa)isa);
#if defined(__x86_64__) && defined(__GNUC__)
			const char *name = "portable";
			if (isa >= VTASIM_ALU_AVX512 && vta_host_cpu_runs(VTA_HOST_AVX512))
				name = "avx512";
			else if (vta_host_cpu_runs(VTA_HOST_AVX2))
				name = "avx2";
			assert_string_equal(k.name, name);
#endif
			if (k.run == port.run)
				continue;
			fast++;
			for (unsigned lanes = 1; lanes <= 80; lanes++)
				for (int rep = 0; rep < 30; rep++)
					compare_alu(&k, op, lanes, alu_operand(&seed), &seed);
			/* every amount an immediate can name near the range, and the extremes */
			for (int32_t imm = -70; imm <= 70; imm++)
				compare_alu(&k, op, 16, imm, &seed);
			const int32_t ext[] = {INT32_MIN, INT32_MIN + 1, INT32_MAX, INT32_MAX - 1};
			for (size_t e = 0; e < sizeof(ext) / sizeof(ext[0]); e++)
				for (unsigned lanes = 1; lanes <= 33; lanes++)
					compare_alu(&k, op, lanes, ext[e], &seed);
			/* every pair of edge values, lane by lane */
			int32_t edge[ALU_EDGES * ALU_EDGES], src[ALU_EDGES * ALU_EDGES];
			int32_t want[ALU_EDGES * ALU_EDGES];
			int8_t out[ALU_EDGES * ALU_EDGES], wout[ALU_EDGES * ALU_EDGES];
			for (unsigned i = 0; i < ALU_EDGES; i++)
				for (unsigned j = 0; j < ALU_EDGES; j++) {
					edge[i * ALU_EDGES + j] = want[i * ALU_EDGES + j] = alu_edges[i];
					src[i * ALU_EDGES + j] = alu_edges[j];
				}
			k.run(edge, src, 0, out, ALU_EDGES * ALU_EDGES);
			port.run(want, src, 0, wout, ALU_EDGES * ALU_EDGES);
			assert_memory_equal(edge, want, sizeof(edge));
			assert_memory_equal(out, wout, sizeof(out));
		}
	}
	print_message("ALU kernels faster than the portable one: %u\n", fast);
}

/* A nest of ALU uops in one call of the host's fastest kernel against the uops one by one on
 * the portable kernel, in the nest's order: random rows that overlap and repeat (a uop may
 * read a row an earlier one wrote), loop factors 0-3, source rows, immediates, and immediate
 * ops that copy their source row first; every op, rows of 16 lanes and of 5 (a partial
 * vector). */
#define NEST_ROWS 40
static void test_alu_nest_uops(void **state)
{
	(void)state;
	uint32_t seed = 29;
	unsigned copies = 0;
	for (int round = 0; round < 3000; round++) {
		const uint32_t op = (uint32_t)(round % VTA_ALU_OP_COUNT);
		const unsigned lanes = round % 7 == 0 ? 5 : 16;
		vtasim_alu_nest n = {0};
		uint32_t dst[6], src[6];
		n.uops = 1 + simt_rand(&seed) % 6;
		n.iter_out = 1 + simt_rand(&seed) % 3;
		n.iter_in = 1 + simt_rand(&seed) % 3;
		n.dst_out = simt_rand(&seed) % 4;
		n.dst_in = simt_rand(&seed) % 4;
		n.src_out = simt_rand(&seed) % 4;
		n.src_in = simt_rand(&seed) % 4;
		for (uint32_t k = 0; k < n.uops; k++) { /* the largest row stays below NEST_ROWS */
			dst[k] = simt_rand(&seed) % 16;
			src[k] = simt_rand(&seed) % 16;
		}
		n.use_imm = simt_rand(&seed) % 2;
		n.imm_src = n.use_imm && simt_rand(&seed) % 2;
		n.imm = n.use_imm ? alu_operand(&seed) : 0;
		n.lanes = lanes;
		n.dst = dst;
		n.src = src;
		int32_t acc[NEST_ROWS * 16], want[NEST_ROWS * 16];
		int8_t out[NEST_ROWS * 16], wout[NEST_ROWS * 16];
		for (unsigned i = 0; i < NEST_ROWS * 16; i++) {
			acc[i] = want[i] = alu_operand(&seed);
			out[i] = wout[i] = (int8_t)i;
		}
		n.acc = acc;
		n.out = out;
		assert_int_equal(vtasim_alu_run_nest(op, &n),
				 (uint64_t)n.uops * n.iter_out * n.iter_in);
		const vtasim_alu_fn port = vtasim_alu_portable(op);
		for (uint32_t o = 0; o < n.iter_out; o++)
			for (uint32_t i = 0; i < n.iter_in; i++)
				for (uint32_t k = 0; k < n.uops; k++) {
					const uint64_t d = dst[k] + o * n.dst_out + i * n.dst_in;
					const uint64_t sr = src[k] + o * n.src_out + i * n.src_in;
					if (n.imm_src && sr != d) {
						memcpy(want + d * lanes, want + sr * lanes,
						       lanes * sizeof(int32_t));
						copies++;
					}
					port(want + d * lanes, n.use_imm ? NULL : want + sr * lanes,
					     n.imm, wout + d * lanes, lanes);
				}
		if (memcmp(acc, want, sizeof(acc)) || memcmp(out, wout, sizeof(out)))
			fail_msg("round %d: op %u, %u lanes, %u uops x %u x %u, %s: the nest "
				 "differs from its uops one by one", round, op, lanes, n.uops,
				 n.iter_out, n.iter_in,
				 n.imm_src ? "immediate on the source row"
					   : n.use_imm ? "immediate" : "source row");
	}
	assert_true(copies > 100);
}

static void test_timing(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	assert_int_equal(vta_cost_bus_bytes(&cfg), 8);
	assert_int_equal(vta_cost_beats(&cfg, 0), 0);
	assert_int_equal(vta_cost_beats(&cfg, 1), 1);
	assert_int_equal(vta_cost_beats(&cfg, 8), 1);
	assert_int_equal(vta_cost_beats(&cfg, 9), 2);

	/* reads: each row its own bursts, the latency paid once while the data channel is the
	 * bottleneck, then the read pipeline */
	const uint64_t L = cfg.dram_latency_cycles, P = cfg.dram_read_pipeline_cycles;
	vta_mem_insn m;
	memset(&m, 0, sizeof(m));
	m.y_size = 4;
	m.x_size = 64;
	m.x_stride = 64; /* 4 rows of 1 KiB */
	vta_dma_plan p = vta_cost_dma_plan_of(&m, 16, false);
	assert_int_equal(p.runs, 4);
	assert_int_equal(p.run_bytes, 1024);
	assert_int_equal(vta_cost_dma_bursts(&cfg, &p), 4);
	assert_int_equal(vta_cost_dma_beats(&cfg, &p), 512);
	assert_int_equal(vta_cost_dma_idle_cycles(&cfg, &p),
			 cfg.insn_overhead_cycles + L + 4096 / 8 + P);
	m.y_size = 1;
	m.x_size = 300; /* 4800 bytes: 2048 + 2048 + 704 */
	p = vta_cost_dma_plan_of(&m, 16, false);
	assert_int_equal(vta_cost_dma_bursts(&cfg, &p), 3);
	m.dram_base = 100; /* from byte 1600: 448 to the boundary, 2048, 2048, 256 */
	p = vta_cost_dma_plan_of(&m, 16, false);
	assert_int_equal(vta_cost_dma_bursts(&cfg, &p), 4);
	assert_int_equal(vta_cost_dma_beats(&cfg, &p), 600);
	vta_burst_walk w = {0, 0};
	assert_int_equal(vta_cost_next_burst(&cfg, &p, &w), 448);
	assert_int_equal(vta_cost_next_burst(&cfg, &p, &w), 2048);
	assert_int_equal(vta_cost_next_burst(&cfg, &p, &w), 2048);
	assert_int_equal(vta_cost_next_burst(&cfg, &p, &w), 256);
	assert_int_equal(vta_cost_next_burst(&cfg, &p, &w), 0);
	/* 64 rows of one element: 16 in flight, each round of 16 waits for a tag, then the
	 * latency (closed form for uniform bursts of b beats: L + N b + rounds (L + b - 16 b)) */
	m.dram_base = 0;
	m.y_size = 64;
	m.x_size = 1;
	m.x_stride = 3;
	p = vta_cost_dma_plan_of(&m, 16, false);
	assert_int_equal(vta_cost_dma_bursts(&cfg, &p), 64);
	assert_int_equal(cfg.dram_max_read_bursts, 16);
	assert_int_equal(vta_cost_dma_cycles(&cfg, &p), L + 64 * 2 + 3 * (L + 2 - 32) + P);
	cfg.dram_max_read_bursts = 64; /* all in flight: the data channel bounds it */
	assert_int_equal(vta_cost_dma_cycles(&cfg, &p), L + 64 * 2 + P);
	vta_config_default(&cfg);
	/* padding: the SRAM takes a padded element per pad_elem_cycles between data beats */
	m.y_size = 1;
	m.x_pad_0 = m.x_pad_1 = m.y_pad_0 = m.y_pad_1 = 3;
	p = vta_cost_dma_plan_of(&m, 16, false);
	assert_int_equal(p.pad_elems, 7 * 7 - 1);
	assert_int_equal(vta_cost_pad_fill_cycles(&cfg, &p), 2 + 48 * cfg.pad_elem_cycles);
	cfg.dram_latency_cycles = 0;
	assert_int_equal(vta_cost_dma_cycles(&cfg, &p), 2 + 48 * cfg.pad_elem_cycles);
	cfg.dram_latency_cycles = 1000;
	assert_int_equal(vta_cost_dma_cycles(&cfg, &p), 1000 + 2 + P);
	vta_config_default(&cfg);
	m.x_pad_0 = m.x_pad_1 = m.y_pad_0 = m.y_pad_1 = 0;
	/* writes: one burst per row, each waiting for the previous one's response; a STORE
	 * reads an OUT element between two elements' beats */
	m.y_size = 4;
	m.x_size = 16;
	m.x_stride = 16;
	cfg.dram_max_write_bursts = 1;
	p = vta_cost_dma_plan_of(&m, 16, true);
	const uint64_t burst = 16 * 2 + 15 * cfg.store_read_cycles;
	assert_int_equal(vta_cost_write_burst_cycles(&cfg, &p, 256), burst);
	assert_int_equal(vta_cost_dma_cycles(&cfg, &p), 4 * (burst + L + cfg.dram_write_ack_cycles));
	cfg.dram_max_write_bursts = 4; /* responses overlap: the data follows back to back */
	assert_int_equal(vta_cost_dma_cycles(&cfg, &p), 4 * burst + L + cfg.dram_write_ack_cycles);
	vta_config_default(&cfg);
	m.x_size = 3;
	m.x_stride = 3;
	m.y_size = 1;
	p = vta_cost_dma_plan_of(&m, 3, false); /* 9 bytes: 2 beats */
	assert_int_equal(vta_cost_dma_beats(&cfg, &p), 2);
	m.x_size = 0;
	p = vta_cost_dma_plan_of(&m, 16, false);
	assert_int_equal(vta_cost_dma_idle_cycles(&cfg, &p), cfg.insn_overhead_cycles);

	vta_insn in;
	memset(&in, 0, sizeof(in));
	in.opcode = VTA_OP_GEMM;
	in.loop.uop_bgn = 2;
	in.loop.uop_end = 6;
	in.loop.iter_out = 3;
	in.loop.iter_in = 5;
	assert_int_equal(vta_loop_uops(&in.loop), 60);
	assert_int_equal(vta_cost_compute_cycles(&cfg, &in), 4 + 4 + 60);
	in.opcode = VTA_OP_ALU;
	assert_int_equal(vta_cost_compute_cycles(&cfg, &in), 4 + 4 + 120);
	in.alu.use_imm = true;
	assert_int_equal(vta_cost_compute_cycles(&cfg, &in), 4 + 4 + 60);
	in.loop.uop_end = 1; /* end before begin: no uops */
	assert_int_equal(vta_loop_uops(&in.loop), 0);
	in.opcode = VTA_OP_GEMM;
	in.loop.uop_bgn = 0;
	in.loop.uop_end = 8192;
	in.loop.iter_out = in.loop.iter_in = 16383;
	cfg.gemm_ii = 1u << 31;
	assert_int_equal(vta_cost_compute_cycles(&cfg, &in), UINT64_MAX); /* saturates */
	vta_config_default(&cfg);
	assert_int_equal(vta_cost_fetch_arrival(&cfg, 0), 66);
	assert_int_equal(vta_cost_fetch_arrival(&cfg, 9), 64 + 20);
	cfg.fetch_dispatch = VTA_FETCH_BURST; /* all 10 arrive, then one per cycle */
	assert_int_equal(vta_cost_fetch_ready(&cfg, 0, 10), 64 + 20);
	assert_int_equal(vta_cost_fetch_ready(&cfg, 3, 10), 64 + 20 + 3);
	cfg.fetch_dispatch = VTA_FETCH_STREAM;
	assert_int_equal(vta_cost_fetch_ready(&cfg, 3, 10), 64 + 8);
}

static void test_dma(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	vta_dram dram;
	vta_error err = {0};
	assert_int_equal(vta_dram_init(&dram, 4096, &err), VTA_OK);
	for (uint32_t i = 0; i < 4096; i++)
		dram.bytes[i] = (uint8_t)(i / 16 + 1); /* each INP element holds its index + 1 */

	vta_mem_insn m;
	memset(&m, 0, sizeof(m));
	m.mem_type = VTA_MEM_INP;
	m.sram_base = 1;
	m.dram_base = 10;
	m.y_size = 2;
	m.x_size = 2;
	m.x_stride = 5;
	m.y_pad_0 = 1;
	m.x_pad_1 = 1;
	assert_int_equal(vta_load_check(&cfg, &m, dram.size, &err), VTA_OK);
	assert_int_equal(vta_load_sram_rows(&m), 3 * 3);
	uint8_t sram[16 * 12];
	memset(sram, 0xee, sizeof(sram));
	vtasim_load_exec(&cfg, &m, &dram, sram);
	/* rows 1..9: pad row (3 zeros), [11 12 0], [16 17 0]; row 0 and 10+ untouched */
	const uint8_t want[12] = {0xee, 0, 0, 0, 11, 12, 0, 16, 17, 0, 0xee, 0xee};
	for (int r = 0; r < 12; r++)
		for (int b = 0; b < 16; b++)
			assert_int_equal(sram[r * 16 + b], want[r]);
	assert_int_equal(vta_cost_dma_bytes(&cfg, &m), 2 * 2 * 16);

	m.dram_base = 250; /* row 1 at element 255: [4080, 4112) */
	assert_int_equal(vta_load_check(&cfg, &m, dram.size, &err), VTA_E_OOB);
	simt_expect_detail(err.detail, "DRAM read of row 1 at [0xff0, 0x1010)", NULL);
	m.dram_base = 0;
	m.sram_base = 2040;
	assert_int_equal(vta_load_check(&cfg, &m, dram.size, &err), VTA_E_OOB);
	simt_expect_detail(err.detail, "inp SRAM rows [2040, 2049) beyond depth 2048", NULL);
	m.mem_type = VTA_MEM_OUT;
	assert_int_equal(vta_load_check(&cfg, &m, dram.size, &err), VTA_E_STREAM);
	m.mem_type = VTA_MEM_WGT;
	m.sram_base = 0;
	assert_int_equal(vta_load_check(&cfg, &m, dram.size, &err), VTA_E_STREAM);
	simt_expect_detail(err.detail, "padding not supported for wgt", NULL);

	/* ACC_8BIT widens int8 lanes with their sign */
	memset(&m, 0, sizeof(m));
	m.mem_type = VTA_MEM_ACC_8BIT;
	m.y_size = m.x_size = m.x_stride = 1;
	dram.bytes[0] = 0x80;
	dram.bytes[1] = 0x7f;
	int32_t acc[16];
	vtasim_load_exec(&cfg, &m, &dram, (uint8_t *)acc);
	assert_int_equal(acc[0], -128);
	assert_int_equal(acc[1], 127);

	/* STORE: contiguous OUT rows to strided DRAM rows */
	uint8_t out[16 * 4];
	for (int i = 0; i < 64; i++)
		out[i] = (uint8_t)(i / 16 + 100);
	memset(&m, 0, sizeof(m));
	m.mem_type = VTA_MEM_OUT;
	m.y_size = 2;
	m.x_size = 2;
	m.x_stride = 3;
	m.dram_base = 1;
	assert_int_equal(vta_store_check(&cfg, &m, dram.size, &err), VTA_OK);
	vtasim_store_exec(&cfg, &m, out, &dram);
	const uint8_t dram_want[5] = {100, 101, 1 + 3, 102, 103}; /* elements 1, 2, 3, 4, 5 */
	for (int e = 0; e < 5; e++)
		assert_int_equal(dram.bytes[(1 + e) * 16 + 3], dram_want[e]);
	m.mem_type = VTA_MEM_ACC;
	assert_int_equal(vta_store_check(&cfg, &m, dram.size, &err), VTA_E_STREAM);
	vta_dram_free(&dram);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gemm_kernel),
		cmocka_unit_test(test_gemm_simd_portable),
		cmocka_unit_test(test_alu_lanes),
		cmocka_unit_test(test_alu_simd_portable),
		cmocka_unit_test(test_alu_nest_uops),
		cmocka_unit_test(test_timing),
		cmocka_unit_test(test_dma),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
