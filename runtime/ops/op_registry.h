/*
 * op_registry.h - the operators (op_list.h) and what derives from them: lookup by TFLite
 * builtin code, by workload name and by --host-ops class, each accelerated op's class bit,
 * and the lists messages show.
 */
#ifndef VTA_OP_REGISTRY_H
#define VTA_OP_REGISTRY_H

#include <stddef.h>

#include "op.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VTA_OP(d) extern const vta_op_desc d;
#include "op_list.h"
#undef VTA_OP

/* Every operator, in op_list.h's order; *n gets the count. */
const vta_op_desc *const *vta_op_all(size_t *n);
/* The operator of a TFLite builtin code, or NULL. */
const vta_op_desc *vta_op_by_builtin(int32_t builtin);
/* The accelerated op a workload's `op:` names (n bytes of name), or NULL. */
const vta_op_desc *vta_op_by_workload_name(const char *name, size_t n);
/* The --host-ops class bit of an accelerated op (0 for a host op): 1 << its place among
 * the accelerated ops. */
unsigned vta_op_class_bit(const vta_op_desc *op);
/* Every class bit. */
unsigned vta_op_class_all(void);
/* The bit of the class named by n bytes of name, or 0 when no op has it. */
unsigned vta_op_class_by_name(const char *name, size_t n);
/* "a, b, c" plus `last` before the final item ("a, b or c"): the TFLite names of the ops
 * placed at `place`, the --host-ops classes (place VTA_OP_UNSUPPORTED; `extra` after them,
 * or NULL), or the workload names. Returns buf. */
typedef enum vta_op_names { VTA_OP_NAMES_ACCEL, VTA_OP_NAMES_HOST, VTA_OP_NAMES_CLASSES,
			    VTA_OP_NAMES_WORKLOAD } vta_op_names;
const char *vta_op_list(vta_op_names which, const char *sep, const char *last,
			const char *extra, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* VTA_OP_REGISTRY_H */
