/*
 * lut.c - decoding TFLM LUT tensors (the runtime's `host` decompression and the oracle for the
 * hardware decoder). Behaviour is TFLM's DecompressToBuffer with every index bounds-checked;
 * like TFLM, int8 tensors with the channel axis first take fast paths at widths 2, 3 and 4
 * (docs/lut.md "Decoding"). When a channel has fewer valid entries than 2^width the fast body
 * ORs per-key "bad" marks instead of branching, and a marked channel is rescanned to name the
 * first bad element.
 */
#include "lut.h"

#include <string.h>

#if defined(__GNUC__)
#define LUT_INLINE static inline __attribute__((always_inline))
#else
#define LUT_INLINE static inline
#endif

static const char *const lut_type_names[VTA_LUT_TYPE_COUNT] = {
	"bool", "int8", "int16", "int32", "int64", "float32",
};

size_t vta_lut_type_size(vta_lut_type type)
{
	switch (type) {
	case VTA_LUT_BOOL:
	case VTA_LUT_INT8: return 1;
	case VTA_LUT_INT16: return 2;
	case VTA_LUT_INT32:
	case VTA_LUT_FLOAT32: return 4;
	case VTA_LUT_INT64: return 8;
	case VTA_LUT_TYPE_COUNT: break;
	}
	return 0;
}

const char *vta_lut_type_name(vta_lut_type type)
{
	if ((unsigned)type >= VTA_LUT_TYPE_COUNT)
		return NULL;
	return lut_type_names[type];
}

vta_status vta_lut_expect(const vta_lut_tensor *t, vta_lut_type type, size_t count,
			  const char *layer, const char *what, const char *noun, vta_error *err)
{
	if (t->type == type && t->count == count)
		return VTA_OK;
	const char *holds = vta_lut_type_name(t->type);
	return vta_fail(err, VTA_E_USAGE,
			"%s%s%s%s: LUT tensor holds %zu %s values, the %s needs %zu %s",
			layer ? "layer " : "", layer ? layer : "", layer ? ": " : "", what, t->count,
			holds ? holds : "?", noun, count, vta_lut_type_name(type));
}

size_t vta_lut_indices_bytes(size_t count, unsigned bitwidth)
{
	/* Split so that count * bitwidth cannot overflow. */
	return count / 8 * bitwidth + ((count % 8) * bitwidth + 7) / 8;
}

vta_status vta_lut_check(const vta_lut_tensor *t, vta_error *err)
{
	if (!t)
		return vta_fail(err, VTA_E_USAGE, "LUT tensor: no descriptor");
	size_t esz = vta_lut_type_size(t->type);
	if (esz == 0)
		return vta_fail(err, VTA_E_DATA, "LUT tensor: unsupported element type %d",
				(int)t->type);
	if (t->bitwidth < 1 || t->bitwidth > VTA_LUT_MAX_BITWIDTH)
		return vta_fail(err, VTA_E_DATA,
				"LUT tensor: index bit width %u is outside 1..%d", t->bitwidth,
				VTA_LUT_MAX_BITWIDTH);
	if (t->value_table_stride < 1 || t->value_table_stride > VTA_LUT_MAX_STRIDE)
		return vta_fail(err, VTA_E_DATA,
				"LUT tensor: value table stride %zu is outside 1..%d",
				t->value_table_stride, VTA_LUT_MAX_STRIDE);
	if (t->channels < 1)
		return vta_fail(err, VTA_E_DATA, "LUT tensor: channel count is 0");
	if (t->count > SIZE_MAX / 8)
		return vta_fail(err, VTA_E_DATA, "LUT tensor: %zu elements is too many", t->count);
	if (t->count % t->channels != 0)
		return vta_fail(err, VTA_E_DATA,
				"LUT tensor: channel count %zu does not divide element count %zu",
				t->channels, t->count);
	/* stride * esz <= 1024, so this bound keeps channels * stride * esz in range. */
	if (t->channels > SIZE_MAX / 1024)
		return vta_fail(err, VTA_E_DATA, "LUT tensor: channel count %zu is too large",
				t->channels);
	size_t table_need = t->channels * t->value_table_stride * esz;
	if (!t->value_table || t->value_table_bytes < table_need)
		return vta_fail(err, VTA_E_DATA,
				"LUT tensor: value table has %zu bytes, %zu channels x stride %zu x "
				"%zu-byte %s need %zu",
				t->value_table ? t->value_table_bytes : 0, t->channels,
				t->value_table_stride, esz, lut_type_names[t->type], table_need);
	size_t idx_need = vta_lut_indices_bytes(t->count, t->bitwidth);
	if ((!t->indices && idx_need > 0) || t->indices_bytes < idx_need)
		return vta_fail(err, VTA_E_DATA,
				"LUT tensor: index string has %zu bytes, %zu elements at %u bits "
				"need %zu",
				t->indices ? t->indices_bytes : 0, t->count, t->bitwidth, idx_need);
	if (t->channel_counts) {
		for (size_t c = 0; c < t->channels; c++) {
			size_t n = t->channel_counts[c];
			if (n < 1 || n > t->value_table_stride)
				return vta_fail(err, VTA_E_DATA,
						"LUT tensor: channel %zu claims %zu table entries, "
						"outside 1..stride %zu",
						c, n, t->value_table_stride);
		}
	}
	return VTA_OK;
}

/* Valid table entries of channel c. */
static size_t lut_limit(const vta_lut_tensor *t, size_t c)
{
	return t->channel_counts ? t->channel_counts[c] : t->value_table_stride;
}

/* Copy one little-endian table element into host order. */
LUT_INLINE void lut_copy_value(uint8_t *dst, const uint8_t *le, size_t esz)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	for (size_t k = 0; k < esz; k++)
		dst[k] = le[esz - 1 - k];
#else
	memcpy(dst, le, esz);
#endif
}

static vta_status lut_bad_index(const vta_lut_tensor *t, size_t e, size_t c, unsigned idx,
				vta_error *err)
{
	if (t->channel_counts)
		return vta_fail(err, VTA_E_DATA,
				"LUT tensor: element %zu (channel %zu) has index %u, but the "
				"channel's table holds %zu values",
				e, c, idx, lut_limit(t, c));
	return vta_fail(err, VTA_E_DATA,
			"LUT tensor: element %zu (channel %zu) has index %u, beyond the value "
			"table stride %zu",
			e, c, idx, t->value_table_stride);
}

/* Generic decode of elements [begin, end); esz is a constant at every call site. */
LUT_INLINE vta_status lut_decode_generic(const vta_lut_tensor *t, uint8_t *out, size_t esz,
					 size_t begin, size_t end, vta_error *err)
{
	const uint8_t *s = t->indices;
	const uint8_t *tab = t->value_table;
	unsigned bw = t->bitwidth;
	size_t stride = t->value_table_stride;
	size_t nch = t->channels;

	if (!t->axis_last || nch == 1) {
		size_t epc = t->count / nch;
		size_t e = begin;
		while (e < end) {
			size_t c = e / epc;
			size_t stop = (c + 1) * epc < end ? (c + 1) * epc : end;
			size_t limit = lut_limit(t, c);
			const uint8_t *base = tab + c * stride * esz;
			for (; e < stop; e++) {
				unsigned idx = vta_lut_index(s, e, bw);
				if (idx >= limit)
					return lut_bad_index(t, e, c, idx, err);
				lut_copy_value(out + e * esz, base + idx * esz, esz);
			}
		}
	} else {
		size_t c = begin % nch;
		for (size_t e = begin; e < end; e++) {
			unsigned idx = vta_lut_index(s, e, bw);
			if (idx >= lut_limit(t, c))
				return lut_bad_index(t, e, c, idx, err);
			lut_copy_value(out + e * esz, tab + (c * stride + idx) * esz, esz);
			if (++c == nch)
				c = 0;
		}
	}
	return VTA_OK;
}

/*
 * int8 fast paths. A channel's values are first expanded into tables indexed by a whole byte
 * (widths 2 and 4) or by 6 bits (width 3). When the channel has fewer valid entries than
 * 2^width, a parallel table marks the keys holding a bad index and the body ORs those marks;
 * otherwise the body runs unchecked.
 */
typedef struct lut_i8_chan {
	uint8_t val[1u << VTA_LUT_MAX_BITWIDTH]; /* value of index k (0 where k is invalid) */
	uint8_t bad[1u << VTA_LUT_MAX_BITWIDTH]; /* 1 where k is not a valid index */
	bool check;        /* some index below 2^width is invalid */
} lut_i8_chan;

static void lut_i8_fill(const vta_lut_tensor *t, size_t c, lut_i8_chan *ch)
{
	const uint8_t *tab = (const uint8_t *)t->value_table + c * t->value_table_stride;
	size_t limit = lut_limit(t, c);
	size_t n = (size_t)1 << t->bitwidth;
	ch->check = limit < n;
	for (size_t k = 0; k < n; k++) {
		ch->val[k] = k < limit ? tab[k] : 0;
		ch->bad[k] = k >= limit;
	}
}

/* Widths 4 and 2: one byte -> `per` values (2 or 4), the most significant index first. */
LUT_INLINE unsigned lut_i8_body_byte(const uint8_t *s, uint8_t *out, size_t bytes,
				     const lut_i8_chan *ch, unsigned per)
{
	const unsigned bw = 8 / per, mask = (1u << bw) - 1;
	uint8_t vals[256][4];
	uint8_t bad[256];
	for (unsigned b = 0; b < 256; b++) {
		bad[b] = 0;
		for (unsigned j = 0; j < per; j++) {
			unsigned k = (b >> (8 - bw * (j + 1))) & mask;
			vals[b][j] = ch->val[k];
			bad[b] |= ch->bad[k];
		}
	}
	unsigned any = 0;
	if (ch->check) {
		for (size_t k = 0; k < bytes; k++) {
			any |= bad[s[k]];
			memcpy(out + per * k, vals[s[k]], per);
		}
	} else {
		for (size_t k = 0; k < bytes; k++)
			memcpy(out + per * k, vals[s[k]], per);
	}
	return any;
}

/* Width 3: three bytes -> eight values, as four 6-bit keys of two values each. */
static unsigned lut_i8_body_w3(const uint8_t *s, uint8_t *out, size_t groups,
			       const lut_i8_chan *ch)
{
	uint8_t two[64][2];
	uint8_t bad[64];
	for (unsigned b = 0; b < 64; b++) {
		two[b][0] = ch->val[b >> 3];
		two[b][1] = ch->val[b & 7];
		bad[b] = ch->bad[b >> 3] | ch->bad[b & 7];
	}
	unsigned any = 0;
	for (size_t g = 0; g < groups; g++) {
		const uint8_t *p = s + 3 * g;
		uint32_t w = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
		unsigned k0 = w >> 18, k1 = (w >> 12) & 63, k2 = (w >> 6) & 63, k3 = w & 63;
		uint8_t *o = out + 8 * g;
		memcpy(o, two[k0], 2);
		memcpy(o + 2, two[k1], 2);
		memcpy(o + 4, two[k2], 2);
		memcpy(o + 6, two[k3], 2);
		if (ch->check)
			any |= bad[k0] | bad[k1] | bad[k2] | bad[k3];
	}
	return any;
}

/* Channels shorter than this decode generically: building the tables would cost more. */
#define LUT_FAST_MIN_ELEMENTS 64

static vta_status lut_decode_i8_fast(const vta_lut_tensor *t, uint8_t *out, vta_error *err)
{
	unsigned bw = t->bitwidth;
	/* Elements per aligned group and bytes per group. */
	size_t g_elems = bw == 3 ? 8 : 8 / bw;
	size_t g_bytes = bw == 3 ? 3 : 1;
	size_t epc = t->count / t->channels;
	lut_i8_chan ch;

	for (size_t c = 0; c < t->channels; c++) {
		size_t e0 = c * epc, e1 = e0 + epc;
		if (epc < LUT_FAST_MIN_ELEMENTS) {
			vta_status st = lut_decode_generic(t, out, 1, e0, e1, err);
			if (st != VTA_OK)
				return st;
			continue;
		}
		size_t head = (e0 + g_elems - 1) / g_elems * g_elems;
		size_t groups = (e1 - head) / g_elems;
		size_t tail = head + groups * g_elems;
		vta_status st = lut_decode_generic(t, out, 1, e0, head, err);
		if (st != VTA_OK)
			return st;
		lut_i8_fill(t, c, &ch);
		const uint8_t *s = t->indices + head / g_elems * g_bytes;
		unsigned bad;
		if (bw == 4)
			bad = lut_i8_body_byte(s, out + head, groups, &ch, 2);
		else if (bw == 2)
			bad = lut_i8_body_byte(s, out + head, groups, &ch, 4);
		else
			bad = lut_i8_body_w3(s, out + head, groups, &ch);
		if (bad) /* rescan to report the first offender */
			return lut_decode_generic(t, out, 1, head, tail, err);
		st = lut_decode_generic(t, out, 1, tail, e1, err);
		if (st != VTA_OK)
			return st;
	}
	return VTA_OK;
}

vta_status vta_lut_decode(const vta_lut_tensor *t, void *out, size_t out_bytes, vta_error *err)
{
	vta_status st = vta_lut_check(t, err);
	if (st != VTA_OK)
		return st;
	size_t esz = vta_lut_type_size(t->type);
	if (t->count > SIZE_MAX / esz || out_bytes < t->count * esz)
		return vta_fail(err, VTA_E_USAGE,
				"LUT decode: output buffer of %zu bytes is smaller than %zu %s "
				"elements",
				out_bytes, t->count, lut_type_names[t->type]);
	if (t->count == 0)
		return VTA_OK;
	if (!out)
		return vta_fail(err, VTA_E_USAGE, "LUT decode: no output buffer");
	uint8_t *o = out;
	bool axis_first = !t->axis_last || t->channels == 1;

	if (t->type == VTA_LUT_INT8 && axis_first &&
	    (t->bitwidth == 2 || t->bitwidth == 3 || t->bitwidth == 4))
		return lut_decode_i8_fast(t, o, err);
	switch (esz) {
	case 1: return lut_decode_generic(t, o, 1, 0, t->count, err);
	case 2: return lut_decode_generic(t, o, 2, 0, t->count, err);
	case 4: return lut_decode_generic(t, o, 4, 0, t->count, err);
	default: return lut_decode_generic(t, o, 8, 0, t->count, err);
	}
}
