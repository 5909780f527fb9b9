/*
 * emit_fc.h - the int8 FULLY_CONNECTED emitter: a VTA instruction stream bit-exact with
 * vta_golden_fc() in the chosen arithmetic mode.
 *
 * A fully connected layer is a GEMM: its [batches, K] input becomes the 1x1 CONV2D input
 * [N, batches / N, 1, K] (N = the batch lanes the batches fill: gcd(batches, batch)), its
 * [O, K] filter the OHWI filter [O, 1, 1, K], and the CONV2D emitter tiles it; each GEMM
 * micro-op is one batch row times one weight block, every MAC useful. A LUT-compressed
 * filter (one table per output channel or one for all) goes through the hardware decoder
 * in VTA_DECOMPRESS_HW exactly as a CONV2D filter does.
 */
#ifndef VTA_EMIT_FC_H
#define VTA_EMIT_FC_H

#include "emit_layer.h"
#include "layer.h"
#include "lut.h"
#include "tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Emit one FULLY_CONNECTED into `ls` (zeroed here; free with vta_layer_stream_free). `out`
 * holds batches x O elements with O last (its data is not used); vta_layer_read_output
 * gives them back row-major [batches][O]. Errors as vta_emit_conv2d(). */
vta_status vta_emit_fully_connected(const vta_config *cfg, const vta_fully_connected *fc,
				    const vta_lut_tensor *filter_lut,
				    const vta_lut_tensor *bias_lut, const vta_tensor_i8 *out,
				    const vta_emit_opts *opts, vta_dram *dram,
				    vta_layer_stream *ls, vta_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VTA_EMIT_FC_H */
