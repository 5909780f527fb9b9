/*
 * layer_run.h - the product's pipeline as one call, for `vtasim run`, the benchmarks and any
 * binding: materialise a workload layer, compute its golden output (and TFLite's in vta16
 * mode, to measure the distance), emit its stream into a fresh DRAM, check it (vta_race.h),
 * execute it on an engine (vta_engine.h), read the output back and compare. Callers add a
 * trace or a dump through an observer.
 */
#ifndef VTA_LAYER_RUN_H
#define VTA_LAYER_RUN_H

#include <stdbool.h>

#include "emit_layer.h"
#include "golden.h"
#include "golden_cache.h"
#include "lut.h"
#include "vta_cost.h"
#include "vta_race.h"
#include "vta_engine.h"
#include "workload.h"
#include "workload_layer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Everything a report says about one layer. */
typedef struct vta_layer_result {
	char name[64];
	vta_wl_op op;
	int32_t out_shape[4];
	bool timed;                /* stats come from a timed engine */
	vta_run_stats stats;
	vta_layer_counters counters;
	char plan[256];
	bool has_conv_plan;        /* CONV2D: the plan the emitter used */
	vta_conv_plan conv_plan;
	size_t insns;
	vta_compare check;         /* against the golden kernel of the run's mode */
	vta_compare vs_tflite;     /* vta16 only: distance from TFLite's arithmetic */
	bool has_vs_tflite;
	uint64_t alu_overflows, acc_overflows;
	bool has_lut;
	uint64_t compressed_bytes, decompressed_bytes;
	vta_decompress decompress;     /* where they were decoded: hw when the decoder did */
	uint64_t input_bytes;      /* activation inputs (not constants) */
	unsigned threads;          /* virtual threads the layer's stream uses (at most the
				    * run's; the emitter chooses) */
	bool threads_measured;     /* a small layer whose chosen plan uses two threads: its
				    * one-thread stream was timed too, and the faster ran */
	double threads_seconds;    /* host time of that: the other stream's emission, checks
				    * and run (and the winner's second run for the observers) */
	vta_lut_bin_report binning;
	bool checks_run;           /* the stream checks ran (vta_race.h) */
	vta_race_report checks;    /* what they found */
	/* host time of the golden kernels, of emitting (the plan chooser and the stream checks
	 * apart), of the plan chooser and of the stream checks */
	double golden_seconds, emit_seconds, plan_seconds, check_seconds;
	bool golden_reused;        /* every golden output came from the run's golden cache */
} vta_layer_result;

/* The roofline of a layer (vta_cost_roofline): its useful MACs, the ALU uops of its
 * program (the requantization or the ADD's arithmetic: one sequence per output vector,
 * whatever the tiling), and its tensors (input, constants, output) crossing the DRAM port
 * once. */
vta_roofline vta_layer_roofline(const vta_config *cfg, const vta_layer_result *r);

/* What an observer sees of a layer in flight. */
typedef struct vta_layer_view {
	const vta_wl_layer *spec;
	const vta_layer_data *data;
	const struct vta_layer_plain *plain;  /* its constants decoded (layer_ops.h) */
	const vta_layer_stream *stream;
	const vta_layer_result *result;
	const vta_tensor_i8 *golden, *got;    /* set once the output is checked */
	const uint8_t *dram_image;            /* the DRAM the stream starts from, when asked */
	uint64_t dram_image_bytes;
} vta_layer_view;

/* Hooks, embedded first in the caller's struct (as vta_engine is); either may be NULL. An
 * error they return fails the layer unless it failed already. */
typedef struct vta_layer_observer vta_layer_observer;
struct vta_layer_observer {
	/* After the engine ran, also when it failed (run_status, run_err say how). */
	vta_status (*executed)(vta_layer_observer *self, const vta_layer_view *v,
			       vta_status run_status, const vta_error *run_err, vta_error *err);
	/* After the output was compared, before a mismatch fails the layer. */
	vta_status (*checked)(vta_layer_observer *self, const vta_layer_view *v, vta_error *err);
};

typedef struct vta_layer_run_opts {
	vta_arith_mode mode;
	unsigned threads;             /* virtual threads of the emitted stream: 1 or 2 */
	long fault_index;             /* >= 0: flip a bit of this output element (to see a
				       * mismatch reported); else -1 */
	bool keep_dram_image;         /* give observers the DRAM image (vta_layer_view) */
	vta_layer_observer *observer; /* or NULL */
	vta_decompress decompress;    /* where LUT constants are decoded (host by default) */
	/* golden outputs read from / written to this cache instead of always computed
	 * (golden_cache.h), which counts both; NULL: always computed */
	vta_golden_cache *golden_cache;
	/* the layer's golden output in tflite mode and its overflow counts, computed already
	 * by the caller from the same inputs and constants (a model run's all-host reference
	 * run, model_run.h), so the golden kernel does not run twice; NULL: computed here.
	 * Used in tflite mode only, and instead of golden_cache. */
	const int8_t *golden_given;
	vta_golden_stats golden_given_stats;
	/* CONV2D plans reused for layers the same to the chooser (tiling.h); NULL: none */
	vta_conv_plan_cache *plans;
	/* checks and cycles of streams the run saw already, reused for a stream that is byte
	 * for byte one of them (stream_memo.h): one memo per config and engine; NULL: none */
	struct vta_stream_memo *memo;
	bool skip_checks;             /* do not run the stream checks (vta_race.h) */
	bool strict;                  /* their warnings fail the layer (VTA_E_WARNING) */
	/* inputs already in DRAM as earlier ops' output regions (dram_tensor.h; the emitter
	 * takes them instead of staging the host tensors), and where to keep this layer's own
	 * output region once it ran (NULL: nowhere) */
	const vta_dram_tensor *resident;
	size_t n_resident;
	vta_dram_tensor *keep_output;
	int32_t op_index;             /* the producer keep_output records */
	/* a zeroed DRAM of the config's size the layer may use and hands back zeroed, so a
	 * run of layers maps and clears its pages once (vta_dram_reset); NULL, or another
	 * size: the layer has its own */
	vta_dram *dram;
	/* another such DRAM for a layer's second stream (the one-thread stream timed beside a
	 * two-thread one), so that a run of small layers does not map and clear a fresh DRAM
	 * for every one of them; NULL: the second stream maps its own */
	vta_dram *dram_spare;
	/* the bytes of tensors a run may hold (a layer's, or a model's with its reference),
	 * checked before anything is allocated; 0: VTA_MAX_MEMORY_DEFAULT (model_check.h) */
	uint64_t max_memory;
} vta_layer_run_opts;

/* Run one layer on `engine` into *r. The emitted stream is checked first (vta_race.h): a
 * race or a read of unwritten rows (VTA_E_RACE, VTA_E_UNINIT, r->checks holding them) or,
 * with opts->strict, a warning (VTA_E_WARNING) stops the layer before it runs.
 * VTA_E_MISMATCH (with r complete) when the output is not bit-exact; any other error stops
 * the layer where it happened. */
vta_status vta_layer_run(const vta_config *cfg, const vta_wl_layer *spec, vta_engine *engine,
			 const vta_layer_run_opts *opts, vta_layer_result *r, vta_error *err);

/* The same for a layer the caller materialised (a model runner: its tensors borrowed from the
 * model, d->spec giving the name, op, activation and output quantization). The caller keeps
 * ownership of d; the checked output is left in d->output.data. */
vta_status vta_layer_run_data(const vta_config *cfg, const vta_layer_data *d,
			      vta_engine *engine, const vta_layer_run_opts *opts,
			      vta_layer_result *r, vta_error *err);

/* Only the golden half of vta_layer_run: materialise the layer and make sure opts->golden_cache
 * holds its golden output in opts->mode (and TFLite's in vta16 mode), computing what is
 * missing. *computed (may be NULL) says whether anything was. For a sweep that fills the
 * cache once before its points run. */
vta_status vta_layer_golden_prepare(const vta_wl_layer *spec, const vta_layer_run_opts *opts,
				    bool *computed, vta_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VTA_LAYER_RUN_H */
