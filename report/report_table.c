/* report_table.c - a run as a table of layers or operators, written as CSV (report_table.h). */
#include "report_table.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report.h"
#include "vta_energy.h"
#include "vta_mem.h"
#include "vta_text.h"

bool report_path_is_csv(const char *path)
{
	const size_t n = strlen(path);
	return n >= 4 && !strcmp(path + n - 4, ".csv");
}

void report_csv_field(FILE *f, const char *raw)
{
	const size_t n = strlen(raw);
	char *s = malloc(4 * n + 1);
	if (!s)
		return;
	vta_escape(s, 4 * n + 1, raw, n);
	if (!strpbrk(s, ",\"")) {
		fputs(s, f);
		free(s);
		return;
	}
	fputc('"', f);
	for (const char *c = s; *c; c++) {
		if (*c == '"')
			fputc('"', f);
		fputc(*c, f);
	}
	fputc('"', f);
	free(s);
}

/* The memory types DRAM reads are counted by: every one that is read (OUT is written). */
static bool read_type(int m)
{
	return m != VTA_MEM_OUT;
}

static void header(FILE *f)
{
	fputs("name,op,where,output_shape,macs,cycles,cycles_pct,time_us,gemm_utilization,bound,"
	      "roofline_cycles,dram.read_bytes.insn",
	      f);
	for (int m = 0; m < VTA_MEM_COUNT; m++)
		if (read_type(m))
			fprintf(f, ",dram.read_bytes.%s", vta_mem_name((vta_mem)m));
	fputs(",dram.read_bytes.total,dram.write_bytes.total,dram_bytes_pct,energy.total_pj,"
	      "energy_pct",
	      f);
	for (int p = 0; p < VTA_ENERGY_PARTS; p++)
		fprintf(f, ",energy.%s_pj", vta_energy_part_name(p));
	fputs(",host_seconds\n", f);
}

/* What a row or the total shares with the whole run. */
typedef struct whole {
	uint64_t cycles, dram_bytes;
	double energy_pj;
} whole;

static double share(double part, double total)
{
	return total > 0 ? 100.0 * part / total : 0.0;
}

/* The accelerator's cells of a row: from its statistics, MACs and roofline. */
static void accel_cells(FILE *f, const vta_config *cfg, const vta_run_stats *st, uint64_t macs,
			const vta_roofline *rl, const whole *w)
{
	vta_energy e;
	vta_energy_of(cfg, st, &e);
	const uint64_t rd = report_dram_read_bytes(st);
	fprintf(f, ",%llu,%llu,%.4f,%.10g,%.10g,%s,%llu,%llu", (unsigned long long)macs,
		(unsigned long long)st->cycles, share((double)st->cycles, (double)w->cycles),
		st->time_us, st->gemm_utilization, vta_bound_name(rl->bound),
		(unsigned long long)rl->roofline_cycles, (unsigned long long)st->dram_insn_bytes);
	for (int m = 0; m < VTA_MEM_COUNT; m++)
		if (read_type(m))
			fprintf(f, ",%llu", (unsigned long long)st->dram_read_bytes[m]);
	fprintf(f, ",%llu,%llu,%.4f,%.10g,%.4f", (unsigned long long)rd,
		(unsigned long long)st->dram_write_bytes,
		share((double)(rd + st->dram_write_bytes), (double)w->dram_bytes), e.total_pj,
		share(e.total_pj, w->energy_pj));
	for (int p = 0; p < VTA_ENERGY_PARTS; p++)
		fprintf(f, ",%.10g", e.part_pj[p]);
}

/* A row without accelerator statistics: as many empty cells as accel_cells writes (macs
 * to dram.read_bytes.insn: 8; the read types; the DRAM totals and share, energy and its
 * share: 5; the energy parts). */
static void empty_accel_cells(FILE *f)
{
	int n = 8 + 5 + VTA_ENERGY_PARTS;
	for (int m = 0; m < VTA_MEM_COUNT; m++)
		n += read_type(m);
	for (int i = 0; i < n; i++)
		fputc(',', f);
}

static void shape_cell(FILE *f, const int32_t *s)
{
	fprintf(f, ",%dx%dx%dx%d", s[0], s[1], s[2], s[3]);
}

static void write_rows(FILE *f, const vta_config *cfg, const report_row *rows, size_t n)
{
	/* the total: the accelerated rows' statistics summed, their rooflines added */
	vta_run_stats t;
	memset(&t, 0, sizeof(t));
	vta_roofline roof = {0};
	uint64_t macs = 0;
	double host_seconds = 0;
	for (size_t i = 0; i < n; i++) {
		host_seconds += rows[i].host_seconds;
		if (!rows[i].layer)
			continue;
		report_stats_add(&t, &rows[i].layer->stats);
		vta_roofline rl = vta_layer_roofline(cfg, rows[i].layer);
		vta_cost_roofline_add(&roof, &rl);
		macs += rows[i].layer->counters.macs;
	}
	report_stats_utilization(cfg, &t);
	vta_energy te;
	vta_energy_of(cfg, &t, &te);
	const whole w = {t.cycles, report_dram_read_bytes(&t) + t.dram_write_bytes, te.total_pj};

	header(f);
	for (size_t i = 0; i < n; i++) {
		const report_row *r = &rows[i];
		report_csv_field(f, r->name);
		fputc(',', f);
		report_csv_field(f, r->op);
		fputc(',', f);
		report_csv_field(f, r->where);
		if (r->layer) {
			shape_cell(f, r->layer->out_shape);
			vta_roofline rl = vta_layer_roofline(cfg, r->layer);
			accel_cells(f, cfg, &r->layer->stats, r->layer->counters.macs, &rl, &w);
		} else {
			fputc(',', f);
			empty_accel_cells(f);
		}
		if (!strcmp(r->where, "host"))
			fprintf(f, ",%.10g\n", r->host_seconds);
		else
			fputs(",\n", f);
	}
	fputs("total,,,", f);
	accel_cells(f, cfg, &t, macs, &roof, &w);
	fprintf(f, ",%.10g\n", host_seconds);
}

vta_status report_table_write_csv(const vta_config *cfg, const report_row *rows, size_t n,
				  const char *path, vta_error *err)
{
	char tmp[4200];
	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid()) >= (int)sizeof(tmp))
		return vta_fail(err, VTA_E_IO, "%s: path too long", VTA_QPATH(path));
	FILE *f = fopen(tmp, "w");
	if (!f)
		return vta_fail(err, VTA_E_IO, "%s: cannot write: %s", VTA_QPATH(path),
				strerror(errno));
	write_rows(f, cfg, rows, n);
	if (ferror(f) | (fclose(f) != 0) || rename(tmp, path) != 0) {
		const int e = errno;
		unlink(tmp);
		return vta_fail(err, VTA_E_IO, "%s: cannot write: %s", VTA_QPATH(path),
				strerror(e));
	}
	return VTA_OK;
}
