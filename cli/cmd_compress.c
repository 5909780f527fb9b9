/*
 * cmd_compress.c - `vtasim compress MODEL.tflite [SPEC.yaml] -o OUT.tflite`: LUT-compress the
 * constants a TFLM compression spec names, or that --filters selects by operator type
 * (runtime/tflite/tflite_compress.h), binning those with too many values, and report what
 * each tensor became, the bytes saved and, with --report-on, how far the outputs moved
 * (compress_drift.h). docs/cli.md lists the options and shows the report.
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "compress_drift.h"
#include "model_inputs.h"
#include "tflite_compress.h"
#include "vta_program.h" /* vta_write_file */
#include "vta_text.h"

static void put_saving(const char *what, size_t before, size_t after)
{
	double pct = before ? 100.0 * ((double)before - (double)after) / (double)before : 0.0;
	if (after <= before)
		printf("%s %zu B -> %zu B: %zu B saved (%.1f%%)\n", what, before, after,
		       before - after, pct);
	else
		printf("%s %zu B -> %zu B: %zu B more (%.1f%%)\n", what, before, after,
		       after - before, -pct);
}

static void print_report(const vta_tfl_model *m, const vta_tfl_compress_report *r,
			 const vta_tfl_compress_options *o, const char *out)
{
	printf("compressed ");
	cli_put_text(m->name);
	printf(" into ");
	cli_put_text(out);
	printf(" (%s container)\n",
	       o->container == VTA_TFL_METADATA ? "COMPRESSION_METADATA" : "TFLM_DECODE");
	size_t plain = 0, packed = 0;
	for (size_t i = 0; i < r->n; i++) {
		const vta_tfl_compressed *c = &r->tensors[i];
		const vta_tfl_tensor *t = &m->tensors[c->tensor];
		printf("  tensor %u", c->tensor);
		if (t->name[0]) {
			printf(" '");
			cli_put_text(t->name);
			printf("'");
		}
		printf(" %s: %u-bit, %zu table%s of %zu%s: %zu B -> %zu B indices + %zu B tables",
		       vta_tfl_type_name(t->type), c->bitwidth, c->channels,
		       c->channels == 1 ? "" : "s", c->stride,
		       c->channels > 1 ? (c->axis_last ? " (last axis)" : " (axis 0)") : "",
		       c->plain_bytes, c->index_bytes, c->table_bytes);
		if (o->container == VTA_TFL_DECODE)
			printf(", %zu DECODE", c->copies);
		if (c->index_bytes + c->table_bytes > c->plain_bytes)
			printf(" (%zu B larger than plain)",
			       c->index_bytes + c->table_bytes - c->plain_bytes);
		printf("\n");
		if (c->binned)
			printf("    binned %s%zu -> %zu values per channel at most: %zu elements "
			       "changed, max error %g, rms %g\n",
			       c->max_unique > VTA_LUT_MAX_STRIDE ? "over " : "",
			       c->max_unique > VTA_LUT_MAX_STRIDE ? (size_t)VTA_LUT_MAX_STRIDE
								  : c->max_unique,
			       c->bin.max_values, c->bin.changed, c->bin.max_abs_error,
			       c->bin.rms_error);
		plain += c->plain_bytes;
		packed += c->index_bytes + c->table_bytes;
	}
	put_saving("constants", plain, packed);
	put_saving("file", r->in_bytes, r->out_bytes);
}

const char cmd_compress_usage[] =
	"compress MODEL.tflite [SPEC.yaml] -o OUT.tflite [--filters BITS [--min-elements N]] "
	"[--report-on INPUT.npy]... [--container decode|metadata] "
	"[--binning kmeans|quantile|none] [--stride pow2|unique]";

/* What --filters stands for, as it appears in messages. */
static const char filters_origin[] = "--filters";

/* A whole number in [min, max] from an option's argument, else a usage error. */
static int parse_count(const char *opt, const char *arg, unsigned long min, unsigned long max,
		       const char *what, unsigned long *out)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(arg, &end, 10);
	if (end == arg || *end || errno || arg[0] == '-' || v < min || v > max)
		return cli_usage_error("%s '%s': expected %s %lu..%lu", opt, VTA_Q(arg), what, min,
				       max);
	*out = v;
	return 0;
}

/* The model just written, read back and held to the original on the inputs. */
static vta_status report_drift(const vta_tfl_model *m, const uint8_t *image, size_t bytes,
			       const char *out, const char *const *inputs, size_t n,
			       size_t *differing, vta_error *err)
{
	uint8_t *copy = malloc(bytes ? bytes : 1);
	if (!copy)
		return vta_fail(err, VTA_E_NOMEM, "out of memory");
	memcpy(copy, image, bytes);
	vta_tfl_model packed;
	vta_status st = vta_tfl_model_parse(copy, bytes, out, &packed, err);
	if (!st)
		st = compress_drift(m, &packed, inputs, n, differing, err);
	vta_tfl_model_free(&packed);
	return st;
}

const cli_opt cmd_compress_opts[] = {
	{"output", 'o', 'o', "OUT.tflite", "the compressed model (required)"},
	{"container", 0, 'C', "decode|metadata", "TFLM_DECODE operators (default) or COMPRESSION_METADATA"},
	{"binning", 0, 'B', "kmeans|quantile|none", "how a channel with too many values is reduced; default kmeans"},
	{"stride", 0, 'S', "pow2|unique", "value tables padded to 2^width (default) or the largest channel's count"},
	{"filters", 0, 'F', "BITS", "compress every CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED filter"},
	{"min-elements", 0, 'M', "N", "with --filters: only filters of at least N elements"},
	{"report-on", 0, 'R', "INPUT.npy", "run both models on the input: how far the outputs move"},
	CLI_OPT_END};

int cmd_compress(int argc, char **argv)
{
	cli_getopt g;
	cli_getopt_make(cmd_compress_opts, &g);
	vta_tfl_compress_options o;
	vta_tfl_compress_defaults(&o);
	const char *out = NULL;
	const char *report_on[VTA_MODEL_MAX_INPUTS];
	size_t n_report_on = 0;
	unsigned long filter_bits = 0, min_elements = 0;
	int has_min = 0;
	int c;
	if (cli_help_asked(argc, argv, g.shortopts, g.longopts))
		return CLI_EXIT(cli_command_help(argv[0]));
	optind = 1;
	while ((c = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'C':
			if (!strcmp(optarg, "decode"))
				o.container = VTA_TFL_DECODE;
			else if (!strcmp(optarg, "metadata"))
				o.container = VTA_TFL_METADATA;
			else
				return cli_usage_error("--container '%s': expected decode or metadata",
						       VTA_Q(optarg));
			break;
		case 'B':
			o.bin = strcmp(optarg, "none") != 0;
			if (!strcmp(optarg, "kmeans"))
				o.method = VTA_LUT_BIN_KMEANS;
			else if (!strcmp(optarg, "quantile"))
				o.method = VTA_LUT_BIN_QUANTILE;
			else if (o.bin)
				return cli_usage_error(
					"--binning '%s': expected kmeans, quantile or none",
					VTA_Q(optarg));
			break;
		case 'S':
			if (!strcmp(optarg, "pow2"))
				o.stride = VTA_LUT_STRIDE_POW2;
			else if (!strcmp(optarg, "unique"))
				o.stride = VTA_LUT_STRIDE_MAX_UNIQUE;
			else
				return cli_usage_error("--stride '%s': expected pow2 or unique",
						       VTA_Q(optarg));
			break;
		case 'F': {
			int rc = parse_count("--filters", optarg, 1, VTA_LUT_MAX_BITWIDTH,
					     "an index width", &filter_bits);
			if (rc)
				return CLI_EXIT(rc);
			break;
		}
		case 'M': {
			int rc = parse_count("--min-elements", optarg, 0, UINT32_MAX,
					     "a number of elements", &min_elements);
			if (rc)
				return CLI_EXIT(rc);
			has_min = 1;
			break;
		}
		case 'R':
			if (n_report_on == VTA_MODEL_MAX_INPUTS)
				return cli_usage_error("more than %d --report-on files",
						       VTA_MODEL_MAX_INPUTS);
			report_on[n_report_on++] = optarg;
			break;
		default: return cli_bad_option(c, argv);
		}
	}
	const int n_args = argc - optind;
	if (n_args > 2)
		return cli_unexpected("compress", argv[optind + 2]);
	if (n_args < 1)
		return cli_missing("compress", "model", "MODEL.tflite [SPEC.yaml]");
	if (n_args < 2 && !filter_bits)
		return cli_missing("compress", "spec", "SPEC.yaml after the model, or --filters BITS");
	if (!out)
		return cli_missing("compress", "output", "-o OUT.tflite");
	if (has_min && !filter_bits)
		return cli_usage_error("--min-elements selects among --filters: give --filters BITS");
	const char *model_path = argv[optind], *spec_path = n_args == 2 ? argv[optind + 1] : NULL;
	vta_error err = {0};
	vta_tfl_model m;
	vta_lut_spec spec = {0};
	vta_tfl_compress_report rep = {0};
	uint8_t *image = NULL;
	size_t bytes = 0, differing = 0;
	vta_status st = vta_tfl_model_load(model_path, &m, &err);
	if (st == VTA_OK && n_report_on) { /* a bad input file stops before anything is written */
		vta_npy npys[VTA_MODEL_MAX_INPUTS];
		const void *data[VTA_MODEL_MAX_INPUTS];
		st = vta_model_inputs_read(&m, report_on, n_report_on, npys, data, &err);
		vta_model_inputs_free(npys, n_report_on);
	}
	if (st == VTA_OK && spec_path)
		st = vta_lut_spec_load(spec_path, &spec, &err);
	/* --filters: a selector per operator type with a filter, after the file's entries */
	for (int k = VTA_LUT_FILTERS_NONE + 1; st == VTA_OK && filter_bits &&
					       k < VTA_LUT_FILTERS_COUNT; k++)
		st = vta_lut_spec_add_selector(&spec, (vta_lut_filter_op)k, (uint32_t)min_elements,
					       (unsigned)filter_bits, filters_origin, &err);
	if (st == VTA_OK)
		st = vta_tfl_compress(&m, &spec, spec_path ? spec_path : filters_origin, &o, &image,
				      &bytes, &rep, &err);
	if (st == VTA_OK)
		st = vta_write_file(out, image, bytes, &err);
	int rc = 0;
	if (st == VTA_OK)
		print_report(&m, &rep, &o, out);
	if (st == VTA_OK && n_report_on) {
		fflush(stdout);
		st = report_drift(&m, image, bytes, out, report_on, n_report_on, &differing, &err);
	}
	if (st == VTA_E_UNSUPPORTED) {
		/* a model with an op the host kernels lack is bad input, as for `run -m` */
		cli_report_error(&err);
		rc = 2;
	} else if (st != VTA_OK) {
		rc = cli_report_error(&err);
	}
	free(image);
	vta_tfl_compress_report_free(&rep);
	vta_lut_spec_free(&spec);
	vta_tfl_model_free(&m);
	return rc;
}
