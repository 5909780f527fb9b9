/*
 * test_emit_depthwise.c - the DEPTHWISE_CONV_2D emitter against the golden kernel on the
 * reference executor, every element: tiny, default and large configs x both arithmetic
 * modes x 1 and 2 threads x odd shapes (channels 1/5/17/37/40, depth multipliers 1/2/3,
 * stride 2, dilation 2, 5x5 and 1x3 filters, SAME and VALID, zero points at the borders,
 * batch 2) x plain and LUT filters and biases in both decompression modes; batch lanes; the
 * GEMM work (useful against issued MACs); and the emitter's diagnostics.
 */
#include "emit_test.h"

#include "emit_depthwise.h"

typedef struct dw_case {
	int32_t n, h, w, c, m, kh, kw;
	int32_t sh, sw, dh, dw;
	vta_padding pad;
	vta_activation act;
	int32_t zp_in, zp_out;
	unsigned filter_bits, bias_bits; /* 0: plain */
	bool per_tensor;
	float out_scale;
} dw_case;

typedef struct dw_data {
	vta_tensor_i8 in, out, exp;
	int8_t *filter;
	float *scales;
	int32_t *bias;
	vta_depthwise_conv2d dw;
	vta_lut_buffer flut, blut;
} dw_data;

static void dw_make(const dw_case *k, uint64_t seed, vta_arith_mode mode, dw_data *d)
{
	et_rng r;
	et_seed(&r, seed);
	memset(d, 0, sizeof(*d));
	et_tensor(&r, &d->in, k->n, k->h, k->w, k->c, 0.05f, k->zp_in);
	const int32_t o = k->c * k->m;
	const size_t fc = (size_t)k->kh * k->kw * o;
	d->filter = malloc(fc);
	d->scales = malloc((size_t)o * sizeof(float));
	d->bias = malloc((size_t)o * sizeof(int32_t));
	for (size_t i = 0; i < fc; i++) {
		if (k->filter_bits) {
			int32_t vals = 1 << k->filter_bits;
			d->filter[i] = (int8_t)(-120 + (int32_t)(i % (size_t)o) % 5 +
						(240 / vals) * et_range(&r, 0, vals - 1));
		} else {
			d->filter[i] = (int8_t)et_range(&r, -127, 127);
		}
	}
	for (int32_t i = 0; i < o; i++) {
		d->scales[i] = (float)et_uniform(&r, 0.002, 0.05);
		d->bias[i] = k->bias_bits ? -3000 + 777 * et_range(&r, 0, (1 << k->bias_bits) - 1)
					  : et_range(&r, -6000, 6000);
	}
	vta_error err = {0};
	if (k->filter_bits) /* per channel along the last axis, as TFLite quantizes it */
		et_assert_ok(vta_lut_compress(VTA_LUT_INT8, d->filter, fc, (size_t)o, true,
					      k->filter_bits, VTA_LUT_STRIDE_POW2, &d->flut, &err),
			     &err);
	if (k->bias_bits)
		et_assert_ok(vta_lut_compress(VTA_LUT_INT32, d->bias, (size_t)o, 1, false,
					      k->bias_bits, VTA_LUT_STRIDE_POW2, &d->blut, &err),
			     &err);
	d->dw = (vta_depthwise_conv2d){&d->in, d->filter, {1, k->kh, k->kw, o}, k->m, d->scales,
				       k->per_tensor ? 1 : (size_t)o, d->bias, k->sh, k->sw,
				       k->dh, k->dw, k->pad, k->act};
	int32_t os[4];
	et_assert_ok(vta_golden_depthwise_shape(&d->dw, os, &err), &err);
	et_tensor(&r, &d->out, os[0], os[1], os[2], os[3], k->out_scale, k->zp_out);
	d->exp = d->out;
	d->exp.data = malloc(vta_tensor_i8_count(&d->out));
	et_assert_ok(vta_golden_depthwise(&d->dw, mode, &d->exp, NULL, &err), &err);
}

static void dw_free(dw_data *d)
{
	free(d->in.data);
	free(d->out.data);
	free(d->exp.data);
	free(d->filter);
	free(d->scales);
	free(d->bias);
	vta_lut_buffer_free(&d->flut);
	vta_lut_buffer_free(&d->blut);
}

static void run_dw(const char *config, unsigned batch, const dw_case *k, vta_arith_mode mode,
		   unsigned threads, uint64_t seed, vta_decompress dec)
{
	vta_config cfg;
	et_config(config, &cfg);
	if (batch > 1) {
		vta_error berr = {0};
		cfg.log_batch = batch == 2 ? 1 : 2;
		et_assert_ok(vta_config_derive(&cfg, &berr), &berr);
	}
	dw_data d;
	dw_make(k, seed, mode, &d);
	vta_error err = {0};
	vta_dram dram;
	et_assert_ok(vta_dram_init(&dram, (uint64_t)cfg.dram_size_mib << 20, &err), &err);
	vta_layer_stream ls;
	vta_emit_opts opts = {.mode = mode, .threads = threads, .dram_base = 0, .name = "dw_test",
			      .decompress = dec};
	vta_depthwise_conv2d dw = d.dw;
	if (k->filter_bits)
		dw.filter = NULL; /* the emitter must decode the LUT */
	if (k->bias_bits)
		dw.bias = NULL;
	vta_status st = vta_emit_depthwise_conv2d(&cfg, &dw, k->filter_bits ? &d.flut.tensor : NULL,
						  k->bias_bits ? &d.blut.tensor : NULL, &d.out,
						  &opts, &dram, &ls, &err);
	et_assert_ok(st, &err);
	st = et_run(&cfg, &ls, &dram, NULL, &err);
	if (st != VTA_OK)
		print_error("plan: %s\n", ls.plan);
	et_assert_ok(st, &err);
	char what[200];
	snprintf(what, sizeof(what), "DW %s batch %u %s threads %u in [%d,%d,%d,%d] m %d k %dx%d",
		 config, batch, mode == VTA_ARITH_TFLITE ? "tflite" : "vta16", threads, k->n, k->h,
		 k->w, k->c, k->m, k->kh, k->kw);
	if (getenv("ET_VERBOSE"))
		print_message("%s: %s\n", what, ls.plan);
	et_check_output(&ls, &dram, &d.exp, what);
	/* useful MACs: every output element reads KH x KW taps of one input channel */
	assert_int_equal(ls.counters.macs, (uint64_t)vta_tensor_i8_count(&d.out) * k->kh * k->kw);
	/* a filter (spread over its units' blocks) and a bias decoded by the hardware */
	if (dec == VTA_DECOMPRESS_HW)
		assert_true((ls.counters.lut_hw_bytes > 0) ==
			    (k->bias_bits > 0 || k->filter_bits > 0));
	vta_layer_stream_free(&ls);
	vta_dram_free(&dram);
	dw_free(&d);
}

static const dw_case cases[] = {
	/* n  h   w   c  m kh kw sh sw dh dw pad                act           zpi  zpo  fb bb pt  s_out */
	{1, 9, 11, 17, 1, 3, 3, 1, 1, 1, 1, VTA_PADDING_SAME, VTA_ACT_RELU6, -7, -5, 0, 0, false, 0.02f},
	{1, 13, 7, 37, 2, 3, 3, 2, 2, 1, 1, VTA_PADDING_SAME, VTA_ACT_RELU, 11, 7, 3, 2, false, 0.05f},
	{1, 11, 11, 5, 3, 3, 3, 1, 1, 2, 2, VTA_PADDING_VALID, VTA_ACT_NONE, -128, 0, 0, 0, true, 0.04f},
	{2, 8, 9, 40, 1, 5, 5, 1, 2, 1, 1, VTA_PADDING_SAME, VTA_ACT_RELU_N1_TO_1, 3, -1, 0, 3, false, 0.03f},
	{1, 6, 6, 1, 1, 1, 3, 1, 1, 1, 1, VTA_PADDING_SAME, VTA_ACT_NONE, 127, 2, 2, 0, false, 0.01f},
	{1, 16, 16, 32, 1, 3, 3, 2, 2, 1, 1, VTA_PADDING_SAME, VTA_ACT_RELU, 0, -128, 0, 0, false, 0.1f},
};

static void test_dw_matrix(void **state)
{
	(void)state;
	const char *configs[] = {"tiny", "default", "large"};
	const vta_arith_mode modes[] = {VTA_ARITH_TFLITE, VTA_ARITH_VTA16};
	uint64_t seed = 2000;
	for (size_t ci = 0; ci < 3; ci++)
		for (size_t mi = 0; mi < 2; mi++)
			for (unsigned th = 1; th <= 2; th++)
				for (int dec = 0; dec < 2; dec++)
					for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
						run_dw(configs[ci], 1, &cases[k], modes[mi], th,
						       seed++,
						       dec ? VTA_DECOMPRESS_HW : VTA_DECOMPRESS_HOST);
	for (unsigned batch = 2; batch <= 4; batch += 2)
		for (int m = 0; m < 2; m++)
			run_dw("tiny", batch, &cases[3], m ? VTA_ARITH_VTA16 : VTA_ARITH_TFLITE, 2,
			       seed++, VTA_DECOMPRESS_HOST);
}

/* The GEMM issues one micro-op per (pixel, output block, tap): block_in x block_out MACs
 * of which block_out are useful (one input channel per output lane). */
static void test_dw_gemm_work(void **state)
{
	(void)state;
	vta_config cfg;
	et_config("default", &cfg);
	const dw_case k = {1, 16, 16, 32, 1, 3, 3, 1, 1, 1, 1, VTA_PADDING_SAME, VTA_ACT_NONE, 0, 0,
			   0, 0, false, 0.05f};
	dw_data d;
	dw_make(&k, 1, VTA_ARITH_TFLITE, &d);
	vta_error err = {0};
	vta_dram dram;
	et_assert_ok(vta_dram_init(&dram, 64u << 20, &err), &err);
	vta_layer_stream ls;
	vta_emit_opts opts = {.mode = VTA_ARITH_TFLITE, .threads = 2, .dram_base = 0, .name = "dw",
			      .decompress = VTA_DECOMPRESS_HOST};
	et_assert_ok(vta_emit_depthwise_conv2d(&cfg, &d.dw, NULL, NULL, &d.out, &opts, &dram, &ls,
					       &err),
		     &err);
	const uint64_t useful = 16ull * 16 * 32 * 9;
	assert_int_equal(ls.counters.macs, useful);
	const uint64_t issued = ls.counters.stream.gemm_uops * cfg.batch * cfg.block_in *
				cfg.block_out;
	/* 16 x 16 pixels x 2 blocks x 9 taps, no dummy micro-ops on this shape */
	assert_int_equal(ls.counters.stream.gemm_uops, 16ull * 16 * 2 * 9);
	assert_int_equal(issued, 16 * useful);
	et_assert_ok(et_run(&cfg, &ls, &dram, NULL, &err), &err);
	et_check_output(&ls, &dram, &d.exp, "DW gemm work");
	vta_layer_stream_free(&ls);
	vta_dram_free(&dram);
	dw_free(&d);
}

static void test_dw_errors(void **state)
{
	(void)state;
	vta_config tiny;
	et_config("tiny", &tiny);
	const dw_case k = {1, 5, 5, 4, 2, 3, 3, 1, 1, 1, 1, VTA_PADDING_SAME, VTA_ACT_NONE, 0, 0, 0,
			   0, false, 0.05f};
	dw_data d;
	dw_make(&k, 3, VTA_ARITH_TFLITE, &d);
	vta_error err = {0};
	vta_dram dram;
	et_assert_ok(vta_dram_init(&dram, 8u << 20, &err), &err);
	vta_layer_stream ls;
	vta_emit_opts opts = {.mode = VTA_ARITH_TFLITE, .threads = 1, .dram_base = 0, .name = "neg",
			      .decompress = VTA_DECOMPRESS_HOST};
	vta_depthwise_conv2d bad = d.dw;
	bad.filter_shape[3] = 6;
	assert_int_equal(vta_emit_depthwise_conv2d(&tiny, &bad, NULL, NULL, &d.out, &opts, &dram,
						   &ls, &err),
			 VTA_E_USAGE);
	et_assert_error(&err, VTA_E_USAGE, "layer neg: DEPTHWISE_CONV_2D filter [1, 3, 3, 6] is not");
	bad = d.dw;
	bad.depth_multiplier = 3;
	assert_int_equal(vta_emit_depthwise_conv2d(&tiny, &bad, NULL, NULL, &d.out, &opts, &dram,
						   &ls, &err),
			 VTA_E_USAGE);
	et_assert_error(&err, VTA_E_USAGE, "depth multiplier 3 does not match 4 input and 8 output");
	bad = d.dw;
	bad.filter = NULL;
	assert_int_equal(vta_emit_depthwise_conv2d(&tiny, &bad, NULL, NULL, &d.out, &opts, &dram,
						   &ls, &err),
			 VTA_E_USAGE);
	et_assert_error(&err, VTA_E_USAGE, "DEPTHWISE_CONV_2D has no filter data");
	int32_t vals[4] = {1, 2, 3, 4};
	vta_lut_buffer lb;
	et_assert_ok(vta_lut_compress(VTA_LUT_INT32, vals, 4, 1, false, 2, VTA_LUT_STRIDE_POW2, &lb,
				      &err),
		     &err);
	assert_int_equal(vta_emit_depthwise_conv2d(&tiny, &d.dw, &lb.tensor, NULL, &d.out, &opts,
						   &dram, &ls, &err),
			 VTA_E_USAGE);
	et_assert_error(&err, VTA_E_USAGE, "DEPTHWISE_CONV_2D filter: LUT tensor holds 4 int32");
	vta_lut_buffer_free(&lb);
	vta_tensor_i8 out = d.out;
	out.shape[3] = 4;
	assert_int_equal(vta_emit_depthwise_conv2d(&tiny, &d.dw, NULL, NULL, &out, &opts, &dram,
						   &ls, &err),
			 VTA_E_USAGE);
	et_assert_error(&err, VTA_E_USAGE, "output shape [1, 5, 5, 4] should be [1, 5, 5, 8]");
	opts.threads = 3;
	assert_int_equal(vta_emit_depthwise_conv2d(&tiny, &d.dw, NULL, NULL, &d.out, &opts, &dram,
						   &ls, &err),
			 VTA_E_USAGE);
	et_assert_error(&err, VTA_E_USAGE, "threads must be 1 or 2");
	vta_dram_free(&dram);
	dw_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dw_matrix),
		cmocka_unit_test(test_dw_gemm_work),
		cmocka_unit_test(test_dw_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
