/*
 * rtl_lut.h - the verilated LUT index decoder (vta_lut_decoder.v) behind a C interface, for
 * two uses: decoding a whole int8 TFLM LUT tensor the way runtime/lut/lut.h's vta_lut_decode()
 * does, and decoding one decompressing LOAD of the model (vta_rtl_lut_load_run). Either way
 * the wrapper loads value tables through the decoder's table port, streams the packed index
 * string in bus words, collects up to indices_per_cycle values per clock and reports the
 * cycles that took.
 *
 * A decoder's bus width (in_bits) and indices per cycle are fixed when the RTL is verilated
 * (the CMake list VTASIM_RTL_DECODERS); vta_rtl_lut_create picks a built variant. Its value
 * table holds vta_rtl_lut_table_entries() 32-bit entries (a tensor's int8 values widened, its
 * output their low bytes): a tensor whose channel tables do not fit is decoded in groups of
 * whole channels (channel axis first), each group a job of its own that starts at any bit of
 * the string. With the channel axis last every table is needed at once, so such a tensor must
 * fit. A job with an explicit run_len is one decoder job: its tables must fit too.
 */
#ifndef VTASIM_RTL_LUT_H
#define VTASIM_RTL_LUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vta_rtl_lut vta_rtl_lut;

/* An int8 LUT tensor (the fields of runtime/lut/lut.h's vta_lut_tensor this decoder handles; the
 * per-channel valid counts are not modelled: every index below the stride is valid). */
typedef struct vta_rtl_lut_job {
	unsigned bitwidth;         /* 1..7 */
	size_t count;              /* elements, < 2^32 */
	size_t channels;           /* >= 1, divides count */
	bool axis_last;            /* channels interleave (TFLM's use_alternate_axis) */
	const int8_t *table;       /* channels * stride values */
	size_t stride;             /* entries per channel table, 1..128 */
	const uint8_t *indices;    /* packed MSB-first index string */
	size_t indices_bytes;      /* at least ceil(count * bitwidth / 8) */
	/* 0 for a tensor. Otherwise the RTL's own channel bookkeeping, for a stream whose
	 * channels are not a tensor's (a LOAD of blocked SRAM rows): element i reads table
	 * (i / run_len) % channels, channels need not divide count, axis_last is ignored, and
	 * all tables must fit the decoder at once. */
	size_t run_len;
} vta_rtl_lut_job;

/* What a decode cost, accumulated over calls (zero it to start). */
typedef struct vta_rtl_lut_stats {
	uint64_t decode_cycles;    /* from each job's start to its last output beat */
	uint64_t table_cycles;     /* value-table words written */
	uint64_t words;            /* index-string words streamed */
	uint64_t jobs;             /* decoder jobs (channel groups) */
} vta_rtl_lut_stats;

/* The (in_bits, indices_per_cycle) variants built: writes up to max pairs, returns the count. */
size_t vta_rtl_lut_variants(unsigned (*variants)[2], size_t max);

/* Build a decoder: VTA_E_UNSUPPORTED (naming the built variants) if none matches. */
vta_status vta_rtl_lut_create(vta_rtl_lut **out, unsigned in_bits, unsigned indices_per_cycle,
			      vta_error *err);
void vta_rtl_lut_destroy(vta_rtl_lut *lut); /* NULL is fine */

/* Value-table entries of this decoder. */
size_t vta_rtl_lut_table_entries(const vta_rtl_lut *lut);

/* Write every signal to a VCD file from now on (VTA_E_IO if it cannot be opened); a NULL
 * path closes the file (complete from then on) and stops tracing. */
vta_status vta_rtl_lut_trace(vta_rtl_lut *lut, const char *vcd_path, vta_error *err);

/* Decode job into out (count values). Errors: VTA_E_DATA for a malformed job (bit width,
 * stride, channel count, short buffers) and for an index at or beyond its channel's table,
 * naming the first such element as vta_lut_decode does; VTA_E_USAGE if out is too short;
 * VTA_E_UNSUPPORTED for a tensor this decoder cannot hold (axis-last tables beyond the table,
 * count >= 2^32); VTA_E_INTERNAL if the RTL stops producing values. stats may be NULL. */
vta_status vta_rtl_lut_decode(vta_rtl_lut *lut, const vta_rtl_lut_job *job, int8_t *out,
			      size_t out_len, vta_rtl_lut_stats *stats, vta_error *err);

/* ----- A decompressing LOAD of the model, as one decoder job -----
 * (docs/rtl.md "The decoder in the model's LOAD path"). `rows` packed rows of
 * ceil(lanes * bitwidth / 8) bytes each, back to back as the DMA delivers them: `lanes`
 * indices MSB first, then pad bits to the byte, which the decoder skips. Lane L of every row
 * reads table (L / run_len) % channels of `tables` (channels x stride 32-bit entries, as the
 * model's table memory holds them), of block r / block_rows for row r of a multi-block load
 * (`blocks` blocks of `channels` tables, one after another). The values written are the entries' low 8 bits (int8
 * rows: WGT, INP) or the whole entries (wide: ACC rows from lut32 tables). */
typedef struct vta_rtl_lut_load {
	unsigned bitwidth;       /* 1..7 */
	unsigned lanes;          /* indices per row, >= 1 */
	uint64_t rows;           /* >= 1 */
	const uint8_t *packed;   /* rows x ceil(lanes * bitwidth / 8) bytes */
	const uint32_t *tables;  /* channels x stride entries */
	unsigned channels;       /* >= 1: tables of one channel block */
	unsigned run_len;        /* >= 1 */
	unsigned stride;         /* entries per channel table, >= 1 (the decoder holds the
				  * first min(stride, 2^bitwidth), all an index can read) */
	int wide;                /* int32 values (out is int32_t[]) rather than int8 */
	uint64_t cycle;          /* simulated cycle of the job's start (the waveform's time) */
	unsigned blocks;         /* channel blocks (0 or 1: one); `tables` holds blocks x
				  * channels tables, one block after another */
	uint64_t block_rows;     /* rows per block when blocks > 1: row r reads block
				  * r / block_rows's tables */
} vta_rtl_lut_load;

/* Decode a load into out (rows x lanes values, int8 or int32), *cycles = the job's decode
 * cycles (start to last output beat; table writes not included). Only the table words that
 * differ from what the decoder's table holds are written, just before the job. Errors:
 * vta_lut_index_fail's status (VTA_E_OOB) and message (vta_rules.h) for the first index at
 * or beyond the stride, counting elements from the load's first; VTA_E_UNSUPPORTED when the
 * tables do not fit the decoder's table memory or the load has 2^32 elements or more;
 * VTA_E_USAGE for a malformed load; VTA_E_INTERNAL if the RTL stops producing values. After
 * an error out holds no meaningful values. */
vta_status vta_rtl_lut_load_run(vta_rtl_lut *lut, const vta_rtl_lut_load *load, void *out,
				uint64_t *cycles, vta_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VTASIM_RTL_LUT_H */
