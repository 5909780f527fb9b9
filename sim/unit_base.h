/*
 * unit_base.h - an in-order module: the loop over its instruction queue with VTA's
 * dependency protocol, and the 2D DMA. The LOAD and STORE modules are this class as it is;
 * COMPUTE derives from it (compute_unit.h).
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
Its start and end are also told to the run's watcher, if any (a stepped run, run_ctl.h).
 *
 * LOAD executes LOAD INP and LOAD WGT, plain or decompressing through the LUT decoder
 * (lut_decoder.h), LOAD LUT (int8 tables), and their NOPs.
 * Models: the in-order load stage; pop_next pops g2l (compute freed a buffer), push_next
 * pushes l2g (data ready). The 2D DMA with zero padding writes the INP or WGT SRAM.
 * Timing: vta_cost.h's, the DMA on the shared DRAM port; a decompressing load ends at the
 * later of its last data and the decoder's end. Data lands in SRAM when it completes.
 * Approximates: padding rows are written for free (in parallel with the DRAM beats); the
 * SRAM write port never limits the DMA.
 *
 * STORE executes STORE (OUT rows to DRAM) and its NOPs.
 * Models: the in-order store stage; pop_prev pops g2s (results ready), push_prev pushes
 * s2g (OUT may be overwritten). y_size rows of x_size OUT rows, contiguous in SRAM, go to
 * DRAM rows x_stride elements apart; only memory type OUT, no padding.
 * Timing: vta_cost.h's, the DMA on the shared DRAM port. OUT is read and DRAM written
 * when the instruction completes.
 * Approximates: writes are posted like reads (the latency stands for the write response).
 */
#ifndef VTASIM_UNIT_BASE_H
#define VTASIM_UNIT_BASE_H

#include <systemc>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "dram_port.h"
#include "insn_queue.h"
#include "lut_decoder.h"
#include "rtl_datapath.h"
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
	uint64_t gemm_uops = 0, gemm_reset_uops = 0, alu_uops = 0, alu_imm_uops = 0;
	lut_decoder lut; /* fed by the load module (lut) and the compute module (lut32) */
	rtl_datapath *rtl = nullptr; /* the RTL units with `datapath: rtl`, else C functions */

	void reset_counters()
	{
		for (auto &b : dram_read_bytes)
			b = 0;
		dram_write_bytes = gemm_uops = gemm_reset_uops = alu_uops = alu_imm_uops = 0;
	}
};

class unit_base : public sc_core::sc_module {
public:
	SC_HAS_PROCESS(unit_base);
	/* The four token queues by vta_queue; the ISA's map (vta_queues.h) says which one each
	 * flag of this module uses. */
	using token_map = std::array<token_queue *, VTA_QUEUE_COUNT>;

	unit_base(sc_core::sc_module_name name, vta_module module, run_ctl &ctl, shared_hw &hw,
		  insn_queue &queue, token_map tokens);

	void reset();
	const vta_module_stats &stats() const { return st_; }
	const module_state &state() const { return state_; }
	/* A failed run ended: charge the head instruction's open token or room wait, up to
	 * `end` (kernel time), to its record. */
	void close_record(uint64_t end);
	/* Describe what the module waits on ("idle", "insn N (...) waits on l2g (0 tokens)"),
	 * cutting each disassembly to `cut` characters. */
	std::string describe(size_t cut) const;

protected:
	/* The module's part of one instruction: for LOAD and STORE the 2D DMA (FETCH routes
	 * them nothing else, vta_insn_module); COMPUTE overrides it. Returns false when the
	 * run stopped. */
	virtual bool execute(uint64_t idx, const vta_insn &insn, uint64_t g)
	{
		return insn.opcode == VTA_OP_STORE ? do_store(idx, insn, g) : do_load(idx, insn, g);
	}

	/* A LOAD of any memory type into its SRAM or the LUT table memory (NOPs included). */
	bool do_load(uint64_t idx, const vta_insn &insn, uint64_t g);
	/* A STORE of OUT rows to DRAM (NOPs included). */
	bool do_store(uint64_t idx, const vta_insn &insn, uint64_t g);
	/* The LUT decoder's part of a decompressing LOAD whose DMA is done. */
	bool decode_load(uint64_t idx, const vta_mem_insn &m, uint64_t g, uint64_t first_beat);

	run_ctl &ctl_;
	shared_hw &hw_;
	vta_module_stats st_{};
	module_state state_;
	/* A decompressing load's decoded rows. A member, not a local of the thread: a run that
	 * ends (another module fails) while the thread waits out the decode leaves the thread
	 * suspended for good, and its stack is never unwound. */
	std::vector<uint8_t> lut_rows_;

private:
	/* The SC_THREAD: run each new run as it starts. */
	void thread_main()
	{
		for (uint64_t g = 0;;)
			run(g = ctl_.next_run(g));
	}
	void run(uint64_t g);
	/* Wait until q has a token to pop (pop) or room for a push (!pop), charging the wait
	 * to the statistic and to rec. */
	bool wait_token(token_queue &q, bool pop, uint64_t g, vtasim_insn_record *rec);
	bool acquire(const vta_insn &insn, uint64_t g, vtasim_insn_record *rec);
	bool release(const vta_insn &insn, uint64_t g, vtasim_insn_record *rec);

	/* The queues insn pops or pushes (prev, next), from the ISA's map; nullptr for none. */
	void queues_of(const vta_insn &insn, token_queue *pops[2], token_queue *pushes[2]) const
	{
		vta_queue pop[2], push[2];
		vta_insn_queues(&insn, module_, pop, push);
		for (int i = 0; i < 2; i++) {
			pops[i] = pop[i] >= 0 ? tokens_[pop[i]] : nullptr;
			pushes[i] = push[i] >= 0 ? tokens_[push[i]] : nullptr;
		}
	}

	insn_queue &queue_;
	token_map tokens_;
	vta_module module_;
	uint64_t wait_since_ = 0; /* kernel time the current token or room wait began */
	bool wait_open_ = false;  /* in that wait (it has not returned) */
};

} // namespace vtasim

#endif /* VTASIM_UNIT_BASE_H */
