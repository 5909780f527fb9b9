/* tfl_relumodel.c - the hand-built RELU / RELU6 model (tfl_relumodel.h). */
#include "tfl_relumodel.h"

#include <string.h>

#include "tfl_handbuild.h"

enum { OC_RELU, OC_RELU6, OC_CONV, OC_COUNT };

static const tfb_opcode OPCODES[OC_COUNT] = {
	{19, 19, NULL, 2}, {21, 21, NULL, 2}, {3, 3, NULL, 3},
};

enum { T_IN, T_RELU6_A, T_RELU_A, T_CONV_W, T_CONV_B, T_CONV, T_RELU6_B, T_OUT, T_COUNT };

/* Quantizations: the input (and the first RELU6, which keeps it), the first RELU. */
#define S_IN 0.05f
#define ZP_IN 3
#define S_RELU 0.03f
#define ZP_RELU (-20)

int8_t trl_input(size_t e)
{
	return (int8_t)((int)(e * 97 % TRL_COUNT) - 128);
}

int8_t trl_expect(int8_t x)
{
	/* RELU6 on the input's codes: [3, 3 + 6 / 0.05] = [3, 123] */
	int q = x < ZP_IN ? ZP_IN : x > ZP_IN + 120 ? ZP_IN + 120 : x;
	/* RELU: (q - 3) * 5/3 to the nearest (thirds never tie), + zp, clamp at [zp, 127] */
	int v = (10 * (q - ZP_IN) + 3) / 6 + ZP_RELU;
	return (int8_t)(v > 127 ? 127 : v < ZP_RELU ? ZP_RELU : v);
}

uint8_t *trl_build(enum trl_defect d, size_t *len)
{
	tfb t;
	memset(&t, 0, sizeof(t));
	vta_fbb_init(&t.b);
	tfb *f = &t;
	tfb_buffer(f, NULL, 0);
	int8_t w[64];
	for (int i = 0; i < 64; i++)
		w[i] = (int8_t)(i * 53 % 255 - 127);
	int32_t bias[8];
	for (int i = 0; i < 8; i++)
		bias[i] = i * 2500 - 9000;
	uint32_t b_w = tfb_buffer(f, w, sizeof(w));
	uint32_t b_bias = tfb_buffer_i32(f, bias, 8);
	int act = d == TRL_INT16 ? TFB_I16 : TFB_I8;

	int zp_in = d == TRL_INT16 ? 0 : ZP_IN; /* int16 is quantized symmetrically */
	tfb_tensor(f, T_IN, "input", act, SHAPE(1, 4, 8, 8), 0, tfb_quant(f, 1, S_IN, zp_in, 0));
	tfb_tensor(f, T_RELU6_A, "relu6_a", act, SHAPE(1, 4, 8, 8), 0,
		   tfb_quant(f, 1, S_IN, zp_in, 0));
	tfb_tensor(f, T_RELU_A, "relu_a", TFB_I8, SHAPE(1, 4, 8, 8), 0,
		   d == TRL_NO_QUANT ? 0 : tfb_quant(f, 1, S_RELU, ZP_RELU, 0));
	tfb_tensor(f, T_CONV_W, "conv_w", TFB_I8, SHAPE(8, 1, 1, 8), b_w,
		   tfb_quant(f, 1, 0.02f, 0, 0));
	tfb_tensor(f, T_CONV_B, "conv_b", TFB_I32, SHAPE(8), b_bias,
		   tfb_quant(f, 1, S_RELU * 0.02f, 0, 0));
	tfb_tensor(f, T_CONV, "conv", TFB_I8, SHAPE(1, 4, 8, 8), 0, tfb_quant(f, 1, 0.1f, -3, 0));
	/* the converter gives RELU6 its input's quantization */
	tfb_tensor(f, T_RELU6_B, "relu6_b", TFB_I8, SHAPE(1, 4, 8, 8), 0,
		   tfb_quant(f, 1, 0.1f, -3, 0));
	tfb_tensor(f, T_OUT, "output", TFB_I8, SHAPE(1, 4, 8, 8), 0,
		   tfb_quant(f, 1, 0.4f, -128, 0));

	tfb_op(f, OC_RELU6, IO(T_IN), IO(T_RELU6_A), 0, 0);
	if (d == TRL_TWO_INPUTS)
		tfb_op(f, OC_RELU, IO(T_RELU6_A, T_IN), IO(T_RELU_A), 0, 0);
	else
		tfb_op(f, OC_RELU, IO(T_RELU6_A), IO(T_RELU_A), 0, 0);
	/* 1x1, stride 1, VALID, no fused activation */
	tfb_op(f, OC_CONV, IO(T_RELU_A, T_CONV_W, T_CONV_B), IO(T_CONV), 1,
	       OPTS(f, {0, 1, 1}, {1, 1, 4}, {2, 1, 4}, {3, 0, 1}));
	tfb_op(f, OC_RELU6, IO(T_CONV), IO(T_RELU6_B), 0, 0);
	tfb_op(f, OC_RELU, IO(T_RELU6_B), IO(T_OUT), 0, 0);

	const tfb_model_desc md = {
		.n_tensors = T_COUNT,
		.inputs = (const int32_t[]){T_IN}, .n_inputs = 1,
		.outputs = (const int32_t[]){T_OUT}, .n_outputs = 1,
		.opcodes = OPCODES, .n_opcodes = OC_COUNT,
		.description = "vtasim RELU test model", .version = 3,
	};
	return tfb_model(f, &md, len);
}
