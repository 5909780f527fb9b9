/*
 * fuzz_mutate.h - the mutation every fuzz test applies to its seed files: one to four edits
 * (flip a bit, delete a byte, insert a token, write a random byte, truncate), deterministic
 * from the generator's state. Include after cmocka.h.
 */
#ifndef FUZZ_MUTATE_H
#define FUZZ_MUTATE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "prng.h"

/* One random mutation of buf[0..*len) into a new buffer (caller frees). */
static inline uint8_t *fuzz_mutate(vta_prng *r, const uint8_t *buf, size_t len, size_t *out_len)
{
	uint8_t *m = malloc(len + 64);
	assert_non_null(m);
	memcpy(m, buf, len);
	size_t n = len;
	int edits = 1 + (int)vta_prng_range(r, 0, 3);
	static const char *const tokens[] = {"-", "0x", "99999999999", ",", "=", "\n", ":", "{",
					     "}", "[", "]", "-1", "65536", "load", "gemm", " "};
	for (int e = 0; e < edits && n > 0; e++) {
		size_t at = (size_t)vta_prng_range(r, 0, (int64_t)n - 1);
		switch (vta_prng_range(r, 0, 4)) {
		case 0: /* flip a bit */
			m[at] ^= (uint8_t)(1u << vta_prng_range(r, 0, 7));
			break;
		case 1: /* delete a byte */
			memmove(m + at, m + at + 1, n - at - 1);
			n--;
			break;
		case 2: { /* insert a token */
			const char *t = tokens[vta_prng_range(r, 0, 15)];
			size_t tl = strlen(t);
			if (n + tl > len + 64)
				break;
			memmove(m + at + tl, m + at, n - at);
			memcpy(m + at, t, tl);
			n += tl;
			break;
		}
		case 3: /* random byte */
			m[at] = (uint8_t)vta_prng_range(r, 0, 255);
			break;
		default: /* truncate */
			n = at;
			break;
		}
	}
	*out_len = n;
	return m;
}

#endif /* FUZZ_MUTATE_H */
