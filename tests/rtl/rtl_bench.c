/*
 * rtl_bench.c - throughput of the verilated datapath units, as tables: LUT decoder cycles per
 * index for every built variant and bit width (the figure behind the config's
 * decompressor.indices_per_cycle), and the COMPUTE arrays' clocks per uop and host time per
 * uop on the default shape (what `datapath: rtl` costs the model).
 *
 *   rtl_bench [--vcd FILE]   FILE: a waveform of a short LUT decode (64-bit x 16 decoder)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "datapath.h"
#include "prng.h"
#include "rtl_compute.h"
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

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts); /* CPU time: the machine may be shared */
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* One instruction of n uops on the default shape (1 x 16 x 16): GEMM over n distinct ACC
 * rows, ALU immediate and ALU tensor; clocks and host time per uop. */
static int compute_bench(vta_error *err)
{
	enum { BATCH = 1, BI = 16, BO = 16, ROWS = 64, N = 20000 };
	static int8_t inp[ROWS * BATCH * BI], wgt[ROWS * BO * BI], out[ROWS * BATCH * BO];
	static int32_t acc[ROWS * BATCH * BO];
	vta_prng r;
	vta_prng_seed(&r, 3);
	for (size_t i = 0; i < sizeof(inp); i++)
		inp[i] = (int8_t)vta_prng_next(&r);
	for (size_t i = 0; i < sizeof(wgt); i++)
		wgt[i] = (int8_t)vta_prng_next(&r);
	vta_rtl_compute *c = NULL;
	if (vta_rtl_compute_create(&c, BATCH, BI, BO, err) != VTA_OK)
		return -1;
	vta_rtl_compute_mem mem = {inp, wgt, acc, out};
	static const struct {
		const char *name;
		int alu_op, use_imm;
	} kinds[] = {{"GEMM", -1, 0}, {"ALU imm (ADD)", 2, 1}, {"ALU tensor (ADD)", 2, 0}};
	printf("COMPUTE arrays %ux%ux%u (depth %u): %d uops per instruction\n", BATCH, BI, BO,
	       vta_rtl_compute_depth(c), N);
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		double t0 = now_ns();
		vta_rtl_compute_begin(c, &mem, kinds[k].alu_op, kinds[k].use_imm, 0, 1, 0);
		for (uint32_t u = 0; u < N; u++)
			vta_rtl_compute_uop(c, u % ROWS, (u + 1) % ROWS, u % ROWS, 0);
		uint64_t clocks = vta_rtl_compute_end(c);
		double t = now_ns() - t0;
		printf("  %-18s %.3f clocks per uop, %.0f ns per uop on the host\n", kinds[k].name,
		       (double)clocks / N, t / N);
	}
	/* the C kernel the model runs otherwise, on the same uops, for scale */
	double t0 = now_ns();
	for (uint32_t u = 0; u < N; u++)
		vtasim_gemm_uop(inp + (u + 1) % ROWS * BATCH * BI, wgt + u % ROWS * BO * BI,
				acc + u % ROWS * BATCH * BO, out + u % ROWS * BATCH * BO, BATCH, BI, BO);
	printf("  %-18s %.0f ns per uop on the host (vtasim_gemm_uop, for scale)\n", "GEMM in C",
	       (now_ns() - t0) / N);
	vta_rtl_compute_destroy(c);
	return 0;
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

	if (compute_bench(&err) != 0)
		return fail(&err);

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
