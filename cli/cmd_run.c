/*
 * cmd_run.c - `vtasim run`: the product's main job. Every layer of a workload goes through
 * the runtime's pipeline (vta_layer_run: tensors, golden output, stream, execution on the
 * SystemC model or the reference executor, check); this file parses the options, makes the
 * engine, and reports timing, SRAM pressure, DRAM traffic, decompression, the stream checks
 * and the bit-exact verdict per layer and in total, with the optional trace, log and dump.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "run_common.h"
#include "layer_dump.h"
#include "layer_run.h"
#include "stream_memo.h"
#include "model_job.h"
#include "report_table.h"
#include "run_report.h"
#include "stream_check.h"
#include "trace_out.h"
#include "vta_ref.h"
#include "vta_rules.h" /* vta_host_now */
#include "vta_text.h"
#include "vtasim_api.h"
#include "workload.h"

const char cmd_run_usage[] =
	"run -c CONFIG -w WORKLOAD [-o REPORT.json] [--mode tflite|vta16] "
	"[--threads 1|2] [--max-memory SIZE] [--dump DIR] [--engine sim|ref] [--inject-fault INDEX] [--log L.txt] "
	"[--trace T.json] [--vcd W.vcd] [--timeline T.svg|T.png] [--timeline-window A:B] "
	"[--decompress hw|host] [--strict] [--no-check-races] "
	"[--set KEY=VALUE]...";

const cli_opt cmd_run_opts[] = {
	RUN_COMMON_OPTIONS,
	{"workload", 'w', 'w', "WORKLOAD", "the workload YAML: its layers (docs/workload.md)"},
	{"output", 'o', 'o', "REPORT.json", "write the report as JSON, or as a CSV table of the layers when the name ends in .csv"},
	{"mode", 0, 'M', "tflite|vta16", "the arithmetic (docs/arithmetic.md); default tflite"},
	{"dump", 0, 'd', "DIR", "per layer: tensors, stream, DRAM image and plan into DIR/<layer>/"},
	{"inject-fault", 0, 'F', "INDEX", "flip a bit of output element INDEX of the first layer"},
	{"log", 0, 'L', "L.txt", "the per-instruction log of every layer"},
	{"trace", 0, 'T', "T.json", "the timeline as Chrome trace events (ui.perfetto.dev)"},
	{"vcd", 0, 'V', "W.vcd", "the waveform of each layer's run"},
	{"timeline", 0, 'G', "T.svg|T.png", "the timeline as a picture: lanes, token arrows, tracks"},
	{"timeline-window", 0, 'W', "A:B", "draw cycles [A, B) only (with --timeline)"},
	CLI_OPT_END};

typedef struct run_opts {
	run_common c;
	const char *workload, *report, *dump;
	const char *log, *trace; /* per-instruction log, timeline */
	const char *vcd;         /* waveform of each layer's run */
	const char *timeline, *window; /* the timeline's picture and its window */
	uint64_t from, to;
	vta_arith_mode mode;
	long fault_index; /* >= 0: flip a bit of this output element of the first layer */
	int mode_given;
} run_opts;

static int parse_opts(int argc, char **argv, run_opts *o)
{
	cli_getopt g;
	cli_getopt_make(cmd_run_opts, &g);
	memset(o, 0, sizeof(*o));
	run_common_init(&o->c);
	o->mode = VTA_ARITH_TFLITE;
	o->fault_index = -1;
	int c;
	if (cli_help_asked(argc, argv, g.shortopts, g.longopts))
		return cli_command_help(argv[0]);
	optind = 1;
	while ((c = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
		int rc = run_common_opt(&o->c, c, optarg);
		if (rc >= 0) {
			if (rc)
				return rc;
			continue;
		}
		switch (c) {
		case 'w': o->workload = optarg; break;
		case 'o': o->report = optarg; break;
		case 'd': o->dump = optarg; break;
		case 'L': o->log = optarg; break;
		case 'T': o->trace = optarg; break;
		case 'V': o->vcd = optarg; break;
		case 'G': o->timeline = optarg; break;
		case 'W': o->window = optarg; break;
		case 'M':
			o->mode_given = 1;
			if (!strcmp(optarg, "tflite"))
				o->mode = VTA_ARITH_TFLITE;
			else if (!strcmp(optarg, "vta16"))
				o->mode = VTA_ARITH_VTA16;
			else
				return cli_usage_error("--mode '%s': expected tflite or vta16",
						       VTA_Q(optarg));
			break;
		case 'F': {
			char *end;
			errno = 0;
			o->fault_index = strtol(optarg, &end, 10);
			if (*end || end == optarg || errno || o->fault_index < 0)
				return cli_usage_error("--inject-fault '%s': expected an element index",
						       VTA_Q(optarg));
			break;
		}
		default: return cli_bad_option(c, argv);
		}
	}
	if (optind != argc)
		return cli_unexpected("run", argv[optind]);
	if (!o->c.config)
		return cli_missing("run", "config", "-c CONFIG");
	if (!o->workload)
		return cli_missing("run", "workload", "-w FILE or -m MODEL");
	if ((o->log || o->trace) && o->c.use_ref)
		return cli_usage_error("--log and --trace record the timed model: they need "
				       "--engine sim");
	if (o->vcd && o->c.use_ref)
		return cli_usage_error("--vcd is the waveform of the timed model: it needs "
				       "--engine sim");
	return cli_timeline_options(o->timeline, o->window, o->c.use_ref ? 2 : 0, &o->from,
				    &o->to);
}

/* The waveform of layer i of n: the --vcd path itself for one layer, else one per layer
 * (w.vcd -> w.0.vcd, w.1.vcd, ...). */
static void layer_vcd_path(const char *vcd, size_t i, size_t n, char *out, size_t size)
{
	if (n == 1)
		snprintf(out, size, "%s", vcd);
	else
		run_common_part_path(vcd, i, out, size);
}

/* What the CLI adds to the pipeline: with --log/--trace, every layer's records of the timed
 * model go to `tr`, the layers one after another on the trace's time axis; with --dump,
 * every layer's files. */
typedef struct run_observer {
	vta_layer_observer base; /* first: the pipeline hands it back */
	const vta_config *cfg;
	const char *dump;
	trace_out *tr;
} run_observer;

static vta_status trace_layer(vta_layer_observer *self, const vta_layer_view *v,
			      vta_status run_status, const vta_error *run_err, vta_error *err)
{
	run_observer *ob = (run_observer *)self;
	char name[sizeof(v->result->name) + 8];
	snprintf(name, sizeof(name), "layer %s", v->spec->name);
	return trace_out_add(ob->tr, name, &v->stream->prog, &v->result->stats,
			     run_status ? run_err : NULL, err);
}

static vta_status dump_layer(vta_layer_observer *self, const vta_layer_view *v, vta_error *err)
{
	run_observer *ob = (run_observer *)self;
	return layer_dump(ob->dump, ob->cfg, v, err);
}

/* A workload that names a model: the model runs as `run -m` runs it, with the workload's
 * inputs, seed and host op classes and this command's options. */
static int run_workload_model(const run_opts *o, const vta_workload *wl, const vta_config *cfg,
			      vta_decompress dec)
{
	const vta_wl_model *wm = &wl->model;
	if (o->mode_given && o->mode != VTA_ARITH_TFLITE)
		return cli_usage_error("--mode vta16: %s names a model, and a model runs in "
				       "TFLite's arithmetic only", VTA_QPATH(o->workload));
	if (o->fault_index >= 0)
		return cli_usage_error("--inject-fault: %s names a model; faults are injected "
				       "into layer workloads only", VTA_QPATH(o->workload));
	const char *inputs[VTA_WL_MAX_INPUTS];
	if (wm->n_inputs > VTA_WL_MAX_INPUTS)
		return cli_usage_error("%s: more than %d inputs", VTA_QPATH(o->workload),
				       VTA_WL_MAX_INPUTS);
	for (size_t i = 0; i < wm->n_inputs; i++)
		inputs[i] = wm->inputs[i];
	char title[1100];
	snprintf(title, sizeof(title), "run %s (model %s)", o->workload, wm->path);
	model_job j = {.c = &o->c, .model = wm->path, .inputs = inputs,
		       .n_inputs = wm->n_inputs, .seed = wm->seed,
		       .host_classes = wm->host_classes, .report = o->report, .dump = o->dump,
		       .log = o->log, .trace = o->trace, .vcd = o->vcd, .timeline = o->timeline,
		       .timeline_from = o->from, .timeline_to = o->to, .title = title};
	return model_job_run(&j, cfg, dec);
}

/* Whether `path` is a .tflite model (its flatbuffer's identifier "TFL3" at byte 4): given
 * as a workload, the YAML reader would only complain about its first byte. */
static int is_tflite(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0;
	unsigned char head[8];
	const size_t n = fread(head, 1, sizeof(head), f);
	fclose(f);
	return n == sizeof(head) && !memcmp(head + 4, "TFL3", 4);
}

int cmd_run(int argc, char **argv)
{
	/* a .tflite model has its own runner (cmd_run_model.c) */
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "-m") || !strncmp(argv[i], "--model", 7))
			return cmd_run_model(argc, argv);
	run_opts o;
	int rc = parse_opts(argc, argv, &o);
	if (rc)
		return CLI_EXIT(rc);
	if (is_tflite(o.workload))
		return cli_usage_error("-w %s: this is a .tflite model, not a workload YAML: run it "
				       "with -m %s",
				       VTA_QPATH(o.workload), VTA_QPATH(o.workload));
	vta_config cfg;
	vta_decompress dec;
	if ((rc = run_common_config(&o.c, &cfg, &dec)))
		return rc;
	vta_error err = {0};
	vta_workload wl;
	if (vta_workload_load(o.workload, &wl, &err))
		return cli_report_error(&err);
	if (wl.is_model) {
		rc = run_workload_model(&o, &wl, &cfg, dec);
		vta_workload_free(&wl);
		return rc;
	}
	if ((rc = run_common_check_mode(&o.c, &cfg, o.mode,
					o.mode == VTA_ARITH_TFLITE ? "use --mode vta16"
								   : "use --mode tflite")) ||
	    (o.dump && (rc = run_common_dump_dir(o.dump)))) {
		vta_workload_free(&wl);
		return rc;
	}

	vtasim_sim *sim = NULL;
	vta_ref *ref = NULL;
	const int recorded = o.log || o.trace || o.vcd || o.timeline;
	run_observer ob = {.base = {.executed = recorded ? trace_layer : NULL,
				    .checked = o.dump ? dump_layer : NULL},
			   .cfg = &cfg, .dump = o.dump};
	vta_status st = o.c.use_ref ? vta_ref_create(&cfg, &ref, &err)
				  : vtasim_sim_create(&cfg, &sim, &err);
	vta_engine *engine = st ? NULL : o.c.use_ref ? vta_ref_engine(ref) : vtasim_engine(sim);
	if (!st && recorded) {
		char title[1024];
		snprintf(title, sizeof(title), "run %s", o.workload);
		st = trace_out_open(o.log, o.trace, &cfg, title, sim, &ob.tr, &err);
		if (!st && o.timeline)
			st = trace_out_set_timeline(ob.tr, o.timeline, o.from, o.to, &err);
	}
	vta_layer_result *results = calloc(wl.n_layers, sizeof(*results));
	vta_conv_plan_cache *plans = vta_conv_plan_cache_new(); /* repeated layers reuse plans */
	vta_stream_memo *memo = vta_stream_memo_new(&cfg); /* ... and their streams' checks */
	if (!st && (!results || !plans || !memo))
		st = vta_fail(&err, VTA_E_NOMEM, "out of memory");
	/* a layer whose content ran before reuses its golden output */
	vta_golden_cache gc;
	vta_golden_cache_memory(&gc);
	/* one DRAM for every layer and one for its second stream: their pages are mapped once */
	vta_dram dram = {0}, dram_spare = {0};
	if (!st)
		st = vta_dram_init(&dram, (uint64_t)cfg.dram_size_mib << 20, &err);
	if (!st)
		st = vta_dram_init(&dram_spare, (uint64_t)cfg.dram_size_mib << 20, &err);
	size_t done = 0;
	vta_status first_failure = VTA_OK;
	vta_error failure = {0};
	double t0 = vta_host_now();
	for (size_t i = 0; !st && i < wl.n_layers; i++) {
		if (o.vcd) {
			char path[4096];
			layer_vcd_path(o.vcd, i, wl.n_layers, path, sizeof(path));
			if ((st = trace_out_set_vcd(ob.tr, path, &err)))
				break;
		}
		vta_layer_run_opts lo = {.mode = o.mode, .threads = o.c.threads,
					 .fault_index = i == 0 ? o.fault_index : -1,
					 .keep_dram_image = o.dump != NULL, .observer = &ob.base,
					 .decompress = dec, .plans = plans, .memo = memo,
					 .golden_cache = &gc,
					 .skip_checks = o.c.no_checks, .strict = o.c.strict,
					 .dram = &dram, .dram_spare = &dram_spare,
					 .max_memory = o.c.max_memory};
		vta_error lerr = {0};
		vta_status ls = vta_layer_run(&cfg, &wl.layers[i], engine, &lo, &results[i], &lerr);
		if (results[i].checks_run &&
		    (rc = stream_check_show(&results[i].checks, ls, &lerr, results[i].name)))
			break;
		if (ls && ls != VTA_E_MISMATCH) {
			st = ls;
			err = lerr;
			break;
		}
		done = i + 1;
		if (ls && !first_failure) { /* a mismatch: report every layer, fail at the end */
			first_failure = ls;
			failure = lerr;
		}
	}
	double wall = vta_host_now() - t0;
	if (!st && !rc && done) {
		run_report rep = {.cfg = &cfg, .workload = o.workload, .mode = o.mode,
				  .threads = o.c.threads, .layers = results, .n_layers = done,
				  .wall_seconds = wall, .engine = engine->name,
				  .datapath = o.c.use_ref ? NULL : vta_datapath_name(cfg.datapath)};
		run_report_text(stdout, &rep);
		vta_error werr = {0};
		if (o.report && (report_path_is_csv(o.report)
					 ? run_report_write_csv(&rep, o.report, &werr)
					 : run_report_write_json(&rep, o.report, &werr)))
			rc = cli_report_error(&werr);
	}
	vta_error terr = {0};
	if (trace_out_close(ob.tr, &terr) && !st && !first_failure && !rc) {
		st = terr.status;
		err = terr;
	}
	free(results);
	vta_dram_free(&dram);
	vta_dram_free(&dram_spare);
	vta_conv_plan_cache_free(plans);
	vta_stream_memo_free(memo);
	vta_golden_cache_close(&gc);
	vtasim_sim_destroy(sim);
	vta_ref_destroy(ref);
	vta_workload_free(&wl);
	if (st)
		return cli_report_error(&err);
	if (first_failure && !rc)
		return cli_report_error(&failure);
	return rc;
}
