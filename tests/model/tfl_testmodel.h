/*
 * tfl_testmodel.h - a small .tflite model built by hand with the flatbuffer builder, for the
 * reader, writer and compressor tests: one of each operator the reader types (QUANTIZE, PAD,
 * CONV_2D, DEPTHWISE_CONV_2D, AVERAGE_POOL_2D, MAX_POOL_2D, ADD, CONCATENATION, TRANSPOSE,
 * MEAN, RESHAPE, FULLY_CONNECTED, SOFTMAX) with non-default options, per-channel
 * quantization on both axes, metadata, and (compressed variant) LUT constants in both TFLM
 * containers, their bytes written here field by field:
 *
 *   tensor 4  conv_w  int8 [4,3,3,3], 3-bit, per channel on axis 0, COMPRESSION_METADATA
 *   tensor 9  dw_w    int8 [1,3,3,8], 2-bit, per channel on the last axis, TFLM_DECODE
 *   tensor 27 tflm_vec int8 [1,2,4]: TFLM's decode_test.cc vector, TFLM_DECODE
 *   tensor 30 tflm_int16 int16 [15]: TFLM's test_helpers.cc vector, COMPRESSION_METADATA
 *
 * The plain variant holds the same constants decoded and no DECODE operators; a defect
 * breaks one rule of the format for the error tests.
 */
#ifndef TFL_TESTMODEL_H
#define TFL_TESTMODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum tm_defect {
	TM_OK = 0,
	TM_OP_INPUT_RANGE,    /* operator 2's input 0 is tensor 99 */
	TM_OPCODE_RANGE,      /* operator 0's opcode index is 50 */
	TM_BUFFER_RANGE,      /* tensor 2's buffer is 999 */
	TM_TYPE,              /* tensor 3's type is 40 */
	TM_RANK,              /* tensor 3 has rank 9 */
	TM_NEG_DIM,           /* tensor 3's dimension 1 is -2 */
	TM_NO_CONV_OPTIONS,   /* the CONV_2D has no options */
	TM_OPTIONS_MISMATCH,  /* the CONV_2D has Pool2DOptions */
	TM_TANH,              /* the CONV_2D's fused activation is TANH */
	TM_STRIDE_ZERO,       /* the DEPTHWISE_CONV_2D's stride_h is 0 */
	TM_HUFFMAN,           /* dw_w's ancillary DCM says Huffman */
	TM_DCM_VERSION,       /* dw_w's ancillary DCM version 2 */
	TM_LEGACY_BW8,        /* conv_w's LutTensor index_bitwidth 8 */
	TM_LEGACY_SCHEMA2,    /* the compression metadata's schema_version 2 */
	TM_DATA_SIZE,         /* fc_w holds 159 bytes for 160 elements */
	TM_DECODE_ARITY,      /* the first TFLM_DECODE has 3 inputs */
	TM_SCHEMA_VERSION,    /* the model's schema version is 2 */
	TM_QUANT_COUNT,       /* conv_w has 3 scales for 4 channels */
	TM_SHORT_INDICES,     /* conv_w's packed indices are one byte short */
	TM_INDEX_BEYOND,      /* tflm_vec's table stride is 3: its index 3 is beyond it */
	TM_SOFTMAX_BETA,      /* softmax beta 0 */
	TM_CONCAT_AXIS,       /* concatenation axis 4 of a rank-4 output */
	TM_LEGACY_TENSOR,     /* a LutTensor names tensor 70 */
	TM_SHARED_BUFFER,     /* conv_b and perm share one buffer (legal; not compressible) */
	TM_CONST_OUTPUT,      /* the constant perm is also a model output */
	TM_UNUSED_CONST,      /* tensor 8 is a constant no operator reads */
	TM_ENCODED_QUANT,     /* dw_w's encoded uint8 [18] keeps the filter's 8 scales on axis 3,
			       * as TFLM's compression tool leaves them (legal: TFLM ignores it) */
	TM_DECODED_QUANT,     /* dw_w_decoded has 7 scales for its 8 channels */
	TM_DEFECT_COUNT
};

/* Tensor indices of the model. */
enum {
	TM_T_INPUT = 0, TM_T_CONV_W = 4, TM_T_CONV_B = 5, TM_T_DW_ENC = 7, TM_T_DW_ANC = 8,
	TM_T_DW_W = 9, TM_T_DW_B = 10, TM_T_FC_W = 21, TM_T_FC_B = 22, TM_T_VEC_ENC = 25,
	TM_T_VEC_ANC = 26, TM_T_VEC = 27, TM_T_INT16 = 30, TM_T_COUNT = 33
};

/* The model's bytes (malloc'd) and length. */
uint8_t *tm_build(bool compressed, enum tm_defect defect, size_t *len);

/* The decoded constants, as the compressed variant's containers say (host order). */
int8_t tm_conv_w(size_t e);   /* 108 elements, OHWI */
int8_t tm_dw_w(size_t e);     /* 72 elements, 1HWC */
int8_t tm_fc_w(size_t e);     /* 160 elements, [10,16]: 160 distinct-ish values */
extern const int8_t tm_tflm_vec[8];
extern const int16_t tm_tflm_int16[15];

#endif /* TFL_TESTMODEL_H */
