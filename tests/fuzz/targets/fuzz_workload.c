/*
 * fuzz_workload.c - the workload reader (vta_workload_load) on arbitrary YAML, and the
 * materialisation of its small layers (the seeded random tensors, .npy data it names).
 * Contract: OK or one clean error line from both.
 */
#include "fuzz_contract.h"
#include "workload.h"
#include "workload_layer.h"

/* Materialising a mutated huge layer is slow, not wrong: only small ones. */
#define MAX_ELEMS 100000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_as_file(data, size, ".yaml");
	vta_workload wl;
	vta_error err = {0};
	vta_status st = vta_workload_load(path, &wl, &err);
	fuzz_expect(st, &err);
	if (st != VTA_OK)
		return 0;
	for (size_t l = 0; l < wl.n_layers; l++) {
		const vta_wl_layer *ly = &wl.layers[l];
		const vta_wl_tensor *t = ly->op == VTA_WL_ADD ? &ly->inputs[0] : &ly->input;
		uint64_t n = 1;
		for (int k = 0; k < t->rank && n <= MAX_ELEMS; k++)
			n *= (uint64_t)t->shape[k];
		if (n > MAX_ELEMS)
			continue;
		vta_layer_data d;
		vta_error e = {0};
		st = vta_layer_materialize(ly, &d, &e);
		fuzz_expect(st, &e);
		if (st == VTA_OK)
			vta_layer_data_free(&d);
	}
	vta_workload_free(&wl);
	return 0;
}
