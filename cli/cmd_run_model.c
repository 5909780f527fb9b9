/*
 * cmd_run_model.c - `vtasim run -m MODEL.tflite`: a whole .tflite model, its accelerated ops
 * through the pipeline on the engine, the others on the host kernels, checked against the
 * same model run on the host alone (runtime/model/model_run.h). Inputs from .npy files or seeded
 * random; the model's output and every intermediate tensor can be written as .npy.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "model_expect.h"
#include "model_inputs.h"
#include "model_job.h"
#include "model_report.h"
#include "report_table.h"
#include "model_run.h"
#include "npy.h"
#include "op_registry.h"
#include "run_common.h"
#include "stream_check.h"
#include "stream_memo.h"
#include "trace_out.h"
#include "vta_ref.h"
#include "vta_rules.h" /* vta_host_now */
#include "vta_text.h"
#include "vtasim_api.h"

#define MAX_INPUTS VTA_MODEL_MAX_INPUTS

const char cmd_run_model_usage[] =
	"run -c CONFIG -m MODEL.tflite [--input X.npy]... [--output Y.npy] [--dump DIR] "
	"[--expect DIR] "
	"[--seed N] [--host-ops conv2d,depthwise,fc,add] [--host-staging] [-o REPORT.json] "
	"[--threads 1|2] [--max-memory SIZE] "
	"[--engine sim|ref] [--decompress hw|host] [--strict] [--no-check-races] "
	"[--log L.txt] [--trace T.json] [--vcd W.vcd] [--timeline T.svg|T.png] "
	"[--timeline-window A:B] [--set KEY=VALUE]...";

const cli_opt cmd_run_model_opts[] = {
	RUN_COMMON_OPTIONS,
	{"model", 'm', 'm', "MODEL.tflite", "the .tflite model (docs/models.md)"},
	{NULL, 'o', 'o', "REPORT.json", "write the report as JSON, or as a CSV table of the operators when the name ends in .csv"},
	{"input", 0, 'i', "X.npy", "one per model input, in order; default seeded random values"},
	{"seed", 0, 's', "N", "the seed of random inputs (default 1)"},
	{"output", 0, 'O', "Y.npy", "write the model's (first) output"},
	{"dump", 0, 'd', "DIR", "write every computed tensor as DIR/tensor_<index>.npy"},
	{"expect", 0, 'E', "DIR", "compare every operator output with DIR/tensor_<index>.npy"},
	{"host-ops", 0, 'H', "CLASSES", "run these op classes on the host: conv2d,depthwise,fc,add"},
	{"host-staging", 0, 'G', NULL, "the host stages every accelerated op's input and output"},
	{"mode", 0, 'M', "tflite", "the only arithmetic of a model"},
	{"log", 0, 'L', "L.txt", "the per-instruction log of every accelerated op"},
	{"trace", 0, 'T', "T.json", "the timeline as Chrome trace events (ui.perfetto.dev)"},
	{"vcd", 0, 'V', "W.vcd", "a waveform per accelerated op (W.<op>.vcd)"},
	{"timeline", 0, 'Q', "T.svg|T.png", "the timeline as a picture: lanes, token arrows, tracks"},
	{"timeline-window", 0, 'W', "A:B", "draw cycles [A, B) only (with --timeline)"},
	CLI_OPT_END};

typedef struct model_opts {
	run_common c;
	model_job j;
	const char *inputs[MAX_INPUTS];
} model_opts;

static int parse_opts(int argc, char **argv, model_opts *o)
{
	cli_getopt g;
	cli_getopt_make(cmd_run_model_opts, &g);
	memset(o, 0, sizeof(*o));
	run_common_init(&o->c);
	model_job *j = &o->j;
	j->c = &o->c;
	j->inputs = o->inputs;
	j->seed = 1;
	const char *window = NULL;
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
		case 'm': j->model = optarg; break;
		case 'o': j->report = optarg; break;
		case 'O': j->output = optarg; break;
		case 'd': j->dump = optarg; break;
		case 'E': j->expect = optarg; break;
		case 'L': j->log = optarg; break;
		case 'T': j->trace = optarg; break;
		case 'V': j->vcd = optarg; break;
		case 'G': j->host_staging = true; break;
		case 'Q': j->timeline = optarg; break;
		case 'W': window = optarg; break;
		case 'i':
			if (j->n_inputs == MAX_INPUTS)
				return cli_usage_error("more than %d --input files", MAX_INPUTS);
			o->inputs[j->n_inputs++] = optarg;
			break;
		case 's': {
			char *end;
			errno = 0;
			j->seed = strtoull(optarg, &end, 10);
			if (*end || end == optarg || errno)
				return cli_usage_error("--seed '%s': expected a number",
						       VTA_Q(optarg));
			break;
		}
		case 'H': {
			vta_error err = {0};
			if (vta_model_host_classes(optarg, &j->host_classes, &err))
				return cli_usage_error("--host-ops: %s", err.detail);
			break;
		}
		case 'M':
			if (strcmp(optarg, "tflite"))
				return cli_usage_error("--mode '%s': a model runs in TFLite's "
						       "arithmetic only (--mode tflite): the model's "
						       "reference is TFLite's int8 kernels",
						       VTA_Q(optarg));
			break;
		default: return cli_bad_option(c, argv);
		}
	}
	if (optind != argc)
		return cli_unexpected("run", argv[optind]);
	if (!o->c.config)
		return cli_missing("run", "config", "-c CONFIG");
	if (!j->model)
		return cli_missing("run", "model", "-m MODEL.tflite");
	return cli_timeline_options(j->timeline, window, o->c.use_ref ? 2 : 0, &j->timeline_from,
				    &j->timeline_to);
}

static vta_status write_tensor(const vta_tfl_model *m, int32_t idx, const void *v,
			       const char *path, vta_error *err)
{
	const vta_tfl_tensor *t = &m->tensors[idx];
	bool ok;
	vta_npy_dtype dt = vta_model_npy_dtype(t->type, &ok);
	if (!ok)
		return vta_fail(err, VTA_E_UNSUPPORTED, "tensor %d: no .npy type for %s", idx,
				vta_tfl_type_name(t->type));
	size_t shape[VTA_TFL_MAX_RANK];
	for (int d = 0; d < t->rank; d++)
		shape[d] = (size_t)t->shape[d];
	return vta_npy_write(path, dt, t->rank, shape, v, err);
}

/* --output and --dump. */
static vta_status write_files(const model_job *o, const vta_tfl_model *m,
			      const vta_model_run *run, vta_error *err)
{
	vta_status st = VTA_OK;
	if (o->output && m->n_outputs && run->values[m->outputs[0]])
		st = write_tensor(m, m->outputs[0], run->values[m->outputs[0]], o->output, err);
	for (size_t i = 0; !st && o->dump && i < run->n_tensors; i++) {
		if (!run->values[i])
			continue;
		char path[4096];
		snprintf(path, sizeof(path), "%s/tensor_%zu.npy", o->dump, i);
		st = write_tensor(m, (int32_t)i, run->values[i], path, err);
	}
	return st;
}

/* What the CLI adds to the run: with --log/--trace/--vcd, every accelerated op's records of
 * the timed model go to `tr` (named by operator index and name, one waveform each) and
 * every host op is an entry between them; with --dump, every tensor at the end. */
typedef struct model_observer model_observer;

/* The accelerated ops' runs, as the pipeline reports them. */
typedef struct layer_hook {
	vta_layer_observer base;   /* first: the pipeline hands it back */
	model_observer *ob;
} layer_hook;

struct model_observer {
	vta_model_observer base;   /* first: the run hands it back */
	layer_hook layer;
	const model_job *j;
	trace_out *tr;
	char name[64];             /* the op in flight: "op 3 CONV_2D" */
};

static vta_status op_begin(vta_model_observer *self, const vta_model_op_result *r,
			   vta_error *err)
{
	model_observer *ob = (model_observer *)self;
	snprintf(ob->name, sizeof(ob->name), "op %zu %s", r->index, r->name);
	if (!ob->j->vcd || r->skipped || r->place != VTA_OP_ACCEL)
		return VTA_OK;
	char path[4096];
	run_common_part_path(ob->j->vcd, r->index, path, sizeof(path));
	return trace_out_set_vcd(ob->tr, path, err);
}

/* --vcd W writes W.N.vcd per accelerated operator and no W: say so, once, naming them. */
static void note_waveforms(const char *vcd, const vta_model_run *run)
{
	size_t n = 0, first = 0, last = 0;
	for (size_t i = 0; i < run->n_ops; i++) {
		const vta_model_op_result *r = &run->ops[i];
		if (r->skipped || r->place != VTA_OP_ACCEL || !r->layer.name[0])
			continue;
		if (!n++)
			first = r->index;
		last = r->index;
	}
	if (!n)
		return;
	char a[4096], b[4096];
	run_common_part_path(vcd, first, a, sizeof(a));
	run_common_part_path(vcd, last, b, sizeof(b));
	if (n == 1)
		cli_note("--vcd: the one accelerated operator's waveform is %s (not %s)", a, vcd);
	else
		cli_note("--vcd: one waveform per accelerated operator, %zu files %s ... %s, numbered "
			 "by operator index (no %s)", n, a, b, vcd);
}

static vta_status op_end(vta_model_observer *self, const vta_model_op_result *r,
			 vta_error *err)
{
	model_observer *ob = (model_observer *)self;
	if (r->skipped || r->place != VTA_OP_HOST)
		return VTA_OK;
	char name[80];
	snprintf(name, sizeof(name), "%s (host)", ob->name);
	return trace_out_host(ob->tr, name, r->host_seconds, err);
}

static vta_status op_executed(vta_layer_observer *self, const vta_layer_view *v,
			      vta_status run_status, const vta_error *run_err, vta_error *err)
{
	model_observer *ob = ((layer_hook *)self)->ob;
	return trace_out_add(ob->tr, ob->name, &v->stream->prog, &v->result->stats,
			     run_status ? run_err : NULL, err);
}

int model_job_run(const model_job *j, const vta_config *cfg, vta_decompress dec)
{
	const run_common *c = j->c;
	int rc = 0;
	if ((j->log || j->trace || j->vcd) && c->use_ref)
		return cli_usage_error("--log, --trace and --vcd record the timed model: they "
				       "need --engine sim");
	/* a model runs in tflite mode; with every accelerated op class on the host, the ALU
	 * does no requantization */
	const unsigned all = vta_op_class_all();
	char classes[128], hint[192];
	snprintf(hint, sizeof(hint), "run every op class on the host (--host-ops %s)",
		 vta_op_list(VTA_OP_NAMES_CLASSES, ",", ",", NULL, classes, sizeof(classes)));
	if ((j->host_classes & all) != all &&
	    (rc = run_common_check_mode(c, cfg, VTA_ARITH_TFLITE, hint)))
		return rc;
	if (j->dump && (rc = run_common_dump_dir(j->dump)))
		return rc;
	struct stat sb;
	if (j->expect && (stat(j->expect, &sb) != 0 || !S_ISDIR(sb.st_mode)))
		return cli_usage_error("--expect %s: not a folder", VTA_QPATH(j->expect));
	vta_error err = {0};
	vta_tfl_model m;
	const double r0 = vta_host_now();
	if (vta_tfl_model_load(j->model, &m, &err)) {
		vta_tfl_model_free(&m);
		return cli_report_error(&err);
	}
	vta_npy npys[MAX_INPUTS];
	const void *inputs[MAX_INPUTS];
	vta_status st = vta_model_inputs_read(&m, j->inputs, j->n_inputs, npys, inputs, &err);
	const double read_seconds = vta_host_now() - r0;
	vtasim_sim *sim = NULL;
	vta_ref *ref = NULL;
	if (!st)
		st = c->use_ref ? vta_ref_create(cfg, &ref, &err) : vtasim_sim_create(cfg, &sim, &err);
	const int recorded = j->log || j->trace || j->vcd || j->timeline;
	model_observer ob = {.base = {op_begin, op_end}, .j = j};
	ob.layer = (layer_hook){.base = {.executed = op_executed}, .ob = &ob};
	if (!st && recorded)
		st = trace_out_open(j->log, j->trace, cfg, j->title ? j->title : j->model, sim,
				    &ob.tr, &err);
	if (!st && recorded && j->timeline)
		st = trace_out_set_timeline(ob.tr, j->timeline, j->timeline_from, j->timeline_to,
					    &err);
	vta_model_run run;
	memset(&run, 0, sizeof(run));
	vta_conv_plan_cache *plans = vta_conv_plan_cache_new(); /* repeated layers reuse plans */
	vta_stream_memo *memo = vta_stream_memo_new(cfg); /* ... and their streams' checks */
	if (!st && (!plans || !memo))
		st = vta_fail(&err, VTA_E_NOMEM, "out of memory");
	/* one for every operator and one for its second stream: their pages are mapped once */
	vta_dram dram = {0}, dram_spare = {0};
	if (!st)
		st = vta_dram_init(&dram, (uint64_t)cfg->dram_size_mib << 20, &err);
	if (!st)
		st = vta_dram_init(&dram_spare, (uint64_t)cfg->dram_size_mib << 20, &err);
	if (!st) {
		vta_engine *engine = c->use_ref ? vta_ref_engine(ref) : vtasim_engine(sim);
		vta_model_run_opts mo = {.layer = {.mode = VTA_ARITH_TFLITE, .threads = c->threads,
						   .fault_index = -1, .decompress = dec,
						   .plans = plans, .memo = memo,
						   .skip_checks = c->no_checks,
						   .strict = c->strict, .dram = &dram,
						   .dram_spare = &dram_spare,
						   .max_memory = c->max_memory,
						   .observer = recorded ? &ob.layer.base : NULL},
					 .host_classes = j->host_classes, .seed = j->seed,
					 .inputs = j->n_inputs ? inputs : NULL,
					 .n_inputs = j->n_inputs,
					 .observer = recorded ? &ob.base : NULL,
					 .host_staging = j->host_staging,
					 .copy_out_all = j->dump != NULL,
					 /* --expect compares every op output */
					 .free_intermediates = !j->expect};
		double t0 = vta_host_now();
		st = vta_model_run_model(cfg, &m, engine, &mo, &run, &err);
		double wall = vta_host_now() - t0;
		/* held to reference tensors too: the report says which op outputs they cover */
		if ((!st || st == VTA_E_MISMATCH) && run.n_ops && j->expect) {
			vta_error eerr = {0};
			vta_status es = vta_model_expect_check(&m, &run, j->expect, &eerr);
			if (es && (!st || es != VTA_E_MISMATCH)) {
				st = es;
				err = eerr;
			}
		}
		/* the stream checks' warnings of the accelerated operators (a failed check is the
		 * run's error) */
		for (size_t i = 0; i < run.n_ops; i++)
			if (run.ops[i].place == VTA_OP_ACCEL && run.ops[i].layer.checks_run)
				stream_check_show(&run.ops[i].layer.checks, VTA_OK, NULL,
						  run.ops[i].layer.name);
		if ((!st || st == VTA_E_MISMATCH) && run.n_ops) {
			model_report rep = {cfg, j->model, &run, c->threads, engine->name,
					    vta_decompress_name(dec), wall, read_seconds};
			model_report_text(stdout, &rep);
			vta_error werr = {0};
			if (j->report && (report_path_is_csv(j->report)
						  ? model_report_write_csv(&rep, j->report, &werr)
						  : model_report_write_json(&rep, j->report, &werr)))
				rc = cli_report_error(&werr);
		}
		vta_error ferr = {0};
		if (!st && write_files(j, &m, &run, &ferr)) {
			st = ferr.status;
			err = ferr;
		}
	}
	vta_error terr = {0};
	if (trace_out_close(ob.tr, &terr) && !st && !rc) {
		st = terr.status;
		err = terr;
	}
	if (j->vcd)
		note_waveforms(j->vcd, &run);
	vta_model_run_free(&run);
	vta_conv_plan_cache_free(plans);
	vta_stream_memo_free(memo);
	vta_dram_free(&dram);
	vta_dram_free(&dram_spare);
	vta_model_inputs_free(npys, j->n_inputs);
	vtasim_sim_destroy(sim);
	vta_ref_destroy(ref);
	vta_tfl_model_free(&m);
	if (st == VTA_E_UNSUPPORTED) {
		/* a model with an op nothing runs is bad input, not a simulation problem */
		cli_report_error(&err);
		return 2;
	}
	if (st)
		return cli_report_error(&err);
	return rc;
}

int cmd_run_model(int argc, char **argv)
{
	model_opts o;
	int rc = parse_opts(argc, argv, &o);
	if (rc)
		return CLI_EXIT(rc);
	vta_config cfg;
	vta_decompress dec;
	if ((rc = run_common_config(&o.c, &cfg, &dec)))
		return rc;
	char title[4200];
	snprintf(title, sizeof(title), "run -m %s", o.j.model);
	o.j.title = title;
	return model_job_run(&o.j, &cfg, dec);
}
