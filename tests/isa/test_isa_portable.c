/*
 * test_isa_portable.c - the portability rules (vta_portable.h): each rule flags a stream on
 * the target it concerns, with its line, and not on a target (or a stream) it does not;
 * the target names; and the config facts the rules stand on (alu.imm_operand and
 * isa.uop_field_depth: the Chisel config encodes the default config's bytes).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vta_asm.h"
#include "vta_portable.h"

typedef struct found {
	uint64_t n;
	char first[VTA_ERROR_DETAIL_MAX];
	size_t first_insn;
} found;

static void on_line(void *ctx, size_t insn, const char *line)
{
	found *f = ctx;
	if (!f->n++) {
		snprintf(f->first, sizeof(f->first), "%s", line);
		f->first_insn = insn;
	}
}

/* The problems of `text` on target under the default config changed by `set` ("k=v" or
 * NULL). */
static found check(const char *text, vta_target target, const char *set)
{
	vta_config cfg;
	vta_error err = {0};
	vta_config_default(&cfg);
	if (set) {
		char key[64];
		const char *eq = strchr(set, '=');
		snprintf(key, sizeof(key), "%.*s", (int)(eq - set), set);
		assert_int_equal(vta_config_set(&cfg, key, eq + 1, &err), VTA_OK);
	}
	vta_program prog;
	if (vta_asm_parse(text, strlen(text), "t.s", &cfg, &prog, &err))
		fail_msg("%s", err.detail);
	vta_dram dram;
	assert_int_equal(vta_dram_init(&dram, 1u << 20, &err), VTA_OK);
	assert_int_equal(vta_dram_place_segments(&dram, &prog, &err), VTA_OK);
	found f = {0};
	uint64_t n = 0;
	vta_status st = vta_portable_check(&cfg, &prog, &dram, target, on_line, &f, &n, &err);
	if (st)
		fail_msg("%s", err.detail);
	assert_int_equal(n, f.n);
	vta_dram_free(&dram);
	vta_program_free(&prog);
	return f;
}

#define HAS(f, s)                                                                    \
	do {                                                                         \
		if (!strstr((f).first, (s)))                                         \
			fail_msg("'%s' lacks '%s'", (f).first, (s));                 \
	} while (0)

/* ACC rows 0..3 from DRAM, one uop (dst 0, src 0), an ALU over the rows, a STORE. */
#define HEAD                                                                     \
	"load mem=uop sram=0 dram=0x400 y=1 x=2 stride=2\n"                      \
	"load mem=acc sram=0 dram=0x80 y=1 x=8 stride=8\n"
#define TAIL                                                                     \
	"store mem=out sram=0 dram=0x800 y=1 x=4 stride=4 deps=pop_prev,push_prev\n" \
	"finish deps=pop_next\n"                                                 \
	".uops 0x1000\nuop dst=0 src=0 wgt=0\nuop dst=0 src=4 wgt=0\n"
#define ALU(op, uops, imm_flag, more) \
	"alu op=" op " uop=" uops " iter=1,4 dst=0,1 src=0,1 use_imm=" imm_flag " " more "\n"

static const char CLEAN[] = HEAD ALU("shr", "0,1", "1", "imm=2")
	ALU("add", "1,2", "0", "deps=push_next") TAIL;

static void test_clean(void **state)
{
	(void)state;
	for (int t = 0; t < VTA_TARGET_COUNT; t++)
		assert_int_equal(check(CLEAN, (vta_target)t, NULL).n, 0);
}

static void test_targets(void **state)
{
	(void)state;
	vta_target t;
	vta_error err = {0};
	assert_int_equal(vta_target_parse("chisel", &t, &err), VTA_OK);
	assert_int_equal(t, VTA_TARGET_CHISEL);
	assert_string_equal(vta_target_name(VTA_TARGET_FSIM), "fsim");
	assert_int_equal(vta_target_parse("tsim", &t, &err), VTA_E_USAGE);
	assert_string_equal(err.detail, "unknown target 'tsim' (hls, chisel or fsim)");
}

static void test_mul(void **state)
{
	(void)state;
	const char *s = HEAD ALU("mul", "0,1", "1", "imm=3 deps=push_next") TAIL;
	found f = check(s, VTA_TARGET_HLS, NULL);
	assert_int_equal(f.n, 1);
	assert_int_equal(f.first_insn, 2);
	assert_string_equal(f.first, "insn 2 (alu    op=mul reset=0 uop=0,1 iter=1,4 dst=0,1 "
				     "src=0,1 use_imm=1 imm=3 deps=push_next): ALU MUL: not in "
				     "VTA's HLS design");
	assert_int_equal(check(s, VTA_TARGET_CHISEL, NULL).n, 1);
	assert_int_equal(check(s, VTA_TARGET_FSIM, NULL).n, 0);
}

static void test_tflite_ext(void **state)
{
	(void)state;
	const char *s = HEAD ALU("rshr", "0,1", "1", "imm=3 deps=push_next") TAIL;
	for (int t = 0; t < VTA_TARGET_COUNT; t++) {
		found f = check(s, (vta_target)t, NULL);
		assert_int_equal(f.n, 1);
		HAS(f, "ALU rshr: vtasim's TFLite extension (alu.tflite_ext), not in VTA's");
	}
}

static void test_acc8(void **state)
{
	(void)state;
	const char *s = "load mem=uop sram=0 dram=0x400 y=1 x=2 stride=2\n"
			"load mem=acc8 sram=0 dram=0x80 y=1 x=4 stride=4\n" ALU(
				"shr", "0,1", "1", "imm=0 deps=push_next") TAIL;
	found f = check(s, VTA_TARGET_CHISEL, NULL);
	assert_int_equal(f.n, 1);
	assert_int_equal(f.first_insn, 1);
	HAS(f, "LOAD ACC_8BIT (acc8): not in VTA's Chisel RTL");
	assert_int_equal(check(s, VTA_TARGET_HLS, NULL).n, 1);
	assert_int_equal(check(s, VTA_TARGET_FSIM, NULL).n, 0);
}

static void test_lut(void **state)
{
	(void)state;
	const char *s = "load mem=lut32 sram=0 dram=0x100 slot=1 y=1 x=4 stride=4\n"
			"load mem=acc sram=0 dram=0x100 bw=2 slot=1 y=1 x=4 stride=4 chan=0\n"
			"finish\n";
	found f = check(s, VTA_TARGET_FSIM, NULL);
	assert_int_equal(f.n, 2);
	HAS(f, "insn 0 (load   mem=lut32");
	HAS(f, "a LUT table load: vtasim's LUT decoder, not in VTA's fsim");
	assert_int_equal(check(CLEAN, VTA_TARGET_FSIM, NULL).n, 0);
}

static void test_uop_depth(void **state)
{
	(void)state;
	/* micro-ops 4000.. : within hls's and fsim's 8192, beyond chisel's 2048 */
	const char *s = "load mem=uop sram=4000 dram=0x400 y=1 x=2 stride=2\n"
			"load mem=acc sram=0 dram=0x80 y=1 x=8 stride=8\n"
			"alu op=shr uop=4000,4001 iter=1,4 dst=0,1 src=0,1 use_imm=1 imm=0 "
			"deps=push_next\n" TAIL;
	found f = check(s, VTA_TARGET_CHISEL, NULL);
	assert_int_equal(f.n, 2);
	HAS(f, "LOAD UOP writes micro-ops [4000, 4002), beyond the 2048 of VTA's Chisel RTL's "
	       "UOP SRAM");
	assert_int_equal(check(s, VTA_TARGET_HLS, NULL).n, 0);
	assert_int_equal(check(s, VTA_TARGET_FSIM, NULL).n, 0);
}

static void test_shr_amount(void **state)
{
	(void)state;
	const char *s = HEAD ALU("shr", "0,1", "1", "imm=20 deps=push_next") TAIL;
	found f = check(s, VTA_TARGET_HLS, NULL);
	assert_int_equal(f.n, 1);
	HAS(f, "ALU SHR by 20: VTA's HLS design shifts by the amount's low 5 bits, signed "
	       "(amounts -16..15 agree), vtasim clamps it to 31");
	assert_int_equal(check(s, VTA_TARGET_CHISEL, NULL).n, 0);
	const char *far = HEAD ALU("shr", "0,1", "1", "imm=-40 deps=push_next") TAIL;
	assert_int_equal(check(far, VTA_TARGET_CHISEL, NULL).n, 1);
	assert_int_equal(check(far, VTA_TARGET_FSIM, NULL).n, 1);
}

static void test_alu_reset(void **state)
{
	(void)state;
	const char *s = HEAD ALU("add", "1,2", "0", "reset=1 deps=push_next") TAIL;
	for (int t = 0; t < VTA_TARGET_COUNT; t++) {
		found f = check(s, (vta_target)t, NULL);
		assert_int_equal(f.n, 1);
		HAS(f, "ALU with reset=1: VTA's");
		HAS(f, "ignores the bit and runs the op (so does vtasim); to zero rows use a "
		       "GEMM reset");
	}
}

static void test_imm_operand(void **state)
{
	(void)state;
	/* uop 1 has dst 0, src 4: op(ACC[dst], imm) and op(ACC[src], imm) differ */
	const char *s = HEAD ALU("add", "1,2", "1", "imm=5 deps=push_next") TAIL;
	found f = check(s, VTA_TARGET_CHISEL, NULL);
	assert_int_equal(f.n, 1);
	HAS(f, "ALU immediate with src != dst (uop 1: dst 0, src 4, or its loop factors): VTA's "
	       "Chisel RTL computes op(ACC[src], imm), this config (alu.imm_operand dst) "
	       "op(ACC[dst], imm)");
	assert_int_equal(check(s, VTA_TARGET_HLS, NULL).n, 0);
	assert_int_equal(check(s, VTA_TARGET_CHISEL, "alu.imm_operand=src").n, 0);
	assert_int_equal(check(s, VTA_TARGET_FSIM, "alu.imm_operand=src").n, 1);
	/* src == dst in every uop execution: no rule differs (CLEAN's shr) */
	assert_int_equal(check(CLEAN, VTA_TARGET_CHISEL, NULL).n, 0);
	/* equal uop rows but loop factors that differ */
	const char *factors = HEAD "alu op=add uop=0,1 iter=1,4 dst=0,1 src=0,0 use_imm=1 imm=5 "
				   "deps=push_next\n" TAIL;
	assert_int_equal(check(factors, VTA_TARGET_CHISEL, NULL).n, 1);
}

static void test_reset_out(void **state)
{
	(void)state;
	/* rows 0..3 zeroed by a GEMM reset and stored as they are */
	const char *s = "load mem=uop sram=0 dram=0x400 y=1 x=2 stride=2\n"
			"gemm reset=1 uop=0,1 iter=1,4 dst=0,1 src=0,0 wgt=0,0 deps=push_next\n" TAIL;
	found f = check(s, VTA_TARGET_HLS, NULL);
	assert_int_equal(f.n, 1);
	assert_int_equal(f.first_insn, 2);
	HAS(f, "STORE of OUT rows a GEMM reset wrote last (4 of them, first 0, by insn 1): VTA's "
	       "HLS design writes the pre-reset sum to OUT, vtasim zero");
	assert_int_equal(check(s, VTA_TARGET_CHISEL, NULL).n, 0);
	assert_int_equal(check(s, VTA_TARGET_FSIM, NULL).n, 0);
}

static void test_no_out(void **state)
{
	(void)state;
	/* the ALU writes OUT 0..3, then a LOAD ACC refills ACC 0..3 before the STORE, ordered
	 * before it by the same token: fsim stores the loaded ACC */
	const char *s = HEAD ALU("shr", "0,1", "1", "imm=0")
		"load mem=acc sram=0 dram=0x80 y=1 x=4 stride=4 deps=push_next\n" TAIL;
	found f = check(s, VTA_TARGET_FSIM, NULL);
	assert_int_equal(f.n, 1);
	assert_int_equal(f.first_insn, 4);
	HAS(f, "STORE of OUT rows whose ACC rows a LOAD wrote after their last GEMM/ALU (4 of "
	       "them, first 0, by insn 3, not ordered after this STORE): VTA's fsim has no OUT "
	       "buffer and stores ACC, vtasim stores OUT");
	assert_int_equal(check(s, VTA_TARGET_HLS, NULL).n, 0);
	/* the refill ordered after the STORE (it pops the STORE's s2g token): no problem */
	const char *after = HEAD ALU("shr", "0,1", "1", "imm=0 deps=push_next")
		"store mem=out sram=0 dram=0x800 y=1 x=4 stride=4 deps=pop_prev,push_prev\n"
		"load mem=acc sram=0 dram=0x80 y=1 x=4 stride=4 deps=pop_next\n"
		"finish\n.uops 0x1000\nuop dst=0 src=0 wgt=0\n";
	assert_int_equal(check(after, VTA_TARGET_FSIM, NULL).n, 0);
	/* the refill not ordered after the STORE (no token from it): fsim may run it first */
	const char *unordered = HEAD ALU("shr", "0,1", "1", "imm=0 deps=push_next")
		"store mem=out sram=0 dram=0x800 y=1 x=4 stride=4 deps=pop_prev,push_prev\n"
		"load mem=acc sram=0 dram=0x80 y=1 x=4 stride=4\n"
		"finish deps=pop_next\n.uops 0x1000\nuop dst=0 src=0 wgt=0\n";
	assert_int_equal(check(unordered, VTA_TARGET_FSIM, NULL).n, 1);
}

static void test_geometry(void **state)
{
	(void)state;
	found f = check(CLEAN, VTA_TARGET_HLS, "sram_kib.acc=64");
	assert_int_equal(f.n, 1);
	assert_int_equal(f.first_insn, SIZE_MAX);
	HAS(f, "stream: the config encodes for another geometry than VTA's HLS design's");
	HAS(f, "log_acc_depth 10 != config 11");
	/* a smaller UOP SRAM whose fields keep VTA's widths encodes VTA's streams */
	assert_int_equal(check(CLEAN, VTA_TARGET_CHISEL, "sram_kib.uop=8").n, 1);
}

/* The Chisel RTL's config: fields of an 8192-entry UOP SRAM over 2048 entries, so streams
 * are the default config's bytes; a field depth below the SRAM is refused. */
static void test_uop_field_depth(void **state)
{
	(void)state;
	vta_config def, chisel;
	vta_error err = {0};
	vta_config_default(&def);
	vta_config_default(&chisel);
	assert_int_equal(vta_config_set(&chisel, "sram_kib.uop", "8", &err), VTA_OK);
	assert_int_equal(chisel.sram[VTA_MEM_UOP].depth, 2048);
	assert_int_equal(chisel.fw.uop_bgn, 11);
	assert_int_equal(vta_config_set(&chisel, "isa.uop_field_depth", "8192", &err), VTA_OK);
	assert_int_equal(chisel.sram[VTA_MEM_UOP].depth, 2048);
	assert_int_equal(chisel.fw.uop_bgn, 13);
	assert_int_equal(chisel.fw.uop_end, 14);
	const char *s = HEAD ALU("add", "1,2", "1", "imm=5 deps=push_next") TAIL;
	vta_program a, b;
	assert_int_equal(vta_asm_parse(s, strlen(s), "t.s", &def, &a, &err), VTA_OK);
	assert_int_equal(vta_asm_parse(s, strlen(s), "t.s", &chisel, &b, &err), VTA_OK);
	assert_int_equal(a.n_insns, b.n_insns);
	assert_memory_equal(a.insns, b.insns, a.n_insns * 16);
	assert_memory_equal(&a.geometry, &b.geometry, sizeof(a.geometry));
	vta_program_free(&a);
	vta_program_free(&b);
	/* refused: fewer than the SRAM's micro-ops, not a power of two, too many for vta128 */
	assert_int_equal(vta_config_set(&def, "isa.uop_field_depth", "4096", &err), VTA_E_CONFIG);
	assert_string_equal(err.detail, "isa.uop_field_depth: 4096 is less than the UOP SRAM's "
					"8192 micro-ops (sram_kib.uop): uop_end could not "
					"address them all");
	assert_int_equal(vta_config_set(&def, "isa.uop_field_depth", "10000", &err),
			 VTA_E_CONFIG);
	assert_int_equal(vta_config_set(&def, "isa.uop_field_depth", "16384", &err),
			 VTA_E_CONFIG);
	assert_non_null(strstr(err.detail, "isa.uop_field_depth: GEMM/ALU word 0 needs 65 bits"));
	assert_int_equal(vta_config_set(&def, "alu.imm_operand", "both", &err), VTA_E_CONFIG);
	assert_string_equal(err.detail, "alu.imm_operand: expected dst or src, got 'both'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean),	    cmocka_unit_test(test_targets),
		cmocka_unit_test(test_mul),	    cmocka_unit_test(test_tflite_ext),
		cmocka_unit_test(test_acc8),	    cmocka_unit_test(test_lut),
		cmocka_unit_test(test_uop_depth),   cmocka_unit_test(test_alu_reset),
		cmocka_unit_test(test_shr_amount),
		cmocka_unit_test(test_imm_operand), cmocka_unit_test(test_reset_out),
		cmocka_unit_test(test_no_out),	    cmocka_unit_test(test_geometry),
		cmocka_unit_test(test_uop_field_depth),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
