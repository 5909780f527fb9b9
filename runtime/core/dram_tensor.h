/*
 * dram_tensor.h - activation tensors that stay in simulated DRAM between accelerated ops.
 *
 * When an accelerated op reads the output of an accelerated op, the producer's output region
 * (in the layout its store left, layout.h) is the consumer's input region: no host unpack and
 * repack between them. Each layer runs on its own DRAM image (layer_run.h), so the region's
 * bytes are carried from the producer's image to the consumer's, at the consumer's input
 * address: the same region, moved only in the simulator's bookkeeping.
 *
 * Where the two layouts differ (a consumer's padding halo, another channel block, the ADD
 * emitter's flat rows over a channel count the blocks do not divide) or the region's last
 * channel block is partial (its padding lanes are not zeros), the runtime relayouts
 * the region from DRAM to DRAM and counts the bytes it read and wrote; no host tensor is
 * involved. An input with no resident region (a model input, a host op's output) is staged
 * by the host as before, and its bytes are counted as staging. docs/runtime.md "Tensors in
 * DRAM between ops".
 */
#ifndef VTA_DRAM_TENSOR_H
#define VTA_DRAM_TENSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "emit_layer.h"
#include "layout.h"
#include "tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An op's output region as its store left it in DRAM. */
struct vta_dram_tensor {
	const int8_t *host;       /* the host tensor's data it stands for: how a consumer's
				   * emitter finds it among its inputs */
	int32_t producer;         /* the operator that stored it */
	vta_out_layout layout;
	int32_t shape[4];         /* NHWC */
	uint8_t *bytes;           /* the region (owned) */
	uint64_t n_bytes;
};

/* Copy the output region of a finished layer out of `dram` into *t (freeing what *t held). */
vta_status vta_dram_tensor_keep(const vta_layer_stream *ls, const vta_dram *dram,
				int32_t producer, const int8_t *host, vta_dram_tensor *t,
				vta_error *err);
void vta_dram_tensor_free(vta_dram_tensor *t);

/* Read a region in `layout` (of NHWC `shape`, `count` elements) into NHWC int8. */
void vta_dram_tensor_read(const vta_config *cfg, vta_out_layout layout, const int32_t shape[4],
			  const uint8_t *src, size_t count, int8_t *nhwc);

/* ---- a model run's regions, one slot per tensor ---- */

typedef struct vta_dram_tensors {
	size_t n;
	vta_dram_tensor *t;   /* t[i].bytes NULL: tensor i has no region in DRAM */
	bool *on_host;        /* copied out to the host since its region was stored */
} vta_dram_tensors;

vta_status vta_dram_tensors_init(vta_dram_tensors *ts, size_t n, vta_error *err);
void vta_dram_tensors_free(vta_dram_tensors *ts);

/* The slot of tensor idx for a layer to keep its output in (its host copy not current). */
vta_dram_tensor *vta_dram_tensors_slot(vta_dram_tensors *ts, int32_t idx);

/* The regions among the tensors `idx` (n of them) into out (at most max); their count. */
size_t vta_dram_tensors_gather(const vta_dram_tensors *ts, const int32_t *idx, size_t n,
			       vta_dram_tensor *out, size_t max);

/* Copy tensor idx out of DRAM into its host tensor `nhwc` when only DRAM holds it (a host op,
 * the model's output or a dump needs it): the DRAM bytes read (0 when there was nothing to
 * copy); *producer is the op that stored it, *seconds the time taken. */
uint64_t vta_dram_tensors_copy_out(vta_dram_tensors *ts, const vta_config *cfg, int32_t idx,
				   int8_t *nhwc, int32_t *producer, double *seconds);

/* ---- for the emitters: put an activation input into its DRAM region at dst ---- */

/* The conv input layout (layout.h, window w, halo `fill`) of `in`. */
vta_status vta_dram_put_conv_input(const vta_config *cfg, const vta_emit_opts *opts,
				   const vta_tensor_i8 *in, const vta_layout_window *w,
				   int8_t fill, uint8_t *dst, vta_layer_counters *k,
				   vta_error *err);

/* int8 rows of an elementwise layer: pixel-blocked (`channels` per pixel) or flat. k NULL:
 * a constant operand, written from the host tensor and not counted here. */
vta_status vta_dram_put_rows_i8(const vta_config *cfg, const vta_emit_opts *opts,
				const vta_tensor_i8 *t, bool pixel, size_t channels, uint8_t *dst,
				vta_layer_counters *k, vta_error *err);

/* Count an input the emitter staged from the host in a layout of its own (`bytes` written). */
void vta_dram_count_staged(vta_layer_counters *k, uint64_t bytes);

#ifdef __cplusplus
}
#endif

#endif /* VTA_DRAM_TENSOR_H */
