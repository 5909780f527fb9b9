/*
 * sram_view.c - SRAM images as rows of lanes (see sram_view.h).
 */
#include "sram_view.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "vta_bytes.h"
#include "vta_insn.h"

int sram_view_of(const vta_config *cfg, vta_mem mem, sram_view *v)
{
	memset(v, 0, sizeof(*v));
	if (!vta_mem_is_sram(mem))
		return -1;
	v->mem = mem;
	const char *name = vta_mem_name(mem);
	for (size_t i = 0; name[i] && i + 1 < sizeof(v->name); i++)
		v->name[i] = (char)toupper((unsigned char)name[i]);
	v->lanes = vta_config_elem_lanes(cfg, mem);
	v->lane_bytes = vta_config_lane_bits(cfg, mem) / 8;
	v->depth = vta_config_sram_depth(cfg, mem);
	v->row_bytes = v->lanes * v->lane_bytes;
	return 0;
}

int sram_view_parse(const char *name, vta_mem *mem)
{
	for (unsigned m = 0; m < VTA_SRAM_COUNT; m++)
		if (!strcmp(name, vta_mem_name((vta_mem)m))) {
			*mem = (vta_mem)m;
			return 0;
		}
	return -1;
}

int64_t sram_view_lane(const sram_view *v, const uint8_t *image, uint64_t row, uint32_t lane)
{
	const uint8_t *p = image + row * v->row_bytes + (uint64_t)lane * v->lane_bytes;
	if (v->mem == VTA_MEM_UOP)
		return v->lane_bytes == 8 ? (int64_t)vta_le64_get(p) : (int64_t)vta_le32_get(p);
	if (v->lane_bytes == 1)
		return (int8_t)p[0];
	return (int32_t)vta_le32_get(p);
}

char *sram_view_lane_text(const sram_view *v, const vta_config *cfg, const uint8_t *image,
			  uint64_t row, uint32_t lane, char *buf, size_t size)
{
	int64_t x = sram_view_lane(v, image, row, lane);
	if (v->mem != VTA_MEM_UOP) {
		snprintf(buf, size, "%" PRId64, x);
		return buf;
	}
	vta_uop u;
	if (vta_uop_decode(cfg, image + row * v->row_bytes, &u, NULL) != VTA_OK) {
		snprintf(buf, size, "0x%0*" PRIx64 " (no micro-op)", (int)(2 * v->lane_bytes), x);
		return buf;
	}
	snprintf(buf, size, "dst=%" PRIu32 " src=%" PRIu32 " wgt=%" PRIu32, u.dst, u.src, u.wgt);
	return buf;
}
