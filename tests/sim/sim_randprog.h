/*
 * sim_randprog.h - random but valid programs for the differential tests: phases of
 * LOAD (INP/WGT) -> COMPUTE (LOAD UOP/ACC/ACC_8BIT, GEMM, ALU) -> STORE chained by tokens
 * in VTA's pattern (l2g/g2s for data ready, g2l/s2g for buffers free), with random
 * geometry, padding, strides, uops and loop nests that stay in bounds and hazard-free,
 * random NOPs, and a FINISH that waits for the last store. On a config with the LUT
 * decoder, phases also load LUT tables and decompress INP/WGT (load) or ACC (compute).
 */
#ifndef SIM_RANDPROG_H
#define SIM_RANDPROG_H

#include <stdint.h>

#include "vta_config.h"
#include "vta_program.h"

/* DRAM layout of generated programs (bytes): uop segments, input data, store outputs. */
#define RP_UOP_BASE 0x1000u
#define RP_IN_BASE 0x10000u
#define RP_IN_END 0x40000u
#define RP_OUT_BASE 0x80000u
#define RP_OUT_END 0x100000u

/* Build a program from seed into prog (initialised by the caller for cfg). */
void rp_generate(const vta_config *cfg, uint32_t seed, vta_program *prog);

#endif /* SIM_RANDPROG_H */
