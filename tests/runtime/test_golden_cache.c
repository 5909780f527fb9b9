/*
 * test_golden_cache.c - the golden-output cache (golden_cache.h) and its key: SHA-256 against
 * FIPS 180-4's vectors; entries round-trip, and a missing, damaged or differently shaped one
 * is a miss; through the pipeline, a layer's golden is computed once and then read, per
 * arithmetic mode and per content (a different LUT width is another entry), and a layer run
 * from the cache is still bit-exact; the same in memory, with the fast keys and the counts
 * of computed and reused outputs.
 */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "golden_cache.h"
#include "layer_run.h"
#include "rt_test.h"
#include "sha256.h"
#include "vta_ref.h"
#include "workload.h"

static void sha(const char *msg, size_t repeat, char hex[VTA_SHA256_HEX])
{
	vta_sha256 s;
	vta_sha256_init(&s);
	for (size_t i = 0; i < repeat; i++)
		vta_sha256_update(&s, msg, strlen(msg));
	vta_sha256_final_hex(&s, hex);
}

static void test_sha256_vectors(void **state)
{
	(void)state;
	char h[VTA_SHA256_HEX];
	sha("", 1, h);
	assert_string_equal(h, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	sha("abc", 1, h);
	assert_string_equal(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	sha("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1, h);
	assert_string_equal(h, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	/* a million 'a', fed in pieces that straddle the blocks */
	sha("aaaaaaaaaaaaaaaaaaaaaaaaa", 40000, h);
	assert_string_equal(h, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

/* A fresh cache folder under /tmp. */
static void cache_dir(char *dir, size_t size)
{
	snprintf(dir, size, "/tmp/vtasim-golden-XXXXXX");
	assert_non_null(mkdtemp(dir));
}

static void remove_dir(const char *dir)
{
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

static void test_entries(void **state)
{
	(void)state;
	char dir[64], key[VTA_SHA256_HEX], path[200];
	cache_dir(dir, sizeof(dir));
	vta_golden_cache c;
	vta_error err = {0};
	assert_int_equal(vta_golden_cache_open(&c, dir, &err), VTA_OK);
	sha("some layer", 1, key);
	int8_t data[2 * 3 * 4 * 5], back[sizeof(data)];
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (int8_t)(i * 7 - 60);
	vta_tensor_i8 t = {{2, 3, 4, 5}, 0.5f, 3, data}, u = t;
	u.data = back;
	vta_golden_stats gs = {11, 22}, got = {0};
	assert_false(vta_golden_cache_load(&c, key, &u, &got)); /* not there yet */
	assert_int_equal(vta_golden_cache_store(&c, key, &t, &gs, &err), VTA_OK);
	assert_true(vta_golden_cache_load(&c, key, &u, &got));
	assert_memory_equal(back, data, sizeof(data));
	assert_int_equal(got.alu_overflows, 11);
	assert_int_equal(got.acc_overflows, 22);
	/* another shape is a miss */
	u.shape[3] = 6;
	assert_false(vta_golden_cache_load(&c, key, &u, &got));
	u.shape[3] = 5;
	/* a damaged entry (one byte short) is a miss, and a store mends it */
	snprintf(path, sizeof(path), "%s/%s.golden", dir, key);
	assert_int_equal(truncate(path, 40), 0);
	assert_false(vta_golden_cache_load(&c, key, &u, &got));
	assert_int_equal(vta_golden_cache_store(&c, key, &t, &gs, &err), VTA_OK);
	assert_true(vta_golden_cache_load(&c, key, &u, &got));
	/* a changed entry is a miss: one output byte, an overflow count, or another key's
	 * entry copied over it (each of the same length as the real one) */
	char other[VTA_SHA256_HEX], other_path[200], cmd[600];
	sha("another layer", 1, other);
	snprintf(other_path, sizeof(other_path), "%s/%s.golden", dir, other);
	const long at[] = {-1, 8 + 16}; /* the last output byte; the ALU overflow count */
	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		FILE *f = fopen(path, "r+b");
		assert_non_null(f);
		assert_int_equal(fseek(f, at[i], at[i] < 0 ? SEEK_END : SEEK_SET), 0);
		const int b = fgetc(f);
		assert_int_equal(fseek(f, at[i], at[i] < 0 ? SEEK_END : SEEK_SET), 0);
		fputc(b ^ 1, f);
		fclose(f);
		assert_false(vta_golden_cache_load(&c, key, &u, &got));
		assert_int_equal(vta_golden_cache_store(&c, key, &t, &gs, &err), VTA_OK);
	}
	assert_int_equal(vta_golden_cache_store(&c, other, &t, &gs, &err), VTA_OK);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", other_path, path);
	assert_int_equal(system(cmd), 0);
	assert_false(vta_golden_cache_load(&c, key, &u, &got));
	/* scrub removes what does not check (the copied entry) and keeps the rest */
	char first[128];
	assert_int_equal(vta_golden_cache_scrub(&c, first, sizeof(first)), 1);
	assert_string_equal(first, strrchr(path, '/') + 1);
	assert_int_not_equal(access(path, F_OK), 0);
	assert_int_equal(access(other_path, F_OK), 0);
	assert_int_equal(vta_golden_cache_scrub(&c, first, sizeof(first)), 0);
	assert_int_equal(vta_golden_cache_store(&c, key, &t, &gs, &err), VTA_OK);
	assert_true(vta_golden_cache_load(&c, key, &u, &got));
	/* a folder that cannot be made */
	vta_golden_cache bad;
	assert_int_equal(vta_golden_cache_open(&bad, "/proc/no/such/folder", &err), VTA_E_IO);
	rt_assert_error(&err, VTA_E_IO, "/proc/no/such/folder: cannot create the folder");
	remove_dir(dir);
}

static void test_pipeline(void **state)
{
	(void)state;
	char dir[64];
	cache_dir(dir, sizeof(dir));
	vta_golden_cache c;
	vta_error err = {0};
	assert_int_equal(vta_golden_cache_open(&c, dir, &err), VTA_OK);
	vta_workload wl;
	assert_int_equal(vta_workload_load("tests/sweep/two_layers.yaml", &wl, &err), VTA_OK);
	vta_layer_run_opts o = {.mode = VTA_ARITH_TFLITE, .threads = 2, .fault_index = -1,
				.golden_cache = &c};
	bool computed = false;
	/* once computed, then read */
	assert_int_equal(vta_layer_golden_prepare(&wl.layers[0], &o, &computed, &err), VTA_OK);
	assert_true(computed);
	assert_int_equal(vta_layer_golden_prepare(&wl.layers[0], &o, &computed, &err), VTA_OK);
	assert_false(computed);
	/* vta16 needs its own and TFLite's (which is there) */
	o.mode = VTA_ARITH_VTA16;
	assert_int_equal(vta_layer_golden_prepare(&wl.layers[0], &o, &computed, &err), VTA_OK);
	assert_true(computed);
	assert_int_equal(vta_layer_golden_prepare(&wl.layers[0], &o, &computed, &err), VTA_OK);
	assert_false(computed);
	/* other content, another entry: the wide layer's filter at 2 bits instead of 3 */
	o.mode = VTA_ARITH_TFLITE;
	vta_wl_layer wide = wl.layers[1];
	assert_int_equal(vta_layer_golden_prepare(&wide, &o, &computed, &err), VTA_OK);
	assert_true(computed);
	wide.filter.index_bitwidth = 2;
	assert_int_equal(vta_layer_golden_prepare(&wide, &o, &computed, &err), VTA_OK);
	assert_true(computed);
	/* a layer run from the cache is bit-exact, in both modes */
	vta_config cfg;
	assert_int_equal(vta_config_load("configs/tiny.yaml", &cfg, &err), VTA_OK);
	vta_ref *ref;
	assert_int_equal(vta_ref_create(&cfg, &ref, &err), VTA_OK);
	for (int m = 0; m < 2; m++) {
		o.mode = m ? VTA_ARITH_VTA16 : VTA_ARITH_TFLITE;
		vta_layer_result r;
		assert_int_equal(vta_layer_run(&cfg, &wl.layers[0], vta_ref_engine(ref), &o, &r, &err),
				 VTA_OK);
		assert_true(r.check.bit_exact);
	}
	vta_ref_destroy(ref);
	vta_workload_free(&wl);
	remove_dir(dir);
}

/* The in-memory cache's fast keys: the same bytes in any pieces give the same key, one byte
 * or the length changed gives another. */
static void test_fast_keys(void **state)
{
	(void)state;
	uint8_t data[1000];
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 31 + 7);
	char whole[VTA_SHA256_HEX], pieces[VTA_SHA256_HEX], other[VTA_SHA256_HEX];
	vta_golden_key k;
	vta_golden_key_init(&k, 1);
	vta_golden_key_update(&k, data, sizeof(data));
	vta_golden_key_final_hex(&k, whole);
	assert_int_equal(strlen(whole), 32);
	vta_golden_key_init(&k, 1);
	for (size_t i = 0, step = 1; i < sizeof(data); i += step, step = step * 3 % 37 + 1)
		vta_golden_key_update(&k, data + i, i + step > sizeof(data) ? sizeof(data) - i : step);
	vta_golden_key_final_hex(&k, pieces);
	assert_string_equal(whole, pieces);
	for (size_t at = 0; at < sizeof(data); at += 333) {
		data[at] ^= 1;
		vta_golden_key_init(&k, 1);
		vta_golden_key_update(&k, data, sizeof(data));
		vta_golden_key_final_hex(&k, other);
		assert_string_not_equal(whole, other);
		data[at] ^= 1;
	}
	vta_golden_key_init(&k, 1);
	vta_golden_key_update(&k, data, sizeof(data) - 1);
	vta_golden_key_final_hex(&k, other);
	assert_string_not_equal(whole, other);
	/* the SHA-256 kind is the plain digest */
	vta_golden_key_init(&k, 0);
	vta_golden_key_update(&k, "abc", 3);
	vta_golden_key_final_hex(&k, other);
	assert_string_equal(other,
			    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

/* In memory: a layer's golden is computed once per mode and content, then reused, and the
 * counters and the layer's result say so; a run from the cache is bit-exact. */
static void test_memory(void **state)
{
	(void)state;
	vta_golden_cache c;
	vta_golden_cache_memory(&c);
	assert_true(vta_golden_cache_fast_keys(&c));
	vta_error err = {0};
	vta_workload wl;
	assert_int_equal(vta_workload_load("tests/sweep/two_layers.yaml", &wl, &err), VTA_OK);
	vta_layer_run_opts o = {.mode = VTA_ARITH_TFLITE, .threads = 2, .fault_index = -1,
				.golden_cache = &c};
	bool computed = false;
	assert_int_equal(vta_layer_golden_prepare(&wl.layers[0], &o, &computed, &err), VTA_OK);
	assert_true(computed);
	assert_int_equal(vta_layer_golden_prepare(&wl.layers[0], &o, &computed, &err), VTA_OK);
	assert_false(computed);
	assert_int_equal(c.computed, 1);
	assert_int_equal(c.reused, 1);
	/* vta16: its own computed, TFLite's reused */
	o.mode = VTA_ARITH_VTA16;
	assert_int_equal(vta_layer_golden_prepare(&wl.layers[0], &o, &computed, &err), VTA_OK);
	assert_true(computed);
	assert_int_equal(c.computed, 2);
	assert_int_equal(c.reused, 2);
	/* other content, another entry */
	o.mode = VTA_ARITH_TFLITE;
	vta_wl_layer wide = wl.layers[1];
	assert_int_equal(vta_layer_golden_prepare(&wide, &o, &computed, &err), VTA_OK);
	assert_true(computed);
	wide.filter.index_bitwidth = 2;
	assert_int_equal(vta_layer_golden_prepare(&wide, &o, &computed, &err), VTA_OK);
	assert_true(computed);
	assert_int_equal(c.computed, 4);
	assert_int_equal(c.n_entries, 4);
	/* runs with 1 and 2 threads: both reuse, both bit-exact */
	vta_config cfg;
	assert_int_equal(vta_config_load("configs/tiny.yaml", &cfg, &err), VTA_OK);
	vta_ref *ref;
	assert_int_equal(vta_ref_create(&cfg, &ref, &err), VTA_OK);
	for (unsigned t = 1; t <= 2; t++) {
		o.threads = t;
		vta_layer_result r;
		assert_int_equal(vta_layer_run(&cfg, &wl.layers[0], vta_ref_engine(ref), &o, &r, &err),
				 VTA_OK);
		assert_true(r.check.bit_exact);
		assert_true(r.golden_reused);
	}
	assert_int_equal(c.computed, 4);
	assert_int_equal(c.reused, 4);
	/* without a cache nothing is reused */
	o.golden_cache = NULL;
	vta_layer_result r;
	assert_int_equal(vta_layer_run(&cfg, &wl.layers[0], vta_ref_engine(ref), &o, &r, &err),
			 VTA_OK);
	assert_false(r.golden_reused);
	vta_ref_destroy(ref);
	vta_workload_free(&wl);
	vta_golden_cache_close(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sha256_vectors),
		cmocka_unit_test(test_entries),
		cmocka_unit_test(test_pipeline),
		cmocka_unit_test(test_fast_keys),
		cmocka_unit_test(test_memory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
