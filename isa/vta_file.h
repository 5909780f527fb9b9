/*
 * vta_file.h - opening and reading input files within a size limit, and the limits of every
 * input vtasim reads, written once (docs/robustness.md lists them with the reasons).
 *
 * An input is a regular file, whose size is checked against its limit before anything is
 * read or allocated, or a pipe, read up to its limit and refused beyond it. Anything else
 * (a directory, /dev/zero or another device, a socket) cannot be bounded and is refused at
 * once with VTA_E_IO. Errors are "FILE: problem" (file names are escaped by vta_fail, not cut).
 */
#ifndef VTA_FILE_H
#define VTA_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The limits. A stream's instructions and micro-ops are bounded by its file's. */
#define VTA_LIMIT_PROGRAM (64ull << 20)  /* a stream file or an assembly text */
#define VTA_LIMIT_YAML (4ull << 20)      /* configs, workloads, LUT specs, sweeps, cases */
#define VTA_LIMIT_YAML_DEPTH 64          /* nesting of YAML collections */
#define VTA_LIMIT_NPY (1ull << 30)       /* a .npy file, header and data */
#define VTA_LIMIT_TFLITE (1ull << 30)    /* a .tflite model */
#define VTA_LIMIT_SCRIPT (1ull << 20)    /* a debugger script */
#define VTA_LIMIT_JSON (64ull << 20)     /* a JSON report or record read back (regress, sweep) */
#define VTA_LIMIT_EXPECTED (4ull << 30)  /* a regression case's expected output: a DRAM region */

/* Open `path` for reading as an input of at most `limit` bytes; `what` names it in errors
 * ("program", "YAML file"). *size is the file's size, or UINT64_MAX for a pipe, which the
 * caller must stop reading after `limit` bytes. */
vta_status vta_file_open(const char *path, const char *what, uint64_t limit, FILE **f,
			 uint64_t *size, vta_error *err);

/* Read a whole input of at most `limit` bytes into a malloc'd buffer (freed by the caller;
 * one spare byte after the data holds 0, so text can be used as a string). */
vta_status vta_read_file(const char *path, const char *what, uint64_t limit, uint8_t **out,
			 size_t *out_len, vta_error *err);

/* The error of an input beyond its limit, shared by the readers that stream a file. */
vta_status vta_file_too_big(const char *path, const char *what, uint64_t limit,
			    vta_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VTA_FILE_H */
