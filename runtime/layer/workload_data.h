/*
 * workload_data.h - turn a workload tensor spec into numbers: seeded random data (with at
 * most 2^b distinct values per channel when the tensor is LUT-compressed), raw little-endian
 * files or .npy files; per-channel scales; and the LUT compression of constant tensors.
 */
#ifndef VTA_WORKLOAD_DATA_H
#define VTA_WORKLOAD_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lut.h"
#include "workload.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How a tensor's elements map to channels (for per-channel LUT tables). */
typedef struct vta_wl_channels {
	size_t channels; /* 1 = per-tensor */
	bool axis_last;  /* channel = element % channels, else element / (count / channels) */
} vta_wl_channels;

/* int8 data: `count` elements; random values are drawn from [lo, hi] unless the spec gives a
 * range. A compressed tensor read from a file with too many distinct values per channel is
 * binned (1-D k-means) to 2^b values; *binned (may be NULL) reports what that changed. */
vta_status vta_wl_fill_i8(const vta_wl_tensor *t, const char *what, size_t count,
			  vta_wl_channels ch, int lo, int hi, int8_t *out,
			  vta_lut_bin_report *binned, vta_error *err);
/* int32 data (biases). */
vta_status vta_wl_fill_i32(const vta_wl_tensor *t, const char *what, size_t count,
			   vta_wl_channels ch, int32_t lo, int32_t hi, int32_t *out,
			   vta_error *err);
/* Per-channel scales: `channels` floats (a single given scale is broadcast). */
vta_status vta_wl_fill_scales(const vta_wl_tensor *t, const char *what, size_t channels,
			      float *out, vta_error *err);

/* LUT-compress a materialised constant as the tensor spec asks (index_bitwidth, per-channel
 * or per-tensor tables with the pow2 stride convention). */
vta_status vta_wl_compress(const vta_wl_tensor *t, const char *what, vta_lut_type type,
			   const void *data, size_t count, vta_wl_channels ch, vta_lut_buffer *out,
			   vta_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VTA_WORKLOAD_DATA_H */
