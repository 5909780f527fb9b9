/*
 * sim_testutil.h - helpers shared by the simulator tests: assemble a program, run it on
 * the SystemC model and on the reference executor (over a copy of the same DRAM), and
 * compare every SRAM and the DRAM.
 */
#ifndef SIM_TESTUTIL_H
#define SIM_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>

#include "vta_config.h"
#include "vta_dram.h"
#include "vta_program.h"
#include "vta_ref.h"
#include "vtasim_api.h"

#define SIMT_DRAM_BYTES (1u << 20)

typedef struct simt {
	vta_config cfg;
	vtasim_sim *sim;
	vta_ref *ref;
} simt;

/* Create the model (once per process) and a reference executor for cfg. */
void simt_init(simt *t, const vta_config *cfg);
void simt_fini(simt *t);

/* Assemble text into prog (fails the test on an assembly error). */
void simt_asm(const simt *t, const char *text, vta_program *prog);

/* A zeroed DRAM of SIMT_DRAM_BYTES with prog's segments placed. */
void simt_dram(const vta_program *prog, vta_dram *dram);

/* Run prog on the model over dram and on the reference over a copy. The statuses must be
 * equal; on VTA_OK every SRAM and the whole DRAM must be equal too. Returns the model's
 * status; stats/err may be NULL. ref_err receives the reference's error if not NULL. */
vta_status simt_run_both(simt *t, const vta_program *prog, vta_dram *dram, vta_run_stats *stats,
			 vta_error *err, vta_error *ref_err);

/* Assemble, place, run both, free. */
vta_status simt_run_text(simt *t, const char *text, vta_run_stats *stats, vta_error *err,
			 vta_error *ref_err);

/* Assemble text and add a DATA segment of n seeded random bytes at addr. */
void simt_asm_random(const simt *t, const char *text, uint64_t addr, uint32_t n, uint32_t seed,
		     vta_program *prog);

/* A small deterministic generator (xorshift32); *s must not be 0. */
uint32_t simt_rand(uint32_t *s);

/* Fail unless detail contains every NULL-terminated needle. */
void simt_expect_detail(const char *detail, ...);

#endif /* SIM_TESTUTIL_H */
