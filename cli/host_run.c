/* host_run.c - a model on the host kernels alone (host_run.h). */
#include "host_run.h"

#include <string.h>

#include "vta_config.h"
#include "vta_ref.h"

vta_status host_run(const vta_tfl_model *m, const void *const *inputs, size_t n,
		    vta_model_run *run, vta_error *err)
{
	vta_config cfg;
	vta_config_default(&cfg);
	vta_ref *ref = NULL;
	memset(run, 0, sizeof(*run));
	vta_status st = vta_ref_create(&cfg, &ref, err);
	if (st)
		return st;
	vta_model_run_opts o = {
		.layer = {.mode = VTA_ARITH_TFLITE, .threads = 1, .fault_index = -1},
		.host_classes = vta_op_class_all(),
		.seed = 1,
		.inputs = inputs,
		.n_inputs = n,
	};
	st = vta_model_run_model(&cfg, m, vta_ref_engine(ref), &o, run, err);
	vta_ref_destroy(ref);
	return st;
}
