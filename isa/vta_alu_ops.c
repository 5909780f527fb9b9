/*
 * vta_alu_ops.c - the rows of VTA_ALU_OPS as data, and the compile-time checks that they fit
 * the instruction (see vta_alu_ops.h).
 */
#include "vta_alu_ops.h"

#include <stddef.h>

/* Codes are the rows' positions, so the table below is indexed by code. */
enum {
#define ROW_POSITION(name, ...) ROW_AT_##name,
	VTA_ALU_OPS(ROW_POSITION)
#undef ROW_POSITION
};
#define CODE_IS_POSITION(name, code, ...) \
	_Static_assert(code == ROW_AT_##name, "VTA_ALU_OPS: " #name "'s code is not its row");
VTA_ALU_OPS(CODE_IS_POSITION)
#undef CODE_IS_POSITION

/* Every code below the reserved one, which the 3-bit field of every encoding holds. */
_Static_assert(VTA_ALU_OP_COUNT <= VTA_ALU_OP_PASS_THROUGH,
	       "VTA_ALU_OPS: a row takes the reserved pass-through code");
_Static_assert(VTA_ALU_OP_PASS_THROUGH < (1u << VTA_ALU_OPCODE_BITS),
	       "VTA_ALU_OPS: the codes do not fit the alu_opcode field");

static const vta_alu_op_info ROWS[VTA_ALU_OP_COUNT] = {
#define ROW_INFO(name, code, mnemonic, imm, gate, ...) [code] = {mnemonic, imm, gate},
	VTA_ALU_OPS(ROW_INFO)
#undef ROW_INFO
};

const vta_alu_op_info *vta_alu_op_find(uint32_t op)
{
	return op < VTA_ALU_OP_COUNT ? &ROWS[op] : NULL;
}

const char *vta_alu_op_name(uint32_t op)
{
	return op < VTA_ALU_OP_COUNT ? ROWS[op].name : NULL;
}

bool vta_alu_gate_open(const vta_config *cfg, vta_alu_gate gate)
{
	switch (gate) {
	case VTA_ALU_GATE_MUL: return cfg->alu_mul;
	case VTA_ALU_GATE_TFLITE_EXT: return cfg->alu_tflite_ext;
	case VTA_ALU_GATE_NONE: break;
	}
	return true;
}

const char *vta_alu_gate_key(vta_alu_gate gate)
{
	switch (gate) {
	case VTA_ALU_GATE_MUL: return "alu.mul";
	case VTA_ALU_GATE_TFLITE_EXT: return "alu.tflite_ext";
	case VTA_ALU_GATE_NONE: break;
	}
	return NULL;
}
