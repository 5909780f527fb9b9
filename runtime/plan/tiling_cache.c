/*
 * tiling_cache.c - plans chosen once per run for layers that are the same to the chooser
 * (tiling.h, vta_conv_plan_cache): a network repeats its convolution shapes, and a run
 * chooses for each layer. The key is everything vta_conv_plan_choose_pinned reads; equal
 * keys choose equal plans, so a hit returns what the chooser would. Only chosen plans are
 * kept; a failure is chosen (and explained) again.
 */
#include "tiling.h"

#include <stdlib.h>
#include <string.h>

typedef struct pc_key {
	vta_config cfg;
	vta_conv_geom g;
	vta_conv_pin pin;
	unsigned threads;
	uint32_t nconst, alu_tt, alu_imm;
} pc_key;

typedef struct pc_entry {
	pc_key key;
	vta_conv_plan plan;
} pc_entry;

struct vta_conv_plan_cache {
	pc_entry *e;
	size_t n, cap;
	uint64_t hits, misses;
	vta_conv_plan_work *work; /* the searches' arrays, made at the first miss */
};

vta_conv_plan_cache *vta_conv_plan_cache_new(void)
{
	return calloc(1, sizeof(vta_conv_plan_cache));
}

void vta_conv_plan_cache_free(vta_conv_plan_cache *c)
{
	if (!c)
		return;
	free(c->e);
	vta_conv_plan_work_free(c->work);
	free(c);
}

void vta_conv_plan_cache_counts(const vta_conv_plan_cache *c, uint64_t *hits, uint64_t *misses)
{
	*hits = c ? c->hits : 0;
	*misses = c ? c->misses : 0;
}

/* Keys compare byte for byte (zeroed first, so padding never differs between equal keys). */
static void pc_key_make(pc_key *k, const vta_config *cfg, const vta_conv_geom *g,
			unsigned threads, uint32_t nconst, uint32_t alu_tt, uint32_t alu_imm,
			const vta_conv_pin *pin)
{
	memset(k, 0, sizeof(*k));
	memcpy(&k->cfg, cfg, sizeof(*cfg));
	memcpy(&k->g, g, sizeof(*g));
	if (pin)
		memcpy(&k->pin, pin, sizeof(*pin));
	k->threads = threads;
	k->nconst = nconst;
	k->alu_tt = alu_tt;
	k->alu_imm = alu_imm;
}

vta_status vta_conv_plan_choose_cached(vta_conv_plan_cache *c, const vta_config *cfg,
				       const vta_conv_geom *g, unsigned threads, uint32_t nconst,
				       uint32_t alu_tt, uint32_t alu_imm, const vta_conv_pin *pin,
				       const char *layer, vta_conv_plan *plan, vta_error *err)
{
	if (!c)
		return vta_conv_plan_choose_pinned(cfg, g, threads, nconst, alu_tt, alu_imm, pin,
						   layer, plan, err);
	pc_key k;
	pc_key_make(&k, cfg, g, threads, nconst, alu_tt, alu_imm, pin);
	for (size_t i = 0; i < c->n; i++)
		if (!memcmp(&c->e[i].key, &k, sizeof(k))) {
			*plan = c->e[i].plan;
			c->hits++;
			return VTA_OK;
		}
	c->misses++;
	if (!c->work) /* without it (out of memory) a search has arrays of its own */
		c->work = vta_conv_plan_work_new();
	vta_status st = vta_conv_plan_choose_in(c->work, cfg, g, threads, nconst, alu_tt,
						alu_imm, pin, layer, plan, err);
	if (st != VTA_OK)
		return st;
	if (c->n == c->cap) { /* a full cache only forgets to remember: the plan stands */
		size_t cap = c->cap ? 2 * c->cap : 16;
		pc_entry *e = realloc(c->e, cap * sizeof(*e));
		if (!e)
			return VTA_OK;
		c->e = e;
		c->cap = cap;
	}
	c->e[c->n].key = k;
	c->e[c->n].plan = *plan;
	c->n++;
	return VTA_OK;
}
