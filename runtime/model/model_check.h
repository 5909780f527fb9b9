/*
 * model_check.h - what a model run will compute and hold, checked before it allocates
 * anything (model_run.c calls it first): every operator's output holds what its inputs make
 * (shapes derived through the graph, so a file cannot claim a huge intermediate tensor a
 * small input would never fill), every tensor's byte size fits, and the bytes the run holds
 * stay within a limit. docs/models.md "What a run may hold".
 */
#ifndef VTA_MODEL_CHECK_H
#define VTA_MODEL_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "tflite_model.h"
#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The limit a run takes when its options give none (0): 4 GiB. */
#define VTA_MAX_MEMORY_DEFAULT (4ull << 30)

/* The bytes a run of `m` holds at once: every model input, operator output and variable
 * state twice (the run and its all-host reference), a third time with a reference cache (its
 * entry), every LUT-compressed constant decoded on the host, and the largest output twice
 * more (the layer's golden outputs). */
typedef struct vta_model_memory {
	uint64_t bytes;           /* saturates at UINT64_MAX */
	int32_t largest;          /* the largest tensor counted, or -1 */
	uint64_t largest_bytes;
} vta_model_memory;

/* Each operator's output against what its inputs and options make (VTA_E_DATA naming the
 * operator and the tensor), then the bytes against max_memory (0: the default; VTA_E_NOMEM
 * naming the limit and the largest tensor). *mem (may be NULL) gets the count. */
vta_status vta_model_check(const vta_tfl_model *m, uint64_t max_memory, bool cached,
			   vta_model_memory *mem, vta_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VTA_MODEL_CHECK_H */
