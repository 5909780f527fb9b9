/*
 * lut.h - TFLM LUT-compressed constant tensors: decode, compress, binning, compression spec.
 * The format (TFLM "LUT tensor", legacy metadata and DECODE alike), what decoding rejects,
 * and each part below: docs/lut.md.
 *
 * Decoding never reads outside the buffers the descriptor names and rejects malformed input
 * with VTA_E_DATA, including an index at or beyond its channel's table: TFLM checks none of
 * the index bounds; we do because a simulator must diagnose, not read garbage.
 */
#ifndef VTA_LUT_H
#define VTA_LUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vta_limits.h"
#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif


/* Element types TFLM can decompress. */
typedef enum vta_lut_type {
	VTA_LUT_BOOL = 0, /* one byte per element, copied as is */
	VTA_LUT_INT8,
	VTA_LUT_INT16,
	VTA_LUT_INT32,
	VTA_LUT_INT64,
	VTA_LUT_FLOAT32,  /* copied as bit patterns */
	VTA_LUT_TYPE_COUNT
} vta_lut_type;

/* A compressed tensor, as TFLM's LookupTableData plus the buffers it points at. */
typedef struct vta_lut_tensor {
	vta_lut_type type;
	unsigned bitwidth;            /* 1..7 */
	size_t count;                 /* elements of the decoded tensor */
	size_t channels;              /* 1 = per-tensor */
	bool axis_last;               /* use_alternate_axis: channels interleave */
	const void *value_table;      /* channels * stride elements, little-endian */
	size_t value_table_bytes;     /* size of that buffer, checked against the shape */
	size_t value_table_stride;    /* elements per channel table, 1..128 */
	const uint8_t *channel_counts;/* optional: valid entries per channel (1..stride); NULL =
				       * every entry up to the stride is valid */
	const uint8_t *indices;       /* packed index string */
	size_t indices_bytes;         /* size of that buffer, at least vta_lut_indices_bytes() */
} vta_lut_tensor;

/* Index i of a packed string: bits [i*bw, i*bw + bw), the first bit being the most
 * significant bit of byte i*bw/8 and of the index. A field of <= 7 bits spans at most two
 * bytes; the second is read only when the field reaches into it. */
static inline unsigned vta_lut_index(const uint8_t *s, size_t i, unsigned bw)
{
	size_t bit = i * bw;
	unsigned sh = (unsigned)(bit & 7);
	const uint8_t *p = s + (bit >> 3);
	unsigned w = (unsigned)p[0] << 8;
	if (sh + bw > 8)
		w |= p[1];
	return (w >> (16 - sh - bw)) & ((1u << bw) - 1);
}

/* Write index v (< 2^bw) into field i of a string whose field bits are still zero. */
static inline void vta_lut_put_index(uint8_t *s, size_t i, unsigned bw, unsigned v)
{
	size_t bit = i * bw;
	unsigned sh = (unsigned)(bit & 7);
	uint8_t *p = s + (bit >> 3);
	unsigned w = v << (16 - sh - bw);
	p[0] |= (uint8_t)(w >> 8);
	if (sh + bw > 8)
		p[1] |= (uint8_t)w;
}

/* Bytes of one element (BOOL 1, INT8 1, INT16 2, INT32 4, INT64 8, FLOAT32 4); 0 if unknown. */
size_t vta_lut_type_size(vta_lut_type type);
/* "bool", "int8", ... or NULL for an unknown type. */
const char *vta_lut_type_name(vta_lut_type type);
/* Bytes an index string of `count` fields of `bitwidth` bits occupies (rounded up). */
size_t vta_lut_indices_bytes(size_t count, unsigned bitwidth);

/* Validate a descriptor without decoding (index values are not inspected). */
vta_status vta_lut_check(const vta_lut_tensor *t, vta_error *err);

/* VTA_E_USAGE unless t holds `count` values of `type`, where a layer constant named `what`
 * (the `noun` of the message; `layer` may be NULL) needs them. */
vta_status vta_lut_expect(const vta_lut_tensor *t, vta_lut_type type, size_t count,
			  const char *layer, const char *what, const char *noun, vta_error *err);

/* Decode into `out` (count elements of the type, host byte order). int8 with the channel axis
 * first takes table-driven fast paths at widths 2, 3 and 4 (a byte or 6 bits per lookup);
 * everything else a generic per-element loop. On error `out` holds unspecified data. */
vta_status vta_lut_decode(const vta_lut_tensor *t, void *out, size_t out_bytes, vta_error *err);

/* ---- compression (lut_compress.c) ---- */

/* How value tables are padded: the stride between channel tables. */
typedef enum vta_lut_stride_mode {
	VTA_LUT_STRIDE_POW2 = 0,   /* 2^bitwidth: the legacy metadata compressor */
	VTA_LUT_STRIDE_MAX_UNIQUE  /* largest channel unique count: DECODE compressor */
} vta_lut_stride_mode;

/* A compressed tensor owning its buffers; `tensor` points into them. */
typedef struct vta_lut_buffer {
	vta_lut_tensor tensor;
	uint8_t *table;    /* channels * stride elements, little-endian, zero-padded */
	uint8_t *indices;
	uint8_t *counts;   /* unique values per channel; tensor.channel_counts points here */
} vta_lut_buffer;

/* Compress `count` elements of `type` (host byte order) into per-channel tables of the unique
 * values sorted ascending (np.unique order; floats numerically with -0.0 before +0.0, NaN is
 * an error) and packed indices. bitwidth 0 picks the smallest sufficient width; a requested
 * width that is too small for some channel is VTA_E_DATA, one above 7 VTA_E_USAGE; count must
 * be >= 1. Free with vta_lut_buffer_free (also safe after a failed call). */
vta_status vta_lut_compress(vta_lut_type type, const void *data, size_t count, size_t channels,
			    bool axis_last, unsigned bitwidth, vta_lut_stride_mode stride_mode,
			    vta_lut_buffer *out, vta_error *err);
void vta_lut_buffer_free(vta_lut_buffer *buf);

/* Smallest index width for a table of `unique` values: bit_length(unique - 1), at least 1. */
unsigned vta_lut_min_bitwidth(size_t unique);

/* ---- binning (lut_binning.c) ---- */

typedef enum vta_lut_bin_method {
	VTA_LUT_BIN_KMEANS = 0, /* Lloyd's 1-D k-means started from the quantile split */
	VTA_LUT_BIN_QUANTILE    /* equal-population buckets, each replaced by its mean */
} vta_lut_bin_method;

/* What binning did to the tensor (errors in the tensor's own units). */
typedef struct vta_lut_bin_report {
	double max_abs_error;
	double rms_error;
	size_t max_values;   /* most distinct values left in any channel */
	size_t changed;      /* elements whose value changed */
} vta_lut_bin_report;

/* Reduce every channel to at most 2^bits distinct values (bits 1..7), deterministically.
 * Channels with few enough values are copied unchanged. in and out may alias. */
vta_status vta_lut_bin_i8(const int8_t *in, int8_t *out, size_t count, size_t channels,
			  bool axis_last, unsigned bits, vta_lut_bin_method method,
			  vta_lut_bin_report *report, vta_error *err);
vta_status vta_lut_bin_f32(const float *in, float *out, size_t count, size_t channels,
			   bool axis_last, unsigned bits, vta_lut_bin_method method,
			   vta_lut_bin_report *report, vta_error *err);

/* ---- TFLM compression spec YAML (lut_spec.c) ---- */

/* The operators whose filters (input 1) a selector may pick, by TFLite's names. */
typedef enum vta_lut_filter_op {
	VTA_LUT_FILTERS_NONE = 0, /* an entry naming one tensor */
	VTA_LUT_FILTERS_CONV_2D,
	VTA_LUT_FILTERS_DEPTHWISE_CONV_2D,
	VTA_LUT_FILTERS_FULLY_CONNECTED,
	VTA_LUT_FILTERS_COUNT
} vta_lut_filter_op;

/* TFLite's name of op ("CONV_2D", ...); NULL for VTA_LUT_FILTERS_NONE. */
const char *vta_lut_filter_op_name(vta_lut_filter_op op);

/* One `tensors:` item, either TFLM's
 *   { subgraph: S, tensor: T, compression: [ { lut: { index_bitwidth: B } } ] }
 * or a selector (vtasim's extension, docs/lut.md): `op: NAME` and an optional
 * `min_elements: N` instead of `tensor`, meaning the constant filter of every NAME operator
 * of the subgraph holding at least N elements. */
typedef struct vta_lut_spec_tensor {
	uint32_t subgraph;
	uint32_t tensor;         /* a tensor entry's; a selector's is resolved against a model */
	vta_lut_filter_op op;    /* VTA_LUT_FILTERS_NONE for a tensor entry */
	uint32_t min_elements;   /* a selector's */
	unsigned index_bitwidth; /* 1..7 */
	unsigned line, column;   /* 1-based position of the item in the file; 0 when it comes
				  * from elsewhere, which `origin` then names */
	const char *origin;      /* NULL for an item of the file, else a static string */
} vta_lut_spec_tensor;

typedef struct vta_lut_spec {
	vta_lut_spec_tensor *tensors;
	size_t count;
} vta_lut_spec;

/* Read a spec file. Errors are VTA_E_IO (cannot read) or VTA_E_PARSE with
 * "FILE:LINE:COL: problem". Unknown keys, duplicate keys or tensors, methods other than lut,
 * more than one method per tensor and widths outside 1..7 are errors. */
vta_status vta_lut_spec_load(const char *path, vta_lut_spec *spec, vta_error *err);
/* Same from a NUL-terminated string; `name` stands for the file name in messages. */
vta_status vta_lut_spec_parse(const char *text, const char *name, vta_lut_spec *spec,
			      vta_error *err);
void vta_lut_spec_free(vta_lut_spec *spec);
/* Append a selector that comes from elsewhere than a file (`origin`, a static string such
 * as a command-line option, names it in messages). */
vta_status vta_lut_spec_add_selector(vta_lut_spec *spec, vta_lut_filter_op op,
				     uint32_t min_elements, unsigned index_bitwidth,
				     const char *origin, vta_error *err);
/* The entry for (subgraph, tensor), or NULL. */
const vta_lut_spec_tensor *vta_lut_spec_find(const vta_lut_spec *spec, uint32_t subgraph,
					     uint32_t tensor);

#ifdef __cplusplus
}
#endif

#endif /* VTA_LUT_H */
