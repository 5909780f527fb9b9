/*
 * vtasim_api.h - the C API of the SystemC accelerator model: the only header where C and
 * C++ meet.
 *
 * SystemC elaborates once per process: the first vtasim_sim_create() builds the model for
 * its config; later creates in the same process must pass a config with identical values
 * (else VTA_E_USAGE), and return a handle on the same model. One handle runs any number of
 * programs, one after the other; every run starts from empty SRAMs, queues and counters.
 * Different configs need different processes.
 */
#ifndef VTASIM_API_H
#define VTASIM_API_H

#include <stdint.h>

#include "vta_config.h"
#include "vta_dram.h"
#include "vta_program.h"
#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vtasim_sim vtasim_sim;

enum { VTASIM_MODULE_FETCH = 0, VTASIM_MODULE_LOAD, VTASIM_MODULE_COMPUTE, VTASIM_MODULE_STORE,
       VTASIM_MODULE_COUNT };
enum { VTASIM_SRAM_UOP = 0, VTASIM_SRAM_INP, VTASIM_SRAM_WGT, VTASIM_SRAM_ACC, VTASIM_SRAM_OUT,
       VTASIM_SRAM_COUNT };

typedef struct vtasim_module_stats {
	uint64_t insns;
	uint64_t busy_cycles;      /* executing (DMA, uops, overheads) */
	uint64_t stall_dep_cycles; /* waiting for a dependency token to pop */
	uint64_t stall_mem_cycles; /* waiting for the DRAM port or a full queue */
} vtasim_module_stats;

typedef struct vtasim_sram_stats {
	uint64_t capacity_bytes;
	uint64_t peak_bytes; /* peak live bytes (docs/architecture.md defines "live") */
	uint64_t reads, writes; /* row accesses */
} vtasim_sram_stats;

typedef struct vtasim_stats {
	uint64_t cycles;          /* launch to FINISH retiring */
	double time_us;           /* cycles at the configured clock */
	uint64_t gemm_uops;       /* GEMM uops executed (reset uops included) */
	uint64_t alu_uops;
	uint64_t macs;            /* gemm uops (non-reset) x batch x block_in x block_out */
	double gemm_utilization;  /* non-reset GEMM uops x gemm_ii / cycles */
	vtasim_module_stats module[VTASIM_MODULE_COUNT];
	vtasim_sram_stats sram[VTASIM_SRAM_COUNT];
	uint64_t dram_read_bytes[VTA_MEM_COUNT]; /* index vta_mem; instruction fetch is not a
						   memory type: see dram_insn_bytes */
	uint64_t dram_insn_bytes;                /* FETCH's reads of the stream */
	uint64_t dram_write_bytes;               /* STORE */
	uint64_t dram_busy_cycles;               /* cycles the DRAM port transferred data */
	double host_seconds;                     /* wall time of the run */
} vtasim_stats;

vta_status vtasim_sim_create(const vta_config *cfg, vtasim_sim **out, vta_error *err);
void vtasim_sim_destroy(vtasim_sim *sim);

/* Run one program over dram (segments already placed). On VTA_OK, stats are filled and
 * dram holds what STORE wrote. On a simulation problem (deadlock, OOB, flags, unsupported
 * op, cycle budget), err names the instruction index and what it waited on; stats hold the
 * counters up to that point. */
vta_status vtasim_sim_run(vtasim_sim *sim, const vta_program *prog, vta_dram *dram,
			  vtasim_stats *stats, vta_error *err);

/* SRAM contents after the last run, in the reference executor's layout (vta_ref.h). */
const uint8_t *vtasim_sim_sram(const vtasim_sim *sim, vta_mem mem, uint64_t *size);

#ifdef __cplusplus
}
#endif

#endif /* VTASIM_API_H */
