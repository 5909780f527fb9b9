/*
 * vta_portable.c - the portability rules of vta_portable.h.
 *
 * One pass over the decoded stream applies the rules an instruction decides alone (and the
 * immediate-operand rule, which replays LOAD UOP into a UOP image: LOAD UOP, GEMM and ALU
 * all run on the compute module, so stream order is their execution order). The STORE
 * rules (hls: reset OUT; fsim: no OUT) then walk the compute module and the STOREs
 * together: for each STORE, the compute instructions that may have run before it are
 * those it does not happen before (vta_race.h's happens-before), a prefix of compute's
 * order that only grows from one STORE to the next. Per ACC row the walk keeps the
 * position and kind of its last write in that prefix.
 */
#include "vta_portable.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vta_alu_ops.h"
#include "vta_footprint.h"
#include "vta_insn.h"
#include "vta_race.h"
#include "vta_rules.h"
#include "vta_sched.h"
#include "vta_text.h"

/* What each target is (docs/isa.md "Where VTA implementations disagree"). */
typedef struct target_facts {
	const char *name, *title;
	bool mul, acc8;
	uint32_t uop_depth;     /* micro-ops its UOP SRAM holds */
	uint32_t imm_operand;   /* vta_imm_operand */
	bool reset_writes_sum;  /* a GEMM reset writes the pre-reset sum to OUT */
	bool out_buffer;        /* STORE reads OUT (not ACC) */
	int32_t shr_min, shr_max; /* SHR amounts it shifts as vtasim does */
	const char *shr_how;
} target_facts;

static const target_facts TARGETS[VTA_TARGET_COUNT] = {
	[VTA_TARGET_HLS] = {"hls", "VTA's HLS design", false, false, 8192, VTA_IMM_OPERAND_DST,
			    true, true, -16, 15, "shifts by the amount's low 5 bits, signed"},
	[VTA_TARGET_CHISEL] = {"chisel", "VTA's Chisel RTL", false, false, 2048,
			       VTA_IMM_OPERAND_SRC, false, true, -31, 31,
			       "shifts by the amount modulo 32"},
	[VTA_TARGET_FSIM] = {"fsim", "VTA's fsim", true, true, 8192, VTA_IMM_OPERAND_DST, false,
			     false, -31, 31, "shifts by the amount as C++ does (undefined past 31)"},
};

const char *vta_target_name(vta_target t)
{
	return t < VTA_TARGET_COUNT ? TARGETS[t].name : "?";
}

const char *vta_target_title(vta_target t)
{
	return t < VTA_TARGET_COUNT ? TARGETS[t].title : "?";
}

vta_status vta_target_parse(const char *name, vta_target *t, vta_error *err)
{
	for (int i = 0; i < VTA_TARGET_COUNT; i++)
		if (name && !strcmp(name, TARGETS[i].name)) {
			*t = (vta_target)i;
			return VTA_OK;
		}
	vta_quoted q;
	return vta_fail(err, VTA_E_USAGE, "unknown target '%s' (hls, chisel or fsim)",
			vta_quote(&q, name ? name : ""));
}

typedef struct check {
	const vta_config *cfg;
	const vta_insn *insns;
	const target_facts *t;
	vta_portable_fn fn;
	void *ctx;
	uint64_t count;
} check;

static void problem(check *c, size_t insn, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void problem(check *c, size_t insn, const char *fmt, ...)
{
	char why[VTA_ERROR_DETAIL_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	c->count++;
	if (!c->fn)
		return;
	vta_error line = {0};
	if (insn == SIZE_MAX)
		vta_fail(&line, VTA_E_UNSUPPORTED, "stream: %s", why);
	else
		vta_insn_fail(&line, VTA_E_UNSUPPORTED, NULL, insn, &c->insns[insn], "%s", why);
	c->fn(c->ctx, insn, line.detail);
}

/* The stream's geometry against VTA's default config (its shipped builds all have it). */
static void check_geometry(check *c)
{
	vta_config vta;
	vta_config_default(&vta);
	vta_geometry mine;
	vta_geometry_from_config(c->cfg, &mine);
	vta_error e = {0};
	if (vta_geometry_check(&vta, &mine, &e) != VTA_OK)
		problem(c, SIZE_MAX, "the config encodes for another geometry than %s's (VTA's "
			"default 1x16x16, micro-op fields of 8192 entries, vta128): %s",
			c->t->title, e.detail);
}

/* An ALU immediate op whose src row differs from its dst row in some uop execution: the
 * first such uop, or false. Micro-ops that do not decode are the engines' to report. */
static bool imm_rows_differ(const check *c, const vta_insn *in, const uint8_t *uop_img,
			    uint32_t *uop, vta_uop *u)
{
	const vta_loop *l = &in->loop;
	if (!l->iter_out || !l->iter_in || l->uop_end > c->cfg->sram[VTA_MEM_UOP].depth)
		return false;
	for (uint32_t k = l->uop_bgn; k < l->uop_end; k++) {
		vta_error e = {0};
		if (vta_uop_decode(c->cfg,
				   uop_img + (uint64_t)k * c->cfg->sram[VTA_MEM_UOP].elem_bytes, u,
				   &e))
			return false;
		if (u->dst != u->src || (l->iter_out > 1 && l->dst_factor_out != l->src_factor_out) ||
		    (l->iter_in > 1 && l->dst_factor_in != l->src_factor_in)) {
			*uop = k;
			return true;
		}
	}
	return false;
}

/* The rules one instruction decides, with the UOP image as LOAD UOP left it so far. */
static void check_insn(check *c, size_t i, const vta_insn *in, const uint8_t *uop_img)
{
	const target_facts *t = c->t;
	const vta_mem_insn *m = &in->mem;
	if (in->opcode == VTA_OP_LOAD && !vta_insn_is_nop(in)) {
		if (vta_mem_is_table(m->mem_type))
			problem(c, i, "a LUT table load: vtasim's LUT decoder, not in %s", t->title);
		else if (m->lut_bw)
			problem(c, i, "a decompressing load (lut_bw %u): vtasim's LUT decoder, not "
				"in %s", m->lut_bw, t->title);
		if (m->mem_type == VTA_MEM_ACC_8BIT && !t->acc8)
			problem(c, i, "LOAD ACC_8BIT (acc8): not in %s", t->title);
		uint64_t end = m->sram_base + vta_load_sram_rows(m);
		if (m->mem_type == VTA_MEM_UOP && end > t->uop_depth)
			problem(c, i, "LOAD UOP writes micro-ops [%u, %llu), beyond the %u of %s's "
				"UOP SRAM", m->sram_base, (unsigned long long)end, t->uop_depth,
				t->title);
	}
	if (in->opcode != VTA_OP_GEMM && in->opcode != VTA_OP_ALU)
		return;
	const vta_loop *l = &in->loop;
	if (l->uop_end > t->uop_depth)
		problem(c, i, "micro-ops [%u, %u) reach beyond the %u of %s's UOP SRAM", l->uop_bgn,
			l->uop_end, t->uop_depth, t->title);
	if (in->opcode != VTA_OP_ALU)
		return;
	const vta_alu_fields *a = &in->alu;
	const vta_alu_op_info *op = vta_alu_op_find(a->op);
	const vta_alu_gate gate = op ? op->gate : VTA_ALU_GATE_NONE;
	if (gate == VTA_ALU_GATE_MUL && !t->mul)
		problem(c, i, "ALU MUL: not in %s", t->title);
	if (gate == VTA_ALU_GATE_TFLITE_EXT)
		problem(c, i, "ALU %s: vtasim's TFLite extension (%s), not in %s", op->name,
			vta_alu_gate_key(gate), t->title);
	if (a->op == VTA_ALU_SHR && a->use_imm && (a->imm < t->shr_min || a->imm > t->shr_max))
		problem(c, i, "ALU SHR by %d: %s %s (amounts %d..%d agree), vtasim clamps it to "
			"31", a->imm, t->title, t->shr_how, t->shr_min, t->shr_max);
	if (l->reset)
		problem(c, i, "ALU with reset=1: %s ignores the bit and runs the op (so does "
			"vtasim); to zero rows use a GEMM reset", t->title);
	uint32_t k;
	vta_uop u;
	if (a->use_imm && t->imm_operand != c->cfg->alu_imm_operand &&
	    imm_rows_differ(c, in, uop_img, &k, &u))
		problem(c, i, "ALU immediate with src != dst (uop %u: dst %u, src %u, or its loop "
			"factors): %s computes op(ACC[%s], imm), this config (alu.imm_operand %s) "
			"op(ACC[%s], imm)",
			k, u.dst, u.src, t->title, vta_imm_operand_name(t->imm_operand),
			vta_imm_operand_name(c->cfg->alu_imm_operand),
			vta_imm_operand_name(c->cfg->alu_imm_operand));
}

/* LOAD UOP into the UOP image (rows within the config's UOP SRAM, DRAM within the image). */
static void replay_uop_load(const vta_config *cfg, const vta_dram *dram, const vta_insn *in,
			    uint8_t *uop_img)
{
	const vta_mem_insn *m = &in->mem;
	if (in->opcode != VTA_OP_LOAD || m->mem_type != VTA_MEM_UOP || vta_insn_is_nop(in) ||
	    vta_load_check(cfg, m, dram->size, NULL) != VTA_OK)
		return;
	const uint64_t eb = cfg->sram[VTA_MEM_UOP].elem_bytes;
	for (uint64_t y = 0; y < m->y_size; y++)
		memcpy(uop_img + ((uint64_t)m->sram_base + y * m->x_size) * eb,
		       dram->bytes + ((uint64_t)m->dram_base + y * m->x_stride) * eb,
		       (size_t)(m->x_size * eb));
}

/* ----- the STORE rules ----- */

enum { W_NONE = 0, W_LOAD, W_CALC, W_RESET }; /* the kind of an ACC row's last write */

typedef struct acc_rows {
	uint8_t *kind;    /* per ACC row */
	uint32_t *by;     /* the instruction that wrote it last */
	uint8_t now_kind; /* of the instruction being applied */
	uint32_t now;
} acc_rows;

static vta_status note_uop(void *ctx, const vta_uop_exec *u)
{
	acc_rows *r = ctx;
	r->kind[u->dst] = r->now_kind;
	r->by[u->dst] = r->now;
	return VTA_OK;
}

/* A compute instruction's ACC writes; false when the rules refuse it (the walk stops: the
 * engines report it). */
static bool apply_compute(const vta_config *cfg, const vta_dram *dram, const vta_insn *in,
			  size_t i, uint8_t *uop_img, acc_rows *r)
{
	const vta_mem_insn *m = &in->mem;
	r->now = (uint32_t)i;
	if (in->opcode == VTA_OP_LOAD && !vta_insn_is_nop(in)) {
		replay_uop_load(cfg, dram, in, uop_img);
		if (m->mem_type != VTA_MEM_ACC && m->mem_type != VTA_MEM_ACC_8BIT)
			return true;
		if (vta_load_check(cfg, m, dram->size, NULL) != VTA_OK)
			return false;
		uint64_t end = m->sram_base + vta_load_sram_rows(m);
		for (uint64_t row = m->sram_base; row < end; row++) {
			r->kind[row] = W_LOAD;
			r->by[row] = (uint32_t)i;
		}
		return true;
	}
	if (in->opcode != VTA_OP_GEMM && in->opcode != VTA_OP_ALU)
		return true;
	r->now_kind = vta_insn_resets(in) ? W_RESET : W_CALC;
	return vta_footprint_uops(cfg, in, uop_img, note_uop, r, NULL) == VTA_OK;
}

static void check_store(check *c, size_t s, const vta_insn *in, const acc_rows *r)
{
	const vta_mem_insn *m = &in->mem;
	const uint64_t lo = m->sram_base, hi = lo + (uint64_t)m->y_size * m->x_size;
	if (hi > c->cfg->sram[VTA_MEM_ACC].depth)
		return; /* the engines refuse it */
	uint64_t first = hi, n = 0;
	const uint8_t bad = c->t->out_buffer ? W_RESET : W_LOAD;
	for (uint64_t row = lo; row < hi; row++)
		if (r->kind[row] == bad && !n++)
			first = row;
	if (!n)
		return;
	if (bad == W_RESET)
		problem(c, s, "STORE of OUT rows a GEMM reset wrote last (%llu of them, first %llu, "
			"by insn %u): %s writes the pre-reset sum to OUT, vtasim zero",
			(unsigned long long)n, (unsigned long long)first, r->by[first], c->t->title);
	else
		problem(c, s, "STORE of OUT rows whose ACC rows a LOAD wrote after their last "
			"GEMM/ALU (%llu of them, first %llu, by insn %u, not ordered after this "
			"STORE): %s has no OUT buffer and stores ACC, vtasim stores OUT",
			(unsigned long long)n, (unsigned long long)first, r->by[first], c->t->title);
}

static vta_status check_stores(check *c, const vta_program *prog, const vta_dram *dram,
			       const vta_insn *insns, vta_error *err)
{
	if (c->t->out_buffer && !c->t->reset_writes_sum)
		return VTA_OK;
	vta_hb hb;
	vta_race_opts opts = {.hb = &hb};
	vta_race_report rep;
	vta_error ignored = {0};
	vta_status st = vta_race_check(c->cfg, prog, dram, &opts, &rep, &ignored);
	if (st == VTA_E_NOMEM)
		return vta_fail(err, st, "%s", ignored.detail);
	if (!rep.checked || hb.n != prog->n_insns) {
		vta_hb_free(&hb);
		return VTA_OK; /* the engines diagnose a stream the checks cannot run */
	}
	const vta_config *cfg = c->cfg;
	acc_rows r = {calloc(cfg->sram[VTA_MEM_ACC].depth, 1),
		      calloc(cfg->sram[VTA_MEM_ACC].depth, sizeof(uint32_t)), 0, 0};
	uint8_t *uop_img = calloc(cfg->sram[VTA_MEM_UOP].depth, cfg->sram[VTA_MEM_UOP].elem_bytes);
	st = r.kind && r.by && uop_img ? VTA_OK
				       : vta_fail(err, VTA_E_NOMEM, "out of memory for %u ACC rows",
						  cfg->sram[VTA_MEM_ACC].depth);
	size_t next = 0; /* the next compute instruction to apply, in stream order */
	bool stopped = false;
	for (size_t s = 0; !st && !stopped && s < hb.n; s++) {
		const vta_insn *in = &insns[s];
		if (hb.module[s] != VTA_MODULE_STORE || !hb.lclock[s] || vta_insn_is_nop(in))
			continue;
		/* every compute instruction this STORE does not happen before may precede it */
		for (; next < hb.n && !stopped; next++) {
			if (hb.module[next] != VTA_MODULE_COMPUTE || !hb.lclock[next])
				continue;
			if (vta_hb_before(&hb, s, next))
				break;
			stopped = !apply_compute(cfg, dram, &insns[next], next, uop_img, &r);
		}
		if (!stopped)
			check_store(c, s, in, &r);
	}
	free(r.kind);
	free(r.by);
	free(uop_img);
	vta_hb_free(&hb);
	return st;
}

vta_status vta_portable_check(const vta_config *cfg, const vta_program *prog,
			      const vta_dram *dram, vta_target target, vta_portable_fn fn,
			      void *ctx, uint64_t *count, vta_error *err)
{
	*count = 0;
	if (!cfg || !prog || !dram || target >= VTA_TARGET_COUNT)
		return vta_fail(err, VTA_E_USAGE, "vta_portable_check: bad argument");
	check c = {cfg, NULL, &TARGETS[target], fn, ctx, 0};
	vta_insn *insns = malloc((prog->n_insns ? prog->n_insns : 1) * sizeof(*insns));
	uint8_t *uop_img = calloc(cfg->sram[VTA_MEM_UOP].depth, cfg->sram[VTA_MEM_UOP].elem_bytes);
	vta_status st = VTA_OK;
	if (!insns || !uop_img)
		st = vta_fail(err, VTA_E_NOMEM, "out of memory for %zu instructions", prog->n_insns);
	if (!st)
		st = vta_sched_decode(prog, cfg, insns, err);
	if (!st) {
		c.insns = insns;
		check_geometry(&c);
		for (size_t i = 0; i < prog->n_insns; i++) {
			check_insn(&c, i, &insns[i], uop_img);
			replay_uop_load(cfg, dram, &insns[i], uop_img);
		}
		st = check_stores(&c, prog, dram, insns, err);
	}
	free(insns);
	free(uop_img);
	*count = c.count;
	return st;
}
