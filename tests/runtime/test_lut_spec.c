/*
 * test_lut_spec.c - the TFLM compression spec reader: the document's example, and one
 * negative test per diagnostic, each checking FILE:LINE:COL.
 */
#include "rt_test.h"

#include "lut.h"

static void test_example_file(void **state)
{
	(void)state;
	vta_lut_spec s;
	vta_error err = {0};
	assert_int_equal(vta_lut_spec_load("tests/runtime/data/spec_ok.yaml", &s, &err), VTA_OK);
	assert_int_equal(s.count, 4);
	const uint32_t tensors[4] = {5, 10, 11, 22};
	const unsigned widths[4] = {4, 4, 2, 2};
	for (size_t i = 0; i < 4; i++) {
		assert_int_equal(s.tensors[i].subgraph, 0);
		assert_int_equal(s.tensors[i].tensor, tensors[i]);
		assert_int_equal(s.tensors[i].index_bitwidth, widths[i]);
	}
	assert_int_equal(s.tensors[0].line, 4);
	assert_int_equal(s.tensors[0].column, 5);
	const vta_lut_spec_tensor *t = vta_lut_spec_find(&s, 0, 11);
	assert_non_null(t);
	assert_int_equal(t->index_bitwidth, 2);
	assert_null(vta_lut_spec_find(&s, 1, 11));
	vta_lut_spec_free(&s);
}

static void test_flow_style_and_empty_list(void **state)
{
	(void)state;
	vta_lut_spec s;
	vta_error err = {0};
	assert_int_equal(vta_lut_spec_parse("tensors: [{subgraph: 1, tensor: 7, compression: "
					    "[{lut: {index_bitwidth: 7}}]}]\n",
					    "flow.yaml", &s, &err),
			 VTA_OK);
	assert_int_equal(s.count, 1);
	assert_int_equal(s.tensors[0].subgraph, 1);
	assert_int_equal(s.tensors[0].index_bitwidth, 7);
	vta_lut_spec_free(&s);
	assert_int_equal(vta_lut_spec_parse("tensors: []\n", "empty.yaml", &s, &err), VTA_OK);
	assert_int_equal(s.count, 0);
	vta_lut_spec_free(&s);
}

static void expect_parse_error(const char *text, const char *needle)
{
	vta_lut_spec s;
	vta_error err = {0};
	assert_int_equal(vta_lut_spec_parse(text, "spec.yaml", &s, &err), VTA_E_PARSE);
	rt_assert_error(&err, VTA_E_PARSE, needle);
	assert_null(s.tensors);
	assert_int_equal(s.count, 0);
}

#define ITEM(sg, t, method) \
	"tensors:\n  - subgraph: " sg "\n    tensor: " t "\n    compression:\n" method

static void test_errors(void **state)
{
	(void)state;
	expect_parse_error(ITEM("0", "1", "      - lut:\n          index_bitwidth: 8\n"),
			   "spec.yaml:6:27: index_bitwidth: 8 is out of range [1, 7]");
	expect_parse_error(ITEM("0", "1", "      - lut:\n          index_bitwidth: 0\n"),
			   "spec.yaml:6:27: index_bitwidth: 0 is out of range [1, 7]");
	expect_parse_error(ITEM("0", "1", "      - lut:\n          index_bitwidth: four\n"),
			   "spec.yaml:6:27: index_bitwidth: expected an integer, got 'four'");
	expect_parse_error(ITEM("0", "1", "      - lut:\n          bits: 4\n"),
			   "spec.yaml:6:11: lut: unknown key 'bits' (expected index_bitwidth)");
	expect_parse_error(ITEM("0", "1", "      - lut: {}\n"),
			   "spec.yaml:5:14: lut: missing key 'index_bitwidth'");
	expect_parse_error(ITEM("0", "1", "      - huffman: {}\n"),
			   "spec.yaml:5:9: compression method 'huffman' is not supported (only lut)");
	expect_parse_error(ITEM("0", "1", "      - pruning: {}\n"),
			   "compression method 'pruning' is not supported");
	expect_parse_error(ITEM("0", "1", "      - zip: {}\n"),
			   "spec.yaml:5:9: compression method: unknown key 'zip' (expected lut, "
			   "huffman, pruning)");
	expect_parse_error(ITEM("0", "1", "      - lut: {index_bitwidth: 2}\n"
					  "      - lut: {index_bitwidth: 3}\n"),
			   "spec.yaml:5:7: compression: expected exactly one method, found 2");
	expect_parse_error(ITEM("0", "1", "      - {lut: {index_bitwidth: 2}, pruning: {}}\n"),
			   "spec.yaml:5:9: compression method: expected one of lut, huffman, "
			   "pruning");
	expect_parse_error("tensors:\n  - subgraph: 0\n    tensor: 1\n",
			   "spec.yaml:2:5: tensors item: missing key 'compression'");
	expect_parse_error(ITEM("-1", "1", "      - lut: {index_bitwidth: 2}\n"),
			   "spec.yaml:2:15: subgraph: -1 is out of range");
	expect_parse_error(ITEM("0", "1", "      - lut: {index_bitwidth: 2}\n") "    extra: 1\n",
			   "spec.yaml:6:5: tensors item: unknown key 'extra'");
	expect_parse_error(ITEM("0", "1", "      - lut: {index_bitwidth: 2}\n")
			   "  - subgraph: 0\n    tensor: 1\n    compression: [{lut: {index_bitwidth: 3}}]\n",
			   "spec.yaml:6:5: tensor 1 of subgraph 0 is already specified at line 2");
	expect_parse_error("tensors:\n  - subgraph: 0\n    subgraph: 1\n",
			   "spec.yaml:3:5: tensors item: duplicate key 'subgraph'");
	expect_parse_error("tensor:\n  - {}\n", "spec.yaml:1:1: spec: unknown key 'tensor'");
	expect_parse_error("tensors: 3\n", "spec.yaml:1:10: tensors: expected a list");
	expect_parse_error("- 1\n", "spec.yaml:1:1: spec: expected a mapping");
	expect_parse_error("", "spec.yaml: empty spec");
	expect_parse_error("tensors: [\n", "spec.yaml:2:1:");
}

/* Selectors: an operator type and a minimum size instead of a tensor index. */
static void test_selectors(void **state)
{
	(void)state;
	vta_lut_spec s;
	vta_error err = {0};
	assert_int_equal(vta_lut_spec_parse(
				 "tensors:\n"
				 "  - {subgraph: 0, op: CONV_2D, min_elements: 1024,"
				 " compression: [{lut: {index_bitwidth: 4}}]}\n"
				 "  - {subgraph: 0, op: DEPTHWISE_CONV_2D,"
				 " compression: [{lut: {index_bitwidth: 6}}]}\n"
				 "  - {subgraph: 0, tensor: 3, compression: [{lut: {index_bitwidth: 2}}]}\n",
				 "sel.yaml", &s, &err),
			 VTA_OK);
	assert_int_equal(s.count, 3);
	assert_int_equal(s.tensors[0].op, VTA_LUT_FILTERS_CONV_2D);
	assert_int_equal(s.tensors[0].min_elements, 1024);
	assert_int_equal(s.tensors[0].index_bitwidth, 4);
	assert_int_equal(s.tensors[0].line, 2);
	assert_int_equal(s.tensors[1].op, VTA_LUT_FILTERS_DEPTHWISE_CONV_2D);
	assert_int_equal(s.tensors[1].min_elements, 0);
	assert_int_equal(s.tensors[2].op, VTA_LUT_FILTERS_NONE);
	/* a selector is no tensor entry */
	assert_null(vta_lut_spec_find(&s, 0, 0));
	assert_non_null(vta_lut_spec_find(&s, 0, 3));
	/* one from elsewhere: no position, its origin */
	assert_int_equal(vta_lut_spec_add_selector(&s, VTA_LUT_FILTERS_FULLY_CONNECTED, 5, 3,
						   "--filters", &err),
			 VTA_OK);
	assert_int_equal(s.count, 4);
	assert_string_equal(s.tensors[3].origin, "--filters");
	assert_int_equal(s.tensors[3].line, 0);
	assert_int_equal(vta_lut_spec_add_selector(&s, VTA_LUT_FILTERS_NONE, 5, 3, "--filters",
						   &err),
			 VTA_E_USAGE);
	assert_int_equal(vta_lut_spec_add_selector(&s, VTA_LUT_FILTERS_CONV_2D, 5, 8, "--filters",
						   &err),
			 VTA_E_USAGE);
	assert_int_equal(s.count, 4);
	vta_lut_spec_free(&s);
	assert_string_equal(vta_lut_filter_op_name(VTA_LUT_FILTERS_FULLY_CONNECTED),
			    "FULLY_CONNECTED");
	assert_null(vta_lut_filter_op_name(VTA_LUT_FILTERS_COUNT));

#define SEL(rest) "tensors:\n  - subgraph: 0\n" rest "    compression: [{lut: {index_bitwidth: 4}}]\n"
	expect_parse_error(SEL("    op: CONV_3D\n"),
			   "spec.yaml:3:9: op: unknown operator type 'CONV_3D' (expected CONV_2D, "
			   "DEPTHWISE_CONV_2D or FULLY_CONNECTED");
	expect_parse_error(SEL("    op: [CONV_2D]\n"), "spec.yaml:3:9: op: ");
	expect_parse_error(SEL("    op: CONV_2D\n    min_elements: lots\n"),
			   "spec.yaml:4:19: min_elements: expected an integer, got 'lots'");
	expect_parse_error(SEL("    op: CONV_2D\n    min_elements: -3\n"),
			   "spec.yaml:4:19: min_elements: -3 is out of range");
	expect_parse_error(SEL("    op: CONV_2D\n    tensor: 4\n"),
			   "spec.yaml:3:9: tensors item: expected either 'tensor' (one tensor) or "
			   "'op' (the filters of every such operator), not both");
	expect_parse_error(SEL(""), "spec.yaml:2:5: tensors item: expected either 'tensor'");
	expect_parse_error(SEL("    tensor: 4\n    min_elements: 9\n"),
			   "spec.yaml:4:19: min_elements: only a selector ('op') takes it");
#undef SEL
}

static void test_file_errors(void **state)
{
	(void)state;
	vta_lut_spec s;
	vta_error err = {0};
	assert_int_equal(vta_lut_spec_load("tests/runtime/data/spec_bad_width.yaml", &s, &err),
			 VTA_E_PARSE);
	rt_assert_error(&err, VTA_E_PARSE,
			"tests/runtime/data/spec_bad_width.yaml:5:31: index_bitwidth: 8 is out of "
			"range");
	assert_int_equal(vta_lut_spec_load("tests/runtime/data/no_such_spec.yaml", &s, &err),
			 VTA_E_IO);
	rt_assert_error(&err, VTA_E_IO, "no_such_spec.yaml: cannot open");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_example_file),
		cmocka_unit_test(test_flow_style_and_empty_list),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_selectors),
		cmocka_unit_test(test_file_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
