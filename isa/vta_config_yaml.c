/*
 * vta_config_yaml.c - read a hardware config from YAML (docs/configs.md lists every key).
 *
 * Start from VTA's defaults, overwrite with the file's keys, then validate and derive.
 * A table drives the reader so each key has one place saying its type and range.
 * Errors carry the file, line and column of the offending key or value; errors found while
 * deriving (sizes that do not fit the instruction fields, ...) point at the key they name.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "vta_config.h"
#include "vta_yaml.h"

typedef enum { K_U32, K_U64, K_F64, K_BOOL, K_STR } key_type;

typedef struct key_spec {
	const char *section; /* NULL for top-level keys */
	const char *key;
	key_type type;
	size_t offset;
	double min, max;
	bool pow2;
} key_spec;

#define F(field) offsetof(vta_config, field)
static const key_spec KEYS[] = {
	{NULL, "name", K_STR, F(name), 0, 0, false},
	{NULL, "clock_mhz", K_F64, F(clock_mhz), 1e-3, 1e5, false},
	{"arch", "log_batch", K_U32, F(log_batch), 0, 4, false},
	{"arch", "log_block_in", K_U32, F(log_block_in), 0, 7, false},
	{"arch", "log_block_out", K_U32, F(log_block_out), 0, 7, false},
	{"arch", "inp_bits", K_U32, F(inp_bits), 8, 8, false},
	{"arch", "wgt_bits", K_U32, F(wgt_bits), 8, 8, false},
	{"arch", "acc_bits", K_U32, F(acc_bits), 32, 32, false},
	{"sram_kib", "uop", K_U32, F(uop_kib), 1, 1 << 20, true},
	{"sram_kib", "inp", K_U32, F(inp_kib), 1, 1 << 20, true},
	{"sram_kib", "wgt", K_U32, F(wgt_kib), 1, 1 << 20, true},
	{"sram_kib", "acc", K_U32, F(acc_kib), 1, 1 << 20, true},
	{"queues", "insn_depth", K_U32, F(insn_depth), 1, 1 << 20, false},
	{"queues", "dep_depth", K_U32, F(dep_depth), 1, 1 << 16, false},
	{"dram", "bus_bits", K_U32, F(dram_bus_bits), 8, 4096, true},
	{"dram", "latency_cycles", K_U32, F(dram_latency_cycles), 0, 1e8, false},
	{"dram", "max_burst_bytes", K_U32, F(dram_max_burst_bytes), 1, 1 << 24, true},
	{"dram", "size_mib", K_U32, F(dram_size_mib), 1, 4096, false},
	{"alu", "mul", K_BOOL, F(alu_mul), 0, 0, false},
	{"alu", "tflite_ext", K_BOOL, F(alu_tflite_ext), 0, 0, false},
	{"decompressor", "enabled", K_BOOL, F(decomp_enabled), 0, 0, false},
	{"decompressor", "indices_per_cycle", K_U32, F(decomp_indices_per_cycle), 1, 1 << 16,
	 false},
	{"timing", "gemm_ii", K_U32, F(gemm_ii), 1, 1 << 16, false},
	{"timing", "alu_ii", K_U32, F(alu_ii), 1, 1 << 16, false},
	{"timing", "alu_imm_ii", K_U32, F(alu_imm_ii), 1, 1 << 16, false},
	{"timing", "insn_overhead_cycles", K_U32, F(insn_overhead_cycles), 0, 1 << 20, false},
	{"timing", "pipeline_fill_cycles", K_U32, F(pipeline_fill_cycles), 0, 1 << 20, false},
	{"timing", "acc_dep_distance", K_U32, F(acc_dep_distance), 0, 64, false},
	{"timing", "cycle_budget", K_U64, F(cycle_budget), 1, 1e18, false},
};
#undef F
#define NKEYS (sizeof(KEYS) / sizeof(KEYS[0]))

static const char *const SECTIONS[] = {"arch", "queues", "dram", "alu", "decompressor",
				       "timing", "sram_kib"};

/* Where each key was found, to point derive() errors at the file. */
typedef struct key_marks {
	const yaml_node_t *key_node[NKEYS];
	const yaml_node_t *section_node[sizeof(SECTIONS) / sizeof(SECTIONS[0])];
} key_marks;

static int is_section(const char *name)
{
	for (size_t i = 0; i < sizeof(SECTIONS) / sizeof(SECTIONS[0]); i++)
		if (!strcmp(SECTIONS[i], name))
			return (int)i;
	return -1;
}

static vta_status read_value(vta_yaml *y, const key_spec *k, const yaml_node_t *v,
			     vta_config *cfg, vta_error *err)
{
	char what[96];
	if (k->section)
		snprintf(what, sizeof(what), "%s.%s", k->section, k->key);
	else
		snprintf(what, sizeof(what), "%s", k->key);
	void *field = (char *)cfg + k->offset;
	vta_status st = VTA_OK;
	int64_t iv = 0;
	switch (k->type) {
	case K_U32:
	case K_U64:
		st = vta_yaml_int(y, v, what, (int64_t)k->min, (int64_t)k->max, &iv, err);
		if (st)
			return st;
		if (k->pow2 && (iv & (iv - 1)) != 0)
			return vta_yaml_fail(y, v, VTA_E_CONFIG, err,
					     "%s: %lld is not a power of two", what, (long long)iv);
		if (k->type == K_U32)
			*(uint32_t *)field = (uint32_t)iv;
		else
			*(uint64_t *)field = (uint64_t)iv;
		return VTA_OK;
	case K_F64:
		return vta_yaml_double(y, v, what, k->min, k->max, (double *)field, err);
	case K_BOOL:
		return vta_yaml_bool(y, v, what, (bool *)field, err);
	case K_STR:
		return vta_yaml_string(y, v, what, (char *)field, sizeof(cfg->name), err);
	}
	return VTA_OK;
}

static vta_status read_mapping(vta_yaml *y, const yaml_node_t *map, const char *section,
			       vta_config *cfg, key_marks *marks, vta_error *err)
{
	vta_status st = vta_yaml_check_keys(y, map, section ? section : "config", err);
	if (st)
		return st;
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *kn = vta_yaml_node(y, p->key);
		yaml_node_t *vn = vta_yaml_node(y, p->value);
		const char *name = vta_yaml_scalar(kn);
		if (!section) {
			int s = is_section(name);
			if (s >= 0) {
				if ((st = vta_yaml_expect_mapping(y, vn, name, err)))
					return st;
				marks->section_node[s] = kn;
				if ((st = read_mapping(y, vn, name, cfg, marks, err)))
					return st;
				continue;
			}
		}
		size_t i;
		for (i = 0; i < NKEYS; i++) {
			const key_spec *k = &KEYS[i];
			int same_section = section ? (k->section && !strcmp(k->section, section))
						   : k->section == NULL;
			if (same_section && !strcmp(k->key, name))
				break;
		}
		if (i == NKEYS) {
			char known[512] = "";
			for (size_t j = 0; j < NKEYS; j++) {
				int same = section ? (KEYS[j].section && !strcmp(KEYS[j].section, section))
						   : KEYS[j].section == NULL;
				if (same) {
					strncat(known, known[0] ? ", " : "", sizeof(known) - strlen(known) - 1);
					strncat(known, KEYS[j].key, sizeof(known) - strlen(known) - 1);
				}
			}
			if (!section)
				for (size_t j = 0; j < sizeof(SECTIONS) / sizeof(SECTIONS[0]); j++) {
					strncat(known, ", ", sizeof(known) - strlen(known) - 1);
					strncat(known, SECTIONS[j], sizeof(known) - strlen(known) - 1);
				}
			return vta_yaml_fail(y, kn, VTA_E_CONFIG, err,
					     "unknown key '%s%s%s' (expected one of: %s)",
					     section ? section : "", section ? "." : "", name, known);
		}
		marks->key_node[i] = kn;
		if ((st = read_value(y, &KEYS[i], vn, cfg, err)))
			return st;
	}
	return VTA_OK;
}

/* derive() names the key first ("sram_kib.acc: ..."); find where that key was written. */
static const yaml_node_t *mark_for_detail(const key_marks *marks, const char *detail)
{
	for (size_t i = 0; i < NKEYS; i++) {
		char path[96];
		if (KEYS[i].section)
			snprintf(path, sizeof(path), "%s.%s:", KEYS[i].section, KEYS[i].key);
		else
			snprintf(path, sizeof(path), "%s:", KEYS[i].key);
		if (!strncmp(detail, path, strlen(path)) && marks->key_node[i])
			return marks->key_node[i];
	}
	for (size_t s = 0; s < sizeof(SECTIONS) / sizeof(SECTIONS[0]); s++) {
		size_t n = strlen(SECTIONS[s]);
		if (!strncmp(detail, SECTIONS[s], n) && (detail[n] == ':' || detail[n] == '.') &&
		    marks->section_node[s])
			return marks->section_node[s];
	}
	return NULL;
}

vta_status vta_config_load(const char *path, vta_config *cfg, vta_error *err)
{
	vta_config_default(cfg);
	vta_yaml y;
	vta_status st = vta_yaml_load_file(path, &y, err);
	if (st)
		return st;
	yaml_node_t *root = vta_yaml_root(&y);
	key_marks marks;
	memset(&marks, 0, sizeof(marks));
	if (!root) {
		st = vta_yaml_fail(&y, NULL, VTA_E_CONFIG, err, "empty config");
	} else if (!(st = vta_yaml_expect_mapping(&y, root, "config", err))) {
		st = read_mapping(&y, root, NULL, cfg, &marks, err);
	}
	if (st == VTA_E_PARSE)
		st = err ? (err->status = VTA_E_CONFIG) : VTA_E_CONFIG;
	if (!st) {
		vta_error derr = {0};
		st = vta_config_derive(cfg, &derr);
		if (st)
			st = vta_yaml_fail(&y, mark_for_detail(&marks, derr.detail), VTA_E_CONFIG,
					   err, "%s", derr.detail);
	}
	vta_yaml_free(&y);
	return st;
}
