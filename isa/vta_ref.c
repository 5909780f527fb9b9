/*
 * vta_ref.c - the untimed reference executor of the VTA ISA (the oracle the SystemC model
 * is held to). Written for clarity, not speed. What each instruction does (NOPs, LOAD with
 * its padding, STORE, the GEMM/ALU loop nest, the ALU operations, the ACC write hazard, LUT
 * tables and decompressing loads) is specified in docs/isa.md "Execution semantics" and
 * "LUT decompression"; the SystemC model implements the same rules. Below: how this file
 * applies them.
 *
 * Stream checks. Before anything executes, every instruction is decoded and its dependency
 * flags are checked against the module that runs it (load: no *_prev, store: no *_next), in
 * program order; the first bad instruction fails the run. Checks that depend on an
 * instruction's operands (memory types, padding, bounds, uops, hazards, ALU features) are
 * made when it executes, before it changes any state, so an instruction after FINISH is
 * decoded and flag-checked (vta_sched_decode) but never executed.
 *
 * Scheduling: FETCH, the modules and their tokens are vta_sched.c's; this file executes
 * each instruction when the scheduler says so. Operand checks are vta_rules.c's.
 *
 * GEMM/ALU: vta_loop_check before the loop (with the cycle budget), then per uop its
 * decoding, vta_rules.h's bounds and the hazard rule over a ring of the rows the previous
 * D uops wrote.
 *
 * Cycle budget. The reference has no time, but a GEMM/ALU instruction may legally ask for
 * ~2^41 uops. It keeps a lower bound of the cycles the stream needs (uops x gemm_ii,
 * alu_ii or alu_imm_ii) and fails with VTA_E_NO_FINISH before executing an instruction that
 * would push the bound beyond cfg->cycle_budget: the timed model would run out too.
 *
 * Arithmetic is done on uint32_t/uint64_t so wrap-around is defined; lanes are stored
 * little-endian as documented in vta_ref.h. An ALU lane is the ISA's definition of its op
 * (vta_alu_lane, vta_alu_ops.h), which the model's vector kernels and the RTL lane are
 * held to; the loops, the GEMM arithmetic and the data movement here are this file's own.
 */
#include "vta_ref.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vta_alu_ops.h"
#include "vta_asm.h"
#include "vta_bytes.h"
#include "vta_cost.h"
#include "vta_insn.h"
#include "vta_limits.h"
#include "vta_rules.h"
#include "vta_sched.h"

#define SRAM_COUNT 5  /* UOP, WGT, INP, ACC, OUT: indexed by vta_mem */

struct vta_ref {
	vta_engine engine; /* first: vta_ref_engine() hands out its address */
	vta_config cfg;
	uint8_t *sram[SRAM_COUNT];
	size_t sram_size[SRAM_COUNT];
	size_t row_bytes[SRAM_COUNT];
	uint32_t *lut_table;                 /* the decoder's table memory, lut_depth entries */
	vta_lut_desc lut_slots[VTA_LUT_SLOTS]; /* its descriptors */
	vta_ref_counters counters;
};

/* State of one run. */
typedef struct run {
	vta_ref *ref;
	const vta_config *cfg;
	vta_dram *dram;
	vta_error *err;
	uint64_t work_cycles; /* lower bound of the cycles executed so far */
	uint64_t work_uops;   /* GEMM/ALU uops so far, for the uop budget */
	double started;       /* vta_host_now() at the start, for timing.host_seconds */
} run;

/* ---------- small helpers ---------- */

/* Two's complement reinterpretations without implementation-defined conversions. */
static int32_t s32(uint32_t v)
{
	return v <= 0x7fffffffu ? (int32_t)v : -(int32_t)(~v) - 1;
}

static int32_t s8(uint8_t v)
{
	return v < 128 ? (int32_t)v : (int32_t)v - 256;
}

/* Fail with "insn N (<disassembly>): " and a rule's detail. */
static vta_status rule_fail(run *r, size_t idx, const vta_insn *insn, const vta_error *sub)
{
	return vta_insn_fail(r->err, sub->status, NULL, idx, insn, "%s", sub->detail);
}

/* ---------- LOAD and STORE ---------- */

/* A checked LOAD of lut/lut32: table entries, then the descriptor. */
static void exec_table_load(run *r, const vta_mem_insn *m)
{
	vta_ref *ref = r->ref;
	bool wide = m->mem_type == VTA_MEM_LUT32;
	uint32_t eb = wide ? 4u : 1u;
	for (uint64_t y = 0; y < m->y_size; y++) {
		const uint8_t *s = r->dram->bytes + ((uint64_t)m->dram_base + y * m->x_stride) * eb;
		for (uint64_t x = 0; x < m->x_size; x++)
			ref->lut_table[m->sram_base + y * m->x_size + x] =
				wide ? vta_le32_get(s + 4 * x) : (uint32_t)s8(s[x]);
	}
	ref->lut_slots[m->lut_slot] = vta_lut_desc_of(m);
	uint64_t bytes = vta_cost_dma_bytes(r->cfg, m);
	ref->counters.load_bytes[m->mem_type] += bytes;
	ref->counters.lut_table_loads++;
	ref->counters.lut_table_bytes += bytes;
}

/* Index `lane` of a packed row: bits [lane*bw, lane*bw + bw) of the row's string, the
 * first bit being the most significant bit of the first byte and of the index. */
static uint32_t packed_index(const uint8_t *row, uint32_t lane, uint32_t bw)
{
	uint32_t v = 0;
	for (uint32_t b = 0; b < bw; b++) {
		uint64_t bit = (uint64_t)lane * bw + b;
		v = v << 1 | ((row[bit / 8] >> (7 - bit % 8)) & 1u);
	}
	return v;
}

/* The channel of lane L of an SRAM row in the blocked layouts: WGT [block_out][block_in]
 * (the output channel), ACC [batch][block_out], INP [batch][block_in]. */
static uint32_t lane_channel(const vta_config *cfg, vta_mem mem, uint32_t lane)
{
	switch (mem) {
	case VTA_MEM_WGT: return lane / cfg->block_in;
	case VTA_MEM_ACC: return lane % cfg->block_out;
	default: return lane % cfg->block_in;
	}
}

/* A checked decompressing LOAD: decode every row into a scratch copy, then write the SRAM,
 * so a bad index leaves the SRAM untouched. */
static vta_status exec_lut_load(run *r, size_t idx, const vta_insn *insn)
{
	vta_ref *ref = r->ref;
	const vta_config *cfg = r->cfg;
	const vta_mem_insn *m = &insn->mem;
	vta_mem mem = (vta_mem)m->mem_type;
	const vta_lut_desc *slot = &ref->lut_slots[m->lut_slot];
	vta_error sub = {0};
	if (vta_lut_use_check(cfg, m, slot, &sub) != VTA_OK)
		return rule_fail(r, idx, insn, &sub);
	uint32_t lanes = vta_lut_lanes(cfg, mem);
	uint32_t real_lanes = vta_lut_real_lanes(cfg, m);
	uint32_t packed = vta_load_elem_bytes(cfg, m);
	size_t row_bytes = ref->row_bytes[mem];
	uint64_t rows = (uint64_t)m->y_size * m->x_size;
	uint8_t *out = malloc((size_t)rows * row_bytes);
	if (!out)
		return vta_insn_fail(r->err, VTA_E_NOMEM, NULL, idx, insn,
				     "out of memory decoding %llu rows", (unsigned long long)rows);
	for (uint64_t y = 0; y < m->y_size; y++) {
		const uint64_t chan0 = vta_lut_row_chan(cfg, m, y);
		for (uint64_t x = 0; x < m->x_size; x++) {
			uint64_t row = y * m->x_size + x;
			const uint8_t *s = r->dram->bytes +
					   ((uint64_t)m->dram_base + y * m->x_stride + x) * packed;
			for (uint32_t l = 0; l < lanes; l++) {
				uint8_t *d = out + row * row_bytes;
				uint32_t real;
				if (!vta_lut_fill_lane(cfg, m, chan0, l, &real)) {
					d[l] = 0; /* zero-lane fill: outside the row's groups */
					continue;
				}
				uint32_t index = packed_index(s, real, m->lut_bw);
				if (index >= slot->stride) {
					free(out);
					vta_lut_index_fail(index, row * real_lanes + real, slot->stride,
							   &sub);
					return rule_fail(r, idx, insn, &sub);
				}
				uint64_t table = slot->channels > 1
							 ? chan0 + lane_channel(cfg, mem, l)
							 : 0;
				uint32_t v = ref->lut_table[slot->base + table * slot->stride + index];
				if (mem == VTA_MEM_ACC)
					vta_le_put(d + 4 * l, 4, v);
				else
					d[l] = (uint8_t)v;
			}
		}
	}
	memcpy(ref->sram[mem] + (size_t)m->sram_base * row_bytes, out, (size_t)rows * row_bytes);
	free(out);
	uint64_t bytes = vta_cost_dma_bytes(cfg, m);
	ref->counters.load_bytes[mem] += bytes;
	ref->counters.lut_index_bytes += bytes;
	ref->counters.lut_elements += rows * real_lanes;
	return VTA_OK;
}

static vta_status exec_load(run *r, size_t idx, const vta_insn *insn)
{
	const vta_config *cfg = r->cfg;
	const vta_mem_insn *m = &insn->mem;
	if (vta_insn_is_nop(insn))
		return VTA_OK;
	vta_error sub = {0};
	if (vta_load_check(cfg, m, r->dram->size, &sub) != VTA_OK)
		return rule_fail(r, idx, insn, &sub);
	if (vta_mem_is_table(m->mem_type)) {
		exec_table_load(r, m);
		return VTA_OK;
	}
	if (m->lut_bw)
		return exec_lut_load(r, idx, insn);

	vta_mem mem = (vta_mem)m->mem_type;
	vta_mem target = vta_mem_sram_of(mem); /* ACC_8BIT: ACC */
	uint32_t dram_eb = vta_config_dram_elem_bytes(cfg, mem);
	size_t sram_eb = r->ref->row_bytes[target];
	uint64_t width = (uint64_t)m->x_pad_0 + m->x_size + m->x_pad_1;
	uint64_t rows = (uint64_t)m->y_pad_0 + m->y_size + m->y_pad_1;
	uint8_t *sram = r->ref->sram[target];
	memset(sram + (size_t)m->sram_base * sram_eb, 0, (size_t)(rows * width) * sram_eb);
	for (uint64_t row = 0; row < m->y_size; row++) {
		uint64_t dst = m->sram_base + (m->y_pad_0 + row) * width + m->x_pad_0;
		uint64_t src = ((uint64_t)m->dram_base + row * m->x_stride) * dram_eb;
		uint8_t *d = sram + (size_t)dst * sram_eb;
		const uint8_t *s = r->dram->bytes + src;
		if (mem == VTA_MEM_ACC_8BIT) {
			/* int8 lanes widen to int32 ACC lanes */
			for (uint64_t lane = 0; lane < (uint64_t)m->x_size * dram_eb; lane++)
				vta_le_put(d + 4 * lane, 4, (uint32_t)s8(s[lane]));
		} else {
			memcpy(d, s, (size_t)m->x_size * sram_eb);
		}
	}
	r->ref->counters.load_bytes[mem] += vta_cost_dma_bytes(cfg, m);
	return VTA_OK;
}

static vta_status exec_store(run *r, size_t idx, const vta_insn *insn)
{
	const vta_config *cfg = r->cfg;
	const vta_mem_insn *m = &insn->mem;
	if (vta_insn_is_nop(insn))
		return VTA_OK;
	vta_error sub = {0};
	if (vta_store_check(cfg, m, r->dram->size, &sub) != VTA_OK)
		return rule_fail(r, idx, insn, &sub);
	uint32_t eb = cfg->sram[VTA_MEM_OUT].elem_bytes;
	for (uint64_t row = 0; row < m->y_size; row++) {
		uint64_t src = (m->sram_base + row * m->x_size) * eb;
		uint64_t dst = ((uint64_t)m->dram_base + row * m->x_stride) * eb;
		memcpy(r->dram->bytes + dst, r->ref->sram[VTA_MEM_OUT] + src,
		       (size_t)m->x_size * eb);
	}
	r->ref->counters.store_bytes += vta_cost_dma_bytes(cfg, m);
	return VTA_OK;
}

/* ---------- GEMM and ALU ---------- */

static void gemm_uop(vta_ref *ref, uint64_t acc, uint64_t inp, uint64_t wgt)
{
	const vta_config *cfg = &ref->cfg;
	uint8_t *acc_row = ref->sram[VTA_MEM_ACC] + acc * ref->row_bytes[VTA_MEM_ACC];
	uint8_t *out_row = ref->sram[VTA_MEM_OUT] + acc * ref->row_bytes[VTA_MEM_OUT];
	const uint8_t *inp_row = ref->sram[VTA_MEM_INP] + inp * ref->row_bytes[VTA_MEM_INP];
	const uint8_t *wgt_row = ref->sram[VTA_MEM_WGT] + wgt * ref->row_bytes[VTA_MEM_WGT];
	for (unsigned b = 0; b < cfg->batch; b++) {
		for (unsigned o = 0; o < cfg->block_out; o++) {
			uint32_t sum = 0;
			for (unsigned k = 0; k < cfg->block_in; k++)
				sum += (uint32_t)(s8(inp_row[b * cfg->block_in + k]) *
						  s8(wgt_row[o * cfg->block_in + k]));
			size_t lane = (size_t)b * cfg->block_out + o;
			uint32_t v = vta_le32_get(acc_row + 4 * lane) + sum;
			vta_le_put(acc_row + 4 * lane, 4, v);
			out_row[lane] = (uint8_t)v;
		}
	}
}

/* ACC[dst] = op(a, b): a is ACC[dst], or ACC[src] for an immediate op when a_is_src
 * (alu.imm_operand src); b is the immediate or ACC[src]. */
static void alu_uop(vta_ref *ref, const vta_alu_fields *alu, bool a_is_src, uint64_t dst,
		    uint64_t src)
{
	size_t lanes = (size_t)ref->cfg.batch * ref->cfg.block_out;
	uint8_t *dst_row = ref->sram[VTA_MEM_ACC] + dst * ref->row_bytes[VTA_MEM_ACC];
	const uint8_t *src_row = ref->sram[VTA_MEM_ACC] + src * ref->row_bytes[VTA_MEM_ACC];
	const uint8_t *a_row = a_is_src ? src_row : dst_row;
	uint8_t *out_row = ref->sram[VTA_MEM_OUT] + dst * ref->row_bytes[VTA_MEM_OUT];
	for (size_t l = 0; l < lanes; l++) {
		int32_t a = s32(vta_le32_get(a_row + 4 * l));
		int32_t b = alu->use_imm ? alu->imm : s32(vta_le32_get(src_row + 4 * l));
		uint32_t v = (uint32_t)vta_alu_lane(alu->op, a, b);
		vta_le_put(dst_row + 4 * l, 4, v);
		out_row[l] = (uint8_t)v;
	}
}

static void reset_uop(vta_ref *ref, uint64_t dst)
{
	memset(ref->sram[VTA_MEM_ACC] + dst * ref->row_bytes[VTA_MEM_ACC], 0,
	       ref->row_bytes[VTA_MEM_ACC]);
	memset(ref->sram[VTA_MEM_OUT] + dst * ref->row_bytes[VTA_MEM_OUT], 0,
	       ref->row_bytes[VTA_MEM_OUT]);
}

/* Checks made once per GEMM/ALU instruction, before its first uop. */
static vta_status check_loop(run *r, size_t idx, const vta_insn *insn)
{
	const vta_config *cfg = r->cfg;
	const vta_loop *l = &insn->loop;
	vta_error sub = {0};
	if (vta_loop_check(cfg, insn, &sub) != VTA_OK)
		return rule_fail(r, idx, insn, &sub);
	uint64_t uops = vta_loop_uops(l);
	uint64_t cycles = vta_cost_uop_cycles(cfg, insn);
	if (cycles > cfg->cycle_budget - r->work_cycles)
		return vta_insn_fail(r->err, VTA_E_NO_FINISH, NULL, idx, insn,
				     "the cycle budget of %llu runs out: %llu uops need at least %llu "
				     "cycles after %llu",
				     (unsigned long long)cfg->cycle_budget, (unsigned long long)uops,
				     (unsigned long long)cycles, (unsigned long long)r->work_cycles);
	r->work_cycles += cycles;
	if (vta_uop_budget_check(cfg, insn, &r->work_uops, &sub) != VTA_OK)
		return rule_fail(r, idx, insn, &sub);
	return VTA_OK;
}

/* Uop number t of an instruction writes ACC row dst: the WAW rule, over a ring of the rows
 * the previous D uops wrote (slot t % D). */
static vta_status check_hazard(run *r, size_t idx, const vta_insn *insn, uint64_t *ring, uint64_t t,
			       uint64_t dst, uint32_t upc, uint32_t it_out, uint32_t it_in)
{
	const uint32_t dist = r->cfg->acc_dep_distance;
	if (dist == 0)
		return VTA_OK;
	uint64_t gap = 0; /* to the row's latest write among the previous D uops */
	for (uint64_t k = 1; k <= dist && k <= t && !gap; k++)
		if (ring[(t - k) % dist] == dst)
			gap = k;
	if (vta_acc_hazard(gap, dist)) {
		vta_error sub = {0};
		vta_acc_hazard_fail(dst, gap, dist, upc, it_out, it_in, &sub);
		return rule_fail(r, idx, insn, &sub);
	}
	ring[t % dist] = dst;
	return VTA_OK;
}

static vta_status exec_loop(run *r, size_t idx, const vta_insn *insn, bool is_alu)
{
	vta_ref *ref = r->ref;
	const vta_config *cfg = r->cfg;
	const vta_loop *l = &insn->loop;
	vta_status st = check_loop(r, idx, insn);
	if (st != VTA_OK)
		return st;

	uint64_t ring[VTA_ACC_HAZARD_MAX] = {0}; /* ACC rows written by the last D uops */
	uint64_t t = 0;			 /* uops executed by this instruction */
	const bool imm_src = vta_alu_imm_reads_src(cfg, insn);
	vta_uop_bounds bounds;
	vta_uop_bounds_of(cfg, insn, &bounds);

	for (uint32_t o = 0; o < l->iter_out; o++) {
		for (uint32_t i = 0; i < l->iter_in; i++) {
			for (uint32_t upc = l->uop_bgn; upc < l->uop_end; upc++) {
				vta_uop uop;
				vta_error sub = {0};
				const uint8_t *at = ref->sram[VTA_MEM_UOP] +
						    (size_t)upc * ref->row_bytes[VTA_MEM_UOP];
				if (vta_uop_decode(cfg, at, &uop, &sub) != VTA_OK)
					return vta_insn_fail(r->err, VTA_E_STREAM, NULL, idx, insn,
							     "uop %u: %s", upc, sub.detail);
				uint64_t dst = uop.dst + (uint64_t)o * l->dst_factor_out +
					       (uint64_t)i * l->dst_factor_in;
				uint64_t src = uop.src + (uint64_t)o * l->src_factor_out +
					       (uint64_t)i * l->src_factor_in;
				uint64_t wgt = uop.wgt + (uint64_t)o * l->wgt_factor_out +
					       (uint64_t)i * l->wgt_factor_in;
				if (!vta_uop_in_bounds(&bounds, dst, src, wgt)) {
					vta_uop_oob_fail(&bounds, upc, o, i, dst, src, wgt, &sub);
					return rule_fail(r, idx, insn, &sub);
				}
				st = check_hazard(r, idx, insn, ring, t++, dst, upc, o, i);
				if (st != VTA_OK)
					return st;
				if ((t & 0xffff) == 0 && cfg->host_seconds > 0 &&
				    vta_work_budget_check(cfg, idx, r->started, &sub) != VTA_OK)
					return rule_fail(r, idx, insn, &sub);

				if (vta_insn_resets(insn))
					reset_uop(ref, dst);
				else if (is_alu)
					alu_uop(ref, &insn->alu, imm_src, dst, src);
				else
					gemm_uop(ref, dst, src, wgt);
				if (is_alu)
					ref->counters.alu_uops++;
				else
					ref->counters.gemm_uops++;
			}
		}
	}
	return VTA_OK;
}

/* ---------- execution, when the scheduler says ---------- */

static vta_status execute(void *ctx, size_t idx, const vta_insn *insn)
{
	run *r = ctx;
	vta_error sub = {0};
	if (vta_work_budget_check(r->cfg, idx, r->started, &sub) != VTA_OK)
		return rule_fail(r, idx, insn, &sub);
	vta_status st = VTA_OK;
	switch (insn->opcode) {
	case VTA_OP_LOAD: st = exec_load(r, idx, insn); break;
	case VTA_OP_STORE: st = exec_store(r, idx, insn); break;
	case VTA_OP_GEMM: st = exec_loop(r, idx, insn, false); break;
	case VTA_OP_ALU: st = exec_loop(r, idx, insn, true); break;
	case VTA_OP_FINISH: break;
	default:
		return vta_insn_fail(r->err, VTA_E_INTERNAL, NULL, idx, insn,
				     "unknown opcode %d", (int)insn->opcode);
	}
	if (st == VTA_OK)
		r->ref->counters.insns[vta_insn_module(insn)]++;
	return st;
}

/* ---------- public API ---------- */

static vta_status ref_engine_run(vta_engine *self, const vta_program *prog, vta_dram *dram,
				 vta_run_stats *stats, vta_error *err)
{
	(void)stats; /* untimed */
	return vta_ref_run((vta_ref *)self, prog, dram, err);
}

vta_engine *vta_ref_engine(vta_ref *ref)
{
	return &ref->engine;
}

static vta_status ref_kind_create(const vta_config *cfg, vta_engine **out, vta_error *err)
{
	vta_ref *ref = NULL;
	vta_status st = vta_ref_create(cfg, &ref, err);
	*out = st ? NULL : &ref->engine;
	return st;
}

static void ref_kind_destroy(vta_engine *engine)
{
	vta_ref_destroy((vta_ref *)engine);
}

static const uint8_t *ref_kind_sram(vta_engine *engine, vta_mem mem, uint64_t *size)
{
	size_t n = 0;
	const uint8_t *p = vta_ref_sram((const vta_ref *)engine, mem, &n);
	*size = n;
	return p;
}

static void ref_kind_counts(vta_engine *engine, vta_engine_counts *out)
{
	const vta_ref_counters *c = vta_ref_counters_get((const vta_ref *)engine);
	*out = (vta_engine_counts){.gemm_uops = c->gemm_uops,
				   .alu_uops = c->alu_uops,
				   .dram_write_bytes = c->store_bytes};
	out->insns[VTA_STATS_LOAD] = c->insns[VTA_MODULE_LOAD];
	out->insns[VTA_STATS_COMPUTE] = c->insns[VTA_MODULE_COMPUTE];
	out->insns[VTA_STATS_STORE] = c->insns[VTA_MODULE_STORE];
}

const vta_engine_kind vta_ref_engine_kind = {"ref", "reference executor", false, ref_kind_create, ref_kind_destroy,
					     ref_kind_sram, ref_kind_counts};

vta_status vta_ref_create(const vta_config *cfg, vta_ref **out, vta_error *err)
{
	if (!cfg || !out)
		return vta_fail(err, VTA_E_USAGE, "vta_ref_create: NULL argument");
	*out = NULL;
	if (cfg->inp_bits != 8 || cfg->wgt_bits != 8 || cfg->acc_bits != 32 || cfg->out_bits != 8 ||
	    cfg->sram[VTA_MEM_UOP].depth == 0 || cfg->acc_dep_distance > VTA_ACC_HAZARD_MAX)
		return vta_fail(
			err, VTA_E_CONFIG,
			"the reference executor needs a derived config with int8 inputs, "
			"weights and outputs, int32 accumulators and acc_dep_distance <= %d",
			VTA_ACC_HAZARD_MAX);
	vta_ref *ref = calloc(1, sizeof(*ref));
	if (!ref)
		return vta_fail(err, VTA_E_NOMEM, "reference executor: out of memory");
	ref->engine = (vta_engine){.name = "ref", .timed = false, .run = ref_engine_run};
	ref->cfg = *cfg;
	ref->lut_table = calloc(cfg->lut_depth ? cfg->lut_depth : 1, sizeof(uint32_t));
	if (!ref->lut_table) {
		vta_ref_destroy(ref);
		return vta_fail(err, VTA_E_NOMEM, "reference executor: out of memory for the "
				"LUT table memory");
	}
	for (int i = 0; i < SRAM_COUNT; i++) { /* a row holds one DRAM element of its type */
		ref->row_bytes[i] = vta_config_dram_elem_bytes(cfg, (vta_mem)i);
		ref->sram_size[i] = (size_t)vta_config_sram_depth(cfg, (vta_mem)i) * ref->row_bytes[i];
		ref->sram[i] = calloc(1, ref->sram_size[i] ? ref->sram_size[i] : 1);
		if (!ref->sram[i]) {
			vta_ref_destroy(ref);
			return vta_fail(err, VTA_E_NOMEM, "reference executor: out of memory for "
					"the %s SRAM", vta_mem_name((vta_mem)i));
		}
	}
	*out = ref;
	return VTA_OK;
}

void vta_ref_destroy(vta_ref *ref)
{
	if (!ref)
		return;
	for (int i = 0; i < SRAM_COUNT; i++)
		free(ref->sram[i]);
	free(ref->lut_table);
	free(ref);
}

vta_status vta_ref_run(vta_ref *ref, const vta_program *prog, vta_dram *dram, vta_error *err)
{
	if (!ref || !prog || !dram)
		return vta_fail(err, VTA_E_USAGE, "vta_ref_run: NULL argument");
	const vta_config *cfg = &ref->cfg;
	vta_status st = vta_geometry_check(cfg, &prog->geometry, err);
	if (st != VTA_OK)
		return st;
	for (int i = 0; i < SRAM_COUNT; i++)
		memset(ref->sram[i], 0, ref->sram_size[i]);
	memset(ref->lut_table, 0, (size_t)cfg->lut_depth * sizeof(uint32_t));
	memset(ref->lut_slots, 0, sizeof(ref->lut_slots));
	memset(&ref->counters, 0, sizeof(ref->counters));

	run r = {.ref = ref, .cfg = cfg, .dram = dram, .err = err, .started = vta_host_now()};
	vta_insn *insns = malloc((prog->n_insns ? prog->n_insns : 1) * sizeof(*insns));
	if (!insns)
		return vta_fail(err, VTA_E_NOMEM, "reference executor: out of memory for %zu insns",
				prog->n_insns);
	st = vta_sched_decode(prog, cfg, insns, err);
	if (st == VTA_OK)
		st = vta_sched_run(cfg, insns, prog->n_insns, execute, &r, err);
	free(insns);
	return st;
}

const uint8_t *vta_ref_sram(const vta_ref *ref, vta_mem mem, size_t *size)
{
	if (mem == VTA_MEM_ACC_8BIT)
		mem = VTA_MEM_ACC;
	if (!ref || (unsigned)mem >= SRAM_COUNT) {
		if (size)
			*size = 0;
		return NULL;
	}
	if (size)
		*size = ref->sram_size[mem];
	return ref->sram[mem];
}

const vta_ref_counters *vta_ref_counters_get(const vta_ref *ref)
{
	return ref ? &ref->counters : NULL;
}
