/*
 * rtl_compute.h - the COMPUTE module's datapath on verilated RTL, clocked cycle by cycle: the
 * GEMM array (BATCH x BLOCK_OUT vta_gemm_dot lanes) and the ALU array (BATCH x BLOCK_OUT
 * vta_alu_lane lanes), both pipelined to the same depth so their results reach ACC in issue
 * order. The model's uop loop hands it one micro-op at a time with the SRAM rows it names;
 * the arrays' own handshakes (in_valid / out_valid, the ALU's operand beats) decide how
 * many clocks an instruction takes.
 *
 * Issue, the late accumulator read, the scoreboard and write-back: docs/rtl.md "The COMPUTE
 * arrays". (ACC has one read port: a tensor-tensor ALU uop takes two beats.)
 *
 * Shapes are fixed when the RTL is verilated (the lanes by BLOCK_IN: the dot lane's pipeline
 * depth follows its adder tree); vta_rtl_compute_create picks the built ones.
 */
#ifndef VTASIM_RTL_COMPUTE_H
#define VTASIM_RTL_COMPUTE_H

#include <stddef.h>
#include <stdint.h>

#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vta_rtl_compute vta_rtl_compute;

/* Build the datapath of a batch x block_in x block_out GEMM (ALU lanes: batch x block_out).
 * VTA_E_UNSUPPORTED when no lane of that shape was verilated, with a one-line message that
 * names the missing build and how to add it; VTA_E_NOMEM if allocation fails. */
vta_status vta_rtl_compute_create(vta_rtl_compute **out, unsigned batch, unsigned block_in,
				  unsigned block_out, vta_error *err);
void vta_rtl_compute_destroy(vta_rtl_compute *c); /* NULL is fine; closes its waveform */

/* Write every lane's signals to a VCD file from now on (VTA_E_IO if it cannot be opened);
 * NULL closes the file. */
vta_status vta_rtl_compute_trace(vta_rtl_compute *c, const char *vcd_path, vta_error *err);

/* Clocks from the issue of a uop to the write-back of its result (the arrays' depth). */
unsigned vta_rtl_compute_depth(const vta_rtl_compute *c);

/* The SRAMs the uops of one instruction read and write, in the model's layout: row r of
 * INP is batch x block_in int8, of WGT block_out x block_in int8, of ACC batch x block_out
 * int32, of OUT batch x block_out int8. */
typedef struct vta_rtl_compute_mem {
	const int8_t *inp;
	const int8_t *wgt;
	int32_t *acc;
	int8_t *out;
} vta_rtl_compute_mem;

/* Start an instruction at simulated cycle `cycle` (the waveform's time of its first clock):
 * GEMM (alu_op < 0) or ALU opcode alu_op with use_imm / imm; with use_imm and imm_src the
 * lanes' first operand is the uop's src row instead of its dst row (alu.imm_operand src).
 * A GEMM reset is begun as GEMM: its uops go through the GEMM lanes' reset (an ALU's reset
 * bit has no effect). */
void vta_rtl_compute_begin(vta_rtl_compute *c, const vta_rtl_compute_mem *mem, int alu_op,
			   int use_imm, int imm_src, int32_t imm, uint64_t cycle);

/* Issue one uop on ACC row dst: GEMM (src an INP row, wgt a WGT row), reset (reset != 0;
 * src and wgt unused) or ALU (src an ACC row, unused with an immediate). Clocks the arrays
 * until the uop has been taken, writing back whatever completes meanwhile. */
void vta_rtl_compute_uop(vta_rtl_compute *c, uint32_t dst, uint32_t src, uint32_t wgt,
			 int reset);

/* Clock until every issued uop is written back; returns the clocks the instruction took,
 * from its first issue beat to its last write-back (0 for an instruction of no uops). */
uint64_t vta_rtl_compute_end(vta_rtl_compute *c);

/* Clocks simulated since creation. */
uint64_t vta_rtl_compute_cycles(const vta_rtl_compute *c);

/* The Verilator release the RTL units were verilated with ("5.006 2023-01-22"). */
const char *vta_rtl_verilator_version(void);

#ifdef __cplusplus
}
#endif

#endif /* VTASIM_RTL_COMPUTE_H */
