/*
 * write_test_model.c - write the hand-built test models as files for the command-line tests:
 * DIR/test_plain.tflite and DIR/test_lut.tflite (tfl_testmodel.h, both LUT containers), and
 * the model `vtasim run -m` takes end to end (tfl_runmodel.h): DIR/run_plain.tflite,
 * DIR/run_lut.tflite, its inputs DIR/run_image.npy and DIR/run_bytes.npy, what its PAD
 * (tensor 4) must hold for them, DIR/run_padded.npy, and broken variants for the error
 * tests: DIR/run_pad_value_quant.tflite, run_pad_value_type.tflite, run_padv2_one_input.tflite;
 * the SVDF model (tfl_svdfmodel.h) DIR/svdf.tflite and its broken variants DIR/svdf_*.tflite;
 * the ADD model and the variants that break what a model may claim (tfl_badmodel.h),
 * DIR/bad_*.tflite; the RELU model (tfl_relumodel.h) DIR/relu.tflite, its input
 * DIR/relu_input.npy, what its first RELU must hold for it, DIR/relu_expect.npy, and its
 * broken variants DIR/relu_*.tflite.
 */
#include <stdio.h>
#include <stdlib.h>

#include "npy.h"
#include "tfl_badmodel.h"
#include "tfl_relumodel.h"
#include "tfl_runmodel.h"
#include "tfl_svdfmodel.h"
#include "tfl_testmodel.h"

static int write_bytes(const char *dir, const char *name, uint8_t *b, size_t len)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = b ? fopen(path, "wb") : NULL;
	int ok = f && fwrite(b, 1, len, f) == len;
	if (f && fclose(f))
		ok = 0;
	free(b);
	if (!ok)
		fprintf(stderr, "write_test_model: cannot write %s\n", path);
	return ok ? 0 : 1;
}

static int write_npy(const char *dir, const char *name, vta_npy_dtype dt, int rank,
		     const size_t *shape, const void *data)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	vta_error err = {0};
	if (vta_npy_write(path, dt, rank, shape, data, &err) == VTA_OK)
		return 0;
	fprintf(stderr, "write_test_model: %s\n", err.detail);
	return 1;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: write_test_model DIR\n");
		return 2;
	}
	const char *dir = argv[1];
	size_t len;
	int rc = 0;
	uint8_t *b = tm_build(false, TM_OK, &len);
	rc |= write_bytes(dir, "test_plain.tflite", b, len);
	b = tm_build(true, TM_OK, &len);
	rc |= write_bytes(dir, "test_lut.tflite", b, len);
	b = tr_build(false, TR_OK, &len);
	rc |= write_bytes(dir, "run_plain.tflite", b, len);
	b = tr_build(true, TR_OK, &len);
	rc |= write_bytes(dir, "run_lut.tflite", b, len);
	b = tr_build(false, TR_PAD_VALUE_QUANT, &len);
	rc |= write_bytes(dir, "run_pad_value_quant.tflite", b, len);
	b = tr_build(false, TR_PAD_VALUE_TYPE, &len);
	rc |= write_bytes(dir, "run_pad_value_type.tflite", b, len);
	b = tr_build(false, TR_PADV2_ONE_INPUT, &len);
	rc |= write_bytes(dir, "run_padv2_one_input.tflite", b, len);

	static const char *const svdf_names[TS_DEFECT_COUNT] = {
		"svdf.tflite", "svdf_rank3.tflite", "svdf_state_shape.tflite",
		"svdf_bias_scale.tflite", "svdf_not_variable.tflite", "svdf_time_float.tflite",
		"svdf_input_no_quant.tflite", "svdf_softmax_zp.tflite", "svdf_tanh.tflite",
		"svdf_quant_pair.tflite", "svdf_quant_scales.tflite"};
	for (int d = 0; d < TS_DEFECT_COUNT; d++) {
		b = ts_build((enum ts_defect)d, &len);
		rc |= write_bytes(dir, svdf_names[d], b, len);
	}

	for (int d = 0; d < TB_DEFECT_COUNT; d++) {
		b = tb_build((enum tb_defect)d, &len);
		rc |= write_bytes(dir, tb_names[d], b, len);
	}

	static const char *const relu_names[TRL_DEFECT_COUNT] = {
		"relu.tflite", "relu_int16.tflite", "relu_no_quant.tflite",
		"relu_two_inputs.tflite"};
	for (int d = 0; d < TRL_DEFECT_COUNT; d++) {
		b = trl_build((enum trl_defect)d, &len);
		rc |= write_bytes(dir, relu_names[d], b, len);
	}
	int8_t relu_in[TRL_COUNT], relu_expect[TRL_COUNT];
	for (size_t e = 0; e < TRL_COUNT; e++) {
		relu_in[e] = trl_input(e);
		relu_expect[e] = trl_expect(relu_in[e]);
	}
	const size_t relu_shape[4] = {1, 4, 8, 8};
	rc |= write_npy(dir, "relu_input.npy", VTA_NPY_I8, 4, relu_shape, relu_in);
	rc |= write_npy(dir, "relu_expect.npy", VTA_NPY_I8, 4, relu_shape, relu_expect);

	float image[TR_IMAGE_COUNT];
	uint8_t bytes[16];
	int8_t padded[TR_PADDED_COUNT];
	for (size_t e = 0; e < TR_IMAGE_COUNT; e++)
		image[e] = tr_image(e);
	for (size_t e = 0; e < 16; e++)
		bytes[e] = (uint8_t)(e * 17 + 3);
	for (size_t e = 0; e < TR_PADDED_COUNT; e++)
		padded[e] = tr_padded(e);
	rc |= write_npy(dir, "run_image.npy", VTA_NPY_F32, 4, (const size_t[]){1, 8, 8, 3}, image);
	rc |= write_npy(dir, "run_bytes.npy", VTA_NPY_U8, 1, (const size_t[]){16}, bytes);
	rc |= write_npy(dir, "run_padded.npy", VTA_NPY_I8, 4, (const size_t[]){1, 10, 10, 3},
			padded);
	return rc;
}
