/*
 * config_opts.c - the config options shared by run, exec, config and regress: the config
 * file, then every --set KEY=VALUE in order (a later one wins), each value checked alone, and
 * the result checked and derived once, so keys that only fit together (a larger SRAM and
 * isa.encoding: wide, BLOCK_IN and BLOCK_OUT) may come in any order.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "vta_config_keys.h"
#include "vta_text.h"

/* "KEY=VALUE": the key into key[size], the value returned (NULL if not that shape). */
static const char *split_set(const char *arg, char *key, size_t size)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg)
		return NULL;
	snprintf(key, size, "%.*s", (int)(eq - arg), arg);
	return eq + 1;
}

int cli_sets_add(cli_sets *sets, const char *arg)
{
	char key[128];
	const char *value = split_set(arg, key, sizeof(key));
	if (!value)
		return cli_usage_error("--set '%s': expected KEY=VALUE", VTA_Q(arg));
	if (sets->n == CLI_MAX_SETS)
		return cli_usage_error("at most %d --set options", CLI_MAX_SETS);
	/* the key and its value alone, now: regress hands them to every case */
	const vta_config_key *k = vta_config_key_find(key);
	vta_config scratch;
	vta_error err = {0};
	if (k ? vta_config_key_parse(k, value, &scratch, &err) : vta_config_unknown_key(key, &err))
		return cli_usage_error("--set: %s", err.detail);
	sets->items[sets->n++] = arg;
	return 0;
}

int cli_load_config(const char *path, const cli_sets *sets, vta_config *cfg)
{
	vta_error err = {0};
	if (vta_config_load(path, cfg, &err) != VTA_OK)
		return cli_report_error(&err);
	if (!sets || sets->n == 0)
		return 0;
	vta_config c = *cfg;
	for (int i = 0; i < sets->n; i++) {
		char key[128];
		const char *value = split_set(sets->items[i], key, sizeof(key));
		const vta_config_key *k = vta_config_key_find(key);
		if (k ? vta_config_key_parse(k, value, &c, &err) : vta_config_unknown_key(key, &err))
			return cli_usage_error("--set: %s", err.detail);
	}
	if (vta_config_derive(&c, &err) != VTA_OK)
		return cli_usage_error("--set: %s", err.detail);
	*cfg = c;
	return 0;
}
