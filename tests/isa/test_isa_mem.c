/*
 * test_isa_mem.c - the memory table (isa/vta_mem.h) and every list derived from it: its
 * rows against VTA's codes and names, the statistics slots against the sram_kib keys' order,
 * the config keys against the SRAM array, the geometry against VTA's default build, and
 * each row through both instruction encodings (and a code beyond each field refused).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "vta_config_keys.h"
#include "vta_footprint.h"
#include "vta_insn.h"
#include "vta_insn_fields.h"
#include "vta_mem.h"

static void wide_config(vta_config *cfg)
{
	vta_config_default(cfg);
	cfg->isa_encoding = VTA_ENC_WIDE;
	cfg->sram[VTA_MEM_UOP].kib = 64;
	vta_error err = {0};
	if (vta_config_derive(cfg, &err) != VTA_OK)
		fail_msg("config: %s", err.detail);
}

/* VTA's codes and the names assembly, reports and traces use. */
static void test_rows(void **state)
{
	(void)state;
	static const char *const want[VTA_MEM_COUNT] = {"uop", "wgt", "inp", "acc",
							"out", "acc8", "lut", "lut32"};
	for (unsigned m = 0; m < VTA_MEM_COUNT; m++) {
		const vta_mem_info *i = vta_mem_info_of(m);
		assert_non_null(i);
		assert_int_equal(i->id, m);
		assert_string_equal(i->name, want[m]);
		assert_string_equal(vta_mem_name((vta_mem)m), want[m]);
		assert_int_equal(vta_mem_is_sram(m), m < VTA_SRAM_COUNT);
		if (vta_mem_is_sram(m)) {
			/* an SRAM is its own space, named as itself, its depth an SRAM's */
			assert_int_equal(i->space, m);
			assert_string_equal(vta_space_name(i->space), i->name);
			assert_true(vta_mem_is_sram(i->depth_of));
			assert_non_null(vta_mem_info_of(i->depth_of)->size_key);
			assert_true(i->stats_slot >= 0 && i->stats_slot < VTA_STATS_SRAMS);
		} else {
			assert_int_equal(i->stats_slot, -1);
			assert_null(i->size_key);
			assert_true(vta_mem_is_sram(i->space) || i->space == VTA_SPACE_LUT);
		}
	}
	assert_null(vta_mem_info_of(VTA_MEM_COUNT));
	assert_string_equal(vta_mem_name(VTA_MEM_COUNT), "?");
	assert_int_equal(vta_mem_info_of(VTA_MEM_ACC_8BIT)->space, VTA_SPACE_ACC);
	assert_int_equal(vta_mem_info_of(VTA_MEM_LUT32)->space, VTA_SPACE_LUT);
	assert_int_equal(vta_mem_info_of(VTA_MEM_OUT)->depth_of, VTA_MEM_ACC);
	for (unsigned m = 0; m <= VTA_MEM_COUNT; m++) {
		bool table = m == VTA_MEM_LUT || m == VTA_MEM_LUT32;
		assert_int_equal(vta_mem_is_table(m), table);
		vta_mem want = m == VTA_MEM_ACC_8BIT ? VTA_MEM_ACC
			       : m < VTA_SRAM_COUNT  ? (vta_mem)m
						     : VTA_MEM_COUNT;
		assert_int_equal(vta_mem_sram_of(m), want);
	}
}

/* The statistics slots: one per SRAM, in the order reports print them (uop, inp, wgt, acc,
 * out), which is the order of the sram_kib keys. */
static void test_stats_slots(void **state)
{
	(void)state;
	static const char *const order[VTA_STATS_SRAMS] = {"uop", "inp", "wgt", "acc", "out"};
	bool seen[VTA_STATS_SRAMS] = {false};
	for (unsigned s = 0; s < VTA_STATS_SRAMS; s++) {
		vta_mem m = vta_mem_of_stats_slot(s);
		assert_true(vta_mem_is_sram(m));
		assert_int_equal(vta_mem_info_of(m)->stats_slot, s);
		assert_false(seen[m]);
		seen[m] = true;
		assert_string_equal(vta_stats_slot_name(s), order[s]);
	}
	assert_int_equal(vta_mem_of_stats_slot(VTA_STATS_SRAMS), VTA_MEM_COUNT);
	size_t n;
	const vta_config_key *keys = vta_config_keys(&n);
	unsigned slot = 0;
	for (size_t k = 0; k < n; k++) {
		if (strncmp(keys[k].name, "sram_kib.", 9))
			continue;
		while (!vta_mem_info_of(vta_mem_of_stats_slot(slot))->size_key)
			slot++;
		assert_string_equal(keys[k].name,
				    vta_mem_info_of(vta_mem_of_stats_slot(slot))->size_key);
		slot++;
	}
}

/* Each sized SRAM's key writes its own entry of the array, and no other key writes there. */
static void test_keys_in_step(void **state)
{
	(void)state;
	const size_t lo = offsetof(vta_config, sram);
	const size_t hi = lo + sizeof(((vta_config *)0)->sram);
	for (unsigned m = 0; m < VTA_SRAM_COUNT; m++) {
		const vta_mem_info *i = vta_mem_info_of(m);
		if (!i->size_key)
			continue;
		const vta_config_key *k = vta_config_key_find(i->size_key);
		assert_non_null(k);
		assert_int_equal(k->offset, lo + m * sizeof(vta_sram_geometry) +
						    offsetof(vta_sram_geometry, kib));
		assert_int_equal(k->size, sizeof(uint32_t));
	}
	size_t n;
	const vta_config_key *keys = vta_config_keys(&n);
	for (size_t k = 0; k < n; k++) {
		if (keys[k].offset < lo || keys[k].offset >= hi)
			continue;
		unsigned m = (unsigned)((keys[k].offset - lo) / sizeof(vta_sram_geometry));
		const vta_mem_info *i = vta_mem_info_of(m);
		assert_non_null(i->size_key);
		assert_string_equal(i->size_key, keys[k].name);
	}
	/* a key set by name lands in the array */
	vta_config cfg;
	vta_config_default(&cfg);
	vta_error err = {0};
	assert_int_equal(vta_config_set(&cfg, "sram_kib.wgt", "128", &err), VTA_OK);
	assert_int_equal(cfg.sram[VTA_MEM_WGT].kib, 128);
	assert_int_equal(cfg.sram[VTA_MEM_WGT].depth, 512);
}

/* VTA's default 1x16x16 build (hw_spec_const.h): rows, depths, capacities; and the DRAM
 * elements of the memory types that are no SRAM of their own. */
static void test_default_geometry(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	static const struct {
		vta_mem mem;
		uint32_t elem, depth;
		uint64_t bytes;
	} want[] = {
		{VTA_MEM_UOP, 4, 8192, 32768},   {VTA_MEM_WGT, 256, 1024, 262144},
		{VTA_MEM_INP, 16, 2048, 32768},  {VTA_MEM_ACC, 64, 2048, 131072},
		{VTA_MEM_OUT, 16, 2048, 32768},
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const vta_sram_geometry *s = &cfg.sram[want[i].mem];
		assert_int_equal(s->elem_bytes, want[i].elem);
		assert_int_equal(s->depth, want[i].depth);
		assert_int_equal(s->bytes, want[i].bytes);
		assert_int_equal(1u << s->log_depth, want[i].depth);
		assert_int_equal(vta_config_dram_elem_bytes(&cfg, want[i].mem), want[i].elem);
		assert_int_equal(vta_config_sram_depth(&cfg, want[i].mem), want[i].depth);
	}
	assert_int_equal(cfg.sram[VTA_MEM_OUT].kib, 0); /* derived, not a key */
	assert_int_equal(vta_config_dram_elem_bytes(&cfg, VTA_MEM_ACC_8BIT), 16);
	assert_int_equal(vta_config_dram_elem_bytes(&cfg, VTA_MEM_LUT), 1);
	assert_int_equal(vta_config_dram_elem_bytes(&cfg, VTA_MEM_LUT32), 4);
	assert_int_equal(vta_config_dram_elem_bytes(&cfg, VTA_MEM_COUNT), 0);
	assert_int_equal(vta_config_sram_depth(&cfg, VTA_MEM_ACC_8BIT), 2048);
	assert_int_equal(vta_config_sram_depth(&cfg, VTA_MEM_LUT32), cfg.lut_depth);
	assert_int_equal(vta_config_elem_lanes(&cfg, VTA_MEM_WGT), 256);
	assert_int_equal(vta_config_lane_bits(&cfg, VTA_MEM_ACC), 32);
	/* the wide encoding's micro-op is 8 bytes: the UOP row follows the encoding */
	vta_config wide;
	wide_config(&wide);
	assert_int_equal(wide.sram[VTA_MEM_UOP].elem_bytes, 8);
	assert_int_equal(wide.sram[VTA_MEM_UOP].depth, 8192);
}

/* A too-small SRAM is named by its row's key. */
static void test_sram_too_small(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	vta_error err = {0};
	cfg.log_block_in = cfg.log_block_out = 7; /* a WGT row of 16 KiB */
	cfg.sram[VTA_MEM_WGT].kib = 8;
	assert_int_equal(vta_config_derive(&cfg, &err), VTA_E_CONFIG);
	assert_string_equal(err.detail,
			    "sram_kib.wgt: 8 KiB is smaller than one row of 16384 bytes");
}

static vta_insn load_of(uint32_t mem)
{
	vta_insn in;
	memset(&in, 0, sizeof(in));
	in.opcode = mem == VTA_MEM_OUT ? VTA_OP_STORE : VTA_OP_LOAD;
	in.mem.mem_type = mem;
	in.mem.sram_base = 5;
	in.mem.dram_base = 77;
	in.mem.y_size = 2;
	in.mem.x_size = 3;
	in.mem.x_stride = 3;
	return in;
}

/* Every row round-trips through both encodings; the wide one's bytes are vta128's followed
 * by zeros (memory_type's fourth bit is 0 for every code vta128 has). */
static void test_rows_round_trip(void **state)
{
	(void)state;
	vta_config narrow, wide;
	vta_config_default(&narrow);
	wide_config(&wide);
	assert_int_equal(narrow.fw.memop_id, VTA_MEM_TYPE_BITS_VTA128);
	assert_int_equal(narrow.fw.memop_id_high, 0);
	assert_int_equal(wide.fw.memop_id + wide.fw.memop_id_high, VTA_MEM_TYPE_BITS_WIDE);
	assert_true(VTA_MEM_COUNT <= 1u << (wide.fw.memop_id + wide.fw.memop_id_high));
	for (unsigned m = 0; m < VTA_MEM_COUNT; m++) {
		vta_insn in = load_of(m), out;
		uint8_t a[VTA_INSN_MAX_BYTES] = {0}, b[VTA_INSN_MAX_BYTES] = {0};
		vta_error err = {0};
		if (m < 1u << narrow.fw.memop_id) {
			assert_int_equal(vta_insn_encode(&narrow, &in, a, &err), VTA_OK);
			assert_int_equal(vta_insn_decode(&narrow, a, &out, &err), VTA_OK);
			assert_int_equal(out.mem.mem_type, m);
			assert_int_equal((a[0] >> 7 | a[1] << 1) & 7, m); /* bits 9:7 */
		}
		assert_int_equal(vta_insn_encode(&wide, &in, b, &err), VTA_OK);
		assert_int_equal(vta_insn_decode(&wide, b, &out, &err), VTA_OK);
		assert_int_equal(out.mem.mem_type, m);
		assert_int_equal(b[16] & 1, m >> 3); /* the fourth bit: bit 0 of word 2 */
		if (m < VTA_MEM_VTA128_COUNT) {
			static const uint8_t zero[16];
			assert_memory_equal(a, b, 16);
			assert_memory_equal(b + 16, zero, 16);
		}
	}
}

/* A code beyond each encoding's field is refused with the one-line encoding error; a wide
 * word 2 whose fourth memory_type bit makes an undefined code is a stream error. */
static void test_code_beyond_field(void **state)
{
	(void)state;
	vta_config narrow, wide;
	vta_config_default(&narrow);
	wide_config(&wide);
	uint8_t b[VTA_INSN_MAX_BYTES];
	vta_error err = {0};
	vta_insn in = load_of(1u << VTA_MEM_TYPE_BITS_VTA128);
	assert_int_equal(vta_insn_encode(&narrow, &in, b, &err), VTA_E_ENCODE);
	assert_string_equal(err.detail, "memory_type 8 is not defined (0..7)");
	in = load_of(1u << VTA_MEM_TYPE_BITS_WIDE);
	assert_int_equal(vta_insn_encode(&wide, &in, b, &err), VTA_E_ENCODE);
	assert_string_equal(err.detail, "memory_type 16 is not defined (0..7)");
	assert_null(strchr(err.detail, '\n'));

	in = load_of(VTA_MEM_INP);
	vta_insn out;
	assert_int_equal(vta_insn_encode(&wide, &in, b, &err), VTA_OK);
	b[16] |= 1; /* INP (2) + 8 */
	assert_int_equal(vta_insn_decode(&wide, b, &out, &err), VTA_E_STREAM);
	assert_string_equal(err.detail, "memory_type 10 is not defined (0..7)");
	b[16] = 0;
	b[21] = 2; /* the bit above lut_period (bits 40:25, after lut_run and lut_group) */
	assert_int_equal(vta_insn_decode(&wide, b, &out, &err), VTA_E_STREAM);
	assert_non_null(strstr(err.detail, "unused bits 41..63 of word 2"));
}

/* The field table shows the split: 3 bits in word 0, wide's fourth in word 2. */
static void test_field_words(void **state)
{
	(void)state;
	vta_config narrow, wide;
	vta_config_default(&narrow);
	wide_config(&wide);
	const vta_insn_format *mem = vta_insn_format_of(VTA_OP_LOAD);
	const vta_insn_field *f = &mem->fields[0];
	assert_string_equal(f->name, "memory_type");
	assert_int_equal(vta_field_width(f, &narrow.fw), 3);
	assert_int_equal(vta_field_high_width(f, &narrow.fw), 0);
	assert_int_equal(vta_field_high_width(f, &wide.fw), 1);
	assert_int_equal(vta_field_high_word(f, &wide.fw), 2);
	assert_int_equal(vta_format_bits(mem, &wide.fw, 2), 1 + 16 + 8 + 16); /* and the LUT run
									   * and fill fields */
	assert_int_equal(vta_format_bits(mem, &narrow.fw, 0) + 7, 64); /* vta128 word 0: full */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_stats_slots),
		cmocka_unit_test(test_keys_in_step),
		cmocka_unit_test(test_default_geometry),
		cmocka_unit_test(test_sram_too_small),
		cmocka_unit_test(test_rows_round_trip),
		cmocka_unit_test(test_code_beyond_field),
		cmocka_unit_test(test_field_words),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
