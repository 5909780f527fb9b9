/*
 * lut_pack.h - LUT-compressed constants re-packed for the hardware LUT decoder: packed index
 * images in the blocked DRAM layouts of layout.h, and the value-table image the decoder
 * looks them up in. The packed rows (bit order, lane order, each image's channel rule),
 * their DRAM cost and the table image's shape and padding: docs/lut.md "Packing for the
 * hardware decoder". Indices are copied field by field from the TFLM string; no value is
 * decoded on the host.
 *
 * Errors are one line each: VTA_E_DATA for a malformed descriptor or one that does not match
 * the shape, VTA_E_UNSUPPORTED for what the decoder cannot take (table type, channel axis),
 * VTA_E_USAGE for a destination buffer that is too small. Nothing here allocates.
 */
#ifndef VTA_LUT_PACK_H
#define VTA_LUT_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "lut.h"
#include "vta_config.h"
#include "vta_rules.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One packed row is vta_lut_packed_bytes() (isa/vta_rules.h): the rulebook's format. */

/* Conv filter (OHWI int8; tables per tensor, or per output channel with the channel axis
 * first) as [Ob][KH][KW][Cb] packed WGT rows. */
uint64_t vta_lut_pack_conv_filter_bytes(const vta_config *cfg, const int32_t ohwi[4],
					unsigned bitwidth);
vta_status vta_lut_pack_conv_filter(const vta_config *cfg, const vta_lut_tensor *t,
				    const int32_t ohwi[4], uint8_t *dst, uint64_t dst_bytes,
				    vta_error *err);

/* Per-channel int32 vector (a bias: t->count channels, tables per tensor or per channel) as
 * packed ACC rows. */
uint64_t vta_lut_pack_acc_rows_bytes(const vta_config *cfg, size_t channels, unsigned bitwidth);
vta_status vta_lut_pack_acc_rows(const vta_config *cfg, const vta_lut_tensor *t, uint8_t *dst,
				 uint64_t dst_bytes, vta_error *err);

/* int8 constant (an elementwise operand) as packed flat ACC rows. Per-channel tables must be
 * along the last axis with a channel count the ACC lane rule can follow: a multiple of
 * block_out, and equal to it when batch > 1. */
uint64_t vta_lut_pack_flat_bytes(const vta_config *cfg, size_t count, unsigned bitwidth);
vta_status vta_lut_pack_flat(const vta_config *cfg, const vta_lut_tensor *t, uint8_t *dst,
			     uint64_t dst_bytes, vta_error *err);
/* First channel of flat row `row` (a load's lut_chan): 0 for per-tensor tables. Only for a
 * tensor vta_lut_pack_flat() accepts. */
uint64_t vta_lut_pack_flat_row_channel(const vta_config *cfg, const vta_lut_tensor *t,
				       uint64_t row);

/* The table image of a tensor whose indices are decoded into `target` (WGT, INP or ACC):
 * a 2D table load of y = channels rows of x = stride entries. */
typedef struct vta_lut_table_image {
	uint64_t channels;    /* tables: 1 per tensor, else padded to the row's channels */
	uint64_t stride;      /* entries per table (the tensor's value_table_stride) */
	unsigned entry_bytes; /* 1 (lut) or 4 (lut32) */
	uint64_t bytes;       /* channels * stride * entry_bytes */
	uint64_t pad_bytes;   /* of those, the zero tables added as padding */
} vta_lut_table_image;

vta_status vta_lut_pack_table_image(const vta_config *cfg, const vta_lut_tensor *t,
				    vta_mem target, vta_lut_table_image *img, vta_error *err);
vta_status vta_lut_pack_table(const vta_config *cfg, const vta_lut_tensor *t, vta_mem target,
			      uint8_t *dst, uint64_t dst_bytes, vta_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VTA_LUT_PACK_H */
