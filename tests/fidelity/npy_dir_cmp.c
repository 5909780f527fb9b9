/*
 * npy_dir_cmp.c - `npy_dir_cmp GOT EXPECTED`: every .npy file of one folder against the
 * file of the same name in the other, element by element (dtype and shape too), the two
 * folders holding the same names; or two .npy files. Prints one line per differing tensor and a summary;
 * exits 0 when all are equal, 1 when any differs or is missing, 2 on bad input. Test code:
 * it shares nothing with vtasim's own comparison (`run --expect`) but the .npy reader.
 */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>

#include "npy.h"

#define MAX_FILES 4096

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted .npy names of dir (malloc'ed); -1 when it cannot be read. */
static int list_npy(const char *dir, char **names)
{
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < MAX_FILES) {
		size_t len = strlen(e->d_name);
		if (len > 4 && !strcmp(e->d_name + len - 4, ".npy"))
			names[n++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof(char *), by_name);
	return n;
}

static double element(const vta_npy *a, size_t i)
{
	switch (a->dtype) {
	case VTA_NPY_I8: return ((const int8_t *)a->data)[i];
	case VTA_NPY_U8: return ((const uint8_t *)a->data)[i];
	case VTA_NPY_I32: return ((const int32_t *)a->data)[i];
	default: return ((const float *)a->data)[i];
	}
}

/* File pg against pw (named `name` in messages): 0 equal, 1 differs, 2 unreadable. */
static int compare_files(const char *pg, const char *pw, const char *name)
{
	vta_npy g, w;
	vta_error err = {0};
	if (vta_npy_read(pg, &g, &err) != VTA_OK) {
		fprintf(stderr, "npy_dir_cmp: %s\n", err.detail);
		return 2;
	}
	if (vta_npy_read(pw, &w, &err) != VTA_OK) {
		fprintf(stderr, "npy_dir_cmp: %s\n", err.detail);
		vta_npy_free(&g);
		return 2;
	}
	int rc = 0;
	bool same_shape = g.dtype == w.dtype && g.rank == w.rank && g.count == w.count;
	for (int d = 0; same_shape && d < g.rank; d++)
		same_shape = g.shape[d] == w.shape[d];
	if (!same_shape) {
		printf("%s: dtype or shape differ\n", name);
		rc = 1;
	} else {
		size_t es = vta_npy_dtype_size(g.dtype), differ = 0, first = 0;
		for (size_t i = 0; i < g.count; i++)
			if (memcmp((char *)g.data + i * es, (char *)w.data + i * es, es) &&
			    !differ++)
				first = i;
		if (differ) {
			printf("%s: %zu of %zu elements differ, first at %zu (expected %g, got %g)\n",
			       name, differ, g.count, first, element(&w, first), element(&g, first));
			rc = 1;
		}
	}
	vta_npy_free(&g);
	vta_npy_free(&w);
	return rc;
}

static int compare(const char *got_dir, const char *want_dir, const char *name)
{
	char pg[4096], pw[4096];
	snprintf(pg, sizeof(pg), "%s/%s", got_dir, name);
	snprintf(pw, sizeof(pw), "%s/%s", want_dir, name);
	return compare_files(pg, pw, name);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: npy_dir_cmp GOT_DIR EXPECTED_DIR\n");
		return 2;
	}
	struct stat sb;
	if (stat(argv[1], &sb) == 0 && S_ISREG(sb.st_mode)) { /* two files */
		int rc = compare_files(argv[1], argv[2], argv[1]);
		if (!rc)
			printf("%s equals %s\n", argv[1], argv[2]);
		return rc;
	}
	static char *got[MAX_FILES], *want[MAX_FILES];
	int ng = list_npy(argv[1], got), nw = list_npy(argv[2], want);
	if (ng < 0 || nw < 0) {
		fprintf(stderr, "npy_dir_cmp: cannot read %s\n", ng < 0 ? argv[1] : argv[2]);
		return 2;
	}
	int rc = nw ? 0 : 1, differing = 0, i = 0, k = 0;
	if (!nw)
		printf("%s holds no .npy file\n", argv[2]);
	while (i < ng || k < nw) { /* both sorted: walk them together */
		int c = i == ng ? 1 : k == nw ? -1 : strcmp(got[i], want[k]);
		if (c) {
			printf("%s: only in %s\n", c < 0 ? got[i] : want[k], c < 0 ? argv[1] : argv[2]);
			c < 0 ? i++ : k++;
			differing++;
			rc = rc ? rc : 1;
			continue;
		}
		int r = compare(argv[1], argv[2], got[i]);
		if (r == 2)
			return 2;
		differing += r;
		rc = rc ? rc : r;
		i++;
		k++;
	}
	printf("%d of %d tensors differ\n", differing, nw);
	for (int j = 0; j < ng; j++)
		free(got[j]);
	for (int j = 0; j < nw; j++)
		free(want[j]);
	return rc;
}
