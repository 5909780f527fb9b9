/*
 * fuzz_lut.c - LUT tensor descriptors and their buffers (vta_lut_check, vta_lut_decode)
 * built from arbitrary bytes: a 12-byte header (type, width, count, channels, axis, stride,
 * buffer sizes, whether channel counts are given), then the value table, the channel counts
 * and the index string. Contract, besides one clean error line:
 *   - check and decode agree: decode succeeds exactly when check does and every index is
 *     below its channel's valid entries (check does not inspect index values);
 *   - what decode writes is the table entry each index names, recomputed here the slow way;
 *   - an int8 tensor that decodes compresses back to tables that decode to the same values.
 */
#include "fuzz_contract.h"
#include "lut.h"

#define HDR 12

static size_t take(const uint8_t **p, size_t *left, size_t want)
{
	size_t n = want < *left ? want : *left;
	*p += n;
	*left -= n;
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < HDR)
		return 0;
	vta_lut_tensor t = {0};
	t.type = (vta_lut_type)(data[0] % (VTA_LUT_TYPE_COUNT + 1));
	t.bitwidth = data[1] % 9;
	t.count = (size_t)data[2] | (size_t)(data[3] & 0x0f) << 8; /* up to 4095 */
	t.channels = data[4] % 17;
	t.axis_last = data[5] & 1;
	t.value_table_stride = data[6] % 131;
	size_t table_bytes = (size_t)data[7] | (size_t)(data[8] & 0x0f) << 8;
	size_t idx_bytes = (size_t)data[9] | (size_t)(data[10] & 0x0f) << 8;
	bool counts = data[11] & 1;
	const uint8_t *p = data + HDR;
	size_t left = size - HDR;

	/* each buffer its own allocation, exactly as long as claimed, so ASan sees overreads */
	uint8_t *table = malloc(table_bytes ? table_bytes : 1);
	uint8_t *cnt = malloc(t.channels ? t.channels : 1);
	uint8_t *idx = malloc(idx_bytes ? idx_bytes : 1);
	fuzz_require(table && cnt && idx, "out of memory");
	memset(table, 0, table_bytes);
	memset(cnt, 1, t.channels);
	memset(idx, 0, idx_bytes);
	const uint8_t *q = p;
	memcpy(table, q, take(&p, &left, table_bytes));
	q = p;
	if (counts)
		memcpy(cnt, q, take(&p, &left, t.channels));
	q = p;
	memcpy(idx, q, take(&p, &left, idx_bytes));
	t.value_table = table;
	t.value_table_bytes = table_bytes;
	t.channel_counts = counts ? cnt : NULL;
	t.indices = idx;
	t.indices_bytes = idx_bytes;

	vta_error ce = {0}, de = {0};
	vta_status cs = vta_lut_check(&t, &ce);
	fuzz_expect(cs, &ce);
	size_t esz = vta_lut_type_size(t.type);
	size_t out_bytes = t.count * (esz ? esz : 1);
	uint8_t *out = malloc(out_bytes ? out_bytes : 1);
	fuzz_require(out != NULL, "out of memory");
	vta_status ds = vta_lut_decode(&t, out, out_bytes, &de);
	fuzz_expect(ds, &de);
	if (cs != VTA_OK) {
		if (ds == VTA_OK)
			fuzz_die("decode accepts what check refuses", ce.detail);
		goto out;
	}
	/* the slow decode */
	bool in_range = true;
	size_t per = t.count / t.channels;
	for (size_t i = 0; i < t.count && in_range; i++) {
		size_t c = t.channels == 1 ? 0 : t.axis_last ? i % t.channels : i / per;
		unsigned v = vta_lut_index(idx, i, t.bitwidth);
		size_t valid = counts ? cnt[c] : t.value_table_stride;
		if (v >= valid) {
			in_range = false;
			break;
		}
		if (ds == VTA_OK &&
		    memcmp(out + i * esz, table + (c * t.value_table_stride + v) * esz, esz))
			fuzz_die("decode writes another value than the table's", "");
	}
	if (in_range && ds != VTA_OK)
		fuzz_die("decode refuses what check accepts, every index in range", de.detail);
	if (!in_range && ds == VTA_OK)
		fuzz_die("decode accepts an index beyond its channel's table", "");

	if (ds == VTA_OK && t.type == VTA_LUT_INT8 && t.count) {
		vta_lut_buffer b;
		vta_error e = {0};
		vta_status st = vta_lut_compress(VTA_LUT_INT8, out, t.count, t.channels, t.axis_last,
						 0, VTA_LUT_STRIDE_MAX_UNIQUE, &b, &e);
		fuzz_expect(st, &e);
		if (st != VTA_OK)
			fuzz_die("decoded int8 values do not compress", e.detail);
		uint8_t *again = malloc(t.count);
		fuzz_require(again != NULL, "out of memory");
		st = vta_lut_decode(&b.tensor, again, t.count, &e);
		if (st != VTA_OK)
			fuzz_die("a compressed tensor does not decode", e.detail);
		fuzz_require(!memcmp(again, out, t.count), "compression round-trips");
		free(again);
		vta_lut_buffer_free(&b);
	}
out:
	free(out);
	free(idx);
	free(cnt);
	free(table);
	return 0;
}
