/*
 * sim_testutil.c - helpers shared by the simulator tests (see sim_testutil.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_testutil.h"
#include "vta_asm.h"

void simt_init(simt *t, const vta_config *cfg)
{
	vta_error err = {0};
	t->cfg = *cfg;
	if (vtasim_sim_create(cfg, &t->sim, &err) != VTA_OK)
		fail_msg("vtasim_sim_create: %s", err.detail);
	if (vta_ref_create(cfg, &t->ref, &err) != VTA_OK)
		fail_msg("vta_ref_create: %s", err.detail);
}

void simt_fini(simt *t)
{
	vtasim_sim_destroy(t->sim);
	vta_ref_destroy(t->ref);
	t->sim = NULL;
	t->ref = NULL;
}

void simt_asm(const simt *t, const char *text, vta_program *prog)
{
	vta_error err = {0};
	vta_program_init(prog, &t->cfg);
	if (vta_asm_parse(text, strlen(text), "test.s", &t->cfg, prog, &err) != VTA_OK)
		fail_msg("assembly: %s", err.detail);
}

uint32_t simt_rand(uint32_t *s)
{
	uint32_t x = *s;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *s = x;
}

void simt_asm_random(const simt *t, const char *text, uint64_t addr, uint32_t n, uint32_t seed,
		     vta_program *prog)
{
	vta_error err = {0};
	simt_asm(t, text, prog);
	uint8_t *bytes = malloc(n ? n : 1);
	assert_non_null(bytes);
	for (uint32_t i = 0; i < n; i++)
		bytes[i] = (uint8_t)simt_rand(&seed);
	if (vta_program_add_segment(prog, VTA_SEG_DATA, addr, bytes, n, &err) != VTA_OK)
		fail_msg("segment: %s", err.detail);
	free(bytes);
}

void simt_dram(const vta_program *prog, vta_dram *dram)
{
	vta_error err = {0};
	if (vta_dram_init(dram, SIMT_DRAM_BYTES, &err) != VTA_OK)
		fail_msg("dram: %s", err.detail);
	if (vta_dram_place_segments(dram, prog, &err) != VTA_OK)
		fail_msg("segments: %s", err.detail);
}

static void compare_mem(const char *what, const uint8_t *a, const uint8_t *b, uint64_t n)
{
	if (memcmp(a, b, n) == 0)
		return;
	uint64_t i = 0;
	while (a[i] == b[i])
		i++;
	fail_msg("%s differs from the reference at byte %llu: sim 0x%02x ref 0x%02x", what,
		 (unsigned long long)i, a[i], b[i]);
}

vta_status simt_run_both(simt *t, const vta_program *prog, vta_dram *dram, vta_run_stats *stats,
			 vta_error *err, vta_error *ref_err)
{
	vta_dram copy;
	vta_error e = {0}, re = {0};
	if (vta_dram_init(&copy, dram->size, &e) != VTA_OK)
		fail_msg("dram: %s", e.detail);
	memcpy(copy.bytes, dram->bytes, dram->size);
	vta_status rst = vta_ref_run(t->ref, prog, &copy, &re);
	vta_status st = vtasim_sim_run(t->sim, prog, dram, stats, &e);
	if (st != rst)
		fail_msg("status: sim %d (%s) vs reference %d (%s)", st, e.detail, rst, re.detail);
	if (st == VTA_OK) {
		static const vta_mem mems[] = {VTA_MEM_UOP, VTA_MEM_WGT, VTA_MEM_INP, VTA_MEM_ACC,
					       VTA_MEM_OUT};
		for (size_t i = 0; i < sizeof(mems) / sizeof(mems[0]); i++) {
			uint64_t n = 0;
			size_t rn = 0;
			const uint8_t *a = vtasim_sim_sram(t->sim, mems[i], &n);
			const uint8_t *b = vta_ref_sram(t->ref, mems[i], &rn);
			assert_non_null(a);
			assert_int_equal(n, rn);
			compare_mem(vta_mem_name(mems[i]), a, b, n);
		}
		compare_mem("dram", dram->bytes, copy.bytes, dram->size);
	}
	vta_dram_free(&copy);
	if (err)
		*err = e;
	if (ref_err)
		*ref_err = re;
	return st;
}

vta_status simt_run_text(simt *t, const char *text, vta_run_stats *stats, vta_error *err,
			 vta_error *ref_err)
{
	vta_program prog;
	vta_dram dram;
	simt_asm(t, text, &prog);
	simt_dram(&prog, &dram);
	vta_status st = simt_run_both(t, &prog, &dram, stats, err, ref_err);
	vta_dram_free(&dram);
	vta_program_free(&prog);
	return st;
}

void simt_expect_detail(const char *detail, ...)
{
	va_list ap;
	va_start(ap, detail);
	for (const char *n = va_arg(ap, const char *); n; n = va_arg(ap, const char *))
		if (!strstr(detail, n)) {
			va_end(ap);
			fail_msg("detail '%s' lacks '%s'", detail, n);
		}
	va_end(ap);
}
