/*
 * test_stream_memo.c - the run's memo of checked and timed streams (stream_memo.h): a
 * stream is answered only when its instructions, the micro-op bytes its LOAD UOPs read,
 * the DRAM's size and the config are all the ones kept; the DRAM's other bytes do not
 * matter; a LOAD UOP past the DRAM gives no key.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "stream_memo.h"
#include "vta_insn.h"

#define DRAM_BYTES 65536u
#define UOP_ADDR 64u /* in micro-ops */

/* LOAD UOP of 4 micro-ops from UOP_ADDR, a GEMM over them, FINISH. */
static void program(const vta_config *cfg, uint32_t iter, vta_program *prog)
{
	vta_program_init(prog, cfg);
	vta_insn in[3];
	memset(in, 0, sizeof(in));
	in[0].opcode = VTA_OP_LOAD;
	in[0].mem = (vta_mem_insn){.mem_type = VTA_MEM_UOP, .dram_base = UOP_ADDR, .y_size = 1,
				   .x_size = 4, .x_stride = 4};
	in[1].opcode = VTA_OP_GEMM;
	in[1].loop = (vta_loop){.uop_bgn = 0, .uop_end = 4, .iter_out = iter, .iter_in = 1};
	in[2].opcode = VTA_OP_FINISH;
	vta_error err = {0};
	for (int i = 0; i < 3; i++)
		assert_int_equal(vta_program_push(prog, cfg, &in[i], &err), VTA_OK);
}

static void dram_with_uops(const vta_config *cfg, uint64_t size, vta_dram *d)
{
	vta_error err = {0};
	assert_int_equal(vta_dram_init(d, size, &err), VTA_OK);
	const uint64_t eb = cfg->sram[VTA_MEM_UOP].elem_bytes;
	for (uint32_t k = 0; k < 4; k++) {
		const vta_uop u = {.dst = k, .src = k, .wgt = 0};
		assert_int_equal(vta_uop_encode(cfg, &u, d->bytes + (UOP_ADDR + k) * eb, &err), VTA_OK);
	}
}

/* Does m answer for the stream (prog, d) under cfg, with `cycles`? */
static bool answers(const vta_stream_memo *m, const vta_config *cfg, const vta_program *prog,
		    const vta_dram *d, uint64_t cycles)
{
	vta_stream_key k;
	assert_true(vta_stream_key_make(cfg, prog, d, &k));
	uint64_t c = 0;
	const bool timed = vta_stream_memo_cycles(m, cfg, &k, &c);
	const vta_race_report *rep = vta_stream_memo_checks(m, cfg, &k);
	vta_stream_key_free(&k);
	assert_true(timed == (rep != NULL)); /* both were kept together below */
	if (timed) {
		assert_int_equal(c, cycles);
		assert_int_equal(rep->races, 7);
	}
	return timed;
}

static void test_what_a_stream_is(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	vta_stream_memo *m = vta_stream_memo_new(&cfg);
	assert_non_null(m);
	vta_program prog;
	program(&cfg, 3, &prog);
	vta_dram d;
	dram_with_uops(&cfg, DRAM_BYTES, &d);

	vta_stream_key k;
	assert_true(vta_stream_key_make(&cfg, &prog, &d, &k));
	assert_false(answers(m, &cfg, &prog, &d, 0));
	vta_race_report rep;
	memset(&rep, 0, sizeof(rep));
	rep.races = 7;
	assert_true(vta_stream_memo_keep_checks(m, &cfg, &k, &rep));
	assert_true(vta_stream_memo_keep_cycles(m, &cfg, &k, 1234));
	vta_stream_key_free(&k);
	assert_true(answers(m, &cfg, &prog, &d, 1234));

	/* other bytes of the DRAM: the same stream */
	for (uint64_t i = 0; i < d.size; i += 97)
		if (i < UOP_ADDR * 4 || i >= (UOP_ADDR + 4) * 8)
			d.bytes[i] ^= 0x5a;
	assert_true(answers(m, &cfg, &prog, &d, 1234));

	/* a micro-op byte it loads: another stream */
	const uint64_t eb = cfg.sram[VTA_MEM_UOP].elem_bytes;
	d.bytes[(UOP_ADDR + 3) * eb] ^= 1;
	assert_false(answers(m, &cfg, &prog, &d, 0));
	d.bytes[(UOP_ADDR + 3) * eb] ^= 1;
	assert_true(answers(m, &cfg, &prog, &d, 1234));

	/* one instruction field */
	vta_program other;
	program(&cfg, 4, &other);
	assert_false(answers(m, &cfg, &other, &d, 0));
	vta_program_free(&other);

	/* the DRAM's size */
	vta_dram bigger;
	dram_with_uops(&cfg, 2 * DRAM_BYTES, &bigger);
	assert_false(answers(m, &cfg, &prog, &bigger, 0));
	vta_dram_free(&bigger);

	/* another config is never answered */
	vta_config slow = cfg;
	slow.dram_latency_cycles += 1;
	assert_false(answers(m, &slow, &prog, &d, 0));

	/* a LOAD UOP past the DRAM has no key */
	vta_dram tiny;
	vta_error err = {0};
	assert_int_equal(vta_dram_init(&tiny, UOP_ADDR * eb + 8, &err), VTA_OK);
	assert_false(vta_stream_key_make(&cfg, &prog, &tiny, &k));
	vta_dram_free(&tiny);

	vta_dram_free(&d);
	vta_program_free(&prog);
	vta_stream_memo_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_what_a_stream_is),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
