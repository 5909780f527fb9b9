/*
 * tflite_compress.h - LUT-compressing the constants of a .tflite model as TFLM's compression
 * spec asks (`tensors: - {subgraph, tensor, compression: [{lut: {index_bitwidth}}]}`,
 * lut.h's vta_lut_spec, with vtasim's selectors by operator type), in either TFLM container, binning any channel that holds more
 * distinct values than its width allows (docs/models.md "Compressing a model").
 */
#ifndef VTA_TFLITE_COMPRESS_H
#define VTA_TFLITE_COMPRESS_H

#include "lut.h"
#include "tflite_model.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vta_tfl_compress_options {
	vta_tfl_container container;    /* VTA_TFL_DECODE (TFLM's current tool, the default)
					 * or VTA_TFL_METADATA (the legacy one) */
	vta_lut_stride_mode stride;     /* table padding; both tools use 2^bitwidth */
	bool bin;                       /* bin channels with too many values (int8, float32);
					 * false: such a tensor is an error, as in TFLM's tool */
	vta_lut_bin_method method;
} vta_tfl_compress_options;

/* The defaults: DECODE container, 2^bitwidth strides, k-means binning. */
void vta_tfl_compress_defaults(vta_tfl_compress_options *o);

/* What happened to one tensor of the spec. */
typedef struct vta_tfl_compressed {
	uint32_t tensor;
	unsigned bitwidth;
	size_t channels;
	bool axis_last;
	size_t stride;
	size_t max_unique;        /* most distinct values in a channel, before binning */
	bool binned;              /* some channel had more than 2^bitwidth values */
	vta_lut_bin_report bin;
	size_t plain_bytes;       /* the constant as it was */
	size_t index_bytes;       /* packed indices */
	size_t table_bytes;       /* value tables, once */
	size_t copies;            /* DECODE: one ancillary tensor (tables) per consumer */
} vta_tfl_compressed;

typedef struct vta_tfl_compress_report {
	size_t n;
	vta_tfl_compressed *tensors; /* in spec order */
	size_t in_bytes, out_bytes;  /* the files */
} vta_tfl_compress_report;

/* Compress model m's tensors named by spec into a new .tflite image (*out, free() it).
 * `spec_name` names the spec file in messages. Errors (VTA_E_PARSE, VTA_E_DATA) name the
 * spec entry ("SPEC:LINE:COL: tensor 5 'w': ...") or the model. m must not be compressed
 * already. The report (may be NULL) is filled on success; free it with
 * vta_tfl_compress_report_free. */
vta_status vta_tfl_compress(const vta_tfl_model *m, const vta_lut_spec *spec,
			    const char *spec_name, const vta_tfl_compress_options *o,
			    uint8_t **out, size_t *out_bytes, vta_tfl_compress_report *report,
			    vta_error *err);
void vta_tfl_compress_report_free(vta_tfl_compress_report *r);

/* The spec with its selectors (an `op:` entry, lut.h) resolved against m into tensor entries
 * that keep the selector's position (tflite_select.c): tensor entries in place, then each
 * selector's filters in operator order. vta_tfl_compress resolves its spec itself. Free *out
 * with vta_lut_spec_free. A selector that picks nothing is VTA_E_DATA naming it. */
vta_status vta_tfl_spec_resolve(const vta_tfl_model *m, const vta_lut_spec *spec,
				const char *spec_name, vta_lut_spec *out, vta_error *err);

/* How TFLM's compressor lays out tensor t's tables: per tensor (channels 1) or per channel
 * along axis 0 or the last; VTA_E_DATA when its quantization allows neither. */
vta_status vta_tfl_lut_channels(const vta_tfl_tensor *t, size_t *channels, bool *axis_last,
				vta_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VTA_TFLITE_COMPRESS_H */
