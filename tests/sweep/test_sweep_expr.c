/*
 * test_sweep_expr.c - the sweep files' expression language (sweep/sweep_expr.h): precedence,
 * numbers and strings, short circuits, names, and one negative test per diagnostic with its
 * position.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "sweep_expr.h"

/* Names: x = 32, mode = 'tflite', half = 0.5; 'cfg' is known but has no value. */
static bool lookup(void *ctx, const char *name, sw_value *out, bool *failed, vta_error *err)
{
	(void)ctx;
	if (!strcmp(name, "x")) {
		*out = (sw_value){SW_NUM, 32, NULL};
		return true;
	}
	if (!strcmp(name, "sram_kib.inp")) {
		*out = (sw_value){SW_NUM, 16, NULL};
		return true;
	}
	if (!strcmp(name, "half")) {
		*out = (sw_value){SW_NUM, 0.5, NULL};
		return true;
	}
	if (!strcmp(name, "mode")) {
		*out = (sw_value){SW_STR, 0, "tflite"};
		return true;
	}
	if (!strcmp(name, "cfg")) {
		*failed = true;
		vta_fail(err, VTA_E_CONFIG, "'cfg' has no value: config refused");
	}
	return false;
}

static const sw_where WHERE = {"s.yaml", 7, 13, "constraint"};

/* Evaluate text and give the value as formatted text, or the error. */
static void eval(const char *text, char *out, size_t size)
{
	sw_expr *e;
	vta_error err = {0};
	sw_value v;
	if (sw_expr_parse(text, &WHERE, &e, &err)) {
		snprintf(out, size, "%s", err.detail);
		return;
	}
	if (sw_expr_eval(e, lookup, NULL, &v, &err))
		snprintf(out, size, "%s", err.detail);
	else
		sw_value_format(&v, out, size);
	sw_expr_free(e);
}

#define EXPECT(text, want)                            \
	do {                                          \
		char got[VTA_ERROR_DETAIL_MAX];       \
		eval(text, got, sizeof(got));         \
		assert_string_equal(got, want);       \
	} while (0)

static void test_arithmetic(void **state)
{
	(void)state;
	EXPECT("1 + 2 * 3", "7");
	EXPECT("(1 + 2) * 3", "9");
	EXPECT("7 - 2 - 1", "4");
	EXPECT("x / 64", "0.5");
	EXPECT("x % 5", "2");
	EXPECT("-x + +2", "-30");
	EXPECT("1.5e3 + .5", "1500.5");
	EXPECT("sram_kib.inp * 2", "32");
	EXPECT("half * 3", "1.5");
	EXPECT("mode", "tflite");
}

static void test_logic(void **state)
{
	(void)state;
	EXPECT("x <= 32 && x >= 32", "1");
	EXPECT("x < 32 || x > 32", "0");
	EXPECT("!(x == 32)", "0");
	EXPECT("x != 31", "1");
	EXPECT("mode == 'tflite'", "1");
	EXPECT("mode != \"vta16\"", "1");
	EXPECT("(x < 64) == 1", "1");
	EXPECT("true && !false", "1");
	/* short circuits: the other side is never evaluated */
	EXPECT("1 || 1 / 0", "1");
	EXPECT("0 && nosuch > 1", "0");
}

static void test_diagnostics(void **state)
{
	(void)state;
	EXPECT("", "s.yaml:7:13: constraint: empty expression");
	EXPECT("1 +", "s.yaml:7:16: constraint: expected a number, a name, a string or '(', got the end");
	EXPECT("1 2", "s.yaml:7:15: constraint: expected an operator or the end, got '2'");
	EXPECT("(1 + 2", "s.yaml:7:19: constraint: expected ')' to close the '(' of 7:13, got the end");
	EXPECT("3x + 1", "s.yaml:7:13: constraint: expected a number, a name, a string or '(', got '3x'");
	EXPECT("'abc", "s.yaml:7:13: constraint: expected a number, a name, a string or '(', got an unterminated string");
	EXPECT("x # 1", "s.yaml:7:15: constraint: expected an operator or the end, got '#'");
	EXPECT("1 < x < 3", "s.yaml:7:19: constraint: comparisons do not chain: write (a < b) && (b < c)");
	EXPECT("nosuch > 1", "s.yaml:7:13: constraint: unknown name 'nosuch'");
	EXPECT("cfg * 2", "s.yaml:7:13: constraint: 'cfg' has no value: config refused");
	EXPECT("x / (x - 32)", "s.yaml:7:15: constraint: division by zero");
	EXPECT("x % 0", "s.yaml:7:15: constraint: division by zero");
	EXPECT("half % 2", "s.yaml:7:18: constraint: '%' needs integers");
	EXPECT("mode + 1", "s.yaml:7:18: constraint: '+' needs numbers, got the string 'tflite'");
	EXPECT("!mode", "s.yaml:7:13: constraint: '!' needs numbers, got the string 'tflite'");
	EXPECT("mode == 1", "s.yaml:7:18: constraint: '==' cannot compare a string with a number");
	EXPECT("mode < 'z'", "s.yaml:7:18: constraint: strings compare only with == and !=");
	char deep[260];
	memset(deep, '(', 250);
	strcpy(deep + 250, "1");
	EXPECT(deep, "s.yaml:7:213: constraint: nested too deeply (more than 200 levels of "
		     "parentheses or operators)");
}

/* A chain of any operator is as deep a tree as nested parentheses: every parser, check and
 * evaluation over it is bounded (one error at the operator that goes too deep), and so is
 * the text. Chains up to the bound still evaluate. */
static void test_deep_chains(void **state)
{
	(void)state;
	static const char *const binary[] = {"+", "-", "*", "/", "%", "&&", "||", "==", "<"};
	static char text[64 * 1024];
	char want[VTA_ERROR_DETAIL_MAX], got[VTA_ERROR_DETAIL_MAX];
	for (size_t k = 0; k < sizeof(binary) / sizeof(binary[0]); k++) {
		/* comparisons do not chain: parenthesize the left side, (((1<1)<1)<1)... */
		const bool cmp = !strcmp(binary[k], "==") || !strcmp(binary[k], "<");
		size_t len = 0;
		const int terms = 400;
		if (cmp)
			for (int i = 0; i < terms - 1; i++)
				text[len++] = '(';
		text[len++] = '1';
		size_t deep_at = 0;
		for (int i = 1; i < terms; i++) {
			if (i == 200) /* the operator whose node is 201 deep */
				deep_at = len;
			len += (size_t)snprintf(text + len, sizeof(text) - len, "%s1%s", binary[k],
						cmp ? ")" : "");
		}
		text[len] = '\0';
		eval(text, got, sizeof(got));
		if (cmp) /* the parentheses run out first */
			snprintf(want, sizeof(want), "s.yaml:7:213: constraint: nested too deeply "
				 "(more than 200 levels of parentheses or operators)");
		else
			snprintf(want, sizeof(want), "s.yaml:7:%zu: constraint: nested too deeply "
				 "(more than 200 levels of parentheses or operators)", 13 + deep_at);
		assert_string_equal(got, want);
	}
	/* unary chains: - + ! */
	static const char unary[] = "-+!";
	for (size_t k = 0; k < 3; k++) {
		memset(text, unary[k], 300);
		strcpy(text + 300, "x");
		eval(text, got, sizeof(got));
		assert_string_equal(got, "s.yaml:7:213: constraint: nested too deeply (more than "
					 "200 levels of parentheses or operators)");
	}
	/* a mix of both: 1+-1+-1... */
	size_t len = 0;
	text[len++] = '1';
	for (int i = 0; i < 300; i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len, "+-1");
	eval(text, got, sizeof(got));
	assert_non_null(strstr(got, "nested too deeply"));
	/* 40 KB of 1+1+...: refused by its length before any parsing */
	len = 0;
	text[len++] = '1';
	while (len + 2 < 40 * 1024)
		len += (size_t)snprintf(text + len, sizeof(text) - len, "+1");
	eval(text, got, sizeof(got));
	assert_string_equal(got, "s.yaml:7:13: constraint: longer than 4096 characters");
	/* within the bounds a chain evaluates: 199 additions */
	len = 0;
	text[len++] = '1';
	for (int i = 0; i < 199; i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len, "+1");
	eval(text, got, sizeof(got));
	assert_string_equal(got, "200");
}

/* A line break moves the position to the next line. */
static void test_positions(void **state)
{
	(void)state;
	EXPECT("x > 1 &&\n  y", "s.yaml:8:3: constraint: unknown name 'y'");
}

static bool only_x(void *ctx, const char *name)
{
	(void)ctx;
	return !strcmp(name, "x");
}

static void test_check_names(void **state)
{
	(void)state;
	sw_expr *e;
	vta_error err = {0};
	assert_int_equal(sw_expr_parse("x + 1 > 0 || sram_kib.out > 2", &WHERE, &e, &err), VTA_OK);
	assert_int_equal(sw_expr_check_names(e, only_x, NULL, &err), VTA_E_PARSE);
	assert_string_equal(err.detail, "s.yaml:7:26: constraint: unknown name 'sram_kib.out'");
	sw_expr_free(e);
	bool b;
	assert_int_equal(sw_expr_parse("'text'", &WHERE, &e, &err), VTA_OK);
	assert_int_equal(sw_expr_eval_bool(e, lookup, NULL, &b, &err), VTA_E_PARSE);
	assert_string_equal(err.detail, "s.yaml:7:13: constraint: expected a number or a comparison, "
					"got the string 'text'");
	sw_expr_free(e);
}

/* Types, before any value: n is a number, s a string, a either. */
static sw_type type_of(void *ctx, const char *name)
{
	(void)ctx;
	return !strcmp(name, "n") ? SW_TYPE_NUM : !strcmp(name, "s") ? SW_TYPE_STR : SW_TYPE_ANY;
}

/* The type of text, as "num", "str", "any", or the error. */
static void type_text(const char *text, char *out, size_t size)
{
	sw_expr *e;
	vta_error err = {0};
	sw_type t;
	assert_int_equal(sw_expr_parse(text, &WHERE, &e, &err), VTA_OK);
	if (sw_expr_check_types(e, type_of, NULL, &t, &err))
		snprintf(out, size, "%s", err.detail);
	else
		snprintf(out, size, "%s", t == SW_TYPE_NUM ? "num" : t == SW_TYPE_STR ? "str" : "any");
	sw_expr_free(e);
}

#define EXPECT_TYPE(text, want)                                                                \
	do {                                                                                   \
		char got_[512];                                                                \
		type_text(text, got_, sizeof(got_));                                           \
		assert_string_equal(got_, want);                                               \
	} while (0)

static void test_check_types(void **state)
{
	(void)state;
	EXPECT_TYPE("n * 2 / (n - 1)", "num"); /* a division by zero is the value's, not the type's */
	EXPECT_TYPE("s", "str");
	EXPECT_TYPE("a", "any");
	EXPECT_TYPE("a + 1", "num");
	EXPECT_TYPE("s == 'x' && n > 1", "num");
	EXPECT_TYPE("a == s || a < n", "num");
	EXPECT_TYPE("n + s", "s.yaml:7:15: constraint: '+' needs numbers, and this side is a string");
	EXPECT_TYPE("-s", "s.yaml:7:13: constraint: '-' needs numbers, and this side is a string");
	EXPECT_TYPE("!'x'", "s.yaml:7:13: constraint: '!' needs numbers, and this side is a string");
	EXPECT_TYPE("s < 'b'", "s.yaml:7:15: constraint: strings compare only with == and !=");
	EXPECT_TYPE("n == s", "s.yaml:7:15: constraint: '==' cannot compare a string with a number");
	EXPECT_TYPE("n > 0 || s", "s.yaml:7:19: constraint: '||' needs numbers, and this side is a string");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arithmetic),   cmocka_unit_test(test_logic),
		cmocka_unit_test(test_diagnostics),  cmocka_unit_test(test_deep_chains),
		cmocka_unit_test(test_positions),
		cmocka_unit_test(test_check_names),
		cmocka_unit_test(test_check_types),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
