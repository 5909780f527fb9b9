/* emit_lut.c - LUT constants on the hardware decoder, for the emitters (emit_lut.h). */
#include "emit_lut.h"

#include <string.h>

#include "lut_pack.h"
#include "vta_limits.h"

vta_status vta_em_lut_check(const vta_config *cfg, const vta_lut_tensor *t, const char *layer,
			    const char *what, vta_error *err)
{
	if (!cfg->decomp_enabled)
		return vta_fail(err, VTA_E_USAGE,
				"layer %s: decompressing %s on the accelerator needs "
				"decompressor.enabled in the config",
				layer, what);
	if (t->bitwidth < 1 || t->bitwidth > VTA_LUT_MAX_BITWIDTH)
		return vta_fail(err, VTA_E_USAGE,
				"layer %s: %s has %u-bit indices, the LUT decoder takes 1..%d",
				layer, what, t->bitwidth, VTA_LUT_MAX_BITWIDTH);
	return VTA_OK;
}

bool vta_em_lut_splits(const vta_config *cfg, uint64_t used, const vta_lut_table_image *img)
{
	const uint64_t depth = cfg->lut_depth;
	return img->channels * img->stride > depth - used && img->channels > 1;
}

vta_status vta_em_lut_put(vta_stream *s, vta_em_lut *tm, const vta_lut_tensor *t,
			  vta_mem target, const char *what, bool may_split, uint32_t block,
			  vta_em_lut_table *tb, vta_error *err)
{
	const vta_config *cfg = vta_stream_config(s);
	const char *layer = vta_stream_layer(s);
	vta_lut_table_image img;
	vta_status st = vta_lut_pack_table_image(cfg, t, target, &img, err);
	if (st != VTA_OK)
		return st;
	const uint64_t depth = cfg->lut_depth;
	const uint64_t left = depth - tm->next_entry;
	uint64_t entries = img.channels * img.stride;
	memset(tb, 0, sizeof(*tb));
	tb->resident = -1;
	const bool split = may_split && vta_em_lut_splits(cfg, tm->next_entry, &img);
	if (split) {
		tb->block = block;
		entries = (uint64_t)block * img.stride;
	}
	if (entries > left)
		return vta_fail(err, VTA_E_USAGE,
				"layer %s: the LUT tables of %s take %llu entries%s, the decoder's "
				"table memory has %llu of %llu left (decompressor.table_kib %u): "
				"decompress this layer on the host",
				layer, what, (unsigned long long)entries,
				split ? " (one channel block's)" : "",
				(unsigned long long)left, (unsigned long long)depth,
				cfg->decomp_table_kib);
	if (tm->next_slot >= VTA_LUT_SLOTS)
		return vta_fail(err, VTA_E_INTERNAL, "layer %s: more than %d LUT tables", layer,
				VTA_LUT_SLOTS);
	if ((st = vta_stream_alloc(s, img.bytes, img.entry_bytes, "lut.table", &tb->addr, err)) ||
	    (st = vta_lut_pack_table(cfg, t, target, vta_stream_dram(s, tb->addr), img.bytes,
				     err)))
		return st;
	tb->channels = img.channels;
	tb->stride = (uint32_t)img.stride;
	tb->entry_bytes = img.entry_bytes;
	tb->sram = tm->next_entry;
	tb->slot = tm->next_slot++;
	tm->next_entry += (uint32_t)entries;
	tm->dram_bytes += img.bytes;
	return VTA_OK;
}

vta_status vta_em_lut_use(vta_stream *s, vta_em_lut_table *tb, uint32_t chan,
			  uint32_t *lut_chan, vta_error *err)
{
	const int64_t want = tb->block ? (int64_t)(chan / tb->block) : 0;
	*lut_chan = tb->block ? chan % tb->block : chan;
	if (tb->resident == want)
		return VTA_OK;
	const uint64_t rows = tb->block ? tb->block : tb->channels;
	vta_xfer x = {.mem = tb->entry_bytes == 1 ? VTA_MEM_LUT : VTA_MEM_LUT32, .sram = tb->sram,
		      .dram_addr = tb->addr + (uint64_t)want * rows * tb->stride * tb->entry_bytes,
		      .y_size = (uint32_t)rows, .x_size = tb->stride, .x_stride = tb->stride};
	vta_lut_fields f = {0, tb->slot, 0, 0, 0, 0};
	vta_status st = vta_stream_load_lut(s, &x, &f, err);
	if (st == VTA_OK)
		tb->resident = want;
	return st;
}

uint64_t vta_em_lut_window(const vta_config *cfg, uint64_t used, const vta_lut_table_image *img,
			   uint32_t unit)
{
	const uint64_t left = cfg->lut_depth > used ? cfg->lut_depth - used : 0;
	if (!vta_em_lut_splits(cfg, used, img))
		return img->channels;
	if (!img->stride || !unit)
		return 0;
	return left / img->stride / unit * unit;
}

vta_status vta_em_lut_use_run(vta_stream *s, vta_em_lut_table *tb, uint32_t chan, uint32_t n,
			      uint32_t *lut_chan, vta_error *err)
{
	if (!tb->block)
		return vta_em_lut_use(s, tb, chan, lut_chan, err);
	const uint64_t first = (uint64_t)tb->resident;
	if (tb->resident >= 0 && chan >= first && (uint64_t)chan + n <= first + tb->block) {
		*lut_chan = (uint32_t)(chan - first);
		return VTA_OK;
	}
	if (n > tb->block || chan >= tb->channels)
		return vta_fail(err, VTA_E_INTERNAL, "layer %s: a load of %u channels from %u "
				"beyond a table window of %u", vta_stream_layer(s), n, chan, tb->block);
	const uint64_t rows = tb->channels - chan < tb->block ? tb->channels - chan : tb->block;
	vta_xfer x = {.mem = tb->entry_bytes == 1 ? VTA_MEM_LUT : VTA_MEM_LUT32, .sram = tb->sram,
		      .dram_addr = tb->addr + (uint64_t)chan * tb->stride * tb->entry_bytes,
		      .y_size = (uint32_t)rows, .x_size = tb->stride, .x_stride = tb->stride};
	vta_lut_fields f = {0, tb->slot, 0, 0, 0, 0};
	vta_status st = vta_stream_load_lut(s, &x, &f, err);
	if (st == VTA_OK) {
		tb->resident = chan;
		*lut_chan = 0;
	}
	return st;
}

vta_status vta_em_lut_alloc(vta_stream *s, vta_em_lut *tm, uint64_t bytes, uint64_t row_bytes,
			    const char *name, uint64_t *addr, vta_error *err)
{
	uint64_t a;
	vta_status st = vta_stream_alloc(s, bytes + row_bytes, 0, name, &a, err);
	if (st != VTA_OK)
		return st;
	*addr = (a + row_bytes - 1) / row_bytes * row_bytes;
	tm->dram_bytes += bytes;
	return VTA_OK;
}
