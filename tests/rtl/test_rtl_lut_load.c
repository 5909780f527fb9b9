/*
 * test_rtl_lut_load.c - the RTL LUT decoder (rtl_models/vta_lut_decoder.v) as it sits in the
 * model's LOAD path (docs/rtl.md "In the LOAD path"):
 *
 *   - it decodes the packed rows of decompressing loads bit-identically to the reference
 *     executor: every width, per-tensor and per-channel tables, WGT, INP and ACC rows, on
 *     every built decoder variant with the config it stands for (default, tiny, large);
 *   - its decode cycles equal the model's (vta_cost_lut_decode_cycles) exactly for
 *     the regression's decompressing loads and a sweep of widths and sizes;
 *   - each config's decompressor.indices_per_cycle is the lane count the RTL sustains.
 *
 * A load's lane L reads channel ch(L) of docs/isa.md, which the RTL's channel bookkeeping
 * (channel = element / run_len % channels) expresses directly: WGT rows [BO][BI] are runs of
 * BI lanes over BO channels, INP and ACC rows are runs of one lane over BI or BO channels,
 * and the channels wrap at every row. lut_chan selects the first table handed to the RTL.
 * Two things it cannot express: rows that are not a whole number of bytes (the RTL streams
 * one unbroken index string, a LOAD pads every row to a byte), which are decoded one job per
 * row; and int32 (lut32) tables, which it decodes one byte plane per job (the index path is
 * the same, the table is 8 bits wide).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lut_progs.h"
#include "prng.h"
#include "rtl_lut.h"
#include "vta_asm.h"
#include "vta_cost.h"
#include "vta_dram.h"
#include "vta_ref.h"

static const char *const k_configs[] = {"configs/default.yaml", "configs/tiny.yaml",
					"configs/large.yaml"};

static void load_config(const char *path, vta_config *cfg)
{
	vta_error err = {0};
	if (vta_config_load(path, cfg, &err) != VTA_OK)
		fail_msg("%s", err.detail);
}

/* The decoder variant a config's LOAD path would have: its bus and indices per cycle. */
static vta_rtl_lut *decoder_of(const vta_config *cfg)
{
	vta_rtl_lut *dec = NULL;
	vta_error err = {0};
	if (vta_rtl_lut_create(&dec, cfg->dram_bus_bits, cfg->decomp_indices_per_cycle, &err) !=
	    VTA_OK)
		fail_msg("%s", err.detail);
	return dec;
}

/* ch(L) as the RTL's channel run: lane L reads channel L / run_len % channels. */
typedef struct lane_map {
	size_t run_len, channels;
} lane_map;

static lane_map lane_map_of(const vta_config *cfg, vta_mem mem, bool per_channel)
{
	lane_map m = {1, 1};
	if (!per_channel)
		return m;
	m.channels = vta_lut_row_channels(cfg, mem);
	m.run_len = mem == VTA_MEM_WGT ? cfg->block_in : 1; /* WGT: ch = L / BI */
	return m;
}

/* Rows that end on a byte abut in DRAM: the load is one index string, one job. */
static bool rows_abut(const vta_config *cfg, vta_mem mem, unsigned bw)
{
	return vta_lut_lanes(cfg, mem) * bw % 8 == 0;
}

/* Decode `rows` packed rows through int8 tables (stride entries each, the lane map's
 * channel 0 first): one job for the load, or one per row when rows do not abut. */
static void rtl_decode_rows(vta_rtl_lut *dec, const vta_config *cfg, vta_mem mem, unsigned bw,
			    lane_map m, const int8_t *table, size_t stride, const uint8_t *packed,
			    size_t rows, int8_t *out, vta_rtl_lut_stats *st)
{
	size_t lanes = vta_lut_lanes(cfg, mem), row_bytes = vta_lut_packed_bytes(cfg, mem, bw);
	bool abut = rows_abut(cfg, mem, bw);
	size_t jobs = abut ? 1 : rows, per_job = abut ? rows : 1;
	for (size_t j = 0; j < jobs; j++) {
		vta_rtl_lut_job job = {bw,	   per_job * lanes,
				       m.channels, false,
				       table,	   stride,
				       packed + j * per_job * row_bytes,
				       per_job * row_bytes,
				       m.run_len};
		vta_error err = {0};
		if (vta_rtl_lut_decode(dec, &job, out + j * per_job * lanes, per_job * lanes, st,
				       &err) != VTA_OK)
			fail_msg("%s bw %u: %s", vta_mem_name(mem), bw, err.detail);
	}
}

/* ----- bit-identical decoding ----- */

/* One lutp program (table load, then a decompressing load of p->rows rows at SRAM row 2)
 * through the reference executor and, from the same DRAM bytes, through the RTL. */
static void check_load(vta_ref *ref, vta_rtl_lut *dec, const vta_config *cfg, lutp *p,
		       uint32_t seed)
{
	vta_program prog;
	lutp_build(cfg, p, seed, &prog);
	vta_dram dram;
	vta_error err = {0};
	assert_int_equal(vta_dram_init(&dram, 4u << 20, &err), VTA_OK);
	assert_int_equal(vta_dram_place_segments(&dram, &prog, &err), VTA_OK);
	if (vta_ref_run(ref, &prog, &dram, &err) != VTA_OK)
		fail_msg("%s bw %u: %s", vta_mem_name(p->mem), p->bw, err.detail);

	bool wide = p->mem == VTA_MEM_ACC;
	size_t lanes = vta_lut_lanes(cfg, p->mem), n = p->rows * lanes;
	size_t row_bytes = lanes * (wide ? 4 : 1);
	size_t sram_size;
	const uint8_t *sram = vta_ref_sram(ref, p->mem, &sram_size) + 2 * row_bytes;
	if (memcmp(sram, p->expect, p->expect_bytes) != 0) /* the model is right */
		fail_msg("%s bw %u rows %u channels %u: the reference executor differs from the "
			 "indices",
			 vta_mem_name(p->mem), p->bw, p->rows, p->channels);

	/* The very bytes the model read: the tables and the packed rows in its DRAM. */
	const uint8_t *tables = dram.bytes + LUTP_TABLE_ADDR;
	const uint8_t *packed =
		dram.bytes + (size_t)LUTP_INDEX_ELEM * vta_lut_packed_bytes(cfg, p->mem, p->bw);
	lane_map m = lane_map_of(cfg, p->mem, p->channels > 1);
	size_t first = p->channels > 1 ? (size_t)p->chan * p->stride : 0; /* lut_chan */
	size_t entries = m.channels * p->stride;
	int8_t *plane = malloc(entries), *out = malloc(n);
	uint32_t *acc = calloc(n, sizeof(uint32_t));
	assert_non_null(plane);
	assert_non_null(out);
	assert_non_null(acc);
	for (unsigned k = 0; k < (wide ? 4u : 1u); k++) {
		/* int32 tables: byte plane k of every entry, one job each */
		for (size_t i = 0; i < entries; i++)
			plane[i] = (int8_t)tables[wide ? 4 * (first + i) + k : first + i];
		vta_rtl_lut_stats st = {0, 0, 0, 0};
		rtl_decode_rows(dec, cfg, p->mem, p->bw, m, plane, p->stride, packed, p->rows, out,
				&st);
		for (size_t e = 0; e < n; e++)
			acc[e] |= (uint32_t)(uint8_t)out[e] << (8 * k);
	}
	for (size_t e = 0; e < n; e++) {
		uint32_t want;
		if (wide)
			memcpy(&want, sram + 4 * e, 4);
		else
			want = sram[e];
		if (acc[e] != want)
			fail_msg("%s bw %u rows %u channels %u: element %zu (row %zu lane %zu): RTL "
				 "0x%x, model 0x%x",
				 vta_mem_name(p->mem), p->bw, p->rows, p->channels, e, e / lanes,
				 e % lanes, acc[e], want);
	}
	free(plane);
	free(out);
	free(acc);
	free(p->expect);
	vta_dram_free(&dram);
	vta_program_free(&prog);
}

static void test_decode_matches_model(void **state)
{
	(void)state;
	const vta_mem mems[] = {VTA_MEM_WGT, VTA_MEM_INP, VTA_MEM_ACC};
	uint32_t seed = 1;
	for (size_t c = 0; c < sizeof(k_configs) / sizeof(k_configs[0]); c++) {
		vta_config cfg;
		load_config(k_configs[c], &cfg);
		vta_rtl_lut *dec = decoder_of(&cfg);
		vta_ref *ref;
		vta_error err = {0};
		assert_int_equal(vta_ref_create(&cfg, &ref, &err), VTA_OK);
		for (size_t k = 0; k < 3; k++) {
			uint32_t row_ch = vta_lut_row_channels(&cfg, mems[k]);
			for (uint32_t bw = 1; bw <= 7; bw++) {
				for (int per_channel = 0; per_channel < 2; per_channel++) {
					/* strides: 2^bw, or one short of it (an unused index) */
					uint32_t stride = (1u << bw) - (bw % 2 == 0);
					uint32_t chan = per_channel ? 1 + bw % 3 : 0;
					lutp p = {mems[k],
						  bw,
						  per_channel ? chan + row_ch + 1 : 1,
						  stride,
						  chan,
						  1 + (bw + (uint32_t)per_channel) % 4,
						  NULL,
						  0};
					check_load(ref, dec, &cfg, &p, seed++);
				}
			}
		}
		vta_ref_destroy(ref);
		vta_rtl_lut_destroy(dec);
	}
}

/* ----- cycles ----- */

/* RTL decode cycles of `jobs` jobs of `count` random indices at width bw, each an unbroken
 * index string (the data does not change the timing). */
static uint64_t rtl_cycles(vta_rtl_lut *dec, unsigned bw, size_t count, size_t jobs,
			   vta_prng *r)
{
	size_t bytes = (count * bw + 7) / 8, stride = (size_t)1 << bw;
	uint8_t *packed = malloc(bytes);
	int8_t *table = malloc(stride), *out = malloc(count);
	assert_non_null(packed);
	assert_non_null(table);
	assert_non_null(out);
	for (size_t i = 0; i < stride; i++)
		table[i] = (int8_t)i;
	vta_rtl_lut_stats st = {0, 0, 0, 0};
	for (size_t j = 0; j < jobs; j++) {
		for (size_t i = 0; i < bytes; i++)
			packed[i] = (uint8_t)vta_prng_next(r);
		vta_rtl_lut_job job = {bw, count, 1, false, table, stride, packed, bytes, 1};
		vta_error err = {0};
		if (vta_rtl_lut_decode(dec, &job, out, count, &st, &err) != VTA_OK)
			fail_msg("%s", err.detail);
	}
	free(packed);
	free(table);
	free(out);
	return st.decode_cycles;
}

/* The RTL's decode cycles of one load equal the model's. Rows that do not abut are one RTL
 * job each as built, rows x (one row's cycles); the model charges what one job over the
 * rows would take if the decoder dropped each row's pad bits, which the RTL shows by
 * decoding the same indices without the pads. ACC: the index path, one byte plane. */
static void check_cycles(vta_rtl_lut *dec, const vta_config *cfg, const vta_mem_insn *m,
			 const char *where, vta_prng *r)
{
	vta_mem mem = (vta_mem)m->mem_type;
	size_t rows = (size_t)m->x_size * m->y_size, lanes = vta_lut_lanes(cfg, mem);
	uint64_t model = vta_cost_lut_decode_cycles(cfg, m);
	uint64_t rtl = rtl_cycles(dec, m->lut_bw, rows * lanes, 1, r);
	if (rtl != model)
		fail_msg("%s: %s bw %u, %zu rows: RTL %llu cycles, model %llu", where,
			 vta_mem_name(mem), m->lut_bw, rows, (unsigned long long)rtl,
			 (unsigned long long)model);
	if (!rows_abut(cfg, mem, m->lut_bw)) {
		vta_mem_insn one = *m;
		one.x_size = one.y_size = 1;
		assert_int_equal(rtl_cycles(dec, m->lut_bw, lanes, rows, r),
				 rows * vta_cost_lut_decode_cycles(cfg, &one));
	}
}

/* Whether a decoder variant is built for cfg's bus and indices per cycle. */
static bool variant_built(const vta_config *cfg)
{
	unsigned v[16][2];
	size_t n = vta_rtl_lut_variants(v, 16);
	for (size_t i = 0; i < n; i++)
		if (v[i][0] == cfg->dram_bus_bits && v[i][1] == cfg->decomp_indices_per_cycle)
			return true;
	return false;
}

/* Every decompressing load of an assembly program, against the config beside it; none when
 * no decoder variant is built for that config (traces/src/configs/starved.yaml's 8-bit bus). */
static size_t check_program_cycles(const char *program, const char *config, vta_prng *r)
{
	vta_config cfg;
	load_config(config, &cfg);
	if (!variant_built(&cfg))
		return 0;
	vta_error err = {0};
	uint8_t *text;
	size_t len;
	if (vta_read_file(program, &text, &len, &err) != VTA_OK)
		fail_msg("%s", err.detail);
	vta_program prog;
	vta_program_init(&prog, &cfg);
	if (vta_asm_parse((const char *)text, len, program, &cfg, &prog, &err) != VTA_OK)
		fail_msg("%s", err.detail);
	free(text);
	vta_rtl_lut *dec = NULL;
	size_t loads = 0;
	for (size_t i = 0; i < prog.n_insns; i++) {
		vta_insn in;
		assert_int_equal(vta_program_insn(&prog, &cfg, i, &in, &err), VTA_OK);
		if (in.opcode != VTA_OP_LOAD || !in.mem.lut_bw)
			continue;
		if (!dec)
			dec = decoder_of(&cfg);
		check_cycles(dec, &cfg, &in.mem, program, r);
		loads++;
	}
	vta_rtl_lut_destroy(dec);
	vta_program_free(&prog);
	return loads;
}

/* docs/examples/lut_wgt.s and every regression case's decompressing loads. */
static void test_regression_loads_cycles(void **state)
{
	(void)state;
	vta_prng r;
	vta_prng_seed(&r, 5);
	size_t loads = check_program_cycles("docs/examples/lut_wgt.s", "configs/default.yaml", &r);
	assert_int_equal(loads, 2);
	DIR *d = opendir("traces");
	assert_non_null(d);
	size_t cases = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		char program[512], config[512];
		snprintf(program, sizeof(program), "traces/%s/program.s", e->d_name);
		snprintf(config, sizeof(config), "traces/%s/config.yaml", e->d_name);
		FILE *f = fopen(program, "r");
		if (!f)
			continue;
		fclose(f);
		if (check_program_cycles(program, config, &r))
			cases++;
	}
	closedir(d);
	assert_true(cases >= 2); /* asm_lut_wgt_default, fail_lut_index_default at least */
}

/* Widths x sizes on every variant, WGT (one channel block per row), INP and ACC rows. */
static void test_sweep_cycles(void **state)
{
	(void)state;
	vta_prng r;
	vta_prng_seed(&r, 9);
	const vta_mem mems[] = {VTA_MEM_WGT, VTA_MEM_INP, VTA_MEM_ACC};
	const uint32_t rows[] = {1, 2, 4, 16, 64};
	for (size_t c = 0; c < sizeof(k_configs) / sizeof(k_configs[0]); c++) {
		vta_config cfg;
		load_config(k_configs[c], &cfg);
		vta_rtl_lut *dec = decoder_of(&cfg);
		for (size_t k = 0; k < 3; k++)
			for (uint32_t bw = 1; bw <= 7; bw++)
				for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
					vta_mem_insn m = {mems[k], 0, 0, 1, rows[i], rows[i],
							  0, 0, 0, 0, bw, 0, 0};
					check_cycles(dec, &cfg, &m, k_configs[c], &r);
				}
		vta_rtl_lut_destroy(dec);
	}
}

/* decompressor.indices_per_cycle is the RTL's lane count: the rate it sustains where the
 * bus is not the limit (bw <= bus_bits / lanes), measured on a long load. */
static void test_indices_per_cycle_is_lane_count(void **state)
{
	(void)state;
	vta_prng r;
	vta_prng_seed(&r, 3);
	vta_config def;
	vta_config_default(&def);
	assert_int_equal(def.decomp_indices_per_cycle, 16);
	for (size_t c = 0; c < sizeof(k_configs) / sizeof(k_configs[0]); c++) {
		vta_config cfg;
		load_config(k_configs[c], &cfg);
		vta_rtl_lut *dec = decoder_of(&cfg);
		size_t rows = 4096 / vta_lut_lanes(&cfg, VTA_MEM_WGT) * cfg.decomp_indices_per_cycle;
		unsigned bw = cfg.dram_bus_bits / cfg.decomp_indices_per_cycle;
		bw = bw < VTA_LUT_MAX_BW ? bw : VTA_LUT_MAX_BW;
		uint64_t cycles =
			rtl_cycles(dec, bw, rows * vta_lut_lanes(&cfg, VTA_MEM_WGT), 1, &r);
		double rate = (double)(rows * vta_lut_lanes(&cfg, VTA_MEM_WGT)) /
			      (double)(cycles - VTA_COST_LUT_FIXED_CYCLES);
		if (rate < cfg.decomp_indices_per_cycle - 0.01 ||
		    rate > cfg.decomp_indices_per_cycle + 0.01)
			fail_msg("%s: RTL sustains %.3f indices per cycle, the config says %u",
				 k_configs[c], rate, cfg.decomp_indices_per_cycle);
		vta_rtl_lut_destroy(dec);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode_matches_model),
		cmocka_unit_test(test_regression_loads_cycles),
		cmocka_unit_test(test_sweep_cycles),
		cmocka_unit_test(test_indices_per_cycle_is_lane_count),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
