/*
 * vta_stream.h - the stream builder: a C API that turns loads, stores, micro-op kernels,
 * GEMM/ALU operations and dependency tokens into a checked VTA program, the way VTA's
 * runtime (runtime.cc) builds its command queue. Usable directly by firmware developers;
 * the ADD and CONV2D emitters are written on top of it.
 *
 * docs/runtime.md "The stream builder" walks it: the DRAM bump allocator, micro-op kernels
 * on a UOP SRAM ring (VTA's UopQueue), dependency pops and pushes folded into the stage's
 * instructions or NOPs (VTA's flag-or-NOP logic), the checks made before anything runs
 * (errors read "layer L: insn N (<disassembly>): problem"; the operand rules are
 * vta_rules.h's), what finish adds (drain, synchronise, FINISH, a token dry run through
 * vta_sched.h), and virtual threads (slots from vta_stream_thread_rows, reuse guarded by
 * g2l and s2g tokens).
 */
#ifndef VTA_STREAM_H
#define VTA_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vta_config.h"
#include "vta_dram.h"
#include "vta_insn.h"
#include "vta_program.h"
#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Pipeline stages, in VTA's numbering (runtime.h PipelineStage). */
typedef enum vta_stage {
	VTA_STAGE_LOAD = 1,
	VTA_STAGE_COMPUTE = 2,
	VTA_STAGE_STORE = 3
} vta_stage;

/* A 2D transfer: y_size rows of x_size elements of `mem`; DRAM row r starts x_stride
 * elements after row r-1. dram_addr is a byte address, aligned to the element size of
 * mem. Padding (loads of INP/ACC/ACC_8BIT only) adds zero elements in SRAM. */
typedef struct vta_xfer {
	vta_mem mem;
	uint32_t sram;      /* first SRAM row (first table entry for LUT/LUT32) */
	uint64_t dram_addr; /* byte address of the first element */
	uint32_t y_size, x_size, x_stride;
	uint32_t y_pad_0, y_pad_1, x_pad_0, x_pad_1;
} vta_xfer;

/* The LUT fields of a load (docs/isa.md "LUT decompression"). */
typedef struct vta_lut_fields {
	uint32_t bw;   /* 1..7: the DRAM holds packed indices of this width; 0: a table load */
	uint32_t slot; /* the descriptor used, or set by a table load */
	uint32_t chan; /* channel of the first lanes (decompressing loads) */
	uint32_t run;  /* rows of y per channel block of a multi-block load; 0: one block */
	uint32_t group, period; /* zero-lane fill of WGT rows (lut_group, lut_period); 0: off */
} vta_lut_fields;

/* Up to two loop levels around a kernel. With one loop it is the inner one (iter_out 1);
 * loop[0] is the outer loop when n == 2. Factors are added per iteration to the uop's
 * dst (ACC), src (INP for GEMM, ACC for ALU) and wgt (GEMM only) indices. */
typedef struct vta_loop_level {
	uint32_t extent;
	uint32_t dst, src, wgt;
} vta_loop_level;

typedef struct vta_loops {
	unsigned n; /* 0, 1 or 2 */
	vta_loop_level l[2];
} vta_loops;

/* What the builder emitted (static counts, from the instructions themselves). */
typedef struct vta_stream_stats {
	uint64_t insns;          /* instructions, FINISH and NOPs included */
	uint64_t nops;           /* NOP (x_size 0) loads and stores added for tokens */
	uint64_t gemm_uops;      /* GEMM uops that accumulate (reset excluded) */
	uint64_t reset_uops;     /* GEMM reset uops */
	uint64_t alu_uops;       /* ALU uops (reset excluded) */
	uint64_t alu_imm_uops;   /* the immediate ones among them */
	uint64_t alu_cycles;     /* ALU uops weighted by alu_ii / alu_imm_ii */
	uint64_t uop_loads;      /* LOAD UOP instructions (kernel cache misses) */
	uint64_t kernel_uops;    /* uops recorded in kernels (distinct) */
	uint64_t load_bytes[VTA_MEM_COUNT]; /* DRAM bytes read per memory type (no padding) */
	uint64_t store_bytes;    /* DRAM bytes written by STORE */
	uint64_t store_end;      /* first DRAM byte above every STORE's rows (0: none) */
	uint64_t dram_bytes;     /* bytes allocated in DRAM */
} vta_stream_stats;

typedef struct vta_stream vta_stream;

/* A builder for one layer (`layer` names it in errors). DRAM buffers are carved from
 * dram starting at dram_base (rounded up to the alignment). */
vta_status vta_stream_create(const vta_config *cfg, vta_dram *dram, uint64_t dram_base,
			     const char *layer, vta_stream **out, vta_error *err);
void vta_stream_destroy(vta_stream *s);
/* The DRAM is all zeros above the stream's start, and only the stream's buffers are written
 * there (through vta_stream_dram): a new buffer is then left as it is, not cleared. */
void vta_stream_dram_zeroed(vta_stream *s);

const vta_config *vta_stream_config(const vta_stream *s);
const char *vta_stream_layer(const vta_stream *s);

/* ---- DRAM ---- */

/* Allocate `bytes` (zeroed) aligned to `align` bytes (0: the largest element size of the
 * config, which suits every memory type). VTA_E_USAGE when the DRAM is too small. */
vta_status vta_stream_alloc(vta_stream *s, uint64_t bytes, uint64_t align, const char *name,
			    uint64_t *addr, vta_error *err);
/* Host pointer to DRAM byte `addr` (inside an allocated buffer). */
uint8_t *vta_stream_dram(vta_stream *s, uint64_t addr);
/* First DRAM byte after the last buffer. */
uint64_t vta_stream_dram_end(const vta_stream *s);

/* ---- transfers ---- */

/* LOAD: INP/WGT run on the load stage, UOP/ACC/ACC_8BIT on compute. */
vta_status vta_stream_load(vta_stream *s, const vta_xfer *x, vta_error *err);
/* LOAD through the LUT decoder: with lut->bw 0 and x->mem VTA_MEM_LUT (load stage) or
 * VTA_MEM_LUT32 (compute stage), y_size tables of x_size entries from table entry x->sram
 * on, setting descriptor lut->slot; with lut->bw 1..7 and x->mem WGT/INP/ACC, x_size packed
 * elements of ceil(lanes * bw / 8) bytes per row (dram_addr aligned to that), decoded
 * through descriptor lut->slot from channel lut->chan on, without padding. */
vta_status vta_stream_load_lut(vta_stream *s, const vta_xfer *x, const vta_lut_fields *lut,
			       vta_error *err);
/* STORE from OUT (store stage); no padding. */
vta_status vta_stream_store(vta_stream *s, const vta_xfer *x, vta_error *err);

/* ---- micro-op kernels, GEMM and ALU ---- */

/* Record a kernel (or find the identical one recorded before) and return its id. Uops are
 * range-checked against the micro-op field widths. */
vta_status vta_stream_kernel(vta_stream *s, const vta_uop *uops, size_t n, uint32_t *id,
			     vta_error *err);
/* GEMM over kernel `id` (reset: zero the addressed ACC rows instead of accumulating). */
vta_status vta_stream_gemm(vta_stream *s, uint32_t id, const vta_loops *loops, bool reset,
			   vta_error *err);
/* ALU over kernel `id`: ACC[dst] = op(ACC[dst], use_imm ? imm : ACC[src]); every uop of
 * the instruction shares op and imm. No reset: an ALU ignores the bit (zero rows with a GEMM
 * reset, vta_stream_gemm). Under alu.imm_operand src an immediate op reads ACC[src]: the
 * emitters then give it src == dst (vta_em_alu_rows). */
vta_status vta_stream_alu(vta_stream *s, uint32_t id, const vta_loops *loops, vta_alu_op op,
			  bool use_imm, int32_t imm, vta_error *err);

/* ---- dependencies ---- */

vta_status vta_stream_dep_push(vta_stream *s, vta_stage from, vta_stage to, vta_error *err);
vta_status vta_stream_dep_pop(vta_stream *s, vta_stage from, vta_stage to, vta_error *err);

/* ---- raw instructions ---- */

/* Append an instruction exactly as given (pending pops of its stage are merged into its
 * flags), with every check above. A LOAD UOP reads its uops from DRAM and evicts the
 * cached kernels it overwrites; a GEMM/ALU uses whatever the UOP SRAM holds. */
vta_status vta_stream_insn(vta_stream *s, const vta_insn *insn, vta_error *err);

/* ---- end ---- */

/* Drain tokens, synchronise, append FINISH, encode into `prog` (initialised here, empty
 * after a failure; the caller frees it) and dry-run the token protocol. The builder accepts
 * nothing afterwards. The UOP segments are also written into the DRAM. */
vta_status vta_stream_finish(vta_stream *s, vta_program *prog, vta_error *err);

/* Counters of what was emitted so far. */
void vta_stream_get_stats(const vta_stream *s, vta_stream_stats *st);
/* Instructions appended so far. */
size_t vta_stream_count(const vta_stream *s);

/* ---- helpers ---- */

/* Rows [*base, *base + *rows) of mem's SRAM that slot `slot` of `slots` (1 or 2) owns. */
void vta_stream_thread_rows(const vta_config *cfg, vta_mem mem, unsigned slot, unsigned slots,
			    uint32_t *base, uint32_t *rows);

/* Bytes of one DRAM element of mem (vta_config_dram_elem_bytes). */
uint32_t vta_stream_elem_bytes(const vta_config *cfg, vta_mem mem);

#ifdef __cplusplus
}
#endif

#endif /* VTA_STREAM_H */
