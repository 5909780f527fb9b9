/*
 * vta_stream.c - the stream builder (see vta_stream.h for the contract).
 *
 * Instructions are kept decoded until vta_stream_finish(), because dep_push may still set a
 * push flag on an earlier instruction; every instruction is nevertheless range-checked by
 * encoding it when it is appended, so errors name the instruction where it is created.
 *
 * The builder keeps a shadow of the UOP SRAM (what the LOAD UOPs so far put there) so that
 * the bounds and ACC-distance checks of a GEMM/ALU see exactly the uops it will execute.
 * Why the ACC-distance check is exact without walking every uop: docs/runtime.md.
 */
#include "vta_stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vta_asm.h"
#include "vta_cost.h"
#include "vta_limits.h"
#include "vta_queues.h"
#include "vta_rules.h"
#include "vta_sched.h"

#define SB_NSTAGE 4 /* indexed by vta_stage; 0 unused */

typedef struct sb_kernel {
	vta_uop *uops;
	uint32_t n;
	uint64_t hash;
	uint64_t dram_addr;
	int64_t pos; /* first UOP SRAM row while resident, else -1 */
} sb_kernel;

struct vta_stream {
	vta_config cfg;
	vta_dram *dram;
	char layer[64];
	uint64_t dram_next;

	vta_insn *insns;
	uint8_t *encoded; /* each instruction's bytes (VTA_INSN_MAX_BYTES apart) as its checks
			     encoded it, and again when dep_push sets a flag of it */
	size_t n_insns, cap_insns;
	long last_of_stage[SB_NSTAGE];
	bool pending[SB_NSTAGE][2]; /* pop_prev, pop_next waiting for the stage's next insn */
	uint64_t pushes[VTA_QUEUE_COUNT], pops[VTA_QUEUE_COUNT];

	sb_kernel *kernels;
	size_t n_kernels, cap_kernels;
	uint32_t uop_ring;
	vta_uop *uop_mem;  /* shadow of the UOP SRAM's rows [0, uop_rows) */
	uint8_t *uop_ok;   /* which shadow rows hold a loaded, decodable uop */
	uint64_t uop_rows; /* grown as loads reach further: a layer uses a few rows of many */

	vta_stream_stats stats;
	bool finished;
	bool dram_zeroed; /* vta_stream_dram_zeroed */
};

/* ---------- errors ---------- */

/* Fail at instruction idx with a rule's detail. */
static vta_status sb_rule_fail(const vta_stream *s, vta_error *err, size_t idx,
			       const vta_insn *insn, const vta_error *sub)
{
	return vta_insn_fail(err, sub->status, s->layer, idx, insn, "%s", sub->detail);
}

/* ---------- small helpers ---------- */

static vta_module sb_module_of_stage(vta_stage st)
{
	return st == VTA_STAGE_LOAD ? VTA_MODULE_LOAD
	       : st == VTA_STAGE_STORE ? VTA_MODULE_STORE
				       : VTA_MODULE_COMPUTE;
}

static vta_stage sb_stage_of_module(vta_module m)
{
	switch (m) {
	case VTA_MODULE_LOAD: return VTA_STAGE_LOAD;
	case VTA_MODULE_STORE: return VTA_STAGE_STORE;
	default: return VTA_STAGE_COMPUTE;
	}
}

static const char *sb_stage_name(vta_stage st)
{
	return vta_module_name(sb_module_of_stage(st));
}

static bool sb_stage_ok(vta_stage st)
{
	return st == VTA_STAGE_LOAD || st == VTA_STAGE_COMPUTE || st == VTA_STAGE_STORE;
}

static uint64_t sb_max_elem_bytes(const vta_config *cfg)
{
	uint64_t m = cfg->sram[VTA_MEM_UOP].elem_bytes;
	const uint64_t e[] = {cfg->sram[VTA_MEM_INP].elem_bytes, cfg->sram[VTA_MEM_WGT].elem_bytes,
			      cfg->sram[VTA_MEM_ACC].elem_bytes, cfg->sram[VTA_MEM_OUT].elem_bytes};
	for (size_t i = 0; i < sizeof(e) / sizeof(e[0]); i++)
		if (e[i] > m)
			m = e[i];
	return m;
}

uint32_t vta_stream_elem_bytes(const vta_config *cfg, vta_mem mem)
{
	return vta_config_dram_elem_bytes(cfg, mem);
}

void vta_stream_thread_rows(const vta_config *cfg, vta_mem mem, unsigned slot, unsigned slots,
			    uint32_t *base, uint32_t *rows)
{
	uint32_t depth = vta_config_sram_depth(cfg, mem);
	if (slots < 1)
		slots = 1;
	uint32_t each = depth / slots;
	if (base)
		*base = each * (slot < slots ? slot : slots - 1);
	if (rows)
		*rows = each;
}

/* ---------- life cycle ---------- */

vta_status vta_stream_create(const vta_config *cfg, vta_dram *dram, uint64_t dram_base,
			     const char *layer, vta_stream **out, vta_error *err)
{
	if (!cfg || !dram || !out)
		return vta_fail(err, VTA_E_USAGE, "vta_stream_create: NULL argument");
	*out = NULL;
	if (cfg->sram[VTA_MEM_UOP].depth == 0)
		return vta_fail(err, VTA_E_USAGE, "vta_stream_create: the config is not derived");
	if (cfg->acc_dep_distance > VTA_ACC_HAZARD_MAX)
		return vta_fail(err, VTA_E_CONFIG,
				"vta_stream_create: acc_dep_distance %u is above %d",
				cfg->acc_dep_distance, VTA_ACC_HAZARD_MAX);
	vta_stream *s = calloc(1, sizeof(*s));
	if (!s)
		return vta_fail(err, VTA_E_NOMEM, "stream builder: out of memory");
	s->cfg = *cfg;
	s->dram = dram;
	snprintf(s->layer, sizeof(s->layer), "%s", layer && layer[0] ? layer : "?");
	uint64_t al = sb_max_elem_bytes(cfg);
	s->dram_next = (dram_base + al - 1) / al * al;
	for (int i = 0; i < SB_NSTAGE; i++)
		s->last_of_stage[i] = -1;
	*out = s;
	return VTA_OK;
}

void vta_stream_dram_zeroed(vta_stream *s)
{
	s->dram_zeroed = true;
}

void vta_stream_destroy(vta_stream *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n_kernels; i++)
		free(s->kernels[i].uops);
	free(s->kernels);
	free(s->insns);
	free(s->encoded);
	free(s->uop_mem);
	free(s->uop_ok);
	free(s);
}

const vta_config *vta_stream_config(const vta_stream *s)
{
	return &s->cfg;
}

const char *vta_stream_layer(const vta_stream *s)
{
	return s->layer;
}

size_t vta_stream_count(const vta_stream *s)
{
	return s->n_insns;
}

void vta_stream_get_stats(const vta_stream *s, vta_stream_stats *st)
{
	*st = s->stats;
	st->insns = s->n_insns;
}

static vta_status sb_usable(const vta_stream *s, vta_error *err)
{
	if (!s)
		return vta_fail(err, VTA_E_USAGE, "stream builder: NULL stream");
	if (s->finished)
		return vta_fail(err, VTA_E_USAGE, "layer %s: the stream is already finished",
				s->layer);
	return VTA_OK;
}

/* ---------- DRAM ---------- */

vta_status vta_stream_alloc(vta_stream *s, uint64_t bytes, uint64_t align, const char *name,
			    uint64_t *addr, vta_error *err)
{
	vta_status st = sb_usable(s, err);
	if (st != VTA_OK)
		return st;
	if (align == 0)
		align = sb_max_elem_bytes(&s->cfg);
	if (align & (align - 1))
		return vta_fail(err, VTA_E_USAGE, "layer %s: alignment %llu is not a power of two",
				s->layer, (unsigned long long)align);
	uint64_t a = (s->dram_next + align - 1) / align * align;
	if (a < s->dram_next || bytes > s->dram->size || a > s->dram->size - bytes)
		return vta_fail(err, VTA_E_USAGE,
				"layer %s: DRAM buffer '%s' of %llu bytes does not fit: %llu of %llu "
				"DRAM bytes are already in use",
				s->layer, name ? name : "?", (unsigned long long)bytes,
				(unsigned long long)s->dram_next,
				(unsigned long long)s->dram->size);
	if (!s->dram_zeroed) /* else above dram_next nothing was written yet */
		memset(s->dram->bytes + a, 0, (size_t)bytes);
	s->dram_next = a + bytes;
	s->stats.dram_bytes += bytes;
	if (addr)
		*addr = a;
	return VTA_OK;
}

uint8_t *vta_stream_dram(vta_stream *s, uint64_t addr)
{
	return s->dram->bytes + addr;
}

uint64_t vta_stream_dram_end(const vta_stream *s)
{
	return s->dram_next;
}

/* ---------- checks ---------- */

static vta_status sb_check_mem(const vta_stream *s, size_t idx, const vta_insn *insn,
			       vta_error *err)
{
	if (vta_insn_is_nop(insn))
		return VTA_OK;
	vta_error sub;
	vta_error_clear(&sub);
	vta_status st = insn->opcode == VTA_OP_LOAD
				? vta_load_check(&s->cfg, &insn->mem, s->dram->size, &sub)
				: vta_store_check(&s->cfg, &insn->mem, s->dram->size, &sub);
	return st == VTA_OK ? VTA_OK : sb_rule_fail(s, err, idx, insn, &sub);
}

/* The hazard rule's error for uop upc of iteration (o, i) writing ACC row `row`. */
static vta_status sb_hazard(const vta_stream *s, vta_error *err, size_t idx,
			    const vta_insn *insn, uint64_t row, uint64_t gap, uint64_t upc,
			    uint32_t o, uint32_t i)
{
	vta_error sub = {0};
	vta_acc_hazard_fail(row, gap, s->cfg.acc_dep_distance, (uint32_t)upc, o, i, &sub);
	return sb_rule_fail(s, err, idx, insn, &sub);
}

static vta_status sb_check_loop(const vta_stream *s, size_t idx, const vta_insn *insn,
				vta_error *err)
{
	const vta_config *cfg = &s->cfg;
	const vta_loop *l = &insn->loop;
	vta_error sub;
	vta_error_clear(&sub);
	if (vta_loop_check(cfg, insn, &sub) != VTA_OK)
		return sb_rule_fail(s, err, idx, insn, &sub);
	uint64_t n = l->uop_end - l->uop_bgn;
	if (n == 0 || l->iter_out == 0 || l->iter_in == 0)
		return VTA_OK;
	for (uint32_t u = l->uop_bgn; u < l->uop_end; u++)
		if (u >= s->uop_rows || !s->uop_ok[u])
			return vta_insn_fail(err, VTA_E_STREAM, s->layer, idx, insn,
					     "UOP SRAM row %u holds no micro-op loaded by this stream",
					     u);

	/* Bounds: factors are unsigned, so every index peaks at the last iteration. */
	vta_uop_bounds bounds;
	vta_uop_bounds_of(cfg, insn, &bounds);
	uint64_t om = l->iter_out - 1, im = l->iter_in - 1;
	for (uint32_t u = l->uop_bgn; u < l->uop_end; u++) {
		const vta_uop *up = &s->uop_mem[u];
		uint64_t dst = up->dst + om * l->dst_factor_out + im * l->dst_factor_in;
		uint64_t src = up->src + om * l->src_factor_out + im * l->src_factor_in;
		uint64_t wgt = up->wgt + om * l->wgt_factor_out + im * l->wgt_factor_in;
		vta_uop_oob oob;
		if (vta_uop_find_oob(&bounds, dst, src, wgt, &oob))
			return vta_insn_fail(err, VTA_E_OOB, s->layer, idx, insn,
					     "uop %u: %s index reaches %llu, beyond depth %llu", u,
					     oob.what, (unsigned long long)oob.index,
					     (unsigned long long)oob.depth);
	}

	/* ACC write distance. */
	const uint64_t D = cfg->acc_dep_distance;
	if (D == 0)
		return VTA_OK;
	const vta_uop *k = &s->uop_mem[l->uop_bgn];
	if (n >= D) {
		/* within one iteration */
		for (uint64_t t = 1; t < n; t++)
			for (uint64_t d = 1; d <= D && d <= t; d++)
				if (k[t].dst == k[t - d].dst)
					return sb_hazard(s, err, idx, insn, k[t].dst, d,
							 l->uop_bgn + t, 0, 0);
		/* across a boundary where the offset changes by delta: uop a of the earlier
		 * iteration and uop b of the later one, (n - a) + b <= D */
		int64_t deltas[2];
		bool has[2];
		has[0] = l->iter_in >= 2;
		deltas[0] = (int64_t)l->dst_factor_in;
		has[1] = l->iter_out >= 2;
		deltas[1] = (int64_t)l->dst_factor_out - (int64_t)im * (int64_t)l->dst_factor_in;
		for (int w = 0; w < 2; w++) {
			if (!has[w])
				continue;
			/* a starts at n - D + b, so (n - a) + b <= D holds throughout */
			for (uint64_t b = 0; b < D; b++)
				for (uint64_t a = n - D + b; a < n; a++)
					if ((int64_t)k[a].dst == (int64_t)k[b].dst + deltas[w])
						return sb_hazard(
							s, err, idx, insn,
							k[b].dst + (w ? l->dst_factor_out
								      : l->dst_factor_in),
							(n - a) + b, l->uop_bgn + b, w ? 1 : 0,
							w ? 0 : 1);
		}
		return VTA_OK;
	}
	/* most nests are clear, which the kernel and the factors show at once; otherwise every
	 * uop in turn, to name the first hazard */
	if (vta_nest_acc_clear(l, &k[0].dst, sizeof(*k) / sizeof(k->dst), D))
		return VTA_OK;
	uint64_t ring[VTA_ACC_HAZARD_MAX];
	uint64_t t = 0;
	for (uint32_t o = 0; o < l->iter_out; o++)
		for (uint32_t i = 0; i < l->iter_in; i++)
			for (uint64_t u = 0; u < n; u++, t++) {
				uint64_t dst = k[u].dst + (uint64_t)o * l->dst_factor_out +
					       (uint64_t)i * l->dst_factor_in;
				uint64_t back = t < D ? t : D;
				for (uint64_t d = 1; d <= back; d++)
					if (ring[(t - d) % D] == dst)
						return sb_hazard(s, err, idx, insn, dst, d,
								 l->uop_bgn + u, o, i);
				ring[t % D] = dst;
			}
	return VTA_OK;
}

/* Every check of one instruction, as if it were appended at index idx; its encoding into
 * bytes (VTA_INSN_MAX_BYTES). */
static vta_status sb_check(const vta_stream *s, size_t idx, const vta_insn *insn,
			   uint8_t *bytes, vta_error *err)
{
	vta_error sub;
	vta_error_clear(&sub);
	if (insn->opcode != VTA_OP_LOAD && insn->opcode != VTA_OP_STORE &&
	    insn->opcode != VTA_OP_GEMM && insn->opcode != VTA_OP_ALU &&
	    insn->opcode != VTA_OP_FINISH)
		return vta_insn_fail(err, VTA_E_STREAM, s->layer, idx, insn, "unknown opcode %d",
				     (int)insn->opcode);
	if (vta_insn_check_flags(insn, &sub) != VTA_OK)
		return vta_insn_fail(err, VTA_E_FLAGS, s->layer, idx, insn, "%s", sub.detail);
	if (vta_insn_encode(&s->cfg, insn, bytes, &sub) != VTA_OK)
		return vta_insn_fail(err, sub.status, s->layer, idx, insn, "%s", sub.detail);
	switch (insn->opcode) {
	case VTA_OP_LOAD:
	case VTA_OP_STORE: return sb_check_mem(s, idx, insn, err);
	case VTA_OP_GEMM:
	case VTA_OP_ALU: return sb_check_loop(s, idx, insn, err);
	default: return VTA_OK;
	}
}

/* ---------- appending ---------- */

/* Forget cached kernels that overlap UOP rows [lo, hi). */
static void sb_evict(vta_stream *s, uint64_t lo, uint64_t hi)
{
	for (size_t i = 0; i < s->n_kernels; i++) {
		sb_kernel *k = &s->kernels[i];
		if (k->pos < 0)
			continue;
		uint64_t a = (uint64_t)k->pos, b = a + k->n;
		if (a < hi && lo < b)
			k->pos = -1;
	}
}

/* The shadow UOP SRAM grown to hold rows [0, end) (at most the SRAM's depth), new rows
 * holding no uop. */
static vta_status sb_uop_rows(vta_stream *s, uint64_t end, vta_error *err)
{
	if (end <= s->uop_rows)
		return VTA_OK;
	const uint64_t depth = s->cfg.sram[VTA_MEM_UOP].depth;
	uint64_t n = s->uop_rows ? s->uop_rows : 64;
	while (n < end)
		n *= 2;
	n = n < depth ? n : depth;
	vta_uop *mem = realloc(s->uop_mem, (size_t)n * sizeof(*mem));
	if (mem)
		s->uop_mem = mem;
	uint8_t *ok = mem ? realloc(s->uop_ok, (size_t)n) : NULL;
	if (!ok)
		return vta_fail(err, VTA_E_NOMEM, "stream builder: out of memory");
	s->uop_ok = ok;
	memset(ok + s->uop_rows, 0, (size_t)(n - s->uop_rows));
	s->uop_rows = n;
	return VTA_OK;
}

/* Update the shadow UOP SRAM after a LOAD UOP, whose rows it holds (sb_uop_rows). */
static void sb_apply_uop_load(vta_stream *s, const vta_mem_insn *m)
{
	uint64_t n = (uint64_t)m->y_size * m->x_size;
	sb_evict(s, m->sram_base, m->sram_base + n);
	uint64_t row = m->sram_base;
	const uint64_t size = s->cfg.sram[VTA_MEM_UOP].elem_bytes;
	for (uint64_t y = 0; y < m->y_size; y++) {
		uint64_t src = ((uint64_t)m->dram_base + y * m->x_stride) * size;
		for (uint64_t x = 0; x < m->x_size && row < s->uop_rows; x++, row++) {
			vta_error sub;
			vta_error_clear(&sub);
			s->uop_ok[row] = vta_uop_decode(&s->cfg, s->dram->bytes + src + x * size,
							&s->uop_mem[row], &sub) == VTA_OK;
		}
	}
}

static void sb_count(vta_stream *s, const vta_insn *insn)
{
	const vta_config *cfg = &s->cfg;
	if (vta_insn_is_nop(insn)) {
		s->stats.nops++;
		return;
	}
	if (insn->opcode == VTA_OP_LOAD || insn->opcode == VTA_OP_STORE) {
		const vta_mem_insn *m = &insn->mem;
		uint64_t bytes = vta_cost_dma_bytes(cfg, m);
		if (insn->opcode == VTA_OP_STORE) {
			s->stats.store_bytes += bytes;
			const uint64_t end = vta_store_dram_end(cfg, m);
			if (end > s->stats.store_end)
				s->stats.store_end = end;
		} else {
			s->stats.load_bytes[m->mem_type] += bytes;
		}
		if (insn->opcode == VTA_OP_LOAD && m->mem_type == VTA_MEM_UOP)
			s->stats.uop_loads++;
		return;
	}
	if (insn->opcode == VTA_OP_GEMM || insn->opcode == VTA_OP_ALU) {
		const vta_loop *l = &insn->loop;
		uint64_t u = vta_loop_uops(l);
		if (vta_insn_resets(insn))
			s->stats.reset_uops += u;
		else if (insn->opcode == VTA_OP_GEMM)
			s->stats.gemm_uops += u;
		else {
			s->stats.alu_uops += u;
			if (insn->alu.use_imm)
				s->stats.alu_imm_uops += u;
			s->stats.alu_cycles += vta_cost_uop_cycles(cfg, insn);
		}
	}
}

/* Append after merging the stage's pending pops and checking everything. */
static vta_status sb_append(vta_stream *s, const vta_insn *in, vta_error *err)
{
	vta_insn insn = *in;
	vta_stage st = sb_stage_of_module(vta_insn_module(&insn));
	if (s->pending[st][0])
		insn.deps.pop_prev = true;
	if (s->pending[st][1])
		insn.deps.pop_next = true;
	size_t idx = s->n_insns;
	uint8_t bytes[VTA_INSN_MAX_BYTES];
	vta_status rc = sb_check(s, idx, &insn, bytes, err);
	if (rc != VTA_OK)
		return rc;
	const bool uop_load = insn.opcode == VTA_OP_LOAD && insn.mem.mem_type == VTA_MEM_UOP &&
			      !vta_insn_is_nop(&insn);
	if (uop_load && (rc = sb_uop_rows(s, (uint64_t)insn.mem.sram_base +
						      (uint64_t)insn.mem.y_size * insn.mem.x_size,
					  err)))
		return rc;
	if (s->n_insns == s->cap_insns) {
		size_t cap = s->cap_insns ? 2 * s->cap_insns : 256;
		vta_insn *ni = realloc(s->insns, cap * sizeof(*ni));
		if (ni)
			s->insns = ni;
		uint8_t *ne = realloc(s->encoded, cap * VTA_INSN_MAX_BYTES);
		if (ne)
			s->encoded = ne;
		if (!ni || !ne)
			return vta_fail(err, VTA_E_NOMEM, "stream builder: out of memory");
		s->cap_insns = cap;
	}
	memcpy(s->encoded + s->n_insns * VTA_INSN_MAX_BYTES, bytes, VTA_INSN_MAX_BYTES);
	s->insns[s->n_insns++] = insn;
	s->pending[st][0] = s->pending[st][1] = false;
	s->last_of_stage[st] = (long)idx;
	vta_queue pops[2], pushes[2];
	vta_insn_queues(&insn, vta_insn_module(&insn), pops, pushes);
	for (int i = 0; i < 2; i++) {
		if (pops[i] >= 0)
			s->pops[pops[i]]++;
		if (pushes[i] >= 0)
			s->pushes[pushes[i]]++;
	}
	if (uop_load)
		sb_apply_uop_load(s, &insn.mem);
	sb_count(s, &insn);
	return VTA_OK;
}

static void sb_nop(vta_stage st, vta_insn *insn)
{
	memset(insn, 0, sizeof(*insn));
	if (st == VTA_STAGE_STORE) {
		insn->opcode = VTA_OP_STORE;
		insn->mem.mem_type = VTA_MEM_OUT;
	} else {
		insn->opcode = VTA_OP_LOAD;
		insn->mem.mem_type = st == VTA_STAGE_LOAD ? VTA_MEM_INP : VTA_MEM_UOP;
	}
}

vta_status vta_stream_insn(vta_stream *s, const vta_insn *insn, vta_error *err)
{
	vta_status st = sb_usable(s, err);
	if (st != VTA_OK)
		return st;
	if (!insn)
		return vta_fail(err, VTA_E_USAGE, "layer %s: NULL instruction", s->layer);
	return sb_append(s, insn, err);
}

/* ---------- transfers ---------- */

static vta_status sb_xfer(vta_stream *s, const vta_xfer *x, const vta_lut_fields *lut,
			  vta_opcode op, vta_error *err)
{
	vta_status st = sb_usable(s, err);
	if (st != VTA_OK)
		return st;
	if (!x)
		return vta_fail(err, VTA_E_USAGE, "layer %s: NULL transfer", s->layer);
	vta_insn insn = {0};
	insn.opcode = op;
	insn.mem.mem_type = (uint32_t)x->mem;
	if (lut) {
		insn.mem.lut_bw = lut->bw;
		insn.mem.lut_slot = lut->slot;
		insn.mem.lut_chan = lut->chan;
		insn.mem.lut_run = lut->run;
		insn.mem.lut_group = lut->group;
		insn.mem.lut_period = lut->period;
	}
	uint32_t eb = vta_load_elem_bytes(&s->cfg, &insn.mem); /* packed when lut_bw != 0 */
	if (eb == 0)
		return vta_fail(err, VTA_E_USAGE, "layer %s: unknown memory type %d", s->layer,
				(int)x->mem);
	if (x->dram_addr % eb != 0)
		return vta_fail(err, VTA_E_USAGE,
				"layer %s: insn %zu: DRAM address 0x%llx is not aligned to the %u-byte "
				"%s element",
				s->layer, s->n_insns, (unsigned long long)x->dram_addr, eb,
				vta_mem_name(x->mem));
	uint64_t base = x->dram_addr / eb;
	if (base > UINT32_MAX)
		return vta_fail(err, VTA_E_ENCODE,
				"layer %s: insn %zu: DRAM element %llu does not fit the 32-bit "
				"dram_base field",
				s->layer, s->n_insns, (unsigned long long)base);
	insn.mem.sram_base = x->sram;
	insn.mem.dram_base = (uint32_t)base;
	insn.mem.y_size = x->y_size;
	insn.mem.x_size = x->x_size;
	insn.mem.x_stride = x->x_stride;
	insn.mem.y_pad_0 = x->y_pad_0;
	insn.mem.y_pad_1 = x->y_pad_1;
	insn.mem.x_pad_0 = x->x_pad_0;
	insn.mem.x_pad_1 = x->x_pad_1;
	/* rows adjacent in DRAM and in SRAM with no padding are one row: each row is its own
	 * bursts (and a STORE waits for each one's response), so the merged form is the faster
	 * one of the same effect, as VTA's compiler emits it */
	const uint64_t merged = (uint64_t)x->y_size * x->x_size;
	if (!lut && x->y_size > 1 && x->x_stride == x->x_size && !x->y_pad_0 && !x->y_pad_1 &&
	    !x->x_pad_0 && !x->x_pad_1 && merged < (1ull << s->cfg.fw.memop_size) &&
	    merged < (1ull << s->cfg.fw.memop_stride)) {
		insn.mem.y_size = 1;
		insn.mem.x_size = insn.mem.x_stride = (uint32_t)merged;
	}
	if (x->x_size == 0)
		return vta_fail(err, VTA_E_USAGE,
				"layer %s: insn %zu: a transfer of 0 elements (use the dependency "
				"calls for NOPs)",
				s->layer, s->n_insns);
	if (op == VTA_OP_LOAD && x->mem == VTA_MEM_UOP)
		return vta_fail(err, VTA_E_USAGE,
				"layer %s: insn %zu: micro-ops are loaded through kernels "
				"(vta_stream_kernel) or vta_stream_insn",
				s->layer, s->n_insns);
	return sb_append(s, &insn, err);
}

vta_status vta_stream_load(vta_stream *s, const vta_xfer *x, vta_error *err)
{
	return sb_xfer(s, x, NULL, VTA_OP_LOAD, err);
}

vta_status vta_stream_load_lut(vta_stream *s, const vta_xfer *x, const vta_lut_fields *lut,
			       vta_error *err)
{
	return sb_xfer(s, x, lut, VTA_OP_LOAD, err);
}

vta_status vta_stream_store(vta_stream *s, const vta_xfer *x, vta_error *err)
{
	return sb_xfer(s, x, NULL, VTA_OP_STORE, err);
}

/* ---------- kernels ---------- */

static uint64_t sb_hash(const vta_uop *u, size_t n)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++) {
		const uint32_t v[3] = {u[i].dst, u[i].src, u[i].wgt};
		for (int j = 0; j < 3; j++) {
			h ^= v[j];
			h *= 1099511628211ull;
		}
	}
	return h ^ n;
}

vta_status vta_stream_kernel(vta_stream *s, const vta_uop *uops, size_t n, uint32_t *id,
			     vta_error *err)
{
	vta_status st = sb_usable(s, err);
	if (st != VTA_OK)
		return st;
	if (!uops || n == 0 || !id)
		return vta_fail(err, VTA_E_USAGE, "layer %s: a kernel needs at least one uop",
				s->layer);
	if (n > s->cfg.sram[VTA_MEM_UOP].depth)
		return vta_fail(
			err, VTA_E_USAGE,
			"layer %s: a kernel of %zu uops does not fit the UOP SRAM (%u rows)",
			s->layer, n, s->cfg.sram[VTA_MEM_UOP].depth);
	uint64_t h = sb_hash(uops, n);
	for (size_t i = 0; i < s->n_kernels; i++) {
		const sb_kernel *k = &s->kernels[i];
		if (k->hash == h && k->n == n && memcmp(k->uops, uops, n * sizeof(*uops)) == 0) {
			*id = (uint32_t)i;
			return VTA_OK;
		}
	}
	if (s->n_kernels == s->cap_kernels) {
		size_t cap = s->cap_kernels ? 2 * s->cap_kernels : 16;
		sb_kernel *nk = realloc(s->kernels, cap * sizeof(*nk));
		if (!nk)
			return vta_fail(err, VTA_E_NOMEM, "stream builder: out of memory");
		s->kernels = nk;
		s->cap_kernels = cap;
	}
	char name[48];
	snprintf(name, sizeof(name), "uops.k%zu", s->n_kernels);
	uint64_t addr;
	const uint32_t size = s->cfg.sram[VTA_MEM_UOP].elem_bytes; /* the encoding's micro-op */
	st = vta_stream_alloc(s, (uint64_t)n * size, size, name, &addr, err);
	if (st != VTA_OK)
		return st;
	for (size_t i = 0; i < n; i++) {
		vta_error sub;
		vta_error_clear(&sub);
		if (vta_uop_encode(&s->cfg, &uops[i], s->dram->bytes + addr + i * size, &sub) !=
		    VTA_OK)
			return vta_fail(err, sub.status, "layer %s: kernel uop %zu: %s", s->layer,
					i, sub.detail);
	}
	sb_kernel *k = &s->kernels[s->n_kernels];
	k->uops = malloc(n * sizeof(*uops));
	if (!k->uops)
		return vta_fail(err, VTA_E_NOMEM, "stream builder: out of memory");
	memcpy(k->uops, uops, n * sizeof(*uops));
	k->n = (uint32_t)n;
	k->hash = h;
	k->dram_addr = addr;
	k->pos = -1;
	*id = (uint32_t)s->n_kernels++;
	s->stats.kernel_uops += n;
	return VTA_OK;
}

/* Make kernel id resident in the UOP SRAM, emitting a LOAD UOP on a miss. */
static vta_status sb_resident(vta_stream *s, uint32_t id, vta_error *err)
{
	sb_kernel *k = &s->kernels[id];
	if (k->pos >= 0)
		return VTA_OK;
	uint32_t p = s->uop_ring;
	if ((uint64_t)p + k->n > s->cfg.sram[VTA_MEM_UOP].depth)
		p = 0;
	vta_insn insn = {0};
	insn.opcode = VTA_OP_LOAD;
	insn.mem.mem_type = VTA_MEM_UOP;
	insn.mem.sram_base = p;
	insn.mem.dram_base = (uint32_t)(k->dram_addr / s->cfg.sram[VTA_MEM_UOP].elem_bytes);
	insn.mem.y_size = 1;
	insn.mem.x_size = k->n;
	insn.mem.x_stride = k->n;
	vta_status st = sb_append(s, &insn, err);
	if (st != VTA_OK)
		return st;
	k->pos = p;
	s->uop_ring = p + k->n;
	return VTA_OK;
}

static vta_status sb_loop_insn(vta_stream *s, vta_opcode op, uint32_t id,
			       const vta_loops *loops, bool reset, vta_insn *insn, vta_error *err)
{
	vta_status st = sb_usable(s, err);
	if (st != VTA_OK)
		return st;
	if (id >= s->n_kernels)
		return vta_fail(err, VTA_E_USAGE, "layer %s: unknown kernel %u", s->layer, id);
	if (loops && loops->n > 2)
		return vta_fail(err, VTA_E_USAGE,
				"layer %s: a kernel has at most 2 loop levels, not %u", s->layer,
				loops->n);
	st = sb_resident(s, id, err);
	if (st != VTA_OK)
		return st;
	const sb_kernel *k = &s->kernels[id];
	memset(insn, 0, sizeof(*insn));
	insn->opcode = op;
	vta_loop *l = &insn->loop;
	l->reset = reset;
	l->uop_bgn = (uint32_t)k->pos;
	l->uop_end = (uint32_t)k->pos + k->n;
	l->iter_out = l->iter_in = 1;
	unsigned n = loops ? loops->n : 0;
	const vta_loop_level *outer = n == 2 ? &loops->l[0] : NULL;
	const vta_loop_level *inner = n == 2 ? &loops->l[1] : n == 1 ? &loops->l[0] : NULL;
	if (outer) {
		l->iter_out = outer->extent;
		l->dst_factor_out = outer->dst;
		l->src_factor_out = outer->src;
		l->wgt_factor_out = op == VTA_OP_GEMM ? outer->wgt : 0;
	}
	if (inner) {
		l->iter_in = inner->extent;
		l->dst_factor_in = inner->dst;
		l->src_factor_in = inner->src;
		l->wgt_factor_in = op == VTA_OP_GEMM ? inner->wgt : 0;
	}
	return VTA_OK;
}

vta_status vta_stream_gemm(vta_stream *s, uint32_t id, const vta_loops *loops, bool reset,
			   vta_error *err)
{
	vta_insn insn;
	vta_status st = sb_loop_insn(s, VTA_OP_GEMM, id, loops, reset, &insn, err);
	return st != VTA_OK ? st : sb_append(s, &insn, err);
}

vta_status vta_stream_alu(vta_stream *s, uint32_t id, const vta_loops *loops, vta_alu_op op,
			  bool use_imm, int32_t imm, vta_error *err)
{
	vta_insn insn;
	vta_status st = sb_loop_insn(s, VTA_OP_ALU, id, loops, false, &insn, err);
	if (st != VTA_OK)
		return st;
	insn.alu.op = (uint32_t)op;
	insn.alu.use_imm = use_imm;
	insn.alu.imm = use_imm ? imm : 0;
	return sb_append(s, &insn, err);
}

/* ---------- dependencies ---------- */

static vta_status sb_pair(const vta_stream *s, vta_stage from, vta_stage to, const char *what,
			  vta_error *err)
{
	if (!sb_stage_ok(from) || !sb_stage_ok(to))
		return vta_fail(err, VTA_E_USAGE, "layer %s: %s: unknown stage %d or %d", s->layer,
				what, (int)from, (int)to);
	int d = (int)from - (int)to;
	if (d != 1 && d != -1)
		return vta_fail(err, VTA_E_USAGE,
				"layer %s: %s(%s -> %s): only load<->compute and compute<->store "
				"exchange tokens",
				s->layer, what, sb_stage_name(from), sb_stage_name(to));
	return VTA_OK;
}

/* Emit a NOP of stage st carrying its pending pops (and `push` flags if given). */
static vta_status sb_commit(vta_stream *s, vta_stage st, bool push_prev, bool push_next,
			    vta_error *err)
{
	vta_insn nop;
	sb_nop(st, &nop);
	nop.deps.push_prev = push_prev;
	nop.deps.push_next = push_next;
	return sb_append(s, &nop, err);
}

vta_status vta_stream_dep_pop(vta_stream *s, vta_stage from, vta_stage to, vta_error *err)
{
	vta_status st = sb_usable(s, err);
	if (st == VTA_OK)
		st = sb_pair(s, from, to, "dep_pop", err);
	if (st != VTA_OK)
		return st;
	int which = from < to ? 0 : 1; /* pop_prev : pop_next */
	if (s->pending[to][which]) {
		st = sb_commit(s, to, false, false, err);
		if (st != VTA_OK)
			return st;
	}
	s->pending[to][which] = true;
	return VTA_OK;
}

vta_status vta_stream_dep_push(vta_stream *s, vta_stage from, vta_stage to, vta_error *err)
{
	vta_status st = sb_usable(s, err);
	if (st == VTA_OK)
		st = sb_pair(s, from, to, "dep_push", err);
	if (st != VTA_OK)
		return st;
	bool next = to > from;
	if (s->pending[from][0] || s->pending[from][1])
		return sb_commit(s, from, !next, next, err);
	long idx = s->last_of_stage[from];
	if (idx >= 0) {
		vta_insn *last = &s->insns[idx];
		bool *flag = next ? &last->deps.push_next : &last->deps.push_prev;
		if (last->opcode != VTA_OP_FINISH && !*flag) {
			*flag = true;
			/* its head's bits again (a flag is one bit in either encoding: this does
			 * not fail) */
			vta_error sub = {0};
			if (vta_insn_encode_head(&s->cfg, last,
						 s->encoded + idx * VTA_INSN_MAX_BYTES,
						 &sub) != VTA_OK)
				return vta_insn_fail(err, sub.status, s->layer, (size_t)idx, last,
						     "%s", sub.detail);
			s->pushes[vta_queue_pushed(sb_module_of_stage(from), !next)]++;
			return VTA_OK;
		}
	}
	return sb_commit(s, from, !next, next, err);
}

/* ---------- finish ---------- */

/* FETCH and the three modules with tokens only, scheduled as the reference executor does:
 * the stream must reach FINISH. */
static vta_status sb_dry_run(const vta_stream *s, vta_error *err)
{
	vta_error sub = {0};
	if (vta_sched_run(&s->cfg, s->insns, s->n_insns, NULL, NULL, &sub) == VTA_OK)
		return VTA_OK;
	const char *why = sub.detail;
	if (sub.status == VTA_E_DEADLOCK) {
		if (strncmp(why, "deadlock: ", 10) == 0)
			why += 10;
		return vta_fail(err, sub.status, "layer %s: the stream deadlocks: %s", s->layer,
				why);
	}
	return vta_fail(err, sub.status, "layer %s: %s", s->layer, sub.detail);
}

vta_status vta_stream_finish(vta_stream *s, vta_program *prog, vta_error *err)
{
	vta_status st = sb_usable(s, err);
	if (st != VTA_OK)
		return st;
	if (!prog)
		return vta_fail(err, VTA_E_USAGE, "layer %s: NULL program", s->layer);
	/* empty from here on, so the caller may free it whatever fails below */
	vta_program_init(prog, &s->cfg);
	/* 1. pops still pending become NOPs */
	for (int g = VTA_STAGE_LOAD; g <= VTA_STAGE_STORE && st == VTA_OK; g++)
		if (s->pending[g][0] || s->pending[g][1])
			st = sb_commit(s, (vta_stage)g, false, false, err);
	/* 2. tokens pushed but never popped are drained by their consumer */
	for (int q = 0; q < VTA_QUEUE_COUNT && st == VTA_OK; q++) {
		if (s->pops[q] > s->pushes[q])
			return vta_fail(err, VTA_E_DEADLOCK,
					"layer %s: %llu pops of %s but only %llu pushes: the stream "
					"would deadlock",
					s->layer, (unsigned long long)s->pops[q], vta_queue_name(q),
					(unsigned long long)s->pushes[q]);
		while (st == VTA_OK && s->pushes[q] > s->pops[q]) {
			bool prev;
			vta_module consumer = vta_queue_consumer((vta_queue)q, &prev);
			vta_insn nop;
			sb_nop(sb_stage_of_module(consumer), &nop);
			nop.deps.pop_prev = prev;
			nop.deps.pop_next = !prev;
			st = sb_append(s, &nop, err);
		}
	}
	/* 3. store and load hand a token to compute, which FINISH pops */
	bool pop_store = false, pop_load = false;
	if (st == VTA_OK && s->last_of_stage[VTA_STAGE_STORE] >= 0) {
		st = vta_stream_dep_push(s, VTA_STAGE_STORE, VTA_STAGE_COMPUTE, err);
		pop_store = true;
	}
	if (st == VTA_OK && s->last_of_stage[VTA_STAGE_LOAD] >= 0) {
		st = vta_stream_dep_push(s, VTA_STAGE_LOAD, VTA_STAGE_COMPUTE, err);
		pop_load = true;
	}
	if (st != VTA_OK)
		return st;
	vta_insn fin = {0};
	fin.opcode = VTA_OP_FINISH;
	fin.deps.pop_next = pop_store;
	fin.deps.pop_prev = pop_load;
	st = sb_append(s, &fin, err);
	if (st != VTA_OK)
		return st;
	/* 4. the instructions as they were encoded */
	for (size_t i = 0; i < s->n_insns && st == VTA_OK; i++)
		st = vta_program_push_raw(prog, s->encoded + i * VTA_INSN_MAX_BYTES, err);
	for (size_t i = 0; i < s->n_kernels && st == VTA_OK; i++) {
		const sb_kernel *k = &s->kernels[i];
		st = vta_program_add_segment(prog, VTA_SEG_UOP, k->dram_addr,
					     s->dram->bytes + k->dram_addr,
					     k->n * s->cfg.sram[VTA_MEM_UOP].elem_bytes, err);
	}
	/* 5. the token protocol must complete */
	if (st == VTA_OK)
		st = sb_dry_run(s, err);
	if (st != VTA_OK) {
		vta_program_free(prog);
		return st;
	}
	s->finished = true;
	return VTA_OK;
}
