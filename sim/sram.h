/*
 * sram.h - one on-chip SRAM (UOP, INP, WGT, ACC or OUT): exact contents, sized from the
 * config, in the reference executor's row layout (vta_ref.h), plus access accounting.
 *
 * Models: storage and counters only. Timing: none of its own (SRAM accesses are folded
 * into the per-instruction costs of the modules; there are no port conflicts). Accounting:
 * reads and writes count row accesses (a GEMM uop reads one UOP, INP, WGT and ACC row and
 * writes one ACC and OUT row); peak live bytes per sram_live.h.
 * The UOP SRAM also keeps every uop decoded beside its raw bytes (filled when a LOAD UOP
 * executes) so GEMM/ALU never decode in their inner loops. Every SRAM flags the rows written
 * since a reader last cleared their flag, for copies of rows kept in another layout (the
 * GEMM kernel's packed WGT rows, compute_unit.h).
 */
#ifndef VTASIM_SRAM_H
#define VTASIM_SRAM_H

#include <systemc>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "sram_live.h"
#include "vta_insn.h"

namespace vtasim {

class sram : public sc_core::sc_module {
public:
	sram(sc_core::sc_module_name name, uint32_t depth, uint32_t row_bytes,
	     bool holds_uops = false);

	uint32_t depth() const { return depth_; }
	uint32_t row_bytes() const { return row_bytes_; }
	uint64_t size_bytes() const { return (uint64_t)depth_ * row_bytes_; }

	/* Storage is int32 words so every typed view is a legal access. */
	uint8_t *bytes() { return reinterpret_cast<uint8_t *>(words_.data()); }
	const uint8_t *bytes() const { return reinterpret_cast<const uint8_t *>(words_.data()); }
	int8_t *i8() { return reinterpret_cast<int8_t *>(words_.data()); }
	int32_t *i32() { return words_.data(); }

	/* Zero the contents and the counters for a new run (the contents: the rows that may
	 * have been written since the last reset). */
	void reset();

	/* A contiguous range of rows (a DMA). Every write of the contents (a LOAD's DMA, the
	 * LUT decoder's rows) is noted here, after it: the rows' rewritten flags are set. */
	void note_read_range(uint64_t first, uint64_t count, uint32_t epoch);
	void note_write_range(uint64_t first, uint64_t count, uint32_t epoch);
	/* Rows [first, end) that may have been written, for the next reset to clear (what
	 * note_write_range does besides; the compute module's ACC and OUT rows, whose
	 * accounting is its own, come here alone). */
	void note_dirty(uint64_t first, uint64_t end)
	{
		if (end <= first)
			return;
		if (dirty_hi_ == dirty_lo_) {
			dirty_lo_ = first;
			dirty_hi_ = end;
		} else {
			dirty_lo_ = std::min(dirty_lo_, first);
			dirty_hi_ = std::max(dirty_hi_, end);
		}
	}
	/* Per row, 1 when written (or cleared by a reset) since a reader set it to 0; every row
	 * starts at 1. */
	uint8_t *rewritten() { return rewritten_.data(); }
	/* Bulk counter updates for inner loops that track liveness themselves. */
	sram_live &live() { return live_; }
	void add_reads(uint64_t n) { reads_ += n; }
	void add_writes(uint64_t n) { writes_ += n; }

	uint64_t reads() const { return reads_; }
	uint64_t writes() const { return writes_; }
	/* Peak live bytes; call once at the end of a run. */
	uint64_t finish_peak() { return live_.finish(); }
	/* After finish_peak(): the live bytes' change at each epoch (sram_live.h). */
	const std::vector<int64_t> &live_deltas() const { return live_.deltas(); }

	/* UOP SRAM only: decoded uops and whether each decodes. */
	struct decoded_uop {
		uint32_t dst, src, wgt;
		bool ok;
	};
	std::vector<decoded_uop> &uops() { return uops_; }

private:
	uint32_t depth_, row_bytes_;
	bool holds_uops_;
	uint64_t dirty_lo_ = 0, dirty_hi_ = 0; /* the rows noted written since the last reset */
	std::vector<int32_t> words_;
	std::vector<decoded_uop> uops_;
	std::vector<uint8_t> rewritten_;
	uint64_t reads_ = 0, writes_ = 0;
	sram_live live_;
};

} // namespace vtasim

#endif /* VTASIM_SRAM_H */
