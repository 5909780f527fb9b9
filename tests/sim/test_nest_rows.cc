/*
 * test_nest_rows.cc - a loop nest's rows as ranges (sim/nest_rows.h over
 * isa/vta_nest_ranges.h, which the stream checks' vta_nest.c shares) against the rows counted
 * one by one: random bases, factors and iteration counts, nests whose rows the rule gives as
 * ranges and nests whose rows it marks or lists, compared as sets of rows; the ranges are
 * ascending and apart either way, so one range is the exact set.
 */
extern "C" { /* cmocka's header declares no C linkage itself */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
}

#include <algorithm>
#include <set>
#include <vector>

#include "nest_rows.h"

namespace {

uint32_t next(uint32_t &s)
{
	s ^= s << 13;
	s ^= s >> 17;
	s ^= s << 5;
	return s;
}

/* The definition: every row of every uop at every iteration. */
std::set<uint32_t> rows_of(const std::vector<uint32_t> &base, uint32_t no, uint32_t ni,
			   uint64_t fo, uint64_t fi)
{
	std::set<uint32_t> s;
	for (uint32_t o = 0; o < no; o++)
		for (uint32_t i = 0; i < ni; i++)
			for (uint32_t b : base)
				s.insert((uint32_t)(b + o * fo + i * fi));
	return s;
}

struct range {
	uint32_t first;
	uint64_t count;
};

/* Compares; the ranges given by the rule, 0 when the rows were listed. */
size_t check_nest(const std::vector<uint32_t> &base, uint32_t no, uint32_t ni, uint64_t fo,
		uint64_t fi)
{
	vtasim::range_scratch scratch; /* says whether the rows were listed */
	std::vector<range> got;
	vtasim::for_ranges(base, no, ni, fo, fi, scratch,
			   [&](uint32_t first, uint64_t n) { got.push_back({first, n}); });
	std::set<uint32_t> have;
	for (size_t k = 0; k < got.size(); k++) {
		assert_true(got[k].count > 0);
		for (uint64_t q = 0; q < got[k].count; q++)
			have.insert((uint32_t)(got[k].first + q));
	}
	assert_true(have == rows_of(base, no, ni, fo, fi));
	for (size_t k = 1; k < got.size(); k++) /* ascending, apart, however they were found */
		assert_true((uint64_t)got[k - 1].first + got[k - 1].count < got[k].first);
	return scratch.r.listed ? 0 : got.size();
}

/* Random nests: contiguous and gapped bases, factors 0, short, equal to the span and
 * longer than it. */
void test_ranges_like_rows(void **state)
{
	(void)state;
	uint32_t seed = 2024;
	unsigned whole = 0, listed = 0, nests = 0;
	for (int t = 0; t < 4000; t++) {
		std::vector<uint32_t> base;
		const uint32_t n = 1 + next(seed) % 6, at = next(seed) % 50;
		const bool gaps = next(seed) % 3 == 0;
		for (uint32_t k = 0; k < n; k++)
			base.push_back(at + (gaps ? next(seed) % 12 : k));
		std::sort(base.begin(), base.end());
		base.erase(std::unique(base.begin(), base.end()), base.end());
		/* now and then more copies of the base than ranges are kept for: listed */
		const uint32_t no = t % 16 == 0 ? 260 + next(seed) % 40 : next(seed) % 5;
		const uint32_t ni = next(seed) % 5;
		const uint64_t span = base.back() - base.front() + 1;
		const uint64_t fi = next(seed) % 4 ? next(seed) % (span + 2) : 0;
		const uint64_t fo = next(seed) % 4 ? next(seed) % (span * (ni ? ni : 1) + 2) : 0;
		const size_t got = check_nest(base, no, ni, fo, fi);
		whole += got == 1;
		listed += got == 0;
		nests++;
	}
	/* every way was taken, often */
	assert_true(whole > nests / 4);
	assert_true(whole < nests * 3 / 4);
	assert_true(listed > 20);
}

/* The shapes the emitters give: a tile's rows in column order, the outer level first. */
void test_ranges_tiles(void **state)
{
	(void)state;
	/* 7 pixels per row as uops, rows by the inner level, blocks by the outer */
	assert_int_equal(1, check_nest({0, 1, 2, 3, 4, 5, 6}, 4, 7, 49, 7));
	/* one uop, the inner level by 1, the outer by the row: an ALU's walk */
	assert_int_equal(1, check_nest({5}, 14, 14, 14, 1));
	/* the outer level by 1 and the inner by 10: whole only taken in the other order */
	assert_int_equal(1, check_nest({0}, 10, 5, 1, 10));
	/* a gap the levels do not fill: two ranges */
	assert_int_equal(2, check_nest({0, 1}, 1, 2, 0, 3));
	/* columns of a tile, the inner level down a column, the outer across: 7 runs of
	 * one row that the inner level fills to one range, which the outer extends */
	assert_int_equal(1, check_nest({0, 36, 72, 108, 144, 180, 216}, 7, 36, 252, 1));
	/* ... the outer level first */
	assert_int_equal(1, check_nest({10, 20, 30, 40, 50, 60, 70}, 10, 7, 1, 70));
	/* more copies than ranges are kept for: listed */
	assert_int_equal(0, check_nest({0}, 300, 1, 2, 0));
	/* a gapped base the levels fill: its runs' ranges merged */
	assert_int_equal(1, check_nest({0, 2}, 1, 2, 0, 1));
	/* two runs of pixels, each filled by both levels, meeting: a depthwise tile's */
	assert_int_equal(1, check_nest({0, 1, 2, 450, 451, 452}, 112, 3, 2, 225));
	assert_int_equal(1, check_nest({0, 1, 2, 9, 10, 11}, 112, 3, 0, 3));
	/* rows near 2^32 wrap as the uop's 32-bit index does: listed */
	assert_int_equal(0, check_nest({UINT32_MAX - 1, UINT32_MAX}, 1, 2, 0, 2));
}

} // namespace

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ranges_like_rows),
		cmocka_unit_test(test_ranges_tiles),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
