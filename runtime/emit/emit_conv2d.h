/*
 * emit_conv2d.h - the int8 per-channel CONV2D emitter: a VTA instruction stream bit-exact
 * with vta_golden_conv2d() in the chosen arithmetic mode.
 *
 * The layer is vta_conv2d (golden.h): NHWC input, OHWI filter, optional int32 bias, stride,
 * dilation, SAME/VALID padding placed as TFLite does, fused activation. groups must be 1.
 * The filter (INT8) and the bias (INT32) may be LUT-compressed (filter_lut / bias_lut
 * non-NULL; the layer's own pointer is then ignored). What the host prepares (the input
 * padded with zp_in, the bias folded with it, the requantization constants), the GEMM and
 * ALU work on the accelerator, and the tiling chosen from the config's SRAM sizes:
 * docs/runtime.md "CONV2D". A layer that cannot fit at all is VTA_E_USAGE naming the SRAM
 * and the sizes.
 */
#ifndef VTA_EMIT_CONV2D_H
#define VTA_EMIT_CONV2D_H

#include "emit_layer.h"
#include "layer.h"
#include "lut.h"
#include "tensor.h"
#include "tiling.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Emit one CONV2D into `ls` (zeroed here; free with vta_layer_stream_free). `out` gives the
 * output scale and zero point and must have the layer's output shape (its data is not
 * used). Errors: VTA_E_USAGE (bad or unsupported layer, grouped conv, does not fit),
 * VTA_E_UNSUPPORTED (arithmetic mode the config's ALU lacks), VTA_E_DATA (malformed LUT). */
vta_status vta_emit_conv2d(const vta_config *cfg, const vta_conv2d *conv,
			   const vta_lut_tensor *filter_lut, const vta_lut_tensor *bias_lut,
			   const vta_tensor_i8 *out, const vta_emit_opts *opts, vta_dram *dram,
			   vta_layer_stream *ls, vta_error *err);

/* The same with the tiling forced: plan's choices (ncb, th, nob, nobw, rows_outer, slots,
 * const_all; threads come from opts) are checked with vta_conv_plan_check() instead of
 * being chosen. For experiments and for tests that sweep the schedules. */
vta_status vta_emit_conv2d_plan(const vta_config *cfg, const vta_conv2d *conv,
				const vta_lut_tensor *filter_lut, const vta_lut_tensor *bias_lut,
				const vta_tensor_i8 *out, const vta_emit_opts *opts,
				const vta_conv_plan *plan, vta_dram *dram, vta_layer_stream *ls,
				vta_error *err);

/* The same with some of the plan's choices held fixed (tiling.h, vta_conv_pin; NULL or a
 * zeroed pin: none) and the others chosen; a pin that fits no plan is VTA_E_USAGE naming
 * what does not fit. */
vta_status vta_emit_conv2d_pinned(const vta_config *cfg, const vta_conv2d *conv,
				  const vta_lut_tensor *filter_lut, const vta_lut_tensor *bias_lut,
				  const vta_tensor_i8 *out, const vta_emit_opts *opts,
				  const vta_conv_pin *pin, vta_dram *dram, vta_layer_stream *ls,
				  vta_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VTA_EMIT_CONV2D_H */
