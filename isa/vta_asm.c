/*
 * vta_asm.c - the text assembler: one instruction per line, every field named (key=value),
 * micro-op and data segments introduced by directives (syntax: docs/isa.md "Assembly").
 *
 * Every field value is range-checked against the config's field widths where it is
 * written, so each problem is reported as "NAME:LINE:COL: ..." (VTA_E_PARSE for syntax,
 * VTA_E_ENCODE for a value that does not fit). Columns count bytes from 1.
 */
#include "vta_asm.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vta_insn_fields.h"
#include "vta_rules.h"
#include "vta_text.h"

/* ---------- source positions and errors ---------- */

typedef struct asm_ctx {
	const char *name;
	const vta_config *cfg;
	vta_program *prog;
	vta_error *err;
	bool check; /* vta_insn_check_static on every instruction */
	unsigned line;
	const char *line_start;
	/* the open segment (section), if any */
	int section; /* 0 text, else 1 + vta_segment_kind */
	uint64_t seg_addr;
	uint8_t *seg_bytes;
	size_t seg_len, seg_cap;
	unsigned seg_line, seg_col; /* where the open section's directive is */
	/* per closed segment (the program's segment order), its directive's line and column */
	unsigned (*seg_pos)[2];
	size_t seg_pos_cap;
} asm_ctx;

#define SECTION_TEXT 0
#define SECTION_DATA (1 + VTA_SEG_DATA)
#define SECTION_UOPS (1 + VTA_SEG_UOP)

static unsigned col_of(const asm_ctx *a, const char *p)
{
	return (unsigned)(p - a->line_start) + 1;
}

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static vta_status
asm_fail(asm_ctx *a, vta_status st, const char *at, const char *fmt, ...)
{
	char msg[VTA_ERROR_DETAIL_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return vta_fail(a->err, st, "%s:%u:%u: %s", a->name, a->line, col_of(a, at), msg);
}

/* A token: a run of bytes inside one line. */
typedef struct tok {
	const char *p;
	size_t n;
} tok;

/* Tokens are quoted escaped and shortened (vta_text.h), so a detail stays one readable line
 * (the compound literal lives until the end of the enclosing block). */
#define TOKFMT "'%s'"
#define TOKARG(t) vta_quote_bytes(&(vta_quoted){{0}}, (t).p, (t).n)

static int tok_is(tok t, const char *s)
{
	size_t n = strlen(s);
	return t.n == n && memcmp(t.p, s, n) == 0;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Next whitespace-separated token in [*p, end); returns 0 at the end. */
static int next_tok(const char **p, const char *end, tok *t)
{
	const char *s = *p;
	while (s < end && is_space(*s))
		s++;
	if (s == end) {
		*p = s;
		return 0;
	}
	const char *e = s;
	while (e < end && !is_space(*e))
		e++;
	t->p = s;
	t->n = (size_t)(e - s);
	*p = e;
	return 1;
}

/* ---------- numbers ---------- */

/* A parsed literal: sign and magnitude, so every field can range-check it exactly. */
typedef struct num {
	int neg;
	uint64_t mag;
	const char *at;
} num;

/* decimal or 0x hex, optional leading '-' */
static vta_status parse_num(asm_ctx *a, tok t, num *out)
{
	const char *p = t.p, *end = t.p + t.n;
	out->neg = 0;
	out->mag = 0;
	out->at = t.p;
	if (p < end && *p == '-') {
		out->neg = 1;
		p++;
	}
	unsigned base = 10;
	if (end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	if (p == end)
		return asm_fail(a, VTA_E_PARSE, t.p, "bad number " TOKFMT, TOKARG(t));
	for (; p < end; p++) {
		unsigned d;
		if (*p >= '0' && *p <= '9')
			d = (unsigned)(*p - '0');
		else if (base == 16 && *p >= 'a' && *p <= 'f')
			d = (unsigned)(*p - 'a' + 10);
		else if (base == 16 && *p >= 'A' && *p <= 'F')
			d = (unsigned)(*p - 'A' + 10);
		else
			return asm_fail(a, VTA_E_PARSE, t.p, "bad number " TOKFMT, TOKARG(t));
		if (out->mag > (UINT64_MAX - d) / base)
			return asm_fail(a, VTA_E_ENCODE, t.p,
					"number " TOKFMT " does not fit in 64 bits", TOKARG(t));
		out->mag = out->mag * base + d;
	}
	if (out->neg && out->mag == 0)
		out->neg = 0;
	return VTA_OK;
}

/* An unsigned field of `width` bits named `field`. */
static vta_status check_unsigned(asm_ctx *a, const num *v, unsigned width, const char *field)
{
	uint64_t max = width >= 64 ? UINT64_MAX : (1ull << width) - 1;
	if (v->neg)
		return asm_fail(a, VTA_E_ENCODE, v->at, "%s -%llu does not fit in %u bits (unsigned)",
				field, (unsigned long long)v->mag, width);
	if (width == 0 && v->mag != 0)
		return asm_fail(a, VTA_E_ENCODE, v->at, "%s %llu: the field exists only in the wide "
				"encoding (isa.encoding: wide)", field, (unsigned long long)v->mag);
	if (v->mag > max)
		return asm_fail(a, VTA_E_ENCODE, v->at, "%s %llu does not fit in %u bits", field,
				(unsigned long long)v->mag, width);
	return VTA_OK;
}

/* A value within [lo, hi]; hi < 2^63. */
static vta_status check_range(asm_ctx *a, const num *v, int64_t lo, int64_t hi, const char *what,
			      int64_t *out)
{
	int ok;
	if (v->neg)
		ok = v->mag <= (uint64_t)INT64_MAX + 1 &&
		     (v->mag == (uint64_t)INT64_MAX + 1 ? lo == INT64_MIN : -(int64_t)v->mag >= lo);
	else
		ok = v->mag <= (uint64_t)hi;
	if (!ok)
		return asm_fail(a, VTA_E_ENCODE, v->at, "%s %s%llu does not fit (%lld..%lld)", what,
				v->neg ? "-" : "", (unsigned long long)v->mag, (long long)lo,
				(long long)hi);
	*out = v->neg ? (int64_t)(0 - v->mag) : (int64_t)v->mag;
	return VTA_OK;
}

/* ---------- key=value fields, from the field tables (vta_insn_fields.c) ---------- */

#define MAX_KEYS 16

/* "a,b" of the head's flag names (or "none" or nothing): set those flags of insn. */
static vta_status parse_deps(asm_ctx *a, tok v, vta_insn *insn)
{
	const vta_insn_format *head = vta_insn_head();
	if (v.n == 0 || tok_is(v, "none"))
		return VTA_OK;
	const char *p = v.p, *end = v.p + v.n;
	for (;;) {
		const char *e = memchr(p, ',', (size_t)(end - p));
		if (!e)
			e = end;
		tok t = {p, (size_t)(e - p)};
		const vta_insn_field *f = NULL;
		for (size_t i = 0; i < head->n_fields && !f; i++)
			if (head->fields[i].type == VTA_FIELD_FLAG && tok_is(t, head->fields[i].name))
				f = &head->fields[i];
		if (!f)
			return asm_fail(a, VTA_E_PARSE, t.p,
					"unknown dependency flag " TOKFMT
					" (pop_prev, pop_next, push_prev, push_next or none)",
					TOKARG(t));
		if (vta_field_get(f, insn))
			return asm_fail(a, VTA_E_PARSE, t.p, "dependency flag %s given twice",
					f->name);
		vta_field_set(f, insn, 1);
		if (e == end)
			return VTA_OK;
		p = e + 1;
	}
}

/* A named value (memory type, ALU op), or a number range-checked against the field width. */
static vta_status parse_field(asm_ctx *a, const vta_insn_format *fmt, const vta_insn_field *f,
			      tok v, void *base)
{
	vta_status st;
	num n;
	if (f->names != VTA_NAMES_NONE) {
		char list[128] = "";
		for (uint32_t i = 0; i < f->defined; i++) {
			const char *name = vta_field_value_name(f, i);
			if (tok_is(v, name)) {
				vta_field_set(f, base, i);
				return VTA_OK;
			}
			strncat(list, i ? ", " : "", sizeof(list) - strlen(list) - 1);
			strncat(list, name, sizeof(list) - strlen(list) - 1);
		}
		return asm_fail(a, VTA_E_PARSE, v.p, "unknown %s " TOKFMT " (%s)",
				f->names == VTA_NAMES_MEM ? "memory type" : "ALU op", TOKARG(v),
				list);
	}
	char name[32];
	snprintf(name, sizeof(name), "%s%s", fmt->prefix, f->name);
	unsigned w = vta_field_width(f, &a->cfg->fw);
	if ((st = parse_num(a, v, &n)))
		return st;
	if (f->type == VTA_FIELD_SIGNED) {
		int64_t lo = w == 0 ? 0 : -(int64_t)(1ull << (w - 1));
		int64_t hi = w == 0 ? 0 : (int64_t)((1ull << (w - 1)) - 1), s;
		if ((st = check_range(a, &n, lo, hi, name, &s)))
			return st;
		vta_field_set(f, base, s);
		return VTA_OK;
	}
	if ((st = check_unsigned(a, &n, w, name)))
		return st;
	vta_field_set(f, base, (int64_t)n.mag);
	return VTA_OK;
}

/* The value of one key: the dependency list, one field, or a pair "a,b" of two fields. */
static vta_status parse_value(asm_ctx *a, const vta_insn_format *fmt, const char *key, tok v,
			      void *base)
{
	if (!strcmp(key, "deps")) /* only instructions have it: base is a vta_insn */
		return parse_deps(a, v, base);
	const vta_insn_field *f[2] = {NULL, NULL};
	size_t nf = 0;
	for (size_t i = 0; i < fmt->n_fields && nf < 2; i++)
		if (!strcmp(fmt->fields[i].asm_key, key))
			f[nf++] = &fmt->fields[i];
	if (nf == 1)
		return parse_field(a, fmt, f[0], v, base);
	const char *comma = memchr(v.p, ',', v.n);
	if (!comma)
		return asm_fail(a, VTA_E_PARSE, v.p,
				"%s expects two values 'a,b' (%s,%s), got " TOKFMT,
				key, f[0]->name, f[1]->name, TOKARG(v));
	tok t0 = {v.p, (size_t)(comma - v.p)};
	tok t1 = {comma + 1, (size_t)(v.p + v.n - comma - 1)};
	vta_status st = parse_field(a, fmt, f[0], t0, base);
	return st ? st : parse_field(a, fmt, f[1], t1, base);
}

/* The (first) field a key writes; NULL for deps, which is no field of the format. */
static const vta_insn_field *key_field(const vta_insn_format *fmt, const char *key)
{
	for (size_t i = 0; i < fmt->n_fields; i++)
		if (!strcmp(fmt->fields[i].asm_key, key))
			return &fmt->fields[i];
	return NULL;
}

/* Parse the key=value tokens after a mnemonic into base (a vta_insn or vta_uop), then check
 * required keys. */
static vta_status parse_keys(asm_ctx *a, const char *mnemonic, tok mtok,
			     const vta_insn_format *fmt, const char *p, const char *end, void *base)
{
	vta_status st;
	tok t;
	const char *seen[MAX_KEYS] = {NULL}; /* where each key was written */
	const char *const *keys = fmt->asm_keys;
	while (next_tok(&p, end, &t)) {
		const char *eq = memchr(t.p, '=', t.n);
		if (!eq)
			return asm_fail(a, VTA_E_PARSE, t.p, "expected key=value, got " TOKFMT,
					TOKARG(t));
		tok key = {t.p, (size_t)(eq - t.p)};
		tok val = {eq + 1, (size_t)(t.p + t.n - eq - 1)};
		int idx;
		for (idx = 0; keys[idx] && !tok_is(key, keys[idx]); idx++)
			;
		if (!keys[idx])
			return asm_fail(a, VTA_E_PARSE, t.p, "unknown key " TOKFMT " for %s",
					TOKARG(key), mnemonic);
		if (seen[idx])
			return asm_fail(a, VTA_E_PARSE, t.p, "duplicate key '%s'", keys[idx]);
		if (val.n == 0 && strcmp(keys[idx], "deps"))
			return asm_fail(a, VTA_E_PARSE, val.p, "missing value for '%s'", keys[idx]);
		seen[idx] = t.p;
		if ((st = parse_value(a, fmt, keys[idx], val, base)))
			return st;
	}
	/* the pads and chan share bits: which ones a load has depends on its bw */
	for (int i = 0; keys[i]; i++)
		if (seen[i] && key_field(fmt, keys[i]) &&
		    !vta_field_present(key_field(fmt, keys[i]), base))
			return asm_fail(a, VTA_E_PARSE, seen[i],
					"key '%s' is not allowed in a %s load (its bits hold %s)",
					keys[i], strcmp(keys[i], "chan") ? "decompressing" : "plain",
					strcmp(keys[i], "chan") ? "chan" : "ypad and xpad");
	for (int i = 0; keys[i]; i++)
		if (!seen[i] && key_field(fmt, keys[i]) && key_field(fmt, keys[i])->required)
			return asm_fail(a, VTA_E_PARSE, mtok.p, "%s: missing required key '%s'",
					mnemonic, keys[i]);
	return VTA_OK;
}

/* ---------- sections (segments) ---------- */

static vta_status seg_append(asm_ctx *a, const uint8_t *bytes, size_t n, const char *at)
{
	if (a->seg_len + n > UINT32_MAX)
		return asm_fail(a, VTA_E_PARSE, at, "segment larger than 4 GiB");
	if (a->seg_len + n > a->seg_cap) {
		size_t ncap = a->seg_cap ? a->seg_cap : 256;
		while (ncap < a->seg_len + n)
			ncap *= 2;
		uint8_t *nb = realloc(a->seg_bytes, ncap);
		if (!nb)
			return vta_fail(a->err, VTA_E_NOMEM, "out of memory for a segment");
		a->seg_bytes = nb;
		a->seg_cap = ncap;
	}
	memcpy(a->seg_bytes + a->seg_len, bytes, n);
	a->seg_len += n;
	return VTA_OK;
}

/* Close the open section, if any, appending its segment. */
static vta_status seg_close(asm_ctx *a)
{
	if (a->section == SECTION_TEXT)
		return VTA_OK;
	vta_segment_kind kind = (vta_segment_kind)(a->section - 1);
	a->section = SECTION_TEXT;
	size_t i = a->prog->n_segments;
	if (i == a->seg_pos_cap) {
		size_t ncap = a->seg_pos_cap ? 2 * a->seg_pos_cap : 16;
		void *np = realloc(a->seg_pos, ncap * sizeof(*a->seg_pos));
		if (!np)
			return vta_fail(a->err, VTA_E_NOMEM, "out of memory for a segment");
		a->seg_pos = np;
		a->seg_pos_cap = ncap;
	}
	a->seg_pos[i][0] = a->seg_line;
	a->seg_pos[i][1] = a->seg_col;
	vta_status st = vta_program_add_segment(a->prog, kind, a->seg_addr, a->seg_bytes,
						(uint32_t)a->seg_len, a->err);
	a->seg_len = 0;
	return st;
}

static const char *seg_directive(const vta_segment *s)
{
	return s->kind == VTA_SEG_UOP ? ".uops" : ".data";
}

/* Once every segment is closed: two whose DRAM bytes overlap would overwrite each other when
 * placed, so the later one is an error naming the earlier one's line. */
static vta_status seg_check_overlap(asm_ctx *a)
{
	int found;
	size_t e, l;
	vta_status st = vta_program_overlap(a->prog, &found, &e, &l, a->err);
	if (st || !found)
		return st;
	const vta_segment *se = &a->prog->segments[e], *sl = &a->prog->segments[l];
	return vta_fail(a->err, VTA_E_PARSE,
			"%s:%u:%u: %s segment 0x%llx+%u overlaps the %s segment 0x%llx+%u at "
			"%s:%u",
			a->name, a->seg_pos[l][0], a->seg_pos[l][1], seg_directive(sl),
			(unsigned long long)sl->dram_addr, sl->size, seg_directive(se),
			(unsigned long long)se->dram_addr, se->size, a->name, a->seg_pos[e][0]);
}

/* .byte / .word: values separated by commas and/or blanks. */
static vta_status parse_data(asm_ctx *a, tok dir, const char *p, const char *end,
			     unsigned size)
{
	vta_status st;
	int64_t lo = size == 1 ? -128 : INT32_MIN;
	int64_t hi = size == 1 ? 255 : (int64_t)UINT32_MAX;
	int count = 0;
	for (;;) {
		while (p < end && is_space(*p))
			p++;
		if (p == end) {
			if (count == 0)
				return asm_fail(a, VTA_E_PARSE, dir.p, "%.*s needs at least one value",
						(int)dir.n, dir.p);
			return VTA_OK;
		}
		const char *e = p;
		while (e < end && !is_space(*e) && *e != ',')
			e++;
		tok t = {p, (size_t)(e - p)};
		if (t.n == 0)
			return asm_fail(a, VTA_E_PARSE, p, "missing value before ','");
		num n;
		int64_t v;
		if ((st = parse_num(a, t, &n)) ||
		    (st = check_range(a, &n, lo, hi, size == 1 ? "byte" : "word", &v)))
			return st;
		uint8_t b[4];
		for (unsigned i = 0; i < size; i++)
			b[i] = (uint8_t)((uint64_t)v >> (8 * i));
		if ((st = seg_append(a, b, size, t.p)))
			return st;
		count++;
		p = e;
		while (p < end && is_space(*p))
			p++;
		if (p < end && *p == ',') {
			const char *comma = p++;
			while (p < end && is_space(*p))
				p++;
			if (p == end)
				return asm_fail(a, VTA_E_PARSE, comma, "missing value after ','");
		}
	}
}

static vta_status parse_directive(asm_ctx *a, tok dir, const char *p, const char *end)
{
	vta_status st;
	int is_uops = tok_is(dir, ".uops"), is_data = tok_is(dir, ".data");
	if (tok_is(dir, ".text") || is_uops || is_data) {
		tok arg, extra;
		int has_arg = next_tok(&p, end, &arg);
		if (tok_is(dir, ".text")) {
			if (has_arg)
				return asm_fail(a, VTA_E_PARSE, arg.p, ".text takes no argument");
			return seg_close(a);
		}
		if (!has_arg)
			return asm_fail(a, VTA_E_PARSE, dir.p,
					"%.*s needs a DRAM byte address", (int)dir.n, dir.p);
		if (next_tok(&p, end, &extra))
			return asm_fail(a, VTA_E_PARSE, extra.p,
					"%.*s takes one address, got more", (int)dir.n, dir.p);
		num n;
		if ((st = parse_num(a, arg, &n)))
			return st;
		if (n.neg)
			return asm_fail(a, VTA_E_ENCODE, arg.p, "DRAM address " TOKFMT
					" is negative", TOKARG(arg));
		if (is_uops && n.mag % a->cfg->sram[VTA_MEM_UOP].elem_bytes != 0)
			return asm_fail(a, VTA_E_PARSE, arg.p,
					".uops address 0x%llx is not a multiple of %u (LOAD UOP "
					"addresses whole micro-ops)",
					(unsigned long long)n.mag,
					a->cfg->sram[VTA_MEM_UOP].elem_bytes);
		if ((st = seg_close(a)))
			return st;
		a->section = is_uops ? SECTION_UOPS : SECTION_DATA;
		a->seg_addr = n.mag;
		a->seg_len = 0;
		a->seg_line = a->line;
		a->seg_col = col_of(a, dir.p);
		return VTA_OK;
	}
	if (tok_is(dir, ".byte") || tok_is(dir, ".word")) {
		if (a->section != SECTION_DATA)
			return asm_fail(a, VTA_E_PARSE, dir.p,
					"%.*s outside a .data section", (int)dir.n, dir.p);
		return parse_data(a, dir, p, end, tok_is(dir, ".byte") ? 1 : 4);
	}
	return asm_fail(a, VTA_E_PARSE, dir.p,
			"unknown directive " TOKFMT " (.text, .uops, .data, .byte, .word)",
			TOKARG(dir));
}

/* ---------- instructions ---------- */

static vta_status parse_insn(asm_ctx *a, tok m, const char *p, const char *end)
{
	vta_status st;
	vta_insn in;
	memset(&in, 0, sizeof(in));
	if (a->section != SECTION_TEXT)
		return asm_fail(a, VTA_E_PARSE, m.p,
				"instruction inside a %s section (write .text first)",
				a->section == SECTION_UOPS ? ".uops" : ".data");
	unsigned op;
	for (op = 0; op <= VTA_OP_ALU && !tok_is(m, vta_opcode_name((vta_opcode)op)); op++)
		;
	if (op > VTA_OP_ALU)
		return asm_fail(a, VTA_E_PARSE, m.p,
				"unknown mnemonic " TOKFMT
				" (load, store, gemm, alu, finish, uop or a directive)",
				TOKARG(m));
	in.opcode = (vta_opcode)op;
	if ((st = parse_keys(a, vta_opcode_name(in.opcode), m, vta_insn_format_of(in.opcode), p,
			     end, &in)))
		return st;
	uint8_t bytes[VTA_INSN_MAX_BYTES];
	vta_error sub = {0};
	/* values were range-checked where written; this only catches what they cannot see */
	if (vta_insn_encode(a->cfg, &in, bytes, &sub) != VTA_OK)
		return asm_fail(a, sub.status, m.p, "%s", sub.detail);
	if (a->check && vta_insn_check_static(a->cfg, &in, (uint64_t)a->cfg->dram_size_mib << 20,
					      &sub) != VTA_OK)
		return asm_fail(a, VTA_E_STREAM, m.p, "%s", sub.detail);
	return vta_program_push_raw(a->prog, bytes, a->err);
}

static vta_status parse_uop(asm_ctx *a, tok m, const char *p, const char *end)
{
	vta_status st;
	vta_uop u = {0, 0, 0};
	if (a->section != SECTION_UOPS)
		return asm_fail(a, VTA_E_PARSE, m.p, "uop outside a .uops section");
	if ((st = parse_keys(a, "uop", m, vta_uop_format(), p, end, &u)))
		return st;
	uint8_t b[VTA_UOP_MAX_BYTES];
	vta_error sub = {0};
	if (vta_uop_encode(a->cfg, &u, b, &sub) != VTA_OK)
		return asm_fail(a, sub.status, m.p, "%s", sub.detail);
	return seg_append(a, b, a->cfg->sram[VTA_MEM_UOP].elem_bytes, m.p);
}

static vta_status parse_line(asm_ctx *a, const char *p, const char *end)
{
	/* a comment runs from ';' or '#' to the end of the line */
	for (const char *c = p; c < end; c++)
		if (*c == ';' || *c == '#') {
			end = c;
			break;
		}
	tok m;
	if (!next_tok(&p, end, &m))
		return VTA_OK;
	if (m.p[0] == '.')
		return parse_directive(a, m, p, end);
	if (tok_is(m, "uop"))
		return parse_uop(a, m, p, end);
	return parse_insn(a, m, p, end);
}

static vta_status asm_text(const char *text, size_t len, const char *name, const vta_config *cfg,
			   bool check, vta_program *prog, vta_error *err)
{
	vta_program p;
	vta_program_init(&p, cfg);
	vta_quoted_path qn; /* the name messages show (vta_text.h) */
	asm_ctx a = {.name = vta_quote_path(&qn, name ? name : "<input>"), .cfg = cfg, .err = err,
					    .check = check,
		     .prog = &p};
	vta_status st = VTA_OK;
	const char *s = text, *end = text + len;
	while (s < end && st == VTA_OK) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *e = nl ? nl : end;
		a.line++;
		a.line_start = s;
		st = parse_line(&a, s, e);
		s = nl ? nl + 1 : end;
	}
	if (st == VTA_OK)
		st = seg_close(&a);
	if (st == VTA_OK)
		st = seg_check_overlap(&a);
	free(a.seg_bytes);
	free(a.seg_pos);
	if (st) {
		vta_program_free(&p);
		vta_program_init(prog, cfg);
		return st;
	}
	*prog = p;
	return VTA_OK;
}

vta_status vta_asm_parse(const char *text, size_t len, const char *name, const vta_config *cfg,
			 vta_program *prog, vta_error *err)
{
	return asm_text(text, len, name, cfg, false, prog, err);
}

static vta_status asm_file(const char *path, const vta_config *cfg, bool check,
			   vta_program *prog, vta_error *err)
{
	uint8_t *buf;
	size_t len;
	vta_program_init(prog, cfg); /* what a failed read leaves */
	vta_status st = vta_read_file(path, "program", VTA_LIMIT_PROGRAM, &buf, &len, err);
	if (st)
		return st;
	st = asm_text((const char *)buf, len, path, cfg, check, prog, err);
	free(buf);
	return st;
}

vta_status vta_asm_file(const char *path, const vta_config *cfg, vta_program *prog,
			vta_error *err)
{
	return asm_file(path, cfg, false, prog, err);
}

vta_status vta_asm_file_checked(const char *path, const vta_config *cfg, vta_program *prog,
				vta_error *err)
{
	return asm_file(path, cfg, true, prog, err);
}

/* Peek at the magic, then use the reader for that kind (streams are small: reading the file
 * a second time is cheaper than a second copy of both readers' error handling). */
vta_status vta_program_load(const char *path, const vta_config *cfg, vta_program *prog,
			    vta_error *err)
{
	uint8_t *buf;
	size_t len;
	vta_program_init(prog, cfg); /* what a failed read leaves */
	vta_status st = vta_read_file(path, "program", VTA_LIMIT_PROGRAM, &buf, &len, err);
	if (st)
		return st;
	int binary = vta_program_is_binary(buf, len);
	free(buf);
	return binary ? vta_program_read(path, cfg, prog, err) : vta_asm_file(path, cfg, prog, err);
}
