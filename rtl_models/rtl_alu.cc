/*
 * rtl_alu.cc - the C interface of the verilated ALU lane: each call presents operands while
 * the clock is low, takes one rising edge and reads the registered result.
 */
#include "rtl_alu.h"

#include <new>

#include "Vvta_alu_lane.h"
#include "rtl_harness.h"

struct vta_rtl_alu {
	vtasim_rtl::harness<Vvta_alu_lane> h{"vta_alu_lane"};
};

namespace {

/* One vector through the lane; the result is registered on the edge. */
int32_t alu_step(vta_rtl_alu *alu, uint32_t op, int32_t x, int32_t y)
{
	Vvta_alu_lane &io = alu->h.io();
	io.in_valid = 1;
	io.op = (CData)(op > 7 ? 7 : op); /* the C model passes x through for any op >= 7 */
	io.a = (IData)(uint32_t)x;
	io.b = (IData)(uint32_t)y;
	alu->h.tick();
	io.in_valid = 0;
	return (int32_t)(uint32_t)io.out_result;
}

} // namespace

extern "C" vta_status vta_rtl_alu_create(vta_rtl_alu **out, vta_error *err)
{
	try {
		*out = new vta_rtl_alu;
	} catch (const std::bad_alloc &) {
		*out = nullptr;
		return vta_fail(err, VTA_E_NOMEM, "RTL ALU lane: out of memory");
	}
	return VTA_OK;
}

extern "C" void vta_rtl_alu_destroy(vta_rtl_alu *alu)
{
	delete alu;
}

extern "C" vta_status vta_rtl_alu_trace(vta_rtl_alu *alu, const char *vcd_path, vta_error *err)
{
	if (!alu->h.trace_open(vcd_path))
		return vta_fail(err, VTA_E_IO, "%s: cannot open the VCD file", vcd_path);
	return VTA_OK;
}

extern "C" int32_t vta_rtl_alu_lane(vta_rtl_alu *alu, uint32_t op, int32_t x, int32_t y)
{
	return alu_step(alu, op, x, y);
}

extern "C" void vta_rtl_alu_row(vta_rtl_alu *alu, uint32_t op, int32_t *dst, const int32_t *src,
				int32_t imm, int8_t *out, unsigned lanes)
{
	/* Lane i's result is written before lane i + 1 is read, as in the C loop, so
	 * overlapping dst and src give the same answer. */
	for (unsigned i = 0; i < lanes; i++) {
		int32_t v = alu_step(alu, op, dst[i], src ? src[i] : imm);
		dst[i] = v;
		out[i] = (int8_t)(uint8_t)(uint32_t)v;
	}
}

extern "C" uint64_t vta_rtl_alu_cycles(const vta_rtl_alu *alu)
{
	return alu->h.cycles();
}
