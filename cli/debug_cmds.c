/*
 * debug_cmds.c - the debugger's command language: one line, split into words, dispatched
 * through one table that also writes `help` (docs/cli.md lists the same commands).
 * Numbers are decimal or 0x hexadecimal; every mistake is one line naming the word.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "debug.h"
#include "sram_view.h"
#include "vta_queues.h"
#include "vta_text.h"

#define MAX_WORDS 8
#define MAX_PRINT_DRAM 65536u

typedef vta_status (*cmd_fn)(debug_session *s, int argc, char **argv, int *quit,
			     vta_error *err);

typedef struct command {
	const char *name, *alias;
	cmd_fn fn;
	const char *args, *help;
} command;

static const command *find(const char *name);

/* ----- arguments ----- */

static vta_status usage(const command *c, vta_error *err)
{
	return vta_fail(err, VTA_E_USAGE, "usage: %s%s%s", c->name, c->args[0] ? " " : "",
			c->args);
}

/* A number: decimal or 0x hex, nothing else ("what" names it in the error). */
static vta_status number(const char *word, const char *what, uint64_t *v, vta_error *err)
{
	char *end;
	errno = 0;
	if (!isdigit((unsigned char)word[0]))
		return vta_fail(err, VTA_E_USAGE, "bad %s '%s': expected a number", what,
				VTA_Q(word));
	unsigned long long x = strtoull(word, &end, 0);
	if (*end || errno == ERANGE)
		return vta_fail(err, VTA_E_USAGE, "bad %s '%s': expected a number", what,
				VTA_Q(word));
	*v = x;
	return VTA_OK;
}

/* ----- breakpoints ----- */

static vta_status add_bp(debug_session *s, debug_bp_kind kind, uint64_t value, vta_mem mem,
			 vta_error *err)
{
	if (s->n_bps == DEBUG_MAX_BPS)
		return vta_fail(err, VTA_E_USAGE, "at most %d breakpoints: delete one first",
				DEBUG_MAX_BPS);
	debug_bp *b = &s->bps[s->n_bps++];
	b->id = s->next_id++;
	b->kind = kind;
	b->value = value;
	b->mem = mem;
	b->hits = 0;
	char what[64];
	debug_bp_text(b, what, sizeof(what));
	fprintf(s->out, "%s %d: %s\n", debug_bp_kind_name(b), b->id, what);
	return VTA_OK;
}

static vta_status cmd_break(debug_session *s, int argc, char **argv, int *quit, vta_error *err)
{
	(void)quit;
	if (argc != 3)
		return usage(find("break"), err);
	const char *kind = argv[1], *arg = argv[2];
	uint64_t v;
	vta_status st;
	if (!strcmp(kind, "insn")) {
		if ((st = number(arg, "instruction", &v, err)))
			return st;
		if (v >= s->prog->n_insns)
			return vta_fail(err, VTA_E_USAGE,
					"insn %" PRIu64 " is beyond the program's %zu instructions", v,
					s->prog->n_insns);
		return add_bp(s, DEBUG_BP_INSN, v, VTA_MEM_UOP, err);
	}
	if (!strcmp(kind, "op")) {
		static const vta_opcode ops[] = {VTA_OP_LOAD, VTA_OP_STORE, VTA_OP_GEMM, VTA_OP_ALU,
						 VTA_OP_FINISH};
		for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
			if (!strcmp(arg, vta_opcode_name(ops[i])))
				return add_bp(s, DEBUG_BP_OP, ops[i], VTA_MEM_UOP, err);
		return vta_fail(err, VTA_E_USAGE,
				"unknown opcode '%s' (load, store, gemm, alu, finish)", VTA_Q(arg));
	}
	if (!strcmp(kind, "module")) {
		for (int m = 0; m < VTA_MODULE_COUNT; m++)
			if (!strcmp(arg, vta_module_name((vta_module)m)))
				return add_bp(s, DEBUG_BP_MODULE, (uint64_t)m, VTA_MEM_UOP, err);
		return vta_fail(err, VTA_E_USAGE, "unknown module '%s' (load, compute, store)",
				VTA_Q(arg));
	}
	if (!strcmp(kind, "cycle")) {
		if ((st = number(arg, "cycle", &v, err)))
			return st;
		return add_bp(s, DEBUG_BP_CYCLE, v, VTA_MEM_UOP, err);
	}
	return vta_fail(err, VTA_E_USAGE, "break: unknown kind '%s' (insn, op, module, cycle)",
			VTA_Q(kind));
}

/* An SRAM row named by two words ("acc", "12"), checked against the SRAM's depth; with
 * count, rows [row, row + count). */
static vta_status sram_rows(const debug_session *s, const char *name, const char *row_word,
			    const char *count_word, sram_view *v, uint64_t *row, uint64_t *count,
			    vta_error *err)
{
	vta_mem mem;
	if (sram_view_parse(name, &mem))
		return vta_fail(err, VTA_E_USAGE, "unknown memory '%s' (inp, wgt, acc, out, uop%s)",
				VTA_Q(name), count ? ", dram" : "");
	sram_view_of(s->cfg, mem, v);
	vta_status st = number(row_word, "row", row, err);
	if (!st && count) {
		*count = 1;
		if (count_word && (st = number(count_word, "count", count, err)) == VTA_OK &&
		    *count == 0)
			st = vta_fail(err, VTA_E_USAGE, "bad count '%s': expected at least 1",
				      VTA_Q(count_word));
	}
	if (st)
		return st;
	if (*row >= v->depth)
		return vta_fail(err, VTA_E_USAGE,
				"%s row %" PRIu64 " is beyond the %s SRAM's %" PRIu32 " rows", v->name,
				*row, v->name, v->depth);
	if (count && *count > v->depth - *row && *row + *count < *row) /* the end wraps */
		return vta_fail(err, VTA_E_USAGE,
				"%" PRIu64 " %s rows from row %" PRIu64 " are beyond the %s SRAM's %"
				PRIu32 " rows",
				*count, v->name, *row, v->name, v->depth);
	if (count && *count > v->depth - *row)
		return vta_fail(err, VTA_E_USAGE,
				"%s rows [%" PRIu64 ", %" PRIu64 ") are beyond the %s SRAM's %" PRIu32
				" rows",
				v->name, *row, *row + *count, v->name, v->depth);
	return VTA_OK;
}

static vta_status cmd_watch(debug_session *s, int argc, char **argv, int *quit, vta_error *err)
{
	(void)quit;
	if (argc != 3)
		return usage(find("watch"), err);
	sram_view v;
	uint64_t row;
	vta_status st = sram_rows(s, argv[1], argv[2], NULL, &v, &row, NULL, err);
	if (st)
		return st;
	return add_bp(s, DEBUG_BP_WATCH, row, v.mem, err);
}

static vta_status cmd_delete(debug_session *s, int argc, char **argv, int *quit,
			     vta_error *err)
{
	(void)quit;
	if (argc > 2)
		return usage(find("delete"), err);
	if (argc == 1) {
		fprintf(s->out, "deleted %d breakpoint%s\n", s->n_bps, s->n_bps == 1 ? "" : "s");
		s->n_bps = 0;
		return VTA_OK;
	}
	uint64_t id;
	vta_status st = number(argv[1], "breakpoint", &id, err);
	if (st)
		return st;
	for (int i = 0; i < s->n_bps; i++) {
		if ((uint64_t)s->bps[i].id != id)
			continue;
		fprintf(s->out, "deleted %s %" PRIu64 "\n", debug_bp_kind_name(&s->bps[i]), id);
		memmove(&s->bps[i], &s->bps[i + 1], (size_t)(s->n_bps - i - 1) * sizeof(s->bps[0]));
		s->n_bps--;
		return VTA_OK;
	}
	return vta_fail(err, VTA_E_USAGE, "no breakpoint %" PRIu64, id);
}

static vta_status cmd_info(debug_session *s, int argc, char **argv, int *quit, vta_error *err)
{
	(void)quit;
	if (argc != 2 || strcmp(argv[1], "breaks"))
		return usage(find("info"), err);
	if (!s->n_bps)
		fprintf(s->out, "no breakpoints\n");
	for (int i = 0; i < s->n_bps; i++) {
		char what[64];
		debug_bp_text(&s->bps[i], what, sizeof(what));
		fprintf(s->out, "%-3d %s %-16s hit %" PRIu64 " time%s\n", s->bps[i].id,
			debug_bp_kind_name(&s->bps[i]), what, s->bps[i].hits,
			s->bps[i].hits == 1 ? "" : "s");
	}
	return VTA_OK;
}

/* ----- running ----- */

static vta_status cmd_step(debug_session *s, int argc, char **argv, int *quit, vta_error *err)
{
	(void)quit;
	uint64_t n = 1;
	if (argc > 2)
		return usage(find("step"), err);
	vta_status st = argc == 2 ? number(argv[1], "count", &n, err) : VTA_OK;
	if (st)
		return st;
	if (n == 0)
		return vta_fail(err, VTA_E_USAGE, "bad count '%s': expected at least 1",
				VTA_Q(argv[1]));
	return debug_advance(s, n, err);
}

static vta_status cmd_continue(debug_session *s, int argc, char **argv, int *quit,
			       vta_error *err)
{
	(void)argv;
	(void)quit;
	if (argc != 1)
		return usage(find("continue"), err);
	return debug_advance(s, 0, err);
}

static vta_status cmd_restart(debug_session *s, int argc, char **argv, int *quit,
			      vta_error *err)
{
	(void)quit;
	if (argc != 1)
		return usage(find(argv[0]), err);
	vta_status st = debug_restart(s, err);
	if (st)
		return st;
	fprintf(s->out, "restarted: stopped at cycle 0\n");
	return strcmp(find(argv[0])->name, "run") ? VTA_OK : debug_advance(s, 0, err);
}

/* ----- looking ----- */

/* One SRAM row, its lanes in lines of 16 (int8) or 8 (int32). */
static void print_row(const debug_session *s, const sram_view *v, const uint8_t *image,
		      uint64_t row)
{
	char text[64];
	if (v->mem == VTA_MEM_UOP) {
		sram_view_lane_text(v, s->cfg, image, row, 0, text, sizeof(text));
		fprintf(s->out, "%s %" PRIu64 ": %s\n", v->name, row, text);
		return;
	}
	const uint32_t per_line = v->lane_bytes == 1 ? 16 : 8;
	const int width = v->lane_bytes == 1 ? 4 : 11;
	/* a row of one line on that line; longer ones below, each line led by its first lane */
	const int lines = v->lanes > per_line;
	snprintf(text, sizeof(text), "%" PRIu32, v->lanes - 1);
	const int lane_width = (int)strlen(text);
	fprintf(s->out, "%s %" PRIu64 ":", v->name, row);
	for (uint32_t l = 0; l < v->lanes; l += per_line) {
		const uint32_t end = l + per_line < v->lanes ? l + per_line : v->lanes;
		if (lines)
			fprintf(s->out, "\n  [%*" PRIu32 "]", lane_width, l);
		for (uint32_t k = l; k < end; k++)
			fprintf(s->out, " %*" PRId64, width, sram_view_lane(v, image, row, k));
	}
	fputc('\n', s->out);
}

static vta_status print_dram(debug_session *s, int argc, char **argv, vta_error *err)
{
	uint64_t addr, len;
	vta_status st;
	if (argc != 4)
		return usage(find("print"), err);
	if ((st = number(argv[2], "address", &addr, err)) || (st = number(argv[3], "length", &len, err)))
		return st;
	if (len == 0 || len > MAX_PRINT_DRAM)
		return vta_fail(err, VTA_E_USAGE, "bad length %" PRIu64 ": expected 1 to %u bytes",
				len, MAX_PRINT_DRAM);
	if (addr + len < addr) /* the end wraps: name the start and the length */
		return vta_fail(err, VTA_E_USAGE,
				"DRAM: %" PRIu64 " bytes at 0x%" PRIx64 " are beyond the DRAM's %"
				PRIu64 " bytes",
				len, addr, s->dram.size);
	if (!vta_dram_in_range(&s->dram, addr, len))
		return vta_fail(err, VTA_E_USAGE,
				"DRAM [0x%" PRIx64 ", 0x%" PRIx64 ") is beyond the DRAM's %" PRIu64
				" bytes",
				addr, addr + len, s->dram.size);
	for (uint64_t a = addr; a < addr + len; a += 16) {
		fprintf(s->out, "0x%08" PRIx64 ":", a);
		for (uint64_t k = a; k < a + 16 && k < addr + len; k++)
			fprintf(s->out, " %02x", s->dram.bytes[k]);
		fputc('\n', s->out);
	}
	return VTA_OK;
}

static vta_status cmd_print(debug_session *s, int argc, char **argv, int *quit, vta_error *err)
{
	(void)quit;
	if (argc < 2)
		return usage(find("print"), err);
	if (!strcmp(argv[1], "dram"))
		return print_dram(s, argc, argv, err);
	vta_mem mem;
	if (sram_view_parse(argv[1], &mem))
		return vta_fail(err, VTA_E_USAGE, "unknown memory '%s' (inp, wgt, acc, out, uop, dram)",
				VTA_Q(argv[1]));
	if (argc < 3 || argc > 4)
		return usage(find("print"), err);
	sram_view v;
	uint64_t row, count;
	vta_status st = sram_rows(s, argv[1], argv[2], argc == 4 ? argv[3] : NULL, &v, &row,
				  &count, err);
	if (st)
		return st;
	uint64_t size = 0;
	const uint8_t *image = vtasim_sim_sram(s->sim, mem, &size);
	if (!image || size != (uint64_t)v.depth * v.row_bytes)
		return vta_fail(err, VTA_E_INTERNAL, "the model's %s SRAM is not %" PRIu32 " rows",
				v.name, v.depth);
	for (uint64_t r = row; r < row + count; r++)
		print_row(s, &v, image, r);
	return VTA_OK;
}

static vta_status cmd_queues(debug_session *s, int argc, char **argv, int *quit,
			     vta_error *err)
{
	(void)argv;
	(void)quit;
	if (argc != 1)
		return usage(find("queues"), err);
	vtasim_queue_view q;
	vta_status st = vtasim_step_queue(s->sim, &q, err);
	if (st)
		return st;
	fprintf(s->out, "tokens:");
	for (int i = 0; i < VTA_QUEUE_COUNT; i++)
		fprintf(s->out, "%s %s %" PRIu32, i ? "," : "", vta_queue_name(i), q.tokens[i]);
	fprintf(s->out, " (of %" PRIu32 " each)\n", q.dep_depth);
	const uint64_t now = vtasim_step_cycle(s->sim);
	for (int m = 0; m < VTA_MODULE_COUNT; m++) {
		fprintf(s->out, "%s queue: %" PRIu32 " of %" PRIu32 "%s\n",
			vta_module_name((vta_module)m), q.queued[m], q.insn_depth,
			q.queued[m] ? "" : " (empty)");
		for (uint32_t i = 0; i < q.queued[m]; i++) {
			vtasim_queued e;
			if ((st = vtasim_step_queued(s->sim, m, i, &e, err)))
				return st;
			char text[320];
			debug_insn_text(s, e.index, text, sizeof(text));
			if (e.arrive_cycle > now)
				fprintf(s->out, "  %s, arriving at cycle %" PRIu64 "\n", text,
					e.arrive_cycle);
			else
				fprintf(s->out, "  %s\n", text);
		}
	}
	return VTA_OK;
}

static vta_status cmd_modules(debug_session *s, int argc, char **argv, int *quit,
			      vta_error *err)
{
	(void)argv;
	(void)quit;
	if (argc != 1)
		return usage(find("modules"), err);
	static const char *const names[VTA_STATS_MODULES] = {"fetch", "load", "compute",
							      "store"};
	for (int m = VTA_STATS_FETCH; m <= VTA_STATS_STORE; m++) {
		vtasim_module_view v;
		vta_status st = vtasim_step_module(s->sim, m, &v, err);
		if (st)
			return st;
		char what[64] = "";
		const char *q = vta_queue_name(v.queue);
		switch ((vtasim_activity)v.activity) {
		case VTASIM_ACT_IDLE:
			snprintf(what, sizeof(what), "%s",
				 m == VTA_STATS_FETCH && v.insn < 0 ? "idle (everything dispatched)"
								    : "idle");
			break;
		case VTASIM_ACT_ARRIVING: snprintf(what, sizeof(what), "arriving from DRAM"); break;
		case VTASIM_ACT_POP: snprintf(what, sizeof(what), "waiting on %s", q); break;
		case VTASIM_ACT_BUSY: snprintf(what, sizeof(what), "busy"); break;
		case VTASIM_ACT_PORT:
			snprintf(what, sizeof(what),
				 m == VTA_STATS_FETCH ? "reading from DRAM" : "on the DRAM port");
			break;
		case VTASIM_ACT_ROOM: snprintf(what, sizeof(what), "waiting for room in %s", q); break;
		case VTASIM_ACT_INSN_ROOM:
			snprintf(what, sizeof(what), "waiting for room in the %s queue",
				 vta_module_name((vta_module)v.queue));
			break;
		}
		if (v.insn < 0) {
			fprintf(s->out, "%-8s %s\n", names[m], what);
			continue;
		}
		char text[320];
		debug_insn_text(s, (uint64_t)v.insn, text, sizeof(text));
		fprintf(s->out, "%-8s %s: %s%s\n", names[m], what,
			m == VTA_STATS_FETCH ? "next " : "", text);
	}
	return VTA_OK;
}

static vta_status cmd_cycle(debug_session *s, int argc, char **argv, int *quit, vta_error *err)
{
	(void)argv;
	(void)quit;
	if (argc != 1)
		return usage(find("cycle"), err);
	fprintf(s->out, "cycle %" PRIu64 "%s\n", vtasim_step_cycle(s->sim),
		s->over ? " (the run is over)" : "");
	return VTA_OK;
}

static vta_status cmd_quit(debug_session *s, int argc, char **argv, int *quit, vta_error *err)
{
	(void)argv;
	if (argc != 1)
		return usage(find("quit"), err);
	(void)s;
	*quit = 1;
	return VTA_OK;
}

static vta_status cmd_help(debug_session *s, int argc, char **argv, int *quit, vta_error *err);

static const command COMMANDS[] = {
	{"break", "b", cmd_break, "insn N | op OPCODE | module MODULE | cycle C",
	 "stop when instruction N, or one of OPCODE or MODULE, starts; or at cycle C"},
	{"watch", "w", cmd_watch, "inp|wgt|acc|out|uop ROW",
	 "stop after an instruction that wrote that SRAM row ends"},
	{"delete", NULL, cmd_delete, "[N]", "delete breakpoint (or watchpoint) N, or all"},
	{"info", NULL, cmd_info, "breaks", "list the breakpoints and watchpoints"},
	{"step", "s", cmd_step, "[N]",
	 "go on to the next (N-th) instruction event: an instruction starts or ends"},
	{"continue", "c", cmd_continue, "", "go on until a breakpoint or the end of the run"},
	{"run", "r", cmd_restart, "", "start the run again from the beginning and continue"},
	{"restart", NULL, cmd_restart, "", "start the run again, stopped at cycle 0"},
	{"print", "p", cmd_print, "inp|wgt|acc|out|uop ROW [COUNT] | dram ADDR LEN",
	 "SRAM rows lane by lane, or DRAM bytes"},
	{"queues", NULL, cmd_queues, "", "token counts and each instruction queue"},
	{"modules", NULL, cmd_modules, "", "what each module is doing, and its instruction"},
	{"cycle", NULL, cmd_cycle, "", "the run's cycle"},
	{"help", "h", cmd_help, "", "this list"},
	{"quit", "q", cmd_quit, "", "leave"},
	{NULL, NULL, NULL, NULL, NULL},
};

static vta_status cmd_help(debug_session *s, int argc, char **argv, int *quit, vta_error *err)
{
	(void)argv;
	(void)quit;
	if (argc != 1)
		return usage(find("help"), err);
	for (const command *c = COMMANDS; c->name; c++) {
		fprintf(s->out, "  %s%s%s", c->name, c->args[0] ? " " : "", c->args);
		if (c->alias)
			fprintf(s->out, "   (or %s)", c->alias);
		fprintf(s->out, "\n      %s\n", c->help);
	}
	fprintf(s->out, "  a blank line at a terminal repeats step or continue; Ctrl-C interrupts "
			"them\n");
	return VTA_OK;
}

static const command *find(const char *name)
{
	for (const command *c = COMMANDS; c->name; c++)
		if (!strcmp(name, c->name) || (c->alias && !strcmp(name, c->alias)))
			return c;
	return NULL;
}

vta_status debug_command(debug_session *s, const char *line, int *quit, vta_error *err)
{
	char buf[DEBUG_LINE_MAX + 1];
	if (strlen(line) > DEBUG_LINE_MAX)
		return vta_fail(err, VTA_E_USAGE, "a line longer than %d bytes", DEBUG_LINE_MAX);
	snprintf(buf, sizeof(buf), "%s", line);
	char *hash = strchr(buf, '#');
	if (hash)
		*hash = '\0';
	char *argv[MAX_WORDS + 1];
	int argc = 0;
	for (char *w = strtok(buf, " \t\r\n"); w; w = strtok(NULL, " \t\r\n")) {
		if (argc == MAX_WORDS)
			return vta_fail(err, VTA_E_USAGE, "too many words (at most %d)", MAX_WORDS);
		argv[argc++] = w;
	}
	argv[argc] = NULL;
	*quit = 0;
	if (!argc)
		return VTA_OK;
	const command *c = find(argv[0]);
	if (!c)
		return vta_fail(err, VTA_E_USAGE, "unknown command '%s' (try 'help')",
				VTA_Q(argv[0]));
	return c->fn(s, argc, argv, quit, err);
}
