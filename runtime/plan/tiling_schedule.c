/*
 * tiling_schedule.c - the schedule of a plan (tiling.h, vta_conv_schedule): its tiles and
 * steps, which INP and WGT slot each step reads and when a slot is loaded, and the tokens
 * between them. The cost model walks the same schedule without building it (tiling_cost.c).
 */
#include <stdlib.h>
#include <string.h>

#include "tiling.h"
#include "tiling_walk.h"

/* declared in tiling_walk.h */
void *ti_reserve(void *p, uint64_t *cap, uint64_t n, size_t elem, bool *ok)
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

void vta_conv_sched_free(vta_conv_sched *s)
{
	free(s->tiles);
	free(s->steps);
	memset(s, 0, sizeof(*s));
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
