/*
 * test_isa_footprint.c - what each instruction reads and writes (vta_footprint.h): LOAD with
 * padding and strided DRAM rows, ACC_8BIT, table loads and decompressing loads, STORE, the
 * GEMM/ALU loop nest with reset and immediates, NOPs and FINISH; strided DRAM rows as one
 * access (dram_runs); the rule failures it returns; the uop-by-uop walk; the spaces per opcode.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "vta_asm.h"
#include "vta_footprint.h"

#define MAX_ACC 64

/* What a walk reported, as one line per access: "w inp [3,5) u1 0,2". */
typedef struct trace {
	char lines[MAX_ACC][64];
	size_t n;
} trace;

static vta_status record(void *ctx, const vta_access *a)
{
	trace *t = ctx;
	if (t->n == MAX_ACC)
		return VTA_E_INTERNAL;
	if (a->uop == VTA_FP_NO_UOP)
		snprintf(t->lines[t->n++], 64, "%c %s [%llu,%llu)", a->write ? 'w' : 'r',
			 vta_space_name(a->space), (unsigned long long)a->lo,
			 (unsigned long long)a->hi);
	else
		snprintf(t->lines[t->n++], 64, "%c %s [%llu,%llu) u%u %u,%u", a->write ? 'w' : 'r',
			 vta_space_name(a->space), (unsigned long long)a->lo,
			 (unsigned long long)a->hi, a->uop, a->it_out, a->it_in);
	return VTA_OK;
}

typedef struct fp {
	vta_config cfg;
	uint8_t uops[8 * VTA_UOP_BYTES];
	vta_lut_desc slots[VTA_LUT_SLOTS];
	vta_fp_state st;
	trace t;
	vta_error err;
} fp;

static void fp_init(fp *f)
{
	memset(f, 0, sizeof(*f));
	vta_config_default(&f->cfg);
	f->st = (vta_fp_state){.uop_sram = f->uops, .slots = f->slots, .dram_size = 1u << 20};
}

/* Micro-op k of the UOP image. */
static void fp_uop(fp *f, unsigned k, uint32_t dst, uint32_t src, uint32_t wgt)
{
	vta_uop u = {dst, src, wgt};
	vta_error e = {0};
	assert_int_equal(vta_uop_encode(&f->cfg, &u, f->uops + k * VTA_UOP_BYTES, &e), VTA_OK);
}

/* The first instruction of an assembly line. */
static vta_insn one(const fp *f, const char *text)
{
	vta_program prog;
	vta_error e = {0};
	vta_insn insn;
	if (vta_asm_parse(text, strlen(text), "t.s", &f->cfg, &prog, &e) != VTA_OK)
		fail_msg("%s", e.detail);
	assert_int_equal(vta_program_insn(&prog, &f->cfg, 0, &insn, &e), VTA_OK);
	vta_program_free(&prog);
	return insn;
}

/* Walk `text` and compare the accesses with `want` (NULL-terminated). */
static void walk(fp *f, const char *text, const char *const *want)
{
	vta_insn insn = one(f, text);
	f->t.n = 0;
	vta_status st = vta_footprint(&f->cfg, &insn, &f->st, record, &f->t, &f->err);
	if (st != VTA_OK)
		fail_msg("%s: %s", text, f->err.detail);
	size_t n = 0;
	while (want[n])
		n++;
	for (size_t i = 0; i < f->t.n && i < n; i++)
		assert_string_equal(f->t.lines[i], want[i]);
	assert_int_equal(f->t.n, n);
}

/* Walk `text`: fails with st and a detail containing `needle`. */
static void walk_fails(fp *f, const char *text, vta_status st, const char *needle)
{
	vta_insn insn = one(f, text);
	f->t.n = 0;
	vta_error e = {0};
	assert_int_equal(vta_footprint(&f->cfg, &insn, &f->st, record, &f->t, &e), st);
	if (!strstr(e.detail, needle))
		fail_msg("detail '%s' lacks '%s'", e.detail, needle);
}

static void test_names(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	assert_string_equal(vta_space_name(VTA_SPACE_UOP), "uop");
	assert_string_equal(vta_space_name(VTA_SPACE_OUT), "out");
	assert_string_equal(vta_space_name(VTA_SPACE_LUT), "lut table");
	assert_string_equal(vta_space_name(VTA_SPACE_LUT_SLOT), "lut slot");
	assert_string_equal(vta_space_name(VTA_SPACE_DRAM), "dram");
	assert_string_equal(vta_space_name(VTA_SPACE_COUNT), "?");
	assert_int_equal(vta_space_rows(&cfg, VTA_SPACE_INP), 2048);
	assert_int_equal(vta_space_rows(&cfg, VTA_SPACE_WGT), 1024);
	assert_int_equal(vta_space_rows(&cfg, VTA_SPACE_OUT), 2048);
	assert_int_equal(vta_space_rows(&cfg, VTA_SPACE_LUT), 8192);
	assert_int_equal(vta_space_rows(&cfg, VTA_SPACE_LUT_SLOT), VTA_LUT_SLOTS);
	assert_int_equal(vta_space_rows(&cfg, VTA_SPACE_DRAM), 0);
}

static void test_load(void **state)
{
	(void)state;
	fp f;
	fp_init(&f);
	/* padded INP: rows strided in DRAM (16 B elements), every padded row written */
	walk(&f, "load mem=inp sram=4 dram=0x10 y=2 x=3 stride=8 ypad=1,0 xpad=0,1",
	     (const char *const[]){"r dram [256,304)", "r dram [384,432)", "w inp [4,16)",
				   NULL});
	/* contiguous rows merge into one DRAM range; ACC_8BIT writes ACC */
	walk(&f, "load mem=acc8 sram=0 dram=0x2 y=4 x=2 stride=2",
	     (const char *const[]){"r dram [32,160)", "w acc [0,8)", NULL});
	/* overlapping rows (stride < x) merge too */
	walk(&f, "load mem=uop sram=8 dram=0x100 y=3 x=4 stride=2",
	     (const char *const[]){"r dram [1024,1056)", "w uop [8,20)", NULL});
	walk(&f, "load mem=wgt sram=1 dram=0x3 y=1 x=2 stride=2",
	     (const char *const[]){"r dram [768,1280)", "w wgt [1,3)", NULL});
	/* only padding: SRAM rows, no DRAM */
	walk(&f, "load mem=inp sram=0 dram=0 y=0 x=2 stride=2 ypad=1,1",
	     (const char *const[]){"w inp [0,4)", NULL});
	/* NOPs and FINISH touch nothing, even with operands the rules would refuse */
	walk(&f, "load mem=out sram=9999 dram=0 y=1 x=0 stride=0 deps=push_next",
	     (const char *const[]){NULL});
	walk(&f, "store mem=out sram=0 dram=0 y=0 x=0 stride=0", (const char *const[]){NULL});
	walk(&f, "finish deps=pop_next", (const char *const[]){NULL});
	/* the rules fail a LOAD before it reports anything */
	walk_fails(&f, "load mem=inp sram=2040 dram=0 y=2 x=8 stride=8", VTA_E_OOB,
		   "inp SRAM rows [2040, 2056) beyond depth 2048");
	walk_fails(&f, "load mem=out sram=0 dram=0 y=1 x=1 stride=1", VTA_E_STREAM,
		   "LOAD of memory type out is illegal");
	f.st.dram_size = 64;
	walk_fails(&f, "load mem=inp sram=0 dram=0x3 y=2 x=1 stride=1", VTA_E_OOB,
		   "beyond the DRAM");
	assert_int_equal(f.t.n, 0);
}

static void test_store(void **state)
{
	(void)state;
	fp f;
	fp_init(&f);
	walk(&f, "store mem=out sram=2 dram=0x40 y=2 x=3 stride=4",
	     (const char *const[]){"r out [2,8)", "w dram [1024,1072)", "w dram [1088,1136)",
				   NULL});
	walk_fails(&f, "store mem=acc sram=0 dram=0 y=1 x=1 stride=1", VTA_E_STREAM,
		   "STORE supports only memory type out");
}

/* What a strided access says: its rows, one line each. */
static vta_status record_rows(void *ctx, const vta_access *a)
{
	trace *t = ctx;
	const uint64_t rows = a->rows > 1 ? a->rows : 1;
	for (uint64_t k = 0; k < rows; k++) {
		vta_access one = *a;
		one.lo = a->lo + k * a->stride;
		one.hi = a->hi + k * a->stride;
		vta_status st = record(ctx, &one);
		if (st)
			return st;
	}
	if (rows > 1 && t->n < MAX_ACC) /* mark it: one access for all of them */
		snprintf(t->lines[t->n++], 64, "(%llu rows)", (unsigned long long)rows);
	return VTA_OK;
}

/* dram_runs: rows apart come as one strided access, rows that touch still merge. */
static void test_dram_runs(void **state)
{
	(void)state;
	fp f;
	fp_init(&f);
	f.st.dram_runs = true;
	const struct {
		const char *text;
		const char *want[6];
	} cases[] = {
		{"load mem=inp sram=4 dram=0x10 y=2 x=3 stride=8 ypad=1,0 xpad=0,1",
		 {"r dram [256,304)", "r dram [384,432)", "(2 rows)", "w inp [4,16)", NULL}},
		{"store mem=out sram=2 dram=0x40 y=3 x=3 stride=4",
		 {"r out [2,11)", "w dram [1024,1072)", "w dram [1088,1136)", "w dram [1152,1200)",
		  "(3 rows)", NULL}},
		{"load mem=acc8 sram=0 dram=0x2 y=4 x=2 stride=2",
		 {"r dram [32,160)", "w acc [0,8)", NULL}},
		{"load mem=uop sram=8 dram=0x100 y=3 x=4 stride=2",
		 {"r dram [1024,1056)", "w uop [8,20)", NULL}},
		{"load mem=wgt sram=1 dram=0x3 y=1 x=2 stride=2",
		 {"r dram [768,1280)", "w wgt [1,3)", NULL}},
	};
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		vta_insn insn = one(&f, cases[c].text);
		f.t.n = 0;
		assert_int_equal(vta_footprint(&f.cfg, &insn, &f.st, record_rows, &f.t, &f.err),
				 VTA_OK);
		size_t n = 0;
		for (; cases[c].want[n]; n++) {
			assert_true(n < f.t.n);
			assert_string_equal(f.t.lines[n], cases[c].want[n]);
		}
		assert_int_equal(f.t.n, n);
	}
}

static void test_lut(void **state)
{
	(void)state;
	fp f;
	fp_init(&f);
	/* a table load: entries, then the descriptor it sets */
	walk(&f, "load mem=lut sram=16 dram=0x100 slot=2 y=16 x=4 stride=4",
	     (const char *const[]){"r dram [256,320)", "w lut table [16,80)",
				   "w lut slot [2,3)", NULL});
	walk(&f, "load mem=lut32 sram=100 dram=0x40 slot=5 y=1 x=8 stride=8",
	     (const char *const[]){"r dram [256,288)", "w lut table [100,108)",
				   "w lut slot [5,6)", NULL});
	/* a decompressing WGT load through per-channel tables: the slot, the 16 tables of
	 * channels 0..15 (4 entries each), the packed bytes (64 per 2-bit element), the row */
	f.slots[2] = (vta_lut_desc){true, 16, 4, 32, 8};
	walk(&f, "load mem=wgt sram=3 dram=0x1 bw=2 slot=2 y=1 x=1 stride=1 chan=16",
	     (const char *const[]){"r lut slot [2,3)", "r lut table [80,144)",
				   "r dram [64,128)", "w wgt [3,4)", NULL});
	/* one table for the whole tensor: its entries only; ACC through int32 tables */
	f.slots[5] = (vta_lut_desc){true, 100, 8, 1, 32};
	walk(&f, "load mem=acc sram=0 dram=0x0 bw=3 slot=5 y=1 x=2 stride=2 chan=0",
	     (const char *const[]){"r lut slot [5,6)", "r lut table [100,108)",
				   "r dram [0,12)", "w acc [0,2)", NULL});
	/* the descriptor rules */
	walk_fails(&f, "load mem=inp sram=0 dram=0 bw=3 slot=1 y=1 x=1 stride=1 chan=0",
		   VTA_E_STREAM, "LUT slot 1 was never set in this run");
	walk_fails(&f, "load mem=acc sram=0 dram=0 bw=3 slot=2 y=1 x=1 stride=1 chan=0",
		   VTA_E_STREAM, "LUT slot 2 holds int8 tables");
	f.cfg.decomp_enabled = false;
	walk_fails(&f, "load mem=lut sram=0 dram=0 slot=0 y=1 x=4 stride=4", VTA_E_UNSUPPORTED,
		   "needs decompressor.enabled");
}

static void test_loop(void **state)
{
	(void)state;
	fp f;
	fp_init(&f);
	fp_uop(&f, 0, 0, 0, 0);
	fp_uop(&f, 1, 1, 2, 3);
	/* GEMM accumulate: the UOP range once, then per uop INP, WGT, ACC read, ACC, OUT */
	walk(&f, "gemm reset=0 uop=0,2 iter=2,1 dst=4,0 src=8,0 wgt=1,0",
	     (const char *const[]){
		     "r uop [0,2)",
		     "r inp [0,1) u0 0,0", "r wgt [0,1) u0 0,0", "r acc [0,1) u0 0,0",
		     "w acc [0,1) u0 0,0", "w out [0,1) u0 0,0",
		     "r inp [2,3) u1 0,0", "r wgt [3,4) u1 0,0", "r acc [1,2) u1 0,0",
		     "w acc [1,2) u1 0,0", "w out [1,2) u1 0,0",
		     "r inp [8,9) u0 1,0", "r wgt [1,2) u0 1,0", "r acc [4,5) u0 1,0",
		     "w acc [4,5) u0 1,0", "w out [4,5) u0 1,0",
		     "r inp [10,11) u1 1,0", "r wgt [4,5) u1 1,0", "r acc [5,6) u1 1,0",
		     "w acc [5,6) u1 1,0", "w out [5,6) u1 1,0", NULL});
	/* a reset reads only its uop */
	walk(&f, "gemm reset=1 uop=1,2 iter=1,2 dst=0,2 src=0,0 wgt=0,0",
	     (const char *const[]){"r uop [1,2)", "w acc [1,2) u1 0,0", "w out [1,2) u1 0,0",
				   "w acc [3,4) u1 0,1", "w out [3,4) u1 0,1", NULL});
	/* ALU with a tensor operand reads ACC[src] and ACC[dst]; with an immediate only dst */
	walk(&f, "alu op=add uop=1,2 iter=1,1 dst=0,0 src=0,0 use_imm=0",
	     (const char *const[]){"r uop [1,2)", "r acc [2,3) u1 0,0", "r acc [1,2) u1 0,0",
				   "w acc [1,2) u1 0,0", "w out [1,2) u1 0,0", NULL});
	walk(&f, "alu op=shr uop=1,2 iter=1,1 dst=0,0 src=0,0 use_imm=1 imm=3",
	     (const char *const[]){"r uop [1,2)", "r acc [1,2) u1 0,0", "w acc [1,2) u1 0,0",
				   "w out [1,2) u1 0,0", NULL});
	/* empty loops touch nothing */
	walk(&f, "gemm reset=0 uop=1,1 iter=1,1 dst=0,0 src=0,0 wgt=0,0",
	     (const char *const[]){NULL});
	walk(&f, "gemm reset=0 uop=0,2 iter=0,1 dst=0,0 src=0,0 wgt=0,0",
	     (const char *const[]){NULL});
	/* rules: the instruction's before anything, a uop's after the uops before it */
	walk_fails(&f, "gemm reset=0 uop=2,1 iter=1,1 dst=0,0 src=0,0 wgt=0,0", VTA_E_STREAM,
		   "uop_bgn 2 is after uop_end 1");
	assert_int_equal(f.t.n, 0);
	walk_fails(&f, "gemm reset=0 uop=0,2 iter=2,1 dst=0,0 src=2046,0 wgt=0,0", VTA_E_OOB,
		   "uop 1 (it_out 1, it_in 0): inp index 2048 beyond depth 2048");
	assert_int_equal(f.t.n, 1 + 5 + 5 + 5);
	/* a uop that does not decode (its unused top bit set, with a 1024-row ACC) fails when
	 * the loop reaches it */
	assert_int_equal(vta_config_set(&f.cfg, "sram_kib.acc", "64", &f.err), VTA_OK);
	fp_uop(&f, 0, 0, 0, 0);
	memset(f.uops + VTA_UOP_BYTES, 0xff, VTA_UOP_BYTES);
	walk_fails(&f, "gemm reset=1 uop=0,2 iter=1,1 dst=0,0 src=0,0 wgt=0,0", VTA_E_STREAM,
		   "uop 1: ");
	assert_int_equal(f.t.n, 1 + 2);
}

/* The uop-by-uop walk gives the same indices. */
typedef struct uops_seen {
	vta_uop_exec u[8];
	size_t n;
} uops_seen;

static vta_status see(void *ctx, const vta_uop_exec *u)
{
	uops_seen *s = ctx;
	if (s->n < 8)
		s->u[s->n] = *u;
	s->n++;
	return s->n == 3 ? VTA_E_DEADLOCK : VTA_OK; /* a callback's status stops the walk */
}

static void test_uops(void **state)
{
	(void)state;
	fp f;
	fp_init(&f);
	fp_uop(&f, 0, 1, 2, 3);
	vta_insn insn = one(&f, "gemm reset=0 uop=0,1 iter=2,2 dst=10,1 src=20,2 wgt=30,3");
	uops_seen s = {.n = 0};
	assert_int_equal(vta_footprint_uops(&f.cfg, &insn, f.uops, see, &s, &f.err),
			 VTA_E_DEADLOCK);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.u[2].it_out, 1);
	assert_int_equal(s.u[2].it_in, 0);
	assert_int_equal(s.u[2].dst, 11);
	assert_int_equal(s.u[2].src, 22);
	assert_int_equal(s.u[2].wgt, 33);
	assert_int_equal(s.u[1].dst, 2);
	assert_int_equal(s.u[1].src, 4);
	assert_int_equal(s.u[1].wgt, 6);

	vta_uop_roles r;
	vta_uop_roles_of(&f.cfg, &insn, &r);
	assert_true(r.reads_dst && r.reads_wgt);
	assert_int_equal(r.src_space, VTA_SPACE_INP);
	insn = one(&f, "alu op=max uop=0,1 iter=1,1 dst=0,0 src=0,0 use_imm=1 imm=0");
	vta_uop_roles_of(&f.cfg, &insn, &r);
	assert_true(r.reads_dst && !r.reads_wgt);
	assert_int_equal(r.src_space, VTA_SPACE_COUNT);
	/* alu.imm_operand src (VTA's Chisel RTL): the immediate op reads ACC[src], not ACC[dst];
	 * a tensor op reads both either way */
	assert_int_equal(vta_config_set(&f.cfg, "alu.imm_operand", "src", &f.err), VTA_OK);
	vta_uop_roles_of(&f.cfg, &insn, &r);
	assert_true(!r.reads_dst && !r.reads_wgt);
	assert_int_equal(r.src_space, VTA_SPACE_ACC);
	vta_uop_bounds b;
	vta_uop_bounds_of(&f.cfg, &insn, &b);
	assert_int_equal(b.src_depth, f.cfg.sram[VTA_MEM_ACC].depth);
	insn = one(&f, "alu op=max uop=0,1 iter=1,1 dst=0,0 src=0,0 use_imm=0");
	vta_uop_roles_of(&f.cfg, &insn, &r);
	assert_true(r.reads_dst && r.src_space == VTA_SPACE_ACC);
	assert_int_equal(vta_config_set(&f.cfg, "alu.imm_operand", "dst", &f.err), VTA_OK);
	/* an ALU's reset bit has no effect: it reads both operands */
	insn = one(&f, "alu op=max reset=1 uop=0,1 iter=1,1 dst=0,0 src=0,0 use_imm=0");
	vta_uop_roles_of(&f.cfg, &insn, &r);
	assert_true(r.reads_dst && !r.reads_wgt);
	assert_int_equal(r.src_space, VTA_SPACE_ACC);
	insn = one(&f, "gemm reset=1 uop=0,1 iter=1,1 dst=0,0 src=0,0 wgt=0,0");
	vta_uop_roles_of(&f.cfg, &insn, &r);
	assert_true(!r.reads_dst && !r.reads_wgt);
	assert_int_equal(r.src_space, VTA_SPACE_COUNT);
}

static void test_spaces(void **state)
{
	(void)state;
	fp f;
	fp_init(&f);
	static const struct {
		const char *text;
		uint32_t reads, writes;
	} cases[] = {
		{"load mem=inp sram=0 dram=0 y=1 x=1 stride=1", 1u << VTA_SPACE_DRAM,
		 1u << VTA_SPACE_INP},
		{"load mem=acc8 sram=0 dram=0 y=1 x=1 stride=1", 1u << VTA_SPACE_DRAM,
		 1u << VTA_SPACE_ACC},
		{"load mem=lut sram=0 dram=0 y=1 x=1 stride=1", 1u << VTA_SPACE_DRAM,
		 1u << VTA_SPACE_LUT | 1u << VTA_SPACE_LUT_SLOT},
		{"load mem=wgt sram=0 dram=0 bw=2 y=1 x=1 stride=1",
		 1u << VTA_SPACE_DRAM | 1u << VTA_SPACE_LUT | 1u << VTA_SPACE_LUT_SLOT,
		 1u << VTA_SPACE_WGT},
		{"load mem=out sram=0 dram=0 y=1 x=1 stride=1", 1u << VTA_SPACE_DRAM, 0},
		{"load mem=uop sram=0 dram=0 y=1 x=0 stride=1", 0, 0},
		{"store mem=out sram=0 dram=0 y=1 x=1 stride=1", 1u << VTA_SPACE_OUT,
		 1u << VTA_SPACE_DRAM},
		{"gemm reset=0 uop=0,1 iter=1,1 dst=0,0 src=0,0 wgt=0,0",
		 1u << VTA_SPACE_UOP | 1u << VTA_SPACE_INP | 1u << VTA_SPACE_WGT |
			 1u << VTA_SPACE_ACC,
		 1u << VTA_SPACE_ACC | 1u << VTA_SPACE_OUT},
		{"gemm reset=1 uop=0,1 iter=1,1 dst=0,0 src=0,0 wgt=0,0", 1u << VTA_SPACE_UOP,
		 1u << VTA_SPACE_ACC | 1u << VTA_SPACE_OUT},
		{"alu op=add uop=0,1 iter=1,1 dst=0,0 src=0,0 use_imm=0",
		 1u << VTA_SPACE_UOP | 1u << VTA_SPACE_ACC,
		 1u << VTA_SPACE_ACC | 1u << VTA_SPACE_OUT},
		{"finish", 0, 0},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		vta_insn insn = one(&f, cases[i].text);
		uint32_t r, w;
		vta_footprint_spaces(&insn, &r, &w);
		if (r != cases[i].reads || w != cases[i].writes)
			fail_msg("%s: reads 0x%x writes 0x%x", cases[i].text, r, w);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names), cmocka_unit_test(test_load),
		cmocka_unit_test(test_store), cmocka_unit_test(test_dram_runs),
		cmocka_unit_test(test_lut),
		cmocka_unit_test(test_loop),  cmocka_unit_test(test_uops),
		cmocka_unit_test(test_spaces),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
