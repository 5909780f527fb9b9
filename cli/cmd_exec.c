/*
 * cmd_exec.c - `vtasim exec`: check a raw instruction stream (binary or assembly) with the
 * stream checks (stream_check.h), run it against a DRAM image on the SystemC model (or, with
 * --engine ref, on the untimed reference executor; with --engine both, on each over its own
 * copy of the DRAM, comparing every SRAM and the DRAM after), print the report, optionally
 * write it as JSON, dump DRAM regions, compare DRAM regions with expected files
 * (--expect-dram: a hand-written program as a check), and write the per-instruction log, the
 * timeline and the waveform (trace_out.h), even when the run fails. Engines are picked by
 * name among the kinds of isa/vta_engine.h and run, read and compared through them.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "engine_cmp.h"
#include "portable.h"
#include "report.h"
#include "stream_check.h"
#include "trace_out.h"
#include "vta_asm.h"
#include "vta_dram.h"
#include "vta_program.h"
#include "vta_ref.h"
#include "vta_rules.h" /* vta_host_now */
#include "vta_text.h"
#include "vtasim_api.h"

#define MAX_DUMPS 16

/* A DRAM region of --dump-dram or --expect-dram, as given ("ADDR:LEN:FILE"). */
typedef struct dram_dump {
	uint64_t addr, len;
	const char *path;
	const char *spec;
	uint8_t *want; /* --expect-dram: the file's bytes */
} dram_dump;

const char cmd_exec_usage[] =
	"exec -c CONFIG PROGRAM [--dram IMAGE] [-o REPORT.json] "
	"[--dump-dram ADDR:LEN:FILE]... [--expect-dram ADDR:LEN:FILE]... "
	"[--engine sim|ref|both] [--log L.txt] [--trace T.json] [--vcd W.vcd] "
	"[--timeline T.svg|T.png] [--timeline-window A:B] [--strict] "
	"[--no-check-races] [--portable hls|chisel|fsim] [--set KEY=VALUE]...";

const cli_opt cmd_exec_opts[] = {
	{"config", 'c', 'c', "CONFIG", "the hardware config YAML (docs/configs.md)"},
	{"dram", 0, 'd', "IMAGE", "raw bytes loaded at DRAM address 0 before the program's own"},
	{"output", 'o', 'o', "REPORT.json", "write the report as JSON"},
	{"dump-dram", 0, 'D', "ADDR:LEN:FILE", "after the run, write DRAM bytes to FILE (repeatable)"},
	{"expect-dram", 0, 'E', "ADDR:LEN:FILE", "after the run, DRAM bytes must equal FILE's (repeatable)"},
	{"engine", 0, 'e', "sim|ref|both", "the SystemC model (default), the reference executor, or both compared"},
	{"log", 0, 'L', "L.txt", "the per-instruction log: stages, stalls, disassembly"},
	{"trace", 0, 'T', "T.json", "the timeline as Chrome trace events (ui.perfetto.dev)"},
	{"vcd", 0, 'V', "W.vcd", "the waveform of modules, queues, SRAMs and DRAM port"},
	{"timeline", 0, 'G', "T.svg|T.png", "the timeline as a picture: lanes, token arrows, tracks"},
	{"timeline-window", 0, 'W', "A:B", "draw cycles [A, B) only (with --timeline)"},
	{"set", 0, 'S', "KEY=VALUE", "override a config key (repeatable)"},
	{"strict", 0, 'X', NULL, "a warning of the stream checks is an error: nothing runs"},
	{"no-check-races", 0, 'N', NULL, "run the stream without the stream checks"},
	{"portable", 0, 'P', "hls|chisel|fsim", "first check the stream runs the same on that VTA"},
	CLI_OPT_END};

/* "ADDR:LEN:FILE" with decimal or 0x numbers. */
static int parse_dump(char *spec, dram_dump *d)
{
	char *end;
	d->spec = spec;
	d->want = NULL;
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

/* --expect-dram's file: its bytes, exactly LEN of them, inside the DRAM. */
static vta_status expect_read(const vta_dram *dram, dram_dump *e, vta_error *err)
{
	size_t n;
	vta_status st = vta_read_file(e->path, "DRAM image", dram->size, &e->want, &n, err);
	if (st)
		return st;
	if (n != e->len)
		return vta_fail(err, VTA_E_USAGE,
				"--expect-dram %s: the file holds %zu bytes, not %llu", e->spec, n,
				(unsigned long long)e->len);
	if (!vta_dram_in_range(dram, e->addr, e->len))
		return vta_fail(err, VTA_E_USAGE,
				"--expect-dram %s: the region lies outside the DRAM (%llu bytes)",
				e->spec, (unsigned long long)dram->size);
	return VTA_OK;
}

/* Each --expect-dram region against the DRAM after the run: VTA_E_MISMATCH naming the first
 * differing byte of the first region that differs; the others that differ are notes. */
static vta_status expect_check(const vta_dram *dram, const dram_dump *ex, int n, vta_error *err)
{
	vta_status st = VTA_OK;
	uint64_t bytes = 0;
	for (int i = 0; i < n; i++) {
		const uint8_t *got = dram->bytes + ex[i].addr;
		uint64_t count = 0, first = 0;
		for (uint64_t k = 0; k < ex[i].len; k++)
			if (got[k] != ex[i].want[k] && !count++)
				first = k;
		bytes += ex[i].len;
		if (!count)
			continue;
		char what[VTA_ERROR_DETAIL_MAX];
		snprintf(what, sizeof(what),
			 "--expect-dram %s: %" PRIu64 " of %" PRIu64
			 " bytes differ%s, first DRAM 0x%" PRIx64 ": expected 0x%02x, got 0x%02x",
			 ex[i].spec, count, ex[i].len, count == 1 ? "s" : "", ex[i].addr + first, ex[i].want[first],
			 got[first]);
		if (st) {
			fflush(stdout);
			fprintf(stderr, "vtasim: note: %s\n", what);
		} else {
			st = vta_fail(err, VTA_E_MISMATCH, "%s", what);
		}
	}
	if (!st && n)
		printf("  expected DRAM     %d region%s, %" PRIu64 " B: identical\n", n,
		       n == 1 ? "" : "s", bytes);
	return st;
}

/* The engines --engine names; "both" runs the reference beside the model. */
static const vta_engine_kind *const ENGINES[] = {&vtasim_engine_kind, &vta_ref_engine_kind};

/* An untimed engine's run and its counts. */
static int run_untimed(const vta_engine_kind *kind, const vta_config *cfg,
		       const vta_program *prog, vta_dram *dram, vta_error *err)
{
	vta_engine *engine = NULL;
	vta_status st = kind->create(cfg, &engine, err);
	if (!st)
		st = engine->run(engine, prog, dram, NULL, err);
	if (!st) {
		vta_engine_counts c;
		kind->counts(engine, &c);
		printf("%s: ok\n", kind->title);
		printf("  insns load %" PRIu64 ", compute %" PRIu64 ", store %" PRIu64 "\n",
		       c.insns[VTA_STATS_LOAD], c.insns[VTA_STATS_COMPUTE], c.insns[VTA_STATS_STORE]);
		printf("  gemm uops %" PRIu64 ", alu uops %" PRIu64 ", stored %" PRIu64 " B\n",
		       c.gemm_uops, c.alu_uops, c.dram_write_bytes);
	}
	if (engine)
		kind->destroy(engine);
	return st;
}

/* --engine both: the other engine's run, over its own copy of the DRAM. */
typedef struct engine_side {
	const vta_engine_kind *kind;
	vta_engine *engine;
	vta_dram dram;
	vta_status st;
	vta_error err;
} engine_side;

static vta_status engine_side_run(const vta_engine_kind *kind, const vta_config *cfg,
				  const vta_program *prog, const vta_dram *dram, engine_side *r,
				  vta_error *err)
{
	r->kind = kind;
	vta_status st = kind->create(cfg, &r->engine, err);
	if (!st)
		st = vta_dram_init(&r->dram, dram->size, err);
	if (st)
		return st;
	memcpy(r->dram.bytes, dram->bytes, dram->size);
	r->st = r->engine->run(r->engine, prog, &r->dram, NULL, &r->err);
	return VTA_OK;
}

static void engine_side_free(engine_side *r)
{
	if (r->engine)
		r->kind->destroy(r->engine);
	vta_dram_free(&r->dram);
}

/* The model's run (status sim_st, its error in *err) against the reference's: a run that
 * failed on one engine only, or any SRAM or DRAM byte that differs, is VTA_E_MISMATCH
 * naming the first difference, after a line per differing memory; a failure on both is the
 * model's. */
static vta_status compare_engines(const vta_config *cfg, const engine_side *r,
				  const vta_engine_kind *kind, vta_engine *model,
				  const vta_dram *dram, vta_status sim_st, vta_error *err)
{
	if (sim_st && r->st)
		return sim_st;
	if (sim_st || r->st) {
		const vta_error model = *err;
		return vta_fail(err, VTA_E_MISMATCH,
				"the reference executor and the model differ: the reference %s%s, "
				"the model %s%s",
				r->st ? "failed: " : "completed", r->st ? r->err.detail : "",
				sim_st ? "failed: " : "completed", sim_st ? model.detail : "");
	}
	engine_cmp first = {0}, c;
	const char *hdr = "the reference executor and the model differ:\n";
	for (unsigned i = 0; i < VTA_STATS_SRAMS; i++) {
		sram_view v;
		sram_view_of(cfg, vta_mem_of_stats_slot(i), &v);
		uint64_t rn = 0, sn = 0;
		const uint8_t *a = r->kind->sram(r->engine, v.mem, &rn);
		const uint8_t *b = kind->sram(model, v.mem, &sn);
		if (!a || !b || rn != sn || sn != (uint64_t)v.depth * v.row_bytes)
			return vta_fail(err, VTA_E_INTERNAL, "the %s SRAMs of the engines differ in size",
					v.name);
		engine_cmp_sram(cfg, &v, a, b, &c);
		if (!c.count)
			continue;
		printf("%s  %s: %" PRIu64 " of %" PRIu32 " rows differ%s, first %s: reference %s, "
		       "model %s\n",
		       hdr, v.name, c.count, v.depth, c.count == 1 ? "s" : "", c.where, c.ref,
		       c.model);
		hdr = "";
		if (!first.count)
			first = c;
	}
	engine_cmp_dram(r->dram.bytes, dram->bytes, dram->size, &c);
	if (c.count) {
		printf("%s  DRAM: %" PRIu64 " byte%s differ%s, first %s: reference %s, model %s\n",
		       hdr, c.count, c.count == 1 ? "" : "s", c.count == 1 ? "s" : "", c.where, c.ref,
		       c.model);
		if (!first.count)
			first = c;
	}
	if (first.count)
		return vta_fail(err, VTA_E_MISMATCH,
				"the reference executor and the model differ: first at %s: reference "
				"%s, model %s",
				first.where, first.ref, first.model);
	printf("the reference executor and the model agree: every SRAM and the DRAM are "
	       "identical\n");
	return VTA_OK;
}

int cmd_exec(int argc, char **argv)
{
	const char *config = NULL, *image = NULL, *report = NULL, *engine = "sim";
	const char *log_path = NULL, *trace_path = NULL, *vcd_path = NULL, *portable = NULL;
	const char *timeline = NULL, *window = NULL;
	uint64_t win_from = 0, win_to = 0;
	dram_dump dumps[MAX_DUMPS], expects[MAX_DUMPS];
	int ndumps = 0, nexpects = 0;
	cli_sets sets = {.n = 0};
	int strict = 0, check = 1;
	cli_getopt g;
	cli_getopt_make(cmd_exec_opts, &g);
	int c, rc;
	if (cli_help_asked(argc, argv, g.shortopts, g.longopts))
		return CLI_EXIT(cli_command_help(argv[0]));
	optind = 1;
	while ((c = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
		switch (c) {
		case 'c': config = optarg; break;
		case 'd': image = optarg; break;
		case 'o': report = optarg; break;
		case 'e': engine = optarg; break;
		case 'L': log_path = optarg; break;
		case 'T': trace_path = optarg; break;
		case 'V': vcd_path = optarg; break;
		case 'G': timeline = optarg; break;
		case 'W': window = optarg; break;
		case 'X': strict = 1; break;
		case 'N': check = 0; break;
		case 'P': portable = optarg; break;
		case 'S':
			if ((rc = cli_sets_add(&sets, optarg)))
				return rc;
			break;
		case 'D':
			if (ndumps == MAX_DUMPS)
				return cli_usage_error("at most %d --dump-dram options", MAX_DUMPS);
			if (parse_dump(optarg, &dumps[ndumps]))
				return cli_usage_error("--dump-dram '%s': expected ADDR:LEN:FILE",
						       VTA_Q(optarg));
			ndumps++;
			break;
		case 'E':
			if (nexpects == MAX_DUMPS)
				return cli_usage_error("at most %d --expect-dram options", MAX_DUMPS);
			if (parse_dump(optarg, &expects[nexpects]))
				return cli_usage_error("--expect-dram '%s': expected ADDR:LEN:FILE",
						       VTA_Q(optarg));
			nexpects++;
			break;
		default: return cli_bad_option(c, argv);
		}
	}
	if (optind < argc - 1)
		return cli_unexpected("exec", argv[optind + 1]);
	if (optind == argc)
		return cli_missing("exec", "program", "PROGRAM, a stream as assembly (.s) or binary");
	if (!config)
		return cli_missing("exec", "config", "-c CONFIG");
	const int both = !strcmp(engine, "both");
	const vta_engine_kind *kind =
		both ? &vtasim_engine_kind
		     : vta_engine_kind_find(ENGINES, sizeof(ENGINES) / sizeof(ENGINES[0]), engine);
	if (!kind)
		return cli_usage_error("--engine '%s': expected sim, ref or both", VTA_Q(engine));
	if ((log_path || trace_path) && !kind->timed)
		return cli_usage_error("--log and --trace record the timed model: they need "
				       "--engine sim or both");
	if (vcd_path && !kind->timed)
		return cli_usage_error("--vcd is the waveform of the timed model: it needs "
				       "--engine sim or both");
	if ((rc = cli_timeline_options(timeline, window, !kind->timed, &win_from, &win_to)))
		return rc;
	const char *program = argv[optind];
	vta_target target = VTA_TARGET_HLS;
	vta_error perr = {0};
	if (portable && vta_target_parse(portable, &target, &perr))
		return cli_usage_error("--portable: %s", perr.detail);

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
	for (int i = 0; !st && i < nexpects; i++)
		st = expect_read(&dram, &expects[i], &err);
	if (st)
		goto out;
	/* the stream checks, before and whatever the engine: a broken stream does not run */
	vta_race_report checks;
	double check_s = vta_host_now();
	if (check) {
		vta_status cs = vta_race_check(&cfg, &prog, &dram, NULL, &checks, &err);
		if (!cs && strict)
			cs = vta_race_strict(&checks, &err);
		if (cs && cs != VTA_E_RACE && cs != VTA_E_UNINIT && cs != VTA_E_WARNING) {
			st = cs;
			goto out;
		}
		if ((rc = stream_check_show(&checks, cs, &err, NULL)))
			goto out;
	}
	check_s = vta_host_now() - check_s;
	/* --portable: a stream that would not run as here on that VTA does not run */
	if (portable && (rc = portable_check_show(&cfg, &prog, image, target)))
		goto out;

	if (!kind->timed) {
		st = run_untimed(kind, &cfg, &prog, &dram, &err);
		if (!st && check)
			stream_check_text(stdout, &checks);
	} else {
		vta_engine *model = NULL;
		vtasim_sim *sim = NULL; /* the model's handle, for its records */
		vta_run_stats stats;
		trace_out *tr = NULL;
		engine_side ref = {0};
		vta_status run_st = VTA_OK; /* the model's run, when it ran */
		int ran = 0;
		memset(&stats, 0, sizeof(stats));
		st = both ? engine_side_run(&vta_ref_engine_kind, &cfg, &prog, &dram, &ref, &err)
			  : VTA_OK;
		if (!st)
			st = kind->create(&cfg, &model, &err);
		sim = st ? NULL : vtasim_sim_of(model);
		if (!st && (log_path || trace_path || vcd_path || timeline)) {
			char title[1024];
			snprintf(title, sizeof(title), "exec %s", program);
			st = trace_out_open(log_path, trace_path, &cfg, title, sim, &tr, &err);
		}
		if (!st && vcd_path)
			st = trace_out_set_vcd(tr, vcd_path, &err);
		if (!st && timeline)
			st = trace_out_set_timeline(tr, timeline, win_from, win_to, &err);
		if (!st) {
			st = run_st = model->run(model, &prog, &dram, &stats, &err);
			ran = 1;
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
		if (both && ran && st == run_st) /* not when writing the log or trace failed */
			st = compare_engines(&cfg, &ref, kind, model, &dram, st, &err);
		engine_side_free(&ref);
		if (!st) {
			printf("vtasim exec %s on %s, datapath %s\n", program, cfg.name,
			       vta_datapath_name(cfg.datapath));
			report_stats_text(stdout, &cfg, &stats, NULL, 2);
			if (check)
				stream_check_text(stdout, &checks);
			if (report) {
				json_t *root = json_object();
				json_object_set_new(root, "config", json_string(cfg.name));
				json_object_set_new(root, "program", json_string(program));
				json_object_set_new(root, "datapath",
						    json_string(vta_datapath_name(cfg.datapath)));
				json_t *total = report_stats_json(&cfg, &stats);
				json_object_set_new(root, "total", total);
				if (check) {
					json_object_set_new(root, "checks", stream_check_json(&checks));
					json_object_set_new(json_object_get(total, "host"),
							    "check_seconds", json_real(check_s));
				}
				vta_error werr = {0};
				if (report_write_json(root, report, &werr))
					rc = cli_report_error(&werr);
				json_decref(root);
			}
		}
		if (model)
			kind->destroy(model);
	}
	for (int i = 0; !st && !rc && i < ndumps; i++)
		st = vta_dram_dump(&dram, dumps[i].addr, dumps[i].len, dumps[i].path, &err);
	if (!st && !rc)
		st = expect_check(&dram, expects, nexpects, &err);
out:
	for (int i = 0; i < nexpects; i++)
		free(expects[i].want);
	vta_dram_free(&dram);
	vta_program_free(&prog);
	if (st)
		return cli_report_error(&err);
	return rc;
}
