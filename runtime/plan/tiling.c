/*
 * tiling.c - CONV2D geometry in blocks, the GEMM kernel shape of a step, the schedule of a
 * plan (slots and tokens), and the plan chooser (tiling.h). How the chooser's event model
 * prices a plan with the timing model's own formulas (isa/vta_cost.h), and what it leaves
 * out: docs/runtime.md "Tiling".
 */
#include "tiling.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "vta_cost.h"
#include "vta_insn.h"
#include "vta_rules.h"

static uint64_t ti_gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

void vta_conv_geom_derive(const vta_config *cfg, vta_conv_geom *g)
{
	int32_t ekh = (g->kh - 1) * g->dh + 1, ekw = (g->kw - 1) * g->dw + 1;
	g->hp = (g->ho - 1) * g->sh + ekh;
	g->wp = (g->wo - 1) * g->sw + ekw;
	g->ng = (uint32_t)vta_layout_div_up((uint64_t)g->n, cfg->batch);
	g->cb = (uint32_t)vta_layout_div_up((uint64_t)g->c, cfg->block_in);
	g->ob = (uint32_t)vta_layout_div_up((uint64_t)g->o, cfg->block_out);
	g->rowskip = g->kh == 1 && g->sh > 1;
	g->ucb = g->cb;
	g->uob = g->ob;
	g->units = 1;
	if (g->groups > 1) {
		/* k groups hold k*I_f input and k*P output channels: the least k making both
		 * whole blocks; fewer than all groups means several units */
		const uint64_t in_g = (uint64_t)(g->c / g->groups), out_g = (uint64_t)(g->o / g->groups);
		const uint64_t ki = cfg->block_in / ti_gcd(cfg->block_in, in_g);
		const uint64_t ko = cfg->block_out / ti_gcd(cfg->block_out, out_g);
		const uint64_t k = ki / ti_gcd(ki, ko) * ko;
		if (k < (uint64_t)g->groups) {
			g->ucb = (uint32_t)(k * in_g / cfg->block_in);
			g->uob = (uint32_t)(k * out_g / cfg->block_out);
			g->units = (uint32_t)vta_layout_div_up((uint64_t)g->groups, k);
			g->cb = g->units * g->ucb;
		}
	}
}

uint32_t vta_conv_unit_of(const vta_conv_geom *g, uint32_t ob)
{
	return ob / g->uob;
}

uint32_t vta_conv_unit_obs(const vta_conv_geom *g, uint32_t u)
{
	return u + 1 < g->units ? g->uob : g->ob - (g->units - 1) * g->uob;
}

/* Output blocks per tile must divide every unit's output blocks. */
static uint32_t ti_nob_base(const vta_conv_geom *g)
{
	return (uint32_t)ti_gcd(g->uob, vta_conv_unit_obs(g, g->units - 1));
}

uint32_t vta_conv_rows_in(const vta_conv_geom *g, uint32_t th)
{
	if (g->rowskip)
		return th;
	return (th - 1) * (uint32_t)g->sh + (uint32_t)((g->kh - 1) * g->dh + 1);
}

uint32_t vta_conv_cols_in(const vta_conv_geom *g, uint32_t tw)
{
	return (tw - 1) * (uint32_t)g->sw + (uint32_t)((g->kw - 1) * g->dw + 1);
}

/* A plan's column tiling; a plan made before column tiles existed has tw 0: whole rows. */
static uint32_t ti_tw(const vta_conv_geom *g, const vta_conv_plan *p)
{
	return p->tw ? p->tw : (uint32_t)g->wo;
}

static uint32_t ti_nct(const vta_conv_plan *p)
{
	return p->nct ? p->nct : 1;
}

uint32_t vta_conv_grp_obs(const vta_conv_geom *g, const vta_conv_plan *p, uint32_t grp)
{
	const uint32_t left = g->ob - grp * p->nob;
	return left < p->nob ? left : p->nob;
}

/* Blocks per weight load in a group of `nb` blocks: a ragged last group is one load. */
static uint32_t ti_grp_obw(const vta_conv_plan *p, uint32_t nb)
{
	return nb == p->nob ? p->nobw : nb;
}

/* ---------- kernel shape ---------- */

static bool ti_is_output(int d)
{
	return d == VTA_KD_OB || d == VTA_KD_Y || d == VTA_KD_X;
}

void vta_conv_kshape_make(const vta_config *cfg, const vta_conv_geom *g, uint32_t nob,
			  uint32_t nobw, uint32_t rows, uint32_t ncb, vta_conv_kshape *k)
{
	vta_conv_kshape_make_cols(cfg, g, nob, nobw, rows, (uint32_t)g->wo, ncb, k);
}

void vta_conv_kshape_make_cols(const vta_config *cfg, const vta_conv_geom *g, uint32_t nob,
			       uint32_t nobw, uint32_t rows, uint32_t cols, uint32_t ncb,
			       vta_conv_kshape *k)
{
	memset(k, 0, sizeof(*k));
	const int32_t wp = (int32_t)vta_conv_cols_in(g, cols), sy = g->rowskip ? 1 : g->sh;
	k->extent[VTA_KD_OB] = nobw;
	k->extent[VTA_KD_Y] = rows;
	k->extent[VTA_KD_X] = cols;
	k->extent[VTA_KD_KY] = (uint32_t)g->kh;
	k->extent[VTA_KD_KX] = (uint32_t)g->kw;
	k->extent[VTA_KD_CB] = ncb;
	const int32_t n_ob = (int32_t)nob, n_cb = (int32_t)ncb;
	/* ACC [pixel][nob], INP [row][col][ncb], WGT [nobw][ky][kx][ncb] */
	k->dst[VTA_KD_OB] = 1;
	k->dst[VTA_KD_Y] = (int32_t)cols * n_ob;
	k->dst[VTA_KD_X] = n_ob;
	k->src[VTA_KD_Y] = sy * wp * n_cb;
	k->src[VTA_KD_X] = g->sw * n_cb;
	k->src[VTA_KD_KY] = g->dh * wp * n_cb;
	k->src[VTA_KD_KX] = g->dw * n_cb;
	k->src[VTA_KD_CB] = 1;
	k->wgt[VTA_KD_OB] = g->kh * g->kw * n_cb;
	k->wgt[VTA_KD_KY] = g->kw * n_cb;
	k->wgt[VTA_KD_KX] = n_cb;
	k->wgt[VTA_KD_CB] = 1;

	const uint64_t D = cfg->acc_dep_distance;
	/* the list's outputs and reduction length with the dims of mask m looped (bit d of
	 * the output dims, bit d - 3 of the others) */
	const uint32_t *e = k->extent;
	uint64_t p_of[8], red_of[8];
	for (unsigned m = 0; m < 8; m++) {
		p_of[m] = (uint64_t)(m & 1 ? 1 : e[VTA_KD_OB]) * (m & 2 ? 1 : e[VTA_KD_Y]) *
			  (m & 4 ? 1 : e[VTA_KD_X]);
		red_of[m] = (uint64_t)(m & 1 ? 1 : e[VTA_KD_KY]) * (m & 2 ? 1 : e[VTA_KD_KX]) *
			    (m & 4 ? 1 : e[VTA_KD_CB]);
	}
	uint64_t best = UINT64_MAX;
	int best_a = -1, best_b = -1;
	uint32_t best_dummy = 0, best_p = 0;
	/* a = outer, b = inner; -1 = no loop */
	for (int a = -1; a < VTA_KD_COUNT; a++) {
		for (int b = -1; b < VTA_KD_COUNT; b++) {
			if ((a >= 0 && a == b) || (a >= 0 && b < 0))
				continue; /* a single loop is the inner one */
			if ((a >= 0 && k->extent[a] < 2) || (b >= 0 && k->extent[b] < 2))
				continue;
			bool out_loop = (a >= 0 && ti_is_output(a)) || (b >= 0 && ti_is_output(b));
			unsigned om = 0, rm = 0;
			for (int i = 0; i < 2; i++) {
				const int d = i ? b : a;
				if (d >= 0 && ti_is_output(d))
					om |= 1u << d;
				else if (d >= 0)
					rm |= 1u << (d - VTA_KD_KY);
			}
			const uint64_t p = p_of[om], red = red_of[rm];
			uint32_t dummy = 0;
			if (D > 0 && p <= D) {
				if (out_loop)
					continue;
				dummy = (uint32_t)(D + 1 - p);
			}
			uint64_t len = red * (p + dummy);
			/* prefer the row loop: a ragged last tile then reuses the kernel */
			bool y_loop = a == VTA_KD_Y || b == VTA_KD_Y;
			uint64_t score = 2 * len + (y_loop ? 0 : 1);
			if (score < best) {
				best = score;
				best_a = a;
				best_b = b;
				best_dummy = dummy;
				best_p = (uint32_t)p;
			}
		}
	}
	if (best == UINT64_MAX)
		return;
	k->loop[0] = best_a;
	k->loop[1] = best_b;
	k->dummy = best_dummy;
	k->outputs = best_p;
	uint64_t len = best / 2;
	k->ok = len <= UINT32_MAX;
	k->list_len = (uint32_t)len;
}

/* ---------- schedule ---------- */

void vta_conv_sched_free(vta_conv_sched *s)
{
	free(s->tiles);
	free(s->steps);
	memset(s, 0, sizeof(*s));
}

/* p grown to hold n elements of `elem` bytes (*cap counts them). On failure *ok becomes
 * false and p is kept (its owner frees it); once *ok is false nothing more is grown. */
static void *ti_reserve(void *p, uint64_t *cap, uint64_t n, size_t elem, bool *ok)
{
	if (!*ok || n <= *cap)
		return p;
	void *q = realloc(p, n * elem);
	if (!q) {
		*ok = false;
		return p;
	}
	*cap = n;
	return q;
}

/* Tile t of the plan's walk: row tiles outer (image group, row tile, column tile, then
 * channel group) or channel groups outer. */
static void ti_tile_at(const vta_conv_geom *g, const vta_conv_plan *p, uint32_t t,
		       vta_conv_tile *tl)
{
	const uint32_t nct = ti_nct(p), tw = ti_tw(g, p);
	const uint32_t nr = g->ng * p->nrt * nct; /* tile positions in the image groups */
	const uint32_t r = p->rows_outer ? t / p->ngrp : t % nr;
	tl->grp = p->rows_outer ? t % p->ngrp : t / nr;
	tl->unit = vta_conv_unit_of(g, tl->grp * p->nob);
	tl->g = r / (p->nrt * nct);
	tl->rt = r / nct % p->nrt;
	tl->ct = r % nct;
	tl->y0 = tl->rt * p->th;
	tl->rows = (uint32_t)g->ho - tl->y0 < p->th ? (uint32_t)g->ho - tl->y0 : p->th;
	tl->x0 = tl->ct * tw;
	tl->cols = (uint32_t)g->wo - tl->x0 < tw ? (uint32_t)g->wo - tl->x0 : tw;
}

/* The contents a step reads: [0] its input window and chunk, [1] its weights. */
static void ti_step_want(const vta_conv_geom *g, const vta_conv_plan *p, const vta_conv_tile *tl,
			 uint32_t ci, uint32_t sub, int64_t want[2])
{
	want[0] = ((((int64_t)tl->g * p->nrt + tl->rt) * ti_nct(p) + tl->ct) * g->units +
		   tl->unit) * p->nci + ci;
	want[1] = ((int64_t)tl->grp * p->nsub + sub) * p->nci + ci;
}

/* The INP ([0]) and WGT ([1]) slots as a walk fills them: contents (-1 empty) and the last
 * step that read each slot. */
typedef struct ti_slots {
	int64_t key[2][2], used[2][2];
	unsigned n[2];
} ti_slots;

static void ti_slots_init(ti_slots *s, const vta_conv_plan *p)
{
	for (int o = 0; o < 2; o++)
		for (int k = 0; k < 2; k++)
			s->key[o][k] = s->used[o][k] = -1;
	s->n[0] = p->s_inp;
	s->n[1] = p->s_wgt;
}

/* The slot of SRAM o step j reads `want` from: the one holding it, else (*load) the least
 * recently read one, which it is loaded into once *prev, the step that read it last (-1:
 * none), is done with it. */
static int ti_slot_take(ti_slots *s, int o, int64_t want, int64_t j, bool *load, int64_t *prev)
{
	int sl = -1;
	for (unsigned k = 0; k < s->n[o]; k++)
		if (s->key[o][k] == want)
			sl = (int)k;
	*load = sl < 0;
	if (sl < 0) {
		sl = s->n[o] == 2 && s->used[o][1] < s->used[o][0] ? 1 : 0;
		s->key[o][sl] = want;
	}
	*prev = s->used[o][sl];
	s->used[o][sl] = j;
	return sl;
}

vta_status vta_conv_schedule(const vta_conv_geom *g, const vta_conv_plan *p,
			     vta_conv_sched *s, vta_error *err)
{
	memset(s, 0, sizeof(*s));
	const uint32_t nt = g->ng * p->nrt * ti_nct(p) * p->ngrp;
	const uint64_t ns = (uint64_t)nt * p->nci * p->nsub;
	s->tiles = nt ? malloc(nt * sizeof(*s->tiles)) : NULL;
	s->steps = ns ? malloc(ns * sizeof(*s->steps)) : NULL;
	if ((nt && !s->tiles) || (ns && !s->steps)) {
		vta_conv_sched_free(s);
		return vta_fail(err, VTA_E_NOMEM, "CONV2D schedule: out of memory");
	}
	s->n_tiles = nt;
	s->n_steps = ns;
	ti_slots sl;
	ti_slots_init(&sl, p);
	int64_t acked = -1;
	int64_t j = 0; /* the step */
	for (uint32_t t = 0; t < nt; t++) {
		vta_conv_tile *tl = &s->tiles[t];
		ti_tile_at(g, p, t, tl);
		for (uint32_t ci = 0; ci < p->nci; ci++)
			for (uint32_t sub = 0; sub < p->nsub; sub++, j++) {
				vta_conv_step *st = &s->steps[j];
				memset(st, 0, sizeof(*st));
				st->tile = t;
				st->c = ci;
				st->sub = sub;
				int64_t want[2], need = -1;
				ti_step_want(g, p, tl, ci, sub, want);
				for (int o = 0; o < 2; o++) {
					bool load;
					int64_t prev;
					int k = ti_slot_take(&sl, o, want[o], j, &load, &prev);
					if (load && prev > need)
						need = prev;
					if (o == 0) {
						st->inp_slot = (int8_t)k;
						st->load_inp = load;
					} else {
						st->wgt_slot = (int8_t)k;
						st->load_wgt = load;
					}
				}
				st->need = need;
				if (need > acked) {
					st->pop_g2l = true;
					s->steps[need].push_g2l = true;
					acked = need;
				}
			}
	}
	return VTA_OK;
}

static uint64_t ti_max(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* ---------- cost model ---------- */

typedef struct ti_model {
	const vta_config *cfg;
	uint64_t port_free;
	/* the read channel: the latest request walked so far, and when the data asked for
	 * up to it has come (reads return in request order) */
	uint64_t last_ask, data_free;
} ti_model;

/* A transfer the estimate repeats, priced once: its beats on the port and its idle-port
 * cycles (the cost functions divide, and a schedule has thousands of steps); STORE's on the
 * write channel. */
typedef struct ti_xfer {
	uint64_t beats, cycles;
	bool write;
} ti_xfer;

static ti_xfer ti_xfer_bytes(const vta_config *cfg, uint64_t bytes)
{
	vta_dma_plan plan = vta_cost_dma_plan_bytes(bytes);
	ti_xfer x = {vta_cost_dma_beats(cfg, &plan), vta_cost_dma_idle_cycles(cfg, &plan), false};
	return x;
}

/* `runs` rows of `run_bytes` each (a strided 2D transfer), read or, from OUT, written. */
static ti_xfer ti_xfer_runs(const vta_config *cfg, uint64_t runs, uint64_t run_bytes, bool store)
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

/* The constant rows' loads: `bytes` of plain rows in one load (none when 0), then with a
 * decoder's bias row (blut->lut_bw != 0) one decompressing load per block; their cycles,
 * beats, bytes and instructions, the same wherever they are issued. */
typedef struct ti_consts_cost {
	ti_xfer x;
	uint64_t dram, insns;
} ti_consts_cost;

static ti_consts_cost ti_consts(const vta_config *cfg, uint64_t bytes, const vta_mem_insn *blut,
				uint32_t blocks)
{
	ti_consts_cost c = {{0, 0, false}, 0, 0};
	if (bytes) {
		c.x = ti_xfer_bytes(cfg, bytes);
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

static uint64_t ti_min(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

typedef struct ti_work {
	bool *kern_seen; /* per (ACC slot, channel group): its ALU kernels are loaded */
	uint64_t cap_seen;
	uint32_t alu_tt, alu_imm;
} ti_work;

static void ti_work_free(ti_work *w)
{
	free(w->kern_seen);
}

/* What a candidate's estimate and bound price: the kernel's shape and every transfer size
 * the schedule repeats, each computed once (ti_costs_block for a chunking and grouping,
 * ti_costs_base for a row height and column width of those, ti_costs_slots for one
 * candidate). A tile is full (th rows, tw columns)
 * or the last of its image group in rows (`last_rows`, fewer when th does not divide the
 * output's rows), in columns (`last_cols`) or in output blocks (the last channel group,
 * `last_nob` blocks, fewer when nob does not divide them): its kind is the sum of
 * TI_LAST_ROW, TI_LAST_COL and TI_LAST_GRP that apply. */
enum { TI_LAST_ROW = 1, TI_LAST_COL = 2, TI_LAST_GRP = 4, TI_KINDS = 8 };
typedef struct ti_costs {
	vta_conv_kshape k;
	uint64_t taps, last_rows, last_cols, last_nob;
	uint64_t inp_bytes[TI_KINDS], out_bytes[TI_KINDS];
	ti_xfer inp[TI_KINDS], out[TI_KINDS];
	uint64_t out_insns[TI_KINDS]; /* stores of a tile (one per row of a column tile that
				       * holds fewer than all output blocks) */
	uint64_t wgt_bytes[2], wlut_bytes; /* [1]: the last group's */
	ti_xfer wgt[2], wlut, wtab_block, wtab, btab;
	uint64_t uop_bytes, variants;
	bool uop_fit;
	ti_xfer uop, uop_one, alu_kern[2]; /* a GEMM kernel, a reset kernel, a tensor ALU
					    * kernel (of a full and of the last group) */
	ti_consts_cost consts[2]; /* [1]: the last group's (per-group constants) */
	ti_consts_cost consts_by[2][2]; /* consts with per-group [0] or resident [1] ones */
	uint64_t gemm_step[TI_KINDS], reset[TI_KINDS], alu[TI_KINDS]; /* a step's GEMM; a
								   * tile's reset, ALU ops */
	/* ti_bound's terms that no slot, constants or order choice changes */
	uint64_t nt, ns;           /* tiles, steps */
	uint64_t b_compute, b_port, b_insns;
	/* of those, the work of every tile: compute (reset, GEMMs, ALU ops), store beats and
	 * instructions (by kind, and summed over the tiles) */
	uint64_t tile_work[TI_KINDS], tile_insns[TI_KINDS];
	uint64_t b_work, b_out_beats, b_tile_insns;
	uint64_t b_wait_wgt, b_wait_inp; /* the waits of one WGT slot, of one INP slot */
	uint64_t b_stores;         /* every store but the last tile's */
} ti_costs;

static void ti_bound_base(const vta_config *cfg, const vta_conv_geom *g, const vta_conv_plan *p,
			  uint32_t alu_tt, uint32_t alu_imm, ti_costs *c);

/* Fill the costs of c that depend on p's chunking and grouping only: the weight and
 * constant loads and the kernels other than the GEMM's. */
static void ti_costs_block(const vta_config *cfg, const vta_conv_geom *g, const vta_conv_plan *p,
			   ti_costs *c)
{
	c->taps = (uint64_t)g->kh * g->kw;
	c->last_nob = vta_conv_grp_obs(g, p, p->ngrp - 1);
	for (int i = 0; i < 2; i++) {
		const uint32_t nbw = ti_grp_obw(p, i ? (uint32_t)c->last_nob : p->nob);
		c->wgt_bytes[i] =
			(uint64_t)nbw * c->taps * p->ncb * cfg->sram[VTA_MEM_WGT].elem_bytes;
		c->wgt[i] = ti_xfer_bytes(cfg, c->wgt_bytes[i]);
		c->alu_kern[i] = ti_xfer_bytes(
			cfg, (i ? c->last_nob : p->nob) * cfg->sram[VTA_MEM_UOP].elem_bytes);
	}
	/* a decompressing WGT load of one output block: taps rows of ncb packed elements */
	vta_mem_insn wlut = {.mem_type = VTA_MEM_WGT, .lut_bw = g->wgt_lut_bw,
			     .y_size = (uint32_t)c->taps, .x_size = p->ncb, .x_stride = g->ucb};
	c->wlut_bytes = g->wgt_lut_bw ? vta_cost_dma_bytes(cfg, &wlut) : 0;
	c->wlut = g->wgt_lut_bw ? ti_xfer_lut(cfg, &wlut) : (ti_xfer){0, 0, false};
	c->wtab_block = ti_xfer_bytes(cfg, g->wgt_lut_block_table_bytes);
	c->wtab = ti_xfer_bytes(cfg, g->wgt_lut_table_bytes);
	c->btab = ti_xfer_bytes(cfg, g->bias_lut_table_bytes);
	c->uop_one = ti_xfer_bytes(cfg, cfg->sram[VTA_MEM_UOP].elem_bytes);
	/* constant rows: the plain ones in one load, a decoder's bias row one load per block */
	const uint32_t n_plain = p->nconst - (g->bias_lut_bw && p->nconst ? 1 : 0);
	vta_mem_insn blut = {.mem_type = VTA_MEM_ACC, .lut_bw = g->bias_lut_bw, .y_size = 1,
			     .x_size = 1, .x_stride = 1};
	for (int all = 0; all < 2; all++)
		for (int i = 0; i < 2; i++) {
			const uint32_t blocks = all ? g->ob : i ? (uint32_t)c->last_nob : p->nob;
			c->consts_by[all][i] = ti_consts(
				cfg, (uint64_t)n_plain * blocks * cfg->sram[VTA_MEM_ACC].elem_bytes,
				&blut, blocks);
		}
}

/* ... then those that depend on its row height and column width too, and its kernel k
 * (vta_conv_kshape_make's, which must fit the UOP SRAM). */
static void ti_costs_base(const vta_config *cfg, const vta_conv_geom *g, const vta_conv_plan *p,
			  uint32_t alu_tt, uint32_t alu_imm, const vta_conv_kshape *k,
			  ti_costs *c)
{
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
				? ti_xfer_runs(cfg, rows_in,
					       cin * p->ncb * cfg->sram[VTA_MEM_INP].elem_bytes,
					       false)
				: ti_xfer_runs(cfg, rows_in * cin,
					       p->ncb * cfg->sram[VTA_MEM_INP].elem_bytes, false);
			/* a row per pixel of the tile's blocks, one row when they are all the
			 * output's (vta_stream merges adjacent rows) */
			c->out[i] = nb == g->ob
				? ti_xfer_runs(cfg, 1, c->out_bytes[i], true)
				: ti_xfer_runs(cfg, pix, nb * cfg->sram[VTA_MEM_OUT].elem_bytes,
					       true);
		} else {
			/* a column tile's window: one run per input row; its store one run per
			 * output row, or one store per row when the tile holds some blocks only */
			c->inp[i] = ti_xfer_runs(cfg, rows_in,
						 cin * p->ncb * cfg->sram[VTA_MEM_INP].elem_bytes,
						 false);
			if (nb == g->ob) {
				c->out[i] = ti_xfer_runs(
					cfg, r, cols * nb * cfg->sram[VTA_MEM_OUT].elem_bytes,
					true);
			} else {
				const ti_xfer one = ti_xfer_runs(
					cfg, cols, nb * cfg->sram[VTA_MEM_OUT].elem_bytes, true);
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
	c->uop = ti_xfer_bytes(cfg, c->uop_bytes);
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
static void ti_costs_slots(const vta_config *cfg, const vta_conv_plan *p, ti_costs *c)
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
		if (g->wgt_lut_bw) {
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
		g->wgt_lut_bw ? p->nobw * c->wlut.cycles : c->wgt[0].cycles,
		g->wgt_lut_bw ? last_obw * c->wlut.cycles : c->wgt[1].cycles};
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
static uint64_t ti_bound(const vta_config *cfg, const vta_conv_plan *p, const ti_costs *c,
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
static bool ti_estimate(const vta_config *cfg, const vta_conv_geom *g, vta_conv_plan *p,
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
					if (load[1] && g->wgt_lut_bw) {
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

/* ---------- chooser ---------- */

static uint32_t ti_divisors(uint32_t n, uint32_t *out, uint32_t max)
{
	uint32_t k = 0;
	for (uint32_t d = n; d >= 1 && k < max; d--)
		if (n % d == 0)
			out[k++] = d;
	return k;
}

/* Largest th <= ho whose input rows of `cin` columns fit `cap` INP rows at chunk ncb. */
static uint32_t ti_th_inp_cols(const vta_conv_geom *g, uint32_t cin, uint32_t ncb, uint32_t cap)
{
	uint64_t per = (uint64_t)cin * ncb;
	uint32_t lo = 0, hi = (uint32_t)g->ho;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo + 1) / 2;
		if ((uint64_t)vta_conv_rows_in(g, mid) * per <= cap)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/* ... of whole padded rows. */
static uint32_t ti_th_inp(const vta_conv_geom *g, uint32_t ncb, uint32_t cap)
{
	return ti_th_inp_cols(g, (uint32_t)g->wp, ncb, cap);
}

static bool ti_better(const vta_conv_plan *a, const vta_conv_plan *b)
{
	if (a->est_cycles != b->est_cycles)
		return a->est_cycles < b->est_cycles;
	if (a->est_dram_bytes != b->est_dram_bytes)
		return a->est_dram_bytes < b->est_dram_bytes;
	return a->est_insns < b->est_insns;
}

/* A *base*: the candidates of one chunking, grouping, row height and column width, which
 * differ only in slots, constants and tile order, share their kernel and the costs and
 * bound terms that depend on those choices alone (ti_costs_base); made once, when the
 * first of them is enumerated (the part that only the chunking and grouping decide once
 * for them all, ti_costs_block). */
typedef struct ti_base {
	vta_conv_plan p; /* the first candidate: its chunking, grouping and tile sizes */
	bool fits;       /* its kernel fits the UOP SRAM (else no candidate of it is kept) */
	ti_costs c;      /* slot part unset */
} ti_base;

/* A candidate: its base, the enumeration's slot-and-constants code, its tile order and its
 * bound. Its index is the order it was enumerated in, which breaks full ties as the first
 * one found would. */
typedef struct ti_cand {
	uint64_t bound;
	uint32_t base;
	uint8_t code; /* (s_inp - 1) | (s_wgt - 1) << 1 | (s_acc - 1) << 2 | const_all << 3 */
	bool rows_outer;
} ti_cand;

/* A candidate in the scoring order: its bound, then its index. */
typedef struct ti_rank {
	uint64_t bound, order;
} ti_rank;

typedef struct ti_search {
	const vta_config *cfg;
	const vta_conv_geom *g;
	const vta_conv_pin *pin; /* never NULL */
	ti_work w;
	ti_base *bases;
	ti_cand *cands;
	uint64_t n_bases, cap_bases, n_cands, cap_cands;
	uint64_t block; /* the first base of the chunking and grouping enumerated now */
	uint64_t first; /* the candidate scored first: the least bound, then the first found */
	bool nomem;
} ti_search;

/* p's base, made when it is new. Bases of the current chunking and grouping only are
 * searched: no other has p's. NULL when out of memory. */
static const ti_base *ti_base_of(ti_search *se, const vta_conv_plan *p)
{
	const uint32_t tw = ti_tw(se->g, p);
	for (uint64_t i = se->block; i < se->n_bases; i++) {
		const ti_base *b = &se->bases[i];
		if (b->p.th == p->th && ti_tw(se->g, &b->p) == tw)
			return b;
	}
	bool ok = true;
	if (se->n_bases == se->cap_bases) {
		const uint64_t cap = se->cap_bases < 16 ? 16 : se->cap_bases * 2;
		se->bases = ti_reserve(se->bases, &se->cap_bases, cap, sizeof(*se->bases), &ok);
	}
	if (!ok)
		return NULL;
	ti_base *b = &se->bases[se->n_bases];
	if (se->n_bases == se->block)
		ti_costs_block(se->cfg, se->g, p, &b->c);
	else /* the block's part of the costs */
		b->c = se->bases[se->block].c;
	se->n_bases++;
	b->p = *p;
	vta_conv_kshape k;
	vta_conv_kshape_make_cols(se->cfg, se->g, p->nob, p->nobw, p->th, tw, p->ncb, &k);
	b->fits = k.ok && k.list_len <= se->cfg->sram[VTA_MEM_UOP].depth;
	if (b->fits)
		ti_costs_base(se->cfg, se->g, p, se->w.alu_tt, se->w.alu_imm, &k, &b->c);
	return b;
}

/* Keep p as a candidate with its bound (a kernel that does not fit the UOP SRAM drops it). */
static void ti_add(ti_search *se, const vta_conv_plan *p)
{
	if (se->nomem)
		return;
	const ti_base *b = ti_base_of(se, p);
	bool ok = b != NULL;
	if (ok && !b->fits)
		return;
	if (ok && se->n_cands == se->cap_cands) {
		const uint64_t cap = se->cap_cands < 256 ? 256 : se->cap_cands * 2;
		se->cands = ti_reserve(se->cands, &se->cap_cands, cap, sizeof(*se->cands), &ok);
	}
	if (!ok) {
		se->nomem = true;
		return;
	}
	ti_cand *n = &se->cands[se->n_cands];
	n->bound = ti_bound(se->cfg, p, &b->c, se->w.alu_tt);
	n->base = (uint32_t)(b - se->bases);
	n->code = (uint8_t)((p->s_inp - 1) | (p->s_wgt - 1) << 1 | (p->s_acc - 1) << 2 |
			    (p->const_all ? 8 : 0));
	n->rows_outer = p->rows_outer;
	if (se->n_cands == 0 || n->bound < se->cands[se->first].bound)
		se->first = se->n_cands;
	se->n_cands++;
}

/* Every row-tile height and order for fixed chunking, grouping and slots. */
static void ti_try(ti_search *se, vta_conv_plan p, uint32_t thmax)
{
	const vta_conv_geom *g = se->g;
	const vta_conv_pin *pin = se->pin;
	uint32_t prev = 0;
	for (int h = 0; h < 4; h++) {
		uint32_t t = thmax >> h;
		if (pin->th) { /* the pinned height only, as vta_conv_plan_check clamps it */
			t = pin->th < (uint32_t)g->ho ? pin->th : (uint32_t)g->ho;
			if (h > 0 || t > thmax)
				break;
		}
		if (t == 0)
			break;
		uint32_t nrt = (uint32_t)vta_layout_div_up((uint64_t)g->ho, t);
		if (!pin->th)
			t = (uint32_t)vta_layout_div_up((uint64_t)g->ho, nrt);
		if (t == prev)
			continue;
		prev = t;
		for (int ro = 0; ro < 2; ro++) {
			/* one order when both are the same; a pinned order even then */
			if (pin->order ? (ro == 1) != (pin->order == VTA_PIN_ROWS_OUTER)
				       : ro == 1 && (p.ngrp == 1 || g->ng * nrt == 1))
				continue;
			p.th = t;
			p.nrt = nrt;
			p.rows_outer = ro == 1;
			ti_add(se, &p);
		}
	}
}

static bool ti_rank_less(const ti_rank *x, const ti_rank *y)
{
	return x->bound != y->bound ? x->bound < y->bound : x->order < y->order;
}

/* Restore the min-heap of h[0..n) below i. */
static void ti_heap_down(ti_rank *h, uint64_t n, uint64_t i)
{
	const ti_rank r = h[i];
	for (;;) {
		uint64_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && ti_rank_less(&h[c + 1], &h[c]))
			c++;
		if (!ti_rank_less(&h[c], &r))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = r;
}

/* Score candidate i against *best (its estimate, unless it already exceeds best's; *found
 * false: none yet). False when out of memory. */
static bool ti_score(ti_search *se, const vta_conv_geom *g0, uint64_t i, vta_conv_plan *best,
		     uint64_t *best_order, bool *found)
{
	const ti_cand *k = &se->cands[i];
	const ti_base *b = &se->bases[k->base];
	vta_conv_plan p = b->p;
	p.s_inp = 1 + (k->code & 1);
	p.s_wgt = 1 + ((k->code >> 1) & 1);
	p.s_acc = 1 + ((k->code >> 2) & 1);
	p.const_all = (k->code >> 3) & 1;
	p.rows_outer = k->rows_outer;
	vta_conv_geom g = *g0;
	g.rowskip = p.rowskip;
	ti_costs c = b->c;
	ti_costs_slots(se->cfg, &p, &c);
	bool over;
	if (!ti_estimate(se->cfg, &g, &p, &c, &se->w, *found ? best->est_cycles : UINT64_MAX,
			 &over))
		return false;
	if (!over && (!*found || ti_better(&p, best) ||
		      (!ti_better(best, &p) && i < *best_order))) {
		*best = p;
		*best_order = i;
		*found = true;
	}
	return true;
}

/* The best candidate: the least estimate, then the fewest DRAM bytes, then the fewest
 * instructions, then the first enumerated. Candidates are scored in the order of their
 * bounds, and once a bound exceeds the best estimate so far no later candidate can win, so
 * only the few that might are scheduled. The first one's estimate already leaves out the
 * candidates whose bound exceeds it; the others are taken from a heap, as few as are
 * scored, not sorted. *found false when none could be. */
static bool ti_pick(ti_search *se, const vta_conv_geom *g0, vta_conv_plan *best, bool *found)
{
	*found = false;
	if (se->nomem)
		return false;
	if (se->n_cands == 0)
		return true;
	uint64_t best_order = 0;
	if (!ti_score(se, g0, se->first, best, &best_order, found))
		return false;
	uint64_t n = 0;
	for (uint64_t i = 0; i < se->n_cands; i++)
		n += i != se->first && se->cands[i].bound <= best->est_cycles;
	ti_rank *h = malloc((n ? n : 1) * sizeof(*h));
	if (!h)
		return false;
	n = 0;
	for (uint64_t i = 0; i < se->n_cands; i++)
		if (i != se->first && se->cands[i].bound <= best->est_cycles)
			h[n++] = (ti_rank){se->cands[i].bound, i};
	for (uint64_t i = n / 2; i-- > 0;)
		ti_heap_down(h, n, i);
	bool ok = true;
	while (n && ok && h[0].bound <= best->est_cycles) {
		const uint64_t i = h[0].order;
		h[0] = h[--n];
		ti_heap_down(h, n, 0);
		ok = ti_score(se, g0, i, best, &best_order, found);
	}
	free(h);
	return ok;
}

/* The ACC rows a plan leaves for output tiles once its constants and the write-after-write
 * distance are set aside, or 0 when its weights or constants do not fit at all. */
static uint64_t ti_acc_left(const ti_search *se, const vta_conv_plan *p)
{
	const vta_config *cfg = se->cfg;
	const vta_conv_geom *g = se->g;
	const uint32_t D = cfg->acc_dep_distance;
	const uint64_t crows = (uint64_t)p->nconst * (p->const_all ? g->ob : p->nob);
	const uint64_t wrows = (uint64_t)p->nobw * g->kh * g->kw * p->ncb;
	if (wrows * p->s_wgt > cfg->sram[VTA_MEM_WGT].depth ||
	    crows + D >= cfg->sram[VTA_MEM_ACC].depth)
		return 0;
	return cfg->sram[VTA_MEM_ACC].depth - crows - D;
}

/* A plan with chunking, grouping, slots and constants fixed: the tallest row tile that
 * fits INP and ACC, then shorter ones. */
static void ti_try_slots(ti_search *se, vta_conv_plan p)
{
	const vta_config *cfg = se->cfg;
	const vta_conv_geom *g = se->g;
	const uint64_t acc_left = ti_acc_left(se, &p);
	if (acc_left == 0)
		return;
	uint32_t thi = ti_th_inp(g, p.ncb, cfg->sram[VTA_MEM_INP].depth / p.s_inp);
	uint64_t tha = acc_left / ((uint64_t)p.s_acc * g->wo * p.nob);
	uint32_t thmax = tha < thi ? (uint32_t)tha : thi;
	if (thmax > 0)
		ti_try(se, p, thmax);
}

/* An image too wide for one whole output row in INP or ACC: column tiles of tw output
 * columns whose input windows overlap by the filter's halo, the widest that fit one row
 * and two narrower widths, each as tall as fits. Only with every input block in one chunk,
 * so that a tile's window is one strided load. */
static void ti_try_cols(ti_search *se, vta_conv_plan p)
{
	const vta_config *cfg = se->cfg;
	const vta_conv_geom *g = se->g;
	const uint64_t acc_cap = p.ncb == g->cb ? ti_acc_left(se, &p) : 0;
	if (acc_cap == 0)
		return;
	const uint32_t inp_cap = cfg->sram[VTA_MEM_INP].depth / p.s_inp;
	const uint64_t ekw = (uint64_t)(g->kw - 1) * g->dw + 1;
	const uint64_t cin = inp_cap / ((uint64_t)vta_conv_rows_in(g, 1) * p.ncb);
	if (cin < ekw)
		return;
	uint64_t twmax = (cin - ekw) / (uint64_t)g->sw + 1;
	twmax = ti_min(ti_min(twmax, acc_cap / ((uint64_t)p.s_acc * p.nob)), (uint64_t)g->wo);
	uint32_t prev = 0;
	for (int h = 0; h < 3; h++) {
		uint32_t tw = (uint32_t)(twmax >> h);
		if (tw == 0)
			break;
		const uint32_t nct = (uint32_t)vta_layout_div_up((uint64_t)g->wo, tw);
		tw = (uint32_t)vta_layout_div_up((uint64_t)g->wo, nct);
		if (tw == prev)
			continue;
		prev = tw;
		p.tw = tw;
		p.nct = nct;
		const uint32_t thi = ti_th_inp_cols(g, vta_conv_cols_in(g, tw), p.ncb, inp_cap);
		const uint64_t tha = acc_cap / ((uint64_t)p.s_acc * tw * p.nob);
		const uint32_t thmax = tha < thi ? (uint32_t)tha : thi;
		if (thmax > 0)
			ti_try(se, p, thmax);
	}
}

/* Does candidate p agree with the pin (the row height and order are tried in ti_try)? */
static bool ti_pinned_ok(const vta_conv_pin *pin, const vta_conv_plan *p)
{
	return (!pin->ncb || pin->ncb == p->ncb) && (!pin->nob || pin->nob == p->nob) &&
	       (!pin->nobw || pin->nobw == p->nobw) && (!pin->s_inp || pin->s_inp == p->s_inp) &&
	       (!pin->s_wgt || pin->s_wgt == p->s_wgt) && (!pin->s_acc || pin->s_acc == p->s_acc) &&
	       (!pin->consts || (pin->consts == VTA_PIN_CONSTS_ALL) == p->const_all);
}

/* Why no plan agrees with the pin: vta_conv_plan_check of the pin with the smallest free
 * choices says what does not divide or fit. */
static vta_status ti_pin_fail(const vta_config *cfg, const vta_conv_geom *g, unsigned threads,
			      uint32_t nconst, const vta_conv_pin *pin, const char *layer,
			      vta_error *err)
{
	vta_conv_plan p = {0};
	p.threads = threads;
	p.th = pin->th ? pin->th : 1;
	p.ncb = pin->ncb ? pin->ncb : 1;
	p.nob = pin->nob ? pin->nob : (pin->nobw ? pin->nobw : 1);
	p.nobw = pin->nobw ? pin->nobw : 1;
	p.rows_outer = pin->order != VTA_PIN_GROUPS_OUTER;
	p.s_inp = pin->s_inp ? pin->s_inp : 1;
	p.s_wgt = pin->s_wgt ? pin->s_wgt : 1;
	p.s_acc = pin->s_acc ? pin->s_acc : 1;
	p.const_all = pin->consts == VTA_PIN_CONSTS_ALL;
	char what[160], why[VTA_ERROR_DETAIL_MAX];
	vta_conv_pin_describe(pin, what, sizeof(what));
	vta_error e = {0};
	if (g->cb % p.ncb) {
		snprintf(why, sizeof(why), "chunk_blocks %u does not divide the %u input-channel "
			 "blocks", p.ncb, g->cb);
	} else if (g->ob % p.nob) {
		snprintf(why, sizeof(why), "group_blocks %u does not divide the %u output-channel "
			 "blocks", p.nob, g->ob);
	} else if (p.nob % p.nobw) {
		snprintf(why, sizeof(why), "load_blocks %u does not divide the %u blocks of a "
			 "group", p.nobw, p.nob);
	} else if (vta_conv_plan_check(cfg, g, nconst, layer, &p, &e) == VTA_OK) {
		snprintf(why, sizeof(why), "no plan with these choices fits the config's SRAMs");
	} else {
		/* drop the check's own "layer L: plan: " */
		const char *d = strstr(e.detail, "plan: ");
		snprintf(why, sizeof(why), "%s", d ? d + 6 : e.detail);
	}
	return vta_fail(err, VTA_E_USAGE, "layer %s: the pinned plan (%s) does not fit: %s", layer,
			what, why);
}

vta_status vta_conv_plan_choose(const vta_config *cfg, const vta_conv_geom *g0, unsigned threads,
				uint32_t nconst, uint32_t alu_tt, uint32_t alu_imm,
				const char *layer, vta_conv_plan *plan, vta_error *err)
{
	return vta_conv_plan_choose_pinned(cfg, g0, threads, nconst, alu_tt, alu_imm, NULL, layer,
					   plan, err);
}

vta_status vta_conv_plan_choose_pinned(const vta_config *cfg, const vta_conv_geom *g0,
				       unsigned threads, uint32_t nconst, uint32_t alu_tt,
				       uint32_t alu_imm, const vta_conv_pin *pin, const char *layer,
				       vta_conv_plan *plan, vta_error *err)
{
	static const vta_conv_pin none = {0};
	if (!pin)
		pin = &none;
	const uint32_t D = cfg->acc_dep_distance;
	uint32_t dcb[64], dob[64], dobw[64];
	const uint32_t ncbs = ti_divisors(g0->ucb, dcb, 64);
	uint32_t nobs = ti_divisors(ti_nob_base(g0), dob, 64);
	const uint32_t nobs_div = nobs;
	/* a dense layer whose output blocks are a prime count would otherwise be cut one block
	 * per group: groups of ceil(Ob / k) blocks with a ragged last one (k = 2..8) */
	if (g0->units == 1 && nobs == 2 && g0->ob > 2)
		for (uint32_t k = 2; k <= 8 && nobs < 64; k++) {
			const uint32_t nob = (uint32_t)vta_layout_div_up(g0->ob, k);
			if (nob > 1 && dob[nobs - 1] != nob)
				dob[nobs++] = nob;
		}
	const unsigned smax = threads >= 2 ? 2 : 1;
	ti_search se = {0};
	se.cfg = cfg;
	se.pin = pin;
	se.w.alu_tt = alu_tt;
	se.w.alu_imm = alu_imm;
	/* whole output rows first; column tiles only when no whole row fits */
	for (int cols = 0; cols < 2 && se.n_cands == 0 && !se.nomem; cols++)
	for (uint32_t i = 0; i < ncbs; i++) {
		vta_conv_geom g = *g0;
		g.rowskip = g0->rowskip && dcb[i] == g0->cb;
		se.g = &g;
		for (uint32_t j = 0; j < nobs; j++) {
			const uint32_t nob = dob[j];
			/* a ragged group is one weight load */
			const uint32_t nobws = j < nobs_div ? ti_divisors(nob, dobw, 64) : 1;
			if (j >= nobs_div)
				dobw[0] = nob;
			/* constants of every channel stay resident when they fit next to the
			 * smallest tiles; per-group constants are tried as well */
			const bool call =
				(uint64_t)nconst * g.ob + D + (uint64_t)smax * g.wo * nob <=
				cfg->sram[VTA_MEM_ACC].depth;
			for (uint32_t l = 0; l < nobws; l++) {
				se.block = se.n_bases;
				for (unsigned code = 0; code < 16; code++) {
					vta_conv_plan p = {0};
					p.threads = threads;
					p.ncb = dcb[i];
					p.nci = g.ucb / p.ncb;
					p.nob = nob;
					p.ngrp = (uint32_t)vta_layout_div_up(g.ob, nob);
					p.nobw = dobw[l];
					p.nsub = nob / p.nobw;
					p.s_inp = 1 + (code & 1);
					p.s_wgt = 1 + ((code >> 1) & 1);
					p.s_acc = 1 + ((code >> 2) & 1);
					p.const_all = (code >> 3) & 1;
					p.nconst = nconst;
					p.rowskip = g.rowskip;
					if (p.s_inp > smax || p.s_wgt > smax || p.s_acc > smax ||
					    (p.const_all && !call) || !ti_pinned_ok(pin, &p))
						continue;
					if (cols)
						ti_try_cols(&se, p);
					else
						ti_try_slots(&se, p);
				}
			}
		}
	}
	vta_conv_plan best;
	bool found;
	const bool ok = ti_pick(&se, g0, &best, &found);
	ti_work_free(&se.w);
	free(se.bases);
	free(se.cands);
	if (!ok)
		return vta_fail(err, VTA_E_NOMEM, "layer %s: CONV2D plan: out of memory", layer);
	if (!found && vta_conv_pin_any(pin))
		return ti_pin_fail(cfg, g0, threads, nconst, pin, layer, err);
	if (!found) {
		/* column tiles take every input block at once: one output pixel's window */
		const uint64_t in_rows = (uint64_t)vta_conv_rows_in(g0, 1) * g0->wp;
		const uint64_t px_rows = (uint64_t)vta_conv_rows_in(g0, 1) * vta_conv_cols_in(g0, 1) *
					 g0->cb;
		if (in_rows > cfg->sram[VTA_MEM_INP].depth &&
		    px_rows > cfg->sram[VTA_MEM_INP].depth)
			return vta_fail(
				err, VTA_E_USAGE,
				"layer %s: CONV2D does not fit the INP SRAM: one output row "
				"reads %u input rows of %d padded columns (%llu INP rows at "
				"one channel block), one output column at all %u input "
				"blocks %llu, the INP SRAM has %u rows",
				layer, vta_conv_rows_in(g0, 1), (int)g0->wp,
				(unsigned long long)in_rows, g0->cb, (unsigned long long)px_rows,
				cfg->sram[VTA_MEM_INP].depth);
		if ((uint64_t)g0->kh * g0->kw > cfg->sram[VTA_MEM_WGT].depth)
			return vta_fail(
				err, VTA_E_USAGE,
				"layer %s: CONV2D does not fit the WGT SRAM: one block of the "
				"%dx%d filter needs %llu WGT rows, the WGT SRAM has %u",
				layer, (int)g0->kh, (int)g0->kw,
				(unsigned long long)g0->kh * (unsigned long long)g0->kw,
				cfg->sram[VTA_MEM_WGT].depth);
		const uint64_t px_wgt = (uint64_t)g0->kh * g0->kw * g0->cb;
		if (in_rows > cfg->sram[VTA_MEM_INP].depth && px_wgt > cfg->sram[VTA_MEM_WGT].depth)
			return vta_fail(err, VTA_E_USAGE,
					"layer %s: CONV2D does not fit: one output row reads %llu "
					"INP rows, the INP SRAM has %u, and a column tile's filter "
					"block at all %u input blocks needs %llu WGT rows, the WGT "
					"SRAM has %u",
					layer, (unsigned long long)in_rows,
					cfg->sram[VTA_MEM_INP].depth, g0->cb,
					(unsigned long long)px_wgt, cfg->sram[VTA_MEM_WGT].depth);
		if ((uint64_t)nconst + g0->wo + D > cfg->sram[VTA_MEM_ACC].depth)
			return vta_fail(
				err, VTA_E_USAGE,
				"layer %s: CONV2D does not fit the ACC SRAM: one output row "
				"of %d pixels needs %llu ACC rows with its %u constant rows, "
				"the ACC SRAM has %u",
				layer, (int)g0->wo,
				(unsigned long long)nconst + (uint64_t)g0->wo + D, nconst,
				cfg->sram[VTA_MEM_ACC].depth);
		return vta_fail(err, VTA_E_USAGE,
				"layer %s: CONV2D does not fit the UOP SRAM: the smallest GEMM "
				"kernel is longer than its %u rows",
				layer, cfg->sram[VTA_MEM_UOP].depth);
	}
	vta_status st = vta_conv_plan_check(cfg, g0, nconst, layer, &best, err);
	if (st == VTA_OK)
		*plan = best;
	return st;
}

vta_status vta_conv_plan_check(const vta_config *cfg, const vta_conv_geom *g0, uint32_t nconst,
			       const char *layer, vta_conv_plan *p, vta_error *err)
{
	const uint32_t D = cfg->acc_dep_distance;
	const unsigned smax = p->threads >= 2 ? 2 : 1;
	if (p->threads < 1 || p->threads > 2)
		return vta_fail(err, VTA_E_USAGE, "layer %s: plan: threads must be 1 or 2", layer);
	if (p->s_inp < 1 || p->s_inp > smax || p->s_wgt < 1 || p->s_wgt > smax || p->s_acc < 1 ||
	    p->s_acc > smax)
		return vta_fail(err, VTA_E_USAGE,
				"layer %s: plan: slots (inp %u, wgt %u, acc %u) must be 1..%u with "
				"%u thread(s)",
				layer, p->s_inp, p->s_wgt, p->s_acc, smax, p->threads);
	const uint32_t nob_base = ti_nob_base(g0);
	/* a dense layer's last group may be ragged when a group is one weight load */
	const bool ragged_ok = g0->units == 1 && p->nobw == p->nob && p->nob <= g0->ob;
	if (p->ncb == 0 || g0->ucb % p->ncb || p->nob == 0 || (nob_base % p->nob && !ragged_ok) ||
	    p->nobw == 0 || p->nob % p->nobw || p->th == 0)
		return vta_fail(err, VTA_E_USAGE,
				"layer %s: plan: chunk %u must divide %u input blocks, group %u "
				"must divide %u output blocks (or be one weight load of a dense "
				"layer's), %u must divide the group, and rows must be >= 1",
				layer, p->ncb, g0->ucb, p->nob, nob_base, p->nobw);
	vta_conv_geom g = *g0;
	g.rowskip = g0->rowskip && p->ncb == g0->cb;
	if (p->th > (uint32_t)g.ho)
		p->th = (uint32_t)g.ho;
	p->nci = g.ucb / p->ncb;
	p->nrt = (uint32_t)vta_layout_div_up((uint64_t)g.ho, p->th);
	if (p->tw == 0 || p->tw > (uint32_t)g.wo)
		p->tw = (uint32_t)g.wo;
	p->nct = (uint32_t)vta_layout_div_up((uint64_t)g.wo, p->tw);
	if (p->nct > 1 && p->ncb != g.cb)
		return vta_fail(err, VTA_E_USAGE,
				"layer %s: plan: column tiles of %u columns need every input block "
				"in one chunk (%u), not %u",
				layer, p->tw, g.cb, p->ncb);
	p->ngrp = (uint32_t)vta_layout_div_up(g.ob, p->nob);
	p->nsub = p->nob / p->nobw;
	p->nconst = nconst;
	p->rowskip = g.rowskip;
	p->inp_slot = cfg->sram[VTA_MEM_INP].depth / p->s_inp;
	p->wgt_slot = cfg->sram[VTA_MEM_WGT].depth / p->s_wgt;
	p->acc_const_base = 0;
	p->acc_const_rows = nconst * (p->const_all ? g.ob : p->nob);
	p->acc_slot_base = p->acc_const_rows;
	p->acc_slot = p->th * p->tw * p->nob;
	p->acc_scratch = cfg->sram[VTA_MEM_ACC].depth - D;
	uint64_t in_rows = (uint64_t)vta_conv_rows_in(&g, p->th) * vta_conv_cols_in(&g, p->tw) *
			   p->ncb;
	if (in_rows > p->inp_slot)
		return vta_fail(err, VTA_E_USAGE,
				"layer %s: plan: %u output rows read %llu INP rows, an INP slot has "
				"%u",
				layer, p->th, (unsigned long long)in_rows, p->inp_slot);
	uint64_t w_rows = (uint64_t)p->nobw * g.kh * g.kw * p->ncb;
	if (w_rows > p->wgt_slot)
		return vta_fail(err, VTA_E_USAGE,
				"layer %s: plan: a weight load of %llu WGT rows exceeds a WGT slot "
				"of %u",
				layer, (unsigned long long)w_rows, p->wgt_slot);
	uint64_t acc_rows = p->acc_const_rows + (uint64_t)p->s_acc * p->acc_slot + D;
	if (acc_rows > cfg->sram[VTA_MEM_ACC].depth)
		return vta_fail(err, VTA_E_USAGE,
				"layer %s: plan: %u constant rows, %u slot(s) of %u rows and %u "
				"scratch rows exceed the ACC SRAM (%u rows)",
				layer, p->acc_const_rows, p->s_acc, p->acc_slot, D,
				cfg->sram[VTA_MEM_ACC].depth);
	vta_conv_kshape k;
	vta_conv_kshape_make_cols(cfg, &g, p->nob, p->nobw, p->th, p->tw, p->ncb, &k);
	if (!k.ok || k.list_len > cfg->sram[VTA_MEM_UOP].depth)
		return vta_fail(err, VTA_E_USAGE,
				"layer %s: plan: the GEMM kernel of %u uops exceeds the UOP SRAM "
				"(%u rows)",
				layer, k.list_len, cfg->sram[VTA_MEM_UOP].depth);
	return VTA_OK;
}
