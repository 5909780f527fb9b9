/*
 * bench_host.h - the clock and the data generator the benchmarks share.
 */
#ifndef VTASIM_BENCH_HOST_H
#define VTASIM_BENCH_HOST_H

#include <stdint.h>
#include <time.h>

static inline double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* xorshift64*: deterministic data, the same on every run. */
static inline uint64_t rng(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 0x2545f4914f6cdd1dull;
}

#endif /* VTASIM_BENCH_HOST_H */
