/*
 * build_id.h - what identifies this vtasim build, for files one build writes and another may
 * read (a sweep's records).
 */
#ifndef VTASIM_BUILD_ID_H
#define VTASIM_BUILD_ID_H

#include <stddef.h>

/* "vtasim VERSION build HEX": the linker's GNU build ID, a hash of the executable (the
 * version alone without one). */
void vtasim_build_id(char *out, size_t size);

#endif /* VTASIM_BUILD_ID_H */
