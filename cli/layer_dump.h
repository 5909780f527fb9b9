/*
 * layer_dump.h - `vtasim run --dump DIR`: per layer, the input tensors, the decoded constants,
 * the simulated and golden outputs as .npy files, the emitted stream as assembly, the DRAM
 * image the stream starts from and a layer.json saying where the output lies in DRAM, so
 * that outside tools can check every number and replay the stream with `vtasim exec`
 * (docs/cli.md lists the files).
 */
#ifndef VTASIM_LAYER_DUMP_H
#define VTASIM_LAYER_DUMP_H

#include "emit_layer.h"
#include "tensor.h"
#include "vta_config.h"
#include "workload.h"
#include "workload_layer.h"

vta_status layer_dump(const char *dir, const vta_wl_layer *spec, const vta_layer_data *d,
		      const vta_tensor_i8 *golden, const vta_tensor_i8 *simulated,
		      const vta_layer_stream *ls, const vta_config *cfg, const uint8_t *dram_image,
		      uint64_t dram_image_bytes, vta_error *err);

#endif /* VTASIM_LAYER_DUMP_H */
