/*
 * emit_conv2d.c - the int8 CONV2D emitter (emit_conv2d.h; docs/runtime.md "CONV2D").
 *
 * Host side: decode LUT constants, compute the per-channel requantization constants, fold
 * the input zero point into the bias, write the padded input, the blocked filter and the
 * constant rows into DRAM, and choose a plan (tiling.c). Stream: the steps of the plan's
 * schedule (vta_conv_schedule) in program order, with the tokens it assigned; how those
 * pair one to one is docs/runtime.md "Tokens".
 */
#include "emit_conv2d.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dram_tensor.h"
#include "emit_lut.h"
#include "emit_util.h"
#include "layout.h"
#include "lut_group.h"
#include "lut_pack.h"
#include "tiling.h"
#include "vta_limits.h"
#include "vta_rules.h" /* vta_host_now */

/* One requantization operation: a tensor op over a constant row type, or an immediate. */
typedef struct cv_op {
	vta_alu_op op;
	bool use_imm;
	int32_t imm;
	int32_t row; /* constant row type (tensor ops) */
} cv_op;

#define CV_MAX_OPS 9
#define CV_MAX_TYPES 5
#define CV_ROW_DECODED (-2) /* the bias row the decoder loads, numbered last */

typedef struct cv_ctx {
	const vta_config *cfg;
	vta_stream *s;
	const char *layer;
	vta_conv_geom g;
	vta_conv_plan p;
	uint64_t in_addr, w_addr, k_addr, o_addr;
	cv_op ops[CV_MAX_OPS];
	int n_ops;
	int32_t *types[CV_MAX_TYPES]; /* per-channel values of each constant row type; NULL
				       * for the bias row the decoder loads */
	int n_types;
	vta_conv_sched sched;
	/* constants the LUT decoder decompresses (NULL: decoded on the host) */
	const vta_lut_tensor *wlut, *blut;
	vta_lut_buffer wspread; /* a grouped filter's indices spread over its units */
	vta_em_lut tm;
	vta_em_lut_table wtab, btab;
	uint64_t wrow_bytes, brow_bytes; /* packed element bytes */
	uint64_t b_addr;                 /* packed bias rows */
	uint32_t scratch_zeroed;         /* scratch rows dummy uops accumulate into, zeroed */
} cv_ctx;

/* ---------- requantization program ---------- */

/* Add a per-channel operation: an immediate when every channel has the same value that
 * fits the 16-bit field (skipped altogether when it is the identity), else a tensor op on
 * a constant row. `vals` is taken over (or freed). */
static vta_status cv_add_op(cv_ctx *c, vta_alu_op op, int32_t *vals, int32_t identity,
			    bool never_imm, vta_error *err)
{
	const size_t O = (size_t)c->g.o;
	bool uniform = true;
	for (size_t i = 1; i < O; i++)
		if (vals[i] != vals[0])
			uniform = false;
	const int32_t lim = 1 << (c->cfg->fw.alu_imm - 1);
	if (uniform && (vals[0] == identity || (!never_imm && vals[0] >= -lim && vals[0] < lim))) {
		if (vals[0] != identity)
			c->ops[c->n_ops++] = (cv_op){op, true, vals[0], -1};
		free(vals);
		return VTA_OK;
	}
	if (c->n_types == CV_MAX_TYPES) {
		free(vals);
		return vta_fail(err, VTA_E_INTERNAL, "layer %s: too many constant rows", c->layer);
	}
	c->types[c->n_types] = vals;
	c->ops[c->n_ops++] = (cv_op){op, false, 0, c->n_types};
	c->n_types++;
	return VTA_OK;
}

/* One cv_add_op to make. */
typedef struct cv_vec_op {
	vta_alu_op op;
	int32_t *vals;
	int32_t identity;
	bool never_imm;
} cv_vec_op;

/* cv_add_op for each of `n` operations in order, once `st` (how computing their vectors
 * went) is VTA_OK; every vector is taken over, also those after a failure. */
static vta_status cv_add_ops(cv_ctx *c, vta_status st, const cv_vec_op *ops, int n,
			     vta_error *err)
{
	for (int i = 0; i < n; i++) {
		if (st == VTA_OK)
			st = cv_add_op(c, ops[i].op, ops[i].vals, ops[i].identity, ops[i].never_imm,
				       err);
		else
			free(ops[i].vals);
	}
	return st;
}

static int32_t *cv_vec(size_t n)
{
	return calloc(n ? n : 1, sizeof(int32_t));
}

/* The ALU sequence of one output element, per channel, exactly as quant.c applies it. */
static vta_status cv_requant(cv_ctx *c, vta_arith_mode mode, const vta_conv2d *conv,
			     const int64_t *wsum, const int32_t *bias, const vta_tensor_i8 *out,
			     vta_error *err)
{
	const size_t O = (size_t)c->g.o;
	const int32_t zp_in = conv->input->zero_point;
	int32_t act_min, act_max;
	vta_status st = vta_quant_activation_range(conv->activation, out->scale, out->zero_point,
						   &act_min, &act_max, err);
	if (st != VTA_OK)
		return st;
	/* bias' = bias - zp_in * sum(w): the input is padded with zp_in and not offset. A bias
	 * the decoder loads is added as a row of its own first; the ALU wraps modulo 2^32, so
	 * adding it before the folded constants gives the same result. */
	if (c->blut)
		c->ops[c->n_ops++] = (cv_op){VTA_ALU_ADD, false, 0, CV_ROW_DECODED};
	int32_t *b = cv_vec(O);
	if (!b)
		return vta_fail(err, VTA_E_NOMEM, "layer %s: out of memory", c->layer);
	for (size_t o = 0; o < O; o++)
		b[o] = vta_wrap32((int64_t)(bias ? bias[o] : 0) - (int64_t)zp_in * wsum[o]);
	if (mode == VTA_ARITH_TFLITE) {
		st = cv_add_op(c, VTA_ALU_ADD, b, 0, true, err);
		if (st != VTA_OK)
			return st;
		vta_qmul *m = malloc(O * sizeof(*m));
		if (!m)
			return vta_fail(err, VTA_E_NOMEM, "layer %s: out of memory", c->layer);
		st = vta_quant_conv_tflite_params(conv->input->scale, conv->filter_scales,
						  conv->filter_scale_count, O, out->scale, m, err);
		int32_t *lsh = cv_vec(O), *mul = cv_vec(O), *rsh = cv_vec(O);
		if (st == VTA_OK && (!lsh || !mul || !rsh))
			st = vta_fail(err, VTA_E_NOMEM, "layer %s: out of memory", c->layer);
		for (size_t o = 0; st == VTA_OK && o < O; o++) {
			int32_t left = m[o].shift > 0 ? (m[o].shift > 31 ? 31 : m[o].shift) : 0;
			lsh[o] = -left; /* SHR by a negative amount shifts left */
			mul[o] = m[o].multiplier;
			rsh[o] = m[o].shift > 0 ? 0 : -m[o].shift;
		}
		free(m);
		const cv_vec_op ops[] = {{VTA_ALU_SHR, lsh, 0, false},
					 {VTA_ALU_SRDHM, mul, INT32_MIN, true},
					 {VTA_ALU_RSHR, rsh, 0, false}};
		if ((st = cv_add_ops(c, st, ops, 3, err)) != VTA_OK)
			return st;
	} else {
		vta_q15 *m = malloc(O * sizeof(*m));
		if (!m) {
			free(b);
			return vta_fail(err, VTA_E_NOMEM, "layer %s: out of memory", c->layer);
		}
		st = vta_quant_conv_vta16_params(conv->input->scale, conv->filter_scales,
						 conv->filter_scale_count, O, out->scale, m, err);
		int32_t *mul = cv_vec(O), *rnd = cv_vec(O), *shr = cv_vec(O);
		if (st == VTA_OK && (!mul || !rnd || !shr))
			st = vta_fail(err, VTA_E_NOMEM, "layer %s: out of memory", c->layer);
		/* (acc + b)*M + r == acc*M + (b*M + r) modulo 2^32: one ADD of a folded vector
		 * replaces the bias ADD and the rounding ADD (docs/arithmetic.md 3.3) */
		for (size_t o = 0; st == VTA_OK && o < O; o++) {
			mul[o] = m[o].multiplier;
			rnd[o] = vta_wrap32((int64_t)b[o] * m[o].multiplier +
					    vta_quant_vta16_round(m[o]));
			shr[o] = vta_quant_vta16_shr(m[o]);
		}
		free(m);
		free(b);
		/* MUL by 1 is the identity; never skip a MUL by 0 */
		const cv_vec_op ops[] = {{VTA_ALU_MUL, mul, 1, false},
					 {VTA_ALU_ADD, rnd, 0, false},
					 {VTA_ALU_SHR, shr, 0, false}};
		if ((st = cv_add_ops(c, st, ops, 3, err)) != VTA_OK)
			return st;
	}
	if (out->zero_point != 0)
		c->ops[c->n_ops++] = (cv_op){VTA_ALU_ADD, true, out->zero_point, -1};
	if (mode == VTA_ARITH_TFLITE) {
		c->ops[c->n_ops++] = (cv_op){VTA_ALU_MAX, true, act_min, -1};
		c->ops[c->n_ops++] = (cv_op){VTA_ALU_MIN, true, act_max, -1};
	} else {
		c->ops[c->n_ops++] = (cv_op){VTA_ALU_MIN, true, act_max, -1};
		c->ops[c->n_ops++] = (cv_op){VTA_ALU_MAX, true, act_min, -1};
	}
	for (int i = 0; i < c->n_ops; i++)
		if (c->ops[i].row == CV_ROW_DECODED)
			c->ops[i].row = c->n_types++; /* types[] stays NULL: nothing to lay out */
	return VTA_OK;
}

/* Per output channel, the sum of the filter's values: from the plain filter, or from the
 * LUT tensor's index histogram and its table (no element is decoded). */
static vta_status cv_filter_sums(cv_ctx *c, const int8_t *filter, const vta_lut_tensor *lut,
				 int64_t *sum, vta_error *err)
{
	const size_t O = (size_t)c->g.o;
	/* a spread grouped filter holds its units' zero lanes too; they add nothing */
	const size_t per = lut ? lut->count / O
			       : (size_t)c->g.kh * (size_t)c->g.kw * (size_t)(c->g.c / c->g.groups);
	if (!lut) {
		for (size_t o = 0; o < O; o++) {
			/* a local sum: an int8 store may alias sum[o], so summing into it would
			 * store at every element */
			const int8_t *f = filter + o * per;
			int64_t t = 0;
			for (size_t i = 0; i < per; i++)
				t += f[i];
			sum[o] = t;
		}
		return VTA_OK;
	}
	if (lut->channels != 1 && (lut->channels != O || lut->axis_last))
		return vta_fail(err, VTA_E_UNSUPPORTED,
				"layer %s: CONV2D filter: the LUT decoder needs one table or one "
				"per output channel (the first axis), not %zu%s",
				c->layer, lut->channels, lut->axis_last ? " along the last axis" : "");
	const int8_t *table = lut->value_table;
	uint64_t hist[1u << VTA_LUT_MAX_BITWIDTH]; /* per index value */
	for (size_t o = 0; o < O; o++) {
		memset(hist, 0, sizeof(hist));
		for (size_t i = 0; i < per; i++)
			hist[vta_lut_index(lut->indices, o * per + i, lut->bitwidth)]++;
		const int8_t *t = table + (lut->channels > 1 ? o : 0) * lut->value_table_stride;
		sum[o] = 0;
		for (size_t k = 0; k < lut->value_table_stride && k < sizeof(hist) / sizeof(hist[0]); k++)
			sum[o] += (int64_t)hist[k] * t[k];
	}
	return VTA_OK;
}

/* ---------- emission ---------- */

static vta_status cv_load_step(cv_ctx *c, const vta_conv_step *st, vta_error *err)
{
	const vta_config *cfg = c->cfg;
	const vta_conv_geom *g = &c->g;
	const vta_conv_plan *p = &c->p;
	const vta_conv_tile *tl = &c->sched.tiles[st->tile];
	vta_stream *s = c->s;
	vta_status rc = VTA_OK;
	if (!st->load_inp && !st->load_wgt)
		return VTA_OK;
	if (st->pop_g2l)
		rc = vta_stream_dep_pop(s, VTA_STAGE_COMPUTE, VTA_STAGE_LOAD, err);
	if (rc == VTA_OK && st->load_inp) {
		const uint64_t row_el = (uint64_t)g->wp * g->cb; /* elements per padded row */
		uint64_t first = ((uint64_t)tl->g * g->hp + (uint64_t)tl->y0 * g->sh) * row_el +
				 (uint64_t)tl->x0 * g->sw * g->cb +
				 (uint64_t)tl->unit * g->ucb + (uint64_t)st->c * p->ncb;
		uint32_t rows_in = vta_conv_rows_in(g, tl->rows);
		vta_xfer x = {0};
		x.mem = VTA_MEM_INP;
		x.sram = (uint32_t)st->inp_slot * p->inp_slot;
		x.dram_addr = c->in_addr + first * cfg->sram[VTA_MEM_INP].elem_bytes;
		if (p->nct > 1) {
			/* a column tile's window: its columns and the halo of every input row
			 * it reads (every input block: vta_conv_plan_check) */
			x.y_size = rows_in;
			x.x_size = vta_conv_cols_in(g, tl->cols) * g->cb;
			x.x_stride = (uint32_t)(p->rowskip ? row_el * (uint64_t)g->sh : row_el);
		} else if (p->ncb == g->cb) {
			x.y_size = rows_in;
			x.x_size = (uint32_t)row_el;
			x.x_stride = (uint32_t)(p->rowskip ? row_el * (uint64_t)g->sh : row_el);
		} else {
			x.y_size = rows_in * (uint32_t)g->wp;
			x.x_size = p->ncb;
			x.x_stride = g->cb;
		}
		rc = vta_stream_load(s, &x, err);
	}
	const uint64_t ob0 = (uint64_t)tl->grp * p->nob + (uint64_t)st->sub * p->nobw;
	const uint64_t taps = (uint64_t)g->kh * g->kw;
	const uint32_t nb = vta_conv_grp_obs(g, p, tl->grp);
	const uint32_t nbw = nb == p->nob ? p->nobw : nb; /* a ragged group is one load */
	vta_xfer x = {0};
	x.mem = VTA_MEM_WGT;
	x.x_size = p->ncb;
	x.x_stride = g->ucb; /* the filter holds a unit's input blocks per tap */
	if (rc == VTA_OK && st->load_wgt && c->wlut && g->wgt_lut_window) {
		/* multi-block loads: as many blocks per load as the resident tables cover, the
		 * tables advancing a block every `taps` rows (lut_run) */
		for (uint32_t j = 0, n; j < nbw && rc == VTA_OK; j += n) {
			n = nbw - j < g->wgt_lut_window ? nbw - j : g->wgt_lut_window;
			x.sram = (uint32_t)(st->wgt_slot * p->wgt_slot + j * taps * p->ncb);
			x.dram_addr = c->w_addr + ((ob0 + j) * taps * g->ucb +
						   (uint64_t)st->c * p->ncb) * c->wrow_bytes;
			x.y_size = (uint32_t)(n * taps);
			vta_lut_fields f = {c->wlut->bitwidth, c->wtab.slot, 0,
					    n > 1 ? (uint32_t)taps : 0, g->wgt_lut_group,
					    g->wgt_lut_period};
			rc = vta_em_lut_use_run(s, &c->wtab, (uint32_t)((ob0 + j) * cfg->block_out),
						n * cfg->block_out, &f.chan, err);
			if (rc == VTA_OK)
				rc = vta_stream_load_lut(s, &x, &f, err);
		}
	} else if (rc == VTA_OK && st->load_wgt && c->wlut) {
		/* one decompressing load per output-channel block: a load covers one block */
		for (uint32_t j = 0; j < nbw && rc == VTA_OK; j++) {
			x.sram = (uint32_t)(st->wgt_slot * p->wgt_slot + j * taps * p->ncb);
			x.dram_addr = c->w_addr + ((ob0 + j) * taps * g->ucb +
						   (uint64_t)st->c * p->ncb) * c->wrow_bytes;
			x.y_size = (uint32_t)taps;
			vta_lut_fields f = {c->wlut->bitwidth, c->wtab.slot, 0, 0, g->wgt_lut_group,
					    g->wgt_lut_period};
			rc = vta_em_lut_use(s, &c->wtab, (uint32_t)((ob0 + j) * cfg->block_out),
					    &f.chan, err);
			if (rc == VTA_OK)
				rc = vta_stream_load_lut(s, &x, &f, err);
		}
	} else if (rc == VTA_OK && st->load_wgt) {
		x.sram = (uint32_t)st->wgt_slot * p->wgt_slot;
		x.dram_addr = c->w_addr +
			(ob0 * taps * g->ucb + (uint64_t)st->c * p->ncb) *
				cfg->sram[VTA_MEM_WGT].elem_bytes;
		x.y_size = (uint32_t)(nbw * taps);
		rc = vta_stream_load(s, &x, err);
	}
	if (rc == VTA_OK)
		rc = vta_stream_dep_push(s, VTA_STAGE_LOAD, VTA_STAGE_COMPUTE, err);
	return rc;
}

/* Build and push the GEMM of one step. */
static vta_status cv_gemm_step(cv_ctx *c, const vta_conv_step *st, vta_error *err)
{
	const vta_conv_geom *g = &c->g;
	const vta_conv_plan *p = &c->p;
	const vta_conv_tile *tl = &c->sched.tiles[st->tile];
	/* the tile's ACC rows are [pixel][nb]: a ragged last group's are fewer */
	const uint32_t nb = vta_conv_grp_obs(g, p, tl->grp);
	vta_conv_kshape k;
	vta_conv_kshape_make_cols(c->cfg, g, nb, nb == p->nob ? p->nobw : nb, tl->rows, tl->cols,
				  p->ncb, &k);
	if (!k.ok || k.list_len > c->cfg->sram[VTA_MEM_UOP].depth)
		return vta_fail(err, VTA_E_INTERNAL, "layer %s: no GEMM kernel shape for a tile of %u "
				"rows", c->layer, tl->rows);
	/* dummy uops accumulate into the scratch rows: zero them before the first that uses
	 * them, so no uop reads an ACC row nothing wrote (a ragged tile's kernel may use more) */
	if (k.dummy > c->scratch_zeroed) {
		vta_status rs = vta_em_reset_rows(c->s, p->acc_scratch + c->scratch_zeroed,
						  k.dummy - c->scratch_zeroed, err);
		if (rs != VTA_OK)
			return rs;
		c->scratch_zeroed = k.dummy;
	}
	const uint32_t dst0 = p->acc_slot_base + (st->tile % p->s_acc) * p->acc_slot +
			      st->sub * p->nobw;
	const uint32_t src0 = (uint32_t)st->inp_slot * p->inp_slot;
	const uint32_t wgt0 = (uint32_t)st->wgt_slot * p->wgt_slot;
	vta_uop *u = malloc((size_t)k.list_len * sizeof(*u));
	if (!u)
		return vta_fail(err, VTA_E_NOMEM, "layer %s: out of memory", c->layer);
	/* list order: reduction dims outer, output dims inner (x innermost) */
	static const int order[VTA_KD_COUNT] = {VTA_KD_KY, VTA_KD_KX, VTA_KD_CB,
						VTA_KD_OB, VTA_KD_Y,  VTA_KD_X};
	uint32_t ext[VTA_KD_COUNT];
	for (int d = 0; d < VTA_KD_COUNT; d++)
		ext[d] = d == k.loop[0] || d == k.loop[1] ? 1 : k.extent[d];
	uint32_t idx[VTA_KD_COUNT] = {0};
	size_t n = 0;
	const uint32_t per_cycle = k.outputs;
	uint32_t in_cycle = 0;
	vta_uop first = {0, 0, 0};
	for (;;) {
		uint64_t dst = dst0, src = src0, wgt = wgt0;
		for (int d = 0; d < VTA_KD_COUNT; d++) {
			dst += (uint64_t)idx[d] * (uint64_t)k.dst[d];
			src += (uint64_t)idx[d] * (uint64_t)k.src[d];
			wgt += (uint64_t)idx[d] * (uint64_t)k.wgt[d];
		}
		vta_uop cur = {(uint32_t)dst, (uint32_t)src, (uint32_t)wgt};
		if (in_cycle == 0)
			first = cur;
		u[n++] = cur;
		if (++in_cycle == per_cycle) {
			for (uint32_t j = 0; j < k.dummy; j++)
				u[n++] = (vta_uop){p->acc_scratch + j, first.src, first.wgt};
			in_cycle = 0;
		}
		/* next index, innermost (last in `order`) fastest */
		int pos = VTA_KD_COUNT - 1;
		for (; pos >= 0; pos--) {
			int d = order[pos];
			if (++idx[d] < ext[d])
				break;
			idx[d] = 0;
		}
		if (pos < 0)
			break;
	}
	uint32_t id;
	vta_status rc = VTA_OK;
	if (n != k.list_len)
		rc = vta_fail(err, VTA_E_INTERNAL, "layer %s: kernel of %zu uops, expected %u",
			      c->layer, n, k.list_len);
	if (rc == VTA_OK)
		rc = vta_stream_kernel(c->s, u, n, &id, err);
	free(u);
	if (rc != VTA_OK)
		return rc;
	vta_loops l = {0};
	for (int i = 0; i < 2; i++) {
		int d = k.loop[i];
		if (d < 0)
			continue;
		vta_loop_level *lv = &l.l[l.n++];
		lv->extent = k.extent[d];
		lv->dst = (uint32_t)k.dst[d];
		lv->src = (uint32_t)k.src[d];
		lv->wgt = (uint32_t)k.wgt[d];
	}
	return vta_stream_gemm(c->s, id, &l, false, err);
}

static vta_status cv_requant_tile(cv_ctx *c, const vta_conv_tile *tl, uint32_t t, vta_error *err)
{
	const vta_conv_plan *p = &c->p;
	const uint32_t dst0 = p->acc_slot_base + (t % p->s_acc) * p->acc_slot;
	const uint64_t pixels = (uint64_t)tl->rows * tl->cols;
	const uint32_t nb = vta_conv_grp_obs(&c->g, p, tl->grp);
	const uint32_t cstride = p->const_all ? c->g.ob : nb; /* as the group's load put them */
	const uint32_t coff = p->const_all ? tl->grp * p->nob : 0;
	vta_status rc = VTA_OK;
	for (int i = 0; i < c->n_ops && rc == VTA_OK; i++) {
		const cv_op *op = &c->ops[i];
		if (op->use_imm)
			rc = vta_em_alu_rows(c->s, op->op, true, op->imm, dst0, 0, 0,
					     pixels * nb, err);
		else
			rc = vta_em_alu_pattern(c->s, op->op, dst0,
						p->acc_const_base + (uint32_t)op->row * cstride + coff,
						nb, pixels, err);
	}
	return rc;
}

/* The decoder's bias row (the last constant row type) of `n` blocks from block ob0 on,
 * one load per block; `cstride` is the rows per constant row type. */
static vta_status cv_load_bias(cv_ctx *c, uint32_t ob0, uint32_t n, uint32_t cstride,
			       vta_error *err)
{
	vta_status rc = VTA_OK;
	const uint32_t row0 = c->p.acc_const_base + (uint32_t)(c->n_types - 1) * cstride;
	for (uint32_t i = 0; i < n && rc == VTA_OK; i++) {
		vta_xfer x = {.mem = VTA_MEM_ACC, .sram = row0 + i,
			      .dram_addr = c->b_addr + (uint64_t)(ob0 + i) * c->brow_bytes,
			      .y_size = 1, .x_size = 1, .x_stride = 1};
		vta_lut_fields f = {c->blut->bitwidth, c->btab.slot, 0, 0, 0, 0};
		rc = vta_em_lut_use(c->s, &c->btab, (ob0 + i) * c->cfg->block_out, &f.chan, err);
		if (rc == VTA_OK)
			rc = vta_stream_load_lut(c->s, &x, &f, err);
	}
	return rc;
}

/* Store a computed tile from its ACC slot: whole rows in one store; a column tile's rows
 * in one strided store when it holds every output block, else one store per row. */
static vta_status cv_store_tile(cv_ctx *c, const vta_conv_tile *tl, uint32_t slot0,
				vta_error *err)
{
	const vta_config *cfg = c->cfg;
	const vta_conv_geom *g = &c->g;
	const vta_conv_plan *p = &c->p;
	const uint32_t nb = vta_conv_grp_obs(g, p, tl->grp);
	const uint64_t first = (((uint64_t)tl->g * g->ho + tl->y0) * g->wo + tl->x0) * g->ob +
			       (uint64_t)tl->grp * p->nob;
	vta_xfer x = {.mem = VTA_MEM_OUT,
		      .sram = slot0,
		      .dram_addr = c->o_addr + first * cfg->sram[VTA_MEM_OUT].elem_bytes,
		      .y_size = tl->rows * tl->cols,
		      .x_size = nb,
		      .x_stride = g->ob};
	if (p->nct == 1)
		return vta_stream_store(c->s, &x, err);
	if (nb == g->ob) {
		x.y_size = tl->rows;
		x.x_size = tl->cols * nb;
		x.x_stride = (uint32_t)g->wo * g->ob;
		return vta_stream_store(c->s, &x, err);
	}
	vta_status rc = VTA_OK;
	x.y_size = tl->cols;
	for (uint32_t r = 0; r < tl->rows && rc == VTA_OK; r++) {
		rc = vta_stream_store(c->s, &x, err);
		x.sram += tl->cols * nb;
		x.dram_addr += (uint64_t)g->wo * g->ob * cfg->sram[VTA_MEM_OUT].elem_bytes;
	}
	return rc;
}

static vta_status cv_emit(cv_ctx *c, vta_error *err)
{
	const vta_config *cfg = c->cfg;
	const vta_conv_geom *g = &c->g;
	const vta_conv_plan *p = &c->p;
	vta_stream *s = c->s;
	vta_status rc = VTA_OK;
	int64_t const_grp = -1;
	uint64_t j = 0;
	const uint32_t n_plain = (uint32_t)c->n_types - (c->blut != NULL);
	/* the tables, each loaded by the module that loads what it decodes, before its first use
	 * (the filter's one output block at a time when they do not fit whole: the small bias
	 * table is placed first) */
	if (c->blut)
		rc = vta_em_lut_put(s, &c->tm, c->blut, VTA_MEM_ACC, "the bias", false, 0, &c->btab,
				    err);
	if (rc == VTA_OK && c->wlut)
		rc = vta_em_lut_put(s, &c->tm, c->wlut, VTA_MEM_WGT, "the filter", true,
				    g->wgt_lut_window ? g->wgt_lut_window * cfg->block_out
						      : cfg->block_out,
				    &c->wtab, err);
	if (rc == VTA_OK && p->const_all && n_plain > 0) {
		vta_xfer x = {VTA_MEM_ACC, p->acc_const_base, c->k_addr, n_plain, g->ob,
			      g->ob, 0, 0, 0, 0};
		rc = vta_stream_load(s, &x, err);
	}
	if (rc == VTA_OK && p->const_all && c->blut)
		rc = cv_load_bias(c, 0, g->ob, g->ob, err);
	for (uint32_t t = 0; t < c->sched.n_tiles && rc == VTA_OK; t++) {
		const vta_conv_tile *tl = &c->sched.tiles[t];
		const uint64_t steps = (uint64_t)p->nci * p->nsub;
		const uint32_t slot0 = p->acc_slot_base + (t % p->s_acc) * p->acc_slot;
		const uint32_t nb = vta_conv_grp_obs(g, p, tl->grp);
		for (uint64_t q = 0; q < steps && rc == VTA_OK; q++) {
			const vta_conv_step *st = &c->sched.steps[j + q];
			rc = cv_load_step(c, st, err);
			if (rc != VTA_OK)
				break;
			if (q == 0) {
				if (!p->const_all && c->n_types > 0 && const_grp != (int64_t)tl->grp) {
					const uint64_t k_off = (uint64_t)tl->grp * p->nob *
						cfg->sram[VTA_MEM_ACC].elem_bytes;
					vta_xfer x = {.mem = VTA_MEM_ACC, .sram = p->acc_const_base,
						      .dram_addr = c->k_addr + k_off, .y_size = n_plain,
						      .x_size = nb, .x_stride = g->ob};
					if (n_plain > 0)
						rc = vta_stream_load(s, &x, err);
					if (rc == VTA_OK && c->blut)
						rc = cv_load_bias(c, tl->grp * p->nob, nb, nb, err);
					const_grp = tl->grp;
				}
				if (rc == VTA_OK && t >= p->s_acc)
					rc = vta_stream_dep_pop(s, VTA_STAGE_STORE, VTA_STAGE_COMPUTE,
								err);
				if (rc == VTA_OK)
					rc = vta_em_reset_rows(s, slot0,
							       (uint64_t)tl->rows * tl->cols * nb,
							       err);
			}
			if (rc == VTA_OK && (st->load_inp || st->load_wgt))
				rc = vta_stream_dep_pop(s, VTA_STAGE_LOAD, VTA_STAGE_COMPUTE, err);
			if (rc == VTA_OK)
				rc = cv_gemm_step(c, st, err);
			if (rc == VTA_OK && st->push_g2l)
				rc = vta_stream_dep_push(s, VTA_STAGE_COMPUTE, VTA_STAGE_LOAD, err);
		}
		j += steps;
		if (rc == VTA_OK)
			rc = cv_requant_tile(c, tl, t, err);
		if (rc == VTA_OK)
			rc = vta_stream_dep_push(s, VTA_STAGE_COMPUTE, VTA_STAGE_STORE, err);
		if (rc == VTA_OK)
			rc = vta_stream_dep_pop(s, VTA_STAGE_COMPUTE, VTA_STAGE_STORE, err);
		if (rc == VTA_OK)
			rc = cv_store_tile(c, tl, slot0, err);
		if (rc == VTA_OK && t + p->s_acc < c->sched.n_tiles)
			rc = vta_stream_dep_push(s, VTA_STAGE_STORE, VTA_STAGE_COMPUTE, err);
	}
	return rc;
}

/* ---------- entry point ---------- */

static void cv_free(cv_ctx *c)
{
	for (int i = 0; i < c->n_types; i++)
		free(c->types[i]);
	vta_conv_sched_free(&c->sched);
	vta_lut_buffer_free(&c->wspread);
}

/* One axis of the output (TFLite padding.h, written here independently of the golden
 * kernel): eff = (k-1)*d + 1; SAME: out = ceil(in / s); VALID: out = (in + s - eff) / s;
 * the padding before is half of max(0, (out-1)*s + eff - in), rounded down. */
static vta_status cv_axis(const char *layer, int32_t in, int32_t k, int32_t s, int32_t d,
			  vta_padding padding, int32_t *out, int32_t *pad_before, vta_error *err)
{
	if (in < 1 || k < 1 || s < 1 || d < 1)
		return vta_fail(err, VTA_E_USAGE,
				"layer %s: CONV2D input size %d, kernel %d, stride %d and dilation "
				"%d must be >= 1",
				layer, (int)in, (int)k, (int)s, (int)d);
	int64_t eff = (int64_t)(k - 1) * d + 1;
	int64_t o = padding == VTA_PADDING_SAME ? ((int64_t)in + s - 1) / s
						: ((int64_t)in + s - eff) / s;
	if (padding != VTA_PADDING_SAME && padding != VTA_PADDING_VALID)
		return vta_fail(err, VTA_E_USAGE, "layer %s: CONV2D unknown padding %d", layer,
				(int)padding);
	int64_t total = (o - 1) * s + eff - in;
	if (o < 1 || eff > INT32_MAX || total > INT32_MAX)
		return vta_fail(err, VTA_E_USAGE,
				"layer %s: CONV2D input size %d with dilated kernel %lld leaves no "
				"output or needs too much padding",
				layer, (int)in, (long long)eff);
	*out = (int32_t)o;
	*pad_before = total > 0 ? (int32_t)(total / 2) : 0;
	return VTA_OK;
}

/* The layer's geometry from its description; `out` must have the output shape. */
static vta_status cv_geometry(const vta_conv2d *conv, const vta_tensor_i8 *out,
			      const char *layer, vta_conv_geom *g, vta_error *err)
{
	if (!conv)
		return vta_fail(err, VTA_E_USAGE, "layer %s: no CONV2D layer", layer);
	vta_status st = vta_tensor_i8_check(conv->input, "CONV2D input", err);
	if (st != VTA_OK)
		return st;
	const int32_t *fs = conv->filter_shape, *is = conv->input->shape;
	for (int i = 0; i < 4; i++)
		if (fs[i] < 1)
			return vta_fail(err, VTA_E_USAGE,
					"layer %s: CONV2D filter shape [%d, %d, %d, %d] is not a "
					"valid OHWI shape",
					layer, (int)fs[0], (int)fs[1], (int)fs[2], (int)fs[3]);
	if (is[3] % fs[3] != 0 || fs[0] % (is[3] / fs[3]) != 0)
		return vta_fail(err, VTA_E_USAGE,
				"layer %s: CONV2D filter depth %d does not cut the input's %d "
				"channels into groups that divide the %d output channels",
				layer, (int)fs[3], (int)is[3], (int)fs[0]);
	*g = (vta_conv_geom){.n = is[0], .h = is[1], .w = is[2], .c = is[3], .o = fs[0],
			     .kh = fs[1], .kw = fs[2], .groups = is[3] / fs[3],
			     .sh = conv->stride_h, .sw = conv->stride_w, .dh = conv->dilation_h,
			     .dw = conv->dilation_w};
	if ((st = cv_axis(layer, g->h, g->kh, g->sh, g->dh, conv->padding, &g->ho, &g->pad_top,
			  err)) ||
	    (st = cv_axis(layer, g->w, g->kw, g->sw, g->dw, conv->padding, &g->wo, &g->pad_left,
			  err)))
		return st;
	const int32_t os[4] = {g->n, g->ho, g->wo, g->o};
	for (int i = 0; i < 4; i++)
		if (out->shape[i] != os[i])
			return vta_fail(err, VTA_E_USAGE,
					"layer %s: CONV2D output shape [%d, %d, %d, %d] should be "
					"[%d, %d, %d, %d]",
					layer, (int)out->shape[0], (int)out->shape[1],
					(int)out->shape[2], (int)out->shape[3], (int)os[0],
					(int)os[1], (int)os[2], (int)os[3]);
	return VTA_OK;
}

/* A grouped OHWI filter [O][KH][KW][C/groups] spread into [O][KH][KW][ucb*BI]: output
 * channel oc sees its unit's input blocks, its own group's channels at their place in
 * the unit and zeros elsewhere (tiling.h "units"). */
static vta_status cv_unit_filter(cv_ctx *c, const int8_t *filter, int8_t **out,
				 int32_t shape[4], vta_error *err)
{
	const vta_conv_geom *g = &c->g;
	const size_t in_g = (size_t)(g->c / g->groups), out_g = (size_t)(g->o / g->groups);
	const size_t uc = (size_t)g->ucb * c->cfg->block_in; /* a unit's input channels */
	const size_t per_unit = uc / in_g;                      /* groups per unit */
	const size_t taps = (size_t)g->kh * (size_t)g->kw;
	shape[3] = (int32_t)uc;
	*out = calloc((size_t)g->o * taps * uc, 1);
	if (!*out)
		return vta_fail(err, VTA_E_NOMEM, "layer %s: out of memory", c->layer);
	for (size_t oc = 0; oc < (size_t)g->o; oc++) {
		const size_t grp = oc / out_g;
		const size_t at = (grp % per_unit) * in_g; /* the group's channels in its unit */
		for (size_t t = 0; t < taps; t++)
			memcpy(*out + (oc * taps + t) * uc + at, filter + (oc * taps + t) * in_g,
			       in_g);
	}
	return VTA_OK;
}

/* A LUT-compressed filter or bias (none: nothing to do): taken by the decoder (*hw) in hw
 * mode when hw_ok, else decoded into a new *buf of `count` elements of `elem` bytes. */
static vta_status cv_lut_operand(cv_ctx *c, const vta_lut_tensor *lut, vta_lut_type type,
				 size_t count, size_t elem, const char *what, bool hw_ok,
				 const vta_emit_opts *opts, const vta_lut_tensor **hw, void **buf,
				 vta_error *err)
{
	if (!lut)
		return VTA_OK;
	char name[32], the[32];
	snprintf(name, sizeof(name), "CONV2D %s", what);
	snprintf(the, sizeof(the), "the %s", what);
	vta_status st = vta_lut_expect(lut, type, count, c->layer, name, what, err);
	if (st != VTA_OK)
		return st;
	if (opts->decompress == VTA_DECOMPRESS_HW && hw_ok) {
		*hw = lut;
		return vta_em_lut_check(c->cfg, lut, c->layer, the, err);
	}
	*buf = malloc(count * elem);
	if (!*buf)
		return vta_fail(err, VTA_E_NOMEM, "layer %s: out of memory", c->layer);
	return vta_lut_decode(lut, *buf, count * elem, err);
}

/* Whether a grouped LUT filter takes zero-lane fill (*group: its groups' input channels,
 * else 0): the config has it, a unit is one input block whose groups leave lanes between
 * them, and the decoder finds a row's groups from its table channel. That channel is the
 * output channel when the tables are resident whole or per tensor; a table window
 * renumbers channels from a block's first, which keeps the groups' places only when a
 * block holds whole cycles of them (BO a multiple of period * BI / group). */
static vta_status cv_zero_fill(cv_ctx *c, uint64_t bias_entries, uint32_t *group,
			       vta_error *err)
{
	const vta_config *cfg = c->cfg;
	const vta_conv_geom *g = &c->g;
	const uint64_t in_g = (uint64_t)(g->c / g->groups), out_g = (uint64_t)(g->o / g->groups);
	*group = 0;
	if (!cfg->decomp_zero_fill || g->ucb != 1 || in_g >= cfg->block_in ||
	    out_g >= (1u << cfg->fw.memop_lut_period))
		return VTA_OK;
	vta_lut_table_image img;
	vta_status st = vta_lut_pack_table_image(cfg, c->wlut, VTA_MEM_WGT, &img, err);
	if (st != VTA_OK)
		return st;
	const uint64_t cycle = out_g * (cfg->block_in / in_g); /* channels per unit */
	if (vta_em_lut_splits(cfg, bias_entries, &img) && cfg->block_out % cycle)
		return VTA_OK;
	*group = (uint32_t)in_g;
	return VTA_OK;
}

static vta_status cv_prepare(cv_ctx *c, const vta_conv2d *conv, const vta_lut_tensor *filter_lut,
			     const vta_lut_tensor *bias_lut, const vta_tensor_i8 *out,
			     const vta_emit_opts *opts, void **fbuf, void **bbuf, vta_error *err)
{
	const char *layer = c->layer;
	vta_status st = cv_geometry(conv, out, layer, &c->g, err);
	if (st != VTA_OK)
		return st;
	const int32_t *fs = conv->filter_shape;
	const size_t fcount = (size_t)fs[0] * fs[1] * fs[2] * fs[3];
	if (!filter_lut && !conv->filter)
		return vta_fail(err, VTA_E_USAGE, "layer %s: CONV2D has no filter data", layer);
	vta_conv_geom_derive(c->cfg, &c->g);
	if ((st = cv_lut_operand(c, filter_lut, VTA_LUT_INT8, fcount, 1, "filter", true, opts,
				 &c->wlut, fbuf, err)) ||
	    (st = cv_lut_operand(c, bias_lut, VTA_LUT_INT32, (size_t)fs[0], sizeof(int32_t),
				 "bias", true, opts, &c->blut, bbuf, err)))
		return st;
	st = vta_em_check_mode(c->cfg, opts->mode, layer, "CONV2D", err);
	if (st != VTA_OK)
		return st;

	uint64_t bias_entries = 0; /* the bias table is placed first (cv_emit) */
	if (c->blut) {
		vta_lut_table_image img;
		if ((st = vta_lut_pack_table_image(c->cfg, c->blut, VTA_MEM_ACC, &img, err)))
			return st;
		c->g.bias_lut_bw = c->blut->bitwidth;
		c->g.bias_lut_table_bytes = (uint32_t)img.bytes;
		bias_entries = img.channels * img.stride;
	}
	/* a grouped filter is laid out with zeros between its groups: with zero-lane fill the
	 * decoder writes them and DRAM holds the groups' indices only; else the decoder takes
	 * the indices spread over the units, the zero lanes pointing at a zero table entry */
	if (c->wlut && c->g.groups > 1 &&
	    (st = cv_zero_fill(c, bias_entries, &c->g.wgt_lut_group, err)))
		return st;
	if (c->g.wgt_lut_group)
		c->g.wgt_lut_period = (uint32_t)(c->g.o / c->g.groups);
	if (c->wlut && c->g.groups > 1 && !c->g.wgt_lut_group) {
		const size_t taps = (size_t)fs[1] * (size_t)fs[2];
		vta_error sub = {0};
		st = vta_lut_spread_groups(c->wlut, (size_t)c->g.o, taps,
					   (size_t)(c->g.c / c->g.groups),
					   (size_t)(c->g.o / c->g.groups),
					   (size_t)c->g.ucb * c->cfg->block_in, &c->wspread, &sub);
		if (st != VTA_OK)
			return vta_fail(err, st, "layer %s: %s", layer, sub.detail);
		c->wlut = &c->wspread.tensor;
		if ((st = vta_em_lut_check(c->cfg, c->wlut, layer, "the filter", err)))
			return st;
	}
	if (c->wlut) {
		vta_lut_table_image img;
		if ((st = vta_lut_pack_table_image(c->cfg, c->wlut, VTA_MEM_WGT, &img, err)))
			return st;
		c->g.wgt_lut_bw = c->wlut->bitwidth;
		c->g.wgt_lut_table_bytes = (uint32_t)img.bytes;
		if (vta_em_lut_splits(c->cfg, bias_entries, &img))
			c->g.wgt_lut_block_table_bytes =
				(uint32_t)(img.bytes / img.channels * c->cfg->block_out);
		if (c->cfg->decomp_multi_block)
			c->g.wgt_lut_window = (uint32_t)(vta_em_lut_window(c->cfg, bias_entries, &img,
									   c->cfg->block_out) /
							 c->cfg->block_out);
	}
	const int8_t *filter = *fbuf ? *fbuf : conv->filter;
	const int32_t *bias = c->blut ? NULL : *bbuf ? *bbuf : conv->bias;
	int64_t *wsum = malloc((size_t)fs[0] * sizeof(*wsum));
	if (!wsum)
		return vta_fail(err, VTA_E_NOMEM, "layer %s: out of memory", layer);
	st = cv_filter_sums(c, filter, c->wlut, wsum, err);
	if (st == VTA_OK)
		st = cv_requant(c, opts->mode, conv, wsum, bias, out, err);
	free(wsum);
	return st;
}

static vta_status cv_emit_layer(const vta_config *cfg, const vta_conv2d *conv,
				const vta_lut_tensor *filter_lut, const vta_lut_tensor *bias_lut,
				const vta_tensor_i8 *out, const vta_emit_opts *opts,
				const vta_conv_plan *plan, const vta_conv_pin *pin, vta_dram *dram,
				vta_layer_stream *ls, vta_error *err);

vta_status vta_emit_conv2d(const vta_config *cfg, const vta_conv2d *conv,
			   const vta_lut_tensor *filter_lut, const vta_lut_tensor *bias_lut,
			   const vta_tensor_i8 *out, const vta_emit_opts *opts, vta_dram *dram,
			   vta_layer_stream *ls, vta_error *err)
{
	return cv_emit_layer(cfg, conv, filter_lut, bias_lut, out, opts, NULL, NULL, dram, ls,
			     err);
}

vta_status vta_emit_conv2d_plan(const vta_config *cfg, const vta_conv2d *conv,
				const vta_lut_tensor *filter_lut, const vta_lut_tensor *bias_lut,
				const vta_tensor_i8 *out, const vta_emit_opts *opts,
				const vta_conv_plan *plan, vta_dram *dram, vta_layer_stream *ls,
				vta_error *err)
{
	return cv_emit_layer(cfg, conv, filter_lut, bias_lut, out, opts, plan, NULL, dram, ls,
			     err);
}

vta_status vta_emit_conv2d_pinned(const vta_config *cfg, const vta_conv2d *conv,
				  const vta_lut_tensor *filter_lut, const vta_lut_tensor *bias_lut,
				  const vta_tensor_i8 *out, const vta_emit_opts *opts,
				  const vta_conv_pin *pin, vta_dram *dram, vta_layer_stream *ls,
				  vta_error *err)
{
	return cv_emit_layer(cfg, conv, filter_lut, bias_lut, out, opts, NULL, pin, dram, ls,
			     err);
}

/* The emitter: with `plan` its choices are checked, else a plan is chosen (honouring `pin`). */
static vta_status cv_emit_layer(const vta_config *cfg, const vta_conv2d *conv,
				const vta_lut_tensor *filter_lut, const vta_lut_tensor *bias_lut,
				const vta_tensor_i8 *out, const vta_emit_opts *opts,
				const vta_conv_plan *plan, const vta_conv_pin *pin, vta_dram *dram,
				vta_layer_stream *ls, vta_error *err)
{
	cv_ctx c = {0};
	c.cfg = cfg;
	vta_status st = vta_layer_begin(cfg, opts, conv && dram && out, "vta_emit_conv2d",
					"conv2d", VTA_OUT_CONV, ls, &c.layer, err);
	if (st != VTA_OK)
		return st;
	void *fbuf = NULL, *bbuf = NULL; /* decoded filter and bias (host mode) */
	st = cv_prepare(&c, conv, filter_lut, bias_lut, out, opts, &fbuf, &bbuf, err);
	if (st == VTA_OK && plan) {
		c.p = *plan;
		c.p.threads = opts->threads;
		st = vta_conv_plan_check(cfg, &c.g, (uint32_t)c.n_types, c.layer, &c.p, err);
	} else if (st == VTA_OK) {
		const double p0 = vta_host_now();
		st = vta_conv_plan_choose_cached(opts->plans, cfg, &c.g, opts->threads,
						 (uint32_t)c.n_types, (uint32_t)c.n_types,
						 (uint32_t)(c.n_ops - c.n_types), pin, c.layer,
						 &c.p, err);
		ls->counters.plan_seconds = vta_host_now() - p0;
	}
	if (st == VTA_OK) {
		/* the plan decides: a second slot of any SRAM is what a second thread is for */
		c.p.threads = c.p.s_inp > 1 || c.p.s_wgt > 1 || c.p.s_acc > 1 ? 2 : 1;
		ls->threads = c.p.threads;
		c.g.rowskip = c.p.rowskip;
		st = vta_conv_schedule(&c.g, &c.p, &c.sched, err);
	}
	if (st == VTA_OK)
		st = vta_stream_create(cfg, dram, opts->dram_base, c.layer, &c.s, err);
	if (st == VTA_OK && opts->dram_zeroed)
		vta_stream_dram_zeroed(c.s);
	int8_t *wide = NULL; /* a grouped filter spread over its units' input blocks */
	int32_t wshape[4];
	memcpy(wshape, conv->filter_shape, sizeof(wshape));
	if (st == VTA_OK && c.g.groups > 1 && c.wlut)
		wshape[3] = (int32_t)(c.g.ucb * cfg->block_in); /* spread by cv_prepare */
	else if (st == VTA_OK && c.g.groups > 1)
		st = cv_unit_filter(&c, fbuf ? fbuf : conv->filter, &wide, wshape, err);
	if (st == VTA_OK) {
		const vta_conv_geom *g = &c.g;
		const int8_t *filter = wide ? wide : fbuf ? fbuf : conv->filter;
		memcpy(ls->out_shape, out->shape, sizeof(ls->out_shape));
		vta_layout_window win = {g->pad_top, g->pad_left, g->hp, g->wp, g->cb};
		uint64_t in_bytes = vta_layout_conv_input_bytes(cfg, conv->input->shape, &win);
		uint64_t w_bytes = vta_layout_conv_filter_bytes(cfg, wshape);
		const uint64_t n_plain = (uint64_t)c.n_types - (c.blut != NULL);
		uint64_t k_bytes = n_plain * g->ob * cfg->sram[VTA_MEM_ACC].elem_bytes;
		ls->out_bytes = vta_layout_conv_output_bytes(cfg, out->shape);
		st = vta_stream_alloc(c.s, in_bytes, 0, "conv.input", &c.in_addr, err);
		if (st == VTA_OK && c.wlut && g->wgt_lut_group) {
			/* zero-lane fill: compact rows of the groups' lanes */
			const size_t taps = (size_t)g->kh * (size_t)g->kw, in_g = g->wgt_lut_group;
			const vta_mem_insn row = {.mem_type = VTA_MEM_WGT,
						  .lut_bw = c.wlut->bitwidth,
						  .lut_group = g->wgt_lut_group,
						  .lut_period = g->wgt_lut_period};
			c.wrow_bytes = vta_load_elem_bytes(cfg, &row);
			uint64_t pb = vta_lut_pack_group_rows_bytes(cfg, (size_t)g->o, taps, in_g,
								    c.wlut->bitwidth);
			st = vta_em_lut_alloc(c.s, &c.tm, pb, c.wrow_bytes, "conv.filter.lut",
					      &c.w_addr, err);
			if (st == VTA_OK)
				st = vta_lut_pack_group_rows(cfg, c.wlut, (size_t)g->o, taps, in_g,
							     vta_stream_dram(c.s, c.w_addr), pb,
							     err);
			ls->counters.lut_hw_plain_bytes += w_bytes;
		} else if (st == VTA_OK && c.wlut) {
			c.wrow_bytes = vta_lut_packed_bytes(cfg, VTA_MEM_WGT, c.wlut->bitwidth);
			uint64_t pb = vta_lut_pack_conv_filter_bytes(cfg, wshape,
								     c.wlut->bitwidth);
			st = vta_em_lut_alloc(c.s, &c.tm, pb, c.wrow_bytes, "conv.filter.lut",
					      &c.w_addr, err);
			if (st == VTA_OK)
				st = vta_lut_pack_conv_filter(cfg, c.wlut, wshape,
							      vta_stream_dram(c.s, c.w_addr), pb,
							      err);
			ls->counters.lut_hw_plain_bytes += w_bytes;
		} else if (st == VTA_OK) {
			st = vta_stream_alloc(c.s, w_bytes, 0, "conv.filter", &c.w_addr, err);
		}
		if (st == VTA_OK && c.blut) {
			c.brow_bytes = vta_lut_packed_bytes(cfg, VTA_MEM_ACC, c.blut->bitwidth);
			uint64_t pb = vta_lut_pack_acc_rows_bytes(cfg, (size_t)g->o,
								  c.blut->bitwidth);
			st = vta_em_lut_alloc(c.s, &c.tm, pb, c.brow_bytes, "conv.bias.lut",
					      &c.b_addr, err);
			if (st == VTA_OK)
				st = vta_lut_pack_acc_rows(cfg, c.blut, vta_stream_dram(c.s, c.b_addr),
							   pb, err);
			ls->counters.lut_hw_plain_bytes +=
				(uint64_t)g->ob * cfg->sram[VTA_MEM_ACC].elem_bytes;
		}
		if (st == VTA_OK && k_bytes)
			st = vta_stream_alloc(c.s, k_bytes, 0, "conv.requant", &c.k_addr, err);
		if (st == VTA_OK)
			st = vta_stream_alloc(c.s, ls->out_bytes, 0, "conv.output", &c.o_addr, err);
		if (st == VTA_OK) /* from its region in DRAM or staged from the host */
			st = vta_dram_put_conv_input(cfg, opts, conv->input, &win,
						     (int8_t)conv->input->zero_point,
						     vta_stream_dram(c.s, c.in_addr),
						     &ls->counters, err);
		if (st == VTA_OK) {
			if (!c.wlut)
				vta_layout_conv_filter(cfg, filter, wshape,
						       vta_stream_dram(c.s, c.w_addr));
			for (int i = 0; i < c.n_types && c.types[i]; i++)
				vta_layout_acc_rows(
					cfg, c.types[i], 0, (size_t)g->o,
					vta_stream_dram(c.s, c.k_addr) +
						(size_t)i * g->ob *
							cfg->sram[VTA_MEM_ACC].elem_bytes);
			ls->out_addr = c.o_addr;
			ls->counters.const_bytes = (c.wlut ? 0 : w_bytes) + k_bytes;
			ls->counters.macs = (uint64_t)g->n * g->ho * g->wo * g->o * g->kh * g->kw *
					    (uint64_t)(g->c / g->groups);
			const vta_conv_plan *p = &c.p;
			char units[64] = "", cols[48] = "";
			if (p->nct > 1)
				snprintf(cols, sizeof(cols), " x %u column(s)", p->tw);
			if (g->units > 1)
				snprintf(units, sizeof(units), " (%u units of %u->%u blocks)",
					 g->units, g->ucb, g->uob);
			snprintf(ls->plan, sizeof(ls->plan),
				 "conv%s: %u tile(s) of %u row(s)%s x %u block(s) (%s outer), chunks of "
				 "%u/%u input blocks, weights %u block(s) per load, slots inp %u "
				 "wgt %u acc %u, est %llu cycles",
				 units, c.sched.n_tiles, p->th, cols, p->nob,
				 p->rows_outer ? "row tiles" : "output-block groups", p->ncb, g->ucb, p->nobw, p->s_inp,
				 p->s_wgt, p->s_acc, (unsigned long long)p->est_cycles);
			ls->has_conv_plan = true;
			ls->conv_plan = *p;
			st = cv_emit(&c, err);
			/* the packed indices and the tables the decoder reads */
			ls->counters.lut_hw_bytes = c.tm.dram_bytes;
			ls->counters.const_bytes += c.tm.dram_bytes;
		}
		if (st == VTA_OK)
			st = vta_layer_finish(c.s, dram, ls, err);
		else
			vta_stream_destroy(c.s);
	}
	cv_free(&c);
	free(wide);
	free(fbuf);
	free(bbuf);
	if (st != VTA_OK)
		vta_layer_stream_free(ls);
	return st;
}
