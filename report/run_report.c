/* run_report.c - text and JSON reports of `vtasim run` (see run_report.h, docs/cli.md). */
#include "run_report.h"

#include "report_table.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "report.h"
#include "stream_check.h"

/* Peak resident memory of this process so far, in MiB. */
static double peak_rss_mib(void)
{
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return 0.0;
	return (double)ru.ru_maxrss / 1024.0; /* Linux reports KiB */
}

static const char *mode_name(vta_arith_mode m)
{
	return m == VTA_ARITH_VTA16 ? "vta16" : "tflite";
}

/* DRAM bytes the decoder saved: the plain layouts less the packed indices and tables. */
static int64_t lut_saved(const vta_layer_result *r)
{
	return (int64_t)r->counters.lut_hw_plain_bytes - (int64_t)r->counters.lut_hw_bytes;
}

/* The total's stream checks: the counts summed, checked when every layer's were. */
static void sum_checks(vta_layer_result *sum, const vta_layer_result *r, bool first)
{
	vta_race_report *t = &sum->checks;
	const vta_race_report *c = &r->checks;
	sum->checks_run = first ? r->checks_run : sum->checks_run && r->checks_run;
	t->checked = first ? c->checked : t->checked && c->checked;
	if (!c->checked && !t->skipped.detail[0])
		snprintf(t->skipped.detail, sizeof(t->skipped.detail), "layer %s: %s", r->name,
			 c->skipped.detail);
	t->races += c->races;
	t->uninit_reads += c->uninit_reads;
	t->tokens_left += c->tokens_left;
	t->after_finish += c->after_finish;
	t->never_run += c->never_run;
	t->warnings += c->warnings;
}

static void totals(const run_report *rep, vta_run_stats *t, vta_layer_result *sum)
{
	memset(t, 0, sizeof(*t));
	memset(sum, 0, sizeof(*sum));
	snprintf(sum->name, sizeof(sum->name), "total");
	sum->check.bit_exact = true;
	for (size_t i = 0; i < rep->n_layers; i++) {
		const vta_layer_result *r = &rep->layers[i];
		report_stats_add(t, &r->stats);
		sum->counters.macs += r->counters.macs;
		sum->compressed_bytes += r->compressed_bytes;
		sum->decompressed_bytes += r->decompressed_bytes;
		sum->counters.lut_hw_bytes += r->counters.lut_hw_bytes;
		sum->counters.lut_hw_plain_bytes += r->counters.lut_hw_plain_bytes;
		if (r->decompress == VTA_DECOMPRESS_HW)
			sum->decompress = VTA_DECOMPRESS_HW;
		sum->alu_overflows += r->alu_overflows;
		sum->acc_overflows += r->acc_overflows;
		sum->golden_seconds += r->golden_seconds;
		sum->emit_seconds += r->emit_seconds;
		sum->plan_seconds += r->plan_seconds;
		sum->check_seconds += r->check_seconds;
		sum->threads_seconds += r->threads_seconds;
		sum_checks(sum, r, i == 0);
		sum->insns += r->insns;
		if (r->check.mismatches && !sum->check.mismatches) {
			/* the total's first mismatch is the first failing layer's */
			sum->check.first_index = r->check.first_index;
			memcpy(sum->check.first_nhwc, r->check.first_nhwc, sizeof(sum->check.first_nhwc));
			sum->check.expected = r->check.expected;
			sum->check.got = r->check.got;
			snprintf(sum->name, sizeof(sum->name), "%s", r->name);
		}
		sum->check.count += r->check.count;
		sum->check.mismatches += r->check.mismatches;
		sum->check.bit_exact = sum->check.bit_exact && r->check.bit_exact;
		for (int b = 0; b < VTA_COMPARE_HIST_BINS; b++) {
			sum->check.hist[b] += r->check.hist[b];
			sum->vs_tflite.hist[b] += r->vs_tflite.hist[b];
		}
		sum->vs_tflite.count += r->vs_tflite.count;
		sum->vs_tflite.mismatches += r->vs_tflite.mismatches;
		sum->has_vs_tflite |= r->has_vs_tflite;
	}
	report_stats_utilization(rep->cfg, t);
}

static json_t *histogram_json(const vta_compare *c)
{
	static const char *const bins[VTA_COMPARE_HIST_BINS] = {"<-3", "-3", "-2", "-1", "0",
								"+1", "+2", "+3", ">+3"};
	json_t *h = json_object();
	for (int b = 0; b < VTA_COMPARE_HIST_BINS; b++)
		report_set_int(h, bins[b], c->hist[b]);
	return h;
}

static json_t *check_json(const vta_layer_result *r, int per_layer)
{
	json_t *c = json_object();
	json_object_set_new(c, "bit_exact", json_boolean(r->check.bit_exact));
	report_set_int(c, "elements", r->check.count);
	report_set_int(c, "mismatches", r->check.mismatches);
	if (per_layer && r->check.mismatches) {
		json_t *f = json_object();
		report_set_int(f, "index", r->check.first_index);
		json_object_set_new(f, "nhwc", json_pack("[iiii]", r->check.first_nhwc[0],
							 r->check.first_nhwc[1],
							 r->check.first_nhwc[2],
							 r->check.first_nhwc[3]));
		json_object_set_new(f, "expected", json_integer(r->check.expected));
		json_object_set_new(f, "got", json_integer(r->check.got));
		json_object_set_new(c, "first_mismatch", f);
	}
	json_object_set_new(c, "lsb_histogram", histogram_json(&r->check));
	if (r->has_vs_tflite) {
		json_t *d = json_object();
		report_set_int(d, "differing", r->vs_tflite.mismatches);
		report_set_int(d, "elements", r->vs_tflite.count);
		if (per_layer)
			json_object_set_new(d, "max_abs_lsb",
					    json_integer(r->vs_tflite.max_abs_diff));
		json_object_set_new(d, "lsb_histogram", histogram_json(&r->vs_tflite));
		json_object_set_new(c, "distance_from_tflite", d);
	}
	return c;
}

/* The chooser's estimate against the simulated cycles, (est - cycles) / cycles. */
static double est_error(const vta_conv_plan *p, uint64_t cycles)
{
	return cycles ? ((double)p->est_cycles - (double)cycles) / (double)cycles : 0.0;
}

/* How a CONV2D was tiled, by the names a pinned plan uses (tiling.h, vta_conv_pin), and how
 * close its estimate came (when the layer was timed: `cycles` > 0). */
static json_t *tiling_json(const vta_conv_plan *p, uint64_t cycles)
{
	json_t *t = json_object();
	report_set_int(t, "rows", p->th);
	report_set_int(t, "row_tiles", p->nrt);
	report_set_int(t, "chunk_blocks", p->ncb);
	report_set_int(t, "chunks", p->nci);
	report_set_int(t, "group_blocks", p->nob);
	report_set_int(t, "groups", p->ngrp);
	report_set_int(t, "load_blocks", p->nobw);
	json_object_set_new(t, "order", json_string(p->rows_outer ? "rows" : "groups"));
	report_set_int(t, "inp_slots", p->s_inp);
	report_set_int(t, "wgt_slots", p->s_wgt);
	report_set_int(t, "acc_slots", p->s_acc);
	json_object_set_new(t, "constants", json_string(p->const_all ? "all" : "group"));
	report_set_int(t, "threads", p->threads);
	report_set_int(t, "est_cycles", p->est_cycles);
	if (cycles)
		json_object_set_new(t, "est_error", json_real(est_error(p, cycles)));
	return t;
}

static json_t *layer_json(const run_report *rep, const vta_layer_result *r,
			  const vta_run_stats *st, int per_layer)
{
	json_t *o = r->timed || !per_layer ? report_stats_json(rep->cfg, st) : json_object();
	json_object_set_new(o, "name", json_string(r->name));
	if (per_layer) {
		json_object_set_new(o, "op", json_string(vta_wl_op_name(r->op)));
		json_object_set_new(o, "output_shape", json_pack("[iiii]", r->out_shape[0],
								 r->out_shape[1], r->out_shape[2],
								 r->out_shape[3]));
		json_object_set_new(o, "plan", json_string(r->plan));
		if (r->has_conv_plan) {
			json_t *t = tiling_json(&r->conv_plan, r->timed ? st->cycles : 0);
			json_object_set_new(t, "threads_measured",
					    json_boolean(r->threads_measured));
			json_object_set_new(o, "tiling", t);
		}
	}
	report_set_int(o, "insns", r->insns);
	/* useful MACs and the roofline of the layer replace the executed-uop figures */
	report_set_int(o, "gemm_macs", st->macs);
	report_set_int(o, "macs", r->counters.macs);
	if (per_layer) {
		vta_roofline rl = vta_layer_roofline(rep->cfg, r);
		report_roofline_json(o, &rl);
	}
	json_t *dec = json_object();
	const bool hw = r->compressed_bytes && r->decompress == VTA_DECOMPRESS_HW;
	json_object_set_new(dec, "mode", json_string(!r->compressed_bytes ? "none"
						      : vta_decompress_name(r->decompress)));
	report_set_int(dec, "compressed_bytes", r->compressed_bytes);
	report_set_int(dec, "decompressed_bytes", r->decompressed_bytes);
	report_set_int(dec, "dram_bytes_saved", lut_saved(r));
	report_set_int(dec, "cycles", hw ? st->decoder.busy_cycles : 0);
	if (hw) {
		report_set_int(dec, "dram_bytes", r->counters.lut_hw_bytes);
		report_set_int(dec, "busy_cycles", st->decoder.busy_cycles);
		report_set_int(dec, "stall_cycles", st->decoder.stall_cycles);
		report_set_int(dec, "table_loads", st->decoder.table_loads);
	}
	if (per_layer && r->binning.changed) {
		json_t *b = json_object();
		report_set_int(b, "changed", r->binning.changed);
		json_object_set_new(b, "max_abs_error", json_real(r->binning.max_abs_error));
		json_object_set_new(b, "rms_error", json_real(r->binning.rms_error));
		json_object_set_new(dec, "binning", b);
	}
	json_object_set_new(o, "decompression", dec);
	json_object_set_new(o, "check", check_json(r, per_layer));
	if (r->checks_run)
		json_object_set_new(o, "checks", stream_check_json(&r->checks));
	report_set_int(o, "alu_overflows", r->alu_overflows);
	report_set_int(o, "acc_overflows", r->acc_overflows);
	json_t *host = json_object_get(o, "host");
	if (!host) {
		host = json_object();
		json_object_set_new(o, "host", host);
	}
	json_object_set_new(host, "golden_seconds", json_real(r->golden_seconds));
	if (per_layer)
		json_object_set_new(host, "golden_reused", json_boolean(r->golden_reused));
	json_object_set_new(host, "emit_seconds", json_real(r->emit_seconds));
	json_object_set_new(host, "plan_seconds", json_real(r->plan_seconds));
	if (r->checks_run)
		json_object_set_new(host, "check_seconds", json_real(r->check_seconds));
	json_object_set_new(host, "threads_seconds", json_real(r->threads_seconds));
	json_object_set_new(host, "sim_to_golden_ratio",
			    json_real(r->golden_seconds > 0 ? st->host_seconds / r->golden_seconds
							    : 0.0));
	return o;
}

json_t *run_report_json(const run_report *rep)
{
	json_t *root = json_object();
	json_object_set_new(root, "config", json_string(rep->cfg->name));
	json_object_set_new(root, "workload", json_string(rep->workload));
	json_object_set_new(root, "mode", json_string(mode_name(rep->mode)));
	json_object_set_new(root, "threads", json_integer(rep->threads));
	json_object_set_new(root, "engine", json_string(rep->engine));
	if (rep->datapath)
		json_object_set_new(root, "datapath", json_string(rep->datapath));
	json_t *layers = json_array();
	vta_roofline roof = {0};
	for (size_t i = 0; i < rep->n_layers; i++) {
		json_array_append_new(layers, layer_json(rep, &rep->layers[i], &rep->layers[i].stats, 1));
		vta_roofline rl = vta_layer_roofline(rep->cfg, &rep->layers[i]);
		vta_cost_roofline_add(&roof, &rl);
	}
	json_object_set_new(root, "layers", layers);
	vta_run_stats t;
	vta_layer_result sum;
	totals(rep, &t, &sum);
	json_t *total = layer_json(rep, &sum, &t, 0);
	json_object_set_new(total, "name", json_string("total"));
	report_roofline_json(total, &roof);
	if (rep->n_layers && rep->layers[0].timed)
		json_object_set_new(total, "area", report_area_json(rep->cfg));
	json_object_set_new(json_object_get(total, "host"), "run_wall_seconds",
			    json_real(rep->wall_seconds));
	json_object_set_new(json_object_get(total, "host"), "peak_rss_mib",
			    json_real(peak_rss_mib()));
	size_t reused = 0;
	for (size_t i = 0; i < rep->n_layers; i++)
		reused += rep->layers[i].golden_reused;
	json_object_set_new(json_object_get(total, "host"), "golden_reused_layers",
			    json_integer((json_int_t)reused));
	json_object_set_new(root, "total", total);
	return root;
}

vta_status run_report_write_json(const run_report *rep, const char *path, vta_error *err)
{
	json_t *root = run_report_json(rep);
	vta_status st = report_write_json(root, path, err);
	json_decref(root);
	return st;
}

vta_status run_report_write_csv(const run_report *rep, const char *path, vta_error *err)
{
	report_row *rows = calloc(rep->n_layers ? rep->n_layers : 1, sizeof(*rows));
	if (!rows)
		return vta_fail(err, VTA_E_NOMEM, "out of memory");
	for (size_t i = 0; i < rep->n_layers; i++) {
		const vta_layer_result *r = &rep->layers[i];
		snprintf(rows[i].name, sizeof(rows[i].name), "%s", r->name);
		rows[i].op = vta_wl_op_name(r->op);
		rows[i].where = "accel";
		rows[i].layer = r;
	}
	vta_status st = report_table_write_csv(rep->cfg, rows, rep->n_layers, path, err);
	free(rows);
	return st;
}

static void print_check(FILE *out, const vta_layer_result *r)
{
	if (r->check.bit_exact)
		fprintf(out, "  check             bit-exact (%zu elements)\n", r->check.count);
	else
		fprintf(out, "  check             MISMATCH: %zu of %zu differ; first in %s at (%d, %d, %d, %d)"
			     " expected %d got %d\n",
			r->check.mismatches, r->check.count, r->name, r->check.first_nhwc[0],
			r->check.first_nhwc[1], r->check.first_nhwc[2], r->check.first_nhwc[3],
			r->check.expected, r->check.got);
	if (r->has_vs_tflite) {
		const uint64_t *h = r->vs_tflite.hist;
		fprintf(out, "  vs tflite         %zu of %zu differ; LSB histogram <-3:%llu -3:%llu "
			     "-2:%llu -1:%llu 0:%llu +1:%llu +2:%llu +3:%llu >+3:%llu\n",
			r->vs_tflite.mismatches, r->vs_tflite.count, (unsigned long long)h[0],
			(unsigned long long)h[1], (unsigned long long)h[2], (unsigned long long)h[3],
			(unsigned long long)h[4], (unsigned long long)h[5], (unsigned long long)h[6],
			(unsigned long long)h[7], (unsigned long long)h[8]);
	}
}

/* The decompression line of a layer (or the total) whose constants the decoder took. */
static void print_hw_decompression(FILE *out, const vta_layer_result *r,
				   const vta_decoder_stats *dec)
{
	int64_t saved = lut_saved(r);

	/* Tables and row padding can outweigh what a few small indices save. */
	fprintf(out, "  decompression     hw: %llu B compressed, %llu B decoded, %llu B in DRAM "
		     "(%lld B %s)",
		(unsigned long long)r->compressed_bytes, (unsigned long long)r->decompressed_bytes,
		(unsigned long long)r->counters.lut_hw_bytes, (long long)llabs(saved),
		saved < 0 ? "more than plain" : "saved");
	if (r->timed)
		fprintf(out, ", %llu table loads, decoder busy %llu, stall %llu",
			(unsigned long long)dec->table_loads, (unsigned long long)dec->busy_cycles,
			(unsigned long long)dec->stall_cycles);
	fputc('\n', out);
}

/* The chooser's estimates of the timed CONV2D layers against their simulated cycles: the
 * sums, and the range over layers. */
static void print_estimates(FILE *out, const run_report *rep)
{
	uint64_t est = 0, sim = 0;
	double lo = 0, hi = 0;
	size_t n = 0;
	for (size_t i = 0; i < rep->n_layers; i++) {
		const vta_layer_result *r = &rep->layers[i];
		if (!r->timed || !r->has_conv_plan || !r->stats.cycles)
			continue;
		const double e = est_error(&r->conv_plan, r->stats.cycles);
		lo = n && lo < e ? lo : e;
		hi = n && hi > e ? hi : e;
		est += r->conv_plan.est_cycles;
		sim += r->stats.cycles;
		n++;
	}
	if (n)
		fprintf(out, "  plan estimates    %+.2f%% of the simulated cycles (%zu CONV2D, "
			"%+.2f%%..%+.2f%%)\n",
			100.0 * ((double)est - (double)sim) / (double)sim, n, 100.0 * lo,
			100.0 * hi);
}

/* One line per layer: cycles against the roofline, the resource that sets it, and the
 * virtual threads its stream uses. */
static void print_roofline_table(FILE *out, const run_report *rep, const vta_roofline *sum,
				 uint64_t cycles)
{
	fprintf(out, "\nroofline (docs/runtime.md \"The roofline\")\n  %-20s %10s %7s %10s %6s %5s "
		     "%7s\n",
		"name", "cycles", "%total", "roofline", "ratio", "bound", "threads");
	for (size_t i = 0; i < rep->n_layers; i++) {
		const vta_layer_result *r = &rep->layers[i];
		vta_roofline rl = vta_layer_roofline(rep->cfg, r);
		fprintf(out, "  %-20.20s %10llu %6.1f%% %10llu %6.2f %5s %7u\n", r->name,
			(unsigned long long)r->stats.cycles,
			cycles ? 100.0 * (double)r->stats.cycles / (double)cycles : 0.0,
			(unsigned long long)rl.roofline_cycles,
			rl.roofline_cycles ? (double)r->stats.cycles / (double)rl.roofline_cycles
					   : 0.0,
			vta_bound_name(rl.bound), r->threads);
	}
	fprintf(out, "  %-20s %10llu %6.1f%% %10llu %6.2f %5s\n", "sum", (unsigned long long)cycles,
		100.0,
		(unsigned long long)sum->roofline_cycles,
		sum->roofline_cycles ? (double)cycles / (double)sum->roofline_cycles : 0.0,
		vta_bound_name(sum->bound));
}

void run_report_text(FILE *out, const run_report *rep)
{
	fprintf(out, "vtasim run: %s on %s, mode %s, %u virtual thread%s, engine %s%s%s\n",
		rep->workload, rep->cfg->name, mode_name(rep->mode), rep->threads,
		rep->threads == 1 ? "" : "s", rep->engine, rep->datapath ? ", datapath " : "",
		rep->datapath ? rep->datapath : "");
	for (size_t i = 0; i < rep->n_layers; i++) {
		const vta_layer_result *r = &rep->layers[i];
		vta_roofline rl = vta_layer_roofline(rep->cfg, r);
		fprintf(out, "\nlayer %s (%s) -> [%d, %d, %d, %d]\n", r->name, vta_wl_op_name(r->op),
			r->out_shape[0], r->out_shape[1], r->out_shape[2], r->out_shape[3]);
		fprintf(out, "  plan              %s\n", r->plan);
		if (r->timed && r->has_conv_plan && r->stats.cycles)
			fprintf(out, "  plan estimate     %+.2f%% of the simulated cycles\n",
				100.0 * est_error(&r->conv_plan, r->stats.cycles));
		fprintf(out, "  instructions      %zu, useful MACs %llu\n", r->insns,
			(unsigned long long)r->counters.macs);
		if (r->timed)
			report_stats_text(out, rep->cfg, &r->stats, &rl, 2);
		if (r->has_lut && r->decompress == VTA_DECOMPRESS_HW)
			print_hw_decompression(out, r, &r->stats.decoder);
		else if (r->has_lut)
			fprintf(out, "  decompression     host: %llu B compressed, %llu B decoded\n",
				(unsigned long long)r->compressed_bytes,
				(unsigned long long)r->decompressed_bytes);
		if (r->binning.changed)
			fprintf(out, "  binning           %zu values changed, max |error| %g, rms %g\n",
				r->binning.changed, r->binning.max_abs_error, r->binning.rms_error);
		print_check(out, r);
		if (r->checks_run)
			stream_check_text(out, &r->checks);
		fprintf(out, "  alu_overflows     %llu (accumulator wraps %llu)\n",
			(unsigned long long)r->alu_overflows, (unsigned long long)r->acc_overflows);
		fprintf(out, "  golden kernel     %.4f s host%s\n", r->golden_seconds,
			r->golden_reused ? " (reused: the same layer ran before)" : "");
	}
	vta_run_stats t;
	vta_layer_result sum;
	totals(rep, &t, &sum);
	vta_roofline roof = {0};
	for (size_t i = 0; i < rep->n_layers; i++) {
		vta_roofline rl = vta_layer_roofline(rep->cfg, &rep->layers[i]);
		vta_cost_roofline_add(&roof, &rl);
	}
	if (rep->layers[0].timed)
		print_roofline_table(out, rep, &roof, t.cycles);
	fprintf(out, "\ntotal (%zu layer%s)\n", rep->n_layers, rep->n_layers == 1 ? "" : "s");
	if (rep->layers[0].timed) {
		fprintf(out, "  cycles            %llu (%.2f us), roofline %llu: %.2fx\n",
			(unsigned long long)t.cycles, t.time_us,
			(unsigned long long)roof.roofline_cycles,
			roof.roofline_cycles ? (double)t.cycles / (double)roof.roofline_cycles : 0.0);
		print_estimates(out, rep);
		fprintf(out, "  gemm_utilization  %.1f%%\n", 100.0 * t.gemm_utilization);
		fprintf(out, "  dram              read %llu B, write %llu B\n",
			(unsigned long long)report_dram_read_bytes(&t),
			(unsigned long long)t.dram_write_bytes);
		report_energy_text(out, rep->cfg, &t, 2);
		report_area_text(out, rep->cfg, 2);
		fprintf(out, "  host              simulation %.3f s, golden kernels %.3f s (ratio %.2f)",
			t.host_seconds, sum.golden_seconds,
			sum.golden_seconds > 0 ? t.host_seconds / sum.golden_seconds : 0.0);
		fprintf(out, ", emit %.3f s, plan chooser %.3f s", sum.emit_seconds,
			sum.plan_seconds);
		if (sum.checks_run)
			fprintf(out, ", stream checks %.3f s", sum.check_seconds);
		if (sum.threads_seconds > 0)
			fprintf(out, ", one-thread streams timed %.3f s", sum.threads_seconds);
		fputc('\n', out);
	}
	size_t reused = 0;
	for (size_t i = 0; i < rep->n_layers; i++)
		reused += rep->layers[i].golden_reused;
	if (reused)
		fprintf(out, "  golden            reused for %zu of %zu layers (the same content ran "
			"before)\n", reused, rep->n_layers);
	if (sum.decompress == VTA_DECOMPRESS_HW) {
		sum.timed = rep->layers[0].timed;
		print_hw_decompression(out, &sum, &t.decoder);
	}
	fprintf(out, "  peak memory       %.1f MiB resident\n", peak_rss_mib());
	print_check(out, &sum);
	if (sum.checks_run)
		stream_check_text(out, &sum.checks);
	fprintf(out, "verdict: %s\n", sum.check.bit_exact ? "BIT-EXACT" : "MISMATCH");
}
