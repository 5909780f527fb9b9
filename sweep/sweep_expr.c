/* sweep_expr.c - parse and evaluate sweep-file expressions (sweep_expr.h). */
#include "sweep_expr.h"
#include "vta_text.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Operators, by their text; precedence climbs from OR to the unary ones. */
enum {
	OP_OR, OP_AND, OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_ADD, OP_SUB, OP_MUL, OP_DIV,
	OP_MOD, OP_NOT, OP_NEG, OP_PLUS
};
static const char *const OP_TEXT[] = {"||", "&&", "==", "!=", "<", "<=", ">", ">=", "+",
				      "-",  "*",  "/",  "%",  "!", "-", "+"};

typedef enum nkind { N_NUM, N_STR, N_NAME, N_UNARY, N_BINARY } nkind;

typedef struct node {
	nkind kind;
	int op;
	size_t off; /* of the token in the text: errors point there */
	double num;
	char *str;  /* N_STR, N_NAME */
	bool paren; /* written in parentheses */
	int height; /* of the tree under it: 1 for a leaf */
	struct node *a, *b;
} node;

/* The bounds that keep the parser, the name check, the evaluator and the free (all
 * recursive over the tree) within a small, fixed stack and time: an expression's text, and
 * the height of its tree, whatever makes it deep (parentheses, a chain of binary operators,
 * a chain of unary ones). */
#define EXPR_TEXT_MAX 4096
#define EXPR_HEIGHT_MAX 200

struct sw_expr {
	node *root;
	char *text, *file, *what;
	int line, col;
};

/* ---------- positions and errors ---------- */

static void position(const sw_expr *e, size_t off, int *line, int *col)
{
	*line = e->line;
	*col = e->col;
	for (size_t i = 0; i < off && e->text[i]; i++) {
		if (e->text[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

static vta_status fail_at(const sw_expr *e, size_t off, vta_error *err, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;

static vta_status fail_at(const sw_expr *e, size_t off, vta_error *err, const char *fmt, ...)
{
	char msg[VTA_ERROR_DETAIL_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	int line, col;
	position(e, off, &line, &col);
	return vta_fail(err, VTA_E_PARSE, "%s:%d:%d: %s: %s", e->file, line, col, e->what, msg);
}

/* ---------- lexer ---------- */

typedef enum tkind { T_END, T_NUM, T_STR, T_NAME, T_OP, T_LPAREN, T_RPAREN, T_BAD } tkind;

typedef struct token {
	tkind kind;
	size_t off, len;
	int op;
	double num;
} token;

typedef struct parser {
	sw_expr *e;
	const char *s;
	size_t pos;
	token tok;
	int depth;
	vta_error *err;
} parser;

static bool name_start(int c)
{
	return isalpha(c) || c == '_';
}

static bool name_char(int c)
{
	return isalnum(c) || c == '_' || c == '.';
}

bool sw_is_name(const char *s, size_t max)
{
	if (!name_start((unsigned char)s[0]) || strlen(s) >= max)
		return false;
	for (; *s; s++)
		if (!name_char((unsigned char)*s))
			return false;
	return true;
}

static void lex(parser *p)
{
	const char *s = p->s;
	while (isspace((unsigned char)s[p->pos]))
		p->pos++;
	token *t = &p->tok;
	t->off = p->pos;
	t->len = 1;
	const char c = s[p->pos];
	if (!c) {
		t->kind = T_END;
		t->len = 0;
		return;
	}
	if (isdigit((unsigned char)c) || (c == '.' && isdigit((unsigned char)s[p->pos + 1]))) {
		char *end;
		t->num = strtod(s + p->pos, &end);
		t->kind = name_char((unsigned char)*end) ? T_BAD : T_NUM;
		while (name_char((unsigned char)*end)) /* "3x": all of it is the bad token */
			end++;
		t->len = (size_t)(end - (s + p->pos));
		p->pos += t->len;
		return;
	}
	if (name_start((unsigned char)c)) {
		size_t n = 1;
		while (name_char((unsigned char)s[p->pos + n]))
			n++;
		t->kind = T_NAME;
		t->len = n;
		p->pos += n;
		return;
	}
	if (c == '\'' || c == '"') {
		const char *close = strchr(s + p->pos + 1, c);
		if (!close) {
			t->kind = T_BAD;
			t->len = 0; /* an unterminated string: the error names its quote */
			return;
		}
		t->kind = T_STR;
		t->len = (size_t)(close - (s + p->pos)) + 1;
		p->pos += t->len;
		return;
	}
	if (c == '(' || c == ')') {
		t->kind = c == '(' ? T_LPAREN : T_RPAREN;
		p->pos++;
		return;
	}
	static const int two[] = {OP_OR, OP_AND, OP_EQ, OP_NE, OP_LE, OP_GE};
	for (size_t i = 0; i < sizeof(two) / sizeof(two[0]); i++)
		if (!strncmp(s + p->pos, OP_TEXT[two[i]], 2)) {
			t->kind = T_OP;
			t->op = two[i];
			t->len = 2;
			p->pos += 2;
			return;
		}
	static const int one[] = {OP_LT, OP_GT, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD, OP_NOT};
	for (size_t i = 0; i < sizeof(one) / sizeof(one[0]); i++)
		if (c == OP_TEXT[one[i]][0]) {
			t->kind = T_OP;
			t->op = one[i];
			p->pos++;
			return;
		}
	t->kind = T_BAD;
}

/* The current token as text for "got '...'" (at most 20 characters). */
static void tok_text(const parser *p, char *out, size_t size)
{
	if (p->tok.kind == T_END) {
		snprintf(out, size, "the end");
		return;
	}
	size_t n = p->tok.len ? p->tok.len : 1;
	if (p->tok.kind == T_BAD && !p->tok.len && (p->s[p->tok.off] == '\'' ||
						    p->s[p->tok.off] == '"')) {
		snprintf(out, size, "an unterminated string");
		return;
	}
	if (p->tok.kind == T_BAD && p->tok.len == 0)
		n = 1;
	snprintf(out, size, "'%.*s'", (int)(n < 20 ? n : 20), p->s + p->tok.off);
}

/* ---------- parser ---------- */

static node *new_node(parser *p, nkind kind, size_t off)
{
	node *n = calloc(1, sizeof(*n));
	if (!n)
		vta_fail(p->err, VTA_E_NOMEM, "out of memory");
	else {
		n->kind = kind;
		n->off = off;
		n->height = 1;
	}
	return n;
}

static void free_node(node *n)
{
	if (!n)
		return;
	free_node(n->a);
	free_node(n->b);
	free(n->str);
	free(n);
}

static node *parse_or(parser *p);

static node *expected_operand(parser *p)
{
	char got[40];
	tok_text(p, got, sizeof(got));
	fail_at(p->e, p->tok.off, p->err, "expected a number, a name, a string or '(', got %s",
		got);
	return NULL;
}

static node *parse_unary(parser *p)
{
	if (++p->depth > EXPR_HEIGHT_MAX) {
		fail_at(p->e, p->tok.off, p->err, "nested too deeply (more than %d levels of "
			"parentheses or operators)", EXPR_HEIGHT_MAX);
		return NULL;
	}
	node *n = NULL;
	const token t = p->tok;
	if (t.kind == T_OP && (t.op == OP_NOT || t.op == OP_SUB || t.op == OP_ADD)) {
		lex(p);
		node *a = parse_unary(p);
		if (!a)
			return NULL;
		if (!(n = new_node(p, N_UNARY, t.off))) {
			free_node(a);
			return NULL;
		}
		n->op = t.op == OP_NOT ? OP_NOT : t.op == OP_SUB ? OP_NEG : OP_PLUS;
		n->a = a;
		n->height = a->height + 1;
	} else if (t.kind == T_NUM) {
		if ((n = new_node(p, N_NUM, t.off)))
			n->num = t.num;
		lex(p);
	} else if (t.kind == T_NAME && ((t.len == 4 && !strncmp(p->s + t.off, "true", 4)) ||
					(t.len == 5 && !strncmp(p->s + t.off, "false", 5)))) {
		if ((n = new_node(p, N_NUM, t.off)))
			n->num = t.len == 4;
		lex(p);
	} else if (t.kind == T_STR || t.kind == T_NAME) {
		const bool str = t.kind == T_STR;
		if ((n = new_node(p, str ? N_STR : N_NAME, t.off)) &&
		    !(n->str = strndup(p->s + t.off + str, t.len - 2 * str))) {
			free(n);
			n = NULL;
			vta_fail(p->err, VTA_E_NOMEM, "out of memory");
		}
		lex(p);
	} else if (t.kind == T_LPAREN) {
		lex(p);
		if (!(n = parse_or(p)))
			return NULL;
		if (p->tok.kind != T_RPAREN) {
			char got[40];
			int line, col;
			tok_text(p, got, sizeof(got));
			position(p->e, t.off, &line, &col);
			fail_at(p->e, p->tok.off, p->err, "expected ')' to close the '(' of %d:%d, "
				"got %s", line, col, got);
			free_node(n);
			return NULL;
		}
		n->paren = true;
		lex(p);
	} else {
		return expected_operand(p);
	}
	p->depth--;
	return n;
}

/* Binary levels, loosest first; each level's operators and its next level. */
static const int LEVELS[][7] = {
	{OP_OR, -1},
	{OP_AND, -1},
	{OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, -1},
	{OP_ADD, OP_SUB, -1},
	{OP_MUL, OP_DIV, OP_MOD, -1},
};
#define N_LEVELS (sizeof(LEVELS) / sizeof(LEVELS[0]))
#define CMP_LEVEL 2

static bool in_level(int level, const token *t)
{
	if (t->kind != T_OP)
		return false;
	for (int i = 0; LEVELS[level][i] >= 0; i++)
		if (LEVELS[level][i] == t->op)
			return true;
	return false;
}

static node *parse_level(parser *p, int level)
{
	if (level == (int)N_LEVELS)
		return parse_unary(p);
	node *lhs = parse_level(p, level + 1);
	while (lhs && in_level(level, &p->tok)) {
		const token t = p->tok;
		if (level == CMP_LEVEL && lhs->kind == N_BINARY && lhs->op >= OP_EQ &&
		    lhs->op <= OP_GE && !lhs->paren) {
			fail_at(p->e, t.off, p->err, "comparisons do not chain: write "
				"(a < b) && (b < c)");
			free_node(lhs);
			return NULL;
		}
		lex(p);
		node *rhs = parse_level(p, level + 1);
		node *n = rhs ? new_node(p, N_BINARY, t.off) : NULL;
		if (!n) {
			free_node(lhs);
			free_node(rhs);
			return NULL;
		}
		n->op = t.op;
		n->a = lhs;
		n->b = rhs;
		n->height = 1 + (lhs->height > rhs->height ? lhs->height : rhs->height);
		lhs = n;
		if (n->height > EXPR_HEIGHT_MAX) {
			/* a chain (1+1+1+...) is as deep a tree as nested parentheses */
			fail_at(p->e, t.off, p->err, "nested too deeply (more than %d levels of "
				"parentheses or operators)", EXPR_HEIGHT_MAX);
			free_node(lhs);
			return NULL;
		}
	}
	return lhs;
}

static node *parse_or(parser *p)
{
	return parse_level(p, 0);
}

void sw_expr_free(sw_expr *e)
{
	if (!e)
		return;
	free_node(e->root);
	free(e->text);
	free(e->file);
	free(e->what);
	free(e);
}

vta_status sw_expr_parse(const char *text, const sw_where *where, sw_expr **out,
			 vta_error *err)
{
	*out = NULL;
	sw_expr *e = calloc(1, sizeof(*e));
	if (!e || !(e->text = strdup(text ? text : "")) || !(e->file = strdup(where->file)) ||
	    !(e->what = strdup(where->what))) {
		sw_expr_free(e);
		return vta_fail(err, VTA_E_NOMEM, "out of memory");
	}
	e->line = where->line;
	e->col = where->col;
	if (strlen(e->text) > EXPR_TEXT_MAX) {
		vta_status st = fail_at(e, 0, err, "longer than %d characters", EXPR_TEXT_MAX);
		sw_expr_free(e);
		return st;
	}
	parser p = {.e = e, .s = e->text, .err = err};
	lex(&p);
	if (p.tok.kind == T_END) {
		vta_status st = fail_at(e, 0, err, "empty expression");
		sw_expr_free(e);
		return st;
	}
	e->root = parse_or(&p);
	if (e->root && p.tok.kind != T_END) {
		char got[40];
		tok_text(&p, got, sizeof(got));
		fail_at(e, p.tok.off, err, "expected an operator or the end, got %s", got);
		free_node(e->root);
		e->root = NULL;
	}
	if (!e->root) {
		vta_status st = err && err->status ? err->status : VTA_E_PARSE;
		sw_expr_free(e);
		return st;
	}
	*out = e;
	return VTA_OK;
}

/* ---------- names ---------- */

static vta_status check_node(const sw_expr *e, const node *n,
			     bool (*known)(void *, const char *), void *ctx, vta_error *err)
{
	if (!n)
		return VTA_OK;
	if (n->kind == N_NAME && !known(ctx, n->str))
		return fail_at(e, n->off, err, "unknown name '%s'", VTA_Q(n->str));
	vta_status st = check_node(e, n->a, known, ctx, err);
	return st ? st : check_node(e, n->b, known, ctx, err);
}

vta_status sw_expr_check_names(const sw_expr *e, bool (*known)(void *ctx, const char *name),
			       void *ctx, vta_error *err)
{
	return check_node(e, e->root, known, ctx, err);
}


/* ---------- types ---------- */

typedef struct typer {
	const sw_expr *e;
	sw_type_of type_of;
	void *ctx;
	vta_error *err;
} typer;

static vta_status type_node(typer *t, const node *n, sw_type *out);

static vta_status need_num_type(typer *t, const node *at, sw_type ty, const char *op)
{
	if (ty != SW_TYPE_STR)
		return VTA_OK;
	return fail_at(t->e, at->off, t->err, "'%s' needs numbers, and this side is a string", op);
}

static vta_status type_binary(typer *t, const node *n, sw_type *out)
{
	sw_type a, b;
	vta_status st;
	if ((st = type_node(t, n->a, &a)) || (st = type_node(t, n->b, &b)))
		return st;
	const char *opt = OP_TEXT[n->op];
	*out = SW_TYPE_NUM;
	if (n->op >= OP_EQ && n->op <= OP_GE) {
		if (a == SW_TYPE_ANY || b == SW_TYPE_ANY)
			return VTA_OK;
		if (a != b)
			return fail_at(t->e, n->off, t->err,
				       "'%s' cannot compare a string with a number", opt);
		if (a == SW_TYPE_STR && n->op != OP_EQ && n->op != OP_NE)
			return fail_at(t->e, n->off, t->err, "strings compare only with == and !=");
		return VTA_OK;
	}
	if ((st = need_num_type(t, n, a, opt)))
		return st;
	return need_num_type(t, n, b, opt);
}

static vta_status type_node(typer *t, const node *n, sw_type *out)
{
	vta_status st;
	switch (n->kind) {
	case N_NUM: *out = SW_TYPE_NUM; return VTA_OK;
	case N_STR: *out = SW_TYPE_STR; return VTA_OK;
	case N_NAME: *out = t->type_of(t->ctx, n->str); return VTA_OK;
	case N_UNARY:
		if ((st = type_node(t, n->a, out)) ||
		    (st = need_num_type(t, n, *out, n->op == OP_NOT ? "!" : OP_TEXT[n->op])))
			return st;
		*out = SW_TYPE_NUM;
		return VTA_OK;
	default: return type_binary(t, n, out);
	}
}

vta_status sw_expr_check_types(const sw_expr *e, sw_type_of type_of, void *ctx, sw_type *out,
			       vta_error *err)
{
	typer t = {e, type_of, ctx, err};
	return type_node(&t, e->root, out);
}

const char *sw_expr_text(const sw_expr *e)
{
	return e->text;
}

/* ---------- evaluation ---------- */

typedef struct evaluator {
	const sw_expr *e;
	sw_lookup lookup;
	void *ctx;
	vta_error *err;
} evaluator;

static vta_status eval(evaluator *ev, const node *n, sw_value *out);

static vta_status need_num(evaluator *ev, const node *at, const sw_value *v, const char *op)
{
	if (v->type == SW_NUM)
		return VTA_OK;
	return fail_at(ev->e, at->off, ev->err, "'%s' needs numbers, got the string '%s'", op,
		       VTA_Q(v->str));
}

static vta_status eval_binary(evaluator *ev, const node *n, sw_value *out)
{
	sw_value a, b;
	vta_status st = eval(ev, n->a, &a);
	if (st)
		return st;
	const char *opt = OP_TEXT[n->op];
	out->type = SW_NUM;
	if (n->op == OP_OR || n->op == OP_AND) {
		if ((st = need_num(ev, n, &a, opt)))
			return st;
		const bool av = a.num != 0;
		if (av == (n->op == OP_OR)) { /* decided: the right side is not evaluated */
			out->num = av;
			return VTA_OK;
		}
		if ((st = eval(ev, n->b, &b)) || (st = need_num(ev, n, &b, opt)))
			return st;
		out->num = b.num != 0;
		return VTA_OK;
	}
	if ((st = eval(ev, n->b, &b)))
		return st;
	if (n->op >= OP_EQ && n->op <= OP_GE) {
		if (a.type != b.type)
			return fail_at(ev->e, n->off, ev->err,
				       "'%s' cannot compare a string with a number", opt);
		if (a.type == SW_STR) {
			if (n->op != OP_EQ && n->op != OP_NE)
				return fail_at(ev->e, n->off, ev->err,
					       "strings compare only with == and !=");
			out->num = (strcmp(a.str, b.str) == 0) == (n->op == OP_EQ);
			return VTA_OK;
		}
		switch (n->op) {
		case OP_EQ: out->num = a.num == b.num; break;
		case OP_NE: out->num = a.num != b.num; break;
		case OP_LT: out->num = a.num < b.num; break;
		case OP_LE: out->num = a.num <= b.num; break;
		case OP_GT: out->num = a.num > b.num; break;
		default: out->num = a.num >= b.num; break;
		}
		return VTA_OK;
	}
	if ((st = need_num(ev, n, &a, opt)) || (st = need_num(ev, n, &b, opt)))
		return st;
	switch (n->op) {
	case OP_ADD: out->num = a.num + b.num; break;
	case OP_SUB: out->num = a.num - b.num; break;
	case OP_MUL: out->num = a.num * b.num; break;
	case OP_DIV:
		if (b.num == 0)
			return fail_at(ev->e, n->off, ev->err, "division by zero");
		out->num = a.num / b.num;
		break;
	default:
		if (a.num != floor(a.num) || b.num != floor(b.num))
			return fail_at(ev->e, n->off, ev->err, "'%%' needs integers");
		if (b.num == 0)
			return fail_at(ev->e, n->off, ev->err, "division by zero");
		out->num = fmod(a.num, b.num);
		break;
	}
	return VTA_OK;
}

static vta_status eval(evaluator *ev, const node *n, sw_value *out)
{
	vta_status st;
	switch (n->kind) {
	case N_NUM: *out = (sw_value){SW_NUM, n->num, NULL}; return VTA_OK;
	case N_STR: *out = (sw_value){SW_STR, 0, n->str}; return VTA_OK;
	case N_NAME: {
		bool failed = false;
		vta_error le = {0};
		if (ev->lookup(ev->ctx, n->str, out, &failed, &le))
			return VTA_OK;
		if (failed)
			return fail_at(ev->e, n->off, ev->err, "%s", le.detail);
		return fail_at(ev->e, n->off, ev->err, "unknown name '%s'", VTA_Q(n->str));
	}
	case N_UNARY:
		if ((st = eval(ev, n->a, out)) ||
		    (st = need_num(ev, n, out, n->op == OP_NOT ? "!" : OP_TEXT[n->op])))
			return st;
		if (n->op == OP_NOT)
			out->num = out->num == 0;
		else if (n->op == OP_NEG)
			out->num = -out->num;
		return VTA_OK;
	default: return eval_binary(ev, n, out);
	}
}

vta_status sw_expr_eval(const sw_expr *e, sw_lookup lookup, void *ctx, sw_value *out,
			vta_error *err)
{
	evaluator ev = {e, lookup, ctx, err};
	return eval(&ev, e->root, out);
}

vta_status sw_expr_eval_bool(const sw_expr *e, sw_lookup lookup, void *ctx, bool *out,
			     vta_error *err)
{
	sw_value v;
	vta_status st = sw_expr_eval(e, lookup, ctx, &v, err);
	if (st)
		return st;
	if (v.type != SW_NUM)
		return fail_at(e, 0, err, "expected a number or a comparison, got the string '%s'",
			       VTA_Q(v.str));
	*out = v.num != 0;
	return VTA_OK;
}

void sw_value_format(const sw_value *v, char *out, size_t size)
{
	if (v->type == SW_STR)
		snprintf(out, size, "%s", v->str);
	else if (v->num == floor(v->num) && fabs(v->num) < 1e15)
		snprintf(out, size, "%.0f", v->num);
	else
		snprintf(out, size, "%.10g", v->num);
}
