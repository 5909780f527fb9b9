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
 * run, independent of the number of cycles. An instruction's many accesses go through
 * at_epoch, which keeps the per-access work to a few loads and stores (it is a tenth of a
 * depthwise model's simulation otherwise).
 */
#ifndef VTASIM_SRAM_LIVE_H
#define VTASIM_SRAM_LIVE_H

#include <cstdint>
#include <vector>

namespace vtasim {

class sram_live {
public:
	static constexpr uint32_t none = UINT32_MAX;

private:
	/* One row's current value: the epochs of its write and of its last read, which is the
	 * write's own until a later read (an empty interval). A row nothing wrote has written
	 * == none and any last_read (a read does not look): its first write drops it. */
	struct value {
		uint32_t written = none, last_read = none;
	};

public:
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

	/*
	 * The accesses of one instruction, all at one epoch: the difference array reaches the
	 * epoch once, and the rows and the array are plain pointers in the loops (an access
	 * never moves them: a value's epochs are at most the current one). Valid while no
	 * other access to the SRAM's liveness is made.
	 */
	class at_epoch {
	public:
		at_epoch(sram_live &l, uint32_t epoch)
		    : live_(l), row_((l.reach(epoch), l.rows_.data())), diff_(l.delta_.data()),
		      bytes_((int64_t)l.row_bytes_), epoch_(epoch)
		{
		}

		void read(uint32_t row)
		{
			read_rows([row](auto f) { f(row); });
		}
		void write(uint32_t row)
		{
			write_rows([row](auto f) { f(row); });
		}

		/*
		 * In bulk, over the rows `each` gives (each(f) calls f(row) per row), the
		 * state in registers; read_write_rows is read then write per row, as a uop
		 * that adds to its ACC row. The ends of the values it closes, all at this
		 * epoch, are summed there (adding to one memory word row after row would chain
		 * each row's work behind the last's).
		 */
		template <typename EACH> void read_rows(EACH each) const
		{
			value *const rows = row_;
			const uint32_t e = epoch_;
			each([=](uint32_t row) { rows[row].last_read = e; });
		}

		template <typename EACH> void read_write_rows(EACH each) { written<true>(each); }
		template <typename EACH> void write_rows(EACH each) { written<false>(each); }

	private:
		/* The rows written at this epoch, each read first when READ: the value a row
		 * held ends here, else at its last read. */
		template <bool READ, typename EACH> void written(EACH each)
		{
			value *const rows = row_;
			int64_t *const diff = diff_;
			const int64_t bytes = bytes_;
			const uint32_t e = epoch_;
			std::vector<uint32_t> &open = live_.open_;
			int64_t ending = 0; /* READ: the bytes whose values end here */
			each([&](uint32_t row) {
				value &v = rows[row];
				if (v.written == none) {
					open.push_back(row);
				} else {
					diff[v.written] += bytes;
					if (READ)
						ending += bytes;
					else
						diff[v.last_read] -= bytes;
				}
				v = {e, e};
			});
			diff[e] -= ending;
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
		for (uint32_t row : open_) {
			value &v = rows_[row];
			delta_[v.written] += (int64_t)row_bytes_; /* reach()ed when read or written */
			delta_[v.last_read] -= (int64_t)row_bytes_;
			v = value{};
		}
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

	/* the difference array long enough for the epoch */
	void reach(uint32_t epoch)
	{
		if (delta_.size() <= (size_t)epoch)
			delta_.resize((size_t)epoch + 1 + delta_.size() / 2, 0);
	}

	std::vector<value> rows_;
	std::vector<uint32_t> open_; /* the rows written since the last finish(), each once */
	std::vector<int64_t> delta_;
	uint64_t row_bytes_ = 0;
};

} // namespace vtasim

#endif /* VTASIM_SRAM_LIVE_H */
