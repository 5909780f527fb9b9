/*
 * vta_config.c - validation and derived values of the hardware config (its keys, their
 * defaults and ranges are the table of vta_config_keys.c).
 *
 * Derivations follow VTA's hw_spec_const.h: an SRAM of S bytes whose rows hold
 * batch x block lanes of w bits has depth S*8 / (rows bits); OUT has ACC's depth with
 * out_bits lanes. Instruction field widths are log2 of the depths they index. Fields are
 * packed into 64-bit words and never straddle them (VTA's struct layout), so a config
 * whose fields overflow a word is rejected; in VTA's 128-bit encoding that happens as soon
 * as an SRAM grows past the default at BLOCK 16, and the message names isa.encoding, whose
 * wide layout holds every depth the 16-bit sram_base can address.
 */
#include "vta_config.h"

#include <string.h>

#include "vta_alu_ops.h"
#include "vta_config_keys.h"
#include "vta_insn_fields.h"

unsigned vta_log2(uint64_t v)
{
	unsigned l = 0;
	while (v > 1) {
		v >>= 1;
		l++;
	}
	return l;
}

/* What a config whose fields overflow VTA's 128-bit words should set (only vta128 can). */
#define WIDE_HINT "; set isa.encoding: wide"

uint32_t vta_encoding_insn_bytes(uint32_t encoding)
{
	return encoding == VTA_ENC_WIDE ? 32 : 16;
}

uint32_t vta_encoding_uop_bytes(uint32_t encoding)
{
	return encoding == VTA_ENC_WIDE ? 8 : 4;
}

/* Bits of one lane of a memory's element (vta_mem_info.lane_bits). */
static uint64_t lane_bits(const vta_config *cfg, vta_mem_lane_bits bits)
{
	switch (bits) {
	case VTA_LANE_UOP_BITS: return vta_encoding_uop_bytes(cfg->isa_encoding) * 8u;
	case VTA_LANE_INP_BITS: return cfg->inp_bits;
	case VTA_LANE_WGT_BITS: return cfg->wgt_bits;
	case VTA_LANE_ACC_BITS: return cfg->acc_bits;
	case VTA_LANE_OUT_BITS: return cfg->out_bits;
	case VTA_LANE_8_BITS: return 8;
	case VTA_LANE_32_BITS: return 32;
	}
	return 0;
}

/* Lanes of one element of a memory type: rows x lanes of its geometry in the table. */
static uint32_t elem_lanes(const vta_config *cfg, const vta_mem_info *m)
{
	uint32_t rows = m->rows == VTA_ROWS_BATCH ? cfg->batch
			: m->rows == VTA_ROWS_BLOCK_OUT ? cfg->block_out
							: 1;
	uint32_t lanes = m->lanes == VTA_LANES_BLOCK_IN ? cfg->block_in
			 : m->lanes == VTA_LANES_BLOCK_OUT ? cfg->block_out
							   : 1;
	return rows * lanes;
}

/* Bytes of one element of a memory type, from its geometry in the table. */
static uint32_t elem_bytes(const vta_config *cfg, const vta_mem_info *m)
{
	return (uint32_t)(elem_lanes(cfg, m) * lane_bits(cfg, m->lane_bits) / 8u);
}

uint32_t vta_config_elem_lanes(const vta_config *cfg, vta_mem mem)
{
	const vta_mem_info *m = vta_mem_info_of(mem);
	return m ? elem_lanes(cfg, m) : 0;
}

uint32_t vta_config_lane_bits(const vta_config *cfg, vta_mem mem)
{
	const vta_mem_info *m = vta_mem_info_of(mem);
	return m ? (uint32_t)lane_bits(cfg, m->lane_bits) : 0;
}

/* Depth of an SRAM sized by `key` (`kib` KiB) whose rows are `row_bits` wide. */
static vta_status sram_depth(const char *key, uint32_t kib, uint64_t row_bits, uint32_t *depth,
			     vta_error *err)
{
	uint64_t bits = (uint64_t)kib * 1024u * 8u;
	if (bits < row_bits)
		return vta_fail(err, VTA_E_CONFIG,
				"%s: %u KiB is smaller than one row of %llu bytes", key, kib,
				(unsigned long long)(row_bits / 8));
	if (bits / row_bits > 65536u)
		return vta_fail(err, VTA_E_CONFIG,
				"%s: %u KiB gives %llu rows, more than the 16-bit sram_base "
				"field can address (65536)",
				key, kib, (unsigned long long)(bits / row_bits));
	*depth = (uint32_t)(bits / row_bits);
	return VTA_OK;
}

/* Every SRAM's row size, depth and capacity: the sized ones in the order of their keys
 * (statistics slots), so the first too small is the one reported; then those whose depth
 * is another's (OUT). */
static vta_status derive_srams(vta_config *cfg, vta_error *err)
{
	for (unsigned m = 0; m < VTA_SRAM_COUNT; m++)
		cfg->sram[m].elem_bytes = elem_bytes(cfg, vta_mem_info_of(m));
	for (unsigned slot = 0; slot < VTA_STATS_SRAMS; slot++) {
		const vta_mem_info *m = vta_mem_info_of(vta_mem_of_stats_slot(slot));
		vta_sram_geometry *s = &cfg->sram[m->id];
		if (!m->size_key)
			continue;
		vta_status st =
			sram_depth(m->size_key, s->kib, s->elem_bytes * 8ull, &s->depth, err);
		if (st)
			return st;
		s->bytes = (uint64_t)s->kib * 1024u;
	}
	for (unsigned m = 0; m < VTA_SRAM_COUNT; m++) {
		vta_sram_geometry *s = &cfg->sram[m];
		if (!vta_mem_info_of(m)->size_key) {
			s->depth = cfg->sram[vta_mem_info_of(m)->depth_of].depth;
			s->bytes = (uint64_t)s->depth * s->elem_bytes;
		}
		s->log_depth = vta_log2(s->depth);
	}
	return VTA_OK;
}

vta_status vta_config_derive(vta_config *cfg, vta_error *err)
{
	vta_status st = vta_config_check_keys(cfg, err);
	if (st)
		return st;

	cfg->batch = 1u << cfg->log_batch;
	cfg->block_in = 1u << cfg->log_block_in;
	cfg->block_out = 1u << cfg->log_block_out;
	cfg->out_bits = cfg->inp_bits;
	const bool wide = cfg->isa_encoding == VTA_ENC_WIDE;
	cfg->insn_bytes = vta_encoding_insn_bytes(cfg->isa_encoding);
	if ((st = derive_srams(cfg, err)))
		return st;
	cfg->lut_depth = cfg->decomp_table_kib * 256u; /* 32-bit entries; 256 KiB: 65536 */
	if (cfg->decomp_multi_block && !wide)
		return vta_fail(err, VTA_E_CONFIG,
				"decompressor.multi_block: a multi-block load's lut_run has no bits "
				"in VTA's 128-bit memory instruction; set isa.encoding: wide");
	if (cfg->decomp_zero_fill && !wide)
		return vta_fail(err, VTA_E_CONFIG,
				"decompressor.zero_fill: a zero-lane fill load's lut_group and "
				"lut_period have no bits in VTA's 128-bit memory instruction; set "
				"isa.encoding: wide");
	if (cfg->isa_uop_field_depth != 0 &&
	    cfg->isa_uop_field_depth < cfg->sram[VTA_MEM_UOP].depth)
		return vta_fail(err, VTA_E_CONFIG,
				"isa.uop_field_depth: %u is less than the UOP SRAM's %u micro-ops "
				"(sram_kib.uop): uop_end could not address them all",
				cfg->isa_uop_field_depth, cfg->sram[VTA_MEM_UOP].depth);
	cfg->log_uop_field_depth = cfg->isa_uop_field_depth ? vta_log2(cfg->isa_uop_field_depth)
							    : cfg->sram[VTA_MEM_UOP].log_depth;

	vta_field_widths *fw = &cfg->fw;
	fw->encoding = cfg->isa_encoding;
	fw->insn_words = cfg->insn_bytes / 8;
	fw->uop_word_bits = cfg->sram[VTA_MEM_UOP].elem_bytes * 8;
	fw->opcode = 3;
	fw->dep_flag = 1;
	fw->memop_id = VTA_MEM_TYPE_BITS_VTA128;
	fw->memop_id_high = wide ? VTA_MEM_TYPE_BITS_WIDE - VTA_MEM_TYPE_BITS_VTA128 : 0;
	fw->memop_sram = 16;
	fw->memop_dram = 32;
	fw->memop_lut_bw = 3;
	fw->memop_lut_slot = 3;
	fw->memop_lut_chan = 16; /* the four 4-bit pads */
	fw->memop_lut_run = wide ? 16 : 0; /* vta128's memory words are full */
	fw->memop_lut_group = wide ? 8 : 0;   /* divides block_in, at most 128 */
	fw->memop_lut_period = wide ? 16 : 0; /* output channels per group */
	fw->memop_size = 16;
	fw->memop_stride = 16;
	fw->memop_pad = 4;
	fw->reset = 1;
	fw->uop_bgn = cfg->log_uop_field_depth;
	fw->uop_end = cfg->log_uop_field_depth + 1;
	/* VTA's 14 bits; wide: at least enough to walk the deepest INP, WGT or ACC row by row */
	unsigned deepest = cfg->sram[VTA_MEM_ACC].log_depth;
	if (cfg->sram[VTA_MEM_INP].log_depth > deepest)
		deepest = cfg->sram[VTA_MEM_INP].log_depth;
	if (cfg->sram[VTA_MEM_WGT].log_depth > deepest)
		deepest = cfg->sram[VTA_MEM_WGT].log_depth;
	fw->loop_iter = wide && deepest + 1 > 14 ? deepest + 1 : 14;
	fw->gemm_dst_factor = cfg->sram[VTA_MEM_ACC].log_depth;
	fw->gemm_src_factor = cfg->sram[VTA_MEM_INP].log_depth;
	fw->gemm_wgt_factor = cfg->sram[VTA_MEM_WGT].log_depth;
	fw->alu_dst_factor = cfg->sram[VTA_MEM_ACC].log_depth;
	fw->alu_src_factor = cfg->sram[VTA_MEM_ACC].log_depth;
	fw->alu_opcode = VTA_ALU_OPCODE_BITS;
	fw->alu_use_imm = 1;
	fw->alu_imm = 16;
	fw->uop_dst = cfg->sram[VTA_MEM_ACC].log_depth;
	fw->uop_src = cfg->sram[VTA_MEM_ACC].log_depth > cfg->sram[VTA_MEM_INP].log_depth
		? cfg->sram[VTA_MEM_ACC].log_depth
		: cfg->sram[VTA_MEM_INP].log_depth;
	fw->uop_wgt = cfg->sram[VTA_MEM_WGT].log_depth;

	/* word sizes from the field tables: the head, then each format's own fields */
	unsigned head = vta_format_bits(vta_insn_head(), fw, 0);
	const vta_insn_format *mem = vta_insn_format_of(VTA_OP_LOAD);
	const vta_insn_format *gemm = vta_insn_format_of(VTA_OP_GEMM);
	const vta_insn_format *alu = vta_insn_format_of(VTA_OP_ALU);
	fw->mem_word0_bits = head + vta_format_bits(mem, fw, 0);
	fw->mem_word1_bits = vta_format_bits(mem, fw, 1);
	fw->gemm_word0_bits = head + vta_format_bits(gemm, fw, 0);
	fw->gemm_word1_bits = vta_format_bits(gemm, fw, 1);
	fw->alu_word1_bits = vta_format_bits(alu, fw, 1);
	fw->uop_bits = vta_format_bits(vta_uop_format(), fw, 0);
	vta_insn_layout_build(fw, &cfg->layout);

	/* VTA's format, named by what overflows and what to set */
	if (fw->gemm_word0_bits > 64)
		return vta_fail(err, VTA_E_CONFIG,
				"%s: GEMM/ALU word 0 needs %u bits (uop_bgn %u, uop_end %u),"
				" more than 64%s",
				cfg->isa_uop_field_depth ? "isa.uop_field_depth" : "sram_kib.uop",
				fw->gemm_word0_bits, fw->uop_bgn, fw->uop_end, WIDE_HINT);
	if (fw->gemm_word1_bits > 64)
		return vta_fail(err, VTA_E_CONFIG,
				"sram_kib: GEMM word 1 needs %u bits (factors acc %u, inp %u, "
				"wgt %u), more than 64%s",
				fw->gemm_word1_bits, fw->gemm_dst_factor, fw->gemm_src_factor,
				fw->gemm_wgt_factor, WIDE_HINT);
	if (fw->alu_word1_bits > 64)
		return vta_fail(err, VTA_E_CONFIG,
				"sram_kib.acc: ALU word 1 needs %u bits (4 ACC factors of %u bits + "
				"op, use_imm, imm), more than 64%s",
				fw->alu_word1_bits, fw->alu_dst_factor, WIDE_HINT);
	if (fw->uop_bits > fw->uop_word_bits)
		return vta_fail(err, VTA_E_CONFIG,
				"sram_kib: a micro-op needs %u bits (dst %u, src %u, wgt %u), more "
				"than %u%s",
				fw->uop_bits, fw->uop_dst, fw->uop_src, fw->uop_wgt,
				fw->uop_word_bits, WIDE_HINT);
	/* every word of every format, in either encoding (the wide layout holds any depth up
	 * to 65536 rows, so this only guards the tables) */
	const vta_insn_format *fmts[] = {mem, gemm, alu};
	for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++)
		for (unsigned w = 0; w < fw->insn_words; w++) {
			unsigned bits = (w == 0 ? head : 0) + vta_format_bits(fmts[i], fw, w);
			if (bits > 64)
				return vta_fail(err, VTA_E_CONFIG,
						"isa.encoding: %s word %u of %s needs %u bits, more "
						"than 64",
						vta_encoding_name(fw->encoding), w, fmts[i]->name,
						bits);
		}

	if (cfg->dram_max_burst_bytes * 8ull < cfg->dram_bus_bits)
		return vta_fail(err, VTA_E_CONFIG,
				"dram.max_burst_bytes: must hold at least one bus beat");
	return VTA_OK;
}

uint32_t vta_config_dram_elem_bytes(const vta_config *cfg, vta_mem mem)
{
	const vta_mem_info *m = vta_mem_info_of(mem);
	return m ? elem_bytes(cfg, m) : 0;
}

uint32_t vta_config_sram_depth(const vta_config *cfg, vta_mem mem)
{
	const vta_mem_info *m = vta_mem_info_of(mem);
	if (!m)
		return 0;
	if (m->space == VTA_SPACE_LUT)
		return cfg->lut_depth;
	return cfg->sram[m->space].depth; /* an SRAM space is its SRAM's code */
}

void vta_config_default(vta_config *cfg)
{
	size_t n;
	const vta_config_key *keys = vta_config_keys(&n);
	memset(cfg, 0, sizeof(*cfg));
	for (size_t i = 0; i < n; i++)
		(void)vta_config_key_parse(&keys[i], keys[i].def, cfg, NULL); /* tested valid */
	(void)vta_config_derive(cfg, NULL);
}

vta_status vta_config_set(vta_config *cfg, const char *key, const char *value, vta_error *err)
{
	const vta_config_key *k = vta_config_key_find(key);
	if (!k)
		return vta_config_unknown_key(key, err);
	vta_config c = *cfg; /* unchanged on failure */
	vta_status st = vta_config_key_parse(k, value, &c, err);
	if (!st)
		st = vta_config_derive(&c, err);
	if (!st)
		*cfg = c;
	return st;
}
