/*
 * rtl_alu.h - the verilated ALU lane (vta_alu_lane.v) behind a C interface, with the same
 * contract as vtasim_alu_lane() / vtasim_alu_row() in sim/datapath.h so either can compute a
 * lane. One vector enters the lane per clock and its result is registered (latency 1 cycle).
 */
#ifndef VTASIM_RTL_ALU_H
#define VTASIM_RTL_ALU_H

#include <stdint.h>

#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vta_rtl_alu vta_rtl_alu;

/* Build and reset one lane. VTA_E_NOMEM if the model cannot be allocated. */
vta_status vta_rtl_alu_create(vta_rtl_alu **out, vta_error *err);
void vta_rtl_alu_destroy(vta_rtl_alu *alu); /* NULL is fine */

/* Write every signal to a VCD file from now on (VTA_E_IO if it cannot be opened). */
vta_status vta_rtl_alu_trace(vta_rtl_alu *alu, const char *vcd_path, vta_error *err);

/* op(x, y) for ALU opcode op (0..6; 7 and above pass x through, like the C model). */
int32_t vta_rtl_alu_lane(vta_rtl_alu *alu, uint32_t op, int32_t x, int32_t y);

/* dst[i] = op(dst[i], src ? src[i] : imm), out[i] = low 8 bits, one lane per cycle. */
void vta_rtl_alu_row(vta_rtl_alu *alu, uint32_t op, int32_t *dst, const int32_t *src,
		     int32_t imm, int8_t *out, unsigned lanes);

/* Clock cycles simulated since creation. */
uint64_t vta_rtl_alu_cycles(const vta_rtl_alu *alu);

#ifdef __cplusplus
}
#endif

#endif /* VTASIM_RTL_ALU_H */
