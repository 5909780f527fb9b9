/*
 * fuzz_model.c - the model runner (vta_model_run_model) on arbitrary .tflite bytes: the model
 * read, then run whole on the tiny config's reference executor, as `vtasim run -m` runs it.
 * Contract: the reader and the run end in OK or one clean error line; never VTA_E_MISMATCH,
 * which would be the accelerator's path differing from the golden kernels or the all-host
 * run on a model the reader and the runner accepted (a bug, not a bad model).
 *
 * Bounded work per input: tensors of at most 256 KiB in all (--max-memory), the multiply-
 * accumulates of the accelerated ops at most 10^7 (counted here from the shapes), and the
 * engine's uop, instruction and host-time budgets small.
 */
#include "fuzz_contract.h"
#include "model_run.h"
#include "tflite_model.h"
#include "vta_ref.h"

#define MAX_MEMORY (256u << 10)
#define MAX_MACS 10000000ull

/* The tiny config (configs/tiny.yaml) with small budgets, built once. */
static const vta_config *tiny_config(void)
{
	static vta_config cfg;
	static int ready;
	if (ready)
		return &cfg;
	static const char *const sets[][2] = {
		/* the SRAMs first: smaller blocks over the default SRAMs need wider fields */
		{"sram_kib.uop", "4"}, {"sram_kib.inp", "2"}, {"sram_kib.wgt", "4"},
		{"sram_kib.acc", "4"}, {"arch.log_block_in", "2"}, {"arch.log_block_out", "2"},
		{"dram.size_mib", "16"}, {"timing.uop_budget", "2000000"},
		{"timing.insn_budget", "20000"}, {"timing.host_seconds", "5"},
		{"alu.mul", "true"}, {"alu.tflite_ext", "true"}, {"decompressor.enabled", "true"},
	};
	vta_error err = {0};
	vta_config_default(&cfg);
	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++)
		if (vta_config_set(&cfg, sets[i][0], sets[i][1], &err) != VTA_OK)
			fuzz_die("tiny config", err.detail);
	if (vta_config_derive(&cfg, &err) != VTA_OK)
		fuzz_die("tiny config", err.detail);
	ready = 1;
	return &cfg;
}

/* The multiply-accumulates of the accelerated ops: output elements times the filter's
 * elements per output channel (ADD: one per element). Saturates. */
static uint64_t model_macs(const vta_tfl_model *m)
{
	uint64_t macs = 0;
	for (size_t i = 0; i < m->n_ops; i++) {
		const vta_tfl_op *op = &m->ops[i];
		if (op->decode || !op->n_outputs)
			continue;
		uint64_t out = m->tensors[op->outputs[0]].count, per = 1;
		bool filtered = op->builtin == VTA_TFL_OP_CONV_2D ||
				op->builtin == VTA_TFL_OP_DEPTHWISE_CONV_2D ||
				op->builtin == VTA_TFL_OP_FULLY_CONNECTED;
		if (filtered && op->n_inputs > 1 && op->inputs[1] >= 0) {
			const vta_tfl_tensor *f = &m->tensors[op->inputs[1]];
			per = f->count; /* an upper bound: a whole filter per output */
		}
		if (per && out > UINT64_MAX / per)
			return UINT64_MAX;
		if (macs > UINT64_MAX - out * per)
			return UINT64_MAX;
		macs += out * per;
	}
	return macs;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const vta_config *cfg = tiny_config();
	uint8_t *image = malloc(size ? size : 1);
	fuzz_require(image != NULL, "out of memory");
	memcpy(image, data, size);
	vta_tfl_model m;
	vta_error err = {0};
	vta_status st = vta_tfl_model_parse(image, size, "fuzz.tflite", &m, &err); /* owns image */
	fuzz_expect(st, &err);
	if (st != VTA_OK || model_macs(&m) > MAX_MACS) {
		vta_tfl_model_free(&m);
		return 0;
	}
	vta_ref *ref = NULL;
	if (vta_ref_create(cfg, &ref, &err) != VTA_OK)
		fuzz_die("reference executor", err.detail);
	vta_model_run_opts o = {.layer = {.mode = VTA_ARITH_TFLITE, .threads = 2, .fault_index = -1,
					  .decompress = VTA_DECOMPRESS_HW,
					  .max_memory = MAX_MEMORY},
				.seed = size};
	vta_model_run run;
	st = vta_model_run_model(cfg, &m, vta_ref_engine(ref), &o, &run, &err);
	fuzz_expect(st, &err);
	if (st == VTA_E_MISMATCH)
		fuzz_die("a model that reads and runs differs from its reference", err.detail);
	vta_model_run_free(&run);
	vta_ref_destroy(ref);
	vta_tfl_model_free(&m);
	return 0;
}
