/*
 * debug_script.c - reading the debugger's command lines (debug.h), from a script or any
 * standard input: a byte at a time, so that a NUL cannot hide the rest of a line (fgets
 * would stop there and the cut command would run), and never more than one line held.
 */
#include <stdbool.h>
#include <stdio.h>

#include "debug.h"

int debug_read_line(FILE *in, char buf[DEBUG_LINE_MAX + 2], uint64_t *total, uint64_t limit)
{
	size_t n = 0;
	bool any = false, too_long = false, nul = false;
	int c;
	while (*total <= limit && (c = getc(in)) != EOF) {
		any = true;
		++*total;
		if (c == '\n')
			break;
		if (n == DEBUG_LINE_MAX) {
			too_long = true;
			continue;
		}
		nul |= c == '\0';
		buf[n++] = (char)c;
	}
	if (!any)
		return DEBUG_LINE_END;
	if (n && buf[n - 1] == '\r' && !too_long)
		n--;
	buf[n] = '\0';
	return too_long ? DEBUG_LINE_TOO_LONG : nul ? DEBUG_LINE_NUL : DEBUG_LINE_OK;
}
