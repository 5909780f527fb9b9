/*
 * write_test_model.c - write the hand-built test model (tfl_testmodel.h) as files for the
 * command-line tests: DIR/test_plain.tflite and DIR/test_lut.tflite (both LUT containers).
 */
#include <stdio.h>
#include <stdlib.h>

#include "tfl_testmodel.h"

static int write(const char *dir, const char *name, bool compressed)
{
	char path[1024];
	size_t len;
	uint8_t *b = tm_build(compressed, TM_OK, &len);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = b ? fopen(path, "wb") : NULL;
	int ok = f && fwrite(b, 1, len, f) == len;
	if (f && fclose(f))
		ok = 0;
	free(b);
	if (!ok)
		fprintf(stderr, "write_test_model: cannot write %s\n", path);
	return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: write_test_model DIR\n");
		return 2;
	}
	return write(argv[1], "test_plain.tflite", false) | write(argv[1], "test_lut.tflite", true);
}
