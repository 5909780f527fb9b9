/*
 * emit_conv2d.h - the int8 per-channel CONV2D emitter: a VTA instruction stream bit-exact
 * with vta_golden_conv2d() in the chosen arithmetic mode.
 *
 * The layer is vta_conv2d (golden.h): NHWC input, OHWI filter, optional int32 bias, stride,
 * dilation, SAME/VALID padding placed as TFLite does, fused activation. groups must be 1.
 * The filter (INT8) and the bias (INT32) may be LUT-compressed (filter_lut / bias_lut
 * non-NULL; the layer's own pointer is then ignored): the runtime decodes them on the host.
 *
 * What the runtime does on the host (docs/runtime.md "CONV2D"):
 *   - input: written to DRAM spatially padded with zp_in (TFLite's real zero) and cropped to
 *     the rows/columns the convolution reads, channels zero-padded to block_in; the DMA then
 *     loads without padding, so border pixels are exact;
 *   - bias: folded with the input zero point, bias'[o] = bias[o] - zp_in * sum(w[o]), so
 *     the accelerator accumulates sum(w * x) on the raw int8 input;
 *   - requantization constants: per-channel rows in ACC (bias', Q31 multiplier and shifts
 *     in tflite mode; Q15 multiplier, bias'*M + rounding addend folded into one vector, and
 *     shift in vta16 mode), or immediates when every channel shares a value that fits.
 * On the accelerator: GEMM over (tap, input-channel block, output pixel) with output pixels
 * innermost so consecutive uops write different ACC rows, then the requantization as tensor
 * ALU ops whose src factor 0 broadcasts the constant rows over the pixels, then STORE.
 *
 * Tiling is chosen from the config's SRAM sizes (docs/runtime.md "Tiling"): output rows and
 * output-channel blocks that stay in ACC, input-channel chunks, and weight groups streamed
 * through WGT; with 2 threads every SRAM that is reloaded has two slots so the next tile's
 * loads overlap the current compute. A layer that cannot fit at all is VTA_E_USAGE naming
 * the SRAM and the sizes.
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

#ifdef __cplusplus
}
#endif

#endif /* VTA_EMIT_CONV2D_H */
