/*
 * sram_live.h - peak live bytes of one SRAM, tracked at the cost of the row accesses.
 *
 * Definition: docs/architecture.md "Live bytes". The intervals are half-open, [write, last
 * read), so the value that replaces a consumed one in the same instruction is not counted
 * twice and the peak can never exceed the SRAM's capacity.
 *
 * Implementation. Effects happen at non-decreasing simulated times, so times are numbered
 * by "epochs" (one per distinct time with an SRAM access; the caller supplies the current
 * epoch). Per row we keep the epoch of the current value's write and of its last read;
 * when the value dies (overwritten, or the run ends) its interval [write, last read] is
 * added to a per-epoch difference array (+bytes at write, -bytes at the last read). One
 * prefix sum at the end gives the peak. Cost: O(1) per access, O(epochs + rows written) per
 * run, independent of the number of cycles.
 */
#ifndef VTASIM_SRAM_LIVE_H
#define VTASIM_SRAM_LIVE_H

#include <cstdint>
#include <vector>

namespace vtasim {

class sram_live {
public:
	static constexpr uint32_t none = UINT32_MAX;

	void reset(uint32_t rows, uint64_t row_bytes)
	{
		/* after finish() every row is closed already: only a run cut short leaves some
		 * open */
		if (rows_.size() != rows || !open_.empty())
			rows_.assign(rows, value{});
		open_.clear();
		delta_.clear();
		row_bytes_ = row_bytes;
	}

	void read(uint32_t row, uint32_t epoch)
	{
		value &v = rows_[row];
		if (v.written != none)
			v.last_read = epoch;
	}

	void write(uint32_t row, uint32_t epoch)
	{
		value &v = rows_[row];
		if (v.written == none)
			open_.push_back(row);
		close(v);
		v.written = epoch;
	}

	/* Close every value still open and return the peak live bytes of the run. */
	uint64_t finish()
	{
		for (uint32_t row : open_)
			close(rows_[row]);
		open_.clear();
		int64_t live = 0, peak = 0;
		for (int64_t d : delta_) {
			live += d;
			if (live > peak)
				peak = live;
		}
		return (uint64_t)peak;
	}

	/* After finish(): the change of the live bytes at each epoch (index: the epoch). */
	const std::vector<int64_t> &deltas() const { return delta_; }

private:
	/* one row's current value: the epochs of its write and last read (one cache line
	 * holds both) */
	struct value {
		uint32_t written = none, last_read = none;
	};

	void close(value &v)
	{
		const uint32_t w = v.written, r = v.last_read;
		v.written = v.last_read = none;
		if (w == none || r == none || r == w)
			return;
		if (delta_.size() < (size_t)r + 1)
			delta_.resize((size_t)r + 1 + delta_.size() / 2, 0);
		delta_[w] += (int64_t)row_bytes_;
		delta_[r] -= (int64_t)row_bytes_;
	}

	std::vector<value> rows_;
	std::vector<uint32_t> open_; /* the rows written since the last finish(), each once */
	std::vector<int64_t> delta_;
	uint64_t row_bytes_ = 0;
};

} // namespace vtasim

#endif /* VTASIM_SRAM_LIVE_H */
