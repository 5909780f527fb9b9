/*
 * replay_main.c - runs a fuzz target without libFuzzer: every file named, and every file of
 * every folder named (in name order), through LLVMFuzzerTestOneInput once. The normal build
 * links each target with this driver, so `make test` replays the inputs that once broke a
 * contract (tests/fuzz/inputs/TARGET/); a broken contract aborts.
 *
 *   fuzz_replay_TARGET FILE|DIR...
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_contract.h"

static int replay(const char *path)
{
	size_t len = 0;
	uint8_t *buf = fuzz_read_file(path, &len);
	if (!buf) {
		fprintf(stderr, "fuzz replay: cannot read %s\n", path);
		return 1;
	}
	printf("replay %s (%zu bytes)\n", path, len);
	fflush(stdout);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int replay_dir(const char *dir, size_t *n)
{
	DIR *d = opendir(dir);
	if (!d) {
		fprintf(stderr, "fuzz replay: cannot open %s\n", dir);
		return 1;
	}
	char **names = NULL;
	size_t count = 0, cap = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (count == cap) {
			cap = cap ? 2 * cap : 16;
			char **grown = realloc(names, cap * sizeof(*names));
			if (!grown)
				return 1;
			names = grown;
		}
		names[count++] = strdup(e->d_name);
	}
	closedir(d);
	if (count)
		qsort(names, count, sizeof(*names), cmp_names);
	int rc = 0;
	for (size_t i = 0; i < count; i++) {
		char path[4096];
		struct stat st;
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) { /* not sub-folders */
			rc |= replay(path);
			(*n)++;
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	int rc = 0;
	size_t n = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			rc |= replay_dir(argv[i], &n);
		} else {
			rc |= replay(argv[i]);
			n++;
		}
	}
	if (!n) {
		fprintf(stderr, "fuzz replay: no inputs\n");
		return 1;
	}
	printf("%zu inputs replayed, every contract held\n", n);
	return rc;
}
