/*
 * vta_ref.h - the untimed reference executor: the ISA oracle.
 *
 * Runs a program over a DRAM with VTA semantics: LOAD/COMPUTE/STORE queues executed in
 * order, each instruction waits for the dependency tokens it pops (pops before, pushes
 * after), exact SRAM contents, GEMM/ALU write ACC and the truncated OUT row, STORE reads
 * OUT. It has no notion of time. It is written for clarity, not speed, and is what the
 * SystemC model is held to.
 *
 * Diagnostics: those of docs/isa.md "Execution semantics", each detail naming the
 * instruction ("insn N (<disassembly>): ...").
 *
 * SRAM layouts (bytes, little-endian lanes):
 *   INP row: [batch][block_in] of inp_bits; WGT row: [block_out][block_in] of wgt_bits;
 *   ACC row: [batch][block_out] int32 (acc_bits); OUT row: [batch][block_out] of out_bits;
 *   UOP row: one encoded 32-bit micro-op.
 */
#ifndef VTA_REF_H
#define VTA_REF_H

#include <stddef.h>
#include <stdint.h>

#include "vta_config.h"
#include "vta_dram.h"
#include "vta_engine.h"
#include "vta_program.h"
#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vta_ref vta_ref;

/* Functional counters, fsim-style. */
typedef struct vta_ref_counters {
	uint64_t insns[3];                  /* per vta_module */
	uint64_t gemm_uops, alu_uops;       /* uops executed (reset GEMMs included) */
	uint64_t load_bytes[VTA_MEM_COUNT]; /* DRAM bytes read per memory type (no padding) */
	uint64_t store_bytes;               /* DRAM bytes written by STORE */
	/* the LUT decoder: table loads and the DRAM bytes they read (also in load_bytes[lut
	 * and lut32]), packed index bytes decompressing loads read (also in load_bytes of
	 * their memory type) and the elements they decoded */
	uint64_t lut_table_loads, lut_table_bytes, lut_index_bytes, lut_elements;
} vta_ref_counters;

vta_status vta_ref_create(const vta_config *cfg, vta_ref **out, vta_error *err);
void vta_ref_destroy(vta_ref *ref);
/* The executor as an engine ("ref", untimed); lives as long as ref. */
vta_engine *vta_ref_engine(vta_ref *ref);
/* The executor as a kind of engine ("ref"): create, destroy, SRAMs and counts. */
extern const vta_engine_kind vta_ref_engine_kind;

/* Run prog over dram (segments must already be placed). SRAMs start zeroed on each run. */
vta_status vta_ref_run(vta_ref *ref, const vta_program *prog, vta_dram *dram, vta_error *err);

/* SRAM contents after the last run (UOP, WGT, INP, ACC, OUT; ACC_8BIT is ACC). */
const uint8_t *vta_ref_sram(const vta_ref *ref, vta_mem mem, size_t *size);
const vta_ref_counters *vta_ref_counters_get(const vta_ref *ref);

#ifdef __cplusplus
}
#endif

#endif /* VTA_REF_H */
