/*
 * alu_wraps.h - which lanes of an ALU instruction wrapped, for a recorded run: per lane, the
 * lane-ops whose exact ADD, MUL or left-shift result did not fit int32 (vtasim_alu_row_wraps,
 * docs/arithmetic.md's overflow count). Only a recorded run counts (compute_unit.h), so an
 * unrecorded one pays nothing.
 *
 * With the C datapath the operands are the ACC rows just before each uop. The RTL datapath
 * writes its results back a pipeline depth later, so there the count runs on a shadow of
 * the ACC rows the instruction touched: a row is copied from ACC when the instruction
 * first names it (the RTL has written back every earlier instruction, and writes only rows
 * of uops already issued, which are all shadowed), then updated with the C lane functions,
 * which the RTL matches bit for bit.
 */
#ifndef VTASIM_ALU_WRAPS_H
#define VTASIM_ALU_WRAPS_H

#include <cstdint>
#include <cstring>
#include <vector>

#include "datapath.h"
#include "vtasim_api.h"

namespace vtasim {

class alu_wraps {
public:
	/* Start an ALU instruction of op on rows of `lanes` lanes. */
	void begin(uint32_t op, unsigned lanes)
	{
		op_ = op;
		lanes_ = lanes;
		count_.assign(lanes, 0);
		total_ = 0;
		insn_++;
	}

	/* C datapath: a uop about to apply op to dst (and src, or imm when src is null). */
	void uop(const int32_t *dst, const int32_t *src, int32_t imm)
	{
		total_ += vtasim_alu_row_wraps(op_, dst, src, imm, lanes_, count_.data());
	}

	/* RTL datapath: the same uop on ACC rows dst and src (unused with use_imm, but when
	 * imm_src: op(src, imm), alu.imm_operand src) of `acc` (acc_rows rows), counted on the
	 * shadow. */
	void uop_shadowed(const int32_t *acc, uint32_t acc_rows, uint32_t dst, uint32_t src,
			  bool use_imm, bool imm_src, int32_t imm)
	{
		if (shadow_at_.size() != acc_rows || shadow_.size() != (size_t)acc_rows * lanes_) {
			shadow_.assign((size_t)acc_rows * lanes_, 0);
			shadow_at_.assign(acc_rows, 0);
		}
		int32_t *d = row(acc, dst);
		if (imm_src && src != dst)
			std::memcpy(d, row(acc, src), lanes_ * sizeof(int32_t));
		const int32_t *s = use_imm ? nullptr : row(acc, src);
		uop(d, s, imm);
		scratch_.resize(lanes_);
		vtasim_alu_row(op_, d, s, imm, scratch_.data(), lanes_);
	}

	/* The instruction ended: append its lanes that wrapped to `out`, return its total. */
	uint64_t end(uint64_t insn, std::vector<vtasim_alu_wrap> &out) const
	{
		for (unsigned l = 0; l < lanes_ && total_; l++)
			if (count_[l])
				out.push_back(vtasim_alu_wrap{insn, l, count_[l]});
		return total_;
	}

private:
	/* Row r of the shadow, copied from ACC the first time this instruction names it. */
	int32_t *row(const int32_t *acc, uint32_t r)
	{
		int32_t *s = shadow_.data() + (size_t)r * lanes_;
		if (shadow_at_[r] != insn_) {
			std::memcpy(s, acc + (size_t)r * lanes_, lanes_ * sizeof(int32_t));
			shadow_at_[r] = insn_;
		}
		return s;
	}

	uint32_t op_ = 0;
	unsigned lanes_ = 0;
	std::vector<uint32_t> count_; /* lane-ops wrapped, per lane */
	uint64_t total_ = 0;
	uint64_t insn_ = 0;               /* instructions begun: the shadow's generation */
	std::vector<int32_t> shadow_;     /* ACC rows as the instruction left them so far */
	std::vector<uint64_t> shadow_at_; /* per row, the instruction that copied it */
	std::vector<int8_t> scratch_;     /* the OUT row the shadow's uop writes, unused */
};

} // namespace vtasim

#endif /* VTASIM_ALU_WRAPS_H */
