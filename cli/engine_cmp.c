/*
 * engine_cmp.c - the first difference between two executions' memories (see engine_cmp.h).
 */
#include "engine_cmp.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

void engine_cmp_sram(const vta_config *cfg, const sram_view *v, const uint8_t *ref,
		     const uint8_t *model, engine_cmp *out)
{
	memset(out, 0, sizeof(*out));
	for (uint64_t row = 0; row < v->depth; row++) {
		const uint64_t at = row * v->row_bytes;
		if (!memcmp(ref + at, model + at, v->row_bytes))
			continue;
		if (out->count++)
			continue;
		uint32_t lane = 0;
		while (sram_view_lane(v, ref, row, lane) == sram_view_lane(v, model, row, lane))
			lane++;
		if (v->mem == VTA_MEM_UOP)
			snprintf(out->where, sizeof(out->where), "%s row %" PRIu64, v->name, row);
		else
			snprintf(out->where, sizeof(out->where), "%s row %" PRIu64 " lane %" PRIu32,
				 v->name, row, lane);
		sram_view_lane_text(v, cfg, ref, row, lane, out->ref, sizeof(out->ref));
		sram_view_lane_text(v, cfg, model, row, lane, out->model, sizeof(out->model));
	}
}

void engine_cmp_dram(const uint8_t *ref, const uint8_t *model, uint64_t size, engine_cmp *out)
{
	/* DRAMs are large and mostly equal: memcmp a block, and only look into those differing */
	enum { BLOCK = 4096 };
	memset(out, 0, sizeof(*out));
	for (uint64_t b = 0; b < size; b += BLOCK) {
		const uint64_t n = size - b < BLOCK ? size - b : BLOCK;
		if (!memcmp(ref + b, model + b, n))
			continue;
		for (uint64_t a = b; a < b + n; a++) {
			if (ref[a] == model[a] || out->count++)
				continue;
			snprintf(out->where, sizeof(out->where), "DRAM 0x%" PRIx64, a);
			snprintf(out->ref, sizeof(out->ref), "0x%02x", ref[a]);
			snprintf(out->model, sizeof(out->model), "0x%02x", model[a]);
		}
	}
}
