/*
 * fuzz_seeds.c - writes the seeds `make fuzz` starts from that the tree holds in another
 * form: binary streams assembled from .s files (default config, as the stream targets read
 * them), .npy arrays of every dtype, LUT descriptors in fuzz_lut.c's layout, and .tflite
 * models with both compression containers. Run from the source tree.
 *
 *   fuzz_seeds stream OUT_DIR FILE.s...
 *   fuzz_seeds npy|lut|tflite OUT_DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_contract.h"
#include "lut.h"
#include "npy.h"
#include "prng.h"
#include "tfl_testmodel.h"
#include "tflite_compress.h"
#include "vta_asm.h"

static void put(const char *dir, const char *name, const void *bytes, size_t len)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	vta_error err = {0};
	if (vta_write_file(path, bytes, len, &err) != VTA_OK) {
		fprintf(stderr, "fuzz_seeds: %s\n", err.detail);
		exit(1);
	}
}

static int streams(const char *dir, int n, char **files)
{
	vta_config cfg;
	fuzz_stream_config(&cfg);
	int wrote = 0;
	for (int i = 0; i < n; i++) {
		vta_program prog;
		vta_program_init(&prog, &cfg);
		vta_error err = {0};
		uint8_t *b;
		size_t len;
		if (vta_asm_file(files[i], &cfg, &prog, &err) == VTA_OK &&
		    vta_program_serialize(&prog, &b, &len, &err) == VTA_OK) {
			char name[256];
			snprintf(name, sizeof(name), "seed-%d.bin", i);
			put(dir, name, b, len);
			free(b);
			wrote++;
		}
		vta_program_free(&prog);
	}
	printf("fuzz_seeds: %d of %d programs assemble for the default config\n", wrote, n);
	return 0;
}

static int npys(const char *dir)
{
	static const size_t shapes[][4] = {{4, 0, 0, 0}, {2, 3, 0, 0}, {1, 2, 2, 4}};
	static const int ranks[] = {1, 2, 4};
	static const vta_npy_dtype types[] = {VTA_NPY_I8, VTA_NPY_U8, VTA_NPY_I32, VTA_NPY_F32};
	uint8_t data[16 * 4 * 4] = {0};
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 7);
	for (int s = 0; s < 3; s++)
		for (int t = 0; t < 4; t++) {
			char path[4096];
			snprintf(path, sizeof(path), "%s/seed-%d-%d.npy", dir, s, t);
			vta_error err = {0};
			if (vta_npy_write(path, types[t], ranks[s], shapes[s], data, &err)) {
				fprintf(stderr, "fuzz_seeds: %s\n", err.detail);
				return 1;
			}
		}
	return 0;
}

static int luts(const char *dir)
{
	vta_prng r;
	vta_prng_seed(&r, 7);
	int n = 0;
	for (unsigned bw = 1; bw <= 5; bw++)
		for (size_t ch = 1; ch <= 4; ch *= 2)
			for (int axis = 0; axis < 2; axis++) {
				size_t count = 48;
				int8_t v[48];
				for (size_t i = 0; i < count; i++)
					v[i] = (int8_t)(vta_prng_range(&r, 0, (1 << bw) - 1) * 9 - 40);
				vta_lut_buffer b;
				vta_error err = {0};
				if (vta_lut_compress(VTA_LUT_INT8, v, count, ch, axis, bw,
						     VTA_LUT_STRIDE_POW2, &b, &err)) {
					vta_lut_buffer_free(&b);
					continue;
				}
				const vta_lut_tensor *t = &b.tensor;
				uint8_t out[12 + 4096];
				size_t len = 12;
				out[0] = (uint8_t)t->type;
				out[1] = (uint8_t)t->bitwidth;
				out[2] = (uint8_t)t->count;
				out[3] = (uint8_t)(t->count >> 8);
				out[4] = (uint8_t)t->channels;
				out[5] = (uint8_t)t->axis_last;
				out[6] = (uint8_t)t->value_table_stride;
				out[7] = (uint8_t)t->value_table_bytes;
				out[8] = (uint8_t)(t->value_table_bytes >> 8);
				out[9] = (uint8_t)t->indices_bytes;
				out[10] = (uint8_t)(t->indices_bytes >> 8);
				out[11] = t->channel_counts != NULL;
				memcpy(out + len, t->value_table, t->value_table_bytes);
				len += t->value_table_bytes;
				if (t->channel_counts) {
					memcpy(out + len, t->channel_counts, t->channels);
					len += t->channels;
				}
				memcpy(out + len, t->indices, t->indices_bytes);
				len += t->indices_bytes;
				char name[64];
				snprintf(name, sizeof(name), "seed-%d.lut", n++);
				put(dir, name, out, len);
				vta_lut_buffer_free(&b);
			}
	return 0;
}

static int tflites(const char *dir)
{
	for (int z = 0; z < 2; z++) {
		size_t len;
		uint8_t *m = tm_build(z, TM_OK, &len);
		put(dir, z ? "seed-test-lut.tflite" : "seed-test.tflite", m, len);
		free(m);
	}
	vta_tfl_model m;
	vta_lut_spec spec;
	vta_error err = {0};
	if (vta_tfl_model_load("tests/model/data/micro_speech_quantized.tflite", &m, &err) ||
	    vta_lut_spec_parse("tensors:\n"
			       "  - {subgraph: 0, tensor: 7, compression: [{lut: {index_bitwidth: 4}}]}\n"
			       "  - {subgraph: 0, tensor: 8, compression: [{lut: {index_bitwidth: 3}}]}\n",
			       "spec", &spec, &err)) {
		fprintf(stderr, "fuzz_seeds: %s\n", err.detail);
		return 1;
	}
	for (int c = 0; c < 2; c++) {
		vta_tfl_compress_options o;
		vta_tfl_compress_defaults(&o);
		o.container = c ? VTA_TFL_METADATA : VTA_TFL_DECODE;
		uint8_t *out;
		size_t len;
		if (vta_tfl_compress(&m, &spec, "spec", &o, &out, &len, NULL, &err)) {
			fprintf(stderr, "fuzz_seeds: %s\n", err.detail);
			return 1;
		}
		put(dir, c ? "seed-micro-metadata.tflite" : "seed-micro-decode.tflite", out, len);
		free(out);
	}
	vta_lut_spec_free(&spec);
	vta_tfl_model_free(&m);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "stream"))
		return streams(argv[2], argc - 3, argv + 3);
	if (argc == 3 && !strcmp(argv[1], "npy"))
		return npys(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "lut"))
		return luts(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "tflite"))
		return tflites(argv[2]);
	fprintf(stderr, "usage: fuzz_seeds stream OUT_DIR FILE.s... | npy|lut|tflite OUT_DIR\n");
	return 2;
}
