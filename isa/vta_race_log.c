/*
 * vta_race_log.c - a module's accesses of a shared space, per instruction (vta_race_log.h).
 */
#include "vta_race_log.h"

#include <stdlib.h>
#include <string.h>

/* (vta_race_log.h) v with room for `need` elements of `elem` bytes (capacity *cap, doubled as needed), or
 * NULL when out of memory (v is then left as it was). */
void *vta_race_grow(void *v, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return v;
	size_t c = *cap ? *cap : 16;
	while (c < need)
		c *= 2;
	void *nv = realloc(v, c * elem);
	if (nv)
		*cap = c;
	return nv;
}

bool vta_race_log_add(vta_race_log *l, uint32_t insn, uint32_t flag, uint64_t lo, uint64_t hi,
		      const uint32_t *rows, size_t n)
{
	vta_race_log_rec *nr = vta_race_grow(l->r, &l->cap, l->n + 1, sizeof(*l->r));
	if (!nr)
		return false;
	l->r = nr;
	l->r[l->n++] = (vta_race_log_rec){insn, flag, lo, hi, rows, n};
	return true;
}

static int u32_cmp(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	return a < b ? -1 : a > b;
}

bool vta_race_log_add_copy(vta_race_log *l, uint32_t insn, uint32_t flag, uint32_t *v,
			   size_t n)
{
	if (!n)
		return true;
	bool sorted = true;
	for (size_t k = 1; k < n && sorted; k++)
		sorted = v[k - 1] < v[k];
	if (!sorted)
		qsort(v, n, sizeof(*v), u32_cmp);
	if (v[n - 1] - v[0] == n - 1) /* distinct and ascending: one range */
		return vta_race_log_add(l, insn, flag, v[0], (uint64_t)v[n - 1] + 1, NULL, 0);
	uint32_t **nk = vta_race_grow(l->kept, &l->cap_kept, l->n_kept + 1, sizeof(*l->kept));
	if (!nk)
		return false;
	l->kept = nk;
	uint32_t *copy = malloc(n * sizeof(*copy));
	if (!copy)
		return false;
	memcpy(copy, v, n * sizeof(*copy));
	l->kept[l->n_kept++] = copy;
	return vta_race_log_add(l, insn, flag, 0, 0, copy, n);
}

static bool has(const vta_race_log_rec *r, uint64_t row)
{
	if (!r->rows)
		return row >= r->lo && row < r->hi;
	size_t lo = 0, hi = r->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (r->rows[mid] < row)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->n && r->rows[lo] == row;
}

bool vta_race_log_unordered(const vta_race_log *l, const uint32_t *lclock, uint32_t since,
			    uint64_t row, uint32_t **out, size_t *n_out, size_t *cap)
{
	size_t n = 0;
	/* from the last record back: an instruction's records are adjacent */
	for (size_t k = l->n; k-- > 0;) {
		const vta_race_log_rec *r = &l->r[k];
		if (lclock[r->insn] <= since)
			break;
		if (!has(r, row))
			continue;
		if (n && (*out)[n - 1] >> 2 == r->insn) {
			(*out)[n - 1] |= r->flag;
			continue;
		}
		uint32_t *no = vta_race_grow(*out, cap, n + 1, sizeof(**out));
		if (!no)
			return false;
		*out = no;
		(*out)[n++] = r->insn << 2 | r->flag;
	}
	for (size_t i = 0, j = n; i + 1 < j--; i++) {
		uint32_t t = (*out)[i];
		(*out)[i] = (*out)[j];
		(*out)[j] = t;
	}
	*n_out = n;
	return true;
}

void vta_race_log_free(vta_race_log *l)
{
	for (size_t i = 0; i < l->n_kept; i++)
		free(l->kept[i]);
	free(l->kept);
	free(l->r);
	memset(l, 0, sizeof(*l));
}
