/*
 * vta_nest_ranges.c - a loop nest's rows as ranges of consecutive rows (vta_nest_ranges.h).
 */
#include "vta_nest_ranges.h"

#include <stdlib.h>
#include <string.h>

void vta_nest_ranges_free(vta_nest_ranges *r)
{
	free(r->v);
	free(r->next);
	free(r->bits);
	free(r->rows);
	*r = (vta_nest_ranges){0};
}

static bool reserve(void **p, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return true;
	size_t c = *cap ? *cap : 64;
	while (c < need)
		c *= 2;
	void *q = realloc(*p, c * elem);
	if (!q)
		return false;
	*p = q;
	*cap = c;
	return true;
}

static int range_cmp(const void *x, const void *y)
{
	const vta_row_range *a = x, *b = y;
	return a->first < b->first ? -1 : a->first > b->first;
}

/* Sort v[0..n) by first rows (nearly always in order already, or a few) and merge those
 * that meet or overlap; the count left. */
static size_t merge_ranges(vta_row_range *v, size_t n)
{
	size_t k = 1;
	while (k < n && v[k - 1].first <= v[k].first)
		k++;
	if (k < n && n > 32) {
		qsort(v, n, sizeof(*v), range_cmp);
	} else {
		for (; k < n; k++) { /* insertion, from the first out of order */
			const vta_row_range r = v[k];
			size_t j = k;
			for (; j > 0 && v[j - 1].first > r.first; j--)
				v[j] = v[j - 1];
			v[j] = r;
		}
	}
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		if (m && v[i].first <= v[m - 1].end) {
			if (v[i].end > v[m - 1].end)
				v[m - 1].end = v[i].end;
		} else {
			v[m++] = v[i];
		}
	}
	return m;
}

typedef enum { LEVEL_OK, LEVEL_LIST, LEVEL_NOMEM } level_result;

/* r's ranges plus the multiples 0..count-1 of step, merged: a range at least step long grows
 * by (count - 1) steps, a shorter one is copied count times. LEVEL_LIST when that gives more
 * than VTA_NEST_RANGES_MAX ranges or reaches past 2^32. */
static level_result add_level(vta_nest_ranges *r, uint64_t step, uint32_t count)
{
	if (step == 0 || count <= 1)
		return LEVEL_OK;
	if (step > UINT32_MAX)
		return LEVEL_LIST;
	const uint64_t reach = (uint64_t)(count - 1) * step; /* both below 2^32 */
	size_t m = 0;
	for (size_t i = 0; i < r->n; i++) {
		const vta_row_range g = r->v[i];
		if (g.end + reach > (uint64_t)UINT32_MAX + 1)
			return LEVEL_LIST;
		if (g.end - g.first >= step) {
			if (!reserve((void **)&r->next, &r->cap_next, m + 1, sizeof(*r->next)))
				return LEVEL_NOMEM;
			r->next[m++] = (vta_row_range){g.first, g.end + reach};
			continue;
		}
		if (m + count > VTA_NEST_RANGES_MAX)
			return LEVEL_LIST;
		if (!reserve((void **)&r->next, &r->cap_next, m + count, sizeof(*r->next)))
			return LEVEL_NOMEM;
		for (uint64_t k = 0; k < count; k++)
			r->next[m++] = (vta_row_range){g.first + k * step, g.end + k * step};
	}
	m = merge_ranges(r->next, m);
	vta_row_range *t = r->v;
	const size_t tc = r->cap;
	r->v = r->next;
	r->cap = r->cap_next;
	r->next = t;
	r->cap_next = tc;
	r->n = m;
	return LEVEL_OK;
}

/* The runs of consecutive indices of the base into r. */
static bool base_ranges(vta_nest_ranges *r, const uint32_t *base, size_t n_base)
{
	r->n = 0;
	for (size_t k = 0; k < n_base; k++) {
		if (r->n && r->v[r->n - 1].end == base[k]) {
			r->v[r->n - 1].end++;
			continue;
		}
		if (!reserve((void **)&r->v, &r->cap, r->n + 1, sizeof(*r->v)))
			return false;
		r->v[r->n++] = (vta_row_range){base[k], (uint64_t)base[k] + 1};
	}
	return true;
}

/* The first bit of bits[0, words) at or after bit `from` that is set (`set`) or clear, or
 * words * 64. */
static uint64_t next_bit(const uint64_t *bits, uint64_t words, uint64_t from, bool set)
{
	const uint64_t flip = set ? 0 : UINT64_MAX;
	uint64_t w = from >> 6;
	if (w >= words)
		return words * 64;
	uint64_t v = (bits[w] ^ flip) & (UINT64_MAX << (from & 63));
	while (!v) {
		if (++w == words)
			return words * 64;
		v = bits[w] ^ flip;
	}
	return w * 64 + (uint64_t)__builtin_ctzll(v);
}

/* Every row marked in a bitmap from the base's first row to the nest's last, `last`, and
 * read back as runs: memory for the rows' span, time for the nest's uops. */
static bool mark_rows(vta_nest_ranges *r, const uint32_t *base, size_t n_base, uint32_t no,
		      uint32_t ni, uint64_t fo, uint64_t fi, uint64_t last)
{
	const uint64_t lo = base[0], words = (last - lo) / 64 + 1;
	if (words > SIZE_MAX / sizeof(*r->bits) ||
	    !reserve((void **)&r->bits, &r->cap_bits, (size_t)words, sizeof(*r->bits)))
		return false;
	uint64_t *bits = r->bits;
	memset(bits, 0, (size_t)words * sizeof(*bits));
	for (uint32_t o = 0; o < no; o++)
		for (uint32_t i = 0; i < ni; i++) {
			const uint64_t off = (uint64_t)o * fo + (uint64_t)i * fi - lo;
			for (size_t k = 0; k < n_base; k++) {
				const uint64_t at = base[k] + off;
				bits[at >> 6] |= 1ull << (at & 63);
			}
		}
	r->n = 0;
	for (uint64_t at = next_bit(bits, words, 0, true); at < words * 64;) {
		const uint64_t end = next_bit(bits, words, at, false);
		if (!reserve((void **)&r->v, &r->cap, r->n + 1, sizeof(*r->v)))
			return false;
		r->v[r->n++] = (vta_row_range){lo + at, lo + end};
		at = next_bit(bits, words, end, true);
	}
	r->listed = true;
	return true;
}

static int u32_cmp(const void *x, const void *y)
{
	const uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	return a < b ? -1 : a > b;
}

/* Every row listed (each distinct base once, a loop level of factor 0 once), wrapped at
 * 2^32, sorted and cut into ranges. */
static bool list_rows(vta_nest_ranges *r, const uint32_t *base, size_t n_base,
		      uint32_t iter_out, uint32_t iter_in, uint64_t fo, uint64_t fi)
{
	const uint32_t no = fo ? iter_out : 1, ni = fi ? iter_in : 1;
	const uint64_t total = (uint64_t)no * ni * n_base;
	if (total > SIZE_MAX / sizeof(*r->rows) ||
	    !reserve((void **)&r->rows, &r->cap_rows, (size_t)total, sizeof(*r->rows)))
		return false;
	size_t n = 0;
	for (uint32_t o = 0; o < no; o++)
		for (uint32_t i = 0; i < ni; i++) {
			const uint64_t off = (uint64_t)o * fo + (uint64_t)i * fi;
			for (size_t k = 0; k < n_base; k++)
				r->rows[n++] = (uint32_t)(base[k] + off);
		}
	qsort(r->rows, n, sizeof(*r->rows), u32_cmp);
	r->n = 0;
	for (size_t k = 0; k < n;) {
		const uint32_t at = r->rows[k];
		uint64_t stop = (uint64_t)at + 1;
		for (k++; k < n && r->rows[k] <= stop; k++) /* a row again, or the next */
			stop += r->rows[k] == stop;
		if (!reserve((void **)&r->v, &r->cap, r->n + 1, sizeof(*r->v)))
			return false;
		r->v[r->n++] = (vta_row_range){at, stop};
	}
	r->listed = true;
	return true;
}

bool vta_nest_ranges_of(vta_nest_ranges *r, const uint32_t *base, size_t n_base,
			uint32_t iter_out, uint32_t iter_in, uint64_t fo, uint64_t fi)
{
	r->n = 0;
	r->listed = false;
	if (iter_out == 0 || iter_in == 0 || n_base == 0) /* an empty nest reaches no row */
		return true;
	for (int order = 0; order < 2; order++) {
		if (!base_ranges(r, base, n_base))
			goto nomem;
		level_result lr = order == 0 ? add_level(r, fi, iter_in) : add_level(r, fo, iter_out);
		if (lr == LEVEL_OK)
			lr = order == 0 ? add_level(r, fo, iter_out) : add_level(r, fi, iter_in);
		if (lr == LEVEL_OK)
			return true;
		if (lr == LEVEL_NOMEM)
			goto nomem;
	}
	/* the levels cannot keep the rows to a few ranges: each marked, or listed past 2^32 */
	const uint32_t no = fo ? iter_out : 1, ni = fi ? iter_in : 1;
	const uint64_t last = base[n_base - 1] + (uint64_t)(no - 1) * fo + (uint64_t)(ni - 1) * fi;
	if (last <= UINT32_MAX ? mark_rows(r, base, n_base, no, ni, fo, fi, last)
			       : list_rows(r, base, n_base, iter_out, iter_in, fo, fi))
		return true;
nomem:
	r->n = 0;
	r->listed = false;
	return false;
}

uint64_t vta_nest_ranges_rows(const vta_nest_ranges *r)
{
	uint64_t n = 0;
	for (size_t k = 0; k < r->n; k++)
		n += r->v[k].end - r->v[k].first;
	return n;
}
