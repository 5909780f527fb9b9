/*
 * vta_nest.c - the distinct rows of a GEMM/ALU loop nest, cached by kernel (vta_nest.h).
 *
 * An entry keeps the loop's counts and factors and a copy of its micro-ops' bytes: a hit
 * compares both, so equal keys mean equal rows whatever the UOP SRAM went through in
 * between. Entries are replaced in turn; a program that cycles through more kernels than
 * the cache holds only computes them again. A row array, once listed, never changes and
 * lives as long as the cache: callers may keep it. The rows are listed from the ranges they
 * form (vta_nest_ranges.h, as the simulator's liveness takes them).
 */
#include "vta_nest.h"

#include "vta_bytes.h"
#include "vta_nest_ranges.h"

#include <stdlib.h>
#include <string.h>

#define WAYS 32

typedef struct key {
	uint32_t n_uops, iter_out, iter_in;
	uint32_t fo[3], fi[3]; /* per index: dst, src, wgt */
} key;

typedef struct u32_buf {
	uint32_t *v;
	size_t n, cap;
} u32_buf;

typedef struct entry {
	bool valid;
	uint64_t hash;
	key k;
	uint8_t *bytes; /* k.n_uops encoded micro-ops */
	size_t cap_bytes;
	u32_buf kern[3];  /* per index, its distinct values over the uops, ascending */
	uint64_t max[3];
	bool listed[3];   /* rows[j] is filled */
	u32_buf rows[3];
} entry;

struct vta_nest_cache {
	const vta_config *cfg;
	uint64_t most;   /* rows a nest may reach (the largest SRAM a uop index may name) */
	vta_nest_ranges ranges; /* a nest's rows as ranges, before they are listed */
	entry e[WAYS];
	unsigned victim; /* the entry a miss replaces next */
	uint32_t **old;  /* row arrays of replaced entries: they outlive their entry */
	size_t n_old, cap_old;
	entry *cur;      /* what vta_nest_find found last */
};

vta_nest_cache *vta_nest_cache_new(const vta_config *cfg, uint64_t rows)
{
	vta_nest_cache *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->cfg = cfg;
	c->most = rows ? rows : 1;
	return c;
}

void vta_nest_cache_free(vta_nest_cache *c)
{
	if (!c)
		return;
	for (int w = 0; w < WAYS; w++) {
		free(c->e[w].bytes);
		for (int j = 0; j < 3; j++) {
			free(c->e[w].kern[j].v);
			free(c->e[w].rows[j].v);
		}
	}
	for (size_t i = 0; i < c->n_old; i++)
		free(c->old[i]);
	free(c->old);
	vta_nest_ranges_free(&c->ranges);
	free(c);
}

static bool reserve(u32_buf *b, size_t need)
{
	if (need <= b->cap)
		return true;
	size_t cap = b->cap ? b->cap : 64;
	while (cap < need)
		cap *= 2;
	uint32_t *nv = realloc(b->v, cap * sizeof(*nv));
	if (!nv)
		return false;
	b->v = nv;
	b->cap = cap;
	return true;
}

static int u32_cmp(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	return a < b ? -1 : a > b;
}

static void fill(const entry *e, vta_nest *out)
{
	for (int j = 0; j < 3; j++) {
		out->max[j] = e->max[j];
		out->rows[j] = e->listed[j] ? e->rows[j].v : NULL;
		out->n_rows[j] = e->listed[j] ? e->rows[j].n : 0;
	}
}

/* Decode the kernel into e (its key and bytes set). */
static vta_nest_result decode(const vta_nest_cache *c, entry *e)
{
	const vta_config *cfg = c->cfg;
	uint32_t n = e->k.n_uops;
	for (int j = 0; j < 3; j++) {
		if (!reserve(&e->kern[j], n))
			return VTA_NEST_NOMEM;
		e->kern[j].n = n;
		e->listed[j] = false;
	}
	for (uint32_t k = 0; k < n; k++) {
		vta_uop u;
		vta_error bad = {0};
		if (vta_uop_decode(cfg, e->bytes + (size_t)k * cfg->sram[VTA_MEM_UOP].elem_bytes,
				   &u, &bad))
			return VTA_NEST_UOP_BY_UOP;
		e->kern[0].v[k] = u.dst;
		e->kern[1].v[k] = u.src;
		e->kern[2].v[k] = u.wgt;
	}
	for (int j = 0; j < 3; j++) {
		u32_buf *kb = &e->kern[j];
		qsort(kb->v, kb->n, sizeof(*kb->v), u32_cmp);
		size_t d = 0;
		for (size_t k = 0; k < kb->n; k++)
			if (!d || kb->v[k] != kb->v[d - 1])
				kb->v[d++] = kb->v[k];
		kb->n = d;
		e->max[j] = kb->v[d - 1] + (uint64_t)(e->k.iter_out - 1) * e->k.fo[j] +
			    (uint64_t)(e->k.iter_in - 1) * e->k.fi[j];
	}
	return VTA_NEST_OK;
}

vta_nest_result vta_nest_find(vta_nest_cache *c, const vta_loop *l, const uint8_t *uop_sram,
		  vta_nest *out)
{
	key k = {l->uop_end - l->uop_bgn, l->iter_out, l->iter_in,
		 {l->dst_factor_out, l->src_factor_out, l->wgt_factor_out},
		 {l->dst_factor_in, l->src_factor_in, l->wgt_factor_in}};
	c->cur = NULL;
	if (l->uop_end <= l->uop_bgn || !l->iter_out || !l->iter_in)
		return VTA_NEST_UOP_BY_UOP;
	size_t nb = (size_t)k.n_uops * c->cfg->sram[VTA_MEM_UOP].elem_bytes;
	const uint8_t *bytes = uop_sram + (size_t)l->uop_bgn * c->cfg->sram[VTA_MEM_UOP].elem_bytes;
	uint64_t h = vta_fnv_words(vta_fnv_words(0xcbf29ce484222325ull, &k, sizeof(k)), bytes, nb);
	for (int w = 0; w < WAYS; w++) {
		entry *e = &c->e[w];
		if (e->valid && e->hash == h && !memcmp(&e->k, &k, sizeof(k)) &&
		    !memcmp(e->bytes, bytes, nb)) {
			c->cur = e;
			fill(e, out);
			return VTA_NEST_OK;
		}
	}
	entry *e = &c->e[c->victim];
	c->victim = (c->victim + 1) % WAYS;
	e->valid = false;
	for (int j = 0; j < 3; j++) { /* rows handed out stay valid: set them aside */
		if (!e->rows[j].v)
			continue;
		if (c->n_old == c->cap_old) {
			size_t cap = c->cap_old ? 2 * c->cap_old : 16;
			uint32_t **no = realloc(c->old, cap * sizeof(*no));
			if (!no)
				return VTA_NEST_NOMEM;
			c->old = no;
			c->cap_old = cap;
		}
		c->old[c->n_old++] = e->rows[j].v;
		e->rows[j] = (u32_buf){0};
	}
	if (nb > e->cap_bytes) {
		uint8_t *nbuf = realloc(e->bytes, nb);
		if (!nbuf)
			return VTA_NEST_NOMEM;
		e->bytes = nbuf;
		e->cap_bytes = nb;
	}
	memcpy(e->bytes, bytes, nb);
	e->k = k;
	e->hash = h;
	vta_nest_result st = decode(c, e);
	if (st)
		return st;
	e->valid = true;
	c->cur = e;
	fill(e, out);
	return VTA_NEST_OK;
}

/* Rows of index j, ascending: the ranges the nest's rows form, each row of them listed. */
static vta_nest_result list_rows(vta_nest_cache *c, entry *e, int j)
{
	const u32_buf *kb = &e->kern[j];
	u32_buf *rb = &e->rows[j];
	rb->n = 0;
	if (e->max[j] >= c->most)
		return VTA_NEST_UOP_BY_UOP; /* the caller checks bounds first */
	vta_nest_ranges *r = &c->ranges;
	if (!vta_nest_ranges_of(r, kb->v, kb->n, e->k.iter_out, e->k.iter_in, e->k.fo[j],
				e->k.fi[j]))
		return VTA_NEST_NOMEM;
	const uint64_t count = vta_nest_ranges_rows(r); /* at most `most`: below the max */
	if (!reserve(rb, (size_t)count))
		return VTA_NEST_NOMEM;
	for (size_t k = 0; k < r->n; k++)
		for (uint64_t row = r->v[k].first; row < r->v[k].end; row++)
			rb->v[rb->n++] = (uint32_t)row;
	e->listed[j] = true;
	return VTA_NEST_OK;
}

vta_nest_result vta_nest_rows(vta_nest_cache *c, unsigned used, vta_nest *out)
{
	entry *e = c->cur;
	if (!e)
		return VTA_NEST_UOP_BY_UOP;
	for (int j = 0; j < 3; j++) {
		if (!(used >> j & 1) || e->listed[j])
			continue;
		vta_nest_result st = list_rows(c, e, j);
		if (st)
			return st;
	}
	fill(e, out);
	return VTA_NEST_OK;
}
