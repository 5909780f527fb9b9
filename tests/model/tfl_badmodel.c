/* tfl_badmodel.c - the hand-built ADD model and its broken variants (tfl_badmodel.h). */
#include "tfl_badmodel.h"

#include <math.h>
#include <string.h>

#include "tfl_handbuild.h"

const char *const tb_names[TB_DEFECT_COUNT] = {
	"bad_ok.tflite", "bad_zp_128.tflite", "bad_zp_1000.tflite", "bad_zp_int64_min.tflite",
	"bad_scale_zero.tflite", "bad_scale_nan.tflite", "bad_int16_zp.tflite",
	"bad_uint8_zp.tflite", "bad_writes_its_input.tflite", "bad_writes_model_input.tflite",
	"bad_writes_constant.tflite", "bad_two_writers.tflite", "bad_huge_input.tflite",
	"bad_huge_output.tflite", "bad_huge_dims.tflite", "bad_large.tflite",
	"bad_fb_offset.tflite", "bad_fb_align.tflite",
};

enum { T_A, T_B, T_OUT, T_EXTRA, T_COUNT };

/* A Buffer table of no data whose 8-byte `offset` (id 1, value 0: inline) sits 4 bytes
 * into the table, at an address 4 modulo 8. */
static vta_fbb_ref misaligned_buffer(tfb *t)
{
	const uint8_t vtable[8] = {8, 0, 12, 0, 0, 0, 4, 0}; /* 8 B, table 12 B, id 1 at +4 */
	const uint8_t obj[12] = {0};
	return vta_fbb_raw_table(&t->b, vtable, sizeof(vtable), obj, sizeof(obj), 0);
}

/* ADD(in0, in1) -> out, with an `intermediates` slot holding a bad offset when asked. */
static void add_op(tfb *t, int32_t in0, int32_t in1, int32_t out, int bad_offset)
{
	vta_fbb_ref iv = tfb_ints(t, (const int32_t[]){in0, in1}, 2);
	vta_fbb_ref ov = tfb_ints(t, &out, 1);
	vta_fbb_ref opt = tfb_opts(t, 1, (const uint64_t[][3]){{0, 0, 0}});
	vta_fbb_start(&t->b);
	vta_fbb_ref_field(&t->b, 1 /* inputs */, iv);
	vta_fbb_ref_field(&t->b, 2 /* outputs */, ov);
	vta_fbb_scalar(&t->b, 3 /* builtin_options_type */, 11 /* AddOptions */, 1);
	vta_fbb_ref_field(&t->b, 4 /* builtin_options */, opt);
	if (bad_offset)
		vta_fbb_scalar(&t->b, 8 /* intermediates: an offset */, 0x7ffffff0u, 4);
	t->ops[t->n_ops++] = vta_fbb_end(&t->b);
}

uint8_t *tb_build(enum tb_defect d, size_t *len)
{
	tfb t;
	memset(&t, 0, sizeof(t));
	vta_fbb_init(&t.b);
	tfb *f = &t;
	if (d == TB_FB_ALIGN)
		f->buffers[f->n_buffers++] = misaligned_buffer(f);
	else
		tfb_buffer(f, NULL, 0);
	int8_t c[16];
	for (int i = 0; i < 16; i++)
		c[i] = (int8_t)(i * 7 - 50);
	uint32_t b_c = tfb_buffer(f, c, sizeof(c));

	int32_t small[4] = {1, 2, 2, 4}, a_shape[4], out_shape[4];
	memcpy(a_shape, small, sizeof(small));
	memcpy(out_shape, small, sizeof(small));
	int32_t *b_shape = small;
	static int32_t huge[4] = {1, 16384, 16384, 4}, dims[4] = {1, 2147483647, 2147483647, 4},
		       large[4] = {1, 8192, 8192, 4};
	if (d == TB_HUGE_INPUT)
		memcpy(a_shape, huge, sizeof(huge));
	if (d == TB_HUGE_OUTPUT)
		memcpy(out_shape, huge, sizeof(huge));
	if (d == TB_HUGE_DIMS || d == TB_LARGE) {
		b_shape = d == TB_LARGE ? large : dims;
		memcpy(a_shape, b_shape, sizeof(a_shape));
		memcpy(out_shape, b_shape, sizeof(out_shape));
	}
	float nan = NAN;
	tfb_tensor(f, T_A, "a", TFB_I8, a_shape, 4, 0,
		   tfb_quant(f, 1, d == TB_SCALE_ZERO ? 0.0f : 0.1f, d == TB_ZP_128 ? 128 : 3, 0));
	tfb_tensor(f, T_B, "b", TFB_I8, b_shape, 4, 0,
		   tfb_quant(f, 1, 0.05f, d == TB_ZP_INT64_MIN ? INT64_MIN : -7, 0));
	tfb_tensor(f, T_OUT, "out", TFB_I8, out_shape, 4, 0,
		   tfb_quant(f, 1, d == TB_SCALE_NAN ? nan : 0.2f, d == TB_ZP_1000 ? 1000 : 1, 0));
	size_t n_tensors = 3;
	if (d == TB_INT16_ZP || d == TB_UINT8_ZP || d == TB_WRITES_CONSTANT) {
		int type = d == TB_INT16_ZP ? TFB_I16 : d == TB_UINT8_ZP ? TFB_U8 : TFB_I8;
		int64_t zp = d == TB_INT16_ZP ? 5 : d == TB_UINT8_ZP ? -1 : 1;
		tfb_tensor(f, T_EXTRA, "extra", type, small, 4,
			   d == TB_WRITES_CONSTANT ? b_c : 0, tfb_quant(f, 1, 0.2f, zp, 0));
		n_tensors = 4;
	}

	switch (d) {
	case TB_WRITES_ITS_INPUT: add_op(f, T_A, T_B, T_A, 0); break;
	case TB_WRITES_MODEL_INPUT: add_op(f, T_A, T_A, T_B, 0); break;
	case TB_WRITES_CONSTANT: add_op(f, T_A, T_B, T_EXTRA, 0); break;
	case TB_TWO_WRITERS:
		add_op(f, T_A, T_B, T_OUT, 0);
		add_op(f, T_B, T_A, T_OUT, 0);
		break;
	default: add_op(f, T_A, T_B, T_OUT, d == TB_FB_OFFSET); break;
	}
	static const tfb_opcode OPCODES[1] = {{0, 0, NULL, 1}};
	tfb_model_desc m = {
		.n_tensors = n_tensors, .inputs = (const int32_t[]){T_A, T_B}, .n_inputs = 2,
		.outputs = (const int32_t[]){T_OUT}, .n_outputs = 1, .opcodes = OPCODES,
		.n_opcodes = 1, .description = "vtasim bad-model test", .version = 3,
	};
	return tfb_model(f, &m, len);
}
