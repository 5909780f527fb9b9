/*
 * nest_rows.h - the rows a loop nest's uops reach in one space: base[k] + o * fo + i * fi
 * for each distinct base index k, outer iteration o and inner iteration i (docs/isa.md
 * "GEMM and ALU: the loop nest"), one by one or as ranges of consecutive rows. SRAM liveness
 * (sram_live.h) takes a nest's accesses this way.
 */
#ifndef VTASIM_NEST_ROWS_H
#define VTASIM_NEST_ROWS_H

#include <algorithm>
#include <cstdint>
#include <vector>

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

/* Rows [first, end). */
struct row_range {
	uint64_t first, end;
};

/* What for_ranges works in, kept by its caller between nests. */
struct range_scratch {
	std::vector<row_range> ranges, next;
	std::vector<uint32_t> rows;
};

/* Sort ranges by their first rows and merge those that meet or overlap. */
inline void merge_ranges(std::vector<row_range> &v)
{
	std::sort(v.begin(), v.end(),
		  [](const row_range &a, const row_range &b) { return a.first < b.first; });
	size_t n = 0;
	for (const row_range &r : v) {
		if (n && r.first <= v[n - 1].end)
			v[n - 1].end = std::max(v[n - 1].end, r.end);
		else
			v[n++] = r;
	}
	v.resize(n);
}

/* The most ranges a nest's rows are tracked in before they are listed instead. */
constexpr size_t nest_ranges_max = 256;

/* s.ranges plus the multiples 0..n-1 of step, merged: a range at least step long grows by
 * (n - 1) steps, a shorter one is copied n times. False when that gives more than
 * nest_ranges_max ranges or reaches past 2^32 (where a uop's 32-bit row index wraps). */
inline bool add_level(range_scratch &s, uint64_t step, uint32_t n)
{
	if (step == 0 || n <= 1)
		return true;
	if (step > UINT32_MAX)
		return false;
	const uint64_t reach = (uint64_t)(n - 1) * step; /* below 2^64: both below 2^32 */
	s.next.clear();
	for (const row_range &r : s.ranges) {
		if (r.end + reach > (uint64_t)UINT32_MAX + 1)
			return false;
		if (r.end - r.first >= step) {
			s.next.push_back({r.first, r.end + reach});
			continue;
		}
		if (s.next.size() + n > nest_ranges_max)
			return false;
		for (uint64_t k = 0; k < n; k++)
			s.next.push_back({r.first + k * step, r.end + k * step});
	}
	merge_ranges(s.next);
	s.ranges.swap(s.next);
	return true;
}

/* The runs of consecutive rows of a sorted distinct base into s.ranges. */
inline void base_ranges(const std::vector<uint32_t> &base, range_scratch &s)
{
	s.ranges.clear();
	for (uint32_t b : base) {
		if (!s.ranges.empty() && s.ranges.back().end == b)
			s.ranges.back().end++;
		else
			s.ranges.push_back({b, (uint64_t)b + 1});
	}
}

/*
 * The rows of for_rows over a sorted distinct base as ranges of consecutive rows, f(first,
 * count) each. The base's runs plus one loop level's multiples of its factor, then the
 * other's, as ranges merged where they meet (either order of the levels); the rows listed
 * and sorted into their ranges when neither order keeps to nest_ranges_max ranges.
 */
template <typename F>
inline void for_ranges(const std::vector<uint32_t> &base, uint32_t iter_out, uint32_t iter_in,
		       uint64_t fo, uint64_t fi, range_scratch &s, F f)
{
	if (iter_out == 0 || iter_in == 0 || base.empty())
		return;
	for (int order = 0; order < 2; order++) {
		base_ranges(base, s);
		const bool ok = order == 0 ? add_level(s, fi, iter_in) && add_level(s, fo, iter_out)
					   : add_level(s, fo, iter_out) && add_level(s, fi, iter_in);
		if (ok) {
			for (const row_range &r : s.ranges)
				f((uint32_t)r.first, r.end - r.first);
			return;
		}
	}
	std::vector<uint32_t> &rows = s.rows;
	rows.clear();
	for_rows(base, iter_out, iter_in, fo, fi, [&](uint32_t r) { rows.push_back(r); });
	std::sort(rows.begin(), rows.end());
	for (size_t k = 0; k < rows.size();) {
		const uint32_t at = rows[k];
		uint64_t stop = (uint64_t)at + 1;
		for (k++; k < rows.size() && rows[k] <= stop; k++) /* a row again, or the next */
			stop += rows[k] == stop;
		f(at, stop - at);
	}
}

} // namespace vtasim

#endif /* VTASIM_NEST_ROWS_H */
