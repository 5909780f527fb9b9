/*
 * vta_engine.c - engines by name (see vta_engine.h).
 */
#include "vta_engine.h"

#include <string.h>

const vta_engine_kind *vta_engine_kind_find(const vta_engine_kind *const *kinds, size_t n,
					    const char *name)
{
	for (size_t i = 0; name && i < n; i++)
		if (!strcmp(kinds[i]->name, name))
			return kinds[i];
	return NULL;
}
