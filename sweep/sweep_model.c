/*
 * sweep_model.c - a sweep whose workload is a .tflite model (named directly or by a workload
 * YAML): each point runs the whole model as `vtasim run -m` does, on the point's config and
 * options, and its record holds one entry per operator (as a layer row) and the model's
 * totals (as the total row). The all-host reference run, which depends on the model and its
 * inputs only, is run once into the sweep's golden cache before the points and read by each;
 * the accelerated ops' golden outputs go through the same cache.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vta_rules.h" /* vta_host_now */
#include "model_inputs.h"
#include "model_report.h"
#include "model_run.h"
#include "sweep.h"
#include "vtasim_api.h"

/* The run options of point p (or of the reference, p NULL), inputs read into npys/data. */
static vta_status model_opts(const sweep *sw, const sw_point *p, vta_golden_cache *gc,
			     vta_npy *npys, const void **data, vta_model_run_opts *mo,
			     vta_error *err)
{
	const vta_wl_model *wm = &sw->wl.model;
	const char *paths[VTA_MODEL_MAX_INPUTS];
	for (size_t i = 0; i < wm->n_inputs && i < VTA_MODEL_MAX_INPUTS; i++)
		paths[i] = wm->inputs[i];
	memset(mo, 0, sizeof(*mo));
	mo->layer.mode = VTA_ARITH_TFLITE;
	mo->layer.fault_index = -1;
	mo->layer.golden_cache = gc;
	if (p) {
		mo->layer.threads = p->threads;
		mo->layer.decompress = !strcmp(p->decompress, "hw") ? VTA_DECOMPRESS_HW
								     : VTA_DECOMPRESS_HOST;
	}
	mo->host_classes = p ? p->host_classes : wm->host_classes;
	mo->seed = wm->seed;
	mo->inputs = wm->n_inputs ? data : NULL;
	mo->n_inputs = wm->n_inputs;
	mo->reference_cache = gc;
	return vta_model_inputs_read(&sw->model, paths, wm->n_inputs, npys, data, err);
}

int sweep_model_reference(const sweep *sw, vta_golden_cache *gc)
{
	vta_npy npys[VTA_MODEL_MAX_INPUTS];
	const void *data[VTA_MODEL_MAX_INPUTS];
	vta_model_run_opts mo;
	vta_error err = {0};
	bool computed = false;
	vta_status st = model_opts(sw, NULL, gc, npys, data, &mo, &err);
	if (!st)
		st = vta_model_reference_prepare(&sw->base, &sw->model, &mo, &computed, &err);
	vta_model_inputs_free(npys, sw->wl.model.n_inputs);
	if (st)
		fprintf(stderr, "vtasim: error: %s\n", err.detail);
	return st ? 2 : computed ? 1 : 0;
}

json_t *sweep_model_record(const sweep *sw, const sw_point *p, vta_golden_cache *gc)
{
	const double t0 = vta_host_now();
	vta_npy npys[VTA_MODEL_MAX_INPUTS];
	const void *data[VTA_MODEL_MAX_INPUTS];
	vta_model_run_opts mo;
	vta_error err = {0};
	vtasim_sim *sim = NULL;
	vta_model_run run;
	memset(&run, 0, sizeof(run));
	vta_status st = model_opts(sw, p, gc, npys, data, &mo, &err);
	if (!st)
		st = vtasim_sim_create(&p->cfg, &sim, &err);
	if (!st)
		st = vta_model_run_model(&p->cfg, &sw->model, vtasim_engine(sim), &mo, &run, &err);
	const char *status = !st ? "ok" : st == VTA_E_MISMATCH ? "mismatch" : "error";
	json_t *rec = sweep_record_new(p->key, status, st ? err.detail : "", 0);
	if ((!st || st == VTA_E_MISMATCH) && run.n_ops) {
		model_report rep = {&p->cfg, sw->wl.model.path, &run, p->threads, "sim",
				    p->decompress, vta_host_now() - t0, 0};
		json_t *report = model_report_json(&rep);
		sweep_model_record_fill(rec, report);
		json_decref(report);
	}
	json_object_set_new(rec, "seconds", json_real(vta_host_now() - t0));
	vta_model_run_free(&run);
	vta_model_inputs_free(npys, sw->wl.model.n_inputs);
	vtasim_sim_destroy(sim);
	return rec;
}
