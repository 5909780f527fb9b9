/*
 * model_expect.h - a model run held to reference tensors computed elsewhere (TFLM's own
 * interpreter, typically): a folder of tensor_N.npy files, N the model's tensor index (the
 * names `vtasim run -m ... --dump` writes). Every operator output the run computed and the
 * folder holds is compared element by element; the result goes into the run (the
 * expect_* fields of vta_model_run and vta_model_op_result), and says per operator what its
 * output was checked against (docs/models.md "What a run is checked against").
 */
#ifndef VTA_MODEL_EXPECT_H
#define VTA_MODEL_EXPECT_H

#include "model_run.h"
#include "tflite_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What an operator's output was checked against, as the report says it. */
#define VTA_CHECKED_GOLDEN "golden"
#define VTA_CHECKED_HOST "host-reference (not independently checked)"
#define VTA_CHECKED_TFLM "tflm-reference file"

/* Compare run's operator outputs with dir's tensor_N.npy files (a missing file leaves its
 * operator as it was, counted in run->expect_missing). VTA_E_IO when dir is not a readable
 * folder; VTA_E_DATA naming the file when one is not a tensor of the model's type and shape;
 * VTA_E_MISMATCH when a tensor differs (run complete: every tensor compared). */
vta_status vta_model_expect_check(const vta_tfl_model *m, vta_model_run *run, const char *dir,
				  vta_error *err);

/* VTA_CHECKED_*: the reference file when the op's output was compared with one, else the
 * golden kernels for an op that ran on the accelerator, else the host kernel itself. NULL for
 * an op that did not run (a TFLM_DECODE). */
const char *vta_model_checked_against(const vta_model_op_result *r);

#ifdef __cplusplus
}
#endif

#endif /* VTA_MODEL_EXPECT_H */
