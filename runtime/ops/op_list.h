/*
 * op_list.h - the one list of operators: one line per descriptor, defined in its own
 * runtime/ops/op_*.c. Everything that enumerates operators derives from this list
 * (op_registry.h); its order is the order messages list them in: the accelerated ops, then
 * the host ops. No include guard: op_registry.h and op_registry.c include it with their own
 * definition of VTA_OP.
 */
VTA_OP(vta_op_conv2d)
VTA_OP(vta_op_depthwise)
VTA_OP(vta_op_fc)
VTA_OP(vta_op_add)
VTA_OP(vta_op_avg_pool)
VTA_OP(vta_op_max_pool)
VTA_OP(vta_op_reshape)
VTA_OP(vta_op_softmax)
VTA_OP(vta_op_pad)
VTA_OP(vta_op_padv2)
VTA_OP(vta_op_transpose)
VTA_OP(vta_op_mean)
VTA_OP(vta_op_quantize)
VTA_OP(vta_op_concat)
VTA_OP(vta_op_svdf)
VTA_OP(vta_op_relu)
VTA_OP(vta_op_relu6)
