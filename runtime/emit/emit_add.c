/*
 * emit_add.c - the int8 ADD emitter (emit_add.h). docs/runtime.md "ADD" gives the ALU
 * sequences, the ACC map ([constant rows][broadcast b rows][slot 0][slot 1]) and why the
 * tokens only order compute and store (every load of an ADD is an ACC load, which runs on
 * the compute stage).
 */
#include "emit_add.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dram_tensor.h"
#include "emit_lut.h"
#include "emit_util.h"
#include "layout.h"
#include "lut_pack.h"

typedef enum { BC_FULL, BC_CHANNEL, BC_SCALAR } add_bcast;

typedef struct add_ctx {
	const vta_config *cfg;
	vta_arith_mode mode;
	unsigned threads;
	vta_stream *s;
	add_bcast bc;
	size_t n;            /* output elements */
	size_t channels;     /* C (pixel layout) */
	uint64_t rows;       /* a rows */
	uint32_t bc_rows;    /* broadcast b rows */
	uint32_t period;     /* rows per pixel in the pixel layout (1 otherwise) */
	vta_mem in_mem;      /* ACC_8BIT (tflite) or ACC (vta16) */
	uint32_t in_eb;      /* DRAM bytes per input row */
	vta_add_tflite_params tp;
	vta_add_vta16_params vp;
	/* a full-shape constant the LUT decoder decompresses (klut NULL: none) */
	const vta_lut_tensor *klut;
	bool k_is_a;          /* the constant is operand a (else b) */
	uint8_t *kpacked;     /* its packed flat rows, made before the stream */
	uint64_t kpacked_bytes, krow_bytes, k_addr;
	vta_em_lut tm;
	vta_em_lut_table ktab;
	const vta_emit_opts *opts;     /* its inputs already in DRAM */
	vta_layer_counters *counters;  /* where the inputs came from */
} add_ctx;

static bool add_same(const int32_t *x, const int32_t *y)
{
	return x[0] == y[0] && x[1] == y[1] && x[2] == y[2] && x[3] == y[3];
}

/* Shape of b relative to a, or -1. */
static int add_bcast_of(const vta_tensor_i8 *a, const vta_tensor_i8 *b)
{
	if (add_same(a->shape, b->shape))
		return BC_FULL;
	bool ones = b->shape[0] == 1 && b->shape[1] == 1 && b->shape[2] == 1;
	if (ones && b->shape[3] == a->shape[3])
		return BC_CHANNEL;
	if (ones && b->shape[3] == 1)
		return BC_SCALAR;
	return -1;
}

/* Decode a LUT operand into `buf` and point a copy of the tensor at it. */
static vta_status add_operand(const char *layer, const vta_tensor_i8 *t, const vta_lut_tensor *lut,
			      bool decode, const char *what, vta_tensor_i8 *copy, int8_t **buf,
			      vta_error *err)
{
	*buf = NULL;
	if (!t)
		return vta_fail(err, VTA_E_USAGE, "layer %s: %s is missing", layer, what);
	*copy = *t;
	if (lut) {
		/* the tensor's own data is ignored: decode into a buffer of its shape, which the
		 * check then sees as the data (the caller frees *buf on every path); a constant the
		 * decoder takes is not decoded (the zeroed buffer is never read) */
		size_t n = vta_tensor_i8_count(copy);
		*buf = calloc(n ? n : 1, 1);
		if (!*buf)
			return vta_fail(err, VTA_E_NOMEM, "layer %s: out of memory", layer);
		copy->data = *buf;
		vta_status st = vta_tensor_i8_check(copy, what, err);
		if (st != VTA_OK)
			return st;
		if ((st = vta_lut_expect(lut, VTA_LUT_INT8, n, layer, what, "operand", err)))
			return st;
		return decode ? vta_lut_decode(lut, *buf, n, err) : VTA_OK;
	}
	return vta_tensor_i8_check(copy, what, err);
}

/* Write an operand's rows into a new DRAM buffer: an activation from its region in DRAM or
 * staged from the host (dram_tensor.h), a constant (`constant`) from the host. For vta16 the
 * host input stage is applied first (int32 rows for LOAD ACC). */
static vta_status add_put(add_ctx *c, const vta_tensor_i8 *t, bool constant, int32_t offset,
			  vta_q15 m, uint64_t rows, bool pixel, const char *name, uint64_t *addr,
			  vta_error *err)
{
	size_t n = vta_tensor_i8_count(t);
	vta_status st = vta_stream_alloc(c->s, rows * c->in_eb, 0, name, addr, err);
	if (st != VTA_OK)
		return st;
	uint8_t *dst = vta_stream_dram(c->s, *addr);
	size_t pixels = pixel ? n / c->channels : 0;
	if (c->mode == VTA_ARITH_TFLITE)
		return vta_dram_put_rows_i8(c->cfg, c->opts, t, pixel, c->channels, dst,
					    constant ? NULL : c->counters, err);
	int32_t *h = malloc(n * sizeof(*h));
	if (!h)
		return vta_fail(err, VTA_E_NOMEM, "layer %s: out of memory", vta_stream_layer(c->s));
	for (size_t i = 0; i < n; i++)
		h[i] = vta_quant_vta16_input(t->data[i], offset, m);
	if (pixel)
		vta_layout_pixel_i32(c->cfg, h, pixels, c->channels, dst);
	else
		vta_layout_flat_i32(c->cfg, h, n, dst);
	free(h);
	if (!constant)
		vta_dram_count_staged(c->counters, rows * c->in_eb);
	return VTA_OK;
}

static vta_status add_load(add_ctx *c, uint32_t sram, uint64_t addr, uint64_t rows,
			   vta_error *err)
{
	vta_xfer x = {c->in_mem, sram, addr, 1, (uint32_t)rows, (uint32_t)rows, 0, 0, 0, 0};
	return vta_stream_load(c->s, &x, err);
}

/* Rows [row0, row0 + rows) of an operand at `addr` into ACC row `sram`: through the LUT
 * decoder when it is the decoder's constant, one load per run of rows that start at the
 * same channel (every row with one table for the tensor). */
static vta_status add_load_operand(add_ctx *c, bool is_a, uint32_t sram, uint64_t addr,
				   uint64_t row0, uint64_t rows, vta_error *err)
{
	if (!c->klut || is_a != c->k_is_a)
		return add_load(c, sram, addr + row0 * c->in_eb, rows, err);
	vta_status st = VTA_OK;
	for (uint64_t r = 0; r < rows && st == VTA_OK;) {
		uint64_t chan = vta_lut_pack_flat_row_channel(c->cfg, c->klut, row0 + r);
		uint64_t n = 1;
		while (r + n < rows &&
		       vta_lut_pack_flat_row_channel(c->cfg, c->klut, row0 + r + n) == chan)
			n++;
		vta_xfer x = {VTA_MEM_ACC, (uint32_t)(sram + r),
			      c->k_addr + (row0 + r) * c->krow_bytes, 1, (uint32_t)n, (uint32_t)n,
			      0, 0, 0, 0};
		vta_lut_fields f = {c->klut->bitwidth, c->ktab.slot, 0, 0, 0, 0};
		st = vta_em_lut_use(c->s, &c->ktab, (uint32_t)chan, &f.chan, err);
		if (st == VTA_OK)
			st = vta_stream_load_lut(c->s, &x, &f, err);
		r += n;
	}
	return st;
}

/* The decoder's constant: its packed rows into DRAM and its int32 table loaded (the values
 * vta16 arithmetic loads, vta_quant_vta16_input of each table entry, in vta16 mode). */
static vta_status add_put_lut(add_ctx *c, int32_t offset, vta_q15 m, vta_error *err)
{
	vta_status st = vta_em_lut_alloc(c->s, &c->tm, c->kpacked_bytes, c->krow_bytes,
					 "add.const.lut", &c->k_addr, err);
	if (st != VTA_OK)
		return st;
	memcpy(vta_stream_dram(c->s, c->k_addr), c->kpacked, c->kpacked_bytes);
	if (c->mode == VTA_ARITH_TFLITE)
		return vta_em_lut_put(c->s, &c->tm, c->klut, VTA_MEM_ACC, "the constant", false, 0,
				      &c->ktab, err);
	const size_t entries = c->klut->channels * c->klut->value_table_stride;
	int32_t *vals = malloc(entries * sizeof(*vals));
	if (!vals)
		return vta_fail(err, VTA_E_NOMEM, "layer %s: out of memory",
				vta_stream_layer(c->s));
	const int8_t *t8 = c->klut->value_table;
	for (size_t i = 0; i < entries; i++)
		vals[i] = vta_quant_vta16_input(t8[i], offset, m);
	vta_lut_tensor t = *c->klut;
	t.type = VTA_LUT_INT32;
	t.value_table = vals;
	t.value_table_bytes = entries * sizeof(*vals);
	st = vta_em_lut_put(c->s, &c->tm, &t, VTA_MEM_ACC, "the constant", false, 0, &c->ktab,
			    err);
	free(vals);
	return st;
}

/* An ALU op with an immediate over `rows` rows at dst, if the ops before it went well. */
static vta_status add_imm(add_ctx *c, vta_status st, vta_alu_op op, int32_t imm, uint32_t dst,
			  uint64_t rows, vta_error *err)
{
	return st == VTA_OK ? vta_em_alu_rows(c->s, op, true, imm, dst, 0, 0, rows, err) : st;
}

/* tflite input rescale of `rows` rows at dst: (q - zp) << 20, SRDHM M, RSHR -shift. */
static vta_status add_rescale_in(add_ctx *c, uint32_t dst, uint64_t rows, int32_t offset,
				 vta_qmul m, uint32_t mrow, bool shl, vta_error *err)
{
	vta_status st = VTA_OK;
	if (offset != 0)
		st = add_imm(c, st, VTA_ALU_ADD, offset, dst, rows, err);
	if (shl)
		st = add_imm(c, st, VTA_ALU_SHR, -c->tp.left_shift, dst, rows, err);
	if (st == VTA_OK)
		st = vta_em_alu_rows(c->s, VTA_ALU_SRDHM, false, 0, dst, mrow, 0, rows, err);
	if (m.shift != 0)
		st = add_imm(c, st, VTA_ALU_RSHR, -m.shift, dst, rows, err);
	return st;
}

/* The ALU work of one chunk: a at `a0`, b (full) at `b0`, `rows` rows. */
static vta_status add_chunk_alu(add_ctx *c, uint32_t a0, uint32_t b0, uint32_t bcast0,
				uint64_t rows, vta_error *err)
{
	vta_stream *s = c->s;
	vta_status st = VTA_OK;
	const vta_add_tflite_params *p = &c->tp;
	if (c->mode == VTA_ARITH_TFLITE && c->bc == BC_FULL) {
		/* both offsets, one left shift over a and b (adjacent), both rescales */
		if (p->input1_offset)
			st = add_imm(c, st, VTA_ALU_ADD, p->input1_offset, a0, rows, err);
		if (p->input2_offset)
			st = add_imm(c, st, VTA_ALU_ADD, p->input2_offset, b0, rows, err);
		st = add_imm(c, st, VTA_ALU_SHR, -p->left_shift, a0, 2 * rows, err);
		if (st == VTA_OK)
			st = add_rescale_in(c, a0, rows, 0, p->input1, 0, false, err);
		if (st == VTA_OK)
			st = add_rescale_in(c, b0, rows, 0, p->input2, 1, false, err);
	} else if (c->mode == VTA_ARITH_TFLITE) {
		st = add_rescale_in(c, a0, rows, p->input1_offset, p->input1, 0, true, err);
	}
	/* a += b */
	if (st == VTA_OK) {
		if (c->bc == BC_FULL)
			st = vta_em_alu_rows(s, VTA_ALU_ADD, false, 0, a0, b0, 1, rows, err);
		else if (c->bc == BC_SCALAR)
			st = vta_em_alu_rows(s, VTA_ALU_ADD, false, 0, a0, bcast0, 0, rows, err);
		else
			st = vta_em_alu_pattern(s, VTA_ALU_ADD, a0, bcast0, c->period,
						rows / c->period, err);
	}
	if (st != VTA_OK)
		return st;
	if (c->mode == VTA_ARITH_TFLITE) {
		st = vta_em_alu_rows(s, VTA_ALU_SRDHM, false, 0, a0, 2, 0, rows, err);
		if (p->output.shift != 0)
			st = add_imm(c, st, VTA_ALU_RSHR, -p->output.shift, a0, rows, err);
		if (p->output_offset != 0)
			st = add_imm(c, st, VTA_ALU_ADD, p->output_offset, a0, rows, err);
		st = add_imm(c, st, VTA_ALU_MAX, p->act_min, a0, rows, err);
		return add_imm(c, st, VTA_ALU_MIN, p->act_max, a0, rows, err);
	}
	const vta_add_vta16_params *v = &c->vp;
	st = add_imm(c, st, VTA_ALU_MUL, v->output.multiplier, a0, rows, err);
	if (v->out_shr != 0)
		st = add_imm(c, st, VTA_ALU_SHR, v->out_shr, a0, rows, err);
	if (v->output_offset != 0)
		st = add_imm(c, st, VTA_ALU_ADD, v->output_offset, a0, rows, err);
	st = add_imm(c, st, VTA_ALU_MIN, v->act_max, a0, rows, err);
	return add_imm(c, st, VTA_ALU_MAX, v->act_min, a0, rows, err);
}

static vta_status add_emit(add_ctx *c, const vta_tensor_i8 *a, const vta_tensor_i8 *b,
			   vta_layer_stream *ls, bool a_const, bool b_const, vta_error *err)
{
	const vta_config *cfg = c->cfg;
	vta_stream *s = c->s;
	const char *layer = vta_stream_layer(s);
	bool pixel = c->bc == BC_CHANNEL;
	const uint32_t nconst = c->mode == VTA_ARITH_TFLITE ? 3 : 0;
	const bool full = c->bc == BC_FULL;

	/* ACC budget */
	uint64_t fixed = (uint64_t)nconst + c->bc_rows;
	uint64_t slot = fixed < cfg->sram[VTA_MEM_ACC].depth
		? (cfg->sram[VTA_MEM_ACC].depth - fixed) / c->threads
		: 0;
	uint64_t chunk = full ? slot / 2 : slot;
	chunk -= chunk % c->period;
	if (chunk == 0)
		return vta_fail(err, VTA_E_USAGE,
				"layer %s: ADD does not fit the ACC SRAM: %u rows hold %llu "
				"constant rows and %u slot(s) of at least %u rows",
				layer, cfg->sram[VTA_MEM_ACC].depth, (unsigned long long)fixed,
				c->threads, c->period * (full ? 2 : 1));
	if (chunk > c->rows)
		chunk = c->rows;
	uint64_t nchunks = vta_layout_div_up(c->rows, chunk);
	snprintf(ls->plan, sizeof(ls->plan),
		 "add %s: %llu rows in %llu chunk(s) of %llu rows, %u ACC slot(s)%s",
		 c->mode == VTA_ARITH_TFLITE ? "tflite" : "vta16", (unsigned long long)c->rows,
		 (unsigned long long)nchunks, (unsigned long long)chunk, c->threads,
		 c->bc == BC_CHANNEL ? ", b per channel" : c->bc == BC_SCALAR ? ", b scalar" : "");

	/* DRAM */
	uint64_t a_addr = 0, b_addr = 0, k_addr = 0, o_addr;
	vta_status st = VTA_OK;
	if (c->klut) /* its table load comes first on the compute module */
		st = add_put_lut(c, c->k_is_a ? c->vp.input1_offset : c->vp.input2_offset,
				 c->k_is_a ? c->vp.input1 : c->vp.input2, err);
	if (st == VTA_OK && !(c->klut && c->k_is_a))
		st = add_put(c, a, a_const, c->vp.input1_offset, c->vp.input1, c->rows, pixel,
			     "add.a", &a_addr, err);
	if (st == VTA_OK && !(c->klut && !c->k_is_a))
		st = add_put(c, b, b_const, c->vp.input2_offset, c->vp.input2,
			     full ? c->rows : c->bc_rows, pixel && !full, "add.b", &b_addr, err);
	if (st != VTA_OK)
		return st;
	if (b_const && !c->klut)
		ls->counters.const_bytes += (full ? c->rows : c->bc_rows) * c->in_eb;
	if (nconst) {
		st = vta_stream_alloc(s, (uint64_t)nconst * cfg->sram[VTA_MEM_ACC].elem_bytes, 0,
				      "add.multipliers", &k_addr, err);
		if (st != VTA_OK)
			return st;
		int32_t m[3] = {c->tp.input1.multiplier, c->tp.input2.multiplier,
				c->tp.output.multiplier};
		uint8_t *d = vta_stream_dram(s, k_addr);
		for (int i = 0; i < 3; i++)
			vta_layout_acc_rows(cfg, NULL, m[i], cfg->block_out,
					    d + (size_t)i * cfg->sram[VTA_MEM_ACC].elem_bytes);
		ls->counters.const_bytes += (uint64_t)nconst * cfg->sram[VTA_MEM_ACC].elem_bytes;
	}
	uint64_t out_bytes = c->rows * cfg->sram[VTA_MEM_OUT].elem_bytes;
	st = vta_stream_alloc(s, out_bytes, 0, "add.out", &o_addr, err);
	if (st != VTA_OK)
		return st;
	ls->out_addr = o_addr;
	ls->out_bytes = out_bytes;
	ls->out_layout = pixel ? VTA_OUT_PIXEL : VTA_OUT_FLAT;

	/* constants and the broadcast operand, once */
	if (nconst) {
		vta_xfer x = {VTA_MEM_ACC, 0, k_addr, 1, nconst, nconst, 0, 0, 0, 0};
		st = vta_stream_load(s, &x, err);
	}
	const uint32_t bcast0 = nconst;
	if (st == VTA_OK && !full) {
		st = add_load(c, bcast0, b_addr, c->bc_rows, err);
		if (st == VTA_OK && c->mode == VTA_ARITH_TFLITE)
			st = add_rescale_in(c, bcast0, c->bc_rows, c->tp.input2_offset,
					    c->tp.input2, 1, true, err);
	}

	for (uint64_t k = 0; k < nchunks && st == VTA_OK; k++) {
		uint64_t row0 = k * chunk;
		uint64_t rows = c->rows - row0 < chunk ? c->rows - row0 : chunk;
		uint32_t a0 = (uint32_t)(fixed + (k % c->threads) * slot);
		uint32_t b0 = (uint32_t)(a0 + rows);
		st = add_load_operand(c, true, a0, a_addr, row0, rows, err);
		if (st == VTA_OK && full)
			st = add_load_operand(c, false, b0, b_addr, row0, rows, err);
		if (st == VTA_OK && k >= c->threads)
			st = vta_stream_dep_pop(s, VTA_STAGE_STORE, VTA_STAGE_COMPUTE, err);
		if (st == VTA_OK)
			st = add_chunk_alu(c, a0, b0, bcast0, rows, err);
		if (st == VTA_OK)
			st = vta_stream_dep_push(s, VTA_STAGE_COMPUTE, VTA_STAGE_STORE, err);
		if (st == VTA_OK)
			st = vta_stream_dep_pop(s, VTA_STAGE_COMPUTE, VTA_STAGE_STORE, err);
		if (st == VTA_OK) {
			vta_xfer x = {VTA_MEM_OUT,
				      a0,
				      o_addr + row0 * cfg->sram[VTA_MEM_OUT].elem_bytes,
				      1,
				      (uint32_t)rows,
				      (uint32_t)rows,
				      0,
				      0,
				      0,
				      0};
			st = vta_stream_store(s, &x, err);
		}
		if (st == VTA_OK && k + c->threads < nchunks)
			st = vta_stream_dep_push(s, VTA_STAGE_STORE, VTA_STAGE_COMPUTE, err);
	}
	return st;
}

/* In hw mode: the LUT constant the decoder takes, packed into c->kpacked. It must have the
 * other operand's shape (a broadcast constant is expanded on the host) and per-channel
 * tables the flat ACC lanes can follow (lut_pack.h); otherwise its layer decodes it on the
 * host, and the report says so. */
static vta_status add_decoder_const(add_ctx *c, const char *layer, const vta_tensor_i8 *a,
				    const vta_lut_tensor *a_lut, const vta_tensor_i8 *b,
				    const vta_lut_tensor *b_lut, vta_error *err)
{
	const vta_lut_tensor *k = a_lut ? a_lut : b_lut;
	if (!k || !a || !b || !add_same(a->shape, b->shape) || k->type != VTA_LUT_INT8)
		return VTA_OK;
	vta_status st = vta_em_lut_check(c->cfg, k, layer, "the constant", err);
	if (st != VTA_OK)
		return st;
	c->krow_bytes = vta_lut_packed_bytes(c->cfg, VTA_MEM_ACC, k->bitwidth);
	c->kpacked_bytes = vta_lut_pack_flat_bytes(c->cfg, k->count, k->bitwidth);
	c->kpacked = malloc(c->kpacked_bytes ? c->kpacked_bytes : 1);
	if (!c->kpacked)
		return vta_fail(err, VTA_E_NOMEM, "layer %s: out of memory", layer);
	vta_error perr = {0};
	st = vta_lut_pack_flat(c->cfg, k, c->kpacked, c->kpacked_bytes, &perr);
	if (st == VTA_E_UNSUPPORTED) {
		free(c->kpacked);
		c->kpacked = NULL;
		return VTA_OK;
	}
	if (st != VTA_OK) {
		*err = perr;
		return st;
	}
	c->klut = k;
	c->k_is_a = k == a_lut;
	return VTA_OK;
}

vta_status vta_emit_add(const vta_config *cfg, const vta_tensor_i8 *a,
			const vta_lut_tensor *a_lut, const vta_tensor_i8 *b,
			const vta_lut_tensor *b_lut, vta_activation act, const vta_tensor_i8 *out,
			const vta_emit_opts *opts, vta_dram *dram, vta_layer_stream *ls,
			vta_error *err)
{
	const char *layer;
	vta_status st = vta_layer_begin(cfg, opts, dram && out, "vta_emit_add", "add",
					VTA_OUT_FLAT, ls, &layer, err);
	if (st == VTA_OK)
		st = vta_em_check_mode(cfg, opts->mode, layer, "ADD", err);
	if (st != VTA_OK)
		return st;

	/* zeroed: the count and shape bookkeeping below reads them even after a failure */
	vta_tensor_i8 ta = {0}, tb = {0};
	int8_t *abuf = NULL, *bbuf = NULL, *expanded = NULL;
	add_ctx c = {0};
	c.cfg = cfg;
	c.mode = opts->mode;
	/* One ACC slot whatever --threads allows: every load of an ADD is an ACC load on the
	 * compute stage, so a second slot can only overlap a chunk's store with the next chunk,
	 * whose loads want the same DRAM port; halving the chunks costs more instructions than
	 * that hides (docs/runtime.md 4). */
	c.threads = 1;
	ls->threads = 1;
	c.opts = opts;
	c.counters = &ls->counters;
	if (opts->decompress == VTA_DECOMPRESS_HW)
		st = add_decoder_const(&c, layer, a, a_lut, b, b_lut, err);
	st = st ? st
		: add_operand(layer, a, a_lut, !(c.klut && c.k_is_a), "ADD input 1", &ta, &abuf,
			      err);
	if (st == VTA_OK)
		st = add_operand(layer, b, b_lut, !(c.klut && !c.k_is_a), "ADD input 2", &tb,
				 &bbuf, err);
	bool a_const = a_lut != NULL, b_const = b_lut != NULL;
	if (st == VTA_OK && add_bcast_of(&ta, &tb) < 0 && add_bcast_of(&tb, &ta) >= 0) {
		/* ADD is symmetric: let the broadcast operand be b */
		vta_tensor_i8 t = ta;
		ta = tb;
		tb = t;
		bool k = a_const;
		a_const = b_const;
		b_const = k;
	}
	int bc = st == VTA_OK ? add_bcast_of(&ta, &tb) : 0;
	if (st == VTA_OK && bc < 0)
		st = vta_fail(err, VTA_E_USAGE,
			      "layer %s: ADD input 2 shape [%d, %d, %d, %d] neither matches input 1 "
			      "[%d, %d, %d, %d] nor broadcasts to it",
			      layer, (int)tb.shape[0], (int)tb.shape[1], (int)tb.shape[2],
			      (int)tb.shape[3], (int)ta.shape[0], (int)ta.shape[1],
			      (int)ta.shape[2], (int)ta.shape[3]);
	if (st == VTA_OK && !add_same(out->shape, ta.shape))
		st = vta_fail(err, VTA_E_USAGE,
			      "layer %s: ADD output shape [%d, %d, %d, %d] differs from the input "
			      "[%d, %d, %d, %d]",
			      layer, (int)out->shape[0], (int)out->shape[1], (int)out->shape[2],
			      (int)out->shape[3], (int)ta.shape[0], (int)ta.shape[1],
			      (int)ta.shape[2], (int)ta.shape[3]);
	if (st == VTA_OK) {
		if (opts->mode == VTA_ARITH_TFLITE)
			st = vta_quant_add_tflite_params(ta.scale, ta.zero_point, tb.scale,
							 tb.zero_point, out->scale,
							 out->zero_point, act, &c.tp, err);
		else
			st = vta_quant_add_vta16_params(ta.scale, ta.zero_point, tb.scale,
							tb.zero_point, out->scale, out->zero_point,
							act, &c.vp, err);
	}
	c.n = vta_tensor_i8_count(&ta);
	c.channels = (size_t)ta.shape[3];
	if (st == VTA_OK && bc == BC_CHANNEL && cfg->batch > 1) {
		/* pixel rows need batch 1: expand b to a's shape instead */
		expanded = malloc(c.n);
		if (!expanded) {
			st = vta_fail(err, VTA_E_NOMEM, "layer %s: out of memory", layer);
		} else {
			for (size_t i = 0; i < c.n; i++)
				expanded[i] = tb.data[i % c.channels];
			memcpy(tb.shape, ta.shape, sizeof(tb.shape));
			tb.data = expanded;
			bc = BC_FULL;
		}
	}
	if (st == VTA_OK) {
		c.bc = (add_bcast)bc;
		c.period = 1;
		if (bc == BC_CHANNEL) {
			c.period = (uint32_t)vta_layout_div_up(c.channels, cfg->block_out);
			c.rows = vta_layout_pixel_rows(cfg, c.n / c.channels, c.channels);
			c.bc_rows = c.period;
		} else {
			c.rows = vta_layout_flat_rows(cfg, c.n);
			c.bc_rows = bc == BC_SCALAR ? 1 : 0;
		}
		c.in_mem = opts->mode == VTA_ARITH_TFLITE ? VTA_MEM_ACC_8BIT : VTA_MEM_ACC;
		c.in_eb = vta_config_dram_elem_bytes(cfg, c.in_mem);
		if (bc == BC_SCALAR) {
			/* one row holding the scalar in every lane */
			int8_t *row = malloc((size_t)cfg->batch * cfg->block_out);
			if (!row) {
				st = vta_fail(err, VTA_E_NOMEM, "layer %s: out of memory", layer);
			} else {
				memset(row, tb.data[0], (size_t)cfg->batch * cfg->block_out);
				free(expanded);
				expanded = row;
				tb.shape[3] = (int32_t)(cfg->batch * cfg->block_out);
				tb.data = row;
			}
		}
	}
	memcpy(ls->out_shape, ta.shape, sizeof(ls->out_shape));
	if (st == VTA_OK)
		st = vta_stream_create(cfg, dram, opts->dram_base, layer, &c.s, err);
	if (st == VTA_OK && opts->dram_zeroed)
		vta_stream_dram_zeroed(c.s);
	if (st == VTA_OK) {
		st = add_emit(&c, &ta, &tb, ls, a_const, b_const, err);
		if (st == VTA_OK && a_const && !c.klut)
			ls->counters.const_bytes += c.rows * c.in_eb;
		if (st == VTA_OK && c.klut) {
			ls->counters.const_bytes += c.tm.dram_bytes;
			ls->counters.lut_hw_bytes = c.tm.dram_bytes;
			ls->counters.lut_hw_plain_bytes = c.rows * c.in_eb;
		}
		if (st == VTA_OK)
			st = vta_layer_finish(c.s, dram, ls, err);
		else
			vta_stream_destroy(c.s);
	}
	free(abuf);
	free(bbuf);
	free(expanded);
	free(c.kpacked);
	if (st != VTA_OK)
		vta_layer_stream_free(ls);
	return st;
}
