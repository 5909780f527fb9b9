/*
 * vta_config.c - defaults, validation and derived values of the hardware config.
 *
 * Derivations follow VTA's hw_spec_const.h: an SRAM of S bytes whose rows hold
 * batch x block lanes of w bits has depth S*8 / (rows bits); OUT has ACC's depth with
 * out_bits lanes. Instruction field widths are log2 of the depths they index. Fields are
 * packed into two 64-bit words and never straddle them (VTA's struct layout), so a config
 * whose fields overflow a word is rejected.
 */
#include "vta_config.h"

#include <stdio.h>
#include <string.h>

void vta_config_default(vta_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	snprintf(cfg->name, sizeof(cfg->name), "%s", "pynq-1x16x16");
	cfg->clock_mhz = 100.0;
	cfg->log_batch = 0;
	cfg->log_block_in = 4;
	cfg->log_block_out = 4;
	cfg->inp_bits = 8;
	cfg->wgt_bits = 8;
	cfg->acc_bits = 32;
	cfg->uop_kib = 32;
	cfg->inp_kib = 32;
	cfg->wgt_kib = 256;
	cfg->acc_kib = 128;
	cfg->insn_depth = 512;
	cfg->dep_depth = 8;
	cfg->dram_bus_bits = 64;
	cfg->dram_latency_cycles = 64;
	cfg->dram_max_burst_bytes = 2048;
	cfg->dram_size_mib = 256;
	cfg->alu_mul = true;
	cfg->alu_tflite_ext = false;
	cfg->decomp_enabled = true;
	cfg->decomp_indices_per_cycle = 16;
	cfg->gemm_ii = 1;
	cfg->alu_ii = 2;
	cfg->alu_imm_ii = 1;
	cfg->insn_overhead_cycles = 4;
	cfg->pipeline_fill_cycles = 4;
	cfg->acc_dep_distance = 2;
	cfg->cycle_budget = 10000000000ull;
	vta_error err = {0};
	(void)vta_config_derive(cfg, &err); /* the defaults are valid */
}

static int is_pow2(uint64_t v)
{
	return v != 0 && (v & (v - 1)) == 0;
}

static unsigned log2u(uint64_t v)
{
	unsigned l = 0;
	while (v > 1) {
		v >>= 1;
		l++;
	}
	return l;
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
	if (cfg->log_batch > 4 || cfg->log_block_in > 7 || cfg->log_block_out > 7)
		return vta_fail(err, VTA_E_CONFIG,
				"arch: log_batch must be <= 4 and log_block_in/out <= 7");
	if (cfg->inp_bits != 8 || cfg->wgt_bits != 8)
		return vta_fail(err, VTA_E_CONFIG,
				"arch: inp_bits and wgt_bits must be 8 (int8 datapath)");
	if (cfg->acc_bits != 32)
		return vta_fail(err, VTA_E_CONFIG, "arch: acc_bits must be 32 (int32 accumulators)");
	const struct {
		const char *key;
		uint32_t kib;
	} srams[] = {{"uop", cfg->uop_kib}, {"inp", cfg->inp_kib}, {"wgt", cfg->wgt_kib},
		     {"acc", cfg->acc_kib}};
	for (size_t i = 0; i < sizeof(srams) / sizeof(srams[0]); i++)
		if (!is_pow2(srams[i].kib))
			return vta_fail(err, VTA_E_CONFIG, "sram_kib.%s: %u is not a power of two",
					srams[i].key, srams[i].kib);

	cfg->batch = 1u << cfg->log_batch;
	cfg->block_in = 1u << cfg->log_block_in;
	cfg->block_out = 1u << cfg->log_block_out;
	cfg->out_bits = cfg->inp_bits;
	cfg->inp_elem_bytes = cfg->batch * cfg->block_in * cfg->inp_bits / 8;
	cfg->wgt_elem_bytes = cfg->block_out * cfg->block_in * cfg->wgt_bits / 8;
	cfg->acc_elem_bytes = cfg->batch * cfg->block_out * cfg->acc_bits / 8;
	cfg->out_elem_bytes = cfg->batch * cfg->block_out * cfg->out_bits / 8;
	cfg->uop_elem_bytes = 4;

	vta_status st;
	if ((st = sram_depth("uop", cfg->uop_kib, 32, &cfg->uop_depth, err)) ||
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
	cfg->log_uop_depth = log2u(cfg->uop_depth);
	cfg->log_inp_depth = log2u(cfg->inp_depth);
	cfg->log_wgt_depth = log2u(cfg->wgt_depth);
	cfg->log_acc_depth = log2u(cfg->acc_depth);
	cfg->log_out_depth = log2u(cfg->out_depth);

	vta_field_widths *fw = &cfg->fw;
	fw->opcode = 3;
	fw->dep_flag = 1;
	fw->memop_id = 3;
	fw->memop_sram = 16;
	fw->memop_dram = 32;
	fw->memop_size = 16;
	fw->memop_stride = 16;
	fw->memop_pad = 4;
	fw->reset = 1;
	fw->uop_bgn = cfg->log_uop_depth;
	fw->uop_end = cfg->log_uop_depth + 1;
	fw->loop_iter = 14;
	fw->gemm_dst_factor = cfg->log_acc_depth;
	fw->gemm_src_factor = cfg->log_inp_depth;
	fw->gemm_wgt_factor = cfg->log_wgt_depth;
	fw->alu_dst_factor = cfg->log_acc_depth;
	fw->alu_src_factor = cfg->log_acc_depth;
	fw->alu_opcode = 3;
	fw->alu_use_imm = 1;
	fw->alu_imm = 16;
	fw->uop_dst = cfg->log_acc_depth;
	fw->uop_src = cfg->log_acc_depth > cfg->log_inp_depth ? cfg->log_acc_depth
							     : cfg->log_inp_depth;
	fw->uop_wgt = cfg->log_wgt_depth;

	unsigned head = fw->opcode + 4 * fw->dep_flag;
	fw->mem_word0_bits = head + fw->memop_id + fw->memop_sram + fw->memop_dram;
	fw->mem_word1_bits = 2 * fw->memop_size + fw->memop_stride + 4 * fw->memop_pad;
	fw->gemm_word0_bits = head + fw->reset + fw->uop_bgn + fw->uop_end + 2 * fw->loop_iter;
	fw->gemm_word1_bits =
		2 * (fw->gemm_dst_factor + fw->gemm_src_factor + fw->gemm_wgt_factor);
	fw->alu_word1_bits = 2 * (fw->alu_dst_factor + fw->alu_src_factor) + fw->alu_opcode +
			     fw->alu_use_imm + fw->alu_imm;
	fw->uop_bits = fw->uop_dst + fw->uop_src + fw->uop_wgt;

	if (fw->gemm_word0_bits > 64)
		return vta_fail(err, VTA_E_CONFIG,
				"sram_kib.uop: GEMM/ALU word 0 needs %u bits (uop_bgn %u, uop_end %u),"
				" more than 64",
				fw->gemm_word0_bits, fw->uop_bgn, fw->uop_end);
	if (fw->gemm_word1_bits > 64)
		return vta_fail(err, VTA_E_CONFIG,
				"sram_kib: GEMM word 1 needs %u bits (factors acc %u, inp %u, "
				"wgt %u), more than 64",
				fw->gemm_word1_bits, fw->gemm_dst_factor, fw->gemm_src_factor,
				fw->gemm_wgt_factor);
	if (fw->alu_word1_bits > 64)
		return vta_fail(err, VTA_E_CONFIG,
				"sram_kib.acc: ALU word 1 needs %u bits (4 ACC factors of %u bits + "
				"op, use_imm, imm), more than 64",
				fw->alu_word1_bits, fw->alu_dst_factor);
	if (fw->uop_bits > 32)
		return vta_fail(err, VTA_E_CONFIG,
				"sram_kib: a micro-op needs %u bits (dst %u, src %u, wgt %u), more "
				"than 32",
				fw->uop_bits, fw->uop_dst, fw->uop_src, fw->uop_wgt);

	if (cfg->clock_mhz <= 0)
		return vta_fail(err, VTA_E_CONFIG, "clock_mhz: must be positive");
	if (cfg->insn_depth == 0 || cfg->dep_depth == 0)
		return vta_fail(err, VTA_E_CONFIG, "queues: depths must be at least 1");
	if (!is_pow2(cfg->dram_bus_bits) || cfg->dram_bus_bits < 8)
		return vta_fail(err, VTA_E_CONFIG,
				"dram.bus_bits: %u is not a power of two >= 8", cfg->dram_bus_bits);
	if (cfg->dram_max_burst_bytes == 0 || cfg->dram_max_burst_bytes * 8ull < cfg->dram_bus_bits)
		return vta_fail(err, VTA_E_CONFIG,
				"dram.max_burst_bytes: must hold at least one bus beat");
	if (cfg->dram_size_mib == 0 || cfg->dram_size_mib > 4096)
		return vta_fail(err, VTA_E_CONFIG, "dram.size_mib: must be in 1..4096");
	if (cfg->decomp_enabled && cfg->decomp_indices_per_cycle == 0)
		return vta_fail(err, VTA_E_CONFIG,
				"decompressor.indices_per_cycle: must be at least 1");
	if (cfg->gemm_ii == 0 || cfg->alu_ii == 0 || cfg->alu_imm_ii == 0)
		return vta_fail(err, VTA_E_CONFIG, "timing: initiation intervals must be >= 1");
	if (cfg->acc_dep_distance > 64)
		return vta_fail(err, VTA_E_CONFIG, "timing.acc_dep_distance: must be <= 64");
	if (cfg->cycle_budget == 0)
		return vta_fail(err, VTA_E_CONFIG, "timing.cycle_budget: must be >= 1");
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
	default: return 0;
	}
}

const char *vta_mem_name(vta_mem mem)
{
	static const char *const names[] = {"uop", "wgt", "inp", "acc", "out", "acc8"};
	return (unsigned)mem < VTA_MEM_COUNT ? names[mem] : "?";
}
