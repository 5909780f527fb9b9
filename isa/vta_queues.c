/*
 * vta_queues.c - the token-queue map (see vta_queues.h).
 */
#include "vta_queues.h"

/* Per vta_module, the queue of its prev and next flag. */
static const vta_queue popped[VTA_MODULE_COUNT][2] = {
	{VTA_QUEUE_NONE, VTA_QUEUE_G2L}, /* load */
	{VTA_QUEUE_L2G, VTA_QUEUE_S2G},  /* compute */
	{VTA_QUEUE_G2S, VTA_QUEUE_NONE}, /* store */
};
static const vta_queue pushed[VTA_MODULE_COUNT][2] = {
	{VTA_QUEUE_NONE, VTA_QUEUE_L2G},
	{VTA_QUEUE_G2L, VTA_QUEUE_G2S},
	{VTA_QUEUE_S2G, VTA_QUEUE_NONE},
};

vta_queue vta_queue_popped(vta_module m, bool prev)
{
	return (unsigned)m < VTA_MODULE_COUNT ? popped[m][prev ? 0 : 1] : VTA_QUEUE_NONE;
}

vta_queue vta_queue_pushed(vta_module m, bool prev)
{
	return (unsigned)m < VTA_MODULE_COUNT ? pushed[m][prev ? 0 : 1] : VTA_QUEUE_NONE;
}

void vta_insn_queues(const vta_insn *insn, vta_module m, vta_queue pops[2],
		     vta_queue pushes[2])
{
	pops[0] = insn->deps.pop_prev ? vta_queue_popped(m, true) : VTA_QUEUE_NONE;
	pops[1] = insn->deps.pop_next ? vta_queue_popped(m, false) : VTA_QUEUE_NONE;
	pushes[0] = insn->deps.push_prev ? vta_queue_pushed(m, true) : VTA_QUEUE_NONE;
	pushes[1] = insn->deps.push_next ? vta_queue_pushed(m, false) : VTA_QUEUE_NONE;
}

vta_module vta_queue_consumer(vta_queue q, bool *prev)
{
	*prev = false;
	if (q < 0 || q >= VTA_QUEUE_COUNT)
		return VTA_MODULE_COUNT;
	for (int m = 0; m < VTA_MODULE_COUNT; m++)
		for (int p = 0; p < 2; p++)
			if (popped[m][p] == q) {
				*prev = p == 0;
				return (vta_module)m;
			}
	return VTA_MODULE_COUNT;
}

const char *vta_queue_name(int q)
{
	static const char *const names[VTA_QUEUE_COUNT] = {"l2g", "g2l", "g2s", "s2g"};
	return q >= 0 && q < VTA_QUEUE_COUNT ? names[q] : "?";
}
