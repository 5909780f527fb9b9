/*
 * token_queue.h - one dependency token queue (l2g, g2l, g2s or s2g).
 *
 * Models: VTA's information-less token FIFOs as a counter of capacity cfg->dep_depth (the
 * HLS design's dep queues; Chisel's semaphores). Exactly one module pushes and one pops.
 * Timing: none of its own; a push is visible to the consumer in the same cycle. A module
 * pops before it executes (waiting for tokens) and pushes after (waiting for room:
 * blocking FIFO writes), the reference executor's rule.
 */
#ifndef VTASIM_TOKEN_QUEUE_H
#define VTASIM_TOKEN_QUEUE_H

#include <systemc>

#include <cstdint>

#include "run_ctl.h"

namespace vtasim {

class token_queue : public sc_core::sc_module {
public:
	token_queue(sc_core::sc_module_name name, run_ctl &ctl, int id)
	    : sc_core::sc_module(name), id_(id), pushed_or_run_(pushed_), popped_or_run_(popped_)
	{
		pushed_or_run_ |= ctl.run_ev;
		popped_or_run_ |= ctl.run_ev;
	}

	void reset(uint32_t capacity)
	{
		count_ = 0;
		capacity_ = capacity;
	}

	int id() const { return id_; }
	uint32_t count() const { return count_; }
	bool can_pop() const { return count_ > 0; }
	bool can_push() const { return count_ < capacity_; }
	void pop()
	{
		count_--;
		popped_.notify();
	}
	void push()
	{
		count_++;
		pushed_.notify();
	}

	/* What the consumer waits on for a token, the producer for room. */
	const sc_core::sc_event_or_list &pushed_or_run() const { return pushed_or_run_; }
	const sc_core::sc_event_or_list &popped_or_run() const { return popped_or_run_; }

private:
	int id_;
	uint32_t count_ = 0, capacity_ = 0;
	sc_core::sc_event pushed_, popped_;
	sc_core::sc_event_or_list pushed_or_run_, popped_or_run_;
};

} // namespace vtasim

#endif /* VTASIM_TOKEN_QUEUE_H */
