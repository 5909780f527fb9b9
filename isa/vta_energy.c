/* vta_energy.c - energy per action and area (vta_energy.h, docs/energy.md). */
#include "vta_energy.h"

#include <math.h>

static const char *const ENERGY_PARTS[VTA_ENERGY_PARTS] = {
	"dram_read", "dram_write", "sram_uop", "sram_inp", "sram_wgt", "sram_acc",
	"sram_out",  "gemm",       "alu",      "fetch",    "decoder",  "leakage"};
static const char *const AREA_PARTS[VTA_AREA_PARTS] = {
	"sram_uop", "sram_inp", "sram_wgt", "sram_acc", "sram_out", "lut_table", "gemm", "alu"};

/* The SRAMs in the statistics' order, as memory types. */
static const vta_mem SRAM_MEM[VTA_STATS_SRAMS] = {VTA_MEM_UOP, VTA_MEM_INP, VTA_MEM_WGT,
						  VTA_MEM_ACC, VTA_MEM_OUT};
_Static_assert(VTA_STATS_UOP == 0 && VTA_STATS_INP == 1 && VTA_STATS_WGT == 2 &&
		       VTA_STATS_ACC == 3 && VTA_STATS_OUT == 4 && VTA_STATS_SRAMS == 5,
	       "SRAM_MEM follows the statistics' order");
_Static_assert(VTA_ENERGY_SRAM_OUT - VTA_ENERGY_SRAM_UOP == VTA_STATS_SRAMS - 1 &&
		       VTA_AREA_SRAM_OUT - VTA_AREA_SRAM_UOP == VTA_STATS_SRAMS - 1,
	       "a part per SRAM, in the statistics' order");

const char *vta_energy_part_name(int part)
{
	return part >= 0 && part < VTA_ENERGY_PARTS ? ENERGY_PARTS[part] : "?";
}

const char *vta_area_part_name(int part)
{
	return part >= 0 && part < VTA_AREA_PARTS ? AREA_PARTS[part] : "?";
}

double vta_energy_sram_pj_per_64b(const vta_config *cfg, double kib)
{
	/* the three published points, in log2(KiB) and log2(pJ) */
	const double x[3] = {3.0, 5.0, 10.0};
	const double y[3] = {log2(cfg->e_sram_pj_8kib), log2(cfg->e_sram_pj_32kib),
			     log2(cfg->e_sram_pj_1mib)};
	const double lx = log2(kib > 1.0 / 1024 ? kib : 1.0 / 1024);
	const int seg = lx < x[1] ? 0 : 1;
	const double slope = (y[seg + 1] - y[seg]) / (x[seg + 1] - x[seg]);
	return exp2(y[seg] + slope * (lx - x[seg]));
}

double vta_energy_sram_row_pj(const vta_config *cfg, double kib, double row_bytes)
{
	/* a row of W 64-bit words is W banks side by side, each of kib / W, read at once */
	const double words = row_bytes / 8.0;
	const double banks = words > 1 ? words : 1;
	return vta_energy_sram_pj_per_64b(cfg, kib / banks) * words;
}

/* Bytes of one row of an SRAM and its capacity in KiB. */
static double row_bytes(const vta_config *cfg, vta_mem mem)
{
	return (double)vta_config_dram_elem_bytes(cfg, mem);
}

static double sram_kib(const vta_config *cfg, vta_mem mem)
{
	return row_bytes(cfg, mem) * (double)vta_config_sram_depth(cfg, mem) / 1024.0;
}

/* The decoder's table memory in KiB, 0 without a decoder. */
static double table_kib(const vta_config *cfg)
{
	return cfg->decomp_enabled ? (double)cfg->decomp_table_kib : 0.0;
}

void vta_energy_of(const vta_config *cfg, const vta_run_stats *st, vta_energy *out)
{
	double *e = out->part_pj;
	for (int i = 0; i < VTA_ENERGY_PARTS; i++)
		e[i] = 0;
	uint64_t read = st->dram_insn_bytes;
	for (int m = 0; m < VTA_MEM_COUNT; m++)
		read += st->dram_read_bytes[m];
	e[VTA_ENERGY_DRAM_READ] = (double)read * cfg->e_dram_read_pj_byte;
	e[VTA_ENERGY_DRAM_WRITE] = (double)st->dram_write_bytes * cfg->e_dram_write_pj_byte;
	double leak_kib = table_kib(cfg);
	for (int s = 0; s < VTA_STATS_SRAMS; s++) {
		const vta_mem mem = SRAM_MEM[s];
		const double kib = sram_kib(cfg, mem);
		const double row = vta_energy_sram_row_pj(cfg, kib, row_bytes(cfg, mem));
		e[VTA_ENERGY_SRAM_UOP + s] =
			row * ((double)st->sram[s].reads +
			       (double)st->sram[s].writes * cfg->e_sram_write_factor);
		leak_kib += kib;
	}
	e[VTA_ENERGY_GEMM] = (double)st->macs * cfg->e_mac_pj;
	e[VTA_ENERGY_ALU] =
		(double)st->alu_uops * (double)(cfg->batch * cfg->block_out) * cfg->e_alu_op_pj;
	/* an instruction is written into its module's queue and read out of it */
	e[VTA_ENERGY_FETCH] = (double)st->module[VTA_STATS_FETCH].insns *
			      (double)cfg->insn_bytes / 8.0 * 2.0 * cfg->e_insn_pj_64b;
	if (cfg->decomp_enabled) {
		/* per element an index picked from the packed row and a 32-bit table entry read;
		 * per table byte loaded, a write into the table memory */
		const double entry = vta_energy_sram_row_pj(cfg, table_kib(cfg), 4);
		e[VTA_ENERGY_DECODER] =
			(double)st->decoder.elements * (cfg->e_lut_index_pj + entry) +
			(double)st->decoder.table_bytes * entry / 4.0 * cfg->e_sram_write_factor;
	}
	e[VTA_ENERGY_LEAKAGE] = leak_kib * (double)st->cycles * cfg->e_leak_pj_kib_cycle;
	out->total_pj = 0;
	for (int i = 0; i < VTA_ENERGY_PARTS; i++)
		out->total_pj += e[i];
	out->edp_uj_us = out->total_pj * 1e-6 * st->time_us;
}

void vta_area_of(const vta_config *cfg, vta_area *out)
{
	double *a = out->part_mm2;
	/* an SRAM: its bits in cells, over the share of a macro the array fills */
	const double per_kib = 8192.0 * cfg->a_sram_cell_um2 / cfg->a_sram_efficiency / 1e6;
	for (int s = 0; s < VTA_STATS_SRAMS; s++)
		a[VTA_AREA_SRAM_UOP + s] = sram_kib(cfg, SRAM_MEM[s]) * per_kib;
	a[VTA_AREA_LUT_TABLE] = table_kib(cfg) * per_kib;
	a[VTA_AREA_GEMM] = (double)(cfg->batch * cfg->block_in * cfg->block_out) * cfg->a_mac_um2 / 1e6;
	a[VTA_AREA_ALU] = (double)(cfg->batch * cfg->block_out) *
			  (cfg->a_alu_add_um2 + (cfg->alu_mul ? cfg->a_alu_mul_um2 : 0.0)) / 1e6;
	out->total_mm2 = 0;
	for (int i = 0; i < VTA_AREA_PARTS; i++)
		out->total_mm2 += a[i];
}
