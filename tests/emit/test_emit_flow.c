/*
 * test_emit_flow.c - activations that stay in DRAM between layers (dram_tensor.h): a layer's
 * output region taken as the next layer's input as it is (the same layout, whole channel
 * blocks) or relayouted (a halo, a partial last block, a flat ADD), bit-exact with the golden kernels on the host tensors, the counters
 * saying where each input came from. A byte changed in the carried region changes the
 * consumer's output: the input really comes from DRAM, not from the host tensor.
 */
#include "emit_test.h"

#include "dram_tensor.h"

/* One CONV2D with random constants over `in` (its output tensor allocated, golden filled). */
typedef struct conv_case {
	vta_conv2d c;
	vta_tensor_i8 out, gold;
	int8_t *filter;
	float *scales;
	int32_t *bias;
} conv_case;

static void conv_make(et_rng *r, const vta_tensor_i8 *in, int32_t o, int32_t k,
		      vta_padding pad, int32_t zp_out, conv_case *cc)
{
	memset(cc, 0, sizeof(*cc));
	const int32_t c = in->shape[3];
	cc->filter = malloc((size_t)o * k * k * c);
	cc->scales = malloc((size_t)o * sizeof(float));
	cc->bias = malloc((size_t)o * sizeof(int32_t));
	assert_true(cc->filter && cc->scales && cc->bias);
	for (size_t i = 0; i < (size_t)o * k * k * c; i++)
		cc->filter[i] = (int8_t)et_range(r, -127, 127);
	for (int32_t i = 0; i < o; i++) {
		cc->scales[i] = (float)et_uniform(r, 0.002, 0.01);
		cc->bias[i] = et_range(r, -2000, 2000);
	}
	vta_conv2d *cv = &cc->c;
	cv->input = in;
	cv->filter = cc->filter;
	cv->filter_shape[0] = o;
	cv->filter_shape[1] = cv->filter_shape[2] = k;
	cv->filter_shape[3] = c;
	cv->filter_scales = cc->scales;
	cv->filter_scale_count = (size_t)o;
	cv->bias = cc->bias;
	cv->stride_h = cv->stride_w = 1;
	cv->dilation_h = cv->dilation_w = 1;
	cv->padding = pad;
	cv->activation = VTA_ACT_NONE;
	vta_error err = {0};
	int32_t shape[4];
	et_assert_ok(vta_golden_conv2d_shape(cv, shape, &err), &err);
	size_t n = (size_t)shape[0] * shape[1] * shape[2] * shape[3];
	memcpy(cc->out.shape, shape, sizeof(shape));
	cc->out.scale = 0.05f;
	cc->out.zero_point = zp_out;
	cc->out.data = calloc(n, 1);
	cc->gold = cc->out;
	cc->gold.data = malloc(n);
	assert_true(cc->out.data && cc->gold.data);
	et_assert_ok(vta_golden_conv2d(cv, VTA_ARITH_TFLITE, &cc->gold, NULL, &err), &err);
}

static void conv_free(conv_case *cc)
{
	free(cc->filter);
	free(cc->scales);
	free(cc->bias);
	free(cc->out.data);
	free(cc->gold.data);
}

/* Emit and run a conv whose input may be resident; keep its output region in *keep (the
 * host copy cc->out read back), with `producer` as its op. */
static void conv_run(const vta_config *cfg, conv_case *cc, const vta_dram_tensor *resident,
		     size_t n_resident, int32_t producer, vta_dram_tensor *keep,
		     vta_layer_counters *k)
{
	vta_error err = {0};
	vta_dram dram;
	et_assert_ok(vta_dram_init(&dram, (uint64_t)cfg->dram_size_mib << 20, &err), &err);
	vta_layer_stream ls;
	vta_emit_opts opts = {.mode = VTA_ARITH_TFLITE, .threads = 2, .name = "flow",
			      .resident = resident, .n_resident = n_resident};
	et_assert_ok(vta_emit_conv2d(cfg, &cc->c, NULL, NULL, &cc->out, &opts, &dram, &ls, &err),
		     &err);
	et_assert_ok(et_run(cfg, &ls, &dram, NULL, &err), &err);
	et_assert_ok(vta_layer_read_output(&ls, &dram, cc->out.data,
					   vta_tensor_i8_count(&cc->out), &err), &err);
	if (keep)
		et_assert_ok(vta_dram_tensor_keep(&ls, &dram, producer, cc->out.data, keep, &err),
			     &err);
	*k = ls.counters;
	vta_layer_stream_free(&ls);
	vta_dram_free(&dram);
}

static bool same_tensor(const vta_tensor_i8 *a, const vta_tensor_i8 *b)
{
	return !memcmp(a->data, b->data, vta_tensor_i8_count(a));
}

/* conv 1x1 -> conv 1x1 (the region as it is) -> conv 3x3 SAME (a halo: relayouted). */
static void run_chain(const char *config, int32_t c0, int32_t c1, int32_t c2)
{
	vta_config cfg;
	et_config(config, &cfg);
	et_rng r;
	et_seed(&r, (uint64_t)(c0 * 131 + c1 * 17 + c2));
	vta_tensor_i8 in;
	et_tensor(&r, &in, 1, 6, 5, c0, 0.05f, 3);
	conv_case a, b, c;
	conv_make(&r, &in, c1, 1, VTA_PADDING_VALID, -7, &a);
	vta_dram_tensor ka = {0}, kb = {0};
	vta_layer_counters k;
	conv_run(&cfg, &a, NULL, 0, 4, &ka, &k);
	assert_true(same_tensor(&a.out, &a.gold));
	assert_int_equal(k.n_inputs, 1);
	assert_int_equal(k.input_from[0], -1); /* the host staged the layer's input */
	assert_true(k.staged_bytes > 0);

	conv_make(&r, &a.out, c2, 1, VTA_PADDING_VALID, 5, &b);
	conv_run(&cfg, &b, &ka, 1, 5, &kb, &k);
	assert_true(same_tensor(&b.out, &b.gold));
	assert_int_equal(k.input_from[0], 4);
	assert_int_equal(k.staged_bytes, 0);
	if (c1 % (int32_t)cfg.block_out == 0) {
		assert_int_equal(k.relayout_bytes, 0);
		assert_int_equal(k.carried_bytes, ka.n_bytes); /* the region as it is */
	} else {
		/* a partial last block: its padding lanes are not zeros, so relayouted */
		assert_int_equal(k.carried_bytes, 0);
		assert_int_equal(k.relayout_bytes, 2 * ka.n_bytes);
	}

	conv_make(&r, &b.out, 3, 3, VTA_PADDING_SAME, 0, &c);
	conv_run(&cfg, &c, &kb, 1, 6, NULL, &k);
	assert_true(same_tensor(&c.out, &c.gold));
	assert_int_equal(k.input_from[0], 5);
	assert_int_equal(k.staged_bytes, 0);
	assert_int_equal(k.carried_bytes, 0);
	assert_true(k.relayout_bytes > kb.n_bytes); /* read the region, wrote the halo layout */

	/* a byte changed in the region reaches the consumer: its input is the region */
	kb.bytes[0] ^= 0x55;
	conv_run(&cfg, &c, &kb, 1, 6, NULL, &k);
	assert_false(same_tensor(&c.out, &c.gold));
	ka.bytes[0] ^= 0x55;
	conv_run(&cfg, &b, &ka, 1, 5, NULL, &k);
	assert_false(same_tensor(&b.out, &b.gold));
	/* no region for the input: staged from the host tensor again */
	conv_run(&cfg, &b, NULL, 0, 5, NULL, &k);
	assert_true(same_tensor(&b.out, &b.gold));
	assert_int_equal(k.input_from[0], -1);
	assert_int_equal(k.carried_bytes, 0);

	vta_dram_tensor_free(&ka);
	vta_dram_tensor_free(&kb);
	conv_free(&a);
	conv_free(&b);
	conv_free(&c);
	free(in.data);
}

static void test_flow_conv_chain(void **state)
{
	(void)state;
	run_chain("tiny", 3, 8, 6);    /* whole channel blocks and a partial one */
	run_chain("default", 5, 24, 16);
	run_chain("default", 16, 16, 7);
	run_chain("default", 7, 32, 9);
}

/* ADD of two conv outputs in DRAM: as they are when the channels fill whole blocks (flat rows
 * are then the pixel-blocked ones), relayouted otherwise. */
static void run_add(const char *config, int32_t ch, bool whole)
{
	vta_config cfg;
	et_config(config, &cfg);
	et_rng r;
	et_seed(&r, (uint64_t)ch * 7 + 1);
	vta_tensor_i8 in;
	et_tensor(&r, &in, 1, 4, 3, 5, 0.05f, 0);
	conv_case a, b;
	conv_make(&r, &in, ch, 1, VTA_PADDING_VALID, -3, &a);
	conv_make(&r, &in, ch, 3, VTA_PADDING_SAME, 9, &b);
	vta_dram_tensor res[2] = {{0}, {0}};
	vta_layer_counters k;
	conv_run(&cfg, &a, NULL, 0, 1, &res[0], &k);
	conv_run(&cfg, &b, NULL, 0, 2, &res[1], &k);
	vta_tensor_i8 out = a.out, gold = a.out;
	out.scale = 0.1f;
	out.zero_point = 2;
	size_t n = vta_tensor_i8_count(&a.out);
	out.data = calloc(n, 1);
	gold.scale = out.scale;
	gold.zero_point = out.zero_point;
	gold.data = malloc(n);
	vta_error err = {0};
	et_assert_ok(vta_golden_add(&a.out, &b.out, VTA_ACT_NONE, VTA_ARITH_TFLITE, &gold, NULL,
				    &err), &err);
	vta_dram dram;
	et_assert_ok(vta_dram_init(&dram, (uint64_t)cfg.dram_size_mib << 20, &err), &err);
	vta_layer_stream ls;
	vta_emit_opts opts = {.mode = VTA_ARITH_TFLITE, .threads = 1, .name = "flow_add",
			      .resident = res, .n_resident = 2};
	et_assert_ok(vta_emit_add(&cfg, &a.out, NULL, &b.out, NULL, VTA_ACT_NONE, &out, &opts,
				  &dram, &ls, &err), &err);
	et_assert_ok(et_run(&cfg, &ls, &dram, NULL, &err), &err);
	et_check_output(&ls, &dram, &gold, "ADD of two regions");
	assert_int_equal(ls.counters.n_inputs, 2);
	assert_int_equal(ls.counters.input_from[0], 1);
	assert_int_equal(ls.counters.input_from[1], 2);
	assert_int_equal(ls.counters.staged_bytes, 0);
	if (whole) {
		assert_int_equal(ls.counters.carried_bytes, res[0].n_bytes + res[1].n_bytes);
		assert_int_equal(ls.counters.relayout_bytes, 0);
	} else {
		assert_int_equal(ls.counters.carried_bytes, 0);
		assert_true(ls.counters.relayout_bytes > 0);
	}
	vta_layer_stream_free(&ls);
	vta_dram_free(&dram);
	vta_dram_tensor_free(&res[0]);
	vta_dram_tensor_free(&res[1]);
	free(out.data);
	free(gold.data);
	conv_free(&a);
	conv_free(&b);
	free(in.data);
}

static void test_flow_add(void **state)
{
	(void)state;
	run_add("tiny", 8, true);
	run_add("default", 32, true);
	run_add("default", 24, false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flow_conv_chain),
		cmocka_unit_test(test_flow_add),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
