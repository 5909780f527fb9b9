/*
 * tfl_runmodel.h - a small int8 .tflite model built by hand (tfl_handbuild.h) that
 * `vtasim run -m` runs end to end: every op class the runner accelerates and every host
 * kernel, with the options that change their arithmetic. Two inputs (float32 and uint8),
 * one output:
 *
 *   op  operator           what it exercises
 *    0  QUANTIZE           float32 image -> int8
 *    1  PAD                [1,8,8,3] -> [1,10,10,3], the zero point around
 *    2  CONV_2D            8 filters 3x3x3, per-channel scales (axis 0), VALID, RELU
 *    3  CONV_2D            grouped (2 groups of 4 channels), one scale, SAME, stride 2,
 *                          dilation 2, RELU6
 *    4  DEPTHWISE_CONV_2D  multiplier 2, per-channel scales (last axis), SAME, dilation 2,
 *                          RELU_N1_TO_1
 *    5  AVERAGE_POOL_2D    2x2, stride 2, VALID
 *    6  MAX_POOL_2D        3x3, stride 2, SAME (a window over the edge), RELU
 *    7  ADD                same shapes
 *    8  QUANTIZE           uint8 input [16] -> int8
 *    9  ADD                the [16] vector broadcast over [1,2,2,16], as input 0, RELU
 *   10  ADD                a constant [1,1,1,16] broadcast, as input 1
 *   11  ADD                a constant of the same shape [1,2,2,16]
 *   12  CONCATENATION      axis -1; one input requantized, one copied
 *   13  PADV2              [1,2,2,32] -> [1,3,3,32] with a constant pad value
 *   14  TRANSPOSE          perm {0,3,1,2}
 *   15  MEAN               axes {2,3}, keep_dims, into another quantization
 *   16  RESHAPE            the shape from input 1
 *   17  FULLY_CONNECTED    [1,32] x [10,32], one scale
 *   18  QUANTIZE           int8 -> int8 (another scale and zero point)
 *   19  SOFTMAX            beta 1
 *
 * The compressed variant holds the same constants LUT-compressed, their bytes written here
 * (not by the project's compressor): conv_w (3-bit per channel), conv_b (int32, 1-bit per
 * channel) and gconv_w (2-bit) in COMPRESSION_METADATA; dw_w (2-bit per channel on the last
 * axis), mask (2-bit) and fc_w (4-bit) in TFLM_DECODE operators, one DECODE with two pairs
 * before op 4 and one with a pair before the FULLY_CONNECTED. Its operators are the same,
 * those two DECODEs inserted, so a run of either gives the same output bit for bit.
 */
#ifndef TFL_RUNMODEL_H
#define TFL_RUNMODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Tensor indices. */
enum {
	TR_IMAGE = 0, TR_BYTES = 1, TR_QUANT = 2, TR_PADS = 3, TR_PADDED = 4, TR_CONV_W = 5,
	TR_CONV_B = 6, TR_CONV = 7, TR_GCONV_W = 8, TR_GCONV_B = 9, TR_GCONV = 10, TR_DW_W = 11,
	TR_DW_B = 12, TR_DW = 13, TR_AVG = 14, TR_MAX = 15, TR_SUM = 16, TR_VEC = 17,
	TR_BSUM = 18, TR_OFFSET = 19, TR_OSUM = 20, TR_MASK = 21, TR_MSUM = 22, TR_CAT = 23,
	TR_PAD_VALUE = 24, TR_PADS2 = 25, TR_PADDED2 = 26, TR_PERM = 27, TR_TRANSPOSED = 28,
	TR_AXES = 29, TR_MEAN = 30, TR_SHAPE = 31, TR_FLAT = 32, TR_FC_W = 33, TR_FC_B = 34,
	TR_FC = 35, TR_REQ = 36, TR_SOFTMAX = 37,
	/* compressed variant: the encoded and ancillary tensors of the DECODE container */
	TR_DW_ENC = 38, TR_DW_ANC = 39, TR_MASK_ENC = 40, TR_MASK_ANC = 41, TR_FC_ENC = 42,
	TR_FC_ANC = 43, TR_COUNT = 44
};

#define TR_IMAGE_COUNT (8 * 8 * 3)
#define TR_PADDED_COUNT (10 * 10 * 3)

/* One broken rule, for the runner's error tests. */
enum tr_defect {
	TR_OK = 0,
	TR_PAD_VALUE_QUANT, /* the PADV2 value's zero point is 2, the output's 1 */
	TR_PAD_VALUE_TYPE,  /* the PADV2 value is an int32 */
	TR_PADV2_ONE_INPUT  /* the PADV2 has its input alone */
};

/* The model's bytes (malloc'd) and length; NULL on failure. */
uint8_t *tr_build(bool compressed, enum tr_defect defect, size_t *len);

/* The image that quantizes exactly (x / 0.01 is an integer): element e of [1,8,8,3]. */
float tr_image(size_t e);
/* The PAD output (tensor TR_PADDED) for that image, worked out here from TFLite's rules
 * for QUANTIZE (scale 0.01, zero point 3) and PAD (the zero point around). */
int8_t tr_padded(size_t e);

#endif /* TFL_RUNMODEL_H */
