/* layer_ops.c - a layer op's hooks and what they allocate (layer_ops.h). */
#include "layer_ops.h"

#include <stdlib.h>

#include "op.h"

const vta_layer_ops *vta_layer_ops_of(vta_wl_op op)
{
	return op->layer;
}

void vta_layer_plain_free(vta_layer_plain *p)
{
	free(p->owned[0]);
	free(p->owned[1]);
}
