/*
 * vta_insn_layout.h - the field tables of vta_insn_fields.c compiled for one config's widths:
 * each field's word, bit position and width, so that encoding and decoding an instruction
 * is a shift and a mask per field instead of a walk of the tables that places every field
 * again (docs/isa.md "Instruction formats").
 *
 * vta_config_derive builds it into the config (plain data: a config copied byte for byte
 * carries it along). The encoder and decoder take the compiled path for every well-formed
 * value and fall back to the table walk for anything it refuses, so every message stays
 * the walk's own.
 */
#ifndef VTA_INSN_LAYOUT_H
#define VTA_INSN_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The most fields of one compiled format: the head's five and a LOAD/STORE's sixteen
 * (a config carries the layout, and some caches compare configs byte for byte: it stays
 * small). */
#define VTA_LAYOUT_MAX_FIELDS 22
#define VTA_LAYOUT_MAX_WORDS 4 /* VTA_INSN_MAX_WORDS */

typedef struct vta_layout_field {
	uint32_t defined;  /* > 0: only values below it are defined */
	uint16_t member;   /* offset in vta_insn (vta_uop for micro-ops) */
	uint8_t type;      /* vta_field_type */
	bool absent;       /* its bits belong to another field here: its value must be 0 */
	bool plain;        /* unsigned (or a flag) and in one piece: a shift and a mask */
	uint8_t word, shift, width;
	uint8_t high_word, high_shift, high_width; /* the bits above `width` (none: 0 wide) */
} vta_layout_field;

/* One format as placed: the head's fields first (for an instruction), then its own. */
typedef struct vta_layout_format {
	bool fast;        /* the compiled path may take it (every field inside its word) */
	uint8_t n_fields;
	uint8_t end[VTA_LAYOUT_MAX_WORDS]; /* bits used of each word, from bit 0 */
	vta_layout_field fields[VTA_LAYOUT_MAX_FIELDS];
} vta_layout_format;

typedef enum vta_layout_kind {
	VTA_LAYOUT_HEAD = 0, /* the head alone */
	VTA_LAYOUT_MEM,      /* LOAD/STORE, a plain one */
	VTA_LAYOUT_MEM_LUT,  /* LOAD/STORE that decompresses (lut_bw != 0) */
	VTA_LAYOUT_GEMM,
	VTA_LAYOUT_FINISH,
	VTA_LAYOUT_ALU,
	VTA_LAYOUT_UOP,
	VTA_LAYOUT_COUNT
} vta_layout_kind;

typedef struct vta_insn_layout {
	bool built;       /* false (a config never derived): the table walk only */
	uint8_t lut_bw;   /* index of lut_bw in VTA_LAYOUT_MEM, placed alike in both */
	vta_layout_format formats[VTA_LAYOUT_COUNT];
} vta_insn_layout;

#ifdef __cplusplus
}
#endif

#endif /* VTA_INSN_LAYOUT_H */
