/*
 * lut_decoder.h - the LUT decoder in the LOAD path (docs/isa.md "LUT decompression"): its
 * table memory, its eight descriptors and its data path, as plain functions of the model.
 *
 * Models: a LOAD of lut/lut32 fills table entries and sets a descriptor; a decompressing
 * LOAD (lut_bw != 0) streams packed index rows from DRAM through the decoder, which looks
 * each index up in the table of its lane's channel and writes the decoded row into WGT,
 * INP (low 8 bits of the entry) or ACC (the 32-bit entry). The checks are vta_rules.h's;
 * this file is the model's own decoding, independent of the reference executor's.
 * Timing: vta_cost.h's, applied by unit_base::decode_load.
 * Approximates: the table memory has no port conflicts; a table load costs only its DMA.
 */
#ifndef VTASIM_LUT_DECODER_H
#define VTASIM_LUT_DECODER_H

#include <cstdint>
#include <vector>

#include "rtl_lut.h"
#include "vta_config.h"
#include "vta_dram.h"
#include "vta_insn.h"
#include "vta_rules.h"
#include "vtasim_api.h"

namespace vtasim {

struct lut_decoder {
	std::vector<uint32_t> table; /* lut_depth 32-bit entries */
	uint64_t table_end = 0;      /* entries [0, table_end) may be loaded since the reset */
	vta_lut_desc slots[VTA_LUT_SLOTS] = {};
	vta_decoder_stats st{};

	void reset(const vta_config &cfg);

	/* A checked LOAD of lut/lut32: copy its entries and set descriptor lut_slot. */
	void table_load(const vta_mem_insn &m, const vta_dram &dram);

	/* A checked decompressing LOAD: decode its rows into `rows` (the bytes of the target
	 * SRAM rows it writes). Returns false with `why` (the rulebook's status and detail)
	 * when an index lies beyond its table. */
	bool decode(const vta_config &cfg, const vta_mem_insn &m, const vta_dram &dram,
		    std::vector<uint8_t> &rows, vta_error &why) const;
	/* The same on the RTL decoder, whose job starts at run cycle `cycle`; *cycles gets its
	 * decode cycles. */
	bool decode_rtl(const vta_config &cfg, const vta_mem_insn &m, const vta_dram &dram,
			vta_rtl_lut *rtl, uint64_t cycle, std::vector<uint8_t> &rows,
			uint64_t *cycles, vta_error &why) const;
	/* Zero-lane fill: spread decoded rows of a load's real lanes over whole WGT rows, the
	 * lanes outside each output lane's group 0 (the SRAM write's part of the mode). */
	static void fill_rows(const vta_config &cfg, const vta_mem_insn &m,
			      std::vector<uint8_t> &rows);
	/* Write decoded rows into the target SRAM's bytes `sram`, and count them. */
	void commit(const vta_config &cfg, const vta_mem_insn &m,
		    const std::vector<uint8_t> &rows, uint8_t *sram);
};

} // namespace vtasim

#endif /* VTASIM_LUT_DECODER_H */
