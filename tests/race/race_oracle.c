/* race_oracle.c - the happens-before rules, the slow obvious way (race_oracle.h). */
#include "race_oracle.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vta_footprint.h"
#include "vta_insn.h"
#include "vta_queues.h"
#include "vta_rules.h"

#define SRAMS VTA_SPACE_DRAM

typedef struct bits {
	uint64_t *w;
	size_t words;
} bits;

static bool bit(const bits *b, size_t i)
{
	return b->w && (b->w[i / 64] >> (i % 64) & 1);
}

static bool set_bit(bits *b, size_t i, size_t n)
{
	if (!b->w) {
		b->words = (n + 63) / 64;
		b->w = calloc(b->words ? b->words : 1, sizeof(uint64_t));
		if (!b->w)
			return false;
	}
	b->w[i / 64] |= 1ull << (i % 64);
	return true;
}

typedef struct range {
	uint64_t lo, hi;
} range;

typedef struct acc_rec { /* one access, in the order the instruction makes it */
	vta_access a;
} acc_rec;

/* What one instruction touches. */
typedef struct fp {
	bits r[SRAMS], w[SRAMS];
	range *dr, *dw; /* DRAM read and written */
	size_t ndr, ndw;
	acc_rec *seq;   /* every access, in order */
	size_t nseq, cap;
	bool has_write;
	vta_space first_write;
} fp;

typedef struct oracle {
	const vta_config *cfg;
	const vta_dram *dram;
	size_t n;
	vta_insn *insns;
	vta_module *mod;
	bool *in_e;       /* may execute */
	bits *reach;      /* reach[i]: instructions that happen before i */
	fp *fps;
	fp *cur;
	bool nomem;
	oracle_result *out;
} oracle;

static void add(oracle *o, const vta_problem *p)
{
	oracle_result *r = o->out;
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 16;
		vta_problem *np = realloc(r->p, cap * sizeof(*np));
		if (!np) {
			o->nomem = true;
			return;
		}
		r->p = np;
		r->cap = cap;
	}
	r->p[r->n++] = *p;
	if (vta_problem_is_error(p->kind))
		r->errors++;
}

static vta_problem problem(vta_problem_kind k, size_t first, size_t second)
{
	vta_problem p;
	memset(&p, 0, sizeof(p));
	p.kind = k;
	p.first = first;
	p.second = second;
	p.uop = VTA_FP_NO_UOP;
	p.queue = -1;
	return p;
}

static vta_status collect(void *ctx, const vta_access *a)
{
	oracle *o = ctx;
	fp *f = o->cur;
	if (f->nseq == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 32;
		acc_rec *ns = realloc(f->seq, cap * sizeof(*ns));
		if (!ns)
			return VTA_E_NOMEM;
		f->seq = ns;
		f->cap = cap;
	}
	f->seq[f->nseq++].a = *a;
	if (a->write && !f->has_write) {
		f->has_write = true;
		f->first_write = a->space;
	}
	if (a->space == VTA_SPACE_DRAM) {
		range **v = a->write ? &f->dw : &f->dr;
		size_t *n = a->write ? &f->ndw : &f->ndr;
		range *nv = realloc(*v, (*n + 1) * sizeof(**v));
		if (!nv)
			return VTA_E_NOMEM;
		*v = nv;
		nv[(*n)++] = (range){a->lo, a->hi};
		return VTA_OK;
	}
	uint64_t rows = vta_space_rows(o->cfg, a->space);
	bits *b = a->write ? &f->w[a->space] : &f->r[a->space];
	for (uint64_t r = a->lo; r < a->hi; r++)
		if (!set_bit(b, r, rows))
			return VTA_E_NOMEM;
	return VTA_OK;
}

static bool hb(const oracle *o, size_t a, size_t b)
{
	return bit(&o->reach[b], a);
}

/* The queue's k-th push among the pushes that happen (FINISH's never do), or SIZE_MAX. */
static size_t kth(const oracle *o, vta_queue q, size_t k, bool pushes)
{
	for (size_t i = 0; i < o->n; i++) {
		vta_queue po[2], pu[2];
		if (pushes && o->insns[i].opcode == VTA_OP_FINISH)
			continue;
		vta_insn_queues(&o->insns[i], o->mod[i], po, pu);
		const vta_queue *v = pushes ? pu : po;
		if (v[0] == q || v[1] == q) {
			if (k == 0)
				return i;
			k--;
		}
	}
	return SIZE_MAX;
}

/* Rank of instruction i among the poppers of q. */
static size_t pop_rank(const oracle *o, vta_queue q, size_t i)
{
	size_t k = 0;
	for (size_t j = 0; j < i; j++) {
		vta_queue po[2], pu[2];
		vta_insn_queues(&o->insns[j], o->mod[j], po, pu);
		if (po[0] == q || po[1] == q)
			k++;
	}
	return k;
}

/* The table load whose descriptor a decompressing load i uses: of those that set its slot
 * and happen before it, the one the others happen before. */
static const vta_insn *table_of(const oracle *o, size_t i)
{
	size_t best = SIZE_MAX;
	for (size_t t = 0; t < o->n; t++) {
		const vta_insn *in = &o->insns[t];
		if (!o->in_e[t] || in->opcode != VTA_OP_LOAD || vta_insn_is_nop(in) ||
		    (in->mem.mem_type != VTA_MEM_LUT && in->mem.mem_type != VTA_MEM_LUT32) ||
		    in->mem.lut_slot != o->insns[i].mem.lut_slot || !hb(o, t, i))
			continue;
		if (best == SIZE_MAX || hb(o, best, t))
			best = t;
	}
	return best == SIZE_MAX ? NULL : &o->insns[best];
}

/* The hull of the set bits common to a and b, if any. */
static bool overlap(const bits *a, const bits *b, uint64_t *lo, uint64_t *hi)
{
	if (!a->w || !b->w)
		return false;
	bool any = false;
	for (size_t k = 0; k < a->words; k++) {
		uint64_t v = a->w[k] & b->w[k];
		if (!v)
			continue;
		uint64_t first = k * 64 + (uint64_t)__builtin_ctzll(v);
		uint64_t last = k * 64 + 63 - (uint64_t)__builtin_clzll(v);
		if (!any)
			*lo = first;
		*hi = last + 1;
		any = true;
	}
	return any;
}

static bool overlap_dram(const range *a, size_t na, const range *b, size_t nb, uint64_t *lo,
			 uint64_t *hi)
{
	bool any = false;
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++) {
			uint64_t l = a[i].lo > b[j].lo ? a[i].lo : b[j].lo;
			uint64_t h = a[i].hi < b[j].hi ? a[i].hi : b[j].hi;
			if (l >= h)
				continue;
			if (!any || l < *lo)
				*lo = l;
			if (!any || h > *hi)
				*hi = h;
			any = true;
		}
	return any;
}

static void race(oracle *o, size_t a, size_t b, vta_space s, vta_problem_kind k, uint64_t lo,
		 uint64_t hi)
{
	vta_problem p = problem(k, a, b);
	p.space = s;
	p.lo = lo;
	p.hi = hi;
	add(o, &p);
}

/* Instructions a < b of two modules, unordered: every conflicting overlap. */
static void pair(oracle *o, size_t a, size_t b)
{
	const fp *fa = &o->fps[a], *fb = &o->fps[b];
	uint64_t lo, hi;
	for (int s = 0; s < SRAMS; s++) {
		if (overlap(&fa->w[s], &fb->r[s], &lo, &hi))
			race(o, a, b, (vta_space)s, VTA_PROBLEM_RAW, lo, hi);
		if (overlap(&fa->r[s], &fb->w[s], &lo, &hi))
			race(o, a, b, (vta_space)s, VTA_PROBLEM_WAR, lo, hi);
		if (overlap(&fa->w[s], &fb->w[s], &lo, &hi))
			race(o, a, b, (vta_space)s, VTA_PROBLEM_WAW, lo, hi);
	}
	if (overlap_dram(fa->dw, fa->ndw, fb->dr, fb->ndr, &lo, &hi))
		race(o, a, b, VTA_SPACE_DRAM, VTA_PROBLEM_RAW, lo, hi);
	if (overlap_dram(fa->dr, fa->ndr, fb->dw, fb->ndw, &lo, &hi))
		race(o, a, b, VTA_SPACE_DRAM, VTA_PROBLEM_WAR, lo, hi);
	if (overlap_dram(fa->dw, fa->ndw, fb->dw, fb->ndw, &lo, &hi))
		race(o, a, b, VTA_SPACE_DRAM, VTA_PROBLEM_WAW, lo, hi);
}

/* Reads of b no write ordered before it (nor its own earlier ones) wrote. */
static void uninit(oracle *o, size_t b)
{
	const fp *f = &o->fps[b];
	bits mine[SRAMS];
	memset(mine, 0, sizeof(mine));
	vta_problem rec[SRAMS];
	bits seen[SRAMS];
	memset(seen, 0, sizeof(seen));
	bool have[SRAMS] = {false};
	for (size_t k = 0; k < f->nseq && !o->nomem; k++) {
		const vta_access *a = &f->seq[k].a;
		if (a->space == VTA_SPACE_DRAM)
			continue;
		uint64_t rows = vta_space_rows(o->cfg, a->space);
		for (uint64_t r = a->lo; r < a->hi; r++) {
			if (a->write) {
				if (!set_bit(&mine[a->space], r, rows))
					o->nomem = true;
				continue;
			}
			if (bit(&mine[a->space], r) || bit(&seen[a->space], r))
				continue;
			bool written = false;
			for (size_t w = 0; w < o->n && !written; w++)
				written = o->in_e[w] && hb(o, w, b) && bit(&o->fps[w].w[a->space], r);
			if (written)
				continue;
			if (!set_bit(&seen[a->space], r, rows))
				o->nomem = true;
			if (!have[a->space]) {
				have[a->space] = true;
				rec[a->space] = problem(VTA_PROBLEM_UNINIT, b, b);
				rec[a->space].space = a->space;
				rec[a->space].lo = r;
				rec[a->space].hi = r + 1;
				rec[a->space].uop = a->uop;
				rec[a->space].it_out = a->it_out;
				rec[a->space].it_in = a->it_in;
			}
			rec[a->space].count++;
		}
	}
	for (int s = 0; s < SRAMS; s++) {
		if (have[s])
			add(o, &rec[s]);
		free(mine[s].w);
		free(seen[s].w);
	}
}

static void end_and_tokens(oracle *o, size_t f)
{
	for (size_t i = 0; i < o->n; i++) {
		const vta_insn *in = &o->insns[i];
		if (!o->in_e[i] || o->mod[i] == VTA_MODULE_COMPUTE ||
		    (in->opcode != VTA_OP_LOAD && in->opcode != VTA_OP_STORE) ||
		    vta_insn_is_nop(in) || hb(o, i, f))
			continue;
		vta_problem p = problem(VTA_PROBLEM_END, i, f);
		const fp *x = &o->fps[i];
		p.space = x->first_write;
		uint64_t lo = UINT64_MAX, hi = 0;
		for (size_t k = 0; k < x->nseq; k++) {
			const vta_access *a = &x->seq[k].a;
			if (!a->write || a->space != x->first_write)
				continue;
			lo = a->lo < lo ? a->lo : lo;
			hi = a->hi > hi ? a->hi : hi;
		}
		if (x->has_write) {
			p.lo = lo;
			p.hi = hi;
		}
		add(o, &p);
	}
	for (int q = 0; q < VTA_QUEUE_COUNT; q++) {
		vta_problem p = problem(VTA_PROBLEM_TOKENS_LEFT, 0, f);
		p.queue = q;
		for (size_t k = 0;; k++) {
			size_t pu = kth(o, (vta_queue)q, k, true);
			if (pu == SIZE_MAX)
				break;
			if (!o->in_e[pu])
				continue;
			size_t po = kth(o, (vta_queue)q, k, false);
			if (po != SIZE_MAX && o->in_e[po] && (po == f || hb(o, po, f)))
				continue;
			if (!p.count)
				p.first = pu;
			p.count++;
		}
		if (p.count)
			add(o, &p);
	}
	for (size_t i = f + 1; i < o->n; i++) {
		vta_problem p = problem(VTA_PROBLEM_AFTER_FINISH, i, f);
		add(o, &p);
	}
	/* before FINISH, what may never execute: per module, its first such and how many */
	for (int m = 0; m < VTA_MODULE_COUNT; m++) {
		vta_problem p = problem(VTA_PROBLEM_NEVER_RUNS, 0, f);
		for (size_t i = 0; i < f; i++) {
			if (o->mod[i] != (vta_module)m || o->in_e[i])
				continue;
			if (!p.count)
				p.first = i;
			p.count++;
		}
		if (p.count)
			add(o, &p);
	}
}

static void release(oracle *o)
{
	for (size_t i = 0; o->fps && i < o->n; i++) {
		for (int s = 0; s < SRAMS; s++) {
			free(o->fps[i].r[s].w);
			free(o->fps[i].w[s].w);
		}
		free(o->fps[i].dr);
		free(o->fps[i].dw);
		free(o->fps[i].seq);
	}
	for (size_t i = 0; o->reach && i < o->n; i++)
		free(o->reach[i].w);
	free(o->fps);
	free(o->reach);
	free(o->insns);
	free(o->mod);
	free(o->in_e);
}

vta_status oracle_run(const vta_config *cfg, const vta_program *prog, const vta_dram *dram,
		      oracle_result *out)
{
	memset(out, 0, sizeof(*out));
	oracle O = {.cfg = cfg, .dram = dram, .n = prog->n_insns, .out = out};
	oracle *o = &O;
	size_t n = o->n ? o->n : 1;
	o->insns = calloc(n, sizeof(*o->insns));
	o->mod = calloc(n, sizeof(*o->mod));
	o->in_e = calloc(n, sizeof(*o->in_e));
	o->reach = calloc(n, sizeof(*o->reach));
	o->fps = calloc(n, sizeof(*o->fps));
	uint8_t *uops = calloc(cfg->sram[VTA_MEM_UOP].depth, cfg->sram[VTA_MEM_UOP].elem_bytes);
	size_t *order = calloc(n, sizeof(*order));
	vta_status st = VTA_OK;
	if (!o->insns || !o->mod || !o->in_e || !o->reach || !o->fps || !uops || !order) {
		st = VTA_E_NOMEM;
		goto done;
	}
	size_t f = SIZE_MAX;
	for (size_t i = 0; i < o->n; i++) {
		vta_error e = {0};
		if (vta_program_insn(prog, cfg, i, &o->insns[i], &e) ||
		    vta_insn_check_flags(&o->insns[i], &e)) {
			snprintf(out->why, sizeof(out->why), "insn %zu: %s", i, e.detail);
			goto done;
		}
		o->mod[i] = vta_insn_module(&o->insns[i]);
		if (f == SIZE_MAX && o->insns[i].opcode == VTA_OP_FINISH)
			f = i;
	}
	if (f == SIZE_MAX) {
		snprintf(out->why, sizeof(out->why), "no FINISH");
		goto done;
	}
	/* what may execute: per module in program order, compute up to FINISH, each as soon as
	 * the pushes its pops take may have happened; a topological order of happens-before */
	size_t n_order = 0;
	for (bool progress = true; progress;) {
		progress = false;
		for (size_t i = 0; i < o->n; i++) {
			if (o->in_e[i] || (o->mod[i] == VTA_MODULE_COMPUTE && i > f))
				continue;
			bool first = true; /* the first of its module not yet in */
			for (size_t j = 0; j < i && first; j++)
				if (o->mod[j] == o->mod[i] && !o->in_e[j])
					first = false;
			if (!first)
				continue;
			vta_queue po[2], pu[2];
			vta_insn_queues(&o->insns[i], o->mod[i], po, pu);
			bool ready = true;
			for (int k = 0; k < 2; k++) {
				if (po[k] < 0)
					continue;
				size_t push = kth(o, po[k], pop_rank(o, po[k], i), true);
				if (push == SIZE_MAX || !o->in_e[push])
					ready = false;
			}
			if (!ready)
				continue;
			/* happens-before: its module's previous instruction and the pushes it
			 * pops, and all they follow */
			bits *r = &o->reach[i];
			if (!set_bit(r, 0, o->n)) {
				st = VTA_E_NOMEM;
				goto done;
			}
			r->w[0] = 0;
			size_t preds[3], np = 0;
			for (size_t j = i; j-- > 0;)
				if (o->mod[j] == o->mod[i]) {
					preds[np++] = j;
					break;
				}
			for (int k = 0; k < 2; k++)
				if (po[k] >= 0)
					preds[np++] = kth(o, po[k], pop_rank(o, po[k], i), true);
			for (size_t k = 0; k < np; k++) {
				r->w[preds[k] / 64] |= 1ull << (preds[k] % 64);
				for (size_t w = 0; w < r->words; w++)
					r->w[w] |= o->reach[preds[k]].w[w];
			}
			o->in_e[i] = true;
			order[n_order++] = i;
			progress = true;
		}
	}
	if (!o->in_e[f]) {
		snprintf(out->why, sizeof(out->why), "FINISH never executes");
		goto done;
	}
	/* footprints, the UOP SRAM following compute's LOAD UOPs in its program order */
	for (size_t k = 0; k < n_order; k++) {
		size_t i = order[k];
		const vta_insn *in = &o->insns[i];
		vta_lut_desc slots[VTA_LUT_SLOTS];
		memset(slots, 0, sizeof(slots));
		if (in->opcode == VTA_OP_LOAD && in->mem.lut_bw && in->mem.lut_slot < VTA_LUT_SLOTS) {
			const vta_insn *t = table_of(o, i);
			if (t)
				slots[in->mem.lut_slot] = vta_lut_desc_of(&t->mem);
		}
		vta_fp_state fs = {.uop_sram = uops, .slots = slots, .dram_size = dram->size};
		vta_error e = {0};
		o->cur = &o->fps[i];
		st = vta_footprint(cfg, in, &fs, collect, o, &e);
		if (st == VTA_E_NOMEM)
			goto done;
		if (st) {
			st = VTA_OK;
			snprintf(out->why, sizeof(out->why), "insn %zu: %s", i, e.detail);
			goto done;
		}
		const vta_mem_insn *m = &in->mem;
		const uint64_t eb = cfg->sram[VTA_MEM_UOP].elem_bytes;
		if (in->opcode == VTA_OP_LOAD && m->mem_type == VTA_MEM_UOP && m->x_size)
			for (uint64_t y = 0; y < m->y_size; y++)
				memcpy(uops + ((uint64_t)m->sram_base + y * m->x_size) * eb,
				       dram->bytes + ((uint64_t)m->dram_base + y * m->x_stride) * eb,
				       (size_t)(m->x_size * eb));
	}
	/* every pair of instructions of two modules that happen-before does not order */
	for (size_t a = 0; a < o->n; a++)
		for (size_t b = a + 1; b < o->n; b++)
			if (o->in_e[a] && o->in_e[b] && o->mod[a] != o->mod[b] && !hb(o, a, b) &&
			    !hb(o, b, a))
				pair(o, a, b);
	for (size_t b = 0; b < o->n; b++)
		if (o->in_e[b])
			uninit(o, b);
	end_and_tokens(o, f);
	out->ok = !o->nomem;
	if (o->nomem)
		st = VTA_E_NOMEM;
done:
	release(o);
	free(uops);
	free(order);
	return st;
}

void oracle_free(oracle_result *r)
{
	free(r->p);
	memset(r, 0, sizeof(*r));
}

int oracle_problem_cmp(const void *x, const void *y)
{
	const vta_problem *a = x, *b = y;
#define CMP(f)                                                                               \
	if (a->f != b->f)                                                                   \
		return a->f < b->f ? -1 : 1;
	CMP(kind)
	CMP(first)
	CMP(second)
	CMP(space)
	CMP(lo)
	CMP(hi)
	CMP(count)
	CMP(uop)
	CMP(it_out)
	CMP(it_in)
	CMP(queue)
#undef CMP
	return 0;
}
