/*
 * cmd_exec.c - `vtasim exec`: run a raw instruction stream (binary or assembly) against a
 * DRAM image on the SystemC model (or, with --engine ref, on the untimed reference executor),
 * print the report, optionally write it as JSON, dump DRAM regions, and write the
 * per-instruction log, the timeline and the waveform (trace_out.h), even when the run fails.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report.h"
#include "trace_out.h"
#include "vta_asm.h"
#include "vta_dram.h"
#include "vta_program.h"
#include "vta_ref.h"
#include "vtasim_api.h"

#define MAX_DUMPS 16

typedef struct dram_dump {
	uint64_t addr, len;
	const char *path;
} dram_dump;

const char cmd_exec_usage[] =
	"exec -c CONFIG PROGRAM [--dram IMAGE] [-o REPORT.json] "
	"[--dump-dram ADDR:LEN:FILE]... [--engine sim|ref] [--log L.txt] [--trace T.json] "
	"[--vcd W.vcd] "
	"[--set KEY=VALUE]...";

/* "ADDR:LEN:FILE" with decimal or 0x numbers. */
static int parse_dump(char *spec, dram_dump *d)
{
	char *end;
	d->addr = strtoull(spec, &end, 0);
	if (end == spec || *end != ':')
		return -1;
	char *len = end + 1;
	d->len = strtoull(len, &end, 0);
	if (end == len || *end != ':' || !end[1])
		return -1;
	d->path = end + 1;
	return 0;
}

static int run_reference(const vta_config *cfg, const vta_program *prog, vta_dram *dram,
			 vta_error *err)
{
	vta_ref *ref = NULL;
	vta_status st = vta_ref_create(cfg, &ref, err);
	if (!st)
		st = vta_ref_run(ref, prog, dram, err);
	if (!st) {
		const vta_ref_counters *c = vta_ref_counters_get(ref);
		printf("reference executor: ok\n");
		printf("  insns load %" PRIu64 ", compute %" PRIu64 ", store %" PRIu64 "\n",
		       c->insns[0], c->insns[1], c->insns[2]);
		printf("  gemm uops %" PRIu64 ", alu uops %" PRIu64 ", stored %" PRIu64 " B\n",
		       c->gemm_uops, c->alu_uops, c->store_bytes);
	}
	vta_ref_destroy(ref);
	return st;
}

int cmd_exec(int argc, char **argv)
{
	const char *config = NULL, *image = NULL, *report = NULL, *engine = "sim";
	const char *log_path = NULL, *trace_path = NULL, *vcd_path = NULL;
	dram_dump dumps[MAX_DUMPS];
	int ndumps = 0;
	cli_sets sets = {.n = 0};
	static const struct option opts[] = {{"config", required_argument, 0, 'c'},
					     {"dram", required_argument, 0, 'd'},
					     {"output", required_argument, 0, 'o'},
					     {"dump-dram", required_argument, 0, 'D'},
					     {"engine", required_argument, 0, 'e'},
					     {"log", required_argument, 0, 'L'},
					     {"trace", required_argument, 0, 'T'},
					     {"set", required_argument, 0, 'S'},
					     {"vcd", required_argument, 0, 'V'},
					     {0, 0, 0, 0}};
	int c, rc;
	optind = 1;
	while ((c = getopt_long(argc, argv, "c:o:", opts, NULL)) != -1) {
		switch (c) {
		case 'c': config = optarg; break;
		case 'd': image = optarg; break;
		case 'o': report = optarg; break;
		case 'e': engine = optarg; break;
		case 'L': log_path = optarg; break;
		case 'T': trace_path = optarg; break;
		case 'V': vcd_path = optarg; break;
		case 'S':
			if ((rc = cli_sets_add(&sets, optarg)))
				return rc;
			break;
		case 'D':
			if (ndumps == MAX_DUMPS)
				return cli_usage_error("at most %d --dump-dram options", MAX_DUMPS);
			if (parse_dump(optarg, &dumps[ndumps]))
				return cli_usage_error("--dump-dram '%s': expected ADDR:LEN:FILE",
						       optarg);
			ndumps++;
			break;
		default: return cli_usage_error("usage: vtasim %s", cmd_exec_usage);
		}
	}
	if (optind != argc - 1 || !config)
		return cli_usage_error("usage: vtasim %s", cmd_exec_usage);
	if (strcmp(engine, "sim") && strcmp(engine, "ref"))
		return cli_usage_error("--engine '%s': expected sim or ref", engine);
	if ((log_path || trace_path) && strcmp(engine, "sim"))
		return cli_usage_error("--log and --trace record the timed model: they need "
				       "--engine sim");
	if (vcd_path && strcmp(engine, "sim"))
		return cli_usage_error("--vcd is the waveform of the timed model: it needs "
				       "--engine sim");
	const char *program = argv[optind];

	vta_config cfg;
	if ((rc = cli_load_config(config, &sets, &cfg)))
		return rc;
	vta_error err = {0};
	vta_program prog;
	if (vta_program_load(program, &cfg, &prog, &err))
		return cli_report_error(&err);
	vta_dram dram = {0};
	vta_status st = vta_dram_init(&dram, (uint64_t)cfg.dram_size_mib << 20, &err);
	if (!st && image)
		st = vta_dram_load_image(&dram, image, &err);
	if (!st)
		st = vta_dram_place_segments(&dram, &prog, &err);
	if (st)
		goto out;

	if (!strcmp(engine, "ref")) {
		st = run_reference(&cfg, &prog, &dram, &err);
	} else {
		vtasim_sim *sim = NULL;
		vta_run_stats stats;
		trace_out *tr = NULL;
		memset(&stats, 0, sizeof(stats));
		st = vtasim_sim_create(&cfg, &sim, &err);
		if (!st && (log_path || trace_path || vcd_path)) {
			char title[1024];
			snprintf(title, sizeof(title), "exec %s", program);
			st = trace_out_open(log_path, trace_path, &cfg, title, sim, &tr, &err);
		}
		if (!st && vcd_path)
			st = trace_out_set_vcd(tr, vcd_path, &err);
		if (!st) {
			st = vtasim_sim_run(sim, &prog, &dram, &stats, &err);
			/* the records up to a failure are what diagnoses it: write them anyway */
			vta_error terr = {0};
			vta_status ts = tr ? trace_out_add(tr, program, &prog, &stats,
							   st ? &err : NULL, &terr)
					   : VTA_OK;
			vta_status cs = trace_out_close(tr, ts ? NULL : &terr);
			tr = NULL;
			if (!st && (ts || cs)) {
				st = ts ? ts : cs;
				err = terr;
			}
		}
		trace_out_close(tr, NULL);
		if (!st) {
			printf("vtasim exec %s on %s, datapath %s\n", program, cfg.name,
			       vta_datapath_name(cfg.datapath));
			report_stats_text(stdout, &cfg, &stats, NULL, 2);
			if (report) {
				json_t *root = json_object();
				json_object_set_new(root, "config", json_string(cfg.name));
				json_object_set_new(root, "program", json_string(program));
				json_object_set_new(root, "datapath",
						    json_string(vta_datapath_name(cfg.datapath)));
				json_object_set_new(root, "total", report_stats_json(&cfg, &stats));
				rc = report_write_json(root, report);
				json_decref(root);
			}
		}
		vtasim_sim_destroy(sim);
	}
	for (int i = 0; !st && !rc && i < ndumps; i++)
		st = vta_dram_dump(&dram, dumps[i].addr, dumps[i].len, dumps[i].path, &err);
out:
	vta_dram_free(&dram);
	vta_program_free(&prog);
	if (st)
		return cli_report_error(&err);
	return rc;
}
