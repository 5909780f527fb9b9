/* op_support.c - which ops run where (op_support.h), from the operator registry. */
#include "op_support.h"

#include <stddef.h>

#include "op_registry.h"

vta_op_place vta_op_where(int builtin_code, const char **name)
{
	const vta_op_desc *op = vta_op_by_builtin(builtin_code);
	if (name)
		*name = op ? op->name : "op";
	return op ? op->place : VTA_OP_UNSUPPORTED;
}

vta_status vta_op_check(int builtin_code, vta_error *err)
{
	if (vta_op_where(builtin_code, NULL) != VTA_OP_UNSUPPORTED)
		return VTA_OK;
	char accel[256], host[512];
	return vta_fail(err, VTA_E_UNSUPPORTED,
			"TFLite builtin op %d is not supported (int8 ops that run: %s on the "
			"accelerator; %s on the host)",
			builtin_code,
			vta_op_list(VTA_OP_NAMES_ACCEL, ", ", " and ", NULL, accel, sizeof(accel)),
			vta_op_list(VTA_OP_NAMES_HOST, ", ", " and ", NULL, host, sizeof(host)));
}
