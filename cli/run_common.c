/*
 * run_common.c - the options and set-up both forms of `vtasim run` share (run_common.h).
 */
#include "run_common.h"

#include "model_check.h"
#include "vta_text.h"

#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

void run_common_init(run_common *o)
{
	*o = (run_common){.threads = 2, .max_memory = VTA_MAX_MEMORY_DEFAULT};
}

/* "4G", "512M", "64K", "1000": bytes, K, M and G binary (a trailing "iB" or "B" allowed). */
static int parse_size(const char *arg, uint64_t *out)
{
	char *end;
	errno = 0;
	if (arg[0] < '0' || arg[0] > '9')
		return -1;
	unsigned long long v = strtoull(arg, &end, 10);
	unsigned shift = 0;
	switch (*end) {
	case 'K': case 'k': shift = 10; end++; break;
	case 'M': case 'm': shift = 20; end++; break;
	case 'G': case 'g': shift = 30; end++; break;
	case 'T': case 't': shift = 40; end++; break;
	default: break;
	}
	if (shift && *end == 'i')
		end++;
	if (*end == 'B')
		end++;
	if (*end || errno || v == 0 || v > (UINT64_MAX >> shift))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}

int run_common_opt(run_common *o, int c, const char *arg)
{
	switch (c) {
	case 'c': o->config = arg; return 0;
	case 't':
		if (strcmp(arg, "1") && strcmp(arg, "2"))
			return cli_usage_error("--threads '%s': expected 1 or 2", VTA_Q(arg));
		o->threads = (unsigned)(arg[0] - '0');
		return 0;
	case 'e':
		if (!strcmp(arg, "ref"))
			o->use_ref = 1;
		else if (strcmp(arg, "sim"))
			return cli_usage_error("--engine '%s': expected sim or ref", VTA_Q(arg));
		return 0;
	case 'D':
		if (strcmp(arg, "hw") && strcmp(arg, "host"))
			return cli_usage_error("--decompress '%s': expected hw or host",
					       VTA_Q(arg));
		o->decompress = arg;
		return 0;
	case 'S': return cli_sets_add(&o->sets, arg);
	case 'X': o->strict = 1; return 0;
	case 'N': o->no_checks = 1; return 0;
	case 'Y':
		if (parse_size(arg, &o->max_memory))
			return cli_usage_error("--max-memory '%s': expected a size above 0 in "
					       "bytes, or with K, M, G or T (4G)", VTA_Q(arg));
		return 0;
	default: return -1;
	}
}

int run_common_config(const run_common *o, vta_config *cfg, vta_decompress *dec)
{
	int rc = cli_load_config(o->config, &o->sets, cfg);
	if (rc)
		return rc;
	/* LUT constants go through the decoder when there is one, unless asked otherwise */
	*dec = cfg->decomp_enabled ? VTA_DECOMPRESS_HW : VTA_DECOMPRESS_HOST;
	if (o->decompress && !strcmp(o->decompress, "host"))
		*dec = VTA_DECOMPRESS_HOST;
	else if (o->decompress && !cfg->decomp_enabled)
		return cli_usage_error("--decompress hw: the config %s has no LUT decoder "
				       "(decompressor.enabled is false)", VTA_QPATH(o->config));
	return 0;
}

int run_common_check_mode(const run_common *o, const vta_config *cfg, vta_arith_mode mode,
			  const char *instead)
{
	/* what the stream builder would refuse per layer (vta_em_check_mode), said once and
	 * as what to change, before anything runs */
	if (mode == VTA_ARITH_TFLITE && !cfg->alu_tflite_ext)
		return cli_usage_error("--mode tflite requantizes with the ALU ops SRDHM and RSHR, "
				       "which the config %s lacks: set alu.tflite_ext: true (or "
				       "--set alu.tflite_ext=true), or %s", VTA_QPATH(o->config),
				       instead);
	if (mode == VTA_ARITH_VTA16 && !cfg->alu_mul)
		return cli_usage_error("--mode vta16 multiplies with the ALU op MUL, which the config "
				       "%s lacks: set alu.mul: true (or --set alu.mul=true), or %s",
				       VTA_QPATH(o->config), instead);
	return 0;
}

int run_common_dump_dir(const char *dir)
{
	struct stat sb;
	if (mkdir(dir, 0777) != 0 && (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)))
		return cli_usage_error("--dump %s: cannot create the folder", VTA_QPATH(dir));
	return 0;
}

void run_common_part_path(const char *path, size_t i, char *out, size_t size)
{
	const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
	if (dot && (!slash || dot > slash))
		snprintf(out, size, "%.*s.%zu%s", (int)(dot - path), path, i, dot);
	else
		snprintf(out, size, "%s.%zu", path, i);
}
