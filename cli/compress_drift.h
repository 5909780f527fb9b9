/*
 * compress_drift.h - how far LUT compression moved a model's outputs: the original and the
 * compressed model run on the host reference kernels over the same inputs, each output
 * compared element by element (`vtasim compress --report-on`, docs/cli.md).
 */
#ifndef VTA_COMPRESS_DRIFT_H
#define VTA_COMPRESS_DRIFT_H

#include <stddef.h>
#include <stdio.h>

#include "tflite_model.h"
#include "vta_status.h"

/* Run `plain` and `packed` (the same model before and after compression) on the inputs
 * (`n` .npy paths, one per model input) and print one line per model output on stdout.
 * *differing counts the output elements that moved. Errors name the input file or the
 * operator that could not run. */
vta_status compress_drift(const vta_tfl_model *plain, const vta_tfl_model *packed,
			  const char *const *inputs, size_t n, size_t *differing,
			  vta_error *err);

#endif /* VTA_COMPRESS_DRIFT_H */
