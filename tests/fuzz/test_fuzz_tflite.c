/*
 * test_fuzz_tflite.c - mutation fuzzing of the .tflite reader, its LUT containers, the
 * writer and the compressor. Seeds: the hand-built test model (plain and with both
 * containers), two real models and a real model compressed in each container. Besides the
 * mutations of whole files, the COMPRESSION_METADATA buffer and the DCM headers are mutated
 * alone, so the nested flatbuffer and the decode parameters see most of the damage. Each
 * call must return VTA_OK or one error line; a model that reads must decode, rewrite and
 * read back; the test model's mutants that read are also compressed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_mutate.h"
#include "tfl_runmodel.h"
#include "tfl_testmodel.h"
#include "tflite_compress.h"
#include "tflite_write.h"
#include "vta_program.h" /* vta_read_file */

#define ITERATIONS 600

/* How many mutants got how far: some must read, rewrite and compress, or the fuzzing only
 * scratches the surface. */
static struct { size_t tried, read, written, compressed; } reached;

static void expect_status(vta_status st, const vta_error *err)
{
	if (st == VTA_OK)
		return;
	assert_true(err->detail[0] != '\0');
	assert_null(strchr(err->detail, '\n'));
}

static const char spec_text[] =
	"tensors:\n"
	"  - {subgraph: 0, tensor: 4, compression: [{lut: {index_bitwidth: 3}}]}\n"
	"  - {subgraph: 0, tensor: 21, compression: [{lut: {index_bitwidth: 2}}]}\n"
	"  - {subgraph: 0, tensor: 25, compression: [{lut: {index_bitwidth: 2}}]}\n";

/* Everything a model that reads must survive: decoding each LUT tensor, being rewritten
 * and read back, and (compress) being compressed by the spec above. */
static void exercise(uint8_t *bytes, size_t len, bool compress)
{
	vta_tfl_model m;
	vta_error err = {0};
	vta_status st = vta_tfl_model_parse(bytes, len, "fuzz.tflite", &m, &err);
	expect_status(st, &err);
	reached.tried++;
	reached.read += st == VTA_OK;
	if (st != VTA_OK) {
		vta_tfl_model_free(&m);
		return;
	}
	for (size_t i = 0; i < m.n_tensors; i++) {
		const vta_tfl_tensor *t = &m.tensors[i];
		size_t bytes_out = t->count * vta_tfl_type_size(t->type);
		if (t->container == VTA_TFL_PLAIN || bytes_out > (1u << 22))
			continue;
		void *out = malloc(bytes_out ? bytes_out : 1);
		assert_non_null(out);
		vta_error e = {0};
		expect_status(vta_tfl_tensor_decode(t, out, bytes_out, &e), &e);
		free(out);
	}
	uint8_t *w;
	size_t wl;
	vta_error e = {0};
	st = vta_tfl_write(&m, NULL, &w, &wl, &e);
	expect_status(st, &e);
	if (st == VTA_OK) {
		vta_tfl_model back;
		if (vta_tfl_model_parse(w, wl, "rewritten.tflite", &back, &e) != VTA_OK)
			fail_msg("a rewritten model does not read: %s", e.detail);
		assert_int_equal(back.n_tensors, m.n_tensors);
		assert_int_equal(back.n_ops, m.n_ops);
		assert_int_equal(back.n_compressed, m.n_compressed);
		vta_tfl_model_free(&back);
		reached.written++;
	}
	if (compress) {
		vta_lut_spec spec;
		assert_int_equal(vta_lut_spec_parse(spec_text, "spec", &spec, &e), VTA_OK);
		uint8_t *c = NULL;
		size_t cl;
		st = vta_tfl_compress(&m, &spec, "spec", NULL, &c, &cl, NULL, &e);
		expect_status(st, &e);
		reached.compressed += st == VTA_OK;
		free(c);
		vta_lut_spec_free(&spec);
	}
	vta_tfl_model_free(&m);
}

static void fuzz_file(vta_prng *r, const uint8_t *seed, size_t len, int iterations,
		      bool compress)
{
	for (int i = 0; i < iterations; i++) {
		size_t ml;
		uint8_t *m = fuzz_mutate(r, seed, len, &ml);
		exercise(m, ml, compress); /* the model owns m */
	}
}

/* Mutate only bytes [at, at + n) of the seed: flips and random bytes. */
static void fuzz_range(vta_prng *r, const uint8_t *seed, size_t len, size_t at, size_t n,
		       int iterations)
{
	for (int i = 0; i < iterations && n; i++) {
		uint8_t *m = malloc(len);
		assert_non_null(m);
		memcpy(m, seed, len);
		int edits = 1 + (int)vta_prng_range(r, 0, 2);
		for (int k = 0; k < edits; k++) {
			size_t p = at + (size_t)vta_prng_range(r, 0, (int64_t)n - 1);
			if (vta_prng_range(r, 0, 1))
				m[p] ^= (uint8_t)(1u << vta_prng_range(r, 0, 7));
			else
				m[p] = (uint8_t)vta_prng_range(r, 0, 255);
		}
		exercise(m, len, false);
	}
}

static uint8_t *read_all(const char *path, size_t *len)
{
	uint8_t *buf = NULL;
	vta_error err = {0};
	if (vta_read_file(path, "input", UINT64_MAX, &buf, len, &err) != VTA_OK)
		fail_msg("%s", err.detail);
	return buf;
}

static void test_fuzz_test_model(void **state)
{
	(void)state;
	vta_prng r;
	vta_prng_seed(&r, 11);
	for (int z = 0; z < 2; z++) {
		size_t len;
		uint8_t *seed = tm_build(z, TM_OK, &len);
		assert_non_null(seed);
		fuzz_file(&r, seed, len, 2 * ITERATIONS, !z);
		free(seed);
	}
	/* the runnable model: a DECODE with two pairs, an int32 LUT constant, a rank-0 tensor */
	size_t len;
	uint8_t *seed = tr_build(true, TR_OK, &len);
	assert_non_null(seed);
	fuzz_file(&r, seed, len, ITERATIONS, false);
	free(seed);
}

static void test_fuzz_real_models(void **state)
{
	(void)state;
	const char *seeds[] = {"tests/model/data/simple_add_model.tflite",
			       "tests/model/data/micro_speech_quantized.tflite"};
	vta_prng r;
	vta_prng_seed(&r, 12);
	for (size_t s = 0; s < 2; s++) {
		size_t len;
		uint8_t *seed = read_all(seeds[s], &len);
		fuzz_file(&r, seed, len, ITERATIONS, false);
		free(seed);
	}
}

/* The compression containers alone: the metadata flatbuffer and the DCM headers of the
 * test model, and of micro_speech compressed in each container. */
static void fuzz_containers(vta_prng *r, const uint8_t *seed, size_t len)
{
	uint8_t *copy = malloc(len);
	assert_non_null(copy);
	memcpy(copy, seed, len);
	vta_tfl_model m;
	vta_error err = {0};
	if (vta_tfl_model_parse(copy, len, "seed", &m, &err) != VTA_OK)
		fail_msg("%s", err.detail);
	for (size_t i = 0; i < m.n_metadata; i++) {
		const vta_tfl_buffer *b = &m.buffers[m.metadata[i].buffer];
		if (!strcmp(m.metadata[i].name, "COMPRESSION_METADATA"))
			fuzz_range(r, seed, len, (size_t)(b->data - m.image), b->bytes, ITERATIONS);
	}
	for (size_t i = 0; i < m.n_tensors; i++) {
		const vta_tfl_tensor *t = &m.tensors[i];
		if (t->container == VTA_TFL_DECODE) {
			const vta_tfl_tensor *a = &m.tensors[t->lut_tables];
			fuzz_range(r, seed, len, (size_t)(a->data - m.image), 16, ITERATIONS / 4);
		}
	}
	vta_tfl_model_free(&m);
}

static void test_fuzz_containers(void **state)
{
	(void)state;
	vta_prng r;
	vta_prng_seed(&r, 13);
	size_t len;
	uint8_t *seed = tm_build(true, TM_OK, &len);
	fuzz_containers(&r, seed, len);
	free(seed);

	vta_tfl_model m;
	vta_error err = {0};
	assert_int_equal(vta_tfl_model_load("tests/model/data/micro_speech_quantized.tflite", &m,
					    &err), VTA_OK);
	vta_lut_spec spec;
	assert_int_equal(vta_lut_spec_parse("tensors:\n"
					    "  - {subgraph: 0, tensor: 7, compression: [{lut: {index_bitwidth: 4}}]}\n"
					    "  - {subgraph: 0, tensor: 8, compression: [{lut: {index_bitwidth: 3}}]}\n",
					    "spec", &spec, &err), VTA_OK);
	for (int c = 0; c < 2; c++) {
		vta_tfl_compress_options o;
		vta_tfl_compress_defaults(&o);
		o.container = c ? VTA_TFL_METADATA : VTA_TFL_DECODE;
		uint8_t *out;
		if (vta_tfl_compress(&m, &spec, "spec", &o, &out, &len, NULL, &err) != VTA_OK)
			fail_msg("%s", err.detail);
		fuzz_containers(&r, out, len);
		fuzz_file(&r, out, len, ITERATIONS / 2, false);
		free(out);
	}
	vta_lut_spec_free(&spec);
	vta_tfl_model_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fuzz_test_model),
		cmocka_unit_test(test_fuzz_real_models),
		cmocka_unit_test(test_fuzz_containers),
	};
	int failed = cmocka_run_group_tests(tests, NULL, NULL);
	printf("%zu mutants: %zu read, %zu rewritten, %zu compressed\n", reached.tried,
	       reached.read, reached.written, reached.compressed);
	if (!failed && (!reached.read || !reached.written || !reached.compressed))
		failed = 1;
	return failed;
}
