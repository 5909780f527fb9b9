/*
 * vta_cost.c - the cost formulas of the timing model (the formulas are in vta_cost.h).
 */
#include "vta_cost.h"

#include "vta_rules.h"

#include <string.h>

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	return a != 0 && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

uint32_t vta_cost_bus_bytes(const vta_config *cfg)
{
	return cfg->dram_bus_bits / 8;
}

uint64_t vta_cost_beats(const vta_config *cfg, uint64_t bytes)
{
	uint64_t bus = vta_cost_bus_bytes(cfg);
	return bytes / bus + (bytes % bus != 0);
}

uint32_t vta_cost_uop_ii(const vta_config *cfg, const vta_insn *insn)
{
	/* an ALU runs its op whatever its reset bit (vta_insn_resets) */
	if (insn->opcode == VTA_OP_ALU)
		return insn->alu.use_imm ? cfg->alu_imm_ii : cfg->alu_ii;
	return cfg->gemm_ii;
}

uint64_t vta_cost_uop_cycles(const vta_config *cfg, const vta_insn *insn)
{
	return sat_mul(vta_loop_uops(&insn->loop), vta_cost_uop_ii(cfg, insn));
}

uint64_t vta_cost_loop_cycles(const vta_config *cfg, uint64_t uops, uint64_t ii)
{
	uint64_t fixed = (uint64_t)cfg->insn_overhead_cycles + cfg->pipeline_fill_cycles;
	return sat_add(fixed, sat_mul(uops, ii));
}

uint64_t vta_cost_compute_cycles(const vta_config *cfg, const vta_insn *insn)
{
	return vta_cost_loop_cycles(cfg, vta_loop_uops(&insn->loop),
				    vta_cost_uop_ii(cfg, insn));
}

uint64_t vta_cost_dma_bytes(const vta_config *cfg, const vta_mem_insn *mem)
{
	return (uint64_t)mem->x_size * mem->y_size * vta_load_elem_bytes(cfg, mem);
}

uint64_t vta_cost_lut_elements(const vta_config *cfg, const vta_mem_insn *mem)
{
	if (!mem->lut_bw || mem->mem_type >= VTA_MEM_COUNT)
		return 0;
	return (uint64_t)mem->x_size * mem->y_size * vta_lut_real_lanes(cfg, mem);
}

uint64_t vta_cost_lut_decode_cycles(const vta_config *cfg, const vta_mem_insn *mem)
{
	if (!mem->lut_bw)
		return 0;
	/* rate = min(ipc, bus_bits / bw) indices per cycle, the second one fractional (12.8 at
	 * 5 bits on 64): ceil(E / rate) = max(ceil(E / ipc), ceil(E * bw / bus_bits)) */
	uint64_t n = vta_cost_lut_elements(cfg, mem);
	uint64_t ipc = cfg->decomp_indices_per_cycle, bus = cfg->dram_bus_bits;
	uint64_t lanes = n / ipc + (n % ipc != 0);
	uint64_t bits = sat_mul(n, mem->lut_bw);
	uint64_t words = bits / bus + (bits % bus != 0);
	return sat_add(lanes > words ? lanes : words, VTA_COST_LUT_FIXED_CYCLES);
}

uint64_t vta_cost_load_idle_cycles(const vta_config *cfg, const vta_mem_insn *mem)
{
	vta_dma_plan plan = vta_cost_dma_plan_of(mem, vta_load_elem_bytes(cfg, mem), false);
	uint64_t dma = vta_cost_dma_cycles(cfg, &plan);
	uint64_t decode = vta_cost_lut_decode_cycles(cfg, mem);
	if (plan.runs == 0)
		return cfg->insn_overhead_cycles;
	/* the decoder starts on the first data and cannot end before the last */
	uint64_t decoded = sat_add(cfg->dram_latency_cycles, decode);
	return sat_add(cfg->insn_overhead_cycles, dma > decoded ? dma : decoded);
}

vta_dma_plan vta_cost_dma_plan_of(const vta_mem_insn *mem, uint32_t elem_bytes, bool write)
{
	vta_dma_plan p = vta_cost_dma_plan_bytes(0);
	uint64_t row = (uint64_t)mem->x_size * elem_bytes;
	p.write = write;
	p.elem_bytes = elem_bytes;
	if (row == 0 || mem->y_size == 0)
		return p;
	p.runs = mem->y_size;
	p.run_bytes = row;
	p.addr = (uint64_t)mem->dram_base * elem_bytes;
	p.stride = (uint64_t)mem->x_stride * elem_bytes;
	uint64_t width = (uint64_t)mem->x_pad_0 + mem->x_size + mem->x_pad_1;
	uint64_t height = (uint64_t)mem->y_pad_0 + mem->y_size + mem->y_pad_1;
	p.pad_elems = width * height - (uint64_t)mem->x_size * mem->y_size;
	return p;
}

vta_dma_plan vta_cost_dma_plan_bytes(uint64_t bytes)
{
	vta_dma_plan p = {bytes ? 1 : 0, bytes, 0, bytes, 0, 0, false};
	return p;
}

uint64_t vta_cost_next_burst(const vta_config *cfg, const vta_dma_plan *plan, vta_burst_walk *w)
{
	if (w->row >= plan->runs || plan->run_bytes == 0)
		return 0;
	const uint64_t at = plan->addr + w->row * plan->stride + w->off;
	const uint64_t bound = cfg->dram_burst_boundary_bytes;
	uint64_t n = bound - at % bound;
	if (n > cfg->dram_max_burst_bytes)
		n = cfg->dram_max_burst_bytes;
	if (n > plan->run_bytes - w->off)
		n = plan->run_bytes - w->off;
	w->off += n;
	if (w->off == plan->run_bytes) {
		w->row++;
		w->off = 0;
	}
	return n;
}

/* Rows whose starts lie alike against the burst boundary split alike; row starts repeat
 * their offset from it every this many rows. */
static uint64_t dma_row_period(const vta_config *cfg, const vta_dma_plan *plan)
{
	uint64_t a = cfg->dram_burst_boundary_bytes, b = plan->stride % a;
	while (b) {
		const uint64_t t = a % b;
		a = b;
		b = t;
	}
	return cfg->dram_burst_boundary_bytes / a; /* the boundary over gcd(stride, boundary) */
}

/* The bursts and beats of the plan's first `rows` rows, walked. */
typedef struct dma_count {
	uint64_t bursts, beats;
} dma_count;

static dma_count dma_count_rows(const vta_config *cfg, const vta_dma_plan *plan, uint64_t rows)
{
	vta_dma_plan part = *plan;
	part.runs = rows;
	vta_burst_walk w = {0, 0};
	dma_count c = {0, 0};
	for (uint64_t bytes; (bytes = vta_cost_next_burst(cfg, &part, &w)) != 0; c.bursts++)
		c.beats += vta_cost_beats(cfg, bytes);
	return c;
}

/* The plan's bursts and beats: every period of rows splits as the first one. */
static dma_count dma_count_plan(const vta_config *cfg, const vta_dma_plan *plan)
{
	const uint64_t period = dma_row_period(cfg, plan);
	if (plan->runs <= period)
		return dma_count_rows(cfg, plan, plan->runs);
	const dma_count one = dma_count_rows(cfg, plan, period);
	const dma_count rest = dma_count_rows(cfg, plan, plan->runs % period);
	const uint64_t periods = plan->runs / period;
	return (dma_count){sat_add(sat_mul(one.bursts, periods), rest.bursts),
			   sat_add(sat_mul(one.beats, periods), rest.beats)};
}

uint64_t vta_cost_dma_bursts(const vta_config *cfg, const vta_dma_plan *plan)
{
	return dma_count_plan(cfg, plan).bursts;
}

uint64_t vta_cost_write_burst_cycles(const vta_config *cfg, const vta_dma_plan *plan,
				     uint64_t bytes)
{
	uint64_t eb = plan->elem_bytes ? plan->elem_bytes : bytes;
	uint64_t elems = eb ? bytes / eb + (bytes % eb != 0) : 0;
	uint64_t reads = elems > 1 ? sat_mul(elems - 1, cfg->store_read_cycles) : 0;
	return sat_add(vta_cost_beats(cfg, bytes), reads);
}

uint64_t vta_cost_pad_fill_cycles(const vta_config *cfg, const vta_dma_plan *plan)
{
	if (plan->write || plan->pad_elems == 0)
		return 0;
	return sat_add(vta_cost_dma_beats(cfg, plan), sat_mul(plan->pad_elems, cfg->pad_elem_cycles));
}

static uint64_t max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

void vta_read_chan_reset(vta_read_chan *c, uint64_t t)
{
	c->addr_free = c->data_free = t;
	c->n = 0;
	for (size_t i = 0; i < VTA_MAX_BURSTS_IN_FLIGHT; i++)
		c->tag_free[i] = t;
}

uint64_t vta_read_chan_ready(const vta_config *cfg, const vta_read_chan *c, uint64_t ask)
{
	return max64(max64(ask, c->addr_free), c->tag_free[c->n % cfg->dram_max_read_bursts]);
}

vta_burst_time vta_read_chan_issue(const vta_config *cfg, vta_read_chan *c, uint64_t ask,
				   uint64_t beats)
{
	vta_burst_time t;
	t.req = vta_read_chan_ready(cfg, c, ask);
	t.first = max64(sat_add(t.req, cfg->dram_latency_cycles), c->data_free);
	t.end = sat_add(t.first, beats);
	c->addr_free = t.req + 1;
	c->data_free = t.end;
	c->tag_free[c->n++ % cfg->dram_max_read_bursts] = t.end;
	return t;
}

void vta_write_chan_reset(vta_write_chan *c, uint64_t t)
{
	c->data_free = t;
	c->n = 0;
	for (size_t i = 0; i < VTA_MAX_BURSTS_IN_FLIGHT; i++)
		c->resp[i] = t;
}

vta_burst_time vta_write_chan_issue(const vta_config *cfg, vta_write_chan *c, uint64_t ask,
				    uint64_t cycles)
{
	vta_burst_time t;
	uint64_t *slot = &c->resp[c->n++ % cfg->dram_max_write_bursts];
	t.req = max64(ask, *slot);
	t.first = max64(t.req, c->data_free);
	c->data_free = sat_add(t.first, cycles);
	t.end = sat_add(sat_add(c->data_free, cfg->dram_latency_cycles), cfg->dram_write_ack_cycles);
	*slot = t.end;
	return t;
}

/*
 * An idle channel walking a plan. The channel is a max-plus system: its state (the times in
 * it) after a row is a function of the state before it that commutes with adding a constant
 * to every time. So once a block of rows (whole periods of rows that split alike) moves
 * every time of the state by the same amount D, each later block moves it by D too, and the
 * blocks left are added at once. A block issues at least as many bursts as the channel
 * holds, so the state compared is all the history that matters. A tall transfer then costs
 * a few blocks, not every burst; the result is the burst-by-burst walk's.
 */
typedef struct dma_walk {
	const vta_config *cfg;
	const vta_dma_plan *plan;
	uint32_t slots; /* bursts the channel holds */
	vta_read_chan rc;
	vta_write_chan wc;
	uint64_t end; /* the last burst's end */
} dma_walk;

static void dma_walk_row(dma_walk *d, uint64_t row)
{
	vta_burst_walk w = {row, 0};
	uint64_t bytes;
	while (w.row == row && (bytes = vta_cost_next_burst(d->cfg, d->plan, &w)) != 0)
		d->end = d->plan->write
				 ? vta_write_chan_issue(d->cfg, &d->wc, 0,
							vta_cost_write_burst_cycles(d->cfg, d->plan,
										    bytes))
					   .end
				 : vta_read_chan_issue(d->cfg, &d->rc, 0, vta_cost_beats(d->cfg, bytes))
					   .end;
}

/* The state's times, oldest burst first: slots + 3 of them. */
static void dma_walk_state(const dma_walk *d, uint64_t *t)
{
	const bool write = d->plan->write;
	const uint64_t *ring = write ? d->wc.resp : d->rc.tag_free;
	const uint64_t n = write ? d->wc.n : d->rc.n;
	for (uint32_t i = 0; i < d->slots; i++)
		t[i] = ring[(n + i) % d->slots];
	t[d->slots] = write ? d->wc.data_free : d->rc.data_free;
	t[d->slots + 1] = write ? d->wc.data_free : d->rc.addr_free;
	t[d->slots + 2] = d->end;
}

/* The amount every time moved by from a to b, or 0 when they did not all move alike. */
static uint64_t dma_walk_shift(const uint64_t *a, const uint64_t *b, uint32_t n)
{
	const uint64_t shift = b[0] - a[0];
	for (uint32_t i = 0; i < n; i++)
		if (b[i] < a[i] || b[i] - a[i] != shift || b[i] == UINT64_MAX)
			return 0;
	return shift;
}

static void dma_walk_add(dma_walk *d, uint64_t add)
{
	uint64_t *ring = d->plan->write ? d->wc.resp : d->rc.tag_free;
	for (uint32_t i = 0; i < d->slots; i++)
		ring[i] = sat_add(ring[i], add);
	if (d->plan->write) {
		d->wc.data_free = sat_add(d->wc.data_free, add);
	} else {
		d->rc.data_free = sat_add(d->rc.data_free, add);
		d->rc.addr_free = sat_add(d->rc.addr_free, add);
	}
	d->end = sat_add(d->end, add);
}

/* The last burst's end of the plan's rows on an idle channel. */
static uint64_t dma_walk_rows(const vta_config *cfg, const vta_dma_plan *plan)
{
	dma_walk d = {.cfg = cfg, .plan = plan};
	d.slots = plan->write ? cfg->dram_max_write_bursts : cfg->dram_max_read_bursts;
	if (d.slots == 0 || d.slots > VTA_MAX_BURSTS_IN_FLIGHT)
		d.slots = VTA_MAX_BURSTS_IN_FLIGHT;
	vta_read_chan_reset(&d.rc, 0);
	vta_write_chan_reset(&d.wc, 0);
	/* a block: whole periods of rows, at least as many bursts as the channel holds (a
	 * row has at least one burst) */
	const uint64_t period = dma_row_period(cfg, plan);
	const uint64_t block = period * ((d.slots + period - 1) / period);
	uint64_t prev[VTA_MAX_BURSTS_IN_FLIGHT + 3], cur[VTA_MAX_BURSTS_IN_FLIGHT + 3];
	const uint32_t n = d.slots + 3;
	uint64_t row = 0;
	bool have_prev = false;
	while (row < plan->runs) {
		if (plan->runs - row < block) { /* the last rows, fewer than a block */
			dma_walk_row(&d, row++);
			continue;
		}
		for (uint64_t r = 0; r < block; r++)
			dma_walk_row(&d, row++);
		dma_walk_state(&d, cur);
		const uint64_t shift = have_prev ? dma_walk_shift(prev, cur, n) : 0;
		if (shift) {
			const uint64_t blocks = (plan->runs - row) / block;
			dma_walk_add(&d, sat_mul(blocks, shift));
			row += blocks * block;
			have_prev = false;
			continue;
		}
		memcpy(prev, cur, n * sizeof(cur[0]));
		have_prev = true;
	}
	return d.end;
}

uint64_t vta_cost_dma_cycles(const vta_config *cfg, const vta_dma_plan *plan)
{
	if (plan->runs == 0 || plan->run_bytes == 0)
		return 0;
	const uint64_t end = dma_walk_rows(cfg, plan);
	if (plan->write)
		return end;
	return max64(sat_add(end, cfg->dram_read_pipeline_cycles), vta_cost_pad_fill_cycles(cfg, plan));
}

uint64_t vta_cost_dma_beats(const vta_config *cfg, const vta_dma_plan *plan)
{
	return dma_count_plan(cfg, plan).beats;
}

uint64_t vta_cost_dma_idle_cycles(const vta_config *cfg, const vta_dma_plan *plan)
{
	return sat_add(cfg->insn_overhead_cycles, vta_cost_dma_cycles(cfg, plan));
}

uint64_t vta_cost_fetch_burst_insns(const vta_config *cfg)
{
	uint64_t n = cfg->dram_max_burst_bytes / cfg->insn_bytes;
	return n ? n : 1;
}

uint64_t vta_cost_fetch_arrival(const vta_config *cfg, uint64_t j)
{
	return cfg->dram_latency_cycles + vta_cost_beats(cfg, (j + 1) * cfg->insn_bytes);
}

uint64_t vta_cost_fetch_ready(const vta_config *cfg, uint64_t j, uint64_t count)
{
	if (cfg->fetch_dispatch == VTA_FETCH_STREAM || count == 0)
		return vta_cost_fetch_arrival(cfg, j);
	return sat_add(vta_cost_fetch_arrival(cfg, count - 1), j);
}

static vta_bound roofline_bound(const vta_roofline *r)
{
	if (r->dram_cycles > r->compute_cycles)
		return VTA_BOUND_DRAM;
	return r->alu_cycles > r->gemm_cycles ? VTA_BOUND_ALU : VTA_BOUND_GEMM;
}

vta_roofline vta_cost_roofline(const vta_config *cfg, const vta_roofline_work *w)
{
	vta_roofline r;
	uint64_t per_uop = (uint64_t)cfg->batch * cfg->block_in * cfg->block_out;
	r.gemm_cycles = sat_mul(w->macs / per_uop + (w->macs % per_uop != 0), cfg->gemm_ii);
	r.alu_cycles = sat_add(sat_mul(w->alu_tensor_uops, cfg->alu_ii), sat_mul(w->alu_imm_uops, cfg->alu_imm_ii));
	r.compute_cycles = sat_add(r.gemm_cycles, r.alu_cycles);
	r.dram_cycles = vta_cost_beats(cfg, w->dram_bytes);
	r.roofline_cycles = r.compute_cycles > r.dram_cycles ? r.compute_cycles : r.dram_cycles;
	r.bound = roofline_bound(&r);
	return r;
}

void vta_cost_roofline_add(vta_roofline *sum, const vta_roofline *r)
{
	sum->gemm_cycles += r->gemm_cycles;
	sum->alu_cycles += r->alu_cycles;
	sum->compute_cycles += r->compute_cycles;
	sum->dram_cycles += r->dram_cycles;
	sum->roofline_cycles += r->roofline_cycles;
	sum->bound = roofline_bound(sum);
}

const char *vta_bound_name(vta_bound b)
{
	switch (b) {
	case VTA_BOUND_ALU:
		return "alu";
	case VTA_BOUND_DRAM:
		return "dram";
	case VTA_BOUND_GEMM:
		break;
	}
	return "gemm";
}
