/*
 * tfl_badmodel.h - an ADD of two int8 [1,2,2,4] model inputs built by hand, and variants
 * that break one rule each of what a model may claim: quantization out of its type's range,
 * an operator writing what it must not, sizes a run must not allocate, and flatbuffer
 * structure FlatBuffers' verifier refuses in fields vtasim does not read. The command-line
 * tests (tests/model/CMakeLists.txt) run each and expect one line naming the place.
 */
#ifndef TFL_BADMODEL_H
#define TFL_BADMODEL_H

#include <stddef.h>
#include <stdint.h>

enum tb_defect {
	TB_OK = 0,
	TB_ZP_128,         /* input 'a' (int8) has zero point 128 */
	TB_ZP_1000,        /* the output has zero point 1000 */
	TB_ZP_INT64_MIN,   /* input 'b' has zero point INT64_MIN */
	TB_SCALE_ZERO,     /* input 'a' has scale 0 */
	TB_SCALE_NAN,      /* the output's scale is NaN */
	TB_INT16_ZP,       /* an unused int16 tensor with zero point 5 */
	TB_UINT8_ZP,       /* an unused uint8 tensor with zero point -1 */
	TB_WRITES_ITS_INPUT, /* ADD(a, b) -> a */
	TB_WRITES_MODEL_INPUT, /* ADD(a, a) -> b, b a model input */
	TB_WRITES_CONSTANT,  /* ADD(a, b) -> c, c a constant */
	TB_TWO_WRITERS,    /* two ADDs write the output */
	TB_HUGE_INPUT,     /* 'a' is [1,16384,16384,4] (1 GiB): it does not broadcast with 'b' */
	TB_HUGE_OUTPUT,    /* the output claims [1,16384,16384,4] of two [1,2,2,4] inputs */
	TB_HUGE_DIMS,      /* every tensor [1,2147483647,2147483647,4]: too many bytes to hold */
	TB_LARGE,          /* every tensor [1,8192,8192,4] (256 MiB): legal, 2 GiB for a run */
	TB_FB_OFFSET,      /* the ADD's `intermediates` (unread) points past the end */
	TB_FB_ALIGN,       /* buffer 0's 8-byte `offset` field is not 8-byte aligned */
	TB_DEFECT_COUNT
};

/* The model with defect d, malloc'd; *len its bytes. */
uint8_t *tb_build(enum tb_defect d, size_t *len);

/* The file name of each variant ("bad_zp_128.tflite", ...). */
extern const char *const tb_names[TB_DEFECT_COUNT];

#endif /* TFL_BADMODEL_H */
