/*
 * load_unit.h - VTA's LOAD module: executes LOAD INP and LOAD WGT, plain or decompressing
 * through the LUT decoder (lut_decoder.h), LOAD LUT (int8 tables), and their NOPs.
 *
 * Models: the in-order load stage; pop_next pops g2l (compute freed a buffer), push_next
 * pushes l2g (data ready). The 2D DMA with zero padding writes the INP or WGT SRAM.
 * Timing: insn_overhead, then the DMA on the shared DRAM port (bursts, latency once per
 * instruction; vta_cost.h); a decompressing load ends at the later of its last data and
 * the decoder's end (first data + decode cycles); a NOP costs insn_overhead. Data lands in SRAM when the
 * instruction completes.
 * Approximates: padding rows are written for free (in parallel with the DRAM beats); the
 * SRAM write port never limits the DMA.
 */
#ifndef VTASIM_LOAD_UNIT_H
#define VTASIM_LOAD_UNIT_H

#include "unit_base.h"

namespace vtasim {

class load_unit : public unit_base {
public:
	load_unit(sc_core::sc_module_name name, run_ctl &ctl, shared_hw &hw, insn_queue &queue,
		  token_map tokens);

protected:
	bool execute(uint64_t idx, const vta_insn &insn, uint64_t g) override;
};

} // namespace vtasim

#endif /* VTASIM_LOAD_UNIT_H */
