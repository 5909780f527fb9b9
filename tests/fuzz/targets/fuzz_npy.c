/*
 * fuzz_npy.c - the .npy reader on arbitrary bytes. Contract: OK or one clean error line; an
 * array that reads writes back and reads again to the same dtype, shape and bytes.
 */
#include "fuzz_contract.h"
#include "npy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_as_file(data, size, ".npy");
	vta_npy a;
	vta_error err = {0};
	vta_status st = vta_npy_read(path, &a, &err);
	fuzz_expect(st, &err);
	if (st != VTA_OK)
		return 0;
	char back[300];
	snprintf(back, sizeof(back), "%s.back.npy", path);
	st = vta_npy_write(back, a.dtype, a.rank, a.shape, a.data, &err);
	fuzz_expect(st, &err);
	if (st == VTA_OK) {
		vta_npy b;
		st = vta_npy_read(back, &b, &err);
		if (st != VTA_OK)
			fuzz_die("an array written back does not read", err.detail);
		fuzz_require(b.dtype == a.dtype && b.rank == a.rank && b.count == a.count,
			     "an array written back reads the same");
		fuzz_require(!memcmp(b.shape, a.shape, sizeof(a.shape[0]) * (size_t)a.rank),
			     "an array written back has the same shape");
		fuzz_require(!a.count || !memcmp(b.data, a.data, a.count * vta_npy_dtype_size(a.dtype)),
			     "an array written back has the same data");
		vta_npy_free(&b);
	}
	unlink(back);
	vta_npy_free(&a);
	return 0;
}
