/*
 * tfl_relumodel.h - a small model built by hand around the standalone activations: an int8
 * [1,4,8,8] input through RELU6 (on the input's quantization), RELU (requantized, scale ratio
 * 5/3), a 1x1 CONV_2D of 8 filters on the accelerator, RELU6 and RELU (ratio 1/4); and broken
 * variants, one rule each, for the errors. trl_expect() works out what the first RELU must
 * hold for a given input, plainly and apart from runtime/, for holding the run to it.
 */
#ifndef TFL_RELUMODEL_H
#define TFL_RELUMODEL_H

#include <stddef.h>
#include <stdint.h>

enum trl_defect {
	TRL_OK = 0,
	TRL_INT16,      /* the RELU6 reads and writes int16 (TFLM takes it; vtasim int8 only) */
	TRL_NO_QUANT,   /* the first RELU's output has no quantization */
	TRL_TWO_INPUTS, /* the first RELU has a second input */
	TRL_DEFECT_COUNT
};

/* Elements of the input and of every activation ([1,4,8,8]); the tensor the first RELU
 * writes. */
#define TRL_COUNT 256
#define TRL_RELU_TENSOR 2

uint8_t *trl_build(enum trl_defect d, size_t *len);
/* The input's element e: every int8 value once. */
int8_t trl_input(size_t e);
/* What RELU(RELU6(x)) of the model holds for input element x. */
int8_t trl_expect(int8_t x);

#endif /* TFL_RELUMODEL_H */
