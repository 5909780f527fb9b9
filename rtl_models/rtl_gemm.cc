/*
 * rtl_gemm.cc - the C interface of the verilated GEMM cores. Each built shape is its own
 * verilated model (Vvta_gemm_core_<in>x<out>); a small class template streams a uop's batch
 * rows through whichever one the handle holds.
 */
#include "rtl_gemm.h"

#include <new>

#include "Vvta_gemm_core_16x16.h"
#include "Vvta_gemm_core_4x4.h"
#include "rtl_harness.h"

/* The handle is the core itself: each built shape derives from it. */
struct vta_rtl_gemm {
	virtual ~vta_rtl_gemm() = default;
	virtual void uop(const int8_t *inp, const int8_t *wgt, int32_t *acc, int8_t *out,
			 unsigned batch) = 0;
	virtual bool trace_open(const char *path) = 0;
	virtual uint64_t cycles() const = 0;
};

namespace {

template <class Model, unsigned BI, unsigned BO> class gemm_core final : public vta_rtl_gemm {
public:
	gemm_core() : h_("vta_gemm_core") {}

	void uop(const int8_t *inp, const int8_t *wgt, int32_t *acc, int8_t *out,
		 unsigned batch) override
	{
		Model &io = h_.io();
		/* The weight block is held for the whole uop; rows stream one per cycle. */
		vtasim_rtl::port_set_bytes(io.w, (const uint8_t *)wgt, (size_t)BI * BO);
		unsigned sent = 0, done = 0;
		while (done < batch) {
			if (sent < batch) {
				io.in_valid = 1;
				vtasim_rtl::port_set_bytes(io.x, (const uint8_t *)(inp + (size_t)sent * BI),
							   BI);
				vtasim_rtl::port_set_i32(io.acc_in, acc + (size_t)sent * BO, BO);
				sent++;
			} else {
				io.in_valid = 0;
			}
			h_.tick();
			if (io.out_valid) {
				for (unsigned o = 0; o < BO; o++) {
					int32_t v = vtasim_rtl::port_i32(io.acc_out, o);
					acc[(size_t)done * BO + o] = v;
					out[(size_t)done * BO + o] =
						(int8_t)vtasim_rtl::port_byte(io.out8, o);
				}
				done++;
			}
		}
		io.in_valid = 0;
	}

	bool trace_open(const char *path) override { return h_.trace_open(path); }
	uint64_t cycles() const override { return h_.cycles(); }

private:
	vtasim_rtl::harness<Model> h_;
};

const unsigned k_shapes[][2] = {{16, 16}, {4, 4}};

vta_rtl_gemm *make_core(unsigned bi, unsigned bo)
{
	if (bi == 16 && bo == 16)
		return new gemm_core<Vvta_gemm_core_16x16, 16, 16>;
	if (bi == 4 && bo == 4)
		return new gemm_core<Vvta_gemm_core_4x4, 4, 4>;
	return nullptr;
}

} // namespace

extern "C" size_t vta_rtl_gemm_shapes(unsigned (*shapes)[2], size_t max)
{
	return vtasim_rtl::copy_built(k_shapes, shapes, max);
}

extern "C" vta_status vta_rtl_gemm_create(vta_rtl_gemm **out, unsigned block_in,
					  unsigned block_out, vta_error *err)
{
	*out = nullptr;
	try {
		*out = make_core(block_in, block_out);
	} catch (const std::bad_alloc &) {
		return vta_fail(err, VTA_E_NOMEM, "RTL GEMM core: out of memory");
	}
	if (!*out)
		return vta_fail(err, VTA_E_UNSUPPORTED,
				"RTL GEMM core: no core built for block_in %u x block_out %u "
				"(built: %s)",
				block_in, block_out, vtasim_rtl::list_built(k_shapes, "x").c_str());
	return VTA_OK;
}

extern "C" void vta_rtl_gemm_destroy(vta_rtl_gemm *gemm)
{
	delete gemm;
}

extern "C" vta_status vta_rtl_gemm_trace(vta_rtl_gemm *gemm, const char *vcd_path,
					 vta_error *err)
{
	if (!gemm->trace_open(vcd_path))
		return vta_fail(err, VTA_E_IO, "%s: cannot open the VCD file", vcd_path);
	return VTA_OK;
}

extern "C" void vta_rtl_gemm_uop(vta_rtl_gemm *gemm, const int8_t *inp, const int8_t *wgt,
				 int32_t *acc, int8_t *out, unsigned batch)
{
	gemm->uop(inp, wgt, acc, out, batch);
}

extern "C" uint64_t vta_rtl_gemm_cycles(const vta_rtl_gemm *gemm)
{
	return gemm->cycles();
}
