/*
 * timeline_opts.c - the --timeline and --timeline-window options of exec and run, checked
 * before anything runs (see cli.h).
 */
#include "cli.h"
#include "trace_out.h"

int cli_timeline_options(const char *path, const char *window, int use_ref, uint64_t *from,
			 uint64_t *to)
{
	*from = *to = 0;
	if (window && !path)
		return cli_usage_error("--timeline-window %s: it is a window of the picture: "
				       "give --timeline T.svg or T.png too",
				       window);
	if (!path)
		return 0;
	if (use_ref)
		return cli_usage_error("--timeline draws the timed model: it needs --engine sim%s",
				       use_ref > 1 ? "" : " or both");
	vta_error err = {0};
	if (trace_out_timeline_check(path, window, from, to, &err))
		return cli_report_error(&err);
	return 0;
}
