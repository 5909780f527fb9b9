/*
 * vta_sched.c - the untimed token scheduler (see vta_sched.h).
 */
#include "vta_sched.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vta_insn.h"
#include "vta_queues.h"

#define DISASM_MAX 256

/* Where a module is with the instruction it holds. */
typedef enum phase {
	PHASE_IDLE,	 /* holds none: takes the next one from its queue */
	PHASE_WAIT_POPS, /* holds one, waiting until every queue it pops has a token */
	PHASE_PUSHING	 /* executed it, waiting for room to push its tokens */
} phase;

typedef struct module_state {
	phase phase;
	size_t idx; /* the instruction held */
	vta_queue pops[2], pending[2]; /* queues it pops; queues still to push (prev, next) */
} module_state;

/* State of one run. */
typedef struct run {
	const vta_config *cfg;
	const vta_insn *insns;
	size_t n_insns;
	vta_sched_exec_fn exec;
	void *ctx;
	vta_error *err;
	uint8_t *module_of; /* vta_module per instruction */
	size_t fetched;	    /* instructions dispatched by FETCH */
	size_t dispatched[VTA_MODULE_COUNT], retired[VTA_MODULE_COUNT];
	size_t executed[VTA_MODULE_COUNT];
	size_t scan[VTA_MODULE_COUNT]; /* where to look for the module's next instruction */
	module_state mod[VTA_MODULE_COUNT];
	uint32_t tokens[VTA_QUEUE_COUNT];
	bool finished;
} run;

/* Instructions in module m's queue: dispatched, not yet retired (the one held included). */
static size_t queued(const run *r, vta_module m)
{
	return r->dispatched[m] - r->retired[m];
}

/* FETCH: dispatch in program order while the target queue has room. */
static bool fetch(run *r)
{
	bool progress = false;
	while (r->fetched < r->n_insns) {
		vta_module m = (vta_module)r->module_of[r->fetched];
		if (queued(r, m) >= r->cfg->insn_depth)
			break;
		r->dispatched[m]++;
		r->fetched++;
		progress = true;
	}
	return progress;
}

/* Module m starts on the next instruction of its queue. */
static void take(run *r, vta_module m)
{
	module_state *ms = &r->mod[m];
	while (r->module_of[r->scan[m]] != m)
		r->scan[m]++;
	ms->idx = r->scan[m]++;
	vta_insn_queues(&r->insns[ms->idx], m, ms->pops, ms->pending);
	ms->phase = PHASE_WAIT_POPS;
}

/* Run module m until it waits on a token, on room in a token queue, or on an empty queue. */
static vta_status step_module(run *r, vta_module m, bool *progress)
{
	module_state *ms = &r->mod[m];
	for (;;) {
		if (ms->phase == PHASE_IDLE) {
			/* holding none, every queued instruction is still to be taken */
			if (queued(r, m) == 0)
				return VTA_OK;
			take(r, m);
			*progress = true;
		}
		if (ms->phase == PHASE_WAIT_POPS) {
			for (int i = 0; i < 2; i++)
				if (ms->pops[i] >= 0 && r->tokens[ms->pops[i]] == 0)
					return VTA_OK;
			for (int i = 0; i < 2; i++)
				if (ms->pops[i] >= 0)
					r->tokens[ms->pops[i]]--;
			const vta_insn *insn = &r->insns[ms->idx];
			if (r->exec) {
				vta_status st = r->exec(r->ctx, ms->idx, insn);
				if (st != VTA_OK)
					return st;
			}
			r->executed[m]++;
			*progress = true;
			if (insn->opcode == VTA_OP_FINISH) {
				r->finished = true;
				return VTA_OK;
			}
			ms->phase = PHASE_PUSHING;
		}
		/* PHASE_PUSHING: pushes complete in order prev, next, each when there is room */
		for (int i = 0; i < 2; i++) {
			vta_queue q = ms->pending[i];
			if (q < 0)
				continue;
			if (r->tokens[q] >= r->cfg->dep_depth)
				return VTA_OK;
			r->tokens[q]++;
			ms->pending[i] = VTA_QUEUE_NONE;
			*progress = true;
		}
		ms->phase = PHASE_IDLE;
		r->retired[m]++;
		*progress = true;
	}
}

/* "deadlock: load idle; compute insn 3 (gemm ...) waits on l2g (0 tokens); ..." with each
 * disassembly cut to `cut` characters. */
static size_t describe_deadlock(const run *r, char *buf, size_t size, size_t cut)
{
	size_t len = 0;
	vta_appendf(buf, size, &len, "deadlock:");
	for (int mi = 0; mi < VTA_MODULE_COUNT; mi++) {
		vta_module m = (vta_module)mi;
		const module_state *ms = &r->mod[m];
		vta_appendf(buf, size, &len, "%s %s", mi ? ";" : "", vta_module_name(m));
		if (ms->phase == PHASE_IDLE) {
			vta_appendf(buf, size, &len, " idle");
			continue;
		}
		char text[DISASM_MAX];
		vta_disasm_insn(&r->insns[ms->idx], text, sizeof(text));
		if (strlen(text) > cut && cut >= 3)
			snprintf(text + cut - 3, 4, "...");
		vta_appendf(buf, size, &len, " insn %zu (%s)", ms->idx, text);
		if (ms->phase == PHASE_WAIT_POPS) {
			const char *sep = " waits on ";
			for (int i = 0; i < 2; i++) {
				if (ms->pops[i] >= 0 && r->tokens[ms->pops[i]] == 0) {
					vta_appendf(buf, size, &len, "%s%s (0 tokens)", sep,
						    vta_queue_name(ms->pops[i]));
					sep = " and ";
				}
			}
		} else {
			for (int i = 0; i < 2; i++) {
				if (ms->pending[i] >= 0) {
					vta_appendf(buf, size, &len,
						" executed, waits for room in %s (full, %u tokens)",
						vta_queue_name(ms->pending[i]),
						r->tokens[ms->pending[i]]);
					break;
				}
			}
		}
	}
	if (r->fetched < r->n_insns) {
		vta_module m = (vta_module)r->module_of[r->fetched];
		vta_appendf(buf, size, &len, "; fetch stalled at insn %zu: %s queue full (%u insns)",
			    r->fetched, vta_module_name(m), r->cfg->insn_depth);
	}
	return len;
}

static vta_status fail_stuck(run *r)
{
	bool empty = r->fetched == r->n_insns;
	for (int m = 0; m < VTA_MODULE_COUNT; m++)
		if (queued(r, (vta_module)m))
			empty = false;
	if (empty)
		return vta_fail(r->err, VTA_E_NO_FINISH,
				"the stream's %zu instructions executed without a FINISH "
				"(load %zu, compute %zu, store %zu)",
				r->n_insns, r->executed[VTA_MODULE_LOAD],
				r->executed[VTA_MODULE_COMPUTE], r->executed[VTA_MODULE_STORE]);
	/* keep the detail one line that fits: shorten the disassemblies if needed */
	char msg[4 * VTA_ERROR_DETAIL_MAX];
	size_t cut = DISASM_MAX;
	while (describe_deadlock(r, msg, sizeof(msg), cut) >= VTA_ERROR_DETAIL_MAX && cut > 24)
		cut -= 16;
	return vta_fail(r->err, VTA_E_DEADLOCK, "%s", msg);
}

vta_status vta_sched_decode(const vta_program *prog, const vta_config *cfg, vta_insn *insns,
			    vta_error *err)
{
	for (size_t i = 0; i < prog->n_insns; i++) {
		vta_status st = vta_program_insn(prog, cfg, i, &insns[i], err);
		if (st != VTA_OK)
			return st;
		vta_error sub;
		vta_error_clear(&sub);
		if (vta_insn_check_flags(&insns[i], &sub) != VTA_OK)
			return vta_insn_fail(err, VTA_E_FLAGS, NULL, i, &insns[i], "%s", sub.detail);
	}
	return VTA_OK;
}

vta_status vta_sched_run(const vta_config *cfg, const vta_insn *insns, size_t n,
			 vta_sched_exec_fn exec, void *ctx, vta_error *err)
{
	run r = {.cfg = cfg, .insns = insns, .n_insns = n, .exec = exec, .ctx = ctx, .err = err};
	r.module_of = malloc(n ? n : 1);
	if (!r.module_of)
		return vta_fail(err, VTA_E_NOMEM, "scheduler: out of memory for %zu insns", n);
	for (size_t i = 0; i < n; i++)
		r.module_of[i] = (uint8_t)vta_insn_module(&insns[i]);
	vta_status st = VTA_OK;
	while (st == VTA_OK && !r.finished) {
		bool progress = fetch(&r);
		for (int m = 0; m < VTA_MODULE_COUNT && st == VTA_OK && !r.finished; m++)
			st = step_module(&r, (vta_module)m, &progress);
		if (st == VTA_OK && !r.finished && !progress)
			st = fail_stuck(&r);
	}
	free(r.module_of);
	return st;
}
