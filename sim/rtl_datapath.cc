/*
 * rtl_datapath.cc - building the RTL units of a config and their waveforms (rtl_datapath.h).
 */
#include "rtl_datapath.h"

#include <cstdio>

#include "vcd_merge.h"

namespace vtasim {

vta_status rtl_datapath::create(const vta_config &cfg, rtl_datapath **out, vta_error *err)
{
	*out = nullptr;
	rtl_datapath *d = new rtl_datapath;
	vta_status st = vta_rtl_compute_create(&d->compute_, cfg.batch, cfg.block_in,
					       cfg.block_out, err);
	if (st == VTA_OK && cfg.decomp_enabled)
		st = vta_rtl_lut_create(&d->lut_, cfg.dram_bus_bits, cfg.decomp_indices_per_cycle,
					err);
	if (st != VTA_OK) {
		delete d;
		/* a unit this config needs was not built: a problem of the config, not the run */
		if (st == VTA_E_UNSUPPORTED && err)
			err->status = VTA_E_CONFIG;
		return st == VTA_E_UNSUPPORTED ? VTA_E_CONFIG : st;
	}
	*out = d;
	return VTA_OK;
}

rtl_datapath::~rtl_datapath()
{
	vta_rtl_compute_destroy(compute_);
	vta_rtl_lut_destroy(lut_);
}

vta_status rtl_datapath::begin_run(vta_error *err)
{
	tracing_ = false;
	if (vcd_.empty())
		return VTA_OK;
	vta_status st = vta_rtl_compute_trace(compute_, part("compute").c_str(), err);
	if (st == VTA_OK && lut_)
		st = vta_rtl_lut_trace(lut_, part("lut_decoder").c_str(), err);
	tracing_ = st == VTA_OK;
	return st;
}

vta_status rtl_datapath::end_run(vta_error *err)
{
	if (!tracing_)
		return VTA_OK;
	tracing_ = false;
	/* close the units' files, then merge them */
	vta_rtl_compute_trace(compute_, nullptr, nullptr);
	if (lut_)
		vta_rtl_lut_trace(lut_, nullptr, nullptr);
	std::vector<vcd_input> parts = {{part("compute"), "compute"}};
	if (lut_)
		parts.push_back({part("lut_decoder"), "lut_decoder"});
	vta_status st = vcd_merge(parts, vcd_,
				  "one cycle of the run is 1000 ps: cycle c at 1000 c (clk low) and "
				  "1000 c + 500 (clk high)",
				  err);
	for (const vcd_input &p : parts)
		std::remove(p.path.c_str());
	return st;
}

} // namespace vtasim
