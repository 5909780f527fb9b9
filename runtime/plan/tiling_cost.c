/*
 * tiling_cost.c - what a plan costs: its event model walks the plan's schedule and prices
 * every transfer and micro-op with the timing model's own formulas (isa/vta_cost.h), and a
 * lower bound prices it without a walk so the chooser (tiling_choose.c) skips candidates
 * that cannot win. What the model leaves out: docs/runtime.md "Tiling".
 */
#include <stdlib.h>
#include <string.h>

#include "tiling.h"
#include "tiling_walk.h"
#include "vta_cost.h"
#include "vta_insn.h"
#include "vta_rules.h"

typedef struct ti_model {
	const vta_config *cfg;
	uint64_t port_free;
	/* the read channel: the latest request walked so far, and when the data asked for
	 * up to it has come (reads return in request order) */
	uint64_t last_ask, data_free;
} ti_model;


/* `runs` rows of `run_bytes` each (a strided 2D transfer), read or, from OUT, written. */
static ti_xfer ti_xfer_price(const vta_config *cfg, uint64_t runs, uint64_t run_bytes, bool store)
{
	vta_dma_plan plan = vta_cost_dma_plan_bytes(0);
	plan.runs = runs;
	plan.run_bytes = run_bytes;
	plan.stride = run_bytes;
	plan.write = store;
	plan.elem_bytes = store ? cfg->sram[VTA_MEM_OUT].elem_bytes : 0;
	ti_xfer x = {vta_cost_dma_beats(cfg, &plan), vta_cost_dma_idle_cycles(cfg, &plan), store};
	return x;
}

static uint64_t ti_price_hash(uint64_t runs, uint64_t run_bytes, bool store)
{
	uint64_t h = (runs * 0x9e3779b97f4a7c15ull) ^ (run_bytes + (store ? 0x632be59bd9b4e019ull : 0));
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	return h ^ (h >> 32);
}

/* Double the table (from 64 slots); false when out of memory. */
static bool ti_prices_grow(ti_prices *t)
{
	const uint64_t cap = t->cap ? 2 * t->cap : 64;
	ti_price *slot = calloc(cap, sizeof(*slot));
	if (!slot)
		return false;
	for (uint64_t i = 0; i < t->cap; i++) {
		const ti_price *e = &t->slot[i];
		if (!e->used)
			continue;
		uint64_t k = ti_price_hash(e->runs, e->run_bytes, e->x.write) & (cap - 1);
		while (slot[k].used)
			k = (k + 1) & (cap - 1);
		slot[k] = *e;
	}
	free(t->slot);
	t->slot = slot;
	t->cap = cap;
	return true;
}

/* ti_xfer_price's price, looked up first in the search's table. */
static ti_xfer ti_xfer_runs(const vta_config *cfg, ti_work *w, uint64_t runs, uint64_t run_bytes,
			    bool store)
{
	ti_prices *t = &w->prices;
	if (2 * (t->n + 1) > t->cap && !ti_prices_grow(t))
		return ti_xfer_price(cfg, runs, run_bytes, store);
	uint64_t k = ti_price_hash(runs, run_bytes, store) & (t->cap - 1);
	for (; t->slot[k].used; k = (k + 1) & (t->cap - 1)) {
		const ti_price *e = &t->slot[k];
		if (e->runs == runs && e->run_bytes == run_bytes && e->x.write == store)
			return e->x;
	}
	ti_price *e = &t->slot[k];
	*e = (ti_price){runs, run_bytes, ti_xfer_price(cfg, runs, run_bytes, store), true};
	t->n++;
	return e->x;
}

/* `bytes` in one row (vta_cost_dma_plan_bytes: none when 0). */
static ti_xfer ti_xfer_bytes(const vta_config *cfg, ti_work *w, uint64_t bytes)
{
	return ti_xfer_runs(cfg, w, bytes ? 1 : 0, bytes, false);
}

static ti_xfer ti_xfer_lut(const vta_config *cfg, const vta_mem_insn *mem)
{
	vta_dma_plan plan = vta_cost_dma_plan_of(mem, vta_load_elem_bytes(cfg, mem), false);
	ti_xfer x = {vta_cost_dma_beats(cfg, &plan), vta_cost_load_idle_cycles(cfg, mem), false};
	return x;
}

/* Transfer x issued at t: returns its end at the idle-port cost, or, for a read asked for
 * no earlier than the reads walked before it, after their data (the read channel returns
 * data in request order). The port's total beats are summed too; the walk's modules advance
 * in program order, not in time order, so a read walked after a later one is priced as if
 * alone. */
static uint64_t ti_go(ti_model *m, uint64_t t, const ti_xfer *x)
{
	m->port_free += x->beats;
	uint64_t end = t + x->cycles;
	if (x->write || !x->beats)
		return end;
	const uint64_t tail = m->cfg->dram_read_pipeline_cycles;
	end = ti_max(end, m->data_free + x->beats + tail);
	m->last_ask = ti_max(m->last_ask, t);
	m->data_free = ti_max(m->data_free, end - tail);
	return end;
}


static ti_consts_cost ti_consts(const vta_config *cfg, ti_work *w, uint64_t bytes,
				const vta_mem_insn *blut, uint32_t blocks)
{
	ti_consts_cost c = {{0, 0, false}, 0, 0};
	if (bytes) {
		c.x = ti_xfer_bytes(cfg, w, bytes);
		c.dram += bytes;
		c.insns++;
	}
	if (blut->lut_bw && blocks) {
		const ti_xfer l = ti_xfer_lut(cfg, blut);
		c.x.beats += blocks * l.beats;
		c.x.cycles += blocks * l.cycles;
		c.dram += blocks * vta_cost_dma_bytes(cfg, blut);
		c.insns += blocks;
	}
	return c;
}


void ti_work_free(ti_work *w)
{
	free(w->kern_seen);
	free(w->prices.slot);
}


static void ti_bound_base(const vta_config *cfg, const vta_conv_geom *g, const vta_conv_plan *p,
			  uint32_t alu_tt, uint32_t alu_imm, ti_costs *c);

/* Fill the costs of c that depend on p's chunking and grouping only: the weight and
 * constant loads and the kernels other than the GEMM's. */
void ti_costs_block(const vta_config *cfg, const vta_conv_geom *g, const vta_conv_plan *p,
		    ti_work *w, ti_costs *c)
{
	c->taps = (uint64_t)g->kh * g->kw;
	c->last_nob = vta_conv_grp_obs(g, p, p->ngrp - 1);
	for (int i = 0; i < 2; i++) {
		const uint32_t nbw = ti_grp_obw(p, i ? (uint32_t)c->last_nob : p->nob);
		c->wgt_bytes[i] = (uint64_t)nbw * c->taps * p->ncb * cfg->sram[VTA_MEM_WGT].elem_bytes;
		c->wgt[i] = ti_xfer_bytes(cfg, w, c->wgt_bytes[i]);
		c->alu_kern[i] =
			ti_xfer_bytes(cfg, w, (i ? c->last_nob : p->nob) * cfg->sram[VTA_MEM_UOP].elem_bytes);
	}
	/* a decompressing WGT load of one output block: taps rows of ncb packed elements */
	vta_mem_insn wlut = {.mem_type = VTA_MEM_WGT, .lut_bw = g->wgt_lut_bw,
			     .y_size = (uint32_t)c->taps, .x_size = p->ncb, .x_stride = g->ucb,
			     .lut_group = g->wgt_lut_group, .lut_period = g->wgt_lut_period};
	c->wlut_bytes = g->wgt_lut_bw ? vta_cost_dma_bytes(cfg, &wlut) : 0;
	c->wlut = g->wgt_lut_bw ? ti_xfer_lut(cfg, &wlut) : (ti_xfer){0, 0, false};
	/* multi-block: a step's nbw blocks in loads of at most W blocks, the tables
	 * advancing a block every taps rows */
	const uint32_t win = g->wgt_lut_bw ? g->wgt_lut_window : 0;
	c->wlut_win = (ti_xfer){0, 0, false};
	for (int i = 0; i < 2; i++) {
		c->wlut_rest[i] = c->wlut_step[i] = (ti_xfer){0, 0, false};
		c->wlut_step_bytes[i] = c->wlut_step_insns[i] = 0;
		if (!win)
			continue;
		const uint32_t nbw = ti_grp_obw(p, i ? (uint32_t)c->last_nob : p->nob);
		const uint32_t full = nbw / win, rest = nbw % win;
		vta_mem_insn m = wlut;
		m.y_size = (uint32_t)(win * c->taps);
		m.lut_run = win > 1 ? (uint32_t)c->taps : 0;
		c->wlut_win = ti_xfer_lut(cfg, &m);
		const uint64_t win_bytes = vta_cost_dma_bytes(cfg, &m);
		m.y_size = (uint32_t)(rest * c->taps);
		m.lut_run = rest > 1 ? (uint32_t)c->taps : 0;
		if (rest)
			c->wlut_rest[i] = ti_xfer_lut(cfg, &m);
		c->wlut_step[i].beats = full * c->wlut_win.beats + c->wlut_rest[i].beats;
		c->wlut_step[i].cycles = full * c->wlut_win.cycles + c->wlut_rest[i].cycles;
		c->wlut_step_bytes[i] = full * win_bytes + (rest ? vta_cost_dma_bytes(cfg, &m) : 0);
		c->wlut_step_insns[i] = full + (rest != 0);
	}
	c->wtab_block = ti_xfer_bytes(cfg, w, g->wgt_lut_block_table_bytes);
	c->wtab = ti_xfer_bytes(cfg, w, g->wgt_lut_table_bytes);
	c->btab = ti_xfer_bytes(cfg, w, g->bias_lut_table_bytes);
	c->uop_one = ti_xfer_bytes(cfg, w, cfg->sram[VTA_MEM_UOP].elem_bytes);
	/* constant rows: the plain ones in one load, a decoder's bias row one load per block */
	const uint32_t n_plain = p->nconst - (g->bias_lut_bw && p->nconst ? 1 : 0);
	vta_mem_insn blut = {.mem_type = VTA_MEM_ACC, .lut_bw = g->bias_lut_bw, .y_size = 1,
			     .x_size = 1, .x_stride = 1};
	for (int all = 0; all < 2; all++)
		for (int i = 0; i < 2; i++) {
			const uint32_t blocks = all ? g->ob : i ? (uint32_t)c->last_nob : p->nob;
			c->consts_by[all][i] = ti_consts(cfg, w, (uint64_t)n_plain * blocks *
							      cfg->sram[VTA_MEM_ACC].elem_bytes,
							 &blut, blocks);
		}
}

/* ... then those that depend on its row height and column width too, and its kernel k
 * (vta_conv_kshape_make's, which must fit the UOP SRAM). */
void ti_costs_base(const vta_config *cfg, const vta_conv_geom *g, const vta_conv_plan *p,
		   ti_work *w, const vta_conv_kshape *k, ti_costs *c)
{
	const uint32_t alu_tt = w->alu_tt, alu_imm = w->alu_imm;
	c->k = *k;
	const uint64_t ho = (uint64_t)g->ho, tw = ti_tw(g, p), nct = ti_nct(p);
	c->last_rows = ho - (uint64_t)(p->nrt - 1) * p->th;
	c->last_cols = (uint64_t)g->wo - (nct - 1) * tw;
	/* kinds that differ in nothing are copies */
	const int same = (c->last_rows == p->th ? TI_LAST_ROW : 0) |
			 (c->last_cols == tw ? TI_LAST_COL : 0) |
			 (c->last_nob == p->nob ? TI_LAST_GRP : 0);
	for (int i = 0; i < TI_KINDS; i++) {
		if (i & same) {
			const int j = i & ~same;
			c->inp_bytes[i] = c->inp_bytes[j];
			c->out_bytes[i] = c->out_bytes[j];
			c->inp[i] = c->inp[j];
			c->out[i] = c->out[j];
			c->out_insns[i] = c->out_insns[j];
			c->gemm_step[i] = c->gemm_step[j];
			c->reset[i] = c->reset[j];
			c->alu[i] = c->alu[j];
			continue;
		}
		const uint64_t r = i & TI_LAST_ROW ? c->last_rows : p->th;
		const uint64_t cols = i & TI_LAST_COL ? c->last_cols : tw;
		const uint64_t nb = i & TI_LAST_GRP ? c->last_nob : p->nob;
		const uint64_t pix = r * cols, rows = pix * nb;
		const uint64_t rows_in = vta_conv_rows_in(g, (uint32_t)r);
		const uint64_t cin = vta_conv_cols_in(g, (uint32_t)cols);
		c->inp_bytes[i] = rows_in * cin * p->ncb * cfg->sram[VTA_MEM_INP].elem_bytes;
		c->out_bytes[i] = rows * cfg->sram[VTA_MEM_OUT].elem_bytes;
		c->out_insns[i] = 1;
		if (nct == 1) {
			/* whole padded rows when the chunk holds every input block, else a
			 * row per pixel of the chunk's blocks (cv_load_step) */
			c->inp[i] = p->ncb == g->cb
					    ? ti_xfer_runs(cfg, w, rows_in, cin * p->ncb * cfg->sram[VTA_MEM_INP].elem_bytes,
							   false)
					    : ti_xfer_runs(cfg, w, rows_in * cin, p->ncb * cfg->sram[VTA_MEM_INP].elem_bytes,
							   false);
			/* a row per pixel of the tile's blocks, one row when they are all the
			 * output's (vta_stream merges adjacent rows) */
			c->out[i] = nb == g->ob ? ti_xfer_runs(cfg, w, 1, c->out_bytes[i], true)
						: ti_xfer_runs(cfg, w, pix, nb * cfg->sram[VTA_MEM_OUT].elem_bytes, true);
		} else {
			/* a column tile's window: one run per input row; its store one run per
			 * output row, or one store per row when the tile holds some blocks only */
			c->inp[i] = ti_xfer_runs(cfg, w, rows_in, cin * p->ncb * cfg->sram[VTA_MEM_INP].elem_bytes,
						 false);
			if (nb == g->ob) {
				c->out[i] = ti_xfer_runs(cfg, w, r, cols * nb * cfg->sram[VTA_MEM_OUT].elem_bytes, true);
			} else {
				const ti_xfer one =
					ti_xfer_runs(cfg, w, cols, nb * cfg->sram[VTA_MEM_OUT].elem_bytes, true);
				c->out[i] = (ti_xfer){one.beats * r, one.cycles * r, true};
				c->out_insns[i] = r;
			}
		}
		uint64_t uops = pix * ti_grp_obw(p, (uint32_t)nb) * p->ncb * c->taps;
		if (c->k.dummy)
			uops += uops / c->k.outputs * c->k.dummy;
		c->gemm_step[i] = vta_cost_loop_cycles(cfg, uops, cfg->gemm_ii);
		c->reset[i] = vta_cost_loop_cycles(cfg, rows, cfg->gemm_ii);
		c->alu[i] = alu_tt * vta_cost_loop_cycles(cfg, rows, cfg->alu_ii) +
			    alu_imm * vta_cost_loop_cycles(cfg, rows, cfg->alu_imm_ii);
	}
	c->uop_bytes = (uint64_t)c->k.list_len * cfg->sram[VTA_MEM_UOP].elem_bytes;
	c->uop = ti_xfer_bytes(cfg, w, c->uop_bytes);
	ti_bound_base(cfg, g, p, alu_tt, alu_imm, c);
}

/* The GEMM kernels p's stream loads: one per slot combination and sub-group (and ragged
 * row count), no more than its steps; *fit: they all stay resident in the UOP SRAM. */
static uint64_t ti_variants(const vta_config *cfg, const vta_conv_plan *p, const ti_costs *c,
			    bool *fit)
{
	const uint64_t v = ti_min((uint64_t)p->s_inp * p->s_wgt * p->s_acc * p->nsub, c->ns);
	*fit = (v + 1) * c->k.list_len + 64 <= cfg->sram[VTA_MEM_UOP].depth;
	return v;
}

/* ... and those that depend on its slots and constants. */
void ti_costs_slots(const vta_config *cfg, const vta_conv_plan *p, ti_costs *c)
{
	c->variants = ti_variants(cfg, p, c, &c->uop_fit);
	c->consts[0] = c->consts_by[p->const_all][0];
	c->consts[1] = c->consts_by[p->const_all][1];
}

/* A lower bound of the estimate ti_estimate gives p, without its schedule: the COMPUTE
 * module's own work in sequence (every reset, GEMM and ALU op, every micro-op and constant
 * load it issues, the waits a single slot forces on it) and the port's beats of the loads
 * no schedule avoids (each input and weight content once, every store, the same micro-op and
 * constant loads). A candidate whose bound exceeds the best estimate found cannot win and is
 * not scheduled, so whoever changes ti_estimate keeps this below it. The terms that only
 * the row height, chunking and grouping decide are summed once for the candidates that
 * share them (ti_bound_base, into c), the rest per candidate (ti_bound); c's slot part is
 * not read. */
static void ti_bound_base(const vta_config *cfg, const vta_conv_geom *g, const vta_conv_plan *p,
			  uint32_t alu_tt, uint32_t alu_imm, ti_costs *c)
{
	const uint64_t nct = ti_nct(p), nt = (uint64_t)g->ng * p->nrt * nct * p->ngrp;
	/* tile positions (per image group) and tiles by kind; with one row or column tile it
	 * counts as the last, whose costs are then the full one's */
	uint64_t pos[TI_KINDS], tiles[TI_KINDS];
	for (int i = 0; i < TI_KINDS; i++) {
		pos[i] = (i & TI_LAST_ROW ? 1 : p->nrt - 1) * (i & TI_LAST_COL ? 1 : nct - 1);
		tiles[i] = (uint64_t)g->ng * pos[i] * (i & TI_LAST_GRP ? 1 : p->ngrp - 1);
	}
	const uint64_t spt = (uint64_t)p->nci * p->nsub;
	c->nt = nt;
	c->ns = nt * spt;
	uint64_t tC = cfg->launch_cycles + vta_cost_fetch_arrival(cfg, 0);
	uint64_t port = 0, insns = 0;
	if (g->bias_lut_table_bytes && p->nconst) {
		tC += c->btab.cycles;
		port += c->btab.beats;
		insns++;
	}
	if (g->wgt_lut_table_bytes && !g->wgt_lut_block_table_bytes) {
		port += c->wtab.beats;
		insns++;
	}
	c->b_work = c->b_out_beats = c->b_tile_insns = 0;
	for (int i = 0; i < TI_KINDS; i++) {
		/* each input content once, counted with the tile positions of the full groups */
		const uint64_t loads =
			i & TI_LAST_GRP ? 0 : (uint64_t)g->ng * pos[i] * g->units * p->nci;
		const uint64_t n = tiles[i];
		c->tile_work[i] = c->reset[i] + c->alu[i] + spt * c->gemm_step[i];
		c->tile_insns[i] = 1 + c->out_insns[i] + alu_tt + alu_imm + spt;
		c->b_work += n * c->tile_work[i];
		c->b_out_beats += n * c->out[i].beats;
		c->b_tile_insns += n * c->tile_insns[i];
		port += loads * c->inp[i].beats;
		insns += loads;
	}
	tC += c->b_work;
	port += c->b_out_beats;
	insns += c->b_tile_insns;
	/* weight loads of the full groups and of the last (one per chunk when it is ragged) */
	const uint32_t last_obw = ti_grp_obw(p, (uint32_t)c->last_nob);
	const uint64_t n_wgt[2] = {(uint64_t)(p->ngrp - 1) * p->nsub * p->nci,
				   (uint64_t)(c->last_nob / last_obw) * p->nci};
	const uint64_t n_wblk[2] = {n_wgt[0] * p->nobw, n_wgt[1] * last_obw};
	for (int i = 0; i < 2; i++) {
		if (g->wgt_lut_bw && g->wgt_lut_window) {
			port += n_wgt[i] * c->wlut_step[i].beats;
			insns += n_wgt[i] * c->wlut_step_insns[i];
		} else if (g->wgt_lut_bw) {
			port += n_wblk[i] * c->wlut.beats;
			insns += n_wblk[i];
		} else {
			port += n_wgt[i] * c->wgt[i].beats;
			insns += n_wgt[i];
		}
	}
	c->b_compute = tC;
	c->b_port = port;
	c->b_insns = insns;
	/* waits the COMPUTE module cannot fill. One INP slot: a step that starts a new chunk
	 * inside a tile loads after the previous step's GEMM, and its GEMM waits for the load;
	 * one WGT slot: every step inside a tile does. */
	const uint64_t wload[2] = {
		g->wgt_lut_window ? c->wlut_step[0].cycles
		: g->wgt_lut_bw	  ? p->nobw * c->wlut.cycles
				  : c->wgt[0].cycles,
		g->wgt_lut_window ? c->wlut_step[1].cycles
		: g->wgt_lut_bw	  ? last_obw * c->wlut.cycles
				  : c->wgt[1].cycles};
	c->b_wait_wgt = c->b_wait_inp = 0;
	for (int i = 0; i < TI_KINDS; i++) {
		c->b_wait_wgt += tiles[i] * (spt - 1) * wload[i & TI_LAST_GRP ? 1 : 0];
		c->b_wait_inp += tiles[i] * (p->nci - 1) * c->inp[i].cycles;
	}
	/* one ACC slot: a tile's reset waits for the previous tile's store */
	uint64_t stores = 0;
	for (int i = 0; i < TI_KINDS; i++)
		stores += tiles[i] * c->out[i].cycles;
	c->b_stores = stores - c->out[TI_KINDS - 1].cycles;
}

/* c: p's base costs (ti_costs_base). */
uint64_t ti_bound(const vta_config *cfg, const vta_conv_plan *p, const ti_costs *c,
			 uint32_t alu_tt)
{
	const ti_consts_cost *consts = c->consts_by[p->const_all];
	bool uop_fit;
	const uint64_t variants = ti_variants(cfg, p, c, &uop_fit);
	const uint64_t nt = c->nt;
	const uint64_t n_uop = uop_fit ? variants : c->ns;
	const uint64_t n_reset = ti_min(p->s_acc, nt);
	const uint64_t n_kern = ti_max(n_reset, p->const_all ? p->ngrp : 1) * alu_tt;
	uint64_t n_const = 0;
	if (p->nconst)
		n_const = p->const_all || p->ngrp == 1 ? 1 : p->rows_outer ? nt : p->ngrp;
	/* constant loads and ALU kernels priced as the last group's, the smallest */
	uint64_t tC = c->b_compute + n_const * consts[1].x.cycles + n_reset * c->uop_one.cycles +
		      n_uop * c->uop.cycles + n_kern * c->alu_kern[1].cycles;
	const uint64_t port = c->b_port + n_const * consts[1].x.beats +
			      n_reset * c->uop_one.beats + n_uop * c->uop.beats +
			      n_kern * c->alu_kern[1].beats;
	const uint64_t insns = c->b_insns + n_const * consts[1].insns + n_reset + n_uop + n_kern;
	if (p->s_wgt == 1)
		tC += c->b_wait_wgt;
	if (p->s_inp == 1)
		tC += c->b_wait_inp;
	/* one ACC slot: only a constant load may overlap the store a reset waits for (those
	 * were counted above); the overlap taken off at its largest, a full group's loads */
	if (p->s_acc == 1 && nt > 1) {
		const uint64_t overlap =
			!p->const_all && p->nconst ? (n_const - 1) * consts[0].x.cycles : 0;
		tC += c->b_stores > overlap ? c->b_stores - overlap : 0;
	}
	const uint64_t by_compute = tC + c->out[TI_KINDS - 1].cycles;
	const uint64_t by_port = port + insns * cfg->insn_bytes / vta_cost_bus_bytes(cfg);
	return ti_max(by_compute, by_port) + cfg->insn_overhead_cycles;
}

/* Score p (fills its estimates) with its costs c, walking its schedule as vta_conv_schedule
 * would build it without keeping it; false when out of memory. *over: the estimate already
 * exceeds `limit` (a plan that cannot win; its estimates are then not filled). Every term
 * here that ti_bound counts must stay at least what ti_bound counts for it. */
bool ti_estimate(const vta_config *cfg, const vta_conv_geom *g, vta_conv_plan *p,
			const ti_costs *c, ti_work *w, uint64_t limit, bool *over)
{
	*over = false;
	/* the ALU's tensor kernels address the tile's slot and the group's constants: one set
	 * per (slot, group) with every channel's constants resident, else per slot */
	const uint64_t kern_groups = p->const_all ? p->ngrp : 1;
	const uint64_t n_seen = (uint64_t)p->s_acc * kern_groups;
	bool ok = true;
	w->kern_seen = ti_reserve(w->kern_seen, &w->cap_seen, n_seen, sizeof(*w->kern_seen), &ok);
	if (!ok)
		return false;
	memset(w->kern_seen, 0, n_seen * sizeof(*w->kern_seen));
	ti_model m = {cfg, 0, 0, 0};
	const uint64_t ovh = cfg->insn_overhead_cycles, bus = vta_cost_bus_bytes(cfg);
	const uint32_t nt = g->ng * p->nrt * ti_nct(p) * p->ngrp, tw = ti_tw(g, p);

	/* nothing starts before the launch and the first instruction's dispatch (of a full
	 * first burst: corrected at the end when the stream is shorter) */
	const uint64_t per_burst = vta_cost_fetch_burst_insns(cfg);
	const uint64_t t_first = cfg->launch_cycles + vta_cost_fetch_ready(cfg, 0, per_burst);
	uint64_t tL = t_first, tC = t_first, tS = t_first, dram = 0, insns = 0, uop_loaded = 0;
	/* compute finished in the step that read each INP and WGT slot last (the walk's steps
	 * finish in order, so the latest of these is the step a load waits for); the stores
	 * of the last two tiles */
	uint64_t read_done[2][2] = {{0, 0}, {0, 0}}, stored[2] = {0, 0};
	ti_slots sl;
	ti_slots_init(&sl, p);
	/* split filter tables: one block's bytes, and the block whose tables are loaded */
	const uint64_t wtab_bytes = g->wgt_lut_block_table_bytes;
	int64_t wtab_block = -1;
	if (g->wgt_lut_table_bytes && !g->wgt_lut_block_table_bytes) {
		tL = ti_go(&m, tL, &c->wtab);
		dram += g->wgt_lut_table_bytes;
		insns++;
	}
	int64_t const_grp = -1;
	if (g->bias_lut_table_bytes && p->nconst) {
		tC = ti_go(&m, tC, &c->btab);
		dram += g->bias_lut_table_bytes;
		insns++;
	}
	if (p->const_all && p->nconst) {
		tC = ti_go(&m, tC, &c->consts[0].x);
		dram += c->consts[0].dram;
		insns += c->consts[0].insns;
	}
	uint64_t left_work = c->b_work, left_beats = c->b_out_beats, left_insns = c->b_tile_insns;
	int64_t j = 0;
	for (uint32_t t = 0; t < nt; t++) {
		vta_conv_tile tl;
		ti_tile_at(g, p, t, &tl);
		const uint32_t nb = vta_conv_grp_obs(g, p, tl.grp), nbw = ti_grp_obw(p, nb);
		const int gk = nb == p->nob ? 0 : 1; /* a full group or a ragged last one */
		const int kind = (tl.rows == p->th ? 0 : TI_LAST_ROW) |
				 (tl.cols == tw ? 0 : TI_LAST_COL) | (gk ? TI_LAST_GRP : 0);
		for (uint32_t ci = 0; ci < p->nci; ci++)
			for (uint32_t sub = 0; sub < p->nsub; sub++, j++) {
				int64_t want[2], prev;
				bool load[2];
				int k[2];
				ti_step_want(g, p, &tl, ci, sub, want);
				uint64_t ready = 0, need = 0;
				for (int o = 0; o < 2; o++) {
					k[o] = ti_slot_take(&sl, o, want[o], j, &load[o], &prev);
					if (load[o])
						need = ti_max(need, read_done[o][k[o]]);
				}
				if (load[0] || load[1]) {
					uint64_t t0 = ti_max(tL, need);
					if (load[0]) {
						t0 = ti_go(&m, t0, &c->inp[kind]);
						dram += c->inp_bytes[kind];
						insns++;
					}
					if (load[1] && g->wgt_lut_bw && g->wgt_lut_window) {
						/* as the emitter: loads of at most W blocks,
						 * a table window from a load's first block
						 * when it is not inside the resident one */
						const int64_t ob0 = (int64_t)tl.grp * p->nob +
								    (int64_t)sub * p->nobw;
						const int64_t W = g->wgt_lut_window;
						for (uint32_t b = 0, n; b < nbw; b += n) {
							n = nbw - b < W ? nbw - b : (uint32_t)W;
							const int64_t b0 = ob0 + b;
							if (wtab_bytes &&
							    !(wtab_block >= 0 && b0 >= wtab_block &&
							      b0 + n <= wtab_block + W)) {
								const int64_t left = (int64_t)g->ob - b0;
								const uint64_t tb =
									(uint64_t)(left < W ? left : W) *
									wtab_bytes;
								const ti_xfer tx = ti_xfer_bytes(cfg, w, tb);
								t0 = ti_go(&m, t0, &tx);
								dram += tb;
								insns++;
								wtab_block = b0;
							}
							t0 = ti_go(&m, t0,
								   n == W ? &c->wlut_win
									  : &c->wlut_rest[gk]);
						}
						dram += c->wlut_step_bytes[gk];
						insns += c->wlut_step_insns[gk];
					} else if (load[1] && g->wgt_lut_bw) {
						const int64_t ob0 = (int64_t)tl.grp * p->nob +
								    (int64_t)sub * p->nobw;
						for (uint32_t b = 0; b < nbw; b++) {
							if (wtab_bytes && wtab_block != ob0 + b) {
								t0 = ti_go(&m, t0, &c->wtab_block);
								dram += wtab_bytes;
								insns++;
								wtab_block = ob0 + b;
							}
							t0 = ti_go(&m, t0, &c->wlut);
						}
						dram += (uint64_t)nbw * c->wlut_bytes;
						insns += nbw;
					} else if (load[1]) {
						t0 = ti_go(&m, t0, &c->wgt[gk]);
						dram += c->wgt_bytes[gk];
						insns++;
					}
					tL = ready = t0;
				}
				if (ci == 0 && sub == 0) {
					if (!p->const_all && p->nconst &&
					    const_grp != (int64_t)tl.grp) {
						tC = ti_go(&m, tC, &c->consts[gk].x);
						dram += c->consts[gk].dram;
						insns += c->consts[gk].insns;
						const_grp = tl.grp;
					}
					if (t >= p->s_acc)
						tC = ti_max(tC, stored[(t - p->s_acc) & 1]);
					if (t < p->s_acc) { /* the slot's reset kernel (the ALU's
							     * immediate ops share it): one uop */
						tC = ti_go(&m, tC, &c->uop_one);
						dram += cfg->sram[VTA_MEM_UOP].elem_bytes;
						insns++;
					}
					tC += c->reset[kind];
					insns++;
				}
				/* the kernel's LOAD UOP is the instruction that waits for the
				 * loads */
				tC = ti_max(tC, ready);
				if (!c->uop_fit || uop_loaded < c->variants) {
					tC = ti_go(&m, tC, &c->uop);
					dram += c->uop_bytes;
					uop_loaded++;
					insns++;
				}
				tC += c->gemm_step[kind];
				read_done[0][k[0]] = read_done[1][k[1]] = tC;
				insns++;
			}
		bool *seen = &w->kern_seen[(t % p->s_acc) * kern_groups +
					   (p->const_all ? tl.grp : 0)];
		for (uint32_t i = 0; !*seen && i < w->alu_tt; i++) {
			tC = ti_go(&m, tC, &c->alu_kern[gk]);
			dram += (uint64_t)nb * cfg->sram[VTA_MEM_UOP].elem_bytes;
			insns++;
		}
		*seen = true;
		tC += c->alu[kind];
		insns += w->alu_tt + w->alu_imm;
		tS = ti_go(&m, ti_max(tS, tC), &c->out[kind]);
		stored[t & 1] = tS;
		dram += c->out_bytes[kind];
		insns += c->out_insns[kind];
		/* every term only grows, by at least the work of the tiles left (the last
		 * one's store after it): past the limit the plan has lost */
		left_work -= c->tile_work[kind];
		left_beats -= c->out[kind].beats;
		left_insns -= c->tile_insns[kind];
		const uint64_t by_c =
			t + 1 < nt ? tC + left_work + c->out[TI_KINDS - 1].cycles : tS;
		const uint64_t by_p = m.port_free + left_beats +
				      (insns + left_insns) * cfg->insn_bytes / bus;
		if (ti_max(by_c, by_p) + ovh > limit) {
			*over = true;
			return true;
		}
	}
	const uint64_t first_burst = insns < per_burst ? insns : per_burst;
	const uint64_t early = vta_cost_fetch_ready(cfg, 0, per_burst) -
			       vta_cost_fetch_ready(cfg, 0, first_burst ? first_burst : 1);
	p->est_cycles = ti_max(ti_max(tC, tS), m.port_free + insns * cfg->insn_bytes / bus) + ovh -
			early;
	p->est_dram_bytes = dram;
	p->est_insns = insns;
	return true;
}
