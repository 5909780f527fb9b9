/*
 * cmd_inspect.c - `vtasim inspect MODEL.tflite`: what the .tflite reader sees in a model
 * (runtime/tflite/tflite_model.h): its inputs and outputs, metadata, subgraph 0's operators with
 * their options and where `run -m` runs each, its tensors with quantization, and every
 * LUT-compressed constant with its container, width, tables and sizes. docs/cli.md shows an
 * example.
 *
 * Where an operator runs follows from its type, but whether the runner takes it depends on its
 * tensors too (types, ranks, a pad value's quantization, ...), which the runner checks as it
 * goes. So inspect runs the model once on the host kernels (host_run.h, seeded inputs, nothing
 * simulated) and marks the operator that run refuses with the runner's own reason.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "host_run.h"
#include "vta_text.h"
#include "op_support.h"
#include "tflite_model.h"

/* A name printed on one line: control characters as '?'. */
static void put_name(const char *s)
{
	putchar('\'');
	cli_put_text(s);
	putchar('\'');
}

static void put_shape(const vta_tfl_tensor *t)
{
	putchar('[');
	for (int i = 0; i < t->rank; i++)
		printf("%s%d", i ? "," : "", (int)t->shape[i]);
	putchar(']');
}

static void put_tensor_brief(const vta_tfl_model *m, int32_t i)
{
	const vta_tfl_tensor *t = &m->tensors[i];
	printf("%d ", (int)i);
	put_name(t->name);
	printf(" %s ", vta_tfl_type_name(t->type));
	put_shape(t);
}

static const char *act_name(vta_activation a)
{
	static const char *const names[] = {"none", "relu", "relu_n1_to_1", "relu6"};
	return (unsigned)a < 4 ? names[a] : "?";
}

static void put_options(const vta_tfl_op *op)
{
	const char *pad[] = {"same", "valid"};
	switch (op->custom ? -1 : op->builtin) {
	case VTA_TFL_OP_CONV_2D:
	case VTA_TFL_OP_DEPTHWISE_CONV_2D: {
		const vta_tfl_conv_options *o = &op->opt.conv;
		printf("  padding %s, stride %dx%d, dilation %dx%d, %s", pad[o->padding],
		       (int)o->stride_h, (int)o->stride_w, (int)o->dilation_h,
		       (int)o->dilation_w, act_name(o->activation));
		if (op->builtin == VTA_TFL_OP_DEPTHWISE_CONV_2D)
			printf(", depth multiplier %d", (int)o->depth_multiplier);
		break;
	}
	case VTA_TFL_OP_AVERAGE_POOL_2D:
	case VTA_TFL_OP_MAX_POOL_2D: {
		const vta_tfl_pool_options *o = &op->opt.pool;
		printf("  padding %s, stride %dx%d, filter %dx%d, %s", pad[o->padding],
		       (int)o->stride_h, (int)o->stride_w, (int)o->filter_h, (int)o->filter_w,
		       act_name(o->activation));
		break;
	}
	case VTA_TFL_OP_FULLY_CONNECTED:
		printf("  %s%s", act_name(op->opt.fc.activation),
		       op->opt.fc.keep_num_dims ? ", keep_num_dims" : "");
		break;
	case VTA_TFL_OP_ADD:
		printf("  %s", act_name(op->opt.add.activation));
		break;
	case VTA_TFL_OP_SOFTMAX:
		printf("  beta %g", (double)op->opt.softmax.beta);
		break;
	case VTA_TFL_OP_CONCATENATION:
		printf("  axis %d, %s", (int)op->opt.concat.axis,
		       act_name(op->opt.concat.activation));
		break;
	case VTA_TFL_OP_MEAN:
		printf("  keep_dims %s", op->opt.mean.keep_dims ? "true" : "false");
		break;
	case VTA_TFL_OP_SVDF: {
		static const char *const acts[] = {"none", "relu", "relu_n1_to_1", "relu6", "tanh",
						   "sign_bit"};
		printf("  rank %d, activation %s", (int)op->opt.svdf.rank,
		       acts[op->opt.svdf.activation]);
		break;
	}
	case VTA_TFL_OP_RESHAPE:
		if (op->opt.reshape.has_new_shape) {
			printf("  new_shape [");
			for (int i = 0; i < op->opt.reshape.rank; i++)
				printf("%s%d", i ? "," : "", (int)op->opt.reshape.new_shape[i]);
			printf("]");
		}
		break;
	default:
		break;
	}
}

static void put_list(const int32_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		printf("%s%d", i ? "," : "", (int)v[i]);
}

static void put_quant(const vta_tfl_quant *q)
{
	if (!q->count)
		return;
	if (q->count == 1) {
		printf("  scale %g zp %lld", (double)q->scale[0],
		       (long long)(q->zero_point_count ? q->zero_point[0] : 0));
		return;
	}
	float lo = q->scale[0], hi = q->scale[0];
	for (size_t i = 1; i < q->count; i++) {
		lo = q->scale[i] < lo ? q->scale[i] : lo;
		hi = q->scale[i] > hi ? q->scale[i] : hi;
	}
	printf("  %zu scales %g..%g on axis %d", q->count, (double)lo, (double)hi, (int)q->axis);
}

static const char *container_name(vta_tfl_container c)
{
	return c == VTA_TFL_METADATA ? "COMPRESSION_METADATA" : "TFLM_DECODE";
}

static void put_lut(const vta_tfl_tensor *t)
{
	const vta_lut_tensor *l = &t->lut;
	printf("  lut %u-bit, %zu table%s of %zu%s, %zu B indices + %zu B tables (%s",
	       l->bitwidth, l->channels, l->channels == 1 ? "" : "s", l->value_table_stride,
	       l->channels > 1 ? (l->axis_last ? " (last axis)" : " (axis 0)") : "",
	       vta_lut_indices_bytes(l->count, l->bitwidth),
	       l->channels * l->value_table_stride * vta_lut_type_size(l->type),
	       container_name(t->container));
	if (t->container == VTA_TFL_DECODE)
		printf(" of tensors %d, %d", (int)t->lut_indices, (int)t->lut_tables);
	else
		printf(", value buffer %u", t->lut_buffer);
	printf(")");
}

/* Where `vtasim run -m` runs the operator (op_support.h), the reason when nowhere. */
typedef struct placement {
	size_t accel, host, unsupported, decode;
} placement;

/* What a run of the model on the host kernels said: the operator it refused (or -1) and
 * why, in the runner's words; a refusal of the whole model before any operator ran. */
typedef struct run_verdict {
	long op;
	char why[VTA_ERROR_DETAIL_MAX];
	char model[VTA_ERROR_DETAIL_MAX];
} run_verdict;

static void probe_run(const vta_tfl_model *m, run_verdict *v)
{
	v->op = -1;
	v->why[0] = v->model[0] = '\0';
	/* an operator type nothing runs: the runner refuses it before anything runs, and
	 * put_place marks it already */
	for (size_t i = 0; i < m->n_ops; i++) {
		vta_error e = {0};
		const vta_tfl_op *op = &m->ops[i];
		if (!op->decode && (op->custom || vta_op_check(op->builtin, &e) != VTA_OK ||
				    op->n_outputs != 1))
			return;
	}
	vta_model_run run;
	vta_error err = {0};
	vta_status st = host_run(m, NULL, 0, &run, &err);
	if (st && run.n_ops) {
		/* the runner's "MODEL: operator N (NAME): reason", without what inspect shows */
		const vta_tfl_op *op = &m->ops[run.n_ops - 1];
		char label[32], prefix[VTA_ERROR_DETAIL_MAX];
		snprintf(prefix, sizeof(prefix), "%s: operator %zu (%s): ", m->name, run.n_ops - 1,
			 vta_tfl_op_label(op, label, sizeof(label)));
		const size_t n = strlen(prefix);
		v->op = (long)run.n_ops - 1;
		snprintf(v->why, sizeof(v->why), "%s",
			 strncmp(err.detail, prefix, n) ? err.detail : err.detail + n);
	} else if (st) {
		snprintf(v->model, sizeof(v->model), "%s", err.detail);
	}
	vta_model_run_free(&run);
}

static void put_place(const vta_tfl_op *op, const char *refused, placement *p)
{
	vta_error e = {0};
	if (refused) {
		p->unsupported++;
		printf("  | unsupported: ");
		cli_put_text(refused);
	} else if (op->decode) {
		p->decode++;
		printf("  | decode (outputs are compressed constants)");
	} else if (op->custom) {
		p->unsupported++;
		printf("  | unsupported: custom operators are not supported");
	} else if (vta_op_check(op->builtin, &e) != VTA_OK) {
		p->unsupported++;
		printf("  | unsupported: %s", e.detail);
	} else if (op->n_outputs != 1) {
		/* the runner's other refusal before anything runs (model_run.c check_ops) */
		p->unsupported++;
		printf("  | unsupported: %zu outputs, expected 1", op->n_outputs);
	} else if (vta_op_where(op->builtin, NULL) == VTA_OP_ACCEL) {
		p->accel++;
		printf("  | accelerator");
	} else {
		p->host++;
		printf("  | host");
	}
}

static void print_model(const vta_tfl_model *m)
{
	printf("model ");
	cli_put_text(m->name);
	printf(": schema %u, %zu subgraph%s (0 read), %zu buffers, %zu operators, "
	       "%zu tensors\n",
	       m->version, m->n_subgraphs, m->n_subgraphs == 1 ? "" : "s", m->n_buffers,
	       m->n_ops, m->n_tensors);
	if (m->description[0]) {
		printf("description ");
		put_name(m->description);
		putchar('\n');
	}
	for (size_t i = 0; i < m->n_inputs; i++) {
		printf("input  ");
		put_tensor_brief(m, m->inputs[i]);
		putchar('\n');
	}
	for (size_t i = 0; i < m->n_outputs; i++) {
		printf("output ");
		put_tensor_brief(m, m->outputs[i]);
		putchar('\n');
	}
	for (size_t i = 0; i < m->n_metadata; i++) {
		printf("metadata ");
		put_name(m->metadata[i].name);
		printf(": buffer %u, %zu bytes\n", m->metadata[i].buffer,
		       m->buffers[m->metadata[i].buffer].bytes);
	}
	printf("\noperators\n");
	run_verdict verdict;
	probe_run(m, &verdict);
	placement place = {0, 0, 0, 0};
	for (size_t i = 0; i < m->n_ops; i++) {
		const vta_tfl_op *op = &m->ops[i];
		char buf[24];
		printf("  %3zu %-18s v%d  in ", i, VTA_Q(vta_tfl_op_label(op, buf, sizeof(buf))),
		       (int)op->version);
		put_list(op->inputs, op->n_inputs);
		printf(" -> ");
		put_list(op->outputs, op->n_outputs);
		put_options(op);
		put_place(op, verdict.op == (long)i ? verdict.why : NULL, &place);
		putchar('\n');
	}
	printf("placement: %zu on the accelerator, %zu on the host, %zu unsupported, %zu DECODE\n",
	       place.accel, place.host, place.unsupported, place.decode);
	if (verdict.op >= 0 && (size_t)verdict.op + 1 < m->n_ops)
		printf("(a run stops at operator %ld: the operators after it were not tried)\n",
		       verdict.op);
	if (verdict.model[0]) {
		printf("run -m refuses the model: ");
		cli_put_text(verdict.model);
		putchar('\n');
	}
	printf("\ntensors\n");
	size_t plain = 0, packed = 0;
	for (size_t i = 0; i < m->n_tensors; i++) {
		const vta_tfl_tensor *t = &m->tensors[i];
		printf("  %3zu ", i);
		put_name(t->name);
		printf(" %s ", vta_tfl_type_name(t->type));
		put_shape(t);
		if (t->data && t->container == VTA_TFL_PLAIN)
			printf("  const %zu B", t->data_bytes);
		if (t->is_variable)
			printf("  variable");
		put_quant(&t->quant);
		if (t->container != VTA_TFL_PLAIN) {
			put_lut(t);
			const vta_lut_tensor *l = &t->lut;
			plain += l->count * vta_lut_type_size(l->type);
			packed += vta_lut_indices_bytes(l->count, l->bitwidth) +
				  l->channels * l->value_table_stride * vta_lut_type_size(l->type);
		}
		putchar('\n');
	}
	if (m->n_compressed)
		printf("\ncompression: %zu LUT tensor%s, %zu B of indices and tables for %zu B "
		       "decoded\n",
		       m->n_compressed, m->n_compressed == 1 ? "" : "s", packed, plain);
	else
		printf("\ncompression: none\n");
}

const char cmd_inspect_usage[] = "inspect MODEL.tflite";

/* none but -h/--help */
const cli_opt cmd_inspect_opts[] = {CLI_OPT_END};

int cmd_inspect(int argc, char **argv)
{
	cli_getopt g;
	cli_getopt_make(cmd_inspect_opts, &g);
	if (cli_help_asked(argc, argv, g.shortopts, g.longopts))
		return CLI_EXIT(cli_command_help(argv[0]));
	if (argc < 2)
		return cli_missing("inspect", "model", "MODEL.tflite");
	if (argc > 2 || argv[1][0] == '-')
		return cli_unexpected("inspect", argv[argc > 2 && argv[1][0] != '-' ? 2 : 1]);
	vta_tfl_model m;
	vta_error err = {0};
	if (vta_tfl_model_load(argv[1], &m, &err) != VTA_OK) {
		vta_tfl_model_free(&m);
		return cli_report_error(&err);
	}
	print_model(&m);
	vta_tfl_model_free(&m);
	return 0;
}
