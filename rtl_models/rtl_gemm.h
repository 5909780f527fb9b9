/*
 * rtl_gemm.h - the verilated GEMM core (vta_gemm_core.v: BLOCK_OUT vta_gemm_dot lanes) behind
 * a C interface with the contract of vtasim_gemm_uop() in sim/datapath.h. The core takes one
 * batch row per clock (block_out dot products of block_in int8 pairs, added to int32
 * accumulators, wrapping); two register stages (latency 2), so a uop of `batch` rows takes batch + 1 cycles.
 * Shapes are fixed when the RTL is verilated; vta_rtl_gemm_create picks a built one.
 */
#ifndef VTASIM_RTL_GEMM_H
#define VTASIM_RTL_GEMM_H

#include <stddef.h>
#include <stdint.h>

#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vta_rtl_gemm vta_rtl_gemm;

/* The (block_in, block_out) shapes built: writes up to max pairs, returns how many exist. */
size_t vta_rtl_gemm_shapes(unsigned (*shapes)[2], size_t max);

/* Build the core for block_in x block_out: VTA_E_UNSUPPORTED (naming the built shapes) if
 * that shape was not verilated, VTA_E_NOMEM if allocation fails. */
vta_status vta_rtl_gemm_create(vta_rtl_gemm **out, unsigned block_in, unsigned block_out,
			       vta_error *err);
void vta_rtl_gemm_destroy(vta_rtl_gemm *gemm); /* NULL is fine */

/* Write every signal to a VCD file from now on (VTA_E_IO if it cannot be opened). */
vta_status vta_rtl_gemm_trace(vta_rtl_gemm *gemm, const char *vcd_path, vta_error *err);

/* One GEMM uop: acc[b][o] += sum_k inp[b][k] * wgt[o][k], out[b][o] = low 8 bits of the new
 * acc, for b < batch (layouts as vtasim_gemm_uop, with the core's block_in / block_out). */
void vta_rtl_gemm_uop(vta_rtl_gemm *gemm, const int8_t *inp, const int8_t *wgt, int32_t *acc,
		      int8_t *out, unsigned batch);

/* Clock cycles simulated since creation. */
uint64_t vta_rtl_gemm_cycles(const vta_rtl_gemm *gemm);

#ifdef __cplusplus
}
#endif

#endif /* VTASIM_RTL_GEMM_H */
