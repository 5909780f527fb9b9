/*
 * rtl_compute.cc - the COMPUTE datapath on verilated lanes (rtl_compute.h): BATCH x BLOCK_OUT
 * vta_gemm_dot lanes and as many vta_alu_lane lanes, all models of one clock domain, driven by
 * an issue stage with a scoreboard of the ACC rows in flight.
 *
 * Lane mapping, issue and write-back: docs/rtl.md "The COMPUTE arrays". Each built BLOCK_IN is
 * one pair of lane models (rtl_compute_lanes.h, generated from the CMake list
 * VTASIM_RTL_BLOCK_IN); any batch and block_out is that many instances. The lanes run in lock
 * step, so lane 0's out_valid speaks for all; at most `depth` uops are in flight, so the FIFO
 * and the scoreboard's scan are short.
 */
#include "rtl_compute.h"

#include <new>
#include <string>
#include <vector>

#include "rtl_compute_lanes.h"
#include "rtl_harness.h"
#include "vta_alu_ops.h"

/* The handle is the datapath itself: each built BLOCK_IN derives from it. */
struct vta_rtl_compute {
	virtual ~vta_rtl_compute() = default;
	virtual bool trace_open(const char *path) = 0;
	virtual unsigned depth() const = 0;
	virtual void begin(const vta_rtl_compute_mem &mem, int alu_op, int use_imm, int imm_src,
			   int32_t imm, uint64_t cycle) = 0;
	virtual void uop(uint32_t dst, uint32_t src, uint32_t wgt, int reset) = 0;
	virtual uint64_t end() = 0;
	virtual uint64_t cycles() const = 0;
};

namespace {

template <unsigned BI, unsigned DEPTH, class Dot, class Alu>
class compute_array final : public vta_rtl_compute {
public:
	compute_array(unsigned batch, unsigned block_out)
	    : batch_(batch), bo_(block_out), lanes_(batch * block_out)
	{
		dot_ = dom_.add<Dot>(names("gemm"));
		alu_ = dom_.add<Alu>(names("alu"));
		dom_.reset();
	}

	bool trace_open(const char *path) override { return dom_.trace_open(path); }
	unsigned depth() const override { return DEPTH; }
	uint64_t cycles() const override { return dom_.cycles(); }

	void begin(const vta_rtl_compute_mem &mem, int alu_op, int use_imm, int imm_src,
		   int32_t imm, uint64_t cycle) override
	{
		drain(); /* an instruction left open is finished first */
		mem_ = mem;
		is_alu_ = alu_op >= 0;
		/* a code no row has: the lane's reserved pass-through, as the C model leaves the row */
		op_ = (CData)(alu_op >= VTA_ALU_OP_COUNT ? VTA_ALU_OP_PASS_THROUGH : alu_op);
		use_imm_ = use_imm != 0;
		imm_src_ = use_imm_ && imm_src != 0;
		imm_ = (IData)(uint32_t)imm;
		uops_ = 0;
		/* the array the instruction does not use is idle: clock-gate it */
		dom_.gate(GEMM_LANES, is_alu_);
		dom_.gate(ALU_LANES, !is_alu_);
		dom_.at_cycle(cycle);
	}

	void uop(uint32_t dst, uint32_t src, uint32_t wgt, int reset) override
	{
		if (uops_++ == 0)
			first_ = dom_.cycles();
		/* the scoreboard: an ALU uop reads its dst and (tensor) src rows at its beats; the
		 * GEMM lanes read ACC late (vta_gemm_dot.v) and never wait */
		if (is_alu_)
			while ((!imm_src_ && in_flight(dst)) || ((!use_imm_ || imm_src_) && in_flight(src)))
				clock(false);
		if (is_alu_)
			alu_uop(dst, src);
		else
			gemm_beat(src, wgt, reset != 0);
		push(dst);
	}

	uint64_t end() override
	{
		drain();
		return uops_ ? dom_.cycles() - first_ : 0;
	}

private:
	std::vector<std::string> names(const char *unit) const
	{
		std::vector<std::string> n;
		for (unsigned b = 0; b < batch_; b++)
			for (unsigned o = 0; o < bo_; o++)
				n.push_back(std::string(unit) + "_b" + std::to_string(b) + "_o" +
					    std::to_string(o));
		return n;
	}

	/* One GEMM or reset beat: every dot lane gets its INP row and WGT row (its ACC lane
	 * comes later, at the accumulate stage: clock()). */
	void gemm_beat(uint32_t src, uint32_t wgt, bool reset)
	{
		const int8_t *x = mem_.inp + (uint64_t)src * batch_ * BI;
		const int8_t *w = mem_.wgt + (uint64_t)wgt * bo_ * BI;
		for (unsigned b = 0, i = 0; b < batch_; b++) {
			for (unsigned o = 0; o < bo_; o++, i++) {
				Dot &d = *dot_[i];
				d.in_valid = 1;
				d.in_reset = reset;
				if (!reset) {
					vtasim_rtl::port_copy_bytes(d.x, x + (uint64_t)b * BI, BI);
					vtasim_rtl::port_copy_bytes(d.w, w + (uint64_t)o * BI, BI);
				}
			}
		}
		clock(true);
	}

	/* One ALU uop: the dst beat (the src row's for an immediate op reading its source, VTA's
	 * Chisel rule), then (tensor) the src beat; ACC is read at each beat. */
	void alu_uop(uint32_t dst, uint32_t src)
	{
		const int32_t *a = mem_.acc + (uint64_t)(imm_src_ ? src : dst) * lanes_;
		for (unsigned i = 0; i < lanes_; i++) {
			Alu &l = *alu_[i];
			l.in_valid = 1;
			l.op = op_;
			l.use_imm = use_imm_;
			l.imm = imm_;
			l.in_data = (IData)(uint32_t)a[i];
		}
		clock(true);
		if (use_imm_)
			return;
		const int32_t *s = mem_.acc + (uint64_t)src * lanes_;
		for (unsigned i = 0; i < lanes_; i++) {
			Alu &l = *alu_[i];
			l.in_valid = 1;
			l.in_data = (IData)(uint32_t)s[i];
		}
		clock(true);
	}

	/* One clock: a beat (inputs already set) or a bubble, then the write-back. */
	void clock(bool beat)
	{
		if (!beat && valid_set_) {
			if (is_alu_)
				for (Alu *l : alu_)
					l->in_valid = 0;
			else
				for (Dot *d : dot_)
					d->in_valid = 0;
		}
		valid_set_ = beat;
		if (!is_alu_ && dot_[0]->acc_valid) {
			/* the oldest uop in flight accumulates at this edge: every earlier one has
			 * been written back, so its ACC row is current */
			const int32_t *a = mem_.acc + (uint64_t)fifo_[head_] * lanes_;
			for (unsigned i = 0; i < lanes_; i++)
				dot_[i]->acc_in = (IData)(uint32_t)a[i];
		}
		dom_.tick();
		if (is_alu_ ? alu_[0]->out_valid : dot_[0]->out_valid)
			write_back();
	}

	void write_back()
	{
		uint32_t row = fifo_[head_];
		head_ = (head_ + 1) % CAP;
		count_--;
		int32_t *a = mem_.acc + (uint64_t)row * lanes_;
		int8_t *o8 = mem_.out + (uint64_t)row * lanes_;
		if (is_alu_) {
			for (unsigned i = 0; i < lanes_; i++) {
				a[i] = (int32_t)(uint32_t)alu_[i]->out_result;
				o8[i] = (int8_t)alu_[i]->out8;
			}
		} else {
			for (unsigned i = 0; i < lanes_; i++) {
				a[i] = (int32_t)(uint32_t)dot_[i]->acc_out;
				o8[i] = (int8_t)dot_[i]->out8;
			}
		}
	}

	bool in_flight(uint32_t row) const
	{
		for (unsigned k = 0, j = head_; k < count_; k++, j = (j + 1) % CAP)
			if (fifo_[j] == row)
				return true;
		return false;
	}

	void push(uint32_t row)
	{
		fifo_[(head_ + count_) % CAP] = row;
		count_++;
	}

	void drain()
	{
		while (count_)
			clock(false);
	}

	/* Uops in flight: at most DEPTH (one issues per clock, each is written back DEPTH - 1
	 * clocks after its issue), and a pushed uop is counted before its write-back pops. */
	static constexpr unsigned CAP = DEPTH + 1;
	enum { GEMM_LANES, ALU_LANES }; /* the domain's groups, in the order added */

	const unsigned batch_, bo_, lanes_;
	vtasim_rtl::clock_domain dom_;
	std::vector<Dot *> dot_;
	std::vector<Alu *> alu_;

	vta_rtl_compute_mem mem_{};
	bool is_alu_ = false, use_imm_ = false, imm_src_ = false, valid_set_ = false;
	CData op_ = 0;
	IData imm_ = 0;
	uint64_t uops_ = 0, first_ = 0;
	uint32_t fifo_[CAP] = {};
	unsigned head_ = 0, count_ = 0;
};

/* The built BLOCK_IN values, in the order of the CMake list. */
std::vector<unsigned> built()
{
	std::vector<unsigned> v;
#define VTA_RTL_BUILT(bi, depth, dot, alu) v.push_back(bi);
	VTA_RTL_COMPUTE_LANES(VTA_RTL_BUILT)
#undef VTA_RTL_BUILT
	return v;
}

std::string join(const std::vector<unsigned> &v, const char *sep)
{
	std::string s;
	for (unsigned x : v)
		s += (s.empty() ? "" : sep) + std::to_string(x);
	return s;
}

vta_rtl_compute *make(unsigned batch, unsigned bi, unsigned bo)
{
#define VTA_RTL_MAKE(BI, DEPTH, DOT, ALU)                                                          \
	if (bi == BI)                                                                              \
		return new compute_array<BI, DEPTH, DOT, ALU>(batch, bo);
	VTA_RTL_COMPUTE_LANES(VTA_RTL_MAKE)
#undef VTA_RTL_MAKE
	return nullptr;
}

} // namespace

extern "C" vta_status vta_rtl_compute_create(vta_rtl_compute **out, unsigned batch,
					     unsigned block_in, unsigned block_out,
					     vta_error *err)
{
	*out = nullptr;
	if (batch == 0 || block_out == 0)
		return vta_fail(err, VTA_E_USAGE,
				"datapath rtl: batch %u x block_out %u has no lanes", batch,
				block_out);
	try {
		*out = make(batch, block_in, block_out);
		if (*out)
			return VTA_OK;
		std::vector<unsigned> have = built(), want = have;
		want.push_back(block_in);
		if (block_in < 2 || (block_in & (block_in - 1)) != 0)
			return vta_fail(err, VTA_E_UNSUPPORTED,
					"datapath rtl: the compute lanes' adder tree needs BLOCK_IN "
					"a power of two >= 2, not %u",
					block_in);
		return vta_fail(err, VTA_E_UNSUPPORTED,
				"datapath rtl: no RTL build of the compute lanes for BLOCK_IN %u "
				"(built: %s); add it with cmake -DVTASIM_RTL_BLOCK_IN=\"%s\" and "
				"rebuild (docs/rtl.md)",
				block_in, join(have, ", ").c_str(), join(want, ";").c_str());
	} catch (const std::bad_alloc &) {
		return vta_fail(err, VTA_E_NOMEM, "datapath rtl: out of memory");
	}
}

extern "C" void vta_rtl_compute_destroy(vta_rtl_compute *c)
{
	delete c;
}

extern "C" vta_status vta_rtl_compute_trace(vta_rtl_compute *c, const char *vcd_path,
					    vta_error *err)
{
	if (!c->trace_open(vcd_path) && vcd_path)
		return vta_fail(err, VTA_E_IO, "%s: cannot open the VCD file", vcd_path);
	return VTA_OK;
}

extern "C" unsigned vta_rtl_compute_depth(const vta_rtl_compute *c)
{
	return c->depth();
}

extern "C" void vta_rtl_compute_begin(vta_rtl_compute *c, const vta_rtl_compute_mem *mem,
				      int alu_op, int use_imm, int imm_src, int32_t imm,
				      uint64_t cycle)
{
	c->begin(*mem, alu_op, use_imm, imm_src, imm, cycle);
}

extern "C" void vta_rtl_compute_uop(vta_rtl_compute *c, uint32_t dst, uint32_t src,
				    uint32_t wgt, int reset)
{
	c->uop(dst, src, wgt, reset);
}

extern "C" uint64_t vta_rtl_compute_end(vta_rtl_compute *c)
{
	return c->end();
}

extern "C" uint64_t vta_rtl_compute_cycles(const vta_rtl_compute *c)
{
	return c->cycles();
}

extern "C" const char *vta_rtl_verilator_version(void)
{
	return VERILATOR_VERSION; /* verilated_config.h, through verilated.h */
}
