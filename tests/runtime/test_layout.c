/*
 * test_layout.c - the conv layouts (layout.h), which copy runs of channels, against the
 * element-by-element definition written out here: batches of one and more, channel counts
 * that do and do not fill the last block, extra zero blocks, padding and windows that crop.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "layout.h"
#include "rt_test.h"

/* ---- the definitions, one element at a time ---- */

/* Element (n, c) of padded pixel (iy, ix): the input's value, `fill` outside the image, 0
 * for lanes and channels beyond the tensor. */
static int8_t ref_input_elem(const vta_tensor_i8 *in, uint64_t n, uint64_t c, int32_t iy,
			     int32_t ix, int8_t fill)
{
	const int32_t H = in->shape[1], W = in->shape[2];
	if (n >= (uint64_t)in->shape[0] || c >= (uint64_t)in->shape[3])
		return 0;
	if (iy < 0 || iy >= H || ix < 0 || ix >= W)
		return fill;
	return in->data[vta_tensor_i8_offset(in, (int32_t)n, iy, ix, (int32_t)c)];
}

static void ref_input(const vta_config *cfg, const vta_tensor_i8 *in, const vta_layout_window *w,
		      int8_t fill, uint8_t *p)
{
	const uint64_t B = cfg->batch, BI = cfg->block_in;
	uint64_t cb = vta_layout_div_up((uint64_t)in->shape[3], BI);
	if (w->cb > cb)
		cb = w->cb;
	for (uint64_t g = 0; g < vta_layout_div_up((uint64_t)in->shape[0], B); g++)
		for (int32_t y = 0; y < w->hp; y++)
			for (int32_t x = 0; x < w->wp; x++)
				for (uint64_t c0 = 0; c0 < cb; c0++)
					for (uint64_t b = 0; b < B; b++)
						for (uint64_t i = 0; i < BI; i++)
							*p++ = (uint8_t)ref_input_elem(
								in, g * B + b, c0 * BI + i,
								y - w->pad_top, x - w->pad_left,
								fill);
}

static void ref_filter(const vta_config *cfg, const int8_t *f, const int32_t ohwi[4], uint8_t *p)
{
	const uint64_t O = (uint64_t)ohwi[0], KH = (uint64_t)ohwi[1], KW = (uint64_t)ohwi[2];
	const uint64_t C = (uint64_t)ohwi[3], BO = cfg->block_out, BI = cfg->block_in;
	for (uint64_t o0 = 0; o0 < vta_layout_div_up(O, BO); o0++)
		for (uint64_t ky = 0; ky < KH; ky++)
			for (uint64_t kx = 0; kx < KW; kx++)
				for (uint64_t c0 = 0; c0 < vta_layout_div_up(C, BI); c0++)
					for (uint64_t o = 0; o < BO; o++)
						for (uint64_t i = 0; i < BI; i++, p++) {
							uint64_t oc = o0 * BO + o, c = c0 * BI + i;
							uint64_t t = (oc * KH + ky) * KW + kx;
							*p = oc < O && c < C ? (uint8_t)f[t * C + c]
									     : 0;
						}
}

static void ref_output(const vta_config *cfg, const uint8_t *src, const int32_t nhwc[4],
		       int8_t *out)
{
	const uint64_t N = (uint64_t)nhwc[0], H = (uint64_t)nhwc[1], W = (uint64_t)nhwc[2];
	const uint64_t O = (uint64_t)nhwc[3], B = cfg->batch, BO = cfg->block_out;
	const uint64_t ob = vta_layout_div_up(O, BO);
	for (uint64_t n = 0; n < N; n++)
		for (uint64_t y = 0; y < H; y++)
			for (uint64_t x = 0; x < W; x++)
				for (uint64_t c = 0; c < O; c++) {
					uint64_t row = (((n / B) * H + y) * W + x) * ob + c / BO;
					uint64_t lane = (n % B) * BO + c % BO;
					out[((n * H + y) * W + x) * O + c] =
						(int8_t)src[row * B * BO + lane];
				}
}

/* ---- random cases ---- */

static void random_bytes(rt_rng *r, void *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		((uint8_t *)p)[i] = (uint8_t)rt_rng_next(r);
}

/* batch, block_in, block_out as the conv layouts read them (nothing else of the config) */
static void shape_config(vta_config *cfg, unsigned batch, unsigned bi, unsigned bo)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->batch = batch;
	cfg->block_in = bi;
	cfg->block_out = bo;
	cfg->sram[VTA_MEM_INP].elem_bytes = batch * bi;
	cfg->sram[VTA_MEM_WGT].elem_bytes = bo * bi;
	cfg->sram[VTA_MEM_OUT].elem_bytes = batch * bo;
}

static const unsigned geometries[][3] = {{1, 16, 16}, {1, 4, 4}, {2, 8, 4}, {4, 4, 8}};

static void test_conv_input(void **state)
{
	(void)state;
	rt_rng r;
	rt_rng_seed(&r, 7);
	for (size_t gi = 0; gi < sizeof(geometries) / sizeof(geometries[0]); gi++)
		for (int k = 0; k < 40; k++) {
			vta_config cfg;
			shape_config(&cfg, geometries[gi][0], geometries[gi][1], geometries[gi][2]);
			vta_tensor_i8 in = {.shape = {1 + (int32_t)rt_rng_below(&r, 5),
						      1 + (int32_t)rt_rng_below(&r, 9),
						      1 + (int32_t)rt_rng_below(&r, 9),
						      1 + (int32_t)rt_rng_below(&r, 40)}};
			size_t count = (size_t)in.shape[0] * (size_t)in.shape[1] *
				       (size_t)in.shape[2] * (size_t)in.shape[3];
			in.data = malloc(count);
			assert_non_null(in.data);
			random_bytes(&r, in.data, count);
			/* windows that pad, crop or both */
			vta_layout_window w = {(int32_t)rt_rng_below(&r, 5) - 2,
					       (int32_t)rt_rng_below(&r, 5) - 2,
					       1 + (int32_t)rt_rng_below(&r, 13),
					       1 + (int32_t)rt_rng_below(&r, 13),
					       (uint32_t)rt_rng_below(&r, 14)};
			int8_t fill = (int8_t)rt_rng_next(&r);
			size_t bytes = (size_t)vta_layout_conv_input_bytes(&cfg, in.shape, &w);
			uint8_t *got = malloc(bytes), *want = malloc(bytes);
			assert_non_null(got);
			assert_non_null(want);
			memset(got, 0xa5, bytes);
			vta_layout_conv_input(&cfg, &in, &w, fill, got);
			ref_input(&cfg, &in, &w, fill, want);
			assert_memory_equal(got, want, bytes);
			free(got);
			free(want);
			free(in.data);
		}
}

static void test_conv_filter(void **state)
{
	(void)state;
	rt_rng r;
	rt_rng_seed(&r, 11);
	for (size_t gi = 0; gi < sizeof(geometries) / sizeof(geometries[0]); gi++)
		for (int k = 0; k < 40; k++) {
			vta_config cfg;
			shape_config(&cfg, geometries[gi][0], geometries[gi][1], geometries[gi][2]);
			int32_t ohwi[4] = {1 + (int32_t)rt_rng_below(&r, 40),
					   1 + (int32_t)rt_rng_below(&r, 4),
					   1 + (int32_t)rt_rng_below(&r, 4),
					   1 + (int32_t)rt_rng_below(&r, 40)};
			size_t count = (size_t)ohwi[0] * (size_t)ohwi[1] * (size_t)ohwi[2] *
				       (size_t)ohwi[3];
			int8_t *f = malloc(count);
			size_t bytes = (size_t)vta_layout_conv_filter_bytes(&cfg, ohwi);
			uint8_t *got = malloc(bytes), *want = malloc(bytes);
			assert_non_null(f);
			assert_non_null(got);
			assert_non_null(want);
			random_bytes(&r, f, count);
			memset(got, 0xa5, bytes);
			vta_layout_conv_filter(&cfg, f, ohwi, got);
			ref_filter(&cfg, f, ohwi, want);
			assert_memory_equal(got, want, bytes);
			free(f);
			free(got);
			free(want);
		}
}

static void test_conv_output(void **state)
{
	(void)state;
	rt_rng r;
	rt_rng_seed(&r, 13);
	for (size_t gi = 0; gi < sizeof(geometries) / sizeof(geometries[0]); gi++)
		for (int k = 0; k < 40; k++) {
			vta_config cfg;
			shape_config(&cfg, geometries[gi][0], geometries[gi][1], geometries[gi][2]);
			int32_t nhwc[4] = {1 + (int32_t)rt_rng_below(&r, 5),
					   1 + (int32_t)rt_rng_below(&r, 9),
					   1 + (int32_t)rt_rng_below(&r, 9),
					   1 + (int32_t)rt_rng_below(&r, 40)};
			size_t bytes = (size_t)vta_layout_conv_output_bytes(&cfg, nhwc);
			size_t count = (size_t)nhwc[0] * (size_t)nhwc[1] * (size_t)nhwc[2] *
				       (size_t)nhwc[3];
			uint8_t *src = malloc(bytes);
			int8_t *got = malloc(count), *want = malloc(count);
			assert_non_null(src);
			assert_non_null(got);
			assert_non_null(want);
			random_bytes(&r, src, bytes);
			vta_layout_conv_output(&cfg, src, nhwc, got);
			ref_output(&cfg, src, nhwc, want);
			assert_memory_equal(got, want, count);
			free(src);
			free(got);
			free(want);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conv_input),
		cmocka_unit_test(test_conv_filter),
		cmocka_unit_test(test_conv_output),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
