/*
 * vta_mem.h - the one table of the accelerator's memories (docs/isa.md "Memory types").
 *
 * A memory is one row of vta_mem.c's table: its name, its memory_type code, the geometry
 * of its element (how its row size follows from the config), the config key that sizes it,
 * its statistics slot and its footprint space. The config's SRAM array, the config keys
 * sram_kib.*, the statistics, the race checks, the reports, the traces and the CLI read
 * names, order and geometry from it, so a memory type is added by its code below and its
 * row in vta_mem.c (docs/architecture.md "How to add a memory"), and the checks of
 * tests/isa/test_isa_mem.c fail if a derived list falls out of step.
 */
#ifndef VTA_MEM_H
#define VTA_MEM_H

#include <assert.h>
#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Memory types as encoded in LOAD/STORE memory_type (VTA values). The SRAMs come first. */
typedef enum vta_mem {
	VTA_MEM_UOP = 0,
	VTA_MEM_WGT = 1,
	VTA_MEM_INP = 2,
	VTA_MEM_ACC = 3,
	VTA_MEM_OUT = 4,
	VTA_MEM_ACC_8BIT = 5,
	VTA_MEM_LUT = 6,   /* int8 value tables into the LUT decoder's table memory */
	VTA_MEM_LUT32 = 7, /* int32 value tables likewise */
	VTA_MEM_COUNT = 8
} vta_mem;

/* Memory types below this are the SRAMs: storage of their own, sized (or derived) by the
 * config, in vta_config.sram[], with statistics. */
#define VTA_SRAM_COUNT 5

/* Bits of the memory_type field: VTA's 128-bit encoding has 3, all eight codes used (it is
 * full); the wide one 4 (three in word 0 where vta128 has them, the fourth in a spare bit
 * of word 2, so every existing stream keeps its bytes). A memory type added beyond
 * VTA_MEM_LUT32 is wide-only: vta128 refuses its code ("does not fit in 3 bits"). */
#define VTA_MEM_TYPE_BITS_VTA128 3u
#define VTA_MEM_TYPE_BITS_WIDE 4u
#define VTA_MEM_VTA128_COUNT (VTA_MEM_LUT32 + 1) /* the codes vta128 carries */
static_assert(VTA_MEM_VTA128_COUNT <= 1u << VTA_MEM_TYPE_BITS_VTA128,
	      "vta128's memory types exceed its 3-bit memory_type field");
static_assert(VTA_MEM_COUNT <= 1u << VTA_MEM_TYPE_BITS_WIDE,
	      "the memory table exceeds the wide encoding's 4-bit memory_type field");

/* The order in which statistics, reports and traces list the SRAMs (that of the sram_kib
 * keys): the statistics slot of each SRAM's row. */
typedef enum vta_sram_slot {
	VTA_STATS_UOP = 0,
	VTA_STATS_INP,
	VTA_STATS_WGT,
	VTA_STATS_ACC,
	VTA_STATS_OUT,
	VTA_STATS_SRAMS
} vta_sram_slot;
static_assert(VTA_STATS_SRAMS == VTA_SRAM_COUNT, "one statistics slot per SRAM");

/* Where an access lands, for footprints and race checks. The SRAMs keep vta_mem's codes. */
typedef enum vta_space {
	VTA_SPACE_UOP = VTA_MEM_UOP,
	VTA_SPACE_WGT = VTA_MEM_WGT,
	VTA_SPACE_INP = VTA_MEM_INP,
	VTA_SPACE_ACC = VTA_MEM_ACC,
	VTA_SPACE_OUT = VTA_MEM_OUT,
	VTA_SPACE_LUT,      /* the decoder's table memory, in entries */
	VTA_SPACE_LUT_SLOT, /* its VTA_LUT_SLOTS descriptors */
	VTA_SPACE_DRAM,     /* bytes */
	VTA_SPACE_COUNT
} vta_space;
static_assert(VTA_SPACE_LUT == VTA_SRAM_COUNT, "the SRAM spaces are the SRAMs' codes");

/* An element's geometry: rows x lanes of lane_bits. */
typedef enum vta_mem_rows {
	VTA_ROWS_ONE,
	VTA_ROWS_BATCH,    /* arch.log_batch */
	VTA_ROWS_BLOCK_OUT /* arch.log_block_out */
} vta_mem_rows;
typedef enum vta_mem_lanes {
	VTA_LANES_ONE,
	VTA_LANES_BLOCK_IN, /* arch.log_block_in */
	VTA_LANES_BLOCK_OUT /* arch.log_block_out */
} vta_mem_lanes;
typedef enum vta_mem_lane_bits {
	VTA_LANE_UOP_BITS, /* a micro-op of the encoding: 32 (vta128) or 64 (wide) */
	VTA_LANE_INP_BITS, /* arch.inp_bits */
	VTA_LANE_WGT_BITS, /* arch.wgt_bits */
	VTA_LANE_ACC_BITS, /* arch.acc_bits */
	VTA_LANE_OUT_BITS, /* the output's: inp_bits */
	VTA_LANE_8_BITS,   /* an int8 table entry */
	VTA_LANE_32_BITS   /* an int32 table entry */
} vta_mem_lane_bits;

typedef struct vta_mem_info {
	const char *name;      /* in assembly, reports, traces: "uop" (docs/isa.md) */
	vta_mem id;            /* its memory_type code, also its row in the table */
	vta_mem_rows rows;     /* element geometry, in DRAM and (SRAMs) in a row */
	vta_mem_lanes lanes;
	vta_mem_lane_bits lane_bits;
	const char *size_key;  /* the config key of its size in KiB; NULL: not sized by one */
	vta_mem depth_of;      /* SRAMs: the SRAM whose depth it has (OUT: ACC's); else itself */
	vta_space space;       /* where a LOAD of it lands: ACC_8BIT in ACC, LUT32 in LUT */
	int stats_slot;        /* vta_sram_slot of an SRAM, -1 for any other memory type */
} vta_mem_info;

/* The row of a memory type; NULL for a code without one. */
const vta_mem_info *vta_mem_info_of(uint32_t mem);

/* "uop", "wgt", "inp", "acc", "out", "acc8", "lut", "lut32" ("?" for a code without a row). */
const char *vta_mem_name(vta_mem mem);

/* True for the SRAMs (codes below VTA_SRAM_COUNT). */
bool vta_mem_is_sram(uint32_t mem);

/* True for the value-table loads (LUT, LUT32): their loads write the LUT decoder's table
 * memory and set a descriptor slot. */
bool vta_mem_is_table(uint32_t mem);

/* The SRAM a LOAD of a memory type that is no table writes (ACC_8BIT: ACC; an SRAM:
 * itself); VTA_MEM_COUNT for a table or a code without a row. */
vta_mem vta_mem_sram_of(uint32_t mem);

/* The SRAM listed in statistics slot `slot` (VTA_STATS_UOP ..). */
vta_mem vta_mem_of_stats_slot(unsigned slot);

/* The name of the SRAM in statistics slot `slot`: what reports and traces print. */
const char *vta_stats_slot_name(unsigned slot);

#ifdef __cplusplus
}
#endif

#endif /* VTA_MEM_H */
