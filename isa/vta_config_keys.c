/*
 * vta_config_keys.c - the table of config keys (vta_config_keys.h) and everything it drives:
 * defaults, reading one value, set-by-name, the single-key checks, comparison and printing.
 */
#include "vta_config_keys.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vta_limits.h"
#include "vta_text.h"
#include "vta_yaml.h"

#define KEY(name, type, field, def, min, max, pow2)                                         \
	{name, type, offsetof(vta_config, field), sizeof(((vta_config *)0)->field), def, min, \
	 max, pow2, NULL}
#define CHOICE(name, field, def, choices) \
	{name, VTA_KEY_CHOICE, offsetof(vta_config, field), sizeof(uint32_t), def, 0, 0, false, choices}
/* An SRAM's size: the kib of its entry in vta_config.sram, under its row's size_key (the
 * memory table, vta_mem.c; tests/isa/test_isa_mem.c holds the two in step). */
#define SRAM_KEY(name, mem, def) \
	KEY(name, VTA_KEY_U32, sram[VTA_MEM_##mem].kib, def, 1, 1 << 20, true)
static const char *const DATAPATHS[] = {"c", "rtl", NULL}; /* by vta_datapath */
static const char *const ENCODINGS[] = {"vta128", "wide", NULL}; /* by vta_encoding */
static const char *const DISPATCHES[] = {"stream", "burst", NULL}; /* by vta_fetch_dispatch */
static const char *const IMM_OPERANDS[] = {"dst", "src", NULL}; /* by vta_imm_operand */

const char *vta_imm_operand_name(uint32_t operand)
{
	return operand <= VTA_IMM_OPERAND_SRC ? IMM_OPERANDS[operand] : "?";
}

const char *vta_datapath_name(uint32_t datapath)
{
	return datapath <= VTA_DATAPATH_RTL ? DATAPATHS[datapath] : "?";
}

const char *vta_encoding_name(uint32_t encoding)
{
	return encoding < VTA_ENC_COUNT ? ENCODINGS[encoding] : "?";
}

/* Defaults are configs/default.yaml's values (a test holds them equal): a config that names
 * only what it changes runs what the default config runs. */
static const vta_config_key KEYS[] = {
	KEY("name", VTA_KEY_STRING, name, "pynq-1x16x16", 0, 0, false),
	KEY("clock_mhz", VTA_KEY_DOUBLE, clock_mhz, "100", 1e-3, 1e5, false),
	KEY("arch.log_batch", VTA_KEY_U32, log_batch, "0", 0, 4, false),
	KEY("arch.log_block_in", VTA_KEY_U32, log_block_in, "4", 0, 7, false),
	KEY("arch.log_block_out", VTA_KEY_U32, log_block_out, "4", 0, 7, false),
	KEY("arch.inp_bits", VTA_KEY_U32, inp_bits, "8", 8, 8, false),
	KEY("arch.wgt_bits", VTA_KEY_U32, wgt_bits, "8", 8, 8, false),
	KEY("arch.acc_bits", VTA_KEY_U32, acc_bits, "32", 32, 32, false),
	SRAM_KEY("sram_kib.uop", UOP, "32"),
	SRAM_KEY("sram_kib.inp", INP, "32"),
	SRAM_KEY("sram_kib.wgt", WGT, "256"),
	SRAM_KEY("sram_kib.acc", ACC, "128"),
	CHOICE("isa.encoding", isa_encoding, "vta128", ENCODINGS),
	KEY("isa.uop_field_depth", VTA_KEY_U32, isa_uop_field_depth, "0", 0, 65536, true),
	KEY("queues.insn_depth", VTA_KEY_U32, insn_depth, "512", 1, 1 << 20, false),
	KEY("queues.dep_depth", VTA_KEY_U32, dep_depth, "8", 1, 1 << 16, false),
	KEY("dram.bus_bits", VTA_KEY_U32, dram_bus_bits, "64", 8, 4096, true),
	KEY("dram.latency_cycles", VTA_KEY_U32, dram_latency_cycles, "64", 0, 1e8, false),
	KEY("dram.max_burst_bytes", VTA_KEY_U32, dram_max_burst_bytes, "2048", 1, 1 << 24, true),
	KEY("dram.burst_boundary_bytes", VTA_KEY_U32, dram_burst_boundary_bytes, "2048", 1,
	    1 << 24, true),
	KEY("dram.max_read_bursts", VTA_KEY_U32, dram_max_read_bursts, "16", 1,
	    VTA_MAX_BURSTS_IN_FLIGHT, false),
	KEY("dram.max_write_bursts", VTA_KEY_U32, dram_max_write_bursts, "16", 1,
	    VTA_MAX_BURSTS_IN_FLIGHT, false),
	KEY("dram.write_ack_cycles", VTA_KEY_U32, dram_write_ack_cycles, "4", 0, 1 << 20, false),
	KEY("dram.read_pipeline_cycles", VTA_KEY_U32, dram_read_pipeline_cycles, "4", 0, 1 << 20,
	    false),
	KEY("dram.size_mib", VTA_KEY_U32, dram_size_mib, "256", 1, 4096, false),
	KEY("alu.mul", VTA_KEY_BOOL, alu_mul, "true", 0, 0, false),
	KEY("alu.tflite_ext", VTA_KEY_BOOL, alu_tflite_ext, "true", 0, 0, false),
	CHOICE("alu.imm_operand", alu_imm_operand, "dst", IMM_OPERANDS),
	KEY("decompressor.enabled", VTA_KEY_BOOL, decomp_enabled, "true", 0, 0, false),
	KEY("decompressor.indices_per_cycle", VTA_KEY_U32, decomp_indices_per_cycle, "16", 1,
	    1 << 16, false),
	KEY("decompressor.table_kib", VTA_KEY_U32, decomp_table_kib, "32", 1, 256, true),
	KEY("decompressor.multi_block", VTA_KEY_BOOL, decomp_multi_block, "false", 0, 0, false),
	KEY("decompressor.zero_fill", VTA_KEY_BOOL, decomp_zero_fill, "false", 0, 0, false),
	KEY("timing.gemm_ii", VTA_KEY_U32, gemm_ii, "1", 1, 1 << 16, false),
	KEY("timing.alu_ii", VTA_KEY_U32, alu_ii, "2", 1, 1 << 16, false),
	KEY("timing.alu_imm_ii", VTA_KEY_U32, alu_imm_ii, "1", 1, 1 << 16, false),
	KEY("timing.insn_overhead_cycles", VTA_KEY_U32, insn_overhead_cycles, "4", 0, 1 << 20,
	    false),
	KEY("timing.pipeline_fill_cycles", VTA_KEY_U32, pipeline_fill_cycles, "4", 0, 1 << 20,
	    false),
	KEY("timing.launch_cycles", VTA_KEY_U32, launch_cycles, "2", 0, 1 << 20, false),
	CHOICE("timing.fetch_dispatch", fetch_dispatch, "burst", DISPATCHES),
	KEY("timing.store_read_cycles", VTA_KEY_U32, store_read_cycles, "1", 0, 1 << 20, false),
	KEY("timing.pad_elem_cycles", VTA_KEY_U32, pad_elem_cycles, "1", 0, 1 << 20, false),
	KEY("timing.acc_dep_distance", VTA_KEY_U32, acc_dep_distance, "2", 0, VTA_ACC_HAZARD_MAX, false),
	KEY("timing.cycle_budget", VTA_KEY_U64, cycle_budget, "10000000000", 1, 1e18, false),
	KEY("timing.uop_budget", VTA_KEY_U64, uop_budget, "50000000", 1, 1e18, false),
	KEY("timing.insn_budget", VTA_KEY_U64, insn_budget, "1000000", 1, 1e18, false),
	KEY("timing.host_seconds", VTA_KEY_DOUBLE, host_seconds, "0", 0, 1e9, false),
	CHOICE("datapath", datapath, "c", DATAPATHS),
	/* 45 nm figures; docs/energy.md gives each one's source */
	KEY("energy.dram_read_pj_per_byte", VTA_KEY_DOUBLE, e_dram_read_pj_byte, "162.5", 0, 1e6, false),
	KEY("energy.dram_write_pj_per_byte", VTA_KEY_DOUBLE, e_dram_write_pj_byte, "162.5", 0, 1e6,
	    false),
	KEY("energy.sram_pj_per_64b_8kib", VTA_KEY_DOUBLE, e_sram_pj_8kib, "10", 1e-6, 1e6, false),
	KEY("energy.sram_pj_per_64b_32kib", VTA_KEY_DOUBLE, e_sram_pj_32kib, "20", 1e-6, 1e6, false),
	KEY("energy.sram_pj_per_64b_1mib", VTA_KEY_DOUBLE, e_sram_pj_1mib, "100", 1e-6, 1e6, false),
	KEY("energy.sram_write_factor", VTA_KEY_DOUBLE, e_sram_write_factor, "1", 0, 100, false),
	KEY("energy.mac_pj", VTA_KEY_DOUBLE, e_mac_pj, "0.3", 0, 1e6, false),
	KEY("energy.alu_op_pj", VTA_KEY_DOUBLE, e_alu_op_pj, "0.1", 0, 1e6, false),
	KEY("energy.insn_pj_per_64b", VTA_KEY_DOUBLE, e_insn_pj_64b, "10", 0, 1e6, false),
	KEY("energy.lut_index_pj", VTA_KEY_DOUBLE, e_lut_index_pj, "0.03", 0, 1e6, false),
	KEY("energy.sram_leakage_pj_per_kib_cycle", VTA_KEY_DOUBLE, e_leak_pj_kib_cycle, "0.02", 0,
	    1e6, false),
	KEY("area.sram_cell_um2", VTA_KEY_DOUBLE, a_sram_cell_um2, "0.346", 1e-6, 1e6, false),
	KEY("area.sram_array_efficiency", VTA_KEY_DOUBLE, a_sram_efficiency, "0.7", 0.01, 1, false),
	KEY("area.mac_um2", VTA_KEY_DOUBLE, a_mac_um2, "419", 0, 1e9, false),
	KEY("area.alu_add_um2", VTA_KEY_DOUBLE, a_alu_add_um2, "137", 0, 1e9, false),
	KEY("area.alu_mul_um2", VTA_KEY_DOUBLE, a_alu_mul_um2, "3495", 0, 1e9, false),
};
#undef KEY
#undef CHOICE
#define NKEYS (sizeof(KEYS) / sizeof(KEYS[0]))

const vta_config_key *vta_config_keys(size_t *count)
{
	*count = NKEYS;
	return KEYS;
}

const vta_config_key *vta_config_key_find(const char *name)
{
	for (size_t i = 0; i < NKEYS; i++)
		if (!strcmp(KEYS[i].name, name))
			return &KEYS[i];
	return NULL;
}

/* Length of the section part of a key name ("dram" of "dram.bus_bits"), 0 if none. */
static size_t section_len(const char *name)
{
	const char *dot = strchr(name, '.');
	return dot ? (size_t)(dot - name) : 0;
}

static bool in_section(const vta_config_key *k, const char *section, size_t n)
{
	return section_len(k->name) == n && !strncmp(k->name, section, n);
}

bool vta_config_is_section(const char *name)
{
	for (size_t i = 0; i < NKEYS; i++)
		if (in_section(&KEYS[i], name, strlen(name)))
			return true;
	return false;
}

/* One of the key's choices, by name: "datapath: expected c or rtl, got 'x'". */
static vta_status parse_choice(const vta_config_key *k, const char *text, uint32_t *field,
			       vta_error *err)
{
	char list[128] = "";
	size_t len = 0;
	for (uint32_t i = 0; k->choices[i]; i++) {
		if (text && !strcmp(text, k->choices[i])) {
			*field = i;
			return VTA_OK;
		}
		int w = snprintf(list + len, sizeof(list) - len, "%s%s",
				 i == 0 ? "" : k->choices[i + 1] ? ", " : " or ", k->choices[i]);
		len += w > 0 && (size_t)w < sizeof(list) - len ? (size_t)w : 0;
	}
	return vta_fail(err, VTA_E_PARSE, "%s: expected %s%s%s%s", k->name, list,
			text ? ", got '" : "", text ? text : "", text ? "'" : "");
}

vta_status vta_config_key_parse(const vta_config_key *k, const char *text, vta_config *cfg,
				vta_error *err)
{
	void *field = (char *)cfg + k->offset;
	vta_status st = VTA_OK;
	int64_t v = 0;
	switch (k->type) {
	case VTA_KEY_U32:
	case VTA_KEY_U64:
		if ((st = vta_text_int(text, k->name, (int64_t)k->min, (int64_t)k->max, &v, err)))
			break;
		if (k->pow2 && (v & (v - 1)) != 0)
			return vta_fail(err, VTA_E_CONFIG, "%s: %" PRId64 " is not a power of two",
					k->name, v);
		if (k->type == VTA_KEY_U32)
			*(uint32_t *)field = (uint32_t)v;
		else
			*(uint64_t *)field = (uint64_t)v;
		break;
	case VTA_KEY_DOUBLE: st = vta_text_double(text, k->name, k->min, k->max, field, err); break;
	case VTA_KEY_BOOL: st = vta_text_bool(text, k->name, field, err); break;
	case VTA_KEY_STRING: st = vta_text_string(text, k->name, field, k->size, err); break;
	case VTA_KEY_CHOICE: st = parse_choice(k, text, field, err); break;
	}
	if (st && err)
		err->status = VTA_E_CONFIG;
	return st ? VTA_E_CONFIG : VTA_OK;
}

void vta_config_key_format(const vta_config_key *k, const vta_config *cfg, char *out,
			   size_t size)
{
	const void *field = (const char *)cfg + k->offset;
	switch (k->type) {
	case VTA_KEY_U32: snprintf(out, size, "%" PRIu32, *(const uint32_t *)field); break;
	case VTA_KEY_U64: snprintf(out, size, "%" PRIu64, *(const uint64_t *)field); break;
	case VTA_KEY_BOOL: snprintf(out, size, "%s", *(const bool *)field ? "true" : "false"); break;
	case VTA_KEY_STRING: snprintf(out, size, "%s", (const char *)field); break;
	case VTA_KEY_CHOICE: {
		uint32_t i = *(const uint32_t *)field, n = 0;
		while (k->choices[n])
			n++;
		snprintf(out, size, "%s", i < n ? k->choices[i] : "?");
		break;
	}
	case VTA_KEY_DOUBLE: {
		double v = *(const double *)field;
		snprintf(out, size, "%g", v);
		if (strtod(out, NULL) != v) /* shortest when exact, else every digit */
			snprintf(out, size, "%.17g", v);
		break;
	}
	}
}

vta_status vta_config_check_keys(const vta_config *cfg, vta_error *err)
{
	/* write each value as text and read it back: one set of checks and messages */
	vta_config scratch = *cfg;
	char text[96];
	for (size_t i = 0; i < NKEYS; i++) {
		vta_config_key_format(&KEYS[i], cfg, text, sizeof(text));
		vta_status st = vta_config_key_parse(&KEYS[i], text, &scratch, err);
		if (st)
			return st;
	}
	return VTA_OK;
}

vta_status vta_config_unknown_key(const char *name, vta_error *err)
{
	size_t n = section_len(name);
	bool known_section = false;
	for (size_t i = 0; n && i < NKEYS && !known_section; i++)
		known_section = in_section(&KEYS[i], name, n);
	char list[VTA_ERROR_DETAIL_MAX] = "";
	size_t len = 0;
	for (size_t i = 0; i < NKEYS; i++) {
		const char *k = KEYS[i].name;
		size_t kn = section_len(k);
		if (known_section && !in_section(&KEYS[i], name, n))
			continue;
		if (!known_section && kn && i > 0 && in_section(&KEYS[i - 1], k, kn))
			continue; /* a section already listed */
		int w = known_section ? snprintf(list + len, sizeof(list) - len, "%s%s",
						 len ? ", " : "", k + kn + 1)
				      : snprintf(list + len, sizeof(list) - len, "%s%.*s",
						 len ? ", " : "", (int)(kn ? kn : strlen(k)), k);
		len += w > 0 && (size_t)w < sizeof(list) - len ? (size_t)w : 0;
	}
	vta_quoted q;
	return vta_fail(err, VTA_E_CONFIG, "unknown key '%s' (expected one of: %s)",
			vta_quote(&q, name), list);
}

bool vta_config_same(const vta_config *a, const vta_config *b)
{
	/* derived values follow from the keys; a string (the name) is only a label */
	for (size_t i = 0; i < NKEYS; i++)
		if (KEYS[i].type != VTA_KEY_STRING &&
		    memcmp((const char *)a + KEYS[i].offset, (const char *)b + KEYS[i].offset,
			   KEYS[i].size))
			return false;
	return true;
}
