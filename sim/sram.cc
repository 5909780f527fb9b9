/*
 * sram.cc - storage, reset and range accounting of one SRAM (see sram.h).
 */
#include "sram.h"

#include <algorithm>

namespace vtasim {

sram::sram(sc_core::sc_module_name name, uint32_t depth, uint32_t row_bytes, bool holds_uops)
    : sc_core::sc_module(name), depth_(depth), row_bytes_(row_bytes), holds_uops_(holds_uops),
      words_((size_bytes() + 3) / 4, 0),
      uops_(holds_uops ? depth : 0, decoded_uop{0, 0, 0, true}), /* an all-zero uop decodes */
      rewritten_(depth, 1)
{
}

void sram::reset()
{
	/* the words holding those rows (a word shared with a clean row clears zeros again) */
	const uint64_t lo = std::min<uint64_t>(dirty_lo_ * row_bytes_ / 4, words_.size());
	const uint64_t hi = std::min<uint64_t>((dirty_hi_ * row_bytes_ + 3) / 4, words_.size());
	if (hi > lo)
		std::fill(words_.begin() + (ptrdiff_t)lo, words_.begin() + (ptrdiff_t)hi, 0);
	/* the noted rows may run past the SRAM (a nest's rows, noted before its checks) */
	const uint64_t end = std::min<uint64_t>(dirty_hi_, depth_);
	if (holds_uops_ && end > dirty_lo_)
		std::fill(uops_.begin() + (ptrdiff_t)dirty_lo_, uops_.begin() + (ptrdiff_t)end,
			  decoded_uop{0, 0, 0, true});
	/* the rows cleared changed; the others hold what they held (zeros) */
	if (end > dirty_lo_)
		std::fill(rewritten_.begin() + (ptrdiff_t)dirty_lo_,
			  rewritten_.begin() + (ptrdiff_t)end, 1);
	dirty_lo_ = dirty_hi_ = 0;
	reads_ = writes_ = 0;
	live_.reset(depth_, row_bytes_);
}

void sram::note_read_range(uint64_t first, uint64_t count, uint32_t epoch)
{
	reads_ += count;
	if (first < depth_)
		sram_live::at_epoch(live_, epoch).read_range((uint32_t)first, count);
}

void sram::note_write_range(uint64_t first, uint64_t count, uint32_t epoch)
{
	writes_ += count;
	note_dirty(first, first + count);
	if (first < depth_)
		sram_live::at_epoch(live_, epoch).write_range((uint32_t)first, count);
	std::fill(rewritten_.begin() + (ptrdiff_t)first, rewritten_.begin() + (ptrdiff_t)(first + count),
		  1);
}

} // namespace vtasim
