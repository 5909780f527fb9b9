/*
 * vta_insn.c - encoding and decoding of VTA's instructions and micro-ops in either encoding,
 * and their one-line assembly text (all three walk the field tables of vta_insn_fields.c).
 *
 * Explicit shifts and masks whose widths and words come from the loaded config (cfg->fw):
 * two 64-bit words for vta128, four for wide, and a micro-op of 32 or 64 bits; never
 * bitfields: VTA once lost a memory id to a silently truncated one. The contract:
 * vta_insn.h; the layouts: docs/isa.md "Instruction formats" and "The wide encoding".
 */
#include "vta_insn.h"

#include <stdarg.h>
#include <stddef.h> /* offsetof */
#include <stdio.h>
#include <string.h>

#include "vta_bytes.h"
#include "vta_insn_fields.h"

/* ---------- bit packing ---------- */

/* A cursor over the 64-bit words of an instruction (or the one word of a uop). */
typedef struct bits {
	uint64_t w[VTA_INSN_MAX_WORDS];
	unsigned pos[VTA_INSN_MAX_WORDS]; /* next free bit of each word */
} bits;

static uint64_t mask_of(unsigned width)
{
	return width >= 64 ? ~0ull : ((1ull << width) - 1);
}

/* Append an unsigned field to word `word`, range-checked. The field's name is its format's
 * prefix and its own name, joined only in a message: encoding runs once per instruction. */
static vta_status put_u(bits *b, int word, unsigned width, uint64_t value, const char *prefix,
			const char *name, vta_error *err)
{
	if (value > mask_of(width))
		return vta_fail(err, VTA_E_ENCODE, "%s%s %llu does not fit in %u bits", prefix,
				name, (unsigned long long)value, width);
	if (word >= VTA_INSN_MAX_WORDS || b->pos[word] + width > 64)
		return vta_fail(err, VTA_E_INTERNAL, "field %s%s overflows word %d", prefix, name,
				word);
	if (width > 0)
		b->w[word] |= value << b->pos[word];
	b->pos[word] += width;
	return VTA_OK;
}

/* Append a signed (two's complement) field, range-checked. */
static vta_status put_s(bits *b, int word, unsigned width, int64_t value, const char *prefix,
			const char *name, vta_error *err)
{
	int64_t lo = width == 0 ? 0 : -(int64_t)(1ull << (width - 1));
	int64_t hi = width == 0 ? 0 : (int64_t)((1ull << (width - 1)) - 1);
	if (value < lo || value > hi)
		return vta_fail(err, VTA_E_ENCODE,
				"%s%s %lld does not fit in %u bits (signed, %lld..%lld)", prefix,
				name, (long long)value, width, (long long)lo, (long long)hi);
	return put_u(b, word, width, (uint64_t)value & mask_of(width), prefix, name, err);
}

static uint64_t get_u(bits *b, int word, unsigned width)
{
	if (width == 0 || b->pos[word] >= 64)
		return 0; /* vta_config_derive keeps every field inside its word */
	uint64_t v = (b->w[word] >> b->pos[word]) & mask_of(width);
	b->pos[word] += width;
	return v;
}

static int64_t get_s(bits *b, int word, unsigned width)
{
	uint64_t v = get_u(b, word, width);
	if (width > 0 && width < 64 && (v >> (width - 1)) & 1)
		return (int64_t)v - (int64_t)(1ull << width);
	return (int64_t)v;
}

/* Every bit above the last decoded field of each of the `words` words must be zero. */
static vta_status check_unused(const bits *b, unsigned words, vta_error *err)
{
	for (unsigned word = 0; word < words; word++) {
		unsigned pos = b->pos[word];
		uint64_t rest = pos >= 64 ? 0 : b->w[word] >> pos;
		if (rest != 0)
			return vta_fail(err, VTA_E_STREAM,
					"unused bits %u..63 of word %u are not zero (0x%llx)", pos,
					word, (unsigned long long)rest);
	}
	return VTA_OK;
}

/* ---------- the compiled layout (vta_insn_layout.h) ---------- */

/* The compiled format of an instruction of this opcode (and LUT width), or NULL: the table
 * walk then does it all. */
static const vta_layout_format *layout_of(const vta_config *cfg, uint32_t opcode,
					  uint32_t lut_bw)
{
	const vta_insn_layout *L = &cfg->layout;
	if (!L->built)
		return NULL;
	vta_layout_kind k;
	switch (opcode) {
	case VTA_OP_LOAD:
	case VTA_OP_STORE: k = lut_bw ? VTA_LAYOUT_MEM_LUT : VTA_LAYOUT_MEM; break;
	case VTA_OP_GEMM: k = VTA_LAYOUT_GEMM; break;
	case VTA_OP_FINISH: k = VTA_LAYOUT_FINISH; break;
	case VTA_OP_ALU: k = VTA_LAYOUT_ALU; break;
	default: return NULL;
	}
	return L->formats[k].fast ? &L->formats[k] : NULL;
}

static uint64_t layout_bits(const uint64_t *w, unsigned word, unsigned shift, unsigned width)
{
	return width ? (w[word] >> shift) & mask_of(width) : 0;
}

/* Read f's fields from w into base (zeroed by the caller) and check that the first `words`
 * words have no bit set past f's: false on anything the table walk refuses, which then
 * says what. */
static bool layout_get(const vta_layout_format *f, const uint64_t *w, unsigned words,
		       void *base)
{
	for (unsigned i = 0; i < f->n_fields; i++) {
		const vta_layout_field *lf = &f->fields[i];
		if (lf->absent)
			continue;
		const uint64_t u = (w[lf->word] >> lf->shift) & ((1ull << lf->width) - 1);
		int64_t v = (int64_t)u;
		if (!lf->plain) {
			if (lf->type == VTA_FIELD_SIGNED && lf->width > 0 && lf->width < 64 &&
			    ((u >> (lf->width - 1)) & 1))
				v = (int64_t)u - (int64_t)(1ull << lf->width);
			if (lf->high_width)
				v |= (int64_t)(layout_bits(w, lf->high_word, lf->high_shift,
							   lf->high_width)
					       << lf->width);
		}
		if (lf->defined && (uint64_t)v >= lf->defined)
			return false;
		char *p = (char *)base + lf->member;
		if (lf->type == VTA_FIELD_FLAG)
			*(bool *)p = v != 0;
		else /* a vta_opcode, uint32_t and int32_t member alike */
			memcpy(p, &(uint32_t){(uint32_t)v}, sizeof(uint32_t));
	}
	for (unsigned k = 0; k < words; k++)
		if (f->end[k] < 64 && (w[k] >> f->end[k]) != 0)
			return false;
	return true;
}

/* Pack base's fields into w (zeroed by the caller): false on any value the table walk
 * refuses. */
static bool layout_put(const vta_layout_format *f, const void *base, uint64_t *w)
{
	for (unsigned i = 0; i < f->n_fields; i++) {
		const vta_layout_field *lf = &f->fields[i];
		const char *p = (const char *)base + lf->member;
		int64_t v;
		switch ((vta_field_type)lf->type) {
		case VTA_FIELD_FLAG: v = *(const bool *)p; break;
		case VTA_FIELD_SIGNED: v = *(const int32_t *)p; break;
		case VTA_FIELD_OPCODE: v = (int64_t)*(const vta_opcode *)p; break;
		default: v = *(const uint32_t *)p; break;
		}
		if (lf->absent) {
			if (v != 0)
				return false;
			continue;
		}
		if (lf->defined && (uint64_t)v >= lf->defined)
			return false;
		uint64_t u;
		if (lf->high_width) {
			if ((uint64_t)v > mask_of(lf->width + lf->high_width))
				return false;
			w[lf->high_word] |= ((uint64_t)v >> lf->width) << lf->high_shift;
			u = (uint64_t)v & mask_of(lf->width);
		} else if (lf->type == VTA_FIELD_SIGNED) {
			const int64_t lo = lf->width ? -(int64_t)(1ull << (lf->width - 1)) : 0;
			if (v < lo || v > -lo - (lf->width ? 1 : 0))
				return false;
			u = (uint64_t)v & mask_of(lf->width);
		} else {
			if ((uint64_t)v > mask_of(lf->width))
				return false;
			u = (uint64_t)v;
		}
		if (lf->width)
			w[lf->word] |= u << lf->shift;
	}
	return true;
}

/* ---------- instructions ---------- */

/* Append a format's fields, each range-checked; undefined enumerated values are refused. */
static vta_status put_fields(bits *b, const vta_insn_format *fmt, const vta_field_widths *fw,
			     const void *base, vta_error *err)
{
	for (size_t i = 0; i < fmt->n_fields; i++) {
		const vta_insn_field *f = &fmt->fields[i];
		int64_t v = vta_field_get(f, base);
		unsigned w = vta_field_width(f, fw);
		int word = (int)vta_field_word(f, fw);
		vta_status st;
		if (!vta_field_present(f, base)) {
			/* its bits belong to another field: a value would be lost */
			if (v != 0)
				return vta_fail(err, VTA_E_ENCODE, "%s%s %lld must be 0 in a %s "
						"load (its bits hold %s)", fmt->prefix, f->name,
						(long long)v,
						f->presence == VTA_PRESENT_LUT ? "plain"
									       : "decompressing",
						f->presence == VTA_PRESENT_LUT ? "the pads"
									       : "lut_chan");
			continue;
		}
		if (w == 0 && v != 0 && !vta_field_high_width(f, fw))
			return vta_fail(err, VTA_E_ENCODE, "%s%s %lld: the field exists only in the "
					"wide encoding (isa.encoding: wide)", fmt->prefix, f->name,
					(long long)v);
		if (f->defined && (uint64_t)v >= f->defined)
			return vta_fail(err, VTA_E_ENCODE, "%s%s %u is not defined (0..%u)",
					fmt->prefix, f->name, (unsigned)v, f->defined - 1);
		unsigned high = vta_field_high_width(f, fw);
		if (high) { /* unsigned: the low bits here, the rest in the high part's word */
			if ((uint64_t)v > mask_of(w + high))
				return vta_fail(err, VTA_E_ENCODE,
						"%s%s %llu does not fit in %u bits", fmt->prefix,
						f->name, (unsigned long long)v, w + high);
			if ((st = put_u(b, word, w, (uint64_t)v & mask_of(w), fmt->prefix, f->name,
					err)))
				return st;
			st = put_u(b, (int)vta_field_high_word(f, fw), high, (uint64_t)v >> w,
				   fmt->prefix, f->name, err);
		} else if (f->type == VTA_FIELD_SIGNED) {
			st = put_s(b, word, w, v, fmt->prefix, f->name, err);
		} else {
			st = put_u(b, word, w, (uint64_t)v, fmt->prefix, f->name, err);
		}
		if (st)
			return st;
	}
	return VTA_OK;
}

/* Read a format's fields; an undefined enumerated value is a stream error. */
static vta_status get_fields(bits *b, const vta_insn_format *fmt, const vta_field_widths *fw,
			     void *base, vta_error *err)
{
	for (size_t i = 0; i < fmt->n_fields; i++) {
		const vta_insn_field *f = &fmt->fields[i];
		if (!vta_field_present(f, base)) /* lut_bw, in word 0, is already read */
			continue;
		unsigned w = vta_field_width(f, fw);
		int word = (int)vta_field_word(f, fw);
		int64_t v = f->type == VTA_FIELD_SIGNED ? get_s(b, word, w)
							: (int64_t)get_u(b, word, w);
		unsigned high = vta_field_high_width(f, fw);
		if (high)
			v |= (int64_t)(get_u(b, (int)vta_field_high_word(f, fw), high) << w);
		if (f->defined && (uint64_t)v >= f->defined)
			return vta_fail(err, VTA_E_STREAM, "%s%s %llu is not defined (0..%u)",
					fmt->prefix, f->name, (unsigned long long)v, f->defined - 1);
		vta_field_set(f, base, v);
	}
	return VTA_OK;
}

/* The config's instruction words: two for vta128, four for wide. */
static unsigned insn_words(const vta_config *cfg)
{
	unsigned n = cfg->fw.insn_words;
	return n >= 1 && n <= VTA_INSN_MAX_WORDS ? n : 2;
}

vta_status vta_insn_encode(const vta_config *cfg, const vta_insn *insn, uint8_t *out,
			   vta_error *err)
{
	const vta_layout_format *f = layout_of(cfg, insn->opcode, insn->mem.lut_bw);
	uint64_t fw[VTA_INSN_MAX_WORDS] = {0};
	if (f && layout_put(f, insn, fw)) {
		for (unsigned k = 0; k < insn_words(cfg); k++)
			vta_le_put(out + 8 * k, 8, fw[k]);
		return VTA_OK;
	}
	bits b;
	memset(&b, 0, sizeof(b));
	vta_status st;
	if ((st = put_fields(&b, vta_insn_head(), &cfg->fw, insn, err)) ||
	    (st = put_fields(&b, vta_insn_format_of(insn->opcode), &cfg->fw, insn, err)))
		return st;
	unsigned words = insn_words(cfg);
	for (unsigned k = words; k < VTA_INSN_MAX_WORDS; k++)
		if (b.pos[k] != 0)
			return vta_fail(err, VTA_E_INTERNAL, "a field is in word %u of a %u-word "
					"instruction", k, words);
	for (unsigned k = 0; k < words; k++)
		vta_le_put(out + 8 * k, 8, b.w[k]);
	return VTA_OK;
}

vta_status vta_insn_encode_head(const vta_config *cfg, const vta_insn *insn, uint8_t *bytes,
				vta_error *err)
{
	const vta_layout_format *f = &cfg->layout.formats[VTA_LAYOUT_HEAD];
	uint64_t w0[VTA_INSN_MAX_WORDS] = {0};
	if (cfg->layout.built && f->fast && layout_put(f, insn, w0)) {
		const uint64_t mask = mask_of(f->end[0]);
		vta_le_put(bytes, 8, (vta_le64_get(bytes) & ~mask) | w0[0]);
		return VTA_OK;
	}
	bits b;
	memset(&b, 0, sizeof(b));
	vta_status st = put_fields(&b, vta_insn_head(), &cfg->fw, insn, err);
	if (st)
		return st;
	/* the head's fields fill bits [0, pos) of word 0 */
	const uint64_t mask = mask_of(b.pos[0]);
	vta_le_put(bytes, 8, (vta_le64_get(bytes) & ~mask) | b.w[0]);
	return VTA_OK;
}

vta_status vta_insn_decode(const vta_config *cfg, const uint8_t *in, vta_insn *insn,
			   vta_error *err)
{
	unsigned words = insn_words(cfg);
	const vta_insn_layout *L = &cfg->layout;
	if (L->built && L->formats[VTA_LAYOUT_HEAD].fast) {
		uint64_t w[VTA_INSN_MAX_WORDS] = {0};
		for (unsigned k = 0; k < words; k++)
			w[k] = vta_le64_get(in + 8 * k);
		/* the opcode (and a LOAD's lut_bw) pick the format */
		const vta_layout_field *op = &L->formats[VTA_LAYOUT_HEAD].fields[0];
		const vta_layout_field *bw = &L->formats[VTA_LAYOUT_MEM].fields[L->lut_bw];
		const vta_layout_format *f =
			layout_of(cfg, (uint32_t)layout_bits(w, op->word, op->shift, op->width),
				  (uint32_t)layout_bits(w, bw->word, bw->shift, bw->width));
		vta_insn d;
		memset(&d, 0, sizeof(d));
		if (f && layout_get(f, w, words, &d)) {
			*insn = d;
			return VTA_OK;
		}
	}
	bits b;
	memset(&b, 0, sizeof(b));
	for (unsigned k = 0; k < words; k++)
		b.w[k] = vta_le64_get(in + 8 * k);
	vta_insn d;
	memset(&d, 0, sizeof(d));
	vta_status st;
	if ((st = get_fields(&b, vta_insn_head(), &cfg->fw, &d, err)) ||
	    (st = get_fields(&b, vta_insn_format_of(d.opcode), &cfg->fw, &d, err)) ||
	    (st = check_unused(&b, words, err)))
		return st;
	*insn = d;
	return VTA_OK;
}

vta_status vta_insn_decode_head(const vta_config *cfg, const uint8_t *in, vta_insn *insn,
				vta_error *err)
{
	bits b;
	memset(&b, 0, sizeof(b));
	b.w[0] = vta_le64_get(in); /* the head is in word 0 */
	memset(insn, 0, sizeof(*insn));
	const vta_layout_format *f = &cfg->layout.formats[VTA_LAYOUT_HEAD];
	if (cfg->layout.built && f->fast && layout_get(f, b.w, 0, insn))
		return VTA_OK;
	memset(insn, 0, sizeof(*insn));
	return get_fields(&b, vta_insn_head(), &cfg->fw, insn, err);
}

vta_status vta_insn_peek_opcode(const vta_config *cfg, const uint8_t *in, vta_opcode *op,
				vta_error *err)
{
	const vta_layout_format *f = &cfg->layout.formats[VTA_LAYOUT_HEAD];
	for (unsigned i = 0; cfg->layout.built && f->fast && i < f->n_fields; i++) {
		const vta_layout_field *lf = &f->fields[i];
		if (lf->member != offsetof(vta_insn, opcode))
			continue;
		if (lf->absent || !lf->plain || lf->word != 0)
			break;
		const uint64_t u = (vta_le64_get(in) >> lf->shift) & ((1ull << lf->width) - 1);
		if (lf->defined && u >= lf->defined)
			break; /* the walk says what is wrong */
		*op = (vta_opcode)u;
		return VTA_OK;
	}
	vta_insn head;
	vta_status st = vta_insn_decode_head(cfg, in, &head, err);
	if (!st)
		*op = head.opcode;
	return st;
}

/* ---------- micro-ops ---------- */

/* Bits of a micro-op: 32 (vta128) or 64 (wide). */
static unsigned uop_bits(const vta_config *cfg)
{
	return cfg->fw.uop_word_bits == 64 ? 64 : 32;
}

vta_status vta_uop_encode(const vta_config *cfg, const vta_uop *uop, uint8_t *out,
			  vta_error *err)
{
	const vta_layout_format *f = &cfg->layout.formats[VTA_LAYOUT_UOP];
	uint64_t w[VTA_INSN_MAX_WORDS] = {0};
	if (cfg->layout.built && f->fast && f->end[0] <= uop_bits(cfg) && layout_put(f, uop, w)) {
		vta_le_put(out, uop_bits(cfg) / 8, w[0]);
		return VTA_OK;
	}
	bits b;
	memset(&b, 0, sizeof(b)); /* one word: only word 0 is used */
	vta_status st = put_fields(&b, vta_uop_format(), &cfg->fw, uop, err);
	if (st)
		return st;
	unsigned n = uop_bits(cfg);
	if (b.pos[0] > n)
		return vta_fail(err, VTA_E_INTERNAL, "micro-op fields need %u bits", b.pos[0]);
	vta_le_put(out, n / 8, b.w[0]);
	return VTA_OK;
}

vta_status vta_uop_decode(const vta_config *cfg, const uint8_t *in, vta_uop *uop,
			  vta_error *err)
{
	unsigned n = uop_bits(cfg);
	uint64_t w = n == 64 ? vta_le64_get(in) : vta_le32_get(in);
	const vta_layout_format *f = &cfg->layout.formats[VTA_LAYOUT_UOP];
	if (cfg->layout.built && f->fast) {
		vta_uop u = {0};
		if (layout_get(f, &w, 1, &u)) {
			*uop = u;
			return VTA_OK;
		}
	}
	bits b;
	memset(&b, 0, sizeof(b));
	b.w[0] = w;
	vta_uop u;
	vta_status st = get_fields(&b, vta_uop_format(), &cfg->fw, &u, err);
	if (st)
		return st;
	if (b.pos[0] < n && (w >> b.pos[0]) != 0)
		return vta_fail(err, VTA_E_STREAM,
				"unused bits %u..%u of a micro-op are not zero (0x%llx)", b.pos[0],
				n - 1, (unsigned long long)(w >> b.pos[0]));
	*uop = u;
	return VTA_OK;
}

/* ---------- dispatch and names ---------- */

vta_module vta_insn_module(const vta_insn *insn)
{
	if (insn->opcode == VTA_OP_STORE)
		return VTA_MODULE_STORE;
	/* LUT tables go where they are used: int8 ones feed INP/WGT, int32 ones ACC */
	if (insn->opcode == VTA_OP_LOAD &&
	    (insn->mem.mem_type == VTA_MEM_INP || insn->mem.mem_type == VTA_MEM_WGT ||
	     insn->mem.mem_type == VTA_MEM_LUT))
		return VTA_MODULE_LOAD;
	return VTA_MODULE_COMPUTE;
}

const char *vta_module_name(vta_module module)
{
	switch (module) {
	case VTA_MODULE_LOAD: return "load";
	case VTA_MODULE_COMPUTE: return "compute";
	case VTA_MODULE_STORE: return "store";
	case VTA_MODULE_COUNT: break;
	}
	return "?";
}

const char *vta_opcode_name(vta_opcode op)
{
	switch (op) {
	case VTA_OP_LOAD: return "load";
	case VTA_OP_STORE: return "store";
	case VTA_OP_GEMM: return "gemm";
	case VTA_OP_FINISH: return "finish";
	case VTA_OP_ALU: return "alu";
	}
	return "?";
}

bool vta_insn_is_nop(const vta_insn *insn)
{
	return (insn->opcode == VTA_OP_LOAD || insn->opcode == VTA_OP_STORE) &&
	       insn->mem.x_size == 0;
}

uint64_t vta_loop_uops(const vta_loop *loop)
{
	if (loop->uop_end < loop->uop_bgn)
		return 0;
	return (uint64_t)loop->iter_out * loop->iter_in * (loop->uop_end - loop->uop_bgn);
}

vta_status vta_insn_check_flags(const vta_insn *insn, vta_error *err)
{
	vta_module m = vta_insn_module(insn);
	const char *bad = NULL;
	if (m == VTA_MODULE_LOAD)
		bad = insn->deps.pop_prev ? "pop_prev" : insn->deps.push_prev ? "push_prev" : NULL;
	else if (m == VTA_MODULE_STORE)
		bad = insn->deps.pop_next ? "pop_next" : insn->deps.push_next ? "push_next" : NULL;
	if (!bad)
		return VTA_OK;
	/* load has no previous stage, store no next one: the queue does not exist */
	return vta_fail(err, VTA_E_FLAGS, "%s executes on the %s module, which has no %s queue "
			"(%s is illegal there)",
			vta_opcode_name(insn->opcode), vta_module_name(m),
			m == VTA_MODULE_LOAD ? "previous-stage" : "next-stage", bad);
}

/* ---------- one line of assembly ---------- */

/* " deps=a,b" with the head's flags that are set, or " deps=none". */
static void app_deps(char *buf, size_t size, size_t *pos, const vta_insn *insn)
{
	const vta_insn_format *head = vta_insn_head();
	int any = 0;
	vta_appendf(buf, size, pos, " deps=");
	for (size_t i = 0; i < head->n_fields; i++)
		if (head->fields[i].type == VTA_FIELD_FLAG && vta_field_get(&head->fields[i], insn))
			vta_appendf(buf, size, pos, "%s%s", any++ ? "," : "", head->fields[i].name);
	if (!any)
		vta_appendf(buf, size, pos, "none");
}

/* A key is written when its fields are present (the pads or lut_chan), and a quiet one
 * (lut_bw, lut_slot) only when not 0, so a plain load reads as it always did. */
static bool key_shown(const vta_insn_format *fmt, const char *key, const void *base)
{
	bool present = false, nonzero = false, quiet = false;
	for (size_t i = 0; i < fmt->n_fields; i++) {
		const vta_insn_field *f = &fmt->fields[i];
		if (strcmp(f->asm_key, key) || !vta_field_present(f, base))
			continue;
		present = true;
		quiet = f->quiet;
		nonzero |= vta_field_get(f, base) != 0;
	}
	return present && (!quiet || nonzero);
}

/* " key=value" for each assembly key of a format, pairs as "a,b", in the assembler's order
 * (the dependency list is written last, by app_deps). */
static void app_fields(char *buf, size_t size, size_t *pos, const vta_insn_format *fmt,
		       const void *base)
{
	for (const char *const *key = fmt->asm_keys; *key; key++) {
		if (!strcmp(*key, "deps") || !key_shown(fmt, *key, base))
			continue;
		vta_appendf(buf, size, pos, " %s=", *key);
		int n = 0;
		for (size_t i = 0; i < fmt->n_fields; i++) {
			const vta_insn_field *f = &fmt->fields[i];
			if (strcmp(f->asm_key, *key))
				continue;
			int64_t v = vta_field_get(f, base);
			const char *name = vta_field_value_name(f, (uint32_t)v);
			vta_appendf(buf, size, pos, "%s", n++ ? "," : "");
			if (name)
				vta_appendf(buf, size, pos, "%s", name);
			else if (f->names != VTA_NAMES_NONE) /* undefined: kept visible */
				vta_appendf(buf, size, pos, "?%u", (unsigned)v);
			else
				vta_appendf(buf, size, pos, f->hex ? "0x%llx" : "%lld",
					    (long long)v);
		}
	}
}

char *vta_disasm_insn(const vta_insn *insn, char *buf, size_t size)
{
	size_t pos = 0;
	if (size == 0)
		return buf;
	buf[0] = '\0';
	const vta_insn_format *fmt = vta_insn_format_of(insn->opcode);
	if (!fmt) {
		vta_appendf(buf, size, &pos, "?opcode%u", (unsigned)insn->opcode);
		return buf;
	}
	vta_appendf(buf, size, &pos, "%-6s", vta_opcode_name(insn->opcode));
	app_fields(buf, size, &pos, fmt, insn);
	app_deps(buf, size, &pos, insn);
	return buf;
}

vta_status vta_insn_fail(vta_error *err, vta_status st, const char *layer, size_t idx,
			 const vta_insn *insn, const char *fmt, ...)
{
	char msg[VTA_ERROR_DETAIL_MAX];
	char text[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	vta_disasm_insn(insn, text, sizeof(text));
	if (layer)
		return vta_fail(err, st, "layer %s: insn %zu (%s): %s", layer, idx, text, msg);
	return vta_fail(err, st, "insn %zu (%s): %s", idx, text, msg);
}

char *vta_disasm_uop(const vta_uop *uop, char *buf, size_t size)
{
	size_t pos = 0;
	if (size == 0)
		return buf;
	buf[0] = '\0';
	vta_appendf(buf, size, &pos, "uop   ");
	app_fields(buf, size, &pos, vta_uop_format(), uop);
	return buf;
}
