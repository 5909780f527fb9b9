/*
 * dma.cc - data movement of the 2D DMA (semantics in dma.h; its checks are vta_rules.h's).
 */
#include "dma.h"

#include <string.h>

#include "vta_bytes.h"

namespace {

uint64_t row_addr(const vta_mem_insn *m, uint64_t row, uint32_t eb)
{
	return ((uint64_t)m->dram_base + row * m->x_stride) * eb;
}

} // namespace

extern "C" void vtasim_load_exec(const vta_config *cfg, const vta_mem_insn *m,
				 const vta_dram *dram, uint8_t *sram)
{
	vta_mem mem = (vta_mem)m->mem_type;
	uint32_t dram_eb = vta_config_dram_elem_bytes(cfg, mem);
	/* a row of the SRAM the load writes (ACC_8BIT: ACC's) holds one element */
	uint32_t sram_eb = cfg->sram[vta_mem_info_of(mem)->space].elem_bytes;
	uint64_t width = (uint64_t)m->x_pad_0 + m->x_size + m->x_pad_1;
	uint8_t *base = sram + (uint64_t)m->sram_base * sram_eb;
	uint64_t row_bytes = width * sram_eb;
	/* zero only the padding: the top and bottom pad rows and each row's side pads */
	memset(base, 0, m->y_pad_0 * row_bytes);
	memset(base + (m->y_pad_0 + (uint64_t)m->y_size) * row_bytes, 0, m->y_pad_1 * row_bytes);
	const bool side_pads = m->x_pad_0 || m->x_pad_1; /* most loads have none: no calls */
	for (uint64_t r = 0; r < m->y_size; r++) {
		uint8_t *d = base + (m->y_pad_0 + r) * row_bytes;
		if (side_pads) {
			memset(d, 0, (uint64_t)m->x_pad_0 * sram_eb);
			memset(d + ((uint64_t)m->x_pad_0 + m->x_size) * sram_eb, 0,
			       (uint64_t)m->x_pad_1 * sram_eb);
		}
		d += (uint64_t)m->x_pad_0 * sram_eb;
		const uint8_t *s = dram->bytes + row_addr(m, r, dram_eb);
		if (mem == VTA_MEM_ACC_8BIT) {
			/* int8 lanes widen to int32 lanes, little-endian */
			uint64_t lanes = (uint64_t)m->x_size * dram_eb;
			for (uint64_t l = 0; l < lanes; l++)
				vta_le_put(d + 4 * l, 4, (uint32_t)(int32_t)(int8_t)s[l]);
		} else {
			memcpy(d, s, (uint64_t)m->x_size * sram_eb);
		}
	}
}

extern "C" void vtasim_store_exec(const vta_config *cfg, const vta_mem_insn *m,
				  const uint8_t *out, vta_dram *dram)
{
	uint32_t eb = cfg->sram[VTA_MEM_OUT].elem_bytes;
	uint64_t len = (uint64_t)m->x_size * eb;
	for (uint64_t r = 0; r < m->y_size; r++)
		memcpy(dram->bytes + row_addr(m, r, eb),
		       out + ((uint64_t)m->sram_base + r * m->x_size) * eb, len);
}
