/*
 * emit_lut.h - what the emitters share to have the LUT decoder decompress a constant
 * (docs/runtime.md "LUT constants on the decoder"): the table memory and descriptor slots of
 * one layer's program, the table image written into DRAM and its table load, and packed
 * index buffers aligned to their packed element. Not a public API.
 *
 * Every table of a layer is loaded once, at the start of its module's part of the program:
 * `lut` tables (WGT/INP) by the load module, `lut32` tables (ACC) by the compute module,
 * each in its own region of the table memory and its own slot, so the two modules never
 * write the same entries and program order alone puts every table before its uses. A layer
 * whose tables do not fit the table memory fails with a one-line error.
 */
#ifndef VTA_EMIT_LUT_H
#define VTA_EMIT_LUT_H

#include <stdint.h>

#include "lut.h"
#include "vta_stream.h"

/* The table memory and slots handed out so far in one layer's program. */
typedef struct vta_em_lut {
	uint32_t next_entry;
	uint32_t next_slot;
	uint64_t dram_bytes; /* table images and packed indices written */
} vta_em_lut;

/* Write t's table image for lanes of `target` (WGT/INP: int8 `lut`, ACC: int32 `lut32`)
 * into DRAM, emit its table load and return the slot it sets. `what` names the tensor. */
vta_status vta_em_lut_table(vta_stream *s, vta_em_lut *tm, const vta_lut_tensor *t,
			    vta_mem target, const char *what, uint32_t *slot, vta_error *err);

/* Allocate `bytes` of packed index rows of `row_bytes` each, at a multiple of row_bytes
 * (a decompressing load addresses DRAM in packed elements). */
vta_status vta_em_lut_alloc(vta_stream *s, vta_em_lut *tm, uint64_t bytes, uint64_t row_bytes,
			    const char *name, uint64_t *addr, vta_error *err);

/* VTA_E_USAGE unless the config has a decoder and t's indices fit its fields. */
vta_status vta_em_lut_check(const vta_config *cfg, const vta_lut_tensor *t, const char *layer,
			    const char *what, vta_error *err);

#endif /* VTA_EMIT_LUT_H */
