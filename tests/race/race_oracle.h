/*
 * race_oracle.h - docs/isa.md "Happens-before and races" stated the slow, obvious way, to
 * hold the stream checks (isa/vta_race.c) to on small streams: the instructions that may
 * execute found by a fixpoint over the tokens, the happens-before graph (program order per
 * module, the k-th push of a queue before its k-th pop) built explicitly and closed by
 * reachability, every pair of instructions compared over their footprints (O(n^2) pairs,
 * rows as bitsets), a read of a row checked against every write ordered before it. It
 * shares only the footprints (isa/vta_footprint.h) and the queue map with the checks, and
 * none of their vector clocks, shadows, schedule or sweep.
 */
#ifndef RACE_ORACLE_H
#define RACE_ORACLE_H

#include <stdbool.h>
#include <stddef.h>

#include "vta_config.h"
#include "vta_dram.h"
#include "vta_program.h"
#include "vta_race.h"

typedef struct oracle_result {
	bool ok;       /* false: FINISH never executes, or a footprint is refused (why) */
	char why[VTA_ERROR_DETAIL_MAX];
	vta_problem *p; /* every problem, in no particular order */
	size_t n, cap;
	size_t errors;  /* problems that are errors */
} oracle_result;

/* Judge prog over dram (segments placed). VTA_E_NOMEM or VTA_OK (see out->ok). */
vta_status oracle_run(const vta_config *cfg, const vta_program *prog, const vta_dram *dram,
		      oracle_result *out);
void oracle_free(oracle_result *r);

/* A total order of problems, to compare two lists as sets. */
int oracle_problem_cmp(const void *a, const void *b);

#endif /* RACE_ORACLE_H */
