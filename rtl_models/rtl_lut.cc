/*
 * rtl_lut.cc - the C interface of the verilated LUT decoders. Every decoder job writes the
 * tables it needs through the table port (one port word per cycle), pulses start and
 * streams the index string one bus word per cycle whenever in_ready is high, collecting the
 * output beats in order.
 *
 * Two callers map their work onto jobs: vta_rtl_lut_decode splits a tensor into channel
 * groups whose tables fit the decoder's table (int8 entries widened to the RTL's 32 bits,
 * values read back as their low byte); vta_rtl_lut_load_run runs one LOAD of padded rows as
 * one job, writing only the table words that differ from what the table already holds.
 * Everything the RTL cannot report by itself (the index and channel of a bad element) is
 * read back from the job for the message.
 */
#include "rtl_lut.h"

#include <cstdint>
#include <new>
#include <string>
#include <vector>

#include "rtl_harness.h"
#include "rtl_lut_variants.h"
#include "vta_limits.h"
#include "vta_rules.h"

namespace {

/* The job registers of the RTL and the index string from its first byte. */
struct rtl_job {
	unsigned bitwidth;
	unsigned skip_bits;
	uint32_t count, stride, run_len, channels, row_len, table_base;
	uint32_t block_len; /* indices per channel block, 0: one block */
	const uint8_t *bytes;
	size_t nbytes;
};

/* Where the values go: int8 (an entry's low byte) or whole 32-bit entries. */
struct value_sink {
	int8_t *i8;
	uint32_t *u32;
	void put(size_t e, uint32_t v) const
	{
		if (i8)
			i8[e] = (int8_t)(uint8_t)v;
		else
			u32[e] = v;
	}
};

/* What a job did. */
struct job_result {
	uint64_t cycles;   /* start to the last output beat */
	uint64_t words;    /* index words streamed */
	size_t bad_elem;   /* first index at or beyond the stride, or SIZE_MAX */
};

} // namespace

/* The handle is the decoder itself: each built variant derives from it. */
struct vta_rtl_lut {
	virtual ~vta_rtl_lut() = default;
	virtual unsigned in_bits() const = 0;
	virtual size_t port_entries() const = 0; /* table entries per table-port word */
	virtual bool trace_open(const char *path) = 0;
	virtual void at_cycle(uint64_t c) = 0;
	/* Write port_entries() entries at table word waddr: one cycle. */
	virtual void table_write(size_t waddr, const uint32_t *entries) = 0;
	virtual vta_status run(const rtl_job &job, value_sink out, job_result *res,
			       vta_error *err) = 0;

	/* What the RTL's table holds (it starts zeroed), so that a load writes only the words
	 * it changes. */
	std::vector<uint32_t> held;

	size_t table_entries() const { return held.size(); }

	/* Write table word waddr from e (port_entries() entries) if it differs from what the
	 * table holds, or always; returns whether it was written. */
	bool put_word(size_t waddr, const uint32_t *e, bool always)
	{
		size_t te = port_entries();
		uint32_t *h = held.data() + waddr * te;
		bool same = true;
		for (size_t j = 0; j < te; j++)
			same = same && h[j] == e[j];
		if (same && !always)
			return false;
		table_write(waddr, e);
		for (size_t j = 0; j < te; j++)
			h[j] = e[j];
		return true;
	}
};

namespace {

constexpr size_t k_table_entries = size_t{1} << VTA_RTL_LUT_TABLE_AW;
constexpr size_t k_port_max = 64; /* table-port entries of a 2048-bit bus */

template <class Model, unsigned IN_BITS, unsigned IPC>
class lut_decoder final : public vta_rtl_lut {
	static constexpr size_t LANES = IN_BITS / 8;
	/* the table port: max(1, IN_BITS / 32) entries of 32 bits */
	static constexpr size_t TE = IN_BITS > 32 ? IN_BITS / 32 : 1;
	static_assert(TE <= k_port_max, "a table-port word beyond the wrappers' buffers");

public:
	lut_decoder() : h_("vta_lut_decoder") { held.assign(k_table_entries, 0); }

	unsigned in_bits() const override { return IN_BITS; }
	size_t port_entries() const override { return TE; }
	bool trace_open(const char *path) override { return h_.trace_open(path); }
	void at_cycle(uint64_t c) override { h_.at_cycle(c); }

	void table_write(size_t waddr, const uint32_t *entries) override
	{
		Model &io = h_.io();
		io.tbl_we = 1;
		io.tbl_waddr = (decltype(+io.tbl_waddr))waddr;
		vtasim_rtl::port_set_i32(io.tbl_wdata, (const int32_t *)entries, TE);
		h_.tick();
		io.tbl_we = 0;
	}

	vta_status run(const rtl_job &jb, value_sink out, job_result *res,
		       vta_error *err) override
	{
		Model &io = h_.io();
		uint8_t word[LANES];
		size_t nwords = (jb.nbytes + LANES - 1) / LANES;

		uint64_t c0 = h_.cycles();
		io.start = 1;
		io.bitwidth = (CData)jb.bitwidth;
		io.count = (IData)jb.count;
		io.stride = (CData)jb.stride; /* 128 fits the 8-bit port */
		io.run_len = (IData)jb.run_len;
		io.channels = (IData)jb.channels;
		io.block_len = (IData)jb.block_len;
		io.row_len = (IData)jb.row_len;
		io.skip_bits = (CData)jb.skip_bits;
		io.table_base = (decltype(+io.table_base))jb.table_base;
		h_.tick();
		io.start = 0;

		/* Every cycle with data available emits at least one index, so this bound is only
		 * reached if the RTL stalls. */
		uint64_t limit = 2 * ((uint64_t)jb.count + nwords) + 16;
		size_t produced = 0, sent = 0;
		while (io.busy || io.out_valid) {
			bool have = sent < nwords;
			if (have) {
				size_t b = sent * LANES;
				for (size_t j = 0; j < LANES; j++)
					word[j] = b + j < jb.nbytes ? jb.bytes[b + j] : 0;
				vtasim_rtl::port_set_bytes(io.in_data, word, LANES);
			}
			io.in_valid = have;
			bool take = have && io.in_ready; /* in_ready depends on state only */
			h_.tick();
			if (take)
				sent++;
			if (io.out_valid) {
				unsigned n = io.out_count;
				if (n > jb.count - produced)
					return vta_fail(err, VTA_E_INTERNAL,
							"RTL LUT decoder: emitted more than %lu values",
							(unsigned long)jb.count);
				for (unsigned j = 0; j < n; j++)
					out.put(produced + j,
						(uint32_t)vtasim_rtl::port_i32(io.out_values, j));
				produced += n;
			}
			if (h_.cycles() - c0 > limit)
				return vta_fail(err, VTA_E_INTERNAL,
						"RTL LUT decoder: stalled after %zu of %lu values",
						produced, (unsigned long)jb.count);
		}
		io.in_valid = 0;
		res->cycles = h_.cycles() - c0;
		res->words = sent;
		if (produced != jb.count)
			return vta_fail(err, VTA_E_INTERNAL,
					"RTL LUT decoder: emitted %zu of %lu values", produced,
					(unsigned long)jb.count);
		res->bad_elem = io.err ? (size_t)io.err_elem : SIZE_MAX;
		return VTA_OK;
	}

private:
	vtasim_rtl::harness<Model> h_;
};

#define VARIANT_PAIR(b, i) {b, i},
const unsigned k_variants[][2] = {VTA_RTL_LUT_BUILT(VARIANT_PAIR)};
#undef VARIANT_PAIR

vta_rtl_lut *make_decoder(unsigned in_bits, unsigned ipc)
{
#define VARIANT_MAKE(b, i)                                                                 \
	if (in_bits == (b) && ipc == (i))                                                  \
		return new lut_decoder<Vvta_lut_decoder_##b##x##i, b, i>;
	VTA_RTL_LUT_BUILT(VARIANT_MAKE)
#undef VARIANT_MAKE
	return nullptr;
}

/* Index e of the string (for messages). */
unsigned read_index(const uint8_t *s, size_t e, unsigned bw)
{
	unsigned v = 0;
	for (unsigned k = 0; k < bw; k++) {
		size_t bit = e * bw + k;
		v = (v << 1) | ((s[bit / 8] >> (7 - bit % 8)) & 1u);
	}
	return v;
}

/* ----- the tensor interface ----- */

/* One job of a tensor: a run of whole channels. */
struct lut_group {
	size_t first_elem;   /* element number of the group's first index in the tensor */
	size_t count;
	size_t channels;     /* channels in the group (all C for axis last) */
	size_t run_len;      /* elements per channel run: count/C, or 1 for axis last */
	size_t table_first;  /* first table entry of the group in job->table */
	size_t table_entries;
};

vta_status run_group(vta_rtl_lut *lut, const vta_rtl_lut_job *job, const lut_group &g,
		     int8_t *out, vta_rtl_lut_stats *st, size_t *bad_elem, vta_error *err)
{
	/* Tables: port words from the aligned-down entry, so the group's tables start at entry
	 * table_base inside the decoder; int8 entries sign-extended as in the model's table. */
	size_t te = lut->port_entries();
	size_t t0 = g.table_first / te * te;
	size_t tend = g.table_first + g.table_entries;
	size_t table_total = job->channels * job->stride;
	uint32_t e[k_port_max];
	for (size_t a = t0, wa = 0; a < tend; a += te, wa++) {
		for (size_t j = 0; j < te; j++)
			e[j] = a + j < table_total ? (uint32_t)(int32_t)job->table[a + j] : 0;
		lut->put_word(wa, e, true);
		st->table_cycles++;
	}

	/* The group's bits start at element first_elem; whole bytes are skipped on the host
	 * side, the rest by the decoder's skip_bits. */
	size_t bit0 = g.first_elem * job->bitwidth;
	rtl_job jb;
	jb.bitwidth = job->bitwidth;
	jb.skip_bits = (unsigned)(bit0 % 8);
	jb.count = (uint32_t)g.count;
	jb.stride = (uint32_t)job->stride;
	jb.run_len = (uint32_t)g.run_len;
	jb.channels = (uint32_t)g.channels;
	jb.row_len = 0;
	jb.block_len = 0;
	jb.table_base = (uint32_t)(g.table_first - t0);
	jb.bytes = job->indices + bit0 / 8;
	jb.nbytes = (jb.skip_bits + g.count * job->bitwidth + 7) / 8;
	job_result r;
	vta_status s = lut->run(jb, value_sink{out, nullptr}, &r, err);
	if (s != VTA_OK)
		return s;
	st->decode_cycles += r.cycles;
	st->words += r.words;
	st->jobs++;
	*bad_elem = r.bad_elem;
	return VTA_OK;
}

vta_status check_job(const vta_rtl_lut_job *job, size_t out_len, vta_error *err)
{
	if (job->bitwidth < 1 || job->bitwidth > VTA_LUT_MAX_BITWIDTH)
		return vta_fail(err, VTA_E_DATA, "LUT decoder: index bit width %u is outside 1..%d",
				job->bitwidth, VTA_LUT_MAX_BITWIDTH);
	if (job->stride < 1 || job->stride > VTA_LUT_MAX_STRIDE)
		return vta_fail(err, VTA_E_DATA,
				"LUT decoder: value table stride %zu is outside 1..%d", job->stride,
				VTA_LUT_MAX_STRIDE);
	if (job->channels < 1 || (!job->run_len && job->count % job->channels != 0))
		return vta_fail(err, VTA_E_DATA,
				"LUT decoder: channel count %zu does not divide element count %zu",
				job->channels, job->count);
	if (job->count > UINT32_MAX)
		return vta_fail(err, VTA_E_UNSUPPORTED,
				"LUT decoder: %zu elements exceed the 32-bit element counter",
				job->count);
	if (!job->table)
		return vta_fail(err, VTA_E_DATA, "LUT decoder: no value table");
	size_t need = job->count / 8 * job->bitwidth + (job->count % 8 * job->bitwidth + 7) / 8;
	if ((need > 0 && !job->indices) || job->indices_bytes < need)
		return vta_fail(err, VTA_E_DATA,
				"LUT decoder: index string has %zu bytes, %zu elements at %u bits "
				"need %zu",
				job->indices ? job->indices_bytes : 0, job->count, job->bitwidth, need);
	if (out_len < job->count)
		return vta_fail(err, VTA_E_USAGE,
				"LUT decoder: output holds %zu values, the tensor has %zu", out_len,
				job->count);
	return VTA_OK;
}

/* ----- a LOAD of the model ----- */

/* The entries of each channel's table the decoder holds: an index of `bitwidth` bits reads
 * at most entry 2^bitwidth - 1, so a longer table (the ISA allows any stride) is held only
 * that far, and a shorter one whole, which keeps the RTL's 8-bit stride register (<= 128)
 * and its bad-index check exact: an index at or beyond the stride is one only when the
 * stride is below 2^bitwidth. */
unsigned held_stride(const vta_rtl_lut_load *ld)
{
	const unsigned readable = 1u << ld->bitwidth;
	return ld->stride < readable ? ld->stride : readable;
}

vta_status check_load(const vta_rtl_lut *lut, const vta_rtl_lut_load *ld, const void *out,
		      vta_error *err)
{
	if (!ld || !out || !ld->packed || !ld->tables)
		return vta_fail(err, VTA_E_USAGE, "datapath rtl: LUT load without %s",
				!ld ? "a load" : !out ? "an output" : !ld->packed ? "packed rows"
									: "tables");
	if (ld->bitwidth < 1 || ld->bitwidth > VTA_LUT_MAX_BITWIDTH || ld->lanes < 1 || ld->rows < 1 ||
	    ld->channels < 1 || ld->run_len < 1 || ld->stride < 1 ||
	    (ld->blocks > 1 && ld->block_rows < 1))
		return vta_fail(err, VTA_E_USAGE,
				"datapath rtl: malformed LUT load (bit width %u, %u lanes, %llu rows, "
				"%u channels, run %u, stride %u, %u blocks of %llu rows)",
				ld->bitwidth, ld->lanes, (unsigned long long)ld->rows, ld->channels,
				ld->run_len, ld->stride, ld->blocks,
				(unsigned long long)ld->block_rows);
	if (ld->rows > UINT32_MAX / ld->lanes)
		return vta_fail(err, VTA_E_UNSUPPORTED,
				"datapath rtl: a LUT load of %llu rows of %u lanes exceeds the RTL "
				"decoder's 32-bit element counter",
				(unsigned long long)ld->rows, ld->lanes);
	if (ld->block_rows > UINT32_MAX / ld->lanes)
		return vta_fail(err, VTA_E_UNSUPPORTED,
				"datapath rtl: a LUT load's channel block of %llu rows exceeds the RTL "
				"decoder's 32-bit block counter",
				(unsigned long long)ld->block_rows);
	const uint64_t blocks = ld->blocks > 1 ? ld->blocks : 1;
	if (blocks * ld->channels * held_stride(ld) > lut->table_entries())
		return vta_fail(err, VTA_E_UNSUPPORTED,
				"datapath rtl: a LUT load's %llu tables of %u entries exceed the RTL "
				"decoder's table of %zu entries",
				(unsigned long long)(blocks * ld->channels), held_stride(ld),
				lut->table_entries());
	return VTA_OK;
}

} // namespace

extern "C" size_t vta_rtl_lut_variants(unsigned (*variants)[2], size_t max)
{
	return vtasim_rtl::copy_built(k_variants, variants, max);
}

extern "C" vta_status vta_rtl_lut_create(vta_rtl_lut **out, unsigned in_bits,
					 unsigned indices_per_cycle, vta_error *err)
{
	*out = nullptr;
	try {
		*out = make_decoder(in_bits, indices_per_cycle);
	} catch (const std::bad_alloc &) {
		return vta_fail(err, VTA_E_NOMEM, "RTL LUT decoder: out of memory");
	}
	if (!*out) {
		std::string list;
		for (const auto &v : k_variants)
			list += std::to_string(v[0]) + "x" + std::to_string(v[1]) + ";";
		std::string bus = std::to_string(in_bits);
		bool an = bus[0] == '8' || in_bits == 11 || in_bits == 18; /* "an 8-bit bus" */
		return vta_fail(err, VTA_E_UNSUPPORTED,
				"datapath rtl: no RTL build of the LUT decoder for %s %u-bit bus with "
				"%u indices per cycle (built: %s); add it with cmake "
				"-DVTASIM_RTL_DECODERS=\"%s%ux%u\" and rebuild (docs/rtl.md)",
				an ? "an" : "a", in_bits, indices_per_cycle,
				vtasim_rtl::list_built(k_variants, "x").c_str(), list.c_str(),
				in_bits, indices_per_cycle);
	}
	return VTA_OK;
}

extern "C" void vta_rtl_lut_destroy(vta_rtl_lut *lut)
{
	delete lut;
}

extern "C" size_t vta_rtl_lut_table_entries(const vta_rtl_lut *lut)
{
	return lut->table_entries();
}

extern "C" vta_status vta_rtl_lut_trace(vta_rtl_lut *lut, const char *vcd_path, vta_error *err)
{
	if (!lut->trace_open(vcd_path))
		return vta_fail(err, VTA_E_IO, "%s: cannot open the VCD file", vcd_path);
	return VTA_OK;
}

extern "C" vta_status vta_rtl_lut_decode(vta_rtl_lut *lut, const vta_rtl_lut_job *job,
					 int8_t *out, size_t out_len, vta_rtl_lut_stats *stats,
					 vta_error *err)
{
	if (!job)
		return vta_fail(err, VTA_E_USAGE, "LUT decoder: no job");
	vta_status s = check_job(job, out_len, err);
	if (s != VTA_OK)
		return s;
	vta_rtl_lut_stats local = {0, 0, 0, 0};
	vta_rtl_lut_stats *st = stats ? stats : &local;
	if (job->count == 0)
		return VTA_OK;

	size_t entries = lut->table_entries();
	size_t te = lut->port_entries();
	size_t C = job->channels, stride = job->stride;
	/* Channels per group: their tables plus the word-alignment offset must fit. */
	size_t per_group = (entries - (te - 1)) / stride;
	bool axis_last = !job->run_len && job->axis_last && C > 1;
	/* One job reading every table: all of them from entry 0 (word aligned). */
	bool one_job = axis_last || job->run_len;
	if (one_job && C * stride > entries)
		return vta_fail(err, VTA_E_UNSUPPORTED,
				"LUT decoder: %s needs all %zu tables (%zu entries) at once; the "
				"decoder holds %zu",
				axis_last ? "channel axis last" : "a run length", C, C * stride,
				entries);
	if (job->run_len > UINT32_MAX || C > UINT32_MAX)
		return vta_fail(err, VTA_E_UNSUPPORTED,
				"LUT decoder: run length %zu or %zu channels exceed the 32-bit "
				"counters",
				job->run_len, C);

	size_t epc = job->count / C;
	size_t step = one_job ? C : per_group;
	for (size_t c0 = 0; c0 < C; c0 += step) {
		size_t gc = C - c0 < step ? C - c0 : step;
		lut_group g;
		g.first_elem = one_job ? 0 : c0 * epc;
		g.count = one_job ? job->count : gc * epc;
		g.channels = gc;
		g.run_len = job->run_len ? job->run_len : axis_last ? 1 : epc;
		g.table_first = c0 * stride;
		g.table_entries = gc * stride;
		size_t bad = SIZE_MAX;
		s = run_group(lut, job, g, out + g.first_elem, st, &bad, err);
		if (s != VTA_OK)
			return s;
		if (bad != SIZE_MAX) {
			size_t e = g.first_elem + bad;
			size_t c = job->run_len ? e / job->run_len % C : axis_last ? e % C : e / epc;
			return vta_fail(err, VTA_E_DATA,
					"LUT decoder: element %zu (channel %zu) has index %u, beyond "
					"the value table stride %zu",
					e, c, read_index(job->indices, e, job->bitwidth), stride);
		}
	}
	return VTA_OK;
}

extern "C" vta_status vta_rtl_lut_load_run(vta_rtl_lut *lut, const vta_rtl_lut_load *load,
					   void *out, uint64_t *cycles, vta_error *err)
{
	vta_status s = check_load(lut, load, out, err);
	if (s != VTA_OK)
		return s;

	/* The tables from entry 0: the words that differ from what the table holds, written
	 * just before the job so that the job starts at the load's cycle on the waveform. */
	size_t te = lut->port_entries();
	const size_t hs = held_stride(load);
	size_t n = (size_t)(load->blocks > 1 ? load->blocks : 1) * load->channels * hs;
	size_t words = (n + te - 1) / te;
	uint32_t e[k_port_max];
	auto entry = [&](size_t k) { return load->tables[k / hs * load->stride + k % hs]; };
	auto word_of = [&](size_t w) {
		for (size_t j = 0; j < te; j++)
			e[j] = w * te + j < n ? entry(w * te + j) : lut->held[w * te + j];
	};
	size_t changed = 0;
	for (size_t w = 0; w < words; w++) {
		word_of(w);
		for (size_t j = 0; j < te; j++)
			if (lut->held[w * te + j] != e[j]) {
				changed++;
				break;
			}
	}
	lut->at_cycle(load->cycle > changed ? load->cycle - changed : 0);
	for (size_t w = 0; w < words; w++) {
		word_of(w);
		lut->put_word(w, e, false);
	}

	size_t row_bytes = ((size_t)load->lanes * load->bitwidth + 7) / 8;
	rtl_job jb;
	jb.bitwidth = load->bitwidth;
	jb.skip_bits = 0;
	jb.count = (uint32_t)(load->rows * load->lanes);
	jb.stride = (uint32_t)hs;
	jb.run_len = load->run_len;
	jb.channels = load->channels;
	jb.row_len = load->lanes;
	jb.block_len = load->blocks > 1 ? (uint32_t)(load->block_rows * load->lanes) : 0;
	jb.table_base = 0;
	jb.bytes = load->packed;
	jb.nbytes = (size_t)load->rows * row_bytes;
	value_sink sink = load->wide ? value_sink{nullptr, (uint32_t *)out}
				     : value_sink{(int8_t *)out, nullptr};
	job_result r;
	s = lut->run(jb, sink, &r, err);
	if (s != VTA_OK)
		return s;
	if (cycles)
		*cycles = r.cycles;
	if (r.bad_elem != SIZE_MAX) {
		size_t el = r.bad_elem, row = el / load->lanes, lane = el % load->lanes;
		unsigned index = read_index(load->packed + row * row_bytes, lane, load->bitwidth);
		return vta_lut_index_fail(index, el, load->stride, err);
	}
	return VTA_OK;
}
