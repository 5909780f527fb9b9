/*
 * vta_race.c - the stream checks (see vta_race.h; the rules are docs/isa.md's
 * "Happens-before and races").
 *
 * Vector clocks. Instruction i of module m gets vc[i]: component m is its position in m's
 * program order (its "local clock", from 1), component y the local clock of the last
 * instruction of module y that happens before it. a happens before b exactly when
 * lclock[a] <= vc[b][module of a].
 *
 * Shadow of an SRAM row: per module, its first write (reads of unwritten rows) and, in the
 * spaces two modules may touch (shared: INP, WGT, OUT, the table memory and its slots in
 * this ISA; UOP and ACC belong to compute alone), its last access. A module's accesses of
 * a row are in its program order, so those unordered with b are its last ones: when its
 * last access happens before b, all do (the common case, one compare). Otherwise its log of
 * accesses per instruction (vta_race_log.h) gives them all: a race when one of the two
 * writes. Bitmaps of the rows each module wrote answer most "written before?" questions a
 * word at a time.
 *
 * A GEMM/ALU that finds nothing is checked and recorded per distinct row of its loop nest
 * (vta_nest.h, cached by kernel), with the row sets kept as they are in the logs; one that
 * finds a problem is walked uop by uop, for the problems' order and the uops they name.
 */
#include "vta_race.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vta_cost.h"
#include "vta_insn.h"
#include "vta_nest.h"
#include "vta_queues.h"
#include "vta_race_log.h"
#include "vta_rules.h"
#include "vta_sched.h"

#define MODS VTA_MODULE_COUNT
#define SRAMS VTA_SPACE_DRAM /* the spaces with rows: all but DRAM */
#define NOT_RUN 0u           /* lclock of an instruction that never executes */
#define F_READ VTA_RACE_LOG_READ
#define F_WRITE VTA_RACE_LOG_WRITE
#define NO_LINK UINT32_MAX
#define MAX_INSNS (1u << 29) /* instruction indices fit an entry with its two flags */

typedef struct vclock {
	uint32_t c[MODS];
} vclock;

typedef struct idx_list {
	uint32_t *v;
	size_t n, cap;
} idx_list;

typedef struct row_state {
	uint32_t seen[2];            /* the last instruction + 1 that read it ([0]), that wrote
					it ([1]): an instruction's repeated accesses cost one
					compare */
	uint32_t first_write[MODS];  /* per module, its first instruction + 1 that wrote the
					row: some write happens before b exactly when one of
					these does (later ones of a module follow its first) */
} row_state;

typedef struct space_shadow {
	uint64_t n_rows; /* rows [0, n_rows) of the arrays below, grown as accesses reach
			    further up to depth (a layer touches a few rows of large SRAMs:
			    clearing all of them cost more than checking) */
	uint64_t depth;
	row_state *rows;
	uint64_t *written[MODS]; /* per module, a bit per row its first_write has */
	uint32_t newest_first[MODS]; /* per module, the local clock of its latest first write
					of a row: every row of written[] happens before b when
					b's clock has it */
	uint32_t *last[MODS]; /* shared: per module and row, its last access of the row
				 (insn << 2 | F_READ | F_WRITE), 0 for none */
	uint32_t newest[MODS]; /* shared: per module, no entry of last[] is above it */
	bool shared;      /* two modules may touch the space: races are possible */
	uint32_t modules; /* bit per module that may touch the space */
	vta_race_log log[MODS]; /* shared: per module, its accesses in program order */
	idx_list pending[2];  /* shared: rows the executing instruction read ([0]), wrote ([1])
				 one by one, logged when it is done */
} space_shadow;

/* DRAM bytes [lo + k * stride, hi + k * stride) for k < rows: a LOAD's or STORE's rows as
 * its footprint reports them (sweep_dram lists a STORE's row by row when it must sort
 * them). */
typedef struct dram_span {
	uint64_t lo, hi, stride;
	uint32_t rows, insn;
} dram_span;

typedef struct span_list {
	dram_span *s;
	size_t n, cap;
} span_list;

/* A problem and where the execution order found it. */
typedef struct found {
	vta_problem p;
	uint64_t pos;
	uint32_t next; /* the next record of the same pair of instructions */
} found;

/* What a LOAD or STORE writes, for its end-of-run problem. */
typedef struct write_hull {
	vta_space space;
	uint64_t lo, hi;
} write_hull;

/* One access every uop execution of a GEMM/ALU makes: of which index (0 dst, 1 src,
 * 2 wgt), in which space. */
typedef struct uop_access {
	vta_space space;
	bool write;
	unsigned which;
} uop_access;

typedef struct pass {
	const vta_config *cfg;
	const vta_dram *dram;
	vta_insn *insns;
	size_t n;
	uint8_t *module_of;
	uint32_t *lclock;
	uint32_t *at_clock; /* per module m, at [m * (n + 1) + c]: its instruction of local
			       clock c (a module executes in program order) */
	vclock *vc;
	uint64_t *pos; /* place in the execution order */
	uint64_t n_run;
	vclock cur[MODS]; /* each module's clock: that of its last instruction */
	idx_list push[VTA_QUEUE_COUNT], pop[VTA_QUEUE_COUNT]; /* who pushed / popped token k */
	/* the state footprints depend on */
	uint8_t *uop_img;
	vta_lut_desc slots[VTA_LUT_SLOTS];
	vta_fp_state fps;
	space_shadow sp[SRAMS];
	span_list loads, stores; /* DRAM ranges read by LOADs, written by STOREs */
	write_hull *wrote;       /* per LOAD/STORE */
	/* what was found */
	found *f;
	size_t n_found, cap_found;
	uint32_t *pair_stamp, *pair_head; /* per instruction a: records of (a, current) */
	uint32_t uninit_stamp[SRAMS], uninit_rec[SRAMS];
	size_t now;             /* the instruction executing */
	uop_access plan[VTA_UOP_ACCESSES_MAX]; /* what each of its uops touches (GEMM, ALU) */
	unsigned n_plan;
	vta_nest_cache *nests;  /* the distinct rows of the loop nests (walk_nest) */
	idx_list unordered;     /* scratch of unordered() */
	idx_list range;         /* scratch of touch_range() */
	uint64_t work_cycles;   /* a lower bound of the cycles the uops so far need */
	uint64_t work_uops;     /* GEMM/ALU uops so far, for the uop budget */
	double started;         /* vta_host_now() at the start, for timing.host_seconds */
	bool nomem;
	bool rule_failed;       /* an operand rule refused instruction rule_insn */
	size_t rule_insn;
	vta_error rule_err;
	char refused[MODS][128]; /* per module, why the rules refused its last instruction */
	size_t finish;
} pass;

/* ---------- small containers ---------- */


static void idx_push(pass *p, idx_list *l, uint32_t v)
{
	uint32_t *nv = vta_race_grow(l->v, &l->cap, l->n + 1, sizeof(*l->v));
	if (!nv) {
		p->nomem = true;
		return;
	}
	l->v = nv;
	l->v[l->n++] = v;
}

static found *add_found(pass *p, vta_problem_kind kind, size_t first, size_t second,
			uint64_t pos)
{
	found *nf = vta_race_grow(p->f, &p->cap_found, p->n_found + 1, sizeof(*p->f));
	if (!nf) {
		p->nomem = true;
		return NULL;
	}
	p->f = nf;
	found *r = &p->f[p->n_found++];
	memset(r, 0, sizeof(*r));
	r->p.kind = kind;
	r->p.first = first;
	r->p.second = second;
	r->p.uop = VTA_FP_NO_UOP;
	r->p.queue = -1;
	r->pos = pos;
	r->next = NO_LINK;
	return r;
}

static void hull(vta_problem *pr, uint64_t lo, uint64_t hi)
{
	if (pr->lo == pr->hi) {
		pr->lo = lo;
		pr->hi = hi;
		return;
	}
	if (lo < pr->lo)
		pr->lo = lo;
	if (hi > pr->hi)
		pr->hi = hi;
}

/* ---------- problems found while an instruction executes ---------- */

/* Instruction a (executed before) and the current one b race on a row of `space`. */
static void note_race(pass *p, uint32_t a, vta_space space, uint64_t row, bool a_writes,
		      bool b_writes)
{
	size_t b = p->now;
	size_t first = a < b ? a : b, second = a < b ? b : a;
	vta_problem_kind kind;
	if (a_writes && b_writes)
		kind = VTA_PROBLEM_WAW;
	else /* the writer first in the stream: read after write */
		kind = (a_writes ? a : b) == first ? VTA_PROBLEM_RAW : VTA_PROBLEM_WAR;
	uint32_t k = p->pair_stamp[a] == b + 1 ? p->pair_head[a] : NO_LINK;
	for (; k != NO_LINK; k = p->f[k].next) {
		vta_problem *pr = &p->f[k].p;
		if (pr->space == space && pr->kind == kind) {
			hull(pr, row, row + 1);
			return;
		}
	}
	uint32_t head = p->pair_stamp[a] == b + 1 ? p->pair_head[a] : NO_LINK;
	found *r = add_found(p, kind, first, second, p->pos[b]);
	if (!r)
		return;
	r->p.space = space;
	hull(&r->p, row, row + 1);
	r->next = head;
	p->pair_stamp[a] = (uint32_t)b + 1;
	p->pair_head[a] = (uint32_t)(p->n_found - 1);
}

static void note_uninit(pass *p, vta_space space, uint64_t row, const vta_access *a)
{
	size_t b = p->now;
	if (p->uninit_stamp[space] == b + 1) {
		p->f[p->uninit_rec[space]].p.count++;
		return;
	}
	found *r = add_found(p, VTA_PROBLEM_UNINIT, b, b, p->pos[b]);
	if (!r)
		return;
	r->p.space = space;
	r->p.lo = row;
	r->p.hi = row + 1;
	r->p.count = 1;
	r->p.uop = a->uop;
	r->p.it_out = a->it_out;
	r->p.it_in = a->it_in;
	p->uninit_stamp[space] = (uint32_t)b + 1;
	p->uninit_rec[space] = (uint32_t)(p->n_found - 1);
}

/* ---------- the shadow of SRAM rows ---------- */

/* Log rows [lo, hi) (rows NULL) or rows[0..n) that the current instruction accessed. */
static void log_rows(pass *p, space_shadow *s, uint32_t flag, uint64_t lo, uint64_t hi,
		     const uint32_t *rows, size_t n)
{
	uint32_t b = (uint32_t)p->now;
	if (!vta_race_log_add(&s->log[p->module_of[b]], b, flag, lo, hi, rows, n))
		p->nomem = true;
}

/* Module y's accesses of `row` unordered with the current instruction, oldest first, one
 * entry (insn << 2 | flags) per instruction, into p->unordered: the last ones of y's log,
 * as it is in y's program order. */
static void unordered(pass *p, const space_shadow *s, uint32_t y, uint64_t row)
{
	idx_list *u = &p->unordered;
	if (!vta_race_log_unordered(&s->log[y], p->lclock, p->vc[p->now].c[y], row, &u->v, &u->n,
				    &u->cap)) {
		p->nomem = true;
		u->n = 0;
	}
}

/* The current instruction b's access into the row's last access of its module: false when
 * it is there already (b checked such an access of the row). */
static bool own_note(pass *p, space_shadow *s, uint64_t row, bool write)
{
	uint32_t b = (uint32_t)p->now, flag = write ? F_WRITE : F_READ;
	uint32_t *l = &s->last[p->module_of[b]][row];
	s->newest[p->module_of[b]] = b << 2 | 3u;
	if (*l && *l >> 2 == b) {
		if (*l & flag)
			return false;
		*l |= flag;
	} else {
		*l = b << 2 | flag;
	}
	return true;
}

/* The largest last-access entry (insn << 2 | flags) of module y that happens before the
 * current instruction: y's instructions run in program order, so an entry happens before
 * exactly when it is at most this one (0 when none of y's does). */
static uint32_t ordered_limit(const pass *p, uint32_t y)
{
	uint32_t since = p->vc[p->now].c[y];
	return since ? p->at_clock[(size_t)y * (p->n + 1) + since] << 2 | 3u : 0;
}

/* Another module's last access of a row is unordered with the current instruction. */
static bool unordered_last(const pass *p, const space_shadow *s, uint64_t row, uint32_t y)
{
	return s->last[y][row] > ordered_limit(p, y);
}

static void race_row(pass *p, vta_space space, space_shadow *s, uint64_t row, bool write)
{
	uint32_t b = (uint32_t)p->now, m = p->module_of[b];
	if (!own_note(p, s, row, write))
		return;
	for (uint32_t y = 0; y < MODS; y++) {
		if (y == m || !(s->modules >> y & 1) || !unordered_last(p, s, row, y))
			continue;
		unordered(p, s, y, row);
		for (size_t k = 0; k < p->unordered.n; k++) {
			uint32_t e = p->unordered.v[k], a = e >> 2;
			bool a_writes = e & F_WRITE;
			if (!(a_writes || write))
				continue; /* two reads */
			if (a_writes && write)
				note_race(p, a, space, row, true, true);
			if ((e & F_READ) && write)
				note_race(p, a, space, row, false, true);
			if (a_writes && !write)
				note_race(p, a, space, row, true, false);
		}
	}
}

static bool has_bit(const uint64_t *bits, uint64_t row)
{
	return bits[row >> 6] >> (row & 63) & 1;
}

/* Module m's first write of the row: the current instruction b. */
static void first_write(const pass *p, space_shadow *s, row_state *r, uint64_t row,
			uint32_t m, uint32_t b)
{
	r->first_write[m] = b + 1;
	s->written[m][row >> 6] |= 1ull << (row & 63);
	s->newest_first[m] = p->lclock[b];
}

/* Some write of the row happens before b (b's own earlier accesses included). */
static bool written_before(const pass *p, const space_shadow *s, uint64_t row, uint32_t b)
{
	uint32_t m = p->module_of[b];
	if (has_bit(s->written[m], row))
		return true; /* b's module executes in program order */
	for (uint32_t y = 0; y < MODS; y++)
		if (y != m && s->newest_first[y] <= p->vc[b].c[y] && has_bit(s->written[y], row))
			return true;
	const row_state *r = &s->rows[row];
	for (int y = 0; y < MODS; y++)
		if (r->first_write[y] && p->lclock[r->first_write[y] - 1] <= p->vc[b].c[y])
			return true;
	return false;
}

static vta_status make_shadow(pass *p, vta_space s);
static bool shadow_rows(space_shadow *s, uint64_t hi);
static bool would_find(pass *p, space_shadow *s, const uint32_t *rows, size_t n, bool write);
static void note_rows(pass *p, space_shadow *s, const uint32_t *rows, size_t n, bool write);

/* A range of rows at once when it finds nothing (rows are independent: checking one
 * changes nothing another's check reads). */
static bool touch_range(pass *p, space_shadow *s, const vta_access *a)
{
	idx_list *r = &p->range;
	size_t n = (size_t)(a->hi - a->lo);
	uint32_t *nv = vta_race_grow(r->v, &r->cap, n, sizeof(*r->v));
	if (!nv)
		return false;
	r->v = nv;
	for (size_t k = 0; k < n; k++)
		r->v[k] = (uint32_t)(a->lo + k);
	if (would_find(p, s, r->v, n, a->write))
		return false;
	note_rows(p, s, r->v, n, a->write);
	return true;
}

/* An access of the current instruction: rows one by one (a uop's) are logged when it is
 * done, a range at once. */
static void touch(pass *p, const vta_access *a, bool one_by_one)
{
	space_shadow *s = &p->sp[a->space];
	if ((!s->rows && make_shadow(p, a->space)) || /* vta_footprint_spaces missed it */
	    !shadow_rows(s, a->hi)) {
		p->nomem = true;
		return;
	}
	uint32_t b = (uint32_t)p->now, m = p->module_of[b];
	if (s->shared && !one_by_one && a->lo < a->hi)
		log_rows(p, s, a->write ? F_WRITE : F_READ, a->lo, a->hi, NULL, 0);
	if (!one_by_one && a->hi - a->lo > 1 && touch_range(p, s, a))
		return;
	for (uint64_t row = a->lo; row < a->hi; row++) {
		row_state *r = &s->rows[row];
		if (r->seen[a->write] == b + 1)
			continue;
		r->seen[a->write] = b + 1;
		if (a->write && !r->first_write[m])
			first_write(p, s, r, row, m, b);
		else if (!a->write && !written_before(p, s, row, b))
			note_uninit(p, a->space, row, a);
		if (s->shared) {
			if (one_by_one)
				idx_push(p, &s->pending[a->write], (uint32_t)row);
			race_row(p, a->space, s, row, a->write);
		}
	}
}

static vta_status on_access(void *ctx, const vta_access *a)
{
	pass *p = ctx;
	if (a->space == VTA_SPACE_DRAM) {
		span_list *l = a->write ? &p->stores : &p->loads;
		dram_span *last = l->n ? &l->s[l->n - 1] : NULL;
		if (a->rows <= 1 && last && last->insn == p->now && a->lo > last->lo &&
		    a->hi - a->lo == last->hi - last->lo &&
		    (last->rows == 1 || a->lo == last->lo + last->rows * last->stride)) {
			/* the next row at the same stride */
			if (last->rows == 1)
				last->stride = a->lo - last->lo;
			last->rows++;
		} else {
			dram_span *ns = vta_race_grow(l->s, &l->cap, l->n + 1, sizeof(*l->s));
			if (!ns) {
				p->nomem = true;
			} else {
				l->s = ns;
				l->s[l->n++] = a->rows > 1 ? (dram_span){a->lo, a->hi, a->stride,
									 (uint32_t)a->rows,
									 (uint32_t)p->now}
							   : (dram_span){a->lo, a->hi, 0, 1,
									 (uint32_t)p->now};
			}
		}
	} else {
		touch(p, a, false);
	}
	if (a->write && p->wrote) {
		write_hull *w = &p->wrote[p->now];
		const uint64_t hi = a->rows > 1 ? a->hi + (a->rows - 1) * a->stride : a->hi;
		if (w->lo == w->hi)
			*w = (write_hull){a->space, a->lo, hi};
		else if (w->space == a->space)
			*w = (write_hull){a->space, w->lo < a->lo ? w->lo : a->lo,
					  w->hi > hi ? w->hi : hi};
	}
	return p->nomem ? VTA_E_NOMEM : VTA_OK;
}

static vta_status on_uop(void *ctx, const vta_uop_exec *u)
{
	pass *p = ctx;
	uint32_t stamp = (uint32_t)p->now + 1;
	for (unsigned k = 0; k < p->n_plan; k++) {
		/* most uops revisit rows their instruction touched already: one compare */
		const uop_access *pa = &p->plan[k];
		uint64_t row = pa->which == 0 ? u->dst : pa->which == 1 ? u->src : u->wgt;
		const space_shadow *s = &p->sp[pa->space];
		if (row >= s->n_rows || s->rows[row].seen[pa->write] != stamp) {
			vta_access a = {pa->space, pa->write, row, row + 1, u->uop, u->it_out,
					u->it_in, 1, 0};
			touch(p, &a, true);
		}
	}
	return p->nomem ? VTA_E_NOMEM : VTA_OK;
}

/* ---------- executing an instruction ---------- */

/* Every one of the ascending rows[0..n) has its bit in bits: word by word when they are
 * one range. */
static bool all_set(const uint64_t *bits, const uint32_t *rows, size_t n)
{
	if (n && rows[n - 1] - rows[0] == n - 1) {
		/* the words of rows[0] .. rows[n - 1], the first and the last masked */
		const uint64_t w0 = rows[0] >> 6, w1 = rows[n - 1] >> 6;
		const uint64_t first = UINT64_MAX << (rows[0] & 63);
		const uint64_t last = UINT64_MAX >> (63 - (rows[n - 1] & 63));
		if (w0 == w1)
			return (bits[w0] & first & last) == (first & last);
		if ((bits[w0] & first) != first || (bits[w1] & last) != last)
			return false;
		for (uint64_t w = w0 + 1; w < w1; w++)
			if (bits[w] != UINT64_MAX)
				return false;
		return true;
	}
	for (size_t j = 0; j < n; j++)
		if (!has_bit(bits, rows[j]))
			return false;
	return true;
}

/* Some write happens before the current instruction b for each of rows[0..n) of space s. */
static bool all_written_before(const pass *p, const space_shadow *s, const uint32_t *rows,
			       size_t n)
{
	uint32_t b = (uint32_t)p->now, m = p->module_of[b];
	if (all_set(s->written[m], rows, n))
		return true; /* by b's module: in program order */
	for (uint32_t y = 0; y < MODS; y++)
		if (y != m && s->newest_first[y] <= p->vc[b].c[y] && all_set(s->written[y], rows, n))
			return true;
	for (size_t j = 0; j < n; j++)
		if (!written_before(p, s, rows[j], b))
			return false;
	return true;
}

/* rows[0..n) (ascending) are the range rows[0] .. rows[0] + n - 1. */
static bool is_range(const uint32_t *rows, size_t n)
{
	return n && rows[n - 1] - rows[0] == n - 1;
}

/* The largest of last[rows[j]]: a loop without branches, over contiguous entries for a
 * range. */
static uint32_t newest_entry(const uint32_t *last, const uint32_t *rows, size_t n)
{
	uint32_t most = 0;
	if (is_range(rows, n)) {
		const uint32_t *l = last + rows[0];
		for (size_t j = 0; j < n; j++)
			most = l[j] > most ? l[j] : most;
	} else {
		for (size_t j = 0; j < n; j++)
			most = last[rows[j]] > most ? last[rows[j]] : most;
	}
	return most;
}

/* The current instruction's accesses of rows[0..n) of a shared space would race: an
 * access of another module unordered with one of them where one of the two writes. */
static bool would_race(pass *p, space_shadow *s, const uint32_t *rows, size_t n, bool write)
{
	uint32_t m = p->module_of[p->now];
	for (uint32_t y = 0; y < MODS; y++) {
		if (y == m || !(s->modules >> y & 1))
			continue;
		const uint32_t *last = s->last[y];
		const uint32_t lim = ordered_limit(p, y);
		if (s->newest[y] <= lim || newest_entry(last, rows, n) <= lim)
			continue; /* every last access by y happens before b, and all before them */
		for (size_t j = 0; j < n; j++) {
			uint32_t e = last[rows[j]];
			if (e <= lim)
				continue; /* its last access happens before b, and all before it */
			if (write || (e & F_WRITE))
				return true;
			unordered(p, s, y, rows[j]);
			for (size_t k = 0; k < p->unordered.n; k++)
				if (p->unordered.v[k] & F_WRITE)
					return true;
		}
	}
	return false;
}

/* The current instruction's accesses of the ascending rows[0..n) of s would find a
 * problem: a read of a row no write happens before (its own earlier writes aside: they only
 * order more writes before it), or a race. */
static bool would_find(pass *p, space_shadow *s, const uint32_t *rows, size_t n, bool write)
{
	if (!write && !all_written_before(p, s, rows, n))
		return true;
	return s->shared && would_race(p, s, rows, n, write);
}

/* What touch() keeps of accesses of rows[0..n) that find nothing, but the log. seen only
 * spares touch() an instruction's repeated accesses: both updates here may repeat. */
static void note_rows(pass *p, space_shadow *s, const uint32_t *rows, size_t n, bool write)
{
	uint32_t b = (uint32_t)p->now, m = p->module_of[b];
	if (write && !all_set(s->written[m], rows, n))
		for (size_t j = 0; j < n; j++)
			if (!has_bit(s->written[m], rows[j]))
				first_write(p, s, &s->rows[rows[j]], rows[j], m, b);
	if (!s->shared)
		return;
	/* own_note's, for many rows: an entry above b << 2 is b's own (no entry is of a later
	 * instruction), which keeps its flags */
	const uint32_t flag = write ? F_WRITE : F_READ, b4 = b << 2;
	uint32_t *last = s->last[m];
	s->newest[m] = b4 | 3u;
	if (is_range(rows, n)) {
		uint32_t *l = last + rows[0];
		for (size_t j = 0; j < n; j++)
			l[j] = (l[j] > b4 ? l[j] : b4) | flag;
		return;
	}
	for (size_t j = 0; j < n; j++) {
		uint32_t *l = &last[rows[j]];
		*l = (*l > b4 ? *l : b4) | flag;
	}
}

/*
 * The uops of a GEMM/ALU at once, when they find nothing: the distinct rows of each index
 * (vta_nest.h), each listed once. What the shadows keep per row does not depend on the
 * order of one instruction's accesses, only the problems found (their order and the uop
 * they name) do. So: false (nothing done) when a uop does not decode, leaves its SRAM or
 * would find a problem, for the uop-by-uop walk to say so in its order; else every distinct
 * row touched once.
 */
static bool walk_nest(pass *p, const vta_insn *in)
{
	vta_nest nest;
	vta_nest_result nr = vta_nest_find(p->nests, &in->loop, p->uop_img, &nest);
	p->nomem |= nr == VTA_NEST_NOMEM;
	if (nr != VTA_NEST_OK)
		return false;
	vta_uop_bounds bounds;
	vta_uop_bounds_of(p->cfg, in, &bounds);
	if (!vta_uop_in_bounds(&bounds, nest.max[0], nest.max[1], nest.max[2]))
		return false;
	unsigned used = 0;
	for (unsigned k = 0; k < p->n_plan; k++) {
		used |= 1u << p->plan[k].which;
		if (!shadow_rows(&p->sp[p->plan[k].space], nest.max[p->plan[k].which] + 1)) {
			p->nomem = true;
			return false;
		}
	}
	nr = vta_nest_rows(p->nests, used, &nest);
	p->nomem |= nr == VTA_NEST_NOMEM;
	if (nr != VTA_NEST_OK)
		return false;
	for (unsigned k = 0; k < p->n_plan; k++) {
		const uop_access *pa = &p->plan[k];
		const uint32_t *rows = nest.rows[pa->which];
		size_t n = nest.n_rows[pa->which];
		if (would_find(p, &p->sp[pa->space], rows, n, pa->write))
			return false;
	}
	/* nothing to find: what touch() would keep */
	for (unsigned k = 0; k < p->n_plan; k++) {
		const uop_access *pa = &p->plan[k];
		const uint32_t *rows = nest.rows[pa->which];
		size_t n = nest.n_rows[pa->which];
		space_shadow *s = &p->sp[pa->space];
		note_rows(p, s, rows, n, pa->write);
		if (s->shared)
			log_rows(p, s, pa->write ? F_WRITE : F_READ, 0, 0, rows, n);
	}
	return true;
}

/* The footprint of the current instruction into the shadows. */
static vta_status walk(pass *p, const vta_insn *in, vta_error *err)
{
	if (in->opcode != VTA_OP_GEMM && in->opcode != VTA_OP_ALU)
		return vta_footprint(p->cfg, in, &p->fps, on_access, p, err);
	/* the uop-by-uop walk spares a call per access */
	const vta_loop *l = &in->loop;
	vta_status st = vta_loop_check(p->cfg, in, err);
	if (st)
		return st;
	/* a loop the engines refuse to run, as they would (vta_ref.c): not walked either */
	uint64_t cycles = vta_cost_uop_cycles(p->cfg, in);
	if (cycles > p->cfg->cycle_budget - p->work_cycles)
		return vta_fail(err, VTA_E_NO_FINISH, "the cycle budget of %llu runs out: %llu "
				"uops need at least %llu cycles after %llu",
				(unsigned long long)p->cfg->cycle_budget,
				(unsigned long long)vta_loop_uops(l),
				(unsigned long long)cycles, (unsigned long long)p->work_cycles);
	p->work_cycles += cycles;
	if ((st = vta_uop_budget_check(p->cfg, in, &p->work_uops, err)))
		return st;
	if (l->iter_out && l->iter_in && l->uop_bgn < l->uop_end) {
		vta_access a = {VTA_SPACE_UOP, false, l->uop_bgn, l->uop_end, VTA_FP_NO_UOP, 0, 0, 1, 0};
		touch(p, &a, false);
	}
	/* the accesses of a uop execution whose indices are 0, 1, 2 tell which index each of
	 * its accesses uses, in vta_uop_accesses' order */
	vta_uop_roles roles;
	vta_uop_roles_of(p->cfg, in, &roles);
	vta_uop_exec probe = {.dst = 0, .src = 1, .wgt = 2};
	vta_access a[VTA_UOP_ACCESSES_MAX];
	p->n_plan = vta_uop_accesses(&roles, &probe, a);
	for (unsigned k = 0; k < p->n_plan; k++) {
		if ((st = make_shadow(p, a[k].space)))
			return st;
		p->plan[k] = (uop_access){a[k].space, a[k].write, (unsigned)a[k].lo};
	}
	if (walk_nest(p, in))
		return p->nomem ? VTA_E_NOMEM : VTA_OK;
	if (p->nomem)
		return VTA_E_NOMEM;
	return vta_footprint_uops(p->cfg, in, p->uop_img, on_uop, p, err);
}

/* What a checked instruction changes that later footprints depend on. */
static void apply(pass *p, const vta_insn *in)
{
	const vta_mem_insn *m = &in->mem;
	if (in->opcode != VTA_OP_LOAD || vta_insn_is_nop(in))
		return;
	if (vta_mem_is_table(m->mem_type)) {
		p->slots[m->lut_slot] = vta_lut_desc_of(m);
	} else if (m->mem_type == VTA_MEM_UOP) {
		const uint64_t eb = p->cfg->sram[VTA_MEM_UOP].elem_bytes;
		for (uint64_t y = 0; y < m->y_size; y++)
			memcpy(p->uop_img + ((uint64_t)m->sram_base + y * m->x_size) * eb,
			       p->dram->bytes + ((uint64_t)m->dram_base + y * m->x_stride) * eb,
			       (size_t)(m->x_size * eb));
	}
}

/* The rows the current instruction accessed one by one into the logs. */
static void log_pending(pass *p)
{
	uint32_t b = (uint32_t)p->now;
	for (int sp = 0; sp < SRAMS; sp++) {
		space_shadow *s = &p->sp[sp];
		for (int w = 0; w < 2 && s->shared; w++) {
			idx_list *l = &s->pending[w];
			/* distinct: a row is pending once per instruction */
			if (!vta_race_log_add_copy(&s->log[p->module_of[b]], b,
						   w ? F_WRITE : F_READ, l->v, l->n))
				p->nomem = true;
			l->n = 0;
		}
	}
}

static void join(vclock *a, const vclock *b)
{
	for (int m = 0; m < MODS; m++)
		if (b->c[m] > a->c[m])
			a->c[m] = b->c[m];
}

/* Instruction idx executes: its pops join the clocks of the pushes they take, its
 * footprint meets the shadows, then its pushes (FINISH's never happen). */
static vta_status execute(pass *p, size_t idx)
{
	const vta_insn *in = &p->insns[idx];
	vta_module m = (vta_module)p->module_of[idx];
	vta_queue pops[2], pushes[2];
	vta_insn_queues(in, m, pops, pushes);
	vclock v = p->cur[m];
	for (int i = 0; i < 2; i++) {
		if (pops[i] < 0)
			continue;
		idx_list *pu = &p->push[pops[i]], *po = &p->pop[pops[i]];
		if (po->n >= pu->n)
			return vta_fail(&p->rule_err, VTA_E_INTERNAL, "insn %zu pops %s without a "
					"token", idx, vta_queue_name(pops[i]));
		join(&v, &p->vc[pu->v[po->n]]);
		idx_push(p, po, (uint32_t)idx);
	}
	v.c[m]++;
	p->cur[m] = v;
	p->vc[idx] = v;
	p->lclock[idx] = v.c[m];
	p->at_clock[(size_t)m * (p->n + 1) + v.c[m]] = (uint32_t)idx;
	p->pos[idx] = p->n_run++;
	p->now = idx;
	vta_error sub;
	vta_error_clear(&sub);
	vta_status st = vta_work_budget_check(p->cfg, idx, p->started, &sub);
	if (!st)
		st = walk(p, in, &sub);
	log_pending(p);
	if (st) {
		p->rule_failed = st != VTA_E_NOMEM;
		p->rule_insn = idx;
		snprintf(p->refused[m], sizeof(p->refused[m]), "%s", sub.detail);
		vta_insn_fail(&p->rule_err, st, NULL, idx, in, "%s", sub.detail);
		return st;
	}
	apply(p, in);
	if (in->opcode != VTA_OP_FINISH)
		for (int i = 0; i < 2; i++)
			if (pushes[i] >= 0)
				idx_push(p, &p->push[pushes[i]], (uint32_t)idx);
	return p->nomem ? VTA_E_NOMEM : VTA_OK;
}

static vta_status sched_exec(void *ctx, size_t idx, const vta_insn *insn)
{
	pass *p = ctx;
	vta_status st = execute(p, idx);
	if (insn->opcode == VTA_OP_FINISH && !st)
		p->finish = idx;
	return st;
}

/* Forget what the instruction the rules refused had recorded: the engine reports it. */
static void drop_failed(pass *p)
{
	uint64_t pos = p->pos[p->rule_insn];
	while (p->n_found && p->f[p->n_found - 1].pos == pos)
		p->n_found--;
	while (p->loads.n && p->loads.s[p->loads.n - 1].insn == p->rule_insn)
		p->loads.n--;
	while (p->stores.n && p->stores.s[p->stores.n - 1].insn == p->rule_insn)
		p->stores.n--;
}

/* Advance the modules not in `stopped` (a mask of 1 << module) as far as their tokens
 * allow, queue capacities aside. Two uses:
 * - after FINISH (to_finish false): the load and store modules go on, so every instruction
 *   that may execute in some timing then has. One the rules refuse stops them; it still
 *   counts as executed (its end-of-run problem).
 * - after the rules refused a load or store instruction (to_finish true, its module
 *   stopped there): can compute reach FINISH without it? Then that instruction is not
 *   ordered before FINISH and whether it ever executes is timing's choice. Another refused
 *   load or store stops its module too; a refused compute instruction ends the attempt
 *   with p->finish unset. */
static vta_status advance(pass *p, unsigned stopped, bool to_finish)
{
	size_t next[MODS] = {0};
	for (size_t i = 0; i < p->n; i++)
		if (p->lclock[i] != NOT_RUN)
			next[p->module_of[i]] = i + 1;
	if (!to_finish)
		stopped |= 1u << VTA_MODULE_COMPUTE;
	bool progress = true;
	while (progress && !(to_finish && p->finish != SIZE_MAX)) {
		progress = false;
		for (int m = 0; m < MODS; m++) {
			if (stopped >> m & 1)
				continue;
			for (;;) {
				while (next[m] < p->n && p->module_of[next[m]] != m)
					next[m]++;
				if (next[m] >= p->n)
					break;
				size_t i = next[m];
				vta_queue pops[2], pushes[2];
				vta_insn_queues(&p->insns[i], (vta_module)m, pops, pushes);
				bool ready = true;
				for (int k = 0; k < 2; k++)
					if (pops[k] >= 0 && p->pop[pops[k]].n >= p->push[pops[k]].n)
						ready = false;
				if (!ready)
					break;
				vta_status st = execute(p, i);
				next[m]++;
				progress = true;
				if (st == VTA_E_NOMEM)
					return st;
				if (st) {
					drop_failed(p);
					p->rule_failed = false;
					if (!to_finish || m == VTA_MODULE_COMPUTE)
						return VTA_OK;
					stopped |= 1u << m;
					break;
				}
				if (p->insns[i].opcode == VTA_OP_FINISH) {
					p->finish = i;
					return VTA_OK;
				}
			}
		}
	}
	return VTA_OK;
}

/* The rules refused load or store instruction p->rule_insn (already dropped): if compute
 * reaches FINISH without it, it is a race with the end of the run and the pass goes on as
 * after any FINISH. Otherwise everything the attempt recorded is forgotten. */
static vta_status finish_without_refused(pass *p)
{
	size_t n_found = p->n_found, n_loads = p->loads.n, n_stores = p->stores.n;
	p->rule_failed = false;
	vta_status st = advance(p, 1u << p->module_of[p->rule_insn], true);
	if (st || p->finish != SIZE_MAX)
		return st;
	p->n_found = n_found;
	p->loads.n = n_loads;
	p->stores.n = n_stores;
	return VTA_OK;
}

/* ---------- after the run ---------- */

static bool hb(const pass *p, size_t a, size_t b)
{
	return p->lclock[a] != NOT_RUN && p->lclock[b] != NOT_RUN &&
	       p->lclock[a] <= p->vc[b].c[p->module_of[a]];
}

static int span_cmp(const void *x, const void *y)
{
	const dram_span *a = x, *b = y;
	return a->lo < b->lo ? -1 : a->lo > b->lo;
}

typedef struct dram_pair {
	uint32_t store, load;
	uint64_t lo, hi;
} dram_pair;

static int pair_cmp(const void *x, const void *y)
{
	const dram_pair *a = x, *b = y;
	if (a->store != b->store)
		return a->store < b->store ? -1 : 1;
	return a->load < b->load ? -1 : a->load > b->load;
}

typedef struct pair_list {
	dram_pair *v;
	size_t n, cap;
} pair_list;

/* The stores (sorted by lo, maxhi their running largest hi) that overlap DRAM bytes
 * [lo, hi) a load reads, into out. */
static vta_status overlaps(const span_list *s, const uint64_t *maxhi, uint64_t lo, uint64_t hi,
			   uint32_t load, pair_list *out)
{
	/* stores starting before the load's end, backwards while one may still reach it */
	size_t a = 0, b = s->n;
	while (a < b) {
		size_t mid = (a + b) / 2;
		if (s->s[mid].lo < hi)
			a = mid + 1;
		else
			b = mid;
	}
	for (size_t j = a; j-- > 0 && maxhi[j] > lo;) {
		const dram_span *w = &s->s[j];
		if (w->hi <= lo)
			continue;
		dram_pair *np = vta_race_grow(out->v, &out->cap, out->n + 1, sizeof(*out->v));
		if (!np)
			return VTA_E_NOMEM;
		out->v = np;
		out->v[out->n++] = (dram_pair){w->insn, load, w->lo > lo ? w->lo : lo,
					       w->hi < hi ? w->hi : hi};
	}
	return VTA_OK;
}

/* Every STORE and LOAD whose DRAM ranges overlap: unordered pairs race; a LOAD UOP after a
 * STORE it reads from is beyond the pass (it knows the DRAM image only). */
static vta_status sweep_dram(pass *p, vta_error *err)
{
	const span_list *strided = &p->stores;
	if (!strided->n || !p->loads.n)
		return VTA_OK;
	/* a load beyond every store is skipped below; when all are (a layer's loads read its
	 * inputs and constants, its stores write its output elsewhere), nothing needs the
	 * stores listed row by row and sorted */
	uint64_t lo_min = UINT64_MAX, hi_max = 0;
	size_t n_rows = 0;
	for (size_t i = 0; i < strided->n; i++) {
		const dram_span *w = &strided->s[i];
		const uint64_t hi = w->hi + (uint64_t)(w->rows - 1) * w->stride;
		lo_min = w->lo < lo_min ? w->lo : lo_min;
		hi_max = hi > hi_max ? hi : hi_max;
		n_rows += w->rows;
	}
	size_t near = 0;
	for (size_t k = 0; k < p->loads.n && !near; k++) {
		const dram_span *l = &p->loads.s[k];
		uint64_t last = (uint64_t)(l->rows - 1) * l->stride;
		near = !(l->hi + last <= lo_min || l->lo >= hi_max);
	}
	if (!near)
		return VTA_OK;
	/* the stores' rows, in the order their footprints reported them */
	span_list rows = {malloc(n_rows * sizeof(dram_span)), n_rows, n_rows};
	uint64_t *maxhi = malloc(n_rows * sizeof(*maxhi));
	pair_list pl = {0};
	if (!rows.s || !maxhi) {
		free(rows.s);
		free(maxhi);
		return VTA_E_NOMEM;
	}
	for (size_t i = 0, j = 0; i < strided->n; i++) {
		const dram_span *w = &strided->s[i];
		for (uint64_t r = 0; r < w->rows; r++)
			rows.s[j++] = (dram_span){w->lo + r * w->stride, w->hi + r * w->stride, 0, 1,
						  w->insn};
	}
	const span_list *s = &rows;
	qsort(s->s, s->n, sizeof(*s->s), span_cmp);
	for (size_t i = 0; i < s->n; i++)
		maxhi[i] = i && maxhi[i - 1] > s->s[i].hi ? maxhi[i - 1] : s->s[i].hi;
	vta_status st = VTA_OK;
	for (size_t k = 0; k < p->loads.n && !st; k++) {
		const dram_span *l = &p->loads.s[k];
		uint64_t last = (uint64_t)(l->rows - 1) * l->stride;
		if (l->hi + last <= s->s[0].lo || l->lo >= maxhi[s->n - 1])
			continue; /* beyond every store: most loads read inputs and weights */
		for (uint64_t r = 0; r < l->rows && !st; r++)
			st = overlaps(s, maxhi, l->lo + r * l->stride, l->hi + r * l->stride,
				      l->insn, &pl);
	}
	free(rows.s);
	dram_pair *pairs = pl.v;
	size_t n_pairs = pl.n;
	free(maxhi);
	if (n_pairs)
		qsort(pairs, n_pairs, sizeof(*pairs), pair_cmp);
	for (size_t i = 0; i < n_pairs && !st;) {
		size_t j = i + 1;
		uint64_t lo = pairs[i].lo, hi = pairs[i].hi;
		for (; j < n_pairs && !pair_cmp(&pairs[i], &pairs[j]); j++) {
			lo = pairs[j].lo < lo ? pairs[j].lo : lo;
			hi = pairs[j].hi > hi ? pairs[j].hi : hi;
		}
		size_t w = pairs[i].store, l = pairs[i].load;
		i = j;
		const vta_insn *li = &p->insns[l];
		if (hb(p, w, l) && li->mem.mem_type == VTA_MEM_UOP) {
			char a[256], b[256];
			vta_disasm_insn(&p->insns[w], a, sizeof(a));
			vta_disasm_insn(li, b, sizeof(b));
			st = vta_fail(err, VTA_E_UNSUPPORTED,
				      "insn %zu (%s) loads micro-ops from DRAM bytes [0x%llx, 0x%llx) "
				      "that insn %zu (%s) stores before it: the stream checks take "
				      "micro-ops from the DRAM image only (--no-check-races skips them)",
				      l, b, (unsigned long long)lo, (unsigned long long)hi, w, a);
			break;
		}
		if (hb(p, w, l) || hb(p, l, w))
			continue;
		size_t first = w < l ? w : l;
		found *r = add_found(p, w < l ? VTA_PROBLEM_RAW : VTA_PROBLEM_WAR, first,
				     w < l ? l : w, p->pos[w] > p->pos[l] ? p->pos[w] : p->pos[l]);
		if (!r) {
			st = VTA_E_NOMEM;
			break;
		}
		r->p.space = VTA_SPACE_DRAM;
		r->p.lo = lo;
		r->p.hi = hi;
	}
	free(pairs);
	return st;
}

/* LOADs and STOREs that move data and are not ordered before FINISH; compute's are, by
 * program order, when they execute at all. */
static void end_of_run(pass *p)
{
	size_t f = p->finish;
	for (size_t i = 0; i < p->n && !p->nomem; i++) {
		const vta_insn *in = &p->insns[i];
		if (p->lclock[i] == NOT_RUN || p->module_of[i] == VTA_MODULE_COMPUTE ||
		    (in->opcode != VTA_OP_LOAD && in->opcode != VTA_OP_STORE) ||
		    vta_insn_is_nop(in) || hb(p, i, f))
			continue;
		found *r = add_found(p, VTA_PROBLEM_END, i, f,
				     p->pos[i] > p->pos[f] ? p->pos[i] : p->pos[f]);
		if (!r)
			return;
		const write_hull *w = &p->wrote[i];
		if (w->lo < w->hi) {
			r->p.space = w->space;
			r->p.lo = w->lo;
			r->p.hi = w->hi;
		} else { /* refused by the rules: its space, rows unknown */
			snprintf(r->p.refused, sizeof(r->p.refused), "%s",
				 p->refused[p->module_of[i]]);
			uint32_t reads, writes;
			vta_footprint_spaces(in, &reads, &writes);
			r->p.space = VTA_SPACE_DRAM;
			for (int s = 0; s < VTA_SPACE_COUNT; s++)
				if (writes >> s & 1) {
					r->p.space = (vta_space)s;
					break;
				}
		}
	}
}

/* Tokens no pop ordered before (or at) FINISH takes, per queue; instructions after it. */
static void warnings(pass *p)
{
	size_t f = p->finish;
	uint64_t last = p->n_run;
	for (int q = 0; q < VTA_QUEUE_COUNT; q++) {
		found *r = NULL;
		for (size_t k = 0; k < p->push[q].n; k++) {
			if (k < p->pop[q].n) {
				uint32_t po = p->pop[q].v[k];
				if (po == f || hb(p, po, f))
					continue;
			}
			if (!r && !(r = add_found(p, VTA_PROBLEM_TOKENS_LEFT, p->push[q].v[k], f,
						  last)))
				return;
			r->p.queue = q;
			r->p.count++;
		}
	}
	for (size_t i = f + 1; i < p->n; i++)
		if (!add_found(p, VTA_PROBLEM_AFTER_FINISH, i, f, last))
			return;
	/* Instructions before FINISH that never execute: FINISH ends the run while the first
	 * of its module waits for a token nobody sends, the others queued behind it. One
	 * problem per module, counting them. */
	size_t at[VTA_MODULE_COUNT];
	for (int m = 0; m < VTA_MODULE_COUNT; m++)
		at[m] = SIZE_MAX;
	for (size_t i = 0; i < f; i++) {
		if (p->lclock[i] != NOT_RUN)
			continue;
		const int m = p->module_of[i];
		if (at[m] == SIZE_MAX) {
			if (!add_found(p, VTA_PROBLEM_NEVER_RUNS, i, f, last))
				return;
			at[m] = p->n_found - 1;
		}
		p->f[at[m]].p.count++;
	}
}

/* ---------- the report ---------- */

const char *vta_problem_kind_name(vta_problem_kind k)
{
	static const char *const names[VTA_PROBLEM_KINDS] = {
		"RAW", "WAR", "WAW", "end of run", "uninit", "tokens left", "after FINISH",
		"never runs"};
	return (unsigned)k < VTA_PROBLEM_KINDS ? names[k] : "?";
}

/* "out rows [0, 16)", "dram bytes [0x4000, 0x4040)", "lut slot 2". */
static void where(char *buf, size_t size, size_t *len, vta_space s, uint64_t lo, uint64_t hi)
{
	const char *unit = s == VTA_SPACE_DRAM ? "bytes" : s == VTA_SPACE_LUT ? "entries"
							 : "rows";
	if (s == VTA_SPACE_LUT_SLOT)
		vta_appendf(buf, size, len, "lut slot %llu", (unsigned long long)lo);
	else if (lo >= hi)
		vta_appendf(buf, size, len, "%s", vta_space_name(s));
	else if (s == VTA_SPACE_DRAM)
		vta_appendf(buf, size, len, "dram bytes [0x%llx, 0x%llx)", (unsigned long long)lo,
			    (unsigned long long)hi);
	else if (hi == lo + 1)
		vta_appendf(buf, size, len, "%s %s %llu", vta_space_name(s),
			    s == VTA_SPACE_LUT ? "entry" : "row", (unsigned long long)lo);
	else
		vta_appendf(buf, size, len, "%s %s [%llu, %llu)", vta_space_name(s), unit,
			    (unsigned long long)lo, (unsigned long long)hi);
}

void vta_problem_format(const vta_problem *p, const vta_insn *insns, char *buf, size_t size)
{
	char a[160], b[160];
	size_t len = 0;
	vta_disasm_insn(&insns[p->first], a, sizeof(a));
	vta_disasm_insn(&insns[p->second], b, sizeof(b));
	const char *ma = vta_module_name(vta_insn_module(&insns[p->first]));
	const char *mb = vta_module_name(vta_insn_module(&insns[p->second]));
	switch (p->kind) {
	case VTA_PROBLEM_RAW:
	case VTA_PROBLEM_WAR:
	case VTA_PROBLEM_WAW:
		vta_appendf(buf, size, &len, "race (%s) on ", vta_problem_kind_name(p->kind));
		where(buf, size, &len, p->space, p->lo, p->hi);
		vta_appendf(buf, size, &len, ": %s insn %zu (%s) %s, %s insn %zu (%s) %s, and no "
			    "token orders them",
			    ma, p->first, a,
			    p->kind == VTA_PROBLEM_WAR ? "reads" : "writes", mb, p->second, b,
			    p->kind == VTA_PROBLEM_RAW ? "reads" : "writes");
		break;
	case VTA_PROBLEM_END:
		vta_appendf(buf, size, &len, "race with the end of the run: %s insn %zu (%s) ",
			    ma, p->first, a);
		if (p->refused[0]) {
			vta_appendf(buf, size, &len, "fails (%s) and no token orders it before "
				    "FINISH (insn %zu): the run may end first or fail there",
				    p->refused, p->second);
			break;
		}
		vta_appendf(buf, size, &len, "writes ");
		where(buf, size, &len, p->space, p->lo, p->hi);
		vta_appendf(buf, size, &len, " and no token orders it before FINISH (insn %zu): "
			    "the run may end first", p->second);
		break;
	case VTA_PROBLEM_UNINIT:
		vta_appendf(buf, size, &len, "insn %zu (%s)", p->first, a);
		if (p->uop != VTA_FP_NO_UOP)
			vta_appendf(buf, size, &len, ": uop %u (it_out %u, it_in %u)", p->uop,
				    p->it_out, p->it_in);
		vta_appendf(buf, size, &len, " reads ");
		where(buf, size, &len, p->space, p->lo, p->hi);
		vta_appendf(buf, size, &len, ", which nothing ordered before it writes in this run");
		if (p->count > 1)
			vta_appendf(buf, size, &len, " (%llu such %s)", (unsigned long long)p->count,
				    p->space == VTA_SPACE_LUT ? "entries" : "rows");
		if (p->space == VTA_SPACE_UOP)
			vta_appendf(buf, size, &len, ": no LOAD UOP put a micro-op there");
		break;
	case VTA_PROBLEM_TOKENS_LEFT:
		vta_appendf(buf, size, &len, "%llu token%s pushed into %s left at FINISH (insn "
			    "%zu): %s insn %zu (%s) pushes the first, and no pop ordered before "
			    "FINISH takes it",
			    (unsigned long long)p->count, p->count == 1 ? "" : "s",
			    vta_queue_name(p->queue), p->second, ma, p->first, a);
		break;
	case VTA_PROBLEM_AFTER_FINISH:
		vta_appendf(buf, size, &len, "insn %zu (%s) comes after FINISH (insn %zu): the run "
			    "ends at FINISH, so it may never execute", p->first, a, p->second);
		break;
	case VTA_PROBLEM_NEVER_RUNS: {
		vta_queue pops[2], pushes[2];
		vta_insn_queues(&insns[p->first], vta_insn_module(&insns[p->first]), pops, pushes);
		vta_appendf(buf, size, &len, "%s insn %zu (%s) never executes", ma, p->first, a);
		if (p->count > 1)
			vta_appendf(buf, size, &len, " (nor %llu %s instruction%s after it)",
				    (unsigned long long)p->count - 1, ma, p->count > 2 ? "s" : "");
		vta_appendf(buf, size, &len, ": the run ends at FINISH (insn %zu) while ", p->second);
		if (pops[0] < 0 && pops[1] < 0) {
			vta_appendf(buf, size, &len, "its module waits for room to push a token");
			break;
		}
		vta_appendf(buf, size, &len, "it waits for a token of ");
		for (int i = 0, k = 0; i < 2; i++)
			if (pops[i] >= 0)
				vta_appendf(buf, size, &len, "%s%s", k++ ? " or " : "",
					    vta_queue_name(pops[i]));
		vta_appendf(buf, size, &len, " that never comes");
		break;
	}
	default: vta_appendf(buf, size, &len, "?"); break;
	}
}

/* In execution order; of the problems one instruction finds, the nearest pair first (the
 * STORE that races with every instruction writing its rows names the last one first). */
static int found_cmp(const void *x, const void *y)
{
	const found *a = x, *b = y;
	if (a->pos != b->pos)
		return a->pos < b->pos ? -1 : 1;
	bool ua = a->p.kind == VTA_PROBLEM_UNINIT, ub = b->p.kind == VTA_PROBLEM_UNINIT;
	if (ua != ub) /* a race explains a read of rows written unordered */
		return ua ? 1 : -1;
	size_t da = a->p.second > a->p.first ? a->p.second - a->p.first : a->p.first - a->p.second;
	size_t db = b->p.second > b->p.first ? b->p.second - b->p.first : b->p.first - b->p.second;
	if (da != db)
		return da < db ? -1 : 1;
	return a->next < b->next ? -1 : a->next > b->next; /* next holds the order found */
}

/* Problems in execution order into the report (and the caller's callback). */
static vta_status report(pass *p, const vta_race_opts *opts, vta_race_report *rep,
			 vta_error *err)
{
	for (size_t i = 0; i < p->n_found; i++)
		p->f[i].next = (uint32_t)i; /* qsort is not stable */
	if (p->n_found > 1) /* p->f is NULL when nothing was found */
		qsort(p->f, p->n_found, sizeof(*p->f), found_cmp);
	vta_status first = VTA_OK;
	for (size_t i = 0; i < p->n_found; i++) {
		const vta_problem *pr = &p->f[i].p;
		if (opts && opts->on_problem)
			opts->on_problem(opts->ctx, pr);
		bool error = vta_problem_is_error(pr->kind);
		if (pr->kind == VTA_PROBLEM_UNINIT)
			rep->uninit_reads++;
		else if (error)
			rep->races++;
		else
			rep->warnings++;
		if (pr->kind == VTA_PROBLEM_TOKENS_LEFT)
			rep->tokens_left += pr->count;
		if (pr->kind == VTA_PROBLEM_AFTER_FINISH)
			rep->after_finish++;
		if (pr->kind == VTA_PROBLEM_NEVER_RUNS)
			rep->never_run += pr->count;
		if (error && rep->n_errors < VTA_RACE_SHOWN)
			vta_problem_format(pr, p->insns, rep->errors[rep->n_errors++],
					   VTA_ERROR_DETAIL_MAX);
		if (!error && rep->n_warnings < VTA_RACE_SHOWN)
			vta_problem_format(pr, p->insns, rep->warning_lines[rep->n_warnings++],
					   VTA_ERROR_DETAIL_MAX);
		if (error && !first) {
			first = pr->kind == VTA_PROBLEM_UNINIT ? VTA_E_UNINIT : VTA_E_RACE;
			vta_fail(err, first, "%s", rep->errors[rep->n_errors - 1]);
		}
	}
	return first;
}

vta_status vta_race_strict(const vta_race_report *rep, vta_error *err)
{
	if (!rep->warnings)
		return VTA_OK;
	return vta_fail(err, VTA_E_WARNING, "--strict: %s (%llu warning%s)",
			rep->warning_lines[0], (unsigned long long)rep->warnings,
			rep->warnings == 1 ? "" : "s");
}

/* ---------- the pass ---------- */

static vta_status setup(pass *p)
{
	size_t n = p->n ? p->n : 1;
	p->insns = malloc(n * sizeof(*p->insns));
	p->module_of = malloc(n);
	p->lclock = calloc(n, sizeof(*p->lclock));
	p->at_clock = malloc((n + 1) * MODS * sizeof(*p->at_clock));
	p->vc = calloc(n, sizeof(*p->vc));
	p->pos = calloc(n, sizeof(*p->pos));
	p->wrote = calloc(n, sizeof(*p->wrote));
	p->pair_stamp = calloc(n, sizeof(*p->pair_stamp));
	p->pair_head = calloc(n, sizeof(*p->pair_head));
	p->uop_img = calloc(p->cfg->sram[VTA_MEM_UOP].depth ? p->cfg->sram[VTA_MEM_UOP].depth : 1,
			    p->cfg->sram[VTA_MEM_UOP].elem_bytes);
	if (!p->insns || !p->module_of || !p->lclock || !p->at_clock || !p->vc || !p->pos || !p->wrote ||
	    !p->pair_stamp || !p->pair_head || !p->uop_img)
		return VTA_E_NOMEM;
	p->fps = (vta_fp_state){.uop_sram = p->uop_img, .slots = p->slots,
				.dram_size = p->dram->size, .dram_runs = true};
	return VTA_OK;
}

/* A space's shadow, with no rows yet (shadow_rows), unless it has one. */
static vta_status make_shadow(pass *p, vta_space s)
{
	space_shadow *sh = &p->sp[s];
	if (sh->rows)
		return VTA_OK;
	sh->depth = vta_space_rows(p->cfg, s);
	sh->n_rows = 0;
	sh->shared = sh->modules & (sh->modules - 1);
	return shadow_rows(sh, 1) ? VTA_OK : VTA_E_NOMEM;
}

/* An array of `old` elements grown to `n`, the new ones zero; NULL when out of memory (the
 * old one kept). */
static void *grow_zeroed(void *a, size_t old, size_t n, size_t elem)
{
	uint8_t *g = realloc(a, (n ? n : 1) * elem);
	if (g && n > old)
		memset(g + old * elem, 0, (n - old) * elem);
	return g;
}

/* The shadow s grown to hold rows [0, hi); false when out of memory, or past its depth
 * (the footprints' checks and vta_uop_in_bounds keep every access within it). */
static bool shadow_rows(space_shadow *s, uint64_t hi)
{
	if (hi <= s->n_rows && s->rows)
		return true;
	if (hi > (s->depth ? s->depth : 1))
		return false;
	uint64_t n = s->n_rows ? s->n_rows : 64;
	while (n < hi)
		n *= 2;
	if (n > s->depth)
		n = s->depth ? s->depth : 1;
	row_state *rows = grow_zeroed(s->rows, s->n_rows, n, sizeof(*rows));
	if (!rows)
		return false;
	s->rows = rows;
	const size_t old_words = s->rows && s->n_rows ? s->n_rows / 64 + 1 : 0;
	for (int m = 0; m < MODS; m++) {
		uint64_t *w = grow_zeroed(s->written[m], s->written[m] ? old_words : 0, n / 64 + 1,
					  sizeof(*w));
		if (!w)
			return false;
		s->written[m] = w;
		if (!s->shared)
			continue;
		uint32_t *l = grow_zeroed(s->last[m], s->last[m] ? s->n_rows : 0, n, sizeof(*l));
		if (!l)
			return false;
		s->last[m] = l;
	}
	s->n_rows = n;
	return true;
}

/* Row shadows of the spaces the stream's instructions may touch (vta_footprint_spaces: a
 * stream without LUT loads leaves the table memory's 8192 rows alone); those two modules of
 * it touch are shared (logs, last accesses). */
static vta_status shadows(pass *p)
{
	for (size_t i = 0; i < p->n; i++) {
		uint32_t reads, writes;
		vta_footprint_spaces(&p->insns[i], &reads, &writes);
		for (int s = 0; s < SRAMS; s++)
			if ((reads | writes) >> s & 1)
				p->sp[s].modules |= 1u << p->module_of[i];
	}
	for (int s = 0; s < SRAMS; s++) {
		vta_status st = p->sp[s].modules ? make_shadow(p, (vta_space)s) : VTA_OK;
		if (st)
			return st;
	}
	/* the rows an index of a uop may name: of the SRAMs its indices address (walk_nest
	 * checks them against their own SRAM first) */
	static const vta_space indexed[] = {VTA_SPACE_WGT, VTA_SPACE_INP, VTA_SPACE_ACC,
					    VTA_SPACE_OUT};
	uint64_t most = 1;
	for (size_t k = 0; k < sizeof(indexed) / sizeof(indexed[0]); k++) {
		const uint64_t rows = vta_space_rows(p->cfg, indexed[k]);
		most = rows > most ? rows : most;
	}
	if (!(p->nests = vta_nest_cache_new(p->cfg, most)))
		return VTA_E_NOMEM;
	return VTA_OK;
}

static void teardown(pass *p)
{
	for (int s = 0; s < SRAMS; s++) {
		for (int m = 0; m < MODS; m++) {
			vta_race_log_free(&p->sp[s].log[m]);
			free(p->sp[s].written[m]);
			free(p->sp[s].last[m]);
		}
		free(p->sp[s].pending[0].v);
		free(p->sp[s].pending[1].v);
		free(p->sp[s].rows);
	}
	vta_nest_cache_free(p->nests);
	free(p->unordered.v);
	free(p->range.v);
	for (int q = 0; q < VTA_QUEUE_COUNT; q++) {
		free(p->push[q].v);
		free(p->pop[q].v);
	}
	free(p->loads.s);
	free(p->stores.s);
	free(p->f);
	free(p->insns);
	free(p->module_of);
	free(p->lclock);
	free(p->at_clock);
	free(p->vc);
	free(p->pos);
	free(p->wrote);
	free(p->pair_stamp);
	free(p->pair_head);
	free(p->uop_img);
}

static vta_status skip(vta_race_report *rep, const vta_error *why)
{
	rep->checked = false;
	rep->skipped = *why;
	return VTA_OK;
}

bool vta_hb_before(const vta_hb *hb, size_t a, size_t b)
{
	return a < hb->n && b < hb->n && hb->lclock[a] != NOT_RUN && hb->lclock[b] != NOT_RUN &&
	       hb->lclock[a] <= hb->vc[b].c[hb->module[a]];
}

void vta_hb_free(vta_hb *hb)
{
	free(hb->module);
	free(hb->lclock);
	free(hb->vc);
	memset(hb, 0, sizeof(*hb));
}

/* The pass's clocks for opts->hb, once it reached a verdict. */
static void export_hb(const pass *p, const vta_race_opts *opts)
{
	if (!opts || !opts->hb)
		return;
	vta_hb *hb = opts->hb;
	hb->module = malloc(p->n ? p->n : 1);
	hb->lclock = malloc((p->n ? p->n : 1) * sizeof(*hb->lclock));
	hb->vc = malloc((p->n ? p->n : 1) * sizeof(*hb->vc));
	if (!hb->module || !hb->lclock || !hb->vc) {
		vta_hb_free(hb);
		return; /* hb->n stays 0: the caller sees nothing was exported */
	}
	hb->n = p->n;
	memcpy(hb->module, p->module_of, p->n);
	memcpy(hb->lclock, p->lclock, p->n * sizeof(*hb->lclock));
	for (size_t i = 0; i < p->n; i++)
		for (int m = 0; m < MODS; m++)
			hb->vc[i].c[m] = p->vc[i].c[m];
}

vta_status vta_race_check(const vta_config *cfg, const vta_program *prog,
			  const vta_dram *dram, const vta_race_opts *opts, vta_race_report *rep,
			  vta_error *err)
{
	memset(rep, 0, sizeof(*rep));
	if (opts && opts->hb)
		memset(opts->hb, 0, sizeof(*opts->hb));
	if (!cfg || !prog || !dram)
		return vta_fail(err, VTA_E_USAGE, "vta_race_check: NULL argument");
	pass P = {.cfg = cfg, .dram = dram, .n = prog->n_insns, .finish = SIZE_MAX,
		  .started = vta_host_now()};
	pass *p = &P;
	vta_status st = VTA_OK;
	vta_error why = {0};
	if (p->n >= MAX_INSNS) {
		vta_fail(&why, VTA_E_USAGE, "%zu instructions: more than the checks handle", p->n);
		return skip(rep, &why);
	}
	if ((st = setup(p)) != VTA_OK)
		goto out;
	if (vta_geometry_check(cfg, &prog->geometry, &why) ||
	    vta_sched_decode(prog, cfg, p->insns, &why)) {
		st = skip(rep, &why);
		goto out;
	}
	for (size_t i = 0; i < p->n; i++)
		p->module_of[i] = (uint8_t)vta_insn_module(&p->insns[i]);
	if ((st = shadows(p)) != VTA_OK)
		goto out;

	st = vta_sched_run(cfg, p->insns, p->n, sched_exec, p, &why);
	if (st == VTA_E_NOMEM || p->nomem)
		goto out;
	if (st && !p->rule_failed) { /* deadlock, no FINISH: the engine's diagnosis */
		st = skip(rep, why.detail[0] ? &why : &p->rule_err);
		goto out;
	}
	if (st) { /* an instruction the rules refuse */
		drop_failed(p);
		why = p->rule_err;
		if (p->module_of[p->rule_insn] != VTA_MODULE_COMPUTE) {
			if ((st = finish_without_refused(p)) != VTA_OK)
				goto out;
			if (p->finish != SIZE_MAX)
				goto finished;
		}
		/* what came before it, else the engine's report */
		if (!p->n_found) {
			st = skip(rep, &why);
			goto out;
		}
		st = sweep_dram(p, err);
		if (!st)
			st = report(p, opts, rep, err);
		rep->checked = true;
		export_hb(p, opts);
		goto out;
	}
finished:
	if ((st = advance(p, 0, false)) != VTA_OK || (st = sweep_dram(p, err)) != VTA_OK)
		goto out;
	end_of_run(p);
	warnings(p);
	if (p->nomem) {
		st = VTA_E_NOMEM;
		goto out;
	}
	rep->checked = true;
	st = report(p, opts, rep, err);
	export_hb(p, opts);
out:
	if (st == VTA_E_NOMEM || (st == VTA_OK && p->nomem))
		st = vta_fail(err, VTA_E_NOMEM, "stream checks: out of memory for %zu "
			      "instructions", p->n);
	teardown(p);
	return st;
}
