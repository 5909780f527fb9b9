/*
 * lut_progs.h - test programs for the LUT decoder (header-only, for the ISA and simulator
 * tests): a table load, then decompressing loads of random indices, with the expected SRAM
 * rows computed from the indices themselves (never by unpacking), so the executors are
 * checked against an independent straightforward decoder.
 */
#ifndef LUT_PROGS_H
#define LUT_PROGS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vta_config.h"
#include "vta_insn.h"
#include "vta_program.h"
#include "vta_rules.h"

#define LUTP_TABLE_ADDR 0xf0000u /* above every index string of up to 4 rows, the large
				  * geometry's 7-bit WGT rows (0xe0000 + 4 x 896) too */
#define LUTP_INDEX_ELEM 1024u    /* dram_base of the packed indices */

typedef struct lutp {
	vta_mem mem;      /* WGT, INP or ACC */
	uint32_t bw, channels, stride, chan, rows; /* rows: SRAM rows decoded (y 1, x rows) */
	uint8_t *expect;  /* the SRAM rows expected, rows * row bytes */
	size_t expect_bytes;
} lutp;

static uint32_t lutp_rand(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static uint32_t lutp_channel(const vta_config *cfg, vta_mem mem, uint32_t lane)
{
	if (mem == VTA_MEM_WGT)
		return lane / cfg->block_in;
	return mem == VTA_MEM_ACC ? lane % cfg->block_out : lane % cfg->block_in;
}

/* Build: table load (slot 3) at table entry 16, then one decompressing load of p->rows
 * SRAM rows at SRAM row 2, then FINISH (tokens order the load module before it). */
static void lutp_build(const vta_config *cfg, lutp *p, uint32_t seed, vta_program *prog)
{
	uint32_t s = seed ? seed : 1;
	bool wide = p->mem == VTA_MEM_ACC;
	uint32_t lanes = vta_lut_lanes(cfg, p->mem);
	uint32_t packed = vta_lut_packed_bytes(cfg, p->mem, p->bw);
	uint32_t entries = p->channels * p->stride;
	int32_t *table = malloc(entries * sizeof(int32_t));
	uint8_t *tbytes = malloc(entries * 4);
	for (uint32_t i = 0; i < entries; i++) {
		table[i] = wide ? (int32_t)lutp_rand(&s) : (int32_t)(int8_t)lutp_rand(&s);
		if (wide)
			memcpy(tbytes + 4 * i, &table[i], 4);
		else
			tbytes[i] = (uint8_t)table[i];
	}
	uint8_t *idx = calloc((size_t)p->rows * packed, 1);
	size_t row_bytes = (size_t)lanes * (wide ? 4 : 1);
	p->expect_bytes = (size_t)p->rows * row_bytes;
	p->expect = malloc(p->expect_bytes);
	for (uint32_t r = 0; r < p->rows; r++) {
		for (uint32_t l = 0; l < lanes; l++) {
			uint32_t v = lutp_rand(&s) % p->stride;
			for (uint32_t b = 0; b < p->bw; b++) /* MSB first into the bit string */
				if (v >> (p->bw - 1 - b) & 1) {
					uint32_t bit = l * p->bw + b;
					idx[r * packed + bit / 8] |= (uint8_t)(0x80u >> (bit % 8));
				}
			uint32_t t = p->channels > 1 ? p->chan + lutp_channel(cfg, p->mem, l) : 0;
			int32_t e = table[t * p->stride + v];
			if (wide)
				memcpy(p->expect + r * row_bytes + 4 * l, &e, 4);
			else
				p->expect[r * row_bytes + l] = (uint8_t)e;
		}
	}
	vta_program_init(prog, cfg);
	vta_program_add_segment(prog, VTA_SEG_DATA, LUTP_TABLE_ADDR, tbytes,
				entries * (wide ? 4 : 1), NULL);
	vta_program_add_segment(prog, VTA_SEG_DATA, (uint64_t)LUTP_INDEX_ELEM * packed, idx,
				p->rows * packed, NULL);
	vta_insn in;
	memset(&in, 0, sizeof(in));
	in.opcode = VTA_OP_LOAD;
	in.mem = (vta_mem_insn){wide ? VTA_MEM_LUT32 : VTA_MEM_LUT,
				16,
				LUTP_TABLE_ADDR / (wide ? 4 : 1),
				p->channels,
				p->stride,
				p->stride,
				0, 0, 0, 0, 0, 3, 0, 0, 0, 0};
	vta_program_push(prog, cfg, &in, NULL);
	memset(&in, 0, sizeof(in));
	in.opcode = VTA_OP_LOAD;
	in.mem = (vta_mem_insn){p->mem, 2, LUTP_INDEX_ELEM, 1, p->rows, p->rows,
				0, 0, 0, 0, p->bw, 3, p->chan, 0, 0, 0};
	in.deps.push_next = !wide; /* the load module runs it: tell compute */
	vta_program_push(prog, cfg, &in, NULL);
	memset(&in, 0, sizeof(in));
	in.opcode = VTA_OP_FINISH;
	in.deps.pop_prev = !wide;
	vta_program_push(prog, cfg, &in, NULL);
	free(table);
	free(tbytes);
	free(idx);
}

#endif /* LUT_PROGS_H */
