/*
 * tiling.c - CONV2D geometry in blocks and the GEMM kernel shape of a step (tiling.h). The
 * plan's schedule is tiling_schedule.c, its pricing tiling_cost.c, the search over plans
 * tiling_choose.c; what they share is tiling_walk.h.
 */
#include "tiling.h"

#include <string.h>

#include "int_gcd.h"
#include "layout.h"

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
		const uint64_t ki = cfg->block_in / vta_gcd(cfg->block_in, in_g);
		const uint64_t ko = cfg->block_out / vta_gcd(cfg->block_out, out_g);
		const uint64_t k = ki / vta_gcd(ki, ko) * ko;
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

uint32_t vta_conv_grp_obs(const vta_conv_geom *g, const vta_conv_plan *p, uint32_t grp)
{
	const uint32_t left = g->ob - grp * p->nob;
	return left < p->nob ? left : p->nob;
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
