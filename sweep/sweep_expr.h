/*
 * sweep_expr.h - the small expression language of sweep files (docs/sweep.md "Expressions"):
 * numbers (integers and decimals, held as doubles; true and false are 1 and 0), 'strings',
 * names (dotted, as config keys are: sram_kib.inp), + - * / %, comparisons, && || !,
 * parentheses. No assignment, no calls,
 * no loops: an expression only reads the values its lookup gives.
 *
 * Errors are one line "FILE:LINE:COL: WHAT: problem", the position of the offending token
 * in the sweep file (the expression's own position plus the token's offset in it).
 */
#ifndef VTASIM_SWEEP_EXPR_H
#define VTASIM_SWEEP_EXPR_H

#include <stdbool.h>
#include <stddef.h>

#include "vta_status.h"

typedef enum sw_vtype { SW_NUM, SW_STR } sw_vtype;

/* A value: a number, or a string borrowed from the expression or the lookup. */
typedef struct sw_value {
	sw_vtype type;
	double num;
	const char *str;
} sw_value;

typedef struct sw_expr sw_expr;

/* Where an expression was written, for its messages. */
typedef struct sw_where {
	const char *file;
	int line, col; /* of the expression's first character */
	const char *what; /* "constraint", "let sram_mib" */
} sw_where;

/* A name's value: true and *out set when the name is known, false when not. A lookup may
 * also fail (return VTA_E_... through *err and set *failed) when the name is known but has
 * no value at this point. */
typedef bool (*sw_lookup)(void *ctx, const char *name, sw_value *out, bool *failed,
			  vta_error *err);

/* Is s one name as an expression reads it (a letter or '_', then letters, digits, '_' and
 * '.'), shorter than max? A let's and a metric's name must be; such a name is also safe in
 * a file name and a script. */
bool sw_is_name(const char *s, size_t max);

vta_status sw_expr_parse(const char *text, const sw_where *where, sw_expr **out,
			 vta_error *err);
void sw_expr_free(sw_expr *e);

/* Every name of e is one `known` accepts, else "unknown name 'x'" at its position. */
vta_status sw_expr_check_names(const sw_expr *e, bool (*known)(void *ctx, const char *name),
			       void *ctx, vta_error *err);

/* What a name holds, as far as is known before any value is: a number, a string, or either
 * (a column whose rows differ). */
typedef enum sw_type { SW_TYPE_NUM, SW_TYPE_STR, SW_TYPE_ANY } sw_type;
typedef sw_type (*sw_type_of)(void *ctx, const char *name);

/* The type errors evaluation would find on every value the names may hold ("'+' needs
 * numbers"), found before any value exists; *out: the expression's type. Names must be known
 * (sw_expr_check_names) first. */
vta_status sw_expr_check_types(const sw_expr *e, sw_type_of type_of, void *ctx, sw_type *out,
			       vta_error *err);

/* The expression's text, as it was written. */
const char *sw_expr_text(const sw_expr *e);

/* Evaluate: type errors ("'+' needs numbers"), division by zero and a lookup's failure are
 * errors at the operator's or the name's position. */
vta_status sw_expr_eval(const sw_expr *e, sw_lookup lookup, void *ctx, sw_value *out,
			vta_error *err);

/* A number's truth (non-zero); a string is an error at e's position. */
vta_status sw_expr_eval_bool(const sw_expr *e, sw_lookup lookup, void *ctx, bool *out,
			     vta_error *err);

/* A value as text: integers without a decimal point ("32"), others with up to 10
 * significant digits, strings as they are. */
void sw_value_format(const sw_value *v, char *out, size_t size);

#endif /* VTASIM_SWEEP_EXPR_H */
