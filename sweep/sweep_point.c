/*
 * sweep_point.c - one point of a sweep, run in its own process (SystemC elaborates once per
 * process): its layers through the pipeline on the SystemC model, golden outputs read from
 * the sweep's cache, and one record with the run report's JSON (run_report.h) and the
 * point's status (sweep_record.c writes it). A layer that fails becomes that layer's
 * error; the other layers still run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vta_rules.h" /* vta_host_now */
#include "layer_run.h"
#include "run_report.h"
#include "sweep.h"
#include "vtasim_api.h"

vta_wl_layer *sweep_point_layers(const sweep *sw, const sw_point *p, size_t *n_out,
				 vta_error *err)
{
	vta_wl_layer *ls = calloc(sw->wl.n_layers + 1, sizeof(*ls));
	size_t n = 0;
	if (!ls) {
		vta_fail(err, VTA_E_NOMEM, "out of memory");
		return NULL;
	}
	for (size_t i = 0; i < sw->wl.n_layers; i++) {
		if (!p->layer_on[i])
			continue;
		vta_wl_layer *l = &ls[n++];
		*l = sw->wl.layers[i]; /* shares the scales with the workload: read only */
		if (p->lut_bits >= 0) {
			/* every filter, and every constant the workload compresses */
			const unsigned b = (unsigned)p->lut_bits;
			vta_wl_tensor *t[] = {&l->filter, &l->bias, &l->inputs[0], &l->inputs[1]};
			for (size_t j = 0; j < sizeof(t) / sizeof(t[0]); j++) {
				/* every filter (CONV2D, depthwise, fully connected) */
				if (!t[j]->present || (!t[j]->compressed && t[j] != &l->filter) ||
				    (t[j] == &l->filter && l->op == VTA_WL_ADD))
					continue;
				t[j]->compressed = b != 0;
				t[j]->index_bitwidth = b;
			}
		}
		if (l->op != VTA_WL_CONV2D)
			continue;
		/* the sweep's plan fields over the workload's */
		for (size_t j = 0; j < sw->n_params; j++)
			if (sw->params[j].kind == SW_PLAN)
				vta_conv_pin_set(&l->pin, sw->params[j].name + 5, p->value[j], NULL);
	}
	*n_out = n;
	return ls;
}

static const char *status_of(vta_status st)
{
	return st == VTA_OK ? "ok" : st == VTA_E_MISMATCH ? "mismatch" : "error";
}

/* 0, or 3 after printing why the record could not be written (the parent reads it). */
static int record_write(const sweep *sw, const char *records, const char *key, json_t *rec)
{
	sweep_record_seal(rec, sw->wl_hash);
	char path[SW_PATH_MAX + 80];
	snprintf(path, sizeof(path), "%s/%s.json", records, key);
	vta_error err = {0};
	if (!sweep_write_json_atomic(rec, path, &err))
		return 0;
	fprintf(stderr, "vtasim: error: %s\n", err.detail);
	return 3;
}

int sweep_point_run(const sweep *sw, const sw_point *p, const char *records,
		    vta_golden_cache *gc)
{
	if (sw->wl.is_model) {
		json_t *rec = sweep_model_record(sw, p, gc);
		int rc = record_write(sw, records, p->key, rec);
		json_decref(rec);
		return rc;
	}
	const double t0 = vta_host_now();
	vta_error err = {0};
	size_t n = 0;
	vta_wl_layer *layers = sweep_point_layers(sw, p, &n, &err);
	vta_layer_result *results = calloc(n + 1, sizeof(*results));
	vta_status *status = calloc(n + 1, sizeof(*status));
	char (*errors)[VTA_ERROR_DETAIL_MAX] = calloc(n + 1, sizeof(*errors));
	vtasim_sim *sim = NULL;
	vta_status st = !layers ? err.status : !results || !status || !errors
			? vta_fail(&err, VTA_E_NOMEM, "out of memory")
			: vtasim_sim_create(&p->cfg, &sim, &err);
	json_t *rec;
	if (st) {
		rec = sweep_record_new(p->key, "error", err.detail, vta_host_now() - t0);
	} else {
		/* the layers that produced a result, for the run report */
		vta_layer_result *done = calloc(n + 1, sizeof(*done));
		size_t n_done = 0;
		const char *point_status = "ok";
		const char *point_error = "";
		/* one DRAM for the point's layers (its pages mapped once); without it, should the
		 * host refuse it here, each layer has its own */
		vta_dram dram = {0};
		vta_error derr = {0};
		(void)vta_dram_init(&dram, (uint64_t)p->cfg.dram_size_mib << 20, &derr);
		for (size_t i = 0; i < n; i++) {
			vta_layer_run_opts o = {.mode = p->mode, .threads = p->threads,
						.fault_index = -1, .golden_cache = gc,
						.decompress = !strcmp(p->decompress, "hw")
								      ? VTA_DECOMPRESS_HW
								      : VTA_DECOMPRESS_HOST,
						.dram = &dram};
			vta_error lerr = {0};
			status[i] = vta_layer_run(&p->cfg, &layers[i], vtasim_engine(sim), &o,
						  &results[i], &lerr);
			snprintf(errors[i], sizeof(errors[i]), "%s", status[i] ? lerr.detail : "");
			if (!status[i] || status[i] == VTA_E_MISMATCH)
				done[n_done++] = results[i];
			/* the point's status: error over mismatch over ok; its error the first */
			if (status[i] && strcmp(point_status, "error")) {
				if (!strcmp(point_status, "ok"))
					point_error = errors[i];
				point_status = status_of(status[i]);
			}
		}
		vta_dram_free(&dram);
		rec = sweep_record_new(p->key, point_status, point_error, 0);
		run_report rep = {.cfg = &p->cfg, .workload = sw->workload_path, .mode = p->mode,
				  .threads = p->threads, .layers = done, .n_layers = n_done,
				  .wall_seconds = vta_host_now() - t0, .engine = "sim",
				  .datapath = vta_datapath_name(p->cfg.datapath)};
		json_t *report = n_done ? run_report_json(&rep) : NULL;
		json_t *rl = report ? json_object_get(report, "layers") : NULL;
		json_t *ls = json_array();
		for (size_t i = 0, k = 0; i < n; i++) {
			const bool ran = !status[i] || status[i] == VTA_E_MISMATCH;
			json_array_append_new(
				ls, sweep_record_layer(layers[i].name, status_of(status[i]),
						       errors[i],
						       ran ? json_incref(json_array_get(rl, k++))
							   : NULL));
		}
		json_object_set_new(rec, "layers", ls);
		/* a total only of every layer: a partial sum would read as the point's */
		if (report && n_done == n)
			json_object_set(rec, "total", json_object_get(report, "total"));
		json_decref(report);
		free(done);
		json_object_set_new(rec, "seconds", json_real(vta_host_now() - t0));
	}
	int rc = record_write(sw, records, p->key, rec);
	json_decref(rec);
	vtasim_sim_destroy(sim);
	free(layers);
	free(results);
	free(status);
	free(errors);
	return rc;
}
