/*
 * vta_rules.c - operand legality of LOAD, STORE, GEMM and ALU (see vta_rules.h).
 *
 * The DRAM bound is O(1) per instruction: DRAM row addresses grow with the row index
 * (x_stride is unsigned), so only the last row can end beyond the DRAM; the first failing
 * row is searched only to word the error.
 */
#include "vta_rules.h"

#include <time.h>

#include "vta_alu_ops.h"

static bool any_pad(const vta_mem_insn *m)
{
	return m->y_pad_0 || m->y_pad_1 || m->x_pad_0 || m->x_pad_1;
}

static uint64_t row_addr(const vta_mem_insn *m, uint64_t row, uint32_t elem_bytes)
{
	return ((uint64_t)m->dram_base + row * m->x_stride) * elem_bytes;
}

static bool in_dram(uint64_t addr, uint64_t len, uint64_t dram_size)
{
	return addr <= dram_size && len <= dram_size - addr;
}

/* Every DRAM row of a 2D transfer lies inside the DRAM; fails naming the first that does
 * not. */
static vta_status check_dram_rows(const vta_mem_insn *m, uint32_t elem_bytes,
				  uint64_t dram_size, const char *what, vta_error *err)
{
	uint64_t len = (uint64_t)m->x_size * elem_bytes;
	if (m->y_size == 0 || in_dram(row_addr(m, m->y_size - 1u, elem_bytes), len, dram_size))
		return VTA_OK;
	uint64_t row = 0;
	while (in_dram(row_addr(m, row, elem_bytes), len, dram_size))
		row++;
	uint64_t addr = row_addr(m, row, elem_bytes);
	return vta_fail(err, VTA_E_OOB,
			"DRAM %s of row %llu at [0x%llx, 0x%llx) beyond the DRAM (0x%llx bytes)",
			what, (unsigned long long)row, (unsigned long long)addr,
			(unsigned long long)(addr + len), (unsigned long long)dram_size);
}

uint64_t vta_store_dram_end(const vta_config *cfg, const vta_mem_insn *m)
{
	if (m->y_size == 0 || m->x_size == 0)
		return 0;
	return row_addr(m, m->y_size - 1u, cfg->sram[VTA_MEM_OUT].elem_bytes) +
		(uint64_t)m->x_size * cfg->sram[VTA_MEM_OUT].elem_bytes;
}

uint64_t vta_load_sram_rows(const vta_mem_insn *m)
{
	uint64_t width = (uint64_t)m->x_pad_0 + m->x_size + m->x_pad_1;
	uint64_t rows = (uint64_t)m->y_pad_0 + m->y_size + m->y_pad_1;
	return rows * width;
}

uint32_t vta_lut_lanes(const vta_config *cfg, vta_mem mem)
{
	switch (mem) {
	case VTA_MEM_WGT: return cfg->block_out * cfg->block_in;
	case VTA_MEM_INP: return cfg->batch * cfg->block_in;
	case VTA_MEM_ACC: return cfg->batch * cfg->block_out;
	default: return 0;
	}
}

uint32_t vta_lut_row_channels(const vta_config *cfg, vta_mem mem)
{
	return mem == VTA_MEM_INP ? cfg->block_in : cfg->block_out;
}

uint32_t vta_lut_run_blocks(const vta_mem_insn *m)
{
	if (!m->lut_run || m->y_size == 0)
		return 1;
	return (uint32_t)(((uint64_t)m->y_size + m->lut_run - 1) / m->lut_run);
}

uint64_t vta_lut_row_chan(const vta_config *cfg, const vta_mem_insn *m, uint64_t y)
{
	const uint64_t block = m->lut_run ? y / m->lut_run : 0;
	return m->lut_chan + block * vta_lut_row_channels(cfg, (vta_mem)m->mem_type);
}

uint32_t vta_lut_packed_bytes(const vta_config *cfg, vta_mem mem, uint32_t bw)
{
	return (vta_lut_lanes(cfg, mem) * bw + 7) / 8;
}

uint32_t vta_lut_real_lanes(const vta_config *cfg, const vta_mem_insn *m)
{
	if (m->lut_group)
		return cfg->block_out * m->lut_group;
	return m->mem_type < VTA_MEM_COUNT ? vta_lut_lanes(cfg, (vta_mem)m->mem_type) : 0;
}

bool vta_lut_fill_lane(const vta_config *cfg, const vta_mem_insn *m, uint64_t chan,
		       uint32_t lane, uint32_t *real)
{
	if (!m->lut_group) {
		*real = lane;
		return true;
	}
	const uint32_t o = lane / cfg->block_in, i = lane % cfg->block_in;
	const uint64_t groups = cfg->block_in / m->lut_group; /* groups side by side in a row */
	const uint32_t first = (uint32_t)((chan + o) / m->lut_period % groups) * m->lut_group;
	if (i < first || i >= first + m->lut_group)
		return false;
	*real = o * m->lut_group + (i - first);
	return true;
}

uint32_t vta_load_elem_bytes(const vta_config *cfg, const vta_mem_insn *m)
{
	if (m->mem_type >= VTA_MEM_COUNT)
		return 0;
	if (m->lut_bw)
		return (vta_lut_real_lanes(cfg, m) * m->lut_bw + 7) / 8;
	return vta_config_dram_elem_bytes(cfg, (vta_mem)m->mem_type);
}

vta_lut_desc vta_lut_desc_of(const vta_mem_insn *m)
{
	vta_lut_desc d = {true, m->sram_base, m->x_size, m->y_size,
			  m->mem_type == VTA_MEM_LUT32 ? 32u : 8u};
	return d;
}

vta_status vta_lut_use_check(const vta_config *cfg, const vta_mem_insn *m,
			     const vta_lut_desc *slot, vta_error *err)
{
	vta_mem mem = (vta_mem)m->mem_type;
	uint32_t want = mem == VTA_MEM_ACC ? 32u : 8u;
	if (!slot->set)
		return vta_fail(err, VTA_E_STREAM,
				"LUT slot %u was never set in this run (load lut or lut32 first)",
				m->lut_slot);
	if (slot->channels == 0) /* y_size 0: the table load moved nothing */
		return vta_fail(err, VTA_E_STREAM,
				"LUT slot %u holds no table (its table load had y_size 0)",
				m->lut_slot);
	if (slot->width != want)
		return vta_fail(err, VTA_E_STREAM,
				"LUT slot %u holds int%u tables (%s), a load of %s needs int%u ones (%s)",
				m->lut_slot, slot->width, slot->width == 8 ? "lut" : "lut32",
				vta_mem_name(mem), want, want == 8 ? "lut" : "lut32");
	const uint32_t blocks = vta_lut_run_blocks(m);
	uint64_t end = (uint64_t)m->lut_chan + (uint64_t)blocks * vta_lut_row_channels(cfg, mem);
	if (slot->channels > 1 && end > slot->channels)
		return vta_fail(err, VTA_E_OOB,
				"channels [%u, %llu) beyond the %u tables of LUT slot %u%s",
				m->lut_chan, (unsigned long long)end, slot->channels, m->lut_slot,
				blocks > 1 ? " (a run of several channel blocks)" : "");
	return VTA_OK;
}

vta_status vta_lut_index_fail(uint32_t index, uint64_t element, uint32_t stride,
			      vta_error *err)
{
	return vta_fail(err, VTA_E_OOB, "LUT index %u of element %llu beyond its table of %u "
			"entries", index, (unsigned long long)element, stride);
}

/* The zero-lane fill fields of a decompressing load: both 0, or a group width dividing
 * block_in and a period of at least one channel, on a WGT load. */
static vta_status check_fill_fields(const vta_config *cfg, const vta_mem_insn *m, vta_mem mem,
				    vta_error *err)
{
	if (!m->lut_group && !m->lut_period)
		return VTA_OK;
	if (mem != VTA_MEM_WGT)
		return vta_fail(err, VTA_E_STREAM, "lut_group %u on a decompressing load of %s "
				"(only WGT rows are block-diagonal)", m->lut_group,
				vta_mem_name(mem));
	if (!m->lut_group || !m->lut_period)
		return vta_fail(err, VTA_E_STREAM, "lut_group %u with lut_period %u: zero-lane "
				"fill needs both (a group width and its output channels), or "
				"neither", m->lut_group, m->lut_period);
	if (m->lut_group > cfg->block_in || cfg->block_in % m->lut_group)
		return vta_fail(err, VTA_E_STREAM, "lut_group %u does not divide block_in %u "
				"(a row holds whole groups of input lanes)", m->lut_group,
				cfg->block_in);
	if (!cfg->decomp_zero_fill)
		return vta_fail(err, VTA_E_UNSUPPORTED, "a zero-lane fill load (lut_group %u) "
				"needs decompressor.zero_fill in the config", m->lut_group);
	return VTA_OK;
}

/* The LUT fields of a non-NOP LOAD (memory type known). */
static vta_status check_lut_fields(const vta_config *cfg, const vta_mem_insn *m, vta_mem mem,
				   vta_error *err)
{
	if (m->lut_run && (m->lut_bw == 0 || vta_mem_is_table(mem)))
		return vta_fail(err, VTA_E_STREAM, "lut_run %u on a load that does not decompress "
				"(only a decompressing load spans channel blocks)", m->lut_run);
	if ((m->lut_group || m->lut_period) && (m->lut_bw == 0 || vta_mem_is_table(mem)))
		return vta_fail(err, VTA_E_STREAM, "lut_group %u, lut_period %u on a load that "
				"does not decompress (only a decompressing WGT load fills zero "
				"lanes)", m->lut_group, m->lut_period);
	if (!vta_mem_is_table(mem) && m->lut_bw == 0)
		return VTA_OK;
	if (!cfg->decomp_enabled)
		return vta_fail(err, VTA_E_UNSUPPORTED,
				"a %s needs decompressor.enabled in the config",
				vta_mem_is_table(mem) ? "LUT table load" : "decompressing load");
	if (vta_mem_is_table(mem) && m->lut_bw)
		return vta_fail(err, VTA_E_STREAM, "a %s table load cannot be decompressing "
				"(lut_bw %u)", vta_mem_name(mem), m->lut_bw);
	if (m->lut_bw > VTA_LUT_MAX_BITWIDTH || m->lut_slot >= VTA_LUT_SLOTS)
		return vta_fail(err, VTA_E_STREAM, "lut_bw %u or lut_slot %u out of range",
				m->lut_bw, m->lut_slot);
	if (!vta_mem_is_table(mem) && vta_lut_lanes(cfg, mem) == 0)
		return vta_fail(err, VTA_E_STREAM, "decompressing load of memory type %s (only "
				"wgt, inp and acc decompress)", vta_mem_name(mem));
	if (any_pad(m))
		return vta_fail(err, VTA_E_STREAM, "padding not supported for %s",
				vta_mem_is_table(mem) ? vta_mem_name(mem) : "a decompressing load");
	if (m->lut_run && !cfg->decomp_multi_block)
		return vta_fail(err, VTA_E_UNSUPPORTED, "a multi-block decompressing load (lut_run "
				"%u) needs decompressor.multi_block in the config", m->lut_run);
	return check_fill_fields(cfg, m, mem, err);
}

vta_status vta_load_check(const vta_config *cfg, const vta_mem_insn *m, uint64_t dram_size,
			  vta_error *err)
{
	if (m->mem_type >= VTA_MEM_COUNT)
		return vta_fail(err, VTA_E_STREAM, "unknown memory type %u", m->mem_type);
	vta_mem mem = (vta_mem)m->mem_type;
	vta_status st = check_lut_fields(cfg, m, mem, err);
	if (st)
		return st;
	if (mem == VTA_MEM_OUT)
		return vta_fail(err, VTA_E_STREAM,
				"LOAD of memory type out is illegal (OUT is written by GEMM/ALU "
				"and read by STORE)");
	if ((mem == VTA_MEM_UOP || mem == VTA_MEM_WGT) && any_pad(m))
		return vta_fail(err, VTA_E_STREAM, "padding not supported for %s",
				vta_mem_name(mem));
	vta_mem target = vta_mem_sram_of(mem);
	uint32_t depth = vta_config_sram_depth(cfg, mem);
	uint64_t end = m->sram_base + vta_load_sram_rows(m);
	if (end > depth && vta_mem_is_table(mem))
		return vta_fail(err, VTA_E_OOB, "table memory entries [%u, %llu) beyond depth %u",
				m->sram_base, (unsigned long long)end, depth);
	if (end > depth)
		return vta_fail(err, VTA_E_OOB, "%s SRAM rows [%u, %llu) beyond depth %u",
				vta_mem_name(target), m->sram_base, (unsigned long long)end, depth);
	return check_dram_rows(m, vta_load_elem_bytes(cfg, m), dram_size,
			       m->lut_bw ? "packed index read" : "read", err);
}

vta_status vta_store_check(const vta_config *cfg, const vta_mem_insn *m, uint64_t dram_size,
			   vta_error *err)
{
	if (m->mem_type != VTA_MEM_OUT)
		return vta_fail(err, VTA_E_STREAM, "STORE supports only memory type out, not %s",
				vta_mem_name((vta_mem)m->mem_type));
	if (any_pad(m))
		return vta_fail(err, VTA_E_STREAM, "padding not supported for store");
	if (m->lut_bw || m->lut_slot)
		return vta_fail(err, VTA_E_STREAM, "a store has no LUT fields (lut_bw %u, "
				"lut_slot %u)", m->lut_bw, m->lut_slot);
	if (m->lut_run || m->lut_group || m->lut_period)
		return vta_fail(err, VTA_E_STREAM, "a store has no LUT fields (lut_run %u, "
				"lut_group %u, lut_period %u)", m->lut_run, m->lut_group,
				m->lut_period);
	uint64_t end = m->sram_base + (uint64_t)m->y_size * m->x_size;
	if (end > cfg->sram[VTA_MEM_OUT].depth)
		return vta_fail(err, VTA_E_OOB, "out SRAM rows [%u, %llu) beyond depth %u",
				m->sram_base, (unsigned long long)end,
				cfg->sram[VTA_MEM_OUT].depth);
	return check_dram_rows(m, cfg->sram[VTA_MEM_OUT].elem_bytes, dram_size, "write", err);
}

vta_status vta_uop_budget_check(const vta_config *cfg, const vta_insn *insn, uint64_t *done,
				vta_error *err)
{
	uint64_t uops = vta_loop_uops(&insn->loop);
	if (uops > cfg->uop_budget - *done)
		return vta_fail(err, VTA_E_NO_FINISH,
				"the uop budget of %llu (timing.uop_budget) runs out: %llu uops "
				"after %llu",
				(unsigned long long)cfg->uop_budget, (unsigned long long)uops,
				(unsigned long long)*done);
	*done += uops;
	return VTA_OK;
}

double vta_host_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

vta_status vta_work_budget_check(const vta_config *cfg, uint64_t idx, double started,
				 vta_error *err)
{
	if (idx >= cfg->insn_budget)
		return vta_fail(err, VTA_E_NO_FINISH,
				"beyond the instruction budget of %llu (timing.insn_budget): a run "
				"executes instructions 0 to %llu only",
				(unsigned long long)cfg->insn_budget,
				(unsigned long long)cfg->insn_budget - 1);
	if (cfg->host_seconds > 0) {
		double spent = vta_host_now() - started;
		if (spent > cfg->host_seconds)
			return vta_fail(err, VTA_E_NO_FINISH,
					"the host-time budget of %g s (timing.host_seconds) runs "
					"out: %.3f s since the run began",
					cfg->host_seconds, spent);
	}
	return VTA_OK;
}

vta_status vta_loop_check(const vta_config *cfg, const vta_insn *insn, vta_error *err)
{
	const vta_loop *l = &insn->loop;
	if (l->uop_bgn > l->uop_end)
		return vta_fail(err, VTA_E_STREAM, "uop_bgn %u is after uop_end %u", l->uop_bgn,
				l->uop_end);
	if (l->uop_end > cfg->sram[VTA_MEM_UOP].depth)
		return vta_fail(err, VTA_E_OOB, "uop range [%u, %u) beyond UOP depth %u",
				l->uop_bgn, l->uop_end, cfg->sram[VTA_MEM_UOP].depth);
	if (insn->opcode != VTA_OP_ALU)
		return VTA_OK;
	const uint32_t op = insn->alu.op;
	const vta_alu_op_info *info = vta_alu_op_find(op);
	if (!info)
		return vta_fail(err, VTA_E_STREAM, "unknown ALU op %u", op);
	if (!vta_alu_gate_open(cfg, info->gate))
		return vta_fail(err, VTA_E_UNSUPPORTED, "ALU %s needs %s in the config", info->name,
				vta_alu_gate_key(info->gate));
	if (insn->alu.use_imm && !info->takes_imm)
		return vta_fail(err, VTA_E_STREAM, "ALU %s takes no immediate", info->name);
	return VTA_OK;
}

vta_status vta_insn_check_static(const vta_config *cfg, const vta_insn *insn, uint64_t dram_size,
				 vta_error *err)
{
	vta_status st = vta_insn_check_flags(insn, err);
	if (st || vta_insn_is_nop(insn))
		return st;
	switch (insn->opcode) {
	case VTA_OP_LOAD: return vta_load_check(cfg, &insn->mem, dram_size, err);
	case VTA_OP_STORE: return vta_store_check(cfg, &insn->mem, dram_size, err);
	case VTA_OP_GEMM:
	case VTA_OP_ALU: return vta_loop_check(cfg, insn, err);
	case VTA_OP_FINISH: break;
	}
	return VTA_OK;
}

void vta_uop_bounds_of(const vta_config *cfg, const vta_insn *insn, vta_uop_bounds *b)
{
	bool is_alu = insn->opcode == VTA_OP_ALU;
	bool reads_src = !vta_insn_resets(insn) &&
			 (!is_alu || !insn->alu.use_imm || vta_alu_imm_reads_src(cfg, insn));
	b->acc_depth = cfg->sram[VTA_MEM_ACC].depth;
	b->src_depth = !reads_src ? UINT64_MAX
		: is_alu	  ? cfg->sram[VTA_MEM_ACC].depth
				  : cfg->sram[VTA_MEM_INP].depth;
	b->wgt_depth = reads_src && !is_alu ? cfg->sram[VTA_MEM_WGT].depth : UINT64_MAX;
	b->src_name = is_alu ? "src acc" : "inp";
}

bool vta_uop_find_oob(const vta_uop_bounds *b, uint64_t dst, uint64_t src, uint64_t wgt,
		      vta_uop_oob *oob)
{
	if (dst >= b->acc_depth)
		*oob = (vta_uop_oob){"acc", dst, b->acc_depth};
	else if (src >= b->src_depth)
		*oob = (vta_uop_oob){b->src_name, src, b->src_depth};
	else if (wgt >= b->wgt_depth)
		*oob = (vta_uop_oob){"wgt", wgt, b->wgt_depth};
	else
		return false;
	return true;
}

vta_status vta_uop_oob_fail(const vta_uop_bounds *b, uint32_t upc, uint32_t it_out,
			    uint32_t it_in, uint64_t dst, uint64_t src, uint64_t wgt,
			    vta_error *err)
{
	vta_uop_oob oob;
	if (!vta_uop_find_oob(b, dst, src, wgt, &oob))
		return vta_fail(err, VTA_E_INTERNAL, "uop %u: indices within bounds", upc);
	return vta_fail(err, VTA_E_OOB, "uop %u (it_out %u, it_in %u): %s index %llu beyond "
			"depth %llu",
			upc, it_out, it_in, oob.what, (unsigned long long)oob.index,
			(unsigned long long)oob.depth);
}

vta_status vta_acc_hazard_fail(uint64_t row, uint64_t gap, uint32_t distance, uint32_t upc,
			       uint32_t it_out, uint32_t it_in, vta_error *err)
{
	return vta_fail(err, VTA_E_HAZARD,
			"ACC row %llu written again %llu uops after the previous write (distance "
			"%u), at uop %u (it_out %u, it_in %u)",
			(unsigned long long)row, (unsigned long long)gap, distance, upc, it_out,
			it_in);
}

bool vta_nest_acc_clear(const vta_loop *l, const uint32_t *dst, size_t stride,
			uint64_t distance)
{
	const uint64_t K = l->uop_end > l->uop_bgn ? l->uop_end - l->uop_bgn : 0;
	const uint64_t n_in = l->iter_in, iters = (uint64_t)l->iter_out * l->iter_in;
	if (K == 0 || iters == 0 || distance == 0)
		return true;
	/* ACC row d[k] + off(t) again as d[k2] + off(t + m), m iterations on, gap m K + k2 - k:
	 * off(t + m) - off(t) is q dst_factor_out + (m - q iter_in) dst_factor_in for the q
	 * outer steps taken, m / iter_in or one more when m is not a multiple of iter_in; m 0
	 * is the kernel itself */
	for (uint64_t m = 0; m * K < distance + K && m < iters; m++)
		for (uint64_t q = m / n_in; q <= m / n_in + 1; q++) {
			if (q > l->iter_out - 1u || (q > m / n_in && m % n_in == 0))
				continue;
			const int64_t diff = (int64_t)q * l->dst_factor_out +
					     ((int64_t)m - (int64_t)(q * n_in)) * l->dst_factor_in;
			for (uint64_t k2 = 0; k2 < K && m * K + k2 < distance + K; k2++) {
				const uint64_t end = m * K + k2; /* gap end - k, at least 1 */
				for (uint64_t k = end > distance ? end - distance : 0; k < K && k < end;
				     k++)
					if ((int64_t)dst[k * stride] - (int64_t)dst[k2 * stride] == diff &&
					    vta_acc_hazard(end - k, distance))
						return false;
			}
		}
	return true;
}
