/*
 * nest_rows.h - the rows a loop nest's uops reach in one space: base[k] + o * fo + i * fi
 * for each distinct base index k, outer iteration o and inner iteration i (docs/isa.md
 * "GEMM and ALU: the loop nest"), one by one or as ranges of consecutive rows (found by
 * vta_nest_ranges.h, as the stream checks find them). SRAM liveness (sram_live.h) takes a
 * nest's accesses as ranges.
 */
#ifndef VTASIM_NEST_ROWS_H
#define VTASIM_NEST_ROWS_H

#include <cstdint>
#include <new>
#include <vector>

#include "vta_nest_ranges.h"

namespace vtasim {

/* The rows base[k] + o * fo + i * fi of the loop nest, each distinct base once, the loop
 * levels whose factor is 0 once: a row may come more than once (ranges can overlap), which
 * liveness does not mind. */
template <typename F>
inline void for_rows(const std::vector<uint32_t> &base, uint32_t iter_out, uint32_t iter_in,
		     uint64_t fo, uint64_t fi, F f)
{
	if (iter_out == 0 || iter_in == 0) /* an empty nest reads no row */
		return;
	const uint32_t no = fo ? iter_out : 1, ni = fi ? iter_in : 1;
	/* the base in locals: f writes memory the compiler cannot tell from the vector's */
	const uint32_t *b = base.data();
	const size_t n = base.size();
	for (uint32_t o = 0; o < no; o++) {
		const uint64_t off_o = (uint64_t)o * fo;
		if (n == 1) /* one row per iteration: an ALU nest's usual kernel */
			for (uint32_t i = 0; i < ni; i++)
				f((uint32_t)(b[0] + off_o + (uint64_t)i * fi));
		else
			for (uint32_t i = 0; i < ni; i++) {
				const uint64_t off = off_o + (uint64_t)i * fi;
				for (size_t k = 0; k < n; k++)
					f((uint32_t)(b[k] + off));
			}
	}
}

/* What for_ranges works in, kept by its caller between nests. */
struct range_scratch {
	vta_nest_ranges r{};
	range_scratch() = default;
	range_scratch(const range_scratch &) = delete;
	range_scratch &operator=(const range_scratch &) = delete;
	~range_scratch() { vta_nest_ranges_free(&r); }
};

/* The rows of for_rows over a sorted distinct base as ranges of consecutive rows, f(first,
 * count) each, ascending and apart (vta_nest_ranges.h: the base's runs plus each loop
 * level's multiples of its factor, the rows listed and sorted when the levels cannot keep
 * them to a few ranges). */
template <typename F>
inline void for_ranges(const std::vector<uint32_t> &base, uint32_t iter_out, uint32_t iter_in,
		       uint64_t fo, uint64_t fi, range_scratch &s, F f)
{
	if (!vta_nest_ranges_of(&s.r, base.data(), base.size(), iter_out, iter_in, fo, fi))
		throw std::bad_alloc();
	for (size_t k = 0; k < s.r.n; k++)
		f((uint32_t)s.r.v[k].first, s.r.v[k].end - s.r.v[k].first);
}

} // namespace vtasim

#endif /* VTASIM_NEST_ROWS_H */
