/*
 * rtl_check.h - small helpers shared by the RTL tests: locating the first differing lane
 * (for a message that names it) and looking for text in a written file.
 */
#ifndef VTASIM_TEST_RTL_CHECK_H
#define VTASIM_TEST_RTL_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Index of the first lane where x and y differ, or -1. */
static inline long rtl_first_diff_i32(const int32_t *x, const int32_t *y, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (x[i] != y[i])
			return (long)i;
	return -1;
}

static inline long rtl_first_diff_i8(const int8_t *x, const int8_t *y, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (x[i] != y[i])
			return (long)i;
	return -1;
}

/* Whether the file at path contains text (read whole; small files only). */
static inline bool rtl_file_contains(const char *path, const char *text)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return false;
	size_t cap = 1 << 20, len = 0;
	char *buf = malloc(cap + 1);
	if (!buf) {
		fclose(f);
		return false;
	}
	len = fread(buf, 1, cap, f);
	fclose(f);
	buf[len] = '\0';
	bool found = strstr(buf, text) != NULL;
	free(buf);
	return found;
}

#endif /* VTASIM_TEST_RTL_CHECK_H */
