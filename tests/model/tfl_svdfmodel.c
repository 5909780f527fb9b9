/* tfl_svdfmodel.c - the hand-built SVDF model (tfl_svdfmodel.h). */
#include "tfl_svdfmodel.h"

#include <string.h>

#include "tfl_handbuild.h"

enum { OC_SVDF, OC_SOFTMAX, OC_QUANTIZE, OC_TANH, OC_COUNT };

static const tfb_opcode OPCODES[OC_COUNT] = {
	{27, 27, NULL, 3}, {25, 25, NULL, 2}, {114, 114, NULL, 1}, {28, 28, NULL, 1},
};

enum { T_IN, T_WF, T_WT, T_BIAS, T_STATE, T_SVDF, T_SOFTMAX, T_OUT, T_COUNT };

uint8_t *ts_build(enum ts_defect d, size_t *len)
{
	tfb t;
	memset(&t, 0, sizeof(t));
	vta_fbb_init(&t.b);
	tfb *f = &t;
	tfb_buffer(f, NULL, 0);
	int8_t wf[16];
	for (int i = 0; i < 16; i++)
		wf[i] = (int8_t)(i * 37 % 251 - 125);
	int16_t wt[12];
	for (int i = 0; i < 12; i++)
		wt[i] = (int16_t)(i * 4099 % 65521 - 32000);
	float wt_f[12];
	for (int i = 0; i < 12; i++)
		wt_f[i] = wt[i] * 0.01f;
	const int32_t bias[2] = {1234, -4321};
	uint32_t b_wf = tfb_buffer(f, wf, sizeof(wf));
	uint32_t b_wt = d == TS_TIME_FLOAT ? tfb_buffer(f, wt_f, sizeof(wt_f))
					   : tfb_buffer(f, wt, sizeof(wt));
	uint32_t b_bias = tfb_buffer_i32(f, bias, 2);

	tfb_tensor(f, T_IN, "input", TFB_I8, SHAPE(1, 4), 0,
		   d == TS_INPUT_NO_QUANT ? 0 : tfb_quant(f, 1, 0.1f, 3, 0));
	tfb_tensor(f, T_WF, "weights_feature", TFB_I8, SHAPE(4, 4), b_wf,
		   tfb_quant(f, 1, 0.05f, 0, 0));
	tfb_tensor(f, T_WT, "weights_time", d == TS_TIME_FLOAT ? TFB_F32 : TFB_I16, SHAPE(4, 3),
		   b_wt, tfb_quant(f, 1, 0.01f, 0, 0));
	tfb_tensor(f, T_BIAS, "bias", TFB_I32, SHAPE(2), b_bias,
		   tfb_quant(f, 1, d == TS_BIAS_SCALE ? 0.006f : 0.005f, 0, 0));
	if (d == TS_NOT_VARIABLE)
		tfb_tensor(f, T_STATE, "state", TFB_I16, SHAPE(1, 12), 0,
			   tfb_quant(f, 1, 0.5f, 0, 0));
	else if (d == TS_STATE_SHAPE)
		tfb_tensor_variable(f, T_STATE, "state", TFB_I16, SHAPE(1, 10),
				    tfb_quant(f, 1, 0.5f, 0, 0));
	else
		tfb_tensor_variable(f, T_STATE, "state", TFB_I16, SHAPE(1, 12),
				    tfb_quant(f, 1, 0.5f, 0, 0));
	tfb_tensor(f, T_SVDF, "svdf", TFB_I8, SHAPE(1, 2), 0, tfb_quant(f, 1, 4000.0f, -5, 0));
	tfb_tensor(f, T_SOFTMAX, "softmax", TFB_I16, SHAPE(1, 2), 0,
		   tfb_quant(f, 1, 1.0f / 65536,
			     d == TS_SOFTMAX_ZP || d == TS_TANH ? 0 : -32768, 0));
	tfb_tensor(f, T_OUT, "output", d == TS_QUANT_PAIR ? TFB_U8 : TFB_I32, SHAPE(1, 2), 0,
		   tfb_quant(f, d == TS_QUANT_SCALES ? 2 : 1, 1.0f / 32768, 0,
			     d == TS_QUANT_SCALES ? 1 : 0));

	tfb_op(f, OC_SVDF, IO(T_IN, T_WF, T_WT, T_BIAS, T_STATE), IO(T_SVDF), 6,
	       OPTS(f, {0, d == TS_RANK3 ? 3 : 2, 4}, {1, 1 /* RELU: not applied */, 1}));
	float beta = 1.0f;
	uint32_t bits;
	memcpy(&bits, &beta, 4);
	if (d == TS_TANH)
		tfb_op(f, OC_TANH, IO(T_SVDF), IO(T_SOFTMAX), 0, 0);
	else
		tfb_op(f, OC_SOFTMAX, IO(T_SVDF), IO(T_SOFTMAX), 9, OPTS(f, {0, bits, 4}));
	tfb_op(f, OC_QUANTIZE, IO(T_SOFTMAX), IO(T_OUT), 0, 0);

	const tfb_model_desc md = {
		.n_tensors = T_COUNT,
		.inputs = (const int32_t[]){T_IN}, .n_inputs = 1,
		.outputs = (const int32_t[]){T_OUT}, .n_outputs = 1,
		.opcodes = OPCODES, .n_opcodes = OC_COUNT,
		.description = "vtasim SVDF test model", .version = 3,
	};
	return tfb_model(f, &md, len);
}
