/*
 * test_race_corpus.c - the stream checks (isa/vta_race.h) against the oracle
 * (race_oracle.h) over every stream of the race corpus (tests/race/corpus/, written by
 * race_corpus.c): the checks report exactly the oracle's problems (every racing pair with
 * its space, kind and rows, every read of unwritten rows, every warning), a race-*.s stream
 * fails them and a clean-*.s one passes, and the corpus holds at least 30 racy streams.
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

#include "race_oracle.h"
#include "vta_asm.h"
#include "vta_race.h"

#define CORPUS "tests/race/corpus"

typedef struct seen {
	vta_problem *p;
	size_t n, cap;
} seen;

static void on_problem(void *ctx, const vta_problem *p)
{
	seen *s = ctx;
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->p = realloc(s->p, s->cap * sizeof(*s->p));
		assert_non_null(s->p);
	}
	s->p[s->n++] = *p;
}

static void print_list(const char *who, const vta_problem *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		print_message("  %s: %s %s insn %zu/%zu [%llu, %llu) count %llu uop %u q %d\n", who,
			      vta_problem_kind_name(p[i].kind), vta_space_name(p[i].space),
			      p[i].first, p[i].second, (unsigned long long)p[i].lo,
			      (unsigned long long)p[i].hi, (unsigned long long)p[i].count,
			      p[i].uop, p[i].queue);
}

/* One corpus stream; returns whether it is racy. */
static bool check_one(const char *name)
{
	char path[1024], line[512], cfg_path[256] = "";
	snprintf(path, sizeof(path), "%s/%s", CORPUS, name);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f) && line[0] == ';')
		if (sscanf(line, "; config: %255s", cfg_path) == 1)
			break;
	fclose(f);
	assert_true(cfg_path[0]);
	vta_config cfg;
	vta_error e = {0};
	assert_int_equal(vta_config_load(cfg_path, &cfg, &e), VTA_OK);
	vta_program prog;
	if (vta_program_load(path, &cfg, &prog, &e))
		fail_msg("%s: %s", name, e.detail);
	vta_dram dram;
	assert_int_equal(vta_dram_init(&dram, (uint64_t)cfg.dram_size_mib << 20, &e), VTA_OK);
	assert_int_equal(vta_dram_place_segments(&dram, &prog, &e), VTA_OK);

	seen got = {0};
	vta_race_opts opts = {.on_problem = on_problem, .ctx = &got};
	static vta_race_report rep;
	vta_status st = vta_race_check(&cfg, &prog, &dram, &opts, &rep, &e);
	oracle_result want;
	assert_int_equal(oracle_run(&cfg, &prog, &dram, &want), VTA_OK);
	if (!want.ok)
		fail_msg("%s: the oracle cannot judge it: %s", name, want.why);
	if (!rep.checked)
		fail_msg("%s: no verdict: %s", name, rep.skipped.detail);
	if (got.n > 1)
		qsort(got.p, got.n, sizeof(*got.p), oracle_problem_cmp);
	if (want.n > 1)
		qsort(want.p, want.n, sizeof(*want.p), oracle_problem_cmp);
	bool same = got.n == want.n;
	for (size_t i = 0; same && i < got.n; i++)
		same = !oracle_problem_cmp(&got.p[i], &want.p[i]);
	if (!same) {
		print_message("%s: the checks and the oracle disagree\n", name);
		print_list("checks", got.p, got.n);
		print_list("oracle", want.p, want.n);
		fail();
	}
	bool racy = want.errors > 0;
	assert_int_equal(st, racy ? st : VTA_OK);
	if (racy)
		assert_true(st == VTA_E_RACE || st == VTA_E_UNINIT);
	assert_int_equal(rep.races + rep.uninit_reads, want.errors);
	assert_int_equal(rep.warnings, want.n - want.errors);
	if (strncmp(name, racy ? "race-" : "clean-", racy ? 5 : 6))
		fail_msg("%s: the oracle finds it %s", name, racy ? "racy" : "clean");
	free(got.p);
	oracle_free(&want);
	vta_dram_free(&dram);
	vta_program_free(&prog);
	return racy;
}

static int is_stream(const struct dirent *d)
{
	size_t n = strlen(d->d_name);
	return n > 2 && !strcmp(d->d_name + n - 2, ".s");
}

static void test_corpus(void **state)
{
	(void)state;
	struct dirent **names;
	int n = scandir(CORPUS, &names, is_stream, alphasort);
	assert_true(n > 0);
	size_t racy = 0, clean = 0;
	for (int i = 0; i < n; i++) {
		if (check_one(names[i]->d_name))
			racy++;
		else
			clean++;
		free(names[i]);
	}
	free(names);
	print_message("race corpus: %zu racy, %zu clean streams\n", racy, clean);
	assert_true(racy >= 30);
	assert_true(clean >= 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_corpus)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
