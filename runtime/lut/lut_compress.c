/*
 * lut_compress.c - building TFLM LUT tensors from plain data, as TFLM's compressor does
 * (docs/lut.md "Compressing"). Values are compared through an order-preserving unsigned key,
 * so one sort serves every type.
 */
#include "lut.h"

#include <stdlib.h>
#include <string.h>

unsigned vta_lut_min_bitwidth(size_t unique)
{
	unsigned bits = 1;
	while (unique > 1 && ((size_t)1 << bits) < unique)
		bits++;
	return bits;
}

/* Raw host-order bits of element e. */
static uint64_t lc_raw(const uint8_t *data, size_t esz, size_t e)
{
	const uint8_t *p = data + e * esz;
	switch (esz) {
	case 1: return p[0];
	case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
	case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
	default: { uint64_t v; memcpy(&v, p, 8); return v; }
	}
}

static bool lc_is_nan(uint64_t raw)
{
	return (raw & 0x7fffffffu) > 0x7f800000u;
}

/* Unsigned key whose order is the numeric order of the type. */
static uint64_t lc_key(vta_lut_type type, uint64_t raw)
{
	switch (type) {
	case VTA_LUT_INT8: return raw ^ 0x80u;
	case VTA_LUT_INT16: return raw ^ 0x8000u;
	case VTA_LUT_INT32: return raw ^ 0x80000000u;
	case VTA_LUT_INT64: return raw ^ ((uint64_t)1 << 63);
	case VTA_LUT_FLOAT32:
		return (raw & 0x80000000u) ? (~raw & 0xffffffffu) : (raw | 0x80000000u);
	default: return raw; /* BOOL: the byte */
	}
}

static uint64_t lc_unkey(vta_lut_type type, uint64_t key)
{
	if (type == VTA_LUT_FLOAT32)
		return (key & 0x80000000u) ? (key ^ 0x80000000u) : (~key & 0xffffffffu);
	return lc_key(type, key); /* the integer keys are involutions */
}

static int lc_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* Element k (0-based) of channel c. */
static size_t lc_elem(size_t c, size_t k, size_t epc, size_t channels, bool axis_last)
{
	return axis_last ? k * channels + c : c * epc + k;
}

void vta_lut_buffer_free(vta_lut_buffer *buf)
{
	if (!buf)
		return;
	free(buf->table);
	free(buf->indices);
	free(buf->counts);
	memset(buf, 0, sizeof(*buf));
}

/* Position of key in the sorted table u[0..n). The key is known to be present. */
static unsigned lc_find(const uint64_t *u, size_t n, uint64_t key)
{
	size_t lo = 0, hi = n;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (u[mid] <= key)
			lo = mid;
		else
			hi = mid;
	}
	return (unsigned)lo;
}

vta_status vta_lut_compress(vta_lut_type type, const void *data, size_t count, size_t channels,
			    bool axis_last, unsigned bitwidth, vta_lut_stride_mode stride_mode,
			    vta_lut_buffer *out, vta_error *err)
{
	if (!out)
		return vta_fail(err, VTA_E_USAGE, "LUT compress: no output");
	memset(out, 0, sizeof(*out));
	size_t esz = vta_lut_type_size(type);
	if (esz == 0)
		return vta_fail(err, VTA_E_USAGE, "LUT compress: unsupported element type %d",
				(int)type);
	if (bitwidth > VTA_LUT_MAX_BITWIDTH)
		return vta_fail(err, VTA_E_USAGE,
				"LUT compress: index bit width %u is above %d", bitwidth,
				VTA_LUT_MAX_BITWIDTH);
	if (stride_mode != VTA_LUT_STRIDE_POW2 && stride_mode != VTA_LUT_STRIDE_MAX_UNIQUE)
		return vta_fail(err, VTA_E_USAGE, "LUT compress: unknown stride mode %d",
				(int)stride_mode);
	if (channels < 1 || count == 0 || count % channels != 0)
		return vta_fail(err, VTA_E_USAGE,
				"LUT compress: %zu channels do not divide %zu elements", channels,
				count);
	if (!data)
		return vta_fail(err, VTA_E_USAGE, "LUT compress: no data");
	if (count > SIZE_MAX / 8)
		return vta_fail(err, VTA_E_USAGE, "LUT compress: %zu elements is too many", count);

	size_t epc = count / channels;
	size_t cap = channels <= count / VTA_LUT_MAX_STRIDE ? channels * VTA_LUT_MAX_STRIDE
							   : count;
	uint64_t *scratch = malloc(epc * sizeof(uint64_t));
	uint64_t *uniq = malloc(cap * sizeof(uint64_t)); /* every channel's sorted keys */
	size_t *first = malloc(channels * sizeof(size_t)); /* start of channel c in uniq */
	out->counts = malloc(channels);
	vta_status st = VTA_OK;
	if (!scratch || !uniq || !first || !out->counts) {
		st = vta_fail(err, VTA_E_NOMEM, "LUT compress: out of memory");
		goto done;
	}

	/* Pass 1: sorted unique keys per channel. */
	size_t used = 0, max_unique = 0;
	for (size_t c = 0; c < channels; c++) {
		for (size_t k = 0; k < epc; k++) {
			size_t e = lc_elem(c, k, epc, channels, axis_last);
			uint64_t raw = lc_raw(data, esz, e);
			if (type == VTA_LUT_FLOAT32 && lc_is_nan(raw)) {
				st = vta_fail(err, VTA_E_DATA,
					      "LUT compress: element %zu is NaN", e);
				goto done;
			}
			scratch[k] = lc_key(type, raw);
		}
		qsort(scratch, epc, sizeof(uint64_t), lc_cmp_u64);
		size_t n = 0;
		for (size_t k = 0; k < epc; k++) {
			if (k > 0 && scratch[k] == scratch[k - 1])
				continue;
			if (n == VTA_LUT_MAX_STRIDE) {
				st = vta_fail(err, VTA_E_DATA,
					      "LUT compress: channel %zu has more than %d "
					      "distinct values (7-bit indices at most)",
					      c, VTA_LUT_MAX_STRIDE);
				goto done;
			}
			uniq[used + n++] = scratch[k];
		}
		first[c] = used;
		out->counts[c] = (uint8_t)n;
		used += n;
		if (n > max_unique)
			max_unique = n;
	}

	unsigned need = vta_lut_min_bitwidth(max_unique);
	if (bitwidth == 0) {
		bitwidth = need;
	} else if (bitwidth < need) {
		st = vta_fail(err, VTA_E_DATA,
			      "LUT compress: %zu distinct values need %u-bit indices, %u "
			      "requested",
			      max_unique, need, bitwidth);
		goto done;
	}
	size_t stride = stride_mode == VTA_LUT_STRIDE_POW2 ? (size_t)1 << bitwidth : max_unique;

	/* Tables, little-endian, zero-padded to the stride. */
	size_t table_bytes = channels * stride * esz;
	size_t idx_bytes = vta_lut_indices_bytes(count, bitwidth);
	out->table = calloc(table_bytes, 1);
	out->indices = calloc(idx_bytes ? idx_bytes : 1, 1);
	if (!out->table || !out->indices) {
		st = vta_fail(err, VTA_E_NOMEM, "LUT compress: out of memory");
		goto done;
	}
	for (size_t c = 0; c < channels; c++) {
		for (size_t k = 0; k < out->counts[c]; k++) {
			uint64_t raw = lc_unkey(type, uniq[first[c] + k]);
			uint8_t *p = out->table + (c * stride + k) * esz;
			for (size_t b = 0; b < esz; b++)
				p[b] = (uint8_t)(raw >> (8 * b));
		}
	}

	/* Pass 2: pack indices MSB first, element by element in row-major order. */
	for (size_t e = 0; e < count; e++) {
		size_t c = axis_last ? e % channels : e / epc;
		uint64_t key = lc_key(type, lc_raw(data, esz, e));
		vta_lut_put_index(out->indices, e, bitwidth,
				  lc_find(uniq + first[c], out->counts[c], key));
	}

	out->tensor = (vta_lut_tensor){
		.type = type,
		.bitwidth = bitwidth,
		.count = count,
		.channels = channels,
		.axis_last = axis_last && channels > 1,
		.value_table = out->table,
		.value_table_bytes = table_bytes,
		.value_table_stride = stride,
		.channel_counts = out->counts,
		.indices = out->indices,
		.indices_bytes = idx_bytes,
	};
done:
	free(scratch);
	free(uniq);
	free(first);
	if (st != VTA_OK)
		vta_lut_buffer_free(out);
	return st;
}
