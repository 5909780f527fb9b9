/*
 * cmd_diff.c - `vtasim diff A.json B.json [--threshold PCT]`: two reports of `vtasim run -o`
 * (two layer runs or two model runs) row by row and in total, each metric with its signed
 * change (report_diff.h). With --threshold, exit status 1 when any value moved by more than
 * PCT percent or a row is in one report only: a regression gate.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "json_read.h"
#include "report_diff.h"
#include "vta_text.h"

const char cmd_diff_usage[] = "diff A.json B.json [--threshold PCT]";

const cli_opt cmd_diff_opts[] = {
	{"threshold", 0, 't', "PCT", "exit 1 when a value moved by more than PCT percent"},
	CLI_OPT_END};

int cmd_diff(int argc, char **argv)
{
	cli_getopt g;
	cli_getopt_make(cmd_diff_opts, &g);
	double threshold = -1;
	int c;
	if (cli_help_asked(argc, argv, g.shortopts, g.longopts))
		return CLI_EXIT(cli_command_help(argv[0]));
	optind = 1;
	while ((c = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
		if (c == 't') {
			char *end;
			threshold = strtod(optarg, &end);
			if (end == optarg || *end || !(threshold >= 0) || threshold > 1e9)
				return cli_usage_error("--threshold '%s': expected a percentage >= 0",
						       VTA_Q(optarg));
		} else {
			return cli_bad_option(c, argv);
		}
	}
	if (argc - optind > 2)
		return cli_unexpected("diff", argv[optind + 2]);
	if (argc - optind < 2)
		return cli_missing("diff", "report", "A.json B.json, two reports of vtasim run -o");
	const char *pa = argv[optind], *pb = argv[optind + 1];
	vta_error err = {0};
	json_t *a = report_json_load(pa, &err);
	json_t *b = a ? report_json_load(pb, &err) : NULL;
	report_diff d;
	if (!a || !b || report_diff_build(a, b, pa, pb, &d, &err)) {
		json_decref(a);
		json_decref(b);
		return cli_report_error(&err);
	}
	json_decref(a);
	json_decref(b);
	vta_quoted_path qa, qb;
	printf("diff: %s -> %s (%s reports, %zu rows and the total)\n", vta_quote_path(&qa, pa),
	       vta_quote_path(&qb, pb), d.kind, d.n_rows - 1);
	printf("%-28s %-22s %16s %16s %10s\n", "row", "metric", "A", "B", "change");
	size_t compared = 0, beyond = 0, one_sided = 0;
	for (size_t i = 0; i < d.n_rows; i++) {
		const report_diff_row *r = &d.rows[i];
		if (!r->in_a || !r->in_b) {
			printf("%-28s only in %s\n", r->name, r->in_a ? "A" : "B");
			one_sided++;
			continue;
		}
		for (size_t m = 0; m < d.n_metrics; m++) {
			const report_diff_cell *cell = &r->cells[m];
			if (!cell->in_a && !cell->in_b)
				continue;
			char va[32], vb[32], ch[32];
			report_diff_value_text(cell, false, va, sizeof(va));
			report_diff_value_text(cell, true, vb, sizeof(vb));
			report_diff_change_text(cell, ch, sizeof(ch));
			printf("%-28s %-22s %16s %16s %10s\n", m ? "" : r->name, d.metrics[m].name, va,
			       vb, ch);
			if (cell->in_a && cell->in_b) {
				compared++;
				if (threshold >= 0 && fabs(report_diff_change(cell)) > threshold)
					beyond++;
			}
		}
	}
	report_diff_free(&d);
	if (threshold < 0)
		return 0;
	if (beyond || one_sided)
		printf("%zu of %zu values moved by more than %g%%%s\n", beyond, compared, threshold,
		       one_sided ? ", and rows are in one report only" : "");
	else
		printf("no value moved by more than %g%% (%zu compared)\n", threshold, compared);
	return beyond || one_sided ? 1 : 0;
}
