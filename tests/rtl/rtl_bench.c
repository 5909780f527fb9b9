/*
 * rtl_bench.c - throughput of the verilated datapath units, as tables: LUT decoder cycles per
 * index for every built variant and bit width (the figure behind the config's
 * decompressor.indices_per_cycle), GEMM cycles per uop and ALU cycles per lane.
 *
 *   rtl_bench [--vcd FILE]   FILE: a waveform of a short LUT decode (64-bit x 16 decoder)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prng.h"
#include "rtl_alu.h"
#include "rtl_gemm.h"
#include "rtl_lut.h"

static int fail(const vta_error *err)
{
	fprintf(stderr, "rtl_bench: error: %s\n", err->detail);
	return 1;
}

/* Cycles for one channel of n random indices at width bw. */
static int lut_cycles(vta_rtl_lut *dec, unsigned bw, size_t n, vta_prng *r, uint64_t *cycles,
		      vta_error *err)
{
	size_t ib = (n * bw + 7) / 8, stride = (size_t)1 << bw;
	uint8_t *idx = malloc(ib);
	int8_t *table = malloc(stride), *out = malloc(n);
	int rc = 0;
	if (!idx || !table || !out) {
		rc = -1;
		vta_fail(err, VTA_E_NOMEM, "out of memory");
		goto done;
	}
	for (size_t i = 0; i < ib; i++)
		idx[i] = (uint8_t)vta_prng_next(r);
	for (size_t i = 0; i < stride; i++)
		table[i] = (int8_t)i;
	vta_rtl_lut_job job = {bw, n, 1, false, table, stride, idx, ib, 0};
	vta_rtl_lut_stats st = {0, 0, 0, 0};
	if (vta_rtl_lut_decode(dec, &job, out, n, &st, err) != VTA_OK)
		rc = -1;
	*cycles = st.decode_cycles;
done:
	free(idx);
	free(table);
	free(out);
	return rc;
}

int main(int argc, char **argv)
{
	const char *vcd = NULL;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--vcd") == 0 && i + 1 < argc) {
			vcd = argv[++i];
		} else {
			fprintf(stderr, "rtl_bench: error: unknown argument '%s' "
					"(usage: rtl_bench [--vcd FILE])\n",
				argv[i]);
			return 2;
		}
	}
	vta_error err = {0};
	vta_prng r;
	vta_prng_seed(&r, 1);

	printf("LUT decoder: cycles per index, one channel of 64 x indices_per_cycle x 64 "
	       "indices\n");
	printf("%-16s", "words x lanes");
	for (unsigned bw = 1; bw <= 7; bw++)
		printf("  bw=%u   ", bw);
	printf("\n");
	unsigned variants[8][2];
	size_t nv = vta_rtl_lut_variants(variants, 8);
	for (size_t v = 0; v < nv && v < 8; v++) {
		vta_rtl_lut *dec = NULL;
		if (vta_rtl_lut_create(&dec, variants[v][0], variants[v][1], &err) != VTA_OK)
			return fail(&err);
		char name[32];
		snprintf(name, sizeof(name), "%u x %u", variants[v][0], variants[v][1]);
		printf("%-16s", name);
		size_t n = (size_t)variants[v][1] * 64 * 64;
		for (unsigned bw = 1; bw <= 7; bw++) {
			uint64_t cycles = 0;
			if (lut_cycles(dec, bw, n, &r, &cycles, &err) != 0) {
				vta_rtl_lut_destroy(dec);
				return fail(&err);
			}
			printf("  %.5f", (double)cycles / (double)n);
		}
		printf("\n");
		vta_rtl_lut_destroy(dec);
	}

	unsigned shapes[8][2];
	size_t ns = vta_rtl_gemm_shapes(shapes, 8);
	for (size_t s = 0; s < ns && s < 8; s++) {
		vta_rtl_gemm *g = NULL;
		if (vta_rtl_gemm_create(&g, shapes[s][0], shapes[s][1], &err) != VTA_OK)
			return fail(&err);
		int8_t inp[4 * 16] = {0}, wgt[16 * 16] = {0}, out[4 * 16];
		int32_t acc[4 * 16] = {0};
		uint64_t c0 = vta_rtl_gemm_cycles(g);
		for (int i = 0; i < 1000; i++)
			vta_rtl_gemm_uop(g, inp, wgt, acc, out, 4);
		printf("GEMM core %ux%u: %.2f cycles per uop of 4 rows (latency 2, one row per "
		       "cycle)\n",
		       shapes[s][0], shapes[s][1], (double)(vta_rtl_gemm_cycles(g) - c0) / 1000.0);
		vta_rtl_gemm_destroy(g);
	}

	vta_rtl_alu *alu = NULL;
	if (vta_rtl_alu_create(&alu, &err) != VTA_OK)
		return fail(&err);
	int32_t row[256] = {0};
	int8_t out8[256];
	uint64_t c0 = vta_rtl_alu_cycles(alu);
	vta_rtl_alu_row(alu, 2, row, NULL, 1, out8, 256);
	printf("ALU lane: %.2f cycles per lane (latency 1)\n",
	       (double)(vta_rtl_alu_cycles(alu) - c0) / 256.0);
	vta_rtl_alu_destroy(alu);

	if (vcd) {
		vta_rtl_lut *dec = NULL;
		if (vta_rtl_lut_create(&dec, 64, 16, &err) != VTA_OK)
			return fail(&err);
		uint64_t cycles = 0;
		if (vta_rtl_lut_trace(dec, vcd, &err) != VTA_OK ||
		    lut_cycles(dec, 3, 100, &r, &cycles, &err) != 0) {
			vta_rtl_lut_destroy(dec);
			return fail(&err);
		}
		vta_rtl_lut_destroy(dec);
		printf("wrote %s (a 100-index decode at 3 bits, %llu cycles)\n", vcd,
		       (unsigned long long)cycles);
	}
	return 0;
}
