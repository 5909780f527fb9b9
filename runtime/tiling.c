/*
 * tiling.c - CONV2D geometry in blocks, the GEMM kernel shape of a step, and the plan
 * chooser with its cost model (tiling.h; docs/runtime.md "Tiling").
 *
 * The cost model mirrors the timing model's formulas (sim/timing.h) at the granularity of
 * instructions: GEMM/ALU = overhead + fill + uops x ii, DMA = overhead + latency + beats.
 * With 2 threads, compute, the load module, the store module and the DRAM port overlap, so
 * the estimate is the busiest of them, plus what cannot overlap: the first loads, the last
 * store, and every reload of a single-slot SRAM (it waits for the compute that used it).
 * With 1 thread everything is serial. Reuse of resident INP/WGT contents is counted with
 * the same rules the emitter applies.
 */
#include "tiling.h"

#include <stdio.h>
#include <string.h>

#include "vta_insn.h"

static uint32_t ti_div_up(uint64_t a, uint64_t b)
{
	return (uint32_t)((a + b - 1) / b);
}

void vta_conv_geom_derive(const vta_config *cfg, vta_conv_geom *g)
{
	int32_t ekh = (g->kh - 1) * g->dh + 1, ekw = (g->kw - 1) * g->dw + 1;
	g->hp = (g->ho - 1) * g->sh + ekh;
	g->wp = (g->wo - 1) * g->sw + ekw;
	g->ng = ti_div_up((uint64_t)g->n, cfg->batch);
	g->cb = ti_div_up((uint64_t)g->c, cfg->block_in);
	g->ob = ti_div_up((uint64_t)g->o, cfg->block_out);
	g->rowskip = g->kh == 1 && g->sh > 1;
}

uint32_t vta_conv_rows_in(const vta_conv_geom *g, uint32_t th)
{
	if (g->rowskip)
		return th;
	return (th - 1) * (uint32_t)g->sh + (uint32_t)((g->kh - 1) * g->dh + 1);
}

/* ---------- kernel shape ---------- */

static bool ti_is_output(int d)
{
	return d == VTA_KD_OB || d == VTA_KD_Y || d == VTA_KD_X;
}

void vta_conv_kshape_make(const vta_config *cfg, const vta_conv_geom *g, uint32_t nob,
			  uint32_t nobw, uint32_t rows, uint32_t ncb, vta_conv_kshape *k)
{
	memset(k, 0, sizeof(*k));
	const int32_t wp = g->wp, sy = g->rowskip ? 1 : g->sh;
	k->extent[VTA_KD_OB] = nobw;
	k->extent[VTA_KD_Y] = rows;
	k->extent[VTA_KD_X] = (uint32_t)g->wo;
	k->extent[VTA_KD_KY] = (uint32_t)g->kh;
	k->extent[VTA_KD_KX] = (uint32_t)g->kw;
	k->extent[VTA_KD_CB] = ncb;
	const int32_t n_ob = (int32_t)nob, n_cb = (int32_t)ncb;
	/* ACC [pixel][nob], INP [row][col][ncb], WGT [nobw][ky][kx][ncb] */
	k->dst[VTA_KD_OB] = 1;
	k->dst[VTA_KD_Y] = g->wo * n_ob;
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
			uint64_t red = 1, p = 1;
			bool out_loop = (a >= 0 && ti_is_output(a)) || (b >= 0 && ti_is_output(b));
			for (int d = 0; d < VTA_KD_COUNT; d++) {
				if (d == a || d == b)
					continue;
				if (ti_is_output(d))
					p *= k->extent[d];
				else
					red *= k->extent[d];
			}
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

/* ---------- cost model ---------- */

typedef struct ti_cost {
	const vta_config *cfg;
	uint64_t bus;
} ti_cost;

static uint64_t ti_beats(const ti_cost *c, uint64_t bytes)
{
	return (bytes + c->bus - 1) / c->bus;
}

static uint64_t ti_dma(const ti_cost *c, uint64_t bytes)
{
	return c->cfg->insn_overhead_cycles + c->cfg->dram_latency_cycles + ti_beats(c, bytes);
}

static uint64_t ti_max(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* Fill p's estimates; false when the kernel does not fit the UOP SRAM. */
static bool ti_estimate(const vta_config *cfg, const vta_conv_geom *g, vta_conv_plan *p)
{
	ti_cost c = {cfg, cfg->dram_bus_bits / 8};
	const uint64_t ovh = cfg->insn_overhead_cycles, fill = cfg->pipeline_fill_cycles;
	const uint64_t nrt_all = (uint64_t)g->ng * p->nrt;
	const uint64_t tiles = nrt_all * p->ngrp;
	const uint64_t steps = tiles * p->nci * p->nsub;

	vta_conv_kshape k;
	vta_conv_kshape_make(cfg, g, p->nob, p->nobw, p->th, p->ncb, &k);
	if (!k.ok || k.list_len > cfg->uop_depth)
		return false;

	/* input rows over the row tiles of one image group */
	uint64_t rows_in = 0;
	for (uint32_t rt = 0; rt < p->nrt; rt++) {
		uint32_t y0 = rt * p->th;
		uint32_t th = (uint32_t)g->ho - y0 < p->th ? (uint32_t)g->ho - y0 : p->th;
		rows_in += vta_conv_rows_in(g, th);
	}
	const uint64_t inp_once = (uint64_t)g->ng * rows_in * g->wp * g->cb * cfg->inp_elem_bytes;
	uint64_t inp_loads, inp_bytes;
	if (nrt_all * p->nci <= p->s_inp ||
	    (p->nci <= p->s_inp && (p->rows_outer || p->ngrp == 1))) {
		inp_loads = nrt_all * p->nci;
		inp_bytes = inp_once;
	} else {
		inp_loads = tiles * p->nci;
		inp_bytes = inp_once * p->ngrp;
	}
	const uint64_t wgt_blk = (uint64_t)p->nobw * g->kh * g->kw * p->ncb * cfg->wgt_elem_bytes;
	uint64_t wgt_loads;
	if ((uint64_t)p->ngrp * p->nsub * p->nci <= p->s_wgt ||
	    ((uint64_t)p->nsub * p->nci <= p->s_wgt && (!p->rows_outer || nrt_all == 1)))
		wgt_loads = (uint64_t)p->ngrp * p->nsub * p->nci;
	else
		wgt_loads = tiles * p->nsub * p->nci;
	const uint64_t wgt_bytes = wgt_loads * wgt_blk;
	const uint64_t out_rows = (uint64_t)g->ng * g->ho * g->wo * g->ob;
	const uint64_t out_bytes = out_rows * cfg->out_elem_bytes;
	const uint64_t const_loads = p->const_all || p->ngrp == 1 ? 1
				     : p->rows_outer		   ? tiles
								   : p->ngrp;
	const uint64_t const_bytes =
		(uint64_t)p->nconst * (p->const_all ? g->ob : p->nob) * cfg->acc_elem_bytes;

	/* kernels: one per combination of slots and sub-group; ALU kernels are single uops */
	uint64_t variants = (uint64_t)p->s_inp * p->s_wgt * p->s_acc * p->nsub;
	if (variants > steps)
		variants = steps;
	uint64_t uop_rows = variants * k.list_len + 64;
	uint64_t uop_loads = uop_rows <= cfg->uop_depth ? variants : steps;
	uint64_t uop_bytes = uop_loads * k.list_len * VTA_UOP_BYTES;

	const uint64_t n_tt = p->nconst, n_imm = 3;
	const uint64_t gemm = out_rows * g->cb * g->kh * g->kw +
			      (k.dummy ? steps * (k.list_len / (k.outputs + k.dummy)) * k.dummy : 0);
	const uint64_t alu = out_rows * (n_tt * cfg->alu_ii + n_imm * cfg->alu_imm_ii);
	const uint64_t compute_insns = steps + tiles * (1 + n_tt + n_imm) + const_loads + uop_loads;
	uint64_t comp = gemm + out_rows /* reset */ + alu + compute_insns * (ovh + fill) +
			const_loads * ti_dma(&c, const_bytes) +
			uop_loads * ti_dma(&c, k.list_len * VTA_UOP_BYTES);
	uint64_t ld = (inp_loads + wgt_loads) * (ovh + cfg->dram_latency_cycles) +
		      ti_beats(&c, inp_bytes) + ti_beats(&c, wgt_bytes);
	uint64_t st = tiles * (ovh + cfg->dram_latency_cycles) + ti_beats(&c, out_bytes);
	uint64_t insns = compute_insns + inp_loads + wgt_loads + tiles + 8;
	uint64_t dram = inp_bytes + wgt_bytes + out_bytes + const_loads * const_bytes + uop_bytes;
	uint64_t port = ti_beats(&c, dram + insns * 16);
	uint64_t est;
	if (p->threads >= 2) {
		est = ti_max(ti_max(comp, ld), ti_max(port, st));
		uint64_t avg_in = inp_loads ? ld / (inp_loads + wgt_loads) : 0;
		if (p->s_inp == 1 && inp_loads > 1)
			est += (inp_loads - 1) * avg_in;
		if (p->s_wgt == 1 && wgt_loads > 1)
			est += (wgt_loads - 1) * avg_in;
		if (p->s_acc == 1 && tiles > 1)
			est += (tiles - 1) * (st / tiles);
		/* the first loads and the last store do not overlap anything */
		est += ti_dma(&c, vta_conv_rows_in(g, p->th) * (uint64_t)g->wp * p->ncb *
					  cfg->inp_elem_bytes) +
		       ti_dma(&c, wgt_blk) + st / tiles;
	} else {
		est = comp + ld + st;
	}
	p->est_cycles = est;
	p->est_dram_bytes = dram;
	p->est_insns = insns;
	p->est_uop_rows = variants * k.list_len;
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

/* Largest th <= ho whose input rows fit `cap` INP rows at chunk ncb. */
static uint32_t ti_th_inp(const vta_conv_geom *g, uint32_t ncb, uint32_t cap)
{
	uint64_t per = (uint64_t)g->wp * ncb;
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

static bool ti_better(const vta_conv_plan *a, const vta_conv_plan *b)
{
	if (a->est_cycles != b->est_cycles)
		return a->est_cycles < b->est_cycles;
	return a->est_insns < b->est_insns;
}

vta_status vta_conv_plan_choose(const vta_config *cfg, const vta_conv_geom *g0, unsigned threads,
				uint32_t nconst, const char *layer, vta_conv_plan *plan,
				vta_error *err)
{
	const uint32_t D = cfg->acc_dep_distance;
	uint32_t dcb[64], dob[64], dobw[64];
	uint32_t ncbs = ti_divisors(g0->cb, dcb, 64);
	uint32_t nobs = ti_divisors(g0->ob, dob, 64);
	bool found = false;
	vta_conv_plan best;
	memset(&best, 0, sizeof(best));
	unsigned smax = threads >= 2 ? 2 : 1;
	for (uint32_t i = 0; i < ncbs; i++) {
		const uint32_t ncb = dcb[i];
		vta_conv_geom g = *g0;
		g.rowskip = g0->rowskip && ncb == g0->cb;
		for (uint32_t j = 0; j < nobs; j++) {
			const uint32_t nob = dob[j];
			uint32_t nobws = ti_divisors(nob, dobw, 64);
			for (uint32_t l = 0; l < nobws; l++) {
				const uint32_t nobw = dobw[l];
				const uint64_t wrows = (uint64_t)nobw * g.kh * g.kw * ncb;
				for (unsigned sw = 1; sw <= smax; sw++) {
					if (wrows * sw > cfg->wgt_depth)
						continue;
					for (unsigned si = 1; si <= smax; si++) {
						uint32_t thi = ti_th_inp(&g, ncb, cfg->inp_depth / si);
						if (thi == 0)
							continue;
						for (unsigned sa = 1; sa <= smax; sa++)
							for (int ca = 0; ca < 2; ca++) {
								uint64_t crows =
									(uint64_t)nconst *
									(ca ? g.ob : nob);
								if (crows + D >= cfg->acc_depth)
									continue;
								uint64_t avail = cfg->acc_depth -
										 crows - D;
								uint64_t tha =
									avail /
									((uint64_t)sa * g.wo * nob);
								uint32_t thmax = thi;
								if (tha < thmax)
									thmax = (uint32_t)tha;
								if (thmax == 0)
									continue;
								uint32_t prev_th = 0;
								for (int h = 0; h < 3; h++) {
									uint32_t t = thmax >> h;
									if (t == 0)
										break;
									uint32_t nrt = ti_div_up(
										(uint64_t)g.ho, t);
									t = ti_div_up((uint64_t)g.ho,
										      nrt);
									if (t == prev_th)
										continue;
									prev_th = t;
									for (int ro = 0; ro < 2; ro++) {
										vta_conv_plan p;
										memset(&p, 0, sizeof(p));
										p.threads = threads;
										p.ncb = ncb;
										p.nci = g.cb / ncb;
										p.th = t;
										p.nrt = nrt;
										p.nob = nob;
										p.ngrp = g.ob / nob;
										p.nobw = nobw;
										p.nsub = nob / nobw;
										p.rows_outer = ro == 1;
										p.s_inp = si;
										p.s_wgt = sw;
										p.s_acc = sa;
										p.const_all = ca == 1;
										p.nconst = nconst;
										p.rowskip = g.rowskip;
										if (!ti_estimate(cfg, &g, &p))
											continue;
										if (!found ||
										    ti_better(&p, &best)) {
											best = p;
											found = true;
										}
									}
								}
							}
					}
				}
			}
		}
	}
	if (!found) {
		uint64_t in_rows = (uint64_t)vta_conv_rows_in(g0, 1) * g0->wp;
		if (in_rows > cfg->inp_depth)
			return vta_fail(err, VTA_E_USAGE,
					"layer %s: CONV2D does not fit the INP SRAM: one output row "
					"reads %u input rows of %d padded columns (%llu INP rows at "
					"one channel block), the INP SRAM has %u rows",
					layer, vta_conv_rows_in(g0, 1), (int)g0->wp,
					(unsigned long long)in_rows, cfg->inp_depth);
		if ((uint64_t)g0->kh * g0->kw > cfg->wgt_depth)
			return vta_fail(err, VTA_E_USAGE,
					"layer %s: CONV2D does not fit the WGT SRAM: one block of the "
					"%dx%d filter needs %d WGT rows, the WGT SRAM has %u",
					layer, (int)g0->kh, (int)g0->kw, (int)(g0->kh * g0->kw),
					cfg->wgt_depth);
		if ((uint64_t)nconst + g0->wo + D > cfg->acc_depth)
			return vta_fail(err, VTA_E_USAGE,
					"layer %s: CONV2D does not fit the ACC SRAM: one output row "
					"of %d pixels needs %llu ACC rows with its %u constant rows, "
					"the ACC SRAM has %u",
					layer, (int)g0->wo,
					(unsigned long long)(nconst + g0->wo + D), nconst,
					cfg->acc_depth);
		return vta_fail(err, VTA_E_USAGE,
				"layer %s: CONV2D does not fit the UOP SRAM: the smallest GEMM "
				"kernel is longer than its %u rows",
				layer, cfg->uop_depth);
	}
	/* SRAM map */
	best.inp_slot = cfg->inp_depth / best.s_inp;
	best.wgt_slot = cfg->wgt_depth / best.s_wgt;
	best.acc_const_base = 0;
	best.acc_const_rows = best.nconst * (best.const_all ? g0->ob : best.nob);
	best.acc_slot_base = best.acc_const_rows;
	best.acc_slot = best.th * (uint32_t)g0->wo * best.nob;
	best.acc_scratch = cfg->acc_depth - D;
	*plan = best;
	return VTA_OK;
}
