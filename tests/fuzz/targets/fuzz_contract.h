/*
 * fuzz_contract.h - what every fuzz target holds a reader to, beyond memory safety: a call
 * returns VTA_OK, or an error whose detail is exactly one non-empty line with no control
 * bytes (what the CLI prints after "vtasim: error: "). A broken contract aborts with the
 * detail, so libFuzzer keeps the input and the replay driver fails.
 *
 * Also the helpers the targets share: the input as a file (the YAML and .npy readers take
 * paths) and a config with a small cycle budget for running accepted streams.
 */
#ifndef FUZZ_CONTRACT_H
#define FUZZ_CONTRACT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vta_config.h"
#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static inline void fuzz_die(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz contract broken: %s: \"", what);
	for (const unsigned char *p = (const unsigned char *)detail; *p; p++)
		fprintf(stderr, *p < 0x20 || *p == 0x7f ? "\\x%02x" : "%c", *p);
	fprintf(stderr, "\"\n");
	abort();
}

static inline void fuzz_require(int cond, const char *what)
{
	if (!cond)
		fuzz_die(what, "");
}

/* The error contract: OK, or one line of detail with no control bytes. */
static inline void fuzz_expect(vta_status st, const vta_error *err)
{
	if (st == VTA_OK)
		return;
	if (!err->detail[0])
		fuzz_die("empty error detail", err->detail);
	if (!memchr(err->detail, '\0', sizeof(err->detail)))
		fuzz_die("unterminated error detail", "");
	for (const unsigned char *p = (const unsigned char *)err->detail; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			fuzz_die("control byte in error detail", err->detail);
}

/* The input as a file, for readers that take a path: one file per process, rewritten for
 * every input (on tmpfs when there is one). Returns its path. */
static inline const char *fuzz_as_file(const uint8_t *data, size_t size, const char *suffix)
{
	static char path[256];
	const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
	snprintf(path, sizeof(path), "%s/vtasim-fuzz-%ld%s", dir, (long)getpid(), suffix);
	FILE *f = fopen(path, "wb");
	fuzz_require(f != NULL, "cannot write the input file");
	fuzz_require(fwrite(data, 1, size, f) == size, "cannot write the input file");
	fclose(f);
	return path;
}

/* A whole file, malloc'd (NULL if it cannot be read): the drivers' own reading, without
 * the readers' limits under test. */
static inline uint8_t *fuzz_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0, got;
	uint8_t *buf = malloc(cap);
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			uint8_t *grown = realloc(buf, cap *= 2);
			if (!grown)
				free(buf);
			buf = grown;
		}
	}
	int bad = ferror(f);
	fclose(f);
	if (bad) {
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

/* The default config on which streams run: a small cycle budget (which also bounds the
 * reference executor's work) and 1 MiB of DRAM, so one input runs in milliseconds. */
static inline void fuzz_stream_config(vta_config *cfg)
{
	vta_config_default(cfg);
	cfg->cycle_budget = 200000;
	cfg->dram_size_mib = 1;
	vta_error err = {0};
	fuzz_require(vta_config_derive(cfg, &err) == VTA_OK, "the fuzz config does not derive");
}

#ifdef __cplusplus
}
#endif

#endif /* FUZZ_CONTRACT_H */
