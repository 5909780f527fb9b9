/*
 * vta_sched.h - the untimed token scheduler of the reference executor: FETCH and the
 * load, compute and store modules exchanging dependency tokens, in program order. It
 * decides when each instruction executes; what executing means is the caller's (the
 * reference executor moves data; the stream builder's dry run does nothing).
 *
 * Dispatch and tokens are VTA's pop-execute-push with blocking FIFO writes, as docs/isa.md
 * "Modules and dispatch" and "Dependency tokens" specify: queues of cfg->insn_depth
 * instructions (an instruction keeps its slot until its pushes are done) and token
 * counters of capacity cfg->dep_depth (vta_queues.h). A module takes its pops together:
 * taking them one by one cannot differ, every queue having a single consumer.
 *
 * Scheduling. Rounds of: FETCH dispatches as far as it can, then load, compute and store
 * (in that order) each run until they wait. The run ends the moment FINISH executes (after
 * its pops; its pushes are moot): instructions still queued or held in any module, or not
 * yet fetched, are not executed, as VTA signals done at FINISH. A round without progress
 * is a deadlock (VTA_E_DEADLOCK, "deadlock: ..." naming the instruction each module holds
 * and the queue it waits on, and a stalled FETCH); if instead every instruction has
 * executed and none was FINISH the run fails with VTA_E_NO_FINISH.
 */
#ifndef VTA_SCHED_H
#define VTA_SCHED_H

#include <stddef.h>

#include "vta_config.h"
#include "vta_insn.h"
#include "vta_program.h"
#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Decode prog into insns[0, prog->n_insns) and check every instruction's flags against its
 * module in program order (VTA_E_FLAGS, "insn N (<disassembly>): ..."): the stream check
 * made before anything runs, so an instruction after FINISH is checked too. */
vta_status vta_sched_decode(const vta_program *prog, const vta_config *cfg, vta_insn *insns,
			    vta_error *err);

/* Execute instruction idx, its pops taken; a status other than VTA_OK ends the run. */
typedef vta_status (*vta_sched_exec_fn)(void *ctx, size_t idx, const vta_insn *insn);

/* Schedule insns[0, n) (their flags already checked), calling exec (NULL: schedule
 * only) as each executes, until FINISH executes. */
vta_status vta_sched_run(const vta_config *cfg, const vta_insn *insns, size_t n,
			 vta_sched_exec_fn exec, void *ctx, vta_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VTA_SCHED_H */
