/*
 * vta_alu_ops.h - the ALU's operations, once (docs/isa.md "ALU operations"). Every list of
 * ALU ops is derived from VTA_ALU_OPS: the vta_alu_op codes, the assembler's and
 * disassembler's names, the feature gate the rules check (vta_rules.c) and the portability
 * check reports (vta_portable.c), and the per-lane arithmetic the reference executor and the
 * model's portable datapath both run. The model's vector kernels (sim/datapath_alu.cc) and the
 * RTL lane (rtl_models/vta_alu_lane.v) are specialised implementations of the same lanes: the
 * first fails to compile without a kernel for every row, a test holds the second's opcode
 * constants to this table, and tests compare both with vta_alu_lane bit for bit.
 *
 * Adding an op is one row here (its code, name, immediate, gate, lane and wrap functions),
 * the two functions, its vector kernels and its RTL case.
 */
#ifndef VTA_ALU_OPS_H
#define VTA_ALU_OPS_H

#include <stdbool.h>
#include <stdint.h>

#include "vta_config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The alu_opcode field, the same in every encoding (vta_config.c). */
#define VTA_ALU_OPCODE_BITS 3
/* Reserved: the RTL lane passes its first operand through for this code, which the decoder
 * refuses (docs/rtl.md "vta_alu_lane"). No row may take it. */
#define VTA_ALU_OP_PASS_THROUGH 7

/* What a config must enable for an op (docs/configs.md "alu"). */
typedef enum vta_alu_gate {
	VTA_ALU_GATE_NONE = 0,   /* every VTA has it */
	VTA_ALU_GATE_MUL,        /* alu.mul */
	VTA_ALU_GATE_TFLITE_EXT  /* alu.tflite_ext: vtasim's TFLite extension */
} vta_alu_gate;

/*
 * One row per op: X(NAME, code, "mnemonic", takes an immediate, gate, lane, wraps).
 * lane(a, b) is op(a, b) on one int32 lane (a: the destination's value, b: the immediate or
 * the source lane); wraps(a, b) is true when the exact result of a wrapping op does not fit
 * int32 (the overflow count of docs/arithmetic.md). Codes are the rows' positions.
 */
#define VTA_ALU_OPS(X)                                                                          \
	X(MIN, 0, "min", true, VTA_ALU_GATE_NONE, vta_alu_lane_min, vta_alu_wraps_never)           \
	X(MAX, 1, "max", true, VTA_ALU_GATE_NONE, vta_alu_lane_max, vta_alu_wraps_never)           \
	X(ADD, 2, "add", true, VTA_ALU_GATE_NONE, vta_alu_lane_add, vta_alu_wraps_add)             \
	X(SHR, 3, "shr", true, VTA_ALU_GATE_NONE, vta_alu_lane_shr, vta_alu_wraps_shr)             \
	X(MUL, 4, "mul", true, VTA_ALU_GATE_MUL, vta_alu_lane_mul, vta_alu_wraps_mul)              \
	X(SRDHM, 5, "srdhm", true, VTA_ALU_GATE_TFLITE_EXT, vta_alu_lane_srdhm,                    \
	  vta_alu_wraps_never)                                                                     \
	X(RSHR, 6, "rshr", true, VTA_ALU_GATE_TFLITE_EXT, vta_alu_lane_rshr, vta_alu_wraps_never)

typedef enum vta_alu_op {
#define VTA_ALU_OP_ENUM(name, code, ...) VTA_ALU_##name = code,
	VTA_ALU_OPS(VTA_ALU_OP_ENUM)
#undef VTA_ALU_OP_ENUM
} vta_alu_op;

enum {
#define VTA_ALU_OP_ONE(...) +1
	VTA_ALU_OP_COUNT = 0 VTA_ALU_OPS(VTA_ALU_OP_ONE)
#undef VTA_ALU_OP_ONE
};

/* An op's row, for code op < VTA_ALU_OP_COUNT. */
typedef struct vta_alu_op_info {
	const char *name;  /* "min", ... */
	bool takes_imm;    /* may use_imm be set */
	vta_alu_gate gate;
} vta_alu_op_info;

/* The row of op, or NULL for a code no row has. */
const vta_alu_op_info *vta_alu_op_find(uint32_t op);
/* "min", ... or NULL */
const char *vta_alu_op_name(uint32_t op);
/* Does cfg enable what gate guards? */
bool vta_alu_gate_open(const vta_config *cfg, vta_alu_gate gate);
/* The config key of a gate ("alu.mul"), NULL for VTA_ALU_GATE_NONE. */
const char *vta_alu_gate_key(vta_alu_gate gate);

/* ---------- the lanes ---------- */

/* Two's complement reinterpretation without an implementation-defined conversion. */
static inline int32_t vta_alu_s32(uint32_t v)
{
	return v <= 0x7fffffffu ? (int32_t)v : -(int32_t)(~v) - 1;
}

/* Arithmetic right shift by 0..31, independent of the compiler's choice for >>. */
static inline int32_t vta_alu_asr(int32_t a, unsigned s)
{
	return a >= 0 ? a >> s : -1 - ((-1 - a) >> s);
}

static inline int32_t vta_alu_lane_min(int32_t a, int32_t b)
{
	return a < b ? a : b;
}

static inline int32_t vta_alu_lane_max(int32_t a, int32_t b)
{
	return a > b ? a : b;
}

/* modulo 2^32 */
static inline int32_t vta_alu_lane_add(int32_t a, int32_t b)
{
	return vta_alu_s32((uint32_t)a + (uint32_t)b);
}

/* Arithmetic right shift by b clamped to 31; a negative b shifts left by min(-b, 31). */
static inline int32_t vta_alu_lane_shr(int32_t a, int32_t b)
{
	if (b >= 0)
		return vta_alu_asr(a, b > 31 ? 31u : (unsigned)b);
	const int64_t l = -(int64_t)b; /* no negation of INT32_MIN in 32 bits */
	return vta_alu_s32((uint32_t)a << (l > 31 ? 31u : (unsigned)l));
}

/* The low 32 bits of the product. */
static inline int32_t vta_alu_lane_mul(int32_t a, int32_t b)
{
	return vta_alu_s32((uint32_t)a * (uint32_t)b);
}

/* gemmlowp's SaturatingRoundingDoublingHighMul. */
static inline int32_t vta_alu_lane_srdhm(int32_t a, int32_t b)
{
	if (a == INT32_MIN && b == INT32_MIN)
		return INT32_MAX;
	const int64_t ab = (int64_t)a * b;
	const int64_t nudge = ab >= 0 ? ((int64_t)1 << 30) : 1 - ((int64_t)1 << 30);
	return (int32_t)((ab + nudge) / ((int64_t)1 << 31)); /* truncates toward zero */
}

/* gemmlowp's RoundingDivideByPOT by the amount clamped to 0..31. */
static inline int32_t vta_alu_lane_rshr(int32_t a, int32_t amount)
{
	const unsigned e = amount < 0 ? 0u : amount > 31 ? 31u : (unsigned)amount;
	const uint32_t mask = (uint32_t)(((uint64_t)1 << e) - 1);
	const uint32_t rem = (uint32_t)a & mask;
	const uint32_t threshold = (mask >> 1) + (a < 0 ? 1u : 0u);
	return vta_alu_asr(a, e) + (rem > threshold ? 1 : 0);
}

static inline bool vta_alu_wraps_never(int32_t a, int32_t b)
{
	(void)a;
	(void)b;
	return false;
}

static inline bool vta_alu_fits(int64_t exact)
{
	return exact >= INT32_MIN && exact <= INT32_MAX;
}

static inline bool vta_alu_wraps_add(int32_t a, int32_t b)
{
	return !vta_alu_fits((int64_t)a + b);
}

static inline bool vta_alu_wraps_mul(int32_t a, int32_t b)
{
	return !vta_alu_fits((int64_t)a * b);
}

/* Only a left shift (b < 0) wraps: by min(-b, 31), so |exact| < 2^62. */
static inline bool vta_alu_wraps_shr(int32_t a, int32_t b)
{
	return b < 0 && !vta_alu_fits((int64_t)a * ((int64_t)1 << (b < -31 ? 31 : -b)));
}

/* op(a, b) for any code; a code no row has leaves a (ops are checked before execution). */
static inline int32_t vta_alu_lane(uint32_t op, int32_t a, int32_t b)
{
	switch (op) {
#define VTA_ALU_OP_LANE(name, code, mn, imm, gate, lane, wraps) \
	case code: return lane(a, b);
		VTA_ALU_OPS(VTA_ALU_OP_LANE)
#undef VTA_ALU_OP_LANE
	default: return a;
	}
}

/* Does op(a, b) wrap? false for a code no row has. */
static inline bool vta_alu_wraps(uint32_t op, int32_t a, int32_t b)
{
	switch (op) {
#define VTA_ALU_OP_WRAPS(name, code, mn, imm, gate, lane, wraps) \
	case code: return wraps(a, b);
		VTA_ALU_OPS(VTA_ALU_OP_WRAPS)
#undef VTA_ALU_OP_WRAPS
	default: return false;
	}
}

#ifdef __cplusplus
}
#endif

#endif /* VTA_ALU_OPS_H */
