/*
 * emit_add.h - the int8 ADD emitter: out = a + b requantized, as a VTA instruction stream
 * bit-exact with vta_golden_add() in the chosen arithmetic mode.
 *
 * Operands: two activations of one shape, or b broadcast per channel ([1,1,1,C]) or as a
 * scalar ([1,1,1,1]) exactly as the golden kernel allows (a broadcast a is swapped with a
 * full b: ADD is symmetric bit for bit). Either operand may be a constant LUT-compressed
 * INT8 tensor (a_lut / b_lut non-NULL; the tensor's data pointer is then ignored). Any
 * element count. The ALU sequence of each mode (tflite needs alu.tflite_ext, vta16
 * alu.mul), the layouts and the chunking over ACC slots: docs/runtime.md "ADD".
 */
#ifndef VTA_EMIT_ADD_H
#define VTA_EMIT_ADD_H

#include "emit_layer.h"
#include "lut.h"
#include "quant.h"
#include "tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Emit one ADD into `ls` (zeroed here; free with vta_layer_stream_free). `out` gives the
 * output shape, scale and zero point (its data is not used). Errors: VTA_E_USAGE for a bad
 * layer or one that does not fit, VTA_E_UNSUPPORTED for an arithmetic mode the config's ALU
 * lacks, VTA_E_DATA for a malformed LUT tensor. */
vta_status vta_emit_add(const vta_config *cfg, const vta_tensor_i8 *a,
			const vta_lut_tensor *a_lut, const vta_tensor_i8 *b,
			const vta_lut_tensor *b_lut, vta_activation act, const vta_tensor_i8 *out,
			const vta_emit_opts *opts, vta_dram *dram, vta_layer_stream *ls,
			vta_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VTA_EMIT_ADD_H */
