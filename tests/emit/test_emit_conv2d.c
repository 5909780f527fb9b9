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

/* A grouped case: the filter has c / groups input channels. */
typedef struct grouped_case {
	conv_case k;
	int32_t groups;
} grouped_case;

typedef struct conv_data {
	vta_tensor_i8 in, out, exp;
	int8_t *filter;
	float *scales;
	int32_t *bias;
	vta_conv2d conv;
	vta_lut_buffer flut, blut;
} conv_data;

static void conv_make(const conv_case *k, int32_t groups, uint64_t seed, vta_arith_mode mode,
		      conv_data *d)
{
	et_rng r;
	et_seed(&r, seed);
	memset(d, 0, sizeof(*d));
	et_tensor(&r, &d->in, k->n, k->h, k->w, k->c, 0.05f, k->zp_in);
	const int32_t fin = k->c / groups;
	size_t fc = (size_t)k->o * k->kh * k->kw * fin;
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
	c->filter_shape[3] = fin;
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

static void run_conv_dec(const char *config, unsigned batch, const conv_case *k, int32_t groups,
			 vta_arith_mode mode, unsigned threads, uint64_t seed, vta_decompress dec)
{
	vta_config cfg;
	et_config(config, &cfg);
	if (batch > 1) {
		vta_error berr = {0};
		cfg.log_batch = batch == 2 ? 1 : 2;
		et_assert_ok(vta_config_derive(&cfg, &berr), &berr);
	}
	conv_data d;
	conv_make(k, groups, seed, mode, &d);
	vta_error err = {0};
	vta_dram dram;
	vta_status st = vta_dram_init(&dram, (uint64_t)cfg.dram_size_mib << 20, &err);
	et_assert_ok(st, &err);
	vta_layer_stream ls;
	vta_emit_opts opts = {.mode = mode, .threads = threads, .dram_base = 0, .name = "conv_test",
			      .decompress = dec};
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
		 "CONV %s batch %u %s threads %u in [%d,%d,%d,%d] filter [%d,%d,%d,%d] s %d,%d d %d,%d",
		 config, batch, mode == VTA_ARITH_TFLITE ? "tflite" : "vta16", threads, k->n, k->h,
		 k->w, k->c, k->o, k->kh, k->kw, d.conv.filter_shape[3], k->sh, k->sw, k->dh, k->dw);
	if (getenv("ET_VERBOSE"))
		print_message("%s: %s\n", what, ls.plan);
	et_check_output(&ls, &dram, &d.exp, what);
	if (dec == VTA_DECOMPRESS_HW && (k->filter_bits || (k->bias_bits && k->has_bias))) {
		/* the decoder did the decompression: table loads and decompressing loads (a
		 * grouped filter's indices spread over its units) */
		assert_true(ls.counters.lut_hw_bytes > 0);
		assert_true(ls.counters.stream.load_bytes[VTA_MEM_LUT] +
				    ls.counters.stream.load_bytes[VTA_MEM_LUT32] >
			    0);
	}
	vta_layer_stream_free(&ls);
	vta_dram_free(&dram);
	conv_free(&d);
}

static void run_conv(const char *config, unsigned batch, const conv_case *k,
		     vta_arith_mode mode, unsigned threads, uint64_t seed)
{
	run_conv_dec(config, batch, k, 1, mode, threads, seed, VTA_DECOMPRESS_HOST);
}

static const conv_case conv_cases[] = {
	/* n  h   w   c   o  kh kw sh sw dh dw pad                act           zpi zpo fb bb bias pt  s_out */
	{1, 7, 7, 3, 5, 3, 3, 1, 1, 1, 1, VTA_PADDING_SAME, VTA_ACT_NONE, -7, 3, 0, 0, true, false, 0.02f},
	{1, 13, 7, 17, 20, 3, 3, 2, 2, 1, 1, VTA_PADDING_SAME, VTA_ACT_RELU, 25, -4, 4, 0, true, false, 0.05f},
	{1, 9, 13, 37, 9, 3, 3, 1, 1, 2, 2, VTA_PADDING_VALID, VTA_ACT_NONE, -128, 0, 0, 3, true, false, 0.1f},
	{2, 6, 7, 16, 16, 1, 1, 2, 2, 1, 1, VTA_PADDING_SAME, VTA_ACT_RELU6, 5, 10, 2, 0, false, true, 0.01f},
	{1, 8, 8, 32, 33, 3, 3, 1, 1, 1, 1, VTA_PADDING_SAME, VTA_ACT_NONE, 3, -2, 7, 2, true, false, 0.2f},
	{1, 7, 13, 3, 4, 5, 3, 2, 1, 1, 2, VTA_PADDING_SAME, VTA_ACT_NONE, 127, 1, 0, 0, true, false, 0.002f},
	{1, 1, 1, 5, 3, 1, 1, 1, 1, 1, 1, VTA_PADDING_VALID, VTA_ACT_RELU_N1_TO_1, -1, 0, 0, 0, true, false, 0.03f},
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
					run_conv(configs[ci], 1, &conv_cases[k], modes[mi], th,
						 seed++);
}

/* The LUT cases of the matrix with the constants decompressed by the hardware decoder. */
static void test_conv_matrix_hw(void **state)
{
	(void)state;
	const char *configs[] = {"tiny", "default", "large"};
	const vta_arith_mode modes[] = {VTA_ARITH_TFLITE, VTA_ARITH_VTA16};
	uint64_t seed = 500;
	for (size_t ci = 0; ci < 3; ci++)
		for (size_t mi = 0; mi < 2; mi++)
			for (unsigned th = 1; th <= 2; th++)
				for (size_t k = 0; k < sizeof(conv_cases) / sizeof(conv_cases[0]);
				     k++)
					if (conv_cases[k].filter_bits || conv_cases[k].bias_bits)
						run_conv_dec(configs[ci], 1, &conv_cases[k], 1,
							     modes[mi], th, seed++,
							     VTA_DECOMPRESS_HW);
	/* batch lanes: the bias row's index repeats in every lane */
	const conv_case b = {2, 9, 7, 5, 9, 3, 1, 2, 2, 2, 1, VTA_PADDING_VALID, VTA_ACT_RELU,
			     -9, 3, 3, 2, true, false, 0.05f};
	for (unsigned batch = 2; batch <= 4; batch += 2)
		for (int m = 0; m < 2; m++)
			run_conv_dec("tiny", batch, &b, 1, m ? VTA_ARITH_VTA16 : VTA_ARITH_TFLITE, 2,
				     seed++, VTA_DECOMPRESS_HW);
}

/* Grouped convolutions: depthwise (one input channel per group, multipliers 1, 2 and 3),
 * groups of several channels that fill whole blocks (several units) or do not (one unit
 * with zero weights between its groups, or a last unit padded with zero input blocks),
 * LUT filters and biases (through the decoder in hw mode, decoded on the host else). */
static const grouped_case grouped_cases[] = {
	/* n  h   w   c   o  kh kw sh sw dh dw pad                act           zpi zpo fb bb bias pt  s_out groups */
	{{1, 9, 7, 17, 17, 3, 3, 1, 1, 1, 1, VTA_PADDING_SAME, VTA_ACT_RELU6, -5, 3, 0, 0, true, false, 0.02f}, 17},
	{{1, 11, 9, 5, 10, 3, 3, 2, 2, 2, 2, VTA_PADDING_SAME, VTA_ACT_NONE, 7, -2, 0, 2, true, false, 0.03f}, 5},
	{{2, 6, 5, 40, 120, 3, 3, 1, 2, 1, 1, VTA_PADDING_VALID, VTA_ACT_RELU, -128, 5, 3, 0, true, true, 0.05f}, 40},
	{{1, 7, 6, 8, 12, 3, 1, 1, 1, 1, 1, VTA_PADDING_SAME, VTA_ACT_NONE, 12, 0, 0, 0, false, false, 0.04f}, 2},
	{{1, 5, 5, 12, 12, 3, 3, 1, 1, 1, 1, VTA_PADDING_SAME, VTA_ACT_NONE, 1, 1, 4, 3, true, false, 0.05f}, 3},
	{{1, 5, 6, 24, 8, 1, 3, 1, 1, 1, 1, VTA_PADDING_SAME, VTA_ACT_RELU_N1_TO_1, -3, 9, 0, 0, true, false, 0.1f}, 4},
	{{1, 5, 5, 72, 72, 3, 3, 2, 1, 1, 1, VTA_PADDING_SAME, VTA_ACT_NONE, 4, -4, 0, 0, true, false, 0.3f}, 3},
	{{1, 12, 12, 32, 32, 3, 3, 1, 1, 1, 1, VTA_PADDING_SAME, VTA_ACT_RELU, 2, -1, 0, 0, true, false, 0.1f}, 32},
};

static void test_conv_grouped(void **state)
{
	(void)state;
	const char *configs[] = {"tiny", "default", "large"};
	const vta_arith_mode modes[] = {VTA_ARITH_TFLITE, VTA_ARITH_VTA16};
	uint64_t seed = 1300;
	for (size_t ci = 0; ci < 3; ci++)
		for (size_t mi = 0; mi < 2; mi++)
			for (unsigned th = 1; th <= 2; th++)
				for (size_t k = 0; k < sizeof(grouped_cases) / sizeof(grouped_cases[0]);
				     k++)
					run_conv_dec(configs[ci], 1, &grouped_cases[k].k,
						     grouped_cases[k].groups, modes[mi], th, seed++,
						     th == 2 ? VTA_DECOMPRESS_HW : VTA_DECOMPRESS_HOST);
	/* batch lanes */
	for (unsigned batch = 2; batch <= 4; batch += 2)
		for (int m = 0; m < 2; m++)
			run_conv_dec("tiny", batch, &grouped_cases[2].k, grouped_cases[2].groups,
				     m ? VTA_ARITH_VTA16 : VTA_ARITH_TFLITE, 2, seed++,
				     VTA_DECOMPRESS_HOST);
}

/* Configs whose rows hold 2 or 4 batch lanes: images are grouped into the lanes. */
static void test_conv_batch(void **state)
{
	(void)state;
	static const conv_case cases[] = {
		{3, 5, 6, 7, 6, 3, 3, 1, 1, 1, 1, VTA_PADDING_SAME, VTA_ACT_NONE, 4, -2, 0, 0, true,
		 false, 0.05f},
		{2, 9, 7, 5, 9, 3, 1, 2, 2, 2, 1, VTA_PADDING_VALID, VTA_ACT_RELU, -9, 3, 3, 2, true,
		 false, 0.05f},
		{5, 4, 4, 16, 8, 1, 1, 2, 2, 1, 1, VTA_PADDING_SAME, VTA_ACT_NONE, 0, 1, 0, 0, false,
		 true, 0.01f},
	};
	uint64_t seed = 900;
	for (unsigned batch = 2; batch <= 4; batch += 2)
		for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
			for (unsigned th = 1; th <= 2; th++)
				for (int m = 0; m < 2; m++)
					run_conv("tiny", batch, &cases[k],
						 m ? VTA_ARITH_VTA16 : VTA_ARITH_TFLITE, th, seed++);
}

/* Every schedule shape on one small layer: chunks, groups, weight sub-groups, row tiles
 * (ragged), both orders, every slot combination, constants resident or per group. */
static void plan_sweep(const conv_case *kc, vta_decompress dec, unsigned table_kib)
{
	vta_config cfg;
	et_config("tiny", &cfg);
	if (table_kib)
		cfg.decomp_table_kib = table_kib;
	const conv_case k = *kc;
	const vta_arith_mode modes[] = {VTA_ARITH_TFLITE, VTA_ARITH_VTA16};
	const uint32_t chunks[] = {1, 3}, groups[][2] = {{1, 1}, {3, 1}, {3, 3}};
	const uint32_t rows[] = {1, 2, 3, 7};
	unsigned runs = 0, rejected = 0;
	for (int mi = 0; mi < 2; mi++) {
		conv_data d;
		conv_make(&k, 1, 7 + (uint64_t)mi, modes[mi], &d);
		if (k.filter_bits)
			d.conv.filter = NULL; /* the emitter must not need the decoded filter */
		for (unsigned plan_code = 0; plan_code < 2 * 3 * 4 * 2 * 8 * 2; plan_code++) {
			unsigned v = plan_code;
			vta_conv_plan p;
			memset(&p, 0, sizeof(p));
			p.ncb = chunks[v % 2];
			v /= 2;
			p.nob = groups[v % 3][0];
			p.nobw = groups[v % 3][1];
			v /= 3;
			p.th = rows[v % 4];
			v /= 4;
			p.rows_outer = v % 2;
			v /= 2;
			p.s_inp = 1 + v % 2;
			p.s_wgt = 1 + (v / 2) % 2;
			p.s_acc = 1 + (v / 4) % 2;
			v /= 8;
			p.const_all = v % 2;
			vta_error err = {0};
			vta_dram dram;
			vta_status st = vta_dram_init(&dram, 8u << 20, &err);
			et_assert_ok(st, &err);
			vta_layer_stream ls;
			vta_emit_opts opts = {.mode = modes[mi], .threads = 2, .dram_base = 0,
					      .name = "sweep", .decompress = dec};
			st = vta_emit_conv2d_plan(&cfg, &d.conv,
						  k.filter_bits ? &d.flut.tensor : NULL,
						  k.bias_bits ? &d.blut.tensor : NULL, &d.out, &opts,
						  &p, &dram, &ls, &err);
			if (st != VTA_OK) {
				/* only plans that do not fit may be refused */
				et_assert_error(&err, VTA_E_USAGE, "plan:");
				rejected++;
				vta_dram_free(&dram);
				continue;
			}
			st = et_run(&cfg, &ls, &dram, NULL, &err);
			if (st != VTA_OK)
				print_error("plan: %s\n", ls.plan);
			et_assert_ok(st, &err);
			et_check_output(&ls, &dram, &d.exp, "CONV plan sweep");
			if (table_kib) /* the filter's tables did not fit whole: loaded per block */
				assert_true(d.flut.tensor.value_table_stride * 12 >
					    (cfg.decomp_table_kib * 1024 / 4) - 8);
			if (dec == VTA_DECOMPRESS_HW)
				assert_true(ls.counters.stream.load_bytes[VTA_MEM_LUT] >=
					    12 * d.flut.tensor.value_table_stride);
			vta_layer_stream_free(&ls);
			vta_dram_free(&dram);
			runs++;
		}
		conv_free(&d);
	}
	/* most shapes fit the tiny SRAMs; the test must have exercised them */
	print_message("plan sweep: %u schedules run, %u refused\n", runs, rejected);
	assert_true(runs > 8 * rejected);
	assert_true(runs >= 600);
}

static void test_conv_plan_sweep(void **state)
{
	(void)state;
	/* tiny: 4x4 blocks; C 12 -> 3 input blocks, O 12 -> 3 output blocks, 7 output rows */
	const conv_case k = {2, 7, 6, 12, 12, 3, 3, 1, 1, 1, 1, VTA_PADDING_SAME, VTA_ACT_NONE,
			     9, -5, 0, 0, true, false, 0.05f};
	plan_sweep(&k, VTA_DECOMPRESS_HOST, 0);
}

/* The same schedules with the filter and bias through the LUT decoder: per-block WGT loads
 * in every sub-group shape, the bias row resident or per group; then with a table memory
 * of one block's tables (1 KiB = 256 entries < 12 channels x 32 entries), reloaded on
 * every block change. */
static void test_conv_plan_sweep_hw(void **state)
{
	(void)state;
	const conv_case k = {2, 7, 6, 12, 12, 3, 3, 1, 1, 1, 1, VTA_PADDING_SAME, VTA_ACT_NONE,
			     9, -5, 5, 3, true, false, 0.05f};
	plan_sweep(&k, VTA_DECOMPRESS_HW, 0);
	plan_sweep(&k, VTA_DECOMPRESS_HW, 1);
}

/* Emit a layer whose data is random, returning the emitter's status (err filled). */
static vta_status emit_shape(const vta_config *cfg, const conv_case *k, vta_arith_mode mode,
			     unsigned threads, int32_t groups, vta_error *err)
{
	conv_case kk = *k;
	conv_data d;
	conv_make(&kk, 1, 5, mode, &d);
	vta_tensor_i8 in2 = d.in;
	int8_t *wide = NULL;
	if (groups > 1) {
		/* the same filter over an input with `groups` times the channels */
		size_t n = vta_tensor_i8_count(&d.in) * (size_t)groups;
		wide = calloc(n, 1);
		in2.shape[3] *= groups;
		in2.data = wide;
		d.conv.input = &in2;
		d.out.shape[3] = k->o;
	}
	vta_dram dram;
	vta_status st = vta_dram_init(&dram, 8u << 20, err);
	et_assert_ok(st, err);
	vta_layer_stream ls;
	vta_emit_opts opts = {.mode = mode, .threads = threads, .dram_base = 0, .name = "neg",
			      .decompress = VTA_DECOMPRESS_HOST};
	st = vta_emit_conv2d(cfg, &d.conv, NULL, NULL, &d.out, &opts, &dram, &ls, err);
	vta_layer_stream_free(&ls);
	vta_dram_free(&dram);
	free(wide);
	conv_free(&d);
	return st;
}

static void test_conv_errors(void **state)
{
	(void)state;
	vta_config tiny, plain;
	et_config("tiny", &tiny);
	vta_config_default(&plain);
	plain.alu_tflite_ext = false;
	vta_error err = {0};
	const vta_arith_mode TF = VTA_ARITH_TFLITE;
	/* n h w c o kh kw sh sw dh dw pad act zpi zpo fb bb bias pt s_out */
	/* 600 columns of 240 channels: neither a whole row at one block nor one column at all
	 * 60 blocks (540 INP rows) fits */
	const conv_case wide = {1, 4, 600, 240, 4, 3, 3, 1, 1, 1, 1, VTA_PADDING_SAME,
				VTA_ACT_NONE, 0, 0, 0, 0, true, false, 0.05f};
	assert_int_equal(emit_shape(&tiny, &wide, TF, 2, 1, &err), VTA_E_USAGE);
	et_assert_error(&err, VTA_E_USAGE, "does not fit the INP SRAM: one output row reads 3 "
					   "input rows of 602 padded columns");
	const conv_case big_k = {1, 17, 17, 4, 4, 17, 17, 1, 1, 1, 1, VTA_PADDING_VALID,
				 VTA_ACT_NONE, 0, 0, 0, 0, true, false, 0.05f};
	assert_int_equal(emit_shape(&tiny, &big_k, TF, 1, 1, &err), VTA_E_USAGE);
	et_assert_error(&err, VTA_E_USAGE, "does not fit the WGT SRAM: one block of the 17x17");
	/* a 1x3 filter block at all 86 input blocks needs 258 WGT rows: no column tiles */
	const conv_case long_row = {1, 1, 300, 344, 4, 1, 3, 1, 1, 1, 1, VTA_PADDING_SAME,
				    VTA_ACT_NONE, 0, 0, 0, 0, true, false, 0.05f};
	assert_int_equal(emit_shape(&tiny, &long_row, TF, 1, 1, &err), VTA_E_USAGE);
	et_assert_error(&err, VTA_E_USAGE, "does not fit the ACC SRAM: one output row of 300");
	const conv_case small = {1, 5, 5, 8, 4, 3, 3, 1, 1, 1, 1, VTA_PADDING_SAME, VTA_ACT_NONE,
				 1, 0, 0, 0, true, false, 0.05f};
	assert_int_equal(emit_shape(&plain, &small, TF, 2, 1, &err), VTA_E_UNSUPPORTED);
	et_assert_error(&err, VTA_E_UNSUPPORTED, "alu.tflite_ext false");
	vta_config nomul = tiny;
	nomul.alu_mul = false;
	assert_int_equal(emit_shape(&nomul, &small, VTA_ARITH_VTA16, 2, 1, &err),
			 VTA_E_UNSUPPORTED);
	et_assert_error(&err, VTA_E_UNSUPPORTED, "alu.mul false");
	assert_int_equal(emit_shape(&tiny, &small, TF, 2, 3, &err), VTA_E_USAGE);
	et_assert_error(&err, VTA_E_USAGE, "CONV2D filter depth 8 does not cut the input's 24 "
					   "channels into groups that divide the 4 output channels");
	assert_int_equal(emit_shape(&tiny, &small, TF, 3, 1, &err), VTA_E_USAGE);
	et_assert_error(&err, VTA_E_USAGE, "threads must be 1 or 2");

	/* output shape, LUT type, read-back size */
	conv_data d;
	conv_make(&small, 1, 3, TF, &d);
	vta_dram dram;
	et_assert_ok(vta_dram_init(&dram, 8u << 20, &err), &err);
	vta_layer_stream ls;
	vta_emit_opts opts = {.mode = TF, .threads = 1, .dram_base = 0, .name = "neg",
			      .decompress = VTA_DECOMPRESS_HOST};
	vta_tensor_i8 bad_out = d.out;
	bad_out.shape[2] = 4;
	assert_int_equal(vta_emit_conv2d(&tiny, &d.conv, NULL, NULL, &bad_out, &opts, &dram, &ls,
					 &err),
			 VTA_E_USAGE);
	et_assert_error(&err, VTA_E_USAGE, "output shape [1, 5, 4, 4] should be [1, 5, 5, 4]");
	int32_t vals[4] = {1, 2, 3, 4};
	vta_lut_buffer lb;
	et_assert_ok(vta_lut_compress(VTA_LUT_INT32, vals, 4, 1, false, 2, VTA_LUT_STRIDE_POW2, &lb,
				      &err),
		     &err);
	assert_int_equal(vta_emit_conv2d(&tiny, &d.conv, &lb.tensor, NULL, &d.out, &opts, &dram,
					 &ls, &err),
			 VTA_E_USAGE);
	et_assert_error(&err, VTA_E_USAGE, "CONV2D filter: LUT tensor holds 4 int32 values");
	vta_lut_buffer_free(&lb);
	et_assert_ok(vta_emit_conv2d(&tiny, &d.conv, NULL, NULL, &d.out, &opts, &dram, &ls, &err),
		     &err);
	int8_t buf[4];
	assert_int_equal(vta_layer_read_output(&ls, &dram, buf, 4, &err), VTA_E_USAGE);
	et_assert_error(&err, VTA_E_USAGE, "the output has 100 elements, the buffer 4");
	/* a forced plan that does not fit */
	vta_conv_plan p;
	memset(&p, 0, sizeof(p));
	p.ncb = 3;
	p.nob = p.nobw = 1;
	p.th = 5;
	p.s_inp = p.s_wgt = p.s_acc = 1;
	vta_layer_stream_free(&ls);
	assert_int_equal(vta_emit_conv2d_plan(&tiny, &d.conv, NULL, NULL, &d.out, &opts, &p,
					      &dram, &ls, &err),
			 VTA_E_USAGE);
	et_assert_error(&err, VTA_E_USAGE, "chunk 3 must divide 2 input blocks");
	p.ncb = 1;
	p.s_inp = 2;
	assert_int_equal(vta_emit_conv2d_plan(&tiny, &d.conv, NULL, NULL, &d.out, &opts, &p,
					      &dram, &ls, &err),
			 VTA_E_USAGE);
	et_assert_error(&err, VTA_E_USAGE, "slots (inp 2, wgt 1, acc 1) must be 1..1");
	vta_dram_free(&dram);
	conv_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conv_matrix),
		cmocka_unit_test(test_conv_batch),
		cmocka_unit_test(test_conv_grouped),
		cmocka_unit_test(test_conv_plan_sweep),
		cmocka_unit_test(test_conv_matrix_hw),
		cmocka_unit_test(test_conv_plan_sweep_hw),
		cmocka_unit_test(test_conv_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
