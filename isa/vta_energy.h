/*
 * vta_energy.h - energy and area beside cycles (docs/energy.md). Energy is counted per
 * action from a run's own statistics (vta_run_stats: DRAM bytes, SRAM row accesses, MACs,
 * ALU lane operations, instructions, decoded elements, table bytes) times the config's
 * `energy:` table, plus SRAM leakage over the run's cycles; area comes from the config's
 * SRAM sizes and datapath widths and its `area:` table. Nothing is estimated: a count the
 * statistics do not hold is not priced.
 */
#ifndef VTA_ENERGY_H
#define VTA_ENERGY_H

#include "vta_config.h"
#include "vta_engine.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Energy per 64-bit access of an SRAM of `kib` KiB: log-log through the table's three
 * points (8 KiB, 32 KiB, 1 MiB), extended beyond them with the nearest segment's slope. */
double vta_energy_sram_pj_per_64b(const vta_config *cfg, double kib);

/* Energy of one access of a row of `row_bytes` of an SRAM of `kib` KiB: a row of W 64-bit
 * words is built of W banks side by side, each of kib / W KiB, all accessed at once (a row
 * narrower than 64 bits is a share of one word of the whole SRAM). */
double vta_energy_sram_row_pj(const vta_config *cfg, double kib, double row_bytes);

/* Where a run's energy went, in pJ. */
enum {
	VTA_ENERGY_DRAM_READ = 0,
	VTA_ENERGY_DRAM_WRITE,
	VTA_ENERGY_SRAM_UOP,
	VTA_ENERGY_SRAM_INP,
	VTA_ENERGY_SRAM_WGT,
	VTA_ENERGY_SRAM_ACC,
	VTA_ENERGY_SRAM_OUT,
	VTA_ENERGY_GEMM,
	VTA_ENERGY_ALU,
	VTA_ENERGY_FETCH,
	VTA_ENERGY_DECODER,
	VTA_ENERGY_LEAKAGE,
	VTA_ENERGY_PARTS
};

typedef struct vta_energy {
	double part_pj[VTA_ENERGY_PARTS];
	double total_pj;
	double edp_uj_us; /* energy x delay: total in uJ times the run's time in us */
} vta_energy;

/* The report's name of a part ("dram_read", "sram_inp", "gemm", ...). */
const char *vta_energy_part_name(int part);

/* The energy of a run of `st` on `cfg`. */
void vta_energy_of(const vta_config *cfg, const vta_run_stats *st, vta_energy *out);

/* What the config's hardware occupies, in mm^2. */
enum {
	VTA_AREA_SRAM_UOP = 0,
	VTA_AREA_SRAM_INP,
	VTA_AREA_SRAM_WGT,
	VTA_AREA_SRAM_ACC,
	VTA_AREA_SRAM_OUT,
	VTA_AREA_LUT_TABLE, /* the decoder's table memory, when the config has a decoder */
	VTA_AREA_GEMM,
	VTA_AREA_ALU,
	VTA_AREA_PARTS
};

typedef struct vta_area {
	double part_mm2[VTA_AREA_PARTS];
	double total_mm2;
} vta_area;

const char *vta_area_part_name(int part);

void vta_area_of(const vta_config *cfg, vta_area *out);

#ifdef __cplusplus
}
#endif

#endif /* VTA_ENERGY_H */
