/*
 * tflite_write.h - writing a .tflite model back out with changes: buffers replaced or added,
 * subgraph 0's tensors changed or added, operators inserted or rewired, operator codes and
 * metadata entries added (docs/models.md "The writer"). Everything the patch does not touch
 * is copied field by field from the original file, other subgraphs included, so the output
 * keeps what the reader does not interpret (signatures, other subgraphs, options of any op).
 * An empty patch re-serialises the model.
 *
 * The output is a fresh flatbuffer: buffers are stored inline (the offset/size form of large
 * models becomes inline data; beyond 2 GiB is an error), each buffer's data 16-byte aligned
 * as the schema's force_align asks. Tensor indices of the original are kept; new tensors,
 * buffers, operator codes and metadata entries are appended.
 */
#ifndef VTA_TFLITE_WRITE_H
#define VTA_TFLITE_WRITE_H

#include "tflite_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes for a buffer (not owned). */
typedef struct vta_tfl_blob {
	uint32_t index;          /* set_buffers: the buffer replaced; ignored for new ones */
	const uint8_t *data;
	size_t bytes;
} vta_tfl_blob;

typedef enum vta_tfl_quant_edit {
	VTA_TFL_QUANT_KEEP = 0,  /* copy the quantization as it is */
	VTA_TFL_QUANT_DROP,      /* no quantization */
	VTA_TFL_QUANT_AXIS       /* copy it with quantized_dimension = axis */
} vta_tfl_quant_edit;

/* A change to an existing tensor of subgraph 0. */
typedef struct vta_tfl_tensor_edit {
	uint32_t tensor;
	bool retype;             /* give it type, rank and shape below */
	vta_tfl_type type;
	int rank;
	int32_t shape[VTA_TFL_MAX_RANK];
	vta_tfl_quant_edit quant;
	int32_t axis;
} vta_tfl_tensor_edit;

/* A tensor appended to subgraph 0. */
typedef struct vta_tfl_new_tensor {
	const char *name;        /* NULL: none */
	vta_tfl_type type;
	int rank;
	int32_t shape[VTA_TFL_MAX_RANK];
	uint32_t buffer;
	int32_t quant_from;      /* copy this tensor's quantization, -1: none */
	vta_tfl_quant_edit quant;/* with quant_from: KEEP or AXIS */
	int32_t axis;
} vta_tfl_new_tensor;

/* An operator inserted into subgraph 0 (without options). */
#define VTA_TFL_NEW_OP_MAX_IO 8
typedef struct vta_tfl_new_op {
	size_t before;           /* goes before original operator `before` (n_ops: at the end) */
	uint32_t opcode_index;
	size_t n_inputs, n_outputs;
	int32_t inputs[VTA_TFL_NEW_OP_MAX_IO], outputs[VTA_TFL_NEW_OP_MAX_IO];
} vta_tfl_new_op;

/* Input `slot` of original operator `op` reads `tensor` instead. */
typedef struct vta_tfl_rewire {
	size_t op, slot;
	int32_t tensor;
} vta_tfl_rewire;

typedef struct vta_tfl_patch {
	size_t n_set_buffers;
	const vta_tfl_blob *set_buffers;
	size_t n_new_buffers;          /* become buffers n_buffers, n_buffers + 1, ... */
	const vta_tfl_blob *new_buffers;
	size_t n_tensor_edits;
	const vta_tfl_tensor_edit *tensor_edits;
	size_t n_new_tensors;          /* become tensors n_tensors, ... */
	const vta_tfl_new_tensor *new_tensors;
	size_t n_new_opcodes;          /* custom operator codes, become n_opcodes, ... */
	const char *const *new_opcodes;
	size_t n_new_ops;              /* in order; several before one operator keep it */
	const vta_tfl_new_op *new_ops;
	size_t n_rewires;
	const vta_tfl_rewire *rewires;
	size_t n_new_metadata;
	const vta_tfl_metadata *new_metadata;
} vta_tfl_patch;

/* Write model m with patch p (NULL: none) into a new buffer (*out, free() it). Errors name
 * the table and field the copy could not take ("operator 3: BuiltinOptions2 type 5 is not
 * known to the writer") or the patch entry that is out of range (VTA_E_USAGE). */
vta_status vta_tfl_write(const vta_tfl_model *m, const vta_tfl_patch *p, uint8_t **out,
			 size_t *bytes, vta_error *err);

#ifdef __cplusplus
}
#endif

#endif /* VTA_TFLITE_WRITE_H */
