/*
 * test_emit_pin.c - pinned CONV2D plans (tiling.h, vta_conv_pin): the fields by name and
 * their diagnostics; every pinned choice honoured by the chooser and the layer still
 * bit-exact on the reference executor (through the pipeline, as a workload's `plan:` key and
 * `vtasim sweep` pin it); a pin that fits nothing says why; the plan cache of a run.
 */
#include "emit_test.h"
#include "layer_run.h"
#include "tiling.h"
#include "vta_ref.h"
#include "workload.h"

static void test_fields(void **state)
{
	(void)state;
	vta_conv_pin p = {0};
	vta_error err = {0};
	char text[200];
	vta_conv_pin_describe(&p, text, sizeof(text));
	assert_string_equal(text, "nothing");
	assert_false(vta_conv_pin_any(&p));
	assert_int_equal(vta_conv_pin_set(&p, "rows", "8", &err), VTA_OK);
	assert_int_equal(vta_conv_pin_set(&p, "order", "groups", &err), VTA_OK);
	assert_int_equal(vta_conv_pin_set(&p, "wgt_slots", "1", &err), VTA_OK);
	assert_int_equal(vta_conv_pin_set(&p, "constants", "all", &err), VTA_OK);
	assert_true(vta_conv_pin_any(&p));
	vta_conv_pin_describe(&p, text, sizeof(text));
	assert_string_equal(text, "rows 8, order groups, wgt_slots 1, constants all");
	assert_int_equal(vta_conv_pin_set(&p, "rows", "free", &err), VTA_OK);
	assert_int_equal(p.th, 0);
	/* diagnostics */
	assert_int_equal(vta_conv_pin_set(&p, "rowz", "1", &err), VTA_E_PARSE);
	et_assert_error(&err, VTA_E_PARSE, "unknown plan field 'rowz' (expected one of: rows, "
					   "chunk_blocks, group_blocks, load_blocks, order");
	assert_int_equal(vta_conv_pin_set(&p, "rows", "x", &err), VTA_E_PARSE);
	et_assert_error(&err, VTA_E_PARSE, "plan.rows: expected an integer, got 'x'");
	assert_int_equal(vta_conv_pin_set(&p, "inp_slots", "3", &err), VTA_E_PARSE);
	et_assert_error(&err, VTA_E_PARSE, "plan.inp_slots: 3 is out of range [1, 2]");
	assert_int_equal(vta_conv_pin_set(&p, "order", "up", &err), VTA_E_PARSE);
	et_assert_error(&err, VTA_E_PARSE, "plan.order: expected rows, groups or free, got 'up'");
	assert_int_equal(vta_conv_pin_set(&p, "constants", "some", &err), VTA_E_PARSE);
	et_assert_error(&err, VTA_E_PARSE, "plan.constants: expected all, group or free, got 'some'");
}

typedef struct pin_env {
	vta_config cfg;
	vta_workload wl;
	vta_ref *ref;
} pin_env;

static void env_open(pin_env *e, const char *config)
{
	vta_error err = {0};
	assert_int_equal(vta_config_load(config, &e->cfg, &err), VTA_OK);
	assert_int_equal(vta_workload_load("tests/sweep/two_layers.yaml", &e->wl, &err), VTA_OK);
	assert_int_equal(vta_ref_create(&e->cfg, &e->ref, &err), VTA_OK);
}

static void env_close(pin_env *e)
{
	vta_ref_destroy(e->ref);
	vta_workload_free(&e->wl);
}

/* Run layer `i` with the pin given as "field=value" pairs. */
static vta_status run_pinned(pin_env *e, size_t i, const char *const *pins, unsigned threads,
			     vta_layer_result *r, vta_error *err)
{
	vta_wl_layer l = e->wl.layers[i];
	for (size_t k = 0; pins[k]; k += 2)
		assert_int_equal(vta_conv_pin_set(&l.pin, pins[k], pins[k + 1], err), VTA_OK);
	vta_layer_run_opts o = {.mode = VTA_ARITH_TFLITE, .threads = threads, .fault_index = -1};
	return vta_layer_run(&e->cfg, &l, vta_ref_engine(e->ref), &o, r, err);
}

static void test_honoured(void **state)
{
	(void)state;
	pin_env e;
	env_open(&e, "configs/tiny.yaml");
	vta_error err = {0};
	vta_layer_result r;
	/* the narrow layer: 2 input blocks, 2 output blocks on the 4x4 core */
	const char *const a[] = {"rows", "2", "chunk_blocks", "1", "group_blocks", "1",
				 "order", "groups", "inp_slots", "1", NULL};
	assert_int_equal(run_pinned(&e, 0, a, 2, &r, &err), VTA_OK);
	assert_true(r.check.bit_exact);
	assert_true(r.has_conv_plan);
	assert_int_equal(r.conv_plan.th, 2);
	assert_int_equal(r.conv_plan.ncb, 1);
	assert_int_equal(r.conv_plan.nob, 1);
	assert_false(r.conv_plan.rows_outer);
	assert_int_equal(r.conv_plan.s_inp, 1);
	const char *const b[] = {"rows", "3", "chunk_blocks", "2", "group_blocks", "2",
				 "load_blocks", "1", "order", "rows", "wgt_slots", "2",
				 "acc_slots", "1", "constants", "all", NULL};
	assert_int_equal(run_pinned(&e, 0, b, 2, &r, &err), VTA_OK);
	assert_true(r.check.bit_exact);
	assert_int_equal(r.conv_plan.th, 3);
	assert_int_equal(r.conv_plan.ncb, 2);
	assert_int_equal(r.conv_plan.nob, 2);
	assert_int_equal(r.conv_plan.nobw, 1);
	assert_true(r.conv_plan.rows_outer);
	assert_int_equal(r.conv_plan.s_wgt, 2);
	assert_int_equal(r.conv_plan.s_acc, 1);
	assert_true(r.conv_plan.const_all);
	/* rows beyond the output's are clamped, as vta_conv_plan_check does */
	const char *const c[] = {"rows", "100", NULL};
	assert_int_equal(run_pinned(&e, 0, c, 1, &r, &err), VTA_OK);
	assert_int_equal(r.conv_plan.th, 6);
	env_close(&e);
}

static void test_does_not_fit(void **state)
{
	(void)state;
	pin_env e;
	env_open(&e, "configs/tiny.yaml");
	vta_error err = {0};
	vta_layer_result r;
	const char *const a[] = {"chunk_blocks", "3", NULL};
	assert_int_equal(run_pinned(&e, 0, a, 2, &r, &err), VTA_E_USAGE);
	et_assert_error(&err, VTA_E_USAGE, "layer narrow: the pinned plan (chunk_blocks 3) does "
					   "not fit: chunk_blocks 3 does not divide the 2 "
					   "input-channel blocks");
	const char *const b[] = {"group_blocks", "2", "load_blocks", "3", NULL};
	assert_int_equal(run_pinned(&e, 0, b, 2, &r, &err), VTA_E_USAGE);
	et_assert_error(&err, VTA_E_USAGE, "load_blocks 3 does not divide the 2 blocks of a group");
	/* two slots need two threads */
	const char *const c[] = {"inp_slots", "2", NULL};
	assert_int_equal(run_pinned(&e, 0, c, 1, &r, &err), VTA_E_USAGE);
	et_assert_error(&err, VTA_E_USAGE, "the pinned plan (inp_slots 2) does not fit: slots (inp "
					   "2, wgt 1, acc 1) must be 1..1 with 1 thread(s)");
	/* the wide layer: two output rows read 4 rows of 162 columns, more than the tiny INP */
	const char *const d[] = {"rows", "2", NULL};
	assert_int_equal(run_pinned(&e, 1, d, 2, &r, &err), VTA_E_USAGE);
	et_assert_error(&err, VTA_E_USAGE, "layer wide: the pinned plan (rows 2) does not fit: 2 "
					   "output rows read 648 INP rows, an INP slot has 512");
	/* with a 4 KiB INP they fit there, not in the ACC: 320 pixel rows of 256 */
	assert_int_equal(vta_config_set(&e.cfg, "sram_kib.inp", "4", &err), VTA_OK);
	assert_int_equal(run_pinned(&e, 1, d, 2, &r, &err), VTA_E_USAGE);
	et_assert_error(&err, VTA_E_USAGE, "1 slot(s) of 320 rows and 2 scratch rows exceed the "
					   "ACC SRAM (256 rows)");
	env_close(&e);
}

/* The plan cache answers a layer the same to the chooser with the chooser's plan, and
 * searches again when anything the chooser reads differs. */
static void test_plan_cache(void **state)
{
	(void)state;
	vta_config cfg;
	vta_error err = {0};
	assert_int_equal(vta_config_load("configs/default.yaml", &cfg, &err), VTA_OK);
	vta_conv_geom g = {.n = 1, .h = 28, .w = 28, .c = 128, .o = 256, .kh = 3, .kw = 3,
			   .sh = 2, .sw = 2, .dh = 1, .dw = 1, .ho = 14, .wo = 14, .pad_top = 0,
			   .pad_left = 0};
	vta_conv_geom_derive(&cfg, &g);
	vta_conv_plan_cache *c = vta_conv_plan_cache_new();
	assert_non_null(c);
	vta_conv_plan want, got;
	uint64_t hits, misses;
	for (unsigned threads = 1; threads <= 2; threads++) {
		assert_int_equal(vta_conv_plan_choose(&cfg, &g, threads, 3, 3, 3, "c", &want, &err),
				 VTA_OK);
		for (int rep = 0; rep < 2; rep++) {
			memset(&got, 0, sizeof(got));
			assert_int_equal(vta_conv_plan_choose_cached(c, &cfg, &g, threads, 3, 3, 3,
								     NULL, "c", &got, &err),
					 VTA_OK);
			assert_memory_equal(&got, &want, sizeof(want));
		}
	}
	vta_conv_plan_cache_counts(c, &hits, &misses);
	assert_int_equal(hits, 2);
	assert_int_equal(misses, 2);
	/* a pin, another config: searched again */
	vta_conv_pin pin = {.th = 2};
	assert_int_equal(vta_conv_plan_choose_cached(c, &cfg, &g, 2, 3, 3, 3, &pin, "c", &got,
						     &err),
			 VTA_OK);
	assert_int_equal(got.th, 2);
	vta_config other = cfg;
	assert_int_equal(vta_config_set(&other, "sram_kib.inp", "16", &err), VTA_OK);
	assert_int_equal(vta_conv_plan_choose_cached(c, &other, &g, 2, 3, 3, 3, NULL, "c", &got,
						     &err),
			 VTA_OK);
	vta_conv_plan_cache_counts(c, &hits, &misses);
	assert_int_equal(hits, 2);
	assert_int_equal(misses, 4);
	vta_conv_plan_cache_free(c);
}

/* Every byte of the DRAM zero. */
static bool all_zero(const vta_dram *d)
{
	for (uint64_t i = 0; i < d->size; i++)
		if (d->bytes[i])
			return false;
	return true;
}

/* A DRAM lent to layer runs comes back all zeros after each, so the next layer's emitter
 * may leave its buffers uncleared (vta_emit_opts.dram_zeroed): layers of two shapes in
 * turn, both thread counts, each bit-exact on the lent DRAM. */
static void test_lent_dram(void **state)
{
	(void)state;
	pin_env e;
	env_open(&e, "configs/tiny.yaml");
	vta_error err = {0};
	vta_dram lent;
	assert_int_equal(vta_dram_init(&lent, (uint64_t)e.cfg.dram_size_mib << 20, &err), VTA_OK);
	for (int rep = 0; rep < 4; rep++) {
		vta_layer_result r;
		vta_layer_run_opts o = {.mode = VTA_ARITH_TFLITE, .threads = 1 + (unsigned)(rep / 2),
					.fault_index = -1, .dram = &lent};
		assert_int_equal(vta_layer_run(&e.cfg, &e.wl.layers[rep % 2], vta_ref_engine(e.ref),
					       &o, &r, &err),
				 VTA_OK);
		assert_true(r.check.bit_exact);
		assert_non_null(lent.bytes);
		assert_true(all_zero(&lent));
	}
	vta_dram_free(&lent);
	env_close(&e);
}

/* Searches on one work's arrays choose what searches on their own do, whatever came
 * before: layers of many shapes, large and small in turn, both thread counts, two
 * configs, through one work. */
static void test_plan_work(void **state)
{
	(void)state;
	vta_config cfgs[2];
	vta_error err = {0};
	assert_int_equal(vta_config_load("configs/default.yaml", &cfgs[0], &err), VTA_OK);
	assert_int_equal(vta_config_load("configs/tiny.yaml", &cfgs[1], &err), VTA_OK);
	vta_conv_plan_work *w = vta_conv_plan_work_new();
	assert_non_null(w);
	uint32_t seed = 12345;
	int searched = 0;
	for (int rep = 0; rep < 40; rep++) {
		seed = seed * 1103515245u + 12345u;
		const uint32_t r = seed >> 8;
		const int32_t hw = rep % 2 ? 4 + (int32_t)(r % 8) : 14 + (int32_t)(r % 43);
		const int32_t k = r >> 6 & 1 ? 3 : 1, s = r >> 7 & 1 ? 2 : 1;
		const int32_t ho = (hw - k) / s + 1;
		vta_conv_geom g = {.n = 1, .h = hw, .w = hw, .c = 16 << (r >> 8 & 3),
				   .o = 16 << (r >> 10 & 3), .kh = k, .kw = k, .sh = s, .sw = s,
				   .dh = 1, .dw = 1, .ho = ho, .wo = ho, .pad_top = 0,
				   .pad_left = 0};
		const vta_config *cfg = &cfgs[r >> 12 & 1];
		vta_conv_geom_derive(cfg, &g);
		const unsigned threads = 1 + (r >> 13 & 1);
		vta_conv_plan want, got;
		memset(&want, 0, sizeof(want));
		memset(&got, 0, sizeof(got));
		vta_error e1 = {0}, e2 = {0};
		const vta_status s1 = vta_conv_plan_choose_pinned(cfg, &g, threads, 3, 3, 3, NULL, "w",
								  &want, &e1);
		const vta_status s2 =
			vta_conv_plan_choose_in(w, cfg, &g, threads, 3, 3, 3, NULL, "w", &got, &e2);
		assert_int_equal(s2, s1);
		if (s1 == VTA_OK) {
			assert_memory_equal(&got, &want, sizeof(want));
			searched++;
		} else {
			assert_string_equal(e2.detail, e1.detail);
		}
	}
	assert_true(searched >= 20);
	vta_conv_plan_work_free(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_honoured),
		cmocka_unit_test(test_does_not_fit),
		cmocka_unit_test(test_plan_cache),
		cmocka_unit_test(test_plan_work),
		cmocka_unit_test(test_lent_dram),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
