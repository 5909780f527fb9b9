/*
 * datapath.cc - the ALU lane operations and their portable row kernels (the GEMM kernel is
 * inline in datapath.h; the vector ALU kernels are in datapath_alu.cc), as docs/isa.md "ALU
 * operations" specifies them; written apart from the reference executor's, which checks
 * them.
 */
#include "datapath.h"

#include "vta_insn.h"

namespace {

/* Arithmetic right shift by 0..31, independent of the implementation's choice for >>. */
inline int32_t asr(int32_t a, unsigned s)
{
	return a >= 0 ? a >> s : -1 - ((-1 - a) >> s);
}

inline int32_t srdhm(int32_t a, int32_t b)
{
	if (a == INT32_MIN && b == INT32_MIN)
		return INT32_MAX;
	int64_t ab = (int64_t)a * b;
	int64_t nudge = ab >= 0 ? (int64_t{1} << 30) : 1 - (int64_t{1} << 30);
	return (int32_t)((ab + nudge) / (int64_t{1} << 31)); /* truncates toward zero */
}

inline int32_t rshr(int32_t a, int32_t amount)
{
	unsigned e = amount < 0 ? 0u : amount > 31 ? 31u : (unsigned)amount;
	uint32_t mask = (uint32_t)((uint64_t{1} << e) - 1);
	uint32_t rem = (uint32_t)a & mask;
	uint32_t threshold = (mask >> 1) + (a < 0 ? 1u : 0u);
	return asr(a, e) + (rem > threshold ? 1 : 0);
}

inline int32_t alu_op(uint32_t op, int32_t a, int32_t b)
{
	switch (op) {
	case VTA_ALU_MIN: return a < b ? a : b;
	case VTA_ALU_MAX: return a > b ? a : b;
	case VTA_ALU_ADD: return (int32_t)((uint32_t)a + (uint32_t)b);
	case VTA_ALU_SHR: {
		if (b >= 0)
			return asr(a, b > 31 ? 31u : (unsigned)b);
		int64_t l = -(int64_t)b; /* no negation of INT32_MIN in 32 bits */
		return (int32_t)((uint32_t)a << (l > 31 ? 31u : (unsigned)l));
	}
	case VTA_ALU_MUL: return (int32_t)((uint32_t)a * (uint32_t)b);
	case VTA_ALU_SRDHM: return srdhm(a, b);
	case VTA_ALU_RSHR: return rshr(a, b);
	default: return a; /* ops are validated before execution */
	}
}

/* The row loop with the op fixed at compile time, so the switch leaves the lane loop. */
template <uint32_t OP>
void alu_row_op(int32_t *dst, const int32_t *src, int32_t imm, int8_t *out, unsigned lanes)
{
	for (unsigned i = 0; i < lanes; i++) {
		int32_t v = alu_op(OP, dst[i], src ? src[i] : imm);
		dst[i] = v;
		out[i] = (int8_t)(uint8_t)(uint32_t)v;
	}
}

/* An op outside vta_alu_op: the row is left alone. */
void alu_row_none(int32_t *, const int32_t *, int32_t, int8_t *, unsigned)
{
}

} // namespace

extern "C" int32_t vtasim_alu_lane(uint32_t op, int32_t x, int32_t y)
{
	return alu_op(op, x, y);
}

extern "C" vtasim_alu_fn vtasim_alu_portable(uint32_t op)
{
	switch (op) {
	case VTA_ALU_MIN: return alu_row_op<VTA_ALU_MIN>;
	case VTA_ALU_MAX: return alu_row_op<VTA_ALU_MAX>;
	case VTA_ALU_ADD: return alu_row_op<VTA_ALU_ADD>;
	case VTA_ALU_SHR: return alu_row_op<VTA_ALU_SHR>;
	case VTA_ALU_MUL: return alu_row_op<VTA_ALU_MUL>;
	case VTA_ALU_SRDHM: return alu_row_op<VTA_ALU_SRDHM>;
	case VTA_ALU_RSHR: return alu_row_op<VTA_ALU_RSHR>;
	default: return alu_row_none;
	}
}

extern "C" unsigned vtasim_alu_row_wraps(uint32_t op, const int32_t *dst, const int32_t *src,
					 int32_t imm, unsigned lanes, uint32_t *wraps)
{
	if (op != VTA_ALU_ADD && op != VTA_ALU_MUL && op != VTA_ALU_SHR)
		return 0;
	unsigned n = 0;
	for (unsigned i = 0; i < lanes; i++) {
		const int64_t a = dst[i], b = src ? src[i] : imm;
		int64_t exact;
		if (op == VTA_ALU_ADD)
			exact = a + b;
		else if (op == VTA_ALU_MUL)
			exact = a * b;
		else if (b < 0) /* a left shift by min(-b, 31): |exact| < 2^62 */
			exact = a * (int64_t{1} << (b < -31 ? 31 : -b));
		else
			continue;
		if (exact < INT32_MIN || exact > INT32_MAX) {
			wraps[i]++;
			n++;
		}
	}
	return n;
}
