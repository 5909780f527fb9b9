/*
 * sim_randprog.c - the random program generator of the differential tests (see
 * sim_randprog.h). Every choice is in bounds by construction; GEMM/ALU loop nests are
 * checked against the ACC write-after-write rule and redrawn when they break it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sim_randprog.h"
#include "sim_testutil.h"
#include "vta_rules.h"

#define STAGE_MAX 16
#define UOPS_MAX 8

typedef struct gen {
	const vta_config *cfg;
	uint32_t s;
	uint32_t lut_s; /* the LUT choices' own stream */
	vta_program *prog;
	vta_uop *uops; /* the generated uops, by UOP row */
} gen;

static uint32_t rnd(gen *g, uint32_t n)
{
	return n ? simt_rand(&g->s) % n : 0;
}

static void emit(gen *g, const vta_insn *insn)
{
	vta_error err = {0};
	if (vta_program_push(g->prog, g->cfg, insn, &err) != VTA_OK)
		fail_msg("generator: %s", err.detail);
}

/* A stage: instructions of one module whose first pops and last pushes. */
typedef struct stage {
	vta_insn insn[STAGE_MAX];
	int n;
} stage;

static void stage_add(stage *st, const vta_insn *insn)
{
	assert_true(st->n < STAGE_MAX);
	st->insn[st->n++] = *insn;
}

static vta_insn nop_of(vta_module m)
{
	vta_insn in;
	memset(&in, 0, sizeof(in));
	in.opcode = m == VTA_MODULE_STORE ? VTA_OP_STORE : VTA_OP_LOAD;
	in.mem.mem_type = m == VTA_MODULE_LOAD ? VTA_MEM_INP
			  : m == VTA_MODULE_STORE ? VTA_MEM_OUT
						  : VTA_MEM_UOP;
	return in;
}

/* Sprinkle NOPs without flags, never after the last (pushing) instruction. */
static void stage_emit(gen *g, stage *st, vta_module m, vta_deps first, vta_deps last)
{
	if (st->n == 0) {
		vta_insn nop = nop_of(m);
		stage_add(st, &nop);
	}
	st->insn[0].deps.pop_prev |= first.pop_prev;
	st->insn[0].deps.pop_next |= first.pop_next;
	st->insn[st->n - 1].deps.push_prev |= last.push_prev;
	st->insn[st->n - 1].deps.push_next |= last.push_next;
	for (int i = 0; i < st->n; i++) {
		if (i > 0 && rnd(g, 4) == 0) {
			vta_insn nop = nop_of(m);
			emit(g, &nop);
		}
		emit(g, &st->insn[i]);
	}
}

/* A random in-bounds LOAD of mem (2D, strides, padding where legal). */
static vta_insn rand_load(gen *g, vta_mem mem)
{
	const vta_config *cfg = g->cfg;
	vta_insn in;
	memset(&in, 0, sizeof(in));
	in.opcode = VTA_OP_LOAD;
	vta_mem_insn *m = &in.mem;
	m->mem_type = mem;
	bool pads = mem == VTA_MEM_INP || mem == VTA_MEM_ACC || mem == VTA_MEM_ACC_8BIT;
	uint32_t depth = vta_config_sram_depth(cfg, mem);
	uint32_t eb = vta_config_dram_elem_bytes(cfg, mem);
	m->y_size = 1 + rnd(g, 4);
	m->x_size = 1 + rnd(g, 6);
	if (rnd(g, 5) == 0)
		m->x_stride = rnd(g, m->x_size); /* rows overlap in DRAM */
	else
		m->x_stride = m->x_size + (rnd(g, 2) ? rnd(g, 4) : 0);
	if (pads) {
		m->y_pad_0 = rnd(g, 3);
		m->y_pad_1 = rnd(g, 3);
		m->x_pad_0 = rnd(g, 3);
		m->x_pad_1 = rnd(g, 3);
	}
	uint64_t rows = (uint64_t)(m->y_pad_0 + m->y_size + m->y_pad_1) *
			(m->x_pad_0 + m->x_size + m->x_pad_1);
	if (rows > depth) { /* shrink to one element */
		m->y_size = m->x_size = 1;
		m->y_pad_0 = m->y_pad_1 = m->x_pad_0 = m->x_pad_1 = 0;
		rows = 1;
	}
	m->sram_base = rnd(g, (uint32_t)(depth - rows + 1));
	uint64_t span = (uint64_t)(m->y_size - 1) * m->x_stride + m->x_size;
	uint64_t lo = (RP_IN_BASE + eb - 1) / eb, hi = RP_IN_END / eb;
	assert_true(hi - lo >= span);
	m->dram_base = (uint32_t)(lo + rnd(g, (uint32_t)(hi - lo - span + 1)));
	return in;
}

static uint32_t lrnd(gen *g, uint32_t n)
{
	return n ? simt_rand(&g->lut_s) % n : 0;
}

/* A table load and a decompressing load of mem through it (the decoder is on). Each module
 * keeps to its own half of the table memory and its own slots (load: lut, slots 0..3, the
 * lower half; compute: lut32, slots 4..7, the upper half), so the two never race. Tables
 * hold 2^bw entries, so the random index strings are all in range. Where the config has
 * them, loads also span channel blocks (lut_run) and WGT loads hold only their groups'
 * lanes (lut_group, lut_period). */
static void rand_lut_pair(gen *g, vta_mem mem, stage *st)
{
	const vta_config *cfg = g->cfg;
	bool wide = mem == VTA_MEM_ACC;
	uint32_t bw = 1 + lrnd(g, 7), entries = 1u << bw;
	uint32_t rowch = vta_lut_row_channels(cfg, mem);
	/* a multi-block load (lut_run) needs tables for every channel block it spans */
	const bool multi = cfg->decomp_multi_block && lrnd(g, 2);
	uint32_t chan = 0, channels = 1;
	if (lrnd(g, 2)) {
		chan = lrnd(g, 4);
		channels = chan + rowch * (multi ? 1 + lrnd(g, 3) : 1) + lrnd(g, 3);
	}
	uint32_t half = cfg->lut_depth / 2;
	if ((uint64_t)channels * entries > half)
		channels = 1;
	vta_insn t;
	memset(&t, 0, sizeof(t));
	t.opcode = VTA_OP_LOAD;
	t.mem.mem_type = wide ? VTA_MEM_LUT32 : VTA_MEM_LUT;
	t.mem.lut_slot = (wide ? 4 : 0) + lrnd(g, 4);
	t.mem.sram_base = (wide ? half : 0) + lrnd(g, half - channels * entries + 1);
	t.mem.y_size = channels;
	t.mem.x_size = entries;
	t.mem.x_stride = entries + lrnd(g, 3);
	uint32_t teb = wide ? 4 : 1;
	uint64_t tspan = (uint64_t)(channels - 1) * t.mem.x_stride + entries;
	uint64_t tlo = (RP_IN_BASE + teb - 1) / teb, thi = RP_IN_END / teb;
	t.mem.dram_base = (uint32_t)(tlo + lrnd(g, (uint32_t)(thi - tlo - tspan + 1)));
	stage_add(st, &t);

	vta_insn d;
	memset(&d, 0, sizeof(d));
	d.opcode = VTA_OP_LOAD;
	vta_mem_insn *m = &d.mem;
	m->mem_type = mem;
	m->lut_bw = bw;
	m->lut_slot = t.mem.lut_slot;
	m->lut_chan = chan;
	m->y_size = 1 + lrnd(g, 3);
	m->x_size = 1 + lrnd(g, 4);
	m->x_stride = lrnd(g, 5) == 0 ? lrnd(g, m->x_size) : m->x_size + lrnd(g, 3);
	uint32_t depth = vta_config_sram_depth(cfg, mem);
	m->sram_base = lrnd(g, depth - m->y_size * m->x_size + 1);
	if (multi) { /* as many blocks as the tables cover (one shared table: any) */
		m->lut_run = 1 + lrnd(g, m->y_size);
		if (channels > 1 && chan + vta_lut_run_blocks(m) * rowch > channels)
			m->lut_run = 0;
	}
	if (cfg->decomp_zero_fill && mem == VTA_MEM_WGT && lrnd(g, 2)) {
		/* a group width dividing block_in (a power of two), any period */
		m->lut_group = 1u << lrnd(g, cfg->log_block_in + 1);
		m->lut_period = 1 + lrnd(g, 4);
	}
	uint32_t eb = vta_load_elem_bytes(cfg, m);
	uint64_t span = (uint64_t)(m->y_size - 1) * m->x_stride + m->x_size;
	uint64_t lo = (RP_IN_BASE + eb - 1) / eb, hi = RP_IN_END / eb;
	m->dram_base = (uint32_t)(lo + lrnd(g, (uint32_t)(hi - lo - span + 1)));
	stage_add(st, &d);
}

static vta_insn rand_store(gen *g)
{
	const vta_config *cfg = g->cfg;
	vta_insn in;
	memset(&in, 0, sizeof(in));
	in.opcode = VTA_OP_STORE;
	vta_mem_insn *m = &in.mem;
	m->mem_type = VTA_MEM_OUT;
	m->y_size = 1 + rnd(g, 3);
	m->x_size = 1 + rnd(g, 5);
	m->x_stride = m->x_size + rnd(g, 4);
	m->sram_base = rnd(g, cfg->sram[VTA_MEM_OUT].depth - m->y_size * m->x_size + 1);
	uint32_t eb = cfg->sram[VTA_MEM_OUT].elem_bytes;
	uint64_t span = (uint64_t)(m->y_size - 1) * m->x_stride + m->x_size;
	uint64_t lo = RP_OUT_BASE / eb, hi = RP_OUT_END / eb;
	m->dram_base = (uint32_t)(lo + rnd(g, (uint32_t)(hi - lo - span + 1)));
	return in;
}

/* True if the loop nest over uops[b, e) writes an ACC row twice within the distance. */
static bool has_hazard(const vta_config *cfg, const vta_loop *l, const vta_uop *uops)
{
	uint32_t dist = cfg->acc_dep_distance;
	if (dist == 0)
		return false;
	uint64_t ring[64];
	uint64_t t = 0;
	for (uint32_t o = 0; o < l->iter_out; o++)
		for (uint32_t i = 0; i < l->iter_in; i++)
			for (uint32_t u = l->uop_bgn; u < l->uop_end; u++) {
				uint64_t dst = uops[u].dst + (uint64_t)o * l->dst_factor_out +
					       (uint64_t)i * l->dst_factor_in;
				uint64_t back = t < dist ? t : dist;
				for (uint64_t k = 1; k <= back; k++)
					if (ring[(t - k) % dist] == dst)
						return true;
				ring[t % dist] = dst;
				t++;
			}
	return false;
}

static uint32_t rand_alu_op(gen *g)
{
	const vta_config *cfg = g->cfg;
	uint32_t ops[VTA_ALU_OP_COUNT];
	int n = 0;
	ops[n++] = VTA_ALU_MIN;
	ops[n++] = VTA_ALU_MAX;
	ops[n++] = VTA_ALU_ADD;
	ops[n++] = VTA_ALU_SHR;
	if (cfg->alu_mul)
		ops[n++] = VTA_ALU_MUL;
	if (cfg->alu_tflite_ext) {
		ops[n++] = VTA_ALU_SRDHM;
		ops[n++] = VTA_ALU_RSHR;
	}
	return ops[rnd(g, (uint32_t)n)];
}

/* A GEMM or ALU over the phase's uops, which sit in UOP rows [ub, ub + nu). */
static vta_insn rand_loop(gen *g, const vta_uop *uops, uint32_t ub, uint32_t nu)
{
	const vta_config *cfg = g->cfg;
	vta_insn in;
	for (int attempt = 0;; attempt++) {
		memset(&in, 0, sizeof(in));
		bool alu = rnd(g, 2);
		in.opcode = alu ? VTA_OP_ALU : VTA_OP_GEMM;
		vta_loop *l = &in.loop;
		l->reset = rnd(g, 7) == 0;
		l->uop_bgn = ub + rnd(g, nu);
		l->uop_end = l->uop_bgn + rnd(g, ub + nu - l->uop_bgn + 1);
		if (rnd(g, 10) && l->uop_end == l->uop_bgn)
			l->uop_end++; /* mostly non-empty */
		l->iter_out = 1 + rnd(g, 3);
		l->iter_in = 1 + rnd(g, 3);
		l->dst_factor_out = rnd(g, 9);
		l->dst_factor_in = rnd(g, 9);
		l->src_factor_out = rnd(g, 9);
		l->src_factor_in = rnd(g, 9);
		if (!alu) {
			l->wgt_factor_out = rnd(g, 9);
			l->wgt_factor_in = rnd(g, 9);
		} else {
			in.alu.op = rand_alu_op(g);
			in.alu.use_imm = rnd(g, 2);
			if (in.alu.op == VTA_ALU_SHR || in.alu.op == VTA_ALU_RSHR)
				in.alu.imm = (int32_t)rnd(g, 80) - 40;
			else
				in.alu.imm = (int32_t)rnd(g, 65536) - 32768;
		}
		if (attempt > 20) { /* fall back to one uop, once: never a hazard */
			l->uop_bgn = ub;
			l->uop_end = ub + 1;
			l->iter_out = l->iter_in = 1;
		}
		/* the generator's uop array is indexed by UOP row */
		if (!has_hazard(cfg, l, uops))
			return in;
	}
}

static void rand_phase(gen *g, int p, int phases)
{
	const vta_config *cfg = g->cfg;
	vta_error err = {0};
	stage ld = {.n = 0}, cp = {.n = 0}, sto = {.n = 0};

	int nl = (int)rnd(g, 4);
	for (int i = 0; i < nl; i++) {
		vta_insn in = rand_load(g, rnd(g, 2) ? VTA_MEM_INP : VTA_MEM_WGT);
		stage_add(&ld, &in);
	}
	if (cfg->decomp_enabled && lrnd(g, 3) == 0)
		rand_lut_pair(g, lrnd(g, 2) ? VTA_MEM_INP : VTA_MEM_WGT, &ld);

	/* compute: optional ACC loads, then a uop kernel and GEMM/ALU instructions */
	int nacc = (int)rnd(g, 3);
	for (int i = 0; i < nacc; i++) {
		vta_insn in = rand_load(g, rnd(g, 2) ? VTA_MEM_ACC : VTA_MEM_ACC_8BIT);
		stage_add(&cp, &in);
	}
	if (cfg->decomp_enabled && lrnd(g, 3) == 0)
		rand_lut_pair(g, VTA_MEM_ACC, &cp);
	int nloops = (int)rnd(g, 5);
	if (nloops > 0) {
		vta_uop *uops = g->uops;
		uint32_t nu = 1 + rnd(g, UOPS_MAX);
		uint32_t ub = rnd(g, cfg->sram[VTA_MEM_UOP].depth - nu + 1);
		const uint32_t size =
			cfg->sram[VTA_MEM_UOP].elem_bytes; /* the encoding's micro-op */
		uint8_t bytes[UOPS_MAX * VTA_UOP_MAX_BYTES];
		uint32_t margin = 33; /* loop offsets reach 2*8 + 2*8 */
		uint32_t src_depth = cfg->sram[VTA_MEM_INP].depth < cfg->sram[VTA_MEM_ACC].depth
			? cfg->sram[VTA_MEM_INP].depth
			: cfg->sram[VTA_MEM_ACC].depth;
		for (uint32_t u = 0; u < nu; u++) {
			vta_uop *x = &uops[ub + u];
			x->dst = rnd(g, cfg->sram[VTA_MEM_ACC].depth - margin);
			x->src = rnd(g, src_depth - margin);
			x->wgt = rnd(g, cfg->sram[VTA_MEM_WGT].depth - margin);
			if (vta_uop_encode(cfg, x, bytes + u * size, &err) != VTA_OK)
				fail_msg("uop: %s", err.detail);
		}
		uint64_t addr = RP_UOP_BASE + (uint64_t)p * UOPS_MAX * size;
		if (vta_program_add_segment(g->prog, VTA_SEG_UOP, addr, bytes, nu * size, &err) !=
		    VTA_OK)
			fail_msg("segment: %s", err.detail);
		vta_insn lu;
		memset(&lu, 0, sizeof(lu));
		lu.opcode = VTA_OP_LOAD;
		lu.mem.mem_type = VTA_MEM_UOP;
		lu.mem.sram_base = ub;
		lu.mem.dram_base = (uint32_t)(addr / size);
		lu.mem.y_size = 1;
		lu.mem.x_size = nu;
		lu.mem.x_stride = nu;
		stage_add(&cp, &lu);
		for (int i = 0; i < nloops; i++) {
			vta_insn in = rand_loop(g, uops, ub, nu);
			stage_add(&cp, &in);
		}
	}

	int ns = (int)rnd(g, 3);
	for (int i = 0; i < ns; i++) {
		vta_insn in = rand_store(g);
		stage_add(&sto, &in);
	}

	vta_deps none = {false, false, false, false};
	vta_deps ld_first = none, ld_last = none, cp_first = none, cp_last = none;
	vta_deps st_first = none, st_last = none;
	ld_first.pop_next = p > 0;  /* compute is done with the previous INP/WGT (g2l) */
	ld_last.push_next = true;   /* data ready (l2g) */
	cp_first.pop_prev = true;   /* l2g */
	cp_first.pop_next = p > 0;  /* store drained the previous OUT (s2g) */
	cp_last.push_prev = true;   /* g2l */
	cp_last.push_next = true;   /* g2s */
	st_first.pop_prev = true;   /* g2s */
	st_last.push_prev = true;   /* s2g */
	stage_emit(g, &ld, VTA_MODULE_LOAD, ld_first, ld_last);
	stage_emit(g, &cp, VTA_MODULE_COMPUTE, cp_first, cp_last);
	stage_emit(g, &sto, VTA_MODULE_STORE, st_first, st_last);
	(void)phases;
}

void rp_generate(const vta_config *cfg, uint32_t seed, vta_program *prog)
{
	gen g = {cfg, seed ? seed : 1, (seed ^ 0x9e3779b9u) ? seed ^ 0x9e3779b9u : 1, prog,
		 calloc(cfg->sram[VTA_MEM_UOP].depth, sizeof(vta_uop))};
	vta_error err = {0};
	assert_non_null(g.uops);
	int phases = 1 + (int)rnd(&g, 6);
	for (int p = 0; p < phases; p++)
		rand_phase(&g, p, phases);
	vta_insn fin;
	memset(&fin, 0, sizeof(fin));
	fin.opcode = VTA_OP_FINISH;
	fin.deps.pop_next = true; /* the last store's s2g */
	emit(&g, &fin);

	uint32_t n = RP_IN_END - RP_IN_BASE;
	uint8_t *data = malloc(n);
	assert_non_null(data);
	for (uint32_t i = 0; i < n; i++)
		data[i] = (uint8_t)simt_rand(&g.s);
	if (vta_program_add_segment(prog, VTA_SEG_DATA, RP_IN_BASE, data, n, &err) != VTA_OK)
		fail_msg("segment: %s", err.detail);
	free(data);
	free(g.uops);
}
