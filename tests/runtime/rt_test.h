/*
 * rt_test.h - helpers shared by the runtime tests: cmocka includes in the order cmocka 1.1
 * needs, a tiny deterministic PRNG (xorshift64*), and an assertion on error records.
 */
#ifndef RT_TEST_H
#define RT_TEST_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "vta_status.h"

typedef struct rt_rng {
	uint64_t s;
} rt_rng;

static inline void rt_rng_seed(rt_rng *r, uint64_t seed)
{
	r->s = seed * 0x9e3779b97f4a7c15ull + 0x2545f4914f6cdd1dull;
	if (r->s == 0)
		r->s = 1;
}

static inline uint64_t rt_rng_next(rt_rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545f4914f6cdd1dull;
}

/* Uniform in [0, n) for n >= 1 (the tiny modulo bias does not matter here). */
static inline uint64_t rt_rng_below(rt_rng *r, uint64_t n)
{
	return rt_rng_next(r) % n;
}

static inline int32_t rt_rng_range(rt_rng *r, int32_t lo, int32_t hi)
{
	return lo + (int32_t)rt_rng_below(r, (uint64_t)((int64_t)hi - lo + 1));
}

/* The call failed with `status` and a detail containing `needle`. */
#define rt_assert_error(err, st_expected, needle)                                            \
	do {                                                                                \
		if ((err)->status != (st_expected) || !strstr((err)->detail, (needle))) {  \
			print_error("status %d (want %d), detail \"%s\" (want \"%s\")\n",  \
				    (int)(err)->status, (int)(st_expected), (err)->detail,   \
				    (needle));                                               \
			fail();                                                             \
		}                                                                           \
	} while (0)

#endif /* RT_TEST_H */
