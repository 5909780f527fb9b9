/*
 * cli_opts.c - a command's option table (cli.h cli_opt) made into what getopt_long takes
 * and into the option lines of its --help: one table, so that the help and the parser
 * cannot disagree.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const cli_opt HELP = {"help", 'h', 'h', NULL, "this help, on stdout (exit status 0)"};

static int is_end(const cli_opt *o)
{
	return !o->name && !o->letter;
}

void cli_getopt_make(const cli_opt *opts, cli_getopt *g)
{
	size_t n = 0, k = 0;
	g->shortopts[k++] = ':'; /* a missing value is ':', told apart from an unknown '?' */
	for (const cli_opt *o = opts;; o++) {
		const cli_opt *x = is_end(o) ? &HELP : o;
		if (n < CLI_MAX_OPTS + 1) {
			if (x->name)
				g->longopts[n++] = (struct option){
					x->name, x->arg ? required_argument : no_argument, NULL, x->val};
			if (x->letter) {
				g->shortopts[k++] = x->letter;
				if (x->arg)
					g->shortopts[k++] = ':';
			}
		}
		if (is_end(o))
			break;
	}
	g->longopts[n] = (struct option){0, 0, 0, 0};
	g->shortopts[k] = 0;
}

/* "  -c, --config CONFIG", "      --dram IMAGE" or "  -o REPORT.json", then the help from
 * column 35 (or after two spaces, past it). */
static void line(FILE *f, const cli_opt *o)
{
	char head[96];
	if (o->name)
		snprintf(head, sizeof(head), "  %c%c%s--%s%s%s", o->letter ? '-' : ' ',
			 o->letter ? o->letter : ' ', o->letter ? ", " : "  ", o->name,
			 o->arg ? " " : "", o->arg ? o->arg : "");
	else
		snprintf(head, sizeof(head), "  -%c%s%s", o->letter, o->arg ? " " : "",
			 o->arg ? o->arg : "");
	fprintf(f, "%-32s  %s\n", head, o->help);
}

void cli_opts_help(FILE *f, const cli_opt *opts)
{
	for (const cli_opt *o = opts; !is_end(o); o++)
		line(f, o);
	line(f, &HELP);
}
