/*
 * test_isa_cost.c - a transfer's cycles, beats and bursts on an idle DRAM port
 * (vta_cost_dma_cycles, _beats, _bursts), which add the rows of a tall transfer in blocks
 * once they repeat, against a plain walk written here from the channel rules in vta_cost.h:
 * every burst of every row, one after another.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>

#include "vta_cost.h"

/* The bursts of one row: none crosses the boundary or exceeds the largest burst. */
static uint64_t plain_burst(const vta_config *cfg, uint64_t at, uint64_t left)
{
	uint64_t n = cfg->dram_burst_boundary_bytes - at % cfg->dram_burst_boundary_bytes;
	if (n > cfg->dram_max_burst_bytes)
		n = cfg->dram_max_burst_bytes;
	return n < left ? n : left;
}

static uint64_t max2(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

typedef struct plain_walk {
	uint64_t cycles, beats, bursts;
} plain_walk;

/* Every burst walked in order; small values only (no saturation). */
static plain_walk plain(const vta_config *cfg, const vta_dma_plan *p)
{
	const uint64_t bus = cfg->dram_bus_bits / 8, lat = cfg->dram_latency_cycles;
	uint64_t ring[VTA_MAX_BURSTS_IN_FLIGHT] = {0};
	uint64_t addr_free = 0, data_free = 0, n = 0, end = 0, beats_all = 0;
	plain_walk out = {0, 0, 0};
	for (uint64_t r = 0; r < p->runs; r++)
		for (uint64_t off = 0; off < p->run_bytes;) {
			const uint64_t b = plain_burst(cfg, p->addr + r * p->stride + off,
						       p->run_bytes - off);
			off += b;
			const uint64_t beats = (b + bus - 1) / bus;
			beats_all += beats;
			if (p->write) {
				const uint64_t slot = n++ % cfg->dram_max_write_bursts;
				const uint64_t elems = (b + p->elem_bytes - 1) / p->elem_bytes;
				const uint64_t first = max2(ring[slot], data_free);
				data_free = first + beats + (elems - 1) * cfg->store_read_cycles;
				end = data_free + lat + cfg->dram_write_ack_cycles;
				ring[slot] = end;
			} else {
				const uint64_t slot = n++ % cfg->dram_max_read_bursts;
				const uint64_t req = max2(addr_free, ring[slot]);
				end = max2(req + lat, data_free) + beats;
				addr_free = req + 1;
				data_free = end;
				ring[slot] = end;
			}
		}
	out.beats = beats_all;
	out.bursts = n;
	out.cycles = p->write ? end
			      : max2(end + cfg->dram_read_pipeline_cycles,
				     p->pad_elems ? beats_all + p->pad_elems * cfg->pad_elem_cycles : 0);
	return out;
}

static uint64_t plain_cycles(const vta_config *cfg, const vta_dma_plan *p)
{
	return plain(cfg, p).cycles;
}

static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static uint64_t rng(uint64_t n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state % n;
}

/* Random channels and transfers, tall ones among them, reads and writes, rows that split
 * alike and rows that do not. */
static void test_against_plain_walk(void **state)
{
	(void)state;
	static const uint32_t buses[] = {32, 64, 128, 256, 512};
	static const uint64_t bounds[] = {64, 256, 2048, 4096};
	for (int i = 0; i < 3000; i++) {
		vta_config cfg;
		vta_config_default(&cfg);
		cfg.dram_bus_bits = buses[rng(5)];
		cfg.dram_burst_boundary_bytes = bounds[rng(4)];
		cfg.dram_max_burst_bytes = cfg.dram_burst_boundary_bytes >> rng(3);
		cfg.dram_latency_cycles = (uint32_t)rng(300);
		cfg.dram_max_read_bursts = 1 + (uint32_t)rng(i % 7 == 0 ? 256 : 20);
		cfg.dram_max_write_bursts = 1 + (uint32_t)rng(20);
		cfg.dram_write_ack_cycles = (uint32_t)rng(4);
		cfg.dram_read_pipeline_cycles = (uint32_t)rng(4);
		cfg.store_read_cycles = (uint32_t)rng(3);
		cfg.pad_elem_cycles = (uint32_t)rng(2);
		vta_dma_plan p = vta_cost_dma_plan_bytes(0);
		p.runs = 1 + rng(i % 3 == 0 ? 3000 : 40);
		p.run_bytes = 1 + rng(3 * cfg.dram_burst_boundary_bytes);
		p.addr = rng(4) == 0 ? 0 : rng(1 << 20);
		p.stride = rng(2) ? cfg.dram_burst_boundary_bytes * (1 + rng(3)) + 0
				  : p.run_bytes + rng(100);
		if (p.stride < p.run_bytes)
			p.stride = p.run_bytes;
		p.write = rng(2);
		p.elem_bytes = p.write ? 1u << rng(5) : 0;
		p.pad_elems = p.write ? 0 : rng(3) * rng(500);
		const plain_walk pw = plain(&cfg, &p);
		assert_int_equal(vta_cost_dma_beats(&cfg, &p), pw.beats);
		assert_int_equal(vta_cost_dma_bursts(&cfg, &p), pw.bursts);
		const uint64_t want = pw.cycles, got = vta_cost_dma_cycles(&cfg, &p);
		if (want != got)
			fail_msg("case %d: %s, %llu rows of %llu B, stride %llu, addr %llu: walk %llu, "
				 "vta_cost_dma_cycles %llu",
				 i, p.write ? "write" : "read", (unsigned long long)p.runs,
				 (unsigned long long)p.run_bytes, (unsigned long long)p.stride,
				 (unsigned long long)p.addr, (unsigned long long)want,
				 (unsigned long long)got);
	}
}

/* A transfer far too tall to walk burst by burst still ends, its rows added in blocks: 2^40
 * rows of one beat each cost what the plain walk's steady rate per 4096 rows says. */
static void test_tall_transfer_in_blocks(void **state)
{
	(void)state;
	vta_config cfg;
	vta_config_default(&cfg);
	vta_dma_plan p = vta_cost_dma_plan_bytes(0);
	p.run_bytes = cfg.dram_bus_bits / 8;
	p.stride = cfg.dram_burst_boundary_bytes;
	p.runs = 4096;
	const uint64_t a = plain_cycles(&cfg, &p);
	p.runs = 8192;
	const uint64_t b = plain_cycles(&cfg, &p);
	p.runs = (uint64_t)1 << 40;
	assert_int_equal(vta_cost_dma_cycles(&cfg, &p), a + (p.runs - 4096) / 4096 * (b - a));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_against_plain_walk),
		cmocka_unit_test(test_tall_transfer_in_blocks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
