/*
 * vta_dram.c - the simulated DRAM: one flat, zero-initialised, byte-addressed space.
 *
 * It models no timing (that is the simulator's DRAM port); it only holds bytes. An image
 * file is raw bytes copied to address 0; program segments are copied to their addresses.
 * Every range is checked without overflow (addr + len may exceed 2^64).
 *
 * The bytes are an anonymous mapping of their own, never a heap block: the kernel's zero
 * pages appear as they are touched, so a DRAM of hundreds of MiB costs only the pages a
 * stream uses, whatever the allocator's thresholds (a heap block was cleared whole, 64 MiB
 * per layer on the tiny config). The mapping is advised for transparent huge pages: a
 * layer's buffers are contiguous, so a first touch maps 2 MiB of them instead of 4 KiB.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, madvise */
#include "vta_dram.h"
#include "vta_file.h"
#include "vta_text.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define VTA_DRAM_MAX_BYTES (64ull << 30)

vta_status vta_dram_init(vta_dram *dram, uint64_t size, vta_error *err)
{
	dram->bytes = NULL;
	dram->size = 0;
	if (size == 0)
		return vta_fail(err, VTA_E_USAGE, "DRAM size must be at least 1 byte");
	/* far beyond any config (dram.size_mib <= 4096); refused before asking the allocator */
	if (size > VTA_DRAM_MAX_BYTES || size > SIZE_MAX)
		return vta_fail(err, VTA_E_USAGE, "DRAM of %llu bytes is larger than %llu bytes",
				(unsigned long long)size, (unsigned long long)VTA_DRAM_MAX_BYTES);
	void *p = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	if (p == MAP_FAILED)
		return vta_fail(err, VTA_E_NOMEM, "out of memory for a DRAM of %llu bytes",
				(unsigned long long)size);
	(void)madvise(p, (size_t)size, MADV_HUGEPAGE); /* advice only: THP may be off */
	dram->bytes = p;
	dram->size = size;
	return VTA_OK;
}

void vta_dram_free(vta_dram *dram)
{
	if (!dram)
		return;
	if (dram->bytes)
		munmap(dram->bytes, (size_t)dram->size);
	dram->bytes = NULL;
	dram->size = 0;
}

vta_status vta_dram_reset(vta_dram *dram, uint64_t used, vta_error *err)
{
	if (used <= dram->size / 2) {
		if (used)
			memset(dram->bytes, 0, (size_t)used);
		return VTA_OK;
	}
	/* most of it, or not known: fresh pages cost no more than clearing */
	uint64_t size = dram->size;
	vta_dram_free(dram);
	return vta_dram_init(dram, size, err);
}

int vta_dram_in_range(const vta_dram *dram, uint64_t addr, uint64_t len)
{
	return addr <= dram->size && len <= dram->size - addr;
}

vta_status vta_dram_load_image(vta_dram *dram, const char *path, vta_error *err)
{
	FILE *f;
	uint64_t size, pos = 0;
	vta_status st = vta_file_open(path, "DRAM image", UINT64_MAX, &f, &size, err);
	if (st)
		return st;
	for (;;) {
		size_t room = dram->size - pos > 65536 ? 65536 : (size_t)(dram->size - pos);
		if (room == 0) {
			/* the DRAM is full: the image may only end here */
			if (fgetc(f) != EOF)
				st = vta_fail(err, VTA_E_USAGE,
					      "%s: the image is larger than the DRAM (%llu bytes; "
					      "see dram.size_mib)",
					      VTA_QPATH(path), (unsigned long long)dram->size);
			break;
		}
		size_t got = fread(dram->bytes + pos, 1, room, f);
		pos += got;
		if (got < room)
			break;
	}
	if (st == VTA_OK && ferror(f))
		st = vta_fail(err, VTA_E_IO, "%s: read error", VTA_QPATH(path));
	fclose(f);
	return st;
}

vta_status vta_dram_place_segments(vta_dram *dram, const vta_program *prog, vta_error *err)
{
	for (size_t i = 0; i < prog->n_segments; i++) {
		const vta_segment *s = &prog->segments[i];
		if (!vta_dram_in_range(dram, s->dram_addr, s->size))
			return vta_fail(err, VTA_E_OOB,
					"segment %zu (%s, %u bytes at 0x%llx) lies outside the DRAM "
					"(%llu bytes)",
					i, s->kind == VTA_SEG_UOP ? "uops" : "data", s->size,
					(unsigned long long)s->dram_addr,
					(unsigned long long)dram->size);
		if (s->size)
			memcpy(dram->bytes + s->dram_addr, s->bytes, s->size);
	}
	return VTA_OK;
}

vta_status vta_dram_dump(const vta_dram *dram, uint64_t addr, uint64_t len, const char *path,
			 vta_error *err)
{
	if (!vta_dram_in_range(dram, addr, len))
		return vta_fail(err, VTA_E_USAGE,
				"dump range 0x%llx + %llu bytes lies outside the DRAM (%llu bytes)",
				(unsigned long long)addr, (unsigned long long)len,
				(unsigned long long)dram->size);
	return vta_write_file(path, dram->bytes + addr, (size_t)len, err);
}
