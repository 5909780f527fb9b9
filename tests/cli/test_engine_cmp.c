/*
 * test_engine_cmp.c - the comparison behind `exec --engine both` on hand-made memory images:
 * equal images, the first differing lane of INP, ACC (int32, negative) and UOP rows (decoded,
 * or in hex when not a micro-op) and the number of differing rows, and DRAM bytes; the SRAM
 * views' geometry and names.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "engine_cmp.h"
#include "vta_bytes.h"
#include "vta_insn.h"

static vta_config cfg;

static int setup(void **state)
{
	(void)state;
	vta_config_default(&cfg);
	vta_error err = {0};
	return vta_config_derive(&cfg, &err) == VTA_OK ? 0 : -1;
}

/* Two zeroed images of SRAM mem. */
static void images(vta_mem mem, sram_view *v, uint8_t **a, uint8_t **b)
{
	assert_int_equal(sram_view_of(&cfg, mem, v), 0);
	const size_t n = (size_t)v->depth * v->row_bytes;
	*a = calloc(n, 1);
	*b = calloc(n, 1);
	assert_non_null(*a);
	assert_non_null(*b);
}

static void test_views(void **state)
{
	(void)state;
	sram_view v;
	assert_int_equal(sram_view_of(&cfg, VTA_MEM_INP, &v), 0);
	assert_string_equal(v.name, "INP");
	assert_int_equal(v.lanes, 16);
	assert_int_equal(v.lane_bytes, 1);
	assert_int_equal(v.depth, 2048);
	assert_int_equal(sram_view_of(&cfg, VTA_MEM_WGT, &v), 0);
	assert_int_equal(v.lanes, 256);
	assert_int_equal(v.row_bytes, 256);
	assert_int_equal(sram_view_of(&cfg, VTA_MEM_ACC, &v), 0);
	assert_int_equal(v.lanes, 16);
	assert_int_equal(v.lane_bytes, 4);
	assert_int_equal(sram_view_of(&cfg, VTA_MEM_UOP, &v), 0);
	assert_int_equal(v.row_bytes, 4);
	assert_int_equal(v.depth, 8192);
	assert_int_equal(sram_view_of(&cfg, VTA_MEM_ACC_8BIT, &v), -1);
	assert_int_equal(sram_view_of(&cfg, VTA_MEM_LUT, &v), -1);
	vta_mem m;
	assert_int_equal(sram_view_parse("acc", &m), 0);
	assert_int_equal(m, VTA_MEM_ACC);
	assert_int_equal(sram_view_parse("uop", &m), 0);
	assert_int_equal(m, VTA_MEM_UOP);
	assert_int_equal(sram_view_parse("acc8", &m), -1);
	assert_int_equal(sram_view_parse("ACC", &m), -1);
}

static void test_equal(void **state)
{
	(void)state;
	sram_view v;
	uint8_t *a, *b;
	images(VTA_MEM_WGT, &v, &a, &b);
	a[1000] = b[1000] = 7;
	engine_cmp c;
	engine_cmp_sram(&cfg, &v, a, b, &c);
	assert_int_equal(c.count, 0);
	assert_string_equal(c.where, "");
	engine_cmp_dram(a, b, (uint64_t)v.depth * v.row_bytes, &c);
	assert_int_equal(c.count, 0);
	free(a);
	free(b);
}

static void test_inp(void **state)
{
	(void)state;
	sram_view v;
	uint8_t *a, *b;
	images(VTA_MEM_INP, &v, &a, &b);
	a[5 * 16 + 3] = 0x80; /* -128 */
	b[5 * 16 + 3] = 0x7f;
	a[5 * 16 + 9] = 1;    /* a later lane of the same row */
	b[9 * 16 + 0] = 0xff; /* another row */
	engine_cmp c;
	engine_cmp_sram(&cfg, &v, a, b, &c);
	assert_int_equal(c.count, 2);
	assert_string_equal(c.where, "INP row 5 lane 3");
	assert_string_equal(c.ref, "-128");
	assert_string_equal(c.model, "127");
	free(a);
	free(b);
}

static void test_acc(void **state)
{
	(void)state;
	sram_view v;
	uint8_t *a, *b;
	images(VTA_MEM_ACC, &v, &a, &b);
	/* lane 14 of row 2047 (the last row): only its top byte differs */
	uint8_t *p = a + 2047 * 64 + 14 * 4, *q = b + 2047 * 64 + 14 * 4;
	vta_le_put(p, 4, (uint32_t)-100000);
	vta_le_put(q, 4, (uint32_t)-100000 ^ 0x80000000u);
	engine_cmp c;
	engine_cmp_sram(&cfg, &v, a, b, &c);
	assert_int_equal(c.count, 1);
	assert_string_equal(c.where, "ACC row 2047 lane 14");
	assert_string_equal(c.ref, "-100000");
	assert_string_equal(c.model, "2147383648");
	free(a);
	free(b);
}

static void test_uop(void **state)
{
	(void)state;
	sram_view v;
	uint8_t *a, *b;
	images(VTA_MEM_UOP, &v, &a, &b);
	vta_uop u = {.dst = 1, .src = 2, .wgt = 3};
	vta_error err = {0};
	assert_int_equal(vta_uop_encode(&cfg, &u, a + 4 * 7, &err), VTA_OK);
	u.wgt = 4;
	assert_int_equal(vta_uop_encode(&cfg, &u, b + 4 * 7, &err), VTA_OK);
	engine_cmp c;
	engine_cmp_sram(&cfg, &v, a, b, &c);
	assert_int_equal(c.count, 1);
	assert_string_equal(c.where, "UOP row 7");
	assert_string_equal(c.ref, "dst=1 src=2 wgt=3");
	assert_string_equal(c.model, "dst=1 src=2 wgt=4");
	free(a);
	free(b);
	/* a word that is no micro-op: the default config uses every bit, a smaller ACC
	 * leaves the top one unused */
	vta_config small = cfg;
	assert_int_equal(vta_config_set(&small, "sram_kib.acc", "64", &err), VTA_OK);
	images(VTA_MEM_UOP, &v, &a, &b);
	vta_le_put(b, 4, 0xffffffffu);
	engine_cmp_sram(&small, &v, a, b, &c);
	assert_int_equal(c.count, 1);
	assert_string_equal(c.where, "UOP row 0");
	assert_string_equal(c.ref, "dst=0 src=0 wgt=0");
	assert_string_equal(c.model, "0xffffffff (no micro-op)");
	free(a);
	free(b);
	/* the wide encoding's 8-byte micro-ops */
	vta_config wide = cfg;
	assert_int_equal(vta_config_set(&wide, "isa.encoding", "wide", &err), VTA_OK);
	assert_int_equal(sram_view_of(&wide, VTA_MEM_UOP, &v), 0);
	assert_int_equal(v.lane_bytes, 8);
	assert_int_equal(v.row_bytes, 8);
	a = calloc((size_t)v.depth * v.row_bytes, 1);
	b = calloc((size_t)v.depth * v.row_bytes, 1);
	assert_non_null(a);
	assert_non_null(b);
	u = (vta_uop){.dst = 2047, .src = 2000, .wgt = 1023};
	assert_int_equal(vta_uop_encode(&wide, &u, b + 8 * 3, &err), VTA_OK);
	engine_cmp_sram(&wide, &v, a, b, &c);
	assert_int_equal(c.count, 1);
	assert_string_equal(c.where, "UOP row 3");
	assert_string_equal(c.ref, "dst=0 src=0 wgt=0");
	assert_string_equal(c.model, "dst=2047 src=2000 wgt=1023");
	vta_le_put(b + 8 * 3, 8, UINT64_MAX);
	engine_cmp_sram(&wide, &v, a, b, &c);
	assert_string_equal(c.model, "0xffffffffffffffff (no micro-op)");
	free(a);
	free(b);
}

static void test_dram(void **state)
{
	(void)state;
	const uint64_t n = 3 * 4096 + 17; /* blocks and a tail */
	uint8_t *a = calloc(n, 1), *b = calloc(n, 1);
	assert_non_null(a);
	assert_non_null(b);
	b[4096 + 5] = 0xab;
	b[4096 + 6] = 0x01;
	a[n - 1] = 0x10;
	engine_cmp c;
	engine_cmp_dram(a, b, n, &c);
	assert_int_equal(c.count, 3);
	assert_string_equal(c.where, "DRAM 0x1005");
	assert_string_equal(c.ref, "0x00");
	assert_string_equal(c.model, "0xab");
	free(a);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_views), cmocka_unit_test(test_equal),
		cmocka_unit_test(test_inp),   cmocka_unit_test(test_acc),
		cmocka_unit_test(test_uop),   cmocka_unit_test(test_dram),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}
