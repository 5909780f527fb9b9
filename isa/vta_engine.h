/*
 * vta_engine.h - what executes a program: the reference executor (vta_ref_engine, untimed),
 * the SystemC model (vtasim_engine, sim/vtasim_api.h, timed), or anything else that runs a
 * stream over a DRAM. The runtime's pipeline takes an engine without knowing which, so
 * runtime/ needs nothing from sim/. An engine is embedded first in its implementation's
 * handle, which `run` casts `self` back to (no void *). A timed engine fills vta_run_stats.
 */
#ifndef VTA_ENGINE_H
#define VTA_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vta_config.h"
#include "vta_dram.h"
#include "vta_program.h"
#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The stages of the accelerator (FETCH and the three vta_module queues), as the statistics
 * index them; the SRAMs' statistics slots are the memory table's (vta_sram_slot). */
enum { VTA_STATS_FETCH = 0, VTA_STATS_LOAD, VTA_STATS_COMPUTE, VTA_STATS_STORE,
       VTA_STATS_MODULES };

typedef struct vta_module_stats {
	uint64_t insns;
	uint64_t busy_cycles;      /* executing (DMA, uops, overheads) */
	uint64_t stall_dep_cycles; /* waiting for a dependency token to pop */
	uint64_t stall_mem_cycles; /* waiting for the DRAM port or a full queue */
} vta_module_stats;

typedef struct vta_sram_stats {
	uint64_t capacity_bytes;
	uint64_t peak_bytes; /* peak live bytes (docs/architecture.md defines "live") */
	uint64_t reads, writes; /* row accesses */
} vta_sram_stats;

/* The LUT decoder in the LOAD path (docs/isa.md "LUT decompression"). */
typedef struct vta_decoder_stats {
	uint64_t busy_cycles;  /* decode cycles of decompressing loads (vta_cost.h) */
	uint64_t stall_cycles; /* cycles the decoder waited for DRAM beats: per load, the span
				  from its first data (first beat + latency) to its last data,
				  less its decode cycles, when positive (a DMA-bound load) */
	uint64_t table_loads;  /* LOADs of lut and lut32 */
	uint64_t table_bytes;  /* DRAM bytes they read */
	uint64_t index_bytes;  /* packed index bytes decompressing loads read */
	uint64_t elements;     /* elements decoded */
} vta_decoder_stats;

typedef struct vta_run_stats {
	uint64_t cycles;          /* launch to FINISH retiring */
	double time_us;           /* cycles at the configured clock */
	uint64_t gemm_uops;       /* GEMM uops executed (reset uops included) */
	uint64_t alu_uops;
	uint64_t alu_imm_uops;     /* the immediate ones among alu_uops */
	uint64_t macs;            /* gemm uops (non-reset) x batch x block_in x block_out */
	double gemm_utilization;  /* non-reset GEMM uops x gemm_ii / cycles */
	vta_module_stats module[VTA_STATS_MODULES];
	vta_sram_stats sram[VTA_STATS_SRAMS];
	uint64_t dram_read_bytes[VTA_MEM_COUNT]; /* index vta_mem (packed bytes for a
						   decompressing load); instruction fetch is
						   not a memory type: see dram_insn_bytes */
	uint64_t dram_insn_bytes;                /* FETCH's reads of the stream */
	uint64_t dram_write_bytes;               /* STORE */
	uint64_t dram_busy_cycles;               /* cycles the DRAM port transferred data */
	vta_decoder_stats decoder;
	double host_seconds;                     /* wall time of the run */
} vta_run_stats;

typedef struct vta_engine vta_engine;
struct vta_engine {
	const char *name; /* "ref", "sim": how reports name it */
	bool timed;       /* fills vta_run_stats */
	/* Run prog over dram (segments placed). stats may be NULL; an untimed engine ignores
	 * it. On failure err names the instruction, as the engine's own API does. */
	vta_status (*run)(vta_engine *self, const vta_program *prog, vta_dram *dram,
			  vta_run_stats *stats, vta_error *err);
};

/* The counts an untimed engine keeps of its last run, in vta_run_stats' fields. */
typedef struct vta_engine_counts {
	uint64_t insns[VTA_STATS_MODULES]; /* per stage (FETCH: 0) */
	uint64_t gemm_uops, alu_uops;      /* reset GEMM uops included */
	uint64_t dram_write_bytes;         /* STORE */
} vta_engine_counts;

/* A kind of engine, for a caller that picks engines by name and compares them: how to
 * make and free one, and what it holds after a run. */
typedef struct vta_engine_kind {
	const char *name;  /* "ref", "sim": the engine's own name */
	const char *title; /* "reference executor", "model": how messages name it */
	bool timed;
	vta_status (*create)(const vta_config *cfg, vta_engine **out, vta_error *err);
	void (*destroy)(vta_engine *engine); /* NULL does nothing */
	/* SRAM mem's contents after a run, *size bytes (vta_ref_sram's layout); NULL if the
	 * engine holds no such SRAM */
	const uint8_t *(*sram)(vta_engine *engine, vta_mem mem, uint64_t *size);
	/* An untimed engine's counts of its last run; NULL for a timed one (vta_run_stats). */
	void (*counts)(vta_engine *engine, vta_engine_counts *out);
} vta_engine_kind;

/* The kind named `name` among kinds[0..n), or NULL. */
const vta_engine_kind *vta_engine_kind_find(const vta_engine_kind *const *kinds, size_t n,
					    const char *name);

#ifdef __cplusplus
}
#endif

#endif /* VTA_ENGINE_H */
