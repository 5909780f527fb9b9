/*
 * lut_group.c - grouped and depthwise LUT filters as OHWI LUT tensors the hardware decoder
 * takes (lut_group.h). Index fields are copied, never decoded; tables are copied, with one
 * zero entry per table added only when some table has none.
 */
#include "lut_group.h"

#include <stdlib.h>
#include <string.h>

/* Allocate out's index string (zeroed) and table for `count` fields of `bw` bits and
 * `channels` tables of `stride` int8 entries. */
static vta_status group_alloc(vta_lut_buffer *out, size_t count, unsigned bw, size_t channels,
			      size_t stride, vta_error *err)
{
	memset(out, 0, sizeof(*out));
	size_t ib = vta_lut_indices_bytes(count, bw);
	out->indices = calloc(ib ? ib : 1, 1);
	out->table = calloc(channels * stride, 1);
	out->counts = calloc(channels, 1);
	if (!out->indices || !out->table || !out->counts) {
		vta_lut_buffer_free(out);
		return vta_fail(err, VTA_E_NOMEM, "LUT filter: out of memory");
	}
	out->tensor = (vta_lut_tensor){.type = VTA_LUT_INT8, .bitwidth = bw, .count = count,
				       .channels = channels, .axis_last = false,
				       .value_table = out->table,
				       .value_table_bytes = channels * stride,
				       .value_table_stride = stride, .channel_counts = out->counts,
				       .indices = out->indices, .indices_bytes = ib};
	return VTA_OK;
}

/* Valid entries of channel c's table. */
static size_t group_real(const vta_lut_tensor *t, size_t c)
{
	return t->channel_counts ? t->channel_counts[c] : t->value_table_stride;
}

vta_status vta_lut_depthwise_ohwi(const vta_lut_tensor *t, size_t taps, size_t O,
				  vta_lut_buffer *out, vta_error *err)
{
	memset(out, 0, sizeof(*out));
	vta_status st = vta_lut_expect(t, VTA_LUT_INT8, taps * O, NULL, "depthwise filter",
				       "filter", err);
	if (st != VTA_OK)
		return st;
	/* [t][o] becomes [o][t]: with per-channel tables o must be the table's channel */
	if (t->channels > 1 && !(t->axis_last && t->channels == O))
		return vta_fail(err, VTA_E_UNSUPPORTED,
				"LUT depthwise filter: %zu tables%s; the decoder needs one, or one "
				"per output channel along the last axis: decompress this layer on the "
				"host",
				t->channels, t->axis_last ? " along the last axis" : "");
	const size_t C = t->channels, stride = t->value_table_stride;
	if ((st = group_alloc(out, taps * O, t->bitwidth, C, stride, err)))
		return st;
	memcpy(out->table, t->value_table, C * stride);
	for (size_t c = 0; c < C; c++)
		out->counts[c] = (uint8_t)group_real(t, c);
	for (size_t o = 0; o < O; o++)
		for (size_t k = 0; k < taps; k++)
			vta_lut_put_index(out->indices, o * taps + k, t->bitwidth,
					  vta_lut_index(t->indices, k * O + o, t->bitwidth));
	return VTA_OK;
}

/* Bits an index of value v needs. */
static unsigned group_bits(size_t v)
{
	unsigned b = 0;
	while (v >> b)
		b++;
	return b;
}

vta_status vta_lut_spread_groups(const vta_lut_tensor *t, size_t O, size_t taps, size_t in_g,
				 size_t out_g, size_t uc, vta_lut_buffer *out, vta_error *err)
{
	memset(out, 0, sizeof(*out));
	vta_status st = vta_lut_expect(t, VTA_LUT_INT8, O * taps * in_g, NULL, "grouped filter",
				       "filter", err);
	if (st != VTA_OK)
		return st;
	if (!in_g || !out_g || uc < in_g || O % out_g)
		return vta_fail(err, VTA_E_INTERNAL, "LUT grouped filter: bad group shape");
	if (t->channels > 1 && (t->channels != O || (t->axis_last && O * taps * in_g != O)))
		return vta_fail(err, VTA_E_UNSUPPORTED,
				"LUT grouped filter: %zu tables%s; the decoder needs one, or one per "
				"output channel along the first axis: decompress this layer on the "
				"host",
				t->channels, t->axis_last ? " along the last axis" : "");
	const size_t C = t->channels, stride = t->value_table_stride;
	const int8_t *tab = t->value_table;
	/* each table's zero entry: the first entry that holds 0, or a new last one */
	size_t *zero = calloc(C, sizeof(*zero));
	if (!zero)
		return vta_fail(err, VTA_E_NOMEM, "LUT grouped filter: out of memory");
	bool grow = false;
	for (size_t c = 0; c < C && uc > in_g; c++) { /* uc == in_g: no lane between groups */
		zero[c] = stride;
		for (size_t k = 0; k < stride && zero[c] == stride; k++)
			if (tab[c * stride + k] == 0)
				zero[c] = k;
		grow |= zero[c] == stride;
	}
	const size_t nstride = stride + grow;
	unsigned bw = t->bitwidth;
	if (grow && group_bits(stride) > bw)
		bw = group_bits(stride);
	if (nstride > VTA_LUT_MAX_STRIDE || bw > VTA_LUT_MAX_BITWIDTH) {
		free(zero);
		return vta_fail(err, VTA_E_UNSUPPORTED,
				"LUT grouped filter: a table of %zu entries has no zero and no room "
				"for one (%u-bit indices); the weights between the groups need it: "
				"decompress this layer on the host",
				stride, t->bitwidth);
	}
	if ((st = group_alloc(out, O * taps * uc, bw, C, nstride, err))) {
		free(zero);
		return st;
	}
	for (size_t c = 0; c < C; c++) {
		memcpy(out->table + c * nstride, tab + c * stride, stride);
		size_t real = group_real(t, c);
		out->counts[c] = (uint8_t)(zero[c] >= real ? zero[c] + 1 : real);
	}
	const size_t per_unit = uc / in_g;
	for (size_t o = 0; o < O; o++) {
		const size_t z = zero[C > 1 ? o : 0];
		const size_t at = (o / out_g % per_unit) * in_g;
		for (size_t k = 0; k < taps; k++) {
			const size_t row = (o * taps + k) * uc, src = (o * taps + k) * in_g;
			for (size_t i = 0; i < uc; i++) {
				unsigned v = i >= at && i < at + in_g
						     ? vta_lut_index(t->indices, src + i - at,
								     t->bitwidth)
						     : (unsigned)z;
				vta_lut_put_index(out->indices, row + i, bw, v);
			}
		}
	}
	free(zero);
	return VTA_OK;
}

uint64_t vta_lut_pack_group_rows_bytes(const vta_config *cfg, size_t O, size_t taps,
				       size_t in_g, unsigned bitwidth)
{
	const uint64_t ob = ((uint64_t)O + cfg->block_out - 1) / cfg->block_out;
	return ob * taps * (((uint64_t)cfg->block_out * in_g * bitwidth + 7) / 8);
}

vta_status vta_lut_pack_group_rows(const vta_config *cfg, const vta_lut_tensor *t, size_t O,
				   size_t taps, size_t in_g, uint8_t *dst, uint64_t dst_bytes,
				   vta_error *err)
{
	vta_status st = vta_lut_expect(t, VTA_LUT_INT8, O * taps * in_g, NULL, "grouped filter",
				       "filter", err);
	if (st != VTA_OK)
		return st;
	if (in_g < 1 || in_g > cfg->block_in || cfg->block_in % in_g)
		return vta_fail(err, VTA_E_UNSUPPORTED,
				"LUT grouped filter: groups of %zu input channels do not divide "
				"block_in %u: a compact row holds whole groups", in_g, cfg->block_in);
	if (t->channels > 1 && (t->axis_last || t->channels != O))
		return vta_fail(err, VTA_E_UNSUPPORTED,
				"LUT grouped filter: %zu tables%s; WGT lanes need one, or one per "
				"output channel along the first axis", t->channels,
				t->axis_last ? " along the last axis" : "");
	const uint64_t need = vta_lut_pack_group_rows_bytes(cfg, O, taps, in_g, t->bitwidth);
	if (dst_bytes < need)
		return vta_fail(err, VTA_E_USAGE,
				"LUT grouped filter: the packed image needs %llu bytes, the buffer "
				"has %llu", (unsigned long long)need, (unsigned long long)dst_bytes);
	const size_t BO = cfg->block_out, ob = (O + BO - 1) / BO;
	const size_t rb = (BO * in_g * t->bitwidth + 7) / 8;
	memset(dst, 0, (size_t)need);
	uint8_t *row = dst;
	for (size_t o0 = 0; o0 < ob; o0++)
		for (size_t k = 0; k < taps; k++, row += rb)
			for (size_t o = 0; o < BO && o0 * BO + o < O; o++)
				for (size_t i = 0; i < in_g; i++)
					vta_lut_put_index(row, o * in_g + i, t->bitwidth,
							  vta_lut_index(t->indices,
									((o0 * BO + o) * taps + k) *
											in_g + i,
									t->bitwidth));
	return VTA_OK;
}
