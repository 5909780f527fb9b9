/*
 * test_emit_conv2d.c - the CONV2D emitter against the golden CONV2D on the reference
 * executor, every element: both arithmetic modes x 1 and 2 threads x tiny and default
 * configs x odd shapes (channels 3/17/37, widths 7/13, stride 2, dilation 2, SAME/VALID,
 * zero points at the borders, batch 2) x plain and LUT-compressed filters and biases; and
 * the emitter's diagnostics.
 */
#include "emit_test.h"

typedef struct conv_case {
	int32_t n, h, w, c, o, kh, kw;
	int32_t sh, sw, dh, dw;
	vta_padding pad;
	vta_activation act;
	int32_t zp_in, zp_out;
	unsigned filter_bits; /* 0: plain */
	unsigned bias_bits;   /* 0: plain; bias absent when negative has_bias false */
	bool has_bias;
	bool per_tensor;      /* one filter scale */
	float out_scale;
} conv_case;

typedef struct conv_data {
	vta_tensor_i8 in, out, exp;
	int8_t *filter;
	float *scales;
	int32_t *bias;
	vta_conv2d conv;
	vta_lut_buffer flut, blut;
} conv_data;

static void conv_make(const conv_case *k, uint64_t seed, vta_arith_mode mode, conv_data *d)
{
	et_rng r;
	et_seed(&r, seed);
	memset(d, 0, sizeof(*d));
	et_tensor(&r, &d->in, k->n, k->h, k->w, k->c, 0.05f, k->zp_in);
	size_t fc = (size_t)k->o * k->kh * k->kw * k->c;
	size_t per = fc / (size_t)k->o;
	d->filter = malloc(fc);
	d->scales = malloc((size_t)k->o * sizeof(float));
	d->bias = malloc((size_t)k->o * sizeof(int32_t));
	assert_non_null(d->filter);
	for (size_t i = 0; i < fc; i++) {
		if (k->filter_bits) {
			int32_t vals = 1 << k->filter_bits;
			d->filter[i] = (int8_t)(-120 + (int32_t)(i / per) % 7 +
						(240 / vals) * et_range(&r, 0, vals - 1));
		} else {
			d->filter[i] = (int8_t)et_range(&r, -127, 127);
		}
	}
	for (int32_t o = 0; o < k->o; o++) {
		d->scales[o] = (float)et_uniform(&r, 0.002, 0.02);
		d->bias[o] = et_range(&r, -30000, 30000);
		if (k->bias_bits)
			d->bias[o] = -20000 + 1111 * et_range(&r, 0, (1 << k->bias_bits) - 1);
	}
	vta_error err = {0};
	vta_status st;
	if (k->filter_bits) {
		st = vta_lut_compress(VTA_LUT_INT8, d->filter, fc, (size_t)k->o, false,
				      k->filter_bits, VTA_LUT_STRIDE_MAX_UNIQUE, &d->flut, &err);
		et_assert_ok(st, &err);
	}
	if (k->bias_bits) {
		st = vta_lut_compress(VTA_LUT_INT32, d->bias, (size_t)k->o, 1, false, k->bias_bits,
				      VTA_LUT_STRIDE_POW2, &d->blut, &err);
		et_assert_ok(st, &err);
	}
	vta_conv2d *c = &d->conv;
	c->input = &d->in;
	c->filter = d->filter;
	c->filter_shape[0] = k->o;
	c->filter_shape[1] = k->kh;
	c->filter_shape[2] = k->kw;
	c->filter_shape[3] = k->c;
	c->filter_scales = d->scales;
	c->filter_scale_count = k->per_tensor ? 1 : (size_t)k->o;
	c->bias = k->has_bias ? d->bias : NULL;
	c->stride_h = k->sh;
	c->stride_w = k->sw;
	c->dilation_h = k->dh;
	c->dilation_w = k->dw;
	c->padding = k->pad;
	c->activation = k->act;
	int32_t os[4];
	st = vta_golden_conv2d_shape(c, os, &err);
	et_assert_ok(st, &err);
	et_tensor(&r, &d->out, os[0], os[1], os[2], os[3], k->out_scale, k->zp_out);
	d->exp = d->out;
	d->exp.data = malloc(vta_tensor_i8_count(&d->out));
	st = vta_golden_conv2d_lut(c, k->filter_bits ? &d->flut.tensor : NULL,
				   k->bias_bits && k->has_bias ? &d->blut.tensor : NULL, mode,
				   &d->exp, NULL, &err);
	et_assert_ok(st, &err);
}

static void conv_free(conv_data *d)
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

static void run_conv(const char *config, const conv_case *k, vta_arith_mode mode,
		     unsigned threads, uint64_t seed)
{
	vta_config cfg;
	et_config(config, &cfg);
	conv_data d;
	conv_make(k, seed, mode, &d);
	vta_error err = {0};
	vta_dram dram;
	vta_status st = vta_dram_init(&dram, (uint64_t)cfg.dram_size_mib << 20, &err);
	et_assert_ok(st, &err);
	vta_layer_stream ls;
	vta_emit_opts opts = {mode, threads, 0, "conv_test"};
	vta_conv2d conv = d.conv;
	if (k->filter_bits)
		conv.filter = NULL; /* the emitter must decode the LUT */
	st = vta_emit_conv2d(&cfg, &conv, k->filter_bits ? &d.flut.tensor : NULL,
			     k->bias_bits && k->has_bias ? &d.blut.tensor : NULL, &d.out, &opts,
			     &dram, &ls, &err);
	et_assert_ok(st, &err);
	st = et_run(&cfg, &ls, &dram, NULL, &err);
	if (st != VTA_OK)
		print_error("plan: %s\n", ls.plan);
	et_assert_ok(st, &err);
	char what[200];
	snprintf(what, sizeof(what),
		 "CONV %s %s threads %u in [%d,%d,%d,%d] filter [%d,%d,%d,%d] s %d,%d d %d,%d",
		 config, mode == VTA_ARITH_TFLITE ? "tflite" : "vta16", threads, k->n, k->h,
		 k->w, k->c, k->o, k->kh, k->kw, k->c, k->sh, k->sw, k->dh, k->dw);
	et_check_output(&ls, &dram, &d.exp, what);
	vta_layer_stream_free(&ls);
	vta_dram_free(&dram);
	conv_free(&d);
}

static const conv_case conv_cases[] = {
	/* n  h   w   c   o  kh kw sh sw dh dw pad                act           zpi zpo fb bb bias pt  s_out */
	{1, 7, 7, 3, 5, 3, 3, 1, 1, 1, 1, VTA_PADDING_SAME, VTA_ACT_NONE, -7, 3, 0, 0, true, false, 0.02f},
	{1, 13, 7, 17, 20, 3, 3, 2, 2, 1, 1, VTA_PADDING_SAME, VTA_ACT_RELU, 25, -4, 4, 0, true, false, 0.05f},
	{1, 9, 13, 37, 9, 3, 3, 1, 1, 2, 2, VTA_PADDING_VALID, VTA_ACT_NONE, -128, 0, 0, 3, true, false, 0.1f},
	{2, 6, 7, 16, 16, 1, 1, 2, 2, 1, 1, VTA_PADDING_SAME, VTA_ACT_RELU6, 5, 10, 2, 0, false, true, 0.01f},
	{1, 8, 8, 32, 33, 3, 3, 1, 1, 1, 1, VTA_PADDING_SAME, VTA_ACT_NONE, 3, -2, 7, 2, true, false, 0.2f},
	{1, 7, 13, 3, 4, 5, 3, 2, 1, 1, 2, VTA_PADDING_SAME, VTA_ACT_NONE, 127, 1, 0, 0, true, false, 0.002f},
	{1, 1, 1, 5, 3, 1, 1, 1, 1, 1, 1, VTA_PADDING_VALID, VTA_ACT_NONE, -1, 0, 0, 0, true, false, 0.03f},
	{1, 12, 12, 64, 64, 3, 3, 1, 1, 1, 1, VTA_PADDING_SAME, VTA_ACT_RELU, 2, -3, 0, 0, true, false, 0.3f},
	{1, 8, 8, 64, 64, 3, 3, 1, 1, 1, 1, VTA_PADDING_SAME, VTA_ACT_RELU, -3, 2, 0, 0, true, false, 0.1f},
};

static void test_conv_matrix(void **state)
{
	(void)state;
	const char *configs[] = {"tiny", "default"};
	const vta_arith_mode modes[] = {VTA_ARITH_TFLITE, VTA_ARITH_VTA16};
	uint64_t seed = 100;
	for (size_t ci = 0; ci < 2; ci++)
		for (size_t mi = 0; mi < 2; mi++)
			for (unsigned th = 1; th <= 2; th++)
				for (size_t k = 0; k < sizeof(conv_cases) / sizeof(conv_cases[0]);
				     k++)
					run_conv(configs[ci], &conv_cases[k], modes[mi], th, seed++);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conv_matrix),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
