/*
 * vta_host_cpu.h - the vector instruction sets the host's CPU runs, asked by every kernel
 * with variants chosen at run time (the golden kernels, the quantization rows, the random
 * fill, the simulator's GEMM and ALU datapath), so that each level is one list of CPU
 * features. A level that does not run, or a host that is not x86-64, leaves the callers on
 * their portable code; every variant computes the same bits.
 */
#ifndef VTA_HOST_CPU_H
#define VTA_HOST_CPU_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum vta_host_isa {
	VTA_HOST_AVX2,        /* avx2 */
	VTA_HOST_AVX512,      /* avx2, avx512f, avx512bw, avx512vl, avx512dq */
	VTA_HOST_AVX512_VNNI, /* VTA_HOST_AVX512 and avx512vnni */
} vta_host_isa;

/* Whether the host's CPU has every feature of the level. */
bool vta_host_cpu_runs(vta_host_isa isa);

#ifdef __cplusplus
}
#endif

#endif /* VTA_HOST_CPU_H */
