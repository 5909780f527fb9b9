/*
 * sram_view.h - an SRAM image read as rows of lanes, in the reference executor's layouts
 * (vta_ref.h): INP, WGT and OUT rows of int8 lanes, ACC rows of int32 lanes (little-endian),
 * UOP rows of one encoded micro-op (of the config's size). What `exec --engine both` reports
 * and the debugger's `print` shows.
 */
#ifndef VTASIM_SRAM_VIEW_H
#define VTASIM_SRAM_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "vta_config.h"

typedef struct sram_view {
	vta_mem mem;         /* UOP, WGT, INP, ACC or OUT */
	char name[8];        /* "UOP", "WGT", "INP", "ACC", "OUT": its table name in capitals */
	uint32_t depth;      /* rows */
	uint32_t row_bytes;
	uint32_t lanes;      /* per row (UOP: 1, the micro-op) */
	uint32_t lane_bytes; /* 1 (int8), 4 (int32); UOP: the micro-op's, 4 or 8 */
} sram_view;

/* The view of SRAM mem for cfg; 0, or -1 for a memory type that is no SRAM of its own
 * (ACC_8BIT, LUT, LUT32). */
int sram_view_of(const vta_config *cfg, vta_mem mem, sram_view *v);

/* The SRAM named "uop", "wgt", "inp", "acc" or "out"; -1 for any other name. */
int sram_view_parse(const char *name, vta_mem *mem);

/* Lane `lane` of row `row` of an image of the SRAM, sign-extended (UOP: the encoded word,
 * as unsigned bits). */
int64_t sram_view_lane(const sram_view *v, const uint8_t *image, uint64_t row, uint32_t lane);

/* One lane as text: decimal, or for UOP the micro-op's fields ("dst=1 src=2 wgt=3", or
 * its word in hex when it does not decode). Returns buf. */
char *sram_view_lane_text(const sram_view *v, const vta_config *cfg, const uint8_t *image,
			  uint64_t row, uint32_t lane, char *buf, size_t size);

#endif /* VTASIM_SRAM_VIEW_H */
