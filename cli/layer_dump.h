/*
 * layer_dump.h - `vtasim run --dump DIR`: per layer, the input tensors, the decoded constants,
 * the simulated and golden outputs as .npy files, the emitted stream as assembly, the DRAM
 * image the stream starts from and a layer.json saying where the output lies in DRAM, so
 * that outside tools can check every number and replay the stream with `vtasim exec`
 * (docs/cli.md lists the files).
 */
#ifndef VTASIM_LAYER_DUMP_H
#define VTASIM_LAYER_DUMP_H

#include "layer_run.h"
#include "vta_config.h"

/* Write the files of the layer `v` shows (checked: golden and got are set) under dir. */
vta_status layer_dump(const char *dir, const vta_config *cfg, const vta_layer_view *v,
		      vta_error *err);

#endif /* VTASIM_LAYER_DUMP_H */
