/*
 * vta_queues.h - the dependency token queues and which one each flag of each module uses:
 * the one map the reference executor, the SystemC model and the stream builder share.
 *
 * Four queues connect neighbouring modules, in VTA's names; "prev" and "next" are relative
 * to the pipeline load -> compute -> store (docs/isa.md "Dependency tokens"):
 *   load:    pop_next pops g2l;  push_next pushes l2g
 *   compute: pop_prev pops l2g, pop_next pops s2g;  push_prev pushes g2l, push_next g2s
 *   store:   pop_prev pops g2s;  push_prev pushes s2g
 * The other flags are illegal on their module (vta_insn_check_flags refuses them).
 */
#ifndef VTA_QUEUES_H
#define VTA_QUEUES_H

#include <stdbool.h>

#include "vta_insn.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum vta_queue {
	VTA_QUEUE_NONE = -1, /* an illegal flag, or a flag not set */
	VTA_QUEUE_L2G = 0,   /* load -> compute */
	VTA_QUEUE_G2L,       /* compute -> load */
	VTA_QUEUE_G2S,       /* compute -> store */
	VTA_QUEUE_S2G,       /* store -> compute */
	VTA_QUEUE_COUNT
} vta_queue;

/* The queue module m pops with pop_prev (prev) or pop_next, or VTA_QUEUE_NONE. */
vta_queue vta_queue_popped(vta_module m, bool prev);
/* The queue module m pushes with push_prev (prev) or push_next, or VTA_QUEUE_NONE. */
vta_queue vta_queue_pushed(vta_module m, bool prev);

/* The queues insn pops and pushes when module m executes it, in the order prev, next;
 * VTA_QUEUE_NONE where the flag is clear or illegal. */
void vta_insn_queues(const vta_insn *insn, vta_module m, vta_queue pops[2],
		     vta_queue pushes[2]);

/* The module that pops q and the flag it uses (*prev: pop_prev, else pop_next);
 * VTA_MODULE_COUNT for no queue. */
vta_module vta_queue_consumer(vta_queue q, bool *prev);

/* "l2g", "g2l", "g2s", "s2g" ("?" out of range). */
const char *vta_queue_name(int q);

#ifdef __cplusplus
}
#endif

#endif /* VTA_QUEUES_H */
