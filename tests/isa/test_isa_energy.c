/*
 * test_isa_energy.c - energy per action and area (vta_energy.h) against the arithmetic
 * written out by hand: the SRAM curve passes through its three published points and is
 * straight in log-log between them; a run's energy is each count times its table entry;
 * changing one key moves exactly its part and the total; area follows the sizes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "vta_energy.h"

static void assert_close(double got, double want)
{
	if (fabs(got - want) > 1e-9 * (fabs(want) > 1 ? fabs(want) : 1))
		fail_msg("got %.12g, want %.12g", got, want);
}

static void test_sram_curve(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	assert_close(vta_energy_sram_pj_per_64b(&cfg, 8), 10);
	assert_close(vta_energy_sram_pj_per_64b(&cfg, 32), 20);
	assert_close(vta_energy_sram_pj_per_64b(&cfg, 1024), 100);
	/* 16 KiB: halfway between 8 and 32 KiB in log2, so the geometric mean of 10 and 20 */
	assert_close(vta_energy_sram_pj_per_64b(&cfg, 16), sqrt(10.0 * 20.0));
	/* 2 KiB: the first segment's slope (x2 per x4) carried down: 10 / 2 */
	assert_close(vta_energy_sram_pj_per_64b(&cfg, 2), 5);
	/* a 256-byte row of a 256 KiB SRAM: 32 banks of 8 KiB, 10 pJ each */
	assert_close(vta_energy_sram_row_pj(&cfg, 256, 256), 320);
	/* a 4-byte row: half a word of the whole 32 KiB SRAM */
	assert_close(vta_energy_sram_row_pj(&cfg, 32, 4), 10);
}

/* A run of known counts on the default config (1x16x16, SRAMs 32/32/256/128 KiB and OUT
 * 32 KiB, 16-byte instructions, a 32 KiB table memory). */
static vta_run_stats counts(void)
{
	vta_run_stats st;
	memset(&st, 0, sizeof(st));
	st.cycles = 1000;
	st.time_us = 10;
	st.macs = 25600;
	st.alu_uops = 30;
	st.module[VTA_STATS_FETCH].insns = 12;
	st.dram_insn_bytes = 192;
	st.dram_read_bytes[VTA_MEM_INP] = 1000;
	st.dram_read_bytes[VTA_MEM_WGT] = 2000;
	st.dram_write_bytes = 500;
	for (int s = 0; s < VTA_STATS_SRAMS; s++) {
		st.sram[s].reads = 100 + (uint64_t)s;
		st.sram[s].writes = 50 + (uint64_t)s;
	}
	st.decoder.elements = 4096;
	st.decoder.table_bytes = 64;
	return st;
}

static void test_run_energy(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	const vta_run_stats st = counts();
	vta_energy e;
	vta_energy_of(&cfg, &st, &e);
	/* written out: row energies from banks of (capacity / words) KiB */
	const double uop = 20.0 * 4 / 8;                      /* 32 KiB, 4 B: half a word */
	const double inp = sqrt(10.0 * 20.0) * 2;             /* 2 words, banks of 16 KiB */
	const double wgt = 10.0 * 32;                         /* 32 words, banks of 8 KiB */
	const double acc = sqrt(10.0 * 20.0) * 8;             /* 8 words, banks of 16 KiB */
	const double out = sqrt(10.0 * 20.0) * 2;             /* 2 words, banks of 16 KiB */
	const double rows[5] = {uop, inp, wgt, acc, out};
	double sram = 0;
	for (int s = 0; s < 5; s++) {
		const double want = rows[s] * (double)(100 + s + 50 + s);
		assert_close(e.part_pj[VTA_ENERGY_SRAM_UOP + s], want);
		sram += want;
	}
	assert_close(e.part_pj[VTA_ENERGY_DRAM_READ], (192 + 1000 + 2000) * 162.5);
	assert_close(e.part_pj[VTA_ENERGY_DRAM_WRITE], 500 * 162.5);
	assert_close(e.part_pj[VTA_ENERGY_GEMM], 25600 * 0.3);
	assert_close(e.part_pj[VTA_ENERGY_ALU], 30 * 16 * 0.1);
	assert_close(e.part_pj[VTA_ENERGY_FETCH], 12 * 2 * 2 * 10.0); /* 2 words, in and out */
	const double entry = 20.0 * 4 / 8; /* a 32-bit entry of the 32 KiB table memory */
	assert_close(e.part_pj[VTA_ENERGY_DECODER], 4096 * (0.03 + entry) + 64 * entry / 4);
	const double kib = 32 + 32 + 256 + 128 + 32 + 32;
	assert_close(e.part_pj[VTA_ENERGY_LEAKAGE], kib * 1000 * 0.02);
	double total = 0;
	for (int p = 0; p < VTA_ENERGY_PARTS; p++)
		total += e.part_pj[p];
	assert_close(e.total_pj, total);
	assert_close(e.edp_uj_us, total * 1e-6 * 10);
	(void)sram;
}

static void test_one_key_moves_its_part(void **state)
{
	(void)state;
	vta_config a, b;
	vta_config_default(&a);
	vta_config_default(&b);
	b.e_mac_pj = 0.5;
	const vta_run_stats st = counts();
	vta_energy ea, eb;
	vta_energy_of(&a, &st, &ea);
	vta_energy_of(&b, &st, &eb);
	for (int p = 0; p < VTA_ENERGY_PARTS; p++)
		if (p != VTA_ENERGY_GEMM)
			assert_close(eb.part_pj[p], ea.part_pj[p]);
	assert_close(eb.part_pj[VTA_ENERGY_GEMM] - ea.part_pj[VTA_ENERGY_GEMM], 25600 * 0.2);
	assert_close(eb.total_pj - ea.total_pj, 25600 * 0.2);
	/* no decoder: no decoder energy and no table memory leaking */
	b = a;
	b.decomp_enabled = false;
	vta_energy_of(&b, &st, &eb);
	assert_close(eb.part_pj[VTA_ENERGY_DECODER], 0);
	assert_close(ea.part_pj[VTA_ENERGY_LEAKAGE] - eb.part_pj[VTA_ENERGY_LEAKAGE],
		     32 * 1000 * 0.02);
}

static void test_area(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	vta_area a;
	vta_area_of(&cfg, &a);
	const double per_kib = 8192 * 0.346 / 0.7 / 1e6;
	assert_close(a.part_mm2[VTA_AREA_SRAM_WGT], 256 * per_kib);
	assert_close(a.part_mm2[VTA_AREA_LUT_TABLE], 32 * per_kib);
	assert_close(a.part_mm2[VTA_AREA_GEMM], 256 * 419 / 1e6);
	assert_close(a.part_mm2[VTA_AREA_ALU], 16 * (137 + 3495) / 1e6);
	double total = 0;
	for (int p = 0; p < VTA_AREA_PARTS; p++)
		total += a.part_mm2[p];
	assert_close(a.total_mm2, total);
	/* half the WGT SRAM: half its area, nothing else moves */
	vta_config half = cfg;
	half.sram[VTA_MEM_WGT].kib = 128;
	vta_error err = {0};
	assert_int_equal(vta_config_derive(&half, &err), VTA_OK);
	vta_area b;
	vta_area_of(&half, &b);
	assert_close(b.part_mm2[VTA_AREA_SRAM_WGT], a.part_mm2[VTA_AREA_SRAM_WGT] / 2);
	assert_close(a.total_mm2 - b.total_mm2, a.part_mm2[VTA_AREA_SRAM_WGT] / 2);
	assert_string_equal(vta_area_part_name(VTA_AREA_SRAM_WGT), "sram_wgt");
	assert_string_equal(vta_energy_part_name(VTA_ENERGY_LEAKAGE), "leakage");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sram_curve),
		cmocka_unit_test(test_run_energy),
		cmocka_unit_test(test_one_key_moves_its_part),
		cmocka_unit_test(test_area),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
