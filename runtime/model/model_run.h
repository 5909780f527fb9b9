/*
 * model_run.h - a whole .tflite model run: subgraph 0's operators in order, each accelerated
 * op (op_support.h) made into a layer description (layer.h) over the tensors the earlier ops
 * produced and the model's constants (LUT-compressed ones stay compressed, so the decoder can
 * take them), run through the pipeline on an engine (vta_layer_run_data: emit, execute,
 * check against the golden kernel), the other ops on the host kernels (host_ops.h). TFLM_DECODE
 * operators are skipped: their outputs are the compressed constants.
 *
 * Tensors between two accelerated ops stay in DRAM (dram_tensor.h): only those a host op, the
 * model's output or a dump needs are copied out to the host.
 *
 * The run checks itself end to end: the same model is also run entirely on the host (golden
 * kernels for the accelerated op classes), and every tensor either run computed is compared.
 * docs/models.md "Running a model".
 */
#ifndef VTA_MODEL_RUN_H
#define VTA_MODEL_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "golden_cache.h"
#include "layer_run.h"
#include "op_support.h"
#include "tflite_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A list of the op classes that may be moved from the accelerator to the host (each
 * accelerated operator's `host_class`, runtime/ops/; any subset, comma-separated; "none" for
 * none) into a mask of their bits (vta_op_class_bit); VTA_E_USAGE naming the unknown class. */
vta_status vta_model_host_classes(const char *list, unsigned *mask, vta_error *err);

typedef struct vta_model_op_result vta_model_op_result;

/* Hooks around each operator of the run (not of its all-host reference), embedded first in
 * the caller's struct; either may be NULL. An error they return stops the run. */
typedef struct vta_model_observer vta_model_observer;
struct vta_model_observer {
	/* Before the operator runs: r->index, r->name and r->place (where it will run; an
	 * accelerated op's layer observer, layer.observer, then sees its run). */
	vta_status (*op_begin)(vta_model_observer *self, const vta_model_op_result *r,
			       vta_error *err);
	/* After it ran, r complete (not called for an op that failed). */
	vta_status (*op_end)(vta_model_observer *self, const vta_model_op_result *r,
			     vta_error *err);
};

typedef struct vta_model_run_opts {
	vta_layer_run_opts layer;  /* threads, decompress, observer (mode must be tflite) */
	unsigned host_classes;     /* class bits (vta_op_class_bit) run on the host instead */
	uint64_t seed;             /* random model inputs */
	/* One entry per model input, in the model's order: its bytes (the tensor's type and
	 * element count), or NULL for seeded random values. inputs may be NULL. */
	const void *const *inputs;
	size_t n_inputs;
	vta_model_observer *observer; /* or NULL */
	/* The all-host reference run read from this cache, or run and written to it: it depends
	 * on the model and its inputs only, never on the config or the host op classes, so a
	 * sweep runs it once (vta_model_reference_prepare). NULL: always run. */
	vta_golden_cache *reference_cache;
	/* Tensors between accelerated ops stay in DRAM (dram_tensor.h) unless host_staging:
	 * every accelerated op's input then staged by the host and its output copied out, to
	 * compare. copy_out_all: every tensor is copied out to the host (a dump needs them). */
	bool host_staging;
	bool copy_out_all;
	/* the run's intermediate tensors (neither a model input nor a model output), host copy
	 * and DRAM region, freed once no later operator reads them, so their memory serves the
	 * next ones: run->values then holds only the model's inputs and outputs. Ignored with
	 * copy_out_all, and where the reference came from a cache. */
	bool free_intermediates;
} vta_model_run_opts;

struct vta_model_op_result {
	size_t index;              /* operator index in subgraph 0 */
	char name[32];             /* TFLite's name */
	bool skipped;              /* TFLM_DECODE: nothing to run */
	vta_op_place place;        /* VTA_OP_ACCEL (on the engine) or VTA_OP_HOST */
	vta_layer_result layer;    /* VTA_OP_ACCEL only */
	double host_seconds;       /* the host kernel's time (host ops) */
	int32_t output;            /* the output tensor */
	/* the host copying this op's output region out of DRAM (a host op, the model's output
	 * or a dump needs it): DRAM bytes read and time; where the inputs came from is in
	 * layer.counters (input_from, staged_bytes, carried_bytes, relayout_bytes) */
	uint64_t copied_out_bytes;
	double copy_out_seconds;
	/* its output against a reference tensor file (model_expect.h): compared, how many
	 * elements differ, the first one and its two values */
	bool expect_checked;
	size_t expect_differing;
	size_t expect_first_index;
	double expect_value, expect_got;
};

typedef struct vta_model_run {
	size_t n_ops;
	vta_model_op_result *ops;
	size_t n_tensors;
	void **values;             /* every computed tensor (inputs and op outputs), else NULL
				    * (with opts->free_intermediates, see there) */
	/* the end-to-end check against the all-host run */
	bool bit_exact;
	size_t tensors_compared;   /* computed tensors, the model's outputs among them */
	size_t tensors_differing;
	int32_t first_tensor;      /* the first differing tensor (in operator order), or -1 */
	size_t first_index;        /* its first differing byte */
	double reference_seconds;  /* the all-host run */
	bool reference_cached;     /* it came from opts->reference_cache (0 seconds here) */
	/* against reference tensor files (model_expect.h; expect_dir NULL when none were
	 * given): operator outputs compared, differing, without a file; the first differing */
	const char *expect_dir;
	size_t expect_compared, expect_differing, expect_missing;
	int32_t expect_first_tensor;
	size_t expect_first_index;
} vta_model_run;

/* Run `m` on `engine`. VTA_E_UNSUPPORTED (before anything runs) for an operator with no
 * kernel, naming it ("operator 1 (SVDF): ..."); VTA_E_MISMATCH when a layer differs from its
 * golden kernel or the run from the all-host run (*run then complete, as far as it went);
 * other errors name the operator. Free *run with vta_model_run_free (also after an error). */
vta_status vta_model_run_model(const vta_config *cfg, const vta_tfl_model *m, vta_engine *engine,
			       const vta_model_run_opts *opts, vta_model_run *run, vta_error *err);
void vta_model_run_free(vta_model_run *run);

/* Only the all-host reference of vta_model_run_model, into opts->reference_cache (run when
 * it is not there; *computed, which may be NULL, says whether it was). */
vta_status vta_model_reference_prepare(const vta_config *cfg, const vta_tfl_model *m,
				       const vta_model_run_opts *opts, bool *computed,
				       vta_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VTA_MODEL_RUN_H */
