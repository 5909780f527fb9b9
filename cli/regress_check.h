/*
 * regress_check.h - compare what one case's run produced with what the case expects: DRAM
 * output regions byte for byte (naming the first differing DRAM address), statistics key by
 * key (with the relative change), and the report's statistics as a flat list of dotted keys.
 */
#ifndef VTASIM_REGRESS_CHECK_H
#define VTASIM_REGRESS_CHECK_H

#include <stdio.h>

#include "regress_case.h"

/* The integer statistics of an exec JSON report: every integer under "total" except the
 * host-dependent "host" object, as dotted keys in report order ("modules.load.busy_cycles"). */
vta_status regress_report_stats(const char *json_path, regress_stats *out, vta_error *err);

/* checks.warnings of an exec JSON report (the stream checks' warnings), or -1 without. */
int64_t regress_report_warnings(const char *json_path);

/* Compare an expected region with the dumped bytes in `got_path`. Returns 0 if equal, else 1
 * and writes one clause to `msg` ("output 0x4000+64: first difference at DRAM 0x4012:
 * expected 0x0a, got 0x0b (3 bytes differ)"). */
int regress_compare_output(const regress_output *o, const char *got_path, char *msg,
			   size_t size);

/* Compare expected statistics with the report's; writes one clause per difference to `out`
 * ("cycles: expected 372, got 380 (+2.2%)"), separated by "; ", and returns the number of
 * differences (statistics only in the report are not differences). */
int regress_compare_stats(const regress_stats *expected, const regress_stats *got, FILE *out);

/* "(+2.2%)" style relative change from `from` to `to`. */
void regress_format_change(int64_t from, int64_t to, char *out, size_t size);

#endif /* VTASIM_REGRESS_CHECK_H */
