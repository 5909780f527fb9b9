/*
 * vcd_merge.h - one VCD file from several, each written by one verilated unit over the same
 * run: every input's scopes go under a scope of its own name, its identifier codes get a
 * suffix of their own so no two inputs share one, and the value changes are merged in time
 * order. The inputs' ticks interleave in simulated time, which is why each unit writes its
 * own file first (a VCD writer can only move forward in time). An input's times may be
 * scaled on the way (the RTL units stamp 1000 ps per cycle, a run's waveform takes the
 * clock's period).
 */
#ifndef VTASIM_VCD_MERGE_H
#define VTASIM_VCD_MERGE_H

#include <cstdint>
#include <string>
#include <vector>

#include "vta_status.h"

namespace vtasim {

struct vcd_input {
	std::string path;  /* a VCD file; a missing file is skipped (the unit never ran) */
	std::string scope; /* the scope its signals go under; empty: its scopes as they are */
	uint64_t time_mul = 1, time_div = 1; /* its times are scaled by time_mul / time_div */
};

/* Write `out` from `inputs` (at most 90), its header saying `comment` (times in ps, as every
 * input's). VTA_E_IO if a file cannot be read or written. */
vta_status vcd_merge(const std::vector<vcd_input> &inputs, const std::string &out,
		     const std::string &comment, vta_error *err);

} // namespace vtasim

#endif /* VTASIM_VCD_MERGE_H */
