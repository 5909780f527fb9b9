/*
 * report_cmp.h - two `vtasim run -o` reports side by side: what differs between the runs
 * (config, workload, mode, threads, engine, datapath: every top-level setting the reports
 * hold, and each layer's decompression and plan), then cycles, DRAM traffic and GEMM
 * utilization per layer and in total, B against A.
 */
#ifndef BENCH_REPORT_CMP_H
#define BENCH_REPORT_CMP_H

#include <stdio.h>

/* Print the comparison of reports a and b to out: 0, or 2 after a one-line error on stderr
 * (a report that cannot be read, or whose layers are not the same list). */
int report_cmp(const char *a, const char *b, FILE *out);

#endif /* BENCH_REPORT_CMP_H */
