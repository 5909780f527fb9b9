/*
 * vta_asm.c - the text assembler: one instruction per line, every field named (key=value),
 * micro-op and data segments introduced by directives. The syntax is specified in
 * docs/isa.md "Assembly"; in short:
 *
 *   load   mem=inp sram=0 dram=0x10 y=4 x=4 stride=16 ypad=1,1 xpad=1,1 deps=push_next
 *   gemm   reset=0 uop=0,4 iter=2,8 dst=16,1 src=16,1 wgt=0,0 deps=pop_prev
 *   alu    op=shr reset=0 uop=0,1 iter=1,16 dst=0,1 src=0,1 use_imm=1 imm=8 deps=none
 *   finish deps=none
 *   .uops 0x1000            ; a UOP segment at DRAM byte address 0x1000, then `uop` lines
 *   uop dst=0 src=0 wgt=0
 *   .data 0x2000            ; a data segment, then `.byte` / `.word` lines
 *   .word 1, -2, 0x30
 *   .text                   ; back to instructions
 *
 * Every field value is range-checked against the config's field widths where it is
 * written, so each problem is reported as "NAME:LINE:COL: ..." (VTA_E_PARSE for syntax,
 * VTA_E_ENCODE for a value that does not fit). Columns count bytes from 1.
 */
#include "vta_asm.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---------- source positions and errors ---------- */

typedef struct asm_ctx {
	const char *name;
	const vta_config *cfg;
	vta_program *prog;
	vta_error *err;
	unsigned line;
	const char *line_start;
	/* the open segment (section), if any */
	int section; /* 0 text, else 1 + vta_segment_kind */
	uint64_t seg_addr;
	uint8_t *seg_bytes;
	size_t seg_len, seg_cap;
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

/* Tokens are quoted in messages shortened, so a detail stays one readable line. */
#define TOKFMT "'%.*s%s'"
#define TOKARG(t) (int)((t).n > 40 ? 40 : (t).n), (t).p, (t).n > 40 ? "..." : ""

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

/* ---------- key=value fields ---------- */

typedef enum key_kind {
	K_NUM,  /* one unsigned number */
	K_PAIR, /* two unsigned numbers "a,b" */
	K_SNUM, /* one signed number */
	K_MEM,  /* memory type name */
	K_ALUOP,/* ALU op name */
	K_DEPS  /* dependency flag list */
} key_kind;

#define FW(f) offsetof(vta_field_widths, f)

typedef struct key_spec {
	const char *key;
	key_kind kind;
	int required;
	const char *field[2]; /* field names used in range messages */
	size_t width[2];      /* offsets of the widths in vta_field_widths */
} key_spec;

/* Parsed values of one line, indexed like the mnemonic's key table. */
#define MAX_KEYS 12
typedef struct line_vals {
	int seen[MAX_KEYS];
	uint64_t v[MAX_KEYS][2];
	int64_t s[MAX_KEYS];
	vta_deps deps;
} line_vals;

enum { MEM_MEM, MEM_SRAM, MEM_DRAM, MEM_Y, MEM_X, MEM_STRIDE, MEM_YPAD, MEM_XPAD, MEM_DEPS };
static const key_spec mem_keys[] = {
	{"mem", K_MEM, 1, {"memory_type", NULL}, {FW(memop_id), 0}},
	{"sram", K_NUM, 1, {"sram_base", NULL}, {FW(memop_sram), 0}},
	{"dram", K_NUM, 1, {"dram_base", NULL}, {FW(memop_dram), 0}},
	{"y", K_NUM, 1, {"y_size", NULL}, {FW(memop_size), 0}},
	{"x", K_NUM, 1, {"x_size", NULL}, {FW(memop_size), 0}},
	{"stride", K_NUM, 1, {"x_stride", NULL}, {FW(memop_stride), 0}},
	{"ypad", K_PAIR, 0, {"y_pad_0", "y_pad_1"}, {FW(memop_pad), FW(memop_pad)}},
	{"xpad", K_PAIR, 0, {"x_pad_0", "x_pad_1"}, {FW(memop_pad), FW(memop_pad)}},
	{"deps", K_DEPS, 0, {NULL, NULL}, {0, 0}},
	{NULL, K_NUM, 0, {NULL, NULL}, {0, 0}},
};

enum { G_RESET, G_UOP, G_ITER, G_DST, G_SRC, G_WGT, G_DEPS };
static const key_spec gemm_keys[] = {
	{"reset", K_NUM, 0, {"reset", NULL}, {FW(reset), 0}},
	{"uop", K_PAIR, 1, {"uop_bgn", "uop_end"}, {FW(uop_bgn), FW(uop_end)}},
	{"iter", K_PAIR, 1, {"iter_out", "iter_in"}, {FW(loop_iter), FW(loop_iter)}},
	{"dst", K_PAIR, 1, {"dst_factor_out", "dst_factor_in"},
	 {FW(gemm_dst_factor), FW(gemm_dst_factor)}},
	{"src", K_PAIR, 1, {"src_factor_out", "src_factor_in"},
	 {FW(gemm_src_factor), FW(gemm_src_factor)}},
	{"wgt", K_PAIR, 1, {"wgt_factor_out", "wgt_factor_in"},
	 {FW(gemm_wgt_factor), FW(gemm_wgt_factor)}},
	{"deps", K_DEPS, 0, {NULL, NULL}, {0, 0}},
	{NULL, K_NUM, 0, {NULL, NULL}, {0, 0}},
};

enum { A_OP, A_RESET, A_UOP, A_ITER, A_DST, A_SRC, A_USE_IMM, A_IMM, A_DEPS };
static const key_spec alu_keys[] = {
	{"op", K_ALUOP, 1, {"alu_opcode", NULL}, {FW(alu_opcode), 0}},
	{"reset", K_NUM, 0, {"reset", NULL}, {FW(reset), 0}},
	{"uop", K_PAIR, 1, {"uop_bgn", "uop_end"}, {FW(uop_bgn), FW(uop_end)}},
	{"iter", K_PAIR, 1, {"iter_out", "iter_in"}, {FW(loop_iter), FW(loop_iter)}},
	{"dst", K_PAIR, 1, {"dst_factor_out", "dst_factor_in"},
	 {FW(alu_dst_factor), FW(alu_dst_factor)}},
	{"src", K_PAIR, 1, {"src_factor_out", "src_factor_in"},
	 {FW(alu_src_factor), FW(alu_src_factor)}},
	{"use_imm", K_NUM, 1, {"use_imm", NULL}, {FW(alu_use_imm), 0}},
	{"imm", K_SNUM, 0, {"imm", NULL}, {FW(alu_imm), 0}},
	{"deps", K_DEPS, 0, {NULL, NULL}, {0, 0}},
	{NULL, K_NUM, 0, {NULL, NULL}, {0, 0}},
};

static const key_spec finish_keys[] = {
	{"deps", K_DEPS, 0, {NULL, NULL}, {0, 0}},
	{NULL, K_NUM, 0, {NULL, NULL}, {0, 0}},
};

enum { U_DST, U_SRC, U_WGT };
static const key_spec uop_keys[] = {
	{"dst", K_NUM, 1, {"uop dst", NULL}, {FW(uop_dst), 0}},
	{"src", K_NUM, 1, {"uop src", NULL}, {FW(uop_src), 0}},
	{"wgt", K_NUM, 0, {"uop wgt", NULL}, {FW(uop_wgt), 0}},
	{NULL, K_NUM, 0, {NULL, NULL}, {0, 0}},
};

static unsigned width_at(const asm_ctx *a, size_t off)
{
	unsigned w;
	memcpy(&w, (const char *)&a->cfg->fw + off, sizeof(w));
	return w;
}

static vta_status parse_deps(asm_ctx *a, tok v, vta_deps *d)
{
	static const char *const names[4] = {"pop_prev", "pop_next", "push_prev", "push_next"};
	memset(d, 0, sizeof(*d));
	if (v.n == 0 || tok_is(v, "none"))
		return VTA_OK;
	const char *p = v.p, *end = v.p + v.n;
	for (;;) {
		const char *e = memchr(p, ',', (size_t)(end - p));
		if (!e)
			e = end;
		tok f = {p, (size_t)(e - p)};
		bool *flags[4] = {&d->pop_prev, &d->pop_next, &d->push_prev, &d->push_next};
		int i;
		for (i = 0; i < 4 && !tok_is(f, names[i]); i++)
			;
		if (i == 4)
			return asm_fail(a, VTA_E_PARSE, f.p,
					"unknown dependency flag " TOKFMT
					" (pop_prev, pop_next, push_prev, push_next or none)",
					TOKARG(f));
		if (*flags[i])
			return asm_fail(a, VTA_E_PARSE, f.p, "dependency flag %s given twice",
					names[i]);
		*flags[i] = true;
		if (e == end)
			return VTA_OK;
		p = e + 1;
	}
}

/* Parse the value of one key into vals[idx]. */
static vta_status parse_value(asm_ctx *a, const key_spec *k, tok v, line_vals *lv, int idx)
{
	vta_status st;
	num n[2];
	switch (k->kind) {
	case K_NUM:
		if ((st = parse_num(a, v, &n[0])) ||
		    (st = check_unsigned(a, &n[0], width_at(a, k->width[0]), k->field[0])))
			return st;
		lv->v[idx][0] = n[0].mag;
		return VTA_OK;
	case K_SNUM: {
		unsigned w = width_at(a, k->width[0]);
		int64_t lo = w == 0 ? 0 : -(int64_t)(1ull << (w - 1));
		int64_t hi = w == 0 ? 0 : (int64_t)((1ull << (w - 1)) - 1);
		if ((st = parse_num(a, v, &n[0])) ||
		    (st = check_range(a, &n[0], lo, hi, k->field[0], &lv->s[idx])))
			return st;
		return VTA_OK;
	}
	case K_PAIR: {
		const char *comma = memchr(v.p, ',', v.n);
		if (!comma)
			return asm_fail(a, VTA_E_PARSE, v.p,
					"%s expects two values 'a,b' (%s,%s), got " TOKFMT, k->key,
					k->field[0], k->field[1], TOKARG(v));
		tok t0 = {v.p, (size_t)(comma - v.p)};
		tok t1 = {comma + 1, (size_t)(v.p + v.n - comma - 1)};
		for (int i = 0; i < 2; i++) {
			tok t = i ? t1 : t0;
			if ((st = parse_num(a, t, &n[i])) ||
			    (st = check_unsigned(a, &n[i], width_at(a, k->width[i]), k->field[i])))
				return st;
			lv->v[idx][i] = n[i].mag;
		}
		return VTA_OK;
	}
	case K_MEM:
		for (unsigned m = 0; m < VTA_MEM_COUNT; m++)
			if (tok_is(v, vta_mem_name((vta_mem)m))) {
				lv->v[idx][0] = m;
				return VTA_OK;
			}
		return asm_fail(a, VTA_E_PARSE, v.p,
				"unknown memory type " TOKFMT " (uop, wgt, inp, acc, out, acc8)",
				TOKARG(v));
	case K_ALUOP:
		for (unsigned o = 0; o < VTA_ALU_OP_COUNT; o++)
			if (tok_is(v, vta_alu_op_name(o))) {
				lv->v[idx][0] = o;
				return VTA_OK;
			}
		return asm_fail(a, VTA_E_PARSE, v.p,
				"unknown ALU op " TOKFMT " (min, max, add, shr, mul, srdhm, rshr)",
				TOKARG(v));
	case K_DEPS:
		return parse_deps(a, v, &lv->deps);
	}
	return vta_fail(a->err, VTA_E_INTERNAL, "bad key kind");
}

/* Parse the key=value tokens after a mnemonic, then check required keys. */
static vta_status parse_keys(asm_ctx *a, const char *mnemonic, tok mtok, const key_spec *keys,
			     const char *p, const char *end, line_vals *lv)
{
	vta_status st;
	tok t;
	memset(lv, 0, sizeof(*lv));
	while (next_tok(&p, end, &t)) {
		const char *eq = memchr(t.p, '=', t.n);
		if (!eq)
			return asm_fail(a, VTA_E_PARSE, t.p, "expected key=value, got " TOKFMT,
					TOKARG(t));
		tok key = {t.p, (size_t)(eq - t.p)};
		tok val = {eq + 1, (size_t)(t.p + t.n - eq - 1)};
		int idx;
		for (idx = 0; keys[idx].key && !tok_is(key, keys[idx].key); idx++)
			;
		if (!keys[idx].key)
			return asm_fail(a, VTA_E_PARSE, t.p, "unknown key " TOKFMT " for %s",
					TOKARG(key), mnemonic);
		if (lv->seen[idx])
			return asm_fail(a, VTA_E_PARSE, t.p, "duplicate key '%s'", keys[idx].key);
		if (val.n == 0 && keys[idx].kind != K_DEPS)
			return asm_fail(a, VTA_E_PARSE, val.p, "missing value for '%s'",
					keys[idx].key);
		lv->seen[idx] = 1;
		if ((st = parse_value(a, &keys[idx], val, lv, idx)))
			return st;
	}
	for (int i = 0; keys[i].key; i++)
		if (keys[i].required && !lv->seen[i])
			return asm_fail(a, VTA_E_PARSE, mtok.p, "%s: missing required key '%s'",
					mnemonic, keys[i].key);
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
	vta_status st = vta_program_add_segment(a->prog, kind, a->seg_addr, a->seg_bytes,
						(uint32_t)a->seg_len, a->err);
	a->seg_len = 0;
	return st;
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
		if (is_uops && n.mag % VTA_UOP_BYTES != 0)
			return asm_fail(a, VTA_E_PARSE, arg.p,
					".uops address 0x%llx is not a multiple of 4 (LOAD UOP "
					"addresses whole micro-ops)",
					(unsigned long long)n.mag);
		if ((st = seg_close(a)))
			return st;
		a->section = is_uops ? SECTION_UOPS : SECTION_DATA;
		a->seg_addr = n.mag;
		a->seg_len = 0;
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

static vta_status emit(asm_ctx *a, tok mtok, const vta_insn *insn)
{
	vta_error sub = {0};
	uint8_t bytes[VTA_INSN_BYTES];
	/* values were range-checked where written; this only catches what they cannot see */
	if (vta_insn_encode(a->cfg, insn, bytes, &sub) != VTA_OK)
		return asm_fail(a, sub.status, mtok.p, "%s", sub.detail);
	return vta_program_push_raw(a->prog, bytes, a->err);
}

static vta_status parse_insn(asm_ctx *a, tok m, const char *p, const char *end)
{
	vta_status st;
	line_vals lv;
	vta_insn in;
	memset(&in, 0, sizeof(in));
	if (a->section != SECTION_TEXT)
		return asm_fail(a, VTA_E_PARSE, m.p,
				"instruction inside a %s section (write .text first)",
				a->section == SECTION_UOPS ? ".uops" : ".data");
	if (tok_is(m, "load") || tok_is(m, "store")) {
		in.opcode = tok_is(m, "load") ? VTA_OP_LOAD : VTA_OP_STORE;
		if ((st = parse_keys(a, vta_opcode_name(in.opcode), m, mem_keys, p, end, &lv)))
			return st;
		in.mem.mem_type = (uint32_t)lv.v[MEM_MEM][0];
		in.mem.sram_base = (uint32_t)lv.v[MEM_SRAM][0];
		in.mem.dram_base = (uint32_t)lv.v[MEM_DRAM][0];
		in.mem.y_size = (uint32_t)lv.v[MEM_Y][0];
		in.mem.x_size = (uint32_t)lv.v[MEM_X][0];
		in.mem.x_stride = (uint32_t)lv.v[MEM_STRIDE][0];
		in.mem.y_pad_0 = (uint32_t)lv.v[MEM_YPAD][0];
		in.mem.y_pad_1 = (uint32_t)lv.v[MEM_YPAD][1];
		in.mem.x_pad_0 = (uint32_t)lv.v[MEM_XPAD][0];
		in.mem.x_pad_1 = (uint32_t)lv.v[MEM_XPAD][1];
	} else if (tok_is(m, "gemm")) {
		in.opcode = VTA_OP_GEMM;
		if ((st = parse_keys(a, "gemm", m, gemm_keys, p, end, &lv)))
			return st;
		in.loop.reset = lv.v[G_RESET][0] != 0;
		in.loop.uop_bgn = (uint32_t)lv.v[G_UOP][0];
		in.loop.uop_end = (uint32_t)lv.v[G_UOP][1];
		in.loop.iter_out = (uint32_t)lv.v[G_ITER][0];
		in.loop.iter_in = (uint32_t)lv.v[G_ITER][1];
		in.loop.dst_factor_out = (uint32_t)lv.v[G_DST][0];
		in.loop.dst_factor_in = (uint32_t)lv.v[G_DST][1];
		in.loop.src_factor_out = (uint32_t)lv.v[G_SRC][0];
		in.loop.src_factor_in = (uint32_t)lv.v[G_SRC][1];
		in.loop.wgt_factor_out = (uint32_t)lv.v[G_WGT][0];
		in.loop.wgt_factor_in = (uint32_t)lv.v[G_WGT][1];
	} else if (tok_is(m, "alu")) {
		in.opcode = VTA_OP_ALU;
		if ((st = parse_keys(a, "alu", m, alu_keys, p, end, &lv)))
			return st;
		in.alu.op = (uint32_t)lv.v[A_OP][0];
		in.loop.reset = lv.v[A_RESET][0] != 0;
		in.loop.uop_bgn = (uint32_t)lv.v[A_UOP][0];
		in.loop.uop_end = (uint32_t)lv.v[A_UOP][1];
		in.loop.iter_out = (uint32_t)lv.v[A_ITER][0];
		in.loop.iter_in = (uint32_t)lv.v[A_ITER][1];
		in.loop.dst_factor_out = (uint32_t)lv.v[A_DST][0];
		in.loop.dst_factor_in = (uint32_t)lv.v[A_DST][1];
		in.loop.src_factor_out = (uint32_t)lv.v[A_SRC][0];
		in.loop.src_factor_in = (uint32_t)lv.v[A_SRC][1];
		in.alu.use_imm = lv.v[A_USE_IMM][0] != 0;
		in.alu.imm = (int32_t)lv.s[A_IMM];
	} else if (tok_is(m, "finish")) {
		in.opcode = VTA_OP_FINISH;
		if ((st = parse_keys(a, "finish", m, finish_keys, p, end, &lv)))
			return st;
	} else {
		return asm_fail(a, VTA_E_PARSE, m.p,
				"unknown mnemonic " TOKFMT
				" (load, store, gemm, alu, finish, uop or a directive)",
				TOKARG(m));
	}
	in.deps = lv.deps;
	return emit(a, m, &in);
}

static vta_status parse_uop(asm_ctx *a, tok m, const char *p, const char *end)
{
	vta_status st;
	line_vals lv;
	if (a->section != SECTION_UOPS)
		return asm_fail(a, VTA_E_PARSE, m.p, "uop outside a .uops section");
	if ((st = parse_keys(a, "uop", m, uop_keys, p, end, &lv)))
		return st;
	vta_uop u = {(uint32_t)lv.v[U_DST][0], (uint32_t)lv.v[U_SRC][0],
		     (uint32_t)lv.v[U_WGT][0]};
	uint8_t b[VTA_UOP_BYTES];
	vta_error sub = {0};
	if (vta_uop_encode(a->cfg, &u, b, &sub) != VTA_OK)
		return asm_fail(a, sub.status, m.p, "%s", sub.detail);
	return seg_append(a, b, sizeof(b), m.p);
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

vta_status vta_asm_parse(const char *text, size_t len, const char *name, const vta_config *cfg,
			 vta_program *prog, vta_error *err)
{
	asm_ctx a;
	memset(&a, 0, sizeof(a));
	a.name = name ? name : "<input>";
	a.cfg = cfg;
	a.err = err;
	vta_program p;
	vta_program_init(&p, cfg);
	a.prog = &p;
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
	free(a.seg_bytes);
	if (st) {
		vta_program_free(&p);
		vta_program_init(prog, cfg);
		return st;
	}
	*prog = p;
	return VTA_OK;
}

vta_status vta_asm_file(const char *path, const vta_config *cfg, vta_program *prog,
			vta_error *err)
{
	uint8_t *buf;
	size_t len;
	vta_status st = vta_read_file(path, &buf, &len, err);
	if (st) {
		vta_program_init(prog, cfg);
		return st;
	}
	st = vta_asm_parse((const char *)buf, len, path, cfg, prog, err);
	free(buf);
	return st;
}

/* Peek at the magic, then use the reader for that kind (streams are small: reading the file
 * a second time is cheaper than a second copy of both readers' error handling). */
vta_status vta_program_load(const char *path, const vta_config *cfg, vta_program *prog,
			    vta_error *err)
{
	uint8_t *buf;
	size_t len;
	vta_status st = vta_read_file(path, &buf, &len, err);
	if (st) {
		vta_program_init(prog, cfg);
		return st;
	}
	int binary = vta_program_is_binary(buf, len);
	free(buf);
	return binary ? vta_program_read(path, cfg, prog, err) : vta_asm_file(path, cfg, prog, err);
}
