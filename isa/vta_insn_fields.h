/*
 * vta_insn_fields.h - the one table of instruction and micro-op fields (docs/isa.md).
 *
 * Each format lists its fields once, in packing order (LSB first within each 64-bit word):
 * the name used in messages, the assembly key, the word it occupies in each encoding
 * (vta128, wide), where the field's width is in vta_field_widths, the member of vta_insn (or
 * vta_uop) and how its value is read. The encoder, the decoder, the assembler, the
 * disassembler, the word sizes vta_config_derive checks and `vtasim config` all walk these
 * tables, so a field is added in one place, and an encoding is one more column.
 */
#ifndef VTA_INSN_FIELDS_H
#define VTA_INSN_FIELDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "vta_config.h"
#include "vta_insn.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum vta_field_type {
	VTA_FIELD_UNSIGNED, /* uint32_t member */
	VTA_FIELD_FLAG,     /* bool member */
	VTA_FIELD_SIGNED,   /* int32_t member, two's complement in the word */
	VTA_FIELD_OPCODE    /* the vta_opcode member */
} vta_field_type;

/* Fields whose values are names in assembly. */
typedef enum vta_field_names {
	VTA_NAMES_NONE,
	VTA_NAMES_MEM,   /* vta_mem_name */
	VTA_NAMES_ALU_OP /* vta_alu_op_name */
} vta_field_names;

/* Which LOADs carry a field: the bits of the four pads hold lut_chan in a decompressing
 * load (lut_bw != 0), docs/isa.md "LUT decompression". */
typedef enum vta_field_presence {
	VTA_PRESENT_ALWAYS = 0,
	VTA_PRESENT_PLAIN, /* not in a decompressing load */
	VTA_PRESENT_LUT    /* only in a decompressing load, in the bits of the PLAIN fields
			    * just before it (it does not add to a word's bits) */
} vta_field_presence;

typedef struct vta_insn_field {
	const char *name;    /* in messages and `vtasim config`: "sram_base" */
	const char *asm_key; /* assembly key; two fields with one key are a pair "a,b";
			      * NULL for the opcode, written as the mnemonic */
	unsigned char word[VTA_ENC_COUNT]; /* by vta_encoding: 0..1 (vta128), 0..3 (wide) */
	size_t width;        /* offset of its width in vta_field_widths */
	size_t member;       /* offset in vta_insn (vta_uop for micro-ops) */
	vta_field_type type;
	unsigned defined;    /* > 0: only values below this are defined */
	vta_field_names names;
	bool required;       /* the assembler needs its key */
	bool hex;            /* the disassembler writes it in hex */
	vta_field_presence presence;
	bool quiet;          /* the disassembler leaves it out when it is 0 */
	/* The value's bits above `width`, where the encoding has them apart: the offset of
	 * their width in vta_field_widths (0: none; a width of 0: none in that encoding) and
	 * their word per encoding, packed there in table order like a field (memory_type's
	 * fourth bit, in a spare bit of the wide encoding's word 2). */
	size_t high_width;
	unsigned char high_word[VTA_ENC_COUNT];
} vta_insn_field;

typedef struct vta_insn_format {
	const char *name;     /* "load/store", "gemm", "alu", "finish", "uop"; "head" */
	const char *prefix;   /* before a field's name in messages ("uop " for "uop dst") */
	const vta_insn_field *fields;
	size_t n_fields;
	const char *const *asm_keys; /* assembly keys in the order they are written */
} vta_insn_format;

/* The fields every instruction starts with: opcode and the four dependency flags (whose
 * assembly key is the list "deps=..."). */
const vta_insn_format *vta_insn_head(void);
/* The fields after the head for an opcode (NULL if the opcode is not defined). */
const vta_insn_format *vta_insn_format_of(vta_opcode op);
/* The micro-op. */
const vta_insn_format *vta_uop_format(void);
/* Head, load/store, gemm, alu, finish, uop: for listings. */
const vta_insn_format *const *vta_insn_formats(size_t *count);

/* The accessors below are inline: the encoder and decoder call them for every field of
 * every instruction. */

/* Does the instruction (or micro-op) at base carry the field. */
static inline bool vta_field_present(const vta_insn_field *f, const void *base)
{
	if (f->presence == VTA_PRESENT_ALWAYS)
		return true;
	bool lut = ((const vta_insn *)base)->mem.lut_bw != 0; /* only LOAD/STORE fields vary */
	return (f->presence == VTA_PRESENT_LUT) == lut;
}

static inline unsigned vta_field_width(const vta_insn_field *f, const vta_field_widths *fw)
{
	unsigned w;
	memcpy(&w, (const char *)fw + f->width, sizeof(w));
	return w;
}

/* Bits of the field's high part in fw's encoding (0: the value is `width` bits) and the word
 * they occupy. */
static inline unsigned vta_field_high_width(const vta_insn_field *f, const vta_field_widths *fw)
{
	unsigned w = 0;
	if (f->high_width)
		memcpy(&w, (const char *)fw + f->high_width, sizeof(w));
	return w;
}

static inline unsigned vta_field_high_word(const vta_insn_field *f, const vta_field_widths *fw)
{
	return f->high_word[fw->encoding < VTA_ENC_COUNT ? fw->encoding : VTA_ENC_VTA128];
}

/* The 64-bit word the field occupies in fw's encoding. */
static inline unsigned vta_field_word(const vta_insn_field *f, const vta_field_widths *fw)
{
	return f->word[fw->encoding < VTA_ENC_COUNT ? fw->encoding : VTA_ENC_VTA128];
}
/* Bits a format uses in `word` of fw's encoding (without the head; overlaid
 * VTA_PRESENT_LUT fields add nothing; high parts count in their word). */
unsigned vta_format_bits(const vta_insn_format *fmt, const vta_field_widths *fw, unsigned word);

/* The tables placed for fw's widths (vta_insn_layout.c); vta_config_derive keeps it in the
 * config. */
void vta_insn_layout_build(const vta_field_widths *fw, vta_insn_layout *out);

/* A field's value in a vta_insn or vta_uop, widened (signed fields sign-extended). */
static inline int64_t vta_field_get(const vta_insn_field *f, const void *base)
{
	const char *p = (const char *)base + f->member;
	switch (f->type) {
	case VTA_FIELD_FLAG: return *(const bool *)p;
	case VTA_FIELD_SIGNED: return *(const int32_t *)p;
	case VTA_FIELD_OPCODE: return (int64_t)*(const vta_opcode *)p;
	case VTA_FIELD_UNSIGNED: break;
	}
	return *(const uint32_t *)p;
}

static inline void vta_field_set(const vta_insn_field *f, void *base, int64_t value)
{
	char *p = (char *)base + f->member;
	switch (f->type) {
	case VTA_FIELD_FLAG: *(bool *)p = value != 0; break;
	case VTA_FIELD_SIGNED: *(int32_t *)p = (int32_t)value; break;
	case VTA_FIELD_OPCODE: *(vta_opcode *)p = (vta_opcode)value; break;
	case VTA_FIELD_UNSIGNED: *(uint32_t *)p = (uint32_t)value; break;
	}
}

/* The name of a value of a named field (NULL if undefined). */
const char *vta_field_value_name(const vta_insn_field *f, uint32_t value);

#ifdef __cplusplus
}
#endif

#endif /* VTA_INSN_FIELDS_H */
