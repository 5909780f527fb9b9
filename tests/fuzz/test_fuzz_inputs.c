/*
 * test_fuzz_inputs.c - mutation fuzzing of the input readers: assembly, binary stream files,
 * hardware configs, workloads and LUT descriptors. Seeds are the shipped files; mutations flip,
 * insert, delete and duplicate bytes and truncate. Every call must return VTA_OK or an error
 * with a non-empty one-line detail. Streams that still assemble are also run on the reference
 * executor and the SystemC model under a small cycle budget, which must agree on the status.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_mutate.h"
#include "lut.h"
#include "prng.h"
#include "vta_asm.h"
#include "vta_config.h"
#include "vta_dram.h"
#include "vta_program.h"
#include "vta_ref.h"
#include "vtasim_api.h"
#include "workload.h"
#include "workload_layer.h"

#define ITERATIONS 600

static uint8_t *read_all(const char *path, size_t *len)
{
	uint8_t *buf = NULL;
	vta_error err = {0};
	if (vta_read_file(path, "input", UINT64_MAX, &buf, len, &err) != VTA_OK)
		fail_msg("%s", err.detail);
	return buf;
}

static void expect_status(vta_status st, const vta_error *err)
{
	if (st == VTA_OK)
		return;
	assert_true(err->detail[0] != '\0');
	assert_null(strchr(err->detail, '\n'));
}


/* The shared engines: one SystemC elaboration for the whole test, a small budget. */
static vta_config fuzz_cfg;
static vtasim_sim *sim;
static vta_ref *ref;

static int setup(void **state)
{
	(void)state;
	vta_config_default(&fuzz_cfg);
	fuzz_cfg.cycle_budget = 2000000;
	fuzz_cfg.dram_size_mib = 1;
	vta_error err = {0};
	if (vta_config_derive(&fuzz_cfg, &err))
		return -1;
#ifdef FUZZ_ENGINES
	if (vtasim_sim_create(&fuzz_cfg, &sim, &err) || vta_ref_create(&fuzz_cfg, &ref, &err))
		return -1;
#endif
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	vtasim_sim_destroy(sim);
	vta_ref_destroy(ref);
	return 0;
}

/* Run an assembled program on both engines: each must end cleanly, with a status and one
 * line. (They need not agree on which problem they report first: a broken stream may fail in
 * whichever module reaches its bad instruction first, and that depends on timing.) */
static void run_both(const vta_program *prog)
{
#ifndef FUZZ_ENGINES
	(void)prog;
	return;
#endif
	vta_dram d1 = {0}, d2 = {0};
	vta_error e1 = {0}, e2 = {0};
	assert_int_equal(vta_dram_init(&d1, 1u << 20, &e1), VTA_OK);
	assert_int_equal(vta_dram_init(&d2, 1u << 20, &e2), VTA_OK);
	vta_status p1 = vta_dram_place_segments(&d1, prog, &e1);
	vta_status p2 = vta_dram_place_segments(&d2, prog, &e2);
	assert_int_equal(p1, p2);
	if (p1 == VTA_OK) {
		vta_run_stats stats;
		vta_status s1 = vta_ref_run(ref, prog, &d1, &e1);
		vta_status s2 = vtasim_sim_run(sim, prog, &d2, &stats, &e2);
		expect_status(s1, &e1);
		expect_status(s2, &e2);
	}
	vta_dram_free(&d1);
	vta_dram_free(&d2);
}

static void test_fuzz_assembly(void **state)
{
	(void)state;
	const char *seeds[] = {"docs/examples/gemm.s", "docs/examples/alu.s",
			       "docs/examples/padding.s", "docs/examples/deadlock.s",
			       "docs/examples/oob.s"};
	vta_prng r;
	vta_prng_seed(&r, 1);
	size_t ran = 0;
	for (size_t s = 0; s < sizeof(seeds) / sizeof(seeds[0]); s++) {
		size_t len;
		uint8_t *text = read_all(seeds[s], &len);
		for (int i = 0; i < ITERATIONS; i++) {
			size_t ml;
			uint8_t *m = fuzz_mutate(&r, text, len, &ml);
			vta_program prog;
			vta_program_init(&prog, &fuzz_cfg);
			vta_error err = {0};
			vta_status st = vta_asm_parse((const char *)m, ml, "fuzz.s", &fuzz_cfg, &prog,
						      &err);
			expect_status(st, &err);
			if (st == VTA_OK) {
				run_both(&prog);
				ran++;
			}
			vta_program_free(&prog);
			free(m);
		}
		free(text);
	}
	assert_true(ran > 0); /* some mutants still assemble and run */
}

static void test_fuzz_stream_files(void **state)
{
	(void)state;
	size_t len;
	uint8_t *text = read_all("docs/examples/gemm.s", &len);
	vta_program prog;
	vta_program_init(&prog, &fuzz_cfg);
	vta_error err = {0};
	assert_int_equal(vta_asm_parse((const char *)text, len, "gemm.s", &fuzz_cfg, &prog, &err),
			 VTA_OK);
	uint8_t *bin;
	size_t bin_len;
	assert_int_equal(vta_program_serialize(&prog, &bin, &bin_len, &err), VTA_OK);
	vta_program_free(&prog);
	vta_prng r;
	vta_prng_seed(&r, 2);
	for (int i = 0; i < 4 * ITERATIONS; i++) {
		size_t ml;
		uint8_t *m = fuzz_mutate(&r, bin, bin_len, &ml);
		vta_program p;
		vta_error e = {0};
		vta_status st = vta_program_parse(m, ml, &fuzz_cfg, &p, &e);
		expect_status(st, &e);
		if (st == VTA_OK) {
			run_both(&p);
			vta_program_free(&p);
		}
		free(m);
	}
	free(bin);
	free(text);
}

#ifndef FUZZ_ENGINES
static void write_tmp(const char *path, const uint8_t *buf, size_t len)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, len, f), len);
	fclose(f);
}

static void test_fuzz_configs(void **state)
{
	(void)state;
	const char *seeds[] = {"configs/default.yaml", "configs/tiny.yaml", "configs/large.yaml"};
	char path[] = "/tmp/vtasim-fuzz-config-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	vta_prng r;
	vta_prng_seed(&r, 3);
	for (size_t s = 0; s < 3; s++) {
		size_t len;
		uint8_t *text = read_all(seeds[s], &len);
		for (int i = 0; i < ITERATIONS; i++) {
			size_t ml;
			uint8_t *m = fuzz_mutate(&r, text, len, &ml);
			write_tmp(path, m, ml);
			vta_config cfg;
			vta_error err = {0};
			expect_status(vta_config_load(path, &cfg, &err), &err);
			free(m);
		}
		free(text);
	}
	unlink(path);
}

static void test_fuzz_workloads(void **state)
{
	(void)state;
	const char *seeds[] = {"tests/cli/workloads/conv_odd.yaml",
			       "tests/cli/workloads/add_odd.yaml"};
	char path[] = "/tmp/vtasim-fuzz-wl-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	vta_prng r;
	vta_prng_seed(&r, 4);
	for (size_t s = 0; s < 2; s++) {
		size_t len;
		uint8_t *text = read_all(seeds[s], &len);
		for (int i = 0; i < ITERATIONS; i++) {
			size_t ml;
			uint8_t *m = fuzz_mutate(&r, text, len, &ml);
			write_tmp(path, m, ml);
			vta_workload wl;
			vta_error err = {0};
			vta_status st = vta_workload_load(path, &wl, &err);
			expect_status(st, &err);
			if (st != VTA_OK) {
				free(m);
				continue;
			}
			/* materialise small layers only: the golden kernel of a mutated huge layer
			 * would be slow, not wrong */
			for (size_t l = 0; l < wl.n_layers; l++) {
				vta_layer_data d;
				const vta_wl_layer *ly = &wl.layers[l];
				uint64_t size = 1;
				const vta_wl_tensor *t = ly->op == VTA_WL_ADD ? &ly->inputs[0]
									      : &ly->input;
				for (int k = 0; k < t->rank; k++)
					size *= (uint64_t)t->shape[k];
				if (size > 100000)
					continue;
				vta_error e2 = {0};
				st = vta_layer_materialize(ly, &d, &e2);
				expect_status(st, &e2);
				if (st == VTA_OK)
					vta_layer_data_free(&d);
			}
			vta_workload_free(&wl);
			free(m);
		}
		free(text);
	}
	unlink(path);
}

static void test_fuzz_lut_descriptors(void **state)
{
	(void)state;
	vta_prng r;
	vta_prng_seed(&r, 5);
	uint8_t table[256], indices[64];
	int8_t out[256];
	for (int i = 0; i < 20 * ITERATIONS; i++) {
		for (size_t k = 0; k < sizeof(table); k++)
			table[k] = (uint8_t)vta_prng_range(&r, 0, 255);
		for (size_t k = 0; k < sizeof(indices); k++)
			indices[k] = (uint8_t)vta_prng_range(&r, 0, 255);
		vta_lut_tensor t = {0};
		t.type = VTA_LUT_INT8;
		t.bitwidth = (unsigned)vta_prng_range(&r, 0, 8);
		t.count = (size_t)vta_prng_range(&r, 0, 256);
		t.channels = (size_t)vta_prng_range(&r, 0, 9);
		t.axis_last = vta_prng_range(&r, 0, 1);
		t.value_table = table;
		t.value_table_bytes = (size_t)vta_prng_range(&r, 0, 256);
		t.value_table_stride = (size_t)vta_prng_range(&r, 0, 130);
		t.indices = indices;
		t.indices_bytes = (size_t)vta_prng_range(&r, 0, 64);
		vta_error err = {0};
		expect_status(vta_lut_decode(&t, out, sizeof(out), &err), &err);
	}
}

#endif /* FUZZ_ENGINES */

int main(void)
{
	/* Two executables: the readers alone, and the streams run on both engines. SystemC
	 * switches stacks (coroutines) that AddressSanitizer cannot follow, so code running after
	 * the model on the main stack may see stale stack poisoning: keep the readers apart. */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fuzz_assembly),
		cmocka_unit_test(test_fuzz_stream_files),
#ifndef FUZZ_ENGINES
		cmocka_unit_test(test_fuzz_configs),
		cmocka_unit_test(test_fuzz_workloads),
		cmocka_unit_test(test_fuzz_lut_descriptors),
#endif
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
