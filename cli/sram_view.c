/*
 * sram_view.c - SRAM images as rows of lanes (see sram_view.h).
 */
#include "sram_view.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "vta_bytes.h"
#include "vta_insn.h"

const vta_mem sram_view_mems[SRAM_VIEWS] = {VTA_MEM_UOP, VTA_MEM_INP, VTA_MEM_WGT, VTA_MEM_ACC,
					    VTA_MEM_OUT};

int sram_view_of(const vta_config *cfg, vta_mem mem, sram_view *v)
{
	memset(v, 0, sizeof(*v));
	v->mem = mem;
	switch (mem) {
	case VTA_MEM_UOP:
		v->name = "UOP";
		v->lanes = 1;
		v->lane_bytes = cfg->uop_elem_bytes; /* 4, or 8 in the wide encoding */
		break;
	case VTA_MEM_INP:
		v->name = "INP";
		v->lanes = cfg->batch * cfg->block_in;
		v->lane_bytes = cfg->inp_bits / 8;
		break;
	case VTA_MEM_WGT:
		v->name = "WGT";
		v->lanes = cfg->block_out * cfg->block_in;
		v->lane_bytes = cfg->wgt_bits / 8;
		break;
	case VTA_MEM_ACC:
		v->name = "ACC";
		v->lanes = cfg->batch * cfg->block_out;
		v->lane_bytes = cfg->acc_bits / 8;
		break;
	case VTA_MEM_OUT:
		v->name = "OUT";
		v->lanes = cfg->batch * cfg->block_out;
		v->lane_bytes = cfg->out_bits / 8;
		break;
	default: return -1;
	}
	v->depth = vta_config_sram_depth(cfg, mem);
	v->row_bytes = v->lanes * v->lane_bytes;
	return 0;
}

int sram_view_parse(const char *name, vta_mem *mem)
{
	for (int i = 0; i < SRAM_VIEWS; i++)
		if (!strcmp(name, vta_mem_name(sram_view_mems[i]))) {
			*mem = sram_view_mems[i];
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
