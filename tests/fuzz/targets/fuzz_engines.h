/*
 * fuzz_engines.h - one stream on both engines, judged: the stream checks (vta_race_check)
 * first, then the reference executor and the SystemC model from the same DRAM, then their
 * results compared (status, DRAM, the SRAMs both keep). Used by the SystemC fuzz target and
 * the mutated-stream campaign.
 *
 * What must hold: every error is one clean line. Two engines may report different problems
 * of a broken stream (whichever module reaches its bad instruction first depends on
 * timing), and a stream with a race may end differently on each (the order of unordered
 * accesses is timing's choice). A disagreement on a stream the checks find race-free (one
 * engine completes and the other fails, or both complete with different memories) is a
 * bug of an engine or of the checks. A cycle budget that runs out on the model only is no
 * disagreement: the reference executor counts no time.
 */
#ifndef FUZZ_ENGINES_H
#define FUZZ_ENGINES_H

#include "fuzz_contract.h"
#include "vta_dram.h"
#include "vta_program.h"
#include "vta_race.h"
#include "vta_ref.h"
#include "vtasim_api.h"

typedef enum fuzz_outcome {
	FUZZ_NOT_PLACED = 0,  /* the segments do not fit DRAM: nothing ran */
	FUZZ_BOTH_OK,         /* both completed, same memories */
	FUZZ_BOTH_FAIL_SAME,  /* both failed with the same status */
	FUZZ_BOTH_FAIL_OTHER, /* both failed, with different statuses */
	FUZZ_BUDGET,          /* the model ran out of cycles (or both did), not compared */
	FUZZ_DIFF_STATUS,     /* one completed, the other failed */
	FUZZ_DIFF_MEMORY,     /* both completed, memories differ */
	FUZZ_OUTCOMES
} fuzz_outcome;

static const char *const fuzz_outcome_names[FUZZ_OUTCOMES] = {
	"segments do not fit DRAM", "both complete, same memories",
	"both fail, same status", "both fail, other statuses", "model out of cycles",
	"one completes, one fails", "both complete, memories differ"};

typedef struct fuzz_verdict {
	fuzz_outcome outcome;
	vta_status checks, ref, sim;   /* the stream checks' and each engine's status */
	bool checked;                  /* the checks reached a verdict */
	vta_error ref_err, sim_err, check_err;
	char where[96];                /* first memory difference */
} fuzz_verdict;

static inline bool fuzz_disagree(const fuzz_verdict *v)
{
	return v->outcome == FUZZ_DIFF_STATUS || v->outcome == FUZZ_DIFF_MEMORY;
}

/* The checks found a race or a read of unwritten rows: a disagreement is explained. */
static inline bool fuzz_racy(const fuzz_verdict *v)
{
	return v->checks == VTA_E_RACE || v->checks == VTA_E_UNINIT;
}

static inline bool fuzz_budget_error(vta_status st, const vta_error *e)
{
	return st == VTA_E_NO_FINISH && strstr(e->detail, "budget");
}

/* Run prog from DRAM holding image (may be NULL) with the program's segments placed. */
static inline void fuzz_run_engines(const vta_config *cfg, vta_ref *ref, vtasim_sim *sim,
				    const vta_program *prog, const uint8_t *image,
				    size_t image_len, fuzz_verdict *v)
{
	memset(v, 0, sizeof(*v));
	vta_dram d1 = {0}, d2 = {0};
	vta_error err = {0};
	uint64_t bytes = (uint64_t)cfg->dram_size_mib << 20;
	if (vta_dram_init(&d1, bytes, &err) || vta_dram_init(&d2, bytes, &err))
		fuzz_die("no DRAM", err.detail);
	if (image)
		memcpy(d1.bytes, image, image_len < bytes ? image_len : bytes);
	vta_status st = vta_dram_place_segments(&d1, prog, &err);
	fuzz_expect(st, &err);
	if (st != VTA_OK) {
		v->outcome = FUZZ_NOT_PLACED;
		goto out;
	}
	memcpy(d2.bytes, d1.bytes, bytes);

	vta_race_report rep;
	v->checks = vta_race_check(cfg, prog, &d1, NULL, &rep, &v->check_err);
	fuzz_expect(v->checks, &v->check_err);
	v->checked = rep.checked;

	v->ref = vta_ref_run(ref, prog, &d1, &v->ref_err);
	fuzz_expect(v->ref, &v->ref_err);
	vta_run_stats stats;
	v->sim = vtasim_sim_run(sim, prog, &d2, &stats, &v->sim_err);
	fuzz_expect(v->sim, &v->sim_err);

	if (fuzz_budget_error(v->sim, &v->sim_err)) {
		v->outcome = FUZZ_BUDGET;
	} else if (v->ref && v->sim) {
		v->outcome = v->ref == v->sim ? FUZZ_BOTH_FAIL_SAME : FUZZ_BOTH_FAIL_OTHER;
	} else if (v->ref || v->sim) {
		v->outcome = FUZZ_DIFF_STATUS;
	} else {
		v->outcome = FUZZ_BOTH_OK;
		for (uint64_t i = 0; i < bytes; i++)
			if (d1.bytes[i] != d2.bytes[i]) {
				snprintf(v->where, sizeof(v->where), "DRAM 0x%llx",
					 (unsigned long long)i);
				v->outcome = FUZZ_DIFF_MEMORY;
				break;
			}
		static const vta_mem mems[] = {VTA_MEM_UOP, VTA_MEM_WGT, VTA_MEM_INP, VTA_MEM_ACC,
					       VTA_MEM_OUT};
		static const char *const names[] = {"UOP", "WGT", "INP", "ACC", "OUT"};
		for (size_t m = 0; m < 5 && v->outcome == FUZZ_BOTH_OK; m++) {
			size_t rn = 0;
			uint64_t sn = 0;
			const uint8_t *a = vta_ref_sram(ref, mems[m], &rn);
			const uint8_t *b = vtasim_sim_sram(sim, mems[m], &sn);
			if (!a || !b || rn != sn)
				fuzz_die("the engines' SRAMs differ in size", names[m]);
			for (size_t i = 0; i < rn; i++)
				if (a[i] != b[i]) {
					snprintf(v->where, sizeof(v->where), "%s byte %zu", names[m],
						 i);
					v->outcome = FUZZ_DIFF_MEMORY;
					break;
				}
		}
	}
out:
	vta_dram_free(&d1);
	vta_dram_free(&d2);
}

#endif /* FUZZ_ENGINES_H */
