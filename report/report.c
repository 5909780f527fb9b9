/* report.c - turn simulator statistics into the JSON report and its text mirror. */
#include "report.h"

#include "vta_energy.h"
#include "vta_text.h"

static const char *const MODULE_NAMES[VTA_STATS_MODULES] = {"fetch", "load", "compute",
							       "store"};

uint64_t report_dram_read_bytes(const vta_run_stats *st)
{
	uint64_t bytes = st->dram_insn_bytes;
	for (int m = 0; m < VTA_MEM_COUNT; m++)
		bytes += st->dram_read_bytes[m];
	return bytes;
}

/* The roofline of a program with no layer behind it (exec): the work it executed, its
 * non-reset GEMM uops, its ALU uops and its DRAM bytes. */
static vta_roofline report_roofline_of(const vta_config *cfg, const vta_run_stats *st)
{
	vta_roofline_work w = {
		.macs = st->macs,
		.alu_tensor_uops = st->alu_uops - st->alu_imm_uops,
		.alu_imm_uops = st->alu_imm_uops,
		.dram_bytes = report_dram_read_bytes(st) + st->dram_write_bytes,
	};
	return vta_cost_roofline(cfg, &w);
}

void report_set_int(json_t *o, const char *key, json_int_t v)
{
	json_object_set_new(o, key, json_integer(v));
}

void report_roofline_json(json_t *o, const vta_roofline *r)
{
	report_set_int(o, "roofline_cycles", r->roofline_cycles);
	report_set_int(o, "roofline_compute_cycles", r->compute_cycles);
	report_set_int(o, "roofline_dram_cycles", r->dram_cycles);
	report_set_int(o, "roofline_gemm_cycles", r->gemm_cycles);
	report_set_int(o, "roofline_alu_cycles", r->alu_cycles);
	json_object_set_new(o, "bound", json_string(vta_bound_name(r->bound)));
}

/* The LUT decoder's keys appear only in runs that used it, so reports of other runs read
 * as before. */
static bool used_decoder(const vta_run_stats *st)
{
	return st->decoder.table_loads || st->decoder.elements;
}

static json_t *decoder_json(const vta_decoder_stats *d)
{
	json_t *o = json_object();
	report_set_int(o, "busy_cycles", d->busy_cycles);
	report_set_int(o, "stall_cycles", d->stall_cycles);
	report_set_int(o, "table_loads", d->table_loads);
	report_set_int(o, "table_bytes", d->table_bytes);
	report_set_int(o, "index_bytes", d->index_bytes);
	report_set_int(o, "elements", d->elements);
	return o;
}

json_t *report_energy_json(const vta_config *cfg, const vta_run_stats *st)
{
	vta_energy e;
	vta_energy_of(cfg, st, &e);
	json_t *o = json_object();
	json_object_set_new(o, "total_pj", json_real(e.total_pj));
	json_object_set_new(o, "edp_uj_us", json_real(e.edp_uj_us));
	for (int p = 0; p < VTA_ENERGY_PARTS; p++) {
		char key[48];
		snprintf(key, sizeof(key), "%s_pj", vta_energy_part_name(p));
		json_object_set_new(o, key, json_real(e.part_pj[p]));
	}
	return o;
}

json_t *report_area_json(const vta_config *cfg)
{
	vta_area a;
	vta_area_of(cfg, &a);
	json_t *o = json_object();
	json_object_set_new(o, "total_mm2", json_real(a.total_mm2));
	for (int p = 0; p < VTA_AREA_PARTS; p++) {
		char key[48];
		snprintf(key, sizeof(key), "%s_mm2", vta_area_part_name(p));
		json_object_set_new(o, key, json_real(a.part_mm2[p]));
	}
	return o;
}

void report_area_text(FILE *out, const vta_config *cfg, int indent)
{
	vta_area a;
	vta_area_of(cfg, &a);
	double sram = 0;
	for (int p = VTA_AREA_SRAM_UOP; p <= VTA_AREA_LUT_TABLE; p++)
		sram += a.part_mm2[p];
	fprintf(out, "%*sarea              %.4g mm^2: srams %.4g (lut table %.4g), gemm %.4g, alu %.4g\n", indent,
		"", a.total_mm2, sram, a.part_mm2[VTA_AREA_LUT_TABLE], a.part_mm2[VTA_AREA_GEMM],
		a.part_mm2[VTA_AREA_ALU]);
}

void report_stats_add(vta_run_stats *t, const vta_run_stats *s)
{
	t->cycles += s->cycles;
	t->time_us += s->time_us;
	t->gemm_uops += s->gemm_uops;
	t->alu_uops += s->alu_uops;
	t->alu_imm_uops += s->alu_imm_uops;
	t->macs += s->macs;
	for (int m = 0; m < VTA_STATS_MODULES; m++) {
		t->module[m].insns += s->module[m].insns;
		t->module[m].busy_cycles += s->module[m].busy_cycles;
		t->module[m].stall_dep_cycles += s->module[m].stall_dep_cycles;
		t->module[m].stall_mem_cycles += s->module[m].stall_mem_cycles;
	}
	for (int i = 0; i < VTA_STATS_SRAMS; i++) {
		t->sram[i].capacity_bytes = s->sram[i].capacity_bytes;
		if (s->sram[i].peak_bytes > t->sram[i].peak_bytes)
			t->sram[i].peak_bytes = s->sram[i].peak_bytes;
		t->sram[i].reads += s->sram[i].reads;
		t->sram[i].writes += s->sram[i].writes;
	}
	for (int m = 0; m < VTA_MEM_COUNT; m++)
		t->dram_read_bytes[m] += s->dram_read_bytes[m];
	t->dram_insn_bytes += s->dram_insn_bytes;
	t->dram_write_bytes += s->dram_write_bytes;
	t->dram_busy_cycles += s->dram_busy_cycles;
	t->decoder.busy_cycles += s->decoder.busy_cycles;
	t->decoder.stall_cycles += s->decoder.stall_cycles;
	t->decoder.table_loads += s->decoder.table_loads;
	t->decoder.table_bytes += s->decoder.table_bytes;
	t->decoder.index_bytes += s->decoder.index_bytes;
	t->decoder.elements += s->decoder.elements;
	t->host_seconds += s->host_seconds;
}

void report_stats_utilization(const vta_config *cfg, vta_run_stats *t)
{
	const uint64_t gemm = t->macs / ((uint64_t)cfg->batch * cfg->block_in * cfg->block_out);
	t->gemm_utilization = t->cycles ? (double)(gemm * cfg->gemm_ii) / (double)t->cycles : 0.0;
}

json_t *report_stats_json(const vta_config *cfg, const vta_run_stats *st)
{
	vta_roofline r = report_roofline_of(cfg, st);
	json_t *o = json_object();
	report_set_int(o, "cycles", st->cycles);
	json_object_set_new(o, "time_us", json_real(st->time_us));
	report_set_int(o, "macs", st->macs);
	report_roofline_json(o, &r);
	json_object_set_new(o, "gemm_utilization", json_real(st->gemm_utilization));
	report_set_int(o, "gemm_uops", st->gemm_uops);
	report_set_int(o, "alu_uops", st->alu_uops);

	json_t *mods = json_object();
	for (int m = 0; m < VTA_STATS_MODULES; m++) {
		const vta_module_stats *ms = &st->module[m];
		json_t *mo = json_object();
		report_set_int(mo, "insns", ms->insns);
		report_set_int(mo, "busy_cycles", ms->busy_cycles);
		report_set_int(mo, "stall_dep_cycles", ms->stall_dep_cycles);
		report_set_int(mo, "stall_mem_cycles", ms->stall_mem_cycles);
		json_object_set_new(mods, MODULE_NAMES[m], mo);
	}
	json_object_set_new(o, "modules", mods);

	json_t *srams = json_object();
	for (int s = 0; s < VTA_STATS_SRAMS; s++) {
		const vta_sram_stats *ss = &st->sram[s];
		json_t *so = json_object();
		report_set_int(so, "capacity_bytes", ss->capacity_bytes);
		report_set_int(so, "peak_bytes", ss->peak_bytes);
		report_set_int(so, "reads", ss->reads);
		report_set_int(so, "writes", ss->writes);
		json_object_set_new(srams, vta_stats_slot_name(s), so);
	}
	json_object_set_new(o, "sram", srams);

	json_t *dram = json_object();
	json_t *rd = json_object();
	uint64_t total_read = st->dram_insn_bytes;
	report_set_int(rd, "insn", st->dram_insn_bytes);
	for (int m = 0; m < VTA_MEM_COUNT; m++) {
		if (m == VTA_MEM_OUT ||
		    (vta_mem_info_of((unsigned)m)->space == VTA_SPACE_LUT && !used_decoder(st)))
			continue;
		report_set_int(rd, vta_mem_name((vta_mem)m), st->dram_read_bytes[m]);
		total_read += st->dram_read_bytes[m];
	}
	report_set_int(rd, "total", total_read);
	json_t *wr = json_object();
	report_set_int(wr, "out", st->dram_write_bytes);
	report_set_int(wr, "total", st->dram_write_bytes);
	json_object_set_new(dram, "read_bytes", rd);
	json_object_set_new(dram, "write_bytes", wr);
	report_set_int(dram, "busy_cycles", st->dram_busy_cycles);
	if (used_decoder(st))
		json_object_set_new(o, "decoder", decoder_json(&st->decoder));
	json_object_set_new(o, "dram", dram);
	json_object_set_new(o, "energy", report_energy_json(cfg, st));

	json_t *host = json_object();
	json_object_set_new(host, "wall_seconds", json_real(st->host_seconds));
	json_object_set_new(host, "sim_cycles_per_second",
			    json_real(st->host_seconds > 0 ? (double)st->cycles / st->host_seconds
							   : 0.0));
	json_object_set_new(o, "host", host);
	return o;
}

void report_energy_text(FILE *out, const vta_config *cfg, const vta_run_stats *st, int indent)
{
	vta_energy e;
	vta_energy_of(cfg, st, &e);
	double sram = 0;
	for (int p = VTA_ENERGY_SRAM_UOP; p <= VTA_ENERGY_SRAM_OUT; p++)
		sram += e.part_pj[p];
	const double t = e.total_pj > 0 ? e.total_pj : 1;
	fprintf(out, "%*senergy            %.4g uJ: dram %.1f%%, sram %.1f%%, gemm %.1f%%, alu %.1f%%, "
		     "fetch %.1f%%, decoder %.1f%%, leakage %.1f%%; edp %.4g uJ x us\n",
		indent, "", e.total_pj * 1e-6,
		100 * (e.part_pj[VTA_ENERGY_DRAM_READ] + e.part_pj[VTA_ENERGY_DRAM_WRITE]) / t,
		100 * sram / t, 100 * e.part_pj[VTA_ENERGY_GEMM] / t,
		100 * e.part_pj[VTA_ENERGY_ALU] / t, 100 * e.part_pj[VTA_ENERGY_FETCH] / t,
		100 * e.part_pj[VTA_ENERGY_DECODER] / t, 100 * e.part_pj[VTA_ENERGY_LEAKAGE] / t,
		e.edp_uj_us);
}

void report_stats_text(FILE *out, const vta_config *cfg, const vta_run_stats *st,
		       const vta_roofline *roof, int indent)
{
	vta_roofline r = roof ? *roof : report_roofline_of(cfg, st);
	int in = indent;
	fprintf(out, "%*scycles            %llu (%.2f us at %.0f MHz)\n", in, "",
		(unsigned long long)st->cycles, st->time_us, cfg->clock_mhz);
	fprintf(out, "%*sroofline_cycles   %llu (compute %llu = gemm %llu + alu %llu, dram %llu) "
		"-> %.2fx of roofline, %s-bound\n",
		in, "", (unsigned long long)r.roofline_cycles, (unsigned long long)r.compute_cycles,
		(unsigned long long)r.gemm_cycles, (unsigned long long)r.alu_cycles,
		(unsigned long long)r.dram_cycles,
		r.roofline_cycles ? (double)st->cycles / (double)r.roofline_cycles : 0.0,
		vta_bound_name(r.bound));
	fprintf(out, "%*smacs              %llu, gemm_utilization %.1f%%, gemm uops %llu, alu uops %llu\n",
		in, "", (unsigned long long)st->macs, 100.0 * st->gemm_utilization,
		(unsigned long long)st->gemm_uops, (unsigned long long)st->alu_uops);
	fprintf(out, "%*smodule    insns      busy   stall_dep   stall_mem\n", in, "");
	for (int m = 0; m < VTA_STATS_MODULES; m++) {
		const vta_module_stats *ms = &st->module[m];
		fprintf(out, "%*s%-8s %6llu %9llu %11llu %11llu\n", in, "", MODULE_NAMES[m],
			(unsigned long long)ms->insns, (unsigned long long)ms->busy_cycles,
			(unsigned long long)ms->stall_dep_cycles,
			(unsigned long long)ms->stall_mem_cycles);
	}
	fprintf(out, "%*ssram   capacity_bytes  peak_bytes   peak%%      reads     writes\n", in, "");
	for (int s = 0; s < VTA_STATS_SRAMS; s++) {
		const vta_sram_stats *ss = &st->sram[s];
		fprintf(out, "%*s%-5s %15llu %11llu %6.1f%% %10llu %10llu\n", in, "",
			vta_stats_slot_name(s), (unsigned long long)ss->capacity_bytes,
			(unsigned long long)ss->peak_bytes,
			ss->capacity_bytes
				? 100.0 * (double)ss->peak_bytes / (double)ss->capacity_bytes
				: 0.0,
			(unsigned long long)ss->reads, (unsigned long long)ss->writes);
	}
	/* every memory type a plain LOAD reads, in the table's order (OUT is only stored) */
	fprintf(out, "%*sdram   read %llu B (insn %llu", in, "",
		(unsigned long long)report_dram_read_bytes(st),
		(unsigned long long)st->dram_insn_bytes);
	for (int m = 0; m < VTA_MEM_COUNT; m++)
		if (m != VTA_MEM_OUT && vta_mem_info_of((unsigned)m)->space != VTA_SPACE_LUT)
			fprintf(out, ", %s %llu", vta_mem_name((vta_mem)m),
				(unsigned long long)st->dram_read_bytes[m]);
	fprintf(out, "), write %llu B\n", (unsigned long long)st->dram_write_bytes);
	if (used_decoder(st))
		fprintf(out, "%*slut    %llu table loads (%llu B), %llu index bytes, %llu elements, "
			     "decoder busy %llu, stall %llu\n",
			in, "", (unsigned long long)st->decoder.table_loads,
			(unsigned long long)st->decoder.table_bytes,
			(unsigned long long)st->decoder.index_bytes,
			(unsigned long long)st->decoder.elements,
			(unsigned long long)st->decoder.busy_cycles,
			(unsigned long long)st->decoder.stall_cycles);
	report_energy_text(out, cfg, st, indent);
	fprintf(out, "%*shost   %.4f s, %.3g simulated cycles per host second\n", in, "",
		st->host_seconds,
		st->host_seconds > 0 ? (double)st->cycles / st->host_seconds : 0.0);
}

vta_status report_write_json(const json_t *root, const char *path, vta_error *err)
{
	if (json_dump_file(root, path, JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0)
		return vta_fail(err, VTA_E_USAGE, "%s: cannot write the JSON report",
				VTA_QPATH(path));
	return VTA_OK;
}
