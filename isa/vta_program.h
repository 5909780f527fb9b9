/*
 * vta_program.h - a program: the instruction stream plus the DRAM segments it brings
 * (micro-op kernels and data), and the binary stream file that stores it.
 *
 * Instructions are kept encoded (16 bytes each, 32 in the wide encoding), exactly as FETCH
 * reads them from DRAM.
 * Segments are placed into DRAM before a run; a UOP segment holds encoded micro-ops and
 * is printed as `uop` lines by the disassembler, a DATA segment holds raw bytes.
 *
 * The binary file (layout: docs/isa.md "Stream files") records the geometry, the
 * ISA-relevant config (batch, blocks, data widths, log depths, the instruction encoding);
 * loading a stream on a config with another geometry is refused, so a stream is never
 * decoded with another encoding than its own.
 */
#ifndef VTA_PROGRAM_H
#define VTA_PROGRAM_H

#include <stddef.h>
#include <stdint.h>

#include "vta_config.h"
#include "vta_insn.h"
#include "vta_file.h" /* vta_read_file, the size limits */
#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum vta_segment_kind { VTA_SEG_DATA = 0, VTA_SEG_UOP = 1 } vta_segment_kind;

typedef struct vta_segment {
	vta_segment_kind kind;
	uint64_t dram_addr; /* byte address */
	uint32_t size;      /* bytes; a UOP segment holds whole micro-ops (4 or 8 bytes) */
	uint8_t *bytes;
} vta_segment;

/* The ISA geometry recorded in a stream file header. */
typedef struct vta_geometry {
	uint8_t log_batch, log_block_in, log_block_out;
	uint8_t inp_bits, wgt_bits, acc_bits; /* as log2 */
	uint8_t log_uop_depth, log_inp_depth, log_wgt_depth, log_acc_depth;
	union {
		/* bytes 10..15: encoding, then zeros */
		uint8_t reserved[6];
		/* vta_encoding; 0 (vta128) in streams written before it was recorded */
		uint8_t encoding;
	};
} vta_geometry;

typedef struct vta_program {
	vta_geometry geometry;
	uint8_t *insns;    /* n_insns * vta_geometry_insn_bytes(&geometry) */
	size_t n_insns, cap_insns;
	vta_segment *segments;
	size_t n_segments, cap_segments;
} vta_program;

void vta_geometry_from_config(const vta_config *cfg, vta_geometry *geo);
/* Bytes of one instruction and of one micro-op in the geometry's encoding. */
uint32_t vta_geometry_insn_bytes(const vta_geometry *geo);
uint32_t vta_geometry_uop_bytes(const vta_geometry *geo);
/* VTA_E_STREAM naming the first differing parameter. */
vta_status vta_geometry_check(const vta_config *cfg, const vta_geometry *geo, vta_error *err);

/* An empty program for cfg's geometry. */
void vta_program_init(vta_program *prog, const vta_config *cfg);
void vta_program_free(vta_program *prog);

/* Encode and append one instruction (range-checked). */
vta_status vta_program_push(vta_program *prog, const vta_config *cfg, const vta_insn *insn,
			    vta_error *err);
/* Append one already encoded instruction, of the program's encoding (no checks). */
vta_status vta_program_push_raw(vta_program *prog, const uint8_t *bytes, vta_error *err);
/* Append a segment (bytes copied). */
vta_status vta_program_add_segment(vta_program *prog, vta_segment_kind kind, uint64_t dram_addr,
				   const uint8_t *bytes, uint32_t size, vta_error *err);

/* Two segments whose DRAM bytes overlap (empty segments occupy none): sets *found and, in
 * program order, *earlier < *later; the pair whose later segment starts lowest in DRAM.
 * VTA_E_NOMEM only. Placing both would let one silently overwrite the other, so the
 * assembler and the stream reader refuse such a program. */
vta_status vta_program_overlap(const vta_program *prog, int *found, size_t *earlier,
			       size_t *later, vta_error *err);

/* Decode instruction i. */
vta_status vta_program_insn(const vta_program *prog, const vta_config *cfg, size_t i,
			    vta_insn *insn, vta_error *err);
/* Decode instruction i's head only (vta_insn_decode_head). */
vta_status vta_program_insn_head(const vta_program *prog, const vta_config *cfg, size_t i,
				 vta_insn *insn, vta_error *err);

/* Binary stream files. Reading checks the geometry against cfg. */
vta_status vta_program_write(const vta_program *prog, const char *path, vta_error *err);
vta_status vta_program_read(const char *path, const vta_config *cfg, vta_program *prog,
			    vta_error *err);
/* Serialise to / parse from memory (used by the file functions and tests). Reading and
 * parsing overwrite *prog; on failure it is left empty (safe to free). */
vta_status vta_program_serialize(const vta_program *prog, uint8_t **out, size_t *out_len,
				 vta_error *err);
vta_status vta_program_parse(const uint8_t *buf, size_t len, const vta_config *cfg,
			     vta_program *prog, vta_error *err);
/* True when the first bytes are a stream file's magic (else: assembly text). */
int vta_program_is_binary(const uint8_t *buf, size_t len);

/* Write len bytes to a new file; VTA_E_IO naming the path. */
vta_status vta_write_file(const char *path, const void *bytes, size_t len, vta_error *err);

/* Read only the geometry of a stream file (to disassemble without a config file). */
vta_status vta_geometry_read_file(const char *path, vta_geometry *geo, vta_error *err);
/* A config with default timing whose ISA geometry equals geo (for disassembly). */
vta_status vta_config_from_geometry(const vta_geometry *geo, vta_config *cfg, vta_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VTA_PROGRAM_H */
