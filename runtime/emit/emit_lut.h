/*
 * emit_lut.h - what the emitters share to have the LUT decoder decompress a constant: the
 * table memory and descriptor slots of one layer's program, the table image written into
 * DRAM and its table load, and packed index buffers aligned to their packed element. Not a
 * public API. Where each tensor's tables go and which module loads them when (so that
 * program order alone orders them before their uses), and when a filter's tables are split
 * by channel block (`may_split`): docs/runtime.md "LUT constants on the decoder", "Tables".
 */
#ifndef VTA_EMIT_LUT_H
#define VTA_EMIT_LUT_H

#include <stdbool.h>
#include <stdint.h>

#include "lut.h"
#include "lut_pack.h"
#include "vta_stream.h"

/* The table memory and slots handed out so far in one layer's program. */
typedef struct vta_em_lut {
	uint32_t next_entry;
	uint32_t next_slot;
	uint64_t dram_bytes; /* table images and packed indices written */
} vta_em_lut;

/* One tensor's tables: their image in DRAM, their region of the table memory, their slot. */
typedef struct vta_em_lut_table {
	uint64_t addr;          /* the image in DRAM */
	uint64_t channels;      /* tables in the image */
	uint32_t stride;        /* entries per table */
	uint32_t entry_bytes;   /* 1 (lut) or 4 (lut32) */
	uint32_t sram, slot;
	uint32_t block;         /* 0: the whole image is loaded; else tables per load */
	int64_t resident;       /* split: the block whose tables are loaded, or -1; a window
				 * (vta_em_lut_use_run): its first channel */
} vta_em_lut_table;

/* Whether tables of image `img` do not fit whole in the table memory left after `used`
 * entries and come one channel block at a time instead (per-channel tables only). */
bool vta_em_lut_splits(const vta_config *cfg, uint64_t used, const vta_lut_table_image *img);

/* Write t's table image for lanes of `target` (WGT/INP: int8 `lut`, ACC: int32 `lut32`)
 * into DRAM and reserve its region and slot. `what` names the tensor. With `may_split`,
 * per-channel tables that do not fit whole are loaded a block of `block` channels at a time
 * (vta_em_lut_use). */
vta_status vta_em_lut_put(vta_stream *s, vta_em_lut *tm, const vta_lut_tensor *t,
			  vta_mem target, const char *what, bool may_split, uint32_t block,
			  vta_em_lut_table *tb, vta_error *err);

/* Make the tables of a decompressing load whose first channel is `chan` resident before
 * it, and return the lut_chan it uses: the whole image is loaded on the first call; split
 * tables when chan's block is not the resident one (the load then counts channels from its
 * block's first). */
vta_status vta_em_lut_use(vta_stream *s, vta_em_lut_table *tb, uint32_t chan,
			  uint32_t *lut_chan, vta_error *err);

/* Channels of a filter's tables that fit the table memory left after `used` entries, in
 * whole blocks of `unit` channels (0 when not even one block fits); all of them when the
 * image fits whole. What a multi-block load can span at once. */
uint64_t vta_em_lut_window(const vta_config *cfg, uint64_t used, const vta_lut_table_image *img,
			   uint32_t unit);

/* Make the tables of channels [chan, chan + n) resident for one multi-block load and return
 * its lut_chan: the whole image on the first call, or, for tables put with `block` the
 * window's channels, a window of them from chan when [chan, chan + n) is not inside the
 * loaded one (n <= block). */
vta_status vta_em_lut_use_run(vta_stream *s, vta_em_lut_table *tb, uint32_t chan, uint32_t n,
			      uint32_t *lut_chan, vta_error *err);

/* Allocate `bytes` of packed index rows of `row_bytes` each, at a multiple of row_bytes
 * (a decompressing load addresses DRAM in packed elements). */
vta_status vta_em_lut_alloc(vta_stream *s, vta_em_lut *tm, uint64_t bytes, uint64_t row_bytes,
			    const char *name, uint64_t *addr, vta_error *err);

/* VTA_E_USAGE unless the config has a decoder and t's indices fit its fields. */
vta_status vta_em_lut_check(const vta_config *cfg, const vta_lut_tensor *t, const char *layer,
			    const char *what, vta_error *err);

#endif /* VTA_EMIT_LUT_H */
