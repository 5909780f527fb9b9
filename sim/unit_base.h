/*
 * unit_base.h - what the LOAD, COMPUTE and STORE modules have in common: an in-order loop
 * over their instruction queue with VTA's dependency protocol, and the 2D DMA.
 *
 * Per instruction (VTA's pop-execute-push, as in the reference executor): take the head of
 * the instruction queue (it keeps its slot until retired); wait until every token queue it
 * pops holds a token (stall_dep) and pop; execute (the module's own part: one wait of the
 * computed duration, plus waits for the DRAM port); push push_prev then push_next, each
 * waiting for room in its queue (blocking FIFO writes; stall_mem); retire. A FINISH ends
 * the run when it has executed (its pushes are moot). Effects on SRAM and DRAM are
 * applied when an instruction completes; its operand checks are made when it starts,
 * before anything changes. When the run is recorded, each of these steps stamps the
 * instruction's record (vtasim_api.h), and its waits are split by token queue and port.
 */
#ifndef VTASIM_UNIT_BASE_H
#define VTASIM_UNIT_BASE_H

#include <systemc>

#include <cstdint>
#include <string>

#include "dram_port.h"
#include "insn_queue.h"
#include "run_ctl.h"
#include "sram.h"
#include "token_queue.h"
#include "vtasim_api.h"

namespace vtasim {

/* Hardware every unit may touch, owned by the top module. */
struct shared_hw {
	sram *mem[VTA_MEM_COUNT] = {}; /* by vta_mem; ACC_8BIT aliases ACC */
	dram_port *port = nullptr;
	uint64_t dram_read_bytes[VTA_MEM_COUNT] = {};
	uint64_t dram_write_bytes = 0;
	uint64_t gemm_uops = 0, gemm_reset_uops = 0, alu_uops = 0;

	void reset_counters()
	{
		for (auto &b : dram_read_bytes)
			b = 0;
		dram_write_bytes = gemm_uops = gemm_reset_uops = alu_uops = 0;
	}
};

class unit_base : public sc_core::sc_module {
public:
	/* The token queues this module pops and pushes, by flag (nullptr: illegal flag). */
	struct token_map {
		token_queue *pop_prev, *pop_next, *push_prev, *push_next;
		int push_prev_id() const { return push_prev ? push_prev->id() : -1; }
	};

	unit_base(sc_core::sc_module_name name, run_ctl &ctl, shared_hw &hw, insn_queue &queue,
		  token_map tokens);

	void reset();
	const vtasim_module_stats &stats() const { return st_; }
	const module_state &state() const { return state_; }
	/* Token queues (bits 1 << token_id) that insn pops and pushes on this module. */
	uint8_t pop_mask(const vta_insn &insn) const;
	uint8_t push_mask(const vta_insn &insn) const;
	/* A failed run ended: charge the head instruction's open token or room wait, up to
	 * `end` (kernel time), to its record. */
	void close_record(uint64_t end);
	/* Describe what the module waits on ("idle", "insn N (...) waits on l2g (0 tokens)"),
	 * cutting each disassembly to `cut` characters. */
	std::string describe(size_t cut) const;

protected:
	/* The module's part of one instruction. Returns false when the run stopped. */
	virtual bool execute(uint64_t idx, const vta_insn &insn, uint64_t g) = 0;

	/* The thread body: call from the derived module's SC_THREAD. */
	void thread_main();

	/* A LOAD of any memory type into its SRAM (NOPs included). */
	bool do_load(uint64_t idx, const vta_insn &insn, uint64_t g);

	run_ctl &ctl_;
	shared_hw &hw_;
	vtasim_module_stats st_{};
	module_state state_;

private:
	void run(uint64_t g);
	bool acquire(const vta_insn &insn, uint64_t g, vtasim_insn_record *rec);
	bool release(const vta_insn &insn, uint64_t g, vtasim_insn_record *rec);

	insn_queue &queue_;
	token_map tokens_;
	uint64_t wait_since_ = 0; /* kernel time the current token or room wait began */
	bool wait_open_ = false;  /* in that wait (it has not returned) */
};

} // namespace vtasim

#endif /* VTASIM_UNIT_BASE_H */
