/* golden_dot.c - the golden kernels' exact int8 inner product (golden_dot.h). */
#include "golden_dot.h"

#include "vta_host_cpu.h"

/* Products are at most 255 * 128 < 2^15 in magnitude: an int32 sum of 2^16 of them is exact. */
#define GD_CHUNK 65536

/* The loop every variant compiles: four rows at a time share each load of x. */
static inline __attribute__((always_inline)) void
gd_body(const uint8_t *x, const int8_t *w, size_t n, size_t rows, size_t stride, int64_t *out)
{
	size_t r = 0;
	for (; r + 4 <= rows; r += 4) {
		const int8_t *w0 = w + r * stride, *w1 = w0 + stride, *w2 = w1 + stride,
			     *w3 = w2 + stride;
		int64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
		for (size_t i0 = 0; i0 < n; i0 += GD_CHUNK) {
			size_t i1 = n - i0 < GD_CHUNK ? n : i0 + GD_CHUNK;
			int32_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
			for (size_t i = i0; i < i1; i++) {
				int32_t xi = x[i];
				s0 += w0[i] * xi;
				s1 += w1[i] * xi;
				s2 += w2[i] * xi;
				s3 += w3[i] * xi;
			}
			a0 += s0;
			a1 += s1;
			a2 += s2;
			a3 += s3;
		}
		out[r] = a0;
		out[r + 1] = a1;
		out[r + 2] = a2;
		out[r + 3] = a3;
	}
	for (; r < rows; r++) {
		const int8_t *wr = w + r * stride;
		int64_t a = 0;
		for (size_t i0 = 0; i0 < n; i0 += GD_CHUNK) {
			size_t i1 = n - i0 < GD_CHUNK ? n : i0 + GD_CHUNK;
			int32_t s = 0;
			for (size_t i = i0; i < i1; i++)
				s += wr[i] * (int32_t)x[i];
			a += s;
		}
		out[r] = a;
	}
}

/* Two input vectors against the same rows, four rows at a time: the second vector finds
 * the four rows in the first-level cache, where the first brought them (a whole filter bank
 * does not fit there), so the weights come from further away once for both. */
static inline __attribute__((always_inline)) void
gd_body2(const uint8_t *x0, const uint8_t *x1, const int8_t *w, size_t n, size_t rows,
	 size_t stride, int64_t *out0, int64_t *out1)
{
	for (size_t r = 0; r < rows; r += 4) {
		size_t k = rows - r < 4 ? rows - r : 4;
		gd_body(x0, w + r * stride, n, k, stride, out0 + r);
		gd_body(x1, w + r * stride, n, k, stride, out1 + r);
	}
}

static void gd_generic(const uint8_t *x, const int8_t *w, size_t n, size_t rows, size_t stride,
		       int64_t *out)
{
	gd_body(x, w, n, rows, stride, out);
}

static void gd2_generic(const uint8_t *x0, const uint8_t *x1, const int8_t *w, size_t n,
			size_t rows, size_t stride, int64_t *out0, int64_t *out1)
{
	gd_body2(x0, x1, w, n, rows, stride, out0, out1);
}

#if defined(__GNUC__) && defined(__x86_64__)
#define GD_X86 1
__attribute__((target("avx2"))) static void gd_avx2(const uint8_t *x, const int8_t *w, size_t n,
						     size_t rows, size_t stride, int64_t *out)
{
	gd_body(x, w, n, rows, stride, out);
}

__attribute__((target("avx2,avx512f,avx512bw,avx512vl,avx512vnni"))) static void
gd_avx512vnni(const uint8_t *x, const int8_t *w, size_t n, size_t rows, size_t stride,
	      int64_t *out)
{
	gd_body(x, w, n, rows, stride, out);
}

__attribute__((target("avx2"))) static void gd2_avx2(const uint8_t *x0, const uint8_t *x1,
						      const int8_t *w, size_t n, size_t rows,
						      size_t stride, int64_t *out0, int64_t *out1)
{
	gd_body2(x0, x1, w, n, rows, stride, out0, out1);
}

__attribute__((target("avx2,avx512f,avx512bw,avx512vl,avx512vnni"))) static void
gd2_avx512vnni(const uint8_t *x0, const uint8_t *x1, const int8_t *w, size_t n, size_t rows,
	       size_t stride, int64_t *out0, int64_t *out1)
{
	gd_body2(x0, x1, w, n, rows, stride, out0, out1);
}
#endif

size_t vta_golden_dot_variants(vta_golden_dot_variant v[VTA_GOLDEN_DOT_MAX_VARIANTS])
{
	size_t k = 0;
	v[k++] = (vta_golden_dot_variant){"generic", gd_generic, gd2_generic, 1};
#ifdef GD_X86
	v[k++] = (vta_golden_dot_variant){"avx2", gd_avx2, gd2_avx2,
					  vta_host_cpu_runs(VTA_HOST_AVX2)};
	v[k++] = (vta_golden_dot_variant){"avx512vnni", gd_avx512vnni, gd2_avx512vnni,
					  vta_host_cpu_runs(VTA_HOST_AVX512_VNNI)};
#endif
	return k;
}

/* The widest variant the host runs. */
static vta_golden_dot_variant gd_widest(void)
{
	vta_golden_dot_variant v[VTA_GOLDEN_DOT_MAX_VARIANTS];
	size_t k = vta_golden_dot_variants(v);
	while (k > 1 && !v[k - 1].runs_here)
		k--;
	return v[k - 1];
}

vta_golden_dot_fn vta_golden_dot_pick(void)
{
	return gd_widest().fn;
}

vta_golden_dot2_fn vta_golden_dot2_pick(void)
{
	return gd_widest().fn2;
}
