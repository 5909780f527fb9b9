/*
 * fuzz_sweep.c - the sweep file reader (sweep_load: its keys, values, ranges, zips, lets and
 * constraints, every expression parsed and its names checked) and the resolution of its
 * points (every let and constraint evaluated at every point, the manifest built).
 * Contract: OK or one clean error line from both; bounded time and stack whatever the
 * expressions.
 *
 * A sweep names its config and workload relative to itself: each input is written into a
 * scratch copy of the tree's layout (tests/sweep, with links to the tree's configs, the
 * test workloads and the sweep tests' own files), so the seeds of tests/sweep resolve.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <sys/stat.h>

#include "fuzz_contract.h"
#include "sweep.h"

/* Points resolved at most per input: a mutated axis of 100000 values is slow, not wrong. */
#define MAX_POINTS 512

static void link_into(const char *target, const char *link)
{
	if (symlink(target, link) != 0 && errno != EEXIST)
		fuzz_die("cannot make the scratch tree", link);
}

/* The scratch tree, made once per process; returns the input's path. */
static const char *scratch_input(void)
{
	static char input[PATH_MAX + 64];
	if (input[0])
		return input;
	char src[PATH_MAX], root[256], dir[PATH_MAX + 300], from[PATH_MAX + 300];
	fuzz_require(getcwd(src, sizeof(src)) != NULL, "no working directory");
	const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
	snprintf(root, sizeof(root), "%s/vtasim-fuzz-sweep-%ld", base, (long)getpid());
	snprintf(dir, sizeof(dir), "%s/tests", root);
	mkdir(root, 0777);
	mkdir(dir, 0777);
	snprintf(dir, sizeof(dir), "%s/tests/sweep", root);
	mkdir(dir, 0777);
	snprintf(from, sizeof(from), "%s/configs", src);
	snprintf(dir, sizeof(dir), "%s/configs", root);
	link_into(from, dir);
	snprintf(from, sizeof(from), "%s/tests/cli", src);
	snprintf(dir, sizeof(dir), "%s/tests/cli", root);
	link_into(from, dir);
	/* the sweep tests' own files (workloads beside the sweeps) */
	snprintf(from, sizeof(from), "%s/tests/sweep", src);
	DIR *d = opendir(from);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		char f[PATH_MAX + 600], l[PATH_MAX + 600];
		snprintf(f, sizeof(f), "%s/%s", from, e->d_name);
		snprintf(l, sizeof(l), "%s/tests/sweep/%s", root, e->d_name);
		link_into(f, l);
	}
	if (d)
		closedir(d);
	snprintf(input, sizeof(input), "%s/tests/sweep/fuzz-input.yaml", root);
	return input;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = scratch_input();
	FILE *f = fopen(path, "wb");
	fuzz_require(f && fwrite(data, 1, size, f) == size, "cannot write the input file");
	fclose(f);
	sweep sw;
	vta_error err = {0};
	vta_status st = sweep_load(path, &sw, &err);
	fuzz_expect(st, &err);
	if (st != VTA_OK)
		return 0;
	size_t product = 1;
	for (size_t i = 0; i < sw.n_dims && product <= MAX_POINTS; i++)
		product *= sw.dim_size[i] ? sw.dim_size[i] : 1;
	if (product <= MAX_POINTS) {
		sw_point *pts = NULL;
		size_t n = 0, skipped = 0;
		vta_error e = {0};
		st = sweep_points(&sw, &pts, &n, &skipped, &e);
		fuzz_expect(st, &e);
		if (st == VTA_OK) {
			json_decref(sweep_manifest(&sw, pts, n, skipped));
			sweep_points_free(&sw, pts, n);
		}
	}
	sweep_free(&sw);
	return 0;
}
