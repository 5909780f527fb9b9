/*
 * bench_sim.c - host speed of the SystemC model on generated programs (printed numbers,
 * not a test):
 *   gemm   a GEMM-heavy stream: one weight tile, then phases of LOAD INP, one GEMM of
 *          2048 uops (16 x 8 output rows, 16 input blocks), ALU requantization, STORE;
 *   insn   an instruction-heavy stream: a pipelined LOAD -> 1-uop GEMM -> STORE chain,
 *          three instructions per step, with tokens in both directions.
 * For each: instructions, uops, simulated cycles, host seconds, host ns per instruction,
 * per GEMM uop and per MAC, and for comparison a naive int8 triple loop doing the same
 * MACs. The first argument multiplies the DRAM latency (run.sh compares 1 and 100: the
 * host time must not grow with simulated cycles); the second scales the program sizes; the
 * third picks the datapath (c, or rtl: the verilated units clocked inside the model).
 *
 * Usage: bench_sim [LATENCY_MULT [SCALE [c|rtl]]]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_host.h"
#include "vta_config.h"
#include "vta_dram.h"
#include "vta_insn.h"
#include "vta_program.h"
#include "vtasim_api.h"

#define M_ROWS 16 /* inp rows (batch x spatial) per tile */
#define N_BLK 8   /* output channel blocks */
#define K_BLK 16  /* input channel blocks */

static void die(const char *what, const vta_error *err)
{
	fprintf(stderr, "bench_sim: %s: %s\n", what, err ? err->detail : "");
	exit(1);
}

static void push(vta_program *p, const vta_config *cfg, const vta_insn *in)
{
	vta_error err = {0};
	if (vta_program_push(p, cfg, in, &err) != VTA_OK)
		die("push", &err);
}

/* FINISH waits for the last store's token. */
static void push_finish(vta_program *p, const vta_config *cfg)
{
	vta_insn in = {.opcode = VTA_OP_FINISH, .deps.pop_next = true};
	push(p, cfg, &in);
}

static vta_insn mem(vta_opcode op, vta_mem m, uint32_t sram, uint32_t dram, uint32_t y,
		    uint32_t x)
{
	vta_insn in = {.opcode = op};
	in.mem.mem_type = m;
	in.mem.sram_base = sram;
	in.mem.dram_base = dram;
	in.mem.y_size = y;
	in.mem.x_size = x;
	in.mem.x_stride = x;
	return in;
}

static vta_insn loop(vta_opcode op, uint32_t bgn, uint32_t end, uint32_t iter_out)
{
	vta_insn in = {.opcode = op};
	in.loop.uop_bgn = bgn;
	in.loop.uop_end = end;
	in.loop.iter_out = iter_out;
	in.loop.iter_in = 1;
	return in;
}

static void add_uops(vta_program *p, const vta_config *cfg, uint64_t addr, const vta_uop *u,
		     uint32_t n)
{
	vta_error err = {0};
	uint8_t *bytes = malloc((size_t)n * VTA_UOP_BYTES);
	if (!bytes)
		die("out of memory", NULL);
	for (uint32_t i = 0; i < n; i++)
		if (vta_uop_encode(cfg, &u[i], bytes + i * VTA_UOP_BYTES, &err) != VTA_OK)
			die("uop", &err);
	if (vta_program_add_segment(p, VTA_SEG_UOP, addr, bytes, n * VTA_UOP_BYTES, &err) !=
	    VTA_OK)
		die("segment", &err);
	free(bytes);
}

/* The GEMM-heavy stream: `phases` tiles of M_ROWS x K_BLK inputs against one weight tile. */
static void build_gemm(vta_program *p, const vta_config *cfg, int phases)
{
	/* uop (m, n): acc row m*N + n += inp row m*K + k . wgt row n*K + k over k (iter_out);
	 * m innermost, so consecutive uops write different ACC rows */
	vta_uop u[M_ROWS * N_BLK + M_ROWS * N_BLK];
	int c = 0;
	for (int n = 0; n < N_BLK; n++)
		for (int m = 0; m < M_ROWS; m++)
			u[c++] = (vta_uop){(uint32_t)(m * N_BLK + n), (uint32_t)(m * K_BLK),
					   (uint32_t)(n * K_BLK)};
	for (int r = 0; r < M_ROWS * N_BLK; r++) /* ALU over the output rows */
		u[c++] = (vta_uop){(uint32_t)r, 0, 0};
	add_uops(p, cfg, 0, u, (uint32_t)c);

	vta_insn in = mem(VTA_OP_LOAD, VTA_MEM_UOP, 0, 0, 1, (uint32_t)c);
	push(p, cfg, &in);
	in = mem(VTA_OP_LOAD, VTA_MEM_WGT, 0, 0x1000, 1, N_BLK * K_BLK); /* 32 KiB */
	push(p, cfg, &in);
	const uint32_t g0 = 0, g1 = M_ROWS * N_BLK, a1 = 2 * M_ROWS * N_BLK;
	for (int ph = 0; ph < phases; ph++) {
		in = mem(VTA_OP_LOAD, VTA_MEM_INP, 0, 0x8000 + (uint32_t)(ph % 64) * M_ROWS * K_BLK,
			 1, M_ROWS * K_BLK);
		in.deps.pop_next = ph > 0; /* the previous GEMM is done with INP */
		in.deps.push_next = true;
		push(p, cfg, &in);
		in = loop(VTA_OP_GEMM, g0, g1, 1);
		in.loop.reset = true;
		in.deps.pop_next = ph > 0; /* the previous STORE drained OUT */
		push(p, cfg, &in);
		in = loop(VTA_OP_GEMM, g0, g1, K_BLK);
		in.loop.src_factor_out = 1;
		in.loop.wgt_factor_out = 1;
		in.deps.pop_prev = true;
		in.deps.push_prev = ph + 1 < phases;
		push(p, cfg, &in);
		static const struct { uint32_t op; int32_t imm; } req[3] = {
			{VTA_ALU_SHR, 8}, {VTA_ALU_MAX, -128}, {VTA_ALU_MIN, 127}};
		for (int i = 0; i < 3; i++) {
			in = loop(VTA_OP_ALU, g1, a1, 1);
			in.alu.op = req[i].op;
			in.alu.use_imm = true;
			in.alu.imm = req[i].imm;
			in.deps.push_next = i == 2;
			push(p, cfg, &in);
		}
		in = mem(VTA_OP_STORE, VTA_MEM_OUT, 0, 0x20000 + (uint32_t)(ph % 64) * M_ROWS * N_BLK,
			 1, M_ROWS * N_BLK);
		in.deps.pop_prev = true;
		in.deps.push_prev = true;
		push(p, cfg, &in);
	}
	push_finish(p, cfg);
}

/* The instruction-heavy stream: `steps` of LOAD (1 row) -> GEMM (1 uop) -> STORE (1 row),
 * double-buffered: load k waits for GEMM k-2 (g2l), GEMM k for STORE k-2 (s2g). */
static void build_insn(vta_program *p, const vta_config *cfg, int steps)
{
	vta_uop u[2] = {{0, 0, 0}, {1, 1, 0}};
	add_uops(p, cfg, 0, u, 2);
	vta_insn in = mem(VTA_OP_LOAD, VTA_MEM_UOP, 0, 0, 1, 2);
	push(p, cfg, &in);
	for (int k = 0; k < steps; k++) {
		uint32_t b = (uint32_t)(k % 2);
		in = mem(VTA_OP_LOAD, VTA_MEM_INP, b, 0x100 + (uint32_t)(k % 256), 1, 1);
		in.deps.pop_next = k >= 2;
		in.deps.push_next = true;
		push(p, cfg, &in);
		in = loop(VTA_OP_GEMM, b, b + 1, 1);
		in.deps.pop_prev = true;
		in.deps.pop_next = k >= 2;
		in.deps.push_prev = k + 2 < steps;
		in.deps.push_next = true;
		push(p, cfg, &in);
		in = mem(VTA_OP_STORE, VTA_MEM_OUT, b, 0x8000 + (uint32_t)(k % 256), 1, 1);
		in.deps.pop_prev = true;
		in.deps.push_prev = true;
		push(p, cfg, &in);
	}
	in = mem(VTA_OP_LOAD, VTA_MEM_UOP, 0, 0, 0, 0); /* drain the last two stores */
	in.deps.pop_next = true;
	push(p, cfg, &in);
	push_finish(p, cfg);
}

/* Naive int8 GEMM: the host cost of the same MACs without a simulator. */
static double naive_ns_per_mac(const vta_config *cfg, uint64_t uops)
{
	unsigned bin = cfg->block_in, bout = cfg->block_out;
	int8_t *inp = malloc(bin), *wgt = malloc((size_t)bin * bout);
	uint32_t *acc = calloc(bout, sizeof(uint32_t)); /* wraps like the int32 hardware */
	if (!inp || !wgt || !acc)
		die("out of memory", NULL);
	for (unsigned i = 0; i < bin; i++)
		inp[i] = (int8_t)(i * 7);
	for (unsigned i = 0; i < bin * bout; i++)
		wgt[i] = (int8_t)(i * 13);
	double t = now();
	for (uint64_t u = 0; u < uops; u++) {
		inp[u % bin] = (int8_t)u; /* keep the loop from being hoisted */
		for (unsigned o = 0; o < bout; o++)
			for (unsigned k = 0; k < bin; k++)
				acc[o] += (uint32_t)(inp[k] * wgt[o * bin + k]);
	}
	t = now() - t;
	volatile uint32_t sink = acc[0];
	(void)sink;
	free(inp);
	free(wgt);
	free(acc);
	return t * 1e9 / ((double)uops * bin * bout);
}

static void run(vtasim_sim *sim, const vta_config *cfg, const char *name, vta_program *p)
{
	vta_error err = {0};
	vta_dram dram;
	if (vta_dram_init(&dram, 1u << 22, &err) != VTA_OK ||
	    vta_dram_place_segments(&dram, p, &err) != VTA_OK)
		die("dram", &err);
	vta_run_stats s;
	if (vtasim_sim_run(sim, p, &dram, &s, &err) != VTA_OK)
		die(name, &err);
	double ns = s.host_seconds * 1e9;
	printf("%-5s insns %8zu  gemm_uops %9llu  alu_uops %8llu  cycles %11llu  host %.3f s  "
	       "%7.1f ns/insn  %7.2f ns/gemm_uop  %.4f ns/MAC  %.1f Mcycles/s\n",
	       name, p->n_insns, (unsigned long long)s.gemm_uops, (unsigned long long)s.alu_uops,
	       (unsigned long long)s.cycles, s.host_seconds, ns / (double)p->n_insns,
	       s.gemm_uops ? ns / (double)s.gemm_uops : 0.0,
	       s.macs ? ns / (double)s.macs : 0.0, (double)s.cycles / s.host_seconds * 1e-6);
	if (s.macs)
		printf("%-5s naive int8 triple loop, same MACs: %.4f ns/MAC\n", name,
		       naive_ns_per_mac(cfg, s.gemm_uops));
	vta_dram_free(&dram);
}

int main(int argc, char **argv)
{
	unsigned mult = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 1;
	int scale = argc > 2 ? atoi(argv[2]) : 1;
	const char *datapath = argc > 3 ? argv[3] : "c";
	vta_config cfg;
	vta_config_default(&cfg);
	if (mult == 0 || scale <= 0 || vta_config_set(&cfg, "datapath", datapath, NULL)) {
		fprintf(stderr, "usage: bench_sim [LATENCY_MULT [SCALE [c|rtl]]]\n");
		return 2;
	}
	cfg.dram_latency_cycles *= mult;
	vta_error err = {0};
	vtasim_sim *sim = NULL;
	if (vta_config_derive(&cfg, &err) != VTA_OK || vtasim_sim_create(&cfg, &sim, &err) != VTA_OK)
		die("create", &err);
	printf("config %s, dram latency %u cycles (x%u), datapath %s\n", cfg.name,
	       cfg.dram_latency_cycles, mult, vta_datapath_name(cfg.datapath));

	vta_program gemm, insn;
	vta_program_init(&gemm, &cfg);
	build_gemm(&gemm, &cfg, 400 * scale);
	run(sim, &cfg, "gemm", &gemm);
	vta_program_init(&insn, &cfg);
	build_insn(&insn, &cfg, 50000 * scale);
	run(sim, &cfg, "insn", &insn);
	vta_program_free(&gemm);
	vta_program_free(&insn);
	vtasim_sim_destroy(sim);
	return 0;
}
