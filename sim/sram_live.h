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
 *
 * Accesses come as ranges of consecutive rows (an instruction's rows in one space are
 * nearly always one range, whatever order its uops take them in). Rows next to each other
 * were mostly written and read by the same instructions, so a range is walked as runs of
 * rows with the same epochs: a run's values end with one change to the difference array,
 * and writing is a fill. An access's order within one epoch does not matter (at one epoch,
 * a read after the row's first write there, and every write after that one, change nothing:
 * the interval [e, e) is empty), and neither does a row given twice.
 */
#ifndef VTASIM_SRAM_LIVE_H
#define VTASIM_SRAM_LIVE_H

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace vtasim {

class sram_live {
public:
	static constexpr uint32_t none = UINT32_MAX;

private:
	/* One row's current value: the epochs of its write (low half) and of its last read
	 * (high half), which is the write's own until a later read (an empty interval). A row
	 * nothing wrote has written == none and any last_read (a read does not look): its
	 * first write drops it. One word, so that a range compares and fills a word a row. */
	typedef uint64_t value;
	static constexpr value unwritten = none;
	static uint32_t written_of(value v) { return (uint32_t)v; }
	static uint32_t last_read_of(value v) { return (uint32_t)(v >> 32); }
	static value value_of(uint32_t written, uint32_t last_read)
	{
		return written | (uint64_t)last_read << 32;
	}

public:
	void reset(uint32_t rows, uint64_t row_bytes)
	{
		/* after finish() every row is closed already: only a run cut short leaves some
		 * written */
		if (rows_.size() != rows)
			rows_.assign(rows, unwritten);
		else
			std::fill(rows_.begin() + lo_, rows_.begin() + hi_, unwritten);
		lo_ = hi_ = 0;
		delta_.clear();
		row_bytes_ = row_bytes;
	}

	/*
	 * The accesses of one instruction, all at one epoch: the difference array reaches the
	 * epoch once, and the rows and the array are plain pointers in the loops (an access
	 * never moves them: a value's epochs are at most the current one). Valid while no
	 * other access to the SRAM's liveness is made. Rows past the SRAM are not tracked.
	 */
	class at_epoch {
	public:
		at_epoch(sram_live &l, uint32_t epoch)
		    : live_(l), row_((l.reach(epoch), l.rows_.data())), diff_(l.delta_.data()),
		      bytes_((int64_t)l.row_bytes_), epoch_(epoch)
		{
		}

		void read(uint32_t row) { read_range(row, 1); }
		void write(uint32_t row) { write_range(row, 1); }

		/* rows [first, first + count) read */
		void read_range(uint32_t first, uint64_t count)
		{
			const uint32_t end = live_.clamp(first, count);
			const value e = (value)epoch_ << 32;
			for (uint32_t r = first; r < end; r++) /* on a row never written: no matter */
				row_[r] = (row_[r] & UINT32_MAX) | e;
		}
		/* ... written */
		void write_range(uint32_t first, uint64_t count) { written<false>(first, count); }
		/* ... read, then written (a uop that adds to its ACC row) */
		void read_write_range(uint32_t first, uint64_t count)
		{
			written<true>(first, count);
		}

	private:
		/* The rows written at this epoch, each read first when READ: the value a row
		 * held ends here, else at its last read. A run of rows with one value ends at
		 * once. */
		template <bool READ> void written(uint32_t first, uint64_t count)
		{
			const uint32_t end = live_.clamp(first, count);
			if (first >= end)
				return;
			int64_t *const diff = diff_;
			const int64_t bytes = bytes_;
			int64_t ending = 0; /* READ: the bytes whose values end here */
			const auto close = [&](value v, uint64_t n) {
				if (written_of(v) == none)
					return;
				const int64_t b = bytes * (int64_t)n;
				diff[written_of(v)] += b;
				if (READ)
					ending += b;
				else
					diff[last_read_of(v)] -= b;
			};
			value *const rows = row_;
			const value v0 = rows[first];
			if (same(rows, first, end)) { /* the usual: one value throughout */
				close(v0, end - first);
			} else {
				value run = v0;
				uint32_t from = first;
				for (uint32_t r = first + 1; r < end; r++)
					if (rows[r] != run) {
						close(run, r - from);
						run = rows[r];
						from = r;
					}
				close(run, end - from);
			}
			fill(rows, first, end, value_of(epoch_, epoch_));
			diff[epoch_] -= ending;
			live_.note_written(first, end);
		}

		/* Whether rows [first, end) all hold rows[first]: each row against the one
		 * before it, by the C library's vector compare. */
		static bool same(const value *rows, uint32_t first, uint32_t end)
		{
			return std::memcmp(rows + first, rows + first + 1,
					   (size_t)(end - first - 1) * sizeof(value)) == 0;
		}

		/* rows [first, end) set to v, four a step */
		static void fill(value *rows, uint32_t first, uint32_t end, value v)
		{
			uint32_t r = first;
			for (; r + 4 <= end; r += 4) {
				rows[r] = v;
				rows[r + 1] = v;
				rows[r + 2] = v;
				rows[r + 3] = v;
			}
			for (; r < end; r++)
				rows[r] = v;
		}

		sram_live &live_;
		value *const row_;
		int64_t *const diff_;
		const int64_t bytes_;
		const uint32_t epoch_;
	};

	void read(uint32_t row, uint32_t epoch) { at_epoch(*this, epoch).read(row); }
	void write(uint32_t row, uint32_t epoch) { at_epoch(*this, epoch).write(row); }

	/* Close every value still open and return the peak live bytes of the run. */
	uint64_t finish()
	{
		for (uint32_t r = lo_; r < hi_; r++) {
			const value v = rows_[r];
			if (written_of(v) != none) {
				/* reach()ed when written */
				delta_[written_of(v)] += (int64_t)row_bytes_;
				delta_[last_read_of(v)] -= (int64_t)row_bytes_;
			}
			rows_[r] = unwritten;
		}
		lo_ = hi_ = 0;
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
	/* the difference array long enough for the epoch */
	void reach(uint32_t epoch)
	{
		if (delta_.size() <= (size_t)epoch)
			delta_.resize((size_t)epoch + 1 + delta_.size() / 2, 0);
	}

	/* The end of rows [first, first + count) within the SRAM. */
	uint32_t clamp(uint32_t first, uint64_t count) const
	{
		const uint64_t end = (uint64_t)first + count;
		return (uint32_t)std::min<uint64_t>(end, rows_.size());
	}

	/* Rows [first, end) hold values of this run. */
	void note_written(uint32_t first, uint32_t end)
	{
		if (lo_ == hi_) {
			lo_ = first;
			hi_ = end;
		} else {
			lo_ = std::min(lo_, first);
			hi_ = std::max(hi_, end);
		}
	}

	std::vector<value> rows_;
	uint32_t lo_ = 0, hi_ = 0; /* the rows written since the last finish() lie in [lo_, hi_) */
	std::vector<int64_t> delta_;
	uint64_t row_bytes_ = 0;
};

} // namespace vtasim

#endif /* VTASIM_SRAM_LIVE_H */
