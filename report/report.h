/*
 * report.h - the human and JSON reports. The JSON keys are a contract (docs/report.md):
 * they may be extended, never renamed. The text report mirrors the same keys.
 */
#ifndef VTASIM_REPORT_H
#define VTASIM_REPORT_H

#include <jansson.h>
#include <stdio.h>

#include "vta_config.h"
#include "vta_cost.h"
#include "vtasim_api.h"

/* o[key] = v: the integer keys of the reports (counts, cycles, bytes). */
void report_set_int(json_t *o, const char *key, json_int_t v);

/* Bytes a run read from DRAM: instructions and every memory type. */
uint64_t report_dram_read_bytes(const vta_run_stats *st);

/* t += s: the statistics of runs one after the other (cycles, counts and bytes add; an
 * SRAM's peak is the largest); t's gemm_utilization is then report_stats_utilization's. */
void report_stats_add(vta_run_stats *t, const vta_run_stats *s);
/* The GEMM core's utilization over t's cycles, from its MACs. */
void report_stats_utilization(const vta_config *cfg, vta_run_stats *t);

/* The keys roofline_cycles, roofline_compute_cycles and roofline_dram_cycles of r. */
void report_roofline_json(json_t *o, const vta_roofline *r);

/* The timing/traffic keys of one run: cycles, time_us, macs, roofline_cycles,
 * gemm_utilization, modules, sram, dram, host. */
json_t *report_stats_json(const vta_config *cfg, const vta_run_stats *st);

/* Same content as text, indented by `indent` spaces. `roof` overrides the roofline computed
 * from the executed statistics (a layer knows its ideal one); NULL keeps it. */
void report_stats_text(FILE *out, const vta_config *cfg, const vta_run_stats *st,
		       const vta_roofline *roof, int indent);

/* The run's energy by part (vta_energy.h): total_pj, edp_uj_us, PART_pj; and as one text
 * line of shares. */
json_t *report_energy_json(const vta_config *cfg, const vta_run_stats *st);
void report_energy_text(FILE *out, const vta_config *cfg, const vta_run_stats *st, int indent);
/* The config's area by part (vta_energy.h): total_mm2, PART_mm2. */
json_t *report_area_json(const vta_config *cfg);
void report_area_text(FILE *out, const vta_config *cfg, int indent);

/* Write a JSON value to a file (pretty-printed). */
vta_status report_write_json(const json_t *root, const char *path, vta_error *err);

#endif /* VTASIM_REPORT_H */
