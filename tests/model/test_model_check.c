/*
 * test_model_check.c - what a model run holds, checked before it allocates (model_check.h):
 * the hand-built run model (every operator kind the runner takes) passes and is counted;
 * each operator's output grown by one element is refused naming that operator, so no
 * operator's derivation is missing; the memory limit; and the broken ADD variants.
 */
#include "model_test.h"

#include "model_check.h"
#include "tfl_badmodel.h"
#include "tfl_runmodel.h"
#include "tfl_svdfmodel.h"

static void parse(uint8_t *b, size_t len, vta_tfl_model *m)
{
	assert_non_null(b);
	vta_error err = {0};
	if (vta_tfl_model_parse(b, len, "m.tflite", m, &err) != VTA_OK)
		fail_msg("%s", err.detail);
}

static void load_run_model(vta_tfl_model *m)
{
	size_t len;
	uint8_t *b = tr_build(false, TR_OK, &len);
	parse(b, len, m);
}

static void test_run_model_passes(void **state)
{
	(void)state;
	vta_tfl_model m;
	load_run_model(&m);
	vta_model_memory mem;
	vta_error err = {0};
	assert_int_equal(vta_model_check(&m, 0, false, &mem, &err), VTA_OK);
	/* every input and output twice, the largest output twice more */
	uint64_t twice = 0, largest = 0;
	bool *seen = calloc(m.n_tensors, sizeof(bool));
	for (size_t i = 0; i < m.n_inputs; i++) {
		seen[m.inputs[i]] = true;
		twice += m.tensors[m.inputs[i]].count * vta_tfl_type_size(m.tensors[m.inputs[i]].type);
	}
	for (size_t i = 0; i < m.n_ops; i++) {
		int32_t o = m.ops[i].outputs[0];
		if (m.ops[i].decode || seen[o])
			continue;
		seen[o] = true;
		uint64_t n = m.tensors[o].count * vta_tfl_type_size(m.tensors[o].type);
		twice += n;
		largest = n > largest ? n : largest;
	}
	free(seen);
	assert_int_equal(mem.bytes, 2 * twice + 2 * largest);
	/* a reference cache holds a third copy */
	assert_int_equal(vta_model_check(&m, 0, true, &mem, &err), VTA_OK);
	assert_int_equal(mem.bytes, 3 * twice + 2 * largest);
	vta_tfl_model_free(&m);

	size_t len;
	uint8_t *b = ts_build(TS_OK, &len);
	parse(b, len, &m);
	assert_int_equal(vta_model_check(&m, 0, false, NULL, &err), VTA_OK);
	vta_tfl_model_free(&m);
}

/* Each operator's output one element larger than its inputs make: refused, that operator
 * named (an output the next operator reads fails at its producer first). */
static void test_every_output_derived(void **state)
{
	(void)state;
	vta_tfl_model m;
	load_run_model(&m);
	size_t n_ops = m.n_ops;
	vta_tfl_model_free(&m);
	for (size_t i = 0; i < n_ops; i++) {
		load_run_model(&m);
		const vta_tfl_op *op = &m.ops[i];
		if (op->decode) {
			vta_tfl_model_free(&m);
			continue;
		}
		m.tensors[op->outputs[0]].count += 1;
		char want[64];
		snprintf(want, sizeof(want), "operator %zu (", i);
		vta_error err = {0};
		vta_status st = vta_model_check(&m, 0, false, NULL, &err);
		if (st == VTA_OK || !strstr(err.detail, want))
			fail_msg("operator %zu: a grown output gave '%s'", i, err.detail);
		assert_int_equal(st, VTA_E_DATA);
		vta_tfl_model_free(&m);
	}
}

static void test_limit(void **state)
{
	(void)state;
	vta_tfl_model m;
	load_run_model(&m);
	vta_model_memory mem;
	vta_error err = {0};
	assert_int_equal(vta_model_check(&m, 0, false, &mem, &err), VTA_OK);
	assert_int_equal(vta_model_check(&m, mem.bytes, false, NULL, &err), VTA_OK);
	mt_expect_error(vta_model_check(&m, mem.bytes - 1, false, NULL, &err), &err,
			"above the limit of");
	assert_int_equal(err.status, VTA_E_NOMEM);
	vta_tfl_model_free(&m);
}

static void test_bad_adds(void **state)
{
	(void)state;
	static const struct { enum tb_defect d; vta_status st; const char *want; } cases[] = {
		{TB_HUGE_INPUT, VTA_E_DATA, "operator 0 (ADD): inputs 'a' and 'b': dimension 1"},
		{TB_HUGE_OUTPUT, VTA_E_DATA, "output tensor 2 'out' holds 1073741824 elements"},
		{TB_HUGE_DIMS, VTA_E_NOMEM, "the run would hold more than 18446744073709551615"},
		{TB_LARGE, VTA_OK, NULL},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t len;
		vta_tfl_model m;
		uint8_t *b = tb_build(cases[i].d, &len);
		parse(b, len, &m);
		vta_error err = {0};
		vta_status st = vta_model_check(&m, 0, false, NULL, &err);
		if (cases[i].want) {
			mt_expect_error(st, &err, cases[i].want);
			assert_int_equal(st, cases[i].st);
		} else {
			assert_int_equal(st, VTA_OK); /* 2 GiB: within the default 4 GiB */
		}
		vta_tfl_model_free(&m);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_model_passes),
		cmocka_unit_test(test_every_output_derived),
		cmocka_unit_test(test_limit),
		cmocka_unit_test(test_bad_adds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
