/*
 * compute_unit.cc - the COMPUTE module (see compute_unit.h). The uop loop is the hot path
 * of the simulator: uops were decoded when LOAD UOP ran, the GEMM kernel is the host's
 * fastest for the config's shape (datapath.h, chosen when the run starts) and takes runs
 * of uops, on WGT rows packed once per write when it packs, and the checks are decided per
 * nest when they can be, else a few compares per uop.
 */
#include "compute_unit.h"

#include <algorithm>
#include <cstring>

#include "datapath.h"
#include "vta_cost.h"
#include "vta_rules.h"

namespace vtasim {

compute_unit::compute_unit(sc_core::sc_module_name name, run_ctl &ctl, shared_hw &hw,
			   insn_queue &queue, token_map tokens)
    : unit_base(name, VTA_MODULE_COMPUTE, ctl, hw, queue, tokens)
{
}

void compute_unit::reset_compute()
{
	acc_written_at_.assign(ctl_.cfg.sram[VTA_MEM_ACC].depth, 0);
	uop_clock_ = 1;
	gemm_ = vtasim_gemm_choose(ctl_.cfg.batch, ctl_.cfg.block_in, ctl_.cfg.block_out,
				   VTASIM_GEMM_BEST);
	/* a WGT row starts flagged rewritten and sram::reset flags those it clears: each is
	 * packed before its first use after it changed (the kernel, chosen by the config and
	 * the host alone, is the same every run), so the packed rows need no clearing */
	packed_wgt_.resize(gemm_.pack ? (uint64_t)ctl_.cfg.sram[VTA_MEM_WGT].depth *
					   gemm_.packed_bytes / 64
				      : 0);
	gemm_rows_.resize(GEMM_RUN);
	uops_done_ = 0;
}

bool compute_unit::execute(uint64_t idx, const vta_insn &insn, uint64_t g)
{
	switch (insn.opcode) {
	case VTA_OP_LOAD: return do_load(idx, insn, g);
	case VTA_OP_GEMM:
	case VTA_OP_ALU: return exec_loop(idx, insn, g);
	case VTA_OP_FINISH:
		return ctl_.wait_cycles(ctl_.cfg.insn_overhead_cycles, g, &st_.busy_cycles);
	case VTA_OP_STORE: break; /* FETCH routes STORE to the store module */
	}
	return ctl_.fail_insn(idx, VTA_E_INTERNAL, "instruction routed to the compute module");
}

bool compute_unit::exec_loop(uint64_t idx, const vta_insn &insn, uint64_t g)
{
	const vta_config &cfg = ctl_.cfg;
	vta_error why;
	vta_error_clear(&why);
	if (vta_loop_check(&cfg, &insn, &why) != VTA_OK ||
	    vta_uop_budget_check(&cfg, &insn, &uops_done_, &why) != VTA_OK)
		return ctl_.fail_insn(idx, why.status, why.detail);
	vta_rtl_compute *rtl = hw_.rtl ? hw_.rtl->compute() : nullptr;
	uint64_t unit; /* the datapath's cycles: pipeline fill and uops */
	if (!rtl) {
		const uint64_t total = vta_cost_compute_cycles(&cfg, &insn);
		unit = total - cfg.insn_overhead_cycles;
		if (!ctl_.wait_cycles(total, g, &st_.busy_cycles))
			return false;
		run_loop<false>(insn, why);
	} else {
		/* the RTL's handshakes decide the cycles: run it, then let them pass */
		sram &I = *hw_.mem[VTA_MEM_INP], &W = *hw_.mem[VTA_MEM_WGT];
		sram &A = *hw_.mem[VTA_MEM_ACC], &O = *hw_.mem[VTA_MEM_OUT];
		const vta_rtl_compute_mem mem{I.i8(), W.i8(), A.i32(), O.i8()};
		const bool alu = insn.opcode == VTA_OP_ALU;
		rtl_rows_.clear();
		vta_rtl_compute_begin(rtl, &mem, alu ? (int)insn.alu.op : -1,
				      alu && insn.alu.use_imm, vta_alu_imm_reads_src(&cfg, &insn),
				      insn.alu.imm,
				      ctl_.cycles() + cfg.insn_overhead_cycles);
		run_loop<true>(insn, why);
		unit = vta_rtl_compute_end(rtl);
		if (!ctl_.wait_cycles(cfg.insn_overhead_cycles + unit, g, &st_.busy_cycles))
			return false;
		note_rtl_live(insn);
	}
	if (vtasim_insn_record *r = ctl_.record(idx)) {
		r->unit_cycles = unit;
		if (ctl_.events && insn.opcode == VTA_OP_ALU)
			r->alu_wraps = wraps_.end(idx, ctl_.events->wraps);
	}
	if (why.status != VTA_OK)
		return ctl_.fail_insn(idx, why.status, why.detail);
	return true;
}

template <bool RTL> void compute_unit::run_loop(const vta_insn &insn, vta_error &why)
{
	if (vta_insn_resets(&insn)) {
		run_nest<K_RESET, RTL>(insn, why);
	} else if (insn.opcode == VTA_OP_ALU && ctl_.events) {
		wraps_.begin(insn.alu.op, ctl_.cfg.batch * ctl_.cfg.block_out);
		run_nest<K_ALU, RTL, true>(insn, why);
	} else if (insn.opcode == VTA_OP_ALU) {
		run_nest<K_ALU, RTL>(insn, why);
	} else {
		run_nest<K_GEMM, RTL>(insn, why);
	}
}

void compute_unit::note_live(uint32_t upc, uint32_t dst, uint32_t src, uint32_t wgt,
			     const vta_uop_roles &roles, uint32_t e)
{
	hw_.mem[VTA_MEM_UOP]->live().read(upc, e);
	sram_live &acc = hw_.mem[VTA_MEM_ACC]->live();
	if (roles.src_space != VTA_SPACE_COUNT)
		hw_.mem[roles.src_space]->live().read(src, e);
	if (roles.reads_wgt)
		hw_.mem[VTA_MEM_WGT]->live().read(wgt, e);
	if (roles.reads_dst)
		acc.read(dst, e);
	acc.write(dst, e);
	hw_.mem[VTA_MEM_OUT]->live().write(dst, e);
}

/* What iteration (o, i) of a loop nest adds to each uop's dst, src and wgt index. */
struct nest_offsets {
	uint64_t dst, src, wgt;
	nest_offsets(const vta_loop &l, uint32_t o, uint32_t i)
	    : dst((uint64_t)o * l.dst_factor_out + (uint64_t)i * l.dst_factor_in),
	      src((uint64_t)o * l.src_factor_out + (uint64_t)i * l.src_factor_in),
	      wgt((uint64_t)o * l.wgt_factor_out + (uint64_t)i * l.wgt_factor_in)
	{
	}
};

static void distinct(std::vector<uint32_t> &v)
{
	std::sort(v.begin(), v.end());
	v.erase(std::unique(v.begin(), v.end()), v.end());
}

/*
 * The liveness of a whole loop nest that ran to its end, per range of rows instead of per
 * uop. Every access of an instruction has the same epoch e, and at one epoch a row's reads
 * after its first write, and every write after that one, change nothing (sram_live.h: the
 * interval [e, e) is empty); reads before it are one read. Each uop reads ACC[dst] before
 * it writes it, so all reads of the nest, then all its writes, leave the same state.
 */
void compute_unit::note_live_loop(const vta_insn &insn, const vta_uop_roles &roles, uint32_t e)
{
	const vta_loop &l = insn.loop;
	const sram::decoded_uop *uops = hw_.mem[VTA_MEM_UOP]->uops().data();
	if (l.uop_end > l.uop_bgn)
		sram_live::at_epoch(hw_.mem[VTA_MEM_UOP]->live(), e)
			.read_range(l.uop_bgn, l.uop_end - l.uop_bgn);
	live_dst_.clear();
	live_src_.clear();
	live_wgt_.clear();
	for (uint32_t upc = l.uop_bgn; upc < l.uop_end; upc++) {
		live_dst_.push_back(uops[upc].dst);
		live_src_.push_back(uops[upc].src);
		live_wgt_.push_back(uops[upc].wgt);
	}
	distinct(live_dst_);
	const uint32_t O = l.iter_out, I = l.iter_in;
	if (roles.src_space != VTA_SPACE_COUNT) {
		distinct(live_src_);
		sram_live::at_epoch src(hw_.mem[roles.src_space]->live(), e);
		for_ranges(live_src_, O, I, l.src_factor_out, l.src_factor_in, live_rows_,
			   [&](uint32_t first, uint64_t n) { src.read_range(first, n); });
	}
	if (roles.reads_wgt) {
		distinct(live_wgt_);
		sram_live::at_epoch wgt(hw_.mem[VTA_MEM_WGT]->live(), e);
		for_ranges(live_wgt_, O, I, l.wgt_factor_out, l.wgt_factor_in, live_rows_,
			   [&](uint32_t first, uint64_t n) { wgt.read_range(first, n); });
	}
	/* the writes after every read of the other spaces (an ALU's src may be a dst row); a
	 * dst row's own read goes with its write: at one epoch, a read after the row's first
	 * write there changes nothing, so reading each just before writing it is reading them
	 * all first */
	sram_live::at_epoch acc(hw_.mem[VTA_MEM_ACC]->live(), e);
	sram_live::at_epoch out(hw_.mem[VTA_MEM_OUT]->live(), e);
	for_ranges(live_dst_, O, I, l.dst_factor_out, l.dst_factor_in, live_rows_,
		   [&](uint32_t first, uint64_t n) {
			   if (roles.reads_dst)
				   acc.read_write_range(first, n);
			   else
				   acc.write_range(first, n);
			   out.write_range(first, n);
		   });
}

/* The liveness of the first `done` uops of a loop nest a check stopped, uop by uop. */
void compute_unit::note_live_prefix(const vta_insn &insn, const vta_uop_roles &roles, uint32_t e,
				    uint64_t done)
{
	const vta_loop &l = insn.loop;
	const sram::decoded_uop *uops = hw_.mem[VTA_MEM_UOP]->uops().data();
	for (uint32_t o = 0; o < l.iter_out; o++)
		for (uint32_t i = 0; i < l.iter_in; i++)
			for (uint32_t upc = l.uop_bgn; upc < l.uop_end; upc++) {
				if (!done--)
					return;
				const sram::decoded_uop &u = uops[upc];
				note_live(upc,
						(uint32_t)(u.dst + (uint64_t)o * l.dst_factor_out +
							   (uint64_t)i * l.dst_factor_in),
						(uint32_t)(u.src + (uint64_t)o * l.src_factor_out +
							   (uint64_t)i * l.src_factor_in),
						(uint32_t)(u.wgt + (uint64_t)o * l.wgt_factor_out +
							   (uint64_t)i * l.wgt_factor_in),
					  roles, e);
			}
}

void compute_unit::note_rtl_live(const vta_insn &insn)
{
	const uint32_t e = ctl_.epoch();
	vta_uop_roles roles;
	vta_uop_roles_of(&ctl_.cfg, &insn, &roles);
	for (const uop_rows &r : rtl_rows_)
		note_live(r.upc, r.dst, r.src, r.wgt, roles, e);
	rtl_rows_.clear();
}

/* Feeds GEMM uops to the kernel in runs of GEMM_RUN, on packed WGT rows when the kernel
 * packs (a row written since it was last packed is packed first). */
struct compute_unit::gemm_feed {
	const vtasim_gemm_kernel &k;
	const int8_t *inp, *wgt;
	int32_t *acc;
	int8_t *out, *packed;
	uint8_t *rewritten;
	uint64_t inp_row, wgt_row, lanes;
	unsigned batch, bin, bout;
	vtasim_gemm_rows *queue;
	unsigned n;

	/* WGT row w packed if the kernel packs and the row was written since */
	const int8_t *wgt_row_of(uint64_t w)
	{
		const int8_t *wr = wgt + w * wgt_row;
		if (!k.pack)
			return wr;
		int8_t *p = packed + w * k.packed_bytes;
		if (__builtin_expect(rewritten[w], 0)) {
			k.pack(wr, p, bin, bout);
			rewritten[w] = 0;
		}
		return p;
	}
	void add(uint64_t src, const int8_t *wr, uint64_t dst)
	{
		queue[n++] = {inp + src * inp_row, wr, acc + dst * lanes, out + dst * lanes};
		if (n == GEMM_RUN)
			flush();
	}
	void flush()
	{
		if (n)
			k.run(queue, n, batch, bin, bout);
		n = 0;
	}
};

compute_unit::gemm_feed compute_unit::feed()
{
	const vta_config &cfg = ctl_.cfg;
	sram &W = *hw_.mem[VTA_MEM_WGT];
	return gemm_feed{gemm_,
			 hw_.mem[VTA_MEM_INP]->i8(),
			 W.i8(),
			 hw_.mem[VTA_MEM_ACC]->i32(),
			 hw_.mem[VTA_MEM_OUT]->i8(),
			 packed_wgt_.empty() ? nullptr : packed_wgt_.data()->b,
			 W.rewritten(),
			 (uint64_t)cfg.batch * cfg.block_in,
			 (uint64_t)cfg.block_out * cfg.block_in,
			 (uint64_t)cfg.batch * cfg.block_out,
			 cfg.batch,
			 cfg.block_in,
			 cfg.block_out,
			 gemm_rows_.data(),
			 0};
}

/* An ALU nest nest_clean passed, on the C datapath, in one call of the kernel. Returns the
 * uops run. */
uint64_t compute_unit::alu_nest(const vta_insn &insn)
{
	const vta_loop &l = insn.loop;
	const sram::decoded_uop *uops = hw_.mem[VTA_MEM_UOP]->uops().data();
	const uint32_t K = l.uop_end - l.uop_bgn;
	nest_scratch_.resize(2 * (size_t)K);
	uint32_t *dst = nest_scratch_.data(), *src = dst + K;
	for (uint32_t k = 0; k < K; k++) {
		dst[k] = uops[l.uop_bgn + k].dst;
		src[k] = uops[l.uop_bgn + k].src;
	}
	const vta_config &cfg = ctl_.cfg;
	vtasim_alu_nest n{};
	n.acc = hw_.mem[VTA_MEM_ACC]->i32();
	n.out = hw_.mem[VTA_MEM_OUT]->i8();
	n.lanes = cfg.batch * cfg.block_out;
	n.dst = dst;
	n.src = src;
	n.uops = K;
	n.iter_out = l.iter_out;
	n.iter_in = l.iter_in;
	n.dst_out = l.dst_factor_out;
	n.dst_in = l.dst_factor_in;
	n.src_out = l.src_factor_out;
	n.src_in = l.src_factor_in;
	n.imm = insn.alu.imm;
	n.use_imm = insn.alu.use_imm;
	n.imm_src = vta_alu_imm_reads_src(&cfg, &insn);
	return vtasim_alu_run_nest(insn.alu.op, &n);
}

/* A RESET nest nest_clean passed, on the C datapath: each distinct ACC row (and its OUT
 * row) zeroed once, as zeroing it again changes nothing. Returns the uops run. */
uint64_t compute_unit::reset_nest(const vta_loop &l)
{
	const sram::decoded_uop *uops = hw_.mem[VTA_MEM_UOP]->uops().data();
	live_dst_.clear();
	for (uint32_t upc = l.uop_bgn; upc < l.uop_end; upc++)
		live_dst_.push_back(uops[upc].dst);
	distinct(live_dst_);
	const uint64_t lanes = (uint64_t)ctl_.cfg.batch * ctl_.cfg.block_out;
	int32_t *acc = hw_.mem[VTA_MEM_ACC]->i32();
	int8_t *out = hw_.mem[VTA_MEM_OUT]->i8();
	const auto zero = [&](uint32_t r) {
		if (lanes == 16) { /* the default 1 x 16 row: stores, not calls */
			std::memset(acc + r * 16, 0, 16 * sizeof(int32_t));
			std::memset(out + r * 16, 0, 16);
		} else {
			vtasim_gemm_reset(acc + r * lanes, out + r * lanes, (unsigned)lanes);
		}
	};
	for_rows(live_dst_, l.iter_out, l.iter_in, l.dst_factor_out, l.dst_factor_in, zero);
	return (uint64_t)l.iter_out * l.iter_in * (l.uop_end - l.uop_bgn);
}

/* A GEMM nest nest_clean passed, on the C datapath: the WGT rows it reads made ready first
 * (per distinct row), then the uop loop alone, small enough for the compiler to keep in
 * registers. Returns the uops run. */
uint64_t compute_unit::gemm_nest(const vta_loop &l)
{
	gemm_feed f = feed();
	const sram::decoded_uop *uops = hw_.mem[VTA_MEM_UOP]->uops().data();
	const uint64_t w_row = gemm_.pack ? gemm_.packed_bytes : f.wgt_row;
	const int8_t *w_base = gemm_.pack ? f.packed : f.wgt;
	if (gemm_.pack) {
		live_wgt_.clear();
		for (uint32_t upc = l.uop_bgn; upc < l.uop_end; upc++)
			live_wgt_.push_back(uops[upc].wgt);
		distinct(live_wgt_);
		for_rows(live_wgt_, l.iter_out, l.iter_in, l.wgt_factor_out, l.wgt_factor_in,
			 [&](uint32_t w) { f.wgt_row_of(w); });
	}
	/* the kernel walks the nest: its uops' rows as offsets from the SRAMs */
	const uint64_t K = l.uop_end - l.uop_bgn;
	nest_at_.resize(3 * K);
	nest_scratch_.resize(2 * K);
	uint64_t *inp_at = nest_at_.data(), *wgt_at = inp_at + K, *dst_at = wgt_at + K;
	for (uint64_t k = 0; k < K; k++) {
		const sram::decoded_uop &u = uops[l.uop_bgn + k];
		inp_at[k] = u.src * f.inp_row;
		wgt_at[k] = u.wgt * w_row;
		dst_at[k] = u.dst * f.lanes;
	}
	const vtasim_gemm_nest n{inp_at,
				 wgt_at,
				 dst_at,
				 K,
				 l.iter_out,
				 l.iter_in,
				 l.src_factor_out * f.inp_row,
				 l.src_factor_in * f.inp_row,
				 l.wgt_factor_out * w_row,
				 l.wgt_factor_in * w_row,
				 l.dst_factor_out * f.lanes,
				 l.dst_factor_in * f.lanes,
				 f.inp,
				 w_base,
				 f.acc,
				 f.out,
				 nest_scratch_.data()};
	gemm_.nest(&n, f.batch, f.bin, f.bout);
	return(uint64_t)l.iter_out * l.iter_in * (l.uop_end - l.uop_bgn);
}

/*
 * Whether no uop of the nest can fail a check, decided from the kernel rather than per uop:
 * every uop of the kernel decodes; the rows of the last iteration, the largest (factors are
 * unsigned), lie in their SRAMs; and no ACC row comes again within acc_dep_distance uops
 * (vta_nest_acc_clear). When it says no, the uops run with the per-uop checks, which find
 * what and where exactly.
 */
bool compute_unit::nest_clean(const vta_insn &insn, const vta_uop_bounds &bounds) const
{
	const vta_loop &l = insn.loop;
	const uint64_t k_len = l.uop_end - l.uop_bgn, iters = (uint64_t)l.iter_out * l.iter_in;
	if (k_len == 0 || iters == 0)
		return true;
	const sram::decoded_uop *u = hw_.mem[VTA_MEM_UOP]->uops().data() + l.uop_bgn;
	uint64_t dst = 0, src = 0, wgt = 0;
	for (uint64_t k = 0; k < k_len; k++) {
		if (!u[k].ok)
			return false;
		dst = std::max<uint64_t>(dst, u[k].dst);
		src = std::max<uint64_t>(src, u[k].src);
		wgt = std::max<uint64_t>(wgt, u[k].wgt);
	}
	const uint64_t o = l.iter_out - 1, i = l.iter_in - 1;
	if (!vta_uop_in_bounds(&bounds, dst + o * l.dst_factor_out + i * l.dst_factor_in,
			       src + o * l.src_factor_out + i * l.src_factor_in,
			       wgt + o * l.wgt_factor_out + i * l.wgt_factor_in))
		return false;
	static_assert(sizeof(sram::decoded_uop) % sizeof(uint32_t) == 0, "uops as dst words");
	return vta_nest_acc_clear(&l, &u[0].dst, sizeof(sram::decoded_uop) / sizeof(uint32_t),
				  ctl_.cfg.acc_dep_distance);
}

template <int KIND, bool RTL, bool WRAPS>
void compute_unit::run_nest(const vta_insn &insn, vta_error &why)
{
	vta_uop_bounds bounds;
	vta_uop_bounds_of(&ctl_.cfg, &insn, &bounds);
	if (RTL || !nest_clean(insn, bounds)) {
		run_uops<KIND, RTL, WRAPS, true>(insn, why);
	} else if (KIND == K_GEMM) {
		const uint64_t done = gemm_nest(insn.loop);
		uop_clock_ += done;
		account<KIND, RTL>(insn, done, why);
	} else if (KIND == K_RESET) {
		const uint64_t done = reset_nest(insn.loop);
		uop_clock_ += done;
		account<KIND, RTL>(insn, done, why);
	} else if (KIND == K_ALU && !WRAPS) {
		const uint64_t done = alu_nest(insn);
		uop_clock_ += done;
		account<KIND, RTL>(insn, done, why);
	} else {
		run_uops<KIND, RTL, WRAPS, false>(insn, why);
	}
}

template <int KIND, bool RTL, bool WRAPS, bool CHECKED>
void compute_unit::run_uops(const vta_insn &insn, vta_error &why)
{
	const vta_config &cfg = ctl_.cfg;
	const vta_loop &l = insn.loop;
	const bool use_imm = KIND == K_ALU && insn.alu.use_imm;
	/* alu.imm_operand src: ACC[dst] = op(ACC[src], imm), i.e. the source row copied to dst,
	 * then the immediate op in place */
	const bool imm_src = KIND == K_ALU && vta_alu_imm_reads_src(&cfg, &insn);
	const uint32_t op = insn.alu.op;
	const int32_t imm = insn.alu.imm;

	sram &U = *hw_.mem[VTA_MEM_UOP], &A = *hw_.mem[VTA_MEM_ACC], &O = *hw_.mem[VTA_MEM_OUT];
	const sram::decoded_uop *uops = U.uops().data();
	int32_t *acc = A.i32();
	int8_t *out = O.i8();
	uint64_t *written_at = acc_written_at_.data();

	const uint64_t lanes = (uint64_t)cfg.batch * cfg.block_out;
	gemm_feed f = feed(); /* GEMM on the C datapath */
	vta_uop_bounds bounds;
	vta_uop_bounds_of(&cfg, &insn, &bounds);
	const uint64_t dist = cfg.acc_dep_distance;
	const uint64_t first_stamp = uop_clock_;
	uint64_t clock = uop_clock_; /* a local: the kernel's calls cannot change it */
	uint64_t done = 0;
	vta_rtl_compute *rtl = RTL ? hw_.rtl->compute() : nullptr;

	for (uint32_t o = 0; o < l.iter_out && why.status == VTA_OK; o++) {
		for (uint32_t i = 0; i < l.iter_in && why.status == VTA_OK; i++) {
			const nest_offsets off(l, o, i);
			const uint64_t dst_off = off.dst, src_off = off.src, wgt_off = off.wgt;
			for (uint32_t upc = l.uop_bgn; upc < l.uop_end; upc++) {
				const sram::decoded_uop &u = uops[upc];
				const uint64_t dst = u.dst + dst_off, src = u.src + src_off,
					       w = u.wgt + wgt_off;
				if (CHECKED && __builtin_expect(!u.ok, 0)) {
					vta_error sub{};
					vta_uop ignored;
					vta_uop_decode(
						&cfg,
						U.bytes() +
							(uint64_t)upc *
								cfg.sram[VTA_MEM_UOP].elem_bytes,
						&ignored, &sub);
					vta_fail(&why, VTA_E_STREAM, "uop %u: %s", upc, sub.detail);
					break;
				}
				if (CHECKED &&
				    __builtin_expect(!vta_uop_in_bounds(&bounds, dst, src, w), 0)) {
					vta_uop_oob_fail(&bounds, upc, o, i, dst, src, w, &why);
					break;
				}
				if (CHECKED && dist > 0) {
					/* uops since this insn last wrote the row, 0: never */
					const uint64_t last = written_at[dst];
					const uint64_t gap = last >= first_stamp ? clock - last : 0;
					if (__builtin_expect(vta_acc_hazard(gap, dist), 0)) {
						vta_acc_hazard_fail(dst, gap, (uint32_t)dist, upc,
								    o, i, &why);
						break;
					}
					written_at[dst] = clock;
				}
				clock++;
				done++;

				if (RTL) /* its SRAM accesses count when the instruction ends */
					rtl_rows_.push_back({upc, (uint32_t)dst, (uint32_t)src, (uint32_t)w});
				int32_t *acc_row = acc + dst * lanes;
				int8_t *out_row = out + dst * lanes;
				if (!RTL && imm_src && src != dst)
					std::memcpy(acc_row, acc + src * lanes, lanes * sizeof(int32_t));
				if (WRAPS && RTL)
					wraps_.uop_shadowed(acc, A.depth(), (uint32_t)dst, (uint32_t)src,
							    use_imm, imm_src, imm);
				else if (WRAPS)
					wraps_.uop(acc_row, use_imm ? nullptr : acc + src * lanes, imm);
				if (RTL)
					vta_rtl_compute_uop(rtl, (uint32_t)dst, (uint32_t)src,
							    (uint32_t)w, KIND == K_RESET);
				else if (KIND == K_RESET)
					vtasim_gemm_reset(acc_row, out_row, (unsigned)lanes);
				else if (KIND == K_ALU)
					vtasim_alu_row(op, acc_row, use_imm ? nullptr : acc + src * lanes,
						       imm, out_row, (unsigned)lanes);
				else
					f.add(src, f.wgt_row_of(w), dst);
			}
		}
	}
	f.flush(); /* the uops before a failed check ran too */
	uop_clock_ = clock;
	account<KIND, RTL>(insn, done, why);
}

/* The ACC and OUT rows a nest may have written, every row of its kernel's over all its
 * iterations (more than it wrote when it stopped early), for the SRAMs' next reset: a nest
 * writes them in place, not through note_write_range. */
void compute_unit::note_dst_rows(const vta_insn &insn)
{
	const vta_loop &l = insn.loop;
	const std::vector<sram::decoded_uop> &uops = hw_.mem[VTA_MEM_UOP]->uops();
	const uint64_t end = std::min<uint64_t>(l.uop_end, uops.size());
	uint64_t lo = UINT64_MAX, hi = 0;
	for (uint64_t upc = l.uop_bgn; upc < end; upc++) {
		lo = std::min<uint64_t>(lo, uops[upc].dst);
		hi = std::max<uint64_t>(hi, uops[upc].dst);
	}
	if (lo > hi || l.iter_out == 0 || l.iter_in == 0)
		return;
	hi += (uint64_t)(l.iter_out - 1) * l.dst_factor_out +
	      (uint64_t)(l.iter_in - 1) * l.dst_factor_in;
	hw_.mem[VTA_MEM_ACC]->note_dirty(lo, hi + 1);
	hw_.mem[VTA_MEM_OUT]->note_dirty(lo, hi + 1);
}

/* The liveness and the SRAM and uop counters of the first `done` uops of a nest. */
template <int KIND, bool RTL>
void compute_unit::account(const vta_insn &insn, uint64_t done, const vta_error &why)
{
	const bool use_imm = KIND == K_ALU && insn.alu.use_imm;
	const uint32_t e = ctl_.epoch();
	sram &U = *hw_.mem[VTA_MEM_UOP], &I = *hw_.mem[VTA_MEM_INP], &W = *hw_.mem[VTA_MEM_WGT];
	sram &A = *hw_.mem[VTA_MEM_ACC], &O = *hw_.mem[VTA_MEM_OUT];

	if (done)
		note_dst_rows(insn);

	/* the liveness of the uops executed (the RTL's: when the instruction ends) */
	vta_uop_roles roles;
	vta_uop_roles_of(&ctl_.cfg, &insn, &roles);
	if (!RTL && why.status == VTA_OK && done)
		note_live_loop(insn, roles, e);
	else if (!RTL && done)
		note_live_prefix(insn, roles, e, done);

	/* row accesses of the uops executed */
	U.add_reads(done);
	A.add_writes(done);
	O.add_writes(done);
	if (KIND == K_GEMM) {
		I.add_reads(done);
		W.add_reads(done);
		A.add_reads(done);
	} else if (KIND == K_ALU) {
		A.add_reads(done * (use_imm ? 1 : 2)); /* dst or src, and src */
	}
	if (insn.opcode == VTA_OP_ALU) {
		hw_.alu_uops += done;
		if (use_imm)
			hw_.alu_imm_uops += done;
	} else {
		hw_.gemm_uops += done;
		if (KIND == K_RESET)
			hw_.gemm_reset_uops += done;
	}
}

} // namespace vtasim
