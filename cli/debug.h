/*
 * debug.h - `vtasim debug`: a debugging session over the SystemC model's stepped run
 * (vtasim_api.h "Stepping"). The commands are docs/cli.md's; this header is what the
 * command loop (cmd_debug.c), the command language (debug_cmds.c) and the run control
 * with its breakpoints (debug_run.c) share.
 *
 * A session holds one program and the DRAM image it starts from. Each run (the first at
 * start-up, again at `run` or `restart`) starts from that image and stops at cycle 0;
 * `step` and `continue` advance it, breakpoints stop it. When it ends (FINISH, a failure,
 * a deadlock, the cycle budget) the session says how and keeps what the run left to look
 * at until the next one. Everything is printed to the session's output; a bad command is
 * an error (VTA_E_USAGE, one line), the caller's to print.
 */
#ifndef VTASIM_DEBUG_H
#define VTASIM_DEBUG_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>

#include "vta_config.h"
#include "vta_dram.h"
#include "vta_insn.h"
#include "vta_program.h"
#include "vta_status.h"
#include "vtasim_api.h"

typedef enum debug_bp_kind {
	DEBUG_BP_INSN,   /* instruction `value` starts */
	DEBUG_BP_OP,     /* an instruction of opcode `value` starts */
	DEBUG_BP_MODULE, /* an instruction of module `value` (vta_module) starts */
	DEBUG_BP_CYCLE,  /* the run reaches cycle `value` */
	DEBUG_BP_WATCH   /* an instruction that wrote row `value` of SRAM `mem` ends */
} debug_bp_kind;

typedef struct debug_bp {
	int id;
	debug_bp_kind kind;
	uint64_t value;
	vta_mem mem;
	uint64_t hits;
} debug_bp;

#define DEBUG_MAX_BPS 64
/* Bytes of one command line at most (a longer one is an error, never cut silently). */
#define DEBUG_LINE_MAX 1024

typedef struct debug_session {
	const vta_config *cfg;
	const vta_program *prog;
	const char *program;  /* its file name */
	const char *image;    /* the DRAM image file each run starts from, or NULL */
	vta_insn *insns;      /* the stream decoded, for disassembly and breakpoints */
	vta_dram dram;        /* the run's: the image, then the program's segments */
	vtasim_sim *sim;
	int over;             /* the run has ended; how: */
	vta_status outcome;
	vta_error outcome_err;
	vta_run_stats stats;
	debug_bp bps[DEBUG_MAX_BPS];
	int n_bps, next_id;
	FILE *out;
	/* set (by a SIGINT handler) to interrupt `continue`; may be NULL */
	volatile sig_atomic_t *interrupt;
} debug_session;

/* Open a session on prog (from file `program`) over the DRAM image file `image` (NULL:
 * none), and start its first run. Errors: the image does not load, the model cannot be
 * created, the stream is rejected before launch. */
vta_status debug_open(debug_session *s, const vta_config *cfg, const vta_program *prog,
		      const char *program, const char *image, FILE *out, vta_error *err);
void debug_close(debug_session *s);

/* ----- command lines (debug_script.c) ----- */

/* What debug_read_line found. */
enum { DEBUG_LINE_END = 0, DEBUG_LINE_OK = 1, DEBUG_LINE_TOO_LONG = -1, DEBUG_LINE_NUL = -2 };

/* One line of input into buf (DEBUG_LINE_MAX bytes and a NUL), its line end ("\n", "\r\n")
 * dropped, its bytes added to *total: DEBUG_LINE_OK, DEBUG_LINE_END at the end of input,
 * DEBUG_LINE_TOO_LONG for a longer line (read to its end, or until *total passes limit),
 * DEBUG_LINE_NUL for a line holding a NUL byte (it would cut the command short). */
int debug_read_line(FILE *in, char buf[DEBUG_LINE_MAX + 2], uint64_t *total, uint64_t limit);

/* Run one command line (blank: nothing). *quit is set by `quit`. */
vta_status debug_command(debug_session *s, const char *line, int *quit, vta_error *err);

/* ----- run control (debug_run.c) ----- */

/* Start the run again from the image, stopped at cycle 0. */
vta_status debug_restart(debug_session *s, vta_error *err);
/* Advance: `events` instruction events printing each (step), or, events 0, until a
 * breakpoint or the end (continue). A breakpoint or the run's end stops either. */
vta_status debug_advance(debug_session *s, uint64_t events, vta_error *err);
/* One instruction as "insn N (disassembly)". */
void debug_insn_text(const debug_session *s, uint64_t idx, char *buf, size_t size);
/* A breakpoint as its command wrote it ("op gemm"; a watchpoint "acc 3"), and its kind
 * ("breakpoint", "watchpoint"). */
void debug_bp_text(const debug_bp *b, char *buf, size_t size);
const char *debug_bp_kind_name(const debug_bp *b);

#endif /* VTASIM_DEBUG_H */
