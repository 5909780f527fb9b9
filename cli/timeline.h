/*
 * timeline.h - inside the timeline picture (`--timeline`): what trace_timeline.c collects
 * from the walk's steps and timeline_plot.c draws. Private to those two files.
 */
#ifndef VTASIM_TIMELINE_H
#define VTASIM_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#include "trace_walk.h"

/* What a span of a lane shows: an instruction by kind, or a stall by cause. */
enum {
	K_FETCH,        /* FETCH reads a burst of instructions */
	K_LOAD,         /* LOAD's loads (inp, wgt) */
	K_LOAD_COMPUTE, /* COMPUTE's loads (uop, acc, LUT tables) */
	K_GEMM,
	K_ALU,
	K_STORE,
	K_OTHER,      /* nop, finish, an instruction that does not decode */
	K_WAIT_TOKEN, /* for a token to pop */
	K_WAIT_PORT,  /* for the DRAM port */
	K_WAIT_ROOM,  /* for room in a token queue (FETCH: in an instruction queue) */
	K_COUNT
};

#define TL_LANES VTA_STATS_MODULES
#define TL_DETAIL_MAX 4000 /* spans (and, apart, arrows) drawn one by one, at most */
#define TL_BINS 600        /* the summary's columns */
#define TL_TEXT 120        /* bytes of a tooltip or a run's name kept */

typedef struct tl_span {
	uint64_t start, end; /* on the time axis */
	uint8_t lane, kind, nested;
	size_t text;   /* the tooltip (an instruction's): index into texts, or 0 for none */
	char label[24]; /* written on the box when it fits: "4 gemm", "3 waits l2g" */
} tl_span;

typedef struct tl_arrow {
	uint64_t from, to;
	uint8_t lane_from, lane_to, queue;
} tl_arrow;

typedef struct tl_tokens {
	uint64_t t;
	long n[VTA_QUEUE_COUNT];
} tl_tokens;

typedef struct tl_burst {
	uint64_t start, end, bytes;
	uint8_t write;
} tl_burst;

typedef struct tl_run {
	uint64_t start, end;
	char name[TL_TEXT];
	char stopped[TL_TEXT]; /* why it failed, or "" */
} tl_run;

/* One summary column: cycles per lane in each state, most tokens per queue, DRAM bytes. */
typedef struct tl_bin {
	double cycles[TL_LANES][K_COUNT];
	long tokens[VTA_QUEUE_COUNT];
	double read_bytes, write_bytes;
} tl_bin;

/* A growable array of n items of `size` bytes. */
typedef struct tl_vec {
	void *items;
	size_t n, cap;
} tl_vec;

struct trace_timeline {
	char title[TL_TEXT * 2];
	uint64_t from, to; /* the window; to == 0: up to the end of the runs */
	uint64_t end;      /* the end of the last run */
	int failed;        /* out of memory */
	/* detail, each kind dropped (its _over set) once it would exceed its bound: the lanes
	 * then show the summary, the token and DRAM tracks their columns */
	tl_vec spans, arrows, tokens, bursts, texts;
	int spans_over, arrows_over, tokens_over, bursts_over;
	size_t insns;        /* instructions executing in the window */
	size_t insns_runs;   /* instructions of the runs the window shows */
	size_t arrows_total; /* tokens handed over in the window */
	tl_vec runs;
	size_t runs_in_window;
	/* summary */
	tl_bin *bins;
	uint64_t bin_width;
	long tok_now[VTA_QUEUE_COUNT];
	uint64_t tok_since;
	long tok_before[VTA_QUEUE_COUNT]; /* the tokens as the window opens */
};

/* Write the script of t's picture into `path` (svg when it ends ".svg", else png) and run
 * gnuplot on it: VTA_E_IO naming gnuplot's first complaint, or it missing. */
vta_status timeline_plot(const trace_timeline *t, const char *path, vta_error *err);

#endif /* VTASIM_TIMELINE_H */
