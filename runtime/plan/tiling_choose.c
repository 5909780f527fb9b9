/*
 * tiling_choose.c - the plan chooser (tiling.h, vta_conv_plan_choose, _pinned, _check): the
 * candidates of a layer, their shared costs and closed-form bounds, and the walks of only
 * those that can still win (tiling_cost.c prices them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "tiling.h"
#include "tiling_walk.h"
#include "vta_cost.h"
#include "vta_insn.h"
#include "vta_rules.h"

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
		ti_costs_block(se->cfg, se->g, p, &se->w, &b->c);
	else /* the block's part of the costs */
		b->c = se->bases[se->block].c;
	se->n_bases++;
	b->p = *p;
	vta_conv_kshape k;
	vta_conv_kshape_make_cols(se->cfg, se->g, p->nob, p->nobw, p->th, tw, p->ncb, &k);
	b->fits = k.ok && k.list_len <= se->cfg->sram[VTA_MEM_UOP].depth;
	if (b->fits)
		ti_costs_base(se->cfg, se->g, p, &se->w, &k, &b->c);
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
	if (wrows * p->s_wgt > cfg->sram[VTA_MEM_WGT].depth || crows + D >= cfg->sram[VTA_MEM_ACC].depth)
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

struct vta_conv_plan_work {
	ti_base *bases;
	ti_cand *cands;
	uint64_t cap_bases, cap_cands;
};

vta_conv_plan_work *vta_conv_plan_work_new(void)
{
	return calloc(1, sizeof(vta_conv_plan_work));
}

void vta_conv_plan_work_free(vta_conv_plan_work *w)
{
	if (!w)
		return;
	free(w->bases);
	free(w->cands);
	free(w);
}

vta_status vta_conv_plan_choose_pinned(const vta_config *cfg, const vta_conv_geom *g0,
				       unsigned threads, uint32_t nconst, uint32_t alu_tt,
				       uint32_t alu_imm, const vta_conv_pin *pin, const char *layer,
				       vta_conv_plan *plan, vta_error *err)
{
	vta_conv_plan_work own = {0};
	vta_status st = vta_conv_plan_choose_in(&own, cfg, g0, threads, nconst, alu_tt, alu_imm,
						pin, layer, plan, err);
	free(own.bases);
	free(own.cands);
	return st;
}

vta_status vta_conv_plan_choose_in(vta_conv_plan_work *work, const vta_config *cfg,
				   const vta_conv_geom *g0, unsigned threads, uint32_t nconst,
				   uint32_t alu_tt, uint32_t alu_imm, const vta_conv_pin *pin,
				   const char *layer, vta_conv_plan *plan, vta_error *err)
{
	if (!work)
		return vta_conv_plan_choose_pinned(cfg, g0, threads, nconst, alu_tt, alu_imm, pin,
						   layer, plan, err);
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
	se.bases = work->bases; /* the work's arrays, handed back grown below */
	se.cap_bases = work->cap_bases;
	se.cands = work->cands;
	se.cap_cands = work->cap_cands;
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
			const bool call = (uint64_t)nconst * g.ob + D + (uint64_t)smax * g.wo * nob <=
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
	work->bases = se.bases;
	work->cap_bases = se.cap_bases;
	work->cands = se.cands;
	work->cap_cands = se.cap_cands;
	if (!ok)
		return vta_fail(err, VTA_E_NOMEM, "layer %s: CONV2D plan: out of memory", layer);
	if (!found && vta_conv_pin_any(pin))
		return ti_pin_fail(cfg, g0, threads, nconst, pin, layer, err);
	if (!found) {
		/* column tiles take every input block at once: one output pixel's window */
		const uint64_t in_rows = (uint64_t)vta_conv_rows_in(g0, 1) * g0->wp;
		const uint64_t px_rows = (uint64_t)vta_conv_rows_in(g0, 1) * vta_conv_cols_in(g0, 1) *
					 g0->cb;
		if (in_rows > cfg->sram[VTA_MEM_INP].depth && px_rows > cfg->sram[VTA_MEM_INP].depth)
			return vta_fail(err, VTA_E_USAGE,
					"layer %s: CONV2D does not fit the INP SRAM: one output row "
					"reads %u input rows of %d padded columns (%llu INP rows at "
					"one channel block), one output column at all %u input "
					"blocks %llu, the INP SRAM has %u rows",
					layer, vta_conv_rows_in(g0, 1), (int)g0->wp,
					(unsigned long long)in_rows, g0->cb,
					(unsigned long long)px_rows, cfg->sram[VTA_MEM_INP].depth);
		if ((uint64_t)g0->kh * g0->kw > cfg->sram[VTA_MEM_WGT].depth)
			return vta_fail(err, VTA_E_USAGE,
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
					layer, (unsigned long long)in_rows, cfg->sram[VTA_MEM_INP].depth, g0->cb,
					(unsigned long long)px_wgt, cfg->sram[VTA_MEM_WGT].depth);
		if ((uint64_t)nconst + g0->wo + D > cfg->sram[VTA_MEM_ACC].depth)
			return vta_fail(err, VTA_E_USAGE,
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
				layer, p->acc_const_rows, p->s_acc, p->acc_slot, D, cfg->sram[VTA_MEM_ACC].depth);
	vta_conv_kshape k;
	vta_conv_kshape_make_cols(cfg, &g, p->nob, p->nobw, p->th, p->tw, p->ncb, &k);
	if (!k.ok || k.list_len > cfg->sram[VTA_MEM_UOP].depth)
		return vta_fail(err, VTA_E_USAGE,
				"layer %s: plan: the GEMM kernel of %u uops exceeds the UOP SRAM "
				"(%u rows)",
				layer, k.list_len, cfg->sram[VTA_MEM_UOP].depth);
	return VTA_OK;
}
