/* vta_host_cpu.c - the host CPU's vector instruction sets (vta_host_cpu.h). */
#include "vta_host_cpu.h"

bool vta_host_cpu_runs(vta_host_isa isa)
{
#if defined(__GNUC__) && defined(__x86_64__)
	__builtin_cpu_init();
	const bool avx2 = __builtin_cpu_supports("avx2");
	const bool avx512 = avx2 && __builtin_cpu_supports("avx512f") &&
			    __builtin_cpu_supports("avx512bw") &&
			    __builtin_cpu_supports("avx512vl") &&
			    __builtin_cpu_supports("avx512dq");
	switch (isa) {
	case VTA_HOST_AVX2: return avx2;
	case VTA_HOST_AVX512: return avx512;
	case VTA_HOST_AVX512_VNNI: return avx512 && __builtin_cpu_supports("avx512vnni");
	}
	return false;
#else
	(void)isa;
	return false;
#endif
}
