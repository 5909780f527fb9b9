/*
 * vta_config_yaml.c - read a hardware config from YAML (docs/configs.md lists every key).
 *
 * Start from VTA's defaults, overwrite with the file's keys, then validate and derive. The
 * key table (vta_config_keys.c) says each key's type and range; this file only walks the
 * two levels of mappings ("dram: {bus_bits: 64}" is the key dram.bus_bits) and adds the file,
 * line and column to errors. Errors found while deriving (sizes that do not fit the
 * instruction fields, ...) point at the key or section they name.
 */
#include <stdio.h>
#include <string.h>

#include "vta_config.h"
#include "vta_config_keys.h"
#include "vta_yaml.h"

/* Where each key or section was written: "dram.bus_bits" or "dram" and its key node. */
typedef struct key_mark {
	char name[64];
	const yaml_node_t *node;
} key_mark;

typedef struct key_marks {
	key_mark m[64];
	size_t n;
} key_marks;

static void mark(key_marks *marks, const char *name, const yaml_node_t *node)
{
	if (marks->n < sizeof(marks->m) / sizeof(marks->m[0])) {
		snprintf(marks->m[marks->n].name, sizeof(marks->m[0].name), "%s", name);
		marks->m[marks->n++].node = node;
	}
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
		char name[128];
		snprintf(name, sizeof(name), "%s%s%s", section ? section : "", section ? "." : "",
			 vta_yaml_scalar(kn));
		if (!section && vta_config_is_section(name)) {
			mark(marks, name, kn);
			if ((st = vta_yaml_expect_mapping(y, vn, name, err)) ||
			    (st = read_mapping(y, vn, name, cfg, marks, err)))
				return st;
			continue;
		}
		/* "dram.bus_bits" is spelled dram: {bus_bits: ...}, never as one word */
		const vta_config_key *k =
			strchr(vta_yaml_scalar(kn), '.') ? NULL : vta_config_key_find(name);
		vta_error e = {0};
		if (!k)
			st = vta_config_unknown_key(name, &e);
		else if (!(st = vta_config_key_parse(k, vta_yaml_scalar(vn), cfg, &e)))
			mark(marks, name, kn);
		if (st)
			return vta_yaml_fail(y, k ? vn : kn, VTA_E_CONFIG, err, "%s", e.detail);
	}
	return VTA_OK;
}

/* derive() names the key or section first ("sram_kib.acc: ..."); find where it was written:
 * the key itself, else its section. */
static const yaml_node_t *mark_for_detail(const key_marks *marks, const char *detail)
{
	const yaml_node_t *best = NULL;
	size_t best_len = 0;
	for (size_t i = 0; i < marks->n; i++) {
		size_t n = strlen(marks->m[i].name);
		if (!strncmp(detail, marks->m[i].name, n) && (detail[n] == ':' || detail[n] == '.') &&
		    n > best_len) {
			best = marks->m[i].node;
			best_len = n;
		}
	}
	return best;
}

vta_status vta_config_load(const char *path, vta_config *cfg, vta_error *err)
{
	vta_config_default(cfg);
	vta_yaml y;
	vta_status st = vta_yaml_load_file(path, &y, err);
	if (st)
		return st;
	yaml_node_t *root = vta_yaml_root(&y);
	key_marks marks = {.n = 0};
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
