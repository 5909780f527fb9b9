/*
 * rtl_lut.cc - the C interface of the verilated LUT decoders. A decode validates the job,
 * splits it into channel groups whose tables fit the decoder's table, and for each group
 * writes the tables (one bus word per cycle), pulses start and streams the index string one
 * bus word per cycle whenever in_ready is high, collecting the output beats in order.
 * Everything the RTL cannot report by itself (the index and channel of a bad element) is
 * read back from the job for the message.
 */
#include "rtl_lut.h"

#include <cstdint>
#include <new>

#include "Vvta_lut_decoder_256x64.h"
#include "Vvta_lut_decoder_32x4.h"
#include "Vvta_lut_decoder_64x16.h"
#include "rtl_harness.h"

namespace {

/* One job as the RTL sees it: a run of whole channels. */
struct lut_group {
	size_t first_elem;   /* element number of the group's first index in the tensor */
	size_t count;
	size_t channels;     /* channels in the group (all C for axis last) */
	size_t run_len;      /* elements per channel run: count/C, or 1 for axis last */
	size_t table_first;  /* first table byte of the group in job->table */
	size_t table_bytes;
};

} // namespace

/* The handle is the decoder itself: each built variant derives from it. */
struct vta_rtl_lut {
	virtual ~vta_rtl_lut() = default;
	virtual unsigned in_bits() const = 0;
	virtual size_t table_entries() const = 0;
	virtual bool trace_open(const char *path) = 0;
	/* Run one group; sets *bad_elem to the group-relative first bad element, or SIZE_MAX. */
	virtual vta_status run(const vta_rtl_lut_job *job, const lut_group &g, int8_t *out,
			       vta_rtl_lut_stats *st, size_t *bad_elem, vta_error *err) = 0;
};

namespace {

template <class Model, unsigned IN_BITS, unsigned IPC, unsigned TABLE_AW>
class lut_decoder final : public vta_rtl_lut {
	static constexpr size_t LANES = IN_BITS / 8;
	static constexpr size_t ENTRIES = size_t{1} << TABLE_AW;

public:
	lut_decoder() : h_("vta_lut_decoder") {}

	unsigned in_bits() const override { return IN_BITS; }
	size_t table_entries() const override { return ENTRIES; }
	bool trace_open(const char *path) override { return h_.trace_open(path); }

	vta_status run(const vta_rtl_lut_job *job, const lut_group &g, int8_t *out,
		       vta_rtl_lut_stats *st, size_t *bad_elem, vta_error *err) override
	{
		Model &io = h_.io();
		uint8_t word[LANES];

		/* Tables: bus words from the aligned-down byte, so the group's tables start at
		 * entry table_base inside the decoder. */
		size_t t0 = g.table_first / LANES * LANES;
		size_t table_base = g.table_first - t0;
		size_t tend = g.table_first + g.table_bytes;
		size_t table_total = job->channels * job->stride;
		for (size_t a = t0, wa = 0; a < tend; a += LANES, wa++) {
			for (size_t j = 0; j < LANES; j++)
				word[j] = a + j < table_total ? (uint8_t)job->table[a + j] : 0;
			io.tbl_we = 1;
			io.tbl_waddr = (decltype(+io.tbl_waddr))wa;
			vtasim_rtl::port_set_bytes(io.tbl_wdata, word, LANES);
			h_.tick();
			st->table_cycles++;
		}
		io.tbl_we = 0;

		/* The group's bits start at element first_elem; whole bytes are skipped on the
		 * host side, the rest by the decoder's skip_bits. */
		size_t bit0 = g.first_elem * job->bitwidth;
		size_t byte0 = bit0 / 8;
		unsigned skip = (unsigned)(bit0 % 8);
		size_t nbytes = (skip + g.count * job->bitwidth + 7) / 8;
		size_t nwords = (nbytes + LANES - 1) / LANES;

		uint64_t c0 = h_.cycles();
		io.start = 1;
		io.bitwidth = (CData)job->bitwidth;
		io.count = (IData)g.count;
		io.stride = (CData)job->stride; /* 128 fits the 8-bit port */
		io.run_len = (IData)g.run_len;
		io.channels = (IData)g.channels;
		io.skip_bits = (CData)skip;
		io.table_base = (decltype(+io.table_base))table_base;
		h_.tick();
		io.start = 0;

		/* Every cycle with data available emits at least one index, so this bound is only
		 * reached if the RTL stalls. */
		uint64_t limit = 2 * (uint64_t)(g.count + nwords) + 16;
		size_t produced = 0, sent = 0;
		while (io.busy || io.out_valid) {
			bool have = sent < nwords;
			if (have) {
				size_t b = byte0 + sent * LANES;
				for (size_t j = 0; j < LANES; j++)
					word[j] = sent * LANES + j < nbytes ? job->indices[b + j] : 0;
				vtasim_rtl::port_set_bytes(io.in_data, word, LANES);
			}
			io.in_valid = have;
			bool take = have && io.in_ready; /* in_ready depends on state only */
			h_.tick();
			if (take) {
				sent++;
				st->words++;
			}
			if (io.out_valid) {
				unsigned n = io.out_count;
				if (n > g.count - produced)
					return vta_fail(err, VTA_E_INTERNAL,
							"RTL LUT decoder: emitted more than %zu values",
							g.count);
				for (unsigned j = 0; j < n; j++)
					out[produced + j] = (int8_t)vtasim_rtl::port_byte(io.out_values, j);
				produced += n;
			}
			if (h_.cycles() - c0 > limit)
				return vta_fail(err, VTA_E_INTERNAL,
						"RTL LUT decoder: stalled after %zu of %zu values",
						produced, g.count);
		}
		io.in_valid = 0;
		st->decode_cycles += h_.cycles() - c0;
		st->jobs++;
		if (produced != g.count)
			return vta_fail(err, VTA_E_INTERNAL,
					"RTL LUT decoder: emitted %zu of %zu values", produced, g.count);
		*bad_elem = io.err ? (size_t)io.err_elem : SIZE_MAX;
		return VTA_OK;
	}

private:
	vtasim_rtl::harness<Model> h_;
};

const unsigned k_variants[][2] = {{64, 16}, {32, 4}, {256, 64}};

vta_rtl_lut *make_decoder(unsigned in_bits, unsigned ipc)
{
	if (in_bits == 64 && ipc == 16)
		return new lut_decoder<Vvta_lut_decoder_64x16, 64, 16, 11>;
	if (in_bits == 32 && ipc == 4)
		return new lut_decoder<Vvta_lut_decoder_32x4, 32, 4, 11>;
	if (in_bits == 256 && ipc == 64)
		return new lut_decoder<Vvta_lut_decoder_256x64, 256, 64, 13>;
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

vta_status check_job(const vta_rtl_lut_job *job, size_t out_len, vta_error *err)
{
	if (job->bitwidth < 1 || job->bitwidth > 7)
		return vta_fail(err, VTA_E_DATA, "LUT decoder: index bit width %u is outside 1..7",
				job->bitwidth);
	if (job->stride < 1 || job->stride > 128)
		return vta_fail(err, VTA_E_DATA,
				"LUT decoder: value table stride %zu is outside 1..128", job->stride);
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
	if (!*out)
		return vta_fail(err, VTA_E_UNSUPPORTED,
				"RTL LUT decoder: none built for %u-bit words x %u indices per "
				"cycle (built: %s)",
				in_bits, indices_per_cycle,
				vtasim_rtl::list_built(k_variants, " bits x ").c_str());
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
	size_t lanes = lut->in_bits() / 8;
	size_t C = job->channels, stride = job->stride;
	/* Channels per group: their tables plus the word-alignment offset must fit. */
	size_t per_group = (entries - (lanes - 1)) / stride;
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
		g.table_bytes = gc * stride;
		size_t bad = SIZE_MAX;
		s = lut->run(job, g, out + g.first_elem, st, &bad, err);
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
