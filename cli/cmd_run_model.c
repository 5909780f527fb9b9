/*
 * cmd_run_model.c - `vtasim run -m MODEL.tflite`: a whole .tflite model, its accelerated ops
 * through the pipeline on the engine, the others on the host kernels, checked against the
 * same model run on the host alone (runtime/model_run.h). Inputs from .npy files or seeded
 * random; the model's output and every intermediate tensor can be written as .npy.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "model_report.h"
#include "model_run.h"
#include "npy.h"
#include "stream_check.h"
#include "vta_ref.h"
#include "vtasim_api.h"

#define MAX_INPUTS 16

const char cmd_run_model_usage[] =
	"run -c CONFIG -m MODEL.tflite [--input X.npy]... [--output Y.npy] [--dump DIR] "
	"[--seed N] [--host-ops conv2d,depthwise,fc,add] [-o REPORT.json] [--threads 1|2] "
	"[--engine sim|ref] [--decompress hw|host] [--strict] [--no-check-races] "
	"[--set KEY=VALUE]...";

typedef struct model_opts {
	const char *config, *model, *report, *output, *dump, *decompress;
	const char *inputs[MAX_INPUTS];
	size_t n_inputs;
	unsigned threads, host_classes;
	uint64_t seed;
	int use_ref;
	int strict, no_checks; /* the stream checks: warnings fail, or no checks at all */
	cli_sets sets;
} model_opts;

static int parse_opts(int argc, char **argv, model_opts *o)
{
	static const struct option opts[] = {
		{"config", required_argument, 0, 'c'}, {"model", required_argument, 0, 'm'},
		{"output", required_argument, 0, 'O'}, {"input", required_argument, 0, 'i'},
		{"dump", required_argument, 0, 'd'}, {"seed", required_argument, 0, 's'},
		{"host-ops", required_argument, 0, 'H'}, {"threads", required_argument, 0, 't'},
		{"engine", required_argument, 0, 'e'}, {"decompress", required_argument, 0, 'D'},
		{"set", required_argument, 0, 'S'}, {"mode", required_argument, 0, 'M'},
		{"strict", no_argument, 0, 'X'}, {"no-check-races", no_argument, 0, 'N'},
		{0, 0, 0, 0}};
	memset(o, 0, sizeof(*o));
	o->threads = 2;
	o->seed = 1;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "c:m:o:", opts, NULL)) != -1) {
		switch (c) {
		case 'c': o->config = optarg; break;
		case 'm': o->model = optarg; break;
		case 'o': o->report = optarg; break;
		case 'O': o->output = optarg; break;
		case 'd': o->dump = optarg; break;
		case 'i':
			if (o->n_inputs == MAX_INPUTS)
				return cli_usage_error("more than %d --input files", MAX_INPUTS);
			o->inputs[o->n_inputs++] = optarg;
			break;
		case 's': {
			char *end;
			errno = 0;
			o->seed = strtoull(optarg, &end, 10);
			if (*end || end == optarg || errno)
				return cli_usage_error("--seed '%s': expected a number", optarg);
			break;
		}
		case 'H': {
			vta_error err = {0};
			if (vta_model_host_classes(optarg, &o->host_classes, &err))
				return cli_usage_error("--host-ops: %s", err.detail);
			break;
		}
		case 'M':
			if (strcmp(optarg, "tflite"))
				return cli_usage_error("--mode '%s': a model runs in TFLite's "
						       "arithmetic only (--mode tflite): the model's "
						       "reference is TFLite's int8 kernels", optarg);
			break;
		case 't':
			if (strcmp(optarg, "1") && strcmp(optarg, "2"))
				return cli_usage_error("--threads '%s': expected 1 or 2", optarg);
			o->threads = (unsigned)(optarg[0] - '0');
			break;
		case 'D':
			if (strcmp(optarg, "hw") && strcmp(optarg, "host"))
				return cli_usage_error("--decompress '%s': expected hw or host",
						       optarg);
			o->decompress = optarg;
			break;
		case 'e':
			if (!strcmp(optarg, "ref"))
				o->use_ref = 1;
			else if (strcmp(optarg, "sim"))
				return cli_usage_error("--engine '%s': expected sim or ref", optarg);
			break;
		case 'X': o->strict = 1; break;
		case 'N': o->no_checks = 1; break;
		case 'S': {
			int rc = cli_sets_add(&o->sets, optarg);
			if (rc)
				return rc;
			break;
		}
		default: return cli_usage_error("usage: vtasim %s", cmd_run_model_usage);
		}
	}
	if (optind != argc || !o->config || !o->model)
		return cli_usage_error("usage: vtasim %s", cmd_run_model_usage);
	return 0;
}

static vta_npy_dtype npy_dtype(vta_tfl_type t, bool *ok)
{
	*ok = true;
	switch (t) {
	case VTA_TFL_INT8: return VTA_NPY_I8;
	case VTA_TFL_UINT8: return VTA_NPY_U8;
	case VTA_TFL_INT32: return VTA_NPY_I32;
	case VTA_TFL_FLOAT32: return VTA_NPY_F32;
	default: *ok = false; return VTA_NPY_I8;
	}
}

/* An --input file for model input i: its dtype and shape must be the tensor's. */
static vta_status read_input(const vta_tfl_model *m, size_t i, const char *path, vta_npy *npy,
			     vta_error *err)
{
	const vta_tfl_tensor *t = &m->tensors[m->inputs[i]];
	bool ok;
	vta_npy_dtype want = npy_dtype(t->type, &ok);
	vta_status st = vta_npy_read(path, npy, err);
	if (st)
		return st;
	bool same = ok && npy->dtype == want && npy->rank == t->rank;
	for (int d = 0; same && d < t->rank; d++)
		same = npy->shape[d] == (size_t)t->shape[d];
	if (same)
		return VTA_OK;
	char want_s[128] = "", got_s[128] = "";
	for (int d = 0; d < t->rank; d++)
		snprintf(want_s + strlen(want_s), sizeof(want_s) - strlen(want_s), "%s%d",
			 d ? "," : "", t->shape[d]);
	for (int d = 0; d < npy->rank; d++)
		snprintf(got_s + strlen(got_s), sizeof(got_s) - strlen(got_s), "%s%zu",
			 d ? "," : "", npy->shape[d]);
	return vta_fail(err, VTA_E_USAGE,
			"%s: shape [%s] of %zu-byte elements, but model input %zu (tensor %d '%s') "
			"is %s [%s]", path, got_s, vta_npy_dtype_size(npy->dtype), i, m->inputs[i],
			t->name, vta_tfl_type_name(t->type), want_s);
}

static vta_status write_tensor(const vta_tfl_model *m, int32_t idx, const void *v,
			       const char *path, vta_error *err)
{
	const vta_tfl_tensor *t = &m->tensors[idx];
	bool ok;
	vta_npy_dtype dt = npy_dtype(t->type, &ok);
	if (!ok)
		return vta_fail(err, VTA_E_UNSUPPORTED, "tensor %d: no .npy type for %s", idx,
				vta_tfl_type_name(t->type));
	size_t shape[VTA_TFL_MAX_RANK];
	for (int d = 0; d < t->rank; d++)
		shape[d] = (size_t)t->shape[d];
	return vta_npy_write(path, dt, t->rank, shape, v, err);
}

/* --output and --dump. */
static vta_status write_files(const model_opts *o, const vta_tfl_model *m,
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

int cmd_run_model(int argc, char **argv)
{
	model_opts o;
	int rc = parse_opts(argc, argv, &o);
	if (rc)
		return rc;
	vta_config cfg;
	if ((rc = cli_load_config(o.config, &o.sets, &cfg)))
		return rc;
	vta_decompress dec = cfg.decomp_enabled ? VTA_DECOMPRESS_HW : VTA_DECOMPRESS_HOST;
	if (o.decompress && !strcmp(o.decompress, "host"))
		dec = VTA_DECOMPRESS_HOST;
	else if (o.decompress && !cfg.decomp_enabled)
		return cli_usage_error("--decompress hw: the config %s has no LUT decoder "
				       "(decompressor.enabled is false)", o.config);
	if (o.dump && mkdir(o.dump, 0777) != 0) {
		struct stat sb;
		if (stat(o.dump, &sb) != 0 || !S_ISDIR(sb.st_mode))
			return cli_usage_error("--dump %s: cannot create the folder", o.dump);
	}
	vta_error err = {0};
	vta_tfl_model m;
	if (vta_tfl_model_load(o.model, &m, &err)) {
		vta_tfl_model_free(&m);
		return cli_report_error(&err);
	}
	vta_npy npys[MAX_INPUTS];
	const void *inputs[MAX_INPUTS];
	memset(npys, 0, sizeof(npys));
	vta_status st = VTA_OK;
	if (o.n_inputs && o.n_inputs != m.n_inputs)
		st = vta_fail(&err, VTA_E_USAGE, "%zu --input files for the %zu inputs of %s",
			      o.n_inputs, m.n_inputs, o.model);
	for (size_t i = 0; !st && i < o.n_inputs; i++) {
		st = read_input(&m, i, o.inputs[i], &npys[i], &err);
		inputs[i] = npys[i].data;
	}
	vtasim_sim *sim = NULL;
	vta_ref *ref = NULL;
	if (!st)
		st = o.use_ref ? vta_ref_create(&cfg, &ref, &err) : vtasim_sim_create(&cfg, &sim, &err);
	vta_model_run run;
	memset(&run, 0, sizeof(run));
	if (!st) {
		vta_engine *engine = o.use_ref ? vta_ref_engine(ref) : vtasim_engine(sim);
		vta_model_run_opts mo = {.layer = {.mode = VTA_ARITH_TFLITE, .threads = o.threads,
						   .fault_index = -1, .decompress = dec,
						   .skip_checks = o.no_checks, .strict = o.strict},
					 .host_classes = o.host_classes, .seed = o.seed,
					 .inputs = o.n_inputs ? inputs : NULL,
					 .n_inputs = o.n_inputs};
		double t0 = cli_now_seconds();
		st = vta_model_run_model(&cfg, &m, engine, &mo, &run, &err);
		double wall = cli_now_seconds() - t0;
		/* the stream checks' warnings of the accelerated operators (a failed check is the
		 * run's error) */
		for (size_t i = 0; i < run.n_ops; i++)
			if (run.ops[i].place == VTA_OP_ACCEL && run.ops[i].layer.checks_run)
				stream_check_show(&run.ops[i].layer.checks, VTA_OK, NULL,
						  run.ops[i].layer.name);
		if ((!st || st == VTA_E_MISMATCH) && run.n_ops) {
			model_report rep = {&cfg, o.model, &run, o.threads, engine->name,
					    vta_decompress_name(dec), wall};
			model_report_text(stdout, &rep);
			if (o.report)
				rc = model_report_write_json(&rep, o.report);
		}
		vta_error ferr = {0};
		if (!st && write_files(&o, &m, &run, &ferr)) {
			st = ferr.status;
			err = ferr;
		}
	}
	vta_model_run_free(&run);
	for (size_t i = 0; i < o.n_inputs; i++)
		vta_npy_free(&npys[i]);
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
