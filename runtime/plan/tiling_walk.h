/*
 * tiling_walk.h - what the plan's schedule (tiling_schedule.c), its pricing (tiling_cost.c)
 * and the chooser (tiling_choose.c) share, private to runtime/plan: the walk of a plan (its
 * tiles, the contents each step reads, the INP and WGT slots a walk fills) and the costs a
 * candidate is priced with. Only tiling*.c include it.
 */
#ifndef VTA_TILING_WALK_H
#define VTA_TILING_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "int_gcd.h"
#include "tiling.h"

/* ---------- the walk of a plan ---------- */

/* Output blocks per tile must divide every unit's output blocks. */
static inline uint32_t ti_nob_base(const vta_conv_geom *g)
{
	return (uint32_t)vta_gcd(g->uob, vta_conv_unit_obs(g, g->units - 1));
}

/* A plan's column tiling; a plan made before column tiles existed has tw 0: whole rows. */
static inline uint32_t ti_tw(const vta_conv_geom *g, const vta_conv_plan *p)
{
	return p->tw ? p->tw : (uint32_t)g->wo;
}

static inline uint32_t ti_nct(const vta_conv_plan *p)
{
	return p->nct ? p->nct : 1;
}

/* Blocks per weight load in a group of `nb` blocks: a ragged last group is one load. */
static inline uint32_t ti_grp_obw(const vta_conv_plan *p, uint32_t nb)
{
	return nb == p->nob ? p->nobw : nb;
}

static inline uint64_t ti_max(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static inline uint64_t ti_min(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* Tile t of the plan's walk: row tiles outer (image group, row tile, column tile, then
 * channel group) or channel groups outer. */
static inline void ti_tile_at(const vta_conv_geom *g, const vta_conv_plan *p, uint32_t t,
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
static inline void ti_step_want(const vta_conv_geom *g, const vta_conv_plan *p, const vta_conv_tile *tl,
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

static inline void ti_slots_init(ti_slots *s, const vta_conv_plan *p)
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
static inline int ti_slot_take(ti_slots *s, int o, int64_t want, int64_t j, bool *load, int64_t *prev)
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

/* p grown to hold n elements of `elem` bytes (*cap counts them). On failure *ok becomes
 * false and p is kept (its owner frees it); once *ok is false nothing more is grown. */
void *ti_reserve(void *p, uint64_t *cap, uint64_t n, size_t elem, bool *ok);

/* ---------- pricing a plan (tiling_cost.c) ---------- */

/* A transfer the estimate repeats, priced once: its beats on the port and its idle-port
 * cycles (the cost functions divide, and a schedule has thousands of steps); STORE's on the
 * write channel. */
typedef struct ti_xfer {
	uint64_t beats, cycles;
	bool write;
} ti_xfer;

/* The constant rows' loads: `bytes` of plain rows in one load (none when 0), then with a
 * decoder's bias row (blut->lut_bw != 0) one decompressing load per block; their cycles,
 * beats, bytes and instructions, the same wherever they are issued. */
typedef struct ti_consts_cost {
	ti_xfer x;
	uint64_t dram, insns;
} ti_consts_cost;

/* Prices of the plain transfers a search asks for, by (rows, row bytes, write): the
 * candidates of a layer repeat few shapes, and a price walks the DMA's bursts. A table of
 * 2^k slots, open addressing; empty when out of memory (prices are then computed anew). */
typedef struct ti_price {
	uint64_t runs, run_bytes;
	ti_xfer x;
	bool used;
} ti_price;

typedef struct ti_prices {
	ti_price *slot;
	uint64_t cap, n;
} ti_prices;

typedef struct ti_work {
	bool *kern_seen; /* per (ACC slot, channel group): its ALU kernels are loaded */
	uint64_t cap_seen;
	uint32_t alu_tt, alu_imm;
	ti_prices prices;
} ti_work;

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
	/* multi-block loads (geometry's wgt_lut_window W): one load of W blocks, one of a
	 * group's last nbw % W ([0] full group, [1] last), and a step's loads in all */
	ti_xfer wlut_win, wlut_rest[2], wlut_step[2];
	uint64_t wlut_step_bytes[2], wlut_step_insns[2];
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

void ti_work_free(ti_work *w);
/* The costs of c that depend on p's chunking and grouping only. */
void ti_costs_block(const vta_config *cfg, const vta_conv_geom *g, const vta_conv_plan *p,
		    ti_work *w, ti_costs *c);
/* ... then those that depend on its row height and column width too, and its kernel k. */
void ti_costs_base(const vta_config *cfg, const vta_conv_geom *g, const vta_conv_plan *p,
		   ti_work *w, const vta_conv_kshape *k, ti_costs *c);
/* ... and those that depend on its slots and constants. */
void ti_costs_slots(const vta_config *cfg, const vta_conv_plan *p, ti_costs *c);
/* A lower bound of ti_estimate's estimate of p; c: p's base costs. */
uint64_t ti_bound(const vta_config *cfg, const vta_conv_plan *p, const ti_costs *c,
		  uint32_t alu_tt);
/* Score p with its costs c by walking its schedule; false when out of memory. *over: the
 * estimate exceeds `limit` (its estimates are then not filled). */
bool ti_estimate(const vta_config *cfg, const vta_conv_geom *g, vta_conv_plan *p,
		 const ti_costs *c, ti_work *w, uint64_t limit, bool *over);

#endif /* VTA_TILING_WALK_H */
