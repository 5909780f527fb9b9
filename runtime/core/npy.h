/*
 * npy.h - read and write NumPy .npy files (format version 1.0/2.0, little-endian, C order),
 * so that outside tools (numpy, a TFLite interpreter, a firmware team's reference) can check
 * every tensor vtasim uses. Supported dtypes: int8 (|i1), uint8 (|u1), int32 (<i4), float32
 * (<f4). Errors name the file and what is wrong (VTA_E_DATA / VTA_E_IO).
 */
#ifndef VTA_NPY_H
#define VTA_NPY_H

#include <stddef.h>
#include <stdint.h>

#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VTA_NPY_MAX_RANK 8

typedef enum vta_npy_dtype { VTA_NPY_I8, VTA_NPY_U8, VTA_NPY_I32, VTA_NPY_F32, VTA_NPY_I16 } vta_npy_dtype;

typedef struct vta_npy {
	vta_npy_dtype dtype;
	int rank;
	size_t shape[VTA_NPY_MAX_RANK];
	size_t count;     /* product of shape */
	void *data;       /* count elements, host order */
} vta_npy;

size_t vta_npy_dtype_size(vta_npy_dtype dtype);
vta_status vta_npy_read(const char *path, vta_npy *out, vta_error *err);
vta_status vta_npy_write(const char *path, vta_npy_dtype dtype, int rank, const size_t *shape,
			 const void *data, vta_error *err);
void vta_npy_free(vta_npy *npy);

#ifdef __cplusplus
}
#endif

#endif /* VTA_NPY_H */
