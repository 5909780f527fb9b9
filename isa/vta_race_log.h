/*
 * vta_race_log.h - what one module accessed in one shared space (a space two modules may
 * touch), for the stream checks (vta_race.c): per instruction, in program order, the rows
 * it read and those it wrote, as a range or an ascending set. A row's list of accesses is
 * then never kept per row: the checks keep a row's last access per module, and ask the log
 * for the others only when that last one is unordered with the instruction checking it.
 */
#ifndef VTA_RACE_LOG_H
#define VTA_RACE_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define VTA_RACE_LOG_READ 1u
#define VTA_RACE_LOG_WRITE 2u

/* Rows [lo, hi) (rows NULL) or rows[0..n), read or written (flag) by instruction insn. */
typedef struct vta_race_log_rec {
	uint32_t insn, flag;
	uint64_t lo, hi;
	const uint32_t *rows;
	size_t n;
} vta_race_log_rec;

typedef struct vta_race_log {
	vta_race_log_rec *r;
	size_t n, cap;
	uint32_t **kept; /* the row sets the log copied */
	size_t n_kept, cap_kept;
} vta_race_log;

/* Instruction insn's accesses (appended in program order), false when out of memory. The
 * first takes rows[0..n), ascending, that live as long as the log; the second copies the
 * distinct rows v[0..n), in any order (and sorts v). */
/* v with room for `need` elements of `elem` bytes (capacity *cap, doubled as needed), or
 * NULL when out of memory (v is then left as it was); the checks' containers all grow so. */
void *vta_race_grow(void *v, size_t *cap, size_t need, size_t elem);

bool vta_race_log_add(vta_race_log *l, uint32_t insn, uint32_t flag, uint64_t lo, uint64_t hi,
		      const uint32_t *rows, size_t n);
bool vta_race_log_add_copy(vta_race_log *l, uint32_t insn, uint32_t flag, uint32_t *v,
			   size_t n);

/* The accesses of `row` by the last instructions of the log whose local clock (lclock[insn])
 * is above `since`, oldest first, one entry insn << 2 | flags per instruction, into
 * out[0..*n_out) (*cap its room, grown as needed). False when out of memory. */
bool vta_race_log_unordered(const vta_race_log *l, const uint32_t *lclock, uint32_t since,
			    uint64_t row, uint32_t **out, size_t *n_out, size_t *cap);

void vta_race_log_free(vta_race_log *l);

#endif /* VTA_RACE_LOG_H */
