/*
 * test_emit_fc.c - the FULLY_CONNECTED emitter against the golden kernel on the reference
 * executor, every element: tiny, default and large configs x both arithmetic modes x 1 and
 * 2 threads x odd shapes (K and O not multiples of a block, batches 1/3/6/8, a rank-4
 * input) x per-tensor and per-channel scales x plain and LUT filters and biases in both
 * decompression modes (the decoder takes the filter like a CONV2D filter); batch lanes;
 * and the emitter's diagnostics.
 */
#include "emit_test.h"

#include "emit_fc.h"

typedef struct fc_case {
	int32_t batches, k, o;
	vta_activation act;
	int32_t zp_in, zp_out;
	unsigned filter_bits, bias_bits; /* 0: plain */
	bool per_tensor, has_bias;
	float out_scale;
} fc_case;

typedef struct fc_data {
	vta_tensor_i8 in, out, exp;
	int8_t *filter;
	float *scales;
	int32_t *bias;
	vta_fully_connected fc;
	vta_lut_buffer flut, blut;
} fc_data;

static void fc_make(const fc_case *k, uint64_t seed, vta_arith_mode mode, fc_data *d)
{
	et_rng r;
	et_seed(&r, seed);
	memset(d, 0, sizeof(*d));
	et_tensor(&r, &d->in, 1, 1, k->batches, k->k, 0.04f, k->zp_in);
	const size_t fc = (size_t)k->o * k->k;
	d->filter = malloc(fc);
	d->scales = malloc((size_t)k->o * sizeof(float));
	d->bias = malloc((size_t)k->o * sizeof(int32_t));
	for (size_t i = 0; i < fc; i++) {
		if (k->filter_bits) {
			int32_t vals = 1 << k->filter_bits;
			int32_t chan = k->per_tensor ? 0 : (int32_t)(i / (size_t)k->k) % 3;
			d->filter[i] = (int8_t)(-120 + chan + (240 / vals) * et_range(&r, 0, vals - 1));
		} else {
			d->filter[i] = (int8_t)et_range(&r, -127, 127);
		}
	}
	for (int32_t i = 0; i < k->o; i++) {
		d->scales[i] = (float)et_uniform(&r, 0.001, 0.01);
		d->bias[i] = k->bias_bits ? -9000 + 1234 * et_range(&r, 0, (1 << k->bias_bits) - 1)
					  : et_range(&r, -20000, 20000);
	}
	vta_error err = {0};
	if (k->filter_bits)
		et_assert_ok(vta_lut_compress(VTA_LUT_INT8, d->filter, fc,
					      k->per_tensor ? 1 : (size_t)k->o, false,
					      k->filter_bits, VTA_LUT_STRIDE_POW2, &d->flut, &err),
			     &err);
	if (k->bias_bits)
		et_assert_ok(vta_lut_compress(VTA_LUT_INT32, d->bias, (size_t)k->o, 1, false,
					      k->bias_bits, VTA_LUT_STRIDE_POW2, &d->blut, &err),
			     &err);
	d->fc = (vta_fully_connected){&d->in, d->filter, {k->o, k->k}, d->scales,
				      k->per_tensor ? 1 : (size_t)k->o,
				      k->has_bias ? d->bias : NULL, k->act};
	et_tensor(&r, &d->out, 1, 1, k->batches, k->o, k->out_scale, k->zp_out);
	d->exp = d->out;
	d->exp.data = malloc(vta_tensor_i8_count(&d->out));
	et_assert_ok(vta_golden_fc(&d->fc, mode, &d->exp, NULL, &err), &err);
}

static void fc_free(fc_data *d)
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

static void run_fc(const char *config, unsigned batch, const fc_case *k, vta_arith_mode mode,
		   unsigned threads, uint64_t seed, vta_decompress dec)
{
	vta_config cfg;
	et_config(config, &cfg);
	if (batch > 1) {
		vta_error berr = {0};
		cfg.log_batch = batch == 2 ? 1 : 2;
		et_assert_ok(vta_config_derive(&cfg, &berr), &berr);
	}
	fc_data d;
	fc_make(k, seed, mode, &d);
	vta_error err = {0};
	vta_dram dram;
	et_assert_ok(vta_dram_init(&dram, (uint64_t)cfg.dram_size_mib << 20, &err), &err);
	vta_layer_stream ls;
	vta_emit_opts opts = {.mode = mode, .threads = threads, .dram_base = 0, .name = "fc_test",
			      .decompress = dec};
	vta_fully_connected fc = d.fc;
	const bool blut = k->bias_bits && k->has_bias;
	if (k->filter_bits)
		fc.filter = NULL;
	if (blut)
		fc.bias = NULL;
	vta_status st = vta_emit_fully_connected(&cfg, &fc, k->filter_bits ? &d.flut.tensor : NULL,
						 blut ? &d.blut.tensor : NULL, &d.out, &opts,
						 &dram, &ls, &err);
	et_assert_ok(st, &err);
	st = et_run(&cfg, &ls, &dram, NULL, &err);
	if (st != VTA_OK)
		print_error("plan: %s\n", ls.plan);
	et_assert_ok(st, &err);
	char what[200];
	snprintf(what, sizeof(what), "FC %s batch %u %s threads %u [%d, %d] -> %d", config, batch,
		 mode == VTA_ARITH_TFLITE ? "tflite" : "vta16", threads, k->batches, k->k, k->o);
	if (getenv("ET_VERBOSE"))
		print_message("%s: %s\n", what, ls.plan);
	et_check_output(&ls, &dram, &d.exp, what);
	assert_int_equal(ls.counters.macs, (uint64_t)k->batches * k->k * k->o);
	if (dec == VTA_DECOMPRESS_HW && (k->filter_bits || blut)) {
		assert_true(ls.counters.lut_hw_bytes > 0);
		if (k->filter_bits) /* the filter through the decoder, as a CONV2D filter */
			assert_true(ls.counters.stream.load_bytes[VTA_MEM_LUT] > 0);
	}
	vta_layer_stream_free(&ls);
	vta_dram_free(&dram);
	fc_free(&d);
}

static const fc_case cases[] = {
	/* batches k    o  act                 zpi   zpo fb bb pt     bias   s_out */
	{1, 37, 21, VTA_ACT_NONE, -128, -20, 4, 0, false, true, 0.1f},
	{6, 50, 17, VTA_ACT_RELU, 5, 3, 2, 3, true, true, 0.08f},
	{1, 72, 10, VTA_ACT_RELU6, -3, 1, 6, 0, false, false, 0.05f},
	{3, 33, 35, VTA_ACT_RELU_N1_TO_1, 9, -9, 0, 0, false, true, 0.06f},
	{8, 16, 16, VTA_ACT_NONE, 0, 0, 7, 2, false, true, 0.2f},
	{2, 300, 5, VTA_ACT_NONE, 17, -3, 0, 0, true, true, 0.3f},
};

static void test_fc_matrix(void **state)
{
	(void)state;
	const char *configs[] = {"tiny", "default", "large"};
	const vta_arith_mode modes[] = {VTA_ARITH_TFLITE, VTA_ARITH_VTA16};
	uint64_t seed = 3000;
	for (size_t ci = 0; ci < 3; ci++)
		for (size_t mi = 0; mi < 2; mi++)
			for (unsigned th = 1; th <= 2; th++)
				for (int dec = 0; dec < 2; dec++)
					for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
						run_fc(configs[ci], 1, &cases[k], modes[mi], th,
						       seed++,
						       dec ? VTA_DECOMPRESS_HW : VTA_DECOMPRESS_HOST);
	/* batch lanes: 6 and 8 batch rows over 2 and 4 lanes, 3 rows over one lane */
	for (unsigned batch = 2; batch <= 4; batch += 2)
		for (size_t k = 1; k < 5; k++)
			for (int m = 0; m < 2; m++)
				run_fc("tiny", batch, &cases[k], m ? VTA_ARITH_VTA16 : VTA_ARITH_TFLITE,
				       2, seed++, m ? VTA_DECOMPRESS_HW : VTA_DECOMPRESS_HOST);
}

static void test_fc_errors(void **state)
{
	(void)state;
	vta_config tiny;
	et_config("tiny", &tiny);
	const fc_case k = {2, 10, 6, VTA_ACT_NONE, 0, 0, 0, 0, false, true, 0.05f};
	fc_data d;
	fc_make(&k, 3, VTA_ARITH_TFLITE, &d);
	vta_error err = {0};
	vta_dram dram;
	et_assert_ok(vta_dram_init(&dram, 8u << 20, &err), &err);
	vta_layer_stream ls;
	vta_emit_opts opts = {.mode = VTA_ARITH_TFLITE, .threads = 1, .dram_base = 0, .name = "neg",
			      .decompress = VTA_DECOMPRESS_HOST};
	vta_fully_connected bad = d.fc;
	bad.filter_shape[1] = 7;
	assert_int_equal(vta_emit_fully_connected(&tiny, &bad, NULL, NULL, &d.out, &opts, &dram,
						  &ls, &err),
			 VTA_E_USAGE);
	et_assert_error(&err, VTA_E_USAGE, "layer neg: FULLY_CONNECTED filter [6, 7] does not fit "
					   "an input of 20 elements");
	vta_tensor_i8 out = d.out;
	out.shape[2] = 3;
	assert_int_equal(vta_emit_fully_connected(&tiny, &d.fc, NULL, NULL, &out, &opts, &dram,
						  &ls, &err),
			 VTA_E_USAGE);
	et_assert_error(&err, VTA_E_USAGE, "output [1, 1, 3, 6] should hold 2 x 6 elements");
	int32_t vals[4] = {1, 2, 3, 4};
	vta_lut_buffer lb;
	et_assert_ok(vta_lut_compress(VTA_LUT_INT32, vals, 4, 1, false, 2, VTA_LUT_STRIDE_POW2, &lb,
				      &err),
		     &err);
	assert_int_equal(vta_emit_fully_connected(&tiny, &d.fc, &lb.tensor, NULL, &d.out, &opts,
						  &dram, &ls, &err),
			 VTA_E_USAGE);
	et_assert_error(&err, VTA_E_USAGE, "filter: LUT tensor holds 4 int32 values");
	vta_lut_buffer_free(&lb);
	vta_config plain;
	vta_config_default(&plain);
	plain.alu_tflite_ext = false;
	assert_int_equal(vta_emit_fully_connected(&plain, &d.fc, NULL, NULL, &d.out, &opts, &dram,
						  &ls, &err),
			 VTA_E_UNSUPPORTED);
	et_assert_error(&err, VTA_E_UNSUPPORTED, "alu.tflite_ext false");
	vta_dram_free(&dram);
	fc_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fc_matrix),
		cmocka_unit_test(test_fc_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
