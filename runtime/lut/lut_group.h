/*
 * lut_group.h - LUT filters of grouped and depthwise convolutions for the hardware decoder
 * (docs/lut.md "Block-diagonal filters").
 *
 * The CONV2D emitter runs a grouped filter as block-diagonal units: each output channel's
 * weights are spread over its unit's input blocks with zeros outside its group
 * (docs/runtime.md 5.6). For the LUT decoder those zeros need an index too: each channel's
 * table gets a zero entry (one it already has, a zero in its padding, or one more entry), and
 * every lane outside the group points at it. The result is an ordinary OHWI LUT tensor the
 * existing decoder and packer take; no value is decoded on the host, only index fields are
 * moved.
 */
#ifndef VTA_LUT_GROUP_H
#define VTA_LUT_GROUP_H

#include <stddef.h>

#include "lut.h"
#include "vta_config.h"
#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A depthwise filter [1, KH, KW, O] (taps = KH * KW) as the OHWI filter [O, KH, KW, 1]: the
 * same tables, the index fields reordered. Tables: one, or O along the last axis (TFLite's
 * depthwise quantized dimension); anything else is VTA_E_UNSUPPORTED. Free with
 * vta_lut_buffer_free (also after a failure). */
vta_status vta_lut_depthwise_ohwi(const vta_lut_tensor *t, size_t taps, size_t O,
				  vta_lut_buffer *out, vta_error *err);

/* The grouped OHWI filter [O][taps][in_g] (groups of in_g input and out_g output channels)
 * spread into [O][taps][uc], uc being a unit's input channels: output channel o's in_g
 * fields at ((o / out_g) % (uc / in_g)) * in_g in its row, as cv_unit_filter places the
 * plain weights, every other lane the index of its table's zero entry. Tables: one, or O
 * along the first axis. The zero entry is the first entry equal to zero (a value or the
 * zero padding); when some table has none, every table gets one more entry and the indices
 * widen if the new entry needs it (VTA_E_UNSUPPORTED beyond 7 bits or 128 entries). */
vta_status vta_lut_spread_groups(const vta_lut_tensor *t, size_t O, size_t taps, size_t in_g,
				 size_t out_g, size_t uc, vta_lut_buffer *out, vta_error *err);

/* Zero-lane fill (docs/isa.md "Zero-lane fill"): the grouped OHWI filter [O][taps][in_g]
 * as compact WGT rows [ceil(O / BO)][taps], each holding only the real lanes: output lane
 * o's in_g indices at lanes [o * in_g, o * in_g + in_g), ceil(BO * in_g * bw / 8) bytes,
 * pad bits and the lanes of channels beyond O zero. The decoder places each group in its
 * row (lut_group = in_g, lut_period = the group's output channels); tables are the
 * tensor's own, one or O along the first axis, no zero entry needed. */
uint64_t vta_lut_pack_group_rows_bytes(const vta_config *cfg, size_t O, size_t taps,
				       size_t in_g, unsigned bitwidth);
vta_status vta_lut_pack_group_rows(const vta_config *cfg, const vta_lut_tensor *t, size_t O,
				   size_t taps, size_t in_g, uint8_t *dst, uint64_t dst_bytes,
				   vta_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VTA_LUT_GROUP_H */
