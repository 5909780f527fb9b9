/*
 * lut_pack.c - packed index images and table images for the hardware LUT decoder (see
 * lut_pack.h for the layouts). Each image is written row by row: the row is zeroed (index 0
 * in padded lanes, zero pad bits), then every lane that holds an element gets that element's
 * index field copied from the TFLM string.
 */
#include "lut_pack.h"

#include <string.h>

#include "layout.h"

/* A valid descriptor of `type` holding `count` elements, and room for the image. */
static vta_status pack_check(const vta_lut_tensor *t, vta_lut_type type, uint64_t count,
			     uint64_t need, uint64_t dst_bytes, const char *what, vta_error *err)
{
	vta_status st = vta_lut_check(t, err);
	if (st != VTA_OK)
		return st;
	if (t->type != type)
		return vta_fail(err, VTA_E_UNSUPPORTED,
				"LUT %s: %s tables, the hardware decoder takes %s ones here", what,
				vta_lut_type_name(t->type), vta_lut_type_name(type));
	if (t->count != count)
		return vta_fail(err, VTA_E_DATA,
				"LUT %s: the tensor holds %zu elements, the shape has %llu", what,
				t->count, (unsigned long long)count);
	if (dst_bytes < need)
		return vta_fail(err, VTA_E_USAGE,
				"LUT %s: the packed image needs %llu bytes, the buffer has %llu", what,
				(unsigned long long)need, (unsigned long long)dst_bytes);
	return VTA_OK;
}

/* Copy element e's index into lane `lane` of a zeroed row. */
static void pack_lane(const vta_lut_tensor *t, uint64_t e, uint8_t *row, uint64_t lane)
{
	vta_lut_put_index(row, (size_t)lane, t->bitwidth,
			  vta_lut_index(t->indices, (size_t)e, t->bitwidth));
}

uint64_t vta_lut_pack_conv_filter_bytes(const vta_config *cfg, const int32_t ohwi[4],
					unsigned bitwidth)
{
	uint64_t ob = vta_layout_div_up((uint64_t)ohwi[0], cfg->block_out);
	uint64_t cb = vta_layout_div_up((uint64_t)ohwi[3], cfg->block_in);
	return ob * (uint64_t)ohwi[1] * (uint64_t)ohwi[2] * cb *
	       vta_lut_packed_bytes(cfg, VTA_MEM_WGT, bitwidth);
}

vta_status vta_lut_pack_conv_filter(const vta_config *cfg, const vta_lut_tensor *t,
				    const int32_t ohwi[4], uint8_t *dst, uint64_t dst_bytes,
				    vta_error *err)
{
	if (ohwi[0] < 1 || ohwi[1] < 1 || ohwi[2] < 1 || ohwi[3] < 1)
		return vta_fail(err, VTA_E_DATA, "LUT filter: shape %dx%dx%dx%d has an empty axis",
				ohwi[0], ohwi[1], ohwi[2], ohwi[3]);
	const uint64_t O = (uint64_t)ohwi[0], KH = (uint64_t)ohwi[1], KW = (uint64_t)ohwi[2];
	const uint64_t C = (uint64_t)ohwi[3];
	vta_status st = pack_check(t, VTA_LUT_INT8, O * KH * KW * C,
				   vta_lut_pack_conv_filter_bytes(cfg, ohwi, t ? t->bitwidth : 0),
				   dst_bytes, "filter", err);
	if (st != VTA_OK)
		return st;
	/* A WGT lane's channel is its output channel: tables along axis 0, one per channel. */
	if (t->channels > 1 && t->axis_last && t->count != t->channels)
		return vta_fail(err, VTA_E_UNSUPPORTED,
				"LUT filter: tables along the last axis (input channels); WGT lanes "
				"take their output channel's table, so the channel axis must be 0");
	if (t->channels > 1 && t->channels != O)
		return vta_fail(err, VTA_E_DATA,
				"LUT filter: %zu channel tables, the filter has %llu output channels",
				t->channels, (unsigned long long)O);

	const uint64_t BO = cfg->block_out, BI = cfg->block_in;
	const uint64_t ob = vta_layout_div_up(O, BO), cb = vta_layout_div_up(C, BI);
	const uint64_t rb = vta_lut_packed_bytes(cfg, VTA_MEM_WGT, t->bitwidth);
	uint8_t *row = dst;
	for (uint64_t o0 = 0; o0 < ob; o0++)
		for (uint64_t ky = 0; ky < KH; ky++)
			for (uint64_t kx = 0; kx < KW; kx++)
				for (uint64_t c0 = 0; c0 < cb; c0++, row += rb) {
					memset(row, 0, (size_t)rb);
					for (uint64_t o = 0; o < BO && o0 * BO + o < O; o++)
						for (uint64_t i = 0; i < BI && c0 * BI + i < C; i++)
							pack_lane(t,
								  (((o0 * BO + o) * KH + ky) * KW +
								   kx) * C + c0 * BI + i,
								  row, o * BI + i);
				}
	return VTA_OK;
}

uint64_t vta_lut_pack_acc_rows_bytes(const vta_config *cfg, size_t channels, unsigned bitwidth)
{
	return vta_layout_div_up(channels, cfg->block_out) *
	       vta_lut_packed_bytes(cfg, VTA_MEM_ACC, bitwidth);
}

vta_status vta_lut_pack_acc_rows(const vta_config *cfg, const vta_lut_tensor *t, uint8_t *dst,
				 uint64_t dst_bytes, vta_error *err)
{
	uint64_t count = t ? t->count : 0;
	vta_status st = pack_check(t, VTA_LUT_INT32, count,
				   vta_lut_pack_acc_rows_bytes(cfg, (size_t)count,
							       t ? t->bitwidth : 0),
				   dst_bytes, "ACC rows", err);
	if (st != VTA_OK)
		return st;
	if (t->channels > 1 && t->channels != t->count)
		return vta_fail(err, VTA_E_DATA,
				"LUT ACC rows: %zu channel tables for %zu values; a per-channel "
				"vector has one value per table",
				t->channels, t->count);

	const uint64_t B = cfg->batch, BO = cfg->block_out;
	const uint64_t rb = vta_lut_packed_bytes(cfg, VTA_MEM_ACC, t->bitwidth);
	uint8_t *row = dst;
	for (uint64_t r = 0; r < vta_layout_div_up(count, BO); r++, row += rb) {
		memset(row, 0, (size_t)rb);
		for (uint64_t b = 0; b < B; b++)
			for (uint64_t o = 0; o < BO && r * BO + o < count; o++)
				pack_lane(t, r * BO + o, row, b * BO + o);
	}
	return VTA_OK;
}

uint64_t vta_lut_pack_flat_bytes(const vta_config *cfg, size_t count, unsigned bitwidth)
{
	return vta_layout_flat_rows(cfg, count) *
	       vta_lut_packed_bytes(cfg, VTA_MEM_ACC, bitwidth);
}

vta_status vta_lut_pack_flat(const vta_config *cfg, const vta_lut_tensor *t, uint8_t *dst,
			     uint64_t dst_bytes, vta_error *err)
{
	uint64_t count = t ? t->count : 0;
	vta_status st = pack_check(t, VTA_LUT_INT8, count,
				   vta_lut_pack_flat_bytes(cfg, (size_t)count, t ? t->bitwidth : 0),
				   dst_bytes, "flat", err);
	if (st != VTA_OK)
		return st;
	/* Flat element e sits in lane e % (B*BO) and the decoder gives it channel
	 * chan0 + e % BO: that is element e's channel e % C exactly when C is a multiple of BO
	 * (chan0 = row * B*BO mod C) and, with several batch lanes per row, C == BO. */
	const uint64_t B = cfg->batch, BO = cfg->block_out, C = t->channels;
	if (C > 1 && !t->axis_last && t->count != C)
		return vta_fail(err, VTA_E_UNSUPPORTED,
				"LUT flat: tables along the first axis; flat ACC lanes cycle through "
				"the channels, so the channel axis must be the last");
	if (C > 1 && B == 1 && C % BO != 0)
		return vta_fail(err, VTA_E_UNSUPPORTED,
				"LUT flat: %llu channel tables; ACC lane L of a row takes channel "
				"chan0 + L %% %llu, so the channel count must be a multiple of "
				"block_out",
				(unsigned long long)C, (unsigned long long)BO);
	if (C > 1 && B > 1 && C != BO)
		return vta_fail(err, VTA_E_UNSUPPORTED,
				"LUT flat: %llu channel tables; ACC lane L of a row takes channel "
				"chan0 + L %% %llu in every batch lane, so the channel count must be "
				"block_out",
				(unsigned long long)C, (unsigned long long)BO);

	const uint64_t lanes = B * BO;
	const uint64_t rb = vta_lut_packed_bytes(cfg, VTA_MEM_ACC, t->bitwidth);
	uint8_t *row = dst;
	for (uint64_t e0 = 0; e0 < count; e0 += lanes, row += rb) {
		memset(row, 0, (size_t)rb);
		for (uint64_t l = 0; l < lanes && e0 + l < count; l++)
			pack_lane(t, e0 + l, row, l);
	}
	return VTA_OK;
}

uint64_t vta_lut_pack_flat_row_channel(const vta_config *cfg, const vta_lut_tensor *t,
				       uint64_t row)
{
	if (t->channels <= 1)
		return 0;
	return row * cfg->batch * cfg->block_out % t->channels;
}

vta_status vta_lut_pack_table_image(const vta_config *cfg, const vta_lut_tensor *t,
				    vta_mem target, vta_lut_table_image *img, vta_error *err)
{
	vta_status st = vta_lut_check(t, err);
	if (st != VTA_OK)
		return st;
	if (target != VTA_MEM_WGT && target != VTA_MEM_INP && target != VTA_MEM_ACC)
		return vta_fail(err, VTA_E_UNSUPPORTED,
				"LUT tables: the decoder writes wgt, inp or acc rows, not %s",
				vta_mem_name(target));
	bool acc = target == VTA_MEM_ACC;
	if (t->type != VTA_LUT_INT8 && !(acc && t->type == VTA_LUT_INT32))
		return vta_fail(err, VTA_E_UNSUPPORTED,
				"LUT tables: %s values cannot feed %s lanes (int8 for wgt/inp, "
				"int8 or int32 for acc)",
				vta_lut_type_name(t->type), vta_mem_name(target));
	uint64_t block = vta_lut_row_channels(cfg, target);
	uint64_t channels = t->channels == 1 ? 1 : vta_layout_div_up(t->channels, block) * block;
	img->channels = channels;
	img->stride = t->value_table_stride;
	img->entry_bytes = acc ? 4 : 1;
	img->bytes = channels * img->stride * img->entry_bytes;
	img->pad_bytes = (channels - t->channels) * img->stride * img->entry_bytes;
	return VTA_OK;
}

vta_status vta_lut_pack_table(const vta_config *cfg, const vta_lut_tensor *t, vta_mem target,
			      uint8_t *dst, uint64_t dst_bytes, vta_error *err)
{
	vta_lut_table_image img;
	vta_status st = vta_lut_pack_table_image(cfg, t, target, &img, err);
	if (st != VTA_OK)
		return st;
	if (dst_bytes < img.bytes)
		return vta_fail(err, VTA_E_USAGE,
				"LUT tables: the image needs %llu bytes, the buffer has %llu",
				(unsigned long long)img.bytes, (unsigned long long)dst_bytes);
	const uint8_t *src = t->value_table;
	size_t esz = vta_lut_type_size(t->type);
	uint64_t entries = (uint64_t)t->channels * img.stride;
	for (uint64_t k = 0; k < entries; k++) {
		uint8_t *d = dst + k * img.entry_bytes;
		const uint8_t *s = src + k * esz;
		if (esz == img.entry_bytes) {
			memcpy(d, s, esz); /* both little-endian */
		} else { /* int8 into a 32-bit entry: sign-extend */
			uint8_t ext = (s[0] & 0x80) ? 0xff : 0x00;
			d[0] = s[0];
			d[1] = d[2] = d[3] = ext;
		}
	}
	memset(dst + entries * img.entry_bytes, 0, (size_t)img.pad_bytes);
	return VTA_OK;
}
