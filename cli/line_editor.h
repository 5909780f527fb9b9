/*
 * line_editor.h - line editing and history for a debugger session at a terminal (libedit),
 * opened when such a session starts. Only that session needs it, and linking it would load
 * libedit and the three libraries it brings (libtinfo, libbsd, libmd) into every vtasim
 * process: about a millisecond of start-up and thirty page faults each (docs/performance.md).
 */
#ifndef VTASIM_LINE_EDITOR_H
#define VTASIM_LINE_EDITOR_H

#include <stddef.h>

typedef struct line_editor {
	void *lib; /* the dlopen handle; NULL: not open */
	char *(*readline)(const char *prompt); /* a line the caller frees, NULL at the end */
	int (*add_history)(const char *line);
} line_editor;

/* Open libedit for the program `name`, with the signals left to the caller. 0, or -1 with
 * why (at most n bytes) when the library or one of its functions cannot be loaded. */
int line_editor_open(line_editor *e, const char *name, char *why, size_t n);
/* Forget e; the library stays loaded (its state is its globals'). */
void line_editor_close(line_editor *e);

#endif /* VTASIM_LINE_EDITOR_H */
