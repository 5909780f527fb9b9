/*
 * test_rtl_lut_load.c - the RTL LUT decoder (rtl_models/vta_lut_decoder.v) as it sits in the
 * model's LOAD path (docs/rtl.md "The decoder in the model's LOAD path"), through
 * vta_rtl_lut_load_run, the interface the model calls:
 *
 *   - it decodes the packed rows of decompressing loads bit-identically to the reference
 *     executor, each load one job: every width, per-tensor and per-channel tables, WGT and
 *     INP rows (int8) and ACC rows (int32 tables), padded rows included, on every config with
 *     a decoder variant (default, tiny, large, starved16);
 *   - a bad index gives the model's status and message, naming the same element;
 *   - its decode cycles equal the model's (vta_cost_lut_decode_cycles) exactly for the
 *     regression's decompressing loads and a sweep of widths and sizes, padded rows included;
 *   - each config's decompressor.indices_per_cycle is the lane count the RTL sustains;
 *   - a job shows on the waveform at the load's simulated cycle.
 *
 * A load's lane L reads channel ch(L) of docs/isa.md, which the RTL's channel bookkeeping
 * (channel = element / run_len % channels) expresses directly: WGT rows [BO][BI] are runs of
 * BI lanes over BO channels, INP and ACC rows are runs of one lane over BI or BO channels,
 * and the channels wrap at every row. lut_chan selects the first table handed to the RTL.
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
#include <unistd.h>

#include "../lut_progs.h"
#include "prng.h"
#include "rtl_check.h"
#include "rtl_lut.h"
#include "vta_asm.h"
#include "vta_cost.h"
#include "vta_dram.h"
#include "vta_ref.h"

static const char *const k_configs[] = {"configs/default.yaml", "configs/tiny.yaml",
					"configs/large.yaml", "configs/starved16.yaml"};

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
	unsigned run_len, channels;
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

/* A load of `rows` packed rows of mem through `tables` (m.channels x stride entries). */
static vta_rtl_lut_load load_of(const vta_config *cfg, vta_mem mem, unsigned bw, lane_map m,
				const uint32_t *tables, unsigned stride, const uint8_t *packed,
				uint64_t rows)
{
	vta_rtl_lut_load ld = {bw,	   vta_lut_lanes(cfg, mem), rows, packed, tables,
			       m.channels, m.run_len,		    stride, mem == VTA_MEM_ACC, 0, 1, 0};
	return ld;
}

/* Index `lane` of a packed row (MSB first). */
static void put_index(uint8_t *row, size_t lane, unsigned bw, unsigned v)
{
	for (unsigned k = 0; k < bw; k++) {
		size_t bit = lane * bw + k;
		uint8_t msk = (uint8_t)(0x80u >> (bit % 8));
		row[bit / 8] = (uint8_t)((v >> (bw - 1 - k)) & 1u ? row[bit / 8] | msk
								  : row[bit / 8] & ~msk);
	}
}

/* Set every pad bit of `rows` packed rows: the decoder must skip them, whatever they hold. */
static void fill_pads(uint8_t *packed, size_t rows, size_t lanes, unsigned bw)
{
	size_t row_bytes = (lanes * bw + 7) / 8, used = lanes * bw;
	for (size_t r = 0; r < rows; r++)
		for (size_t bit = used; bit < 8 * row_bytes; bit++)
			packed[r * row_bytes + bit / 8] |= (uint8_t)(0x80u >> (bit % 8));
}

/* ----- bit-identical decoding ----- */

/* The model's table memory for a load: m.channels x stride 32-bit entries from the table
 * load's DRAM bytes, channel `first_chan` first (int8 entries sign-extended, as the table
 * load does). */
static uint32_t *model_tables(const uint8_t *bytes, bool wide, size_t first, size_t entries)
{
	uint32_t *t = malloc(entries * sizeof(uint32_t));
	assert_non_null(t);
	for (size_t i = 0; i < entries; i++) {
		if (wide)
			memcpy(&t[i], bytes + 4 * (first + i), 4);
		else
			t[i] = (uint32_t)(int32_t)(int8_t)bytes[first + i];
	}
	return t;
}

/* One lutp program (table load, then a decompressing load of p->rows rows at SRAM row 2)
 * through the reference executor and, from the same DRAM bytes (pad bits set), through the
 * RTL as one job whose cycles are the model's. With bad >= 0 element `bad` of the load gets
 * the index 2^bw - 1, beyond p->stride: both must refuse with the same message. */
static void check_load(vta_ref *ref, vta_rtl_lut *dec, const vta_config *cfg, lutp *p,
		       uint32_t seed, long bad)
{
	vta_program prog;
	lutp_build(cfg, p, seed, &prog);
	vta_dram dram;
	vta_error err = {0}, rerr = {0};
	assert_int_equal(vta_dram_init(&dram, 4u << 20, &err), VTA_OK);
	assert_int_equal(vta_dram_place_segments(&dram, &prog, &err), VTA_OK);

	bool wide = p->mem == VTA_MEM_ACC;
	size_t lanes = vta_lut_lanes(cfg, p->mem), n = p->rows * lanes;
	size_t packed_bytes = vta_lut_packed_bytes(cfg, p->mem, p->bw);
	uint8_t *packed = dram.bytes + (size_t)LUTP_INDEX_ELEM * packed_bytes;
	if (bad >= 0)
		put_index(packed + (size_t)bad / lanes * packed_bytes, (size_t)bad % lanes, p->bw,
			  (1u << p->bw) - 1);
	vta_status rs = vta_ref_run(ref, &prog, &dram, &rerr);
	if ((rs != VTA_OK) != (bad >= 0))
		fail_msg("%s bw %u: reference executor: %s", vta_mem_name(p->mem), p->bw,
			 rs == VTA_OK ? "no error" : rerr.detail);

	/* The very bytes the model read: the tables and the packed rows in its DRAM. */
	lane_map m = lane_map_of(cfg, p->mem, p->channels > 1);
	size_t first = p->channels > 1 ? (size_t)p->chan * p->stride : 0; /* lut_chan */
	uint32_t *tables = model_tables(dram.bytes + LUTP_TABLE_ADDR, wide, first,
					(size_t)m.channels * p->stride);
	uint8_t *rows = malloc(p->rows * packed_bytes);
	assert_non_null(rows);
	memcpy(rows, packed, p->rows * packed_bytes);
	fill_pads(rows, p->rows, lanes, p->bw);
	vta_rtl_lut_load ld = load_of(cfg, p->mem, p->bw, m, tables, p->stride, rows, p->rows);
	void *out = malloc(n * (wide ? 4 : 1));
	assert_non_null(out);
	uint64_t cycles = 0;
	vta_status s = vta_rtl_lut_load_run(dec, &ld, out, &cycles, &err);

	if (bad >= 0) {
		/* the model's status and message after its "insn N (...): " prefix */
		const char *tail = strstr(rerr.detail, "): ");
		assert_non_null(tail);
		if (s != rs || strcmp(err.detail, tail + 3) != 0)
			fail_msg("%s bw %u bad %ld: model %d \"%s\", RTL %d \"%s\"",
				 vta_mem_name(p->mem), p->bw, bad, rs, rerr.detail, s, err.detail);
	} else {
		if (s != VTA_OK)
			fail_msg("%s bw %u: %s", vta_mem_name(p->mem), p->bw, err.detail);
		size_t sram_size;
		const uint8_t *sram = vta_ref_sram(ref, p->mem, &sram_size) + 2 * lanes *
				      (wide ? 4 : 1);
		if (memcmp(sram, p->expect, p->expect_bytes) != 0) /* the model is right */
			fail_msg("%s bw %u rows %u channels %u: the reference executor differs "
				 "from the indices",
				 vta_mem_name(p->mem), p->bw, p->rows, p->channels);
		for (size_t e = 0; e < n; e++) {
			uint32_t want = 0, got = 0;
			memcpy(&want, sram + e * (wide ? 4 : 1), wide ? 4 : 1);
			memcpy(&got, (uint8_t *)out + e * (wide ? 4 : 1), wide ? 4 : 1);
			if (got != want)
				fail_msg("%s bw %u rows %u channels %u: element %zu (row %zu lane "
					 "%zu): RTL 0x%x, model 0x%x",
					 vta_mem_name(p->mem), p->bw, p->rows, p->channels, e,
					 e / lanes, e % lanes, got, want);
		}
		vta_mem_insn mi = {p->mem, 2, LUTP_INDEX_ELEM, 1, p->rows, p->rows,
				   0, 0, 0, 0, p->bw, 3, p->chan, 0, 0, 0};
		assert_int_equal(cycles, vta_cost_lut_decode_cycles(cfg, &mi));
	}
	free(out);
	free(rows);
	free(tables);
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
					check_load(ref, dec, &cfg, &p, seed++, -1);
				}
			}
		}
		vta_ref_destroy(ref);
		vta_rtl_lut_destroy(dec);
	}
}

/* An index beyond its table: the RTL's status and message are the model's, naming the
 * element counted from the load's first (first, middle and last element of several rows,
 * padded rows included), for int8 and int32 tables, per tensor and per channel. */
static void test_bad_index_is_models(void **state)
{
	(void)state;
	const vta_mem mems[] = {VTA_MEM_WGT, VTA_MEM_INP, VTA_MEM_ACC};
	uint32_t seed = 77;
	for (size_t c = 0; c < 2; c++) { /* default; tiny (padded rows at odd widths) */
		vta_config cfg;
		load_config(k_configs[c], &cfg);
		vta_rtl_lut *dec = decoder_of(&cfg);
		vta_ref *ref;
		vta_error err = {0};
		assert_int_equal(vta_ref_create(&cfg, &ref, &err), VTA_OK);
		for (size_t k = 0; k < 3; k++) {
			uint32_t row_ch = vta_lut_row_channels(&cfg, mems[k]);
			long lanes = (long)vta_lut_lanes(&cfg, mems[k]);
			for (uint32_t bw = 1; bw <= 7; bw += 2) {
				const long spots[] = {0, 2 * lanes + lanes / 2, 3 * lanes + lanes - 1};
				for (size_t s = 0; s < 3; s++) {
					uint32_t chan = s == 1 ? 2 : 0;
					lutp p = {mems[k], bw, s == 1 ? chan + row_ch : 1,
						  (1u << bw) - 1, chan, 4, NULL, 0};
					check_load(ref, dec, &cfg, &p, seed++, spots[s]);
				}
			}
		}
		vta_ref_destroy(ref);
		vta_rtl_lut_destroy(dec);
	}
}

/* The load's own checks: tables beyond the decoder's, a malformed load. */
static void test_load_checks(void **state)
{
	(void)state;
	vta_config cfg;
	load_config("configs/default.yaml", &cfg);
	vta_rtl_lut *dec = decoder_of(&cfg);
	assert_int_equal(vta_rtl_lut_table_entries(dec), 4096);
	static uint32_t tables[33 * 128];
	uint8_t packed[16] = {0};
	int8_t out[16];
	vta_error err = {0};
	lane_map m = {1, 32};
	vta_rtl_lut_load ld = load_of(&cfg, VTA_MEM_INP, 7, m, tables, 128, packed, 1);
	uint64_t cycles = 0;
	/* 32 channels of 128 entries (7-bit indices read them all): the most a load needs,
	 * and it fits */
	assert_int_equal(vta_rtl_lut_load_run(dec, &ld, out, &cycles, &err), VTA_OK);
	ld.channels = 33;
	assert_int_equal(vta_rtl_lut_load_run(dec, &ld, out, &cycles, &err), VTA_E_UNSUPPORTED);
	assert_string_equal(err.detail, "datapath rtl: a LUT load's 33 tables of 128 entries "
					"exceed the RTL decoder's table of 4096 entries");
	ld.channels = 1;
	ld.bitwidth = 0;
	assert_int_equal(vta_rtl_lut_load_run(dec, &ld, out, &cycles, &err), VTA_E_USAGE);
	assert_non_null(strstr(err.detail, "malformed LUT load (bit width 0"));
	/* tables longer than an index can read (the ISA allows any stride): each lane reads
	 * TABLE[channel * stride + index], as the reference does */
	ld.bitwidth = 7;
	ld.stride = 2052;
	ld.channels = 2;
	ld.run_len = 8;
	for (size_t k = 0; k < 2 * 2052; k++)
		tables[k] = (uint32_t)(k * 37 + 11);
	for (unsigned lane = 0; lane < 16; lane++)
		put_index(packed, lane, 7, lane * 5 + 3);
	assert_int_equal(vta_rtl_lut_load_run(dec, &ld, out, &cycles, &err), VTA_OK);
	for (unsigned lane = 0; lane < 16; lane++)
		assert_int_equal(out[lane], (int8_t)(uint8_t)tables[lane / 8 * 2052 + lane * 5 + 3]);
	/* and one shorter than 2^bitwidth still refuses an index beyond it */
	ld.stride = 4;
	assert_int_equal(vta_rtl_lut_load_run(dec, &ld, out, &cycles, &err), VTA_E_OOB);
	assert_string_equal(err.detail, "LUT index 8 of element 1 beyond its table of 4 entries");
	memset(packed, 0, sizeof(packed));
	ld.channels = 1;
	ld.run_len = 32;
	ld.bitwidth = 1;
	ld.stride = 2;
	assert_int_equal(vta_rtl_lut_load_run(dec, NULL, out, &cycles, &err), VTA_E_USAGE);
	assert_int_equal(vta_rtl_lut_load_run(dec, &ld, NULL, &cycles, &err), VTA_E_USAGE);
	/* still usable, cycles optional */
	assert_int_equal(vta_rtl_lut_load_run(dec, &ld, out, NULL, &err), VTA_OK);
	vta_rtl_lut_destroy(dec);
}

/* The waveform shows a job at the load's simulated cycle: its start tick is dumped at
 * 1000 x cycle (clk low). */
static void test_load_waveform_time(void **state)
{
	(void)state;
	vta_config cfg;
	load_config("configs/default.yaml", &cfg);
	vta_rtl_lut *dec = decoder_of(&cfg);
	char path[] = "/tmp/vtasim_rtl_lut_load_XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	vta_error err = {0};
	assert_int_equal(vta_rtl_lut_trace(dec, path, &err), VTA_OK);
	uint32_t tables[16];
	for (unsigned i = 0; i < 16; i++)
		tables[i] = 0x1000u * i + 7;
	uint8_t packed[2 * 8];
	for (unsigned i = 0; i < sizeof(packed); i++)
		packed[i] = (uint8_t)(37 * i);
	int8_t out[2 * 16];
	lane_map m = {1, 1};
	vta_rtl_lut_load ld = load_of(&cfg, VTA_MEM_INP, 4, m, tables, 16, packed, 2);
	ld.cycle = 5000;
	uint64_t cycles = 0;
	assert_int_equal(vta_rtl_lut_load_run(dec, &ld, out, &cycles, &err), VTA_OK);
	assert_int_equal(cycles, 5); /* 32 indices: 2 lane cycles + 3 */
	ld.cycle = 7000; /* the same tables: nothing to write, the job starts at 7000 too */
	assert_int_equal(vta_rtl_lut_load_run(dec, &ld, out, &cycles, &err), VTA_OK);
	for (unsigned e = 0; e < 32; e++) {
		unsigned b = packed[e / 2];
		assert_int_equal((uint8_t)out[e], (uint8_t)tables[e % 2 ? b & 15 : b >> 4]);
	}
	/* closing the waveform completes the file; the decoder runs on untraced */
	assert_int_equal(vta_rtl_lut_trace(dec, NULL, NULL), VTA_OK);
	/* tables written at 4992..4999 (8 words of two entries), the job from 5000 */
	assert_true(rtl_file_contains(path, "\n#4992000\n"));
	assert_true(rtl_file_contains(path, "\n#5000000\n"));
	assert_false(rtl_file_contains(path, "\n#6999000\n"));
	assert_true(rtl_file_contains(path, "\n#7000000\n"));
	ld.cycle = 9000;
	assert_int_equal(vta_rtl_lut_load_run(dec, &ld, out, &cycles, &err), VTA_OK);
	assert_false(rtl_file_contains(path, "\n#9000000\n"));
	vta_rtl_lut_destroy(dec);
	unlink(path);
}

/* ----- cycles ----- */

/* RTL decode cycles of a load of `rows` random packed rows of mem at width bw (pad bits
 * random too: the data does not change the timing), per-channel tables of stride 2^bw. */
static uint64_t rtl_cycles(vta_rtl_lut *dec, const vta_config *cfg, vta_mem mem, unsigned bw,
			   uint64_t rows, vta_prng *r)
{
	size_t bytes = rows * vta_lut_packed_bytes(cfg, mem, bw);
	lane_map m = lane_map_of(cfg, mem, true);
	size_t stride = (size_t)1 << bw, entries = m.channels * stride;
	size_t n = rows * vta_lut_lanes(cfg, mem);
	uint8_t *packed = malloc(bytes);
	uint32_t *tables = malloc(entries * sizeof(uint32_t));
	uint32_t *out = malloc(n * sizeof(uint32_t));
	assert_non_null(packed);
	assert_non_null(tables);
	assert_non_null(out);
	for (size_t i = 0; i < entries; i++)
		tables[i] = vta_prng_next(r);
	for (size_t i = 0; i < bytes; i++)
		packed[i] = (uint8_t)vta_prng_next(r);
	vta_rtl_lut_load ld = load_of(cfg, mem, bw, m, tables, (unsigned)stride, packed, rows);
	uint64_t cycles = 0;
	vta_error err = {0};
	if (vta_rtl_lut_load_run(dec, &ld, out, &cycles, &err) != VTA_OK)
		fail_msg("%s", err.detail);
	free(packed);
	free(tables);
	free(out);
	return cycles;
}

/* The RTL's decode cycles of one load, one job, equal the model's; rows padded to a byte
 * (the tiny geometry's INP and ACC rows at odd widths) included. */
static void check_cycles(vta_rtl_lut *dec, const vta_config *cfg, const vta_mem_insn *m,
			 const char *where, vta_prng *r)
{
	vta_mem mem = (vta_mem)m->mem_type;
	uint64_t rows = (uint64_t)m->x_size * m->y_size;
	uint64_t model = vta_cost_lut_decode_cycles(cfg, m);
	uint64_t rtl = rtl_cycles(dec, cfg, mem, m->lut_bw, rows, r);
	if (rtl != model)
		fail_msg("%s: %s bw %u, %llu rows: RTL %llu cycles, model %llu", where,
			 vta_mem_name(mem), m->lut_bw, (unsigned long long)rows,
			 (unsigned long long)rtl, (unsigned long long)model);
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
	if (vta_read_file(program, "program", VTA_LIMIT_PROGRAM, &text, &len, &err) != VTA_OK)
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
							  0, 0, 0, 0, bw, 0, 0, 0, 0, 0};
					check_cycles(dec, &cfg, &m, k_configs[c], &r);
				}
		vta_rtl_lut_destroy(dec);
	}
}

/* Zero-lane fill: the model's SRAM write hands the RTL compact rows of BLOCK_OUT x G real
 * lanes (run_len G, BLOCK_OUT channels); its decode cycles equal the model's, whose E counts
 * the real lanes, for every group width, width and size on every variant. */
static void test_zero_fill_cycles(void **state)
{
	(void)state;
	vta_prng r;
	vta_prng_seed(&r, 30);
	const uint32_t rows[] = {1, 9, 25};
	for (size_t c = 0; c < sizeof(k_configs) / sizeof(k_configs[0]); c++) {
		vta_config cfg;
		load_config(k_configs[c], &cfg);
		vta_rtl_lut *dec = decoder_of(&cfg);
		for (uint32_t g = 1; g < cfg.block_in; g *= 2)
			for (uint32_t bw = 1; bw <= 7; bw++)
				for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
					vta_mem_insn m = {VTA_MEM_WGT, 0, 0, rows[i], 1, 1,
							  0, 0, 0, 0, bw, 0, 0, 0, g, 1};
					const uint32_t lanes = vta_lut_real_lanes(&cfg, &m);
					const size_t bytes = rows[i] * (size_t)vta_load_elem_bytes(&cfg, &m);
					const size_t stride = (size_t)1 << bw;
					uint8_t *packed = malloc(bytes);
					uint32_t *tables = malloc(cfg.block_out * stride * sizeof(uint32_t));
					uint8_t *out = malloc((size_t)rows[i] * lanes);
					assert_non_null(packed);
					assert_non_null(tables);
					assert_non_null(out);
					for (size_t k = 0; k < bytes; k++)
						packed[k] = (uint8_t)vta_prng_next(&r);
					for (size_t k = 0; k < cfg.block_out * stride; k++)
						tables[k] = vta_prng_next(&r);
					vta_rtl_lut_load ld = {bw, lanes, rows[i], packed, tables,
							       cfg.block_out, g, (unsigned)stride, 0,
							       0, 1, 0};
					uint64_t cycles = 0;
					vta_error err = {0};
					if (vta_rtl_lut_load_run(dec, &ld, out, &cycles, &err) != VTA_OK)
						fail_msg("%s", err.detail);
					if (cycles != vta_cost_lut_decode_cycles(&cfg, &m))
						fail_msg("%s: group %u bw %u rows %u: RTL %llu cycles, "
							 "model %llu", k_configs[c], g, bw, rows[i],
							 (unsigned long long)cycles,
							 (unsigned long long)vta_cost_lut_decode_cycles(
								 &cfg, &m));
					free(packed);
					free(tables);
					free(out);
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
		bw = bw < VTA_LUT_MAX_BITWIDTH ? bw : VTA_LUT_MAX_BITWIDTH;
		uint64_t cycles = rtl_cycles(dec, &cfg, VTA_MEM_WGT, bw, rows, &r);
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
		cmocka_unit_test(test_bad_index_is_models),
		cmocka_unit_test(test_load_checks),
		cmocka_unit_test(test_load_waveform_time),
		cmocka_unit_test(test_regression_loads_cycles),
		cmocka_unit_test(test_sweep_cycles),
		cmocka_unit_test(test_zero_fill_cycles),
		cmocka_unit_test(test_indices_per_cycle_is_lane_count),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
