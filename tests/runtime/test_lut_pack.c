/*
 * test_lut_pack.c - packed index and table images for the hardware LUT decoder. Random LUT
 * tensors (every index value up to the stride, widths 1..7, per tensor and per channel, odd
 * shapes) on three configs; an unpacker written here (bits MSB first from each packed row,
 * the lane's table by the decoder's channel rule) must give the plain layout of the decoded
 * tensor on every lane that holds an element. Padded lanes must hold index 0 and every lane
 * must name a table inside the image. Then one negative test per diagnostic.
 */
#include "rt_test.h"

#include <stdlib.h>

#include "layout.h"
#include "lut.h"
#include "lut_pack.h"
#include "vta_config.h"

/* ---- configs: default 1x16x16, tiny 1x4x4, and a 2x8x4 one (batch 2, block_in 8 !=
 * block_out 4) built on tiny, whose small SRAMs keep the instruction fields in range ---- */

enum { CFG_DEFAULT, CFG_TINY, CFG_BATCH2, CFG_COUNT };

static void config(int which, vta_config *cfg)
{
	vta_error err = {0};
	vta_status st = VTA_OK;
	if (which == CFG_DEFAULT) {
		vta_config_default(cfg);
		return;
	}
	st = vta_config_load("configs/tiny.yaml", cfg, &err);
	if (st == VTA_OK && which == CFG_BATCH2)
		st = vta_config_set(cfg, "arch.log_batch", "1", &err);
	if (st == VTA_OK && which == CFG_BATCH2)
		st = vta_config_set(cfg, "arch.log_block_in", "3", &err);
	if (st != VTA_OK) {
		print_error("config %d: %s\n", which, err.detail);
		fail();
	}
	assert_int_equal(cfg->batch, which == CFG_BATCH2 ? 2 : 1);
	assert_int_equal(cfg->block_in, which == CFG_BATCH2 ? 8 : 4);
	assert_int_equal(cfg->block_out, 4);
}

/* ---- a random LUT tensor with its own buffers; indices packed one bit at a time ---- */

typedef struct rand_lut {
	vta_lut_tensor t;
	uint8_t *table, *indices;
} rand_lut;

static void rand_lut_make(rt_rng *rng, rand_lut *r, vta_lut_type type, size_t count,
			  size_t channels, bool axis_last, unsigned bw)
{
	size_t esz = vta_lut_type_size(type);
	/* Mostly full tables (every index value occurs), sometimes a shorter stride. */
	size_t stride = (size_t)1 << bw;
	if (rt_rng_below(rng, 3) == 0)
		stride = 1 + (size_t)rt_rng_below(rng, stride);
	r->table = malloc(channels * stride * esz);
	r->indices = calloc(vta_lut_indices_bytes(count, bw) + 1, 1);
	assert_non_null(r->table);
	assert_non_null(r->indices);
	for (size_t k = 0; k < channels * stride * esz; k++)
		r->table[k] = (uint8_t)rt_rng_next(rng);
	for (size_t e = 0; e < count; e++) {
		unsigned idx = (unsigned)rt_rng_below(rng, stride);
		for (unsigned b = 0; b < bw; b++) {
			size_t bit = e * bw + b;
			if ((idx >> (bw - 1 - b)) & 1)
				r->indices[bit / 8] |= (uint8_t)(0x80u >> (bit % 8));
		}
	}
	r->t = (vta_lut_tensor){
		.type = type, .bitwidth = bw, .count = count, .channels = channels,
		.axis_last = axis_last, .value_table = r->table,
		.value_table_bytes = channels * stride * esz, .value_table_stride = stride,
		.indices = r->indices, .indices_bytes = vta_lut_indices_bytes(count, bw),
	};
}

static void rand_lut_free(rand_lut *r)
{
	free(r->table);
	free(r->indices);
}

static void *decode(const vta_lut_tensor *t)
{
	size_t bytes = t->count * vta_lut_type_size(t->type);
	void *out = malloc(bytes);
	vta_error err = {0};
	assert_non_null(out);
	assert_int_equal(vta_lut_decode(t, out, bytes, &err), VTA_OK);
	return out;
}

/* ---- the independent unpacker ---- */

static unsigned bits_at(const uint8_t *row, size_t lane, unsigned bw)
{
	unsigned v = 0;
	for (unsigned b = 0; b < bw; b++) {
		size_t bit = lane * bw + b;
		v = (v << 1) | ((row[bit / 8] >> (7 - bit % 8)) & 1u);
	}
	return v;
}

static int32_t table_entry(const uint8_t *tab, const vta_lut_table_image *img, uint64_t chan,
			   unsigned idx)
{
	const uint8_t *p = tab + (chan * img->stride + idx) * img->entry_bytes;
	if (img->entry_bytes == 1)
		return (int8_t)p[0];
	return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
			 (uint32_t)p[3] << 24);
}

/* What the test needs to know of one layout: per lane, its channel in the decoder's rule and
 * whether it holds an element. */
typedef struct lane_rule {
	const vta_config *cfg;
	int mem;              /* VTA_MEM_WGT or VTA_MEM_ACC */
	uint64_t chan0_div;   /* filter: rows per output block; bias: 1 */
	const vta_lut_tensor *flat; /* flat: row channel from the API */
	bool (*real)(const struct lane_rule *r, uint64_t row, uint64_t lane);
	const int32_t *ohwi;  /* filter */
	uint64_t count;       /* bias, flat */
} lane_rule;

static uint64_t lane_chan0(const lane_rule *r, uint64_t row)
{
	if (r->flat)
		return vta_lut_pack_flat_row_channel(r->cfg, r->flat, row);
	return row / r->chan0_div * r->cfg->block_out;
}

static uint64_t lane_channel(const lane_rule *r, uint64_t lane)
{
	return r->mem == VTA_MEM_WGT ? lane / r->cfg->block_in : lane % r->cfg->block_out;
}

static bool filter_real(const lane_rule *r, uint64_t row, uint64_t lane)
{
	uint64_t BO = r->cfg->block_out, BI = r->cfg->block_in;
	uint64_t cb = vta_layout_div_up((uint64_t)r->ohwi[3], BI);
	uint64_t oc = row / r->chan0_div * BO + lane / BI, c = row % cb * BI + lane % BI;
	return oc < (uint64_t)r->ohwi[0] && c < (uint64_t)r->ohwi[3];
}

static bool bias_real(const lane_rule *r, uint64_t row, uint64_t lane)
{
	return row * r->cfg->block_out + lane % r->cfg->block_out < r->count;
}

static bool flat_real(const lane_rule *r, uint64_t row, uint64_t lane)
{
	return row * r->cfg->batch * r->cfg->block_out + lane < r->count;
}

/* Unpack every row and compare with the plain layout `plain` (elements of 1 or 4 bytes). */
static void check_image(const lane_rule *r, const vta_lut_tensor *t, const uint8_t *packed,
			uint64_t packed_bytes, const uint8_t *tab, const vta_lut_table_image *img,
			const uint8_t *plain, uint64_t plain_bytes, unsigned plain_esz)
{
	uint64_t lanes = r->mem == VTA_MEM_WGT
				 ? (uint64_t)r->cfg->block_out * r->cfg->block_in
				 : (uint64_t)r->cfg->batch * r->cfg->block_out;
	uint64_t rb = (lanes * t->bitwidth + 7) / 8;
	uint64_t rows = packed_bytes / rb;
	assert_int_equal(packed_bytes, rows * rb);
	assert_int_equal(plain_bytes, rows * lanes * plain_esz);
	for (uint64_t row = 0; row < rows; row++) {
		const uint8_t *p = packed + row * rb;
		for (uint64_t l = 0; l < lanes; l++) {
			unsigned idx = bits_at(p, l, t->bitwidth);
			uint64_t chan = img->channels == 1 ? 0 : lane_chan0(r, row) + lane_channel(r, l);
			assert_true(chan < img->channels); /* the decoder would refuse it */
			assert_true(idx < img->stride);
			if (!r->real(r, row, l)) {
				assert_int_equal(idx, 0);
				continue;
			}
			const uint8_t *q = plain + (row * lanes + l) * plain_esz;
			int32_t want = plain_esz == 1 ? (int8_t)q[0]
						      : (int32_t)((uint32_t)q[0] | (uint32_t)q[1] << 8 |
								  (uint32_t)q[2] << 16 |
								  (uint32_t)q[3] << 24);
			if (table_entry(tab, img, chan, idx) != want) {
				print_error("row %llu lane %llu: index %u channel %llu gives %d, "
					    "want %d\n",
					    (unsigned long long)row, (unsigned long long)l, idx,
					    (unsigned long long)chan, table_entry(tab, img, chan, idx),
					    want);
				fail();
			}
		}
		/* pad bits after the last lane are zero */
		for (uint64_t bit = lanes * t->bitwidth; bit < rb * 8; bit++)
			assert_int_equal((p[bit / 8] >> (7 - bit % 8)) & 1u, 0);
	}
}

/* Build the table image through the API, checking its shape. */
static uint8_t *table_image(const vta_config *cfg, const vta_lut_tensor *t, vta_mem target,
			    uint64_t block, vta_lut_table_image *img)
{
	vta_error err = {0};
	assert_int_equal(vta_lut_pack_table_image(cfg, t, target, img, &err), VTA_OK);
	uint64_t want_ch = t->channels == 1 ? 1 : (t->channels + block - 1) / block * block;
	assert_int_equal(img->channels, want_ch);
	assert_int_equal(img->stride, t->value_table_stride);
	assert_int_equal(img->bytes, img->channels * img->stride * img->entry_bytes);
	assert_int_equal(img->pad_bytes,
			 (img->channels - t->channels) * img->stride * img->entry_bytes);
	uint8_t *tab = malloc((size_t)img->bytes);
	assert_non_null(tab);
	memset(tab, 0xa5, (size_t)img->bytes);
	assert_int_equal(vta_lut_pack_table(cfg, t, target, tab, img->bytes, &err), VTA_OK);
	for (uint64_t k = img->bytes - img->pad_bytes; k < img->bytes; k++)
		assert_int_equal(tab[k], 0);
	return tab;
}

/* ---- conv filters ---- */

static const int32_t filter_shapes[][4] = {
	{5, 3, 3, 7}, {16, 1, 1, 16}, {17, 3, 1, 33}, {3, 1, 3, 2}, {20, 3, 3, 5}, {1, 1, 1, 1},
};

static void check_filter(const vta_config *cfg, rt_rng *rng, const int32_t ohwi[4],
			 bool per_channel, unsigned bw)
{
	size_t count = (size_t)ohwi[0] * ohwi[1] * ohwi[2] * ohwi[3];
	rand_lut r;
	rand_lut_make(rng, &r, VTA_LUT_INT8, count, per_channel ? (size_t)ohwi[0] : 1, false, bw);
	int8_t *values = decode(&r.t);
	uint64_t plain_bytes = vta_layout_conv_filter_bytes(cfg, ohwi);
	uint8_t *plain = malloc((size_t)plain_bytes);
	assert_non_null(plain);
	vta_layout_conv_filter(cfg, values, ohwi, plain);

	uint64_t pb = vta_lut_pack_conv_filter_bytes(cfg, ohwi, bw);
	uint8_t *packed = malloc((size_t)pb);
	assert_non_null(packed);
	memset(packed, 0xff, (size_t)pb);
	vta_error err = {0};
	assert_int_equal(vta_lut_pack_conv_filter(cfg, &r.t, ohwi, packed, pb, &err), VTA_OK);
	vta_lut_table_image img;
	uint8_t *tab = table_image(cfg, &r.t, VTA_MEM_WGT, cfg->block_out, &img);
	assert_int_equal(img.entry_bytes, 1);

	uint64_t cb = vta_layout_div_up((uint64_t)ohwi[3], cfg->block_in);
	lane_rule rule = {.cfg = cfg, .mem = VTA_MEM_WGT,
			  .chan0_div = (uint64_t)ohwi[1] * ohwi[2] * cb, .real = filter_real,
			  .ohwi = ohwi};
	check_image(&rule, &r.t, packed, pb, tab, &img, plain, plain_bytes, 1);
	free(tab);
	free(packed);
	free(plain);
	free(values);
	rand_lut_free(&r);
}

static void test_conv_filter(void **state)
{
	(void)state;
	rt_rng rng;
	rt_rng_seed(&rng, 11);
	for (int c = 0; c < CFG_COUNT; c++) {
		vta_config cfg;
		config(c, &cfg);
		for (unsigned bw = 1; bw <= VTA_LUT_MAX_BITWIDTH; bw++)
			for (size_t s = 0; s < sizeof(filter_shapes) / sizeof(filter_shapes[0]); s++)
				for (int pc = 0; pc < 2; pc++)
					check_filter(&cfg, &rng, filter_shapes[s], pc, bw);
	}
}

/* ---- bias as ACC rows ---- */

static void check_bias(const vta_config *cfg, rt_rng *rng, size_t channels, bool per_channel,
		       unsigned bw)
{
	rand_lut r;
	rand_lut_make(rng, &r, VTA_LUT_INT32, channels, per_channel ? channels : 1, false, bw);
	int32_t *values = decode(&r.t);
	uint64_t plain_bytes = vta_layout_acc_rows_bytes(cfg, channels);
	uint8_t *plain = malloc((size_t)plain_bytes);
	assert_non_null(plain);
	vta_layout_acc_rows(cfg, values, 0, channels, plain);

	uint64_t pb = vta_lut_pack_acc_rows_bytes(cfg, channels, bw);
	uint8_t *packed = malloc((size_t)pb);
	assert_non_null(packed);
	memset(packed, 0xff, (size_t)pb);
	vta_error err = {0};
	assert_int_equal(vta_lut_pack_acc_rows(cfg, &r.t, packed, pb, &err), VTA_OK);
	vta_lut_table_image img;
	uint8_t *tab = table_image(cfg, &r.t, VTA_MEM_ACC, cfg->block_out, &img);
	assert_int_equal(img.entry_bytes, 4);

	lane_rule rule = {.cfg = cfg, .mem = VTA_MEM_ACC, .chan0_div = 1, .real = bias_real,
			  .count = channels};
	check_image(&rule, &r.t, packed, pb, tab, &img, plain, plain_bytes, 4);
	free(tab);
	free(packed);
	free(plain);
	free(values);
	rand_lut_free(&r);
}

static void test_acc_rows(void **state)
{
	(void)state;
	static const size_t channels[] = {1, 3, 5, 16, 17, 33, 64};
	rt_rng rng;
	rt_rng_seed(&rng, 12);
	for (int c = 0; c < CFG_COUNT; c++) {
		vta_config cfg;
		config(c, &cfg);
		for (unsigned bw = 1; bw <= VTA_LUT_MAX_BITWIDTH; bw++)
			for (size_t s = 0; s < sizeof(channels) / sizeof(channels[0]); s++)
				for (int pc = 0; pc < 2; pc++)
					check_bias(&cfg, &rng, channels[s], pc, bw);
	}
}

/* ---- flat int8 constants ---- */

static void check_flat(const vta_config *cfg, rt_rng *rng, size_t count, size_t channels,
		       unsigned bw)
{
	rand_lut r;
	rand_lut_make(rng, &r, VTA_LUT_INT8, count, channels, true, bw);
	int8_t *values = decode(&r.t);
	uint64_t plain_bytes = vta_layout_flat_rows(cfg, count) * cfg->batch * cfg->block_out;
	uint8_t *plain = malloc((size_t)plain_bytes);
	assert_non_null(plain);
	vta_layout_flat_i8(cfg, values, count, plain);

	uint64_t pb = vta_lut_pack_flat_bytes(cfg, count, bw);
	uint8_t *packed = malloc((size_t)pb);
	assert_non_null(packed);
	memset(packed, 0xff, (size_t)pb);
	vta_error err = {0};
	assert_int_equal(vta_lut_pack_flat(cfg, &r.t, packed, pb, &err), VTA_OK);
	vta_lut_table_image img;
	uint8_t *tab = table_image(cfg, &r.t, VTA_MEM_ACC, cfg->block_out, &img);
	assert_int_equal(img.entry_bytes, 4); /* int8 values widened for ACC lanes */

	lane_rule rule = {.cfg = cfg, .mem = VTA_MEM_ACC, .flat = &r.t, .real = flat_real,
			  .count = count};
	check_image(&rule, &r.t, packed, pb, tab, &img, plain, plain_bytes, 1);
	free(tab);
	free(packed);
	free(plain);
	free(values);
	rand_lut_free(&r);
}

static void test_flat(void **state)
{
	(void)state;
	rt_rng rng;
	rt_rng_seed(&rng, 13);
	for (int c = 0; c < CFG_COUNT; c++) {
		vta_config cfg;
		config(c, &cfg);
		size_t BO = cfg.block_out;
		for (unsigned bw = 1; bw <= VTA_LUT_MAX_BITWIDTH; bw++) {
			static const size_t counts[] = {1, 7, 16, 45, 100};
			for (size_t s = 0; s < sizeof(counts) / sizeof(counts[0]); s++)
				check_flat(&cfg, &rng, counts[s], 1, bw);
			/* per channel, channels last: C == BO, and C a multiple of BO at batch 1 */
			check_flat(&cfg, &rng, 3 * BO, BO, bw);
			check_flat(&cfg, &rng, 5 * BO, BO, bw);
			if (cfg.batch == 1)
				check_flat(&cfg, &rng, 6 * BO, 3 * BO, bw);
		}
	}
}

/* ---- the documented cost example ---- */

static void test_sizes(void **state)
{
	(void)state;
	vta_config cfg;
	config(CFG_DEFAULT, &cfg);
	/* 4-bit 3x3x64x64: 4*3*3*4 rows of 256 lanes at 128 bytes = TFLM's own string */
	const int32_t ohwi[4] = {64, 3, 3, 64};
	assert_int_equal(vta_lut_pack_conv_filter_bytes(&cfg, ohwi, 4), 18432);
	assert_int_equal(vta_lut_indices_bytes(64 * 3 * 3 * 64, 4), 18432);
	/* 3 input channels: 13 of every 16 columns are padding */
	const int32_t first[4] = {64, 3, 3, 3};
	assert_int_equal(vta_lut_pack_conv_filter_bytes(&cfg, first, 4), 4 * 9 * 128);
	/* its per-channel table image with 70 output channels: 80 tables, 160 bytes padding */
	static int8_t tables[70 * 16];
	static uint8_t idx[70 * 9 * 64 / 2];
	vta_lut_tensor t = {
		.type = VTA_LUT_INT8, .bitwidth = 4, .count = 70 * 9 * 64, .channels = 70,
		.value_table = tables, .value_table_bytes = sizeof(tables),
		.value_table_stride = 16, .indices = idx, .indices_bytes = sizeof(idx),
	};
	vta_lut_table_image img;
	vta_error err = {0};
	assert_int_equal(vta_lut_pack_table_image(&cfg, &t, VTA_MEM_WGT, &img, &err), VTA_OK);
	assert_int_equal(img.channels, 80);
	assert_int_equal(img.bytes, 1280);
	assert_int_equal(img.pad_bytes, 160);
	/* per-row rounding: tiny ACC rows of 4 lanes x 3 bits take 2 bytes */
	config(CFG_TINY, &cfg);
	assert_int_equal(vta_lut_pack_acc_rows_bytes(&cfg, 5, 3), 2 * 2);
	assert_int_equal(vta_lut_packed_bytes(&cfg, VTA_MEM_ACC, 3), 2);
	config(CFG_DEFAULT, &cfg);
	assert_int_equal(vta_lut_packed_bytes(&cfg, VTA_MEM_WGT, 7), 224);
}

/* ---- negative tests ---- */

static uint8_t neg_buf[4096];

static void test_filter_errors(void **state)
{
	(void)state;
	vta_config cfg;
	config(CFG_DEFAULT, &cfg);
	rt_rng rng;
	rt_rng_seed(&rng, 21);
	const int32_t ohwi[4] = {4, 1, 1, 8};
	vta_error err = {0};
	rand_lut r;

	rand_lut_make(&rng, &r, VTA_LUT_INT32, 32, 4, false, 3);
	assert_int_not_equal(vta_lut_pack_conv_filter(&cfg, &r.t, ohwi, neg_buf, sizeof(neg_buf),
						      &err), VTA_OK);
	rt_assert_error(&err, VTA_E_UNSUPPORTED, "int32 tables, the hardware decoder takes int8");
	rand_lut_free(&r);

	rand_lut_make(&rng, &r, VTA_LUT_INT8, 32, 8, true, 3);
	vta_lut_pack_conv_filter(&cfg, &r.t, ohwi, neg_buf, sizeof(neg_buf), &err);
	rt_assert_error(&err, VTA_E_UNSUPPORTED, "the channel axis must be 0");
	rand_lut_free(&r);

	rand_lut_make(&rng, &r, VTA_LUT_INT8, 32, 2, false, 3);
	vta_lut_pack_conv_filter(&cfg, &r.t, ohwi, neg_buf, sizeof(neg_buf), &err);
	rt_assert_error(&err, VTA_E_DATA, "2 channel tables, the filter has 4 output channels");
	rand_lut_free(&r);

	rand_lut_make(&rng, &r, VTA_LUT_INT8, 33, 1, false, 3);
	vta_lut_pack_conv_filter(&cfg, &r.t, ohwi, neg_buf, sizeof(neg_buf), &err);
	rt_assert_error(&err, VTA_E_DATA, "the tensor holds 33 elements, the shape has 32");
	rand_lut_free(&r);

	rand_lut_make(&rng, &r, VTA_LUT_INT8, 32, 4, false, 3);
	vta_lut_pack_conv_filter(&cfg, &r.t, ohwi, neg_buf, 95, &err);
	rt_assert_error(&err, VTA_E_USAGE, "needs 96 bytes, the buffer has 95");
	const int32_t empty[4] = {4, 0, 1, 8};
	vta_lut_pack_conv_filter(&cfg, &r.t, empty, neg_buf, sizeof(neg_buf), &err);
	rt_assert_error(&err, VTA_E_DATA, "has an empty axis");
	/* what vta_lut_check refuses: width 0 and 8, stride above 128 */
	r.t.bitwidth = 8;
	vta_lut_pack_conv_filter(&cfg, &r.t, ohwi, neg_buf, sizeof(neg_buf), &err);
	rt_assert_error(&err, VTA_E_DATA, "index bit width 8 is outside 1..7");
	r.t.bitwidth = 0;
	vta_lut_pack_conv_filter(&cfg, &r.t, ohwi, neg_buf, sizeof(neg_buf), &err);
	rt_assert_error(&err, VTA_E_DATA, "index bit width 0 is outside 1..7");
	r.t.bitwidth = 3;
	r.t.value_table_stride = 129;
	vta_lut_pack_conv_filter(&cfg, &r.t, ohwi, neg_buf, sizeof(neg_buf), &err);
	rt_assert_error(&err, VTA_E_DATA, "value table stride 129 is outside 1..128");
	rand_lut_free(&r);

	vta_lut_pack_conv_filter(&cfg, NULL, ohwi, neg_buf, sizeof(neg_buf), &err);
	rt_assert_error(&err, VTA_E_USAGE, "no descriptor");
}

static void test_acc_rows_errors(void **state)
{
	(void)state;
	vta_config cfg;
	config(CFG_DEFAULT, &cfg);
	rt_rng rng;
	rt_rng_seed(&rng, 22);
	vta_error err = {0};
	rand_lut r;

	rand_lut_make(&rng, &r, VTA_LUT_INT8, 8, 8, false, 2);
	vta_lut_pack_acc_rows(&cfg, &r.t, neg_buf, sizeof(neg_buf), &err);
	rt_assert_error(&err, VTA_E_UNSUPPORTED, "int8 tables, the hardware decoder takes int32");
	rand_lut_free(&r);

	rand_lut_make(&rng, &r, VTA_LUT_INT32, 8, 4, false, 2);
	vta_lut_pack_acc_rows(&cfg, &r.t, neg_buf, sizeof(neg_buf), &err);
	rt_assert_error(&err, VTA_E_DATA, "4 channel tables for 8 values");
	rand_lut_free(&r);

	rand_lut_make(&rng, &r, VTA_LUT_INT32, 40, 40, false, 2);
	vta_lut_pack_acc_rows(&cfg, &r.t, neg_buf, 11, &err);
	rt_assert_error(&err, VTA_E_USAGE, "needs 12 bytes, the buffer has 11");
	rand_lut_free(&r);
}

static void test_flat_errors(void **state)
{
	(void)state;
	vta_config cfg;
	config(CFG_DEFAULT, &cfg);
	rt_rng rng;
	rt_rng_seed(&rng, 23);
	vta_error err = {0};
	rand_lut r;

	rand_lut_make(&rng, &r, VTA_LUT_INT32, 32, 1, false, 2);
	vta_lut_pack_flat(&cfg, &r.t, neg_buf, sizeof(neg_buf), &err);
	rt_assert_error(&err, VTA_E_UNSUPPORTED, "int32 tables, the hardware decoder takes int8");
	rand_lut_free(&r);

	rand_lut_make(&rng, &r, VTA_LUT_INT8, 64, 16, false, 2);
	vta_lut_pack_flat(&cfg, &r.t, neg_buf, sizeof(neg_buf), &err);
	rt_assert_error(&err, VTA_E_UNSUPPORTED, "the channel axis must be the last");
	rand_lut_free(&r);

	rand_lut_make(&rng, &r, VTA_LUT_INT8, 48, 8, true, 2);
	vta_lut_pack_flat(&cfg, &r.t, neg_buf, sizeof(neg_buf), &err);
	rt_assert_error(&err, VTA_E_UNSUPPORTED,
			"8 channel tables; ACC lane L of a row takes channel chan0 + L % 16, "
			"so the channel count must be a multiple of block_out");
	rand_lut_free(&r);

	config(CFG_BATCH2, &cfg);
	rand_lut_make(&rng, &r, VTA_LUT_INT8, 48, 8, true, 2);
	vta_lut_pack_flat(&cfg, &r.t, neg_buf, sizeof(neg_buf), &err);
	rt_assert_error(&err, VTA_E_UNSUPPORTED, "chan0 + L % 4 in every batch lane, so the channel count must be block_out");
	rand_lut_free(&r);

	rand_lut_make(&rng, &r, VTA_LUT_INT8, 17, 1, false, 5);
	vta_lut_pack_flat(&cfg, &r.t, neg_buf, 14, &err);
	rt_assert_error(&err, VTA_E_USAGE, "needs 15 bytes, the buffer has 14");
	rand_lut_free(&r);
}

static void test_table_errors(void **state)
{
	(void)state;
	vta_config cfg;
	config(CFG_DEFAULT, &cfg);
	rt_rng rng;
	rt_rng_seed(&rng, 24);
	vta_error err = {0};
	vta_lut_table_image img;
	rand_lut r;

	rand_lut_make(&rng, &r, VTA_LUT_INT16, 8, 2, false, 2);
	vta_lut_pack_table_image(&cfg, &r.t, VTA_MEM_ACC, &img, &err);
	rt_assert_error(&err, VTA_E_UNSUPPORTED, "int16 values cannot feed acc lanes");
	vta_lut_pack_table(&cfg, &r.t, VTA_MEM_ACC, neg_buf, sizeof(neg_buf), &err);
	rt_assert_error(&err, VTA_E_UNSUPPORTED, "int16 values cannot feed acc lanes");
	rand_lut_free(&r);

	rand_lut_make(&rng, &r, VTA_LUT_INT32, 8, 2, false, 2);
	vta_lut_pack_table_image(&cfg, &r.t, VTA_MEM_WGT, &img, &err);
	rt_assert_error(&err, VTA_E_UNSUPPORTED, "int32 values cannot feed wgt lanes");
	rand_lut_free(&r);

	rand_lut_make(&rng, &r, VTA_LUT_INT8, 8, 2, false, 2);
	vta_lut_pack_table_image(&cfg, &r.t, VTA_MEM_OUT, &img, &err);
	rt_assert_error(&err, VTA_E_UNSUPPORTED, "writes wgt, inp or acc rows, not out");
	/* 2 channels padded to 16 tables */
	assert_int_equal(vta_lut_pack_table_image(&cfg, &r.t, VTA_MEM_WGT, &img, &err), VTA_OK);
	assert_int_equal(img.channels, 16);
	vta_lut_pack_table(&cfg, &r.t, VTA_MEM_WGT, neg_buf, img.bytes - 1, &err);
	rt_assert_error(&err, VTA_E_USAGE, "the buffer has");
	r.t.value_table_stride = 129;
	vta_lut_pack_table_image(&cfg, &r.t, VTA_MEM_WGT, &img, &err);
	rt_assert_error(&err, VTA_E_DATA, "value table stride 129 is outside 1..128");
	rand_lut_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conv_filter),
		cmocka_unit_test(test_acc_rows),
		cmocka_unit_test(test_flat),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_filter_errors),
		cmocka_unit_test(test_acc_rows_errors),
		cmocka_unit_test(test_flat_errors),
		cmocka_unit_test(test_table_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
