/*
 * engine_cmp.h - where two executions of one program differ: the reference executor's and
 * the SystemC model's SRAMs and DRAM after the same run (`vtasim exec --engine both`).
 */
#ifndef VTASIM_ENGINE_CMP_H
#define VTASIM_ENGINE_CMP_H

#include <stdint.h>

#include "sram_view.h"
#include "vta_config.h"

typedef struct engine_cmp {
	uint64_t count;  /* differing rows (SRAM) or bytes (DRAM); 0: identical */
	char where[64];  /* the first difference: "ACC row 5 lane 3", "DRAM 0x2000" */
	char ref[64];    /* its value in the reference executor's image */
	char model[64];  /* and in the model's */
} engine_cmp;

/* Compare two images of SRAM v (v->depth rows each): ref, the reference executor's, and
 * model, the model's. */
void engine_cmp_sram(const vta_config *cfg, const sram_view *v, const uint8_t *ref,
		     const uint8_t *model, engine_cmp *out);

/* Compare two DRAM images of size bytes. */
void engine_cmp_dram(const uint8_t *ref, const uint8_t *model, uint64_t size, engine_cmp *out);

#endif /* VTASIM_ENGINE_CMP_H */
