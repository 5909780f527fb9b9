/*
 * test_model_reuse.c - a model run takes its layers' golden outputs from the all-host
 * reference run only where an op's inputs are the reference's (runtime/model/model_run.h):
 * person_detect on the reference executor, clean, then with one accelerated op's output
 * corrupted in DRAM. That op must fail its own check; every later accelerated op, whose
 * inputs now differ from the reference's, must be checked against a golden output computed
 * on what it was given (so it is bit-exact); and the end-to-end comparison, made op by op as
 * the run goes, must name the corrupted op's output as the first differing tensor. A clean
 * run that frees its intermediate tensors keeps the model's inputs and outputs, the same
 * output, and nothing else.
 */
#include "model_test.h"

#include "model_run.h"
#include "vta_config.h"
#include "vta_ref.h"
#include "vta_rules.h"

/* An engine that runs the reference executor and, on its call number `corrupt`, flips the
 * low bit of every DRAM byte below the end of the stream's stores. */
typedef struct faulty_engine {
	vta_engine base; /* first: the pipeline hands it back */
	vta_engine *inner;
	const vta_config *cfg;
	int calls, corrupt;
} faulty_engine;

static vta_status faulty_run(vta_engine *self, const vta_program *prog, vta_dram *dram,
			     vta_run_stats *stats, vta_error *err)
{
	faulty_engine *f = (faulty_engine *)self;
	vta_status st = f->inner->run(f->inner, prog, dram, stats, err);
	if (st || f->calls++ != f->corrupt)
		return st;
	uint64_t end = 0;
	for (size_t i = 0; i < prog->n_insns; i++) {
		vta_insn insn;
		vta_error e = {0};
		assert_int_equal(vta_program_insn(prog, f->cfg, i, &insn, &e), VTA_OK);
		if (insn.opcode == VTA_OP_STORE && vta_store_dram_end(f->cfg, &insn.mem) > end)
			end = vta_store_dram_end(f->cfg, &insn.mem);
	}
	assert_true(end > 0 && end <= dram->size);
	for (uint64_t a = 0; a < end; a++)
		dram->bytes[a] ^= 1;
	return st;
}

static vta_status run_model(int corrupt, bool free_intermediates, vta_model_run *run)
{
	vta_config cfg;
	vta_error err = {0};
	assert_int_equal(vta_config_load("configs/default.yaml", &cfg, &err), VTA_OK);
	vta_tfl_model m;
	mt_load_file(MT_DATA "person_detect.tflite", &m);
	vta_ref *ref = NULL;
	assert_int_equal(vta_ref_create(&cfg, &ref, &err), VTA_OK);
	faulty_engine f = {.base = *vta_ref_engine(ref), .inner = vta_ref_engine(ref), .cfg = &cfg,
			   .corrupt = corrupt};
	f.base.run = faulty_run;
	vta_model_run_opts o = {.layer = {.mode = VTA_ARITH_TFLITE, .threads = 1, .fault_index = -1},
				.seed = 1, .free_intermediates = free_intermediates};
	vta_status st = vta_model_run_model(&cfg, &m, &f.base, &o, run, &err);
	if (st && st != VTA_E_MISMATCH)
		fail_msg("%s", err.detail);
	vta_ref_destroy(ref);
	vta_tfl_model_free(&m);
	return st;
}

static void test_clean_run(void **state)
{
	(void)state;
	vta_model_run run, lean;
	assert_int_equal(run_model(-1, false, &run), VTA_OK);
	assert_true(run.bit_exact);
	assert_int_equal(run.tensors_compared, 31);
	assert_int_equal(run.tensors_differing, 0);
	assert_int_equal(run.first_tensor, -1);
	for (size_t i = 0; i < run.n_ops; i++)
		if (run.ops[i].place == VTA_OP_ACCEL)
			assert_true(run.ops[i].layer.check.bit_exact);
	assert_int_equal(run_model(-1, true, &lean), VTA_OK);
	assert_true(lean.bit_exact);
	assert_int_equal(lean.tensors_compared, 31);
	vta_tfl_model m;
	mt_load_file(MT_DATA "person_detect.tflite", &m);
	size_t kept = 0;
	for (size_t t = 0; t < m.n_tensors; t++) {
		bool io = t == (size_t)m.inputs[0] || t == (size_t)m.outputs[0];
		if (io) {
			assert_non_null(lean.values[t]);
			assert_memory_equal(lean.values[t], run.values[t], m.tensors[t].count);
		}
		kept += lean.values[t] != NULL;
	}
	assert_int_equal(kept, 2);
	vta_tfl_model_free(&m);
	vta_model_run_free(&lean);
	vta_model_run_free(&run);
}

static void test_corrupted_op(void **state)
{
	(void)state;
	vta_model_run run;
	/* the third accelerated op: operator 2, a CONV_2D */
	assert_int_equal(run_model(2, false, &run), VTA_E_MISMATCH);
	assert_int_equal(run.ops[2].place, VTA_OP_ACCEL);
	assert_false(run.ops[2].layer.check.bit_exact);
	size_t later = 0;
	for (size_t i = 3; i < run.n_ops; i++)
		if (run.ops[i].place == VTA_OP_ACCEL) {
			if (!run.ops[i].layer.check.bit_exact)
				fail_msg("operator %zu was checked against the reference's golden output "
					 "though its inputs differ", i);
			later++;
		}
	assert_true(later >= 20);
	assert_false(run.bit_exact);
	assert_int_equal(run.first_tensor, run.ops[2].output);
	assert_true(run.tensors_differing >= 2);
	assert_int_equal(run.tensors_compared, 31);
	vta_model_run_free(&run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean_run),
		cmocka_unit_test(test_corrupted_op),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
