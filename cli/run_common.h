/*
 * run_common.h - what both forms of `vtasim run` (a workload, -w; a model, -m) take alike:
 * the config with its --set values, threads, engine, where LUT constants are decoded, the
 * stream checks' switches, and the --dump folder.
 */
#ifndef CLI_RUN_COMMON_H
#define CLI_RUN_COMMON_H

#include "cli.h"
#include "layer_run.h"
#include "vta_config.h"

typedef struct run_common {
	const char *config;
	unsigned threads;       /* 1 or 2 */
	int use_ref;            /* --engine ref: functional check only */
	const char *decompress; /* hw, host, or NULL: hw when the config has a LUT decoder */
	int strict, no_checks;  /* the stream checks: warnings fail, or no checks at all */
	cli_sets sets;          /* --set KEY=VALUE over the config file */
	uint64_t max_memory;    /* --max-memory: bytes of tensors a run may hold */
} run_common;

/* The options run_common_opt takes (cli_opt entries); each form lists them in its table. */
#define RUN_COMMON_OPTIONS                                                                      \
	{"config", 'c', 'c', "CONFIG", "the hardware config YAML (docs/configs.md)"},            \
		{"threads", 0, 't', "1|2", "virtual threads at most (double buffering); default 2"}, \
		{"engine", 0, 'e', "sim|ref", "the SystemC model (default) or the untimed reference " \
					      "executor (no timing)"},                                \
		{"decompress", 0, 'D', "hw|host",                                                   \
		 "where LUT constants are decoded; default hw with a decoder in the config"},       \
		{"set", 0, 'S', "KEY=VALUE", "override a config key (repeatable)"},                 \
		{"strict", 0, 'X', NULL, "a warning of the stream checks fails the layer"},         \
		{"no-check-races", 0, 'N', NULL, "do not run the stream checks"},                   \
		{"max-memory", 0, 'Y', "SIZE", "bytes of tensors a run may hold (K, M, G, T); default 4G"}

/* Zeroed, two threads, the default memory limit (VTA_MAX_MEMORY_DEFAULT). */
void run_common_init(run_common *o);

/* Take getopt's option c with its argument: -1 when c is not one of RUN_COMMON_OPTIONS,
 * else 0 or a usage error's exit status. */
int run_common_opt(run_common *o, int c, const char *arg);

/* Load the config with its --set values and decide where LUT constants are decoded:
 * 0 or an exit status. */
int run_common_config(const run_common *o, vta_config *cfg, vta_decompress *dec);

/* A usage error naming the key to set when cfg's ALU lacks the ops `mode` computes with
 * (tflite: alu.tflite_ext; vta16: alu.mul), and `instead`, the other way out ("use --mode
 * vta16"): 0 or an exit status. */
int run_common_check_mode(const run_common *o, const vta_config *cfg, vta_arith_mode mode,
			  const char *instead);

/* Make --dump's folder (one that exists already will do): 0 or an exit status. */
int run_common_dump_dir(const char *dir);

/* The file of part i of an output that has several (a waveform per layer or per operator):
 * `path` with ".<i>" before its extension (w.vcd -> w.3.vcd), or at its end. */
void run_common_part_path(const char *path, size_t i, char *out, size_t size);

#endif /* CLI_RUN_COMMON_H */
