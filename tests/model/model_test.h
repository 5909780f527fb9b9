/*
 * model_test.h - what the model tests share: loading the hand-built model and the real
 * ones, and the larger real models' folder (VTASIM_MODELS, skipped when absent).
 */
#ifndef MODEL_TEST_H
#define MODEL_TEST_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tfl_testmodel.h"
#include "tflite_model.h"

#define MT_DATA "tests/model/data/"

/* Parse the hand-built model (must succeed). */
static inline void mt_load(bool compressed, vta_tfl_model *m)
{
	size_t len;
	uint8_t *b = tm_build(compressed, TM_OK, &len);
	assert_non_null(b);
	vta_error err = {0};
	if (vta_tfl_model_parse(b, len, "test.tflite", m, &err) != VTA_OK)
		fail_msg("%s", err.detail);
}

static inline void mt_load_file(const char *path, vta_tfl_model *m)
{
	vta_error err = {0};
	if (vta_tfl_model_load(path, m, &err) != VTA_OK)
		fail_msg("%s", err.detail);
}

/* A model from the larger real models' folder, or NULL (with a message) when absent. */
static inline const char *mt_big_model(const char *name, char *buf, size_t size)
{
	const char *dir = getenv("VTASIM_MODELS");
	snprintf(buf, size, "%s/%s", dir && dir[0] ? dir : "/nonexistent", name);
	if (access(buf, R_OK) != 0) {
		print_message("skipped: %s is not there (set VTASIM_MODELS)\n", buf);
		return NULL;
	}
	return buf;
}

/* An error: not OK, one line, containing `want`. */
static inline void mt_expect_error(vta_status st, const vta_error *err, const char *want)
{
	if (st == VTA_OK)
		fail_msg("expected an error containing '%s', got OK", want);
	assert_non_null(strchr(err->detail, ':'));
	assert_null(strchr(err->detail, '\n'));
	if (!strstr(err->detail, want))
		fail_msg("error '%s' lacks '%s'", err->detail, want);
	assert_int_equal(vta_status_exit_code(st), 2);
}

#endif /* MODEL_TEST_H */
