/*
 * fuzz_config.c - the hardware config reader (vta_config_load) on arbitrary YAML. Contract:
 * OK or one clean error line; a config that loads derives again to the same values.
 */
#include "fuzz_contract.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_as_file(data, size, ".yaml");
	vta_config cfg;
	vta_error err = {0};
	vta_status st = vta_config_load(path, &cfg, &err);
	fuzz_expect(st, &err);
	if (st == VTA_OK) {
		vta_config again = cfg;
		fuzz_require(vta_config_derive(&again, &err) == VTA_OK, "a loaded config re-derives");
		fuzz_require(vta_config_same(&cfg, &again), "derivation is idempotent");
	}
	return 0;
}
