/*
 * vta_footprint.c - the rows and bytes an instruction touches (see vta_footprint.h).
 */
#include "vta_footprint.h"

#include <stdlib.h>

#define BIT(s) (1u << (s))

const char *vta_space_name(vta_space s)
{
	static const char *const others[VTA_SPACE_COUNT - VTA_SRAM_COUNT] = {"lut table",
									     "lut slot", "dram"};
	if (vta_mem_is_sram((unsigned)s))
		return vta_mem_name((vta_mem)s); /* an SRAM space is its SRAM's code */
	return (unsigned)s < VTA_SPACE_COUNT ? others[s - VTA_SRAM_COUNT] : "?";
}

uint64_t vta_space_rows(const vta_config *cfg, vta_space s)
{
	if (vta_mem_is_sram((unsigned)s))
		return cfg->sram[s].depth;
	switch (s) {
	case VTA_SPACE_LUT: return cfg->lut_depth;
	case VTA_SPACE_LUT_SLOT: return VTA_LUT_SLOTS;
	default: return 0;
	}
}

/* The space a LOAD of memory type `mem` (a defined one: the rules checked it) writes. */
static vta_space load_target(uint32_t mem)
{
	return vta_mem_info_of(mem)->space;
}

static vta_status emit(vta_access_fn fn, void *ctx, vta_space space, bool write, uint64_t lo,
		       uint64_t hi)
{
	if (lo >= hi)
		return VTA_OK;
	vta_access a = {space, write, lo, hi, VTA_FP_NO_UOP, 0, 0, 1, 0};
	return fn(ctx, &a);
}

/* The DRAM rows of a 2D transfer of `eb`-byte elements, rows that touch or overlap merged
 * (row addresses only grow: x_stride is unsigned). */
static vta_status emit_dram(vta_access_fn fn, void *ctx, const vta_mem_insn *m, uint32_t eb,
			    bool write, bool runs)
{
	uint64_t len = (uint64_t)m->x_size * eb, lo = 0, hi = 0;
	const uint64_t stride = (uint64_t)m->x_stride * eb;
	if (runs && m->y_size > 1 && stride > len && len) { /* rows apart: one strided access */
		vta_access a = {VTA_SPACE_DRAM, write, (uint64_t)m->dram_base * eb,
				(uint64_t)m->dram_base * eb + len, VTA_FP_NO_UOP, 0, 0, m->y_size,
				stride};
		return fn(ctx, &a);
	}
	for (uint64_t y = 0; y < m->y_size; y++) {
		uint64_t a = ((uint64_t)m->dram_base + y * m->x_stride) * eb;
		if (y > 0 && a <= hi) {
			hi = a + len > hi ? a + len : hi;
			continue;
		}
		vta_status st = y > 0 ? emit(fn, ctx, VTA_SPACE_DRAM, write, lo, hi) : VTA_OK;
		if (st)
			return st;
		lo = a;
		hi = a + len;
	}
	return m->y_size ? emit(fn, ctx, VTA_SPACE_DRAM, write, lo, hi) : VTA_OK;
}

static vta_status load_footprint(const vta_config *cfg, const vta_mem_insn *m,
				 const vta_fp_state *st, vta_access_fn fn, void *ctx,
				 vta_error *err)
{
	vta_status s = vta_load_check(cfg, m, st->dram_size, err);
	if (s)
		return s;
	vta_space target = load_target(m->mem_type);
	uint64_t rows = vta_load_sram_rows(m);
	if (m->lut_bw) {
		const vta_lut_desc *d = &st->slots[m->lut_slot];
		if ((s = vta_lut_use_check(cfg, m, d, err)))
			return s;
		uint64_t first = d->channels > 1 ? m->lut_chan : 0;
		uint64_t count = d->channels > 1 ? (uint64_t)vta_lut_run_blocks(m) *
							   vta_lut_row_channels(cfg, (vta_mem)m->mem_type)
						 : 1;
		if ((s = emit(fn, ctx, VTA_SPACE_LUT_SLOT, false, m->lut_slot, m->lut_slot + 1u)) ||
		    (s = emit(fn, ctx, VTA_SPACE_LUT, false, d->base + first * d->stride,
			      d->base + (first + count) * d->stride)))
			return s;
	}
	if ((s = emit_dram(fn, ctx, m, vta_load_elem_bytes(cfg, m), false, st->dram_runs)) ||
	    (s = emit(fn, ctx, target, true, m->sram_base, m->sram_base + rows)))
		return s;
	if (vta_mem_is_table(m->mem_type))
		s = emit(fn, ctx, VTA_SPACE_LUT_SLOT, true, m->lut_slot, m->lut_slot + 1u);
	return s;
}

static vta_status store_footprint(const vta_config *cfg, const vta_mem_insn *m,
				  const vta_fp_state *st, vta_access_fn fn, void *ctx,
				  vta_error *err)
{
	vta_status s = vta_store_check(cfg, m, st->dram_size, err);
	if (s)
		return s;
	uint64_t rows = (uint64_t)m->y_size * m->x_size;
	if ((s = emit(fn, ctx, VTA_SPACE_OUT, false, m->sram_base, m->sram_base + rows)))
		return s;
	return emit_dram(fn, ctx, m, cfg->sram[VTA_MEM_OUT].elem_bytes, true, st->dram_runs);
}

void vta_uop_roles_of(const vta_config *cfg, const vta_insn *insn, vta_uop_roles *r)
{
	bool alu = insn->opcode == VTA_OP_ALU, reset = vta_insn_resets(insn);
	bool imm_src = vta_alu_imm_reads_src(cfg, insn);
	r->reads_dst = !reset && !imm_src;
	r->reads_wgt = !reset && !alu;
	r->src_space = reset || (alu && insn->alu.use_imm && !imm_src) ? VTA_SPACE_COUNT
			: alu ? VTA_SPACE_ACC : VTA_SPACE_INP;
}

vta_status vta_footprint_uops(const vta_config *cfg, const vta_insn *insn,
			      const uint8_t *uop_sram, vta_uop_fn fn, void *ctx, vta_error *err)
{
	const vta_loop *l = &insn->loop;
	vta_status s = vta_loop_check(cfg, insn, err);
	if (s)
		return s;
	uint32_t n = l->uop_end - l->uop_bgn;
	if (n == 0 || l->iter_out == 0 || l->iter_in == 0)
		return VTA_OK;
	/* the UOP SRAM does not change during an instruction: decode its uops once; the
	 * first that does not decode fails when the loop reaches it */
	vta_uop *uops = malloc((size_t)n * sizeof(*uops));
	if (!uops)
		return vta_fail(err, VTA_E_NOMEM, "out of memory for %u uops", n);
	uint32_t decoded = 0;
	vta_error bad = {0};
	while (decoded < n &&
	       vta_uop_decode(cfg,
			      uop_sram +
				      (size_t)(l->uop_bgn + decoded) *
					      cfg->sram[VTA_MEM_UOP].elem_bytes,
			      &uops[decoded], &bad) == VTA_OK)
		decoded++;
	vta_uop_bounds b;
	vta_uop_bounds_of(cfg, insn, &b);
	for (uint32_t o = 0; o < l->iter_out && !s; o++) {
		for (uint32_t i = 0; i < l->iter_in && !s; i++) {
			uint64_t dst = (uint64_t)o * l->dst_factor_out + (uint64_t)i * l->dst_factor_in;
			uint64_t src = (uint64_t)o * l->src_factor_out + (uint64_t)i * l->src_factor_in;
			uint64_t wgt = (uint64_t)o * l->wgt_factor_out + (uint64_t)i * l->wgt_factor_in;
			for (uint32_t k = 0; k < n && !s; k++) {
				if (k == decoded) {
					s = vta_fail(err, VTA_E_STREAM, "uop %u: %s",
						     l->uop_bgn + k, bad.detail);
					break;
				}
				vta_uop_exec u = {.uop = l->uop_bgn + k, .it_out = o, .it_in = i,
						  .dst = uops[k].dst + dst, .src = uops[k].src + src,
						  .wgt = uops[k].wgt + wgt};
				if (!vta_uop_in_bounds(&b, u.dst, u.src, u.wgt))
					s = vta_uop_oob_fail(&b, u.uop, o, i, u.dst, u.src, u.wgt,
							     err);
				else
					s = fn(ctx, &u);
			}
		}
	}
	free(uops);
	return s;
}

/* vta_footprint_uops' callback for vta_footprint: one uop execution as accesses. */
typedef struct uop_expand {
	vta_access_fn fn;
	void *ctx;
	vta_uop_roles roles;
} uop_expand;

static vta_status expand_uop(void *ctx, const vta_uop_exec *u)
{
	const uop_expand *x = ctx;
	vta_access a[VTA_UOP_ACCESSES_MAX];
	unsigned n = vta_uop_accesses(&x->roles, u, a);
	for (unsigned k = 0; k < n; k++) {
		vta_status s = x->fn(x->ctx, &a[k]);
		if (s)
			return s;
	}
	return VTA_OK;
}

vta_status vta_footprint(const vta_config *cfg, const vta_insn *insn, const vta_fp_state *st,
			 vta_access_fn fn, void *ctx, vta_error *err)
{
	if (vta_insn_is_nop(insn))
		return VTA_OK;
	switch (insn->opcode) {
	case VTA_OP_LOAD: return load_footprint(cfg, &insn->mem, st, fn, ctx, err);
	case VTA_OP_STORE: return store_footprint(cfg, &insn->mem, st, fn, ctx, err);
	case VTA_OP_GEMM:
	case VTA_OP_ALU: {
		vta_status s = vta_loop_check(cfg, insn, err);
		const vta_loop *l = &insn->loop;
		if (!s && l->iter_out && l->iter_in)
			s = emit(fn, ctx, VTA_SPACE_UOP, false, l->uop_bgn, l->uop_end);
		if (s)
			return s;
		uop_expand x = {.fn = fn, .ctx = ctx};
		vta_uop_roles_of(cfg, insn, &x.roles);
		return vta_footprint_uops(cfg, insn, st->uop_sram, expand_uop, &x, err);
	}
	default: return VTA_OK;
	}
}

void vta_footprint_spaces(const vta_insn *insn, uint32_t *reads, uint32_t *writes)
{
	*reads = *writes = 0;
	if (vta_insn_is_nop(insn))
		return;
	const vta_mem_insn *m = &insn->mem;
	switch (insn->opcode) {
	case VTA_OP_LOAD:
		*reads = BIT(VTA_SPACE_DRAM);
		if (m->mem_type >= VTA_MEM_COUNT || m->mem_type == VTA_MEM_OUT)
			return; /* refused by the rules: touches nothing */
		*writes = BIT(load_target(m->mem_type));
		if (vta_mem_is_table(m->mem_type))
			*writes |= BIT(VTA_SPACE_LUT_SLOT);
		else if (m->lut_bw)
			*reads |= BIT(VTA_SPACE_LUT) | BIT(VTA_SPACE_LUT_SLOT);
		return;
	case VTA_OP_STORE:
		*reads = BIT(VTA_SPACE_OUT);
		*writes = BIT(VTA_SPACE_DRAM);
		return;
	case VTA_OP_GEMM:
	case VTA_OP_ALU: {
		/* the spaces do not depend on alu.imm_operand (an ALU reads ACC either way) */
		static const vta_config dst_operand = {.alu_imm_operand = VTA_IMM_OPERAND_DST};
		vta_uop_roles r;
		vta_uop_roles_of(&dst_operand, insn, &r);
		*reads = BIT(VTA_SPACE_UOP) | (r.reads_dst ? BIT(VTA_SPACE_ACC) : 0) |
			 (r.reads_wgt ? BIT(VTA_SPACE_WGT) : 0) |
			 (r.src_space != VTA_SPACE_COUNT ? BIT(r.src_space) : 0);
		*writes = BIT(VTA_SPACE_ACC) | BIT(VTA_SPACE_OUT);
		return;
	}
	default: return;
	}
}
