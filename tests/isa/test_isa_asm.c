/*
 * test_isa_asm.c - the assembler and the disassembler: every diagnostic with its
 * NAME:LINE:COL, defaults, comments, sections and data directives, the exact disassembly
 * text, and the lossless round trip text -> binary -> text -> binary for every example in
 * docs/examples/ and for random programs on two configs.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vta_asm.h"

static void small_config(vta_config *cfg)
{
	vta_config_default(cfg);
	cfg->log_block_in = 2;
	cfg->log_block_out = 2;
	cfg->sram[VTA_MEM_UOP].kib = 1;
	cfg->sram[VTA_MEM_INP].kib = 1;
	cfg->sram[VTA_MEM_WGT].kib = 1;
	cfg->sram[VTA_MEM_ACC].kib = 1;
	vta_error err = {0};
	assert_int_equal(vta_config_derive(cfg, &err), VTA_OK);
}

static vta_status assemble(const char *text, vta_program *p, vta_error *err)
{
	vta_config cfg;
	vta_config_default(&cfg);
	return vta_asm_parse(text, strlen(text), "t.s", &cfg, p, err);
}

/* ---------- diagnostics ---------- */

typedef struct bad_case {
	const char *text;
	const char *marker; /* the error points at this text (first occurrence) ... */
	int offset;         /* ... plus this many bytes */
	vta_status status;
	const char *msg;    /* expected after "t.s:L:C: " (prefix match) */
} bad_case;

#define LD "load mem=inp sram=0 dram=0 y=1 x=1 stride=1"
#define GM "gemm uop=0,1 iter=1,1 dst=0,0 src=0,0 wgt=0,0"
#define AL "alu op=add uop=0,1 iter=1,1 dst=0,0 src=0,0 use_imm=0"

static const bad_case bad_cases[] = {
	/* mnemonics, keys */
	{"nop x=1", "nop", 0, VTA_E_PARSE, "unknown mnemonic 'nop'"},
	{"LOAD mem=inp", "LOAD", 0, VTA_E_PARSE, "unknown mnemonic 'LOAD'"},
	{LD " zz=1", "zz=1", 0, VTA_E_PARSE, "unknown key 'zz' for load"},
	{GM " imm=3", "imm=3", 0, VTA_E_PARSE, "unknown key 'imm' for gemm"},
	{"finish pop_prev", "pop_prev", 0, VTA_E_PARSE, "expected key=value, got 'pop_prev'"},
	{"load mem=inp sram=0 dram=0 y=1 x=1", "load", 0, VTA_E_PARSE,
	 "load: missing required key 'stride'"},
	{"store sram=0 dram=0 y=1 x=1 stride=1", "store", 0, VTA_E_PARSE,
	 "store: missing required key 'mem'"},
	{"  gemm uop=0,1 iter=1,1 dst=0,0 src=0,0", "gemm", 0, VTA_E_PARSE,
	 "gemm: missing required key 'wgt'"},
	{"alu uop=0,1 iter=1,1 dst=0,0 src=0,0 use_imm=0", "alu", 0, VTA_E_PARSE,
	 "alu: missing required key 'op'"},
	{"alu op=min uop=0,1 iter=1,1 dst=0,0 src=0,0", "alu", 0, VTA_E_PARSE,
	 "alu: missing required key 'use_imm'"},
	{".uops 0\n uop dst=0", " uop", 1, VTA_E_PARSE, "uop: missing required key 'src'"},
	{LD " x=2", "x=2", 0, VTA_E_PARSE, "duplicate key 'x'"},
	{AL " deps=none deps=pop_prev", "deps=pop_prev", 0, VTA_E_PARSE, "duplicate key 'deps'"},
	{"load mem=inp sram= dram=0 y=1 x=1 stride=1", "sram=", 5, VTA_E_PARSE,
	 "missing value for 'sram'"},
	/* numbers */
	{"load mem=inp sram=0 dram=0 y=1 x=12abc stride=1", "12abc", 0, VTA_E_PARSE,
	 "bad number '12abc'"},
	{"load mem=inp sram=0 dram=0x y=1 x=1 stride=1", "0x", 0, VTA_E_PARSE, "bad number '0x'"},
	{"load mem=inp sram=0 dram=0xg1 y=1 x=1 stride=1", "0xg1", 0, VTA_E_PARSE,
	 "bad number '0xg1'"},
	{"load mem=inp sram=- dram=0 y=1 x=1 stride=1", "-", 0, VTA_E_PARSE, "bad number '-'"},
	{"load mem=inp sram=1.5 dram=0 y=1 x=1 stride=1", "1.5", 0, VTA_E_PARSE,
	 "bad number '1.5'"},
	{LD " ypad=1,z", "z", 0, VTA_E_PARSE, "bad number 'z'"},
	{LD " ypad=1,", "ypad=1,", 7, VTA_E_PARSE, "bad number ''"},
	{"load mem=inp sram=99999999999999999999 dram=0 y=1 x=1 stride=1", "9999", 0,
	 VTA_E_ENCODE, "number '99999999999999999999' does not fit in 64 bits"},
	/* every field out of range: LOAD/STORE */
	{"load mem=inp sram=65536 dram=0 y=1 x=1 stride=1", "65536", 0, VTA_E_ENCODE,
	 "sram_base 65536 does not fit in 16 bits"},
	{"load mem=inp sram=-1 dram=0 y=1 x=1 stride=1", "-1", 0, VTA_E_ENCODE,
	 "sram_base -1 does not fit in 16 bits (unsigned)"},
	{"store mem=out sram=0 dram=0x100000000 y=1 x=1 stride=1", "0x1", 0, VTA_E_ENCODE,
	 "dram_base 4294967296 does not fit in 32 bits"},
	{"load mem=inp sram=0 dram=0 y=65536 x=1 stride=1", "65536", 0, VTA_E_ENCODE,
	 "y_size 65536 does not fit in 16 bits"},
	{"load mem=inp sram=0 dram=0 y=1 x=70000 stride=1", "70000", 0, VTA_E_ENCODE,
	 "x_size 70000 does not fit in 16 bits"},
	{"load mem=inp sram=0 dram=0 y=1 x=1 stride=65536", "65536", 0, VTA_E_ENCODE,
	 "x_stride 65536 does not fit in 16 bits"},
	{LD " ypad=16,0", "16", 0, VTA_E_ENCODE, "y_pad_0 16 does not fit in 4 bits"},
	{LD " ypad=0,16", "16", 0, VTA_E_ENCODE, "y_pad_1 16 does not fit in 4 bits"},
	{LD " xpad=16,0", "16", 0, VTA_E_ENCODE, "x_pad_0 16 does not fit in 4 bits"},
	{LD " xpad=0,16", "16", 0, VTA_E_ENCODE, "x_pad_1 16 does not fit in 4 bits"},
	{"load mem=foo sram=0 dram=0 y=1 x=1 stride=1", "foo", 0, VTA_E_PARSE,
	 "unknown memory type 'foo'"},
	/* GEMM */
	{GM " reset=2", "reset=2", 6, VTA_E_ENCODE, "reset 2 does not fit in 1 bits"},
	{"gemm uop=8192,8193 iter=1,1 dst=0,0 src=0,0 wgt=0,0", "8192", 0, VTA_E_ENCODE,
	 "uop_bgn 8192 does not fit in 13 bits"},
	{"gemm uop=0,16384 iter=1,1 dst=0,0 src=0,0 wgt=0,0", "16384", 0, VTA_E_ENCODE,
	 "uop_end 16384 does not fit in 14 bits"},
	{"gemm uop=0,1 iter=16384,1 dst=0,0 src=0,0 wgt=0,0", "16384", 0, VTA_E_ENCODE,
	 "iter_out 16384 does not fit in 14 bits"},
	{"gemm uop=0,1 iter=1,16384 dst=0,0 src=0,0 wgt=0,0", "16384", 0, VTA_E_ENCODE,
	 "iter_in 16384 does not fit in 14 bits"},
	{"gemm uop=0,1 iter=1,1 dst=2048,0 src=0,0 wgt=0,0", "2048", 0, VTA_E_ENCODE,
	 "dst_factor_out 2048 does not fit in 11 bits"},
	{"gemm uop=0,1 iter=1,1 dst=0,2048 src=0,0 wgt=0,0", "2048", 0, VTA_E_ENCODE,
	 "dst_factor_in 2048 does not fit in 11 bits"},
	{"gemm uop=0,1 iter=1,1 dst=0,0 src=2048,0 wgt=0,0", "2048", 0, VTA_E_ENCODE,
	 "src_factor_out 2048 does not fit in 11 bits"},
	{"gemm uop=0,1 iter=1,1 dst=0,0 src=0,2048 wgt=0,0", "2048", 0, VTA_E_ENCODE,
	 "src_factor_in 2048 does not fit in 11 bits"},
	{"gemm uop=0,1 iter=1,1 dst=0,0 src=0,0 wgt=1024,0", "1024", 0, VTA_E_ENCODE,
	 "wgt_factor_out 1024 does not fit in 10 bits"},
	{"gemm uop=0,1 iter=1,1 dst=0,0 src=0,0 wgt=0,1024", "1024", 0, VTA_E_ENCODE,
	 "wgt_factor_in 1024 does not fit in 10 bits"},
	{"gemm uop=5 iter=1,1 dst=0,0 src=0,0 wgt=0,0", "uop=5", 4, VTA_E_PARSE,
	 "uop expects two values 'a,b' (uop_bgn,uop_end), got '5'"},
	/* ALU */
	{AL " imm=32768", "32768", 0, VTA_E_ENCODE, "imm 32768 does not fit (-32768..32767)"},
	{AL " imm=-32769", "-32769", 0, VTA_E_ENCODE, "imm -32769 does not fit (-32768..32767)"},
	{"alu op=add uop=0,1 iter=1,1 dst=0,0 src=0,0 use_imm=2", "use_imm=2", 8, VTA_E_ENCODE,
	 "use_imm 2 does not fit in 1 bits"},
	{"alu op=add uop=0,1 iter=1,1 dst=0,0 src=0,2048 use_imm=0", "2048", 0, VTA_E_ENCODE,
	 "src_factor_in 2048 does not fit in 11 bits"},
	{"alu op=div uop=0,1 iter=1,1 dst=0,0 src=0,0 use_imm=0", "div", 0, VTA_E_PARSE,
	 "unknown ALU op 'div'"},
	/* flags */
	{AL " deps=pop_prev,popx", "popx", 0, VTA_E_PARSE, "unknown dependency flag 'popx'"},
	{"finish deps=push_next,push_next", ",push_next", 1, VTA_E_PARSE,
	 "dependency flag push_next given twice"},
	{"finish deps=pop_prev,", "deps=pop_prev,", 14, VTA_E_PARSE, "unknown dependency flag ''"},
	/* micro-ops */
	{".uops 0\nuop dst=2048 src=0", "2048", 0, VTA_E_ENCODE, "uop dst 2048 does not fit in 11 bits"},
	{".uops 0\nuop dst=0 src=2048", "2048", 0, VTA_E_ENCODE, "uop src 2048 does not fit in 11 bits"},
	{".uops 0\nuop dst=0 src=0 wgt=1024", "1024", 0, VTA_E_ENCODE,
	 "uop wgt 1024 does not fit in 10 bits"},
	{".uops 0\nuop dst=0 src=0 op=1", "op=1", 0, VTA_E_PARSE, "unknown key 'op' for uop"},
	{"uop dst=0 src=0", "uop", 0, VTA_E_PARSE, "uop outside a .uops section"},
	/* directives and sections */
	{".align 4", ".align", 0, VTA_E_PARSE, "unknown directive '.align'"},
	{".uops", ".uops", 0, VTA_E_PARSE, ".uops needs a DRAM byte address"},
	{".data 1 2", "2", 0, VTA_E_PARSE, ".data takes one address, got more"},
	{".uops 0x1002", "0x1002", 0, VTA_E_PARSE, ".uops address 0x1002 is not a multiple of 4"},
	{".data -4", "-4", 0, VTA_E_ENCODE, "DRAM address '-4' is negative"},
	{".data zz", "zz", 0, VTA_E_PARSE, "bad number 'zz'"},
	{".text 5", "5", 0, VTA_E_PARSE, ".text takes no argument"},
	{".byte 1", ".byte", 0, VTA_E_PARSE, ".byte outside a .data section"},
	{".uops 0\n.word 1", ".word", 0, VTA_E_PARSE, ".word outside a .data section"},
	{".data 0\nfinish", "finish", 0, VTA_E_PARSE,
	 "instruction inside a .data section (write .text first)"},
	{".uops 0\n" GM, "gemm", 0, VTA_E_PARSE, "instruction inside a .uops section"},
	{".data 0\n.byte 256", "256", 0, VTA_E_ENCODE, "byte 256 does not fit (-128..255)"},
	{".data 0\n.byte 1 -129", "-129", 0, VTA_E_ENCODE, "byte -129 does not fit (-128..255)"},
	{".data 0\n.word 4294967296", "4294967296", 0, VTA_E_ENCODE,
	 "word 4294967296 does not fit (-2147483648..4294967295)"},
	{".data 0\n.word -2147483649", "-2147483649", 0, VTA_E_ENCODE,
	 "word -2147483649 does not fit"},
	{".data 0\n.byte", ".byte", 0, VTA_E_PARSE, ".byte needs at least one value"},
	{".data 0\n.byte 1,,2", ",,2", 1, VTA_E_PARSE, "missing value before ','"},
	{".data 0\n.byte 1, 2,", "2,", 1, VTA_E_PARSE, "missing value after ','"},
	{".data 0\n.byte 1 0x", "0x", 0, VTA_E_PARSE, "bad number '0x'"},
	/* overlapping segments: the later one, naming the earlier one's line */
	{".uops 0x1000\nuop dst=0 src=0\n.data 0x1000\n.byte 1", ".data", 0, VTA_E_PARSE,
	 ".data segment 0x1000+1 overlaps the .uops segment 0x1000+4 at t.s:1"},
	{".data 0x10\n.byte 1\n\n.data 0x10\n.byte 2", ".data 0x10\n.byte 2", 0, VTA_E_PARSE,
	 ".data segment 0x10+1 overlaps the .data segment 0x10+1 at t.s:1"},
	{".data 0x10\n.word 1\n.data 0x13\n.byte 1, 2", ".data 0x13", 0, VTA_E_PARSE,
	 ".data segment 0x13+2 overlaps the .data segment 0x10+4 at t.s:1"},
	{".data 0x1004\n.byte 1\n.text\nfinish\n  .uops 0x1000\nuop dst=0 src=0\nuop dst=1 src=1",
	 ".uops", 0, VTA_E_PARSE, ".uops segment 0x1000+8 overlaps the .data segment 0x1004+1 at t.s:1"},
	/* positions past comments, blank lines, tabs and CRLF */
	{"; header\n# more\n\n\tload\tmem=inp sram=0 dram=0 y=1 x=1 stride=1 ypad=1 ; c\n",
	 "ypad=1", 5, VTA_E_PARSE, "ypad expects two values"},
	{"finish\r\n  bad\r\n", "bad", 0, VTA_E_PARSE, "unknown mnemonic 'bad'"},
	{"finish ; x=1 # ignored\nfinish # ; deps=bogus\nfinish deps=bogus", "bogus\0", 0,
	 VTA_E_PARSE, "unknown dependency flag 'bogus'"},
};

/* Line and column (1-based) of text + k. */
static void line_col(const char *text, size_t k, unsigned *line, unsigned *col)
{
	*line = 1;
	size_t start = 0;
	for (size_t i = 0; i < k; i++)
		if (text[i] == '\n') {
			(*line)++;
			start = i + 1;
		}
	*col = (unsigned)(k - start) + 1;
}

static void test_diagnostics(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const bad_case *c = &bad_cases[i];
		const char *m = strstr(c->text, c->marker);
		if (!m)
			fail_msg("case %zu: marker '%s' not in text", i, c->marker);
		/* "bogus\0" marks the last occurrence: find it */
		if (strcmp(c->marker, "bogus") == 0)
			for (const char *n; (n = strstr(m + 1, c->marker));)
				m = n;
		unsigned line, col;
		line_col(c->text, (size_t)(m - c->text) + (size_t)c->offset, &line, &col);
		char want[VTA_ERROR_DETAIL_MAX];
		snprintf(want, sizeof(want), "t.s:%u:%u: %s", line, col, c->msg);
		vta_program p;
		vta_error err = {0};
		vta_status st = assemble(c->text, &p, &err);
		if (st != c->status || strncmp(err.detail, want, strlen(want)) != 0)
			fail_msg("case %zu: status %d detail\n  '%s'\nexpected status %d detail\n  '%s'",
				 i, st, err.detail, c->status, want);
		assert_int_equal(p.n_insns, 0); /* nothing half-assembled comes back */
		assert_int_equal(p.n_segments, 0);
		vta_program_free(&p);
	}
}

/* Segments that touch without sharing a byte, and an empty one inside another, are fine. */
static void test_adjacent_segments(void **state)
{
	(void)state;
	const char *t = ".data 0x10\n.word 1\n.data 0x14\n.byte 1\n.data 0xc\n.word 2\n"
			".uops 0x18\nuop dst=0 src=0\n.uops 0x10\n";
	vta_program p;
	vta_error err = {0};
	assert_int_equal(assemble(t, &p, &err), VTA_OK);
	assert_int_equal(p.n_segments, 5);
	vta_program_free(&p);
}

/* A field that fits on the default config fails on the small one, with its width. */
static void test_diagnostics_small(void **state)
{
	(void)state;
	vta_config cfg;
	small_config(&cfg);
	vta_program p;
	vta_error err = {0};
	const char *t = "gemm uop=0,1 iter=1,1 dst=64,0 src=0,0 wgt=0,0";
	assert_int_equal(vta_asm_parse(t, strlen(t), "s.s", &cfg, &p, &err), VTA_E_ENCODE);
	assert_string_equal(err.detail, "s.s:1:27: dst_factor_out 64 does not fit in 6 bits");
	t = ".uops 0\nuop dst=0 src=256";
	assert_int_equal(vta_asm_parse(t, strlen(t), "s.s", &cfg, &p, &err), VTA_E_ENCODE);
	assert_string_equal(err.detail, "s.s:2:15: uop src 256 does not fit in 8 bits");
	vta_program_free(&p);
}

static void test_missing_file(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	vta_program p;
	vta_error err = {0};
	assert_int_equal(vta_asm_file("/nonexistent/x.s", &cfg, &p, &err), VTA_E_IO);
	assert_non_null(strstr(err.detail, "/nonexistent/x.s"));
	vta_program_free(&p);
}

/* ---------- accepted syntax ---------- */

static void test_defaults_and_syntax(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	const char *t =
		"; defaults\n"
		"load mem=acc8 sram=1 dram=2 y=3 x=4 stride=5\n"
		"gemm uop=0,1 iter=1,1 dst=0,0 src=0,0 wgt=0,0 deps=\n"
		"alu op=rshr uop=0,1 iter=1,1 dst=0,0 src=0,0 use_imm=1   # imm defaults to 0\n"
		"  \t finish deps=push_next,pop_prev\r\n"
		"store mem=out sram=0xFF dram=0X1f y=1 x=1 stride=1 ypad=2,3 xpad=15,0 deps=none\n"
		"alu op=srdhm reset=1 uop=1,2 iter=3,4 dst=5,6 src=7,8 use_imm=0 imm=-0\n"
		".uops 0x100\n"
		".text\n"
		".data 0x10\n"
		".byte 1, 2 3,4\n"
		".word -1 0x12345678\n"
		".uops 8\n"
		"uop dst=7 src=9\n"
		".text\n"
		"finish"; /* no final newline */
	vta_program p;
	vta_error err = {0};
	if (vta_asm_parse(t, strlen(t), "d.s", &cfg, &p, &err) != VTA_OK)
		fail_msg("%s", err.detail);
	assert_int_equal(p.n_insns, 7);
	vta_insn in;
	assert_int_equal(vta_program_insn(&p, &cfg, 0, &in, &err), VTA_OK);
	assert_int_equal(in.opcode, VTA_OP_LOAD);
	assert_int_equal(in.mem.mem_type, VTA_MEM_ACC_8BIT);
	assert_int_equal(in.mem.sram_base, 1);
	assert_int_equal(in.mem.dram_base, 2);
	assert_int_equal(in.mem.y_size, 3);
	assert_int_equal(in.mem.x_size, 4);
	assert_int_equal(in.mem.x_stride, 5);
	assert_int_equal(in.mem.y_pad_0 | in.mem.y_pad_1 | in.mem.x_pad_0 | in.mem.x_pad_1, 0);
	assert_false(in.deps.pop_prev || in.deps.pop_next || in.deps.push_prev ||
		     in.deps.push_next);
	assert_int_equal(vta_program_insn(&p, &cfg, 1, &in, &err), VTA_OK);
	assert_false(in.loop.reset);
	assert_int_equal(in.loop.uop_end, 1);
	assert_int_equal(vta_program_insn(&p, &cfg, 2, &in, &err), VTA_OK);
	assert_int_equal(in.alu.op, VTA_ALU_RSHR);
	assert_true(in.alu.use_imm);
	assert_int_equal(in.alu.imm, 0);
	assert_int_equal(vta_program_insn(&p, &cfg, 3, &in, &err), VTA_OK);
	assert_int_equal(in.opcode, VTA_OP_FINISH);
	assert_true(in.deps.push_next && in.deps.pop_prev);
	assert_false(in.deps.pop_next || in.deps.push_prev);
	assert_int_equal(vta_program_insn(&p, &cfg, 4, &in, &err), VTA_OK);
	assert_int_equal(in.mem.sram_base, 255);
	assert_int_equal(in.mem.dram_base, 31);
	assert_int_equal(in.mem.y_pad_0, 2);
	assert_int_equal(in.mem.y_pad_1, 3);
	assert_int_equal(in.mem.x_pad_0, 15);
	assert_int_equal(in.mem.x_pad_1, 0);
	assert_int_equal(vta_program_insn(&p, &cfg, 5, &in, &err), VTA_OK);
	assert_int_equal(in.alu.op, VTA_ALU_SRDHM);
	assert_true(in.loop.reset);
	assert_int_equal(in.loop.uop_bgn, 1);
	assert_int_equal(in.loop.iter_out, 3);
	assert_int_equal(in.loop.iter_in, 4);
	assert_int_equal(in.loop.dst_factor_out, 5);
	assert_int_equal(in.loop.dst_factor_in, 6);
	assert_int_equal(in.loop.src_factor_out, 7);
	assert_int_equal(in.loop.src_factor_in, 8);
	assert_int_equal(in.alu.imm, 0);
	/* segments in source order: empty uops, data, uops */
	assert_int_equal(p.n_segments, 3);
	assert_int_equal(p.segments[0].kind, VTA_SEG_UOP);
	assert_int_equal(p.segments[0].dram_addr, 0x100);
	assert_int_equal(p.segments[0].size, 0);
	assert_int_equal(p.segments[1].kind, VTA_SEG_DATA);
	assert_int_equal(p.segments[1].dram_addr, 0x10);
	const uint8_t data[12] = {1, 2, 3, 4, 0xff, 0xff, 0xff, 0xff, 0x78, 0x56, 0x34, 0x12};
	assert_int_equal(p.segments[1].size, 12);
	assert_memory_equal(p.segments[1].bytes, data, 12);
	assert_int_equal(p.segments[2].dram_addr, 8);
	assert_int_equal(p.segments[2].size, 4);
	vta_uop u;
	assert_int_equal(vta_uop_decode(&cfg, p.segments[2].bytes, &u, &err), VTA_OK);
	assert_int_equal(u.dst, 7);
	assert_int_equal(u.src, 9);
	assert_int_equal(u.wgt, 0);
	vta_program_free(&p);
	/* an empty text is an empty program */
	assert_int_equal(assemble("", &p, &err), VTA_OK);
	assert_int_equal(p.n_insns, 0);
	vta_program_free(&p);
	/* a section open at the end of the text is closed there */
	assert_int_equal(assemble(".data 4\n.byte 9", &p, &err), VTA_OK);
	assert_int_equal(p.n_segments, 1);
	assert_int_equal(p.segments[0].bytes[0], 9);
	vta_program_free(&p);
}

/* ---------- disassembly ---------- */

static void test_disasm_insn(void **state)
{
	(void)state;
	char buf[256];
	vta_insn in;
	memset(&in, 0, sizeof(in));
	in.opcode = VTA_OP_LOAD;
	in.mem = (vta_mem_insn){VTA_MEM_INP, 0, 0x100, 4, 4, 16, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0};
	in.deps.push_next = true;
	assert_string_equal(vta_disasm_insn(&in, buf, sizeof(buf)),
			    "load   mem=inp sram=0 dram=0x100 y=4 x=4 stride=16 ypad=1,1 xpad=1,1 "
			    "deps=push_next");
	memset(&in, 0, sizeof(in));
	in.opcode = VTA_OP_STORE;
	in.mem = (vta_mem_insn){VTA_MEM_OUT, 3, 0x200, 1, 16, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
	in.deps.pop_prev = in.deps.push_prev = true;
	assert_string_equal(vta_disasm_insn(&in, buf, sizeof(buf)),
			    "store  mem=out sram=3 dram=0x200 y=1 x=16 stride=16 ypad=0,0 xpad=0,0 "
			    "deps=pop_prev,push_prev");
	memset(&in, 0, sizeof(in));
	in.opcode = VTA_OP_GEMM;
	in.loop = (vta_loop){false, 0, 4, 2, 8, 16, 1, 16, 1, 0, 0};
	in.deps.pop_prev = true;
	assert_string_equal(vta_disasm_insn(&in, buf, sizeof(buf)),
			    "gemm   reset=0 uop=0,4 iter=2,8 dst=16,1 src=16,1 wgt=0,0 "
			    "deps=pop_prev");
	memset(&in, 0, sizeof(in));
	in.opcode = VTA_OP_ALU;
	in.loop = (vta_loop){true, 0, 1, 1, 16, 0, 1, 0, 1, 0, 0};
	in.alu = (vta_alu_fields){VTA_ALU_SHR, true, -8};
	assert_string_equal(vta_disasm_insn(&in, buf, sizeof(buf)),
			    "alu    op=shr reset=1 uop=0,1 iter=1,16 dst=0,1 src=0,1 use_imm=1 "
			    "imm=-8 deps=none");
	memset(&in, 0, sizeof(in));
	in.opcode = VTA_OP_FINISH;
	in.deps = (vta_deps){true, true, true, true};
	assert_string_equal(vta_disasm_insn(&in, buf, sizeof(buf)),
			    "finish deps=pop_prev,pop_next,push_prev,push_next");
	/* a short buffer is cut, never overrun */
	char small[12];
	memset(small, 'z', sizeof(small));
	vta_disasm_insn(&in, small, 10);
	assert_int_equal(strlen(small), 9);
	assert_int_equal(small[10], 'z');
	assert_ptr_equal(vta_disasm_insn(&in, small, 0), small);
}

static char *disasm_to_string(const vta_program *p, const vta_config *cfg)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	vta_error err = {0};
	vta_status st = vta_disasm_program(p, cfg, f, &err);
	fclose(f);
	if (st != VTA_OK)
		fail_msg("disassembly failed: %s", err.detail);
	return text;
}

static void test_disasm_program(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	vta_program p;
	vta_error err = {0};
	const char *src = "load mem=uop sram=0 dram=0x400 y=1 x=1 stride=1\n"
			  "finish deps=pop_next\n"
			  ".uops 0x1000\n"
			  "uop dst=1 src=2 wgt=3\n"
			  ".data 0x2000\n"
			  ".byte 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17\n";
	assert_int_equal(assemble(src, &p, &err), VTA_OK);
	char *text = disasm_to_string(&p, &cfg);
	const char *want =
		"; vtasim program: 2 instructions, 2 segments\n"
		"; geometry: batch 1, block_in 16, block_out 16, inp 8 bits, wgt 8 bits, acc 32 bits\n"
		"; depths: uop 8192, inp 2048, wgt 1024, acc 2048\n"
		".text\n"
		"load   mem=uop sram=0 dram=0x400 y=1 x=1 stride=1 ypad=0,0 xpad=0,0 deps=none  ; 0\n"
		"finish deps=pop_next  ; 1\n"
		"\n"
		".uops 0x1000  ; 1 uops\n"
		"uop    dst=1 src=2 wgt=3  ; 0\n"
		"\n"
		".data 0x2000  ; 17 bytes\n"
		".byte 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, "
		"0x0d, 0x0e, 0x0f, 0x10  ; +0x0\n"
		".byte 0x11  ; +0x10\n";
	assert_string_equal(text, want);
	free(text);
	/* a malformed instruction stops the disassembly with its index */
	uint8_t raw[VTA_INSN_BYTES] = {5};
	assert_int_equal(vta_program_push_raw(&p, raw, &err), VTA_OK);
	FILE *f = fopen("/dev/null", "w");
	assert_int_equal(vta_disasm_program(&p, &cfg, f, &err), VTA_E_STREAM);
	assert_string_equal(err.detail, "insn 2: opcode 5 is not defined (0..4)");
	fclose(f);
	vta_program_free(&p);
}

/* ---------- round trips ---------- */

/* text -> program -> bytes -> program -> text -> program -> bytes: same bytes, same text. */
static void round_trip_text(const vta_program *p0, const vta_config *cfg, const char *what)
{
	vta_error err = {0};
	uint8_t *b0, *b1;
	size_t n0, n1;
	assert_int_equal(vta_program_serialize(p0, &b0, &n0, &err), VTA_OK);
	vta_program p1, p2;
	if (vta_program_parse(b0, n0, cfg, &p1, &err) != VTA_OK)
		fail_msg("%s: %s", what, err.detail);
	char *t1 = disasm_to_string(&p1, cfg);
	if (vta_asm_parse(t1, strlen(t1), what, cfg, &p2, &err) != VTA_OK)
		fail_msg("%s: disassembly does not assemble: %s", what, err.detail);
	assert_int_equal(vta_program_serialize(&p2, &b1, &n1, &err), VTA_OK);
	if (n0 != n1 || memcmp(b0, b1, n0) != 0)
		fail_msg("%s: binary -> text -> binary is not byte-identical", what);
	char *t2 = disasm_to_string(&p2, cfg);
	assert_string_equal(t1, t2);
	free(t1);
	free(t2);
	free(b0);
	free(b1);
	vta_program_free(&p1);
	vta_program_free(&p2);
}

static void test_examples_round_trip(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	glob_t g;
	assert_int_equal(glob("docs/examples/*.s", 0, NULL, &g), 0);
	const char *must[] = {"gemm.s", "alu.s", "padding.s", "deadlock.s", "oob.s"};
	for (size_t m = 0; m < sizeof(must) / sizeof(must[0]); m++) {
		int found = 0;
		for (size_t i = 0; i < g.gl_pathc; i++) {
			const char *base = strrchr(g.gl_pathv[i], '/');
			found |= strcmp(base + 1, must[m]) == 0;
		}
		if (!found)
			fail_msg("docs/examples/%s is missing", must[m]);
	}
	for (size_t i = 0; i < g.gl_pathc; i++) {
		vta_program p;
		vta_error err = {0};
		if (vta_asm_file(g.gl_pathv[i], &cfg, &p, &err) != VTA_OK)
			fail_msg("%s", err.detail);
		assert_true(p.n_insns > 0);
		round_trip_text(&p, &cfg, g.gl_pathv[i]);
		vta_program_free(&p);
	}
	globfree(&g);
}

static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint32_t rnd(uint64_t *s, unsigned w)
{
	return (uint32_t)(rng_next(s) & (w >= 32 ? 0xffffffffull : (1ull << w) - 1));
}

/* Random valid bytes: random words, kept when they decode (VTA_E_STREAM otherwise). */
static void random_program(const vta_config *cfg, uint64_t seed, vta_program *p)
{
	uint64_t s = seed;
	vta_error err = {0};
	vta_program_init(p, cfg);
	while (p->n_insns < 300) {
		uint8_t b[VTA_INSN_BYTES];
		uint64_t w0 = rng_next(&s), w1 = rng_next(&s);
		unsigned keep0 = 40 + (unsigned)(rng_next(&s) % 25), keep1 = (unsigned)(rng_next(&s) % 65);
		w0 &= keep0 >= 64 ? ~0ull : (1ull << keep0) - 1;
		w1 &= keep1 >= 64 ? ~0ull : (1ull << keep1) - 1;
		for (int k = 0; k < 8; k++) {
			b[k] = (uint8_t)(w0 >> (8 * k));
			b[8 + k] = (uint8_t)(w1 >> (8 * k));
		}
		vta_insn in;
		if (vta_insn_decode(cfg, b, &in, &err) == VTA_OK)
			assert_int_equal(vta_program_push_raw(p, b, &err), VTA_OK);
	}
	for (int k = 0; k < 6; k++) {
		uint32_t n = (uint32_t)(rng_next(&s) % 40);
		uint8_t *bytes = malloc(n * 4 + 1);
		vta_segment_kind kind = (k & 1) ? VTA_SEG_UOP : VTA_SEG_DATA;
		for (uint32_t i = 0; i < n; i++) {
			vta_uop u = {rnd(&s, cfg->fw.uop_dst), rnd(&s, cfg->fw.uop_src),
				     rnd(&s, cfg->fw.uop_wgt)};
			if (kind == VTA_SEG_UOP)
				assert_int_equal(vta_uop_encode(cfg, &u, bytes + 4 * i, &err), VTA_OK);
			else
				for (int j = 0; j < 4; j++)
					bytes[4 * i + j] = (uint8_t)rng_next(&s);
		}
		uint32_t size = kind == VTA_SEG_UOP ? n * 4 : n * 4 - (n ? (uint32_t)(k % 3) : 0);
		uint64_t addr = kind == VTA_SEG_UOP ? (rng_next(&s) >> 3) * 4 : rng_next(&s);
		assert_int_equal(vta_program_add_segment(p, kind, addr, bytes, size, &err), VTA_OK);
		free(bytes);
	}
}

static void test_random_round_trip(void **state)
{
	(void)state;
	vta_config cfg;
	for (int c = 0; c < 2; c++) {
		if (c == 0)
			vta_config_default(&cfg);
		else
			small_config(&cfg);
		for (uint64_t seed = 1; seed <= 5; seed++) {
			vta_program p;
			random_program(&cfg, seed * 31 + (uint64_t)c, &p);
			round_trip_text(&p, &cfg, c ? "random-small" : "random-default");
			vta_program_free(&p);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diagnostics),
		cmocka_unit_test(test_diagnostics_small),
		cmocka_unit_test(test_adjacent_segments),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_defaults_and_syntax),
		cmocka_unit_test(test_disasm_insn),
		cmocka_unit_test(test_disasm_program),
		cmocka_unit_test(test_examples_round_trip),
		cmocka_unit_test(test_random_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
