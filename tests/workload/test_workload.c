/* test_workload.c - workload YAML parsing, its errors, data sources and materialisation. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "npy.h"
#include "workload.h"
#include "layer_ops.h"
#include "layer_run.h"
#include "vta_ref.h"
#include "workload_layer.h"

static char tmpdir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/vtasim-wl-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static void write_file(const char *name, const char *text)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static vta_status load(const char *text, vta_workload *wl, vta_error *err)
{
	write_file("w.yaml", text);
	char path[128];
	snprintf(path, sizeof(path), "%s/w.yaml", tmpdir);
	return vta_workload_load(path, wl, err);
}

static void expect_error(const char *text, const char *where, const char *needle)
{
	vta_workload wl;
	vta_error err = {0};
	assert_int_not_equal(load(text, &wl, &err), VTA_OK);
	if (!strstr(err.detail, where) || !strstr(err.detail, needle))
		fail_msg("detail '%s' lacks '%s' or '%s'", err.detail, where, needle);
}

static const char CONV[] =
	"layers:\n"
	"  - name: c\n"
	"    op: conv2d\n"
	"    input: {shape: [1, 5, 6, 3], scale: 0.02, zero_point: -4, data: {random: {seed: 1}}}\n"
	"    filter: {shape: [4, 3, 3, 3], scales: [0.01, 0.02, 0.03, 0.04], data: {random: {seed: 2}},\n"
	"             compression: {lut: {index_bitwidth: 2}}}\n"
	"    bias: {data: {random: {seed: 3}}, compression: {lut: {index_bitwidth: 3}}}\n"
	"    output: {scale: 0.05, zero_point: 3}\n"
	"    stride: [2, 1]\n"
	"    padding: same\n"
	"    dilation: 1\n"
	"    activation: relu6\n";

static void test_parse_conv(void **state)
{
	(void)state;
	vta_workload wl;
	vta_error err = {0};
	assert_int_equal(load(CONV, &wl, &err), VTA_OK);
	assert_int_equal(wl.n_layers, 1);
	vta_wl_layer *l = &wl.layers[0];
	assert_string_equal(l->name, "c");
	assert_int_equal(l->op, VTA_WL_CONV2D);
	assert_int_equal(l->input.shape[2], 6);
	assert_int_equal(l->input.zero_point, -4);
	assert_int_equal(l->filter.scales.count, 4);
	assert_true(l->filter.compressed);
	assert_int_equal(l->filter.index_bitwidth, 2);
	assert_int_equal(l->stride[0], 2);
	assert_int_equal(l->stride[1], 1);
	assert_int_equal(l->dilation[1], 1);
	assert_int_equal(l->activation, VTA_ACT_RELU6);

	/* materialise: at most 4 values per output channel, decoded through the LUT */
	vta_layer_data d;
	assert_int_equal(vta_layer_materialize(l, &d, &err), VTA_OK);
	assert_true(d.has_lut && d.has_bias_lut);
	assert_null(d.filter); /* the LUT tensors are the constants' only copy */
	int8_t filter[108];
	int32_t bias[4];
	assert_int_equal(vta_lut_decode(&d.lut.tensor, filter, sizeof(filter), &err), VTA_OK);
	assert_int_equal(vta_lut_decode(&d.bias_lut.tensor, bias, sizeof(bias), &err), VTA_OK);
	for (int o = 0; o < 4; o++) {
		int seen[256] = {0}, distinct = 0;
		for (int i = 0; i < 27; i++)
			if (!seen[filter[o * 27 + i] + 128]++)
				distinct++;
		assert_true(distinct <= 4);
	}
	int distinct_bias = 0;
	for (int i = 0; i < 4; i++) {
		int dup = 0;
		for (int j = 0; j < i; j++)
			dup |= bias[j] == bias[i];
		distinct_bias += !dup;
	}
	assert_true(distinct_bias <= 8);
	assert_int_equal(d.output.shape[1], 3); /* ceil(5 / 2) */
	assert_int_equal(d.output.shape[2], 6);
	assert_int_equal(d.output.shape[3], 4);
	assert_true(d.compressed_bytes < d.decompressed_bytes);
	/* same seeds, same numbers */
	vta_layer_data d2;
	assert_int_equal(vta_layer_materialize(l, &d2, &err), VTA_OK);
	assert_memory_equal(d.input.data, d2.input.data, 90);
	int8_t filter2[108];
	assert_int_equal(vta_lut_decode(&d2.lut.tensor, filter2, sizeof(filter2), &err), VTA_OK);
	assert_memory_equal(filter, filter2, 108);
	/* the golden kernel runs on it */
	const vta_layer_ops *ops = vta_layer_ops_of(d.op);
	vta_layer_plain plain = {0};
	assert_int_equal(ops->decode(&d, &plain, &err), VTA_OK);
	assert_int_equal(ops->golden(&d, &plain, VTA_ARITH_TFLITE, &d.output, NULL, &err), VTA_OK);
	vta_layer_plain_free(&plain);
	vta_layer_data_free(&d2);
	vta_layer_data_free(&d);
	vta_workload_free(&wl);
}

/* The .npy reader checks what the header claims against the file before it allocates:
 * short data, trailing bytes and a claim of 1 TiB in a small file are errors. */
static void test_npy_sizes(void **state)
{
	(void)state;
	int8_t vals[16] = {0};
	char path[128];
	snprintf(path, sizeof(path), "%s/s.npy", tmpdir);
	size_t shape[4] = {1, 2, 2, 4};
	vta_error err = {0};
	vta_npy back;
	assert_int_equal(vta_npy_write(path, VTA_NPY_I8, 4, shape, vals, &err), VTA_OK);
	FILE *f = fopen(path, "ab");
	fputc(0, f);
	fclose(f);
	assert_int_equal(vta_npy_read(path, &back, &err), VTA_E_DATA);
	assert_non_null(strstr(err.detail, "s.npy: the shape needs 16 bytes of data, the file "
					   "holds 17 (trailing bytes)"));
	assert_null(back.data);
	f = fopen(path, "rb");
	fseek(f, 0, SEEK_END);
	long size = ftell(f);
	fclose(f);
	assert_int_equal(truncate(path, size - 2), 0); /* one byte short */
	assert_int_equal(vta_npy_read(path, &back, &err), VTA_E_DATA);
	assert_non_null(strstr(err.detail, "needs 16 bytes of data, the file holds 15"));
	/* a header claiming 2^40 int8 elements in a 128-byte file */
	char hdr[118];
	int n = snprintf(hdr, sizeof(hdr),
			 "{'descr': '|i1', 'fortran_order': False, 'shape': (1099511627776,), }");
	memset(hdr + n, ' ', sizeof(hdr) - 1 - (size_t)n);
	hdr[sizeof(hdr) - 1] = '\n';
	f = fopen(path, "wb");
	fwrite("\x93NUMPY\x01\x00\x76\x00", 1, 10, f);
	fwrite(hdr, 1, sizeof(hdr), f);
	fclose(f);
	assert_int_equal(vta_npy_read(path, &back, &err), VTA_E_DATA);
	assert_non_null(strstr(err.detail, "needs 1099511627776 bytes of data, the file holds 0"));
	/* a version 2 header longer than the file */
	f = fopen(path, "wb");
	fwrite("\x93NUMPY\x02\x00\xff\xff\xff\x7f", 1, 12, f);
	fclose(f);
	assert_int_equal(vta_npy_read(path, &back, &err), VTA_E_DATA);
	assert_non_null(strstr(err.detail, "truncated .npy header"));
}

static void test_add_constant_and_npy(void **state)
{
	(void)state;
	int8_t vals[12];
	for (int i = 0; i < 12; i++)
		vals[i] = (int8_t)(i * 7 - 40);
	char path[128];
	snprintf(path, sizeof(path), "%s/a.npy", tmpdir);
	size_t shape[4] = {1, 2, 2, 3};
	vta_error err = {0};
	assert_int_equal(vta_npy_write(path, VTA_NPY_I8, 4, shape, vals, &err), VTA_OK);
	vta_npy back;
	assert_int_equal(vta_npy_read(path, &back, &err), VTA_OK);
	assert_int_equal(back.rank, 4);
	assert_int_equal(back.count, 12);
	assert_memory_equal(back.data, vals, 12);
	vta_npy_free(&back);

	vta_workload wl;
	assert_int_equal(load("layers:\n"
			      "  - op: add\n"
			      "    inputs:\n"
			      "      - {shape: [1,2,2,3], scale: 0.1, zero_point: 1,"
			      " data: {random: {seed: 4}}, compression: {lut: {index_bitwidth: 1}}}\n"
			      "      - {shape: [1,2,2,3], scale: 0.2, data: {npy: a.npy}}\n"
			      "    output: {scale: 0.3}\n",
			      &wl, &err),
			 VTA_OK);
	vta_layer_data d;
	assert_int_equal(vta_layer_materialize(&wl.layers[0], &d, &err), VTA_OK);
	/* inputs[0] is the constant: it becomes b */
	assert_true(d.swapped);
	assert_memory_equal(d.a.data, vals, 12);
	int8_t b[12];
	assert_int_equal(vta_lut_decode(&d.lut.tensor, b, sizeof(b), &err), VTA_OK);
	int distinct = 0;
	for (int i = 0; i < 12; i++) {
		int dup = 0;
		for (int j = 0; j < i; j++)
			dup |= b[j] == b[i];
		distinct += !dup;
	}
	assert_true(distinct <= 2);
	vta_layer_data_free(&d);
	vta_workload_free(&wl);
}

static void test_data_errors(void **state)
{
	(void)state;
	vta_workload wl;
	vta_error err = {0};
	/* a raw file of the wrong size */
	write_file("short.bin", "abc");
	assert_int_equal(load("layers:\n  - op: add\n    inputs:\n"
			      "      - {shape: [1,1,1,4], scale: 0.1, data: {raw: short.bin}}\n"
			      "      - {shape: [1,1,1,4], scale: 0.1, data: {random: {seed: 1}}}\n"
			      "    output: {scale: 0.3}\n",
			      &wl, &err),
			 VTA_OK);
	vta_layer_data d;
	assert_int_equal(vta_layer_materialize(&wl.layers[0], &d, &err), VTA_E_DATA);
	assert_non_null(strstr(err.detail, "exactly 4 bytes"));
	vta_workload_free(&wl);
	/* a missing npy */
	assert_int_equal(load("layers:\n  - op: add\n    inputs:\n"
			      "      - {shape: [1,1,1,4], scale: 0.1, data: {npy: none.npy}}\n"
			      "      - {shape: [1,1,1,4], scale: 0.1, data: {random: {seed: 1}}}\n"
			      "    output: {scale: 0.3}\n",
			      &wl, &err),
			 VTA_OK);
	assert_int_equal(vta_layer_materialize(&wl.layers[0], &d, &err), VTA_E_IO);
	assert_non_null(strstr(err.detail, "none.npy"));
	vta_workload_free(&wl);
	/* not an npy */
	write_file("bad.npy", "this is not numpy");
	assert_int_equal(load("layers:\n  - op: add\n    inputs:\n"
			      "      - {shape: [1,1,1,4], scale: 0.1, data: {npy: bad.npy}}\n"
			      "      - {shape: [1,1,1,4], scale: 0.1, data: {random: {seed: 1}}}\n"
			      "    output: {scale: 0.3}\n",
			      &wl, &err),
			 VTA_OK);
	assert_int_equal(vta_layer_materialize(&wl.layers[0], &d, &err), VTA_E_DATA);
	assert_non_null(strstr(err.detail, "bad magic"));
	vta_workload_free(&wl);
}

static void test_parse_errors(void **state)
{
	(void)state;
	expect_error("", "w.yaml", "empty workload");
	expect_error("layers: []\n", "w.yaml:1:9", "empty list");
	expect_error("layer: []\n", "w.yaml:1:1", "unknown key 'layer'");
	expect_error("layers:\n  - op: pool\n    output: {scale: 1}\n", "w.yaml:2:9",
		     "expected conv2d, depthwise_conv2d, fully_connected or add");
	expect_error("layers:\n  - op: add\n    output: {scale: 1}\n", "w.yaml:2:5", "missing 'inputs'");
	expect_error("layers:\n  - op: add\n    inputs: [{shape: [1], scale: 1, data: {random: {seed: 1}}}]\n"
		     "    output: {scale: 1}\n",
		     "w.yaml:3:13", "exactly two");
	expect_error("layers:\n  - op: add\n    inputs:\n"
		     "      - {shape: [1,2], scale: 1, data: {random: {seed: 1}}}\n"
		     "      - {shape: [1,3], scale: 1, data: {random: {seed: 1}}}\n"
		     "    output: {scale: 1}\n",
		     "w.yaml:2:5", "same shape");
	expect_error("layers:\n  - op: add\n    inputs:\n"
		     "      - {shape: [1,2], scale: 1, data: {random: {seed: 1}}, colour: red}\n"
		     "      - {shape: [1,2], scale: 1, data: {random: {seed: 1}}}\n"
		     "    output: {scale: 1}\n",
		     "w.yaml:4:61", "unknown key 'colour'");
	expect_error("layers:\n  - op: add\n    inputs:\n"
		     "      - {shape: [1,2], scale: 1, zero_point: 300, data: {random: {seed: 1}}}\n"
		     "      - {shape: [1,2], scale: 1, data: {random: {seed: 1}}}\n"
		     "    output: {scale: 1}\n",
		     "w.yaml:4:46", "out of range");
	expect_error("layers:\n  - op: add\n    inputs:\n"
		     "      - {shape: [1,2], scale: 1, data: {random: {seed: 1}},"
		     " compression: {lut: {index_bitwidth: 8}}}\n"
		     "      - {shape: [1,2], scale: 1, data: {random: {seed: 1}}}\n"
		     "    output: {scale: 1}\n",
		     "w.yaml:4:97", "out of range [1, 7]");
	expect_error("layers:\n  - op: add\n    inputs:\n"
		     "      - {shape: [1,2], scale: 1, data: {random: {}}}\n"
		     "      - {shape: [1,2], scale: 1, data: {random: {seed: 1}}}\n"
		     "    output: {scale: 1}\n",
		     "w.yaml:4:49", "missing 'seed'");
	expect_error("layers:\n  - op: add\n    inputs:\n"
		     "      - {shape: [1,2], scale: 1}\n"
		     "      - {shape: [1,2], scale: 1, data: {random: {seed: 1}}}\n"
		     "    output: {scale: 1}\n",
		     "w.yaml:4:9", "missing 'data'");
	expect_error("layers:\n  - op: conv2d\n"
		     "    input: {shape: [1,4,4,6], scale: 1, data: {random: {seed: 1}}}\n"
		     "    filter: {shape: [2,3,3,4], scale: 1, data: {random: {seed: 1}}}\n"
		     "    output: {scale: 1}\n",
		     "w.yaml:2:5", "not a multiple");
	expect_error("layers:\n  - op: conv2d\n"
		     "    input: {shape: [1,4,4,4], scale: 1, data: {random: {seed: 1}}}\n"
		     "    filter: {shape: [2,3,3,4], scale: 1, zero_point: 3, data: {random: {seed: 1}}}\n"
		     "    output: {scale: 1}\n",
		     "w.yaml:4:54", "zero point 0");
	expect_error("layers:\n  - op: conv2d\n"
		     "    input: {shape: [1,4,4,4], scale: 1, data: {random: {seed: 1}}}\n"
		     "    filter: {shape: [2,3,3,4], scale: 1, data: {random: {seed: 1}}}\n"
		     "    output: {scale: 1}\n    padding: full\n",
		     "w.yaml:6:14", "same or valid");
	expect_error("layers:\n  - op: conv2d\n"
		     "    input: {shape: [1,4,4,4], scale: 1, data: {random: {seed: 1}}}\n"
		     "    filter: {shape: [2,3,3,4], scale: 1, data: {random: {seed: 1}}}\n"
		     "    output: {scale: 1}\n    stride: [1, 0]\n",
		     "w.yaml:6:17", "out of range");
	expect_error("layers:\n  - op: conv2d\n"
		     "    input: {shape: [1,4,4,4], scale: 1, data: {random: {seed: 1}}}\n"
		     "    filter: {shape: [2,3,3,4], scale: 1, data: {random: {seed: 1}}}\n"
		     "    output: {scale: 1}\n    activation: gelu\n",
		     "w.yaml:6:17", "expected none, relu");
	expect_error("layers:\n  - {name: x, op: add, inputs: [{shape: [1], scale: 1, data: {random: {seed: 1}}},"
		     " {shape: [1], scale: 1, data: {random: {seed: 1}}}], output: {scale: 1}}\n"
		     "  - {name: x, op: add, inputs: [{shape: [1], scale: 1, data: {random: {seed: 1}}},"
		     " {shape: [1], scale: 1, data: {random: {seed: 1}}}], output: {scale: 1}}\n",
		     "w.yaml:3:5", "used twice");
	expect_error("layers:\n  - op: add\n    inputs: [\n", "w.yaml:", "");
	/* sizes whose products would overflow or exhaust memory */
	expect_error("layers:\n  - op: add\n    inputs:\n"
		     "      - {shape: [1048576, 1048576, 1048576, 4], scale: 1, data: {random: {seed: 1}}}\n"
		     "      - {shape: [1,2], scale: 1, data: {random: {seed: 1}}}\n"
		     "    output: {scale: 1}\n",
		     "w.yaml:4:17", "more than 1073741824 elements");
	expect_error("layers:\n  - op: conv2d\n"
		     "    input: {shape: [1,1024,1024,1], scale: 1, data: {random: {seed: 1}}}\n"
		     "    filter: {shape: [4096,1,1,1], scale: 1, data: {random: {seed: 1}}}\n"
		     "    output: {scale: 1}\n",
		     "w.yaml:2:5", "output would exceed");
}

static const char NEW_OPS[] =
	"layers:\n"
	"  - name: dw\n"
	"    op: depthwise_conv2d\n"
	"    input: {shape: [1, 5, 6, 3], scale: 0.02, zero_point: -4, data: {random: {seed: 1}}}\n"
	"    filter: {shape: [1, 3, 3, 6], scales: {random: {seed: 2}}, data: {random: {seed: 3}},\n"
	"             compression: {lut: {index_bitwidth: 3}}}\n"
	"    bias: {data: {random: {seed: 4}}}\n"
	"    output: {scale: 0.05, zero_point: 3}\n"
	"    depth_multiplier: 2\n"
	"    stride: 2\n"
	"    activation: relu\n"
	"  - name: fc\n"
	"    op: fully_connected\n"
	"    input: {shape: [2, 3, 4], scale: 0.03, zero_point: 7, data: {random: {seed: 5}}}\n"
	"    filter: {shape: [5, 12], scale: 0.004, data: {random: {seed: 6}},\n"
	"             compression: {lut: {index_bitwidth: 4}}}\n"
	"    bias: {shape: [5], data: {random: {seed: 7}}}\n"
	"    output: {scale: 0.1, zero_point: -2}\n"
	"  - name: add_c\n"
	"    op: add\n"
	"    inputs:\n"
	"      - {shape: [7], scale: 0.02, zero_point: 1, data: {random: {seed: 8}}}\n"
	"      - {shape: [1, 3, 2, 7], scale: 0.01, zero_point: -1, data: {random: {seed: 9}}}\n"
	"    output: {scale: 0.03, zero_point: 0}\n"
	"  - name: add_s\n"
	"    op: add\n"
	"    inputs:\n"
	"      - {shape: [4, 5], scale: 0.02, zero_point: 1, data: {random: {seed: 10}}}\n"
	"      - {shape: [1], scale: 0.01, zero_point: 2, data: {random: {seed: 11}},\n"
	"         compression: {lut: {index_bitwidth: 1}}}\n"
	"    output: {scale: 0.03, zero_point: 0}\n";

/* DEPTHWISE_CONV_2D, FULLY_CONNECTED and broadcast ADD: parsed, materialised with their
 * output shapes and their constants' channel axes, and run bit-exact on the reference
 * executor in both modes and both decompression modes. */
static void test_new_ops(void **state)
{
	(void)state;
	vta_workload wl;
	vta_error err = {0};
	assert_int_equal(load(NEW_OPS, &wl, &err), VTA_OK);
	assert_int_equal(wl.n_layers, 4);
	assert_int_equal(wl.layers[0].op, VTA_WL_DEPTHWISE);
	assert_int_equal(wl.layers[0].depth_multiplier, 2);
	assert_int_equal(wl.layers[1].op, VTA_WL_FC);
	assert_string_equal(vta_wl_op_name(VTA_WL_DEPTHWISE), "depthwise_conv2d");
	assert_string_equal(vta_wl_op_name(VTA_WL_FC), "fully_connected");
	const int32_t shapes[4][4] = {{1, 3, 3, 6}, {1, 1, 2, 5}, {1, 3, 2, 7}, {1, 1, 4, 5}};
	for (size_t i = 0; i < 4; i++) {
		vta_layer_data d;
		if (vta_layer_materialize(&wl.layers[i], &d, &err) != VTA_OK)
			fail_msg("%s", err.detail);
		assert_memory_equal(d.output.shape, shapes[i], sizeof(shapes[i]));
		if (i == 0) /* one table per output channel, along TFLite's last axis */
			assert_true(d.lut.tensor.channels == 6 && d.lut.tensor.axis_last);
		if (i == 1)
			assert_true(d.lut.tensor.channels == 5 && !d.lut.tensor.axis_last);
		vta_layer_data_free(&d);
	}
	vta_config cfg;
	assert_int_equal(vta_config_load("configs/tiny.yaml", &cfg, &err), VTA_OK);
	vta_ref *ref;
	assert_int_equal(vta_ref_create(&cfg, &ref, &err), VTA_OK);
	for (size_t i = 0; i < 4; i++)
		for (int mode = 0; mode < 2; mode++)
			for (int dec = 0; dec < 2; dec++) {
				vta_layer_run_opts o = {.mode = (vta_arith_mode)mode, .threads = 2,
							.fault_index = -1,
							.decompress = (vta_decompress)dec};
				vta_layer_result r;
				if (vta_layer_run(&cfg, &wl.layers[i], vta_ref_engine(ref), &o, &r,
						  &err) != VTA_OK)
					fail_msg("%s", err.detail);
				assert_true(r.check.bit_exact);
				/* the FC and depthwise filters go through the decoder; a
				 * broadcast constant is decoded on the host */
				assert_int_equal(r.decompress, dec && i < 2 ? VTA_DECOMPRESS_HW
									   : VTA_DECOMPRESS_HOST);
			}
	vta_ref_destroy(ref);
	vta_workload_free(&wl);
}

static void test_new_op_errors(void **state)
{
	(void)state;
	static const char IN4[] = "    input: {shape: [1,4,4,4], scale: 1, data: {random: {seed: 1}}}\n";
	char text[512];
	snprintf(text, sizeof(text), "layers:\n  - op: depthwise_conv2d\n%s"
		 "    filter: {shape: [2,3,3,4], scale: 1, data: {random: {seed: 1}}}\n"
		 "    output: {scale: 1}\n", IN4);
	expect_error(text, "w.yaml:2:5", "filter.shape must be [1, KH, KW, O]");
	snprintf(text, sizeof(text), "layers:\n  - op: depthwise_conv2d\n%s"
		 "    filter: {shape: [1,3,3,6], scale: 1, data: {random: {seed: 1}}}\n"
		 "    output: {scale: 1}\n", IN4);
	expect_error(text, "w.yaml:2:5", "filter channels 6 are not a multiple of the input's 4");
	snprintf(text, sizeof(text), "layers:\n  - op: depthwise_conv2d\n%s"
		 "    filter: {shape: [1,3,3,8], scale: 1, data: {random: {seed: 1}}}\n"
		 "    output: {scale: 1}\n    depth_multiplier: 3\n", IN4);
	expect_error(text, "w.yaml:2:5", "depth_multiplier 3, but 4 input channels make 8");
	snprintf(text, sizeof(text), "layers:\n  - op: depthwise_conv2d\n%s"
		 "    filter: {shape: [1,3,3,8], scales: [1, 2], data: {random: {seed: 1}}}\n"
		 "    output: {scale: 1}\n", IN4);
	expect_error(text, "w.yaml:2:5", "filter.scales has 2 entries for 8 output channels");
	snprintf(text, sizeof(text), "layers:\n  - op: conv2d\n%s"
		 "    filter: {shape: [2,3,3,4], scale: 1, data: {random: {seed: 1}}}\n"
		 "    output: {scale: 1}\n    depth_multiplier: 1\n", IN4);
	expect_error(text, "w.yaml:6:23", "a conv2d has no 'depth_multiplier'");
	snprintf(text, sizeof(text), "layers:\n  - op: fully_connected\n%s"
		 "    filter: {shape: [2,3,3,4], scale: 1, data: {random: {seed: 1}}}\n"
		 "    output: {scale: 1}\n", IN4);
	expect_error(text, "w.yaml:2:5", "filter.shape must be [O, K]");
	snprintf(text, sizeof(text), "layers:\n  - op: fully_connected\n%s"
		 "    filter: {shape: [2,5], scale: 1, data: {random: {seed: 1}}}\n"
		 "    output: {scale: 1}\n", IN4);
	expect_error(text, "w.yaml:2:5", "the input's 64 elements are not a multiple of K = 5");
	snprintf(text, sizeof(text), "layers:\n  - op: fully_connected\n%s"
		 "    filter: {shape: [2,16], scale: 1, data: {random: {seed: 1}}}\n"
		 "    bias: {shape: [3], data: {random: {seed: 1}}}\n"
		 "    output: {scale: 1}\n", IN4);
	expect_error(text, "w.yaml:2:5", "bias.shape must be [2]");
	snprintf(text, sizeof(text), "layers:\n  - op: fully_connected\n%s"
		 "    filter: {shape: [2,16], scale: 1, data: {random: {seed: 1}}}\n"
		 "    output: {scale: 1}\n    stride: 2\n", IN4);
	expect_error(text, "w.yaml:6:13", "a fully_connected has no 'stride'");
	expect_error("layers:\n  - op: add\n    inputs:\n"
		     "      - {shape: [4], scale: 1, data: {random: {seed: 1}}}\n"
		     "      - {shape: [2, 3], scale: 1, data: {random: {seed: 1}}}\n"
		     "    output: {scale: 1}\n    depth_multiplier: 1\n",
		     "w.yaml:7:23", "an add has no 'depth_multiplier'");
	expect_error("layers:\n  - op: add\n    inputs:\n"
		     "      - {shape: [4], scale: 1, data: {random: {seed: 1}}}\n"
		     "      - {shape: [2, 3], scale: 1, data: {random: {seed: 1}}}\n"
		     "    output: {scale: 1}\n",
		     "w.yaml:2:5", "or one must be [C] (one value per channel of the other)");
}

static void test_shipped_workloads_parse(void **state)
{
	(void)state;
	const char *files[] = {"configs/workloads/demo.yaml", "configs/workloads/resnet18.yaml",
			       "configs/workloads/add_layers.yaml",
			       "configs/workloads/resnet18_lut4.yaml",
			       "configs/workloads/mobilenet_dw.yaml"};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		vta_workload wl;
		vta_error err = {0};
		if (vta_workload_load(files[i], &wl, &err) != VTA_OK)
			fail_msg("%s: %s", files[i], err.detail);
		vta_workload_free(&wl);
	}
}

/* A workload naming a model: its path and inputs resolved against the workload's folder,
 * its options read; the model's own keys refused without it and layers beside it. */
static void test_model_workload(void **state)
{
	(void)state;
	char cwd[512], model[700], link[128];
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	snprintf(model, sizeof(model), "%s/tests/model/data/person_detect.tflite", cwd);
	snprintf(link, sizeof(link), "%s/pd.tflite", tmpdir);
	unlink(link);
	assert_int_equal(symlink(model, link), 0);
	write_file("in.npy", "any bytes: the run reads them");
	vta_workload wl;
	vta_error err = {0};
	assert_int_equal(load("model: pd.tflite\ninputs: [in.npy]\nseed: 9\nhost_ops: fc,add\n",
			      &wl, &err), VTA_OK);
	assert_true(wl.is_model);
	assert_int_equal(wl.n_layers, 0);
	char want[256];
	snprintf(want, sizeof(want), "%s/pd.tflite", tmpdir);
	assert_string_equal(wl.model.path, want);
	assert_int_equal(wl.model.line, 1);
	assert_int_equal(wl.model.col, 8);
	assert_int_equal(wl.model.n_inputs, 1);
	snprintf(want, sizeof(want), "%s/in.npy", tmpdir);
	assert_string_equal(wl.model.inputs[0], want);
	assert_int_equal(wl.model.seed, 9);
	assert_int_equal(wl.model.host_classes, (1u << 2) | (1u << 3)); /* fc, add */
	assert_string_equal(wl.model.host_ops, "fc,add");
	vta_workload_free(&wl);
	/* the defaults: seed 1, random inputs, nothing moved; a list of classes */
	assert_int_equal(load("model: pd.tflite\nhost_ops: [depthwise]\n", &wl, &err), VTA_OK);
	assert_int_equal(wl.model.seed, 1);
	assert_int_equal(wl.model.n_inputs, 0);
	assert_int_equal(wl.model.host_classes, 1u << 1);
	assert_string_equal(wl.model.host_ops, "depthwise");
	vta_workload_free(&wl);
	expect_error("model: pd.tflite\nlayers: []\n", "w.yaml:2:9:", "'layers' with 'model'");
	expect_error("seed: 2\nlayers: []\n", "w.yaml:1:7:", "'seed' is an option of a model");
	expect_error("model: nope.tflite\n", "w.yaml:1:8:", "nope.tflite: cannot open");
	expect_error("model: w.yaml\n", "w.yaml:1:8:", "not a TFLite model");
	expect_error("model: pd.tflite\ninputs: [gone.npy]\n", "w.yaml:2:10:",
		     "gone.npy: cannot open");
	expect_error("model: pd.tflite\ninputs: [/dev/zero]\n", "w.yaml:2:10:",
		     "/dev/zero: a character device: a .npy file must be");
	expect_error("model: pd.tflite\ninputs: []\n", "w.yaml:2:9:",
		     "inputs: 0 files for the 1 input of pd.tflite");
	expect_error("model: pd.tflite\nhost_ops: [gemm]\n", "w.yaml:2:11:",
		     "host op class 'gemm'");
	expect_error("model: pd.tflite\nseed: -1\n", "w.yaml:2:7:", "seed");
	expect_error("model: pd.tflite\nplan: 3\n", "w.yaml:2:1:", "unknown key 'plan'");
}

/* Counts the observer's calls and checks what it is shown. */
typedef struct seen {
	vta_layer_observer base;
	int executed, checked;
} seen;

static vta_status on_executed(vta_layer_observer *self, const vta_layer_view *v,
			      vta_status run_status, const vta_error *run_err, vta_error *err)
{
	(void)err;
	assert_int_equal(run_status, VTA_OK);
	assert_null(run_err);
	assert_non_null(v->stream);
	assert_null(v->got);
	((seen *)self)->executed++;
	return VTA_OK;
}

static vta_status on_checked(vta_layer_observer *self, const vta_layer_view *v, vta_error *err)
{
	(void)err;
	assert_non_null(v->golden);
	assert_non_null(v->got);
	assert_non_null(v->dram_image);
	((seen *)self)->checked++;
	return VTA_OK;
}

/* The pipeline runs a layer with LUT constants on the reference executor, bit-exact in both
 * modes, reports an injected fault as a mismatch with the result complete, and hands the
 * constants to the LUT decoder when asked. */
static void test_layer_run_ref(void **state)
{
	(void)state;
	vta_config cfg;
	vta_error err = {0};
	assert_int_equal(vta_config_load("configs/tiny.yaml", &cfg, &err), VTA_OK);
	vta_workload wl;
	assert_int_equal(load(CONV, &wl, &err), VTA_OK);
	vta_ref *ref;
	assert_int_equal(vta_ref_create(&cfg, &ref, &err), VTA_OK);
	vta_engine *engine = vta_ref_engine(ref);
	assert_string_equal(engine->name, "ref");
	seen ob = {.base = {on_executed, on_checked}};
	vta_layer_result r;
	for (int mode = 0; mode < 2; mode++) {
		vta_layer_run_opts o = {.mode = (vta_arith_mode)mode, .threads = 2,
					.fault_index = -1, .keep_dram_image = true,
					.observer = &ob.base};
		assert_int_equal(vta_layer_run(&cfg, &wl.layers[0], engine, &o, &r, &err), VTA_OK);
		assert_true(r.check.bit_exact);
		assert_int_equal(r.check.count, 3 * 6 * 4);
		assert_false(r.timed);
		assert_true(r.has_lut);
		assert_int_equal(r.has_vs_tflite, mode == VTA_ARITH_VTA16);
	}
	assert_int_equal(ob.executed, 2);
	assert_int_equal(ob.checked, 2);
	vta_layer_run_opts o = {.mode = VTA_ARITH_TFLITE, .threads = 1, .fault_index = 5};
	assert_int_equal(vta_layer_run(&cfg, &wl.layers[0], engine, &o, &r, &err), VTA_E_MISMATCH);
	assert_int_equal(r.check.mismatches, 1);
	assert_int_equal(r.check.first_index, 5);
	assert_non_null(strstr(err.detail, "layer 'c': 1 of 72 outputs differ"));
	/* the same layer with its constants through the LUT decoder: bit-exact, and said so */
	for (int mode = 0; mode < 2; mode++) {
		vta_layer_run_opts h = {.mode = (vta_arith_mode)mode, .threads = 2,
					.fault_index = -1, .decompress = VTA_DECOMPRESS_HW};
		assert_int_equal(vta_layer_run(&cfg, &wl.layers[0], engine, &h, &r, &err), VTA_OK);
		assert_true(r.check.bit_exact);
		assert_int_equal(r.decompress, VTA_DECOMPRESS_HW);
		assert_true(r.counters.lut_hw_bytes > 0);
		assert_true(r.counters.stream.load_bytes[VTA_MEM_LUT] > 0);
	}
	vta_layer_run_opts host = {.mode = VTA_ARITH_TFLITE, .threads = 2, .fault_index = -1};
	assert_int_equal(vta_layer_run(&cfg, &wl.layers[0], engine, &host, &r, &err), VTA_OK);
	assert_int_equal(r.decompress, VTA_DECOMPRESS_HOST);
	assert_int_equal(r.counters.lut_hw_bytes, 0);
	vta_ref_destroy(ref);
	vta_workload_free(&wl);
}

/* A timed engine for the pipeline's thread check: the reference executor moves the data, and
 * each run takes the next of `cycles` (the one-thread stream runs first, then the chosen). */
typedef struct scripted {
	vta_engine base;
	vta_engine *ref;
	uint64_t cycles[4];
	bool fail_first; /* the first run fails (a budget the one-thread stream exceeds) */
	int runs;
} scripted;

static vta_status scripted_run(vta_engine *self, const vta_program *prog, vta_dram *dram,
			       vta_run_stats *stats, vta_error *err)
{
	scripted *e = (scripted *)self;
	vta_status st = e->ref->run(e->ref, prog, dram, NULL, err);
	assert_true(e->runs < 4);
	if (e->fail_first && e->runs == 0) {
		e->runs++;
		return vta_fail(err, VTA_E_NO_FINISH, "no FINISH within the cycle budget");
	}
	if (stats) {
		memset(stats, 0, sizeof(*stats));
		stats->cycles = e->cycles[e->runs];
	}
	e->runs++;
	return st;
}

typedef struct last_seen {
	vta_layer_observer base;
	int executed;
	unsigned threads;
} last_seen;

static vta_status on_executed_threads(vta_layer_observer *self, const vta_layer_view *v,
				      vta_status run_status, const vta_error *run_err,
				      vta_error *err)
{
	(void)run_status;
	(void)run_err;
	(void)err;
	last_seen *o = (last_seen *)self;
	o->executed++;
	o->threads = v->stream->threads;
	return VTA_OK;
}

/* A small layer whose plan uses two threads: with a timed engine its one-thread stream is
 * run too and the faster is kept (a tie keeps the two threads); the observers see the
 * winner's run, which is the engine's last; one thread asked, or an untimed engine, runs
 * once. */
static void test_layer_run_threads_measured(void **state)
{
	(void)state;
	static const char conv[] =
		"layers:\n"
		"  - name: c\n"
		"    op: conv2d\n"
		"    input: {shape: [1, 7, 13, 3], scale: 0.03, zero_point: -7, data: {random: {seed: 21}}}\n"
		"    filter: {shape: [17, 3, 3, 3], scales: {random: {seed: 22}}, data: {random: {seed: 23}}}\n"
		"    bias: {data: {random: {seed: 24}}}\n"
		"    output: {scale: 0.02, zero_point: -5}\n"
		"    padding: same\n"
		"    activation: relu\n";
	vta_config cfg;
	vta_error err = {0};
	assert_int_equal(vta_config_load("configs/tiny.yaml", &cfg, &err), VTA_OK);
	vta_workload wl;
	assert_int_equal(load(conv, &wl, &err), VTA_OK);
	vta_ref *ref;
	assert_int_equal(vta_ref_create(&cfg, &ref, &err), VTA_OK);
	vta_layer_result r;
	/* untimed: the estimate's choice, two threads */
	vta_layer_run_opts o = {.mode = VTA_ARITH_TFLITE, .threads = 2, .fault_index = -1};
	assert_int_equal(vta_layer_run(&cfg, &wl.layers[0], vta_ref_engine(ref), &o, &r, &err),
			 VTA_OK);
	assert_int_equal(r.threads, 2);
	assert_false(r.threads_measured);
	const size_t insns2 = r.insns;
	static const struct {
		uint64_t one, two;
		bool observed;
		unsigned threads;
		int runs;
	} cases[] = {
		{100, 200, true, 1, 3},  /* one thread wins: run again for the observer */
		{100, 200, false, 1, 2}, /* ... unless nobody observes */
		{200, 100, true, 2, 2},  /* two threads win: their run was the last */
		{100, 100, true, 2, 2},  /* a tie keeps the estimate's choice */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		scripted e = {.base = {"scripted", true, scripted_run}, .ref = vta_ref_engine(ref),
			      .cycles = {cases[i].one, cases[i].two, cases[i].one}};
		last_seen ob = {.base = {on_executed_threads, NULL}};
		vta_layer_run_opts t = {.mode = VTA_ARITH_TFLITE, .threads = 2, .fault_index = -1,
					.keep_dram_image = true,
					.observer = cases[i].observed ? &ob.base : NULL};
		assert_int_equal(vta_layer_run(&cfg, &wl.layers[0], &e.base, &t, &r, &err), VTA_OK);
		assert_true(r.check.bit_exact);
		assert_true(r.threads_measured);
		assert_int_equal(r.threads, cases[i].threads);
		assert_int_equal(r.stats.cycles, cases[i].threads == 1 ? cases[i].one : cases[i].two);
		assert_int_equal(e.runs, cases[i].runs);
		if (cases[i].threads == 2)
			assert_int_equal(r.insns, insns2);
		else
			assert_int_equal(r.conv_plan.threads, 1);
		if (cases[i].observed) {
			assert_int_equal(ob.executed, 1);
			assert_int_equal(ob.threads, cases[i].threads);
		}
	}
	/* a one-thread run that fails leaves the choice to the estimate */
	scripted f = {.base = {"scripted", true, scripted_run}, .ref = vta_ref_engine(ref),
		      .cycles = {100, 200}, .fail_first = true};
	assert_int_equal(vta_layer_run(&cfg, &wl.layers[0], &f.base, &o, &r, &err), VTA_OK);
	assert_int_equal(f.runs, 2);
	assert_int_equal(r.threads, 2);
	assert_false(r.threads_measured);
	assert_int_equal(r.stats.cycles, 200);
	/* one thread asked: nothing to compare */
	scripted e = {.base = {"scripted", true, scripted_run}, .ref = vta_ref_engine(ref),
		      .cycles = {100, 100}};
	o.threads = 1;
	assert_int_equal(vta_layer_run(&cfg, &wl.layers[0], &e.base, &o, &r, &err), VTA_OK);
	assert_int_equal(e.runs, 1);
	assert_int_equal(r.threads, 1);
	assert_false(r.threads_measured);
	vta_ref_destroy(ref);
	vta_workload_free(&wl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_conv),
		cmocka_unit_test(test_npy_sizes),
		cmocka_unit_test(test_add_constant_and_npy),
		cmocka_unit_test(test_data_errors),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_new_ops),
		cmocka_unit_test(test_new_op_errors),
		cmocka_unit_test(test_shipped_workloads_parse),
		cmocka_unit_test(test_model_workload),
		cmocka_unit_test(test_layer_run_ref),
		cmocka_unit_test(test_layer_run_threads_measured),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
