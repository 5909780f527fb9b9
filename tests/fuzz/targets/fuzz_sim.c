/*
 * fuzz_sim.c - binary streams on the SystemC model beside the reference executor
 * (fuzz_engines.h), default config, small cycle budget. Contract: OK or one clean error
 * line from the reader, the stream checks and both engines; the engines never disagree on
 * a stream the checks find free of races and unwritten reads.
 *
 * SystemC elaborates once per process: one model for every input.
 */
#include "fuzz_engines.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static vta_config cfg;
	static vtasim_sim *sim;
	static vta_ref *ref;
	vta_error err = {0};
	if (!sim) {
		fuzz_stream_config(&cfg);
		if (vtasim_sim_create(&cfg, &sim, &err) || vta_ref_create(&cfg, &ref, &err))
			fuzz_die("the engines cannot be created", err.detail);
	}
	vta_program prog;
	vta_status st = vta_program_parse(data, size, &cfg, &prog, &err);
	fuzz_expect(st, &err);
	if (st != VTA_OK)
		return 0;
	fuzz_verdict v;
	fuzz_run_engines(&cfg, ref, sim, &prog, NULL, 0, &v);
	if (fuzz_disagree(&v) && !fuzz_racy(&v)) {
		char why[3 * VTA_ERROR_DETAIL_MAX + 200];
		snprintf(why, sizeof(why), "%s%s%s; checks: %s; reference: %s; model: %s",
			 fuzz_outcome_names[v.outcome], v.where[0] ? " at " : "", v.where,
			 v.checks ? v.check_err.detail : "clean",
			 v.ref ? v.ref_err.detail : "ok", v.sim ? v.sim_err.detail : "ok");
		fuzz_die("the engines disagree on a race-free stream", why);
	}
	vta_program_free(&prog);
	return 0;
}
