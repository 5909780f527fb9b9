/*
 * tfl_svdfmodel.h - a small stateful model built by hand for the command line: an int8
 * [1,4] input through SVDF (4 filters of rank 2, memory 3, int16 time weights and state,
 * int32 bias) into int8 [1,2], SOFTMAX into int16 and QUANTIZE into int32, the operators
 * and types of TFLM's keyword models; and broken variants, one rule each, for the errors.
 */
#ifndef TFL_SVDFMODEL_H
#define TFL_SVDFMODEL_H

#include <stddef.h>
#include <stdint.h>

enum ts_defect {
	TS_OK = 0,
	TS_RANK3,          /* SVDF rank 3 for 4 filters */
	TS_STATE_SHAPE,    /* the state is [1,10], not [1, memory x filters] = [1,12] */
	TS_BIAS_SCALE,     /* the bias scale is not state x time weights */
	TS_NOT_VARIABLE,   /* the state is an ordinary tensor */
	TS_TIME_FLOAT,     /* the time weights are float32 */
	TS_INPUT_NO_QUANT, /* the input has no quantization */
	TS_SOFTMAX_ZP,     /* the int16 softmax output has zero point 0 */
	TS_TANH,           /* the SOFTMAX is a TANH (output zero point 0), which runs nowhere */
	TS_QUANT_PAIR,     /* the QUANTIZE goes from int16 to uint8, a pair TFLM does not take */
	TS_QUANT_SCALES,   /* the QUANTIZE output has 2 scales (per channel on axis 1) */
	TS_DEFECT_COUNT
};

uint8_t *ts_build(enum ts_defect d, size_t *len);

#endif /* TFL_SVDFMODEL_H */
