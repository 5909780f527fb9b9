/*
 * vta_config_keys.h - the one table of hardware config keys (docs/configs.md).
 *
 * Each key is listed once, under its dotted YAML name, with its type, its place in
 * vta_config, its default, its range and whether it must be a power of two. The table drives
 * the defaults, the YAML reader, vta_config_set, the single-key checks of vta_config_derive,
 * the "same model" test of the simulator and `vtasim config`, so a key added to the struct
 * and the table is read, set, checked, compared and printed everywhere at once.
 */
#ifndef VTA_CONFIG_KEYS_H
#define VTA_CONFIG_KEYS_H

#include <stdbool.h>
#include <stddef.h>

#include "vta_config.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum vta_key_type {
	VTA_KEY_U32,
	VTA_KEY_U64,
	VTA_KEY_DOUBLE,
	VTA_KEY_BOOL,
	VTA_KEY_STRING,
	VTA_KEY_CHOICE /* a uint32_t holding the index of one of `choices` */
} vta_key_type;

typedef struct vta_config_key {
	const char *name;   /* as in YAML, dotted: "dram.latency_cycles" */
	vta_key_type type;
	size_t offset, size; /* of the field in vta_config */
	const char *def;    /* the default, written as in YAML */
	double min, max;    /* numbers: the allowed range */
	bool pow2;          /* integers: must be a power of two */
	const char *const *choices; /* VTA_KEY_CHOICE: the names, NULL-terminated */
} vta_config_key;

/* The table, in docs/configs.md's order. */
const vta_config_key *vta_config_keys(size_t *count);

/* The key called `name` ("dram.latency_cycles"), or NULL. */
const vta_config_key *vta_config_key_find(const char *name);

/* True when `name` is a section ("dram"): the first part of some key's name. */
bool vta_config_is_section(const char *name);

/* Read `text` (NULL: not a scalar) as the key's value into cfg, with the checks and the
 * messages of the YAML reader ("dram.bus_bits: expected an integer, got 'x'"), VTA_E_CONFIG. */
vta_status vta_config_key_parse(const vta_config_key *key, const char *text, vta_config *cfg,
				vta_error *err);

/* Every key's value in cfg is in range (and a power of two where asked): what the YAML
 * reader checks, checked again by vta_config_derive on structs filled in code. */
vta_status vta_config_check_keys(const vta_config *cfg, vta_error *err);

/* "unknown key 'NAME' (expected one of: ...)": the keys of NAME's section if it has a known
 * one, else the top-level keys and the sections. VTA_E_CONFIG. */
vta_status vta_config_unknown_key(const char *name, vta_error *err);

/* The key's value in cfg as written in YAML ("64", "true", "pynq-1x16x16"). */
void vta_config_key_format(const vta_config_key *key, const vta_config *cfg, char *out,
			   size_t size);

#ifdef __cplusplus
}
#endif

#endif /* VTA_CONFIG_KEYS_H */
