/*
 * run_report.h - the report of `vtasim run`: per layer and in total, as text and as JSON.
 * The JSON keys are a contract (docs/cli.md lists them): extend, never rename.
 */
#ifndef VTASIM_RUN_REPORT_H
#define VTASIM_RUN_REPORT_H

#include <stdio.h>

#include "emit_layer.h"
#include "golden.h"
#include "lut.h"
#include "quant.h"
#include "report.h"
#include "vta_config.h"
#include "vtasim_api.h"
#include "workload.h"

typedef struct run_layer_result {
	char name[64];
	vta_wl_op op;
	int32_t out_shape[4];
	int timed;                 /* stats come from the SystemC model */
	vtasim_stats stats;
	vta_layer_counters counters;
	char plan[192];
	size_t insns;
	vta_compare check;         /* against the golden kernel of the run's mode */
	vta_compare vs_tflite;     /* vta16 only: distance from TFLite's arithmetic */
	int has_vs_tflite;
	uint64_t alu_overflows, acc_overflows;
	int has_lut;
	uint64_t compressed_bytes, decompressed_bytes;
	uint64_t input_bytes;      /* activation inputs (not constants) */
	vta_lut_bin_report binning;
	double golden_seconds, emit_seconds;
} run_layer_result;

typedef struct run_report {
	const vta_config *cfg;
	const char *workload;
	vta_arith_mode mode;
	unsigned threads;
	const char *engine;
	const run_layer_result *layers;
	size_t n_layers;
	double wall_seconds;
} run_report;

/* The roofline of a layer: useful MACs at the GEMM core's peak, and the layer's tensors
 * (input, constants, output) crossing the DRAM port once. */
report_roofline run_layer_roofline(const vta_config *cfg, const run_layer_result *r);

void run_report_text(FILE *out, const run_report *rep);
int run_report_write_json(const run_report *rep, const char *path);

#endif /* VTASIM_RUN_REPORT_H */
