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

/* Depth of an SRAM of `kib` KiB whose rows are `row_bits` wide. */
static vta_status sram_depth(const char *key, uint32_t kib, uint64_t row_bits, uint32_t *depth,
			     vta_error *err)
{
	uint64_t bits = (uint64_t)kib * 1024u * 8u;
	if (bits < row_bits)
		return vta_fail(err, VTA_E_CONFIG,
				"sram_kib.%s: %u KiB is smaller than one row of %llu bytes", key,
				kib, (unsigned long long)(row_bits / 8));
	if (bits / row_bits > 65536u)
		return vta_fail(err, VTA_E_CONFIG,
				"sram_kib.%s: %u KiB gives %llu rows, more than the 16-bit sram_base "
				"field can address (65536)",
				key, kib, (unsigned long long)(bits / row_bits));
	*depth = (uint32_t)(bits / row_bits);
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
	cfg->inp_elem_bytes = cfg->batch * cfg->block_in * cfg->inp_bits / 8;
	cfg->wgt_elem_bytes = cfg->block_out * cfg->block_in * cfg->wgt_bits / 8;
	cfg->acc_elem_bytes = cfg->batch * cfg->block_out * cfg->acc_bits / 8;
	cfg->out_elem_bytes = cfg->batch * cfg->block_out * cfg->out_bits / 8;
	const bool wide = cfg->isa_encoding == VTA_ENC_WIDE;
	cfg->uop_elem_bytes = vta_encoding_uop_bytes(cfg->isa_encoding);
	cfg->insn_bytes = vta_encoding_insn_bytes(cfg->isa_encoding);

	if ((st = sram_depth("uop", cfg->uop_kib, cfg->uop_elem_bytes * 8ull, &cfg->uop_depth,
			     err)) ||
	    (st = sram_depth("inp", cfg->inp_kib, cfg->inp_elem_bytes * 8ull, &cfg->inp_depth, err)) ||
	    (st = sram_depth("wgt", cfg->wgt_kib, cfg->wgt_elem_bytes * 8ull, &cfg->wgt_depth, err)) ||
	    (st = sram_depth("acc", cfg->acc_kib, cfg->acc_elem_bytes * 8ull, &cfg->acc_depth, err)))
		return st;
	cfg->out_depth = cfg->acc_depth;
	cfg->uop_bytes = (uint64_t)cfg->uop_kib * 1024u;
	cfg->inp_bytes = (uint64_t)cfg->inp_kib * 1024u;
	cfg->wgt_bytes = (uint64_t)cfg->wgt_kib * 1024u;
	cfg->acc_bytes = (uint64_t)cfg->acc_kib * 1024u;
	cfg->out_bytes = (uint64_t)cfg->out_depth * cfg->out_elem_bytes;
	cfg->log_uop_depth = vta_log2(cfg->uop_depth);
	cfg->log_inp_depth = vta_log2(cfg->inp_depth);
	cfg->log_wgt_depth = vta_log2(cfg->wgt_depth);
	cfg->log_acc_depth = vta_log2(cfg->acc_depth);
	cfg->log_out_depth = vta_log2(cfg->out_depth);
	cfg->lut_depth = cfg->decomp_table_kib * 256u; /* 32-bit entries; 256 KiB: 65536 */
	if (cfg->isa_uop_field_depth != 0 && cfg->isa_uop_field_depth < cfg->uop_depth)
		return vta_fail(err, VTA_E_CONFIG,
				"isa.uop_field_depth: %u is less than the UOP SRAM's %u micro-ops "
				"(sram_kib.uop): uop_end could not address them all",
				cfg->isa_uop_field_depth, cfg->uop_depth);
	cfg->log_uop_field_depth = cfg->isa_uop_field_depth ? vta_log2(cfg->isa_uop_field_depth)
							    : cfg->log_uop_depth;

	vta_field_widths *fw = &cfg->fw;
	fw->encoding = cfg->isa_encoding;
	fw->insn_words = cfg->insn_bytes / 8;
	fw->uop_word_bits = cfg->uop_elem_bytes * 8;
	fw->opcode = 3;
	fw->dep_flag = 1;
	fw->memop_id = 3;
	fw->memop_sram = 16;
	fw->memop_dram = 32;
	fw->memop_lut_bw = 3;
	fw->memop_lut_slot = 3;
	fw->memop_lut_chan = 16; /* the four 4-bit pads */
	fw->memop_size = 16;
	fw->memop_stride = 16;
	fw->memop_pad = 4;
	fw->reset = 1;
	fw->uop_bgn = cfg->log_uop_field_depth;
	fw->uop_end = cfg->log_uop_field_depth + 1;
	/* VTA's 14 bits; wide: at least enough to walk the deepest INP, WGT or ACC row by row */
	unsigned deepest = cfg->log_acc_depth;
	if (cfg->log_inp_depth > deepest)
		deepest = cfg->log_inp_depth;
	if (cfg->log_wgt_depth > deepest)
		deepest = cfg->log_wgt_depth;
	fw->loop_iter = wide && deepest + 1 > 14 ? deepest + 1 : 14;
	fw->gemm_dst_factor = cfg->log_acc_depth;
	fw->gemm_src_factor = cfg->log_inp_depth;
	fw->gemm_wgt_factor = cfg->log_wgt_depth;
	fw->alu_dst_factor = cfg->log_acc_depth;
	fw->alu_src_factor = cfg->log_acc_depth;
	fw->alu_opcode = VTA_ALU_OPCODE_BITS;
	fw->alu_use_imm = 1;
	fw->alu_imm = 16;
	fw->uop_dst = cfg->log_acc_depth;
	fw->uop_src = cfg->log_acc_depth > cfg->log_inp_depth ? cfg->log_acc_depth
							     : cfg->log_inp_depth;
	fw->uop_wgt = cfg->log_wgt_depth;

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
	switch (mem) {
	case VTA_MEM_UOP: return cfg->uop_elem_bytes;
	case VTA_MEM_WGT: return cfg->wgt_elem_bytes;
	case VTA_MEM_INP: return cfg->inp_elem_bytes;
	case VTA_MEM_ACC: return cfg->acc_elem_bytes;
	case VTA_MEM_OUT: return cfg->out_elem_bytes;
	case VTA_MEM_ACC_8BIT: return cfg->batch * cfg->block_out * cfg->inp_bits / 8;
	case VTA_MEM_LUT: return 1;
	case VTA_MEM_LUT32: return 4;
	default: return 0;
	}
}

uint32_t vta_config_sram_depth(const vta_config *cfg, vta_mem mem)
{
	switch (mem) {
	case VTA_MEM_UOP: return cfg->uop_depth;
	case VTA_MEM_WGT: return cfg->wgt_depth;
	case VTA_MEM_INP: return cfg->inp_depth;
	case VTA_MEM_ACC:
	case VTA_MEM_ACC_8BIT: return cfg->acc_depth;
	case VTA_MEM_OUT: return cfg->out_depth;
	case VTA_MEM_LUT:
	case VTA_MEM_LUT32: return cfg->lut_depth;
	default: return 0;
	}
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
