/*
 * insn_queue.h - one module's instruction queue (load, compute or store), fed by FETCH.
 *
 * Models: VTA's command FIFOs of cfg->insn_depth entries. An entry is an instruction index
 * into the decoded stream and the cycle its bytes arrive from DRAM. The head stays in the
 * queue (occupying its slot) until the module retires it, as in the reference executor: a
 * module blocked on a token keeps its instruction queued, and FETCH stalls while the queue
 * is full.
 * Timing: none of its own. FETCH enqueues an instruction as soon as there is room and
 * stamps it with its arrival; the module starts it no earlier than that. This gives the
 * same times as FETCH waiting for each arrival, with one wait per burst instead of one
 * per instruction (FETCH never dispatches out of order, and a slot taken before the
 * arrival could not have been used by a later instruction anyway).
 */
#ifndef VTASIM_INSN_QUEUE_H
#define VTASIM_INSN_QUEUE_H

#include <systemc>

#include <cstdint>
#include <vector>

#include "run_ctl.h"

namespace vtasim {

class insn_queue : public sc_core::sc_module {
public:
	struct entry {
		uint32_t idx;
		uint64_t ready; /* kernel time the instruction has arrived */
	};

	insn_queue(sc_core::sc_module_name name, run_ctl &ctl, uint32_t capacity)
	    : sc_core::sc_module(name), ring_(capacity), written_or_run_(written_),
	      read_or_run_(read_)
	{
		written_or_run_ |= ctl.run_ev;
		read_or_run_ |= ctl.run_ev;
	}

	void reset() { head_ = size_ = 0; }

	bool empty() const { return size_ == 0; }
	bool full() const { return size_ == ring_.size(); }
	uint32_t size() const { return size_; }
	const entry &front() const { return ring_[head_]; }
	/* Entry i from the head (i < size()). */
	const entry &at(uint32_t i) const { return ring_[(head_ + i) % ring_.size()]; }
	void push(uint32_t idx, uint64_t ready)
	{
		ring_[(head_ + size_) % ring_.size()] = entry{idx, ready};
		size_++;
		written_.notify();
	}
	/* Retire the head. */
	void pop()
	{
		head_ = (head_ + 1) % ring_.size();
		size_--;
		read_.notify();
	}

	const sc_core::sc_event_or_list &written_or_run() const { return written_or_run_; }
	const sc_core::sc_event_or_list &read_or_run() const { return read_or_run_; }

private:
	std::vector<entry> ring_;
	uint32_t head_ = 0, size_ = 0;
	sc_core::sc_event written_, read_;
	sc_core::sc_event_or_list written_or_run_, read_or_run_;
};

} // namespace vtasim

#endif /* VTASIM_INSN_QUEUE_H */
