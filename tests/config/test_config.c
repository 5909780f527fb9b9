/* test_config.c - the hardware config: shipped files, derived values, every error path. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vta_config.h"
#include "vta_config_keys.h"

static vta_status load_text(const char *text, vta_config *cfg, vta_error *err)
{
	char path[] = "/tmp/vtasim-config-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	vta_status st = vta_config_load(path, cfg, err);
	unlink(path);
	return st;
}

/* The error must be a config error pointing at line:col, and mention `needle`. */
static void expect_error(const char *text, int line, int col, const char *needle)
{
	vta_config cfg;
	vta_error err = {0};
	vta_status st = load_text(text, &cfg, &err);
	assert_int_not_equal(st, VTA_OK);
	assert_int_equal(vta_status_exit_code(st), 2);
	char where[32];
	snprintf(where, sizeof(where), ":%d:%d: ", line, col);
	if (!strstr(err.detail, where) || !strstr(err.detail, needle))
		fail_msg("detail '%s' lacks '%s' or '%s'", err.detail, where, needle);
}

static void test_default_matches_vta(void **state)
{
	(void)state;
	vta_config cfg;
	vta_error err = {0};
	assert_int_equal(vta_config_load("configs/default.yaml", &cfg, &err), VTA_OK);
	assert_int_equal(cfg.batch, 1);
	assert_int_equal(cfg.block_in, 16);
	assert_int_equal(cfg.block_out, 16);
	assert_int_equal(cfg.sram[VTA_MEM_UOP].depth, 8192);
	assert_int_equal(cfg.sram[VTA_MEM_INP].depth, 2048);
	assert_int_equal(cfg.sram[VTA_MEM_WGT].depth, 1024);
	assert_int_equal(cfg.sram[VTA_MEM_ACC].depth, 2048);
	assert_int_equal(cfg.sram[VTA_MEM_OUT].depth, 2048);
	assert_int_equal(cfg.sram[VTA_MEM_OUT].bytes, 32 * 1024);
	assert_int_equal(cfg.sram[VTA_MEM_INP].elem_bytes, 16);
	assert_int_equal(cfg.sram[VTA_MEM_WGT].elem_bytes, 256);
	assert_int_equal(cfg.sram[VTA_MEM_ACC].elem_bytes, 64);
	assert_int_equal(cfg.sram[VTA_MEM_OUT].elem_bytes, 16);
	/* VTA's default field widths (hw_spec.h) */
	assert_int_equal(cfg.fw.uop_bgn, 13);
	assert_int_equal(cfg.fw.uop_end, 14);
	assert_int_equal(cfg.fw.gemm_dst_factor, 11);
	assert_int_equal(cfg.fw.gemm_src_factor, 11);
	assert_int_equal(cfg.fw.gemm_wgt_factor, 10);
	assert_int_equal(cfg.fw.uop_dst, 11);
	assert_int_equal(cfg.fw.uop_src, 11);
	assert_int_equal(cfg.fw.uop_wgt, 10);
	assert_int_equal(cfg.fw.gemm_word0_bits, 63);
	assert_int_equal(cfg.fw.gemm_word1_bits, 64);
	assert_int_equal(cfg.fw.alu_word1_bits, 64);
	assert_int_equal(cfg.fw.mem_word0_bits, 64); /* 58 + lut_bw 3 + lut_slot 3 */
	assert_int_equal(cfg.dram_bus_bits, 64);
	assert_true(cfg.clock_mhz == 100.0);
	/* the file and the built-in default agree on the architecture */
	vta_config def;
	vta_config_default(&def);
	assert_int_equal(def.sram[VTA_MEM_UOP].depth, cfg.sram[VTA_MEM_UOP].depth);
	assert_int_equal(def.sram[VTA_MEM_WGT].depth, cfg.sram[VTA_MEM_WGT].depth);
	assert_memory_equal(&def.fw, &cfg.fw, sizeof(def.fw));
}

static void test_shipped_configs_load(void **state)
{
	(void)state;
	const char *files[] = {"configs/tiny.yaml", "configs/large.yaml"};
	for (size_t i = 0; i < 2; i++) {
		vta_config cfg;
		vta_error err = {0};
		if (vta_config_load(files[i], &cfg, &err) != VTA_OK)
			fail_msg("%s: %s", files[i], err.detail);
	}
	vta_config tiny;
	vta_error err = {0};
	assert_int_equal(vta_config_load("configs/tiny.yaml", &tiny, &err), VTA_OK);
	assert_int_equal(tiny.block_in, 4);
	assert_int_equal(tiny.sram[VTA_MEM_INP].depth, 512);
	assert_int_equal(tiny.sram[VTA_MEM_ACC].depth, 256);
	assert_int_equal(tiny.fw.uop_dst, 8);
	assert_int_equal(tiny.fw.uop_src, 9);
}

static void test_partial_file_keeps_defaults(void **state)
{
	(void)state;
	vta_config cfg;
	vta_error err = {0};
	assert_int_equal(load_text("name: small\ndram: {latency_cycles: 7}\n", &cfg, &err), VTA_OK);
	assert_string_equal(cfg.name, "small");
	assert_int_equal(cfg.dram_latency_cycles, 7);
	assert_int_equal(cfg.dram_bus_bits, 64);
	assert_int_equal(cfg.sram[VTA_MEM_ACC].depth, 2048);
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("arch: {log_batch: 0, log_blok_in: 2}\n", 1, 22, "unknown key 'arch.log_blok_in'");
	expect_error("colour: blue\n", 1, 1, "unknown key 'colour'");
	expect_error("arch:\n  log_batch: two\n", 2, 14, "expected an integer");
	expect_error("arch: 3\n", 1, 7, "arch: expected a mapping");
	expect_error("clock_mhz: fast\n", 1, 12, "expected a number");
	expect_error("alu: {mul: maybe}\n", 1, 12, "expected true or false");
	expect_error("arch: {log_block_in: 9}\n", 1, 22, "out of range");
	expect_error("queues: {dep_depth: 0}\n", 1, 21, "out of range");
	expect_error("dram: {bus_bits: 48}\n", 1, 18, "not a power of two");
	expect_error("sram_kib:\n  acc: 100\n", 2, 8, "not a power of two");
	expect_error("arch: {inp_bits: 16}\n", 1, 18, "out of range");
	/* ACC depth 8192 needs 13-bit factors: GEMM word 1 no longer fits */
	expect_error("sram_kib:\n  acc: 512\n", 1, 1, "more than 64");
	/* UOP depth 16384: word 0 needs 65 bits */
	expect_error("sram_kib: {uop: 64}\n", 1, 12, "word 0 needs 65 bits");
	/* SRAM smaller than one row */
	expect_error("arch: {log_block_in: 6, log_block_out: 6}\nsram_kib: {wgt: 2}\n", 2, 12,
		     "smaller than one row");
	expect_error("arch: {log_batch: 0}\narch: {log_batch: 1}\n", 2, 1, "duplicate key 'arch'");
	expect_error("dram: [1, 2\n", 2, 1, "");
	expect_error("- 1\n- 2\n", 1, 1, "config: expected a mapping");
	expect_error("name: [a]\n", 1, 7, "name: expected a string");
	/* a dotted key is written as its section's mapping, never as one word */
	expect_error("dram.latency_cycles: 7\n", 1, 1, "unknown key 'dram.latency_cycles'");
}

static void test_empty_and_missing(void **state)
{
	(void)state;
	vta_config cfg;
	vta_error err = {0};
	assert_int_equal(load_text("", &cfg, &err), VTA_E_CONFIG);
	assert_non_null(strstr(err.detail, "empty config"));
	assert_int_equal(vta_config_load("/nonexistent/x.yaml", &cfg, &err), VTA_E_IO);
	assert_non_null(strstr(err.detail, "/nonexistent/x.yaml"));
	assert_int_equal(vta_status_exit_code(VTA_E_IO), 2);
}

static void test_helpers(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	assert_int_equal(vta_config_dram_elem_bytes(&cfg, VTA_MEM_ACC_8BIT), 16);
	assert_int_equal(vta_config_dram_elem_bytes(&cfg, VTA_MEM_UOP), 4);
	assert_int_equal(vta_config_sram_depth(&cfg, VTA_MEM_ACC_8BIT), 2048);
	assert_string_equal(vta_mem_name(VTA_MEM_WGT), "wgt");
	assert_int_equal(vta_status_exit_code(VTA_E_DEADLOCK), 1);
	assert_int_equal(vta_status_exit_code(VTA_E_PARSE), 2);
	assert_int_equal(vta_status_exit_code(VTA_OK), 0);
}

/* vta_config_set: one key by name, checked like YAML, re-derived, cfg unchanged on error. */
static void expect_set_error(const char *key, const char *value, const char *needle)
{
	vta_config cfg, before;
	vta_config_default(&cfg);
	before = cfg;
	vta_error err = {0};
	assert_int_equal(vta_config_set(&cfg, key, value, &err), VTA_E_CONFIG);
	assert_int_equal(err.status, VTA_E_CONFIG);
	if (strcmp(err.detail, needle) && !strstr(err.detail, needle))
		fail_msg("detail '%s' lacks '%s'", err.detail, needle);
	assert_memory_equal(&cfg, &before, sizeof(cfg));
}

static void test_set(void **state)
{
	(void)state;
	vta_config cfg;
	vta_error err = {0};
	vta_config_default(&cfg);
	assert_int_equal(vta_config_set(&cfg, "dram.latency_cycles", "128", &err), VTA_OK);
	assert_int_equal(cfg.dram_latency_cycles, 128);
	/* derived values follow */
	assert_int_equal(vta_config_set(&cfg, "sram_kib.acc", "64", &err), VTA_OK);
	assert_int_equal(cfg.sram[VTA_MEM_ACC].depth, 1024);
	assert_int_equal(cfg.fw.gemm_dst_factor, 10);
	assert_int_equal(vta_config_set(&cfg, "alu.mul", "false", &err), VTA_OK);
	assert_false(cfg.alu_mul);
	assert_int_equal(vta_config_set(&cfg, "clock_mhz", "250.5", &err), VTA_OK);
	assert_true(cfg.clock_mhz == 250.5);
	assert_int_equal(vta_config_set(&cfg, "name", "mine", &err), VTA_OK);
	assert_string_equal(cfg.name, "mine");
	assert_int_equal(vta_config_set(&cfg, "timing.cycle_budget", "0x100", &err), VTA_OK);
	assert_int_equal(cfg.cycle_budget, 256);

	expect_set_error("dram.latency_cycles", "abc",
			 "dram.latency_cycles: expected an integer, got 'abc'");
	expect_set_error("dram.latency_cycles", "", "dram.latency_cycles: expected an integer");
	expect_set_error("arch.log_block_in", "9", "arch.log_block_in: 9 is out of range [0, 7]");
	expect_set_error("sram_kib.inp", "48", "sram_kib.inp: 48 is not a power of two");
	expect_set_error("alu.mul", "maybe", "alu.mul: expected true or false, got 'maybe'");
	expect_set_error("clock_mhz", "fast", "clock_mhz: expected a number, got 'fast'");
	expect_set_error("arch.log_blok", "2",
			 "unknown key 'arch.log_blok' (expected one of: log_batch, log_block_in, "
			 "log_block_out, inp_bits, wgt_bits, acc_bits)");
	expect_set_error("colour", "blue", "unknown key 'colour' (expected one of: name, clock_mhz, "
					   "arch, sram_kib,");
	expect_set_error("dram", "1", "unknown key 'dram'");
	/* cross-key checks of derive: UOP depth 16384 makes word 0 65 bits */
	expect_set_error("sram_kib.uop", "64", "sram_kib.uop: GEMM/ALU word 0 needs 65 bits");
	/* a burst smaller than one bus beat */
	expect_set_error("dram.max_burst_bytes", "4",
			 "dram.max_burst_bytes: must hold at least one bus beat");
}

/* The key table: defaults are configs/default.yaml's, every key has the width of its type,
 * and every key takes part in vta_config_same. */
static void test_key_table(void **state)
{
	(void)state;
	vta_config def, file;
	vta_error err = {0};
	vta_config_default(&def);
	assert_int_equal(vta_config_load("configs/default.yaml", &file, &err), VTA_OK);
	assert_memory_equal(&def, &file, sizeof(def));

	size_t n;
	const vta_config_key *keys = vta_config_keys(&n);
	assert_true(n >= 29);
	for (size_t i = 0; i < n; i++) {
		const vta_config_key *k = &keys[i];
		size_t want = k->type == VTA_KEY_U32	 ? 4
			      : k->type == VTA_KEY_CHOICE ? 4
			      : k->type == VTA_KEY_BOOL  ? sizeof(bool)
			      : k->type == VTA_KEY_STRING ? k->size
							  : 8;
		if (k->size != want)
			fail_msg("%s: field of %zu bytes for its type", k->name, k->size);
		assert_ptr_equal(vta_config_key_find(k->name), k);
		/* a changed value of any key but the name needs another model */
		vta_config other = def;
		char text[96];
		vta_config_key_format(k, &def, text, sizeof(text));
		assert_int_equal(vta_config_key_parse(k, text, &other, &err), VTA_OK);
		assert_true(vta_config_same(&def, &other));
		if (k->type == VTA_KEY_STRING)
			continue;
		((unsigned char *)&other)[k->offset] ^= 1;
		if (vta_config_same(&def, &other))
			fail_msg("%s: vta_config_same ignores it", k->name);
	}
	vta_config renamed = def;
	assert_int_equal(vta_config_set(&renamed, "name", "other", &err), VTA_OK);
	assert_true(vta_config_same(&def, &renamed));
}

/* A struct filled in code gets the table's checks from vta_config_derive. */
static void test_derive_checks_keys(void **state)
{
	(void)state;
	vta_config cfg;
	vta_error err = {0};
	vta_config_default(&cfg);
	cfg.acc_dep_distance = 65;
	assert_int_equal(vta_config_derive(&cfg, &err), VTA_E_CONFIG);
	assert_string_equal(err.detail, "timing.acc_dep_distance: 65 is out of range [0, 64]");
	vta_config_default(&cfg);
	cfg.dram_bus_bits = 48;
	assert_int_equal(vta_config_derive(&cfg, &err), VTA_E_CONFIG);
	assert_string_equal(err.detail, "dram.bus_bits: 48 is not a power of two");
	vta_config_default(&cfg);
	cfg.clock_mhz = 0;
	assert_int_equal(vta_config_derive(&cfg, &err), VTA_E_CONFIG);
	assert_string_equal(err.detail, "clock_mhz: 0 is out of range [0.001, 100000]");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_matches_vta),
		cmocka_unit_test(test_shipped_configs_load),
		cmocka_unit_test(test_partial_file_keeps_defaults),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_empty_and_missing),
		cmocka_unit_test(test_helpers),
		cmocka_unit_test(test_set),
		cmocka_unit_test(test_key_table),
		cmocka_unit_test(test_derive_checks_keys),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
