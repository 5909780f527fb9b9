/*
 * test_emit_add.c - the ADD emitter against the golden ADD on the reference executor, every
 * element: both arithmetic modes x 1 and 2 threads x tiny and default configs x shapes
 * (odd element counts, per-channel and scalar broadcast) x plain and LUT-compressed
 * constant operands; and its diagnostics.
 */
#include "emit_test.h"

typedef enum { B_FULL, B_CHANNEL, B_SCALAR } b_kind;

typedef struct add_case {
	int32_t shape[4];
	b_kind kind;
	unsigned lut_bits; /* 0: b is an activation; else a constant LUT tensor */
	bool lut_per_channel;
	int32_t zp1, zp2, zp_out;
	float s1, s2, s_out;
	vta_activation act;
} add_case;

/* Emit, run, compare; returns the layer's ALU uops for the caller's curiosity. */
static void run_add_dec(const char *config, unsigned batch, const add_case *k,
			vta_arith_mode mode, unsigned threads, uint64_t seed, vta_decompress dec,
			bool want_decoder)
{
	vta_config cfg;
	et_config(config, &cfg);
	if (batch > 1) {
		vta_error berr = {0};
		cfg.log_batch = batch == 2 ? 1 : 2;
		et_assert_ok(vta_config_derive(&cfg, &berr), &berr);
	}
	et_rng r;
	et_seed(&r, seed);
	vta_tensor_i8 a, b, out, exp;
	const int32_t *s = k->shape;
	et_tensor(&r, &a, s[0], s[1], s[2], s[3], k->s1, k->zp1);
	if (k->kind == B_FULL)
		et_tensor(&r, &b, s[0], s[1], s[2], s[3], k->s2, k->zp2);
	else
		et_tensor(&r, &b, 1, 1, 1, k->kind == B_CHANNEL ? s[3] : 1, k->s2, k->zp2);
	size_t nb = vta_tensor_i8_count(&b);
	vta_lut_buffer lut;
	memset(&lut, 0, sizeof(lut));
	vta_error err = {0};
	vta_status st;
	if (k->lut_bits) {
		/* at most 2^bits distinct values per channel */
		size_t ch = k->lut_per_channel ? (size_t)b.shape[3] : 1;
		int32_t vals = 1 << k->lut_bits;
		for (size_t i = 0; i < nb; i++)
			b.data[i] = (int8_t)(-100 + 7 * (et_range(&r, 0, vals - 1)) +
					     (int32_t)(i % ch));
		st = vta_lut_compress(VTA_LUT_INT8, b.data, nb, ch, true, k->lut_bits,
				      VTA_LUT_STRIDE_POW2, &lut, &err);
		et_assert_ok(st, &err);
	}
	et_tensor(&r, &out, s[0], s[1], s[2], s[3], k->s_out, k->zp_out);
	exp = out;
	exp.data = malloc(vta_tensor_i8_count(&out));
	st = k->lut_bits ? vta_golden_add_lut(&a, &b, &lut.tensor, k->act, mode, &exp, NULL, &err)
			 : vta_golden_add(&a, &b, k->act, mode, &exp, NULL, &err);
	et_assert_ok(st, &err);

	vta_dram dram;
	st = vta_dram_init(&dram, (uint64_t)cfg.dram_size_mib << 20, &err);
	et_assert_ok(st, &err);
	vta_layer_stream ls;
	vta_emit_opts opts = {.mode = mode, .threads = threads, .dram_base = 4096,
			      .name = "add_test", .decompress = dec};
	vta_tensor_i8 bconst = b;
	if (k->lut_bits)
		bconst.data = NULL; /* the emitter must take the values from the LUT */
	st = vta_emit_add(&cfg, &a, NULL, &bconst, k->lut_bits ? &lut.tensor : NULL, k->act,
			  &out, &opts, &dram, &ls, &err);
	et_assert_ok(st, &err);
	st = et_run(&cfg, &ls, &dram, NULL, &err);
	et_assert_ok(st, &err);
	char what[160];
	snprintf(what, sizeof(what), "ADD %s batch %u %s threads %u shape [%d,%d,%d,%d] kind %d lut %u",
		 config, batch, mode == VTA_ARITH_TFLITE ? "tflite" : "vta16", threads, s[0], s[1], s[2],
		 s[3], (int)k->kind, k->lut_bits);
	et_check_output(&ls, &dram, &exp, what);
	/* the decoder took the constant (lut32 table, decompressing ACC loads), or the host did */
	assert_int_equal(ls.counters.lut_hw_bytes > 0, want_decoder);
	assert_int_equal(ls.counters.stream.load_bytes[VTA_MEM_LUT32] > 0, want_decoder);
	vta_layer_stream_free(&ls);
	vta_dram_free(&dram);
	vta_lut_buffer_free(&lut);
	free(a.data);
	free(b.data);
	free(out.data);
	free(exp.data);
}

static void run_add(const char *config, unsigned batch, const add_case *k, vta_arith_mode mode,
		    unsigned threads, uint64_t seed)
{
	run_add_dec(config, batch, k, mode, threads, seed, VTA_DECOMPRESS_HOST, false);
}

static const add_case add_cases[] = {
	{{1, 7, 13, 3}, B_FULL, 0, false, 5, -3, -10, 0.02f, 0.01f, 0.03f, VTA_ACT_NONE},
	{{1, 5, 7, 17}, B_FULL, 0, false, -128, 127, 0, 0.05f, 0.011f, 0.04f, VTA_ACT_RELU},
	{{2, 3, 5, 37}, B_CHANNEL, 0, false, 0, 9, 3, 0.004f, 0.09f, 0.1f, VTA_ACT_NONE},
	{{1, 1, 1, 1}, B_FULL, 0, false, 1, 2, 3, 0.5f, 0.25f, 0.6f, VTA_ACT_RELU6},
	{{1, 9, 11, 5}, B_SCALAR, 0, false, -7, 4, 1, 0.03f, 0.05f, 0.07f, VTA_ACT_RELU_N1_TO_1},
	{{1, 6, 6, 17}, B_FULL, 4, false, 3, -20, 8, 0.02f, 0.03f, 0.05f, VTA_ACT_NONE},
	{{1, 4, 4, 13}, B_FULL, 2, true, -3, 6, -5, 0.015f, 0.02f, 0.04f, VTA_ACT_RELU},
	{{1, 3, 7, 37}, B_CHANNEL, 3, false, 12, -1, 0, 0.01f, 0.2f, 0.3f, VTA_ACT_NONE},
	{{1, 40, 40, 16}, B_FULL, 0, false, 2, -2, 0, 0.02f, 0.02f, 0.05f, VTA_ACT_NONE},
};

static void test_add_matrix(void **state)
{
	(void)state;
	const char *configs[] = {"tiny", "default"};
	const vta_arith_mode modes[] = {VTA_ARITH_TFLITE, VTA_ARITH_VTA16};
	uint64_t seed = 1;
	for (size_t ci = 0; ci < 2; ci++)
		for (size_t mi = 0; mi < 2; mi++)
			for (unsigned th = 1; th <= 2; th++)
				for (size_t k = 0; k < sizeof(add_cases) / sizeof(add_cases[0]);
				     k++)
					run_add(configs[ci], 1, &add_cases[k], modes[mi], th,
						seed++);
}

/* Full-shape LUT constants through the decoder: per tensor, and per channel along the last
 * axis when the channel count is a multiple of block_out (then one load per run of rows that
 * start at the same channel); per-channel tables the flat rows cannot follow (13 channels)
 * stay on the host. */
static void test_add_hw(void **state)
{
	(void)state;
	static const add_case cases[] = {
		{{1, 6, 6, 17}, B_FULL, 4, false, 3, -20, 8, 0.02f, 0.03f, 0.05f, VTA_ACT_NONE},
		{{1, 5, 3, 16}, B_FULL, 3, true, -3, 6, -5, 0.015f, 0.02f, 0.04f, VTA_ACT_RELU},
		{{1, 4, 5, 32}, B_FULL, 7, true, 1, 0, 2, 0.02f, 0.05f, 0.06f, VTA_ACT_RELU6},
		{{1, 4, 4, 13}, B_FULL, 2, true, -3, 6, -5, 0.015f, 0.02f, 0.04f, VTA_ACT_RELU},
	};
	const char *configs[] = {"tiny", "default"};
	uint64_t seed = 700;
	for (size_t ci = 0; ci < 2; ci++)
		for (int m = 0; m < 2; m++)
			for (unsigned th = 1; th <= 2; th++)
				for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
					run_add_dec(configs[ci], 1, &cases[k],
						    m ? VTA_ARITH_VTA16 : VTA_ARITH_TFLITE, th,
						    seed++, VTA_DECOMPRESS_HW, k != 3);
	/* four batch lanes: per-tensor tables only (per-channel ones need C == block_out) */
	for (int m = 0; m < 2; m++)
		run_add_dec("tiny", 4, &cases[0], m ? VTA_ARITH_VTA16 : VTA_ARITH_TFLITE, 2, seed++,
			    VTA_DECOMPRESS_HW, true);
}

/* A per-channel operand passed first is swapped with the full one (ADD is symmetric). */
/* A config whose rows hold 4 batch lanes (elements are batch x block wide). */
static void test_add_batch(void **state)
{
	(void)state;
	uint64_t seed = 500;
	for (size_t k = 0; k < sizeof(add_cases) / sizeof(add_cases[0]); k++)
		for (unsigned th = 1; th <= 2; th++)
			run_add("tiny", 4, &add_cases[k], k % 2 ? VTA_ARITH_VTA16 : VTA_ARITH_TFLITE,
				th, seed++);
}

static void test_add_swap(void **state)
{
	(void)state;
	vta_config cfg;
	et_config("tiny", &cfg);
	et_rng r;
	et_seed(&r, 77);
	vta_tensor_i8 a, b, out, exp;
	et_tensor(&r, &a, 1, 1, 1, 6, 0.02f, 3);
	et_tensor(&r, &b, 1, 3, 5, 6, 0.05f, -9);
	et_tensor(&r, &out, 1, 3, 5, 6, 0.06f, 4);
	exp = out;
	exp.data = malloc(90);
	vta_error err = {0};
	et_assert_ok(vta_golden_add(&b, &a, VTA_ACT_NONE, VTA_ARITH_TFLITE, &exp, NULL, &err),
		     &err);
	vta_dram dram;
	et_assert_ok(vta_dram_init(&dram, 4u << 20, &err), &err);
	vta_layer_stream ls;
	vta_emit_opts opts = {.mode = VTA_ARITH_TFLITE, .threads = 2, .dram_base = 0,
			      .name = "swap", .decompress = VTA_DECOMPRESS_HOST};
	et_assert_ok(vta_emit_add(&cfg, &a, NULL, &b, NULL, VTA_ACT_NONE, &out, &opts, &dram, &ls,
				  &err),
		     &err);
	et_assert_ok(et_run(&cfg, &ls, &dram, NULL, &err), &err);
	et_check_output(&ls, &dram, &exp, "ADD swapped broadcast");
	vta_layer_stream_free(&ls);
	vta_dram_free(&dram);
	free(a.data);
	free(b.data);
	free(out.data);
	free(exp.data);
}

static void test_add_errors(void **state)
{
	(void)state;
	vta_config tiny, plain;
	et_config("tiny", &tiny);
	vta_config_default(&plain);
	plain.alu_tflite_ext = false;
	et_rng r;
	et_seed(&r, 3);
	vta_tensor_i8 a, b, wide_a, wide_b, out, wide_out, odd;
	et_tensor(&r, &a, 1, 2, 3, 4, 0.02f, 0);
	et_tensor(&r, &b, 1, 2, 3, 4, 0.03f, 1);
	et_tensor(&r, &out, 1, 2, 3, 4, 0.04f, 2);
	et_tensor(&r, &odd, 1, 2, 2, 4, 0.03f, 1);
	et_tensor(&r, &wide_a, 1, 1, 2, 2000, 0.02f, 0);
	et_tensor(&r, &wide_b, 1, 1, 1, 2000, 0.02f, 0);
	et_tensor(&r, &wide_out, 1, 1, 2, 2000, 0.02f, 0);
	vta_error err = {0};
	vta_dram dram, small;
	et_assert_ok(vta_dram_init(&dram, 4u << 20, &err), &err);
	et_assert_ok(vta_dram_init(&small, 64, &err), &err);
	vta_layer_stream ls;
	vta_emit_opts opts = {.mode = VTA_ARITH_TFLITE, .threads = 1, .dram_base = 0, .name = "neg",
			      .decompress = VTA_DECOMPRESS_HOST};
	/* 2000 channels of a per-channel b need 500 rows per pixel: more than the ACC holds */
	assert_int_equal(vta_emit_add(&tiny, &wide_a, NULL, &wide_b, NULL, VTA_ACT_NONE, &wide_out,
				      &opts, &dram, &ls, &err),
			 VTA_E_USAGE);
	et_assert_error(&err, VTA_E_USAGE, "ADD does not fit the ACC SRAM: 256 rows");
	assert_int_equal(vta_emit_add(&tiny, &a, NULL, &odd, NULL, VTA_ACT_NONE, &out, &opts,
				      &dram, &ls, &err),
			 VTA_E_USAGE);
	et_assert_error(&err, VTA_E_USAGE, "neither matches input 1");
	assert_int_equal(vta_emit_add(&tiny, &a, NULL, &b, NULL, VTA_ACT_NONE, &odd, &opts, &dram,
				      &ls, &err),
			 VTA_E_USAGE);
	et_assert_error(&err, VTA_E_USAGE, "output shape [1, 2, 2, 4] differs");
	assert_int_equal(vta_emit_add(&plain, &a, NULL, &b, NULL, VTA_ACT_NONE, &out, &opts, &dram,
				      &ls, &err),
			 VTA_E_UNSUPPORTED);
	et_assert_error(&err, VTA_E_UNSUPPORTED, "ADD in tflite mode requantizes with the ALU ops");
	vta_config nomul = tiny;
	nomul.alu_mul = false;
	vta_emit_opts v16 = {.mode = VTA_ARITH_VTA16, .threads = 1, .dram_base = 0, .name = "neg",
			     .decompress = VTA_DECOMPRESS_HOST};
	assert_int_equal(vta_emit_add(&nomul, &a, NULL, &b, NULL, VTA_ACT_NONE, &out, &v16, &dram,
				      &ls, &err),
			 VTA_E_UNSUPPORTED);
	et_assert_error(&err, VTA_E_UNSUPPORTED, "alu.mul false");
	vta_emit_opts t0 = {.mode = VTA_ARITH_TFLITE, .threads = 0, .dram_base = 0, .name = "neg",
			    .decompress = VTA_DECOMPRESS_HOST};
	assert_int_equal(vta_emit_add(&tiny, &a, NULL, &b, NULL, VTA_ACT_NONE, &out, &t0, &dram,
				      &ls, &err),
			 VTA_E_USAGE);
	et_assert_error(&err, VTA_E_USAGE, "threads must be 1 or 2, not 0");
	int32_t vals[24] = {0};
	vta_lut_buffer lb;
	et_assert_ok(vta_lut_compress(VTA_LUT_INT32, vals, 24, 1, false, 1, VTA_LUT_STRIDE_POW2,
				      &lb, &err),
		     &err);
	assert_int_equal(vta_emit_add(&tiny, &a, NULL, &b, &lb.tensor, VTA_ACT_NONE, &out, &opts,
				      &dram, &ls, &err),
			 VTA_E_USAGE);
	et_assert_error(&err, VTA_E_USAGE, "ADD input 2: LUT tensor holds 24 int32 values");
	/* a LUT operand's shape is checked even though its data pointer is ignored */
	vta_tensor_i8 flat_b = b;
	flat_b.shape[1] = 0;
	flat_b.data = NULL;
	assert_int_equal(vta_emit_add(&tiny, &a, NULL, &flat_b, &lb.tensor, VTA_ACT_NONE, &out,
				      &opts, &dram, &ls, &err),
			 VTA_E_USAGE);
	et_assert_error(&err, VTA_E_USAGE, "ADD input 2: shape [1, 0, 3, 4] is not a valid");
	vta_lut_buffer_free(&lb);
	assert_int_equal(vta_emit_add(&tiny, NULL, NULL, &b, NULL, VTA_ACT_NONE, &out, &opts,
				      &dram, &ls, &err),
			 VTA_E_USAGE);
	et_assert_error(&err, VTA_E_USAGE, "layer neg: ADD input 1 is missing");
	assert_int_equal(vta_emit_add(&tiny, &a, NULL, &b, NULL, VTA_ACT_NONE, &out, &opts, &small,
				      &ls, &err),
			 VTA_E_USAGE);
	et_assert_error(&err, VTA_E_USAGE, "does not fit");
	vta_dram_free(&dram);
	vta_dram_free(&small);
	free(a.data);
	free(b.data);
	free(out.data);
	free(odd.data);
	free(wide_a.data);
	free(wide_b.data);
	free(wide_out.data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_add_matrix),
		cmocka_unit_test(test_add_batch),
		cmocka_unit_test(test_add_swap),
		cmocka_unit_test(test_add_hw),
		cmocka_unit_test(test_add_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
