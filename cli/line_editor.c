/* line_editor.c - libedit opened at run time (line_editor.h). */
#include "line_editor.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

/* The library's soname, read from it when the build is configured (cli/CMakeLists.txt). */
#ifndef VTASIM_LIBEDIT_SONAME
#error "VTASIM_LIBEDIT_SONAME: the build names the libedit to open"
#endif

int line_editor_open(line_editor *e, const char *name, char *why, size_t n)
{
	memset(e, 0, sizeof(*e));
	void *lib = dlopen(VTASIM_LIBEDIT_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		snprintf(why, n, "%s", dlerror());
		return -1;
	}
	/* readline's globals and functions as libedit's readline.h declares them */
	const char **readline_name = dlsym(lib, "rl_readline_name");
	int *catch_signals = dlsym(lib, "rl_catch_signals");
	void (*using_history)(void);
	*(void **)&using_history = dlsym(lib, "using_history");
	*(void **)&e->readline = dlsym(lib, "readline");
	*(void **)&e->add_history = dlsym(lib, "add_history");
	if (!readline_name || !catch_signals || !using_history || !e->readline ||
	    !e->add_history) {
		snprintf(why, n, "%s lacks readline's functions", VTASIM_LIBEDIT_SONAME);
		dlclose(lib);
		memset(e, 0, sizeof(*e));
		return -1;
	}
	*readline_name = name;
	*catch_signals = 0;
	using_history();
	e->lib = lib;
	return 0;
}

/* The library stays loaded: its state (the history, the terminal's settings) lives in its
 * own globals to the end of the process, as when it was linked; unloading it would leave
 * that state unreachable. */
void line_editor_close(line_editor *e)
{
	memset(e, 0, sizeof(*e));
}
