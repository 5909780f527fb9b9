/*
 * vta_disasm.c - the disassembler: instructions and programs back to the assembly syntax of
 * vta_asm.c (docs/isa.md "Assembly").
 *
 * Every field of every instruction is printed (walking the field tables of
 * vta_insn_fields.c), defaults included (a plain load has no LUT key), so assembling the output gives back the same bytes. Comments carry what the bytes do not need: the geometry, the
 * instruction index, the offset inside a segment.
 */
#include "vta_asm.h"

#include <stdarg.h>
#include <string.h>

#include "vta_insn_fields.h"

/* snprintf that appends at *pos and never overruns. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static void app(char *buf, size_t size, size_t *pos, const char *fmt, ...)
{
	if (*pos >= size)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf + *pos, size - *pos, fmt, ap);
	va_end(ap);
	if (n > 0)
		*pos += (size_t)n;
}

/* " deps=a,b" with the head's flags that are set, or " deps=none". */
static void app_deps(char *buf, size_t size, size_t *pos, const vta_insn *insn)
{
	const vta_insn_format *head = vta_insn_head();
	int any = 0;
	app(buf, size, pos, " deps=");
	for (size_t i = 0; i < head->n_fields; i++)
		if (head->fields[i].type == VTA_FIELD_FLAG && vta_field_get(&head->fields[i], insn))
			app(buf, size, pos, "%s%s", any++ ? "," : "", head->fields[i].name);
	if (!any)
		app(buf, size, pos, "none");
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
		app(buf, size, pos, " %s=", *key);
		int n = 0;
		for (size_t i = 0; i < fmt->n_fields; i++) {
			const vta_insn_field *f = &fmt->fields[i];
			if (strcmp(f->asm_key, *key))
				continue;
			int64_t v = vta_field_get(f, base);
			const char *name = vta_field_value_name(f, (uint32_t)v);
			app(buf, size, pos, "%s", n++ ? "," : "");
			if (name)
				app(buf, size, pos, "%s", name);
			else if (f->names != VTA_NAMES_NONE) /* undefined: kept visible */
				app(buf, size, pos, "?%u", (unsigned)v);
			else
				app(buf, size, pos, f->hex ? "0x%llx" : "%lld", (long long)v);
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
		app(buf, size, &pos, "?opcode%u", (unsigned)insn->opcode);
		return buf;
	}
	app(buf, size, &pos, "%-6s", vta_opcode_name(insn->opcode));
	app_fields(buf, size, &pos, fmt, insn);
	app_deps(buf, size, &pos, insn);
	return buf;
}

static void print_uops(const vta_segment *s, const vta_config *cfg, FILE *out, vta_error *err,
		       vta_status *st)
{
	for (uint32_t k = 0; k < s->size / VTA_UOP_BYTES; k++) {
		vta_uop u;
		vta_error sub = {0};
		if (vta_uop_decode(cfg, s->bytes + (size_t)k * VTA_UOP_BYTES, &u, &sub) != VTA_OK) {
			*st = vta_fail(err, sub.status, "uop segment at 0x%llx, uop %u: %s",
				       (unsigned long long)s->dram_addr, k, sub.detail);
			return;
		}
		char line[128];
		size_t pos = 0;
		app(line, sizeof(line), &pos, "uop   ");
		app_fields(line, sizeof(line), &pos, vta_uop_format(), &u);
		fprintf(out, "%s  ; %u\n", line, k);
	}
}

static void print_data(const vta_segment *s, FILE *out)
{
	for (uint32_t i = 0; i < s->size; i += 16) {
		uint32_t n = s->size - i < 16 ? s->size - i : 16;
		fprintf(out, ".byte ");
		for (uint32_t j = 0; j < n; j++)
			fprintf(out, "%s0x%02x", j ? ", " : "", s->bytes[i + j]);
		fprintf(out, "  ; +0x%x\n", i);
	}
}

vta_status vta_disasm_program(const vta_program *prog, const vta_config *cfg, FILE *out,
			      vta_error *err)
{
	const vta_geometry *g = &prog->geometry;
	fprintf(out,
		"; vtasim program: %zu instructions, %zu segments\n"
		"; geometry: batch %u, block_in %u, block_out %u, inp %u bits, wgt %u bits, "
		"acc %u bits\n"
		"; depths: uop %u, inp %u, wgt %u, acc %u\n",
		prog->n_insns, prog->n_segments, 1u << (g->log_batch & 31),
		1u << (g->log_block_in & 31), 1u << (g->log_block_out & 31),
		1u << (g->inp_bits & 31), 1u << (g->wgt_bits & 31), 1u << (g->acc_bits & 31),
		1u << (g->log_uop_depth & 31), 1u << (g->log_inp_depth & 31),
		1u << (g->log_wgt_depth & 31), 1u << (g->log_acc_depth & 31));
	fprintf(out, ".text\n");
	char line[256];
	for (size_t i = 0; i < prog->n_insns; i++) {
		vta_insn insn;
		vta_status st = vta_program_insn(prog, cfg, i, &insn, err);
		if (st)
			return st;
		fprintf(out, "%s  ; %zu\n", vta_disasm_insn(&insn, line, sizeof(line)), i);
	}
	vta_status st = VTA_OK;
	for (size_t i = 0; i < prog->n_segments && st == VTA_OK; i++) {
		const vta_segment *s = &prog->segments[i];
		if (s->kind == VTA_SEG_UOP) {
			fprintf(out, "\n.uops 0x%llx  ; %u uops\n", (unsigned long long)s->dram_addr,
				s->size / VTA_UOP_BYTES);
			print_uops(s, cfg, out, err, &st);
		} else {
			fprintf(out, "\n.data 0x%llx  ; %u bytes\n", (unsigned long long)s->dram_addr,
				s->size);
			print_data(s, out);
		}
	}
	if (st)
		return st;
	if (ferror(out))
		return vta_fail(err, VTA_E_IO, "write error while disassembling");
	return VTA_OK;
}
