/*
 * compute_unit.h - VTA's COMPUTE module: GEMM, ALU, FINISH, and the loads that feed it
 * directly (LOAD UOP, LOAD ACC, LOAD ACC_8BIT, LOAD LUT32 tables and decompressing LOAD
 * ACC through the LUT decoder, lut_decoder.h; and compute-stage NOPs).
 *
 * Models: the in-order compute stage with all four token queues (pop_prev l2g, pop_next
 * s2g, push_prev g2l, push_next g2s). GEMM and ALU run the two-level loop nest over the
 * micro-op range exactly (datapath.h), write ACC and the truncated OUT row per uop, and
 * check per uop, in the reference executor's order: the uop decodes, its dst/src/wgt rows
 * lie inside their SRAMs, and no ACC row is written twice within acc_dep_distance uops of
 * one instruction (the rules of vta_rules.h); a nest whose kernel shows that no uop can
 * fail them runs without them (nest_clean).
 * Timing: vta_cost.h's, one wait per instruction; the arithmetic is applied when it
 * completes.
 * Records: a recorded run also counts, per ALU instruction, the lanes whose result wrapped
 * (alu_wraps.h).
 * Approximates: the GEMM/ALU pipeline drains between instructions (a fixed fill cost per
 * instruction, no overlap of consecutive instructions); SRAM port conflicts between the
 * ALU's two ACC reads are folded into alu_ii.
 */
#ifndef VTASIM_COMPUTE_UNIT_H
#define VTASIM_COMPUTE_UNIT_H

#include <vector>

#include "alu_wraps.h"
#include "datapath.h"
#include "nest_rows.h"
#include "unit_base.h"
#include "vta_footprint.h"
#include "vta_rules.h"

namespace vtasim {

class compute_unit : public unit_base {
public:
	compute_unit(sc_core::sc_module_name name, run_ctl &ctl, shared_hw &hw,
		     insn_queue &queue, token_map tokens);

	void reset_compute();

protected:
	bool execute(uint64_t idx, const vta_insn &insn, uint64_t g) override;

private:
	enum kind { K_GEMM, K_RESET, K_ALU };

	bool exec_loop(uint64_t idx, const vta_insn &insn, uint64_t g);
	/* Run the loop nest on the C datapath or the RTL's; a failed per-uop check stops it
	 * with `why` set. */
	template <bool RTL> void run_loop(const vta_insn &insn, vta_error &why);
	/* Whether the per-uop checks would pass every uop of the nest. */
	bool nest_clean(const vta_insn &insn, const vta_uop_bounds &bounds) const;
	/* WRAPS: count the lanes that wrap (an ALU instruction of a recorded run). The uops run
	 * without their checks (CHECKED false) when nest_clean says none can fail. */
	template <int KIND, bool RTL, bool WRAPS = false>
	void run_nest(const vta_insn &insn, vta_error &why);
	template <int KIND, bool RTL, bool WRAPS, bool CHECKED>
	void run_uops(const vta_insn &insn, vta_error &why);
	/* A GEMM nest that passed nest_clean on the C datapath; returns its uops. */
	uint64_t gemm_nest(const vta_loop &l);
	/* The same of an ALU nest (vtasim_alu_run_nest), and of a RESET nest. */
	uint64_t alu_nest(const vta_insn &insn);
	uint64_t reset_nest(const vta_loop &l);
	/* The liveness and counters of a nest's first `done` uops. */
	template <int KIND, bool RTL>
	void account(const vta_insn &insn, uint64_t done, const vta_error &why);
	void note_dst_rows(const vta_insn &insn);
	struct gemm_feed; /* GEMM uops to the kernel in runs, WGT rows packed on the way */
	gemm_feed feed();
	/* The SRAM liveness (sram_live.h) of one uop's reads and writes at epoch e; roles say
	 * which rows a uop of the instruction reads. */
	void note_live(uint32_t upc, uint32_t dst, uint32_t src, uint32_t wgt,
		       const vta_uop_roles &roles, uint32_t e);
	/* The liveness of a loop nest that ran to its end, per distinct row. */
	void note_live_loop(const vta_insn &insn, const vta_uop_roles &roles, uint32_t e);
	/* The liveness of its first `done` uops, uop by uop (a check stopped it). */
	void note_live_prefix(const vta_insn &insn, const vta_uop_roles &roles, uint32_t e,
			      uint64_t done);
	/* The liveness of the uops the RTL ran, now that the instruction ends. */
	void note_rtl_live(const vta_insn &insn);

	/* The rows of the uops the RTL ran in the current instruction. */
	struct uop_rows {
		uint32_t upc, dst, src, wgt;
	};
	std::vector<uop_rows> rtl_rows_;

	std::vector<uint32_t> live_dst_, live_src_, live_wgt_; /* a kernel's distinct indices */
	range_scratch live_rows_; /* a nest's rows as ranges (nest_rows.h) */

	alu_wraps wraps_; /* a recorded run's ALU lanes that wrapped */

	vtasim_gemm_kernel gemm_{}; /* the host's GEMM kernel for the config's shape */
	/* With a kernel that packs: every WGT row in its layout, remade before a uop reads a row
	 * the WGT SRAM flags as rewritten (sram.h), so never stale and made once per write. */
	struct alignas(64) line {
		int8_t b[64];
	};
	std::vector<line> packed_wgt_;
	/* GEMM uops handed to the kernel together (at most GEMM_RUN). */
	static constexpr unsigned GEMM_RUN = 64;
	std::vector<vtasim_gemm_rows> gemm_rows_;
	std::vector<uint64_t> nest_at_; /* a clean nest's uop offsets (vtasim_gemm_nest) */
	std::vector<uint32_t> nest_scratch_; /* the kernel's scratch for a nest; an ALU nest's rows */

	/* ACC write stamps for the hazard check: the uop clock of each row's last write. */
	std::vector<uint64_t> acc_written_at_;
	uint64_t uop_clock_ = 1;
	uint64_t uops_done_ = 0; /* GEMM/ALU uops of this run, for the uop budget */
};

} // namespace vtasim

#endif /* VTASIM_COMPUTE_UNIT_H */
