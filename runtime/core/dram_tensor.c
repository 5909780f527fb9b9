/* dram_tensor.c - activation regions carried between accelerated ops (dram_tensor.h). */
#include "dram_tensor.h"

#include <stdlib.h>
#include <string.h>

#include "vta_rules.h"

vta_status vta_dram_tensor_keep(const vta_layer_stream *ls, const vta_dram *dram,
				int32_t producer, const int8_t *host, vta_dram_tensor *t,
				vta_error *err)
{
	vta_dram_tensor_free(t);
	if (!vta_dram_in_range(dram, ls->out_addr, ls->out_bytes))
		return vta_fail(err, VTA_E_INTERNAL,
				"layer %s: the output region is outside the DRAM", ls->name);
	t->bytes = malloc(ls->out_bytes ? ls->out_bytes : 1);
	if (!t->bytes)
		return vta_fail(err, VTA_E_NOMEM, "layer %s: out of memory", ls->name);
	memcpy(t->bytes, dram->bytes + ls->out_addr, ls->out_bytes);
	t->n_bytes = ls->out_bytes;
	t->host = host;
	t->producer = producer;
	t->layout = ls->out_layout;
	memcpy(t->shape, ls->out_shape, sizeof(t->shape));
	return VTA_OK;
}

void vta_dram_tensor_free(vta_dram_tensor *t)
{
	if (!t)
		return;
	free(t->bytes);
	memset(t, 0, sizeof(*t));
}

void vta_dram_tensor_read(const vta_config *cfg, vta_out_layout layout, const int32_t shape[4],
			  const uint8_t *src, size_t count, int8_t *nhwc)
{
	switch (layout) {
	case VTA_OUT_FLAT: memcpy(nhwc, src, count); break;
	case VTA_OUT_PIXEL:
		vta_layout_pixel_read_i8(cfg, src, count / (size_t)shape[3], (size_t)shape[3],
					 nhwc);
		break;
	case VTA_OUT_CONV: vta_layout_conv_output(cfg, src, shape, nhwc); break;
	}
}

vta_status vta_dram_tensors_init(vta_dram_tensors *ts, size_t n, vta_error *err)
{
	ts->n = n;
	ts->t = calloc(n ? n : 1, sizeof(*ts->t));
	ts->on_host = calloc(n ? n : 1, sizeof(*ts->on_host));
	if (!ts->t || !ts->on_host) {
		vta_dram_tensors_free(ts);
		return vta_fail(err, VTA_E_NOMEM, "out of memory");
	}
	return VTA_OK;
}

void vta_dram_tensors_free(vta_dram_tensors *ts)
{
	for (size_t i = 0; ts->t && i < ts->n; i++)
		vta_dram_tensor_free(&ts->t[i]);
	free(ts->t);
	free(ts->on_host);
	memset(ts, 0, sizeof(*ts));
}

vta_dram_tensor *vta_dram_tensors_slot(vta_dram_tensors *ts, int32_t idx)
{
	if (idx < 0 || (size_t)idx >= ts->n)
		return NULL;
	ts->on_host[idx] = false;
	return &ts->t[idx];
}

size_t vta_dram_tensors_gather(const vta_dram_tensors *ts, const int32_t *idx, size_t n,
			       vta_dram_tensor *out, size_t max)
{
	size_t k = 0;
	for (size_t i = 0; i < n && k < max; i++)
		if (idx[i] >= 0 && (size_t)idx[i] < ts->n && ts->t[idx[i]].bytes)
			out[k++] = ts->t[idx[i]]; /* borrowed: the slot keeps the bytes */
	return k;
}

uint64_t vta_dram_tensors_copy_out(vta_dram_tensors *ts, const vta_config *cfg, int32_t idx,
				   int8_t *nhwc, int32_t *producer, double *seconds)
{
	*seconds = 0;
	if (idx < 0 || (size_t)idx >= ts->n || !ts->t[idx].bytes || ts->on_host[idx] || !nhwc)
		return 0;
	const vta_dram_tensor *t = &ts->t[idx];
	const int32_t *s = t->shape;
	double t0 = vta_host_now();
	size_t count = (size_t)s[0] * s[1] * s[2] * s[3];
	vta_dram_tensor_read(cfg, t->layout, s, t->bytes, count, nhwc);
	*seconds = vta_host_now() - t0;
	ts->on_host[idx] = true;
	*producer = t->producer;
	return t->n_bytes;
}

/* ---- which layouts are the same bytes ---- */

/*
 * A layout in one description: `blocked` ones hold each image's pixels (hp x wp, the image's
 * h x w at pad_top/pad_left inside) in rows of `blk` channel lanes per batch lane, cb rows per
 * pixel, images grouped `batch` at a time (layout.h); flat ones hold the elements in order in
 * rows of batch * block_out lanes. Two layouts are the same bytes when their descriptions are
 * equal, a blocked layout without a halo read as one row of h * w pixels.
 */
typedef struct desc {
	bool blocked;
	uint64_t count;           /* elements */
	uint64_t row_bytes;       /* DRAM bytes per row */
	int32_t n, c;
	uint64_t blk, cb;
	int32_t pad_top, pad_left, hp, wp;
} desc;

static desc blocked(const vta_config *cfg, uint64_t row_bytes, const int32_t nhwc[4],
		    uint64_t blk, uint64_t cb, int32_t pad_top, int32_t pad_left, int32_t hp,
		    int32_t wp)
{
	desc d = {true, (uint64_t)nhwc[0] * nhwc[1] * nhwc[2] * nhwc[3], row_bytes, nhwc[0],
		  nhwc[3], blk, cb, pad_top, pad_left, hp, wp};
	if (!pad_top && !pad_left && hp == nhwc[1] && wp == nhwc[2]) {
		/* no halo: the pixels in one run, and with one batch lane the images too */
		d.hp = 1;
		d.wp = nhwc[1] * nhwc[2];
		if (cfg->batch == 1) {
			d.wp *= nhwc[0];
			d.n = 1;
		}
	}
	return d;
}

static desc flat(const vta_config *cfg, uint64_t count)
{
	desc d = {0};
	d.count = count;
	d.row_bytes = (uint64_t)cfg->batch * cfg->block_out;
	/* with one batch lane and whole channel blocks, flat rows are the pixel-blocked ones */
	return d;
}

static desc of_output(const vta_config *cfg, const vta_dram_tensor *t)
{
	const int32_t *s = t->shape;
	uint64_t cb = vta_layout_div_up((uint64_t)s[3], cfg->block_out);
	if (t->layout == VTA_OUT_FLAT && !(cfg->batch == 1 && s[3] % (int32_t)cfg->block_out == 0))
		return flat(cfg, (uint64_t)s[0] * s[1] * s[2] * s[3]);
	return blocked(cfg, cfg->sram[VTA_MEM_OUT].elem_bytes, s, cfg->block_out, cb, 0, 0, s[1],
		       s[2]);
}

static bool same(const desc *a, const desc *b)
{
	if (a->blocked != b->blocked || a->count != b->count || a->row_bytes != b->row_bytes)
		return false;
	if (!a->blocked)
		return true;
	return a->n == b->n && a->c == b->c && a->blk == b->blk && a->cb == b->cb &&
	       a->pad_top == b->pad_top && a->pad_left == b->pad_left && a->hp == b->hp &&
	       a->wp == b->wp;
}

/* ---- putting an input ---- */

static const vta_dram_tensor *resident_of(const vta_emit_opts *opts, const int8_t *data)
{
	for (size_t i = 0; data && i < opts->n_resident; i++)
		if (opts->resident[i].host == data && opts->resident[i].bytes)
			return &opts->resident[i];
	return NULL;
}

static void note_source(vta_layer_counters *k, int32_t from)
{
	if (k->n_inputs < sizeof(k->input_from) / sizeof(k->input_from[0]))
		k->input_from[k->n_inputs] = from;
	k->n_inputs++;
}

void vta_dram_count_staged(vta_layer_counters *k, uint64_t bytes)
{
	note_source(k, -1);
	k->staged_bytes += bytes;
}

/* The layout a consumer wants and how to write it from NHWC. */
typedef struct dest {
	desc d;
	uint64_t bytes;
	void (*write)(const struct dest *w, const vta_config *cfg, const vta_tensor_i8 *t,
		      uint8_t *dst);
	const vta_layout_window *win;
	int8_t fill;
	bool pixel;
	size_t channels;
} dest;

static void write_conv(const dest *w, const vta_config *cfg, const vta_tensor_i8 *t,
		       uint8_t *dst)
{
	vta_layout_conv_input(cfg, t, w->win, w->fill, dst);
}

static void write_rows(const dest *w, const vta_config *cfg, const vta_tensor_i8 *t,
		       uint8_t *dst)
{
	size_t n = vta_tensor_i8_count(t);
	if (w->pixel)
		vta_layout_pixel_i8(cfg, t->data, n / w->channels, w->channels, dst);
	else
		vta_layout_flat_i8(cfg, t->data, n, dst);
}

/* The resident region as it is, a relayout of it, or the host tensor staged. */
static vta_status put(const vta_config *cfg, const vta_emit_opts *opts, const vta_tensor_i8 *t,
		      const dest *w, uint8_t *dst, vta_layer_counters *k, vta_error *err)
{
	if (!k) { /* a constant: written as always, counted by the emitter */
		w->write(w, cfg, t, dst);
		return VTA_OK;
	}
	const vta_dram_tensor *r = resident_of(opts, t->data);
	size_t count = vta_tensor_i8_count(t);
	if (!r) {
		double t0 = vta_host_now();
		w->write(w, cfg, t, dst);
		k->staging_seconds += vta_host_now() - t0;
		vta_dram_count_staged(k, w->bytes);
		return VTA_OK;
	}
	const int32_t *s = r->shape;
	if ((uint64_t)s[0] * s[1] * s[2] * s[3] != count)
		return vta_fail(err, VTA_E_INTERNAL,
				"an input of %zu elements is an output region of %d x %d x %d x %d",
				count, s[0], s[1], s[2], s[3]);
	note_source(k, r->producer);
	desc src = of_output(cfg, r);
	/* the padding lanes of a partial last channel block hold the requantized zero of the
	 * padding channels, not zeros: a LUT-decoded filter's padding columns (the table's
	 * first value) would meet them, so such a region is relayouted (zeros written) */
	bool clean = s[3] % (int32_t)cfg->block_out == 0;
	if (clean && same(&src, &w->d) && r->n_bytes == w->bytes) {
		memcpy(dst, r->bytes, w->bytes); /* the region itself */
		k->carried_bytes += w->bytes;
		return VTA_OK;
	}
	/* from the region to the consumer's layout, element by element through a scratch in
	 * NHWC order (the layout rules stay in layout.c) */
	double t0 = vta_host_now();
	int8_t *scratch = malloc(count ? count : 1);
	if (!scratch)
		return vta_fail(err, VTA_E_NOMEM, "out of memory");
	vta_dram_tensor_read(cfg, r->layout, r->shape, r->bytes, count, scratch);
	vta_tensor_i8 view = *t;
	view.data = scratch;
	w->write(w, cfg, &view, dst);
	free(scratch);
	k->relayout_seconds += vta_host_now() - t0;
	k->relayout_bytes += r->n_bytes + w->bytes;
	return VTA_OK;
}

vta_status vta_dram_put_conv_input(const vta_config *cfg, const vta_emit_opts *opts,
				   const vta_tensor_i8 *in, const vta_layout_window *w,
				   int8_t fill, uint8_t *dst, vta_layer_counters *k,
				   vta_error *err)
{
	uint64_t cb = vta_layout_div_up((uint64_t)in->shape[3], cfg->block_in);
	if (w->cb > cb)
		cb = w->cb;
	dest d = {blocked(cfg, cfg->sram[VTA_MEM_INP].elem_bytes, in->shape, cfg->block_in, cb,
			  w->pad_top, w->pad_left, w->hp, w->wp),
		  vta_layout_conv_input_bytes(cfg, in->shape, w),
		  write_conv,
		  w,
		  fill,
		  false,
		  0};
	return put(cfg, opts, in, &d, dst, k, err);
}

vta_status vta_dram_put_rows_i8(const vta_config *cfg, const vta_emit_opts *opts,
				const vta_tensor_i8 *t, bool pixel, size_t channels, uint8_t *dst,
				vta_layer_counters *k, vta_error *err)
{
	size_t n = vta_tensor_i8_count(t);
	const uint64_t lanes = (uint64_t)cfg->batch * cfg->block_out;
	dest d = {{0}, 0, write_rows, NULL, 0, pixel, channels};
	if (pixel) {
		/* one batch lane (the emitter's rule): pixels x ceil(C / BO) rows of BO lanes */
		const int32_t shape[4] = {1, 1, (int32_t)(n / channels), (int32_t)channels};
		uint64_t cb = vta_layout_div_up(channels, cfg->block_out);
		d.d = blocked(cfg, lanes, shape, cfg->block_out, cb, 0, 0, 1, shape[2]);
		d.bytes = vta_layout_pixel_rows(cfg, n / channels, channels) * lanes;
	} else {
		d.d = flat(cfg, n);
		if (cfg->batch == 1 && t->shape[3] % (int32_t)cfg->block_out == 0)
			d.d = blocked(cfg, lanes, t->shape, cfg->block_out,
				      (uint64_t)t->shape[3] / cfg->block_out, 0, 0, t->shape[1],
				      t->shape[2]);
		d.bytes = vta_layout_flat_rows(cfg, n) * lanes;
	}
	return put(cfg, opts, t, &d, dst, k, err);
}
