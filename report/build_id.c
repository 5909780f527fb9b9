/*
 * build_id.c - what identifies this vtasim build: the project's version and the GNU build
 * ID the linker wrote into the executable (a hash of its contents), so files one build
 * wrote and another reads (a sweep's records) can tell the builds apart. Without a build
 * ID note, the version alone.
 */
#define _GNU_SOURCE /* dl_iterate_phdr */
#include <elf.h>
#include <link.h>
#include <stdio.h>
#include <string.h>

#include "build_id.h"

typedef struct found_id {
	char *out;
	size_t size;
	size_t len;
} found_id;

/* The executable is the first object dl_iterate_phdr reports: its NT_GNU_BUILD_ID note. */
static int note_of_executable(struct dl_phdr_info *info, size_t size, void *vctx)
{
	found_id *f = vctx;
	(void)size;
	for (size_t i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_NOTE)
			continue;
		const unsigned char *p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
		const unsigned char *end = p + ph->p_memsz;
		while (p + sizeof(ElfW(Nhdr)) <= end) {
			const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)(const void *)p;
			const size_t name_len = (nh->n_namesz + 3) & ~(size_t)3;
			const size_t desc_len = (nh->n_descsz + 3) & ~(size_t)3;
			const unsigned char *desc = p + sizeof(*nh) + name_len;
			if (desc + desc_len > end)
				break;
			if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
			    !memcmp(p + sizeof(*nh), "GNU", 4)) {
				for (size_t k = 0; k < nh->n_descsz && f->len + 3 < f->size; k++)
					f->len += (size_t)snprintf(f->out + f->len, f->size - f->len,
								   "%02x", desc[k]);
				return 1;
			}
			p = desc + desc_len;
		}
	}
	return 1; /* only the executable */
}

void vtasim_build_id(char *out, size_t size)
{
	found_id f = {out, size, 0};
	f.len = (size_t)snprintf(out, size, "vtasim %s", VTASIM_VERSION);
	if (f.len >= size)
		return;
	const size_t before = f.len;
	f.len += (size_t)snprintf(out + f.len, size - f.len, " build ");
	dl_iterate_phdr(note_of_executable, &f);
	if (f.len == before + strlen(" build "))
		out[before] = '\0';
}
