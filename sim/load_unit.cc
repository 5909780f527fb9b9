/*
 * load_unit.cc - the LOAD module (see load_unit.h).
 */
#include "load_unit.h"

namespace vtasim {

load_unit::load_unit(sc_core::sc_module_name name, run_ctl &ctl, shared_hw &hw,
		     insn_queue &queue, token_map tokens)
    : unit_base(name, VTA_MODULE_LOAD, ctl, hw, queue, tokens)
{
}

bool load_unit::execute(uint64_t idx, const vta_insn &insn, uint64_t g)
{
	/* FETCH only routes LOAD INP/WGT/LUT here */
	return do_load(idx, insn, g);
}

} // namespace vtasim
