/*
 * model_inputs.h - a model's inputs read from .npy files, as `vtasim run -m` and a model
 * sweep take them.
 */
#ifndef VTA_MODEL_INPUTS_H
#define VTA_MODEL_INPUTS_H

#include <stdbool.h>
#include <stddef.h>

#include "npy.h"
#include "tflite_model.h"
#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Input files a model run takes at most. */
#define VTA_MODEL_MAX_INPUTS 16

/* The .npy element type of a tensor type; *ok false when .npy has none for it. */
vta_npy_dtype vta_model_npy_dtype(vta_tfl_type t, bool *ok);

/* The model's inputs from .npy files, n of them (0: none, else one per model input, each of
 * its tensor's type and shape): npys[i] read, data[i] its bytes. Free npys with
 * vta_model_inputs_free (also after an error). */
vta_status vta_model_inputs_read(const vta_tfl_model *m, const char *const *paths, size_t n,
				 vta_npy *npys, const void **data, vta_error *err);
void vta_model_inputs_free(vta_npy *npys, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* VTA_MODEL_INPUTS_H */
