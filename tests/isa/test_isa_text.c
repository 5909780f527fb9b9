/* test_isa_text.c - quoting input in messages (vta_text.h), bounded reading of input files
 * (vta_file.h), the YAML size and depth limits, and the uop budget rule. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vta_config.h"
#include "vta_file.h"
#include "vta_insn.h"
#include "vta_rules.h"
#include "vta_text.h"
#include "vta_yaml.h"

static void test_quote_escapes(void **state)
{
	(void)state;
	vta_quoted q;
	assert_string_equal(vta_quote(&q, "plain text, 42"), "plain text, 42");
	assert_string_equal(vta_quote(&q, "a\nb\tc\rd"), "a\\nb\\tc\\rd");
	assert_string_equal(vta_quote(&q, "\033[2J\x7f"), "\\x1b[2J\\x7f");
	/* valid UTF-8 stays, C1 controls (here CSI, U+009B) and stray bytes do not */
	assert_string_equal(vta_quote(&q, "caf\xc3\xa9"), "caf\xc3\xa9");
	assert_string_equal(vta_quote(&q, "\xc2\x9b" "1m"), "\\xc2\\x9b1m");
	assert_string_equal(vta_quote(&q, "\xff\xfe\xc3"), "\\xff\\xfe\\xc3");
	assert_string_equal(vta_quote(&q, "\xe0\x80\x80"), "\\xe0\\x80\\x80"); /* overlong */
	assert_string_equal(vta_quote(&q, "\xed\xa0\x80"), "\\xed\\xa0\\x80"); /* surrogate */
	assert_string_equal(vta_quote_bytes(&q, "a\0b", 3), "a\\x00b");
	assert_string_equal(vta_quote(&q, NULL), "");
}

static void test_quote_cuts(void **state)
{
	(void)state;
	vta_quoted q;
	char long_text[1000];
	memset(long_text, 'k', sizeof(long_text) - 1);
	long_text[sizeof(long_text) - 1] = '\0';
	const char *s = vta_quote(&q, long_text);
	assert_int_equal(strlen(s), VTA_QUOTE_CHARS + 3);
	assert_string_equal(s + VTA_QUOTE_CHARS, "...");
	/* exactly VTA_QUOTE_CHARS characters: no cut */
	long_text[VTA_QUOTE_CHARS] = '\0';
	assert_int_equal(strlen(vta_quote(&q, long_text)), VTA_QUOTE_CHARS);
	/* the worst case fits: every character escaped */
	char ctl[200];
	memset(ctl, 1, sizeof(ctl) - 1);
	ctl[sizeof(ctl) - 1] = '\0';
	s = vta_quote(&q, ctl);
	assert_int_equal(strlen(s), 4 * VTA_QUOTE_CHARS + 3);
}

/* A file name is escaped, kept whole up to VTA_PATH_CHARS bytes, and beyond that cut to its
 * end, never inside a UTF-8 character. */
static void test_quote_path(void **state)
{
	(void)state;
	vta_quoted_path q;
	assert_string_equal(vta_quote_path(&q, "dir/c.yaml"), "dir/c.yaml");
	assert_string_equal(vta_quote_path(&q, "a\nb/\x1b.s"), "a\\nb/\\x1b.s");
	assert_string_equal(vta_quote_path(&q, NULL), "");
	char path[400];
	memset(path, 'd', 300);
	strcpy(path + 300, "/c.yaml");
	const char *t = vta_quote_path(&q, path);
	assert_int_equal(strlen(t), 3 + VTA_PATH_CHARS);
	assert_memory_equal(t, "...ddd", 6);
	assert_string_equal(t + strlen(t) - 7, "/c.yaml");
	/* the cut falls inside a two-byte character: the text starts after it */
	memset(path, 'd', 300);
	path[299 - VTA_PATH_CHARS] = (char)0xc3;
	path[300 - VTA_PATH_CHARS] = (char)0xa9;
	path[300] = '\0';
	t = vta_quote_path(&q, path);
	assert_memory_equal(t, "...ddd", 6);
	assert_int_equal(strlen(t), 3 + VTA_PATH_CHARS - 1);
}

static void test_fail_is_one_line(void **state)
{
	(void)state;
	vta_error err = {0};
	vta_fail(&err, VTA_E_PARSE, "got '%s'", "x\ny\033");
	assert_string_equal(err.detail, "got 'x\\ny\\x1b'");
	/* a detail longer than the record is cut, never split */
	char big[2000];
	memset(big, '\n', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	vta_fail(&err, VTA_E_PARSE, "%s", big);
	assert_null(strchr(err.detail, '\n'));
	assert_true(strlen(err.detail) < sizeof(err.detail));
}

static char tmp[64];

static const char *write_tmp(const char *name, const void *bytes, size_t len)
{
	static char path[128];
	snprintf(path, sizeof(path), "%s/%s", tmp, name);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(bytes, 1, len, f), len);
	fclose(f);
	return path;
}

static void test_read_file_limits(void **state)
{
	(void)state;
	vta_error err = {0};
	uint8_t *buf;
	size_t len;
	const char *p = write_tmp("ten", "0123456789", 10);
	assert_int_equal(vta_read_file(p, "program", 10, &buf, &len, &err), VTA_OK);
	assert_int_equal(len, 10);
	assert_int_equal(buf[10], 0);
	free(buf);
	assert_int_equal(vta_read_file(p, "program", 9, &buf, &len, &err), VTA_E_IO);
	assert_non_null(strstr(err.detail, "ten: larger than a program may be (9 bytes)"));
	assert_null(buf);
	assert_int_equal(vta_read_file("/dev/zero", "program", 1 << 20, &buf, &len, &err),
			 VTA_E_IO);
	assert_string_equal(err.detail, "/dev/zero: a character device: a program must be a "
					"regular file or a pipe");
	assert_int_equal(vta_read_file(tmp, "program", 1 << 20, &buf, &len, &err), VTA_E_IO);
	assert_non_null(strstr(err.detail, ": a directory: a program must be"));
	/* empty files are files */
	p = write_tmp("empty", "", 0);
	assert_int_equal(vta_read_file(p, "program", 10, &buf, &len, &err), VTA_OK);
	assert_int_equal(len, 0);
	free(buf);
}

static void test_yaml_depth(void **state)
{
	(void)state;
	vta_error err = {0};
	vta_yaml y;
	char text[400];
	/* 64 levels pass, 65 do not */
	memset(text, '[', 64);
	memset(text + 64, ']', 64);
	text[128] = '\0';
	assert_int_equal(vta_yaml_load_string(text, "t.yaml", &y, &err), VTA_OK);
	vta_yaml_free(&y);
	memset(text, '[', 65);
	memset(text + 65, ']', 65);
	text[130] = '\0';
	assert_int_equal(vta_yaml_load_string(text, "t.yaml", &y, &err), VTA_E_PARSE);
	assert_string_equal(err.detail, "t.yaml:1:65: collections nested more than 64 deep");
	vta_yaml_free(&y);
	/* mappings count as well as lists */
	size_t n = 0;
	for (int i = 0; i < 70; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "{a: ");
	text[n] = '\0';
	assert_int_equal(vta_yaml_load_string(text, "m.yaml", &y, &err), VTA_E_PARSE);
	assert_non_null(strstr(err.detail, "nested more than 64 deep"));
	vta_yaml_free(&y);
}

static void test_yaml_file_limit(void **state)
{
	(void)state;
	vta_error err = {0};
	vta_yaml y;
	size_t big = VTA_LIMIT_YAML + 1;
	char *text = malloc(big);
	assert_non_null(text);
	memset(text, '#', big);
	const char *p = write_tmp("big.yaml", text, big);
	free(text);
	assert_int_equal(vta_yaml_load_file(p, &y, &err), VTA_E_IO);
	assert_non_null(strstr(err.detail, "big.yaml: larger than a YAML file may be (4 MiB)"));
	vta_yaml_free(&y);
}

static void test_uop_budget(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	cfg.uop_budget = 100;
	vta_insn in = {.opcode = VTA_OP_GEMM};
	in.loop.uop_bgn = 0;
	in.loop.uop_end = 5;
	in.loop.iter_out = 4;
	in.loop.iter_in = 5; /* 100 uops */
	uint64_t done = 0;
	vta_error err = {0};
	assert_int_equal(vta_uop_budget_check(&cfg, &in, &done, &err), VTA_OK);
	assert_int_equal(done, 100);
	in.loop.iter_in = 0; /* 0 uops still fit */
	assert_int_equal(vta_uop_budget_check(&cfg, &in, &done, &err), VTA_OK);
	in.loop.iter_in = 1;
	assert_int_equal(vta_uop_budget_check(&cfg, &in, &done, &err), VTA_E_NO_FINISH);
	assert_string_equal(err.detail, "the uop budget of 100 (timing.uop_budget) runs out: "
					"20 uops after 100");
	assert_int_equal(done, 100);
}

static int setup(void **state)
{
	(void)state;
	snprintf(tmp, sizeof(tmp), "/tmp/vtasim-text-XXXXXX");
	return mkdtemp(tmp) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quote_escapes),
		cmocka_unit_test(test_quote_cuts),
		cmocka_unit_test(test_quote_path),
		cmocka_unit_test(test_fail_is_one_line),
		cmocka_unit_test(test_read_file_limits),
		cmocka_unit_test(test_yaml_depth),
		cmocka_unit_test(test_yaml_file_limit),
		cmocka_unit_test(test_uop_budget),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
