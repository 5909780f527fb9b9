/*
 * vta_insn_layout.c - the field tables placed for one config's widths (vta_insn_layout.h).
 *
 * The placement is the table walk's of vta_insn.c, done once: fields in table order, each
 * after the bits its word already holds, a field absent from a variant taking none. A
 * format where the walk would refuse a field (past its word, or in a word the encoding does
 * not have) is left to the walk.
 */
#include "vta_insn_layout.h"

#include <stddef.h>
#include <string.h>

#include "vta_insn_fields.h"

/* Bits [pos[word], + width) of `word` for a part of a field (none when width is 0): false
 * when the walk would refuse them (past the word, or a word the encoding lacks). */
static bool take(unsigned word, unsigned width, unsigned words,
		 unsigned pos[VTA_LAYOUT_MAX_WORDS], uint8_t *at_word, uint8_t *at_shift)
{
	if (width == 0)
		return true;
	if (word >= words || pos[word] + width > 64)
		return false;
	*at_word = (uint8_t)word;
	*at_shift = (uint8_t)pos[word];
	pos[word] += width;
	return true;
}

/* Place the fields of fmt after pos (bits used per word); `lut`: a decompressing LOAD. */
static void place(const vta_insn_format *fmt, const vta_field_widths *fw, bool lut,
		  unsigned pos[VTA_LAYOUT_MAX_WORDS], vta_layout_format *out)
{
	const unsigned words = fw->insn_words <= VTA_LAYOUT_MAX_WORDS ? fw->insn_words : 0;
	for (size_t i = 0; i < fmt->n_fields; i++) {
		const vta_insn_field *f = &fmt->fields[i];
		if (out->n_fields == VTA_LAYOUT_MAX_FIELDS) {
			out->fast = false;
			return;
		}
		vta_layout_field *lf = &out->fields[out->n_fields++];
		memset(lf, 0, sizeof(*lf));
		lf->defined = f->defined;
		lf->member = (uint16_t)f->member;
		lf->type = (uint8_t)f->type;
		if (f->presence != VTA_PRESENT_ALWAYS && (f->presence == VTA_PRESENT_LUT) != lut) {
			lf->absent = true;
			continue;
		}
		const unsigned w = vta_field_width(f, fw), word = vta_field_word(f, fw);
		const unsigned hw = vta_field_high_width(f, fw), hword = vta_field_high_word(f, fw);
		if (!take(word, w, words, pos, &lf->word, &lf->shift) ||
		    !take(hword, hw, words, pos, &lf->high_word, &lf->high_shift) || w + hw >= 64) {
			out->fast = false;
			return;
		}
		lf->width = (uint8_t)w;
		lf->high_width = (uint8_t)hw;
		lf->plain = hw == 0 && f->type != VTA_FIELD_SIGNED;
	}
}

/* The head and then `body` (NULL: the head alone), or a micro-op's fields. */
static void build(const vta_insn_format *head, const vta_insn_format *body,
		  const vta_field_widths *fw, bool lut, vta_layout_format *out)
{
	unsigned pos[VTA_LAYOUT_MAX_WORDS] = {0};
	memset(out, 0, sizeof(*out));
	out->fast = true;
	if (head)
		place(head, fw, lut, pos, out);
	if (body && out->fast)
		place(body, fw, lut, pos, out);
	for (unsigned k = 0; k < VTA_LAYOUT_MAX_WORDS; k++)
		out->end[k] = (uint8_t)pos[k];
}

void vta_insn_layout_build(const vta_field_widths *fw, vta_insn_layout *out)
{
	memset(out, 0, sizeof(*out));
	const vta_insn_format *head = vta_insn_head();
	const vta_insn_format *mem = vta_insn_format_of(VTA_OP_LOAD);
	vta_layout_format *f = out->formats;
	build(head, NULL, fw, false, &f[VTA_LAYOUT_HEAD]);
	build(head, mem, fw, false, &f[VTA_LAYOUT_MEM]);
	build(head, mem, fw, true, &f[VTA_LAYOUT_MEM_LUT]);
	build(head, vta_insn_format_of(VTA_OP_GEMM), fw, false, &f[VTA_LAYOUT_GEMM]);
	build(head, vta_insn_format_of(VTA_OP_FINISH), fw, false, &f[VTA_LAYOUT_FINISH]);
	build(head, vta_insn_format_of(VTA_OP_ALU), fw, false, &f[VTA_LAYOUT_ALU]);
	build(NULL, vta_uop_format(), fw, false, &f[VTA_LAYOUT_UOP]);
	/* a decoder reads lut_bw before it knows which LOAD it has: both must place it alike */
	const vta_layout_format *plain = &f[VTA_LAYOUT_MEM], *lut = &f[VTA_LAYOUT_MEM_LUT];
	bool found = false;
	for (unsigned i = 0; i < plain->n_fields && !found; i++)
		if (plain->fields[i].member == offsetof(vta_insn, mem.lut_bw)) {
			const vta_layout_field *a = &plain->fields[i], *b = &lut->fields[i];
			found = i < lut->n_fields && a->word == b->word && a->shift == b->shift &&
				a->width == b->width && !a->absent && !b->absent;
			out->lut_bw = (uint8_t)i;
		}
	if (!found)
		f[VTA_LAYOUT_MEM].fast = f[VTA_LAYOUT_MEM_LUT].fast = false;
	out->built = true;
}
