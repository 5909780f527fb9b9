/*
 * emit_layer.h - what a layer emitter hands back: the program of one layer, where its
 * tensors sit in DRAM, and counters for the report. Shared by emit_add.h and emit_conv2d.h.
 *
 * Usage (as vta_layer_run does it, layer_run.c):
 *   vta_layer_stream ls;
 *   vta_emit_conv2d(cfg, &conv, filter_lut, bias_lut, &out, &opts, &dram, &ls, &err);
 *   engine->run(engine, &ls.prog, &dram, &stats, &err);
 *   vta_layer_read_output(&ls, &dram, out.data, count, &err);
 *   vta_layer_stream_free(&ls);
 * The emitter writes every input, constant and micro-op kernel into the DRAM itself, from
 * opts->dram_base on; ls.dram_end tells where the next layer may start.
 */
#ifndef VTA_EMIT_LAYER_H
#define VTA_EMIT_LAYER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "quant.h"
#include "tiling.h"
#include "vta_config.h"
#include "vta_dram.h"
#include "vta_program.h"
#include "vta_status.h"
#include "vta_stream.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where LUT-compressed constants are decoded (docs/runtime.md "LUT constants"). */
typedef enum vta_decompress {
	VTA_DECOMPRESS_HOST = 0, /* on the host, into the plain layouts */
	VTA_DECOMPRESS_HW        /* by the LUT decoder: packed indices and tables in DRAM */
} vta_decompress;

/* "host" or "hw". */
const char *vta_decompress_name(vta_decompress d);

/* An earlier op's output region in DRAM (dram_tensor.h). */
typedef struct vta_dram_tensor vta_dram_tensor;

/* How the emitters are asked to work. */
typedef struct vta_emit_opts {
	vta_arith_mode mode; /* tflite or vta16 requantization */
	unsigned threads;    /* virtual threads: 1, or 2 to overlap loads with compute */
	uint64_t dram_base;  /* first DRAM byte the layer may use */
	const char *name;    /* layer name in errors (NULL: "conv2d" / "add") */
	vta_decompress decompress;
	/* inputs already in DRAM as earlier ops' output regions, found by their host tensor's
	 * data (dram_tensor.h); the others are staged from the host tensors */
	const vta_dram_tensor *resident;
	size_t n_resident;
	/* CONV2D plans chosen earlier in the run, reused for a layer the same to the chooser
	 * (tiling.h); NULL: every layer searches */
	vta_conv_plan_cache *plans;
	/* the DRAM is all zeros from dram_base up (a fresh or reset image): the layer's
	 * buffers are not cleared again (vta_stream_dram_zeroed) */
	bool dram_zeroed;
} vta_emit_opts;

/* How the output tensor is laid out in DRAM (layout.h). */
typedef enum vta_out_layout {
	VTA_OUT_FLAT = 0,  /* flat rows of batch*block_out elements */
	VTA_OUT_PIXEL,     /* pixel-blocked rows */
	VTA_OUT_CONV       /* [Ng][Ho][Wo][Ob] blocks */
} vta_out_layout;

/* Counters for the report. */
typedef struct vta_layer_counters {
	uint64_t macs;             /* useful multiply-accumulates (N*Ho*Wo*O*KH*KW*C); 0 for ADD */
	uint64_t const_bytes;      /* DRAM bytes of constants: weights, bias, requant rows, a
				    * constant ADD operand */
	/* decoded by the hardware: DRAM bytes of their packed indices and table images, and
	 * what their plain layouts would have taken */
	uint64_t lut_hw_bytes, lut_hw_plain_bytes;
	vta_stream_stats stream;   /* what the builder emitted */
	/* where the activation inputs came from (dram_tensor.h), in the order they were put */
	unsigned n_inputs;
	int32_t input_from[2];     /* the op whose output region it is, or -1: the host */
	uint64_t staged_bytes;     /* DRAM bytes the host wrote from its own tensors */
	uint64_t carried_bytes;    /* DRAM bytes that were an earlier op's region as it is */
	uint64_t relayout_bytes;   /* DRAM bytes read and written relayouting such regions */
	double staging_seconds;    /* the host's time writing the staged bytes */
	double relayout_seconds;   /* the runtime's time relayouting */
	double plan_seconds;       /* the plan chooser's (tiling.h), a part of emitting */
} vta_layer_counters;

typedef struct vta_layer_stream {
	char name[64];
	vta_config cfg;            /* the config the stream was built for */
	vta_program prog;          /* instructions and UOP segments */
	uint64_t dram_end;         /* first DRAM byte after the layer's buffers */
	vta_arith_mode mode;
	unsigned threads;
	/* output tensor */
	vta_out_layout out_layout;
	int32_t out_shape[4];      /* NHWC */
	uint64_t out_addr, out_bytes;
	vta_layer_counters counters;
	char plan[256];            /* one line: how the layer was tiled */
	bool has_conv_plan;        /* CONV2D: the plan itself */
	vta_conv_plan conv_plan;
} vta_layer_stream;

/* Copy the output tensor out of DRAM into NHWC int8 (`count` = its element count). */
vta_status vta_layer_read_output(const vta_layer_stream *ls, const vta_dram *dram,
				 int8_t *nhwc_out, size_t count, vta_error *err);
/* Free what an emitter allocated (safe on a zeroed or already freed struct). */
void vta_layer_stream_free(vta_layer_stream *ls);

/* ---- for the emitters ---- */

/* Clear ls and fill what the options say (name, config, mode, threads, out_layout);
 * *layer is the name, `fallback` when opts gives none. `fn` names the emitter in errors
 * about NULL pointers (args_ok: the emitter's own ones are given). */
vta_status vta_layer_begin(const vta_config *cfg, const vta_emit_opts *opts, bool args_ok,
			   const char *fn, const char *fallback, vta_out_layout out_layout,
			   vta_layer_stream *ls, const char **layer, vta_error *err);

/* Finish `s` into ls (program, stats, DRAM end) and place the UOP segments in dram.
 * Destroys s in every case. */
vta_status vta_layer_finish(vta_stream *s, vta_dram *dram, vta_layer_stream *ls,
			    vta_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VTA_EMIT_LAYER_H */
