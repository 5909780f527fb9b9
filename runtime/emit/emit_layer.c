/* emit_layer.c - the layer stream shared by the ADD and CONV2D emitters (emit_layer.h). */
#include "emit_layer.h"

#include <stdio.h>
#include <string.h>

#include "dram_tensor.h"

vta_status vta_layer_read_output(const vta_layer_stream *ls, const vta_dram *dram,
				 int8_t *nhwc_out, size_t count, vta_error *err)
{
	if (!ls || !dram || !nhwc_out)
		return vta_fail(err, VTA_E_USAGE, "vta_layer_read_output: NULL argument");
	uint64_t n = 1;
	for (int i = 0; i < 4; i++)
		n *= (uint64_t)ls->out_shape[i];
	if (n != count)
		return vta_fail(err, VTA_E_USAGE,
				"layer %s: the output has %llu elements, the buffer %zu", ls->name,
				(unsigned long long)n, count);
	if (!vta_dram_in_range(dram, ls->out_addr, ls->out_bytes))
		return vta_fail(err, VTA_E_USAGE,
				"layer %s: the output [0x%llx, +%llu) is outside the DRAM", ls->name,
				(unsigned long long)ls->out_addr, (unsigned long long)ls->out_bytes);
	if (ls->out_layout != VTA_OUT_FLAT && ls->out_layout != VTA_OUT_PIXEL &&
	    ls->out_layout != VTA_OUT_CONV)
		return vta_fail(err, VTA_E_INTERNAL, "layer %s: unknown output layout %d",
				ls->name, (int)ls->out_layout);
	vta_dram_tensor_read(&ls->cfg, ls->out_layout, ls->out_shape, dram->bytes + ls->out_addr,
			     count, nhwc_out);
	return VTA_OK;
}

void vta_layer_stream_free(vta_layer_stream *ls)
{
	if (!ls)
		return;
	vta_program_free(&ls->prog);
}

vta_status vta_layer_begin(const vta_config *cfg, const vta_emit_opts *opts, bool args_ok,
			   const char *fn, const char *fallback, vta_out_layout out_layout,
			   vta_layer_stream *ls, const char **layer, vta_error *err)
{
	if (!ls)
		return vta_fail(err, VTA_E_USAGE, "%s: NULL layer stream", fn);
	memset(ls, 0, sizeof(*ls));
	if (!cfg || !opts || !args_ok)
		return vta_fail(err, VTA_E_USAGE, "%s: NULL argument", fn);
	*layer = opts->name && opts->name[0] ? opts->name : fallback;
	snprintf(ls->name, sizeof(ls->name), "%s", *layer);
	ls->cfg = *cfg;
	ls->mode = opts->mode;
	ls->threads = opts->threads;
	ls->out_layout = out_layout;
	if (opts->threads != 1 && opts->threads != 2)
		return vta_fail(err, VTA_E_USAGE, "layer %s: threads must be 1 or 2, not %u",
				*layer, opts->threads);
	return VTA_OK;
}

vta_status vta_layer_finish(vta_stream *s, vta_dram *dram, vta_layer_stream *ls,
			    vta_error *err)
{
	vta_status st = vta_stream_finish(s, &ls->prog, err);
	if (st == VTA_OK)
		st = vta_dram_place_segments(dram, &ls->prog, err);
	if (st == VTA_OK) {
		ls->dram_end = vta_stream_dram_end(s);
		vta_stream_get_stats(s, &ls->counters.stream);
	}
	vta_stream_destroy(s);
	return st;
}

const char *vta_decompress_name(vta_decompress d)
{
	return d == VTA_DECOMPRESS_HW ? "hw" : "host";
}
