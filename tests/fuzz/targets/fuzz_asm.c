/*
 * fuzz_asm.c - the assembler (vta_asm_parse) on arbitrary text, default config. Contract:
 * OK or one clean error line; an accepted program round-trips (serialize/parse,
 * disasm/asm) and runs on the reference executor to OK or one clean line.
 */
#include "fuzz_program.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static vta_config cfg;
	static int ready;
	if (!ready) {
		fuzz_stream_config(&cfg);
		ready = 1;
	}
	vta_program prog;
	vta_program_init(&prog, &cfg);
	vta_error err = {0};
	vta_status st = vta_asm_parse((const char *)data, size, "fuzz.s", &cfg, &prog, &err);
	fuzz_expect(st, &err);
	if (st == VTA_OK) {
		fuzz_round_trip(&prog, &cfg);
		fuzz_run_ref(&prog, &cfg);
	}
	vta_program_free(&prog);
	return 0;
}
