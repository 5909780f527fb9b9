/*
 * bench_lut.c - LUT decode throughput: the runtime's decoder (int8 fast paths at widths 2, 3,
 * 4; the generic loop elsewhere) against a plain per-element loop that reads each index one
 * bit at a time, on the same per-channel int8 tensor in the same run.
 *
 * usage: bench_lut [seconds per measurement, default 0.3]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_host.h"
#include "lut.h"

enum { CHANNELS = 64, PER_CHANNEL = 16384, COUNT = CHANNELS * PER_CHANNEL };

/* The baseline: MSB-first bit by bit, channel by division, no tables. */
static void plain_decode(const vta_lut_tensor *t, int8_t *out)
{
	const int8_t *tab = t->value_table;
	size_t epc = t->count / t->channels;
	for (size_t e = 0; e < t->count; e++) {
		unsigned idx = 0;
		for (unsigned b = 0; b < t->bitwidth; b++) {
			size_t bit = e * t->bitwidth + b;
			idx = (idx << 1) | ((t->indices[bit >> 3] >> (7 - (bit & 7))) & 1u);
		}
		out[e] = tab[(e / epc) * t->value_table_stride + idx];
	}
}

/* Repeat fn until `secs` elapse; indices per second. */
static double measure(int fast, const vta_lut_tensor *t, int8_t *out, double secs)
{
	vta_error err = {0};
	long reps = 0;
	double t0 = now(), t1;
	do {
		if (fast) {
			if (vta_lut_decode(t, out, COUNT, &err) != VTA_OK) {
				fprintf(stderr, "bench_lut: %s\n", err.detail);
				exit(1);
			}
		} else {
			plain_decode(t, out);
		}
		reps++;
		t1 = now();
	} while (t1 - t0 < secs);
	return (double)reps * COUNT / (t1 - t0);
}

int main(int argc, char **argv)
{
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	double secs = argc > 1 ? atof(argv[1]) : 0.3;
	if (!(secs > 0))
		secs = 0.3;
	int8_t *a = malloc(COUNT), *b = malloc(COUNT);
	uint8_t *idx = malloc(vta_lut_indices_bytes(COUNT, 7));
	int8_t table[CHANNELS * 128];
	if (!a || !b || !idx)
		return 1;
	for (size_t i = 0; i < sizeof(table); i++)
		table[i] = (int8_t)rng(&seed);

	printf("LUT decode, int8, %d channels x %d elements, channel axis first\n", CHANNELS,
	       PER_CHANNEL);
	printf("%-6s %-8s %16s %16s %7s\n", "width", "path", "decoder Midx/s", "plain Midx/s",
	       "ratio");
	const unsigned widths[] = {2, 3, 4, 1, 5, 7};
	for (size_t k = 0; k < sizeof(widths) / sizeof(widths[0]); k++) {
		unsigned bw = widths[k];
		size_t nbytes = vta_lut_indices_bytes(COUNT, bw);
		for (size_t i = 0; i < nbytes; i++)
			idx[i] = (uint8_t)rng(&seed);
		vta_lut_tensor t = {
			.type = VTA_LUT_INT8, .bitwidth = bw, .count = COUNT, .channels = CHANNELS,
			.value_table = table, .value_table_bytes = CHANNELS * ((size_t)1 << bw),
			.value_table_stride = (size_t)1 << bw, .indices = idx,
			.indices_bytes = nbytes,
		};
		double fast = measure(1, &t, a, secs);
		double plain = measure(0, &t, b, secs);
		if (memcmp(a, b, COUNT) != 0) {
			fprintf(stderr, "bench_lut: decoders disagree at width %u\n", bw);
			return 1;
		}
		printf("%-6u %-8s %16.1f %16.1f %6.1fx\n", bw, bw >= 2 && bw <= 4 ? "fast" : "generic",
		       fast / 1e6, plain / 1e6, fast / plain);
	}
	free(a);
	free(b);
	free(idx);
	return 0;
}
