/*
 * host_run.h - a whole model on the host reference kernels alone: the model runner with every
 * accelerated op class moved to the host and the reference executor as its (unused) engine, so
 * nothing is simulated. What `compress --report-on` compares and how `inspect` learns which
 * operator a run would refuse.
 */
#ifndef VTA_HOST_RUN_H
#define VTA_HOST_RUN_H

#include <stddef.h>

#include "model_run.h"

/* Run m over `inputs` (n of them, one per model input; NULL for seeded random values) on the
 * default config's host kernels. As vta_model_run_model: free *run with vta_model_run_free,
 * also after an error; a refused operator is the last of run->ops. */
vta_status host_run(const vta_tfl_model *m, const void *const *inputs, size_t n,
		    vta_model_run *run, vta_error *err);

#endif /* VTA_HOST_RUN_H */
