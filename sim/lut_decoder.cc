/*
 * lut_decoder.cc - table loads and index decoding of the LUT decoder (see lut_decoder.h).
 */
#include "lut_decoder.h"

#include <algorithm>

#include <cstring>

namespace vtasim {

void lut_decoder::reset(const vta_config &cfg)
{
	/* only the entries loaded since the last reset are cleared */
	if (table.size() != cfg.lut_depth)
		table.assign(cfg.lut_depth, 0);
	else
		std::fill(table.begin(), table.begin() + (ptrdiff_t)std::min<uint64_t>(table_end,
									   table.size()),
			  0);
	table_end = 0;
	for (auto &s : slots)
		s = vta_lut_desc{};
	st = vta_decoder_stats{};
}

void lut_decoder::table_load(const vta_mem_insn &m, const vta_dram &dram)
{
	const bool wide = m.mem_type == VTA_MEM_LUT32;
	const uint64_t eb = wide ? 4 : 1;
	uint32_t *dst = table.data() + m.sram_base;
	for (uint64_t y = 0; y < m.y_size; y++) {
		const uint8_t *src = dram.bytes + (m.dram_base + y * m.x_stride) * eb;
		for (uint64_t x = 0; x < m.x_size; x++, dst++) {
			if (wide) {
				uint32_t v;
				std::memcpy(&v, src + 4 * x, 4); /* little-endian host, as dma.cc */
				*dst = v;
			} else {
				*dst = (uint32_t)(int32_t)(int8_t)src[x];
			}
		}
	}
	table_end = std::max<uint64_t>(table_end, m.sram_base + (uint64_t)m.y_size * m.x_size);
	slots[m.lut_slot] = vta_lut_desc_of(&m);
	st.table_loads++;
	st.table_bytes += (uint64_t)m.y_size * m.x_size * eb;
}

bool lut_decoder::decode(const vta_config &cfg, const vta_mem_insn &m, const vta_dram &dram,
			 std::vector<uint8_t> &out, vta_error &why) const
{
	const vta_mem mem = (vta_mem)m.mem_type;
	const vta_lut_desc &d = slots[m.lut_slot];
	const unsigned bw = m.lut_bw;
	const uint32_t mask = (1u << bw) - 1;
	/* the row as [outer][channel] or [channel][inner] blocks, per the blocked layouts */
	const bool wgt = mem == VTA_MEM_WGT;
	const unsigned outer = wgt ? cfg.block_out : cfg.batch;
	const unsigned inner = mem == VTA_MEM_ACC ? cfg.block_out : cfg.block_in;
	const uint64_t packed = vta_load_elem_bytes(&cfg, &m); /* real lanes only */
	const uint64_t lanes = (uint64_t)outer * inner;
	const bool wide = mem == VTA_MEM_ACC;
	const uint64_t row_bytes = lanes * (wide ? 4 : 1);
	const uint64_t rows = (uint64_t)m.y_size * m.x_size;
	out.resize(rows * row_bytes);
	uint8_t *o = out.data();
	uint64_t element = 0;
	for (uint64_t y = 0; y < m.y_size; y++) {
		const uint64_t chan0 = vta_lut_row_chan(&cfg, &m, y);
		for (uint64_t x = 0; x < m.x_size; x++) {
			/* a shift register fed a byte at a time, read from its top */
			const uint8_t *p = dram.bytes + (m.dram_base + y * m.x_stride + x) * packed;
			uint32_t bits = 0;
			unsigned have = 0;
			for (unsigned a = 0; a < outer; a++) {
				for (unsigned b = 0; b < inner; b++) {
					uint32_t real;
					if (!vta_lut_fill_lane(&cfg, &m, chan0, a * inner + b, &real)) {
						*o++ = 0; /* zero-lane fill (WGT rows only) */
						continue;
					}
					element++;
					while (have < bw) {
						bits = bits << 8 | *p++;
						have += 8;
					}
					have -= bw;
					const uint32_t index = (bits >> have) & mask;
					if (index >= d.stride) {
						vta_lut_index_fail(index, element - 1, d.stride, &why);
						return false;
					}
					const uint32_t ch = wgt ? a : b;
					const uint32_t at = d.base + index +
							    (d.channels > 1 ? (chan0 + ch) * d.stride : 0);
					const uint32_t v = table[at];
					if (wide) {
						std::memcpy(o, &v, 4);
						o += 4;
					} else {
						*o++ = (uint8_t)v;
					}
				}
			}
		}
	}
	return true;
}

bool lut_decoder::decode_rtl(const vta_config &cfg, const vta_mem_insn &m, const vta_dram &dram,
			     vta_rtl_lut *rtl, uint64_t cycle, std::vector<uint8_t> &out,
			     uint64_t *cycles, vta_error &why) const
{
	const vta_mem mem = (vta_mem)m.mem_type;
	const vta_lut_desc &d = slots[m.lut_slot];
	const uint64_t packed = vta_load_elem_bytes(&cfg, &m); /* real lanes only */
	const uint64_t rows = (uint64_t)m.y_size * m.x_size;
	/* the packed rows back to back, as the DMA hands them to the decoder */
	std::vector<uint8_t> string(rows * packed);
	for (uint64_t y = 0; y < m.y_size; y++)
		std::memcpy(string.data() + y * m.x_size * packed,
			    dram.bytes + (m.dram_base + y * m.x_stride) * packed, m.x_size * packed);
	/* lane L reads channel L / run_len % channels: WGT rows [BO][BI] by output row, INP
	 * and ACC rows [BATCH][lanes] by lane; a per-tensor table is one channel */
	const bool per_channel = d.channels > 1;
	vta_rtl_lut_load job{};
	job.bitwidth = m.lut_bw;
	/* zero-lane fill: the decoder sees rows of BO x lut_group real lanes, output lane o's
	 * group reading channel o, and the SRAM write puts them at their groups' places */
	job.lanes = vta_lut_real_lanes(&cfg, &m);
	job.rows = rows;
	job.packed = string.data();
	job.tables = table.data() + d.base + (per_channel ? (uint64_t)m.lut_chan * d.stride : 0);
	job.channels = per_channel ? vta_lut_row_channels(&cfg, mem) : 1;
	/* a multi-block load moves to the next block's tables every lut_run rows of y */
	job.blocks = per_channel ? vta_lut_run_blocks(&m) : 1;
	job.block_rows = per_channel && m.lut_run ? (uint64_t)m.lut_run * m.x_size : 0;
	job.run_len = per_channel && mem == VTA_MEM_WGT ? (m.lut_group ? m.lut_group : cfg.block_in)
							: 1;
	job.stride = d.stride;
	job.wide = mem == VTA_MEM_ACC;
	job.cycle = cycle;
	out.resize(rows * job.lanes * (job.wide ? 4 : 1));
	if (vta_rtl_lut_load_run(rtl, &job, out.data(), cycles, &why) != VTA_OK)
		return false;
	if (m.lut_group)
		fill_rows(cfg, m, out);
	return true;
}

void lut_decoder::fill_rows(const vta_config &cfg, const vta_mem_insn &m,
			    std::vector<uint8_t> &rows)
{
	const uint32_t lanes = vta_lut_lanes(&cfg, VTA_MEM_WGT);
	const uint32_t real_lanes = vta_lut_real_lanes(&cfg, &m);
	std::vector<uint8_t> full((uint64_t)m.y_size * m.x_size * lanes);
	for (uint64_t y = 0; y < m.y_size; y++) {
		const uint64_t chan0 = vta_lut_row_chan(&cfg, &m, y);
		for (uint64_t x = 0; x < m.x_size; x++) {
			const uint64_t row = y * m.x_size + x;
			const uint8_t *from = rows.data() + row * real_lanes;
			uint8_t *to = full.data() + row * lanes;
			for (uint32_t l = 0; l < lanes; l++) {
				uint32_t real;
				to[l] = vta_lut_fill_lane(&cfg, &m, chan0, l, &real) ? from[real] : 0;
			}
		}
	}
	rows.swap(full);
}

void lut_decoder::commit(const vta_config &cfg, const vta_mem_insn &m,
			 const std::vector<uint8_t> &rows, uint8_t *sram)
{
	const uint64_t n = (uint64_t)m.y_size * m.x_size;
	if (n == 0) /* a load of no rows decodes nothing (and has no row size) */
		return;
	const uint64_t row_bytes = rows.size() / n;
	std::memcpy(sram + (uint64_t)m.sram_base * row_bytes, rows.data(), rows.size());
	st.elements += n * vta_lut_real_lanes(&cfg, &m);
	st.index_bytes += n * vta_load_elem_bytes(&cfg, &m);
}

} // namespace vtasim
