/*
 * fuzz_debug.c - the debugger's script reader and command interpreter (debug.h) on
 * arbitrary scripts: lines read as `vtasim debug -x` reads them (NULs, long lines, CRs),
 * each good line run as a command on a session of docs/examples/gemm.s (default config,
 * small cycle budget). Contract: every command OK or one clean error line; the reader
 * never holds more than a line; no crash, hang or wrapped range whatever the numbers.
 *
 * SystemC elaborates once per process: one session for every input, restarted (and its
 * breakpoints deleted) before each.
 */
#include "debug.h"
#include "fuzz_contract.h"
#include "vta_asm.h"
#include "vta_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static vta_config cfg;
	static vta_program prog;
	static debug_session s;
	static bool open;
	vta_error err = {0};
	if (!open) {
		fuzz_stream_config(&cfg);
		FILE *devnull = fopen("/dev/null", "w");
		fuzz_require(devnull != NULL, "no /dev/null");
		if (vta_program_load("docs/examples/gemm.s", &cfg, &prog, &err) ||
		    debug_open(&s, &cfg, &prog, "gemm.s", NULL, devnull, &err))
			fuzz_die("the session cannot be opened (run from the tree)", err.detail);
		open = true;
	}
	int quit = 0;
	if (debug_command(&s, "delete", &quit, &err) || debug_restart(&s, &err))
		fuzz_die("the session cannot be reset", err.detail);
	if (!size)
		return 0;
	FILE *in = fmemopen((void *)data, size, "rb");
	fuzz_require(in != NULL, "fmemopen");
	char line[DEBUG_LINE_MAX + 2];
	uint64_t total = 0;
	int got;
	while (!quit && (got = debug_read_line(in, line, &total, VTA_LIMIT_SCRIPT)) != 0) {
		fuzz_require(total <= size, "the reader counts more than it read");
		if (got != DEBUG_LINE_OK)
			continue;
		fuzz_require(strlen(line) <= DEBUG_LINE_MAX, "a line beyond the limit");
		vta_error e = {0};
		fuzz_expect(debug_command(&s, line, &quit, &e), &e);
	}
	fclose(in);
	return 0;
}
