/*
 * rtl_datapath.h - the verilated RTL units the model clocks when its config says
 * `datapath: rtl` (docs/rtl.md): the COMPUTE arrays (GEMM and ALU lanes, rtl_compute.h) and
 * the LOAD path's LUT decoder (rtl_lut.h). The compute and load modules hand them their
 * micro-ops and decompressing loads; the units' handshakes say how many cycles each took.
 *
 * Waveforms: each unit writes its own VCD during a run (their ticks interleave in simulated
 * time but each unit's are in order); when the run ends the files are merged into the one
 * the user asked for (vcd_merge.h).
 */
#ifndef VTASIM_RTL_DATAPATH_H
#define VTASIM_RTL_DATAPATH_H

#include <string>

#include "rtl_compute.h"
#include "rtl_lut.h"
#include "vta_config.h"

namespace vtasim {

class rtl_datapath {
public:
	/* The units of cfg (a LUT decoder only when cfg has one). VTA_E_CONFIG, naming the
	 * missing RTL build and how to add it, when one was not verilated. */
	static vta_status create(const vta_config &cfg, rtl_datapath **out, vta_error *err);
	~rtl_datapath();

	vta_rtl_compute *compute() const { return compute_; }
	vta_rtl_lut *lut() const { return lut_; }

	/* Dump the units' signals of the next run into `path` (empty: none). */
	void set_vcd(const std::string &path) { vcd_ = path; }
	/* Around a run: open the units' waveforms, then close and merge them. */
	vta_status begin_run(vta_error *err);
	vta_status end_run(vta_error *err);

private:
	rtl_datapath() = default;
	std::string part(const char *unit) const { return vcd_ + "." + unit + ".part"; }

	vta_rtl_compute *compute_ = nullptr;
	vta_rtl_lut *lut_ = nullptr;
	std::string vcd_;
	bool tracing_ = false;
};

} // namespace vtasim

#endif /* VTASIM_RTL_DATAPATH_H */
