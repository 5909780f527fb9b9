/*
 * emit_test.h - helpers for the emitter tests: cmocka includes, configs, random tensors,
 * and "emit -> run on the reference executor -> read back -> compare with the golden".
 */
#ifndef EMIT_TEST_H
#define EMIT_TEST_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_add.h"
#include "emit_conv2d.h"
#include "golden.h"
#include "lut.h"
#include "vta_config.h"
#include "vta_dram.h"
#include "vta_ref.h"
#include "vta_stream.h"

/* The call failed with `st_expected` and a detail containing `needle`. */
#define et_assert_error(err, st_expected, needle)                                            \
	do {                                                                                \
		if ((err)->status != (st_expected) || !strstr((err)->detail, (needle))) {  \
			print_error("status %d (want %d), detail \"%s\" (want \"%s\")\n",  \
				    (int)(err)->status, (int)(st_expected), (err)->detail,   \
				    (needle));                                               \
			fail();                                                             \
		}                                                                           \
	} while (0)

#define et_assert_ok(st, err)                                                                \
	do {                                                                                \
		if ((st) != VTA_OK) {                                                       \
			print_error("status %d: %s\n", (int)(st), (err)->detail);           \
			fail();                                                             \
		}                                                                           \
	} while (0)

typedef struct et_rng {
	uint64_t s;
} et_rng;

static inline void et_seed(et_rng *r, uint64_t seed)
{
	r->s = seed * 0x9e3779b97f4a7c15ull + 0x2545f4914f6cdd1dull;
	if (r->s == 0)
		r->s = 1;
}

static inline uint64_t et_next(et_rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545f4914f6cdd1dull;
}

static inline int32_t et_range(et_rng *r, int32_t lo, int32_t hi)
{
	return lo + (int32_t)(et_next(r) % (uint64_t)((int64_t)hi - lo + 1));
}

static inline double et_uniform(et_rng *r, double lo, double hi)
{
	return lo + (hi - lo) * (double)(et_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

static inline void et_config(const char *name, vta_config *cfg)
{
	char path[256];
	vta_error err = {0};
	snprintf(path, sizeof(path), "configs/%s.yaml", name);
	vta_status st = vta_config_load(path, cfg, &err);
	et_assert_ok(st, &err);
}

/* A tensor with random data (caller frees t->data). */
static inline void et_tensor(et_rng *r, vta_tensor_i8 *t, int32_t n, int32_t h, int32_t w,
			     int32_t c, float scale, int32_t zp)
{
	t->shape[0] = n;
	t->shape[1] = h;
	t->shape[2] = w;
	t->shape[3] = c;
	t->scale = scale;
	t->zero_point = zp;
	size_t cnt = (size_t)n * h * w * c;
	t->data = malloc(cnt ? cnt : 1);
	assert_non_null(t->data);
	for (size_t i = 0; i < cnt; i++)
		t->data[i] = (int8_t)et_range(r, -128, 127);
}

/* Run ls on a fresh reference executor over dram; VTA_OK or the executor's error. */
static inline vta_status et_run(const vta_config *cfg, const vta_layer_stream *ls,
				vta_dram *dram, vta_ref_counters *ctr, vta_error *err)
{
	vta_ref *ref = NULL;
	vta_status st = vta_ref_create(cfg, &ref, err);
	if (st == VTA_OK)
		st = vta_dram_place_segments(dram, &ls->prog, err);
	if (st == VTA_OK)
		st = vta_ref_run(ref, &ls->prog, dram, err);
	if (st == VTA_OK && ctr)
		*ctr = *vta_ref_counters_get(ref);
	vta_ref_destroy(ref);
	return st;
}

/* Compare the emitted layer's output with `expected`, every element. */
static inline void et_check_output(const vta_layer_stream *ls, const vta_dram *dram,
				   const vta_tensor_i8 *expected, const char *what)
{
	size_t n = vta_tensor_i8_count(expected);
	vta_tensor_i8 got = *expected;
	got.data = malloc(n);
	assert_non_null(got.data);
	vta_error err = {0};
	vta_status st = vta_layer_read_output(ls, dram, got.data, n, &err);
	et_assert_ok(st, &err);
	vta_compare cmp;
	st = vta_golden_compare(expected, &got, &cmp, &err);
	et_assert_ok(st, &err);
	if (!cmp.bit_exact) {
		print_error("%s: %zu of %zu elements differ; first at %zu [%d,%d,%d,%d]: "
			    "expected %d got %d (plan: %s)\n",
			    what, cmp.mismatches, cmp.count, cmp.first_index,
			    (int)cmp.first_nhwc[0], (int)cmp.first_nhwc[1], (int)cmp.first_nhwc[2],
			    (int)cmp.first_nhwc[3], (int)cmp.expected, (int)cmp.got, ls->plan);
		free(got.data);
		fail();
	}
	free(got.data);
}

#endif /* EMIT_TEST_H */
