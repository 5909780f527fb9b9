/*
 * fuzz_tflite.c - the .tflite reader (vta_tfl_model_parse) on arbitrary bytes, with its
 * compression containers (COMPRESSION_METADATA, TFLM_DECODE). Contract: OK or one clean
 * error line; every LUT tensor of a model that reads decodes to OK or one clean line; the
 * model rewrites (vta_tfl_write) and reads back with the same tensors, ops and compressed
 * tensors.
 */
#include "fuzz_contract.h"
#include "tflite_model.h"
#include "tflite_write.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *image = malloc(size ? size : 1);
	fuzz_require(image != NULL, "out of memory");
	memcpy(image, data, size);
	vta_tfl_model m;
	vta_error err = {0};
	vta_status st = vta_tfl_model_parse(image, size, "fuzz.tflite", &m, &err); /* owns image */
	fuzz_expect(st, &err);
	if (st != VTA_OK) {
		vta_tfl_model_free(&m);
		return 0;
	}
	for (size_t i = 0; i < m.n_tensors; i++) {
		const vta_tfl_tensor *t = &m.tensors[i];
		size_t bytes = t->count * vta_tfl_type_size(t->type);
		if (t->container == VTA_TFL_PLAIN || bytes > (1u << 22))
			continue;
		void *out = malloc(bytes ? bytes : 1);
		fuzz_require(out != NULL, "out of memory");
		vta_error e = {0};
		fuzz_expect(vta_tfl_tensor_decode(t, out, bytes, &e), &e);
		free(out);
	}
	uint8_t *w;
	size_t wl;
	st = vta_tfl_write(&m, NULL, &w, &wl, &err);
	fuzz_expect(st, &err);
	if (st == VTA_OK) {
		vta_tfl_model back;
		if (vta_tfl_model_parse(w, wl, "rewritten.tflite", &back, &err) != VTA_OK)
			fuzz_die("a rewritten model does not read", err.detail);
		fuzz_require(back.n_tensors == m.n_tensors && back.n_ops == m.n_ops &&
				     back.n_compressed == m.n_compressed,
			     "a rewritten model reads the same");
		vta_tfl_model_free(&back);
	}
	vta_tfl_model_free(&m);
	return 0;
}
