/* op_registry.c - the one list of operators and its lookups (op_registry.h). */
#include "op_registry.h"

#include <stdio.h>
#include <string.h>

static const vta_op_desc *const OPS[] = {
#define VTA_OP(d) &d,
#include "op_list.h"
#undef VTA_OP
};
#define N_OPS (sizeof(OPS) / sizeof(OPS[0]))

const vta_op_desc *const *vta_op_all(size_t *n)
{
	*n = N_OPS;
	return OPS;
}

const vta_op_desc *vta_op_by_builtin(int32_t builtin)
{
	for (size_t i = 0; i < N_OPS; i++)
		if (OPS[i]->builtin == builtin)
			return OPS[i];
	return NULL;
}

static bool named(const char *have, const char *name, size_t n)
{
	return have && strlen(have) == n && !strncmp(have, name, n);
}

const vta_op_desc *vta_op_by_workload_name(const char *name, size_t n)
{
	for (size_t i = 0; i < N_OPS; i++)
		if (named(OPS[i]->workload_name, name, n))
			return OPS[i];
	return NULL;
}

unsigned vta_op_class_bit(const vta_op_desc *op)
{
	unsigned bit = 1;
	for (size_t i = 0; i < N_OPS; i++) {
		if (!OPS[i]->host_class)
			continue;
		if (OPS[i] == op)
			return bit;
		bit <<= 1;
	}
	return 0;
}

unsigned vta_op_class_all(void)
{
	unsigned all = 0;
	for (size_t i = 0; i < N_OPS; i++)
		all |= vta_op_class_bit(OPS[i]);
	return all;
}

unsigned vta_op_class_by_name(const char *name, size_t n)
{
	for (size_t i = 0; i < N_OPS; i++)
		if (named(OPS[i]->host_class, name, n))
			return vta_op_class_bit(OPS[i]);
	return 0;
}

static const char *name_of(const vta_op_desc *op, vta_op_names which)
{
	switch (which) {
	case VTA_OP_NAMES_ACCEL: return op->place == VTA_OP_ACCEL ? op->name : NULL;
	case VTA_OP_NAMES_HOST: return op->place == VTA_OP_HOST ? op->name : NULL;
	case VTA_OP_NAMES_CLASSES: return op->host_class;
	case VTA_OP_NAMES_WORKLOAD: return op->workload_name;
	}
	return NULL;
}

const char *vta_op_list(vta_op_names which, const char *sep, const char *last,
			const char *extra, char *buf, size_t size)
{
	const char *items[N_OPS + 1];
	size_t n = 0, at = 0;
	for (size_t i = 0; i < N_OPS; i++)
		if (name_of(OPS[i], which))
			items[n++] = name_of(OPS[i], which);
	if (extra)
		items[n++] = extra;
	buf[0] = '\0';
	for (size_t i = 0; i < n && at < size; i++) {
		const char *s = i == 0 ? "" : i + 1 == n ? last : sep;
		int k = snprintf(buf + at, size - at, "%s%s", s, items[i]);
		at += k > 0 ? (size_t)k : 0;
	}
	return buf;
}
