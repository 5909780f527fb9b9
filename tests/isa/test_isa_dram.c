/*
 * test_isa_dram.c - the flat DRAM: zeroed allocation and reset, overflow-safe range checks,
 * image loading, segment placement and dumps, with every error path.
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

#include "vta_dram.h"

static char tmpdir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "%s", "/tmp/vta_dram_test_XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static void write_file(const char *path, const uint8_t *b, size_t n)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(b, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

static void test_init(void **state)
{
	(void)state;
	vta_dram d;
	vta_error err = {0};
	assert_int_equal(vta_dram_init(&d, 0, &err), VTA_E_USAGE);
	assert_null(d.bytes);
	assert_int_equal(vta_dram_init(&d, 4096, &err), VTA_OK);
	assert_int_equal(d.size, 4096);
	for (int i = 0; i < 4096; i++)
		assert_int_equal(d.bytes[i], 0);
	vta_dram_free(&d);
	assert_null(d.bytes);
	vta_dram_free(&d);
	/* far more than any config asks for: refused cleanly */
	assert_int_equal(vta_dram_init(&d, UINT64_MAX, &err), VTA_E_USAGE);
	assert_non_null(strstr(err.detail, "larger than"));
	assert_null(d.bytes);
}

/* A reset DRAM is all zero again, whether cleared in place or mapped afresh. */
static void test_reset(void **state)
{
	(void)state;
	static const uint64_t used[] = {0, 100, 2048, 2049, 4096, UINT64_MAX};
	for (size_t k = 0; k < sizeof(used) / sizeof(used[0]); k++) {
		vta_dram d;
		vta_error err = {0};
		assert_int_equal(vta_dram_init(&d, 4096, &err), VTA_OK);
		uint64_t dirty = used[k] < d.size ? used[k] : d.size;
		memset(d.bytes, 0x5a, (size_t)dirty);
		uint8_t *before = d.bytes;
		assert_int_equal(vta_dram_reset(&d, used[k], &err), VTA_OK);
		assert_int_equal(d.size, 4096);
		if (used[k] <= 2048) /* cleared in place */
			assert_ptr_equal(d.bytes, before);
		for (int i = 0; i < 4096; i++)
			assert_int_equal(d.bytes[i], 0);
		vta_dram_free(&d);
	}
}

static void test_in_range(void **state)
{
	(void)state;
	vta_dram d;
	vta_error err = {0};
	assert_int_equal(vta_dram_init(&d, 100, &err), VTA_OK);
	assert_true(vta_dram_in_range(&d, 0, 100));
	assert_true(vta_dram_in_range(&d, 100, 0));
	assert_true(vta_dram_in_range(&d, 99, 1));
	assert_false(vta_dram_in_range(&d, 99, 2));
	assert_false(vta_dram_in_range(&d, 101, 0));
	assert_false(vta_dram_in_range(&d, 0, 101));
	/* addr + len wraps around 2^64: still out of range */
	assert_false(vta_dram_in_range(&d, 50, UINT64_MAX - 10));
	assert_false(vta_dram_in_range(&d, UINT64_MAX, 2));
	vta_dram_free(&d);
}

static void test_load_image(void **state)
{
	(void)state;
	char path[128], missing[128];
	snprintf(path, sizeof(path), "%s/img.bin", tmpdir);
	snprintf(missing, sizeof(missing), "%s/none.bin", tmpdir);
	uint8_t img[64];
	for (int i = 0; i < 64; i++)
		img[i] = (uint8_t)(i + 1);
	vta_dram d;
	vta_error err = {0};
	assert_int_equal(vta_dram_init(&d, 64, &err), VTA_OK);
	/* smaller than the DRAM: bytes at 0, the rest stays zero */
	write_file(path, img, 10);
	assert_int_equal(vta_dram_load_image(&d, path, &err), VTA_OK);
	assert_memory_equal(d.bytes, img, 10);
	assert_int_equal(d.bytes[10], 0);
	/* exactly the DRAM's size */
	write_file(path, img, 64);
	assert_int_equal(vta_dram_load_image(&d, path, &err), VTA_OK);
	assert_memory_equal(d.bytes, img, 64);
	vta_dram_free(&d);
	/* larger than the DRAM */
	assert_int_equal(vta_dram_init(&d, 63, &err), VTA_OK);
	assert_int_equal(vta_dram_load_image(&d, path, &err), VTA_E_USAGE);
	assert_non_null(strstr(err.detail, path));
	assert_non_null(strstr(err.detail, "larger than the DRAM (63 bytes"));
	/* missing file */
	assert_int_equal(vta_dram_load_image(&d, missing, &err), VTA_E_IO);
	assert_non_null(strstr(err.detail, missing));
	vta_dram_free(&d);
	/* an image larger than one read chunk */
	size_t big = 200000;
	uint8_t *b = malloc(big);
	for (size_t i = 0; i < big; i++)
		b[i] = (uint8_t)(i * 7);
	write_file(path, b, big);
	assert_int_equal(vta_dram_init(&d, big + 5, &err), VTA_OK);
	assert_int_equal(vta_dram_load_image(&d, path, &err), VTA_OK);
	assert_memory_equal(d.bytes, b, big);
	vta_dram_free(&d);
	assert_int_equal(vta_dram_init(&d, big - 1, &err), VTA_OK);
	assert_int_equal(vta_dram_load_image(&d, path, &err), VTA_E_USAGE);
	vta_dram_free(&d);
	free(b);
}

static void test_place_segments(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	vta_program p;
	vta_dram d;
	vta_error err = {0};
	vta_program_init(&p, &cfg);
	uint8_t a[4] = {1, 2, 3, 4}, b[3] = {5, 6, 7};
	assert_int_equal(vta_program_add_segment(&p, VTA_SEG_UOP, 8, a, 4, &err), VTA_OK);
	assert_int_equal(vta_program_add_segment(&p, VTA_SEG_DATA, 61, b, 3, &err), VTA_OK);
	assert_int_equal(vta_program_add_segment(&p, VTA_SEG_DATA, 64, NULL, 0, &err), VTA_OK);
	assert_int_equal(vta_dram_init(&d, 64, &err), VTA_OK);
	assert_int_equal(vta_dram_place_segments(&d, &p, &err), VTA_OK);
	assert_memory_equal(d.bytes + 8, a, 4);
	assert_memory_equal(d.bytes + 61, b, 3);
	/* one byte past the end */
	assert_int_equal(vta_program_add_segment(&p, VTA_SEG_DATA, 62, b, 3, &err), VTA_OK);
	assert_int_equal(vta_dram_place_segments(&d, &p, &err), VTA_E_OOB);
	assert_string_equal(err.detail,
			    "segment 3 (data, 3 bytes at 0x3e) lies outside the DRAM (64 bytes)");
	vta_program_free(&p);
	/* an address near 2^64 does not wrap into range */
	vta_program_init(&p, &cfg);
	assert_int_equal(vta_program_add_segment(&p, VTA_SEG_UOP, UINT64_MAX - 3, a, 4, &err),
			 VTA_OK);
	assert_int_equal(vta_dram_place_segments(&d, &p, &err), VTA_E_OOB);
	assert_non_null(strstr(err.detail, "segment 0 (uops"));
	vta_program_free(&p);
	vta_dram_free(&d);
}

static void test_dump(void **state)
{
	(void)state;
	char path[128], bad[128];
	snprintf(path, sizeof(path), "%s/dump.bin", tmpdir);
	snprintf(bad, sizeof(bad), "%s/no/dump.bin", tmpdir);
	vta_dram d;
	vta_error err = {0};
	assert_int_equal(vta_dram_init(&d, 32, &err), VTA_OK);
	for (int i = 0; i < 32; i++)
		d.bytes[i] = (uint8_t)(100 + i);
	assert_int_equal(vta_dram_dump(&d, 4, 8, path, &err), VTA_OK);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	uint8_t got[16];
	assert_int_equal(fread(got, 1, sizeof(got), f), 8);
	fclose(f);
	assert_memory_equal(got, d.bytes + 4, 8);
	assert_int_equal(vta_dram_dump(&d, 30, 3, path, &err), VTA_E_USAGE);
	assert_non_null(strstr(err.detail, "outside the DRAM (32 bytes)"));
	assert_int_equal(vta_dram_dump(&d, 0, 4, bad, &err), VTA_E_IO);
	assert_non_null(strstr(err.detail, bad));
	/* an empty dump writes an empty file */
	assert_int_equal(vta_dram_dump(&d, 32, 0, path, &err), VTA_OK);
	vta_dram_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init),
		cmocka_unit_test(test_reset),
		cmocka_unit_test(test_in_range),
		cmocka_unit_test(test_load_image),
		cmocka_unit_test(test_place_segments),
		cmocka_unit_test(test_dump),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
