/*
 * stream_check.h - the stream checks (isa/vta_race.h) as `vtasim exec`, `run` and `regress`
 * show them: warnings on stderr, a failed check as one error line (its first problem) and
 * notes for the others, and their report keys (docs/cli.md).
 */
#ifndef VTASIM_STREAM_CHECK_H
#define VTASIM_STREAM_CHECK_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "vta_race.h"

/* Print what the checks found for one stream (`layer`: its name, or NULL for exec's) and
 * return 0 when it may run, or the exit status after printing: st and err are what the
 * checks returned. VTA_E_RACE, VTA_E_UNINIT: the problems, one line each, the first as
 * "vtasim: error:", the others and their count as "vtasim: note:" lines. VTA_E_WARNING
 * (vta_race_strict): err's detail as the error line, as it is. The warnings come first, as
 * "vtasim: warning:" lines, in every case. */
int stream_check_show(const vta_race_report *rep, vta_status st, const vta_error *err,
		      const char *layer);

/* The report's "checks" object: checked, races, uninit_reads, warnings, tokens_left,
 * insns_after_finish, insns_never_run. (Their host time, check_seconds, goes in the host object.) */
json_t *stream_check_json(const vta_race_report *rep);

/* The text report's line: "  stream checks     clean" or what they found. */
void stream_check_text(FILE *out, const vta_race_report *rep);

#endif /* VTASIM_STREAM_CHECK_H */
