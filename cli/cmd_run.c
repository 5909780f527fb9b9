/*
 * cmd_run.c - `vtasim run`: the product's main job. For every layer of a workload: make its
 * tensors, compute the golden output, emit the layer's instruction stream, simulate it on the
 * SystemC model, read the output back, compare, and report timing, SRAM pressure, DRAM
 * traffic, decompression and the bit-exact verdict, per layer and in total.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "emit_add.h"
#include "emit_conv2d.h"
#include "golden.h"
#include "layer_dump.h"
#include "report.h"
#include "run_report.h"
#include "trace_out.h"
#include "vta_ref.h"
#include "vtasim_api.h"
#include "workload.h"
#include "workload_layer.h"

static const char USAGE[] =
	"usage: vtasim run -c CONFIG -w WORKLOAD [-o REPORT.json] [--mode tflite|vta16] "
	"[--threads 1|2] [--dump DIR] [--engine sim|ref] [--inject-fault INDEX] [--log L.txt] "
	"[--trace T.json] [--set KEY=VALUE]...";

typedef struct run_opts {
	const char *config, *workload, *report, *dump;
	const char *log, *trace; /* per-instruction log, timeline */
	vta_arith_mode mode;
	unsigned threads;
	int use_ref; /* functional check only, on the reference executor */
	long fault_index; /* >= 0: flip a bit of this output element of the first layer */
	cli_sets sets;    /* --set KEY=VALUE over the config file */
} run_opts;

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int parse_opts(int argc, char **argv, run_opts *o)
{
	static const struct option opts[] = {{"config", required_argument, 0, 'c'},
					     {"workload", required_argument, 0, 'w'},
					     {"output", required_argument, 0, 'o'},
					     {"mode", required_argument, 0, 'm'},
					     {"threads", required_argument, 0, 't'},
					     {"dump", required_argument, 0, 'd'},
					     {"engine", required_argument, 0, 'e'},
					     {"inject-fault", required_argument, 0, 'F'},
					     {"log", required_argument, 0, 'L'},
					     {"trace", required_argument, 0, 'T'},
					     {"set", required_argument, 0, 'S'},
					     {0, 0, 0, 0}};
	memset(o, 0, sizeof(*o));
	o->mode = VTA_ARITH_TFLITE;
	o->threads = 2;
	o->fault_index = -1;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "c:w:o:", opts, NULL)) != -1) {
		switch (c) {
		case 'c': o->config = optarg; break;
		case 'w': o->workload = optarg; break;
		case 'o': o->report = optarg; break;
		case 'd': o->dump = optarg; break;
		case 'L': o->log = optarg; break;
		case 'T': o->trace = optarg; break;
		case 'S': {
			int rc = cli_sets_add(&o->sets, optarg);
			if (rc)
				return rc;
			break;
		}
		case 'm':
			if (!strcmp(optarg, "tflite"))
				o->mode = VTA_ARITH_TFLITE;
			else if (!strcmp(optarg, "vta16"))
				o->mode = VTA_ARITH_VTA16;
			else
				return cli_usage_error("--mode '%s': expected tflite or vta16", optarg);
			break;
		case 't':
			if (!strcmp(optarg, "1"))
				o->threads = 1;
			else if (!strcmp(optarg, "2"))
				o->threads = 2;
			else
				return cli_usage_error("--threads '%s': expected 1 or 2", optarg);
			break;
		case 'e':
			if (!strcmp(optarg, "ref"))
				o->use_ref = 1;
			else if (strcmp(optarg, "sim"))
				return cli_usage_error("--engine '%s': expected sim or ref", optarg);
			break;
		case 'F': {
			char *end;
			errno = 0;
			o->fault_index = strtol(optarg, &end, 10);
			if (*end || end == optarg || errno || o->fault_index < 0)
				return cli_usage_error("--inject-fault '%s': expected an element index",
						       optarg);
			break;
		}
		default: return cli_usage_error("%s", USAGE);
		}
	}
	if (optind != argc || !o->config || !o->workload)
		return cli_usage_error("%s", USAGE);
	if ((o->log || o->trace) && o->use_ref)
		return cli_usage_error("--log and --trace record the timed model: they need "
				       "--engine sim");
	return 0;
}

/* The engines a run uses; the simulator elaborates once for the whole workload. With
 * --log/--trace, every layer's records go to `tr`, the layers one after another on the
 * trace's time axis (`offset`: the cycles of the layers before). */
typedef struct engines {
	vtasim_sim *sim;
	vta_ref *ref;
	trace_out *tr;
	uint64_t offset;
} engines;

static vta_status emit_layer(const vta_config *cfg, const vta_layer_data *d,
			     const vta_emit_opts *eo, vta_dram *dram, vta_layer_stream *ls,
			     vta_error *err)
{
	if (d->op == VTA_WL_CONV2D)
		return vta_emit_conv2d(cfg, &d->conv, d->has_lut ? &d->lut.tensor : NULL,
				       d->has_bias_lut ? &d->bias_lut.tensor : NULL, &d->output, eo,
				       dram, ls, err);
	return vta_emit_add(cfg, &d->a, NULL, &d->b, d->has_lut ? &d->lut.tensor : NULL,
			    d->spec->activation, &d->output, eo, dram, ls, err);
}

/* Everything about one layer; returns a vta_status (VTA_E_MISMATCH when not bit-exact). */
static vta_status run_layer(const vta_config *cfg, const run_opts *o, engines *eng,
			    const vta_wl_layer *spec, size_t index, run_layer_result *r,
			    vta_error *err)
{
	vta_status st;
	vta_layer_data d;
	vta_layer_stream ls;
	vta_dram dram = {0};
	memset(&ls, 0, sizeof(ls));
	int8_t *expected = NULL, *tflite_ref = NULL;
	uint8_t *image = NULL;
	uint64_t image_bytes = 0;
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", spec->name);
	r->op = spec->op;

	if ((st = vta_layer_materialize(spec, &d, err)))
		return st;
	size_t count = vta_tensor_i8_count(&d.output);
	memcpy(r->out_shape, d.output.shape, sizeof(r->out_shape));
	r->compressed_bytes = d.compressed_bytes;
	r->decompressed_bytes = d.decompressed_bytes;
	r->has_lut = d.has_lut || d.has_bias_lut;
	r->binning = d.binning;
	if (d.op == VTA_WL_CONV2D)
		r->input_bytes = vta_tensor_i8_count(&d.input);
	else
		r->input_bytes = vta_tensor_i8_count(&d.a) * (d.has_lut ? 1 : 2);

	/* golden output in the run's mode (and TFLite's, to measure vta16's distance) */
	expected = malloc(count);
	tflite_ref = malloc(count);
	if (!expected || !tflite_ref) {
		st = vta_fail(err, VTA_E_NOMEM, "layer '%s': out of memory", spec->name);
		goto out;
	}
	vta_tensor_i8 gold = d.output;
	gold.data = expected;
	double t0 = now_seconds();
	vta_golden_stats gstats = {0};
	if ((st = vta_layer_golden(&d, o->mode, &gold, &gstats, err)))
		goto out;
	r->golden_seconds = now_seconds() - t0;
	r->alu_overflows = gstats.alu_overflows;
	r->acc_overflows = gstats.acc_overflows;
	if (o->mode == VTA_ARITH_VTA16) {
		vta_tensor_i8 tf = d.output;
		tf.data = tflite_ref;
		if ((st = vta_layer_golden(&d, VTA_ARITH_TFLITE, &tf, NULL, err)))
			goto out;
	}

	/* emit the stream and simulate it */
	if ((st = vta_dram_init(&dram, (uint64_t)cfg->dram_size_mib << 20, err)))
		goto out;
	vta_emit_opts eo = {.mode = o->mode, .threads = o->threads, .dram_base = 0,
			    .name = spec->name};
	double e0 = now_seconds();
	if ((st = emit_layer(cfg, &d, &eo, &dram, &ls, err)))
		goto out;
	r->emit_seconds = now_seconds() - e0;
	r->counters = ls.counters;
	snprintf(r->plan, sizeof(r->plan), "%s", ls.plan);
	r->insns = ls.prog.n_insns;
	if (o->dump) {
		/* the DRAM image the layer starts from, for outside replay (vtasim exec --dram) */
		image_bytes = ls.dram_end;
		image = malloc(image_bytes ? image_bytes : 1);
		if (!image) {
			st = vta_fail(err, VTA_E_NOMEM, "layer '%s': out of memory", spec->name);
			goto out;
		}
		memcpy(image, dram.bytes, image_bytes);
	}
	if (o->use_ref) {
		if ((st = vta_ref_run(eng->ref, &ls.prog, &dram, err)))
			goto out;
	} else {
		st = vtasim_sim_run(eng->sim, &ls.prog, &dram, &r->stats, err);
		size_t n = 0;
		const vtasim_insn_record *recs = vtasim_sim_records(eng->sim, &n);
		if (eng->tr && n) {
			/* also for a failed layer: its records up to the failure diagnose it */
			char name[sizeof(r->name) + 8];
			snprintf(name, sizeof(name), "layer %s", spec->name);
			trace_run tr_run = {.name = name, .prog = &ls.prog, .recs = recs, .n = n,
					    .stats = &r->stats, .err = st ? err : NULL,
					    .offset = eng->offset};
			vta_error terr = {0};
			vta_status ts = trace_out_add(eng->tr, &tr_run, &terr);
			eng->offset += r->stats.cycles;
			if (!st && ts) {
				st = ts;
				*err = terr;
			}
		}
		if (st)
			goto out;
		r->timed = 1;
	}

	/* read back and check */
	vta_tensor_i8 got = d.output;
	if ((st = vta_layer_read_output(&ls, &dram, got.data, count, err)))
		goto out;
	/* a deliberate fault, to see (and test) how the checker reports a mismatch */
	if (index == 0 && o->fault_index >= 0 && (size_t)o->fault_index < count)
		got.data[o->fault_index] ^= 1;
	if ((st = vta_golden_compare(&gold, &got, &r->check, err)))
		goto out;
	if (o->mode == VTA_ARITH_VTA16) {
		vta_tensor_i8 tf = d.output;
		tf.data = tflite_ref;
		if ((st = vta_golden_compare(&tf, &got, &r->vs_tflite, err)))
			goto out;
		r->has_vs_tflite = 1;
	}
	if (o->dump && (st = layer_dump(o->dump, spec, &d, &gold, &got, &ls, cfg, image,
					image_bytes, err)))
		goto out;
	if (!r->check.bit_exact)
		st = vta_fail(err, VTA_E_MISMATCH,
			      "layer '%s': %zu of %zu outputs differ from the golden model; first at "
			      "(n, h, w, c) = (%d, %d, %d, %d): expected %d, got %d",
			      spec->name, r->check.mismatches, r->check.count,
			      r->check.first_nhwc[0], r->check.first_nhwc[1], r->check.first_nhwc[2],
			      r->check.first_nhwc[3], r->check.expected, r->check.got);
out:
	free(image);
	free(expected);
	free(tflite_ref);
	vta_layer_stream_free(&ls);
	vta_dram_free(&dram);
	vta_layer_data_free(&d);
	return st;
}

int cmd_run(int argc, char **argv)
{
	run_opts o;
	int rc = parse_opts(argc, argv, &o);
	if (rc)
		return rc;
	vta_config cfg;
	if ((rc = cli_load_config(o.config, &o.sets, &cfg)))
		return rc;
	vta_error err = {0};
	vta_workload wl;
	if (vta_workload_load(o.workload, &wl, &err))
		return cli_report_error(&err);
	if (o.dump && mkdir(o.dump, 0777) != 0) {
		struct stat sb;
		if (stat(o.dump, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
			vta_workload_free(&wl);
			return cli_usage_error("--dump %s: cannot create the folder", o.dump);
		}
	}

	engines eng = {0};
	vta_status st = o.use_ref ? vta_ref_create(&cfg, &eng.ref, &err)
				  : vtasim_sim_create(&cfg, &eng.sim, &err);
	if (!st && (o.log || o.trace)) {
		char title[1024];
		snprintf(title, sizeof(title), "run %s", o.workload);
		st = trace_out_open(o.log, o.trace, &cfg, title, &eng.tr, &err);
		if (!st)
			st = vtasim_sim_set_recording(eng.sim, 1, &err);
	}
	run_layer_result *results = calloc(wl.n_layers, sizeof(*results));
	if (!st && !results)
		st = vta_fail(&err, VTA_E_NOMEM, "out of memory");
	size_t done = 0;
	vta_status first_failure = VTA_OK;
	vta_error failure = {0};
	double t0 = now_seconds();
	for (size_t i = 0; !st && i < wl.n_layers; i++) {
		vta_error lerr = {0};
		vta_status ls = run_layer(&cfg, &o, &eng, &wl.layers[i], i, &results[i], &lerr);
		if (ls == VTA_E_MISMATCH) {
			/* report every layer, fail at the end */
			if (!first_failure) {
				first_failure = ls;
				failure = lerr;
			}
			done = i + 1;
			continue;
		}
		if (ls) {
			st = ls;
			err = lerr;
			break;
		}
		done = i + 1;
	}
	double wall = now_seconds() - t0;
	if (!st && done) {
		run_report rep = {.cfg = &cfg, .workload = o.workload, .mode = o.mode,
				  .threads = o.threads, .layers = results, .n_layers = done,
				  .wall_seconds = wall, .engine = o.use_ref ? "ref" : "sim"};
		run_report_text(stdout, &rep);
		if (o.report)
			rc = run_report_write_json(&rep, o.report);
	}
	vta_error terr = {0};
	if (trace_out_close(eng.tr, &terr) && !st && !first_failure) {
		st = terr.status;
		err = terr;
	}
	free(results);
	vtasim_sim_destroy(eng.sim);
	vta_ref_destroy(eng.ref);
	vta_workload_free(&wl);
	if (st)
		return cli_report_error(&err);
	if (first_failure)
		return cli_report_error(&failure);
	return rc;
}
