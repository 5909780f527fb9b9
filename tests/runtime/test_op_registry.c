/*
 * test_op_registry.c - what derives from the operator list (runtime/ops/op_list.h) stays in
 * step with it: every descriptor is found again by its TFLite code (op_registry.h and
 * op_support.h) under TFLite's own name for that code, every workload name goes back to its
 * descriptor through the lookup and through the workload parser, every --host-ops class is
 * accepted with its own bit, and the lists messages show hold every name once.
 */
#include "rt_test.h"

#include <stdlib.h>
#include <unistd.h>

#include "model_run.h"
#include "op_registry.h"
#include "op_support.h"
#include "tflite_model.h"
#include "workload.h"

static void test_descriptors(void **state)
{
	(void)state;
	size_t n;
	const vta_op_desc *const *ops = vta_op_all(&n);
	assert_true(n > 0);
	for (size_t i = 0; i < n; i++) {
		const vta_op_desc *d = ops[i];
		char nb[32];
		const char *name;
		assert_non_null(d->name);
		assert_ptr_equal(vta_op_by_builtin(d->builtin), d);
		assert_int_equal(vta_op_where(d->builtin, &name), d->place);
		assert_string_equal(name, d->name);
		assert_string_equal(vta_tfl_op_name(d->builtin, nb, sizeof(nb)), d->name);
		vta_error err = {0};
		assert_int_equal(vta_op_check(d->builtin, &err), VTA_OK);
		for (size_t k = 0; k < i; k++)
			if (ops[k]->builtin == d->builtin)
				fail_msg("%s and %s share code %d", ops[k]->name, d->name,
					 (int)d->builtin);
		assert_non_null(d->derive);
		if (d->place == VTA_OP_ACCEL) {
			/* a layer: its hooks, its class and its workload name */
			assert_non_null(d->layer);
			assert_non_null(d->build);
			assert_non_null(d->host_class);
			assert_non_null(d->workload_name);
			assert_null(d->run_host);
		} else {
			assert_int_equal(d->place, VTA_OP_HOST);
			assert_non_null(d->run_host);
			assert_null(d->layer);
			assert_null(d->build);
			assert_null(d->host_class);
			assert_null(d->workload_name);
		}
	}
}

/* Every name of `which` appears in its message list exactly once, and nothing else does. */
static void list_holds(vta_op_names which, const char *(*name_of)(const vta_op_desc *))
{
	size_t n, named = 0;
	const vta_op_desc *const *ops = vta_op_all(&n);
	char list[1024], want[1024] = "";
	vta_op_list(which, ",", ",", NULL, list, sizeof(list));
	for (size_t i = 0; i < n; i++) {
		const char *s = name_of(ops[i]);
		if (!s)
			continue;
		size_t at = strlen(want);
		snprintf(want + at, sizeof(want) - at, "%s%s", named++ ? "," : "", s);
	}
	assert_true(named > 0);
	assert_string_equal(list, want);
}

static const char *accel_name(const vta_op_desc *d)
{
	return d->place == VTA_OP_ACCEL ? d->name : NULL;
}

static const char *host_name(const vta_op_desc *d)
{
	return d->place == VTA_OP_HOST ? d->name : NULL;
}

static const char *class_name(const vta_op_desc *d)
{
	return d->host_class;
}

static const char *workload_name(const vta_op_desc *d)
{
	return d->workload_name;
}

static void test_lists(void **state)
{
	(void)state;
	list_holds(VTA_OP_NAMES_ACCEL, accel_name);
	list_holds(VTA_OP_NAMES_HOST, host_name);
	list_holds(VTA_OP_NAMES_CLASSES, class_name);
	list_holds(VTA_OP_NAMES_WORKLOAD, workload_name);
	/* an unsupported code's message names every op that runs, in the list's order */
	size_t n;
	const vta_op_desc *const *ops = vta_op_all(&n);
	vta_error err = {0};
	assert_int_equal(vta_op_check(-1, &err), VTA_E_UNSUPPORTED);
	const char *at = err.detail;
	for (size_t i = 0; i < n; i++) {
		const char *p = strstr(at, ops[i]->name);
		if (!p)
			fail_msg("'%s' lacks %s after '%s'", err.detail, ops[i]->name, at);
		at = p + strlen(ops[i]->name);
	}
}

/* Each class alone moves its op and no other; all of them, as --host-ops and the usage
 * list them, move every accelerated op; an unknown name is refused with the list. */
static void test_host_classes(void **state)
{
	(void)state;
	size_t n;
	const vta_op_desc *const *ops = vta_op_all(&n);
	unsigned seen = 0, mask;
	vta_error err = {0};
	for (size_t i = 0; i < n; i++) {
		unsigned bit = vta_op_class_bit(ops[i]);
		if (!ops[i]->host_class) {
			assert_int_equal(bit, 0);
			continue;
		}
		assert_int_equal(vta_model_host_classes(ops[i]->host_class, &mask, &err), VTA_OK);
		assert_int_equal(mask, bit);
		assert_int_equal(bit & (bit - 1), 0); /* one bit */
		assert_int_equal(bit & seen, 0);      /* its own */
		seen |= bit;
	}
	assert_int_equal(seen, vta_op_class_all());
	char list[256];
	vta_op_list(VTA_OP_NAMES_CLASSES, ",", ",", NULL, list, sizeof(list));
	assert_int_equal(vta_model_host_classes(list, &mask, &err), VTA_OK);
	assert_int_equal(mask, vta_op_class_all());
	assert_int_equal(vta_model_host_classes("none", &mask, &err), VTA_OK);
	assert_int_equal(mask, 0);
	assert_int_equal(vta_model_host_classes("pool", &mask, &err), VTA_E_USAGE);
	char names[256];
	vta_op_list(VTA_OP_NAMES_CLASSES, ", ", " or ", "none", names, sizeof(names));
	rt_assert_error(&err, VTA_E_USAGE, names);
}

/* A workload's `op:` under each name reaches the parser's next question (the layer's
 * tensors), never the unknown-op error; an unknown name gets the list of every name. */
static void test_workload_names(void **state)
{
	(void)state;
	char dir[] = "/tmp/vtasim-ops-XXXXXX", path[64], yaml[128];
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/w.yaml", dir);
	size_t n;
	const vta_op_desc *const *ops = vta_op_all(&n);
	for (size_t i = 0; i <= n; i++) {
		const char *name = i < n ? ops[i]->workload_name : "pool";
		if (!name)
			continue;
		assert_ptr_equal(vta_op_by_workload_name(name, strlen(name)),
				 i < n ? ops[i] : NULL);
		snprintf(yaml, sizeof(yaml), "layers:\n  - op: %s\n", name);
		FILE *f = fopen(path, "w");
		assert_non_null(f);
		fputs(yaml, f);
		fclose(f);
		vta_workload wl;
		vta_error err = {0};
		assert_int_not_equal(vta_workload_load(path, &wl, &err), VTA_OK);
		bool unknown = strstr(err.detail, ".op: expected") != NULL;
		if (unknown != (i == n))
			fail_msg("op '%s': %s", name, err.detail);
		if (i == n) {
			char names[256];
			vta_op_list(VTA_OP_NAMES_WORKLOAD, ", ", " or ", NULL, names, sizeof(names));
			rt_assert_error(&err, VTA_E_PARSE, names);
		}
	}
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_descriptors),
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_host_classes),
		cmocka_unit_test(test_workload_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
