/* stream_check.c - the stream checks as the CLI shows them (stream_check.h). */
#include "stream_check.h"

#include <inttypes.h>
#include <string.h>

#include "report.h"
#include "vta_text.h"

/* One line: the layer's name and the notes quote input, escaped as every message is. */
static void line(const char *kind, const char *layer, const char *text)
{
	char safe[VTA_ERROR_DETAIL_MAX * 2];
	vta_escape(safe, sizeof(safe), text, strlen(text));
	if (layer) {
		vta_quoted q;
		fprintf(stderr, "vtasim: %s: layer %s: %s\n", kind, vta_quote(&q, layer), safe);
	} else {
		fprintf(stderr, "vtasim: %s: %s\n", kind, safe);
	}
}

int stream_check_show(const vta_race_report *rep, vta_status st, const vta_error *err,
		      const char *layer)
{
	fflush(stdout);
	for (size_t i = 0; i < rep->n_warnings; i++)
		line("warning", layer, rep->warning_lines[i]);
	if (rep->warnings > rep->n_warnings) {
		char more[96];
		snprintf(more, sizeof(more), "%" PRIu64 " more warnings not shown",
			 rep->warnings - rep->n_warnings);
		line("warning", layer, more);
	}
	if (st != VTA_E_RACE && st != VTA_E_UNINIT && st != VTA_E_WARNING)
		return 0;
	if (st == VTA_E_WARNING) {
		line("error", NULL, err->detail);
		return vta_status_exit_code(st);
	}
	line("error", layer, rep->errors[0]);
	for (size_t i = 1; i < rep->n_errors; i++)
		line("note", layer, rep->errors[i]);
	uint64_t all = rep->races + rep->uninit_reads;
	if (all > 1) {
		char sum[160];
		snprintf(sum, sizeof(sum),
			 "%" PRIu64 " race%s and %" PRIu64 " read%s of unwritten rows in all (%zu "
			 "shown); the stream did not run (--no-check-races runs it anyway)",
			 rep->races, rep->races == 1 ? "" : "s", rep->uninit_reads,
			 rep->uninit_reads == 1 ? "" : "s", rep->n_errors);
		line("note", layer, sum);
	}
	return vta_status_exit_code(st);
}

json_t *stream_check_json(const vta_race_report *rep)
{
	json_t *o = json_object();
	json_object_set_new(o, "checked", json_boolean(rep->checked));
	report_set_int(o, "races", rep->races);
	report_set_int(o, "uninit_reads", rep->uninit_reads);
	report_set_int(o, "warnings", rep->warnings);
	report_set_int(o, "tokens_left", rep->tokens_left);
	report_set_int(o, "insns_after_finish", rep->after_finish);
	report_set_int(o, "insns_never_run", rep->never_run);
	return o;
}

void stream_check_text(FILE *out, const vta_race_report *rep)
{
	fprintf(out, "  stream checks     ");
	if (!rep->checked)
		fprintf(out, "no verdict (%s)\n", rep->skipped.detail);
	else if (!rep->warnings)
		fprintf(out, "clean\n");
	else
		fprintf(out, "%" PRIu64 " warning%s (%" PRIu64 " token%s left at FINISH, %" PRIu64
			     " instruction%s after FINISH, %" PRIu64 " that never run%s)\n",
			rep->warnings, rep->warnings == 1 ? "" : "s", rep->tokens_left,
			rep->tokens_left == 1 ? "" : "s", rep->after_finish,
			rep->after_finish == 1 ? "" : "s", rep->never_run,
			rep->never_run == 1 ? "s" : "");
}
