/*
 * debug_run.c - the debugger's run control: each run from the DRAM image, stepping and
 * continuing over the model's stepped run, breakpoints, and how a run ended (see debug.h).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "debug.h"
#include "vta_footprint.h"

vta_status debug_open(debug_session *s, const vta_config *cfg, const vta_program *prog,
		      const char *program, const char *image, FILE *out, vta_error *err)
{
	memset(s, 0, sizeof(*s));
	s->cfg = cfg;
	s->prog = prog;
	s->program = program;
	s->image = image;
	s->out = out;
	s->next_id = 1;
	s->over = 1;
	s->insns = calloc(prog->n_insns ? prog->n_insns : 1, sizeof(*s->insns));
	if (!s->insns)
		return vta_fail(err, VTA_E_NOMEM, "out of memory for %zu instructions",
				prog->n_insns);
	for (size_t i = 0; i < prog->n_insns; i++) {
		vta_status st = vta_program_insn(prog, cfg, i, &s->insns[i], err);
		if (st != VTA_OK)
			return st;
	}
	vta_status st = vtasim_sim_create(cfg, &s->sim, err);
	if (st != VTA_OK)
		return st;
	return debug_restart(s, err);
}

void debug_close(debug_session *s)
{
	vtasim_sim_destroy(s->sim);
	vta_dram_free(&s->dram);
	free(s->insns);
	s->sim = NULL;
	s->insns = NULL;
}

vta_status debug_restart(debug_session *s, vta_error *err)
{
	/* a fresh DRAM each run: its untouched pages cost nothing, unlike a copy */
	vta_dram_free(&s->dram);
	vta_status st = vta_dram_init(&s->dram, (uint64_t)s->cfg->dram_size_mib << 20, err);
	if (!st && s->image)
		st = vta_dram_load_image(&s->dram, s->image, err);
	if (!st)
		st = vta_dram_place_segments(&s->dram, s->prog, err);
	if (!st)
		st = vtasim_step_begin(s->sim, s->prog, &s->dram, err);
	s->over = st != VTA_OK;
	s->outcome = VTA_OK;
	vta_error_clear(&s->outcome_err);
	return st;
}

void debug_insn_text(const debug_session *s, uint64_t idx, char *buf, size_t size)
{
	char text[256];
	vta_disasm_insn(&s->insns[idx], text, sizeof(text));
	snprintf(buf, size, "insn %" PRIu64 " (%s)", idx, text);
}

static void event_text(const debug_session *s, const vtasim_event *ev, char *buf, size_t size)
{
	char insn[320];
	debug_insn_text(s, ev->index, insn, sizeof(insn));
	snprintf(buf, size, "cycle %" PRIu64 ": %s %s %s", ev->cycle,
		 vta_module_name((vta_module)(ev->module - 1)),
		 ev->kind == VTASIM_EVENT_START ? "starts" : "ends", insn);
}

const char *debug_bp_kind_name(const debug_bp *b)
{
	return b->kind == DEBUG_BP_WATCH ? "watchpoint" : "breakpoint";
}

void debug_bp_text(const debug_bp *b, char *buf, size_t size)
{
	switch (b->kind) {
	case DEBUG_BP_INSN: snprintf(buf, size, "insn %" PRIu64, b->value); break;
	case DEBUG_BP_OP: snprintf(buf, size, "op %s", vta_opcode_name((vta_opcode)b->value)); break;
	case DEBUG_BP_MODULE:
		snprintf(buf, size, "module %s", vta_module_name((vta_module)b->value));
		break;
	case DEBUG_BP_CYCLE: snprintf(buf, size, "cycle %" PRIu64, b->value); break;
	case DEBUG_BP_WATCH:
		snprintf(buf, size, "%s %" PRIu64, vta_mem_name(b->mem), b->value);
		break;
	}
}

/* vta_footprint's callback: is this a write of the watched row? */
typedef struct watched {
	vta_space space;
	uint64_t row;
	int hit;
} watched;

static vta_status note_write(void *ctx, const vta_access *a)
{
	watched *w = ctx;
	if (a->write && a->space == w->space && a->lo <= w->row && w->row < a->hi)
		w->hit = 1;
	return VTA_OK;
}

/* Did instruction idx, which has just ended, write row `row` of SRAM mem? Its footprint
 * (vta_footprint.h) over the model's state now: the micro-ops it ran, the descriptor it
 * decoded through. */
static int wrote_row(const debug_session *s, uint64_t idx, vta_mem mem, uint64_t row)
{
	const vta_insn *insn = &s->insns[idx];
	uint32_t reads, writes;
	vta_footprint_spaces(insn, &reads, &writes);
	if (!(writes & (1u << mem)))
		return 0;
	vta_lut_desc slots[VTA_LUT_SLOTS];
	vta_error err = {0};
	if (vtasim_step_lut_slots(s->sim, slots, &err) != VTA_OK)
		return 0;
	const vta_fp_state st = {vtasim_sim_sram(s->sim, VTA_MEM_UOP, NULL), slots, s->dram.size,
				 false};
	watched w = {(vta_space)mem, row, 0};
	/* it executed, so its checks pass again */
	vta_footprint(s->cfg, insn, &st, note_write, &w, &err);
	return w.hit;
}

/* Does b stop the run at ev? */
static int bp_matches(const debug_session *s, const debug_bp *b, const vtasim_event *ev)
{
	const int start = ev->kind == VTASIM_EVENT_START;
	switch (b->kind) {
	case DEBUG_BP_INSN: return start && ev->index == b->value;
	case DEBUG_BP_OP: return start && s->insns[ev->index].opcode == (vta_opcode)b->value;
	case DEBUG_BP_MODULE: return start && (uint64_t)(ev->module - 1) == b->value;
	case DEBUG_BP_WATCH: return !start && wrote_row(s, ev->index, b->mem, b->value);
	case DEBUG_BP_CYCLE: break;
	}
	return 0;
}

/* The first cycle breakpoint ahead of the run, or VTASIM_CYCLE_NONE. */
static uint64_t next_cycle_stop(const debug_session *s)
{
	const uint64_t now = vtasim_step_cycle(s->sim);
	uint64_t next = VTASIM_CYCLE_NONE;
	for (int i = 0; i < s->n_bps; i++)
		if (s->bps[i].kind == DEBUG_BP_CYCLE && s->bps[i].value > now &&
		    s->bps[i].value < next)
			next = s->bps[i].value;
	return next;
}

/* The run is over: say how, keep the outcome. */
static vta_status end_run(debug_session *s)
{
	s->outcome = vtasim_step_end(s->sim, &s->stats, &s->outcome_err);
	s->over = 1;
	const uint64_t cycle = vtasim_step_cycle(s->sim);
	if (s->outcome != VTA_OK) {
		fprintf(s->out, "cycle %" PRIu64 ": the run stopped: %s\n", cycle,
			s->outcome_err.detail[0] ? s->outcome_err.detail
						 : vta_status_str(s->outcome));
		return VTA_OK;
	}
	const vta_module_stats *m = s->stats.module;
	fprintf(s->out,
		"cycle %" PRIu64 ": the run completed (FINISH retired): %" PRIu64
		" instructions executed, %" PRIu64 " GEMM and %" PRIu64 " ALU uops\n",
		cycle, m[VTA_STATS_LOAD].insns + m[VTA_STATS_COMPUTE].insns + m[VTA_STATS_STORE].insns,
		s->stats.gemm_uops, s->stats.alu_uops);
	return VTA_OK;
}

vta_status debug_advance(debug_session *s, uint64_t events, vta_error *err)
{
	if (s->over) {
		fprintf(s->out, "the run is over: 'run' or 'restart' starts it again\n");
		return VTA_OK;
	}
	for (;;) {
		if (s->interrupt && *s->interrupt) {
			*s->interrupt = 0;
			fprintf(s->out, "interrupted at cycle %" PRIu64 "\n",
				vtasim_step_cycle(s->sim));
			return VTA_OK;
		}
		const uint64_t until = next_cycle_stop(s);
		vtasim_stop stop;
		vtasim_event ev;
		vta_status st = vtasim_step_next(s->sim, until, &stop, &ev, err);
		if (st != VTA_OK)
			return st;
		if (stop == VTASIM_STOP_OVER)
			return end_run(s);
		char text[512], what[64];
		if (stop == VTASIM_STOP_CYCLE) {
			for (int i = 0; i < s->n_bps; i++) {
				debug_bp *b = &s->bps[i];
				if (b->kind != DEBUG_BP_CYCLE || b->value != until)
					continue;
				b->hits++;
				fprintf(s->out, "breakpoint %d (cycle %" PRIu64 "): stopped at cycle %" PRIu64
					"\n", b->id, b->value, until);
			}
			return VTA_OK;
		}
		event_text(s, &ev, text, sizeof(text));
		int hit = 0;
		for (int i = 0; i < s->n_bps; i++) {
			debug_bp *b = &s->bps[i];
			if (!bp_matches(s, b, &ev))
				continue;
			b->hits++;
			debug_bp_text(b, what, sizeof(what));
			fprintf(s->out, "%s %d (%s): %s\n", debug_bp_kind_name(b), b->id, what, text);
			hit = 1;
		}
		if (hit)
			return VTA_OK;
		if (events) {
			fprintf(s->out, "%s\n", text);
			if (--events == 0)
				return VTA_OK;
		}
	}
}
