/*
 * vta_dram.h - the simulated DRAM: a flat, zero-initialised byte space of the config's size.
 *
 * A DRAM image file is raw bytes loaded at address 0 (docs/isa.md "DRAM images").
 * Program segments are copied in before a run.
 */
#ifndef VTA_DRAM_H
#define VTA_DRAM_H

#include <stddef.h>
#include <stdint.h>

#include "vta_program.h"
#include "vta_status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vta_dram {
	uint8_t *bytes;
	uint64_t size;
} vta_dram;

/* Zeroed DRAM of `size` bytes (1 byte .. 64 GiB; VTA_E_USAGE outside, VTA_E_NOMEM if the
 * host cannot provide it). */
vta_status vta_dram_init(vta_dram *dram, uint64_t size, vta_error *err);
void vta_dram_free(vta_dram *dram);
/* Make the DRAM all zero again, as vta_dram_init left it, for another run: [0, used) is
 * cleared and the pages stay mapped (a run of layers then pays for mapping and zeroing
 * fresh pages once, not per layer). used must bound every byte written since the DRAM was
 * last zero; UINT64_MAX (not known) maps a fresh zeroed DRAM, VTA_E_NOMEM if the host
 * cannot provide it (the DRAM is then freed). */
vta_status vta_dram_reset(vta_dram *dram, uint64_t used, vta_error *err);
/* Load a raw image file at address 0 (error if larger than the DRAM). */
vta_status vta_dram_load_image(vta_dram *dram, const char *path, vta_error *err);
/* Copy every segment of prog into DRAM (error naming the segment if out of range). */
vta_status vta_dram_place_segments(vta_dram *dram, const vta_program *prog, vta_error *err);
/* Write [addr, addr+len) to a file. */
vta_status vta_dram_dump(const vta_dram *dram, uint64_t addr, uint64_t len, const char *path,
			 vta_error *err);
/* True if [addr, addr+len) lies inside the DRAM (overflow-safe). */
int vta_dram_in_range(const vta_dram *dram, uint64_t addr, uint64_t len);

#ifdef __cplusplus
}
#endif

#endif /* VTA_DRAM_H */
