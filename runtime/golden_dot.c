/* golden_dot.c - the golden kernels' exact int8 inner product (golden_dot.h). */
#include "golden_dot.h"

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

/* Two input vectors against the same rows: each load of a weight serves both, which halves
 * the weight traffic (a filter bank does not fit the first-level cache). Four rows at a
 * time, eight sums. */
static inline __attribute__((always_inline)) void
gd_body2(const uint8_t *x0, const uint8_t *x1, const int8_t *w, size_t n, size_t rows,
	 size_t stride, int64_t *out0, int64_t *out1)
{
	size_t r = 0;
	for (; r + 4 <= rows; r += 4) {
		const int8_t *w0 = w + r * stride, *w1 = w0 + stride, *w2 = w1 + stride,
			     *w3 = w2 + stride;
		int64_t a00 = 0, a01 = 0, a02 = 0, a03 = 0, a10 = 0, a11 = 0, a12 = 0, a13 = 0;
		for (size_t i0 = 0; i0 < n; i0 += GD_CHUNK) {
			size_t i1 = n - i0 < GD_CHUNK ? n : i0 + GD_CHUNK;
			int32_t s00 = 0, s01 = 0, s02 = 0, s03 = 0;
			int32_t s10 = 0, s11 = 0, s12 = 0, s13 = 0;
			for (size_t i = i0; i < i1; i++) {
				int32_t p = x0[i], q = x1[i];
				s00 += w0[i] * p;
				s01 += w1[i] * p;
				s02 += w2[i] * p;
				s03 += w3[i] * p;
				s10 += w0[i] * q;
				s11 += w1[i] * q;
				s12 += w2[i] * q;
				s13 += w3[i] * q;
			}
			a00 += s00;
			a01 += s01;
			a02 += s02;
			a03 += s03;
			a10 += s10;
			a11 += s11;
			a12 += s12;
			a13 += s13;
		}
		out0[r] = a00;
		out0[r + 1] = a01;
		out0[r + 2] = a02;
		out0[r + 3] = a03;
		out1[r] = a10;
		out1[r + 1] = a11;
		out1[r + 2] = a12;
		out1[r + 3] = a13;
	}
	if (r < rows) {
		gd_body(x0, w + r * stride, n, rows - r, stride, out0 + r);
		gd_body(x1, w + r * stride, n, rows - r, stride, out1 + r);
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
	__builtin_cpu_init();
	v[k++] = (vta_golden_dot_variant){"avx2", gd_avx2, gd2_avx2,
					  __builtin_cpu_supports("avx2")};
	v[k++] = (vta_golden_dot_variant){"avx512vnni", gd_avx512vnni, gd2_avx512vnni,
					  __builtin_cpu_supports("avx512f") &&
						  __builtin_cpu_supports("avx512bw") &&
						  __builtin_cpu_supports("avx512vl") &&
						  __builtin_cpu_supports("avx512vnni")};
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
