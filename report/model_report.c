/* model_report.c - text and JSON reports of `vtasim run -m` (model_report.h). */
#include "model_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_expect.h"
#include "report.h"
#include "report_table.h"
#include "vta_energy.h"
#include "vta_text.h"

/* What the accelerator and the host did over the whole model. */
typedef struct model_totals {
	uint64_t cycles, dram_read, dram_write;
	uint64_t sram_peak[VTA_STATS_SRAMS];
	size_t accel_ops, host_ops;
	double host_seconds;         /* host kernels of the run, accelerated classes moved included */
	double inferences_per_second;
	/* tensors between ops (dram_tensor.h): the host's staging in and out, and what stayed
	 * in DRAM as it was or relayouted */
	uint64_t staged_in, copied_out, carried, relayout;
	double staging_seconds, relayout_seconds;
	size_t inputs_from_dram, inputs_staged;
	/* what the op outputs were checked against (model_expect.h) */
	size_t checked_golden, checked_tflm, host_unchecked;
	bool bit_exact;              /* the all-host run and, given, the reference tensors */
	vta_energy energy;           /* the accelerated ops' (the host's work is not priced) */
	/* the host's time per phase over the accelerated ops (layer_run.h) */
	double sim_seconds, golden_seconds, check_seconds, emit_seconds, plan_seconds;
	double threads_seconds;
} model_totals;

static void totals(const model_report *rep, model_totals *t);

/* The run's wall time no phase counts (the walk, building layers, reading outputs back). */
static double rest_seconds(const model_report *rep, const model_totals *t)
{
	double rest = rep->wall_seconds - t->sim_seconds - t->golden_seconds - t->check_seconds -
		      t->emit_seconds - t->plan_seconds - t->host_seconds -
		      rep->run->reference_seconds - t->staging_seconds - t->relayout_seconds -
		      t->threads_seconds;
	return rest > 0 ? rest : 0;
}

static void totals(const model_report *rep, model_totals *t)
{
	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < rep->run->n_ops; i++) {
		const vta_model_op_result *r = &rep->run->ops[i];
		if (r->skipped)
			continue;
		t->copied_out += r->copied_out_bytes;
		t->staging_seconds += r->copy_out_seconds;
		t->checked_tflm += r->expect_checked;
		t->host_unchecked += r->place == VTA_OP_HOST && !r->expect_checked;
		t->checked_golden += r->place == VTA_OP_ACCEL;
		if (r->place == VTA_OP_HOST) {
			t->host_ops++;
			t->host_seconds += r->host_seconds;
			continue;
		}
		const vta_run_stats *s = &r->layer.stats;
		const vta_layer_counters *k = &r->layer.counters;
		t->staged_in += k->staged_bytes;
		t->carried += k->carried_bytes;
		t->relayout += k->relayout_bytes;
		t->staging_seconds += k->staging_seconds;
		t->relayout_seconds += k->relayout_seconds;
		for (unsigned j = 0; j < k->n_inputs && j < 2; j++) {
			if (k->input_from[j] >= 0)
				t->inputs_from_dram++;
			else
				t->inputs_staged++;
		}
		t->accel_ops++;
		t->sim_seconds += s->host_seconds;
		t->golden_seconds += r->layer.golden_seconds;
		t->check_seconds += r->layer.check_seconds;
		/* the staging and relayouts of the op's inputs happen while it is emitted: their
		 * time is the staging phase's, not emitting's */
		t->emit_seconds += r->layer.emit_seconds - r->layer.counters.staging_seconds -
				   r->layer.counters.relayout_seconds;
		t->plan_seconds += r->layer.plan_seconds;
		t->threads_seconds += r->layer.threads_seconds;
		t->cycles += s->cycles;
		vta_energy e;
		vta_energy_of(rep->cfg, s, &e);
		for (int p = 0; p < VTA_ENERGY_PARTS; p++)
			t->energy.part_pj[p] += e.part_pj[p];
		t->energy.total_pj += e.total_pj;
		t->dram_read += report_dram_read_bytes(s);
		t->dram_write += s->dram_write_bytes;
		for (int k = 0; k < VTA_STATS_SRAMS; k++)
			if (s->sram[k].peak_bytes > t->sram_peak[k])
				t->sram_peak[k] = s->sram[k].peak_bytes;
	}
	t->inferences_per_second =
		t->cycles ? rep->cfg->clock_mhz * 1e6 / (double)t->cycles : 0.0;
	t->energy.edp_uj_us = t->energy.total_pj * 1e-6 * ((double)t->cycles / rep->cfg->clock_mhz);
	t->bit_exact = rep->run->bit_exact && !rep->run->expect_differing;
}

/* An op's check against the reference tensors, for its report line ("" without one). */
static void expect_note(const vta_model_op_result *r, char *buf, size_t size)
{
	buf[0] = 0;
	if (r->expect_checked && !r->expect_differing)
		snprintf(buf, size, "  tflm-reference: equal");
	else if (r->expect_checked)
		snprintf(buf, size, "  tflm-reference: %zu differ, first at %zu (expected %g, got %g)",
			 r->expect_differing, r->expect_first_index, r->expect_value,
			 r->expect_got);
}

/* The verdict and what it covers: "BIT-EXACT (...)". */
static void verdict_text(const model_report *rep, const model_totals *t, char *buf, size_t size)
{
	const vta_model_run *run = rep->run;
	size_t n = (size_t)snprintf(buf, size, "%s (", t->bit_exact ? "BIT-EXACT" : "MISMATCH");
	const char *sep = "";
	if (t->checked_golden && n < size) {
		n += (size_t)snprintf(buf + n, size - n, "%zu accelerated-op output%s against "
					  "the golden kernels", t->checked_golden,
				      t->checked_golden == 1 ? "" : "s");
		sep = "; ";
	}
	if (run->expect_dir && n < size) {
		n += (size_t)snprintf(buf + n, size - n, "%s%zu op output%s against the "
					  "reference tensors", sep, t->checked_tflm,
				      t->checked_tflm == 1 ? "" : "s");
		sep = "; ";
	}
	if (t->host_unchecked && n < size) {
		n += (size_t)snprintf(buf + n, size - n, "%s%zu host-op output%s not "
					  "independently checked", sep, t->host_unchecked,
				      t->host_unchecked == 1 ? "" : "s");
		sep = "; ";
	}
	if (n < size)
		snprintf(buf + n, size - n, "%s)", *sep ? "" : "nothing checked");
}

/* "op 3", "host", "op 3+host": where an accelerated op's activation inputs came from. */
static void input_from(const vta_model_op_result *r, char *buf, size_t size)
{
	const vta_layer_counters *k = &r->layer.counters;
	size_t n = 0;
	buf[0] = 0;
	for (unsigned j = 0; j < k->n_inputs && j < 2 && n < size; j++) {
		if (k->input_from[j] >= 0)
			n += (size_t)snprintf(buf + n, size - n, "%sop %d", j ? "+" : "",
					      (int)k->input_from[j]);
		else
			n += (size_t)snprintf(buf + n, size - n, "%shost", j ? "+" : "");
	}
	if (!k->n_inputs)
		snprintf(buf, size, "-");
}

static const char *compression(const vta_model_op_result *r)
{
	if (r->place != VTA_OP_ACCEL || !r->layer.has_lut)
		return "none";
	return vta_decompress_name(r->layer.decompress);
}

void model_report_text(FILE *out, const model_report *rep)
{
	const vta_model_run *run = rep->run;
	fprintf(out, "vtasim run: model %s on %s, mode tflite, %u virtual thread%s, engine %s, "
		     "decompress %s\n\n", VTA_QPATH(rep->model), VTA_Q(rep->cfg->name), rep->threads,
		rep->threads == 1 ? "" : "s", rep->engine, rep->decompress);
	model_totals t;
	totals(rep, &t);
	fprintf(out, "  op  name                where         cycles  %%total  host s    DRAM rd B  DRAM wr B"
		     "  input from   staged B  relayout B"
		     "  peak inp/wgt/acc/out B     lut   check\n");
	for (size_t i = 0; i < run->n_ops; i++) {
		const vta_model_op_result *r = &run->ops[i];
		if (r->skipped) {
			fprintf(out, "%4zu  %-18s  skipped (its outputs are compressed constants)\n",
				r->index, r->name);
			continue;
		}
		char note[128];
		expect_note(r, note, sizeof(note));
		if (r->place == VTA_OP_HOST) {
			fprintf(out, "%4zu  %-18s  host   %12s  %6s  %.6f  %s%s\n", r->index, r->name,
				"-", "-", r->host_seconds,
				r->expect_checked ? "" : "unchecked (its own reference)", note);
			continue;
		}
		const vta_run_stats *s = &r->layer.stats;
		const vta_layer_counters *k = &r->layer.counters;
		char from[32];
		input_from(r, from, sizeof(from));
		fprintf(out, "%4zu  %-18s  accel  %12llu  %5.1f%%  %8s  %9llu  %9llu  %-11s  %8llu  "
			     "%10llu  %llu/%llu/%llu/%llu  %5s  %s%s\n",
			r->index, r->name, (unsigned long long)s->cycles,
			t.cycles ? 100.0 * (double)s->cycles / (double)t.cycles : 0.0, "-",
			(unsigned long long)report_dram_read_bytes(s),
			(unsigned long long)s->dram_write_bytes, from,
			(unsigned long long)(k->staged_bytes + r->copied_out_bytes),
			(unsigned long long)k->relayout_bytes,
			(unsigned long long)s->sram[VTA_STATS_INP].peak_bytes,
			(unsigned long long)s->sram[VTA_STATS_WGT].peak_bytes,
			(unsigned long long)s->sram[VTA_STATS_ACC].peak_bytes,
			(unsigned long long)s->sram[VTA_STATS_OUT].peak_bytes, compression(r),
			r->layer.check.bit_exact ? "bit-exact" : "MISMATCH", note);
	}
	fprintf(out, "\ntotal: %zu ops on the accelerator, %zu on the host\n", t.accel_ops,
		t.host_ops);
	fprintf(out, "  accelerator cycles %llu (%.2f us at %g MHz): %.1f inferences/s "
		     "(accelerator time only: host ops, DRAM transfers between ops by the host "
		     "and the host's own time not counted)\n",
		(unsigned long long)t.cycles, t.cycles / rep->cfg->clock_mhz, rep->cfg->clock_mhz,
		t.inferences_per_second);
	fprintf(out, "  dram               read %llu B, write %llu B\n",
		(unsigned long long)t.dram_read, (unsigned long long)t.dram_write);
	{
		const vta_energy *e = &t.energy;
		double sram = 0;
		for (int k = VTA_ENERGY_SRAM_UOP; k <= VTA_ENERGY_SRAM_OUT; k++)
			sram += e->part_pj[k];
		const double d = e->total_pj > 0 ? e->total_pj : 1;
		fprintf(out, "  energy             %.4g uJ per inference on the accelerator: dram "
			     "%.1f%%, sram %.1f%%, gemm %.1f%%, alu %.1f%%, decoder %.1f%%, other "
			     "%.1f%%; edp %.4g uJ x us\n",
			e->total_pj * 1e-6,
			100 * (e->part_pj[VTA_ENERGY_DRAM_READ] + e->part_pj[VTA_ENERGY_DRAM_WRITE]) / d,
			100 * sram / d, 100 * e->part_pj[VTA_ENERGY_GEMM] / d,
			100 * e->part_pj[VTA_ENERGY_ALU] / d, 100 * e->part_pj[VTA_ENERGY_DECODER] / d,
			100 * (e->part_pj[VTA_ENERGY_FETCH] + e->part_pj[VTA_ENERGY_LEAKAGE]) / d,
			e->edp_uj_us);
	}
	fprintf(out, "  host staging       in %llu B, out %llu B (%.4f s); %zu of %zu accelerated "
		     "inputs from DRAM (%llu B as they were, %llu B read and written relayouting, "
		     "%.4f s)\n",
		(unsigned long long)t.staged_in, (unsigned long long)t.copied_out,
		t.staging_seconds, t.inputs_from_dram, t.inputs_from_dram + t.inputs_staged,
		(unsigned long long)t.carried, (unsigned long long)t.relayout, t.relayout_seconds);
	fprintf(out, "  host kernels       %.4f s; all-host reference run %.4f s; "
		     "whole run %.3f s\n", t.host_seconds, run->reference_seconds,
		rep->wall_seconds);
	fprintf(out, "  host phases        simulation %.4f s, golden %.4f s, checks %.4f s, emit "
		     "%.4f s, plan %.4f s, host ops %.4f s, reference %.4f s, staging %.4f s, "
		     "one-thread streams %.4f s, rest %.4f s; reading %.4f s before the run\n",
		t.sim_seconds, t.golden_seconds, t.check_seconds, t.emit_seconds, t.plan_seconds,
		t.host_seconds, run->reference_seconds, t.staging_seconds + t.relayout_seconds,
		t.threads_seconds, rest_seconds(rep, &t), rep->read_seconds);
	if (run->bit_exact)
		fprintf(out, "  check              %zu tensors equal the all-host run: %zu "
			     "accelerated-op outputs against the golden kernels, %zu host-op "
			     "outputs that are the host kernels' own\n",
			run->tensors_compared, t.checked_golden, t.host_ops);
	else
		fprintf(out, "  check              MISMATCH: %zu of %zu tensors differ from the "
			     "all-host run; first tensor %d at byte %zu\n", run->tensors_differing,
			run->tensors_compared, run->first_tensor, run->first_index);
	if (run->expect_dir && !run->expect_differing)
		fprintf(out, "  tflm reference     %zu op outputs equal the tensors in %s (%zu "
			     "without a file there)\n", run->expect_compared, run->expect_dir,
			run->expect_missing);
	else if (run->expect_dir)
		fprintf(out, "  tflm reference     MISMATCH: %zu of %zu op outputs differ from the "
			     "tensors in %s; first tensor %d at element %zu\n",
			run->expect_differing, run->expect_compared, run->expect_dir,
			run->expect_first_tensor, run->expect_first_index);
	else if (t.host_unchecked)
		fprintf(out, "  unchecked          %zu host-op outputs: nothing independent holds "
			     "them (--expect DIR compares every tensor with TFLM's)\n",
			t.host_unchecked);
	char verdict[256];
	verdict_text(rep, &t, verdict, sizeof(verdict));
	fprintf(out, "verdict: %s\n", verdict);
}

json_t *model_report_json(const model_report *rep)
{
	const vta_model_run *run = rep->run;
	json_t *root = json_object();
	json_object_set_new(root, "config", json_string(rep->cfg->name));
	json_object_set_new(root, "model", json_string(rep->model));
	json_object_set_new(root, "mode", json_string("tflite"));
	json_object_set_new(root, "threads", json_integer(rep->threads));
	json_object_set_new(root, "engine", json_string(rep->engine));
	json_object_set_new(root, "decompress", json_string(rep->decompress));
	json_t *ops = json_array();
	for (size_t i = 0; i < run->n_ops; i++) {
		const vta_model_op_result *r = &run->ops[i];
		json_t *o = json_object();
		report_set_int(o, "index", r->index);
		json_object_set_new(o, "op", json_string(r->name));
		json_object_set_new(o, "where", json_string(r->skipped ? "skipped"
							    : r->place == VTA_OP_HOST ? "host"
										      : "accel"));
		report_set_int(o, "output_tensor", r->output);
		const char *against = vta_model_checked_against(r);
		if (against)
			json_object_set_new(o, "checked_against", json_string(against));
		if (r->expect_checked) {
			json_object_set_new(o, "expect_equal", json_boolean(!r->expect_differing));
			report_set_int(o, "expect_differing", r->expect_differing);
			if (r->expect_differing) {
				report_set_int(o, "expect_first_index", r->expect_first_index);
				json_object_set_new(o, "expect_value", json_real(r->expect_value));
				json_object_set_new(o, "expect_got", json_real(r->expect_got));
			}
		}
		if (!r->skipped && r->place == VTA_OP_HOST)
			json_object_set_new(o, "host_seconds", json_real(r->host_seconds));
		if (!r->skipped)
			report_set_int(o, "copied_out_bytes", r->copied_out_bytes);
		if (!r->skipped && r->place == VTA_OP_ACCEL) {
			const vta_run_stats *s = &r->layer.stats;
			report_set_int(o, "cycles", s->cycles);
			report_set_int(o, "dram_read_bytes", report_dram_read_bytes(s));
			report_set_int(o, "dram_write_bytes", s->dram_write_bytes);
			json_object_set_new(o, "energy", report_energy_json(rep->cfg, s));
			json_t *p = json_object();
			for (int k = 0; k < VTA_STATS_SRAMS; k++)
				report_set_int(p, vta_stats_slot_name(k), s->sram[k].peak_bytes);
			json_object_set_new(o, "sram_peak_bytes", p);
			json_object_set_new(o, "compression", json_string(compression(r)));
			report_set_int(o, "macs", r->layer.counters.macs);
			json_object_set_new(o, "plan", json_string(r->layer.plan));
			report_set_int(o, "threads", r->layer.threads);
			json_object_set_new(o, "threads_measured",
					    json_boolean(r->layer.threads_measured));
			vta_roofline rl = vta_layer_roofline(rep->cfg, &r->layer);
			report_set_int(o, "roofline_cycles", rl.roofline_cycles);
			json_object_set_new(o, "bound", json_string(vta_bound_name(rl.bound)));
			json_object_set_new(o, "bit_exact", json_boolean(r->layer.check.bit_exact));
			const vta_layer_counters *k = &r->layer.counters;
			json_t *from = json_array();
			for (unsigned j = 0; j < k->n_inputs && j < 2; j++)
				json_array_append_new(from, json_integer(k->input_from[j]));
			json_object_set_new(o, "input_from", from);
			report_set_int(o, "staged_in_bytes", k->staged_bytes);
			report_set_int(o, "carried_bytes", k->carried_bytes);
			report_set_int(o, "relayout_bytes", k->relayout_bytes);
		}
		json_array_append_new(ops, o);
	}
	json_object_set_new(root, "ops", ops);
	model_totals t;
	totals(rep, &t);
	json_t *tot = json_object();
	report_set_int(tot, "accel_ops", t.accel_ops);
	report_set_int(tot, "host_ops", t.host_ops);
	report_set_int(tot, "accel_cycles", t.cycles);
	json_object_set_new(tot, "accel_time_us", json_real(t.cycles / rep->cfg->clock_mhz));
	json_object_set_new(tot, "inferences_per_second", json_real(t.inferences_per_second));
	report_set_int(tot, "dram_read_bytes", t.dram_read);
	report_set_int(tot, "dram_write_bytes", t.dram_write);
	json_t *en = json_object();
	json_object_set_new(en, "total_pj", json_real(t.energy.total_pj));
	json_object_set_new(en, "edp_uj_us", json_real(t.energy.edp_uj_us));
	for (int k = 0; k < VTA_ENERGY_PARTS; k++) {
		char key[48];
		snprintf(key, sizeof(key), "%s_pj", vta_energy_part_name(k));
		json_object_set_new(en, key, json_real(t.energy.part_pj[k]));
	}
	json_object_set_new(tot, "energy", en);
	json_object_set_new(tot, "area", report_area_json(rep->cfg));
	json_t *p = json_object();
	for (int k = 0; k < VTA_STATS_SRAMS; k++)
		report_set_int(p, vta_stats_slot_name(k), t.sram_peak[k]);
	json_object_set_new(tot, "sram_peak_bytes", p);
	json_object_set_new(tot, "host_seconds", json_real(t.host_seconds));
	report_set_int(tot, "staged_in_bytes", t.staged_in);
	report_set_int(tot, "copied_out_bytes", t.copied_out);
	json_object_set_new(tot, "staging_seconds", json_real(t.staging_seconds));
	report_set_int(tot, "carried_bytes", t.carried);
	report_set_int(tot, "relayout_bytes", t.relayout);
	json_object_set_new(tot, "relayout_seconds", json_real(t.relayout_seconds));
	report_set_int(tot, "inputs_from_dram", t.inputs_from_dram);
	report_set_int(tot, "inputs_staged", t.inputs_staged);
	json_object_set_new(tot, "reference_seconds", json_real(run->reference_seconds));
	json_object_set_new(tot, "reference_cached", json_boolean(run->reference_cached));
	json_object_set_new(tot, "run_wall_seconds", json_real(rep->wall_seconds));
	json_t *ph = json_object();
	json_object_set_new(ph, "simulation_seconds", json_real(t.sim_seconds));
	json_object_set_new(ph, "golden_seconds", json_real(t.golden_seconds));
	json_object_set_new(ph, "check_seconds", json_real(t.check_seconds));
	json_object_set_new(ph, "emit_seconds", json_real(t.emit_seconds));
	json_object_set_new(ph, "plan_seconds", json_real(t.plan_seconds));
	json_object_set_new(ph, "host_ops_seconds", json_real(t.host_seconds));
	json_object_set_new(ph, "reference_seconds", json_real(run->reference_seconds));
	json_object_set_new(ph, "staging_seconds",
			    json_real(t.staging_seconds + t.relayout_seconds));
	json_object_set_new(ph, "threads_seconds", json_real(t.threads_seconds));
	json_object_set_new(ph, "rest_seconds", json_real(rest_seconds(rep, &t)));
	json_object_set_new(ph, "read_seconds", json_real(rep->read_seconds));
	json_object_set_new(tot, "host_phases", ph);
	json_t *c = json_object();
	json_object_set_new(c, "bit_exact", json_boolean(t.bit_exact));
	json_object_set_new(c, "all_host_equal", json_boolean(run->bit_exact));
	report_set_int(c, "checked_against_golden", t.checked_golden);
	report_set_int(c, "checked_against_tflm", t.checked_tflm);
	report_set_int(c, "host_unchecked", t.host_unchecked);
	char verdict[256];
	verdict_text(rep, &t, verdict, sizeof(verdict));
	json_object_set_new(c, "verdict", json_string(verdict));
	if (run->expect_dir) {
		json_object_set_new(c, "expect_dir", json_string(run->expect_dir));
		report_set_int(c, "expect_compared", run->expect_compared);
		report_set_int(c, "expect_differing", run->expect_differing);
		report_set_int(c, "expect_missing", run->expect_missing);
		if (run->expect_differing) {
			report_set_int(c, "expect_first_tensor", run->expect_first_tensor);
			report_set_int(c, "expect_first_index", run->expect_first_index);
		}
	}
	report_set_int(c, "tensors_compared", run->tensors_compared);
	report_set_int(c, "tensors_differing", run->tensors_differing);
	if (!run->bit_exact) {
		report_set_int(c, "first_tensor", run->first_tensor);
		report_set_int(c, "first_byte", run->first_index);
	}
	json_object_set_new(tot, "check", c);
	json_object_set_new(root, "total", tot);
	return root;
}

vta_status model_report_write_csv(const model_report *rep, const char *path, vta_error *err)
{
	const vta_model_run *run = rep->run;
	report_row *rows = calloc(run->n_ops ? run->n_ops : 1, sizeof(*rows));
	if (!rows)
		return vta_fail(err, VTA_E_NOMEM, "out of memory");
	for (size_t i = 0; i < run->n_ops; i++) {
		const vta_model_op_result *r = &run->ops[i];
		snprintf(rows[i].name, sizeof(rows[i].name), "%zu %s", r->index, r->name);
		rows[i].op = r->name;
		rows[i].where = r->skipped ? "skipped" : r->place == VTA_OP_HOST ? "host" : "accel";
		rows[i].layer = !r->skipped && r->place == VTA_OP_ACCEL ? &r->layer : NULL;
		rows[i].host_seconds = r->host_seconds;
	}
	vta_status st = report_table_write_csv(rep->cfg, rows, run->n_ops, path, err);
	free(rows);
	return st;
}

vta_status model_report_write_json(const model_report *rep, const char *path, vta_error *err)
{
	json_t *root = model_report_json(rep);
	vta_status st = report_write_json(root, path, err);
	json_decref(root);
	return st;
}
