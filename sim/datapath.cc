/*
 * datapath.cc - the portable ALU row kernels (the GEMM kernel is inline in datapath.h; the
 * vector ALU kernels are in datapath_alu.cc). A lane is the ISA's definition of its op
 * (vta_alu_lane, isa/vta_alu_ops.h); the vector kernels and the RTL lane, written apart,
 * are checked against it.
 */
#include "datapath.h"

#include "vta_alu_ops.h"

namespace {

/* The row loop with the op fixed at compile time, so the switch leaves the lane loop. */
template <uint32_t OP>
void alu_row_op(int32_t *dst, const int32_t *src, int32_t imm, int8_t *out, unsigned lanes)
{
	for (unsigned i = 0; i < lanes; i++) {
		int32_t v = vta_alu_lane(OP, dst[i], src ? src[i] : imm);
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
	return vta_alu_lane(op, x, y);
}

extern "C" vtasim_alu_fn vtasim_alu_portable(uint32_t op)
{
	switch (op) {
#define PORTABLE_ROW(name, code, ...) \
	case VTA_ALU_##name: return alu_row_op<VTA_ALU_##name>;
		VTA_ALU_OPS(PORTABLE_ROW)
#undef PORTABLE_ROW
	default: return alu_row_none;
	}
}

namespace {

/* The wrap count of a row with the op fixed at compile time. */
template <uint32_t OP>
unsigned row_wraps(const int32_t *dst, const int32_t *src, int32_t imm, unsigned lanes,
		   uint32_t *wraps)
{
	unsigned n = 0;
	for (unsigned i = 0; i < lanes; i++)
		if (vta_alu_wraps(OP, dst[i], src ? src[i] : imm)) {
			wraps[i]++;
			n++;
		}
	return n;
}

} // namespace

extern "C" unsigned vtasim_alu_row_wraps(uint32_t op, const int32_t *dst, const int32_t *src,
					 int32_t imm, unsigned lanes, uint32_t *wraps)
{
	switch (op) {
#define WRAPS_ROW(name, code, mn, imm_, gate, lane, wraps_fn)                  \
	case VTA_ALU_##name:                                                    \
		if (wraps_fn == vta_alu_wraps_never) /* MIN, MAX, ...: nothing to count */ \
			return 0;                                                       \
		return row_wraps<VTA_ALU_##name>(dst, src, imm, lanes, wraps);
		VTA_ALU_OPS(WRAPS_ROW)
#undef WRAPS_ROW
	default: return 0;
	}
}
