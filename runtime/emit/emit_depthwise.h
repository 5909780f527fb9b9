/*
 * emit_depthwise.h - the int8 per-channel DEPTHWISE_CONV_2D emitter: a VTA instruction stream
 * bit-exact with vta_golden_depthwise() in the chosen arithmetic mode.
 *
 * A depthwise convolution is the grouped CONV2D with one input channel per group: the
 * filter [1, KH, KW, C*M] is transposed to OHWI [C*M, KH, KW, 1] and the CONV2D emitter
 * runs it as block-diagonal units (docs/runtime.md "Grouped and depthwise convolution",
 * where the GEMM utilization is worked out). In VTA_DECOMPRESS_HW a LUT-compressed filter
 * and bias go through the decoder: the filter's index fields are reordered to OHWI and
 * spread over the units with a zero table entry (lut_group.h); in host mode they are
 * decoded on the host.
 */
#ifndef VTA_EMIT_DEPTHWISE_H
#define VTA_EMIT_DEPTHWISE_H

#include "emit_layer.h"
#include "layer.h"
#include "lut.h"
#include "tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Emit one DEPTHWISE_CONV_2D into `ls` (zeroed here; free with vta_layer_stream_free).
 * `out` gives the output shape, scale and zero point (its data is not used). The filter
 * (INT8, [1, KH, KW, O]) and bias (INT32) may be LUT tensors; the layer's own pointer is
 * then ignored. Errors as vta_emit_conv2d(). */
vta_status vta_emit_depthwise_conv2d(const vta_config *cfg, const vta_depthwise_conv2d *dw,
				     const vta_lut_tensor *filter_lut,
				     const vta_lut_tensor *bias_lut, const vta_tensor_i8 *out,
				     const vta_emit_opts *opts, vta_dram *dram,
				     vta_layer_stream *ls, vta_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VTA_EMIT_DEPTHWISE_H */
