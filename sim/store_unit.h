/*
 * store_unit.h - VTA's STORE module: executes STORE (OUT rows to DRAM) and its NOPs.
 *
 * Models: the in-order store stage; pop_prev pops g2s (results ready), push_prev pushes
 * s2g (OUT may be overwritten). y_size rows of x_size OUT rows, contiguous in SRAM, go to
 * DRAM rows x_stride elements apart; only memory type OUT, no padding.
 * Timing: insn_overhead, then the DMA on the shared DRAM port (bursts, write latency once
 * per instruction; vta_cost.h); a NOP costs insn_overhead. OUT is read and DRAM written
 * when the instruction completes.
 * Approximates: writes are posted like reads (the latency stands for the write response).
 */
#ifndef VTASIM_STORE_UNIT_H
#define VTASIM_STORE_UNIT_H

#include "unit_base.h"

namespace vtasim {

class store_unit : public unit_base {
public:
	store_unit(sc_core::sc_module_name name, run_ctl &ctl, shared_hw &hw, insn_queue &queue,
		   token_map tokens);

protected:
	bool execute(uint64_t idx, const vta_insn &insn, uint64_t g) override;
};

} // namespace vtasim

#endif /* VTASIM_STORE_UNIT_H */
