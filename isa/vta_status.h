/*
 * vta_status.h - status codes and the error record every vtasim library call fills.
 *
 * Libraries never print or abort on bad input: they return a status and write a one-line
 * detail (naming file:line:col or the instruction index) into a caller-owned vta_error.
 * The CLI prints "vtasim: error: <detail>" and maps the status to an exit code.
 */
#ifndef VTA_STATUS_H
#define VTA_STATUS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum vta_status {
	VTA_OK = 0,
	/* Bad input: exit status 2. */
	VTA_E_USAGE,      /* bad command line or API misuse */
	VTA_E_IO,         /* a file could not be read or written */
	VTA_E_CONFIG,     /* hardware config invalid */
	VTA_E_PARSE,      /* YAML / assembly / workload syntax or schema */
	VTA_E_ENCODE,     /* a field value does not fit its instruction field */
	VTA_E_STREAM,     /* malformed binary stream or geometry mismatch */
	VTA_E_DATA,       /* malformed tensor data (LUT bitstring, index, shape) */
	VTA_E_NOMEM,      /* allocation failed */
	/* Simulation found a problem: exit status 1. */
	VTA_E_DEADLOCK,   /* a module waits on a token that can never come */
	VTA_E_OOB,        /* SRAM or DRAM access out of bounds */
	VTA_E_FLAGS,      /* dependency flag illegal for the module */
	VTA_E_HAZARD,     /* ACC write-after-write within the pipeline distance */
	VTA_E_UNSUPPORTED,/* the stream uses an op the config lacks */
	VTA_E_NO_FINISH,  /* the stream ends, or the cycle budget runs out, without FINISH */
	VTA_E_RACE,       /* accesses of two modules, or one and the end of the run, unordered */
	VTA_E_UNINIT,     /* a read of SRAM rows never written in the run */
	VTA_E_WARNING,    /* a warning of the stream checks, made an error (--strict) */
	VTA_E_MISMATCH,   /* simulated output differs from the golden model */
	VTA_E_INTERNAL    /* a bug in vtasim itself */
} vta_status;

#define VTA_ERROR_DETAIL_MAX 512

/* One error: the status plus a one-line human detail. Zero-initialise before use. */
typedef struct vta_error {
	vta_status status;
	char detail[VTA_ERROR_DETAIL_MAX];
} vta_error;

/* Short fixed description of a status ("deadlock", "out of bounds", ...). */
const char *vta_status_str(vta_status status);

/* Exit code the CLI uses for a status: 0 ok, 1 simulation problem, 2 bad input. */
int vta_status_exit_code(vta_status status);

/* Record an error (printf-style detail); returns status so callers can `return vta_fail(...)`.
 * err may be NULL. The detail is escaped as vta_text.h says, so it is always one line;
 * arguments that quote input should still go through vta_quote, which also cuts them. */
vta_status vta_fail(vta_error *err, vta_status status, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;

/* Append printf-style text to buf (size bytes) at *len, never overrunning; *len grows by
 * what the text needed, so once buf is full later appends are dropped. For details built in
 * pieces. */
void vta_appendf(char *buf, size_t size, size_t *len, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;

/* Clear an error record: the status and an empty detail, not the whole detail buffer, so
 * code run per instruction or per micro-op declares a record and clears it rather than
 * zero-initialising its 512 bytes. */
void vta_error_clear(vta_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VTA_STATUS_H */
