/*
 * vta_race.h - the stream checks: races between modules and with the end of the run, reads
 * of SRAM rows no ordered write set, tokens left at FINISH, instructions after FINISH
 * (docs/isa.md "Happens-before and races" defines them; docs/cli.md shows how vtasim
 * reports them). A pure pass over the decoded program and the DRAM image it starts from,
 * made before (and whatever) an engine runs it: its verdict is the same on every engine and
 * for every config timing.
 *
 * How (vta_race.c says more): the reference scheduler (vta_sched.h) gives one execution
 * order, and the load and store modules then run on past FINISH as far as their tokens
 * allow. Along that order every instruction gets a vector clock over the three modules and
 * its footprint (vta_footprint.h), over a UOP SRAM image replayed from LOAD UOP and
 * descriptors replayed from table loads. Per row the pass keeps each module's last access,
 * and per module its accesses instruction by instruction (vta_race_log.h), so it finds
 * every racing pair, not one per row; DRAM ranges are compared at the end (only STORE
 * writes DRAM). The cost grows with instructions and the distinct rows each touches (uop
 * executions only for an instruction that finds a problem), never with cycles.
 *
 * A problem is kept once per pair of instructions, space and kind (rows merged into their
 * hull), a read of unwritten rows once per instruction and space.
 */
#ifndef VTA_RACE_H
#define VTA_RACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vta_config.h"
#include "vta_dram.h"
#include "vta_footprint.h"
#include "vta_program.h"
#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum vta_problem_kind {
	/* errors */
	VTA_PROBLEM_RAW = 0, /* the earlier instruction in the stream writes, the later reads */
	VTA_PROBLEM_WAR,     /* the earlier reads, the later writes */
	VTA_PROBLEM_WAW,     /* both write */
	VTA_PROBLEM_END,     /* a LOAD/STORE moving data, not HB before FINISH */
	VTA_PROBLEM_UNINIT,  /* reads rows no write ordered before it wrote (HB, or its own) */
	/* warnings */
	VTA_PROBLEM_TOKENS_LEFT,  /* tokens pushed that no pop HB before FINISH takes */
	VTA_PROBLEM_AFTER_FINISH, /* an instruction after FINISH in the stream */
	VTA_PROBLEM_NEVER_RUNS,   /* an instruction before FINISH that never executes */
	VTA_PROBLEM_KINDS
} vta_problem_kind;

/* "RAW", "WAR", "WAW", "end of run", "uninit", "tokens left", "after FINISH",
 * "never runs". */
const char *vta_problem_kind_name(vta_problem_kind k);

typedef struct vta_problem {
	vta_problem_kind kind;
	/* RAW, WAR, WAW: the two instructions, first < second in the stream. END: the
	 * LOAD/STORE and FINISH. UNINIT: the reader (second too). TOKENS_LEFT: the
	 * instruction that pushes the first token left, and FINISH. AFTER_FINISH: the
	 * instruction and FINISH. NEVER_RUNS: the first instruction of its module before
	 * FINISH that never executes (the one waiting for its tokens when FINISH ends the run),
	 * and FINISH. */
	size_t first, second;
	vta_space space; /* races, END: what the LOAD/STORE writes; UNINIT */
	uint64_t lo, hi; /* rows, entries, slots or DRAM bytes: the hull of the overlap (END:
			    what it writes; UNINIT: the first unwritten row read, hi = lo + 1) */
	uint64_t count;  /* UNINIT: distinct unwritten rows the instruction reads in the space;
			    TOKENS_LEFT: tokens left; NEVER_RUNS: the module's instructions
			    before FINISH that never execute, that one included */
	uint32_t uop, it_out, it_in; /* UNINIT: the uop execution that reads the first one
					(uop VTA_FP_NO_UOP: not a uop) */
	int queue;       /* TOKENS_LEFT: the vta_queue */
	char refused[128]; /* END: why the rules refuse the LOAD/STORE should it execute
			      ("" when they do not): the run then fails there or ends first */
} vta_problem;

/* True for the kinds that are errors. */
static inline bool vta_problem_is_error(vta_problem_kind k)
{
	return k <= VTA_PROBLEM_UNINIT;
}

#define VTA_RACE_SHOWN 10 /* lines kept of errors, and of warnings */

typedef struct vta_race_report {
	/* the checks reached a verdict; false when the scheduler could not run the stream to
	 * FINISH (a deadlock, no FINISH), an instruction is malformed, or an operand rule
	 * refuses one before any problem showed: the engine then reports that (why: skipped) */
	bool checked;
	vta_error skipped;
	uint64_t races;         /* RAW, WAR, WAW and END problems */
	uint64_t uninit_reads;  /* UNINIT problems */
	uint64_t tokens_left;   /* tokens (not queues) left at FINISH */
	uint64_t after_finish;  /* instructions after FINISH */
	uint64_t never_run;     /* instructions before FINISH that never execute */
	uint64_t warnings;      /* warning problems: queues with tokens left, instructions
				   after FINISH, modules with instructions that never run */
	size_t n_errors, n_warnings; /* lines kept below, in the order found */
	char errors[VTA_RACE_SHOWN][VTA_ERROR_DETAIL_MAX];
	char warning_lines[VTA_RACE_SHOWN][VTA_ERROR_DETAIL_MAX];
} vta_race_report;

/* Happens-before as the checks found it, for checks built on it (vta_portable.h): per
 * instruction, its module, its position in that module's order (from 1; 0: it never
 * executes) and per module y the position of y's last instruction that happens before it
 * (its own module's: its position). a happens before b exactly when
 * lclock[a] && lclock[b] && lclock[a] <= vc[b].c[module[a]]. */
typedef struct vta_hb_clock {
	uint32_t c[VTA_MODULE_COUNT];
} vta_hb_clock;

typedef struct vta_hb {
	size_t n;
	uint8_t *module;  /* vta_module */
	uint32_t *lclock;
	vta_hb_clock *vc;
} vta_hb;

bool vta_hb_before(const vta_hb *hb, size_t a, size_t b);
void vta_hb_free(vta_hb *hb);

typedef struct vta_race_opts {
	/* every problem, errors and warnings, in the report's order; NULL: none */
	void (*on_problem)(void *ctx, const vta_problem *p);
	void *ctx;
	/* when not NULL and the checks reach a verdict (rep->checked): the happens-before
	 * relation, which the caller frees with vta_hb_free; zeroed otherwise */
	vta_hb *hb;
} vta_race_opts;

/* Check prog over the DRAM it starts from (segments placed: micro-ops come from there).
 * Returns VTA_OK when no error was found (warnings may have been), VTA_E_RACE or
 * VTA_E_UNINIT (the first problem's) with err holding the first problem's line,
 * VTA_E_UNSUPPORTED when a LOAD UOP reads bytes a STORE ordered before it wrote (the pass
 * knows the DRAM image, not what a STORE writes), VTA_E_NOMEM. rep is always filled; opts
 * may be NULL. */
vta_status vta_race_check(const vta_config *cfg, const vta_program *prog,
			  const vta_dram *dram, const vta_race_opts *opts, vta_race_report *rep,
			  vta_error *err);

/* --strict: the first warning as an error (VTA_E_WARNING, "--strict: <warning> (N
 * warnings)"); VTA_OK when rep has none. */
vta_status vta_race_strict(const vta_race_report *rep, vta_error *err);

/* One problem as a line (as the report keeps them), insns being the decoded program. */
void vta_problem_format(const vta_problem *p, const vta_insn *insns, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* VTA_RACE_H */
