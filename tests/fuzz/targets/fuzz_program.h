/*
 * fuzz_program.h - what every accepted program must survive, shared by the assembler and
 * the stream targets: serialize -> parse -> serialize gives the same bytes, disasm -> asm
 * gives the same stream again, and the reference executor runs it (small cycle budget,
 * which bounds its work too) to OK or one clean error line.
 */
#ifndef FUZZ_PROGRAM_H
#define FUZZ_PROGRAM_H

#include "fuzz_contract.h"
#include "vta_asm.h"
#include "vta_dram.h"
#include "vta_program.h"
#include "vta_ref.h"

/* serialize(prog), which must succeed (caller frees). */
static inline uint8_t *fuzz_serialize(const vta_program *prog, size_t *len)
{
	uint8_t *b = NULL;
	vta_error err = {0};
	vta_status st = vta_program_serialize(prog, &b, len, &err);
	if (st != VTA_OK)
		fuzz_die("an accepted program does not serialize", err.detail);
	return b;
}

static inline void fuzz_round_trip(const vta_program *prog, const vta_config *cfg)
{
	size_t l1, l2, l3;
	uint8_t *b1 = fuzz_serialize(prog, &l1);
	vta_program p2;
	vta_error err = {0};
	if (vta_program_parse(b1, l1, cfg, &p2, &err) != VTA_OK)
		fuzz_die("a serialized program does not parse", err.detail);
	uint8_t *b2 = fuzz_serialize(&p2, &l2);
	fuzz_require(l1 == l2 && !memcmp(b1, b2, l1), "serialize/parse round-trips");
	vta_program_free(&p2);

	char *text = NULL;
	size_t tl = 0;
	FILE *f = open_memstream(&text, &tl);
	fuzz_require(f != NULL, "open_memstream");
	vta_status st = vta_disasm_program(prog, cfg, f, &err);
	fclose(f);
	if (st != VTA_OK)
		fuzz_die("an accepted program does not disassemble", err.detail);
	vta_program p3;
	vta_program_init(&p3, cfg);
	if (vta_asm_parse(text, tl, "disasm.s", cfg, &p3, &err) != VTA_OK)
		fuzz_die("a disassembled program does not assemble", err.detail);
	uint8_t *b3 = fuzz_serialize(&p3, &l3);
	fuzz_require(l1 == l3 && !memcmp(b1, b3, l1), "disasm/asm round-trips");
	vta_program_free(&p3);
	free(text);
	free(b2);
	free(b3);
	free(b1);
}

/* Run on the reference executor: OK or one clean error line. */
static inline void fuzz_run_ref(const vta_program *prog, const vta_config *cfg)
{
	static vta_ref *ref;
	vta_error err = {0};
	if (!ref && vta_ref_create(cfg, &ref, &err) != VTA_OK)
		fuzz_die("the reference executor cannot be created", err.detail);
	vta_dram d = {0};
	if (vta_dram_init(&d, (uint64_t)cfg->dram_size_mib << 20, &err) != VTA_OK)
		fuzz_die("no DRAM", err.detail);
	vta_status st = vta_dram_place_segments(&d, prog, &err);
	fuzz_expect(st, &err);
	if (st == VTA_OK) {
		st = vta_ref_run(ref, prog, &d, &err);
		fuzz_expect(st, &err);
	}
	vta_dram_free(&d);
}

#endif /* FUZZ_PROGRAM_H */
