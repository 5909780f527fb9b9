/*
 * test_sram_live.cc - an SRAM's live bytes (sim/sram_live.h) against their definition
 * computed the plain way: random reads and writes of single rows and of ranges at
 * non-decreasing epochs, each row's values kept as whole intervals [write, last read), and
 * the live bytes at each epoch counted over them. Compared: the peak and, epoch by epoch,
 * the prefix sums of the differences.
 */
extern "C" { /* cmocka's header declares no C linkage itself */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
}

#include <algorithm>
#include <vector>

#include "sram_live.h"

namespace {

enum access { READ, WRITE, READ_WRITE };

/* The definition: a value lives from its write to its last read, half-open. */
struct plain_live {
	static constexpr uint32_t none = UINT32_MAX;
	struct value {
		uint32_t written = none, last_read = none;
	};
	struct interval {
		uint32_t from, to;
	};
	std::vector<value> rows;
	std::vector<interval> done;

	explicit plain_live(uint32_t n) : rows(n) {}

	void close(value &v)
	{
		if (v.written != none && v.last_read != none && v.last_read > v.written)
			done.push_back({v.written, v.last_read});
		v = value{};
	}
	void read(uint32_t r, uint32_t e)
	{
		if (rows[r].written != none)
			rows[r].last_read = e;
	}
	void write(uint32_t r, uint32_t e)
	{
		close(rows[r]);
		rows[r].written = e;
	}
	/* live bytes at epoch e, after every value is closed */
	uint64_t live_at(uint32_t e, uint64_t bytes) const
	{
		uint64_t n = 0;
		for (const interval &i : done)
			n += i.from <= e && e < i.to ? bytes : 0;
		return n;
	}
	void finish()
	{
		for (value &v : rows)
			close(v);
	}
};

uint32_t next(uint32_t &s)
{
	s ^= s << 13;
	s ^= s >> 17;
	s ^= s << 5;
	return s;
}

/* One run of random accesses on both, then their peaks and per-epoch live bytes compared. */
void run_both(vtasim::sram_live &live, uint32_t rows, uint64_t bytes, uint32_t &seed)
{
	plain_live want(rows);
	live.reset(rows, bytes);
	uint32_t epoch = 0;
	const uint32_t steps = 1 + next(seed) % 400;
	for (uint32_t s = 0; s < steps; s++) {
		epoch += next(seed) % 3; /* epochs repeat and skip */
		const uint32_t n = 1 + next(seed) % 12;
		const uint32_t r0 = next(seed) % rows;
		const access a0 = (access)(next(seed) % 3);
		if (next(seed) % 2) { /* one access at a time */
			if (a0 != WRITE) {
				want.read(r0, epoch);
				live.read(r0, epoch);
			}
			if (a0 != READ) {
				want.write(r0, epoch);
				live.write(r0, epoch);
			}
			continue;
		}
		vtasim::sram_live::at_epoch at(live, epoch); /* an instruction's accesses */
		for (uint32_t k = 0; k < n; k++) {
			/* ranges of rows, some reaching past the SRAM (those rows are not
			 * tracked) */
			const uint32_t r = k ? next(seed) % rows : r0;
			const uint32_t len = next(seed) % 4 ? 1 + next(seed) % 6 : 1 + next(seed) % rows;
			const access a = k ? (access)(next(seed) % 3) : a0;
			for (uint32_t q = r; q < r + len && q < rows; q++) {
				if (a != WRITE)
					want.read(q, epoch);
				if (a != READ)
					want.write(q, epoch);
			}
			if (a == READ)
				at.read_range(r, len);
			else if (a == WRITE)
				at.write_range(r, len);
			else
				at.read_write_range(r, len);
		}
	}
	want.finish();
	const uint64_t peak = live.finish();
	uint64_t want_peak = 0;
	int64_t sum = 0;
	const std::vector<int64_t> &d = live.deltas();
	for (uint32_t e = 0; e <= epoch; e++) {
		sum += e < d.size() ? d[e] : 0;
		const uint64_t w = want.live_at(e, bytes);
		want_peak = std::max(want_peak, w);
		assert_int_equal((uint64_t)sum, w);
	}
	for (size_t e = epoch + 1; e < d.size(); e++)
		assert_int_equal(d[e], 0);
	assert_int_equal(peak, want_peak);
	assert_true(peak <= (uint64_t)rows * bytes);
}

void test_live_like_definition(void **state)
{
	(void)state;
	uint32_t seed = 12345;
	for (int t = 0; t < 300; t++) {
		vtasim::sram_live live; /* one object reused across runs, as an SRAM's */
		const uint32_t rows = 1 + next(seed) % 40;
		const uint64_t bytes = 1 + next(seed) % 64;
		for (int run = 0; run < 3; run++)
			run_both(live, rows, bytes, seed);
	}
}

/* A run cut short (reset without finish) leaves nothing behind for the next. */
void test_live_after_cut_run(void **state)
{
	(void)state;
	vtasim::sram_live live;
	live.reset(4, 16);
	live.write(0, 1);
	live.write(1, 1);
	live.read(0, 5);
	live.reset(4, 16); /* no finish() */
	live.write(1, 2);
	live.read(1, 3);
	live.read(0, 9); /* row 0 not written in this run: not live */
	assert_int_equal(live.finish(), 16);
}

} // namespace

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_live_like_definition),
		cmocka_unit_test(test_live_after_cut_run),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
