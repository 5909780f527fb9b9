/*
 * regress_case.c - read and check a regression case folder: case.yaml (what to run and the
 * expected outputs or diagnosis) and stats.yaml (expected statistics). See regress_case.h
 * and docs/regression.md for the format.
 */
#include "regress_case.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vta_file.h"
#include "vta_text.h"
#include "vta_yaml.h"

static const char *const CASE_KEYS[] = {"intent", "config", "program", "dram", "expect", NULL};
static const char *const EXPECT_KEYS[] = {"status", "error", "outputs", NULL};
static const char *const OUTPUT_KEYS[] = {"addr", "len", "file", NULL};

/* Every key of `map` must be one of `allowed` (and appear once). */
static vta_status check_known_keys(vta_yaml *y, const yaml_node_t *map, const char *what,
				   const char *const *allowed, vta_error *err)
{
	yaml_node_t *k;
	vta_status st = vta_yaml_unknown_key(y, map, what, allowed, &k, err);
	if (st || !k)
		return st;
	return vta_yaml_fail(y, k, VTA_E_PARSE, err, "unknown key '%s%s%s'", what,
			     *what ? "." : "", vta_yaml_scalar(k));
}

/* The node of a required key, or an error at the mapping. */
static vta_status require(vta_yaml *y, const yaml_node_t *map, const char *key, const char *what,
			  yaml_node_t **out, vta_error *err)
{
	*out = vta_yaml_get(y, map, key);
	if (!*out)
		return vta_yaml_fail(y, map, VTA_E_PARSE, err, "missing required key '%s%s%s'",
				     what, *what ? "." : "", key);
	return VTA_OK;
}

/* A file name relative to the case folder, made absolute; the file must be readable. */
static vta_status read_path(vta_yaml *y, const yaml_node_t *node, const char *what,
			    const char *dir, char *out, vta_error *err)
{
	char rel[REGRESS_PATH_MAX];
	vta_status st = vta_yaml_string(y, node, what, rel, sizeof(rel), err);
	if (st)
		return st;
	if (!rel[0])
		return vta_yaml_fail(y, node, VTA_E_PARSE, err, "%s: expected a file name", what);
	int n = rel[0] == '/' ? snprintf(out, REGRESS_PATH_MAX, "%s", rel)
			      : snprintf(out, REGRESS_PATH_MAX, "%s/%s", dir, rel);
	if (n < 0 || n >= REGRESS_PATH_MAX)
		return vta_yaml_fail(y, node, VTA_E_PARSE, err, "%s: path too long", what);
	if (access(out, R_OK) != 0)
		return vta_yaml_fail(y, node, VTA_E_PARSE, err, "%s: cannot read '%s': %s", what,
				     VTA_QPATH(rel), strerror(errno));
	return VTA_OK;
}

static vta_status read_output(vta_yaml *y, yaml_node_t *node, size_t index, const char *dir,
			      regress_output *o, vta_error *err)
{
	char what[64];
	snprintf(what, sizeof(what), "expect.outputs[%zu]", index);
	vta_status st = vta_yaml_expect_mapping(y, node, what, err);
	if (!st)
		st = check_known_keys(y, node, what, OUTPUT_KEYS, err);
	if (st)
		return st;
	yaml_node_t *an, *ln, *fn;
	if ((st = require(y, node, "addr", what, &an, err)) ||
	    (st = require(y, node, "len", what, &ln, err)) ||
	    (st = require(y, node, "file", what, &fn, err)))
		return st;
	int64_t addr, len;
	char key[96];
	snprintf(key, sizeof(key), "%s.addr", what);
	if ((st = vta_yaml_int(y, an, key, 0, INT64_C(0xffffffff), &addr, err)))
		return st;
	snprintf(key, sizeof(key), "%s.len", what);
	if ((st = vta_yaml_int(y, ln, key, 1, INT64_C(1) << 32, &len, err)))
		return st;
	snprintf(key, sizeof(key), "%s.file", what);
	if ((st = read_path(y, fn, key, dir, o->file, err)))
		return st;
	o->addr = (uint64_t)addr;
	o->len = (uint64_t)len;
	/* compared byte by byte after the run, so it must be a regular file of len bytes */
	FILE *f;
	uint64_t size;
	vta_error fe = {0};
	if (vta_file_open(o->file, "file of expected bytes", VTA_LIMIT_EXPECTED, &f, &size, &fe))
		return vta_yaml_fail(y, fn, fe.status, err, "%s: %s", key, fe.detail);
	fclose(f);
	if (size == UINT64_MAX)
		return vta_yaml_fail(y, fn, VTA_E_IO, err,
				     "%s: %s: a pipe: a file of expected bytes must be a regular "
				     "file", key, VTA_QPATH(o->file));
	if (size != o->len)
		return vta_yaml_fail(y, fn, VTA_E_PARSE, err,
				     "%s: the file holds %" PRIu64 " bytes, len says %" PRIu64, key,
				     size, o->len);
	return VTA_OK;
}

static vta_status read_expect(vta_yaml *y, yaml_node_t *node, regress_case *c, vta_error *err)
{
	vta_status st = vta_yaml_expect_mapping(y, node, "expect", err);
	if (!st)
		st = check_known_keys(y, node, "expect", EXPECT_KEYS, err);
	if (st)
		return st;
	yaml_node_t *sn = vta_yaml_get(y, node, "status");
	yaml_node_t *en = vta_yaml_get(y, node, "error");
	yaml_node_t *on = vta_yaml_get(y, node, "outputs");
	int64_t status = 0;
	if (sn && (st = vta_yaml_int(y, sn, "expect.status", 0, 2, &status, err)))
		return st;
	c->expect_status = (int)status;
	if (status == 0) {
		if (en)
			return vta_yaml_fail(y, en, VTA_E_PARSE, err,
					     "expect.error: only a case expecting a non-zero status "
					     "has a diagnosis");
		if (!on)
			return vta_yaml_fail(y, node, VTA_E_PARSE, err,
					     "missing required key 'expect.outputs' (a passing case "
					     "checks at least one output region)");
		if ((st = vta_yaml_expect_sequence(y, on, "expect.outputs", err)))
			return st;
		size_t n = (size_t)(on->data.sequence.items.top - on->data.sequence.items.start);
		if (n == 0 || n > REGRESS_MAX_OUTPUTS)
			return vta_yaml_fail(y, on, VTA_E_PARSE, err,
					     "expect.outputs: expected 1 to %d regions, got %zu",
					     REGRESS_MAX_OUTPUTS, n);
		for (size_t i = 0; i < n; i++) {
			yaml_node_t *item = vta_yaml_node(y, on->data.sequence.items.start[i]);
			if ((st = read_output(y, item, i, c->dir, &c->outputs[i], err)))
				return st;
		}
		c->n_outputs = n;
		return VTA_OK;
	}
	if (on)
		return vta_yaml_fail(y, on, VTA_E_PARSE, err,
				     "expect.outputs: a case expecting status %d writes no outputs",
				     (int)status);
	if (!en)
		return vta_yaml_fail(y, node, VTA_E_PARSE, err,
				     "missing required key 'expect.error' (the diagnosis expected "
				     "with status %d)",
				     (int)status);
	if ((st = vta_yaml_string(y, en, "expect.error", c->expect_error, sizeof(c->expect_error),
				  err)))
		return st;
	if (!c->expect_error[0])
		return vta_yaml_fail(y, en, VTA_E_PARSE, err, "expect.error: must not be empty");
	return VTA_OK;
}

static vta_status read_case_file(const char *path, regress_case *c, vta_error *err)
{
	vta_yaml y;
	vta_status st = vta_yaml_load_file(path, &y, err);
	if (st)
		return st;
	yaml_node_t *root = vta_yaml_root(&y);
	yaml_node_t *n;
	if (!root) {
		st = vta_yaml_fail(&y, NULL, VTA_E_PARSE, err, "empty case file");
		goto out;
	}
	if ((st = vta_yaml_expect_mapping(&y, root, "case", err)) ||
	    (st = check_known_keys(&y, root, "", CASE_KEYS, err)))
		goto out;
	if ((st = require(&y, root, "intent", "", &n, err)) ||
	    (st = vta_yaml_string(&y, n, "intent", c->intent, sizeof(c->intent), err)))
		goto out;
	if (!c->intent[0]) {
		st = vta_yaml_fail(&y, n, VTA_E_PARSE, err, "intent: must not be empty");
		goto out;
	}
	if ((st = require(&y, root, "config", "", &n, err)) ||
	    (st = read_path(&y, n, "config", c->dir, c->config, err)) ||
	    (st = require(&y, root, "program", "", &n, err)) ||
	    (st = read_path(&y, n, "program", c->dir, c->program, err)))
		goto out;
	if ((n = vta_yaml_get(&y, root, "dram")) &&
	    (st = read_path(&y, n, "dram", c->dir, c->dram, err)))
		goto out;
	if ((st = require(&y, root, "expect", "", &n, err)) || (st = read_expect(&y, n, c, err)))
		goto out;
out:
	vta_yaml_free(&y);
	return st;
}

vta_status regress_case_load(const char *dir, regress_case *c, vta_error *err)
{
	memset(c, 0, sizeof(*c));
	/* the folder made absolute: the child runs in its own temporary folder */
	char abs[PATH_MAX];
	if (dir[0] == '/') {
		snprintf(abs, sizeof(abs), "%s", dir);
	} else {
		char cwd[PATH_MAX];
		if (!getcwd(cwd, sizeof(cwd)))
			return vta_fail(err, VTA_E_IO, "%s: %s", dir, strerror(errno));
		if (snprintf(abs, sizeof(abs), "%s/%s", cwd, dir) >= (int)sizeof(abs))
			return vta_fail(err, VTA_E_IO, "%s: path too long", dir);
	}
	size_t len = strlen(abs);
	while (len > 1 && abs[len - 1] == '/')
		abs[--len] = '\0';
	if (len >= sizeof(c->dir) - 16)
		return vta_fail(err, VTA_E_IO, "%s: path too long", dir);
	snprintf(c->dir, sizeof(c->dir), "%s", abs);
	const char *base = strrchr(abs, '/');
	snprintf(c->name, sizeof(c->name), "%s", base && base[1] ? base + 1 : abs);

	char path[REGRESS_PATH_MAX + 16];
	snprintf(path, sizeof(path), "%s/case.yaml", dir);
	vta_status st = read_case_file(path, c, err);
	if (st)
		return st;
	snprintf(c->stats_path, sizeof(c->stats_path), "%s/stats.yaml", c->dir);
	if (access(c->stats_path, F_OK) == 0) {
		snprintf(path, sizeof(path), "%s/stats.yaml", dir);
		if (c->expect_status != 0)
			return vta_fail(err, VTA_E_PARSE,
					"%s: a case expecting exit status %d has no statistics; "
					"remove the file",
					path, c->expect_status);
		if ((st = regress_stats_load(path, &c->stats, err)))
			return st;
		c->has_stats = 1;
	}
	return VTA_OK;
}

void regress_case_free(regress_case *c)
{
	regress_stats_free(&c->stats);
}

void regress_stats_free(regress_stats *s)
{
	free(s->items);
	memset(s, 0, sizeof(*s));
}

vta_status regress_stats_add(regress_stats *s, const char *key, int64_t value, vta_error *err)
{
	if (strlen(key) >= REGRESS_STAT_KEY_MAX)
		return vta_fail(err, VTA_E_DATA, "statistic '%s': key too long", VTA_Q(key));
	if (s->count == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		regress_stat *items = realloc(s->items, cap * sizeof(*items));
		if (!items)
			return vta_fail(err, VTA_E_NOMEM, "out of memory");
		s->items = items;
		s->cap = cap;
	}
	snprintf(s->items[s->count].key, REGRESS_STAT_KEY_MAX, "%s", key);
	s->items[s->count].value = value;
	s->count++;
	return VTA_OK;
}

const regress_stat *regress_stats_find(const regress_stats *s, const char *key)
{
	for (size_t i = 0; i < s->count; i++)
		if (!strcmp(s->items[i].key, key))
			return &s->items[i];
	return NULL;
}

/* Statistic keys are dotted report keys: lower-case words, digits, '_' and '.'. */
static int valid_stat_key(const char *k)
{
	if (!*k || strlen(k) >= REGRESS_STAT_KEY_MAX)
		return 0;
	for (; *k; k++)
		if (!((*k >= 'a' && *k <= 'z') || (*k >= '0' && *k <= '9') || *k == '_' ||
		      *k == '.'))
			return 0;
	return 1;
}

vta_status regress_stats_load(const char *path, regress_stats *s, vta_error *err)
{
	vta_yaml y;
	vta_status st = vta_yaml_load_file(path, &y, err);
	if (st)
		return st;
	yaml_node_t *root = vta_yaml_root(&y);
	if (!root)
		goto out; /* an empty file: no statistics */
	if ((st = vta_yaml_expect_mapping(&y, root, "statistics", err)) ||
	    (st = vta_yaml_check_keys(&y, root, "statistics", err)))
		goto out;
	for (yaml_node_pair_t *p = root->data.mapping.pairs.start;
	     p < root->data.mapping.pairs.top; p++) {
		yaml_node_t *k = vta_yaml_node(&y, p->key);
		const char *ks = vta_yaml_scalar(k);
		if (!valid_stat_key(ks)) {
			st = vta_yaml_fail(&y, k, VTA_E_PARSE, err,
					   "'%s' is not a statistic key (dotted report keys "
					   "such as modules.load.busy_cycles)",
					   VTA_Q(ks));
			goto out;
		}
		int64_t v;
		if ((st = vta_yaml_int(&y, vta_yaml_node(&y, p->value), ks, INT64_MIN, INT64_MAX,
				       &v, err)) ||
		    (st = regress_stats_add(s, ks, v, err)))
			goto out;
	}
out:
	vta_yaml_free(&y);
	return st;
}

vta_status regress_stats_write(const char *path, const char *case_name, const regress_stats *s,
			       vta_error *err)
{
	char tmp[REGRESS_PATH_MAX + 16];
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	if (!f)
		return vta_fail(err, VTA_E_IO, "%s: cannot create: %s", tmp, strerror(errno));
	fprintf(f, "# generated by vtasim regress --update: expected statistics of case '%s' "
		   "(simulator timing); do not edit\n",
		case_name);
	fprintf(f, "# Keys are the exec report's \"total\" keys (docs/cli.md); review changes "
		   "with git diff.\n");
	for (size_t i = 0; i < s->count; i++)
		fprintf(f, "%s: %" PRId64 "\n", s->items[i].key, s->items[i].value);
	int bad = ferror(f);
	if (fclose(f) != 0 || bad) {
		remove(tmp);
		return vta_fail(err, VTA_E_IO, "%s: write failed", tmp);
	}
	if (rename(tmp, path) != 0) {
		remove(tmp);
		return vta_fail(err, VTA_E_IO, "%s: cannot replace: %s", path, strerror(errno));
	}
	return VTA_OK;
}
