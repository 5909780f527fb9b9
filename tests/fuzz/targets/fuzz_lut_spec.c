/*
 * fuzz_lut_spec.c - the TFLM compression spec reader (vta_lut_spec_parse) on arbitrary
 * text. Contract: OK or one clean error line; every entry of a spec that reads has a width
 * of 1..7, and every tensor entry (not a selector by op type) is found by its (subgraph,
 * tensor).
 */
#include "fuzz_contract.h"
#include "lut.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	fuzz_require(text != NULL, "out of memory");
	memcpy(text, data, size);
	text[size] = '\0';
	vta_lut_spec spec;
	vta_error err = {0};
	vta_status st = vta_lut_spec_parse(text, "fuzz.yaml", &spec, &err);
	fuzz_expect(st, &err);
	if (st == VTA_OK) {
		for (size_t i = 0; i < spec.count; i++) {
			const vta_lut_spec_tensor *t = &spec.tensors[i];
			fuzz_require(t->index_bitwidth >= 1 && t->index_bitwidth <= 7,
				     "a spec width is 1..7");
			/* a tensor entry is found by its tensor; a selector (op type, size) names
			 * none until it is resolved against a model */
			fuzz_require(t->op != VTA_LUT_FILTERS_NONE ||
					     vta_lut_spec_find(&spec, t->subgraph, t->tensor) == t,
				     "a spec's tensor entry is found");
		}
		vta_lut_spec_free(&spec);
	}
	free(text);
	return 0;
}
