/*
 * cmd_compress.c - `vtasim compress MODEL.tflite SPEC.yaml -o OUT.tflite`: LUT-compress the
 * constants a TFLM compression spec names (runtime/tflite/tflite_compress.h), binning those with
 * too many values, and report what each tensor became and the bytes saved. docs/cli.md
 * lists the options and shows the report.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
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
	"compress MODEL.tflite SPEC.yaml -o OUT.tflite [--container decode|metadata] "
	"[--binning kmeans|quantile|none] [--stride pow2|unique]";

const cli_opt cmd_compress_opts[] = {
	{"output", 'o', 'o', "OUT.tflite", "the compressed model (required)"},
	{"container", 0, 'C', "decode|metadata", "TFLM_DECODE operators (default) or COMPRESSION_METADATA"},
	{"binning", 0, 'B', "kmeans|quantile|none", "how a channel with too many values is reduced; default kmeans"},
	{"stride", 0, 'S', "pow2|unique", "value tables padded to 2^width (default) or the largest channel's count"},
	CLI_OPT_END};

int cmd_compress(int argc, char **argv)
{
	cli_getopt g;
	cli_getopt_make(cmd_compress_opts, &g);
	vta_tfl_compress_options o;
	vta_tfl_compress_defaults(&o);
	const char *out = NULL;
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
		default: return cli_bad_option(c, argv);
		}
	}
	if (argc - optind > 2)
		return cli_unexpected("compress", argv[optind + 2]);
	if (argc - optind < 1)
		return cli_missing("compress", "model", "MODEL.tflite SPEC.yaml");
	if (argc - optind < 2)
		return cli_missing("compress", "spec", "SPEC.yaml after the model");
	if (!out)
		return cli_missing("compress", "output", "-o OUT.tflite");
	const char *model_path = argv[optind], *spec_path = argv[optind + 1];
	vta_error err = {0};
	vta_tfl_model m;
	vta_lut_spec spec = {0};
	vta_tfl_compress_report rep = {0};
	uint8_t *image = NULL;
	size_t bytes = 0;
	vta_status st = vta_tfl_model_load(model_path, &m, &err);
	if (st == VTA_OK)
		st = vta_lut_spec_load(spec_path, &spec, &err);
	if (st == VTA_OK)
		st = vta_tfl_compress(&m, &spec, spec_path, &o, &image, &bytes, &rep, &err);
	if (st == VTA_OK)
		st = vta_write_file(out, image, bytes, &err);
	int rc = 0;
	if (st == VTA_OK)
		print_report(&m, &rep, &o, out);
	else
		rc = cli_report_error(&err);
	free(image);
	vta_tfl_compress_report_free(&rep);
	vta_lut_spec_free(&spec);
	vta_tfl_model_free(&m);
	return rc;
}
