/*
 * vta_mem.c - the table of memories (vta_mem.h): one row per memory type.
 */
#include "vta_mem.h"

#include <stddef.h>

/* name, code, element rows x lanes of lane bits, size key, depth of, space, statistics slot */
#define SRAM(ID, name, rows, lanes, bits, key, depth_of, slot)                                \
	[VTA_MEM_##ID] = {name,          VTA_MEM_##ID,  VTA_ROWS_##rows,  VTA_LANES_##lanes,   \
			  VTA_LANE_##bits, key,         VTA_MEM_##depth_of, VTA_SPACE_##ID, slot}
#define OTHER(ID, name, rows, lanes, bits, space)                                             \
	[VTA_MEM_##ID] = {name,          VTA_MEM_##ID, VTA_ROWS_##rows,  VTA_LANES_##lanes,    \
			  VTA_LANE_##bits, NULL,         VTA_MEM_##ID, VTA_SPACE_##space, -1}

static const vta_mem_info TABLE[VTA_MEM_COUNT] = {
	SRAM(UOP, "uop", ONE, ONE, UOP_BITS, "sram_kib.uop", UOP, VTA_STATS_UOP),
	SRAM(WGT, "wgt", BLOCK_OUT, BLOCK_IN, WGT_BITS, "sram_kib.wgt", WGT, VTA_STATS_WGT),
	SRAM(INP, "inp", BATCH, BLOCK_IN, INP_BITS, "sram_kib.inp", INP, VTA_STATS_INP),
	SRAM(ACC, "acc", BATCH, BLOCK_OUT, ACC_BITS, "sram_kib.acc", ACC, VTA_STATS_ACC),
	SRAM(OUT, "out", BATCH, BLOCK_OUT, OUT_BITS, NULL, ACC, VTA_STATS_OUT),
	OTHER(ACC_8BIT, "acc8", BATCH, BLOCK_OUT, INP_BITS, ACC),
	OTHER(LUT, "lut", ONE, ONE, 8_BITS, LUT),
	OTHER(LUT32, "lut32", ONE, ONE, 32_BITS, LUT),
};
#undef SRAM
#undef OTHER

const vta_mem_info *vta_mem_info_of(uint32_t mem)
{
	return mem < VTA_MEM_COUNT ? &TABLE[mem] : NULL;
}

const char *vta_mem_name(vta_mem mem)
{
	return (unsigned)mem < VTA_MEM_COUNT ? TABLE[mem].name : "?";
}

bool vta_mem_is_sram(uint32_t mem)
{
	return mem < VTA_SRAM_COUNT;
}

bool vta_mem_is_table(uint32_t mem)
{
	return mem < VTA_MEM_COUNT && TABLE[mem].space == VTA_SPACE_LUT;
}

vta_mem vta_mem_sram_of(uint32_t mem)
{
	if (mem >= VTA_MEM_COUNT || !vta_mem_is_sram((uint32_t)TABLE[mem].space))
		return VTA_MEM_COUNT;
	return (vta_mem)TABLE[mem].space; /* an SRAM space is its SRAM's code */
}

vta_mem vta_mem_of_stats_slot(unsigned slot)
{
	for (unsigned m = 0; m < VTA_SRAM_COUNT; m++)
		if (TABLE[m].stats_slot == (int)slot)
			return (vta_mem)m;
	return VTA_MEM_COUNT;
}

const char *vta_stats_slot_name(unsigned slot)
{
	return vta_mem_name(vta_mem_of_stats_slot(slot));
}
